"""The camera pipeline: frames of a source -> table states, yielded whenever the table changes.

Per analysed frame, for every region of the layout (a seat's card areas, the dealer's, the i-Verify
display, the LCD, each bet circle and payout spot):

1. **Change test.** The region is rectified to a small crop (its longest side ``small_px``
   pixels; a few microseconds) and compared with the crop taken when it last settled: the share of
   pixels of each zone that differ by more than ``diff_level`` levels in some colour channel, in it
   and in its smooth twin cut from the frame shrunk by block means (``_small_source``: a noisy
   camera's noise is averaged away there, and not taken for change or motion). Below
   ``change_fraction``, nothing changed and nothing runs.
2. **Occlusion test, zone by zone.** Occluders are the changed blobs with skin or sleeve colours of
   ``skin_blob_fraction`` of the crop (a hand; not a court card's face), and the changed blobs of
   ``edge_blob_fraction`` that reach in from the crop's edge (an arm of any colour comes from outside;
   a card lies inside). A zone they cover by ``zone_occlusion_fraction`` is *occluded*: it keeps its
   last known content, gets no reading, and is listed in ``occluded``; the region's other zones are
   still read (the dealer's hand over one seat's high hand does not hide its low hand).
   (A blob from the edge that lies still for ``edge_read_after_s`` is read through: a card pushed half
   out of its area. One that has lain still on a card zone for ``stable_frames`` is read through
   where, the cards found taken away from it, it covers less of the zone than that fraction: the
   dealer's hand resting on a seat's high hand beside its low hand just turned up, whose card changed
   and joins the hand's blob; an index found is grown into its card the way the crop holds it,
   ``_card_mask``.)
   (A bet circle or payout spot that such a blob reaches into at all, hiding it or not,
   waits until the blob has gone or has lain still for ``edge_read_after_s`` since it last moved: the
   dealer's arm, or its shadow, read as chips in a payout spot is a payout the dealer never made.
   On the i-Verify display a cover is told by the panel's colour, and counts as "not visible" once
   it has lain there ``iverify_cover_s``. Skin-coloured blobs are never read through.
   A zone an occluder reaches into without hiding it is read, but when a card is found lying on the
   occluder there - the arm itself, a dark sleeve read as a back, or a card in the hand - that zone
   counts as occluded this time, and is read again once the arm has gone. So does a zone holding a
   back the crop's edge cuts that lies on a changed blob from that edge of any size, down to
   ``cut_back_blob_fraction`` (a sleeve too small for an arm), until it has lain there
   ``edge_read_after_s``.)
3. **Settle, then read.** A changed, unoccluded zone is read once it has been still (frame-to-frame
   change below ``motion_fraction``) for ``stable_frames`` analysed frames: the full-resolution
   upright crop goes to the card detector (card regions, the i-Verify cards; a coarse camera's
   detector reads indices with its own classifier, ``coarse_camera``) or to a cheap reader
   (LCD digit, i-Verify header and visibility, chips in a bet circle or a payout spot). A reading
   that differs from the previous one is confirmed by ``confirm_reads`` agreeing reads before the
   zone counts as settled. A face whose index was found but not read surely enough to name it (the
   detector's ``detect_with_unread``, or a read below ``min_confidence``) is not listed among the
   zone's cards; it is counted in ``TableState.unread_faces`` (one per card: ``_unread_cards``), so
   CARD-COUNT knows a card lies there. When it is the only such face and the position's hand was seen
   whole a moment before (the dealer's hand turned up, then set; the hand the i-Verify display
   showed), it is named as the one card of that hand not read (``_carry_known_face``), at that
   earlier read's confidence (or, where one card was read two ways in the two views, no surer than
   the two reads), and listed in ``TableState.carried_faces``. Else, where every other
   card of the hand is named, it is named by the count when, of the faces its reads leave open (the
   two likeliest faces of each index there, ``detect_with_guesses``, read at ``count_floor`` or
   more; from a detector that does not report them, a read under ``min_confidence`` and the two
   faces the detector's two cuts of a contested index name, ``detect_with_rivals``), exactly one is
   neither in the hand nor shown at another position (``_name_by_count``): listed in
   ``TableState.counted_faces``, never surer than ``min_confidence``.
   So is a face read under the review level whose face another position shows read surer and whose
   suit twin the table does not show: it is the twin (``_suit_twin``), the face set aside
   (``TableState.counted_aside``). Of two reads of one face in one hand, the weaker, however sure, is
   the card of the hand seen whole that it lacks now and that shares its rank or suit
   (``_missing_twin``). A whole hand read but for a face or two under the review level, each sharing
   rank or suit with a card of the hand seen whole not read now, is that hand where the other view
   read the card surer, or both views (the felt and the display) read it so (``_felt_misreads``;
   ``TableState.carried_faces``).
   The i-Verify display's one face not read is named the same two ways, and of two cards of the hand
   it shows read as one face that are not one picture, the weaker is named as on the felt
   (``_display_twins``; one picture drawn twice is a second copy). A card that shows its
   paper but prints no index where every face prints one (a spread's bottom or top card, or a card
   on its own, its corner blank or one small mark: the Joker of dondorf or tigullio) is read as the
   Joker at ``vision._blank_corner.JOKER_BY_PAPER`` (0.6: a deduction, so a finding resting on it is
   a review item); so is a card the i-Verify display shows in a slot where nothing was found, its
   corner blank (``_panel_joker``).
4. **Debounce** (``vision.tracking``): a zone's content must hold ``hold_frames`` frames and
   ``hold_s`` seconds before the table state changes.

In replay, frames are decoded at full rate but analysed at ``analyse_fps`` (skipped frames are
grabbed, not converted); ``t`` is the file position. Live sources are analysed at the same rate by
time, with ``t`` in seconds since the stream opened.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import os
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from vision._blank_corner import (
    JOKER_BY_PAPER,
    blank_corner_cards,
    blank_slot_cards,
    empty_slots,
    same_picture,
)
from vision._blas import one_blas_thread
from vision._skin import skin_mask
from vision._still_memory import StillMemory
from vision._view_watch import ViewWatch
from vision.card_body import CARD_MM, INDEX_INSET, INDEX_SIZED, at_opposite_corners
from vision.chips import FeltModel, around_mask, chips_present, inner_mask
from vision.detections import (
    BACK_CLASS,
    CLASSES,
    JOKER_CLASS,
    CardDetector,
    Detections,
    card_between,
    intersection_area,
    union_box,
)
from vision.displays import HEADER_FRACTION, panel_quad, panel_visible, read_header, read_lcd, split_setting
from vision.layout import IVerifySlots, LayoutError, TableLayout
from vision.sources import iter_frames
from vision.state import BACK, UNREAD, TableState
from vision.tracking import IVerifyReading, TableTracker
from vision.zones import COARSE_CAMERA_PX_PER_MM, Region, build_regions, card_scales

__all__ = [
    "CARD_PX_PER_MM",
    "READ_AHEAD",
    "READ_AHEAD_MB",
    "FrameResult",
    "PipelineConfig",
    "TablePipeline",
    "load_shipped_detector",
    "merge_card_indices",
    "shrunk_frame",
    "watch",
    "zone_card_scale",
]

_log = logging.getLogger("vision.pipeline")


# The card detector reads crops at this one resolution whatever the camera: seat and dealer regions
# are cut at it, the i-Verify panel's card row is resized by the same factor. A card's index is then
# about 30 px tall. (At a 1280x720 overhead view the camera gives ~0.84 px/mm: an index ~8 px tall,
# too few pixels to read reliably; a 1920x1080 view gives ~1.26 px/mm.)
CARD_PX_PER_MM = 1.6


class PipelineConfig(BaseModel):
    """Settings of the camera pipeline (defaults suit 25 fps, 1280x720 footage)."""

    model_config = ConfigDict(extra="forbid")

    analyse_fps: float | None = Field(12.5, gt=0, description="frames analysed per second; None = all")
    view_check_s: float | None = Field(
        4.0,
        gt=0,
        description="footage seconds between checks that the camera's view has not moved since it was "
        "calibrated (TableLayout.reference_view) or, without that picture, since the watch began "
        "(TableState.view_moved_px; three checks running confirm a move, about 15 ms each); None = off",
    )
    view_moved_share: float = Field(
        0.004, gt=0, lt=1, description="a view moved this share of the frame's width or more has moved"
    )
    reconnect_tries: int | None = Field(
        None,
        ge=0,
        description="a live feed that drops is reconnected, and one that cannot be opened at the start is "
        "tried again, this many times in a row before the watch stops (vision.sources); None = for as long "
        "as it takes: a surveillance camera that reboots, or is still booting, is waited for, each attempt "
        "logged, a lost spell reported in the table state (TableState.feed_lost)",
    )
    small_px: int = Field(48, ge=8, description="longest side of the change-test crops")
    change_from_thumbnail: bool = Field(
        True,
        description="also cut each change-test crop from the frame shrunk 4 or 2 times (block means) where "
        "that is fine enough, and count a pixel changed only where both crops differ: a noisy camera's "
        "noise is not taken for change or motion",
    )
    diff_level: int = Field(30, ge=1, le=255, description="grey-level difference that counts as changed")
    change_fraction: float = Field(0.02, gt=0, lt=1, description="share of changed pixels: region changed")
    motion_fraction: float = Field(
        0.01, ge=0, lt=1, description="frame-to-frame share below which it is still"
    )
    stable_frames: int = Field(2, ge=1, description="still analysed frames before a changed region is read")
    confirm_reads: int = Field(2, ge=1, description="agreeing reads that settle a new reading")
    force_after_s: float = Field(3.0, gt=0, description="read a changed, unoccluded region after this anyway")
    zone_occlusion_fraction: float = Field(0.3, gt=0, le=1, description="occluder share that hides a zone")
    skin_blob_fraction: float = Field(0.03, gt=0, le=1, description="skin blobs this big (of a crop) occlude")
    edge_blob_fraction: float = Field(
        0.03,
        gt=0,
        le=1,
        description="a changed blob this big reaching in from the crop's edge hides a region",
    )
    edge_read_after_s: float = Field(
        2.0, gt=0, description="read a region under a still edge blob after this"
    )
    cut_back_blob_fraction: float = Field(
        0.005,
        gt=0,
        le=1,
        description="a back cut by the crop's edge that lies on a changed blob this big reaching in from "
        "the edge is what reaches in (a sleeve), not a card on the felt, until it has lain long",
    )
    skin: bool = Field(True, description="count skin colours as occluders")
    sleeve_bgr: list[tuple[int, int, int]] = Field(default_factory=list, description="sleeve colours (BGR)")
    sleeve_tolerance: int = Field(40, ge=1)
    # 1: a reading reaches the tracker only once ``confirm_reads`` agreeing reads settled it, and stands
    # until two agreeing reads settle another, so holding it a second frame filtered nothing and cost
    # 80 ms of every change's latency (alerts of seeds 41-44, reads of seed 42 and the sample: the same)
    hold_frames: int = Field(1, ge=1, description="analysed frames a zone's new content must hold")
    hold_s: float = Field(0.0, ge=0, description="seconds a zone's new content must hold")
    min_confidence: float = Field(
        0.4,
        ge=0,
        le=1,
        description="reads less sure than this (stage-1 score x classifier p) are dropped. 0.4: on held-out "
        "decks (benchmarks/read_calibration.py --data D5) reads at 0.4-0.5 were 82 % right with cls 10, "
        "75 % with cls 12 (0.3-0.4: 70 % and 77 %); a dropped read is a card missing for sure, a kept one "
        "a card right or wrong, and a wrong card in a rebuilt hand is silent where a missing one is seen "
        "(CARD-COUNT), so the floor stops short of 0.3 (sample footage, cls 10: cards P 0.986 at 0.3, "
        "0.997 at 0.4). Every finding resting on a read below MonitorConfig.review_below (0.7) is a "
        "review item, not an alert",
    )
    name_by_count: bool = Field(
        True,
        description="name the one card a region's whole hand lacks (every other card of the game's count "
        "named, no back, none hidden) where, of the faces its reads leave open (a read under "
        "min_confidence; the two faces a contested read's two cuts name), exactly one is neither in the "
        "hand nor shown at another position (_name_by_count; TableState.counted_faces); its confidence "
        "is its read's, never more than min_confidence, so a finding resting on it is a review item",
    )
    count_floor: float = Field(
        0.25,
        ge=0,
        le=1,
        description="name_by_count names a face that only a read under min_confidence names when that "
        "read is this sure or more",
    )
    crop_margin_mm: float = Field(12.0, ge=0)
    px_per_mm: float | None = Field(None, gt=0, description="crop resolution; None = the camera's own")
    card_px_per_mm: float | None = Field(
        CARD_PX_PER_MM, gt=0, description="resolution of the crops the card detector reads; None = px_per_mm"
    )
    chips_fraction: float = Field(0.2, gt=0, lt=1)
    iverify_cover_s: float = Field(1.0, ge=0, description="a cover over the i-Verify display counts after")
    iverify_visible_fraction: float = Field(0.5, gt=0, lt=1)
    second_look_s: float = Field(
        1.0,
        ge=0,
        description="a card zone holding a reading with a face read under second_look_below, or one seen "
        "and not named, is read once more after it has held it this long (0: not)",
    )
    second_look_below: float = Field(0.5, ge=0, le=1)
    early_look_s: float = Field(
        0.5,
        ge=0,
        description="and, as doubtful, once before that, after this long (0: not): a picture a recorder "
        "coded coarse is often recoded finer within half a second",
    )
    iverify_second_look_s: float = Field(
        1.0,
        ge=0,
        description="a hand the i-Verify display shows is read once more after it has shown it this long "
        "(0: not): the picture a recorder codes just after the display changes is coarser than the "
        "frames after it",
    )
    iverify_early_look_s: float = Field(
        0.5, ge=0, description="and once before that, after this long (0: not), as early_look_s"
    )
    header_min_score: float = Field(0.5, gt=-1, lt=1)


class FrameResult(NamedTuple):
    state: TableState
    image: (
        np.ndarray | None
    )  # the BGR frame of that state; None for a feed-lost marker (TableState.feed_lost) and a tick
    # no change: the state last yielded, stamped with a later analysed frame (``watch(ticks=True)``)
    tick: bool = False


class _ZoneRead(NamedTuple):
    """The reading a zone last settled on, with how it was read (``TablePipeline._with_confidence``)."""

    value: Hashable
    zone: float | None  # TableState.read_confidence
    cards: tuple[float, ...]  # TableState.card_confidence
    unread: int  # TableState.unread_faces
    carried: tuple[str, ...]  # TableState.carried_faces
    blank_corner: tuple[str, ...]  # TableState.blank_corner_faces
    counted: tuple[str, ...]  # TableState.counted_faces
    aside: tuple[tuple[str, float], ...] = ()  # TableState.counted_aside
    apart: tuple[str, ...] = ()  # TableState.apart_faces
    twins: tuple[tuple[str, float], ...] = ()  # TableState.unread_twins
    carried_display: tuple[str, ...] = ()  # TableState.carried_from_display
    # the zone's cards as it last settled on them all named, each at its read then, kept while it has
    # since settled only on those cards read worse (``_whole_hand``); None where there is no such hand
    whole: tuple[tuple[str, float], ...] | None = None


def zone_card_scale(kind: str, crop_px_per_mm: float, slots: IVerifySlots) -> float | None:
    """The scale (px/mm) a region's crop, as the detector reads it, shows a real card's 63.5 mm at,
    for the body look: a card region's own; the i-Verify panel draws its cards ``slots.card_width_mm``
    wide; None for a region without cards."""
    if kind == "cards":
        return crop_px_per_mm
    if kind == "iverify":
        return crop_px_per_mm * slots.card_width_mm / CARD_MM[0]
    return None


def iverify_zoom(region_px_per_mm: float, card_px_per_mm: float | None) -> float:
    """How much the i-Verify panel's card row is enlarged for the detector (never shrunk)."""
    return max(1.0, (card_px_per_mm or region_px_per_mm) / region_px_per_mm)


# a file's frames are decoded up to this many ahead, on another core, while the pipeline analyses, and
# no more than READ_AHEAD_MB of them (32 frames of 720p, 15 of 1080p, 3 of 4K): a region read takes
# tens of ms while a quiet frame takes one, so a deep queue keeps the decoder busy through the reads
# and the pipeline fed through the quiet frames (the 720p benchmark: the wait for frames 0.44-0.59 s
# a replay with 4 ahead, 0.05-0.09 s with 32; 199-211 -> 216-221 fps; peak memory 353 -> 385-446 MB,
# the queue fuller on a slower machine; ``benchmarks/vision_fps.py --breakdown``)
READ_AHEAD = 32
READ_AHEAD_MB = 96.0

# the i-Verify panel looked for around its place (``TablePipeline._panel_warp``): in a crop grown by this
# share of its height each way; the median of this many finds; read where found when a corner is this
# share of its height, and this many pixels, or more off (the sample's finds in place: 1-4 px off)
_PANEL_SEARCH = 0.12
_PANEL_FINDS = 9
_PANEL_OFF = 0.05
_PANEL_OFF_PX = 6.0


def coarse_camera(layout: TableLayout) -> bool:
    """Whether the layout's camera is coarse (``COARSE_CAMERA_PX_PER_MM``): its card regions' own
    resolution, the median over them, is below it."""
    own = card_scales(layout)
    return bool(own) and float(np.median(own)) < COARSE_CAMERA_PX_PER_MM


def load_shipped_detector(coarse: bool = False) -> CardDetector:
    """The trained detector shipped in models/, set up for zone crops (read in model-sized tiles);
    ``coarse``: for a coarse camera (``coarse_camera``), its own index classifier where one ships.
    A zone is read again when something in it changed, and most of its tiles are then as they were:
    what the detector found on them is remembered (``memory``: 8 a place, as many as a table's seats).
    The tiles still to read are read two at a time where the machine has two cores (``tile_workers``)."""
    from vision.detector import load_detector

    workers = min(2, os.cpu_count() or 1)
    return load_detector(upscale=1.0, tile=True, coarse_camera=coarse, memory=8, tile_workers=workers)


class _LazyDetector:
    """The shipped detector, loaded at its first use, for the camera ``coarse`` says (``watch`` sets it
    from the layout as fitted to the picture: a 1080p table's 720p sub-stream is a coarse camera)."""

    def __init__(self, coarse: bool = False) -> None:
        self._dets: dict[bool, CardDetector] = {}
        self.coarse = coarse

    def _loaded(self) -> CardDetector:
        det = self._dets.get(self.coarse)
        if det is None:
            det = self._dets[self.coarse] = load_shipped_detector(self.coarse)
        return det

    def detect(self, image: np.ndarray) -> Detections:
        return self._loaded().detect(image)

    @property
    def reads_card_bodies(self) -> bool:
        return bool(getattr(self._loaded(), "reads_card_bodies", False))

    @property
    def reads_whole_cards(self) -> bool:
        return bool(getattr(self._loaded(), "reads_whole_cards", False))

    def detect_with_guesses(
        self, image: np.ndarray, card_px_per_mm: float | None = None, whole_cards: bool = False
    ) -> tuple[Detections, np.ndarray, Detections, Detections | None]:
        return _detect_with_guesses(self._loaded(), image, card_px_per_mm, whole_cards)


