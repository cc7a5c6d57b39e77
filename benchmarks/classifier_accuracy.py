"""The shipped index classifier (stage 2) on held-out-deck crops: per deck, and by confidence.

    .venv/bin/python benchmarks/classifier_accuracy.py --data D3 [--models models]
    .venv/bin/python benchmarks/classifier_accuracy.py --data D720 --classifier models/card_cls_coarse.onnx

``D3`` is a ``paigow-monitor export-table-training`` folder: its ``cls/val/cNN/*.png`` crops come
from the held-out decks, and its ``zones/*.json`` name each validation round's deck (the crop file
names carry the round). Prints, with one view, with the detector's turned-view average, and with its
narrow look (``--narrow-look``: a doubtful crop read again cut narrower, for condensed fonts):
top-1 over every crop and over index crops only; per deck the index top-1 and how many errors
are of the rank or of the suit; and for confidence cuts the share of index crops kept and how
many of those are right (what a confidence gate downstream would see). ``--confusions N``: also the
N commonest misreads among index crops, of the rank (``T->9``, suits aside) and of the suit (``s->c``,
the rank right), each with how many of them the detector would name (at its floor, not contested).
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
    ap.add_argument(
        "--classifier",
        type=Path,
        help="the classifier to score (default: MODELS/card_cls.onnx; the coarse camera's is "
        "models/card_cls_coarse.onnx)",
    )
    ap.add_argument(
        "--narrow-look",
        type=float,
        default=0.6,
        help="also score the detector's narrow look: turned views, and a crop less sure than this "
        "averaged with its middle columns stretched back (0: off)",
    )
    ap.add_argument("--confusions", type=int, default=0, help="print the N commonest misreads (0: none)")
    args = ap.parse_args()

    import cv2
    import onnxruntime as ort

    from vision.detector import (
        _CLS_FLOOR,
        _NARROW_VIEW,
        _class_names,
        _meta_imgsz,
        _narrow_look_reads,
        _narrowed,
    )
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
    cls_file = args.classifier or args.models / "card_cls.onnx"
    if not cls_file.is_file():
        print(f"{cls_file}: no such classifier", file=sys.stderr)
        return 2
    print(f"classifier: {cls_file}")
    sess = ort.InferenceSession(str(cls_file), providers=["CPUExecutionProvider"])
    inp = sess.get_inputs()[0]
    size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else _meta_imgsz(sess)
    names = _class_names(sess)
    crops, y = load_crops([val])  # as cut (the same sorted order as ``files``)

    def resized(a: np.ndarray) -> np.ndarray:
        out = [cv2.resize(c.transpose(1, 2, 0), (size, size), interpolation=cv2.INTER_LINEAR) for c in a]
        return np.stack(out).transpose(0, 3, 1, 2).astype(np.float32) / 255

    def probs(a: np.ndarray) -> np.ndarray:
        return np.concatenate([sess.run(None, {inp.name: a[i : i + 512]})[0] for i in range(0, len(a), 512)])

    def turned(a: np.ndarray) -> np.ndarray:
        return (probs(a) + probs(np.ascontiguousarray(a[:, :, ::-1, ::-1]))) / 2

    x = resized(crops)
    p1 = probs(x)
    views = {"one view": p1, "turned views": (p1 + probs(np.ascontiguousarray(x[:, :, ::-1, ::-1]))) / 2}
    contested = {name: np.zeros(len(y), bool) for name in views}
    if args.narrow_look > 0:  # as OnnxCardDetector._read_indices; the crops' indices stand upright
        p = views["turned views"].copy()
        doubt = np.flatnonzero(p.max(1) < args.narrow_look)
        name = f"turned views + narrow look below {args.narrow_look}"
        contested[name] = np.zeros(len(y), bool)
        if len(doubt):
            cut = [_narrowed(crops[i].transpose(1, 2, 0), _NARROW_VIEW, across_x=True) for i in doubt]
            narrow = turned(resized(np.stack([n.transpose(2, 0, 1) for n in cut])))
            p[doubt], contested[name][doubt] = _narrow_look_reads(p[doubt], narrow, names, _CLS_FLOOR)
        views[name] = p
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
        read = index & (pred != 53) & (conf >= _CLS_FLOOR) & ~contested[name]
        right = int((read & (pred == y)).sum())
        print(
            f"  named at the detector's floor (p >= {_CLS_FLOOR}, a contested narrow look unnamed): "
            f"precision {right / max(1, int(read.sum())):.4f}, recall {right / index.sum():.4f}, "
            f"{int((read & (pred != y)).sum())} wrong, {int(index.sum() - read.sum())} unnamed"
        )
        for cut in (0.5, 0.7, 0.9):
            kept = index & (conf >= cut) & (pred != 53)
            print(
                f"  confidence >= {cut}: {kept.sum() / index.sum():.3f} of indices kept, "
                f"{np.mean(pred[kept] == y[kept]):.4f} of those right"
            )
        if args.confusions:
            _print_confusions(y, pred, index, read, decks, args.confusions)
    return 0


def _print_confusions(
    y: np.ndarray, pred: np.ndarray, index: np.ndarray, named: np.ndarray, decks: np.ndarray, n: int
) -> None:
    """The commonest misreads of index crops between faces: of the rank, and of the suit alone, each
    with how many the detector would name and the decks they come from."""
    from collections import Counter

    ranks: Counter[str] = Counter()
    suits: Counter[str] = Counter()
    ranks_named: Counter[str] = Counter()
    suits_named: Counter[str] = Counter()
    where: dict[str, Counter[str]] = defaultdict(Counter)
    from vision.detections import CLASSES

    for i in np.flatnonzero(index & (pred != y) & (y < 52) & (pred < 52)):
        t, q = CLASSES[int(y[i])], CLASSES[int(pred[i])]  # class ids, as ``y`` and ``pred`` hold
        key, box, box_named = (
            (f"{t[:-1]}->{q[:-1]}", ranks, ranks_named)
            if t[:-1] != q[:-1]
            else (f"{t[-1]}->{q[-1]}", suits, suits_named)
        )
        box[key] += 1
        box_named[key] += int(named[i])
        where[key][str(decks[i])] += 1
    for what, box, box_named in (("rank", ranks, ranks_named), ("suit", suits, suits_named)):
        print(f"  commonest {what} misreads:" + ("" if box else " none"))
        for k, v in box.most_common(n):
            by_deck = ", ".join(f"{d} {c}" for d, c in where[k].most_common())
            print(f"    {k:6s} {v:4d} ({box_named[k]} named; {by_deck})")


if __name__ == "__main__":
    raise SystemExit(main())
