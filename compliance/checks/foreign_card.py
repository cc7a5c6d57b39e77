"""FOREIGN-CARD: a duplicate or foreign card in a round; the round is void.

Seed 002 rules 5.1 (a foreign card voids the round) and 5.5 (a shortage or excess of cards in the
deck voids it; a duplicate face means the deck has an extra card). Trigger, checked on every state
against the accepted (debounced) content of every position's zones in the open round:

* a duplicate: the same face (the Joker included: one per deck) at two positions, or twice at one;
* a foreign card: a token that is neither a card of the 53-card deck nor ``BACK``.

The i-Verify display's cards are copies shown on a screen and are not counted. Checked at every
event (first of all checks) and after every state. Each card is reported once per round, with the
time and frame of the event or state at which it was first found. The engine marks the
round void at the first finding; every later finding of the round says so.

Camera reads: a duplicate rests on both sightings being read right (a misread card looks like a
duplicate of the card it was taken for), and on nothing else: the other cards of the hands showing
it may be misread without making or unmaking the duplicate. So the finding is no surer than the least
sure of the reads of that card (``TableState.card_confidence``, per card; older records give each
face its area's lowest read), and it says each sighting's read. The reviewer looks first at the
doubtful one: another card misread as this one, or a second deck's copy read with doubt (b42-0013's
and b43-0006's injected copies were read at 0.64 and 0.59: found for review). The pipeline does not
settle which (renaming the weaker read would hide a real foreign card: models/HISTORY.md, eleventh
session), but for one case: a read under the review level whose face another position shows read
surer, and whose suit twin the table does not show, is named the twin by the count with the face set
aside (``vision.pipeline._suit_twin``; thirty-seventh session; since the forty-first, also where the
surer read is the same hand's), and such a duplicate is the review item below (a duplicate the count
may have hidden), as sure as the read set aside. A foreign token
rests on its own read only. Below ``MonitorConfig.review_below`` it is a review item, and does not
void the round.

A face the camera named by the count (``PositionState.counted``: the one card a hand lacks, named
because no other position showed it) and no longer shows at that position in the latest state is not
a sighting: the pipeline withdraws such a face in the very state that shows it read elsewhere
(``vision.pipeline.TablePipeline._doubt_counted``), but the position's accepted content keeps it
until its new content has lasted ``MonitorConfig.debounce_s``. b48-0005 (seed 48): seat 1's 8d,
named Td by the count, was withdrawn at 29.04 s when seat 5 turned up its Td and named 8d at 29.20 s;
the accepted Td beside seat 5's made a FOREIGN-CARD review item on no violation. A counted face still
shown beside the other sighting is reported as any duplicate (no surer than the count's read).

A duplicate the count may have hidden: where the count named a hand's one doubtful card and set aside
another face its reads named because another position showed it (``TableState.counted_aside``), a
second deck's copy of that face would have read just so. While both are shown, a review item as sure
as the read set aside (the round may be void: SETTLEMENT's judgements of that round are capped by
it). b53-0012 (seed 53, 720p): an injected second 6c at seat 3 read 6s at 0.45 and 6c at 0.33 beside
the dealer's 6c; the count named it 6s, the FOREIGN-CARD was missed and the void round's settlement
of seat 4 alerted at 0.87 (a false alert). Of the count's namings that set a shown face aside on four
other batches (seeds 41, 42, 47, 48), five, all were right: each is a review item on no violation.

A copy in the same hand the count left unnamed: where every other card of a hand lies named and the
one face the camera found and could not name reads likeliest as a face that hand shows (and no other
position does), the count can name it no other face and it stays unnamed (``TableState.unread_twins``;
``vision.pipeline._name_by_count``). A second copy of that face in the same hand reads just so. Held in
every state that shows the position for ``compliance.rounds.UNREAD_HOLD_S`` (a glimpse is not enough),
a review item at that read, on the state that began it; the round is not void on it. b86-0013 and
b94-0003 (seeds 86 and 94, 720p): seat 5's second Js read Js at 0.28 beside his Js, seat 4's second 4d
read 4d at 0.38 beside his 4d; each hand read a card short, and the FOREIGN-CARD was missed outright.

A duplicate one of whose sightings the camera named without reading its index where it lay -
carried from the hand seen whole before (``PositionState.carried``), named by a blank corner
(``blank_corner``) or by the count (``counted``) - is a review item whatever the reads' confidence:
that name is an inference from another read, and a misread there looks exactly like this duplicate.
b53-0006 (seed 53, 720p): the i-Verify display showed the dealer's Qs read Qc at 0.71; the felt's
one unread card of his hand was carried from it as the Qc, beside seat 6's real Qc: a FOREIGN-CARD
alert at 0.71 that voided a round with no violation. The round is not void on such a finding; the
reviewer sees both sightings.

A duplicate one of whose sightings is a card the camera read two ways at its position this round - the
position showed, earlier in the round, a face of the same rank or suit that it no longer shows - is a
review item too: a position's cards do not change faces within a round, so one of the two reads was
wrong, and the duplicate may rest on the wrong one. b57-0005 (seed 57, 720p): seat 3's Ac, named Ac by
the count a moment before (its reads As and Ac, seat 4 showing an As), then read As at 0.74 beside seat
4's As at 0.72: an alert that voided a compliant round.

So is a duplicate at a position whose hand the i-Verify display showed this round as the cards the
felt shows there but for one or two, each a face of the same rank or suit as the one the display drew
in its place, and the duplicated face one of them (the display drew one copy fewer of it). The
display's picture and the felt's are two reads of one hand, and they part on that card. b90-0006
(seed 90, 720p): seat 4's As and Ac, drawn As and Ac on the display (its Qs drawn Qc), were both read
Ac on the felt at 0.82 after the settlement turned them up: an alert that voided a compliant round. A
card switched for a second deck's copy after the display showed the hand looks just so; the reviewer
sees both sightings and the display's picture (the round is not void on it). Where the display drew
the duplicate too (a copy dealt with the hand, as the renderer's FOREIGN-CARD copies are) or a hand
otherwise unlike the felt's, the alert stands.
"""

