"""What the card body tells of a card's suit, measured against the truth on held-out-deck zone crops.

    .venv/bin/python benchmarks/body_suits.py --data D5 [--data D6] [--models models]

``D5`` is a ``paigow-monitor export-table-training`` folder (its ``zones/`` are the held-out rounds'
whole region crops with their truth). Two figures, per deck and in all:

1. **Body looks.** The shipped detector reads every crop as ``eval-detector`` does (tiled, the card
   scale known, so a doubtful index is weighed by its card's body). Every body look is recorded (the index
   classifier's probabilities, the body model's, the ink colour) with the true card under the looked
   index (looks on no card, or on two, are left out). Printed: how many looks' reads are right (the
   surest class is the true card) by the index alone, weighed by the body's rank only, with the ink's
   colour (``vision.card_body.colour_weights``) or the body's spade against club where sure
   (``black_suit_weights``), and with both: the shipped ``fuse``. Reads made right and made wrong are counted
   against the rank-only weighing.
2. **Ink colour.** ``vision.card_body.ink_colour`` on the body window of every true top-left index
   (no detector): red, black or unknown against the card's suit colour, pip cards and court cards
   apart.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _looks(data: Path, models: Path | None) -> dict[str, list[Any]]:
    """Every body look of the shipped detector on ``data``'s zone crops, with the truth under it."""
    import cv2

    import vision.card_body as cb
    import vision.detector as det_mod
    from render.training import Scene
    from vision.training import _zone_card_scale

    det = det_mod.load_detector(models, tile=True)  # as eval-detector reads the zone crops
    out: dict[str, list[Any]] = {"index": [], "body": [], "colour": [], "truth": [], "deck": []}
    scene: dict[str, Any] = {}
    seen: dict[str, Any] = {}
    real_fuse = det_mod.fuse

    def fuse(index: np.ndarray, body: np.ndarray, columns: Any = None, colours: Any = None) -> np.ndarray:
        # reorder the classifier's columns to card codes, so every look is kept in one order
        order = np.asarray(columns) if columns is not None else np.arange(index.shape[1])
        by_code = np.zeros((len(index), cb.NO_BODY + 1), np.float32)
        by_code[:, order] = index
        for k, box in enumerate(seen["boxes"]):
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            under = [c for c, g in scene["gt"].items() if g[0] <= cx <= g[2] and g[1] <= cy <= g[3]]
            if len(under) != 1:
                continue
            out["index"].append(by_code[k])
            out["body"].append(body[k])
            out["colour"].append(colours[k] if colours is not None else cb.UNKNOWN)
            out["truth"].append(under[0])
            out["deck"].append(scene["deck"])
        return real_fuse(index, body, columns, colours)

    real_probs = cb.BodyReader.probs

    def probs(self: Any, image: np.ndarray, boxes: Any, all_boxes: np.ndarray, px: float) -> np.ndarray:
        seen["boxes"] = [np.asarray(b) for b in boxes]
        return real_probs(self, image, boxes, all_boxes, px)

    det_mod.fuse = fuse  # type: ignore[assignment]
    cb.BodyReader.probs = probs  # type: ignore[method-assign]
    try:
        for p in sorted((data / "zones").glob("*.jpg")):
            s = Scene.model_validate_json(p.with_suffix(".json").read_text())
            scene["gt"] = {o.card: o.card_xyxy for o in s.objects if o.kind == "index"}
            scene["deck"] = s.deck
            det.detect_with_unread(cv2.imread(str(p)), card_px_per_mm=_zone_card_scale(p.stem))
    finally:
        det_mod.fuse = real_fuse
        cb.BodyReader.probs = real_probs  # type: ignore[method-assign]
    return out


