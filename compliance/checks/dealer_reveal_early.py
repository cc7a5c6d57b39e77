"""DEALER-REVEAL-EARLY: the dealer exposes his cards before every active seat is set.

Seed 002 rule 3.8 ("After all Players have set their hands ... the Dealer shall reveal") and seed
004 ("when all are ready, the dealer's seven cards are exposed"). Trigger: the DEALER_EXPOSED event
(a face first seen among the dealer's cards) while any active seat is not set. One finding per
round, seat None; confidence as IVERIFY-SEAT-EARLY (lower when the unset seat was hidden or showed
no cards at all, since its set may have been missed).
"""

from __future__ import annotations

from compliance.checks._base import Check, describe_unset, unset_active_seats
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState

__all__ = ["DealerRevealEarly"]


class DealerRevealEarly(Check):
    check_id = CheckId.DEALER_REVEAL_EARLY

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is not EventKind.DEALER_EXPOSED:
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
                expected="every active seat set before the dealer's cards are exposed",
                observed=f"dealer exposed {' '.join(event.cards)} while {describe_unset(unset)}",
                confidence=max(c for _, c in unset),
            )
        ]
