"""The shipped index classifier (stage 2) on held-out-deck crops: per deck, and by confidence.

    .venv/bin/python benchmarks/classifier_accuracy.py --data D3 [--models models]

``D3`` is a ``paigow-monitor export-table-training`` folder: its ``cls/val/cNN/*.png`` crops come
from the held-out decks, and its ``zones/*.json`` name each validation round's deck (the crop file
names carry the round). Prints, with one view and with the detector's turned-view average:
top-1 over every crop and over index crops only; per deck the index top-1 and how many errors
are of the rank or of the suit; and for confidence cuts the share of index crops kept and how
many of those are right (what a confidence gate downstream would see).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, required=True, help="an export-table-training folder")
    ap.add_argument("--models", type=Path, default=ROOT / "models", help="folder with card_cls.onnx")
    args = ap.parse_args()

    import onnxruntime as ort

    from vision.detector import _class_names, _meta_imgsz
    from vision.index_classifier import load_crops

    val = args.data / "cls" / "val"
    deck_of = {
        p.name.split("_")[1]: json.loads(p.read_text())["deck"] for p in (args.data / "zones").glob("*.json")
    }
    files = [
        (int(d.name[1:]), f) for d in sorted(val.iterdir()) if d.is_dir() for f in sorted(d.glob("*.png"))
    ]
    if not files or not deck_of:
        print(f"{args.data}: no cls/val crops or zones/*.json (run export-table-training)", file=sys.stderr)
        return 2
    sess = ort.InferenceSession(str(args.models / "card_cls.onnx"), providers=["CPUExecutionProvider"])
    inp = sess.get_inputs()[0]
    size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else _meta_imgsz(sess)
    names = _class_names(sess)
    x_u8, y = load_crops([val], imgsz=size)  # the same sorted order as ``files``
    x = x_u8.astype(np.float32) / 255

    def probs(a: np.ndarray) -> np.ndarray:
        return np.concatenate([sess.run(None, {inp.name: a[i : i + 512]})[0] for i in range(0, len(a), 512)])

    p1 = probs(x)
    views = {"one view": p1, "turned views": (p1 + probs(np.ascontiguousarray(x[:, :, ::-1, ::-1]))) / 2}
    decks = np.array([deck_of.get(f.name.split("_")[1], "?") for _, f in files])
    index = y != 53
    print(f"{len(y)} held-out crops ({int(index.sum())} of indices), decks: {', '.join(sorted(set(decks)))}")
    for name, p in views.items():
        pred, conf = names[p.argmax(1)], p.max(1)
        print(
            f"\n{name}: top-1 {np.mean(pred == y):.4f}, on index crops {np.mean(pred[index] == y[index]):.4f}"
        )
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for d, t, q in zip(decks[index], y[index], pred[index], strict=True):
            s = per[d]
            s[0] += 1
            s[1] += int(q == t)
            s[2] += int(q != t and q < 52 and t < 52 and q // 4 != t // 4)
            s[3] += int(q != t and q < 52 and t < 52 and q % 4 != t % 4)
        for d, (n, right, rank, suit) in sorted(per.items()):
            print(f"  {d:12s} {n:5d} indices  top-1 {right / n:.3f}  rank wrong {rank}  suit wrong {suit}")
        for cut in (0.5, 0.7, 0.9):
            kept = index & (conf >= cut) & (pred != 53)
            print(
                f"  confidence >= {cut}: {kept.sum() / index.sum():.3f} of indices kept, "
                f"{np.mean(pred[kept] == y[kept]):.4f} of those right"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
