"""Stage 1 per tile: the whole ONNX model against the model cut before its box branch
(``vision._sparse_head``), on the tiles the pipeline really reads; and the frame thumbnail's cost.

    .venv/bin/python benchmarks/stage1_speed.py [CLIP.mp4] [--tiles 120]

Without CLIP it uses the 720p clip ``benchmarks/vision_fps.py`` renders into .cache/bench/. It runs the
pipeline over the clip until stage 1 has been asked ``--tiles`` tiles, keeps them, then times on them
(one onnxruntime thread, ``cv2.setNumThreads(1)``):
- ms per tile for the whole model and for the cut one (at the detector's floor), and the largest
  difference between their decoded boxes (the same finds are asserted);
- ms per 1280x720 frame for the thumbnail: one 4x area resize against ``vision.pipeline.shrunk_frame``
  (halved twice, the half-size frame kept on the way).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _per_call_ms(call: Callable[[np.ndarray], object], items: list[np.ndarray], rounds: int = 3) -> float:
    """The best of ``rounds`` passes over ``items``, in ms a call."""
    call(items[0])
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for x in items:
            call(x)
        best = min(best, (time.perf_counter() - t0) / len(items) * 1000)
    return best


def _give_up(why: str) -> NoReturn:
    print(why, file=sys.stderr)
    raise SystemExit(2)


def stage1_inputs(clip: Path | None, tiles: int) -> tuple[Any, Path, list[np.ndarray]]:
    """The shipped detector as the camera pipeline loads it, the clip (None: the 720p bench clip) and
    the first ``tiles`` inputs its stage 1 is given as ``watch`` reads the clip, each as the model gets
    it. Where there are none (no clip, no layout beside it) it says why on stderr and ends the script
    (exit 2)."""
    from vision_fps import _clip_720p

    from vision.layout import load_layout
    from vision.pipeline import PipelineConfig, load_shipped_detector, watch

    clip = clip or _clip_720p()
    if clip is None or not clip.exists():
        _give_up("no clip to measure")
    layout_file = next(iter(sorted(clip.parent.glob("*.layout.yaml"))), None)
    if layout_file is None:
        _give_up(f"{clip.parent}: no *.layout.yaml beside the clip")
    det: Any = load_shipped_detector(True)  # the ONNX detector: its stage 1 (``_det``) and floors
    head = det._det
    kept: list[np.ndarray] = []
    run = head.run

    def keep(x: np.ndarray, floor: float) -> np.ndarray:
        kept.append(x.copy())
        out: np.ndarray = run(x, floor)
        return out

    head.run = keep
    try:
        for _ in watch(clip, load_layout(layout_file), detector=det, config=PipelineConfig()):
            if len(kept) >= tiles:
                break
    finally:
        head.run = run
    return det, clip, kept


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clip", nargs="?", type=Path, help="a rendered clip (default: the 720p bench clip)")
    ap.add_argument("--tiles", type=int, default=120, help="tiles to keep from the pipeline")
    args = ap.parse_args()
    cv2.setNumThreads(1)

    from vision.detector import decode_yolo
    from vision.pipeline import shrunk_frame

    det, clip, kept = stage1_inputs(args.clip, args.tiles)
    head = det._det
    if not head.sparse:
        print("the shipped stage 1 could not be cut (it runs whole)", file=sys.stderr)
        return 1
    run = head.run
    name = head.input.name

    def whole(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = head._full.run(None, {name: x})[0]
        return out

    def cut(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = run(x, det.conf)
        return out

    worst = 0.0
    for x in kept:
        a, b = decode_yolo(whole(x), det.conf, det.iou), decode_yolo(cut(x), det.conf, det.iou)
        assert len(a[0]) == len(b[0]) and (a[1] == b[1]).all(), "the cut model found other things"
        if len(a[0]):
            worst = max(worst, float(np.abs(a[0] - b[0]).max()))
    print(f"clip: {clip.name}; {len(kept)} tiles stage 1 read in the pipeline")
    print(f"stage 1, whole model: {_per_call_ms(whole, kept):6.2f} ms a tile")
    cut_ms = _per_call_ms(cut, kept)
    print(f"stage 1, cut model:   {cut_ms:6.2f} ms a tile (same finds; boxes within {worst:.1e} px)")

    cap = cv2.VideoCapture(str(clip))
    ok, frame = cap.read()
    cap.release()
    if ok:
        frame = cv2.resize(frame, (1280, 720), interpolation=cv2.INTER_AREA)
        frames = [frame] * 50
        area = _per_call_ms(lambda f: cv2.resize(f, (320, 180), interpolation=cv2.INTER_AREA), frames)
        halved = _per_call_ms(shrunk_frame, frames)
        print(f"thumbnail, 1280x720: one 4x area resize {area:.2f} ms, halved twice {halved:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
