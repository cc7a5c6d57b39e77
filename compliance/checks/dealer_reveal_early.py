"""DEALER-REVEAL-EARLY: the dealer exposes his cards before every active seat is set.

Seed 002 rule 3.8 ("After all Players have set their hands ... the Dealer shall reveal") and seed
004 ("when all are ready, the dealer's seven cards are exposed"). Trigger: the DEALER_EXPOSED event
(a face first seen among the dealer's cards) while an active seat is not set (judged as
``UnsetSeatsCheck`` says: a seat that never sets is a breach at once if its cards lie in view).
One finding per round, seat None.

Camera reads: the reveal rests on a face being there at all, whichever it is, so the finding is no
surer than the surest read of the faces the dealer's areas show at that moment (``PositionState.
card_conf``); a back read as a face makes a reveal that never happened. b63-0012 (seed 63, 720p,
plastic): the dealer's pile of backs, just dealt, read as a back and a Jh at 0.41 while two seats
held their dealt cards: an alert at 1.0 on a compliant round, a review item now.
"""

from __future__ import annotations

from compliance.checks._base import UnsetSeatsCheck
from compliance.events import CheckId, Event, EventKind
from compliance.rounds import RoundState
from vision.state import BACK

__all__ = ["DealerRevealEarly"]


class DealerRevealEarly(UnsetSeatsCheck):
    check_id = CheckId.DEALER_REVEAL_EARLY
    trigger = EventKind.DEALER_EXPOSED

    def texts(self, event: Event, unset: str) -> tuple[str, str]:
        return (
            "every active seat set before the dealer's cards are exposed",
            f"dealer exposed {' '.join(event.cards)} while {unset}",
        )

    def trigger_read(self, event: Event, rnd: RoundState) -> float | None:
        d = rnd.dealer
        reads = [
            r
            for cards, conf in zip((d.dealt, d.high, d.low), d.card_conf, strict=True)
            for c, r in zip(cards, conf, strict=False)
            if c != BACK
        ]
        if not reads or any(r is None for r in reads):
            return None  # ground truth, or a face read surely
        return max(r for r in reads if r is not None)
