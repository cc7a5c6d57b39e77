"""DEALER-REVEAL-EARLY: the dealer exposes his cards before every active seat is set.

Seed 002 rule 3.8 ("After all Players have set their hands ... the Dealer shall reveal") and seed
004 ("when all are ready, the dealer's seven cards are exposed"). Trigger: the DEALER_EXPOSED event
(a face first seen among the dealer's cards) while an active seat is not set (judged as
``UnsetSeatsCheck`` says: a seat that never sets is a breach at once if its cards lie in view).
One finding per round, seat None.
"""

from __future__ import annotations

from compliance.checks._base import UnsetSeatsCheck
from compliance.events import CheckId, Event, EventKind

__all__ = ["DealerRevealEarly"]


class DealerRevealEarly(UnsetSeatsCheck):
    check_id = CheckId.DEALER_REVEAL_EARLY
    trigger = EventKind.DEALER_EXPOSED

    def texts(self, event: Event, unset: str) -> tuple[str, str]:
        return (
            "every active seat set before the dealer's cards are exposed",
            f"dealer exposed {' '.join(event.cards)} while {unset}",
        )
