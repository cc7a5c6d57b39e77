"""IVERIFY-SEAT-EARLY: the i-Verify display shows seat N while another active seat has not set.

Seed 000 rule 5.a.i (and seed 003, WA requirement i): all *other* players must have set before the
display is used to set a player's hand by the house way. Trigger: an IVERIFY_SEAT event for seat N
while an active seat other than N is not set at that moment (judged as ``UnsetSeatsCheck`` says:
at once when its cards lie unset in plain view, later when it was in doubt). Seat N is the
finding's seat; one finding per seat N per round.
"""

from __future__ import annotations

from compliance.checks._base import UnsetSeatsCheck
from compliance.events import CheckId, Event, EventKind

__all__ = ["IVerifySeatEarly"]


class IVerifySeatEarly(UnsetSeatsCheck):
    check_id = CheckId.IVERIFY_SEAT_EARLY
    trigger = EventKind.IVERIFY_SEAT

    def finding_seat(self, event: Event) -> int | None:
        return event.seat

    def finding_key(self, event: Event) -> str:
        return f"seat{event.seat}"

    def texts(self, event: Event, unset: str) -> tuple[str, str]:
        return (
            f"every other active seat set before i-Verify shows seat {event.seat}",
            f"i-Verify showed seat {event.seat} while {unset}",
        )
