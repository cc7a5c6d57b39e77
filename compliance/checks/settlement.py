"""SETTLEMENT: the dealer settled a seat's wager otherwise than the rules' result.

The rules (seed 000 rule 7, 6-card; seed 002 rules 3.11-3.15, 7-card): the dealer compares his high
hand with the player's and his low hand with the player's; a copy (identical rank) goes to the dealer
(000 7.a, 002 3.15), except that in the 6-card game a Joker in the player's low hand wins that
matchup (000 7.a.i, 6.k). Win both: the wager is paid (000 7.b, 002 3.12); lose both: it is lost
(000 7.c, 002 3.13); one of each: a push (002 3.14). A foul follows the table's foul policy (the
layout's ``foul_policy``): ``house-way-reset`` settles the hand as the house way re-sets it (002
3.7.2), ``loses`` loses it (000 rule 5). The result is ``rules.settlement.settle_main_wager`` (one
seat of ``settle_round``), on the dealer's setting as played (a setting that breaks the house way is
HOUSE-WAY's breach; the wagers are settled against what he played).

What the footage shows (``compliance.rounds``):

* SEAT_PAID - chips put in the seat's payout spot: the dealer paid the wager (right for a win);
* WAGER_TAKEN - the wager left the bet circle while the round went on: taken (right for a loss);
* neither, and the wager still in the bet circle when the round ends (ROUND_END): left as it was, a
  push (right for a push). A push shows no action, so it is decided only then.

The seat's hand is the setting it showed when turned face up (PLAYER_EXPOSED): that foul setting if
it was foul (the policy decides), else the last face-up setting seen in its areas (a face-up hand
re-set after the reveal). The dealer's is his last DEALER_SET.

Only judged when the footage shows enough: both settings read as faces that ``settle_round`` takes
(no backs; a hand of the wrong size or a card twice is CARD-COUNT's or FOREIGN-CARD's, and is not
settled here). A round voided by FOREIGN-CARD is not judged (seed 002 rule 5.1.1: nothing stands);
in a round where a duplicate is only suspected (a FOREIGN-CARD review item, confidence c) a finding
is no surer than the round standing, 1 - c.
A payout or take seen before the faces are known is judged once they are (its own time and frame
stay the evidence); a push is judged at ROUND_END (a round cut off by the end of the footage is not).
Seat: the seat settled. One finding per seat per round; confidence 1.0 for a payout or a take (an
action seen), 0.9 for a push (inferred from no action), capped by the camera's read confidence of
every card of the two settings judged, as they were read when last seen set (the dealer's last
DEALER_SET; the seat's exposure, or its last face-up setting when that is the one judged): one
misread card can turn a win into a loss. A hand the i-Verify display showed as the same faces is read
surer (``PositionState.corroborated``: two pictures agree). Cards seen elsewhere (the seat's areas
at the moment of the payout, a hand being collected) are not what the result rests on. Where exactly
one card of the two settings is read under ``MonitorConfig.review_below`` and the result is the same
whatever card of the deck not shown it is (``settle_main_wager`` on each), the result rests on the
other cards' reads, and the finding says so (a king-high under the dealer's aces and a J-8 low over his
7-3 are a push whatever the king-high's 5 is). On the 720p batches it seldom changes a status: most
doubtful settlements there are capped by a duplicate suspected in the round, or rest on a card whose
misread could change the result (b42-0005: a foul six-card hand whose 0.63 card could unmake the foul;
b48-0011: a Joker named by its blank corner that, read as a king, would pair the player's king).

A round the dealer settled nothing in (every active seat's wager left to the round's end, no payout
and no take) while two or more seats' results, as the footage shows the hands, asked for a payout or a
take is settled as a void round is (seed 002 rules 5.1-5.5: a foreign card, a misdeal, a shortage or
excess of cards voids the round, and every wager is returned): the dealer has likelier seen a cause
the camera missed than failed to settle a whole table. Each such "left" finding is a review item at
``UNSETTLED`` at most, saying so. b82-0011 (seed 82, 720p): round 2's injected second Js at seat 2 was
never named (its index seen as a card, not read), the round was void and the dealer left every wager;
seats 4 and 5, both losers as read, were SETTLEMENT alerts at 0.79 and 0.71 on a compliant round. So
is a table settled not at all against one such result where another hand of the round (the dealer's
as set, a seat's as turned up) was read face up with more or fewer cards than a hand holds: the camera
lost a card there, or a copy lay there unnamed, and the round may be void for it. b94-0003 (seed 94,
720p): seat 4's two 4d, one never seen (its hand read 5 cards of 6); b87-0007: seat 3's two 6d, one
never seen (its hand read short). Each had made a SETTLEMENT alert of the one loser left in a void
round. A single seat's wager left wrongly, beside a payout or a take at another seat, or where every
hand read whole, is judged as before.

A seat seen whole holding more cards than a hand counting the faces the camera found there and could not
name (``TableState.unread_faces``; ``PositionState.held_unread``, a count held for
``compliance.rounds.UNREAD_HOLD_S``) was not the hand judged: the result of the hand as named is a
review item at ``OVER_FULL`` at most, saying so. b68-0006 (seed 68, 720p): seat 6 held eight cards (the
injected CARD-COUNT, low 8h 9s Qs), the Qs's two indices read Qs 0.45 and Qc 0.42 and not named; the
hand as named (5 and 2) lost, and the dealer leaving the wager, as the round's truth has it, had been a
SETTLEMENT alert at 0.78. A face not named never counts towards CARD-COUNT's excess (an unread box may
be a named card's other corner), so the count may be its own misread: the finding is for review, not
dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from compliance.checks._base import Check, CheckContext, holds_whatever, setting_of, show
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import PositionState, Reads, RoundState, min_read
from rules.paytables import Game
from rules.settings import Setting, is_foul
from rules.settlement import FoulPolicy, TableOptions, settle_main_wager
from rules.sidebets import BetResult, Outcome
from vision.state import BACK

__all__ = ["Settlement"]

# What the dealer must do with the chips for each result of the standard wager (seed 000 rule 7).
_DUE = {
    Outcome.WIN: "paid (a payout beside the bet)",
    Outcome.LOSE: "taken",
    Outcome.PUSH: "left in the bet circle, no payout",
}
_RIGHT = {"paid": Outcome.WIN, "taken": Outcome.LOSE, "left": Outcome.PUSH}
_ACTIONS = {EventKind.SEAT_PAID: "paid", EventKind.WAGER_TAKEN: "taken"}
_TRIGGERS = {
    EventKind.SEAT_PAID,
    EventKind.WAGER_TAKEN,
    EventKind.PLAYER_EXPOSED,
    EventKind.HAND_CHANGED,
    EventKind.DEALER_SET,
}


OVER_FULL = 0.5  # a result judged on a hand seen holding more cards than it names: for review
# a wager left in a round whose every wager was left while two or more seats' results asked for a
# payout or a take, or one did beside a hand read with too few or too many cards: the round looks
# voided by the dealer (module doc), for review
UNSETTLED = 0.5


class Settlement(Check):
    check_id = CheckId.SETTLEMENT
    per_round = (*Check.per_round, "_judged")

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        policy = FoulPolicy.HOUSE_WAY if ctx.layout.foul_policy == "house-way-reset" else FoulPolicy.LOSE
        self._options = TableOptions(game=Game(ctx.layout.game), foul_policy=policy)
        self._judged: set[tuple[int, str, str]] = set()  # (round, position, action) already judged
        self._cache: dict[tuple[tuple[str, ...], ...], BetResult | None] = {}

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if rnd.void_reason is not None:
            return []
        if event.kind in _TRIGGERS:
            return [f for p in rnd.active_seats() for f in self._judge_actions(rnd, p)]
        if event.kind is EventKind.ROUND_END:
            out = [f for p in rnd.active_seats() for f in self._judge_actions(rnd, p)]
            seats = rnd.active_seats()
            left = [p for p in seats if p.paid_event is None and p.taken_event is None and p.wager_in]
            unsettled: str | None = None
            if left and len(left) == len(seats):
                due = sum(self._due_action(rnd, p) for p in left)
                if due >= 2:
                    unsettled = "the camera saw no cause"
                elif due == 1 and (miscounted := _miscounted(rnd)):
                    unsettled = "the camera may have missed one: " + "; ".join(miscounted)
            for p in left:
                out += self._judge(rnd, p, "left", event, 0.9, unsettled)
            return out
        return []

    def _due_action(self, rnd: RoundState, p: PositionState) -> bool:
        """Whether the rules' result for the seat, as the footage shows the hands, asks the dealer to
        pay or take its wager (not a push; False where the result is not known)."""
        settings = self._settings(rnd, p)
        result = self._result(settings[0], settings[1]) if settings is not None else None
        return result is not None and result.outcome is not Outcome.PUSH

    def on_close(self, rnd: RoundState) -> list[Finding]:
        self._judged = {k for k in self._judged if k[0] != rnd.number}
        return []

    # --- the judgement -------------------------------------------------------------------------
    def _judge_actions(self, rnd: RoundState, p: PositionState) -> list[Finding]:
        out: list[Finding] = []
        for ev in (p.paid_event, p.taken_event):
            if ev is not None and (rnd.number, p.name, _ACTIONS[ev.kind]) not in self._judged:
                out += self._judge(rnd, p, _ACTIONS[ev.kind], ev, 1.0)
        return out

    def _judge(
        self,
        rnd: RoundState,
        p: PositionState,
        action: str,
        evidence: Event,
        confidence: float,
        unsettled: str | None = None,
    ) -> list[Finding]:
        """Compare one action (``paid``, ``taken``, ``left``) with the rules' result, once it is known.
        ``unsettled``: a wager left in a round the dealer settled nothing in (module doc), for review;
        what the camera saw of a cause."""
        settings = self._settings(rnd, p)
        if settings is None:
            return []  # not known yet (or never): nothing is judged, nothing invented
        dealer, player, read, hands = settings
        result = self._result(dealer, player)
        if result is None:
            return []
        self._judged.add((rnd.number, p.name, action))
        if result.outcome is _RIGHT[action] or not self.once(rnd, p.name):
            return []
        what = {"paid": "paid the wager", "taken": "took the wager", "left": "left the wager, no payout"}
        observed = f"the dealer {what[action]}: seat {p.seat} {show(player)} against the dealer's "
        observed += show(dealer)
        read, stands = self._stands_on(result.outcome, hands, read)
        observed += stands
        if unsettled:
            confidence = min(confidence, UNSETTLED)
        void = _suspected_void(rnd)
        if void is not None and 1.0 - void.confidence < confidence:
            # the result stands only if the round does: a duplicate suspected (for review) may void it,
            # and a void round's wagers are all left (seed 002 rule 5.1.1)
            confidence = 1.0 - void.confidence
            observed += f" [the round may be void: FOREIGN-CARD for review at t={void.t:.2f}s]"
        if unsettled:
            observed += (
                " [the dealer settled no wager of the round, as a void round is settled (seed 002 rules "
                f"5.1-5.5: every wager returned); {unsettled}]"
            )
        held = p.held_unread
        if held is not None and held.n > rnd.hand_size and confidence > OVER_FULL:
            confidence = OVER_FULL
            observed += (
                f" [seat {p.seat} was seen holding {held.n} cards from t={held.t:.2f}s counting faces the "
                "camera could not name: the hand judged may not be the whole hand]"
            )
        return [
            self.finding(
                rnd,
                seat=p.seat,
                t=evidence.t,
                frame=evidence.frame,
                expected=f"{result.outcome.value} ({result.detail}; {result.cite}): the wager "
                f"{_DUE[result.outcome]}",
                observed=observed,
                confidence=confidence,
                read=read,
                rests_on=[rnd.dealer, p],
            )
        ]

    def _settings(
        self, rnd: RoundState, p: PositionState
    ) -> tuple[Setting, Setting, float | None, tuple[_Hand, _Hand]] | None:
        """The dealer's setting and the seat's that the result rests on, with the read confidence of
        their cards (None: sure) and each hand's cards with their own reads."""
        d = rnd.dealer
        dealer = setting_of(d.set_high, d.set_low) if d.set_event is not None else None
        if dealer is None or p.exposed_event is None:
            return None
        first = setting_of(p.exposed_event.high, p.exposed_event.low)
        if first is None:
            return None
        d_read = d.corroborated(d.set_read, [*d.set_high, *d.set_low])
        d_hand = _Hand(d.set_high, d.set_low, _per_card(d.set_card_conf, d_read, d.set_read))
        ex = p.exposed_event
        exposed = p.corroborated(ex.read_confidence, [*ex.high, *ex.low])
        p_hand = _Hand(
            tuple(ex.high), tuple(ex.low), _per_card(p.exposed_card_conf, exposed, ex.read_confidence)
        )
        if is_foul(first):  # as the player set it: the policy decides
            return dealer, first, min_read(d_read, exposed), (d_hand, p_hand)
        last = setting_of(p.set_high, p.set_low)
        if last is not None and last.cards == first.cards:
            p_read = p.corroborated(p.set_read, [*p.set_high, *p.set_low])
            p_hand = _Hand(p.set_high, p.set_low, _per_card(p.set_card_conf, p_read, p.set_read))
            return dealer, last, min_read(d_read, p_read), (d_hand, p_hand)
        return dealer, first, min_read(d_read, exposed), (d_hand, p_hand)

    def _stands_on(
        self, outcome: Outcome, hands: tuple[_Hand, _Hand], read: float | None
    ) -> tuple[float | None, str]:
        """The read the result ``outcome`` rests on (module doc), and what the finding says of a doubtful
        read it does not rest on: ``read`` unless exactly one card of the two hands is read under
        ``review_below`` and the result is the same whatever it is; then the other cards' lowest read."""
        below = self.ctx.config.review_below
        if read is None or read >= below:
            return read, ""
        if any(len(x.reads[a]) != len(x.cards(a)) for x in hands for a in (0, 1)):
            return read, ""
        # every card of the two settings with its place (hand, area, index) and its read
        cells = [
            ((h, a, i), c, r)
            for h, x in enumerate(hands)
            for a in (0, 1)
            for i, (c, r) in enumerate(zip(x.cards(a), x.reads[a], strict=True))
        ]
        doubtful = [cell for cell in cells if cell[2] is not None and cell[2] < below]
        if len(doubtful) != 1:
            return read, ""
        ((h0, a0, i0), doubted, doubt) = doubtful[0]
        assert doubt is not None
        others = [cell for cell in cells if cell is not doubtful[0]]

        def same(parts: list[list[str]]) -> bool:  # the result is ``outcome`` (raises: no result)
            got = settle_main_wager(
                self._options, (parts[0], parts[1]), (parts[2], parts[3]), house_way=self.ctx.house_way
            )
            return got.outcome is outcome

        parts = [list(x.cards(a)) for x in hands for a in (0, 1)]
        if not holds_whatever(parts, [(2 * h0 + a0, i0)], same):
            return read, ""
        rest = min_read(*(r for _, _, r in others))
        return rest, f" (the result is the same whatever {doubted} (read {doubt:.2f}) is)"

    def _result(self, dealer: Setting, player: Setting) -> BetResult | None:
        key = tuple(
            tuple(str(c) for c in part) for part in (dealer.high, dealer.low, player.high, player.low)
        )
        if key not in self._cache:
            try:
                self._cache[key] = settle_main_wager(
                    self._options, (key[0], key[1]), (key[2], key[3]), house_way=self.ctx.house_way
                )
            except ValueError:  # SettlementError; a house-way plug-in that refuses the hand
                self._cache[key] = None
            if len(self._cache) > 4096:
                self._cache.pop(next(iter(self._cache)))
        return self._cache[key]


