"""The stage-1 training set of det 6 (models/detector_recipe.json): Joker-rich tiles, as symlinks.

    .venv/bin/python scripts/joker_subset.py --joker-data DJ --val-data D5 --out dj6

``--joker-data`` is an ``export-table-training --synthetic-jokers 1.0`` folder. Every one of its
training tiles cut from a zone view that holds a labelled Joker (its ``cls/train/c52`` crops name
the views) is taken, and as many of its other tiles drawn with ``random.seed(--seed)`` (so the
other cards are trained on as much); ``--val`` tiles of ``--val-data`` (held-out decks) are drawn
with the same seed for ultralytics' closing validation. Writes ``OUT/det/{images,labels}/{train,val}``
(symlinks) and ``OUT/det/data.yaml``: give ``--data OUT`` to ``paigow-monitor train-detector``.
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--joker-data", type=Path, required=True)
    ap.add_argument("--val-data", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=6)
    a = ap.parse_args()
    from render.training import write_det_spec

    src, held, out = a.joker_data.resolve(), a.val_data.resolve(), a.out.resolve() / "det"
    views = {p.name.rsplit("_", 1)[0] for p in (src / "cls/train/c52").glob("*.png")}
    tiles = sorted((src / "det/images/train").glob("*.jpg"))
    if not views or not tiles:
        raise SystemExit(f"{src}: no Joker crops or no training tiles (export with --synthetic-jokers)")
    joker = [t for t in tiles if t.stem.rsplit("_", 1)[0] in views]
    rest = [t for t in tiles if t.stem.rsplit("_", 1)[0] not in views]
    random.seed(a.seed)
    train = joker + random.sample(rest, min(len(joker), len(rest)))
    val = random.sample(sorted((held / "det/images/val").glob("*.jpg")), a.val)
    for split, items in (("train", train), ("val", val)):
        for sub in ("images", "labels"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
        for t in items:
            label = t.parent.parent.parent / "labels" / t.parent.name / f"{t.stem}.txt"
            os.symlink(t, out / "images" / split / t.name)
            os.symlink(label, out / "labels" / split / label.name)
    write_det_spec(out)
    print(f"{out}: {len(joker)} Joker-view tiles + {len(train) - len(joker)} others; {len(val)} val")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
