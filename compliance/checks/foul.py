"""FOUL-MISHANDLED: a fouled player hand was not handled per the table's foul policy.

A player hand is *foul* when its low hand outranks its high hand (``rules.settings.is_foul``; seed
002 rule 3.7.2, seed 000 rule 5). It is seen foul when the dealer turns it face up to settle
(PLAYER_EXPOSED, a full setting of faces). What must follow is the table's ``foul_policy``:

* ``house-way-reset`` (seed 002 3.7.2: "the hand will be set by the Dealer in accordance to the
  House Way"): before the hand is collected, the dealer re-sets it so that it is equal in rank to
  the house way's setting of those cards. Judged at ROUND_END on the last setting seen in that
  seat's areas before collection: still foul ("settled as dealt"), or re-set but not to the house
  way. Evidence: the frame that showed that last setting. A round cut off by the end of the
  footage is not judged (the re-set may have come later).
* ``loses`` (seed 000 rule 5: "his hand fouls and he automatically loses to the dealer"): the hand
  must not be re-set and played as a valid hand. Trigger: after the foul exposure, the seat's cards
  change to another full setting (a HAND_CHANGED that reads as a setting) - the dealer re-set it.
  Judged at once. Whether the wager was then taken is SETTLEMENT's to judge (from the chips). The
  finding rests on the foul exposure's reads only: the re-set shows the same cards (a misread in it
  would not), so its own reads add no doubt (seed 52's b52-0011 had been a review item at 0.70, the
  re-set's weakest read).

A hand turned up with one face the camera could not name (its area one card short: the face is in
``TableState.unread_faces``, not among the cards) is judged once a later setting of that seat names
it: the same cards but one, in a full setting (the dealer's re-set, or the same hand read whole).
The missing card is the one that setting adds, and it lay in the area that was short. The finding
says so (b42-0017: a 6c not read in a foul hand, named by the house-way re-set that followed).
When no later setting names it, the hand is still foul if it is foul *whatever* that card is (every
card of the deck not shown tried in the short area: b41-0000's high 9d 8c 4d 2d and one card can be
no more than a pair of nines, under a low Jk A, a pair of aces); under ``house-way-reset`` it is then
judged "settled as dealt" when the seat's faces did not change before it was collected.

One finding per seat per round. Confidence 1.0 (every judgement rests on faces seen), capped by the
camera's read confidence of every card of the two settings it rests on (the foul exposure and the
last setting seen; ``Event.read_confidence``, the lowest per-card read of their faces): one misread
card can make a hand look foul, or re-set otherwise than it was. That a hand *is* foul rests only on
the cards whose misread could unmake it: where the hand is foul whatever its doubtful cards are
(those read under ``MonitorConfig.review_below``, at most two, every card of the deck the setting
does not show tried in each one's place; ``_foul_read``), the foul rests on the other cards' reads,
and the finding says so. At 720p one read under 0.7 among a hand's seven is common: seed 52's five
FOUL-MISHANDLED were all review items on that account (models/HISTORY.md, twentieth session). A
re-set judged against the house way rests on every card of it (the house way sets them all).
"""

from __future__ import annotations

from compliance.checks._base import (
    Check,
    CheckContext,
    _display_order,
    holds_whatever,
    house_way_setting,
    setting_of,
    show,
)
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState, min_read
from rules.cards import Card, CardParseError, format_cards, parse_cards
from rules.settings import Setting, SettingError, is_foul, setting_key

__all__ = ["FoulMishandled"]


