"""DEAL-ORDER: hands not delivered from the LCD position, counter-clockwise, one to every spot.

Seed 000 rules 3-4: the LCD names the position that gets the first hand; the dealer works
counter-clockwise and delivers a hand to every position, occupied or not, and himself. The
expected order is ``TableLayout.deal_order(lcd)``; the observed one comes from the HAND_DEALT
events. Each hand's delivery time is only known within a window: from the last state that showed
the position without cards (``PositionState.dealt_earliest``) to the first that showed its cards;
a position hidden by the dealer's arm while he dealt it has a wide window. The order is judged
after every state in which a hand was dealt (all of that state's changes applied), and is a breach
when

* a position the expected order puts before a dealt one has no hand while it is in plain view
  (it was skipped; a hidden one, or one whose cards are still being debounced, may yet turn out
  to hold its hand), or
* no delivery times within the windows put the dealt positions in the expected order (positions
  first seen in the same state get the benefit of the doubt).

Seat: the seat that got its hand out of turn (the first position of the observed order that
differs from the expected order; None for the dealer). With the LCD seen, confidence 1.0; with
no LCD reading only the counter-clockwise order is checked (starting wherever the first hand
went), confidence 0.6. Once per round; evidence is the latest HAND_DEALT when the breach is seen.

A hidden position can make that seat uncertain: a hand delivered under the dealer's arm is only
known to have come somewhere in its window, so the first hand *seen* need not be the first
*dealt* (b58-0007: LCD 6, the dealer dealt himself first; his area lay under his arm for 3.6 s,
seat 1's hand was the first seen, seat 6 was passed over). With the LCD seen, when the first position
seen out of turn has a counter-clockwise neighbour that may have got its hand before it
(``_uncertain_first``: hidden and not seen empty since, or dealt with a window opening before), the
finding waits for the whole deal (every position dealt, DEALER_EXPOSED, ROUND_END, or the end of the
footage) and then names the seat by the likeliest order: a dealer who deals out of turn almost always
goes round the table from the wrong place (seed 000 rule 4's counter-clockwise circuit, or the
clockwise one), so each rotation of either circuit whose delivery times fit every window is a
candidate, and the one that lets the deal keep the steadiest pace (the largest smallest gap between
consecutive deliveries) is taken, when its seat differs from the first-seen one and it beats every
candidate naming that seat by ``_PACE_MARGIN_S``. No candidate fits (an irregular order), or none
beats it clearly: the first position of the observed order that differs, as above. The evidence
stays the picture in which the breach was first seen. Waiting costs the live alert the rest of the
deal (2.6 s on b58-0007), so it is kept to that case: of the 28 DEAL-ORDER breaches of the 720p
batches (seeds 41-60), b58-0007's alone waits; the usual late start leaves the LCD's own position
empty in plain view beside the first hand seen, and is alerted at once.

A second trigger, once per round: at DEALER_EXPOSED (all hands are out by then) or ROUND_END, a
position that never received a card. Seat None (the positions are named in ``observed``);
confidence 1.0, or 0.5 if every missing position was hidden in the latest state.

Footage that begins mid-round (``RoundState.partial_start``) is not judged.

Camera reads: the evidence is where cards lie (backs are found far more reliably than faces are
read), not what they are, so no read confidence caps it. What a camera can get wrong here is
*when* a hand arrived: a zone whose picture has changed but that has not been read again (the
dealer's hands still moving over his own hand while he deals on) shows its old, empty content.
The pipeline marks such a zone ``UNREAD`` and the round tracker treats it as hidden (not "in plain
view"), so it is not "passed over" and its delivery window stays open until it is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState
from vision.state import TableState

__all__ = ["DealOrder"]

_PACE_MARGIN_S = 0.2  # a rotation must keep the deal's pace this much steadier to name another seat


def _steadiest_gap(order: list[str], windows: dict[str, tuple[float, float]]) -> float | None:
    """The largest smallest gap (s) between consecutive deliveries in ``order`` with each position's
    delivery inside its window ``(earliest, seen)``; None if no delivery times fit the order at all.
    For a fixed order, delivering each hand as early as its window and the gap allow is optimal, so
    a gap is feasible iff that greedy schedule meets every window's end (binary search on the gap)."""

    def fits(gap: float) -> bool:
        t = -math.inf
        for p in order:
            lo, hi = windows[p]
            t = max(lo, t + gap)
            if t > hi:
                return False
        return True

    if not fits(0.0):
        return None
    lo_g, hi_g = 0.0, 60.0
    for _ in range(30):
        mid = (lo_g + hi_g) / 2
        lo_g, hi_g = (mid, hi_g) if fits(mid) else (lo_g, mid)
    return lo_g


