"""Scoring the camera pipeline against a rendered clip's ground truth (``paigow-monitor eval-vision``).

Ground truth (the renderer's display spec): ``<clip>.states.jsonl`` (the true table state at every
change), ``<clip>.truth.json`` (a ``ClipTruth``: rounds and their times) and ``<clip>.boxes.jsonl.gz``
(every card's outline per frame).

How it is scored:
- **Moments.** Every run of true states with the same content (occlusion aside) that holds at least
  ``settle_s`` seconds is one moment; the pipeline's state is read at the run's last frame's time (it
  has had time to settle; by time, so a clip re-encoded at another frame rate is scored too). A zone
  the truth marks occluded during the run's last ``settle_s`` is left out of that moment (no camera
  could have read it yet).
- **Per-card precision and recall** of face-up cards (``BACK`` is not scored: a pile shows fewer backs
  than it holds), by zone kind (seat dealt/high/low, dealer hand/high/low, i-Verify), counting each
  card in each moment: a card the pipeline puts in another zone is a miss there and a false card here.
- **Rounds read exactly**: a round (``truth.json``) is exact when every moment inside it has every
  seat's and the dealer's face-up cards in the right areas, which includes the dealer's exposure and
  every player's settlement.
- Also the LCD, the i-Verify header and visibility, and chips at the same moments (a seat's chips are
  right when both its bet circle and its payout spot read as the truth has them).

``TruthDetector`` answers the pipeline's detector calls with the ground-truth boxes of the frame (mapped
into the crop), so the pipeline's own logic can be scored apart from the model's accuracy.
"""

from __future__ import annotations

import contextlib
import gzip
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from vision.detections import CLASSES, CardDetector, Detections
from vision.layout import TableLayout, load_layout
from vision.state import BACK, TableState

__all__ = [
    "ClipScore",
    "EvalError",
    "TruthDetector",
    "ZoneScore",
    "evaluate_clip",
    "read_states",
    "score_states",
]


# two times this close (seconds) are one moment: a frame's time is its presentation time rounded to the
# microsecond (``vision.sources``), the truth's frame / fps
_SAME_TIME = 1e-4


class EvalError(ValueError):
    """Ground truth missing or unreadable; the message names the file (and line)."""


class ZoneScore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tp: int = 0
    fp: int = 0
    fn: int = 0
    # of the fn: faces the camera found in the zone but could not name (TableState.unread_faces): the
    # card was seen, its identity not read
    unnamed: int = 0

    def add(self, other: ZoneScore) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn
        self.unnamed += other.unnamed

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


class ClipScore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    clip: str
    moments: int = 0
    zones: dict[str, ZoneScore] = Field(default_factory=dict)
    rounds: int = 0
    rounds_exact: int = 0
    round_errors: list[str] = Field(default_factory=list)  # first error of each inexact round
    card_errors: list[str] = Field(default_factory=list)  # every moment a zone was read wrong
    # every moment the i-Verify panel's cards were read wrong (scored per card, not in rounds exact)
    iverify_errors: list[str] = Field(default_factory=list)
    lcd_ok: int = 0
    iverify_ok: int = 0
    chips_ok: int = 0
    chips_total: int = 0
    detector_calls: int = 0
    frames_analysed: int = 0

    @property
    def total(self) -> ZoneScore:
        z = ZoneScore()
        for s in self.zones.values():
            z.add(s)
        return z


def read_states(path: Path) -> list[TableState]:
    if not path.exists():
        raise EvalError(f"{path}: ground-truth states file not found")
    out = []
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(TableState.model_validate_json(line))
            except ValueError as e:
                raise EvalError(f"{path}:{i}: not a TableState: {e}") from e
    if not out:
        raise EvalError(f"{path}: no states")
    return out


def _read_boxes(path: Path) -> dict[int, list[dict[str, Any]]]:
    if not path.exists():
        raise EvalError(f"{path}: ground-truth boxes file not found")
    out: dict[int, list[dict[str, Any]]] = {}
    try:
        with gzip.open(path, "rt") as f:
            for i, line in enumerate(f, 1):
                if line.strip():
                    try:
                        rec = json.loads(line)
                        out[int(rec["frame"])] = rec["cards"]
                    except (ValueError, KeyError) as e:
                        raise EvalError(f"{path}:{i}: bad boxes line: {e}") from e
    except (EOFError, OSError) as e:  # truncated or not gzip
        raise EvalError(f"{path}: cannot read (truncated or not gzip?): {e}") from e
    return out


