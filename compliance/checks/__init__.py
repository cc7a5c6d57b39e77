"""The checks of SPEC.md "Events and checks", one small unit each (see each module's docstring for
its exact trigger and confidence).

The seat of each finding (``evaluate`` matches findings by round, check id and seat; the renderer's
ground truth uses the same convention):

=========================== ==========================================================
IVERIFY-SEAT-EARLY          the seat shown on the display ("SEAT n")
IVERIFY-DEALER-EARLY        None (the table)
IVERIFY-NOT-VISIBLE         None
DEALER-REVEAL-EARLY         None
HAND-TOUCHED-AFTER-REVEAL   the seat whose set hand changed
HOUSE-WAY                   None for the dealer; the seat for a hand set through i-Verify
FOUL-MISHANDLED             the fouled seat
DEAL-ORDER                  the seat that got a hand out of turn (None: the dealer, or a spot
                            passed over / never dealt)
CARD-COUNT                  the seat (None for the dealer)
FOREIGN-CARD                the first seat holding the card (None if only the dealer)
SETTLEMENT                  the seat whose wager was settled otherwise than the rules say
=========================== ==========================================================

Each finding is made once per round and key (per seat where the check concerns one).
"""

from __future__ import annotations

from compliance.checks._base import Check, CheckContext
from compliance.checks.card_count import CardCount
from compliance.checks.deal_order import DealOrder
from compliance.checks.dealer_reveal_early import DealerRevealEarly
from compliance.checks.foreign_card import ForeignCard
from compliance.checks.foul import FoulMishandled
from compliance.checks.hand_touched import HandTouchedAfterReveal
from compliance.checks.house_way import HouseWay
from compliance.checks.iverify_dealer_early import IVerifyDealerEarly
from compliance.checks.iverify_not_visible import IVerifyNotVisible
from compliance.checks.iverify_seat_early import IVerifySeatEarly
from compliance.checks.settlement import Settlement

__all__ = ["ALL_CHECKS", "Check", "CheckContext", "build_checks"]

# FOREIGN-CARD first: a round it voids is void for the checks that run after it on the same input.
ALL_CHECKS: tuple[type[Check], ...] = (
    ForeignCard,
    DealOrder,
    CardCount,
    IVerifySeatEarly,
    IVerifyDealerEarly,
    IVerifyNotVisible,
    DealerRevealEarly,
    HandTouchedAfterReveal,
    HouseWay,
    FoulMishandled,
    Settlement,
)


def build_checks(ctx: CheckContext, only: list[str] | None = None) -> list[Check]:
    """One instance of every check (or of the ids in ``only``, in the order above)."""
    if only is not None:
        known = {c.check_id.value for c in ALL_CHECKS}
        bad = [c for c in only if c not in known]
        if bad:
            raise ValueError(
                f"MonitorConfig.checks: unknown check id(s) {bad}; the engine runs {sorted(known)}"
            )
    return [cls(ctx) for cls in ALL_CHECKS if only is None or cls.check_id.value in only]
