"""How sure a card read is, and how often it is right: the shipped detector's raw index reads on
held-out-deck zone crops, by read confidence.

    .venv/bin/python benchmarks/read_calibration.py --data D5 [--models models] [--no-pair-corners]

``D5`` is a ``paigow-monitor export-table-training`` folder (its ``zones/`` are the held-out
rounds' whole region crops with their truth). Every index read (before a card's two indices are
joined; backs left out) is scored as ``eval-detector`` scores one: right when that card is in
the frame, labelled, and the read's centre lies on it; wrong when not; neither when the card lies
there too covered to be labelled. The confidence is what the pipeline passes on
(``TableState.card_confidence``): the stage-1 score x the classifier's p. Printed for cuts of it,
and of p alone: the share of reads kept and how many of those are right - what
``MonitorConfig.review_below`` and ``PipelineConfig.min_confidence`` gate; the reads kept under the
review level (0.4 to 0.7) by p alone (where stage 1 doubts the index more than the classifier doubts
its face: whether such a read is as sure as the review level says); and the reads under that floor
(0.4) whose p is 0.9 or more. ``export-table-training --image-size 1280x720`` cuts the held-out
rounds from a 720p camera's frames (D720).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CUTS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, required=True, help="an export-table-training folder")
    ap.add_argument("--models", type=Path, default=None, help="folder with the detector (default: models/)")
    ap.add_argument(
        "--no-pair-corners",
        action="store_true",
        help="read a card's two index corners apart (the detector's pair_corners off)",
    )
    args = ap.parse_args()

    import cv2

    from render.training import Scene
    from vision.detections import BACK_CLASS, Detections
    from vision.detector import OnnxCardDetector, load_detector
    from vision.training import _match_image, _zone_card_scale

    zones = sorted((args.data / "zones").glob("*.jpg"))
    if not zones:
        print(f"{args.data}: no zones/*.jpg (run paigow-monitor export-table-training)", file=sys.stderr)
        return 2
    det = load_detector(args.models, conf=0.3, tile=True, cls_conf=0.3, pair_corners=not args.no_pair_corners)

    # the stage-1 score of each index box, kept as stage 2 reads it (a read's confidence is score x p)
    scores: dict[tuple[float, ...], float] = {}
    read = OnnxCardDetector._read_indices

    def keep_scores(
        self: OnnxCardDetector,
        image: np.ndarray,
        xyxy: np.ndarray,
        cls: np.ndarray,
        score: np.ndarray,
        body_px_per_mm: float | None = None,
    ) -> tuple[Detections, np.ndarray]:
        scores.clear()
        scores.update({tuple(np.round(b, 2).tolist()): float(s) for b, s in zip(xyxy, score, strict=True)})
        return read(self, image, xyxy, cls, score, body_px_per_mm)

    OnnxCardDetector._read_indices = keep_scores  # type: ignore[method-assign]
    rows: list[tuple[float, float, bool]] = []
    for p in zones:
        scene = Scene.model_validate_json(p.with_suffix(".json").read_text())
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            print(f"{p}: not a readable image", file=sys.stderr)
            return 2
        # a zone is read as the pipeline reads it, the card bodies under doubtful indices too
        raw = det.detect_raw(img, _zone_card_scale(p.stem))
        for i in range(len(raw)):
            if raw.class_id[i] == BACK_CLASS:
                continue
            m = _match_image(raw[i : i + 1], scene)
            right, wrong = sum(m["tp"].values()), sum(m["fp"].values())
            if right + wrong == 0:
                continue  # a card too covered to be labelled: neither
            s = scores.get(tuple(np.round(raw.xyxy[i], 2).tolist()))
            conf = float(raw.confidence[i])
            rows.append((conf, conf / s if s else float("nan"), right > 0))
    a = np.array(rows, dtype=float).reshape(-1, 3)
    ok = a[:, 2] > 0
    print(f"{args.data}: {len(a)} index reads on {len(zones)} held-out zone crops")
    for name, v in (("read confidence (stage-1 score x p)", a[:, 0]), ("classifier p alone", a[:, 1])):
        print(name)
        for lo in CUTS:
            kept = v >= lo
            if not kept.any():
                print(f"  >= {lo}: none")
                continue
            print(
                f"  >= {lo}: kept {kept.mean():.3f}, right {ok[kept].mean():.4f} "
                f"({int((~ok[kept]).sum())} wrong of {int(kept.sum())})"
            )
    # reads the camera keeps (the floor, 0.4) under the review level (MonitorConfig.review_below, 0.7),
    # by the classifier's p alone: how often the face is right where stage 1 doubts the index more
    # than the classifier doubts its face
    doubt = (a[:, 0] >= 0.4) & (a[:, 0] < 0.7)
    n = int(doubt.sum())
    right = f", right {ok[doubt].mean():.4f}" if n else ""
    print(f"reads kept (>= 0.4) under the review level (0.7): {n}{right}")
    for lo in (0.7, 0.8, 0.9, 0.95):
        sel = doubt & (a[:, 1] >= lo)
        if sel.any():
            wrong = int((~ok[sel]).sum())
            print(f"  of them p >= {lo}: {int(sel.sum())}, right {ok[sel].mean():.4f} ({wrong} wrong)")
    # reads under the pipeline's floor (PipelineConfig.min_confidence, 0.4) that the classifier is
    # sure of: what a "sure class" exception to the floor would keep (models/HISTORY.md: Jokers)
    under = (a[:, 0] < 0.4) & (a[:, 1] >= 0.9)
    n = int(under.sum())
    kept = f"right {ok[under].mean():.4f} ({int((~ok[under]).sum())} wrong of {n})" if n else "none"
    print(f"read < 0.4 but classifier p >= 0.9: {kept}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