class _Hand(NamedTuple):
    """A setting the result rests on: its high and low hands' cards, and each card's read (``reads``:
    high's then low's; None: sure)."""

    high: Sequence[str]
    low: Sequence[str]
    reads: tuple[Reads, Reads]

    def cards(self, area: int) -> Sequence[str]:
        return self.high if area == 0 else self.low


def _per_card(per_card: tuple[Reads, Reads], hand: float | None, raw: float | None) -> tuple[Reads, Reads]:
    """Each card's read of a setting: its own (``per_card``), or where the i-Verify display made the
    hand's read surer (``hand`` above ``raw``: ``PositionState.corroborated``) that read for every card."""
    if hand != raw:
        return tuple(tuple(hand for _ in area) for area in per_card)  # type: ignore[return-value]
    return per_card


def _miscounted(rnd: RoundState) -> list[str]:
    """The positions whose hand was read face up with more or fewer cards than a hand holds (the
    dealer's as set, a seat's as turned up; no backs): what each was read as. The camera may have lost
    a card under another, or a copy lies there that it never named: either way a cause that voids the
    round (seed 002 rules 5.1-5.5) may have been there."""
    out = []
    shown = [(rnd.dealer, rnd.dealer.set_event)] + [(p, p.exposed_event) for p in rnd.active_seats()]
    for p, ev in shown:
        if ev is None or BACK in ev.high or BACK in ev.low:
            continue
        n = len(ev.high) + len(ev.low)
        if n != rnd.hand_size:
            who = "the dealer's hand" if p.seat is None else f"seat {p.seat}'s hand"
            out.append(f"{who} was read with {n} cards of {rnd.hand_size}")
    return out


def _suspected_void(rnd: RoundState) -> Finding | None:
    """The surest FOREIGN-CARD finding of the round left for review (a duplicate suspected on doubtful
    reads), if any: the round may be void. (One made an alert voids it: ``rnd.void_reason``.)"""
    doubted = [f for f in rnd.findings if f.check_id is CheckId.FOREIGN_CARD and f.status == "review"]
    return max(doubted, key=lambda f: f.confidence, default=None)