class DealOrder(Check):
    check_id = CheckId.DEAL_ORDER
    per_round = (*Check.per_round, "_waiting")

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._judged: tuple[int, int] | None = None  # (round, hands dealt) last judged
        self._waiting: dict[int, _Breach] = {}  # round -> a breach whose seat waits for the whole deal

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if not rnd.partial_start and event.kind in (EventKind.DEALER_EXPOSED, EventKind.ROUND_END):
            return self._settle(rnd, final=True) + self._missing(event, rnd)
        return []

    def on_close(self, rnd: RoundState) -> list[Finding]:
        return self._settle(rnd, final=True)  # the footage ends mid-deal: a waiting breach is not lost

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None or rnd.partial_start or not rnd.deal_sequence:
            return []
        key = (rnd.number, len(rnd.deal_sequence))
        if key == self._judged:
            return []
        self._judged = key
        if rnd.number in self._waiting:
            return self._settle(rnd, final=False)
        return self._order(rnd)

    def _expected(self, rnd: RoundState) -> tuple[list[str], float, str, bool] | None:
        """The expected order, its confidence, what it rests on, and whether the LCD was seen (the
        order is then known before the deal, not taken from the first hand seen)."""
        layout = self.ctx.layout
        if rnd.lcd is not None and 1 <= rnd.lcd <= len(layout.positions):
            return layout.deal_order(rnd.lcd), 1.0, f"LCD {rnd.lcd}", True
        first = rnd.deal_sequence[0].position
        if first not in layout.positions:
            return None
        start = layout.positions.index(first or "") + 1
        return layout.deal_order(start), 0.6, "LCD not seen; counter-clockwise from the first hand", False

    def _order(self, rnd: RoundState) -> list[Finding]:
        exp = self._expected(rnd)
        if exp is None:
            return []
        expected, confidence, basis, lcd_seen = exp
        rank = {p: i for i, p in enumerate(expected)}
        dealt = {e.position or "": e for e in rnd.deal_sequence}
        observed = sorted(dealt, key=lambda p: (dealt[p].frame, rank.get(p, 99)))
        breach = ""
        # Skipped in plain view: an expected-earlier position, not dealt, not hidden now.
        latest = max(rank.get(p, -1) for p in dealt)
        skipped = [
            p
            for p in expected[:latest]
            if p not in dealt and not rnd.positions[p].hidden and rnd.positions[p].pending_since is None
        ]
        if skipped:
            breach = f"{' '.join(skipped)} passed over"
        else:
            # Can delivery times within the windows follow the expected order?
            t = -math.inf
            for p in expected:
                if p not in dealt:
                    continue
                lo = rnd.positions[p].dealt_earliest
                t = max(t, -math.inf if lo is None else lo)
                if t > dealt[p].t:
                    breach = f"{p} before the positions ahead of it"
                    break
        if not breach or self.reported(rnd.number, "order"):
            return []
        wrong = _first_out_of_turn(observed, expected) or observed[-1]
        last = rnd.deal_sequence[-1]
        found = _Breach(
            expected=expected,
            basis=basis,
            confidence=confidence,
            observed=observed,
            what=breach,
            wrong=wrong,
            wrong_t=dealt[wrong].t,
            t=last.t,
            frame=last.frame,
        )
        if lcd_seen and _uncertain_first(rnd, found):
            self._waiting[rnd.number] = found
            return self._settle(rnd, final=False)
        return self._report(rnd, found, wrong)

    def _settle(self, rnd: RoundState, *, final: bool) -> list[Finding]:
        """A waiting breach, once every position is dealt (or the deal is over): its seat by the
        likeliest order (module docstring)."""
        found = self._waiting.get(rnd.number)
        if found is None or (not final and any(p.dealt_event is None for p in rnd.positions.values())):
            return []
        del self._waiting[rnd.number]
        return self._report(rnd, found, _likeliest_wrong(rnd, found))

    def _report(self, rnd: RoundState, found: _Breach, wrong: str) -> list[Finding]:
        if not self.once(rnd, "order"):
            return []
        note = "" if wrong == found.wrong else f"; first hand seen {found.wrong}, first dealt likely {wrong}"
        return [
            self.finding(
                rnd,
                seat=rnd.positions[wrong].seat,
                t=found.t,
                frame=found.frame,
                expected=f"{' '.join(found.expected)} ({found.basis})",
                observed=f"dealt {' '.join(found.observed)} ({found.what}{note})",
                confidence=found.confidence,
            )
        ]

    def _missing(self, event: Event, rnd: RoundState) -> list[Finding]:
        missing = [p for p in rnd.positions.values() if p.dealt_event is None]
        if not missing or not self.once(rnd, "missing"):
            return []
        names = " ".join(p.name for p in missing)
        return [
            self.finding(
                rnd,
                seat=None,
                t=event.t,
                frame=event.frame,
                expected="a hand delivered to every position, occupied or not, and the dealer",
                observed=f"no hand seen at {names} by {event.kind.value}",
                confidence=0.5 if all(p.hidden for p in missing) else 1.0,
            )
        ]


