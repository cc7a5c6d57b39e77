"""Round events, check ids, findings and rebuilt rounds: the records compliance/ produces.

The renderer writes its ground truth in these same records (``ClipTruth``), so ``paigow-monitor
evaluate`` compares like with like.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CHECK_RULES",
    "CheckId",
    "ClipTruth",
    "Event",
    "EventKind",
    "Finding",
    "FindingStatus",
    "HandRecord",
    "RoundRecord",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EventKind(StrEnum):
    ROUND_START = "round_start"  # LCD shows a start position / first cards leave the shuffler
    HAND_DEALT = "hand_dealt"  # one position received its hand (position, in deal order)
    SEAT_SET = "seat_set"  # a seat's cards lie as two piles in its high and low areas
    IVERIFY_SEAT = "iverify_seat"  # the i-Verify display shows "SEAT n" with its house-way setting
    IVERIFY_DEALER = "iverify_dealer"  # the i-Verify display shows the dealer's house way
    DEALER_EXPOSED = "dealer_exposed"  # the dealer's cards are face up
    DEALER_SET = "dealer_set"  # the dealer's cards lie set in his high and low areas
    HAND_CHANGED = "hand_changed"  # a set player hand changed (cards moved, added or removed)
    PLAYER_EXPOSED = "player_exposed"  # the dealer turned a player's hand face up to settle
    SEAT_PAID = "seat_paid"  # chips appeared in a seat's payout spot: the dealer paid its wager
    WAGER_TAKEN = "wager_taken"  # a seat's wager left its bet circle while the round's cards still lay
    ROUND_END = "round_end"  # cards collected


class CheckId(StrEnum):
    IVERIFY_SEAT_EARLY = "IVERIFY-SEAT-EARLY"
    IVERIFY_DEALER_EARLY = "IVERIFY-DEALER-EARLY"
    IVERIFY_NOT_VISIBLE = "IVERIFY-NOT-VISIBLE"
    DEALER_REVEAL_EARLY = "DEALER-REVEAL-EARLY"
    HAND_TOUCHED_AFTER_REVEAL = "HAND-TOUCHED-AFTER-REVEAL"
    HOUSE_WAY = "HOUSE-WAY"
    FOUL_MISHANDLED = "FOUL-MISHANDLED"
    DEAL_ORDER = "DEAL-ORDER"
    CARD_COUNT = "CARD-COUNT"
    FOREIGN_CARD = "FOREIGN-CARD"
    SETTLEMENT = "SETTLEMENT"


# The rule each check enforces, with its source (SPEC.md "Events and checks").
CHECK_RULES: dict[CheckId, str] = {
    CheckId.IVERIFY_SEAT_EARLY: "seed 000 rule 5.a.i / seed 003 WA req. I: all other players must have "
    "set before the i-Verify display sets a player's hand to the house way",
    CheckId.IVERIFY_DEALER_EARLY: "seed 000 rule 5.a.ii / seed 003 WA req. II: the dealer's house way "
    "must not be revealed on i-Verify until every player has set",
    CheckId.IVERIFY_NOT_VISIBLE: "seed 000 rule 5.a.iii / WAC 230-15-280: the i-Verify display must be "
    "viewable by surveillance",
    CheckId.DEALER_REVEAL_EARLY: "seed 002 rule 3.8 / seed 004: the dealer reveals his cards only after all "
    "players have set their hands",
    CheckId.HAND_TOUCHED_AFTER_REVEAL: "seed 004: players may not touch their cards once the dealer's cards "
    "are exposed",
    CheckId.HOUSE_WAY: "seed 002 Appendix A (7-card) / seed 000 rule 6 (6-card): the dealer's hand is set "
    "by the house way",
    CheckId.FOUL_MISHANDLED: "seed 002 rule 3.7.2 (re-set by the house way) / seed 000 rule 5 (foul loses)",
    CheckId.DEAL_ORDER: "seed 000 rules 3-4: hands from the LCD position, counter-clockwise, one to "
    "every spot",
    CheckId.CARD_COUNT: "seed 002 rules 5.2-5.3: every hand has 7 cards (6 in the 6-card game)",
    CheckId.FOREIGN_CARD: "seed 002 rules 5.1, 5.5: a foreign or duplicate card voids the round",
    CheckId.SETTLEMENT: "seed 000 rule 7 / seed 002 rules 3.11-3.15: the dealer settles each wager by the "
    "rules' result (win both: paid; lose both: taken; one each: push; copies to the dealer)",
}


class Event(_Model):
    """One timestamped thing that happened in a round, as seen in the footage."""

    round: int
    kind: EventKind
    t: float  # seconds from the start of the footage
    frame: int
    position: str | None = None  # "dealer" or "seat<N>" where the event concerns one position
    seat: int | None = None
    cards: list[str] = Field(default_factory=list)  # cards involved, as text ("As", "Jk", "BACK")
    high: list[str] = Field(default_factory=list)
    low: list[str] = Field(default_factory=list)
    detail: str = ""
    # the lowest camera read confidence of the face cards the event shows (TableState.read_confidence);
    # None: not read by a camera (ground truth) or no face shown
    read_confidence: float | None = None


FindingStatus = Literal["alert", "review"]


class Finding(_Model):
    """A breach of a rule: what an alert reports (the alert adds table, evidence and delivery)."""

    round: int
    check_id: CheckId
    seat: int | None = None  # None for the dealer / the whole table
    t: float
    frame: int
    rule: str = ""  # the rule cited (CHECK_RULES text by default)
    expected: str = ""
    observed: str = ""
    confidence: float = 1.0
    # "alert": rings; "review": shown and recorded apart, for a person to look at (its confidence is
    # below MonitorConfig.review_below: it rests on a doubtful camera read or an unseen moment)
    status: FindingStatus = "alert"


class HandRecord(_Model):
    """One position's hand in a rebuilt round, as far as the footage shows it."""

    position: str  # "dealer" or "seat<N>"
    seat: int | None = None
    active: bool = False  # had a wager (chips in the bet circle)
    cards: list[str] = Field(default_factory=list)  # all cards of the hand, once seen face up
    high: list[str] = Field(default_factory=list)
    low: list[str] = Field(default_factory=list)
    set_by: Literal["player", "iverify", "dealer", "unknown"] = "unknown"
    # of its cards, those that some view of the hand named as the one card missing from the hand the
    # camera had seen whole (the dealer's hand turned up before he set it, the hand the i-Verify display
    # showed) rather than by reading it where it lay (TableState.carried_faces)
    carried: list[str] = Field(default_factory=list)
    # of its cards, those named by a blank corner: card-white paper where an index would be, so a
    # Joker that prints none (TableState.blank_corner_faces); a deduction, read at 0.6
    blank_corner: list[str] = Field(default_factory=list)
    # of its cards, those named by the count: the one card of the hand whose index was seen and not read
    # surely, of the faces its reads left open the one the table did not already show (one deck holds
    # each face once; TableState.counted_faces); a deduction, no surer than the camera's floor
    counted: list[str] = Field(default_factory=list)
    # a seat's hand the dealer re-set after it was turned up (set_by "dealer": a foul hand re-set by the
    # house way): the setting it was turned up in, as the camera read it; high and low above are the
    # re-set. Empty otherwise.
    turned_up_high: list[str] = Field(default_factory=list)
    turned_up_low: list[str] = Field(default_factory=list)


class RoundRecord(_Model):
    """A rebuilt round: every active seat's and the dealer's cards and setting, and its timeline."""

    round: int
    game: Literal["seven-card", "six-card"]
    t_start: float
    t_end: float | None = None
    lcd: int | None = None
    hands: list[HandRecord] = Field(default_factory=list)
    deal_order: list[str] = Field(default_factory=list)  # positions in the order they received hands
    events: list[Event] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)


class ClipTruth(_Model):
    """Ground truth of one rendered clip (the renderer writes it; evaluate reads it)."""

    clip: str  # video file name
    table_id: str
    game: Literal["seven-card", "six-card"]
    fps: float
    frames: int
    layout: str  # layout file name, relative to the truth file
    seed: int
    scenario: str
    rounds: list[RoundRecord]
