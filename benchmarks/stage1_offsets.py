"""How much stage 1's score of an index moves with where the index falls in the model's input: the
looks the camera pipeline's overlapping tiles give it.

    .venv/bin/python benchmarks/stage1_offsets.py [CLIP.mp4] [--tiles 150] [--shifts 0,6,13,19,26]

Without CLIP it uses the 720p clip ``benchmarks/vision_fps.py`` renders into .cache/bench/. It runs
the pipeline over the clip until stage 1 has read ``--tiles`` tiles, keeps them (as the model gets
them), and takes every index stage 1 found in them at the detector's floor lying at least 40 px inside
its tile (an index found in several tiles or frames counts once each). Each tile is then laid into
the model's input moved by every pair of ``--shifts`` (px right and down; the strip moved out is
grey, as the letterbox pads): the same pixels around each index, seen on the model's 8-, 16- and
32-px grids from other offsets. For each index it takes the score of the surest index box over it
(IoU 0.5) at each offset, 0 where none is found at all. Prints:
- the spread of each index's score over the offsets (largest less smallest: quartiles);
- the share of indices some offset scores under the floor (a single look there would not find it),
  and the share of all (index, offset) looks under it: how often one look alone misses;
- the same for the weak ones only (stage 1's score under 0.6 in the tile as it was read).

The fiftieth session read a seat's crop in one larger tile (models/HISTORY.md) and lost cards this
way: a weak index the overlapping 256-px tiles find from one of two to four offsets can score under
the floor from the one a single tile gives it. A stage 1 trained anew can be measured here for how
much it needs those looks.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

_INSIDE = 40  # px an index must lie inside its tile to be moved about without being cut
_WEAK = 0.6  # an index stage 1 scores under this in the tile as read is a weak one


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of one xyxy box ``a`` with each of ``b``."""
    from vision.detections import intersection_area

    inter = intersection_area(a, b)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    out: np.ndarray = inter / np.maximum(area - inter, 1e-9)
    return out


def _moved(x: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Model input ``x`` (1, 3, H, W) with its picture moved ``dx`` right and ``dy`` down, the strip
    left bare grey (114 / 255, the letterbox's)."""
    out = np.full_like(x, 114 / 255)
    h, w = x.shape[2:]
    out[:, :, dy:, dx:] = x[:, :, : h - dy, : w - dx]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clip", nargs="?", type=Path, help="a rendered clip (default: the 720p bench clip)")
    ap.add_argument("--tiles", type=int, default=150, help="tiles to keep from the pipeline")
    ap.add_argument("--shifts", default="0,6,13,19,26", help="px the picture is moved each way (< 40)")
    args = ap.parse_args()
    shifts = sorted({int(s) for s in args.shifts.split(",")})
    if not shifts or min(shifts) < 0 or max(shifts) >= _INSIDE:
        print(f"--shifts must lie in 0..{_INSIDE - 1}", file=sys.stderr)
        return 2

    import cv2

    cv2.setNumThreads(1)
    from stage1_speed import stage1_inputs

    from vision.detector import decode_yolo

    det, clip, kept = stage1_inputs(args.clip, args.tiles)
    run = det._det.run

    def finds(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index boxes and scores (every one a tenth of the floor or surer) in model input ``x``."""
        xyxy, cls, score = decode_yolo(run(x, det.conf / 10), det.conf / 10, det.iou)
        return xyxy[cls == 0], score[cls == 0]

    floor = det.conf
    rows: list[tuple[float, np.ndarray]] = []  # (score where read, scores at every offset)
    for x in kept:
        size = x.shape[2:]
        boxes, scores = finds(x)
        inside = (
            (boxes[:, 0] >= _INSIDE)
            & (boxes[:, 1] >= _INSIDE)
            & (boxes[:, 2] <= size[1] - _INSIDE)
            & (boxes[:, 3] <= size[0] - _INSIDE)
            & (scores >= floor)
        )
        if not inside.any():
            continue
        at = np.zeros((int(inside.sum()), len(shifts) ** 2), np.float32)
        for k, (dx, dy) in enumerate(itertools.product(shifts, shifts)):
            moved, got = finds(_moved(x, dx, dy))
            for i, b in enumerate(boxes[inside]):
                over = _iou(b + np.array([dx, dy, dx, dy], np.float32), moved) >= 0.5
                at[i, k] = float(got[over].max()) if over.any() else 0.0
        rows.extend(zip(scores[inside].tolist(), at, strict=True))
    if not rows:
        print("no index found inside the kept tiles", file=sys.stderr)
        return 1

    print(
        f"clip: {clip.name}; {len(kept)} stage-1 inputs kept; {len(rows)} index finds at the floor "
        f"({floor:g}) at least {_INSIDE} px inside their tile; {len(shifts) ** 2} offsets each ({shifts} px)"
    )
    for name, pick in (("all", lambda s: True), (f"weak (stage 1 under {_WEAK:g})", lambda s: s < _WEAK)):
        sel = [a for s, a in rows if pick(s)]
        if not sel:
            print(f"{name}: none")
            continue
        looks = np.stack(sel)
        spread = looks.max(1) - looks.min(1)
        q = np.percentile(spread, [25, 50, 75])
        some = float((looks.min(1) < floor).mean())
        each = float((looks < floor).mean())
        print(
            f"{name}: {len(sel)} finds; score spread over the offsets {q[0]:.2f} / {q[1]:.2f} / "
            f"{q[2]:.2f} (quartiles); under the floor at some offset {100 * some:.1f} % of them; "
            f"{100 * each:.1f} % of all looks"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
