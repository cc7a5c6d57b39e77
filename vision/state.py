"""Table state: what the camera shows at one moment. The record that crosses from vision/ to compliance/.

The renderer writes the true table state of every frame in this same form (its ground truth), so
the compliance engine can be driven by ground truth or by the camera pipeline alike.

Card tokens are the notation of ``rules.cards`` (``As``, ``Td``, ``Jk``) or ``BACK`` for a card
seen face down. A zone's cards are listed left to right as the camera sees them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["BACK", "UNREAD", "DealerState", "IVerifyState", "SeatState", "TableState"]

BACK = "BACK"
UNREAD = 0.0  # TableState.read_confidence of a zone that changed and has not been read again


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatState(_Model):
    seat: int
    chips: bool = False  # chips in the bet circle: the seat is active (has a wager)
    payout: bool = False  # chips in the payout spot beside the bet circle: the dealer paid the wager
    dealt: list[str] = Field(default_factory=list)  # cards lying in the deal spot, not yet set
    high: list[str] = Field(default_factory=list)  # cards in the high-hand area
    low: list[str] = Field(default_factory=list)  # cards in the low-hand area


class DealerState(_Model):
    hand: list[str] = Field(default_factory=list)  # dealt / exposed, not yet set
    high: list[str] = Field(default_factory=list)
    low: list[str] = Field(default_factory=list)


class IVerifyState(_Model):
    """The i-Verify display: blank, or a position's house-way setting (seed 000 rule 5a)."""

    visible: bool = True  # False: the camera cannot see the display (WAC 230-15-280)
    mode: Literal["blank", "seat", "dealer"] = "blank"
    seat: int | None = None
    high: list[str] = Field(default_factory=list)
    low: list[str] = Field(default_factory=list)


