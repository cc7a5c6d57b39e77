"""Card detector speed: ms per ``detect()`` call on one onnxruntime thread, and peak memory.

Runs the shipped two-stage ONNX detector (models/) over zone-like crops rendered from a held-out
deck (a spread hand and a row of cards on felt, a few hundred pixels wide, as the camera pipeline
feeds it) and prints the median and 90th-percentile ms per call and the process's peak RSS.

    .venv/bin/python benchmarks/detector_speed.py [--threads 1] [--calls 60]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--calls", type=int, default=60)
    ap.add_argument("--models", type=Path, default=None)
    args = ap.parse_args()

    from render.artwork import VALIDATION_DECKS
    from render.training import render_scene
    from vision.detector import load_detector

    # as the camera pipeline loads it (vision.pipeline.load_shipped_detector): a crop read at its own
    # scale in 256-px tiles; plain load_detector() letterboxes it down to one 256-px input (faster)
    det = load_detector(args.models, threads=args.threads, upscale=1.0, tile=True)
    crops = []
    for i in range(8):
        rng = np.random.default_rng([99, i])
        deck = VALIDATION_DECKS[i % len(VALIDATION_DECKS)]
        img, _ = render_scene(rng, deck, int(rng.integers(280, 420)), int(rng.integers(200, 320)), [deck])
        crops.append(img)
    for c in crops[:3]:  # warm-up
        det.detect(c)
    times, n_found = [], 0
    for k in range(args.calls):
        img = crops[k % len(crops)]
        t0 = time.perf_counter()
        found = det.detect(img)
        times.append((time.perf_counter() - t0) * 1000)
        n_found += len(found)
    widths = [c.shape[1] for c in crops]
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(
        f"detector: stage-1 input {det.imgsz} px, classifier input {det.cls_imgsz} px, "
        f"{args.threads} onnxruntime thread(s)"
    )
    print(
        f"crops: {len(crops)} zone-like images {min(widths)}-{max(widths)} "
        f"px wide; {n_found / args.calls:.1f} cards found per call"
    )
    print(
        f"ms per detect() call: median {statistics.median(times):.1f}, p90 {p90:.1f}, "
        f"min {times[0]:.1f} over {args.calls} calls"
    )
    print(f"peak RSS: {rss_mb:.0f} MB")


if __name__ == "__main__":
    main()