class TruthDetector:
    """A detector that returns the ground-truth cards of the current frame inside the crop.

    The pipeline tells it the frame and the crop's transform (``set_context``); cards less than
    ``min_visible`` visible, and cards whose centre falls outside the crop, are left out.
    """

    def __init__(self, boxes_path: Path, min_visible: float = 0.1) -> None:
        self.boxes = _read_boxes(boxes_path)
        self.min_visible = min_visible
        self._frame = -1
        self._m = np.eye(3)
        self._size = (0, 0)

    def set_context(self, frame: int, to_crop: np.ndarray, size: tuple[int, int]) -> None:
        self._frame, self._m, self._size = frame, to_crop, size

    def detect(self, image: np.ndarray) -> Detections:
        w, h = image.shape[1], image.shape[0]
        boxes, cls = [], []
        for c in self.boxes.get(self._frame, []):
            if c.get("visible", 1.0) < self.min_visible or c.get("zone") in ("moving", "shoe"):
                continue
            q = np.asarray(c["quad"], np.float64)
            q = np.concatenate([q, np.ones((4, 1))], 1) @ self._m.T
            q = q[:, :2] / q[:, 2:3]
            x1, y1 = q.min(0)
            x2, y2 = q.max(0)
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            if 0 <= cx < w and 0 <= cy < h:
                boxes.append([max(0, x1), max(0, y1), min(w, x2), min(h, y2)])
                cls.append(CLASSES.index(c["card"]))
        return Detections(np.array(boxes, np.float32), np.array(cls), np.ones(len(cls), np.float32))


def _face_up(cards: Iterable[str]) -> Counter[str]:
    return Counter(c for c in cards if c != BACK)


def _zones_of(st: TableState) -> dict[str, list[str]]:
    z: dict[str, list[str]] = {}
    for s in st.seats:
        z[f"seat{s.seat}.dealt"] = s.dealt
        z[f"seat{s.seat}.high"] = s.high
        z[f"seat{s.seat}.low"] = s.low
    z["dealer.hand"], z["dealer.high"], z["dealer.low"] = st.dealer.hand, st.dealer.high, st.dealer.low
    if st.iverify.visible and st.iverify.mode != "blank":
        z["iverify.high"], z["iverify.low"] = st.iverify.high, st.iverify.low
    return z


def _kind(zone: str) -> str:
    return "seat." + zone.split(".")[1] if zone.startswith("seat") else zone


def _content(st: TableState) -> str:
    return st.model_copy(update={"frame": 0, "t": 0.0, "occluded": []}).model_dump_json()


def _moments(truth: list[TableState], n_frames: int, hold: int) -> list[tuple[int, int, set[str]]]:
    """Runs of true states with the same content (occlusion aside): (first state index, last frame,
    zones not seen unoccluded for the run's last ``hold`` frames, where no camera could read them)."""
    out: list[tuple[int, int, set[str]]] = []
    i = 0
    while i < len(truth):
        j = i
        while j + 1 < len(truth) and _content(truth[j + 1]) == _content(truth[i]):
            j += 1
        end = truth[j + 1].frame - 1 if j + 1 < len(truth) else n_frames - 1
        hidden: set[str] = set()
        for k in range(i, j + 1):
            nxt = truth[k + 1].frame if k + 1 < len(truth) else n_frames
            if nxt - 1 > end - hold:  # this state lasts into the run's final ``hold`` frames
                hidden |= set(truth[k].occluded)
        out.append((i, end, hidden))
        i = j + 1
    return out


def _state_at(states: list[TableState], t: float) -> TableState | None:
    """The pipeline's state at footage time ``t``: the last one stamped at or before it. By time, not
    frame number: a clip re-encoded at another frame rate (a camera's 10 fps sub-stream) numbers its
    frames otherwise than the truth, and each frame carries its own time (``vision.sources``)."""
    cur = None
    for s in states:
        if s.t > t + _SAME_TIME:
            break
        cur = s
    return cur