def _ink_census(data: Path) -> Counter[tuple[str, str, str]]:
    """(deck, pips|court, right|wrong|unknown) of ``ink_colour`` on each true top-left index's window."""
    import cv2

    from render.training import Scene
    from vision.card_body import BLACK, RED, UNKNOWN, body_window, ink_colour
    from vision.detections import CLASSES
    from vision.training import _zone_card_scale

    tally: Counter[tuple[str, str, str]] = Counter()
    for p in sorted((data / "zones").glob("*.jpg")):
        s = Scene.model_validate_json(p.with_suffix(".json").read_text())
        img = cv2.imread(str(p))
        idx = [o for o in s.objects if o.kind == "index"]
        boxes = np.array([o.xyxy for o in idx], np.float64).reshape(-1, 4)
        top_left: dict[int, Any] = {}
        for o in idx:
            if o.card not in top_left or o.xyxy[1] < top_left[o.card][1]:
                top_left[o.card] = o.xyxy
        for card, box in top_left.items():
            if card >= 52:
                continue
            said = ink_colour(body_window(img, np.array(box, np.float64), boxes, _zone_card_scale(p.stem)))
            true = RED if CLASSES[card][1] in "hd" else BLACK
            verdict = "unknown" if said == UNKNOWN else "right" if said == true else "wrong"
            tally[(s.deck, "court" if CLASSES[card][0] in "JQK" else "pips", verdict)] += 1
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--data", type=Path, action="append", required=True, help="export-table-training folder(s)"
    )
    ap.add_argument("--models", type=Path, default=None, help="folder with the detector (default: models/)")
    args = ap.parse_args()

    from vision.card_body import black_suit_weights, body_weights, colour_weights

    for data in args.data:
        if not (data / "zones").is_dir():
            print(f"{data}: no zones/ folder (run paigow-monitor export-table-training)", file=sys.stderr)
            return 2
    looks: dict[str, list[Any]] = {k: [] for k in ("index", "body", "colour", "truth", "deck")}
    tally: Counter[tuple[str, str, str]] = Counter()
    for data in args.data:
        for k, v in _looks(data, args.models).items():
            looks[k] += v
        tally += _ink_census(data)
    index, body = np.array(looks["index"]), np.array(looks["body"])
    truth, decks = np.array(looks["truth"]), np.array(looks["deck"])
    ways = {
        "index alone": np.ones_like(index),
        "body rank": body_weights(body),
        "rank + ink colour": body_weights(body) * colour_weights(looks["colour"]),
        "rank + spade/club": body_weights(body) * black_suit_weights(body),
        "rank + colour + spade/club (shipped)": body_weights(body)
        * colour_weights(looks["colour"])
        * black_suit_weights(body),
    }
    right = {name: (index * w).argmax(1) == truth for name, w in ways.items()}
    base = right["body rank"]
    print(f"body looks with one true card under them: {len(truth)} ({', '.join(map(str, args.data))})")
    for name, r in right.items():
        gained, lost = int((r & ~base).sum()), int((~r & base).sum())
        print(f"  {name:38s} right {int(r.sum()):5d}  made right {gained:3d}  made wrong {lost:3d}")
    print("  per deck (shipped vs body rank):")
    for deck in sorted(set(decks.tolist())):
        m = decks == deck
        r = right["rank + colour + spade/club (shipped)"][m]
        print(f"    {deck:14s} looks {int(m.sum()):4d}  right {int(base[m].sum()):4d} -> {int(r.sum()):4d}")
    print("ink colour of each true top-left index's body window (right / wrong / unknown):")
    for kind in ("pips", "court"):
        for deck in sorted({d for d, _, _ in tally}):
            n = [tally[(deck, kind, v)] for v in ("right", "wrong", "unknown")]
            print(f"  {kind:5s} {deck:14s} {n[0]:5d} / {n[1]:3d} / {n[2]:5d}")
        n = [
            sum(c for (_, k, v), c in tally.items() if k == kind and v == want)
            for want in ("right", "wrong", "unknown")
        ]
        print(f"  {kind:5s} {'all':14s} {n[0]:5d} / {n[1]:3d} / {n[2]:5d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
