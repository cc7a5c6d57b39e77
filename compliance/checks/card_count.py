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

Camera reads (faces with a read confidence, ``TableState.read_confidence``):

* A short count rests on the detection of every card, not on what each face was read as: a face
  that is there but misread is still one card, so a shortage is not capped by the faces' read
  confidence (their identity). An *excess* of faces is: two reads of one card that disagree (a
  four-corner deck's top index read Ts, its bottom one Tc) are two faces until the pipeline joins
  them (``vision.pipeline``), so an excess seen in the view that showed it is capped by that view's
  lowest read (s02 with classifier cls 10: a false 7-card hand at read 0.50). Measured on the sample
  footage's camera states with cls 9 (322 zone views in plain view, each against the true state of
  its frame): no zone showed more cards than it held, 17 of 61 face zones showed fewer (faces missed
  in a pile), and the 60 faces read below 0.7 were all cards that lay there.
  What makes a count doubtful is what the camera did not see - a zone hidden or not read again (an
  excess then: 0.5), or a face it missed, which has no confidence at all (a shortage: below).
* A *shortage* seen only in faces (no area too full) rests on every face having been found, and
  the detector misses faces (README: face recall 0.77-0.89; a 7-card hand shows all its faces
  in one view only about 0.8^7 = 21 % of the time). It is not judged at the exposure but when
  the round closes, on the most reliable view the footage has of the hand: the most cards seen at
  once (``max_total``: e.g. a fanned deal of 7 backs) and the distinct faces seen at the position
  over the round (a face missed when the hand was turned over is often read when it is moved or
  collected). Either one showing a full hand: the short view lost a read, not a card, and there
  is no finding. Else the finding says which views it rests on, with confidence 0.5 (a review
  item: a face missed in every view is still more likely than a missing card).
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import PositionState, RoundState
from vision.state import BACK, TableState

__all__ = ["CardCount"]

# Confidence of a shortage seen only in camera face reads, in every view the footage gave: a face the
# detector missed in each is still likelier than a missing card (see the docstring), so a review item.
SHORT_ON_CAMERA = 0.5


@dataclass
class _Short:
    """A shortage seen in camera reads at an exposure, judged when the round closes."""

    position: str
    event: Event
    high: int
    low: int


class CardCount(Check):
    check_id = CheckId.CARD_COUNT

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._short: dict[int, list[_Short]] = {}

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            return []
        out = []
        for p in rnd.positions.values():
            if p.max_total > rnd.hand_size and self.once(rnd, p.name):
                # an excess of faces rests on each being another card: two reads of one card that
                # disagree are two faces (the lowest read of the view caps it; module docstring)
                sure = 0.5 if p.hidden else 1.0
                read = p.read_confidence if p.total == p.max_total else None
                out.append(
                    self.finding(
                        rnd,
                        seat=p.seat,
                        t=p.max_total_event_t,
                        frame=p.max_total_frame,
                        expected=f"{rnd.hand_size} cards at {p.name}",
                        observed=f"{p.max_total} cards at {p.name}",
                        confidence=sure if read is None else min(sure, read),
                    )
                )
        return out

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is EventKind.DEALER_SET or event.kind is EventKind.PLAYER_EXPOSED:
            if BACK in event.high or BACK in event.low:
                return []
            p = rnd.positions[event.position or "dealer"]
            high, low = len(event.high), len(event.low)
            if (high, low) == (5, rnd.low_size):
                return []
            if event.read_confidence is not None and high <= 5 and low <= rnd.low_size:
                # short on camera faces only: judged on the best view when the round closes
                if not any(s.position == p.name for s in self._short.get(rnd.number, [])):
                    self._short.setdefault(rnd.number, []).append(_Short(p.name, event, high, low))
                return []
            f = self._split(rnd, p, event, high, low)
            return [f] if f is not None else []
        return []

    def on_close(self, rnd: RoundState) -> list[Finding]:
        out = []
        for s in self._short.pop(rnd.number, []):
            p = rnd.positions[s.position]
            n = s.high + s.low
            if p.max_total >= rnd.hand_size or len(p.faces_seen) >= rnd.hand_size:
                continue  # the hand was seen whole: the short view lost a face read, not a card
            f = self._split(
                rnd,
                p,
                s.event,
                s.high,
                s.low,
                confidence=SHORT_ON_CAMERA,
                why=(
                    f"; faces only, read by the camera: at most {p.max_total} cards seen at once and "
                    f"{len(p.faces_seen)} distinct faces over the round (a missed face read is likelier "
                    f"than a missing card)"
                ),
                total=n,
            )
            if f is not None:
                out.append(f)
        return out

    def _split(
        self,
        rnd: RoundState,
        p: PositionState,
        event: Event,
        high: int,
        low: int,
        *,
        confidence: float | None = None,
        why: str = "",
        total: int | None = None,
    ) -> Finding | None:
        if (high, low) == (5, rnd.low_size) or not self.once(rnd, p.name):
            return None
        n = high + low if total is None else total
        # a count does not rest on what the faces were read as (module docstring); a shortage seen only
        # in camera faces is capped by SHORT_ON_CAMERA instead
        return self.finding(
            rnd,
            seat=p.seat,
            t=event.t,
            frame=event.frame,
            expected=f"{p.name} set as high 5 / low {rnd.low_size} ({rnd.hand_size} cards)",
            observed=f"{p.name} set as high {high} / low {low} ({n} cards){why}",
            confidence=confidence if confidence is not None else (0.5 if p.hidden else 1.0),
        )