class FoulMishandled(Check):
    check_id = CheckId.FOUL_MISHANDLED
    per_round = (
        *Check.per_round,
        *("_fouls", "_read", "_short", "_named_later", "_blind", "_last_read", "_doubt_note"),
    )

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        # (round, position) -> (foul setting, last setting seen, its event)
        self._fouls: dict[tuple[int, str], tuple[Setting, Setting, Event]] = {}
        self._read: dict[tuple[int, str], float | None] = {}  # read confidence of the foul exposure
        # exposures read a card short (a face not named), until a later setting names it
        self._short: dict[tuple[int, str], Event] = {}
        self._named_later: dict[tuple[int, str], str] = {}  # the card a later setting named
        # exposures read a card short that are foul whatever the card is, while the faces stay put
        self._blind: dict[tuple[int, str], Event] = {}
        # the read that the last setting seen is foul rests on (_foul_read), where it is foul
        self._last_read: dict[tuple[int, str], float | None] = {}
        self._doubt_note: dict[tuple[int, str], str] = {}  # what the foul's doubtful reads were

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        policy = self.ctx.layout.foul_policy
        if event.kind is EventKind.PLAYER_EXPOSED and event.position is not None:
            s = setting_of(event.high, event.low)
            if s is not None and is_foul(s):
                key = (rnd.number, event.position)
                self._fouls[key] = (s, s, event)
                read, note = self._foul_read(rnd, event)
                self._read[key] = self._last_read[key] = read
                if note:
                    self._doubt_note[key] = note
            elif s is None and len(event.high) + len(event.low) == rnd.hand_size - 1:
                self._short[(rnd.number, event.position)] = event
                if _foul_whatever(event.high, event.low):
                    self._blind[(rnd.number, event.position)] = event
            return []
        if event.kind is EventKind.HAND_CHANGED and event.position is not None:
            key = (rnd.number, event.position)
            s = setting_of(event.high, event.low)
            short = self._short.get(key)
            if short is not None and s is not None:  # a full setting: it names the card, or is other cards
                del self._short[key]
                self._blind.pop(key, None)
                if key not in self._fouls:
                    self._complete(key, short, s, event)
            elif (
                short is not None
                and (event.high or event.low)
                and (sorted(event.high), sorted(event.low)) != (sorted(short.high), sorted(short.low))
            ):
                self._blind.pop(key, None)  # the faces moved: not settled as they were shown
            rec = self._fouls.get(key)
            if rec is None or s is None:
                return []
            read = self._read.get(key)
            if s.cards != rec[0].cards:
                twin = _reread_reset(rec[0], s)
                if twin is None:
                    return []
                # the foul's cards but one read two ways, set otherwise: the dealer's re-set, the link
                # resting on both settings' reads
                read = min_read(read, event.read_confidence)
                note = f" ({twin[0]} of the foul hand read {twin[1]} in the re-set: one card, read two ways)"
                if note not in self._doubt_note.get(key, ""):
                    self._doubt_note[key] = self._doubt_note.get(key, "") + note
            self._fouls[(rnd.number, event.position)] = (rec[0], s, event)
            self._last_read[key] = self._foul_read(rnd, event)[0] if is_foul(s) else event.read_confidence
            if policy == "loses" and setting_key(s) != setting_key(rec[0]) and self.once(rnd, event.position):
                return [
                    self.finding(
                        rnd,
                        seat=event.seat,
                        t=event.t,
                        frame=event.frame,
                        expected=f"foul hand {show(rec[0])} loses as dealt (foul policy 'loses')",
                        observed=f"the hand was re-set to {show(s)} and played"
                        + self._doubt_note.get(key, "")
                        + self._naming(event.position, rnd),
                        # the re-set shows the foul's very cards (checked above): a misread there would
                        # not, so the finding rests on the foul's reads, not on the re-set's (unless a
                        # card of it was read otherwise: then on both)
                        read=read,
                        rests_on=[rnd.positions[event.position]],
                    )
                ]
            return []
        if event.kind is EventKind.ROUND_END and policy == "house-way-reset":
            return self._judge_resets(rnd)
        return []

    def _judge_resets(self, rnd: RoundState) -> list[Finding]:
        out = self._judge_blind(rnd)
        hw = self.ctx.house_way
        for (number, position), (foul, last, ev) in sorted(self._fouls.items(), key=lambda kv: kv[1][2].t):
            if number != rnd.number:
                continue
            hw_set = house_way_setting(hw, last) if hw is not None else None
            key = (number, position)
            if is_foul(last):
                observed = f"foul hand {show(foul)} settled as dealt, never re-set"
                read = min_read(self._read.get(key), self._last_read.get(key, ev.read_confidence))
            elif hw_set is not None and setting_key(last) != setting_key(hw_set):
                observed = f"foul hand {show(foul)} re-set to {show(last)}, not the house way"
                read = min_read(self._read.get(key), ev.read_confidence)
            else:
                continue
            observed += self._doubt_note.get(key, "") + self._naming(position, rnd)
            if not self.once(rnd, position):
                continue
            expected = "re-set by the house way (foul policy 'house-way-reset')"
            if hw_set is not None:
                expected = f"re-set to {show(hw_set)} (house way; foul policy 'house-way-reset')"
            out.append(self._settled(rnd, position, ev, expected, observed, read))
        return out

    def _settled(
        self, rnd: RoundState, position: str, ev: Event, expected: str, observed: str, read: float | None
    ) -> Finding:
        """A finding judged at the round's end (foul policy ``house-way-reset``), its evidence the frame
        of the setting ``ev`` it rests on."""
        return self.finding(
            rnd,
            seat=ev.seat,
            t=ev.t,
            frame=ev.frame,
            expected=expected,
            observed=observed,
            read=read,
            rests_on=[rnd.positions[position]],
        )

    def _judge_blind(self, rnd: RoundState) -> list[Finding]:
        """Hands turned up a card short, foul whatever that card is, whose faces stayed as shown until
        the round ended (foul policy ``house-way-reset``): settled as dealt."""
        out = []
        for (number, position), ev in sorted(self._blind.items(), key=lambda kv: kv[1].t):
            if number != rnd.number or (number, position) in self._fouls or not self.once(rnd, position):
                continue
            expected = "re-set by the house way (foul policy 'house-way-reset')"
            observed = (
                f"foul hand {_show_short(ev.high, ev.low)} settled as dealt, never re-set "
                "(foul whatever the card not read is)"
            )
            out.append(self._settled(rnd, position, ev, expected, observed, ev.read_confidence))
        return out

    def _foul_read(self, rnd: RoundState, event: Event) -> tuple[float | None, str]:
        """The read confidence that the foul setting ``event`` shows is foul rests on, and what the
        finding says of the doubtful reads it does not rest on (module doc): ``event.read_confidence``
        unless the hand is foul whatever its one or two cards read under ``review_below`` are; then
        the lowest read of its other cards."""
        p = rnd.positions.get(event.position or "")
        if p is None or (list(p.high), list(p.low)) != (event.high, event.low):
            return event.read_confidence, ""
        reads = [
            (area, i, c, r)
            for area, cards, conf in (("high", p.high, p.card_conf[1]), ("low", p.low, p.card_conf[2]))
            if len(conf) == len(cards)
            for i, (c, r) in enumerate(zip(cards, conf, strict=True))
        ]
        if len(reads) != len(event.high) + len(event.low):
            return event.read_confidence, ""
        doubt = [x for x in reads if x[3] is not None and x[3] < self.ctx.config.review_below]
        if not doubt or len(doubt) > 2 or not _foul_whatever_at(event.high, event.low, doubt):
            return event.read_confidence, ""
        rest = min_read(*(r for _, _, _, r in reads if (r is None or r >= self.ctx.config.review_below)))
        said = ", ".join(f"{c} (read {r:.2f})" for _, _, c, r in doubt)
        return rest, f" (foul whatever {said} {'is' if len(doubt) == 1 else 'are'})"

    def _complete(self, key: tuple[int, str], short: Event, s: Setting, event: Event) -> None:
        """The exposure ``short`` (a card short) completed by the card the full setting ``s`` adds to
        its cards, in the area that was short; kept as the foul exposure when it is foul."""
        shown = _faces(short.high, short.low)
        if shown is None:
            return  # a back or no card among them: not a hand turned up
        added = s.cards - {*shown[0], *shown[1]}
        if len(added) != 1 or not {*shown[0], *shown[1]} <= s.cards:
            return  # not the same cards but one
        exposed = _with_card(shown, next(iter(added)))
        if exposed is not None and is_foul(exposed):
            self._fouls[key] = (exposed, exposed, short)
            self._read[key] = min_read(short.read_confidence, event.read_confidence)
            self._named_later[key] = str(next(iter(added)))

    def _naming(self, position: str | None, rnd: RoundState) -> str:
        card = self._named_later.get((rnd.number, position or ""))
        if card is None:
            return ""
        return f" ({card} not read when the hand was turned up: named by the setting that followed)"

    def on_close(self, rnd: RoundState) -> list[Finding]:
        for key in [k for k in self._fouls if k[0] == rnd.number]:
            del self._fouls[key]
            self._read.pop(key, None)
            self._last_read.pop(key, None)
            self._doubt_note.pop(key, None)
        for table in (self._short, self._named_later, self._blind):
            for key in [k for k in table if k[0] == rnd.number]:
                del table[key]
        return []


