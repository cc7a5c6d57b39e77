"""The camera pipeline: frames of a source -> table states, yielded whenever the table changes.

Per analysed frame, for every region of the layout (a seat's card areas, the dealer's, the i-Verify
display, the LCD, each bet circle):

1. **Change test.** The region is rectified to a small crop (its longest side ``small_px``
   pixels; a few microseconds) and compared with the crop taken when it last settled: the share of
   pixels that differ by more than ``diff_level`` levels in some colour channel. Below
   ``change_fraction``, nothing
   changed and nothing runs.
2. **Occlusion test.** The region is *occluded* when the changed pixels with skin or sleeve colours
   cover ``occlusion_fraction`` of it, or when a changed blob of ``edge_blob_fraction`` of it reaches in
   from the crop's edge (an arm of any colour comes from outside; a card lies inside). An occluded
   region keeps its last known content, gets no reading, and its zones are listed in ``occluded``.
   (A blob from the edge that lies still for ``edge_read_after_s`` is read: a towel over the i-Verify
   display, which then reads as not visible; skin-coloured occluders are never read through.)
3. **Settle, then read.** A changed, unoccluded region is read once it has been still (frame-to-frame
   change below ``motion_fraction``) for ``stable_frames`` analysed frames: the full-resolution
   upright crop goes to the card detector (card regions, the i-Verify cards) or to a cheap reader
   (LCD digit, i-Verify header and visibility, chips). A reading that differs from the previous one
   is confirmed by ``confirm_reads`` agreeing reads before the region counts as settled.
4. **Debounce** (``vision.tracking``): a zone's content must hold ``hold_frames`` frames and
   ``hold_s`` seconds before the table state changes.

In replay, frames are decoded at full rate but analysed at ``analyse_fps`` (skipped frames are
grabbed, not converted); ``t`` is the file position. Live sources are analysed at the same rate by
time, with ``t`` in seconds since the stream opened.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from vision.chips import FeltModel, chips_present, inner_mask
from vision.detections import CardDetector, Detections
from vision.displays import HEADER_FRACTION, panel_visible, read_header, read_lcd, split_setting
from vision.layout import TableLayout
from vision.sources import iter_frames
from vision.state import TableState
from vision.tracking import IVerifyReading, TableTracker
from vision.zones import Region, build_regions

__all__ = ["FrameResult", "PipelineConfig", "TablePipeline", "load_shipped_detector", "watch"]

_log = logging.getLogger("vision.pipeline")


class PipelineConfig(BaseModel):
    """Settings of the camera pipeline (defaults suit 25 fps, 1280x720 footage)."""

    model_config = ConfigDict(extra="forbid")

    analyse_fps: float | None = Field(12.5, gt=0, description="frames analysed per second; None = all")
    small_px: int = Field(48, ge=8, description="longest side of the change-test crops")
    diff_level: int = Field(30, ge=1, le=255, description="grey-level difference that counts as changed")
    change_fraction: float = Field(0.02, gt=0, lt=1, description="share of changed pixels: region changed")
    motion_fraction: float = Field(
        0.01, ge=0, lt=1, description="frame-to-frame share below which it is still"
    )
    stable_frames: int = Field(2, ge=1, description="still analysed frames before a changed region is read")
    confirm_reads: int = Field(2, ge=1, description="agreeing reads that settle a new reading")
    force_after_s: float = Field(3.0, gt=0, description="read a changed, unoccluded region after this anyway")
    occlusion_fraction: float = Field(0.12, gt=0, le=1, description="occluder share that hides a region")
    edge_blob_fraction: float = Field(
        0.06,
        gt=0,
        le=1,
        description="a changed blob this big reaching in from the crop's edge hides a region",
    )
    edge_read_after_s: float = Field(
        2.0, gt=0, description="read a region under a still edge blob after this"
    )
    skin: bool = Field(True, description="count skin colours as occluders")
    sleeve_bgr: list[tuple[int, int, int]] = Field(default_factory=list, description="sleeve colours (BGR)")
    sleeve_tolerance: int = Field(40, ge=1)
    hold_frames: int = Field(2, ge=1, description="analysed frames a zone's new content must hold")
    hold_s: float = Field(0.0, ge=0, description="seconds a zone's new content must hold")
    min_confidence: float = Field(0.5, ge=0, le=1)
    crop_margin_mm: float = Field(12.0, ge=0)
    px_per_mm: float | None = Field(None, gt=0, description="crop resolution; None = the camera's own")
    chips_fraction: float = Field(0.2, gt=0, lt=1)
    iverify_visible_fraction: float = Field(0.5, gt=0, lt=1)
    header_min_score: float = Field(0.5, gt=-1, lt=1)


class FrameResult(NamedTuple):
    state: TableState
    image: np.ndarray  # the BGR frame of that state


def load_shipped_detector() -> CardDetector:
    """The trained detector shipped in models/ (vision.detector)."""
    from vision import detector as _det  # the detector engineer's module

    for name in ("load_detector", "load_default", "default_detector"):
        fn = getattr(_det, name, None)
        if callable(fn):
            return fn()  # type: ignore[no-any-return]
    cls = getattr(_det, "OnnxCardDetector", None) or getattr(_det, "CardDetectorOnnx", None)
    if cls is not None:
        return cls()  # type: ignore[no-any-return]
    raise ImportError("vision.detector has no load_detector() or OnnxCardDetector")


class _LazyDetector:
    def __init__(self) -> None:
        self._det: CardDetector | None = None

    def detect(self, image: np.ndarray) -> Detections:
        if self._det is None:
            self._det = load_shipped_detector()
        return self._det.detect(image)


@dataclass
class _Watch:
    """Change/settle bookkeeping of one region."""

    region: Region
    scale: float
    mask_small: np.ndarray
    settled: np.ndarray | None = None
    prev: np.ndarray | None = None
    still: int = 0
    changed_since: float | None = None
    occluded: bool = False
    last_reading: Any = None
    settled_reading: Any = None
    agree: int = 0
    zone_names: tuple[str, ...] = field(default_factory=tuple)


def _diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-pixel largest channel difference of two small BGR crops."""
    return np.asarray(cv2.absdiff(a, b).max(axis=2))


