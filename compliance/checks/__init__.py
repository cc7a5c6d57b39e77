"""The checks of SPEC.md "Events and checks", one small unit each (see each module's docstring for
its exact trigger and confidence). SETTLEMENT is not here: it needs chips outcomes that the table
state does not carry yet.
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
from compliance.events import CheckId

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
)


def build_checks(ctx: CheckContext, only: list[str] | None = None) -> list[Check]:
    """One instance of every check (or of the ids in ``only``, in the order above)."""
    if only is not None:
        known = {c.check_id.value for c in ALL_CHECKS}
        bad = [c for c in only if c not in known]
        if bad:
            note = ""
            if CheckId.SETTLEMENT in bad:
                note = " (SETTLEMENT needs chips outcomes; it is not in the engine)"
            raise ValueError(
                f"MonitorConfig.checks: unknown check id(s) {bad}; the engine runs {sorted(known)}{note}"
            )
    return [cls(ctx) for cls in ALL_CHECKS if only is None or cls.check_id.value in only]