def _reread_reset(foul: Setting, later: Setting) -> tuple[Card, Card] | None:
    """``(as the foul read it, as the later setting reads it)`` where ``later`` holds ``foul``'s cards
    but one, the two odd cards sharing a rank or a suit (one card read two ways: b68-0000, a 3s read
    Js when the foul hand was turned up and 3s in the dealer's re-set), and sets them otherwise than
    ``foul`` (the same areas but for that card are the same setting read again: not a re-set). None
    otherwise (the Joker, with no rank or suit to share, is never such a card)."""
    gone, new = foul.cards - later.cards, later.cards - foul.cards
    if len(gone) != 1 or len(new) != 1:
        return None
    a, b = next(iter(gone)), next(iter(new))
    if a.is_joker or b.is_joker or (a.rank != b.rank and a.suit != b.suit):
        return None
    same_high = {b if c == a else c for c in foul.high} == set(later.high)
    return None if same_high else (a, b)


def _foul_whatever(high: list[str], low: list[str]) -> bool:
    """Whether a setting shown a card short (the short area's card not read) is foul for every card
    it could be: each card of the deck it does not show, put in the area that is short (the high
    hand while it has fewer than five cards)."""
    short = (0, len(high)) if len(high) < 5 else (1, len(low))
    return holds_whatever([high, low], [short], _is_foul)