def _detect_with_guesses(
    detector: CardDetector, image: np.ndarray, card_px_per_mm: float | None = None, whole_cards: bool = False
) -> tuple[Detections, np.ndarray, Detections, Detections | None]:
    """The detector's finds, the boxes of faces it found but could not name, the two faces of each
    of those its reads left contested, and each index's two likeliest faces, as far as it reports
    them (``OnnxCardDetector.detect_with_guesses``, ``detect_with_rivals``, ``detect_with_unread``);
    a detector that does not (a fake, an older one): none, and None for the guesses (not reported).
    ``card_px_per_mm``: the scale ``image`` shows real cards at, for a detector that reads card
    bodies (``OnnxCardDetector.reads_card_bodies``); ``whole_cards``: ``image`` shows its cards whole,
    side by side (the i-Verify display), for a detector that reads them so
    (``OnnxCardDetector.reads_whole_cards``)."""
    bodies = bool(card_px_per_mm) and getattr(detector, "reads_card_bodies", False)
    kwargs: dict[str, Any] = {"card_px_per_mm": card_px_per_mm} if bodies else {}
    with_guesses = getattr(detector, "detect_with_guesses", None)
    if callable(with_guesses):
        if bodies and whole_cards and getattr(detector, "reads_whole_cards", False):
            kwargs["whole_cards"] = True
        got: tuple[Detections, np.ndarray, Detections, Detections | None] = with_guesses(image, **kwargs)
        return got
    with_rivals = getattr(detector, "detect_with_rivals", None)
    if callable(with_rivals):
        found, unread, rivals = with_rivals(image, **kwargs)
        return found, unread, rivals, None
    with_unread = getattr(detector, "detect_with_unread", None)
    if callable(with_unread):
        found, unread = with_unread(image, **kwargs)
        return found, unread, Detections.empty(), None
    return detector.detect(image), np.zeros((0, 4), np.float32), Detections.empty(), None


# a face read under this lying on an arm that moves beside its zone is taken for the arm's
# (``TablePipeline._read``): the review level (MonitorConfig.review_below)
_ARM_DOUBT = 0.7
# a face the i-Verify display reads this surely or more stands against the hand seen on the felt
# (``TablePipeline._display_misreads``): the review level (MonitorConfig.review_below)
_DISPLAY_YIELDS = 0.7
# and a face read on the felt yields to the display's read of another only when that is surer by more
# than this (``TablePipeline._felt_misreads``). The nineteenth session set 0.1: the display's wrong
# reads had been surer than the felt's right ones by 0.03-0.04 (b47-0012's 5s against 5c; s01 under
# dimmed lights, 3d read Jd). Measured again on every batch in the twentieth session, its right ones
# are surer by as little (b48-0000's 6d, 0.71 against the felt's Td at 0.67): with 0.1, seeds 47, 48 and
# 51 kept six felt misreads the display had right (48: R 0.9982 -> 0.9955, 27 -> 24/30 exact; the
# nineteenth session's 0.9982 was measured before it set the margin) and two were spared (b47-0012;
# b54-0001's Qs read Qc on the display), and the sample under dimmed lights one (P 0.9944 -> 0.9963).
# The surer view is trusted, as the display is against the felt (``_DISPLAY_YIELDS``).
_FELT_KEEPS = 0.0
# a face read under this (the review level, MonitorConfig.review_below) that another position shows
# read surer by more than ``_TWIN_MARGIN``, and whose suit twin (the same rank in the other suit of its
# colour) the table does not show, is named the twin by the count (``_suit_twin``). The margin was set
# before it was measured, not tuned: two reads as sure as each other say nothing of which is wrong.
_TWIN_DOUBT = 0.7
_TWIN_MARGIN = 0.05
_TWIN_SUIT = {"s": "c", "c": "s", "h": "d", "d": "h"}

_UNSET: Any = object()
_ON_ARM: Any = object()  # what _read gives a zone with a find lying on the arm reaching into it


@dataclass
class _ZoneWatch:
    """Change/settle bookkeeping of one zone of a region (a mask on the region's small crop)."""

    name: str  # the zone, as listed in ``occluded``
    key: str  # the tracker key its reading goes to
    mask: np.ndarray  # bool, on the small crop (the zone, a little widened: cards overhang)
    area: int
    core: np.ndarray  # bool, the zone itself (what an occluder must cover)
    core_area: int
    fresh: bool = True  # never read yet
    # read again once an occluder has left: what changed under an arm may differ from the picture
    # before it by too few pixels for the change test (one card swapped at the end of a fan)
    recheck: bool = False
    still: int = 0
    changed_since: float | None = None
    moved_at: float | None = None  # when it last moved (frame-to-frame change past motion_fraction)
    occluded: bool = False
    last: Any = _UNSET
    agree: int = 0
    settled_value: Any = _UNSET
    # the small crop (and its smooth twin) when this zone last settled (its own: zones overlap)
    ref: tuple[np.ndarray, ...] | None = None
    settled_at: float | None = None  # when it settled on its present reading
    looked: int = 0  # the looks its present reading has had (``TablePipeline._second_looks``)
    looking: bool = False  # being read for that second look


@dataclass(frozen=True)
class _SeenWhole:
    """A card region's position's hand as last seen whole: a read showing a whole hand face up, all
    named, or the i-Verify display showing it (``TablePipeline._keep_hand``). One record, replaced whole,
    so that a second look not taken puts it back as it was (``TablePipeline._step``)."""

    # how many times it has changed, and whether the felt (True) or the display showed it last: both
    # kept when the hand is forgotten (the display's region and that count when the display was last
    # read: ``TablePipeline._recheck_display``)
    version: int = 0
    on_felt: bool = True
    # each card's surest read (``_carry_known_face``); None: forgotten, the region read empty
    hand: Mapping[str, float] | None = None
    # each card with the views that read it so themselves (True: the felt, False: the i-Verify display),
    # not named by inference there (``TablePipeline._felt_misreads``)
    views: Mapping[str, frozenset[bool]] = field(default_factory=dict)


_NOT_SEEN = _SeenWhole()


@dataclass
class _Watch:
    """Change/settle bookkeeping of one region."""

    region: Region
    scale: float
    zones: list[_ZoneWatch]
    prev: tuple[np.ndarray, ...] | None = None  # the previous analysed frame's small crop(s) (motion test)
    zone_names: tuple[str, ...] = field(default_factory=tuple)
    # the region's box on the frame's thumbnail (``_THUMB``), and its picture there when a step last
    # found nothing changed in it (None since one did): while the thumbnail holds that picture, the
    # frame's step is that finding again, without rectifying the region (``TablePipeline._quiet``)
    box: tuple[int, int, int, int] | None = None
    quiet: np.ndarray | None = None
    # the smooth small crop's source: the frame shrunk f = 4 or 2 times, the small crop's scale and the
    # map from the shrunk frame's pixels to the frame's (``_small_source``): each of its pixels a mean
    # of the frame's, not one sampled pixel; None: none
    source: tuple[int, np.ndarray, np.ndarray] | None = None


# each check that the camera's view has not moved is measured on a thread of its own and taken this
# many seconds of footage later (``ViewWatch``'s ``lag_s``): off the main thread, which a replay waits
# on; the same checks and conclusions, half a second later (a moved view is confirmed over three
# checks, 8-12 s)
_VIEW_LAG_S = 0.5

# the frame's thumbnail: this many times smaller each way, in colour (a blue chip on green felt can be
# as light as the felt); a region whose thumbnail differs from its picture at its last quiet step by
# under _QUIET_LEVEL levels in every channel everywhere is still quiet (video noise moves a 4x4
# block's mean by about 1 level; a card dealt, moved or swapped, a chip, an arm, by tens)
_THUMB = 4
_QUIET_LEVEL = 6
# a recorder that re-codes every frame (lights flickering against the shutter, a noisy sensor) leaves
# no region's thumbnail within _QUIET_LEVEL of itself: its light moves every level alike, and its
# re-coding noise moves a few block means at edges by up to 12 levels (the flicker condition). With
# the light's move (each channel's mean shift, at most _QUIET_SHIFT) taken out, a patch is still quiet
# where no block differs by _QUIET_HARD or more and at most _QUIET_SPARSE of them by _QUIET_LEVEL or
# more: a card dealt, moved or taken, a chip, an arm, moves many blocks by tens of levels. (A step's
# own change test is coarser still: a 48-px crop, 30 levels, 2 % of a zone.)
_QUIET_SHIFT = 16.0
_QUIET_HARD = 20
_QUIET_SPARSE = 0.01


def shrunk_frame(image: np.ndarray) -> dict[int, np.ndarray]:
    """The frame halved, and halved again down to the thumbnail (``_THUMB`` times smaller each way),
    each pixel the mean of its block: by how many times smaller each way (2, ..., ``_THUMB``). Halving
    twice gives the same means as one 4x area resize, to a level of rounding, at a third to a quarter
    of its time on a 720p frame (``benchmarks/stage1_speed.py``). ``watch`` has it made as each frame
    is decoded (``iter_frames``' ``prepare``), on the core that decodes: at 0.6 ms a 720p frame it was
    a seventh of the main thread's time in a replay (``benchmarks/vision_fps.py --breakdown``)."""
    out, f, img = {}, 1, image
    for _ in range(_THUMB.bit_length() - 1):
        img = cv2.resize(
            img, (max(1, img.shape[1] // 2), max(1, img.shape[0] // 2)), interpolation=cv2.INTER_AREA
        )
        f *= 2
        out[f] = img
    return out


def _small_source(region: Region, scale: float) -> tuple[int, np.ndarray, np.ndarray] | None:
    """Where the region's smooth small crop at ``scale`` is cut from: (``f``, the crop's scale, the map
    from the frame shrunk ``f`` times each way, block means, to the frame: ``Region.warp``'s ``post``
    and ``source_to_image``): the thumbnail (4) where it is as fine as the
    crop, else the frame halved (2) where the frame is at least as fine as the crop (a small region:
    a bet circle, the LCD; the crop then a little soft); None where the frame itself is coarser.

    Rectified from the frame itself, a small crop samples one pixel per small pixel: a camera's
    sensor noise passes into it whole, and the change and motion tests counted that noise as change.
    Cut from block means as well, the noise is averaged away, and a pixel has changed only where
    both crops say so (``_changed``): on the sample clips with per-frame sensor noise added
    (``benchmarks/camera_conditions.py``, ``noise``), zones had taken the noise for motion, settled
    only when forced and were read late, a moment behind the truth at every deal (P 0.87 / R 0.81,
    0 of 16 rounds exact)."""
    w, h = region.size
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    corners = region.crop_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    across = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3]))
    down = max(np.linalg.norm(corners[3] - corners[0]), np.linalg.norm(corners[2] - corners[1]))
    for f, need in ((_THUMB, _THUMB), (2, 1)):
        if across >= need * size[0] and down >= need * size[1]:
            # a shrunk pixel q is the mean of the frame's block around f * q + (f - 1) / 2
            half = (f - 1) / 2
            to_frame = np.array([[f, 0, half], [0, f, half], [0, 0, 1.0]])
            return f, np.diag([size[0] / w, size[1] / h, 1.0]), to_frame
    return None


def _quiet_but_recoded(patch: np.ndarray, quiet: np.ndarray) -> bool:
    """Whether a thumbnail patch that is not within ``_QUIET_LEVEL`` of its quiet picture differs from
    it only as a recorder's re-coding under changing light does (``_QUIET_SHIFT``, ``_QUIET_HARD``,
    ``_QUIET_SPARSE``)."""
    mp, mq = cv2.mean(patch), cv2.mean(quiet)
    shift = (mp[0] - mq[0], mp[1] - mq[1], mp[2] - mq[2])  # each channel's mean
    if max(abs(shift[0]), abs(shift[1]), abs(shift[2])) > _QUIET_SHIFT:
        return False
    # |patch - quiet - the shift rounded| in OpenCV, signed 16 bits (half the time of numpy's casts)
    moved = (round(shift[0]), round(shift[1]), round(shift[2]), 0)
    diff = cv2.absdiff(cv2.subtract(patch, quiet, dtype=cv2.CV_16S), moved)  # type: ignore[call-overload]
    if cv2.norm(diff, cv2.NORM_INF) >= _QUIET_HARD:
        return False
    return bool(np.count_nonzero(diff >= _QUIET_LEVEL) <= _QUIET_SPARSE * diff.size)


def _changed(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...], level: int) -> np.ndarray:
    """Pixels of two small crops that differ by more than ``level`` in some colour channel. A crop
    given with its smooth twin (``(small, smooth)``: ``_small_source``) has changed where both differ:
    the change's shape is the frame's (as sharp as before), and a camera's noise, which the smooth
    crop averages away, is no change. (Each crop its own array: as the two halves of one 6-channel
    array, strided, each difference cost a copy, and the change tests took 4-9 times as long.)"""
    if len(a) != len(b) or any(x.shape != y.shape for x, y in zip(a, b, strict=True)):
        return np.ones(a[0].shape[:2], bool)  # (a reference of another kind, kept from before: all changed)
    out = _diff(a[0], b[0]) > level
    for x, y in zip(a[1:], b[1:], strict=True):
        out &= _diff(x, y) > level
    return out


def _diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-pixel largest channel difference of two small BGR crops."""
    b0, b1, b2 = cv2.split(cv2.absdiff(a, b))
    return np.asarray(cv2.max(cv2.max(b0, b1), b2))


def _edge_blobs(changed: np.ndarray, min_fraction: float) -> np.ndarray:
    """The changed blobs of at least ``min_fraction`` of the crop that touch the crop's edge: something
    reaching in from outside (an arm, a sleeve of any colour), not a card lying inside the region."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    h, w = changed.shape
    keep = [
        i
        for i in range(1, n)
        if stats[i, cv2.CC_STAT_AREA] >= min_fraction * h * w
        and (
            stats[i, cv2.CC_STAT_LEFT] == 0
            or stats[i, cv2.CC_STAT_TOP] == 0
            or stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] >= w
            or stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] >= h
        )
    ]
    return np.isin(labels, keep) if keep else np.zeros_like(changed)


def _on_the_arm(
    zones: list[str | None], small_xyxy: np.ndarray, arm: np.ndarray, partly: set[str], share: float = 0.5
) -> set[str]:
    """The zones of ``partly`` holding a find (``zones``: each find's zone) whose box, on the small
    crop, lies on ``arm`` for at least ``share`` of it."""
    h, w = arm.shape
    out: set[str] = set()
    for z, (x0, y0, x1, y1) in zip(zones, small_xyxy, strict=True):
        if z is None or z not in partly:
            continue
        c0, r0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        c1, r1 = min(w, max(c0 + 1, int(np.ceil(x1)))), min(h, max(r0 + 1, int(np.ceil(y1))))
        if c0 < w and r0 < h and arm[r0:r1, c0:c1].mean() >= share:
            out.add(z)
    return out


