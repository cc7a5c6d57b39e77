"""IVERIFY-DEALER-EARLY: the i-Verify display shows the dealer's house way before every seat is set.

Seed 000 rule 5.a.ii (seed 003, WA requirement ii): the dealer's house way must not be revealed on
the display until every player has set, or had his hand set by the house way (an i-Verify set is
a set: it shows as SEAT_SET like any other). Trigger: an IVERIFY_DEALER event while any active seat
is not set. One finding per round, seat None (the whole table); confidence as IVERIFY-SEAT-EARLY.
"""

from __future__ import annotations

from compliance.checks._base import Check, describe_unset, unset_active_seats
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState

__all__ = ["IVerifyDealerEarly"]


class IVerifyDealerEarly(Check):
    check_id = CheckId.IVERIFY_DEALER_EARLY

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is not EventKind.IVERIFY_DEALER:
            return []
        unset = unset_active_seats(rnd)
        if not unset or not self.once(rnd, "dealer"):
            return []
        return [
            self.finding(
                rnd,
                seat=None,
                t=event.t,
                frame=event.frame,
                expected="every active seat set before i-Verify shows the dealer's house way",
                observed=f"i-Verify showed the dealer's house way while {describe_unset(unset)}",
                confidence=max(c for _, c in unset),
            )
        ]
