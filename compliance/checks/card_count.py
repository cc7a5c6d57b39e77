"""CARD-COUNT: a hand with the wrong number of cards.

Seed 002 rules 5.2-5.3 (and 3.7.1): every position gets 7 cards (6 in the 6-card game, seed 000
rule 4), set as a high hand of 5 and a low hand of 2 (1 in the 6-card game).

Face-down cards are not counted for a shortage: a stacked face-down pile shows the camera fewer
backs than it holds (``vision.evaluate``), so a short count is only judged on faces. Triggers,
once per position per round:

* too many: at any state, a position's areas together held more cards than a hand has (the most
  seen at once, ``PositionState.max_total``; backs count here, since a camera does not see backs
  that are not there); evidence is the frame that first showed that many;
* wrong split or count, on faces: at DEALER_SET the dealer's high/low (5 and 2/1), at
  PLAYER_EXPOSED a seat's high/low as the dealer turns them face up (on a face-up table: at the
  reveal, cards as set).

A position never seen face up (an empty spot's dead hand, a hand collected face down) is not
judged for a shortage. Confidence 1.0, or 0.5 when the position was hidden in the latest state.
"""

from __future__ import annotations

from compliance.checks._base import Check
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import PositionState, RoundState
from vision.state import BACK, TableState

__all__ = ["CardCount"]


class CardCount(Check):
    check_id = CheckId.CARD_COUNT

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            return []
        out = []
        for p in rnd.positions.values():
            if p.max_total > rnd.hand_size and self.once(rnd, p.name):
                out.append(
                    self.finding(
                        rnd,
                        seat=p.seat,
                        t=p.max_total_event_t,
                        frame=p.max_total_frame,
                        expected=f"{rnd.hand_size} cards at {p.name}",
                        observed=f"{p.max_total} cards at {p.name}",
                        confidence=0.5 if p.hidden else 1.0,
                    )
                )
        return out

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is EventKind.DEALER_SET or event.kind is EventKind.PLAYER_EXPOSED:
            if BACK in event.high or BACK in event.low:
                return []
            p = rnd.positions[event.position or "dealer"]
            f = self._split(rnd, p, event, len(event.high), len(event.low))
            return [f] if f is not None else []
        return []

    def _split(self, rnd: RoundState, p: PositionState, event: Event, high: int, low: int) -> Finding | None:
        if (high, low) == (5, rnd.low_size) or not self.once(rnd, p.name):
            return None
        return self.finding(
            rnd,
            seat=p.seat,
            t=event.t,
            frame=event.frame,
            expected=f"{p.name} set as high 5 / low {rnd.low_size} ({rnd.hand_size} cards)",
            observed=f"{p.name} set as high {high} / low {low} ({high + low} cards)",
            confidence=0.5 if p.hidden else 1.0,
        )