def _big_blobs(mask: np.ndarray, min_fraction: float) -> np.ndarray:
    """The blobs of a mask that cover at least ``min_fraction`` of it (a hand, not a court card's face)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_fraction * mask.size]
    return np.isin(labels, keep) if keep else np.zeros_like(mask)


def _two_reads(a: float, b: float) -> float:
    """How sure a read at ``a`` is when another read of the same card, at ``b``, names another face:
    a(1-b) / (a(1-b) + b(1-a)), as for two independent reads (0.73 against 0.51: 0.72; equal: 0.5)."""
    return a * (1 - b) / max(a * (1 - b) + b * (1 - a), 1e-9)


def _join_card_ends(dets: Detections, px_per_mm: float) -> Detections:
    """Two face reads of different classes at the two ends of one card are that card, read twice.

    A card's top and bottom indices (or its whole box, once joined) lie in one column, a card's
    length apart; in a spread hand the next card is offset sideways by a fifth of a card or more, so
    no two cards share that. Or they lie at the card's opposite corners (a standard deck's top-left
    and bottom-right indices), their union the card's own size (``at_opposite_corners``: b42-0019, the
    dealer's hand turned up, a 3c read 3s at its bottom-right corner: a seventh card in a six-card
    hand); the next card of a spread, or the one beside it in a row, makes the union a fifth of a card
    wider or more. The two reads disagree (s02: a dondorf Ts read Tc at its bottom end, an extra card
    to the count): the surer class is kept, with the confidence two disagreeing reads leave it
    (``_two_reads``)."""
    lo, hi = (f * px_per_mm * CARD_MM[1] for f in (0.8, 1.12))
    # index-sized reads only: whole-card boxes (a detector that boxes cards, ground-truth boxes) of
    # cards piled in one column would otherwise be joined
    tall = dets.xyxy[:, 3] - dets.xyxy[:, 1]
    faces = np.flatnonzero((dets.class_id != BACK_CLASS) & (tall < INDEX_SIZED * px_per_mm * CARD_MM[1]))
    if len(faces) < 2:
        return dets
    keep = np.ones(len(dets), bool)
    cls, conf = dets.class_id.copy(), dets.confidence.copy()
    xyxy = dets.xyxy.copy()
    for i in sorted(faces, key=lambda k: -float(conf[k])):
        for j in faces:
            if j == i or not keep[i] or not keep[j] or cls[i] == cls[j]:
                continue
            wi, wj = xyxy[i, 2] - xyxy[i, 0], xyxy[j, 2] - xyxy[j, 0]
            index_w = min(wi, wj)
            union = union_box(xyxy[i], xyxy[j])
            same_column = (
                abs(float(xyxy[i, 0] - xyxy[j, 0])) < 0.5 * index_w
                and union[2] - union[0] < max(wi, wj) + 0.5 * index_w
            )
            opposite = at_opposite_corners(xyxy[i], xyxy[j], px_per_mm)
            if not (opposite or (same_column and lo <= union[3] - union[1] <= hi)):
                continue
            xyxy[i] = union
            conf[i] = _two_reads(float(conf[i]), float(conf[j]))
            keep[j] = False
    return Detections(xyxy[keep], cls[keep], conf[keep])


# a card-long read lying this much inside another is the same card boxed twice; a pile squared in one
# column, a card's corner showing beyond the next (ground-truth boxes 15 px apart: 89 %), is two cards
_SAME_CARD_SHARE = 0.95


def _join_inner_reads(dets: Detections, px_per_mm: float, share: float = 0.8) -> Detections:
    """An index-sized face read lying inside another face read's card-long box is that card, read
    again at another corner.

    A card-long box is one card already: its two index corners joined, or a card boxed whole. A deck
    with an index in every corner shows a third one inside it (s02, dondorf: an Ace of spades boxed
    corner to corner, its top-right index read Ac at 0.42: a seventh card in a six-card hand, a false
    CARD-COUNT). In a spread the cards below the top one show their indices outside its box (the
    visible part), so no other card's index lies inside. Nor does another card-long box: the
    detector's corner pairs of such a deck may give two of one card (b42-0011, dondorf: 9s at 0.83 and
    9c at 0.47 boxed corner to corner on the same card, a seventh card at the dealer, a false
    CARD-COUNT): a card-long box ``_SAME_CARD_SHARE`` inside another is that card. Different classes only (one
    class is ``merge_card_indices``' case): the surer class is kept, with the two-read confidence of
    ``_join_card_ends``."""
    long_ = px_per_mm * CARD_MM[1]
    faces = dets.class_id != BACK_CLASS
    side = np.maximum(dets.xyxy[:, 2] - dets.xyxy[:, 0], dets.xyxy[:, 3] - dets.xyxy[:, 1])
    cards = np.flatnonzero(faces & (side >= 0.8 * long_))
    small = np.flatnonzero(faces & ((side < INDEX_SIZED * long_) | (side >= 0.8 * long_)))
    if not len(cards) or len(small) < 2:
        return dets
    keep = np.ones(len(dets), bool)
    cls, conf = dets.class_id.copy(), dets.confidence.copy()
    for i in sorted(cards, key=lambda k: -float(conf[k])):
        for j in small:
            if j == i or not keep[i] or not keep[j] or cls[i] == cls[j]:
                continue
            b_box = dets.xyxy[j]
            area = float((b_box[2] - b_box[0]) * (b_box[3] - b_box[1]))
            need = share if side[j] < INDEX_SIZED * long_ else _SAME_CARD_SHARE  # an index, or a card
            if area <= 0 or float(intersection_area(b_box, dets.xyxy[i : i + 1])[0]) < need * area:
                continue
            if conf[j] > conf[i]:
                cls[i] = cls[j]
            conf[i] = _two_reads(max(float(conf[i]), float(conf[j])), min(float(conf[i]), float(conf[j])))
            keep[j] = False
    return Detections(dets.xyxy[keep], cls[keep], conf[keep])


def _apart_faces(
    dets: Detections, zones: Sequence[str | None], px_per_mm: float, slack: float = 1.1
) -> dict[str, tuple[str, ...]]:
    """Per zone (``zones``: each detection's, None outside every zone), the faces of each rank it holds
    more than once whose every two lie apart as two cards do (``TableState.apart_faces``): further
    apart than one card (``slack`` x its size at ``px_per_mm``, either way round), another card's index
    between them (``card_between``), or side by side as a spread's neighbours (``vision.detector.
    spread_neighbours``: a card's own indices lie a card's width or length apart). The opposite of
    what makes ``merge_card_indices`` take two reads of one face for one card, for two reads of one
    rank in two suits, which it leaves: a card's two ends read in two suits (``_join_card_ends`` joins
    those it can place) are one card. b66-0003 (seed 66, 720p): seat 2's 9h and 9s side by side, the
    9s read at 0.67, had made a true CARD-COUNT excess a review item. Where every two lie so, each is
    a card of its own; where any two may be one card, none is listed. The Joker is a rank of its own."""
    short, long_ = (slack * px_per_mm * m for m in CARD_MM)
    groups: dict[tuple[str, int], list[int]] = {}
    for i, (z, c) in enumerate(zip(zones, dets.class_id, strict=True)):
        if z is not None and c < JOKER_CLASS:
            groups.setdefault((z, int(c) // 4), []).append(i)
    out: dict[str, tuple[str, ...]] = {}
    labels = dets.labels
    for (z, rank), idx in groups.items():
        if len(idx) < 2:
            continue
        others = dets.xyxy[(dets.class_id != BACK_CLASS) & (dets.class_id // 4 != rank)]
        if all(
            _two_cards(dets.xyxy[i], dets.xyxy[j], others, px_per_mm, (short, long_))
            for i, j in itertools.combinations(idx, 2)
        ):
            out[z] = (*out.get(z, ()), *(labels[i] for i in idx))
    return out


def _two_cards(
    a: np.ndarray, b: np.ndarray, others: np.ndarray, px_per_mm: float, card: tuple[float, float]
) -> bool:
    """Whether boxes ``a`` and ``b`` lie as two cards' do (``_apart_faces``); ``card``: a card's
    shorter and longer side in pixels, with slack."""
    from vision.detector import spread_neighbours

    box = union_box(a, b)
    w, h = sorted((float(box[2] - box[0]), float(box[3] - box[1])))
    if w > card[0] or h > card[1] or card_between(a, b, others):
        return True
    pairs = [(a, b)]
    # a card's two indices joined down its edge (a card-long column) beside the next card's top or
    # bottom index alone: the column's end of the other's height is that card's index (b51-0006: seat
    # 2's Jc read down its edge, 137 px, the Jh's top index 35 px beside it, 26 px along)
    for tall, short in ((a, b), (b, a)):
        th, sh = float(tall[3] - tall[1]), float(short[3] - short[1])
        if th >= 2.0 * sh:
            top, bottom = tall.copy(), tall.copy()
            top[3], bottom[1] = tall[1] + sh, tall[3] - sh
            pairs += [(top, short), (bottom, short)]
    return any(spread_neighbours(np.stack(pair), px_per_mm) for pair in pairs)


def _apart_now(apart: Sequence[str], shown: Sequence[Hashable]) -> list[str]:
    """Of a zone's faces found lying apart (``_apart_faces``), those of the ranks whose faces the zone
    shows now are exactly those (a face named since, carried or counted, of such a rank voids the
    rank's: it was not among the faces placed)."""

    def rank(face: Hashable) -> str:
        return str(face)[0] if isinstance(face, str) and face not in (BACK, "Jk") else ""

    out: list[str] = []
    for r in sorted({rank(f) for f in apart} - {""}):
        mine = sorted(f for f in apart if rank(f) == r)
        if mine == sorted(str(f) for f in shown if rank(f) == r):
            out += mine
    return out


# A face read under this lying inside one card, between two reads of one face at its opposite corners,
# is taken for that card's own body (a pip or a picture boxed as an index): ``merge_card_indices``.
_PIP_READ = 0.5


def merge_card_indices(dets: Detections, px_per_mm: float, slack: float = 1.1) -> Detections:
    """One detection per card where the detector found more than two indices of it.

    The detector joins a card's indices in pairs (its two index corners); a deck printed with an
    index in all four corners then reads as two cards of the same face side by side (``4c 4c`` in
    one zone: a duplicate and an extra card to the compliance checks, while the deck holds one).
    Faces of one class whose boxes together fit inside one card (``slack`` x the card's size at
    ``px_per_mm``, either way round) are one card: union box, best confidence. Two cards of the
    same face apart by more than a card (a real duplicate dealt to the same hand) stay two, and so do
    two with another card's index between them (``card_between``: a duplicate fanned in one hand, or
    a misread beside the real card, b61-0011; ``vision.detector.merge_index_corners``), and two spread
    neighbours (``vision.detector.spread_neighbours``: side by side in one row, nearer than half a
    card; a card's own indices lie a card's width or length apart): two copies of one face fanned
    side by side, which the detector leaves read where both reads are sure (``_BOTH_SURE``).
    """
    from vision.detector import spread_neighbours

    dets = _join_inner_reads(_join_card_ends(dets, px_per_mm), px_per_mm)
    faces = dets.class_id != BACK_CLASS
    if len(dets) < 2 or len(np.unique(dets.class_id[faces])) == int(faces.sum()):
        return dets
    short, long_ = (slack * px_per_mm * m for m in CARD_MM)
    cw, ch = (px_per_mm * m for m in CARD_MM)
    joined = False
    keep = np.ones(len(dets), bool)
    xyxy = dets.xyxy.copy()
    conf = dets.confidence.copy()
    for c in np.unique(dets.class_id[faces]):
        idx = [int(i) for i in np.flatnonzero(dets.class_id == c)]
        idx.sort(key=lambda i: -float(conf[i]))
        other = faces & (dets.class_id != c)
        others = dets.xyxy[other]
        sure = dets.xyxy[other & (dets.confidence >= _PIP_READ)]
        for i in idx:
            if not keep[i]:
                continue
            for j in idx:
                if j == i or not keep[j]:
                    continue
                box = union_box(xyxy[i], xyxy[j])
                w, h = sorted((float(box[2] - box[0]), float(box[3] - box[1])))
                # two reads of one face at a card's opposite corners with only weak reads between
                # them are that card: a read under _PIP_READ inside one card, away from its corners,
                # is its own body (b74-0007's 9c, a Jk read at 0.42 amid its clubs, had been two 9c
                # and a Jk, a false CARD-COUNT alert); ``_join_inner_reads`` then takes it into the
                # card. A sure read between stays another card's (b72-0011: a hand's two 6h, an
                # injected duplicate, a 9h read between them)
                corner_to_corner = (_one_card(box, cw, ch) or _one_card(box[[1, 0, 3, 2]], cw, ch)) and not (
                    card_between(xyxy[i], xyxy[j], sure)
                )
                if (
                    w <= short
                    and h <= long_
                    and (corner_to_corner or not card_between(xyxy[i], xyxy[j], others))
                    and not spread_neighbours(np.stack([xyxy[i], xyxy[j]]), px_per_mm)
                ):
                    joined |= bool(corner_to_corner)
                    xyxy[i] = box
                    conf[i] = max(conf[i], conf[j])
                    keep[j] = False
    out = Detections(xyxy[keep], dets.class_id[keep], conf[keep])
    return _join_inner_reads(out, px_per_mm) if joined else out


def _area(b: np.ndarray) -> float:
    return float(max(b[2] - b[0], 0) * max(b[3] - b[1], 0))


def _one_card(u: np.ndarray, cw: float, ch: float) -> bool:
    """Whether ``u``, the union of two index boxes, spans one card corner to corner."""
    return bool(u[3] - u[1] >= 0.8 * ch and u[2] - u[0] <= 1.05 * cw and u[3] - u[1] <= 1.05 * ch)


def _one_index(u: np.ndarray, cw: float, ch: float) -> bool:
    """Whether ``u``, the union of two overlapping index boxes, is no bigger than one index (a fifth
    of a card wide, under a third of it tall): in a spread the next card lies 15 % of a card or more
    to the side, so two cards' indices together are wider."""
    return bool(u[2] - u[0] <= 0.2 * cw and u[3] - u[1] <= 0.3 * ch)


def _unread_cards(unread: np.ndarray, reads: Detections, px_per_mm: float) -> np.ndarray:
    """The cards among ``unread`` index boxes (``OnnxCardDetector.detect_with_unread``): one box per
    card not otherwise found.

    A box lying mostly (half its area) on a found card or back is that card's (its other index, or a
    picture boxed as one); one lying mostly on a box kept already is the same index boxed twice; two
    boxes at the opposite corners of one card (together at least 0.8 of a card long and within 1.05 of
    its size: in a spread the next card is offset sideways by a fifth of a card or more, so two cards'
    corners lie wider apart) are that card's two indices, as is an unread box at the far corner of an
    index-sized read. Two boxes overlapping at all that together are no bigger than one index are that
    index boxed in two slivers (``_one_index``; b86-0000, seed 86, 720p: the dealer's dondorf Ks, 12 x
    18 and 5 x 31 px overlapping by 3 x 16, two faces not named, so his hand seen whole could not name
    the one it lacked, for four moments)."""
    if not len(unread):
        return np.zeros((0, 4), np.float32)
    cw, ch = px_per_mm * CARD_MM[0], px_per_mm * CARD_MM[1]
    index_reads = reads.xyxy[(reads.xyxy[:, 3] - reads.xyxy[:, 1]) < INDEX_SIZED * ch]
    kept: list[np.ndarray] = []
    for b in unread:
        area = _area(b)
        if area <= 0:
            continue
        if len(reads) and float(intersection_area(b, reads.xyxy).max()) >= 0.5 * area:
            continue
        if kept:
            shared = intersection_area(b, np.stack(kept))
            if float(shared.max()) >= 0.5 * area:
                continue
            if any(a > 0 and _one_index(union_box(b, o), cw, ch) for a, o in zip(shared, kept, strict=True)):
                continue
        if any(_one_card(union_box(b, o), cw, ch) for o in [*kept, *index_reads]):
            continue
        kept.append(np.asarray(b, np.float32))
    return np.stack(kept) if kept else np.zeros((0, 4), np.float32)


def _misread_matches(
    shown: Sequence[str],
    read: dict[str, float],
    known: Mapping[str, float],
    margin: float = 0.0,
    short: int = 0,
) -> dict[str, str]:
    """Faces one view of a hand read as faces the hand seen whole in another view lacks, each with the
    card of that hand it is (``TablePipeline._display_misreads``, ``TablePipeline._felt_misreads``):
    ``shown`` names a whole hand (the game's count, each once, no back) but for one or two faces the
    ``known`` hand lacks, each read (``read``) under ``_DISPLAY_YIELDS``, against as many of its cards
    not shown; each such face is matched to one of them sharing its rank or its suit and read surer in
    the other view (by more than ``margin``), and the match is the only one. Empty where it cannot be
    told. (The Joker has no rank or suit to share.) ``short``: ``shown`` names that many cards fewer
    than a whole hand, and as many of the cards not shown are left unmatched (the caller places them
    where nothing was named: ``TablePipeline._read``)."""
    if len(set(shown)) != len(shown) or BACK in shown or len(shown) + short != len(known):
        return {}
    odd = [c for c in shown if c not in known]
    missing = sorted(known.keys() - set(shown))
    if not 1 <= len(odd) <= 2 or len(odd) + short != len(missing) or "Jk" in odd or "Jk" in missing:
        return {}
    if any(read.get(x, 1.0) >= _DISPLAY_YIELDS for x in odd):
        return {}
    fits = [
        dict(zip(odd, ys, strict=True))
        for ys in itertools.permutations(missing, len(odd))
        if all(
            (x[0] == y[0] or x[1] == y[1]) and known[y] > read[x] + margin
            for x, y in zip(odd, ys, strict=True)
        )
    ]
    return fits[0] if len(fits) == 1 else {}


def _carry_known_face(
    out: dict[str, list[tuple[float, str, float]]],
    lone: list[tuple[str, float]],
    known: Mapping[str, float] | None,
    hidden: Sequence[str] = (),
) -> list[tuple[str, str]] | None:
    """Name the one face a region's read saw but could not name, from the hand the region showed
    whole before: the zone it was put in and the card, or None when it cannot be told (two or more
    such faces: ``_carry_in_place``).

    ``out``: the read's cards per zone (image x, label, confidence); ``lone``: the zone and image x of
    each face seen but not named; ``known``: the position's hand as last seen whole, all named (the
    dealer's hand turned up before he sets it, or the hand the i-Verify display showed), each card at
    its surest read; ``hidden``: the cards last known in the region's zones hidden now (an arm over
    the dealer's low hand; those zones are not in ``out``).

    When exactly one face is unnamed, no back lies there, every face read is one of the known ones,
    each once, and exactly one known card is not among them, the unnamed face is that card: the same
    cards, moved (the dealer setting his hand, or turning a player's hand up; an index read at one
    moment and half covered at the next). It keeps the confidence of its earlier read, doubt and
    all, so compliance makes a review item, not an alert, of a doubtful one.

    One face read now that the known hand lacks, sharing its rank or its suit with exactly one of
    the two known cards not read now, is that card read one way in one view and the other way in the
    other (which view is right does not matter here): the unnamed face is the other known card,
    named no surer than the two reads that disagree (b81-0014, seed 81 at 720p: the dealer's hand
    turned up read 2s 3s 4c 5c 5d 7d Js, its 2c read 2s at the last whole look; set, it read 2c 4c
    5c 5d and a face not named, for 19 s; the face is the 3s). Anything else (two unnamed faces, a
    card not seen before that shares nothing with the cards missing, or matches both, a back) is
    left as read: a card swapped in during the move is not covered up when the camera reads it, and
    stays an unread face when it does not."""
    if known is None or len(lone) != 1:
        return None
    read = {lab: c for v in out.values() for _, lab, c in v}
    cards = [lab for v in out.values() for _, lab, _ in v] + list(hidden)
    if BACK in cards or len(set(cards)) != len(cards):
        return None
    odd = [c for c in cards if c not in known]
    missing = known.keys() - set(cards)
    if not odd and len(missing) == 1:
        (card,) = missing
        conf = known[card]
    elif len(odd) == 1 and len(missing) == 2 and odd[0] in read and "Jk" not in (*odd, *missing):
        x = odd[0]
        pair = [y for y in missing if y[0] == x[0] or y[1] == x[1]]
        if len(pair) != 1:
            return None
        (card,) = missing - set(pair)
        conf = min(known[card], known[pair[0]], read[x])
    else:
        return None
    zone, x_at = lone[0]
    out[zone].append((x_at, card, conf))
    return [(zone, card)]


def _whole_hand(
    value: Hashable,
    cards: tuple[float, ...],
    unread: int,
    before: tuple[tuple[str, float], ...] | None,
) -> tuple[tuple[str, float], ...] | None:
    """The hand a zone keeps as settled on all named (``_ZoneRead.whole``) when it settles on
    ``value``, its cards read at ``cards`` with ``unread`` faces not named; ``before``: the hand it
    kept until now. A reading naming every card (no back) is that hand; one reading the same cards
    worse (as many cards, those named among them in the same order, the rest seen and not named)
    keeps ``before`` (b83-0003, seed 83, 720p: seat 1's high hand, settled on all five, then read
    while the dealer's arm paid beside it, a card not named; after the arm two not named, and the
    hand was not carried, as the zone had last settled on a face left unnamed). Anything else: None."""
    if not isinstance(value, tuple) or BACK in value or len(cards) != len(value):
        return None
    if not unread:
        return tuple((str(c), p) for c, p in zip(value, cards, strict=True))
    if before is None or len(value) + unread != len(before):
        return None
    rest = iter(c for c, _ in before)
    return before if all(str(c) in rest for c in value) else None


def _carry_in_place(
    out: dict[str, list[tuple[float, str, float]]],
    lone: list[tuple[str, float]],
    settled: dict[str, list[tuple[str, float]]],
    elsewhere: Sequence[str] = (),
) -> list[tuple[str, str]] | None:
    """Name two or more faces a region's read saw but could not name, where they lie as the cards the
    zone last settled on: the zone and card of each, or None.

    ``out``: the read's cards per zone (image x, label, confidence); ``lone``: the zone and image x of
    each face seen but not named; ``settled``: each zone's cards as it last settled on them, in their
    order across the picture, each at its read then; ``elsewhere``: the faces the other positions
    show now. Each zone holding an unnamed face must read now, in its order across the picture, the
    very cards it settled on, all faces, each once, the unnamed faces in the places of the cards the
    read lacks; those cards are then named there, each at its earlier read (a doubtful one stays a
    review item), and listed as carried (``TableState.carried_faces``). The same cards where they
    lay, read worse. b88-0010 (seed 88, 720p): seat 1's high hand 5h 9h 8c 8s 7d, read so, was read
    again after the dealer's arm had passed over it to pay, its 8c and 8s then read Tc 0.34 and
    Ts 0.31, under the floor; it stayed 5h 9h 7d and two faces not named until it was collected, and
    the round was rebuilt with his hand two cards short. One such face is left to the hand seen whole
    and the count (``_carry_known_face``, ``_name_by_count``): this asks for no hand seen whole, and
    where one face is missing the count can tell it. None where any of it does not hold: a card that
    moved, a zone's other cards, a face shown elsewhere now."""
    if len(lone) < 2:
        return None
    plan: list[tuple[str, float, str, float]] = []  # zone, image x, card, its read then
    for z in sorted({z for z, _ in lone}):
        was = settled.get(z)
        if not was or any(c == BACK for c, _ in was) or len({c for c, _ in was}) != len(was):
            return None
        now = sorted(
            [(x, lab) for x, lab, _ in out[z]] + [(x, None) for zz, x in lone if zz == z],
            key=lambda xl: xl[0],
        )
        if len(now) != len(was) or any(
            lab not in (None, card) for (_, lab), (card, _) in zip(now, was, strict=True)
        ):
            return None
        plan += [(z, x, card, p) for (x, lab), (card, p) in zip(now, was, strict=True) if lab is None]
    cards = [lab for v in out.values() for _, lab, _ in v] + [card for _, _, card, _ in plan]
    if any(cards.count(card) > 1 or card in elsewhere for _, _, card, _ in plan):
        return None
    for z, x, card, p in plan:
        out[z].append((x, card, p))
    return [(z, card) for z, _, card, _ in plan]


def _suit_twin(
    label: str, conf: float, sure: dict[str, float], shown: set[str], second: str | None = None
) -> str | None:
    """The face a doubtful read of ``label`` (at ``conf``) is where one deck holds each face once, when
    ``label`` is read under ``_TWIN_DOUBT`` and another position shows it read surer by more than
    ``_TWIN_MARGIN`` (``sure``: each face shown elsewhere at its read there, not named by inference):
    the read's second likeliest face (``second``: ``OnnxCardDetector.detect_with_guesses``) where the
    table does not show it (``shown``: every face the table shows, this hand's too), else its suit
    twin (the same rank in the other suit of its colour) where the table does not show that. Else
    None. Spade against club is the coarse classifier's commonest confusion (thirty-fourth session:
    117 of a 720p export's 6,357 held-out index crops), heart against diamond the next, and the
    second face is then the twin; where it is another rank, the classifier put that face above the
    twin (b79-0000's 8s read Ts beside the dealer's Ts, 8s its second face: the twin alone named it
    Tc). The Joker has no twin, and a face is never its own second."""
    if label in (BACK, "Jk") or conf >= _TWIN_DOUBT or sure.get(label, 0.0) <= conf + _TWIN_MARGIN:
        return None
    return _other_face(label, second, shown)


def _other_face(label: str, second: str | None, shown: Collection[str]) -> str | None:
    """The face a misread of ``label`` is (``_suit_twin``): its read's second likeliest face
    (``second``) where the table does not show it (``shown``), else its suit twin where the table does
    not show that; else None."""
    if second is not None and second not in (BACK, label, *shown):
        return second
    twin = label[0] + _TWIN_SUIT[label[1]]
    return None if twin in shown else twin


def _missing_twin(
    label: str, known: Mapping[str, float] | None, hand: set[str], shown: set[str]
) -> str | None:
    """The card the weaker of two reads of ``label`` in one hand is, whatever that read: where every
    face the hand shows (``hand``) is one of the hand seen whole (``known``), and that holds exactly
    one card sharing the face's rank or its suit that the table (``shown``: every face it shows, this
    hand's too) does not show, that card. One deck holds each face once (seed 002 rule 5.1), and the
    hand's cards are the ones seen whole. b78-0006 (seed 78, 720p): the dealer's hand turned up read As
    and Ac; set, his low As read Ac at 0.70 beside his high Ac at 0.81, for four moments. Else None (a
    hand holding a card not seen whole is another hand, or the same one with a card switched)."""
    if known is None or label == "Jk" or not hand <= known.keys():
        return None
    fits = [c for c in known if c not in shown and c != "Jk" and (c[0] == label[0] or c[1] == label[1])]
    return fits[0] if len(fits) == 1 else None


def _on_box(box: np.ndarray, reads: Detections) -> np.ndarray:
    """Which of ``reads`` lie on ``box``: each sharing half the smaller of the two boxes' area."""
    if not len(reads):
        return np.zeros(0, bool)
    area = np.maximum((reads.xyxy[:, 2] - reads.xyxy[:, 0]) * (reads.xyxy[:, 3] - reads.xyxy[:, 1]), 1e-9)
    return np.asarray(intersection_area(box, reads.xyxy) >= 0.5 * np.minimum(area, max(_area(box), 1e-9)))


def _second_faces(
    dets: Detections, zones: Sequence[str | None], img_x: np.ndarray, guesses: Detections | None
) -> dict[tuple[str, float], str]:
    """Each face read in a zone (``dets``, in ``zones``, at image x ``img_x``), keyed by zone and x:
    its second likeliest face, the surest of ``guesses`` on its box naming another face; none where
    the detector reports no guesses (None) or none lies on the box."""
    out: dict[tuple[str, float], str] = {}
    if guesses is None or not len(guesses) or not len(dets):
        return out
    for i, (box, label) in enumerate(zip(dets.xyxy, dets.labels, strict=True)):
        z = zones[i]
        if z is None or label == BACK:
            continue
        other = _surest_other(box[None], label, guesses)
        if other is not None:
            out[(z, float(img_x[i]))] = other
    return out


def _surest_other(boxes: np.ndarray, label: str, guesses: Detections | None) -> str | None:
    """The surest of ``guesses`` lying on any of ``boxes`` (xyxy) that names a face other than
    ``label``; None where there is none (or no guesses are reported)."""
    if guesses is None or not len(guesses):
        return None
    on = np.zeros(len(guesses), bool)
    for box in boxes:
        on |= _on_box(box, guesses)
    other = np.flatnonzero(on & (np.array(guesses.labels, dtype=object) != label))
    if not len(other):
        return None
    return str(guesses.labels[int(other[np.argmax(guesses.confidence[other])])])


_V = TypeVar("_V")


def _put(store: dict[str, _V], key: str, value: _V | None) -> None:
    """``store[key] = value``, or ``key`` taken out where ``value`` is None (it had none)."""
    if value is None:
        store.pop(key, None)
    else:
        store[key] = value


def _faces_named(v: Hashable) -> int | None:
    """How many faces a reading names: a card zone's tuple, or the i-Verify display's hand shown; None
    for any other reading."""
    if isinstance(v, tuple):
        return sum(1 for c in v if c != BACK)
    if isinstance(v, IVerifyReading) and v.visible:
        return len(v.high) + len(v.low)
    return None


def _name_by_count(
    out: dict[str, list[tuple[float, str, float]]],
    lone: tuple[str, float, np.ndarray],
    weak: Detections,
    hand_size: int,
    floor: float,
    elsewhere: Sequence[str] = (),
    rivals: Detections | None = None,
    cap: float = 1.0,
    aside: dict[str, float] | None = None,
    guesses: Detections | None = None,
    twin: dict[str, float] | None = None,
) -> str | None:
    """Name the one face a region's read saw but could not name, where the count says which card it
    must be: the label so named, or None.

    ``out``: the read's cards per zone (image x, label, confidence); ``lone``: the unnamed face's zone,
    image x and box (crop coordinates); ``weak``: the faces read under the pipeline's floor, in the
    same coordinates; ``rivals``: the two faces of each index the detector's two cuts read
    differently (``OnnxCardDetector.detect_with_rivals``); ``guesses``: each index's two likeliest
    faces by its final read (``OnnxCardDetector.detect_with_guesses``), or None where the detector
    does not report them; ``elsewhere``: the faces the other positions' zones on the felt show now.

    Named only when every other card of the game's hand (``hand_size``: seven-card 7, six-card 6; seed
    002 rule 1.1.5, seed 000 rule 6) lies in the region named, all faces, each once, and of the faces
    the reads on the unnamed face's box leave open exactly one is neither in the hand nor shown by
    another position (one deck holds each face once, seed 002 rule 5.1). A face only a weak read
    names must be read at ``floor`` or more; a rival needs no floor (its index was read, by two cuts
    that disagree). Where the detector reports ``guesses``, they stand in for the rivals: the faces
    left open are those a weak read or a guess on the box names at ``floor`` or more, each guess
    weighed by every look the detector took (thirty-eighth session, seeds 78-85 at 720p, the hands
    one face short whose other cards were all read, 43 of them: named 15 right and 4 wrong from the
    weak reads and rivals, 28 right and 3 wrong from the guesses; with the rivals kept beside the
    guesses, 17 and 3: a cut's face the final read makes unlikely only made the count undecided).
    A second copy of a shown face is never made: it stays unnamed, as before, so FOREIGN-CARD is not
    handed a duplicate the camera did not read.
    A hand turned up to settle that the camera never saw whole has no earlier read to carry a card
    from (``_carry_known_face``): seed 41's 8s and 6d, read 0.28-0.38 and right, were each a card
    short; b41-0000's Th, read 9h by the usual cut and Th by the narrow one while seat 4 held the 9h,
    and seed 42's Td (9d / Td, the 9d shown) and 3s (Js / 3s) the same. The card is named at its
    read's confidence, never more than ``cap`` (the caller's floor: a deduction, so compliance makes a
    review item, not an alert, of any finding resting on it; ``MonitorConfig.review_below``).
    ``aside``: when a face is named, filled with the faces the reads on the box named that another
    position shows, each at its surest read there: set aside by the count, as one deck holds each face
    once, and what a second deck's copy of that face would read as (``TableState.counted_aside``).
    ``twin``: when every face the reads on the box name is ruled out and none is named, filled with the
    surest of them (at ``floor`` or more) where it is a face of this hand that no other position
    shows, at that read: a copy of it in the same hand reads so (``TableState.unread_twins``)."""
    cards = [lab for v in out.values() for _, lab, _ in v]
    every: Detections | None = None  # every weak read and guess, at any probability
    if guesses is not None:
        every = Detections.merge([weak, guesses])
        reads = every[every.confidence >= floor]
        rivals = None
    elif rivals is not None and len(rivals):
        reads = Detections.merge([weak, rivals])
    else:
        reads = weak
    if len(cards) != hand_size - 1 or BACK in cards or len(set(cards)) != len(cards):
        return None
    zone, x, box = lone
    ruled_out = {*cards, *elsewhere, BACK}
    on = _on_box(box, reads)
    labels = np.array(reads.labels, dtype=object)
    read_on = {str(lab) for lab in labels[on]}
    left = read_on - ruled_out
    if not left:
        named = (
            _name_given_one_deck(out, lone, every, ruled_out, floor, cap, aside, set(elsewhere))
            if every is not None
            else None
        )
        if named is None and twin is not None and on.any():
            surest = int(np.flatnonzero(on)[np.argmax(reads.confidence[on])])
            face = str(labels[surest])
            if face in cards and face not in elsewhere:
                twin[face] = float(reads.confidence[surest])
        return named
    if len(left) != 1:
        return None
    (label,) = left
    mine = on & (labels == label)
    rival = np.arange(len(reads)) >= len(weak) if rivals is not None else np.zeros(len(reads), bool)
    conf = float(reads.confidence[mine].max())
    if not (mine & rival).any() and conf < floor:
        return None
    out[zone].append((x, label, min(conf, cap)))
    if aside is not None:
        for lab in read_on & set(elsewhere):
            aside[lab] = float(reads.confidence[on & (labels == lab)].max())
    return label


def _name_given_one_deck(
    out: dict[str, list[tuple[float, str, float]]],
    lone: tuple[str, float, np.ndarray],
    reads: Detections,
    ruled_out: set[str],
    floor: float,
    cap: float,
    aside: dict[str, float] | None,
    elsewhere: set[str],
) -> str | None:
    """``_name_by_count``'s last resort, where every face its reads on the unnamed face's box name at
    the floor is ruled out (in the hand, or shown at another position: one deck holds each face once,
    seed 002 rule 5.1): the one face the reads on the box (``reads``: every weak read and guess, at
    any probability) name that is not ruled out, when its probability given that the faces ruled out
    are not there (its read over one less the reads of those faces) reaches ``floor``. b88-0010
    (seed 88, 720p): seat 4's 6d, read 8d 0.58 and 6d 0.22 beside his own 8d, stayed a card not
    named through the settlement (0.22 / 0.42 = 0.52 given the 8d is elsewhere). Named no surer
    than its read, never more than ``cap``; the faces ruled out at the floor that another position
    shows are put in ``aside``, as ``_name_by_count`` puts them."""
    zone, x, box = lone
    on = _on_box(box, reads)
    best: dict[str, float] = {}
    for lab, c in zip(np.array(reads.labels, dtype=object)[on], reads.confidence[on], strict=True):
        best[str(lab)] = max(float(c), best.get(str(lab), 0.0))
    left = [lab for lab in best if lab not in ruled_out]
    if len(left) != 1:
        return None
    (label,) = left
    gone = sum(c for lab, c in best.items() if lab in ruled_out)
    if gone >= 1.0 or best[label] / (1.0 - gone) < floor:
        return None
    out[zone].append((x, label, min(best[label], cap)))
    if aside is not None:
        for lab in best.keys() & elsewhere:
            if best[lab] >= floor:
                aside[lab] = best[lab]
    return label


def card_centres(crop: np.ndarray, dets: Detections, px_per_mm: float) -> np.ndarray:
    """Where each card lies, for its zone: a card read by one index only is reported with that
    index's box, at the card's corner. An upright card's top-left index has the card's body below
    it: where the crop a third of a card below the index is a card's blank white and above it is
    not, the card's middle height is used (s13: face-up dealt cards fanned across the deal spot were put
    in the high area by their top indices). Else the index's own centre is kept (a court card's
    picture below; the other corner's index, whose body lies above: not guessed, since above a
    low hand's index lie the high hand's cards).

    A back is boxed whole, unless the crop's edge cuts it: a card's box is at least its short side
    across whichever way it lies, so the card's centre is at least half that from the box's inner
    edge, and is put there when that is further out than the box's own centre. It may then lie
    outside the crop (``_outside``): more of that card lies beyond the region than in it (the
    dealer's dark sleeve at the crop's corner, boxed as a 31 x 111 mm back, made an eighth card in
    the dealer's area and a false CARD-COUNT alert)."""
    centres = dets.centers.copy()
    if not len(dets):
        return centres
    ch = px_per_mm * CARD_MM[1]
    h, w = crop.shape[:2]
    half = px_per_mm * min(CARD_MM) / 2
    left, top, right, bottom = _edges_cut(dets.xyxy, crop)
    for i, (x0, y0, x1, y1) in enumerate(dets.xyxy):
        if dets.class_id[i] == BACK_CLASS:
            if left[i]:
                centres[i, 0] = min(centres[i, 0], x1 - half)
            if right[i]:
                centres[i, 0] = max(centres[i, 0], x0 + half)
            if top[i]:
                centres[i, 1] = min(centres[i, 1], y1 - half)
            if bottom[i]:
                centres[i, 1] = max(centres[i, 1], y0 + half)
            continue
        if (y1 - y0) > 0.6 * ch:
            continue  # a box this tall already spans the card
        cx = round((x0 + x1) / 2)
        body: list[bool | None] = []
        for y in (y1 + 0.3 * ch, y0 - 0.3 * ch):
            yi = round(y)
            if not (3 <= cx < w - 3 and 7 <= yi < h - 7):
                body.append(None)
                continue
            # a 7 x 15 px patch, mostly white: a card's blank body, not a printed line on the felt
            bgr = np.ascontiguousarray(crop[yi - 7 : yi + 8, cx - 3 : cx + 4])
            patch = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.int16).reshape(-1, 3)
            white = (patch[:, 0] > 170) & (np.abs(patch[:, 1:] - 128).max(axis=1) < 25)
            body.append(bool(white.mean() >= 0.6))
        below, above = body
        if below is True and above is not True:
            centres[i, 1] = y0 + 0.45 * ch  # down only: a four-corner deck's index may be top-right
    return centres


