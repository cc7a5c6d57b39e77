"""The shipped detector on still images far from its trained card size: one scale vs the pyramid.

    .venv/bin/python benchmarks/detect_scales.py

Rows of five held-out-deck cards (``tests/test_detector_model.py::_row_of_cards``, cards ~102 px
wide: the pipeline's scale) are resized by each factor and read once at one scale (tiled, as the
camera pipeline reads) and once through ``vision.detector.pyramid_scales`` as ``paigow-monitor
detect`` reads a still. Prints, per deck and factor, right/wrong cards for each and the pyramid's
time (the machine may be shared).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_detector_model import _row_of_cards  # noqa: E402

from vision.detector import load_detector, pyramid_scales  # noqa: E402


def main() -> int:
    one = load_detector(tile=True)
    print("deck        factor  one scale (right/wrong)  pyramid (right/wrong)  pyramid s  scales")
    for deck in ("tigullio", "simplistic", "plastic"):
        img, truth = _row_of_cards(deck)
        want = {t[0] for t in truth}
        for f in (0.2, 0.25, 0.5, 1.0, 2.0, 4.0, 6.0):
            interp = cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC
            im = cv2.resize(img, None, fx=f, fy=f, interpolation=interp)
            a = set(one.detect(im).labels)
            pyr = load_detector(tile=True, scales=pyramid_scales(im.shape[1], im.shape[0], one.imgsz))
            t0 = time.perf_counter()
            b = set(pyr.detect(im).labels)
            dt = time.perf_counter() - t0
            print(
                f"{deck:<11} x{f:<6} {len(a & want)}/{len(a - want):<23} {len(b & want)}/{len(b - want):<20} "
                f"{dt:>8.1f}  {pyr.scales}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