@dataclass(frozen=True)
class _Breach:
    """An order breach as first seen: what was expected and observed then, and where (evidence)."""

    expected: list[str]
    basis: str
    confidence: float
    observed: list[str]  # positions dealt by then, in the order their hands were seen
    what: str  # "seat6 passed over", ...
    wrong: str  # the first observed position that differs from the expected order
    wrong_t: float  # when its hand was first seen
    t: float
    frame: int


def _first_out_of_turn(order: list[str], expected: list[str]) -> str | None:
    """The first position of ``order`` that differs from ``expected``'s at the same place (None: none
    within the shorter of the two)."""
    return next((o for o, e in zip(order, expected, strict=False) if o != e), None)


def _uncertain_first(rnd: RoundState, found: _Breach) -> bool:
    """Whether the deal may have begun at another position than ``found.wrong``, the first seen out of
    turn: a dealer who starts at the wrong place still goes round the table counter-clockwise (seed
    000 rule 4), so the hand before it would be its counter-clockwise neighbour's, and that neighbour
    may have got its hand before ``found.wrong``'s was seen: not dealt yet, hidden or still being
    read, and not seen empty since (a hand dealt does not vanish), or dealt with a window that opens
    before then. A neighbour seen empty meanwhile, or passed over in plain view (the usual late start:
    the LCD's own position), settles it at once, and the alert is not held back. (A wrong start dealt
    clockwise as well, two breaches in one, is not waited for.)"""
    seen_t = found.wrong_t
    before = set(found.observed[: found.observed.index(found.wrong)])
    circuit = found.expected
    p = rnd.positions[circuit[circuit.index(found.wrong) - 1]]
    if p.name in before:
        return False
    if p.dealt_event is None:
        unseen = p.seen_empty_at is None or p.seen_empty_at < seen_t
        return unseen and (p.hidden or p.pending_since is not None)
    return p.dealt_earliest is None or p.dealt_earliest < seen_t


def _likeliest_wrong(rnd: RoundState, found: _Breach) -> str:
    """The first position out of turn in the likeliest delivery order (module docstring)."""
    windows = {
        p.name: (-math.inf if p.dealt_earliest is None else p.dealt_earliest, p.dealt_event.t)
        for p in rnd.positions.values()
        if p.dealt_event is not None
    }
    ccw = found.expected
    n = len(ccw)
    cw = [ccw[0], *reversed(ccw[1:])]
    best: dict[str, float] = {}  # first position out of turn -> steadiest gap of a fitting order
    for circuit in (ccw, cw):
        for k in range(n):
            order = [p for p in circuit[k:] + circuit[:k] if p in windows]
            gap = _steadiest_gap(order, windows)
            first = _first_out_of_turn(order, ccw)
            if gap is None or first is None:
                continue
            best[first] = max(best.get(first, -1.0), gap)
    if not best:
        return found.wrong
    pick = max(best, key=lambda p: best[p])
    if pick != found.wrong and best[pick] >= best.get(found.wrong, -1.0) + _PACE_MARGIN_S:
        return pick
    return found.wrong