def _edges_cut(xyxy: np.ndarray, crop: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each box (xyxy), whether the crop's left, top, right and bottom edges cut it."""
    h, w = crop.shape[:2]
    x0, y0, x1, y1 = np.asarray(xyxy, np.float64).reshape(-1, 4).T
    return x0 <= 1, y0 <= 1, x1 >= w - 1, y1 >= h - 1


def _outside(centres: np.ndarray, crop: np.ndarray) -> list[bool]:
    """Which card centres (``card_centres``) lie outside the crop: a card mostly beyond the region."""
    h, w = crop.shape[:2]
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    out = (c[:, 0] < 0) | (c[:, 0] > w) | (c[:, 1] < 0) | (c[:, 1] > h)
    return [bool(v) for v in out]


def _cut_backs(dets: Detections, crop: np.ndarray) -> list[bool]:
    """Which finds are backs whose box the crop's edge cuts."""
    left, top, right, bottom = _edges_cut(dets.xyxy, crop)
    return [bool(v) for v in (dets.class_id == BACK_CLASS) & (left | top | right | bottom)]


def _display_region(mode: str, seat: int | None) -> str | None:
    """The card region of the position whose hand the i-Verify display shows (``IVerifyReading``'s
    mode and seat): ``dealer``, ``seatN``, or None (blank)."""
    return "dealer" if mode == "dealer" else f"seat{seat}" if mode == "seat" else None


class TablePipeline:
    """Frames of one clip -> table states (one instance per clip or stream)."""

    def __init__(
        self, layout: TableLayout, detector: CardDetector, config: PipelineConfig | None = None
    ) -> None:
        one_blas_thread()  # numpy's BLAS would spin a thread per core (vision._blas)
        self.layout = layout
        self.detector = detector
        self.cfg = config or PipelineConfig()
        self.regions = build_regions(
            layout,
            margin_mm=self.cfg.crop_margin_mm,
            px_per_mm=self.cfg.px_per_mm,
            card_px_per_mm=self.cfg.card_px_per_mm,
        )
        self._watch: list[_Watch] = []
        for r in self.regions:
            s = min(1.0, self.cfg.small_px / max(r.size))
            names = tuple(z.name for z in r.zones)
            w = _Watch(r, s, self._zone_watches(r, s), zone_names=names)
            w.source = _small_source(r, s) if self.cfg.change_from_thumbnail else None
            self._watch.append(w)
        self.tracker = TableTracker(layout, self.cfg.hold_frames, self.cfg.hold_s)
        self._view = (
            ViewWatch(every_s=self.cfg.view_check_s, moved_share=self.cfg.view_moved_share, lag_s=_VIEW_LAG_S)
            if self.cfg.view_check_s
            else None
        )
        view = layout.reference_view_path()
        if self._view is not None and view is not None:
            # the view as calibrated: a camera already off when the watch begins is noticed too (at
            # any size of the same shape: a sub-stream's frames are matched against it scaled)
            picture = cv2.imread(str(view))
            if picture is None or not self._view.set_reference(picture):
                _log.warning("%s: cannot serve as the calibrated view; the first frame will", view)
        self._felt: FeltModel | None = None
        self._bet_masks: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # the disc, the felt around it
        self._last_boxes = np.zeros((0, 4), np.float32)
        self._unread_boxes = np.zeros((0, 4), np.float32)  # the last _detect's faces found, not read
        self._weak_reads = Detections.empty()  # the last _detect's faces read under min_confidence
        self._rival_reads = Detections.empty()  # and the two faces of each index it left contested
        self._guesses: Detections | None = None  # and each index's two likeliest faces (None: not reported)
        # the boxes found on the i-Verify display at its last read (faces, backs, indices not read) and
        # its crop's width (``_display_known_face``)
        self._display_found: tuple[np.ndarray, int] = (np.zeros((0, 4), np.float32), 0)
        self._panel_finds: list[np.ndarray] = []  # the i-Verify panel's corners as last found (_panel_warp)
        # the blank-corner search's finds on a region's crop, for the same finds of the detector, while
        # the crop holds still (a region is often read again with nothing changed: an arm passed over)
        self._blank_memory = StillMemory(2, places=64)
        # read confidence of the face cards of each zone in the latest read (TableState.read_confidence),
        # each card's confidence in a card zone's latest read, left to right (TableState.card_confidence),
        # and both of the reading each zone last settled on (key -> (reading, zone's, cards'))
        self._read_conf: dict[str, float] = {}
        self._read_cards: dict[str, tuple[float, ...]] = {}
        self._read_unread: dict[str, int] = {}  # face-up cards found but not read, per zone (latest read)
        self._read_carried: dict[str, tuple[str, ...]] = {}  # faces named by carry-over, per zone (latest)
        # ... of them, those carried from the hand the display showed (TableState.carried_from_display)
        self._read_carried_display: dict[str, tuple[str, ...]] = {}
        self._read_blank: dict[str, tuple[str, ...]] = {}  # faces named by a blank corner, per zone (latest)
        self._read_counted: dict[str, tuple[str, ...]] = {}  # faces named by the count, per zone (latest)
        self._read_aside: dict[str, tuple[tuple[str, float], ...]] = {}  # what the count set aside (latest)
        self._read_twins: dict[str, tuple[tuple[str, float], ...]] = {}  # TableState.unread_twins (latest)
        self._read_apart: dict[str, tuple[str, ...]] = {}  # a rank's faces lying apart, per zone (latest)
        # per card region, its position's hand as last seen whole (``_seen``)
        self._seen_whole: dict[str, _SeenWhole] = {}
        self._display_read_at: tuple[str | None, int] = (None, 0)
        self._display_read_t: float | None = None  # when the display last showed a hand, read
        self._blank_read_t: float | None = None  # when a new picture of the display was last read blank
        self._blank_looked_t: float | None = None  # the blank read (its time) last given a second look
        self._display_looked: IVerifyReading | None = None  # the display's reading last given a second look
        self._display_looks = 0  # and how many it has had
        self._hand_size = 6 if layout.game == "six-card" else 7
        self._settled_conf: dict[str, _ZoneRead] = {}
        self._low_cards = 1 if layout.game == "six-card" else 2
        self._t0: float | None = None
        self._frame = -1
        self._warm = False
        self.detector_calls = 0
        self.detector_seconds = 0.0

    # --- one frame ---------------------------------------------------------------------------
    def process(
        self, frame: int, t: float, image: np.ndarray, shrunk: dict[int, np.ndarray] | None = None
    ) -> TableState | None:
        """Analyse one frame; the new table state when the debounced content changed, else None.
        ``image`` must be of the layout's size (``watch`` fits the layout to the picture first:
        ``TableLayout.scaled_to``); another is a ``LayoutError`` naming the frame. ``shrunk``:
        ``shrunk_frame(image)`` made already (made here when None, or not of this picture's size)."""
        if image.shape[1::-1] != (self.layout.image_width, self.layout.image_height):
            raise LayoutError(
                f"frame {frame}: the picture is {image.shape[1]}x{image.shape[0]}, the layout is for "
                f"{self.layout.image_width}x{self.layout.image_height} (TableLayout.scaled_to fits it)"
            )
        self._frame = frame
        if self._felt is None:
            crops = [
                w.region.rectify(image, w.scale) for w in self._watch if w.region.kind in ("cards", "bet")
            ]
            self._felt = FeltModel.learn(crops)
        readings: dict[str, Hashable] = {}
        occluded: set[str] = set()
        thumbs = shrunk
        small = (image.shape[0] // _THUMB, image.shape[1] // _THUMB)
        if thumbs is None or _THUMB not in thumbs or thumbs[_THUMB].shape[:2] != small:
            thumbs = shrunk_frame(image)
        thumb = thumbs[_THUMB]
        for w in self._watch:
            if self._quiet(w, thumb):
                continue  # nothing changed there since a step found nothing changed
            readings.update(self._step(w, image, t, thumbs))
            occluded.update(z.name for z in w.zones if z.occluded)
        readings["occluded"] = frozenset(occluded)
        view_changed = self._view is not None and self._view.update(image, t)
        if self._t0 is None:
            self._t0 = t
        if len(readings) > 1:
            self._doubt_counted(readings)
        self._recheck_display(t)
        self._second_looks(t)
        if self._warm:
            state = self.tracker.update(readings, frame, t)
            if state is None and view_changed:  # the view moved, or is back: a state says so
                state = self.tracker.state(frame, t)
            return None if state is None else self._with_confidence(state)
        # warm-up: no state until every region has been read once (or force_after_s passed)
        self.tracker.update(readings, frame, t)
        ready = all(not z.fresh for w in self._watch for z in w.zones) and not self.tracker.pending()
        if ready or t - self._t0 >= self.cfg.force_after_s:
            self._warm = True
            return self._with_confidence(self.tracker.state(frame, t))
        return None

    def state_now(self, frame: int, t: float) -> TableState | None:
        """The table as the pipeline holds it now, stamped ``frame`` and ``t``; None before the first
        state (warm-up)."""
        return self._with_confidence(self.tracker.state(frame, t)) if self._warm else None

    def _with_confidence(self, state: TableState) -> TableState:
        """The state with how sure the camera is of each zone's cards: the confidences of the reading
        the zone shows (``TableState.read_confidence``, ``TableState.card_confidence``), or ``UNREAD``
        for a card zone whose picture has changed since that reading and that has not been read again
        (its cards are being put down or moved: the content shown is the old one; no card confidences),
        or whose new reading is not yet held long enough to be shown (b42-0002: seat 5's high hand read
        as the arm left, shown empty for one more state, was taken as "seen unset in plain view" and
        made a false IVERIFY-SEAT-EARLY alert)."""
        conf: dict[str, float] = {}
        cards: dict[str, list[float]] = {}
        unread: dict[str, int] = {}
        carried: dict[str, list[str]] = {}
        blank: dict[str, list[str]] = {}
        counted: dict[str, list[str]] = {}
        aside: dict[str, dict[str, float]] = {}
        twins: dict[str, dict[str, float]] = {}
        from_display: dict[str, list[str]] = {}
        apart: dict[str, list[str]] = {}
        for w in self._watch:
            if w.region.kind not in ("cards", "iverify"):
                continue
            for z in w.zones:
                if (
                    w.region.kind == "cards"
                    and not z.occluded
                    and (
                        z.changed_since is not None
                        or z.fresh
                        or (z.settled_value is not _UNSET and z.settled_value != self.tracker.value(z.key))
                    )
                ):
                    conf[z.key] = UNREAD
                    continue
                got = self._settled_conf.get(z.key)
                if got is not None and got.value == self.tracker.value(z.key):
                    if got.zone is not None:
                        conf[z.key] = got.zone
                    if got.cards and w.region.kind == "cards":  # the display's: for _surer only
                        cards[z.key] = list(got.cards)
                    if got.unread:
                        unread[z.key] = got.unread
                        if got.twins:
                            twins[z.key] = dict(got.twins)
                    if got.carried:
                        carried[z.key] = list(got.carried)
                        shown = [c for c in got.carried_display if c in got.carried]
                        if shown:
                            from_display[z.key] = shown
                    if got.blank_corner:
                        blank[z.key] = list(got.blank_corner)
                    if got.counted:
                        counted[z.key] = list(got.counted)
                        if got.aside:
                            aside[z.key] = dict(got.aside)
                    if got.apart and isinstance(got.value, tuple):
                        now = _apart_now(got.apart, got.value)
                        if now:
                            apart[z.key] = now
        found: dict[str, object] = {
            "read_confidence": conf,
            "card_confidence": cards,
            "unread_faces": unread,
            "carried_faces": carried,
            "carried_from_display": from_display,
            "blank_corner_faces": blank,
            "counted_faces": counted,
            "counted_aside": aside,
            "unread_twins": twins,
            "apart_faces": apart,
        }
        update = {name: value for name, value in found.items() if value}  # what this frame has
        if self._view is not None and self._view.shift_px is not None:
            update["view_moved_px"] = self._view.shift_px
        return state.model_copy(update=update) if update else state

    def _zone_watches(self, r: Region, scale: float) -> list[_ZoneWatch]:
        w, h = r.size
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        grow = max(1, round(0.5 * self.cfg.crop_margin_mm * r.px_per_mm * scale))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
        out = []
        for z in r.zones:
            m: np.ndarray = np.zeros((size[1], size[0]), np.uint8)
            pts = r.table_to_crop_pts(z.table_poly) * np.array([size[0] / w, size[1] / h])
            cv2.fillPoly(m, [np.round(pts).astype(np.int32)], 255)
            core = m > 0
            if r.kind == "cards":
                m = cv2.dilate(m, kernel)
            key = z.name.replace(".bet", ".chips") if r.kind == "bet" else z.name
            mask = m > 0
            out.append(_ZoneWatch(z.name, key, mask, max(1, int(mask.sum())), core, max(1, int(core.sum()))))
        return out

    def _thumb_patch(self, w: _Watch, thumb: np.ndarray) -> np.ndarray:
        if w.box is None:
            low, high = w.region.image_bounds()
            lo = np.floor(low / _THUMB).astype(int) - 1
            hi = np.ceil(high / _THUMB).astype(int) + 1
            x0, y0 = np.clip(lo, 0, [thumb.shape[1], thumb.shape[0]])
            x1, y1 = np.clip(hi, 0, [thumb.shape[1], thumb.shape[0]])
            w.box = (int(x0), int(y0), int(x1), int(y1))
        x0, y0, x1, y1 = w.box
        return thumb[y0:y1, x0:x1]

    def _quiet(self, w: _Watch, thumb: np.ndarray) -> bool:
        """Whether the region is as it was at its last step that found nothing changed (then that
        step's finding holds again: each zone one frame stiller)."""
        if w.quiet is None:
            return False
        patch = self._thumb_patch(w, thumb)
        if patch.shape != w.quiet.shape:
            return False
        # (the largest difference of any pixel's channel: one OpenCV call, no difference picture made)
        if cv2.norm(patch, w.quiet, cv2.NORM_INF) >= _QUIET_LEVEL and not _quiet_but_recoded(patch, w.quiet):
            return False
        for z in w.zones:
            z.changed_since, z.still = None, z.still + 1
        return True

    def _step(
        self, w: _Watch, image: np.ndarray, t: float, thumbs: dict[int, np.ndarray]
    ) -> dict[str, Hashable]:
        """One region on one frame: the readings of its zones that settled on a new value. ``thumbs``:
        the frame shrunk (``shrunk_frame``); the region's patch of its thumbnail is kept when nothing
        changed (``_quiet``), and its small crop is cut from one of them where fine enough."""
        cfg = self.cfg
        small = w.region.rectify(image, w.scale)
        seen: tuple[np.ndarray, ...] = (small,)  # what the change and motion tests compare
        if w.source is not None:  # with the smooth crop beside it
            f, post, to_frame = w.source
            seen = (small, w.region.warp(thumbs[f], small.shape[1::-1], post, to_frame))
        motion_px = (
            np.ones(small.shape[:2], bool) if w.prev is None else _changed(seen, w.prev, cfg.diff_level)
        )
        w.prev = seen
        changed_px = np.zeros(small.shape[:2], bool)
        diffs: dict[int, np.ndarray] = {}  # zones settled together share their reference crop
        zone_changed: list[np.ndarray] = []
        for z in w.zones:
            if z.ref is None:
                z.ref = seen
            d = diffs.get(id(z.ref))
            if d is None:
                d = diffs[id(z.ref)] = _changed(seen, z.ref, cfg.diff_level)
            zc = d & z.mask
            zone_changed.append(zc)
            changed_px |= zc
        if not any(z.fresh or z.occluded or z.recheck for z in w.zones) and all(
            np.count_nonzero(zc) <= cfg.change_fraction * z.area
            for z, zc in zip(w.zones, zone_changed, strict=True)
        ):  # nothing changed (the common case): no occlusion tests, no reading
            for z in w.zones:
                z.changed_since, z.still = None, z.still + 1
            w.quiet = self._thumb_patch(w, thumbs[_THUMB]).copy()
            return {}
        w.quiet = None
        # occluders: big skin-coloured blobs, and (not on the i-Verify display, whose own picture changes
        # from edge to edge) big changed blobs reaching in from the crop's edge: an arm of any colour
        # (chips may have any colour, skin's too: a bet circle is occluded only by what reaches in)
        skin = (
            np.zeros_like(changed_px)
            if w.region.kind == "bet"
            else _big_blobs(self._occluder(small) & changed_px, cfg.skin_blob_fraction)
        )
        edge = (
            np.zeros_like(changed_px)
            if w.region.kind == "iverify"
            else _edge_blobs(changed_px, cfg.edge_blob_fraction)
        )
        todo: list[_ZoneWatch] = []
        maybe: list[_ZoneWatch] = []  # under an edge blob, still: readable if the blob is only cards
        reached = skin | edge  # what reaches in: an arm or a hand
        partly: set[str] = set()  # zones read while it lies on less of them than hides them
        recent: set[str] = set()  # zones to read that have not lain still for edge_read_after_s
        for z, zc in zip(w.zones, zone_changed, strict=True):
            moved = np.count_nonzero(zc) / z.area
            if moved > cfg.change_fraction:
                z.looking = False  # its picture changed: a read now is no second look at the same one
            changed = 1.0 if z.fresh or z.recheck else moved
            if changed <= cfg.change_fraction:
                z.occluded, z.changed_since, z.still = False, None, z.still + 1
                continue
            moving = np.count_nonzero(motion_px & z.mask) / z.area
            z.still = z.still + 1 if moving <= cfg.motion_fraction else 0
            if z.still == 0:
                z.moved_at = t
            if z.changed_since is None:
                z.changed_since = t
            by_skin = np.count_nonzero(skin & z.core) / z.core_area >= cfg.zone_occlusion_fraction
            by_edge = np.count_nonzero(edge & z.core) / z.core_area >= cfg.zone_occlusion_fraction
            z.occluded = bool(by_skin or by_edge)
            if z.occluded:
                z.recheck = True  # read it when the occluder has gone, however alike it looks then
            if by_skin:
                continue
            # an edge blob that lies still for long is no passing arm (a card pushed half out): read it
            lain_long = z.still >= cfg.stable_frames and t - z.changed_since >= cfg.edge_read_after_s
            if by_edge and not lain_long:
                if z.still >= cfg.stable_frames and w.region.kind == "cards":
                    maybe.append(z)
                    recent.add(z.name)
                continue
            if z.still < cfg.stable_frames and t - z.changed_since < cfg.force_after_s:
                continue
            if w.region.kind == "bet" and np.count_nonzero(edge & z.core):
                # an arm, or its shadow, reaching into a bet circle or payout spot, hiding it or not:
                # read once it has gone, or has lain still for edge_read_after_s since it last moved
                # (not since the spot first changed: under lights dimmed 1.6 s before, an arm's shadow
                # still for 0.4 s was read as a payout); a warm camera's arm shadow over seat 2's empty
                # payout spot, too little of it to hide it, still for 0.7 s, was read as a payout (s13
                # under benchmarks/camera_conditions.py)
                since = z.changed_since if z.moved_at is None else max(z.changed_since, z.moved_at)
                if z.still < cfg.stable_frames or t - since < cfg.edge_read_after_s:
                    continue
            if not lain_long:
                recent.add(z.name)
                if not by_edge and np.count_nonzero(reached & z.core):
                    partly.add(z.name)
            todo.append(z)
        if not todo and not maybe:
            return {}
        # a back cut by the crop's edge lying on a changed blob from the edge, of any size, is what
        # reaches in, until it has lain long (a card pushed half out): b44-0000's dark sleeve in the
        # dealer crop's corner, 2 % of it (no arm at 3 %), was boxed as a back (see card_centres)
        cut = (
            (_edge_blobs(changed_px, cfg.cut_back_blob_fraction), recent)
            if w.region.kind == "cards"
            else None
        )
        # (a zone showing faces the arm passes beside: not one being dealt into, whose cards lie on the
        # blob of the hand that puts them down: b47-0005, seat 1's low 2c lost for a moment so)
        beside = {
            z.name
            for z in w.zones
            if z.name in recent
            and isinstance(z.settled_value, tuple)
            and any(c != BACK for c in z.settled_value)
        }
        arm = (reached, partly, beside) if partly or (beside and reached.any()) else None
        name = w.region.name
        # the hand seen whole as it stood before a second look: a look not taken leaves it so
        # (``_remember_hand`` keeps what every read of the region shows)
        looking = any(z.looking for z in todo)
        seen_before = self._seen_whole.get(name, _NOT_SEEN) if looking else None
        values = self._read(w, image, t, on_arm=arm, cut_backs=cut)
        if values is None:  # the reader saw a cover that has not lain long enough to count
            for z in todo:
                z.occluded = True
            return {}
        if maybe:
            # the still edge blob minus the cards found: what is left is the arm; a zone it hardly
            # covers is read (the dealer's hand resting on one seat's high hand, its low hand turned up)
            # (a read through it finding fewer cards than the zone held is not taken: an arm over a
            # spread hides cards whose bodies the cards found there lie across - b87-0000, seat 3's
            # high hand read 5d 3d, its three other cards under the dealer's arm, for 2 s)
            arm = edge & ~self._card_mask(w, small.shape[:2])
            for z in maybe:
                v, was = values.get(z.key), z.settled_value
                fewer = (
                    isinstance(v, tuple)
                    and isinstance(was, tuple)
                    and len(v) + self._read_unread.get(z.key, 0) < len(was)
                )
                if np.count_nonzero(arm & z.core) / z.core_area < cfg.zone_occlusion_fraction and not fewer:
                    z.occluded = False
                    todo.append(z)
        # a card zone whose picture hardly changed, with nothing reaching into it, but that this read
        # shows holding as many cards as settled, not the same, is read again as if changed: a card
        # swapped with one of the other area's changes a spread's corner only (b46-0013: the dealer
        # re-set a foul hand, its high Qs and low Ks swapped; the high hand changed under
        # change_fraction, kept its stale Qs beside the low's new Qs, and FOREIGN-CARD alerted on the
        # two). Not a read with fewer or more cards: an arm resting beside a hand hides part of it
        # without changing its picture enough (b42-0010: read again so, seat 6's high lost two cards)
        for z in w.zones:
            v, was = values.get(z.key), z.settled_value
            if (
                z not in todo
                and not z.occluded
                and isinstance(v, tuple)
                and isinstance(was, tuple)
                and len(v) == len(was)
                and v != was
                and not np.count_nonzero(reached & z.core)
            ):
                z.recheck = True
        out: dict[str, Hashable] = {}
        for z in todo:
            v = values[z.key]
            if v is _ON_ARM:  # something found lies on the arm: hidden, read it once it has gone
                z.occluded = z.recheck = True
                continue
            if z.looking and v != z.settled_value and not self._surer(z.key, v):
                # a second look that reads the same picture worse (a face it had named now not named,
                # or its faces less sure): the reading stands (b49-0013: seat 6's 5d, named at 0.62,
                # not named on the second look), and so does the hand seen whole before it
                z.looking = z.recheck = False
                z.changed_since, z.agree, z.last = None, 0, z.settled_value
                if seen_before is not None:
                    self._seen_whole[name] = seen_before
                    seen_before = None
                continue
            if v == z.last:
                z.agree += 1
            else:
                z.last, z.agree = v, 1
            # a reading equal to the settled one needs no confirming (the arm passed, nothing moved)
            if z.agree >= cfg.confirm_reads or v == z.settled_value:
                if z.key in self._read_conf or self._read_cards.get(z.key) or self._read_unread.get(z.key):
                    cards, unread = self._read_cards.get(z.key, ()), self._read_unread.get(z.key, 0)
                    before = self._settled_conf.get(z.key)
                    self._settled_conf[z.key] = _ZoneRead(
                        v,
                        self._read_conf.get(z.key),
                        cards,
                        unread,
                        self._read_carried.get(z.key, ()),
                        self._read_blank.get(z.key, ()),
                        self._read_counted.get(z.key, ()),
                        self._read_aside.get(z.key, ()),
                        self._read_apart.get(z.key, ()),
                        self._read_twins.get(z.key, ()),
                        self._read_carried_display.get(z.key, ()),
                        _whole_hand(v, cards, unread, None if before is None else before.whole),
                    )
                else:
                    self._settled_conf.pop(z.key, None)
                z.ref = seen
                if v != z.settled_value:
                    z.settled_at, z.looked = t, 0
                z.looking = False
                z.settled_value, z.changed_since, z.agree, z.fresh, z.recheck = v, None, 0, False, False
                out[z.key] = v
        return out

    def _zones_elsewhere(self, region: str) -> Iterator[tuple[str, tuple[Hashable, ...]]]:
        """Each card zone of every position but ``region`` that shows cards now (as tracked): its key
        and what it shows."""
        for o in self._watch:
            if o.region.kind == "cards" and o.region.name != region:
                for z in o.zones:
                    if isinstance(shown := self.tracker.value(z.key), tuple):
                        yield z.key, shown

    def _shown_elsewhere(self, region: str) -> list[str]:
        """The faces the card zones of every position but ``region`` show now (as tracked)."""
        return [str(c) for _, shown in self._zones_elsewhere(region) for c in shown if c != BACK]

    def _sure_elsewhere(self, region: str) -> dict[str, float]:
        """The faces the card zones of every position but ``region`` show now read (not named by a
        carry-over, the count or a blank corner), each at its read's confidence there."""
        sure: dict[str, float] = {}
        for key, shown in self._zones_elsewhere(region):
            got = self._settled_conf.get(key)
            if got is None or got.value != shown or len(got.cards) != len(shown):
                continue
            named = {*got.carried, *got.counted, *got.blank_corner}
            for c, p in zip(shown, got.cards, strict=True):
                if c != BACK and c not in named:
                    sure[str(c)] = max(p, sure.get(str(c), 0.0))
        return sure

    def _count_named(self, zone: str, face: str, aside: dict[str, float]) -> None:
        """Record ``face`` as named by the count in ``zone`` this read (``TableState.counted_faces``),
        with the faces its reads named that another position shows (``TableState.counted_aside``)."""
        self._read_counted[zone] = (*self._read_counted.get(zone, ()), face)
        if aside:
            self._read_aside[zone] = tuple(sorted({**dict(self._read_aside.get(zone, ())), **aside}.items()))

    def _suit_twins(
        self,
        region: str,
        out: dict[str, list[tuple[float, str, float]]],
        second: dict[tuple[str, float], str] | None = None,
    ) -> None:
        """Name a doubtful face its second likeliest face (``second``: keyed by zone and image x,
        ``_second_faces``) or its suit twin where another position shows the face read surer
        (``_suit_twin``; one deck holds each face once, seed 002 rule 5.1): named by the count
        (``TableState.counted_faces``), never surer than ``min_confidence``, with the face set aside
        (``TableState.counted_aside``), so that FOREIGN-CARD still makes a review item of what a
        second deck's copy would have read as. Only reads under the review level are renamed, and a
        duplicate resting on one was a review item already: no alert is made or unmade. b79-0014
        (seed 79, 720p): seat 3's As read Ac at 0.62 while the dealer showed his Ac at 0.70-0.79, for
        two moments; b79-0012's dealer 4c read 4s at 0.43 beside seat 1's 4s at 0.73. A real second
        copy read as doubtfully beside its original is named the twin too (b78-0004: the dealer's 6c
        at 0.64, an injected 6c at seat 5 at 0.75-0.80): the FOREIGN-CARD review item stands (the
        dealer's 6c, seen whole by the felt and the display, is then named back by ``_felt_misreads``:
        forty-fifth session). The surer read may be this hand's own (its other area, or another
        card of one area): the face set aside then stands in this hand, and FOREIGN-CARD makes the same
        review item of it (a player's copy of his own card read as doubtfully as that). Of two reads of
        one face in this hand, the weaker, however sure, is the card the hand seen whole holds and the
        table does not show that shares its rank or suit, where there is exactly one (``_missing_twin``)."""
        reads = [(lab, c) for v in out.values() for _, lab, c in v if lab not in (BACK, "Jk")]
        faces = [lab for lab, _ in reads]
        if len(set(faces)) == len(faces) and all(c >= _TWIN_DOUBT for _, c in reads):
            return
        sure = self._sure_elsewhere(region)
        shown = set(self._shown_elsewhere(region))
        here = {lab for v in out.values() for _, lab, _ in v}
        # this hand's own reads of each face: one deck holds each face once within a hand too (its
        # other area, or another card of the same area): b78-0010 (seed 78, 720p), seat 1's high 8d
        # read Td at 0.42-0.5 while his low hand's Td read 0.62-0.75, for six moments
        read_here: dict[str, list[float]] = {}
        for v in out.values():
            for _, lab, c in v:
                read_here.setdefault(lab, []).append(c)
        for z, v in out.items():
            for i, (x, lab, c) in enumerate(v):
                rest = list(read_here.get(lab, ()))
                rest.remove(c)
                surest = max(sure.get(lab, 0.0), *rest) if rest else sure.get(lab, 0.0)
                twin = _suit_twin(lab, c, {lab: surest}, shown | here, (second or {}).get((z, x)))
                if twin is None and rest and c < max(rest):
                    twin = _missing_twin(lab, self._seen(region).hand, here - {BACK}, shown | here)
                if twin is None:
                    continue
                v[i] = (x, twin, min(c, self.cfg.min_confidence))
                read_here[lab].remove(c)  # a face named so is not read: it makes no other read doubtful
                here.add(twin)
                self._count_named(z, twin, {lab: c})

    def _doubt_counted(self, readings: dict[str, Hashable]) -> None:
        """Withdraw a face the count named (``_name_by_count``: the one face a hand lacks that the
        table did not show) once another position shows it, read there: in this frame's ``readings``,
        so that no state shows the two. One deck holds each face once (seed 002 rule 5.1), and a read
        outweighs the deduction. The zone shows the face as seen and not named (as before the count)
        and is read again as if changed, when the count, the face now shown, may name another or
        none. b48-0005 (seed 48, 720p): seat 1's high hand's 8d, read Td at 0.40, named Td by the
        count; 3 s later seat 5 turned up its Td, read 0.63, and FOREIGN-CARD made a review item of
        the two. The i-Verify display's counted face the same, against the felt of every position
        but the one whose hand it shows."""
        if not any(got.counted for got in self._settled_conf.values()):
            return

        def now(key: str) -> Hashable:
            return readings[key] if key in readings else self.tracker.reading(key)

        def counted(key: str) -> tuple[str, ...]:
            got = self._settled_conf.get(key)
            return got.counted if got is not None and got.value == now(key) else ()

        read_at: dict[str, set[str]] = {}  # per card region, the faces read there (not counted)
        for o in self._watch:
            for z in o.zones:
                if o.region.kind == "cards" and isinstance(v := now(z.key), tuple):
                    faces = read_at.setdefault(o.region.name, set())
                    faces.update(str(c) for c in v if c != BACK and c not in counted(z.key))
        for w in self._watch:
            for z in w.zones:
                named = counted(z.key)
                if not named:
                    continue
                v = now(z.key)
                region = _display_region(v.mode, v.seat) if isinstance(v, IVerifyReading) else w.region.name
                gone = {c for r, faces in read_at.items() if r != region for c in faces} & set(named)
                if region is None or not gone:
                    continue
                got = self._settled_conf[z.key]
                new: Hashable
                if isinstance(v, IVerifyReading):
                    keep_hi = tuple(c for c in v.high if c not in gone)
                    new = dataclasses.replace(v, high=keep_hi, low=tuple(c for c in v.low if c not in gone))
                    got = got._replace(value=new)
                else:
                    assert isinstance(v, tuple)
                    keep = [i for i, c in enumerate(v) if c not in gone]
                    new = tuple(v[i] for i in keep)
                    cards = tuple(got.cards[i] for i in keep) if len(got.cards) == len(v) else ()
                    reads = [c for lab, c in zip(new, cards, strict=False) if lab != BACK]
                    got = got._replace(
                        value=new,
                        zone=min(reads) if reads else None,
                        cards=cards,
                        unread=got.unread + len(v) - len(keep),
                    )
                left = tuple(c for c in named if c not in gone)
                self._settled_conf[z.key] = got._replace(counted=left, aside=got.aside if left else ())
                readings[z.key] = z.settled_value = z.last = new
                z.recheck, w.quiet = True, None

    def _name_by_count(
        self,
        out: dict[str, list[tuple[float, str, float]]],
        lone: tuple[str, float, np.ndarray],
        region: str,
        aside: dict[str, float] | None = None,
        twin: dict[str, float] | None = None,
    ) -> str | None:
        """``_name_by_count`` on the last detection's weak and rival reads, with the faces every other
        position shows; ``region``: the position the cards are this one's (a card region, or the one
        whose hand the i-Verify display shows)."""
        return _name_by_count(
            out,
            lone,
            self._weak_reads,
            self._hand_size,
            self.cfg.count_floor,
            self._shown_elsewhere(region),
            self._rival_reads,
            cap=self.cfg.min_confidence,
            aside=aside,
            guesses=self._guesses,
            twin=twin,
        )

    def _remember_hand(
        self,
        region: str,
        out: dict[str, list[tuple[float, str, float]]],
        unnamed: list[tuple[str, float]],
        occluded: set[str],
    ) -> list[tuple[str, str]] | None:
        """Keep the region's whole hand when this read shows it face up and all named, nothing hidden;
        else name its unnamed faces from the hand kept (``_carry_known_face``), taking them off
        ``unnamed``: the zone and card of each so named, if any was. A hidden zone counts with the
        cards it last showed."""
        faces = {lab: c for v in out.values() for _, lab, c in v if lab != BACK}
        if not any(out.values()) and not occluded and not unnamed:  # the cards are gone: a new hand next
            # (unless the i-Verify display shows this position's hand now: the dealer's hand, shown on
            # the display as his cards were picked up to be turned over, is this round's (b82-0014))
            if not self._on_display_now(region):
                self._seen_whole[region] = dataclasses.replace(self._seen(region), hand=None, views={})
            return None
        if not faces or (occluded and any(z in occluded for z, _ in unnamed)):
            return None
        last = [self.tracker.value(z) for z in sorted(occluded)]
        hidden = [str(c) for v in last if isinstance(v, tuple) for c in v]
        if not unnamed and not hidden and not any(out.get(z) for z in occluded):
            # (a zone hidden that held no card and shows none hides none of the hand: b82-0014, the
            # dealer's arm over his emptied hand area as his high hand's 2d, read 2d on the display and
            # as his hand was turned up, was read 2h)
            self._felt_misreads(region, out)
            faces = {lab: c for v in out.values() for _, lab, c in v if lab != BACK}
        if (
            not unnamed
            and not occluded
            and self._keep_hand(
                region,
                faces,
                [lab for v in out.values() for _, lab, _ in v],
                inferred=self._inferred(out),
            )
        ):
            return None
        seen = {z: v for z, v in out.items() if z not in occluded}
        named = _carry_known_face(seen, unnamed, self._seen(region).hand, hidden)
        if named is None and not occluded:
            named = _carry_in_place(
                seen, unnamed, self._settled_cards(unnamed), self._shown_elsewhere(region)
            )
        if named is not None:
            unnamed.clear()
        return named

    def _settled_cards(self, unnamed: list[tuple[str, float]]) -> dict[str, list[tuple[str, float]]]:
        """Each zone holding an unnamed face: its cards as it last settled on them, each at its read
        then (a face named by the count or carried at its capped confidence), where it settled on no
        face left unnamed; or, where it has since settled only on those cards read worse, as it
        settled on them then (``_whole_hand``), each then no surer than ``min_confidence``: a face
        seen and not named in between may be another card put there (a swap while the arm was over the
        hand), so a finding resting on a card named from it is a review item, as on one the count
        names."""
        out: dict[str, list[tuple[str, float]]] = {}
        for z in {z for z, _ in unnamed}:
            got = self._settled_conf.get(z)
            if got is None or got.whole is None:
                continue
            cap = self.cfg.min_confidence if got.unread else 1.0
            out[z] = [(c, min(p, cap)) for c, p in got.whole]
        return out

    def _felt_misreads(self, region: str, out: dict[str, list[tuple[float, str, float]]]) -> None:
        """The hand seen whole's check on the felt (``_misread_matches``, as ``_display_misreads`` the
        display's): a whole hand read here but for one or two faces the hand seen whole lacks, read
        under ``_DISPLAY_YIELDS``, each sharing rank or suit with a card of it not read here, names those
        cards, no surer than its own reads, said apart (``carried_faces``, and ``carried_from_display``:
        this view does not bear them out). The card must be read surer on the display (by more than
        ``_FELT_KEEPS``) where the display showed the hand last (b51-0005, seed 51, 720p: the dealer's
        8d read Td on the felt for 6 s, the display having shown his hand, 8d read surer, a moment
        before); a card that both views, the felt and the display, read so themselves (not named by
        inference; ``_SeenWhole.views``) stands however sure each was, and only such a card where the felt
        showed the hand last (the felt's own earlier read alone was as often wrong as the later one:
        b88-0009, thirty-ninth session). b84-0001 (seed 84, 720p): the dealer's As, read As 0.62 in his
        hand turned up and As on the display, was read Ac 0.68 in his high hand once set, for four
        moments; b84-0000: his 8c, read 8c on both, read Tc 0.62 after he paid a seat. A card truly
        switched between the views, read that weakly, is named as they showed it, but said apart and
        under the review level: a finding on it is for review."""
        seen = self._seen(region)
        known = seen.hand
        if known is None:
            return
        read = {lab: c for v in out.values() for _, lab, c in v if lab != BACK}
        both = {c for c, v in seen.views.items() if len(v) == 2}
        weight = {c: 1.0 if c in both else p for c, p in known.items()}
        fix = _misread_matches([lab for v in out.values() for _, lab, _ in v], read, weight, _FELT_KEEPS)
        if seen.on_felt and any(y not in both for y in fix.values()):
            return
        for z, v in out.items():
            if any(lab in fix for _, lab, _ in v):
                out[z] = [
                    (x, fix.get(lab, lab), min(c, known[fix[lab]]) if lab in fix else c) for x, lab, c in v
                ]
                self._read_carried[z] = tuple(fix[lab] for _, lab, _ in v if lab in fix)
                self._read_carried_display[z] = self._read_carried[z]  # the display's hand names them
                # a face the count named this read (``_suit_twins``) and renamed here is the hand's card,
                # no longer the count's, and what it set aside no longer stands beside it (b78-0004: the
                # dealer's 6c, renamed 6s beside an injected copy, named 6c again from his hand)
                counted = tuple(c for c in self._read_counted.get(z, ()) if c not in fix)
                _put(self._read_counted, z, counted or None)
                if not counted:
                    self._read_aside.pop(z, None)

    def _card_mask(self, w: _Watch, shape: tuple[int, ...]) -> np.ndarray:
        """The cards of the region's last detection, on its small crop. An index-sized box is grown to
        a card's size about its centre; but where a card with that index at its top-left corner and
        one with it at its bottom-right corner (an upright card's other index) would lie in the crop
        by more than a quarter of a card apart, the card is the one the crop holds: a card lies in
        its area. b79-0003 (seed 79, 720p): seat 4's low Kd, turned up, its top index under the
        dealer's fingers resting on the high hand; its bottom index grown about its centre left the
        card's top half, changed from back to face and joined to the hand's blob, counted as arm (39 %
        of the zone, over ``zone_occlusion_fraction``), and the card was read only once the hand had
        gone, a second later. A Joker named by its paper is boxed whole where that paper lies (``_read``;
        b91-0003, seat 1's low Joker: grown about its corner's centre, 35 % of the zone was arm)."""
        mask = np.zeros(shape[:2], np.uint8)
        h, wd = shape[:2]
        cw, ch = np.array(CARD_MM) * w.region.px_per_mm * w.scale
        for x1, y1, x2, y2 in self._last_boxes * w.scale:
            if x2 - x1 < cw and y2 - y1 < ch:  # an index: its card lies one way or the other of it
                ways = np.array([(x1, y1, x1 + cw, y1 + ch), (x2 - cw, y2 - ch, x2, y2)])  # TL, BR
                held = intersection_area(np.array([0, 0, wd, h]), ways)  # of each, inside the crop
                if abs(held[0] - held[1]) > 0.25 * cw * ch:
                    a, b, c, d = ways[int(np.argmax(held))]
                    cv2.rectangle(mask, (round(a), round(b)), (round(c), round(d)), 255, -1)
                    continue
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            hw, hh = max((x2 - x1) / 2, cw / 2), max((y2 - y1) / 2, ch / 2)
            cv2.rectangle(mask, (round(cx - hw), round(cy - hh)), (round(cx + hw), round(cy + hh)), 255, -1)
        return mask > 0

    def _occluder(self, bgr: np.ndarray) -> np.ndarray:
        m = skin_mask(bgr) if self.cfg.skin else np.zeros(bgr.shape[:2], bool)
        for c in self.cfg.sleeve_bgr:
            m |= np.abs(bgr.astype(np.int16) - np.array(c, np.int16)).max(axis=2) <= self.cfg.sleeve_tolerance
        return m

    # --- readers ---------------------------------------------------------------------------------
    def _detect(
        self,
        r: Region,
        crop: np.ndarray,
        y_offset: int = 0,
        zoom: float = 1.0,
        warp: np.ndarray | None = None,
    ) -> Detections:
        """Detections in ``crop`` coordinates; ``zoom`` > 1 lets the detector read it enlarged. ``warp``:
        the crop is the region's crop moved by it (``_panel_warp``)."""
        import time

        import cv2

        if zoom != 1.0:
            crop = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        hook = getattr(self.detector, "set_context", None)
        if callable(hook):
            m = r.to_crop if warp is None else warp @ r.to_crop
            if y_offset:
                m = np.array([[1, 0, 0], [0, 1, -y_offset], [0, 0, 1.0]]) @ m
            if zoom != 1.0:
                m = np.diag([zoom, zoom, 1.0]) @ m
            hook(self._frame, m, (crop.shape[1], crop.shape[0]))
        t0 = time.perf_counter()
        card_scale = zone_card_scale(r.kind, r.px_per_mm * zoom, self.layout.iverify_slots)
        dets, unread, rivals, guesses = _detect_with_guesses(
            self.detector, crop, card_scale, whole_cards=r.kind == "iverify"
        )
        if zoom != 1.0:
            dets, rivals = (Detections(d.xyxy / zoom, d.class_id, d.confidence) for d in (dets, rivals))
            if guesses is not None:
                guesses = Detections(guesses.xyxy / zoom, guesses.class_id, guesses.confidence)
            unread = unread / zoom
        self.detector_seconds += time.perf_counter() - t0
        self.detector_calls += 1
        sure = dets.confidence >= self.cfg.min_confidence
        weak = ~sure & (dets.class_id != BACK_CLASS)  # a face read, but too weakly to name it
        self._unread_boxes = np.concatenate([np.asarray(unread, np.float32).reshape(-1, 4), dets.xyxy[weak]])
        self._weak_reads = dets[weak]
        self._rival_reads = rivals
        self._guesses = guesses
        kept: Detections = dets[sure]
        return kept

    def _read(
        self,
        w: _Watch,
        image: np.ndarray,
        t: float,
        on_arm: tuple[np.ndarray, set[str], set[str]] | None = None,
        cut_backs: tuple[np.ndarray, set[str]] | None = None,
    ) -> dict[str, Hashable] | None:
        """The readings of the region's zones. ``on_arm``: the occluder mask (on the small crop), the
        zones it reaches into without hiding them, and the zones showing faces read while it still
        moves. A card found lying on it in the first may be the arm itself (a dark sleeve resting over
        the dealer's area reads as a card back) or a card in the hand, not on the felt: that zone reads
        ``_ON_ARM``, and counts as hidden this time; so does a face read under ``_ARM_DOUBT`` lying on
        it in the second.
        ``cut_backs``: the changed blobs reaching in from the crop's edge, however small, and the zones
        where a back the crop's edge cuts that lies on one is taken for what reaches in, the same way."""
        r = w.region
        crop = r.rectify(image)
        for key in (z.key for z in w.zones):
            self._read_conf.pop(key, None)
            self._read_cards.pop(key, None)
            self._read_unread.pop(key, None)
            self._read_carried.pop(key, None)
            self._read_carried_display.pop(key, None)
            self._read_blank.pop(key, None)
            self._read_counted.pop(key, None)
            self._read_aside.pop(key, None)
            self._read_apart.pop(key, None)
            self._read_twins.pop(key, None)
        if r.kind == "cards":
            found = self._detect(r, crop)
            dets = merge_card_indices(found, r.px_per_mm)
            # (the reads before merging too: an index merged into another card's box still shows its card)
            seen = Detections.merge([dets, found])
            place = (r.name, seen.xyxy.tobytes(), seen.class_id.tobytes(), self._unread_boxes.tobytes())
            jokers = self._blank_memory.recall(place, crop)
            if jokers is None:
                jokers = blank_corner_cards(crop, seen, r.px_per_mm, self._unread_boxes)
                self._blank_memory.keep(place, crop, jokers)
            if len(jokers) and (JOKER_CLASS in dets.class_id or "Jk" in self._shown_elsewhere(r.name)):
                # one deck of 53 cards holds one Joker (seed 002 rule 2.1): a Joker's index read here or shown
                # at another position, blank paper is not a second one. b51-0003 (seed 51, 720p): the
                # dealer's Joker read Jk at 0.68 by its index and named again by its blank other end,
                # two Jokers: a FOREIGN-CARD and a CARD-COUNT review item on no violation
                jokers = jokers[:0]
            by_paper = np.zeros(len(dets) + len(jokers), bool)
            by_paper[len(dets) :] = True
            if len(jokers):  # a Joker printing no index (or a star) that the detector could not read
                n = len(jokers)
                dets = Detections.merge(
                    [dets, Detections(jokers, np.full(n, JOKER_CLASS), np.full(n, JOKER_BY_PAPER))]
                )
                # an unread box on a Joker's corner is its mark (tigullio's star), that card
                ub = self._unread_boxes
                on = [float(intersection_area(b, jokers).max()) >= 0.3 * _area(b) for b in ub]
                self._unread_boxes = ub[~np.array(on, bool)] if len(ub) else ub
            self._last_boxes = dets.xyxy.copy()
            if len(jokers):  # a Joker named by its paper: the card lies where that paper was found
                size = np.array(CARD_MM, np.float32) * r.px_per_mm
                at = jokers[:, :2] - np.array(INDEX_INSET, np.float32) * size  # the card's top-left corner
                self._last_boxes[len(dets) - len(jokers) :] = np.column_stack([at, at + size])
            centres = card_centres(crop, dets, r.px_per_mm)
            zones = [
                None if out else z for z, out in zip(r.assign(centres), _outside(centres, crop), strict=True)
            ]
            lone = _unread_cards(self._unread_boxes, found, r.px_per_mm)
            unnamed: list[tuple[str, float]] = []  # (zone, image x) of each face seen, not named
            lone_boxes: list[np.ndarray] = []  # and its box
            if len(lone):
                lone_dets = Detections(lone, np.zeros(len(lone), np.int64), np.ones(len(lone), np.float32))
                lone_x = r.crop_to_image(lone_dets.centers)[:, 0]
                for z, x, b in zip(
                    r.assign(card_centres(crop, lone_dets, r.px_per_mm)), lone_x, lone, strict=True
                ):
                    if z is not None:
                        unnamed.append((z, float(x)))
                        lone_boxes.append(b)
            hidden: set[str] = set()
            if on_arm is not None:
                reached, partly, beside = on_arm
                hidden = _on_the_arm(zones, dets.xyxy * w.scale, reached, partly)
                # and a face read with doubt lying on it, in a zone showing faces that it passes beside
                # while still moving: b52-0009 (seed 52, 720p), the dealer's white sleeve passing beside
                # his low hand, not over the zone, a 5s read at 0.40 on its edge at the 6s's corner was
                # a second card there, and CARD-COUNT alerted on a 7-card setting. (Not every find: a
                # card put down lies on the changed blob of the hand that puts it there.)
                doubt = [
                    z if c < _ARM_DOUBT and k != BACK_CLASS else None
                    for z, c, k in zip(zones, dets.confidence, dets.class_id, strict=True)
                ]
                hidden |= _on_the_arm(doubt, dets.xyxy * w.scale, reached, beside)
            if cut_backs is not None and len(dets):
                cut_zone = [z if c else None for z, c in zip(zones, _cut_backs(dets, crop), strict=True)]
                hidden |= _on_the_arm(cut_zone, dets.xyxy * w.scale, *cut_backs)
            img_x = r.crop_to_image(dets.centers)[:, 0] if len(dets) else np.zeros(0)
            self._read_apart.update(_apart_faces(dets, zones, r.px_per_mm))
            out: dict[str, list[tuple[float, str, float]]] = {n: [] for n in w.zone_names}
            for i, (z, label) in enumerate(zip(zones, dets.labels, strict=True)):
                if z is not None:
                    # a face's confidence is its read's; a back's is the detector's score for it
                    # (TableState.card_confidence)
                    out[z].append((float(img_x[i]), label, float(dets.confidence[i])))
                    if by_paper[i]:
                        self._read_blank[z] = (*self._read_blank.get(z, ()), label)
            occluded = {z.key for z in w.zones if z.occluded}
            if self.cfg.name_by_count:
                self._suit_twins(r.name, out, _second_faces(dets, zones, img_x, self._guesses))
            carried = self._remember_hand(r.name, out, unnamed, occluded)
            if carried is not None:
                # named from the display's picture alone where the felt never read the card itself in
                # the hand seen whole (``_SeenWhole.views``; a card outside it, by where it was seen last):
                # the felt's own earlier view is a second picture (b89-0014, seed 89, 720p: the dealer's
                # 3s, read 0.62 in his hand turned up after the display had shown it, carried into his
                # low hand, had counted as the display's alone)
                whole = self._seen(r.name)
                views, last = whole.views, frozenset({whole.on_felt})
                for z, card in carried:
                    self._read_carried[z] = (*self._read_carried.get(z, ()), card)
                    if True not in views.get(card, last):
                        self._read_carried_display[z] = (*self._read_carried_display.get(z, ()), card)
            elif self.cfg.name_by_count and len(unnamed) == 1 and not occluded and not hidden:
                aside: dict[str, float] = {}
                twin: dict[str, float] = {}
                named = self._name_by_count(out, (*unnamed[0], lone_boxes[0]), r.name, aside, twin)
                if named is not None:
                    self._count_named(unnamed[0][0], named, aside)
                    unnamed.clear()
                elif twin:
                    self._read_twins[unnamed[0][0]] = tuple(sorted(twin.items()))
            for z, _ in unnamed:
                self._read_unread[z] = self._read_unread.get(z, 0) + 1
            for z, v in out.items():
                for _, label, c in v:
                    if label != BACK:
                        self._read_conf[z] = min(c, self._read_conf.get(z, c))
                v.sort(key=lambda xlc: (xlc[0], xlc[1]))
                if v:
                    self._read_cards[z] = tuple(c for _, _, c in v)
            return {z: _ON_ARM if z in hidden else tuple(lab for _, lab, _ in v) for z, v in out.items()}
        if r.kind == "lcd":
            return {"lcd": read_lcd(crop)}
        if r.kind == "bet":
            assert self._felt is not None
            masks = self._bet_masks.get(r.name)
            if masks is None:
                poly = r.table_to_crop_pts(r.zones[0].table_poly)
                masks = self._bet_masks[r.name] = (inner_mask(r.size, poly), around_mask(r.size, poly))
            # a bet circle reads as "seatN.chips", a payout spot as "seatN.payout" (the zone's key)
            return {
                w.zones[0].key: chips_present(
                    crop, masks[0], self._felt, min_fraction=self.cfg.chips_fraction, around=masks[1]
                )
            }
        # i-Verify: read where its panel is found, if that is off the layout's place (_panel_warp)
        warp = self._panel_warp(r, image)
        if warp is not None:
            crop = r.warp(image, r.size, warp)
        visible = panel_visible(crop, min_fraction=self.cfg.iverify_visible_fraction)
        if not visible:
            since = w.zones[0].changed_since
            if since is not None and t - since < self.cfg.iverify_cover_s:
                return None  # an arm passing over the panel, until it has lain there for long
            prev = self.tracker.value("iverify")
            assert isinstance(prev, IVerifyReading)
            return {"iverify": IVerifyReading(False, prev.mode, prev.seat, prev.high, prev.low)}
        head = read_header(crop, self.cfg.header_min_score)
        if head.mode == "blank":
            if not w.zones[0].looking:  # a read of a new picture (not the second look at it)
                self._blank_read_t = t
            return {"iverify": IVerifyReading(True)}
        y0 = round(crop.shape[0] * HEADER_FRACTION)
        zoom = iverify_zoom(r.px_per_mm, self.cfg.card_px_per_mm)
        dets = self._detect(r, crop[y0:], y0, zoom=zoom, warp=warp)

        def setting(found: Detections) -> tuple[list[str], list[str]]:  # the high and low hands shown
            return split_setting(
                found, self._low_cards, panel_px_per_mm=r.px_per_mm, slots=self.layout.iverify_slots
            )

        high, low = setting(dets)
        region = _display_region(head.mode, head.seat)
        joker = self._panel_joker(r, crop[y0:], dets, zoom, {*high, *low})
        if joker is not None:
            dets = Detections.merge([dets, joker])
            high, low = setting(dets)
        if joker is not None and "Jk" in (*high, *low):
            self._read_blank["iverify"] = ("Jk",)
        if self.cfg.name_by_count and region is not None:
            twins = self._display_twins(crop[y0:], dets, high, low, region, setting, r.px_per_mm)
            if twins is not None:
                dets, (high, low) = twins, setting(twins)
        self._display_found = (np.concatenate([dets.xyxy, self._unread_boxes.reshape(-1, 4)]), crop.shape[1])

        def placed(found: Detections, one: Detections | None) -> Detections | None:
            """``found`` with ``one`` (a face named for the display) where it lies in a slot of its own."""
            if one is None:
                return None
            with_it = Detections.merge([found, one])
            before, after = setting(found), setting(with_it)
            return (
                with_it
                if sorted([*after[0], *after[1]]) == sorted([*before[0], *before[1], *one.labels])
                else None
            )

        def renamed(found: Detections, fix: dict[str, str]) -> Detections:
            """``found`` with the misreads ``fix`` names renamed, no surer than the felt read them."""
            ids, conf = found.class_id.copy(), found.confidence.copy()
            known = self._seen(region).hand or {}
            for x, y in fix.items():
                at = ids == CLASSES.index(x)
                ids[at], conf[at] = CLASSES.index(y), np.minimum(conf[at], known[y])
            return Detections(found.xyxy, ids, conf)

        named_one = False
        for find, named_by in (
            (self._display_known_face, self._read_carried),
            (self._display_counted_face, self._read_counted),
        ):
            one = find(head.mode, head.seat, [*high, *low], r.px_per_mm)
            with_it = placed(dets, one)
            if one is not None and with_it is not None:
                dets, (high, low) = with_it, setting(with_it)
                named_by["iverify"] = (*named_by.get("iverify", ()), one.labels[0])
                named_one = True
                break
        renamed_to: tuple[str, ...] = ()
        fix = self._display_misreads(head.mode, head.seat, [*high, *low], dets)
        if fix:
            dets = renamed(dets, fix)
            high, low = setting(dets)
            renamed_to = tuple(fix.values())
        elif not named_one and len(high) + len(low) == self._hand_size - 1:
            # one card not named and one or two misread beside it (b67-0009: the dealer's Kc read Kd on
            # the display, his 2c not named, his hand read whole on the felt): the misreads matched among
            # the cards not shown, then the one card left placed as ``_display_known_face`` places it;
            # both, or neither
            fix = self._display_misreads(head.mode, head.seat, [*high, *low], dets, short=1)
            if fix:
                fixed = renamed(dets, fix)
                shown = setting(fixed)
                one = self._display_known_face(head.mode, head.seat, [*shown[0], *shown[1]], r.px_per_mm)
                with_it = placed(fixed, one)
                if one is not None and with_it is not None:
                    dets, (high, low) = with_it, setting(with_it)
                    renamed_to = (*fix.values(), *one.labels)
        if renamed_to:
            self._read_carried["iverify"] = (*self._read_carried.get("iverify", ()), *renamed_to)
        faces = dets.confidence[dets.class_id != BACK_CLASS]
        if len(faces):
            self._read_conf["iverify"] = float(faces.min())
            self._read_cards["iverify"] = tuple(float(c) for c in faces)  # for _surer only
        reading = IVerifyReading(True, head.mode, head.seat, tuple(high), tuple(low))
        if not w.zones[0].looking or self._surer("iverify", reading):  # else _step keeps the reading before
            self._hand_on_display(head.mode, head.seat, [*high, *low], dets)
        self._display_read_at = (region, self._seen(region).version)
        self._display_read_t = t
        return {"iverify": reading}

    def _panel_warp(self, r: Region, image: np.ndarray) -> np.ndarray | None:
        """Where the i-Verify panel is found off the place the layout gives it, the 3x3 map from the
        region's crop to the panel as found (its crop then shows the panel as the layout would have);
        None where it is found in place, or not found. A camera's lens bends the picture towards its
        corners, where the display stands, and the layout's four reference points cannot follow: under
        a wide lens's barrel distortion (``benchmarks/camera_conditions.py`` "lens") the panel lay 10-15
        px off its crop, the header band took in the cards' tops and read blank, and every hand shown
        was lost. The panel is looked for by its blue in a crop grown by ``_PANEL_SEARCH`` of its height
        (``displays.panel_quad``); its corners are the median of the last ``_PANEL_FINDS`` found (one
        find jitters 1-4 px: the panel does not move), used when one is ``_PANEL_OFF`` or more off."""
        w, h = r.size
        g = max(4, round(_PANEL_SEARCH * h))
        grow = np.array([[1.0, 0, g], [0, 1, g], [0, 0, 1]])
        grown = r.warp(image, (w + 2 * g, h + 2 * g), grow)
        expected = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) + g
        quad = panel_quad(grown, expected, g)
        if quad is not None:
            self._panel_finds = [*self._panel_finds, quad][-_PANEL_FINDS:]
        if not self._panel_finds:
            return None
        at = np.median(np.stack(self._panel_finds), axis=0)
        if np.abs(at - expected).max() < max(_PANEL_OFF * h, _PANEL_OFF_PX):
            return None
        fit = cv2.getPerspectiveTransform(at.astype(np.float32), (expected - g).astype(np.float32))
        return np.asarray(fit @ grow, np.float64)

    def _panel_joker(
        self, r: Region, panel: np.ndarray, dets: Detections, zoom: float, shown: set[str]
    ) -> Detections | None:
        """The i-Verify display's Joker if it prints no index (``blank_slot_cards``), read at
        ``JOKER_BY_PAPER``; None if none. Looked for only when the faces named on the display are short
        of a hand and hold no Joker, in the slots nothing (named or not) was found in. ``panel``: the
        display below its header, which the detector read enlarged by ``zoom``; so is it searched.
        ``shown``: the cards ``split_setting`` reads off ``dets``, one a slot, which are what is counted:
        a four-corner deck's other indices, read again under another suit, are not more cards
        (b45-0001: dondorf's Ts and 5s read Tc and 5c at their other corners made seven faces of six,
        and the Joker was not looked for)."""
        named = shown - {BACK}
        if "Jk" in named or len(named) >= self._hand_size:
            return None
        big = cv2.resize(panel, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        found = np.concatenate([dets.xyxy, self._unread_boxes.reshape(-1, 4)]) * zoom
        high = self._hand_size - self._low_cards
        slots = self.layout.iverify_slots
        jokers = blank_slot_cards(big, found, r.px_per_mm * zoom, slots, high, self._low_cards)
        if not len(jokers):
            return None
        return Detections(jokers[:1] / zoom, np.full(1, JOKER_CLASS), np.full(1, JOKER_BY_PAPER, np.float32))

    def _display_twins(
        self,
        panel: np.ndarray,
        dets: Detections,
        high: list[str],
        low: list[str],
        region: str,
        setting: Callable[[Detections], tuple[list[str], list[str]]],
        px_per_mm: float,
    ) -> Detections | None:
        """``dets`` with one card of a face the display names twice in the hand it shows (``high`` and
        ``low``, one a slot) renamed where the two cards are not one picture (``same_picture``: one of the
        two reads is a misread, not a second copy), as ``_suit_twins`` names a hand's on the felt: the
        likeliest other face of its reads (``_surest_other`` of the display's ``detect_with_guesses``) or
        else its suit twin, where neither this hand nor another position (``region``'s others) shows it;
        by the count (``TableState.counted_faces``, the face set aside in ``TableState.counted_aside``),
        never surer than ``min_confidence``. One deck holds each face once (seed 002 rule 5.1), and the
        display shows one position's hand (seed 000 rule 5a). Where the two lie in one hand (both high, or
        both low), which of them is renamed does not change the hand shown, and the surer is not always
        the right one (b80-0009: the display's Ad read Ah at 0.70 beside the Ah read 0.67): the weaker is
        renamed, by the likeliest other face of both cards' reads. Across the high and low hands the
        weaker is renamed, by its own reads, only where the other is surer by more than ``_TWIN_MARGIN``.
        The card renamed is the detections of that face (one card's corner indices, or one) whose renaming
        leaves the display naming the face once and the new face once (``setting`` picks a slot's card).
        b99-0000 (seed 99, 720p): the dealer's 2h read 2d at 0.67 on the display beside his 2d read 0.72,
        for two moments. A true second copy (b81-0000's injected Ad, b86-0005's 2h) is one picture and
        stays a face named twice. None where nothing is renamed."""
        shown = [*high, *low]
        faces = [c for c in shown if c not in (BACK, "Jk")]
        twice = sorted({c for c in faces if faces.count(c) > 1})
        if not twice:
            return None
        table = {*self._shown_elsewhere(region), *shown}
        width = self.layout.iverify_slots.card_width_mm
        out: Detections | None = None
        for face in twice:
            cur = dets if out is None else out
            at = [i for i, lab in enumerate(cur.labels) if lab == face]
            if same_picture(panel, [float(cur.centers[i, 0]) for i in at], px_per_mm, width) is not False:
                continue  # one face drawn twice (a second copy: FOREIGN-CARD's), or not told
            one_hand = high.count(face) > 1 or low.count(face) > 1
            best: tuple[float, Detections, str] | None = None  # the weaker card's read, renamed, its name
            for n in range(1, len(at)):
                for part in itertools.combinations(at, n):
                    weak = max(float(cur.confidence[i]) for i in part)
                    if best is not None and weak >= best[0]:
                        continue
                    if not one_hand and max(float(cur.confidence[i]) for i in at if i not in part) <= (
                        weak + _TWIN_MARGIN
                    ):
                        continue
                    looked = cur.xyxy[at if one_hand else list(part)]
                    name = _other_face(face, _surest_other(looked, face, self._guesses), table)
                    if name is None:
                        continue
                    ids, conf = cur.class_id.copy(), cur.confidence.copy()
                    ids[list(part)] = CLASSES.index(name)
                    conf[list(part)] = np.minimum(conf[list(part)], self.cfg.min_confidence)
                    renamed = Detections(cur.xyxy, ids, conf)
                    got = setting(renamed)
                    want = [*shown]
                    want[want.index(face)] = name
                    if sorted([*got[0], *got[1]]) == sorted(want):
                        best = (weak, renamed, name)
            if best is not None:
                weak, out, name = best
                shown[shown.index(face)] = name
                table.add(name)
                self._count_named("iverify", name, {face: weak})
        return out

    def _display_known_face(
        self, mode: str, seat: int | None, shown: list[str], px_per_mm: float
    ) -> Detections | None:
        """The display's one face seen but not named, named from the position's hand seen whole before
        (``_carry_known_face``'s rule, on the display): a detection of it, the union of the index
        boxes found on the display and not read (``_unread_boxes``), at that earlier read's confidence;
        None where it cannot be told. The display shows that position's hand as the house way sets it
        (seed 000 rule 5a), so its cards are the hand's cards. Only where every other card of the hand
        is named (``shown``: the faces ``split_setting`` read, one a slot), each once and each one of the
        known hand, exactly one known card is not among them, and the unread boxes lie within one
        card's width on the panel (``px_per_mm``: the panel crop's scale; ``IVerifySlots.card_width_mm``).
        b41-0011: the dealer's dondorf Js on the display, its four corners found and none read surely,
        was missing while the dealer's hand, seen face up a moment before, held it. Where one slot of the
        display holds nothing found, the card lies there, whatever else was found and not read
        (b47-0006: the dealer's Jk, which prints no index, its blank corner not seen at 720p; a sliver
        of the 8s's far index found and not read)."""
        known = self._seen(_display_region(mode, seat)).hand
        ub = self._unread_boxes.reshape(-1, 4)
        if known is None or len(shown) != self._hand_size - 1:
            return None
        if BACK in shown or len(set(shown)) != len(shown) or not set(shown) <= known.keys():
            return None
        missing = known.keys() - set(shown)
        if len(missing) != 1:
            return None
        geo = self.layout.iverify_slots
        card_w = px_per_mm * geo.card_width_mm
        found, width = self._display_found
        high = self._hand_size - self._low_cards
        free = empty_slots(found, px_per_mm, geo, high, self._low_cards, width) if len(found) else []
        if len(free) == 1:  # the one slot nothing found reaches into: the card lies there
            index = np.median(found, axis=0)
            x0 = free[0] + INDEX_INSET[0] * card_w  # the index's place in the slot's card
            box = np.array([x0, index[1], x0 + index[2] - index[0], index[3]], np.float32)
        elif len(ub):
            box = np.concatenate([ub[:, :2].min(0), ub[:, 2:].max(0)]).astype(np.float32)
        else:
            return None
        if box[2] - box[0] > 1.2 * card_w:
            return None
        (card,) = missing
        return Detections(box[None], np.array([CLASSES.index(card)]), np.array([known[card]], np.float32))

    def _display_misreads(
        self, mode: str, seat: int | None, shown: list[str], dets: Detections, short: int = 0
    ) -> dict[str, str]:
        """The display's faces read as faces the position's hand does not hold, each with the card of
        that hand it shows: where the hand was seen whole on the felt (``_SeenWhole.on_felt``) and the
        display names a whole hand (``shown``, one a slot, each once, no back) but for one or two faces
        the hand lacks, read under ``_DISPLAY_YIELDS``, against as many of its cards not shown; each
        such face is matched to one of them sharing its rank or its suit, read surer on the felt than
        the face on the display, and the match is the only one. The display shows the position's hand
        (seed 000 rule 5a), and reads its small cards less surely than the felt reads the cards
        themselves. b47-0004 (seed 47, 720p): the dealer's 3d and Kh read 3h (0.70) and Th (0.61) on
        the display, beside his hand turned up and read 3d (0.71) and Kh (0.63), for 4 s. ``short``
        (1): the display names one card fewer than the hand; the card left unmatched is then placed
        where nothing was named (``_display_known_face``), or the match is not taken (``_read``)."""
        seen = self._seen(_display_region(mode, seat))
        known = seen.hand
        if known is None or not seen.on_felt:
            return {}
        read: dict[str, float] = {}
        for lab, c in zip(dets.labels, dets.confidence, strict=True):
            read[lab] = max(float(c), read.get(lab, 0.0))
        return _misread_matches(shown, read, known, short=short)

    def _display_counted_face(
        self, mode: str, seat: int | None, shown: list[str], px_per_mm: float
    ) -> Detections | None:
        """The display's one face seen but not named, named by the count (``_name_by_count``, on the
        display): a detection of it, the union of the index boxes found on the display and not read,
        at its read's confidence (never more than the floor); None where it cannot be told. The
        display shows the position's hand (seed 000 rule 5a), so the faces every other position shows
        are not among its cards. Only where every other card of the hand is named (``shown``, one a
        slot), each once, and the unread boxes lie within one card's width on the panel (as
        ``_display_known_face``). b41-0004: seat 1's 2c on the display, its two corners read 2c by one
        cut and 2s by the other, shown before the hand was ever turned up."""
        region = _display_region(mode, seat)
        ub = self._unread_boxes.reshape(-1, 4)
        if not self.cfg.name_by_count or region is None or not len(ub):
            return None
        box = np.concatenate([ub[:, :2].min(0), ub[:, 2:].max(0)]).astype(np.float32)
        if box[2] - box[0] > 1.2 * px_per_mm * self.layout.iverify_slots.card_width_mm:
            return None
        out = {"iverify": [(0.0, c, 1.0) for c in shown]}
        card = self._name_by_count(out, ("iverify", 0.0, box), region)
        if card is None:
            return None
        return Detections(
            box[None], np.array([CLASSES.index(card)]), np.array([out["iverify"][-1][2]], np.float32)
        )

    def _hand_on_display(self, mode: str, seat: int | None, cards: list[str], dets: Detections) -> None:
        """The hand the i-Verify display shows whole (a seat's, or the dealer's, as the house way sets
        it; seed 000 rule 5a) is that position's hand now: kept for its card region as a hand seen
        whole (``_carry_known_face``), each card at its surest read when the region already holds the
        same hand. The dealer then sets the cards face down and turns them up later, when one of them
        may be read only in part. A hand one of whose cards the display's read named by the count was
        not seen whole: not kept (the count names it again, and says so, where it is shown again)."""
        region = _display_region(mode, seat)
        if region is None or "iverify" in self._read_counted:
            return
        self._keep_hand(
            region,
            dict(zip(dets.labels, (float(c) for c in dets.confidence), strict=True)),
            cards,
            on_felt=False,
            inferred=self._inferred(["iverify"]),
        )

    def _keep_hand(
        self,
        region: str,
        conf: dict[str, float],
        cards: Sequence[str],
        *,
        on_felt: bool = True,
        inferred: Collection[str] = (),
    ) -> bool:
        """Keep ``cards`` as the region's hand seen whole (read at ``conf``) when they are one: a hand's
        number of faces, each once, no back. The same hand again keeps each card at its surest read.
        ``on_felt``: read in the region itself, not on the i-Verify display; ``inferred``: the faces
        among ``cards`` that this view named by inference, not read (carried, counted, a blank corner),
        which it does not vouch for (``_SeenWhole.views``). Whether they were kept."""
        if len(cards) != self._hand_size or len(set(cards)) != len(cards) or BACK in cards:
            return False
        seen = self._seen(region)
        before = seen.hand or {}
        hand = {c: conf[c] for c in cards}
        if before.keys() == hand.keys():
            hand = {c: max(p, before[c]) for c, p in hand.items()}
        else:
            seen = dataclasses.replace(seen, version=seen.version + 1, on_felt=on_felt)
        views = {
            c: seen.views.get(c, frozenset()) | (frozenset() if c in inferred else frozenset({on_felt}))
            for c in cards
        }
        self._seen_whole[region] = dataclasses.replace(seen, hand=hand, views=views)
        return True

    def _seen(self, region: str | None) -> _SeenWhole:
        """The hand of the position ``region`` as last seen whole (``_NOT_SEEN`` where none was, or no
        position)."""
        return self._seen_whole.get(region, _NOT_SEEN) if region is not None else _NOT_SEEN

    def _on_display_now(self, region: str) -> bool:
        """Whether the i-Verify display shows the hand of the position ``region`` now (as tracked)."""
        v = self.tracker.value("iverify")
        return (
            isinstance(v, IVerifyReading)
            and v.visible
            and bool(v.high or v.low)
            and _display_region(v.mode, v.seat) == region
        )

    def _inferred(self, zones: Iterable[str]) -> set[str]:
        """The faces the latest read of ``zones`` named by inference, not by their reads: carried from a
        hand seen before, named by the count, or by a blank corner."""
        return {
            c
            for z in zones
            for named in (self._read_carried, self._read_counted, self._read_blank)
            for c in named.get(z, ())
        }

    def _second_looks(self, t: float) -> None:
        """Read a card zone once more when it has held a doubtful reading (a face read under
        ``second_look_below``, or one seen and not named) for ``second_look_s``, as if its picture had
        changed. A zone is read as soon as it has lain still for ``stable_frames``, and a recorder codes
        the frames just after a change (a hand put down, an arm gone) coarser than the ones after: the
        same picture read a second later is often read surer, and the zone is not read again while its
        picture holds. b47-0007 (seed 47, 720p): the dealer's 4s read 4d at 0.38 as he set his hand,
        4s at 0.66 once he next touched it. And once before that, after ``early_look_s``, as doubtful:
        a recorder often codes the picture finer within half a second, and a card named then is named a
        moment sooner (seed 64, 720p, held out: b64-0004's 3c and b64-0006's Qs, each not named for a
        moment of a hand turned up; seed 62's Jd likewise). The later look is kept: a picture looked at
        early is not always the finer one yet (b62-0011's dealer Ks, looked at 0.5 s alone, stayed
        unnamed for 5 moments, against 1 with the look at 1 s)."""
        looks, below = _looks(self.cfg.early_look_s, self.cfg.second_look_s), self.cfg.second_look_below
        for w in self._watch:
            if w.region.kind != "cards":
                continue
            for z in w.zones:
                if (
                    z.looked >= len(looks)
                    or z.settled_at is None
                    or z.occluded
                    or z.recheck
                    or t - z.settled_at < looks[z.looked]
                ):
                    continue
                z.looked += 1
                got = self._settled_conf.get(z.key)
                if got is None or got.value != z.settled_value:
                    continue
                if got.unread or (got.zone is not None and got.zone < below):
                    z.recheck = z.looking = True
                    w.quiet = None

    def _surer(self, key: str, v: Hashable) -> bool:
        """Whether the latest read's reading ``v`` of zone ``key`` (a card zone's, or the i-Verify
        display's) is better than the one it settled on: more faces named, or as many named, more surely
        (their confidences summed)."""
        got = self._settled_conf.get(key)
        named, was_named = _faces_named(v), None if got is None else _faces_named(got.value)
        if got is None or named is None or was_named is None:
            return True
        return (named, sum(self._read_cards.get(key, ()))) > (was_named, sum(got.cards))

    def _recheck_display(self, t: float) -> None:
        """Read the i-Verify display again, as if its picture had changed: when it has shown the same hand for
        ``iverify_early_look_s`` and again for ``iverify_second_look_s`` (a recorder codes the frames just
        after a change coarser than the ones after: b45-0014's dealer 3d read 3h at 0.61 as the display
        changed, 3d at 0.77 two seconds on; the early look: seed 64's display Qh not named and Jc read Jh,
        each for a moment, gone), and when the hand it shows has since been seen whole on the felt and the
        display's reading is not that hand, or names a face of it by the count. The display is read when its
        picture changes, and it shows the dealer's house way for seconds while the dealer turns his cards up
        beside it: what the felt then shows (``_display_known_face``) was not known when the display was read.
        b47-0006 (seed 47, 720p): the dealer's Jk on the display not named for 4 s, through the 2 s his hand
        lay face up on the felt holding it. A display read blank is looked at once more the same way (its
        header alone is read: no detector call): b53-0014 (seed 53, 720p), the display read blank 0.16 s after
        it began to show seat 5's hand, a frame caught mid-change, and stayed blank for 3.6 s."""
        v = self.tracker.value("iverify")
        if not isinstance(v, IVerifyReading) or not v.visible:
            return
        region = _display_region(v.mode, v.seat)
        timed = felt = False
        look = self.cfg.iverify_second_look_s
        looks = _looks(self.cfg.iverify_early_look_s, look)
        if region is None:  # blank: once for each new picture read so
            since = self._blank_read_t
            if (
                v.mode == "blank"
                and look
                and since is not None
                and since != self._blank_looked_t
                and t - since >= look
            ):
                self._blank_looked_t, timed = since, True
        else:
            if v != self._display_looked:
                self._display_looks = 0
            n = self._display_looks
            if (
                n < len(looks)
                and self._display_read_t is not None  # the last read: the looks' too
                and t - self._display_read_t >= looks[n] - (looks[n - 1] if n else 0.0)
            ):
                self._display_looked, self._display_looks, timed = v, n + 1, True
            seen = self._seen(region)
            known, version = seen.hand, (region, seen.version)
            if known is not None and seen.on_felt and version != self._display_read_at:
                self._display_read_at = version
                # a reading a face of which the count named (``_display_twins``) is not a view of the hand
                # (``_hand_on_display``): read again as one that is not that hand (b99-0000: the display's
                # 2h, named by its twin, never vouched for the dealer's 3s, read 3c on the felt 12 s on)
                got = self._settled_conf.get("iverify")
                counted = got is not None and got.value == v and bool(got.counted)
                felt = counted or sorted([*v.high, *v.low]) != sorted(known)
        if not (timed or felt):
            return
        for w in self._watch:
            if w.region.kind == "iverify":
                for z in w.zones:
                    # the timed look reads the same picture: its reading is taken only if surer
                    # (``_surer``; b53-0009: the dealer's 3h, right, read 3d on the second look). A
                    # read for the felt's hand takes what that hand names (``_display_misreads``)
                    z.recheck, z.looking = True, not felt
                w.quiet = None


def _looks(early: float, then: float) -> tuple[float, ...]:
    """The times after a reading settled that a doubtful one is looked at again (0: no such look)."""
    return tuple(sorted({x for x in (early, then) if x > 0}))


def watch(
    source: str | Path | int,
    layout: TableLayout,
    *,
    detector: CardDetector | None = None,
    config: PipelineConfig | None = None,
    pace: float | None = None,
    ticks: bool = False,
) -> Iterator[FrameResult]:
    """Table states of a source, yielded whenever the (debounced) table state changes.

    The first state of every clip is yielded too. A folder's clips are watched one after another, each
    from a fresh state with its own timestamps. ``detector=None`` loads the shipped model lazily.
    ``pace`` plays a file as a camera would deliver it: no frame is analysed before its footage time
    (divided by ``pace``, the speed) has passed since the clip began, so what comes out, and when, is
    what a live feed of that footage would give (``paigow-monitor live FILE --realtime``).
    A live feed that drops gives the table as last seen marked ``feed_lost`` (its time the drop's,
    its frame and picture the last analysed), and the first frame analysed after it gives the table
    as seen again, changed or not.
    ``ticks``: every frame analysed that changes nothing is yielded too, as a tick (``FrameResult.tick``,
    no picture): the state last yielded, stamped with that frame, once the pipeline has given one for
    the picture it reads. A live monitor's clock runs on them: a change that has lasted its debounce
    time is known to have when the frame that shows it so has been read, not a guessed lag later.
    """
    import time

    cfg = config or PipelineConfig()
    clip_start = 0.0
    det: CardDetector = detector if detector is not None else _LazyDetector(coarse_camera(layout))
    pipe: TablePipeline | None = None
    clip: str | None = None
    size: tuple[int, int] | None = None  # the picture's, the current pipeline's layout fitted to it
    last_live_t: float | None = None
    lost = False  # the feed dropped and no state has said it is back
    seen_last: tuple[int, np.ndarray] | None = None  # the last frame analysed: a lost feed's evidence
    said: TableState | None = None  # the last state yielded from the current pipeline (ticks repeat it)
    for fr in iter_frames(
        source,
        analyse_fps=cfg.analyse_fps,
        read_ahead=READ_AHEAD,
        read_ahead_mb=READ_AHEAD_MB,
        reconnect_tries=cfg.reconnect_tries,
        prepare=shrunk_frame,
    ):
        if fr.lost:
            # the table as last seen, at the drop's time and the last analysed frame (its picture)
            seen = None
            if pipe is not None and fr.clip == clip and seen_last is not None and not lost:
                seen = pipe.state_now(seen_last[0], fr.t)
            if seen is not None and seen_last is not None:
                lost = True
                yield FrameResult(seen.model_copy(update={"feed_lost": True}), seen_last[1])
            continue
        if fr.image is None:
            continue
        pic = (fr.image.shape[1], fr.image.shape[0])
        if fr.clip != clip or pic != size:
            # the layout fitted to the picture: a sub-stream or a recording at another resolution shows
            # the same view scaled; another shape is an error naming the layout file, source and frame
            fitted = layout.scaled_to(*pic, seen=f"{fr.clip} frame {fr.frame}")
            if fr.clip == clip:  # the picture changed size mid-stream (the camera set up again)
                _log.warning(
                    "%s frame %d: the picture is now %dx%d (was %dx%d): the table is read afresh",
                    clip,
                    fr.frame,
                    *pic,
                    *(size or pic),
                )
            elif fitted is not layout:
                _log.warning(
                    "%s: the picture is %dx%d, the layout was calibrated on %dx%d: its zones scaled to it",
                    fr.clip,
                    *pic,
                    layout.image_width,
                    layout.image_height,
                )
            if isinstance(det, _LazyDetector):
                det.coarse = coarse_camera(fitted)
            if fr.clip != clip:
                clip, last_live_t, seen_last = fr.clip, None, None
                clip_start = time.monotonic() - (fr.t / pace if pace else 0.0)
                _log.info("watching %s", clip)
                if fitted.lens is not None:
                    _log.info(
                        "%s: the layout's lens (k1 %.4f, k2 %.4f): the zones are read straightened",
                        clip,
                        fitted.lens.k1,
                        fitted.lens.k2,
                    )
            pipe, size, said = TablePipeline(fitted, det, cfg), pic, None
        assert pipe is not None
        if pace:
            wait = clip_start + fr.t / pace - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        if fr.live and cfg.analyse_fps:
            if last_live_t is not None and fr.t - last_live_t < 0.9 / cfg.analyse_fps:
                continue
            last_live_t = fr.t
        state = pipe.process(fr.frame, fr.t, fr.image, fr.prepared)
        seen_last = (fr.frame, fr.image)
        if state is None and lost:
            state = pipe.state_now(fr.frame, fr.t)
        if state is not None:
            lost, said = False, state
            yield FrameResult(state, fr.image)
        elif ticks and said is not None and not lost:
            yield FrameResult(said.model_copy(update={"frame": fr.frame, "t": fr.t}), None, tick=True)