def score_states(
    clip: str,
    truth: list[TableState],
    pred: list[TableState],
    *,
    fps: float,
    n_frames: int,
    rounds: list[tuple[int, float, float | None]] = (),  # type: ignore[assignment]
    settle_s: float = 1.0,
) -> ClipScore:
    """Score predicted states against true ones (see the module text for the definitions)."""
    score = ClipScore(clip=clip)
    bad_at: list[tuple[float, str]] = []
    for first, end, occluded in _moments(truth, n_frames, max(1, round(settle_s * fps))):
        ts = truth[first]
        if (end - ts.frame + 1) / fps < settle_s:
            continue
        t_end = end / fps
        ps = _state_at(pred, t_end)
        score.moments += 1
        tz = _zones_of(ts)
        pz = _zones_of(ps) if ps is not None else {}
        for zone in sorted(set(tz) | set(pz)):
            if zone in occluded or zone.split(".")[0] in occluded:
                continue
            a, b = _face_up(tz.get(zone, [])), _face_up(pz.get(zone, []))
            zs = score.zones.setdefault(_kind(zone), ZoneScore())
            tp = sum((a & b).values())
            zs.tp += tp
            zs.fp += sum(b.values()) - tp
            zs.fn += sum(a.values()) - tp
            if ps is not None:
                zs.unnamed += min(sum(a.values()) - tp, ps.unread_faces.get(zone, 0))
            if a != b:
                err = f"t={t_end:.2f}s {zone}: true {sorted(a.elements())} read {sorted(b.elements())}"
                if zone.startswith("iverify"):
                    score.iverify_errors.append(err)
                else:
                    bad_at.append((t_end, err))
        if ps is not None:
            # under a cover (the dealer's arm over the shuffler) the LCD cannot be read: nothing read is right
            score.lcd_ok += ts.lcd == ps.lcd or ("lcd" in occluded and ps.lcd is None)
            tv, pv = ts.iverify, ps.iverify
            # under a cover the display's content cannot be seen: only "not visible" is scored then
            score.iverify_ok += (
                (tv.visible, tv.mode, tv.seat) == (pv.visible, pv.mode, pv.seat)
                if tv.visible
                else not pv.visible
            )
            for s in ts.seats:
                score.chips_total += 1
                with contextlib.suppress(KeyError):
                    got = ps.seat(s.seat)
                    score.chips_ok += (s.chips, s.payout) == (got.chips, got.payout)
    for rnd, t0, t1 in rounds:
        score.rounds += 1
        errs = [m for t, m in bad_at if t0 <= t <= (t1 if t1 is not None else float("inf"))]
        score.card_errors.extend(f"round {rnd}: {m}" for m in errs)
        if errs:
            score.round_errors.append(
                f"round {rnd}: {errs[0]}" + (f" (+{len(errs) - 1} more)" if len(errs) > 1 else "")
            )
        else:
            score.rounds_exact += 1
    return score


def evaluate_clip(
    clip: Path,
    *,
    detector: CardDetector | None = None,
    truth_boxes: bool = False,
    config: Any = None,
    settle_s: float = 1.0,
    layout: TableLayout | None = None,
) -> ClipScore:
    """Run the pipeline over ``clip`` and score it against ``<clip>.states.jsonl`` / ``.truth.json``."""
    from compliance.events import ClipTruth
    from vision.pipeline import READ_AHEAD, READ_AHEAD_MB, PipelineConfig, TablePipeline, shrunk_frame
    from vision.sources import iter_frames

    stem = clip.with_suffix("")
    truth_path = Path(f"{stem}.truth.json")
    if not truth_path.exists():
        raise EvalError(f"{truth_path}: ground truth not found for {clip}")
    try:
        truth = ClipTruth.model_validate_json(truth_path.read_text())
    except ValueError as e:
        raise EvalError(f"{truth_path}: not a ClipTruth: {e}") from e
    lay = layout or load_layout(truth_path.parent / truth.layout)
    states = read_states(Path(f"{stem}.states.jsonl"))
    if truth_boxes:
        detector = TruthDetector(Path(f"{stem}.boxes.jsonl.gz"))
    cfg = config or PipelineConfig()
    if detector is None:
        from vision.pipeline import coarse_camera, load_shipped_detector

        detector = load_shipped_detector(coarse_camera(lay))
    pipe = TablePipeline(lay, detector, cfg)
    pred: list[TableState] = []
    frames = 0
    last = 0
    for fr in iter_frames(
        clip,
        analyse_fps=cfg.analyse_fps,
        read_ahead=READ_AHEAD,
        read_ahead_mb=READ_AHEAD_MB,
        prepare=shrunk_frame,
    ):
        if fr.image is None:
            continue
        frames += 1
        last = fr.frame
        st = pipe.process(fr.frame, fr.t, fr.image, fr.prepared)
        if st is not None:
            pred.append(st)
    rounds = [(r.round, r.t_start, r.t_end) for r in truth.rounds]
    n_frames = max(truth.frames, last + 1)
    score = score_states(
        clip.name, states, pred, fps=truth.fps, n_frames=n_frames, rounds=rounds, settle_s=settle_s
    )
    score.detector_calls = pipe.detector_calls
    score.frames_analysed = frames
    return score