class TableState(_Model):
    """One moment of the table. ``t`` is seconds from the start of the source (never wall clock)."""

    table_id: str
    frame: int
    t: float
    lcd: int | None = None  # the shuffler's start position, when shown
    seats: list[SeatState] = Field(default_factory=list)
    dealer: DealerState = Field(default_factory=DealerState)
    iverify: IVerifyState = Field(default_factory=IVerifyState)
    occluded: list[str] = Field(default_factory=list)  # zones hidden this frame ("seat3.high", "dealer")
    # The live camera feed dropped at ``t`` (``vision.sources``: reconnecting): nothing at the table is
    # seen from then until a state without it; the rest of this state is the table as last seen. False:
    # the camera sees (files, ground truth, older records).
    feed_lost: bool = False
    # How far the camera's view has moved from the calibrated view (``TableLayout.reference_view``; without
    # it, the watch's first frame), in the frame's pixels (the farthest of its corners and centre;
    # ``vision._view_watch``): a camera knocked or turned, the layout's zones no longer where they were
    # calibrated: put it back or recalibrate (``paigow-monitor calibrate``).
    # None: in place (or not checked: ground truth, older records).
    view_moved_px: Annotated[float, Field(ge=0.0)] | None = None
    # How sure the camera is of each zone's cards, by the keys of ``occluded`` ("seat3.high",
    # "dealer.hand", "iverify"): the lowest read confidence of the face cards it shows (backs are
    # not read, so a zone of backs or an empty one is not listed), or ``UNREAD`` (0.0): the zone's
    # picture changed since it was last read and it has not been read again, so its cards are not
    # known (cards being put down or moved). Empty: every zone is sure (ground truth, old records).
    read_confidence: dict[str, Annotated[float, Field(ge=0.0, le=1.0)]] = Field(default_factory=dict)
    # How sure the camera is of each card, by the same keys: a list parallel to the zone's cards (left to
    # right, as listed): a face's read confidence (the zone's ``read_confidence`` is the lowest of these
    # over its faces), a back's the detector's score for it (a back is not read; its score says how sure
    # the detector is that a card lies there). Only for zones whose reading the state shows: not for an
    # ``UNREAD`` zone. A zone not listed falls back on ``read_confidence`` for each face
    # (``card_reads``). Empty: every card is sure (ground truth, older records).
    card_confidence: dict[str, list[Annotated[float, Field(ge=0.0, le=1.0)]]] = Field(default_factory=dict)
    # Face-up cards the camera saw in a zone but could not name, by the same keys: an index was found
    # there and its face not read surely enough (the zone's cards list only faces read). How many cards
    # lie there is then known, not which: CARD-COUNT counts them (a hand is not short of a card the
    # camera saw); nothing else does. Only for zones whose reading the state shows. Empty: none (ground
    # truth, older records).
    unread_faces: dict[str, Annotated[int, Field(ge=1)]] = Field(default_factory=dict)
    # Face-up cards a zone lists that this read of it did not name, by the same keys: its index was
    # seen and not read, and the card is the one missing from the position's hand as the camera saw it
    # whole a moment before (the dealer's hand turned up before he set it, or the hand the i-Verify
    # display showed; ``vision.pipeline._carry_known_face``). Its confidence is that earlier read's.
    # Empty: every face listed was read where it lies (ground truth, older records).
    carried_faces: dict[str, list[str]] = Field(default_factory=dict)
    # Of ``carried_faces``, by the same keys, those named from the hand the i-Verify display showed (not
    # the felt's own earlier view of the hand): the card's name and read are the display's, so the felt
    # and the display are one picture of it, not two (``compliance.rounds.PositionState.corroborated``).
    # Empty: none (ground truth, older records).
    carried_from_display: dict[str, list[str]] = Field(default_factory=dict)
    # Face-up cards a zone lists that were named by a blank corner, by the same keys ("iverify": the
    # display's): card-white paper where a card's index would print and no ink there, so a Joker that
    # prints none (or a faint star; ``vision._blank_corner``). A deduction, not a read: its confidence
    # is ``JOKER_BY_PAPER`` (0.6).
    # Empty: every face listed was read by its index (ground truth, older records).
    blank_corner_faces: dict[str, list[str]] = Field(default_factory=dict)
    # Face-up cards a zone lists that were named by the count, by the same keys: the one card of a hand
    # whose index the camera saw but could not name surely, where every other card of the game's count
    # lies named in the position's areas and, of the faces its reads leave open (a read under the
    # pipeline's floor; the two faces a contested read's two cuts name), exactly one is neither in the
    # hand nor shown at another position: one deck holds each face once (``vision.pipeline.
    # _name_by_count``). A deduction, not a read: its confidence is its read's, never more than the
    # pipeline's floor (0.4), so a finding resting on it is a review item.
    # Empty: every face listed was read surely (ground truth, older records).
    counted_faces: dict[str, list[str]] = Field(default_factory=dict)
    # Of the zones in ``counted_faces``, those whose count set aside a face its reads also named because
    # another position showed it (one deck holds each face once), by the same keys: each face set aside
    # with its surest read there. A second deck's copy of that face, a duplicate (seed 002 rule 5.5),
    # would read so too, and the count named it otherwise: FOREIGN-CARD makes a review item of it.
    # b53-0012 (seed 53, 720p): an injected second 6c, read 6s at 0.45 and 6c at 0.33 beside the
    # dealer's 6c, was named 6s. Empty: none (ground truth, older records).
    counted_aside: dict[str, dict[str, Annotated[float, Field(ge=0.0, le=1.0)]]] = Field(default_factory=dict)
    # Of the zones in ``unread_faces``, those where a face found and not named read likeliest as a face
    # the same position names already (this area or its other), where every other card of the hand
    # lies named: the count could name it no other face (``vision.pipeline._name_by_count``), so it
    # stays unnamed, and a copy of that face in the same hand, a duplicate (seed 002 rule 5.5), reads
    # just so. By the same keys: each such face with its read there. FOREIGN-CARD makes a review item
    # of it held a while. b86-0013 (seed 86, 720p): seat 5's second Js, read Js at 0.28 beside his Js,
    # was a face not named, and the FOREIGN-CARD was missed outright. Empty: none (ground truth, older
    # records).
    unread_twins: dict[str, dict[str, Annotated[float, Field(ge=0.0, le=1.0)]]] = Field(default_factory=dict)
    # Face-up cards of one rank that a card zone lists more than once and that lie apart as two cards
    # do, by the same keys: every two of them side by side as a spread's neighbours, with another card's
    # index between them, or further apart than one card (``vision.pipeline._apart_faces``). None of
    # them is another's index read a second time in another suit (a card's two ends, a four-corner
    # deck's third index), whatever their reads: CARD-COUNT does not doubt an excess for them. Only for
    # zones whose reading the state shows; a rank's faces all or none. Empty: none known so (ground
    # truth, older records).
    apart_faces: dict[str, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _cards_match(self) -> TableState:
        for key in self.unread_faces:
            if key == "iverify":
                raise ValueError(f"unread_faces[{key!r}]: only card zones on the felt (frame {self.frame})")
            self.zone_cards(key)  # names the zone, or says it is none
        for field, faces in (
            ("carried_faces", self.carried_faces),
            ("blank_corner_faces", self.blank_corner_faces),
            ("counted_faces", self.counted_faces),
            ("apart_faces", self.apart_faces),
        ):
            for key, named in faces.items():
                missing = set(named) - set(self.zone_cards(key))
                if missing:
                    raise ValueError(
                        f"{field}[{key!r}] names {sorted(missing)}, not among the zone's cards "
                        f"at frame {self.frame}"
                    )
        for key, named in self.carried_from_display.items():
            missing = set(named) - set(self.carried_faces.get(key, []))
            if missing:
                raise ValueError(
                    f"carried_from_display[{key!r}] names {sorted(missing)}, not among the zone's "
                    f"carried_faces at frame {self.frame}"
                )
        for key in self.unread_twins:
            if key not in self.unread_faces:
                raise ValueError(
                    f"unread_twins[{key!r}]: the zone shows no face found and not named at frame {self.frame}"
                )
        for key in self.counted_aside:
            if key not in self.counted_faces:
                raise ValueError(
                    f"counted_aside[{key!r}]: the zone names no face by the count at frame {self.frame}"
                )
        for key, confs in self.card_confidence.items():
            cards = self.zone_cards(key)
            if len(confs) != len(cards):
                raise ValueError(
                    f"card_confidence[{key!r}] has {len(confs)} entries but the zone shows "
                    f"{len(cards)} cards at frame {self.frame}"
                )
        return self

    def zone_cards(self, key: str) -> list[str]:
        """The cards of a zone by its key ("seat3.high", "dealer.hand", "iverify": its high then low)."""
        if key == "iverify":
            return self.iverify.high + self.iverify.low
        pos, _, area = key.partition(".")
        src: SeatState | DealerState
        if pos == "dealer":
            src = self.dealer
        elif pos.startswith("seat") and pos[4:].isdigit() and any(s.seat == int(pos[4:]) for s in self.seats):
            src = self.seat(int(pos[4:]))
        else:
            raise ValueError(f"no card zone {key!r} (frame {self.frame})")
        if area not in type(src).model_fields or area in ("seat", "chips", "payout"):
            raise ValueError(f"no card zone {key!r} (frame {self.frame})")
        cards: list[str] = getattr(src, area)
        return cards

    def card_reads(self, key: str) -> list[float | None]:
        """Each card's confidence in a zone, parallel to its cards (None: sure, or a back not scored).
        Without ``card_confidence`` for the zone (older records), each face gets the zone's
        ``read_confidence`` and each back None."""
        if key in self.card_confidence:
            return list(self.card_confidence[key])
        zone = self.read_confidence.get(key)
        return [None if c == BACK else zone for c in self.zone_cards(key)]

    def seat(self, n: int) -> SeatState:
        for s in self.seats:
            if s.seat == n:
                return s
        raise KeyError(f"no seat {n} in table state at frame {self.frame}")
