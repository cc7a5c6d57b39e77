"""How well the pipeline tells that the camera's view moved (``vision._view_watch``), on rendered clips.

    .venv/bin/python benchmarks/view_watch.py sample_footage/*.mp4 [--knock-px 12] [--turn-deg 0.5]

Each clip is read three ways, at the checks' own pace (one frame every ``PipelineConfig.view_check_s``
seconds of footage, as the pipeline checks): as it is (every move reported is a false one; the
largest shift measured in place is printed), knocked ``--knock-px`` pixels (to the right and half
as far down) from its middle on, and turned ``--turn-deg`` degrees about its centre from its middle
on (each: reported or not, how long after the knock, the shift reported). Prints a line per clip and
the totals.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _frames(clip: Path, every_s: float) -> tuple[float, list[tuple[float, np.ndarray]]]:
    cap = cv2.VideoCapture(str(clip))
    if not cap.isOpened():
        raise SystemExit(f"error: {clip}: cannot open")
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    out, i, next_t = [], 0, 0.0
    while cap.grab():
        t = i / fps
        if t >= next_t:
            ok, img = cap.retrieve()
            if ok:
                out.append((t, img))
            next_t = t + every_s
        i += 1
    return i / fps, out


def _moved(img: np.ndarray, dx: float, dy: float, deg: float) -> np.ndarray:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    m[:, 2] += (dx, dy)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def main() -> int:
    from vision._view_watch import ViewWatch
    from vision.pipeline import PipelineConfig

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clips", type=Path, nargs="+")
    ap.add_argument("--knock-px", type=float, default=12.0)
    ap.add_argument("--turn-deg", type=float, default=0.5)
    a = ap.parse_args()
    cfg = PipelineConfig()
    every = cfg.view_check_s or 4.0
    false_moves = knocks_seen = turns_seen = 0
    worst_in_place = 0.0
    delays: list[float] = []
    for clip in a.clips:
        length, frames = _frames(clip, every)
        mid = length / 2
        row = [clip.name]
        for kind in ("as is", "knocked", "turned"):
            vw = ViewWatch(every_s=every, moved_share=cfg.view_moved_share)
            seen: tuple[float, float] | None = None
            for t, img in frames:
                if kind != "as is" and t >= mid:
                    dx, deg = (a.knock_px, 0.0) if kind == "knocked" else (0.0, a.turn_deg)
                    img = _moved(img, dx, dx / 2, deg)
                elif kind == "as is":
                    shift = vw.measure(img) if vw._ref is not None else None
                    worst_in_place = max(worst_in_place, shift or 0.0)
                if vw.update(img, t) and vw.shift_px is not None and seen is None:
                    seen = (t, vw.shift_px)
            if kind == "as is":
                false_moves += seen is not None
                row.append("false move" if seen else "in place")
            elif seen is None:
                row.append(f"{kind}: missed")
            else:
                delays.append(seen[0] - mid)
                knocks_seen += kind == "knocked"
                turns_seen += kind == "turned"
                row.append(f"{kind}: {seen[1]:.1f} px after {seen[0] - mid:.1f} s")
        print("  ".join(row), flush=True)
    n = len(a.clips)
    w, h = 1920, 1080
    print(
        f"{n} clips: false moves {false_moves}; largest shift measured in place {worst_in_place:.2f} px; "
        f"knocks of {math.hypot(a.knock_px, a.knock_px / 2):.1f} px reported {knocks_seen}/{n}, turns of "
        f"{a.turn_deg:g} deg ({math.hypot(w, h) / 2 * math.radians(a.turn_deg):.1f} px at a 1080p corner) "
        f"{turns_seen}/{n}; reported {min(delays, default=0):.1f}-{max(delays, default=0):.1f} s after"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
