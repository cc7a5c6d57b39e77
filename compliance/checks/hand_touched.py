"""HAND-TOUCHED-AFTER-REVEAL: a set player hand changes after the dealer's cards are exposed.

Seed 004: "when all are ready, the dealer's seven cards are exposed. The other players may not
touch their cards from this point on." Triggers, after DEALER_EXPOSED and before that seat's hand
is turned face up (PLAYER_EXPOSED), once per seat per round:

* a HAND_CHANGED "moved" event: cards moved between areas, added, removed or swapped (the tracker
  already leaves out backs turning into faces in place and an area lifted to be turned over);
  confidence 1.0, or on camera input no more than the read confidence of the faces the changed hand
  shows (a face read by its far corner is placed where that corner lies; a doubtful read makes a
  review item). A move that shows a face is at most ``TURNED_UP_CONFIDENCE`` (a review item): a set
  hand lies face down until it is turned up, and a face showing mid-move is a hand being turned
  over, what the dealer does to settle it (b41-0007: the turned cards pass over the deal spot,
  read there at 0.82, before the whole hand shows face up); a player re-setting his hand moves
  backs;
* a HAND_CHANGED "restored" event: an area went empty after the reveal and came back face down,
  unchanged (lifted and put back, not turned over); confidence 0.7, since a camera that lost the
  pile for a while looks the same;

A seat that first sets after the reveal is not a *set* hand that changed: that breach is the
reveal's (DEALER-REVEAL-EARLY), not this check's, so it is not reported twice.

Changes after PLAYER_EXPOSED are the dealer's (settling, re-setting a foul, collecting) and are not
this check's business. On a face-up table (seed 003) every set hand counts as exposed from the
dealer's reveal on, so this check cannot see touches there.
"""

from __future__ import annotations

from compliance.checks._base import Check, fmt
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState
from vision.state import BACK

__all__ = ["TURNED_UP_CONFIDENCE", "HandTouchedAfterReveal"]

TURNED_UP_CONFIDENCE = 0.6  # a move showing faces: most likely the dealer turning the hand up


class HandTouchedAfterReveal(Check):
    check_id = CheckId.HAND_TOUCHED_AFTER_REVEAL

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        reveal = rnd.dealer_exposed
        if reveal is None or event.seat is None or event.position is None:
            return []
        p = rnd.positions.get(event.position)
        if p is None:
            return []
        if event.kind is EventKind.HAND_CHANGED:
            if "after dealer reveal" not in event.detail:
                return []
            restored = event.detail.startswith("restored")
            if not (restored or event.detail.startswith("moved")):
                return []
            observed = (
                f"seat {event.seat}'s set hand was lifted after the reveal and put back face down"
                if restored
                else f"seat {event.seat}'s set hand changed after the reveal to high {fmt(event.high)} / "
                f"low {fmt(event.low)}" + (f", deal spot {fmt(event.cards)}" if event.cards else "")
            )
            confidence = 0.7 if restored else 1.0
            if event.read_confidence is not None:
                # faces seen moved rest on the camera's reads of them: where a card lies is where its
                # read index was found (b42-0000, det 6: a Td read Jh at 0.56 by its bottom index, put
                # in the deal spot as the dealer turned the hand over: a "move" at 1.0, a false alert)
                confidence = min(confidence, event.read_confidence)
            if not restored and any(c != BACK for c in [*event.cards, *event.high, *event.low]):
                confidence = min(confidence, TURNED_UP_CONFIDENCE)
        else:
            return []
        if not self.once(rnd, event.position):
            return []
        return [
            self.finding(
                rnd,
                seat=event.seat,
                t=event.t,
                frame=event.frame,
                expected=f"seat {event.seat}'s cards untouched after the dealer's cards were exposed "
                f"(t={reveal.t:.2f}s, frame {reveal.frame})",
                observed=observed,
                confidence=confidence,
            )
        ]