from __future__ import annotations

import itertools
from collections import Counter

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Event, Finding
from compliance.rounds import UNREAD_HOLD_S, PositionState, RoundState, hidden_zones, min_read, position_zones
from rules.cards import CardParseError, parse_card
from vision.state import BACK, TableState

__all__ = ["ForeignCard"]


class ForeignCard(Check):
    check_id = CheckId.FOREIGN_CARD

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        # Run at every event too, before the other checks, so a round is void for them at once.
        return self._scan(rnd, event.t, event.frame)

    per_round = (*Check.per_round, "_twins")

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            return []
        out = self._unread_twins(state, rnd)
        if self._seen == (rnd.number, rnd.version):
            return out
        return out + self._scan(rnd, state.t, state.frame)

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._seen: tuple[int, int] | None = None  # (round, version) last scanned
        # (round, position, face) -> (t, frame, surest read) of the run of states showing a face not
        # named there read as that face of the position's own (TableState.unread_twins)
        self._twins: dict[tuple[int, str, str], tuple[float, int, float]] = {}

    def _unread_twins(self, state: TableState, rnd: RoundState) -> list[Finding]:
        """A copy in the same hand the count left unnamed (module doc): a face found and not named at a
        position, read as a face that position shows (``TableState.unread_twins``), in every state that
        shows the position for ``UNREAD_HOLD_S``: a review item, at that read, on the state that began
        it. A state showing the position read and without it ends the run."""
        if not state.unread_twins and not self._twins:
            return []
        hidden = hidden_zones(state) if self._twins else set()
        out = []
        for p in rnd.positions.values():
            keys = position_zones(p.name)
            shown = {tok for tok, _ in p.card_reads()} | (_shown(state, p.name) or set())
            now: dict[str, float] = {}
            for key in keys:
                for face, conf in state.unread_twins.get(key, {}).items():
                    if face in shown:
                        now[face] = max(conf, now.get(face, 0.0))
            for k in [k for k in self._twins if k[0] == rnd.number and k[1] == p.name and k[2] not in now]:
                if not any(z in hidden for z in keys) and p.name not in hidden:
                    del self._twins[k]  # the position seen without it: the run ends
            for face, conf in now.items():
                k = (rnd.number, p.name, face)
                t0, f0, best = self._twins.get(k, (state.t, state.frame, conf))
                self._twins[k] = (t0, f0, max(best, conf))
                if state.t - t0 < UNREAD_HOLD_S or self.reported(rnd.number, f"dup:{face}"):
                    continue
                if not self.once(rnd, f"twin:{p.name}:{face}"):
                    continue
                read = max(best, conf)
                observed = (
                    f"{face} at {p.name}, and a card beside it there the camera found and could not name "
                    f"read {face} too (read {read:.2f}) from t={t0:.2f}s"
                )
                out.append(self._possible_copy(rnd, p, face, t0, f0, observed, read, _TWIN))
        return out

    def _scan(self, rnd: RoundState, t: float, frame: int) -> list[Finding]:
        self._seen = (rnd.number, rnd.version)
        out = []
        where: dict[str, list[str]] = {}
        read: dict[str, list[float | None]] = {}  # card -> read confidence of each sighting of it
        now = rnd.last_state
        for p in rnd.positions.values():
            shown = _shown(now, p.name) if now is not None and p.counted else None
            for tok, conf in p.card_reads():
                if tok == BACK or (shown is not None and tok in p.counted and tok not in shown):
                    continue  # a face named by the count and withdrawn since (module doc)
                try:
                    card = str(parse_card(tok))
                except CardParseError:
                    if self.once(rnd, f"foreign:{p.name}:{tok}"):
                        out.append(
                            self.finding(
                                rnd,
                                seat=p.seat,
                                t=t,
                                frame=frame,
                                expected="cards of one 53-card deck",
                                observed=f"foreign card {tok!r} at {p.name}",
                                read=conf,
                            )
                        )
                    continue
                where.setdefault(card, []).append(p.name)
                read.setdefault(card, []).append(conf)
        for card, names in where.items():
            if len(names) > 1 and self.once(rnd, f"dup:{card}"):
                seats = [rnd.positions[n].seat for n in names]
                at = [rnd.positions[n] for n in dict.fromkeys(names)]
                review = None
                inferred = [q.name for q in at if _named_without_read(q, card)]
                if inferred:
                    review = _INFERRED.format(card, ", ".join(inferred))
                elif twice := [(q.name, g) for q in at if (g := _read_two_ways(q, card))]:
                    review = "; ".join(_TWO_WAYS.format(card, n, g) for n, g in twice)
                elif on_display := [(q.name, g) for q in at if (g := _shown_otherwise(q, card))]:
                    review = "; ".join(_ON_DISPLAY.format(card, n, g) for n, g in on_display)
                out.append(
                    self.finding(
                        rnd,
                        seat=next((s for s in seats if s is not None), None),
                        t=t,
                        frame=frame,
                        expected=f"one {card} in the deck",
                        observed=f"{card} seen {len(names)} times: at {_sightings(names, read[card])}",
                        read=min_read(*read[card]),
                        rests_on=at,
                        review=review,
                    )
                )
        if now is not None and now.counted_aside:
            out += self._set_aside(rnd, now, where, read, t, frame)
        return out

    def _set_aside(
        self,
        rnd: RoundState,
        now: TableState,
        where: dict[str, list[str]],
        read: dict[str, list[float | None]],
        t: float,
        frame: int,
    ) -> list[Finding]:
        """A duplicate the count may have hidden (module doc): a face a position's count set aside
        (``TableState.counted_aside``) that the table shows (at another position, or at this one read
        surer: a copy in the same hand), while the position shows the face the count named instead. A
        review item, as sure as the read set aside."""
        out = []
        for p in rnd.positions.values():
            accepted = {tok for tok, _ in p.card_reads()}
            for key in position_zones(p.name):
                named = [c for c in now.counted_faces.get(key, []) if c in accepted]
                if not named:
                    continue
                for face, conf in now.counted_aside.get(key, {}).items():
                    # where the face stands now: another position, or this one (its other area, or
                    # another card of the same area: a copy in the same hand, read surer than this one)
                    others = list(zip(where.get(face, []), read.get(face, []), strict=True))
                    if not others or self.reported(rnd.number, f"dup:{face}"):
                        continue
                    if not self.once(rnd, f"aside:{face}"):
                        continue
                    seen = _sightings([n for n, _ in others], [r for _, r in others])
                    observed = (
                        f"{face} seen at {seen}; at {p.name}, a card the count named {named[0]} was read "
                        f"{face} too (read {conf:.2f})"
                    )
                    out.append(self._possible_copy(rnd, p, face, t, frame, observed, conf, _ASIDE))
        return out

    def _possible_copy(
        self,
        rnd: RoundState,
        p: PositionState,
        face: str,
        t: float,
        frame: int,
        observed: str,
        read: float,
        why: str,
    ) -> Finding:
        """A duplicate of ``face`` at ``p`` the reads leave possible, for review (``why``, formatted
        with the face, says why), as sure as ``read``."""
        return self.finding(
            rnd,
            seat=p.seat,
            t=t,
            frame=frame,
            expected=f"one {face} in the deck",
            observed=observed,
            read=read,
            rests_on=[p],
            review=why.format(face),
        )


