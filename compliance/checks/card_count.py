"""CARD-COUNT: a hand with the wrong number of cards.

Seed 002 rules 5.2-5.3 (and 3.7.1): every position gets 7 cards (6 in the 6-card game, seed 000
rule 4), set as a high hand of 5 and a low hand of 2 (1 in the 6-card game). Triggers, once per
position per round:

* too many: at any state, a position's zones together held more cards than a hand has (the most
  seen at once, ``PositionState.max_total``); evidence is the frame that first showed that many.
* wrong count or split, judged when the hands are final:
  - at DEALER_EXPOSED, every position: a set seat by its high/low counts (5 and 2/1, face down
    counts too), any other position (a dead hand, an unset seat, the dealer's own hand) by the most
    cards seen at once there; positions with no card at all are DEAL-ORDER's "missed spot";
  - at DEALER_SET, the dealer's high/low split;
  - at PLAYER_EXPOSED of a seat, its high/low split (a seat set after the reveal);
  - at ROUND_END, positions not judged yet (a round whose dealer never exposed).
  A round closed by the end of the footage is not judged for short hands.

Confidence 1.0, or 0.5 when the position was hidden in the latest state (its last seen content is
what was counted).
"""

from __future__ import annotations

from compliance.checks._base import Check
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import PositionState, RoundState
from vision.state import TableState

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
        if event.kind is EventKind.DEALER_EXPOSED or event.kind is EventKind.ROUND_END:
            if rnd.partial_start:
                return []
            out = []
            for p in rnd.positions.values():
                if p.max_total == 0:
                    continue
                if p.seat is not None and p.is_set:
                    f = self._split(rnd, p, event, len(p.high), len(p.low))
                else:
                    f = self._total(rnd, p, event)
                if f is not None:
                    out.append(f)
            return out
        if event.kind is EventKind.DEALER_SET or event.kind is EventKind.PLAYER_EXPOSED:
            p = rnd.positions[event.position or "dealer"]
            f = self._split(rnd, p, event, len(event.high), len(event.low))
            return [f] if f is not None else []
        return []

    def _total(self, rnd: RoundState, p: PositionState, event: Event) -> Finding | None:
        if p.max_total == rnd.hand_size or not self.once(rnd, p.name):
            return None
        return self.finding(
            rnd,
            seat=p.seat,
            t=event.t,
            frame=event.frame,
            expected=f"{rnd.hand_size} cards at {p.name}",
            observed=f"at most {p.max_total} cards seen at {p.name} by {event.kind.value}",
            confidence=0.5 if p.hidden else 1.0,
        )

    def _split(self, rnd: RoundState, p: PositionState, event: Event, high: int, low: int) -> Finding | None:
        if (high, low) == (5, rnd.low_size) or not self.once(rnd, p.name):
            return None
        return self.finding(
            rnd,
            seat=p.seat,
            t=event.t,
            frame=event.frame,
            expected=f"{p.name} set as high 5 / low {rnd.low_size}",
            observed=f"{p.name} set as high {high} / low {low} ({event.kind.value})",
            confidence=0.5 if p.hidden else 1.0,
        )