def _foul_whatever_at(
    high: list[str], low: list[str], doubt: list[tuple[str, int, str, float | None]]
) -> bool:
    """Whether the setting ``high``/``low`` stays foul for every card its doubtful reads could be:
    each ``(area, index, card, read)`` of ``doubt`` replaced by every card of the deck the setting's
    other cards do not show (two doubtful reads: every pair of such cards)."""
    places = [(0 if area == "high" else 1, i) for area, i, _, _ in doubt]
    return holds_whatever([high, low], places, _is_foul)


def _is_foul(parts: list[list[str]]) -> bool:
    """Whether the high and low hands named are a foul setting (raises when they are none)."""
    high, low = parts
    return is_foul(Setting(high=parse_cards(high), low=parse_cards(low)))


def _faces(high: list[str], low: list[str]) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The two areas' cards, or None when one is a back or no card."""
    try:
        return parse_cards(high), parse_cards(low)
    except CardParseError:
        return None


def _with_card(shown: tuple[tuple[Card, ...], tuple[Card, ...]], card: Card) -> Setting | None:
    """The setting ``shown`` (high, low) a card short makes with ``card`` in the area that is short:
    the high hand while it has fewer than five cards, else the low; None if that is no setting."""
    high, low = shown
    try:
        if len(high) < 5:
            return Setting(high=(*high, card), low=low)
        return Setting(high=high, low=(*low, card))
    except SettingError:
        return None


def _show_short(high: list[str], low: list[str]) -> str:
    """``high 9d 8c 4d 2d and a card not read / low Jk As``."""
    hi, lo = (format_cards(sorted(parse_cards(x), key=_display_order)) for x in (high, low))
    hi += " and a card not read" if len(high) < 5 else ""
    lo += " and a card not read" if len(high) >= 5 else ""
    return f"high {hi} / low {lo}"