# why a copy in the same hand the count left unnamed is for review
_TWIN = (
    "the camera could name that card no other face, and one deck holds each face once, so it stayed "
    "unnamed: a second {0} in the same hand reads so, and so may another card of it read weakly"
)

# why a duplicate the count may have hidden is for review
_ASIDE = (
    "the count set the {0} aside because the table shows it, read surer (one deck holds each face once); a "
    "second deck's {0} would read so"
)

# why a duplicate resting on a face the camera named without reading it where it lay is for review
_INFERRED = (
    "the {} at {} was named without its index read where it lay (module doc): the card its name came "
    "from may be the misread, and the round is not void on it"
)


# why a duplicate resting on a card the camera read two ways at one position is for review
_TWO_WAYS = (
    "the {0} at {1} was accepted there as {2} earlier this round, a face it no longer shows: the same "
    "card read two ways, one of them a misread"
)


def _read_two_ways(p: PositionState, card: str) -> str | None:
    """A face that ``p`` showed earlier this round and shows no more, of ``card``'s rank or suit: the
    card now read ``card`` read otherwise before (one of the two reads is wrong; a position's cards do
    not change faces within a round, they move between its areas). None where there is none."""
    shown = {tok for tok, _ in p.card_reads()}
    gone = sorted(
        g for g in p.faces_seen - shown if g not in (card, "Jk") and (g[0] == card[0] or g[1] == card[1])
    )
    return ", ".join(gone) or None