def _enters_from_edge(changed: np.ndarray, min_fraction: float) -> bool:
    """Whether a changed blob of at least ``min_fraction`` of the crop touches the crop's edge: something
    reaching in from outside (an arm, a sleeve of any colour), not a card lying inside the region."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    h, w = changed.shape
    total = h * w
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area >= min_fraction * total and (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            return True
    return False


def _skin_mask(bgr: np.ndarray) -> np.ndarray:
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = ycc[..., 0], ycc[..., 1], ycc[..., 2]
    return np.asarray((y > 50) & (cr >= 138) & (cr <= 175) & (cb >= 80) & (cb <= 130))


class TablePipeline:
    """Frames of one clip -> table states (one instance per clip or stream)."""

    def __init__(
        self, layout: TableLayout, detector: CardDetector, config: PipelineConfig | None = None
    ) -> None:
        self.layout = layout
        self.detector = detector
        self.cfg = config or PipelineConfig()
        self.regions = build_regions(layout, margin_mm=self.cfg.crop_margin_mm, px_per_mm=self.cfg.px_per_mm)
        self._watch: list[_Watch] = []
        for r in self.regions:
            s = min(1.0, self.cfg.small_px / max(r.size))
            names = tuple(z.name for z in r.zones)
            self._watch.append(_Watch(r, s, r.zone_mask(s) > 0, zone_names=names))
        self.tracker = TableTracker(layout, self.cfg.hold_frames, self.cfg.hold_s)
        self._felt: FeltModel | None = None
        self._bet_masks: dict[str, np.ndarray] = {}
        self._low_cards = 1 if layout.game == "six-card" else 2
        self._t0: float | None = None
        self._frame = -1
        self._warm = False
        self.detector_calls = 0
        self.detector_seconds = 0.0

    # --- one frame ---------------------------------------------------------------------------
    def process(self, frame: int, t: float, image: np.ndarray) -> TableState | None:
        """Analyse one frame; the new table state when the debounced content changed, else None."""
        self._frame = frame
        if self._felt is None:
            crops = [
                w.region.rectify(image, w.scale) for w in self._watch if w.region.kind in ("cards", "bet")
            ]
            self._felt = FeltModel.learn(crops)
        readings: dict[str, Hashable] = {}
        occluded: set[str] = set()
        for w in self._watch:
            reading = self._step(w, image, t)
            if w.occluded:
                occluded.update(self._occluded_names(w))
            if reading is not None:
                readings.update(reading)
        readings["occluded"] = frozenset(occluded)
        if self._t0 is None:
            self._t0 = t
        if self._warm:
            state = self.tracker.update(readings, frame, t)
            return state
        # warm-up: no state until every region has been read once (or force_after_s passed)
        self.tracker.update(readings, frame, t)
        ready = all(w.settled is not None for w in self._watch) and not self.tracker.pending()
        if ready or t - self._t0 >= self.cfg.force_after_s:
            self._warm = True
            return self.tracker.state(frame, t)
        return None

    def _occluded_names(self, w: _Watch) -> tuple[str, ...]:
        r = w.region
        if r.kind == "bet":
            return (r.name,)
        return w.zone_names

    def _step(self, w: _Watch, image: np.ndarray, t: float) -> Any:
        cfg = self.cfg
        small = w.region.rectify(image, w.scale)
        grey = small  # colour, compared channel by channel (a red back on green felt has the felt's grey)
        motion = 1.0 if w.prev is None else float((_diff(grey, w.prev) > cfg.diff_level).mean())
        w.prev = grey
        w.still = w.still + 1 if motion <= cfg.motion_fraction else 0
        if w.settled is None:
            changed_px = np.ones(grey.shape[:2], bool)
        else:
            changed_px = _diff(grey, w.settled) > cfg.diff_level
        if float(changed_px.mean()) <= cfg.change_fraction:
            w.occluded = False
            w.changed_since = None
            return None
        if w.changed_since is None:
            w.changed_since = t
        occ = self._occluder(small) & changed_px
        by_colour = float(occ.mean()) >= cfg.occlusion_fraction
        # (not on the i-Verify display: its own picture changes from edge to edge; a cover there is told
        # by the panel's colour, see _read)
        edge = (
            w.settled is not None
            and w.region.kind != "iverify"
            and _enters_from_edge(changed_px, cfg.edge_blob_fraction)
        )
        w.occluded = by_colour or edge
        if by_colour:
            return None
        # something of any colour reaching in from the edge: an arm passing, unless it lies still for long
        # (a towel over the i-Verify display, a card pushed half out of its area): then read what is there
        if edge and not (w.still >= cfg.stable_frames and t - w.changed_since >= cfg.edge_read_after_s):
            return None
        if w.still < cfg.stable_frames and t - w.changed_since < cfg.force_after_s:
            return None
        reading = self._read(w, image, t)
        if reading is None:  # the reader saw a cover that has not lain long enough to count
            w.occluded = True
            return None
        if reading == w.last_reading:
            w.agree += 1
        else:
            w.last_reading, w.agree = reading, 1
        # a reading equal to the settled one needs no confirming (the arm passed, nothing moved)
        if w.agree >= cfg.confirm_reads or (reading == w.settled_reading and w.settled is not None):
            w.settled, w.settled_reading = grey, reading
            w.changed_since = None
            w.agree = 0
            return reading
        return None

    def _occluder(self, bgr: np.ndarray) -> np.ndarray:
        m = _skin_mask(bgr) if self.cfg.skin else np.zeros(bgr.shape[:2], bool)
        for c in self.cfg.sleeve_bgr:
            m |= np.abs(bgr.astype(np.int16) - np.array(c, np.int16)).max(axis=2) <= self.cfg.sleeve_tolerance
        return m

    # --- readers ---------------------------------------------------------------------------------
    def _detect(self, r: Region, crop: np.ndarray, y_offset: int = 0) -> Detections:
        import time

        hook = getattr(self.detector, "set_context", None)
        if callable(hook):
            m = r.to_crop
            if y_offset:
                m = np.array([[1, 0, 0], [0, 1, -y_offset], [0, 0, 1.0]]) @ m
            hook(self._frame, m, (crop.shape[1], crop.shape[0]))
        t0 = time.perf_counter()
        dets = self.detector.detect(crop)
        self.detector_seconds += time.perf_counter() - t0
        self.detector_calls += 1
        return dets[dets.confidence >= self.cfg.min_confidence]

    def _read(self, w: _Watch, image: np.ndarray, t: float) -> dict[str, Hashable] | None:
        r = w.region
        crop = r.rectify(image)
        if r.kind == "cards":
            dets = self._detect(r, crop)
            zones = r.assign(dets.centers)
            img_x = r.crop_to_image(dets.centers)[:, 0] if len(dets) else np.zeros(0)
            out: dict[str, list[tuple[float, str]]] = {n: [] for n in w.zone_names}
            for i, (z, label) in enumerate(zip(zones, dets.labels, strict=True)):
                if z is not None:
                    out[z].append((float(img_x[i]), label))
            return {z: tuple(lab for _, lab in sorted(v)) for z, v in out.items()}
        if r.kind == "lcd":
            return {"lcd": read_lcd(crop)}
        if r.kind == "bet":
            assert self._felt is not None
            mask = self._bet_masks.get(r.name)
            if mask is None:
                poly = r.table_to_crop_pts(r.zones[0].table_poly)
                mask = self._bet_masks[r.name] = inner_mask(r.size, poly)
            seat = r.name.split(".")[0]
            return {
                f"{seat}.chips": chips_present(crop, mask, self._felt, min_fraction=self.cfg.chips_fraction)
            }
        # i-Verify
        visible = panel_visible(crop, min_fraction=self.cfg.iverify_visible_fraction)
        if not visible:
            assert w.changed_since is not None
            if t - w.changed_since < self.cfg.edge_read_after_s:
                return None  # an arm passing over the panel, until it has lain there for long
            prev = self.tracker.value("iverify")
            assert isinstance(prev, IVerifyReading)
            return {"iverify": IVerifyReading(False, prev.mode, prev.seat, prev.high, prev.low)}
        head = read_header(crop, self.cfg.header_min_score)
        if head.mode == "blank":
            return {"iverify": IVerifyReading(True)}
        y0 = round(crop.shape[0] * HEADER_FRACTION)
        dets = self._detect(r, crop[y0:], y0)
        high, low = split_setting(dets, self._low_cards)
        return {"iverify": IVerifyReading(True, head.mode, head.seat, tuple(high), tuple(low))}


def watch(
    source: str | Path | int,
    layout: TableLayout,
    *,
    detector: CardDetector | None = None,
    config: PipelineConfig | None = None,
) -> Iterator[FrameResult]:
    """Table states of a source, yielded whenever the (debounced) table state changes.

    The first state of every clip is yielded too. A folder's clips are watched one after another, each
    from a fresh state with its own timestamps. ``detector=None`` loads the shipped model lazily.
    """
    cfg = config or PipelineConfig()
    det: CardDetector = detector if detector is not None else _LazyDetector()
    pipe: TablePipeline | None = None
    clip: str | None = None
    last_live_t: float | None = None
    for fr in iter_frames(source, analyse_fps=cfg.analyse_fps):
        if fr.image is None:
            continue
        if fr.clip != clip:
            clip, pipe, last_live_t = fr.clip, TablePipeline(layout, det, cfg), None
            _log.info("watching %s", clip)
        assert pipe is not None
        if fr.live and cfg.analyse_fps:
            if last_live_t is not None and fr.t - last_live_t < 0.9 / cfg.analyse_fps:
                continue
            last_live_t = fr.t
        state = pipe.process(fr.frame, fr.t, fr.image)
        if state is not None:
            yield FrameResult(state, fr.image)
