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
went), confidence 0.6. Once per round; evidence is the latest HAND_DEALT.

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

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState
from vision.state import TableState

__all__ = ["DealOrder"]


class DealOrder(Check):
    check_id = CheckId.DEAL_ORDER

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._judged: tuple[int, int] | None = None  # (round, hands dealt) last judged

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if not rnd.partial_start and event.kind in (EventKind.DEALER_EXPOSED, EventKind.ROUND_END):
            return self._missing(event, rnd)
        return []

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None or rnd.partial_start or not rnd.deal_sequence:
            return []
        key = (rnd.number, len(rnd.deal_sequence))
        if key == self._judged:
            return []
        self._judged = key
        return self._order(rnd)

    def _expected(self, rnd: RoundState) -> tuple[list[str], float, str] | None:
        layout = self.ctx.layout
        if rnd.lcd is not None and 1 <= rnd.lcd <= len(layout.positions):
            return layout.deal_order(rnd.lcd), 1.0, f"LCD {rnd.lcd}"
        first = rnd.deal_sequence[0].position
        if first not in layout.positions:
            return None
        start = layout.positions.index(first or "") + 1
        return layout.deal_order(start), 0.6, "LCD not seen; counter-clockwise from the first hand"

    def _order(self, rnd: RoundState) -> list[Finding]:
        exp = self._expected(rnd)
        if exp is None:
            return []
        expected, confidence, basis = exp
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
        if not breach or not self.once(rnd, "order"):
            return []
        wrong = next((o for o, e in zip(observed, expected, strict=False) if o != e), observed[-1])
        last = rnd.deal_sequence[-1]
        return [
            self.finding(
                rnd,
                seat=rnd.positions[wrong].seat,
                t=last.t,
                frame=last.frame,
                expected=f"{' '.join(expected)} ({basis})",
                observed=f"dealt {' '.join(observed)} ({breach})",
                confidence=confidence,
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
