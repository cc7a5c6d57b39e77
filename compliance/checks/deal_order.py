"""DEAL-ORDER: hands not delivered from the LCD position, counter-clockwise, one to every spot.

Seed 000 rules 3-4: the LCD names the position that gets the first hand; the dealer works
counter-clockwise and delivers a hand to every position, occupied or not, and himself. The
expected order is ``TableLayout.deal_order(lcd)``; the observed order is the order of HAND_DEALT
events (positions whose first cards appear in the same frame count in the expected order: the
camera cannot tell them apart). Triggers, once each per round:

* order: at a HAND_DEALT that makes the observed order differ from the expected one's prefix.
  With the LCD seen, confidence 1.0. With no LCD reading, only the counter-clockwise order is
  checked (starting wherever the first hand went), confidence 0.6. Seat: the seat that got a hand
  out of turn (the first position that differs from the expected order; None for the dealer).
* a spot missed: at DEALER_EXPOSED (all hands are out by then) or at ROUND_END, a position that
  never received a card. Seat None; the positions are named in ``observed``. Confidence 1.0
  (0.5 if every missing position was hidden in the latest state).

Footage that begins mid-round (``RoundState.partial_start``) is not judged.
"""

from __future__ import annotations

from compliance.checks._base import Check
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState

__all__ = ["DealOrder"]


class DealOrder(Check):
    check_id = CheckId.DEAL_ORDER

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if rnd.partial_start:
            return []
        if event.kind is EventKind.HAND_DEALT:
            return self._order(event, rnd)
        if event.kind in (EventKind.DEALER_EXPOSED, EventKind.ROUND_END):
            return self._missing(event, rnd)
        return []

    def _expected(self, rnd: RoundState) -> tuple[list[str], float, str] | None:
        layout = self.ctx.layout
        if rnd.lcd is not None and 1 <= rnd.lcd <= len(layout.positions):
            return layout.deal_order(rnd.lcd), 1.0, f"LCD {rnd.lcd}"
        if not rnd.deal_sequence or rnd.deal_sequence[0].position not in layout.positions:
            return None
        first = layout.positions.index(rnd.deal_sequence[0].position or "") + 1
        return layout.deal_order(first), 0.6, "LCD not seen; counter-clockwise from the first hand"

    def _order(self, event: Event, rnd: RoundState) -> list[Finding]:
        exp = self._expected(rnd)
        if exp is None:
            return []
        expected, confidence, basis = exp
        rank = {p: i for i, p in enumerate(expected)}
        observed = [
            e.position or ""
            for e in sorted(rnd.deal_sequence, key=lambda e: (e.frame, rank.get(e.position or "", 99)))
        ]
        if observed == expected[: len(observed)] or not self.once(rnd, "order"):
            return []
        first_wrong = next(i for i, (o, e) in enumerate(zip(observed, expected, strict=False)) if o != e)
        wrong = rnd.positions.get(observed[first_wrong])
        return [
            self.finding(
                rnd,
                seat=wrong.seat if wrong is not None else None,
                t=event.t,
                frame=event.frame,
                expected=f"{' '.join(expected)} ({basis})",
                observed=f"dealt {' '.join(observed)}",
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
