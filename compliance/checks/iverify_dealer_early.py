"""IVERIFY-DEALER-EARLY: the i-Verify display shows the dealer's house way before every seat is set.

Seed 000 rule 5.a.ii (seed 003, WA requirement ii): the dealer's house way must not be revealed on
the display until every player has set, or had his hand set by the house way (an i-Verify set is
a set: it shows as SEAT_SET like any other). Trigger: an IVERIFY_DEALER event while an active seat
is not set (judged as ``UnsetSeatsCheck`` says). One finding per round, seat None.
"""

from __future__ import annotations

from compliance.checks._base import UnsetSeatsCheck
from compliance.events import CheckId, Event, EventKind

__all__ = ["IVerifyDealerEarly"]


class IVerifyDealerEarly(UnsetSeatsCheck):
    check_id = CheckId.IVERIFY_DEALER_EARLY
    trigger = EventKind.IVERIFY_DEALER

    def texts(self, event: Event, unset: str) -> tuple[str, str]:
        return (
            "every active seat set before i-Verify shows the dealer's house way",
            f"i-Verify showed the dealer's house way while {unset}",
        )
