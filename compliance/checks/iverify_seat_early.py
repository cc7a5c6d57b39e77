"""IVERIFY-SEAT-EARLY: the i-Verify display shows seat N while another active seat has not set.

Seed 000 rule 5.a.i (and seed 003, WA requirement i): all *other* players must have set before the
display is used to set a player's hand by the house way. Trigger: an IVERIFY_SEAT event for seat N
while any active seat other than N is not set at that moment. One finding per seat N per round;
confidence is that of the most certain unset seat (see ``_base._unset_confidence``).
"""

from __future__ import annotations

from compliance.checks._base import Check, describe_unset, unset_active_seats
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState

__all__ = ["IVerifySeatEarly"]


class IVerifySeatEarly(Check):
    check_id = CheckId.IVERIFY_SEAT_EARLY

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is not EventKind.IVERIFY_SEAT:
            return []
        unset = unset_active_seats(rnd, besides=event.seat)
        if not unset or not self.once(rnd, f"seat{event.seat}"):
            return []
        return [
            self.finding(
                rnd,
                seat=event.seat,
                t=event.t,
                frame=event.frame,
                expected=f"every other active seat set before i-Verify shows seat {event.seat}",
                observed=f"i-Verify showed seat {event.seat} while {describe_unset(unset)}",
                confidence=max(c for _, c in unset),
            )
        ]