# why a duplicate at a seat the i-Verify display showed with another face in that card's place is for review
_ON_DISPLAY = (
    "the i-Verify display showed {1}'s hand this round as the felt shows it but with {2} for one {0} "
    "(a face the felt does not show there): the same card read two ways, one of them a misread"
)


def _shown_otherwise(p: PositionState, card: str) -> str | None:
    """The faces the i-Verify display may have drawn in ``card``'s place in ``p``'s hand (module doc):
    a display of it this round whose cards are the faces ``p`` shows but for one or two, ``card`` one
    of those, each pairing with a face the display drew in its place that shares its rank or suit;
    the faces that can pair with ``card`` so, one of its rank first ("As or Qc"). None where no display
    showed that."""
    shown = Counter(tok for tok, _ in p.card_reads() if tok != BACK)
    for ev in p.iverify_events:
        drawn = Counter([*ev.high, *ev.low])
        extra, lacks = sorted((shown - drawn).elements()), sorted((drawn - shown).elements())
        if card not in extra or not 1 <= len(extra) <= 2 or len(lacks) != len(extra) or "Jk" in lacks:
            continue
        pairs = [
            dict(zip(extra, ys, strict=True))
            for ys in itertools.permutations(lacks)
            if all(x[0] == y[0] or x[1] == y[1] for x, y in zip(extra, ys, strict=True))
        ]
        if got := sorted({m[card] for m in pairs}, key=lambda g: (g[0] != card[0], g)):
            return " or ".join(got)
    return None


def _named_without_read(p: PositionState, card: str) -> bool:
    """Whether the camera named ``card`` at ``p`` from elsewhere this round: carried from the hand seen
    whole before, by a blank corner, or by the count (``compliance.checks._base._NAMED_WITHOUT_READ``)."""
    return card in p.carried or card in p.blank_corner or card in p.counted


def _shown(state: TableState, position: str) -> set[str] | None:
    """The faces a state shows at a position (its three card areas); None where it has none."""
    try:
        return {c for key in position_zones(position) for c in state.zone_cards(key)}
    except ValueError:
        return None


def _sightings(names: list[str], reads: list[float | None]) -> str:
    """Where a card was seen, each sighting with its camera read where there is one: "dealer (read
    0.99), seat1 (read 0.52)"; ground-truth states carry none: "dealer, seat1"."""
    return ", ".join(n if r is None else f"{n} (read {r:.2f})" for n, r in zip(names, reads, strict=True))
