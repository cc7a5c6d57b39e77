"""The stage-1 training set of det 7 (models/detector_recipe.json): table tiles and still-like scenes.

    .venv/bin/python scripts/still_mix.py --table T7 --scenes S7 --val-data D5 --out dm7

Stage 1 up to det 6 learnt from table tiles alone (``export-table-training``): card backs on the
camera's felt. On a still's backgrounds (``benchmarks/photo_stills.py``) it boxed no back at all. This
mixes every training scene of ``--scenes`` (an ``export-training`` folder: cards, backs and piles of
backs on random backgrounds, at many sizes and angles) with ``--table-tiles`` tiles of ``--table``
(an ``export-table-training`` folder): every tile cut from a zone view that holds a labelled Joker
(its ``cls/train/c52`` crops name the views), then others drawn with ``random.seed(--seed)``, so the
camera's cards are trained on as much as the stills'. ``--val`` tiles of ``--val-data`` (held-out
decks) serve ultralytics' closing validation. Writes ``OUT/det/{images,labels}/{train,val}``
(symlinks) and ``OUT/det/data.yaml``: give ``--data OUT`` to ``paigow-monitor train-detector``.
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path


def _label(image: Path) -> Path:
    return image.parent.parent.parent / "labels" / image.parent.name / f"{image.stem}.txt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", type=Path, required=True, help="an export-table-training folder")
    ap.add_argument("--scenes", type=Path, required=True, help="an export-training folder")
    ap.add_argument("--val-data", type=Path, required=True, help="held-out tiles for the closing validation")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--table-tiles", type=int, default=3400)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    table, scenes, held = a.table.resolve(), a.scenes.resolve(), a.val_data.resolve()
    out = a.out.resolve() / "det"
    tiles = sorted((table / "det/images/train").glob("*.jpg"))
    stills = sorted((scenes / "det/images/train").glob("*.jpg"))
    if not tiles or not stills:
        raise SystemExit(f"no training images in {table if not tiles else scenes}/det/images/train")
    views = {p.name.rsplit("_", 1)[0] for p in (table / "cls/train/c52").glob("*.png")}
    joker = [t for t in tiles if t.stem.rsplit("_", 1)[0] in views][: a.table_tiles]
    rest = [t for t in tiles if t.stem.rsplit("_", 1)[0] not in views]
    random.seed(a.seed)
    taken = joker + random.sample(rest, min(a.table_tiles - len(joker), len(rest)))
    val = random.sample(sorted((held / "det/images/val").glob("*.jpg")), a.val)
    for split, items in (("train", taken + stills), ("val", val)):
        for sub in ("images", "labels"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
        for t in items:
            # the two exports name their files alike: a prefix keeps them apart, the table tiles first
            # (train-detector takes the tile size, so the scale stage 1 reads at, from the first image)
            name = ("b_scene_" if t.is_relative_to(scenes) else "a_table_") + t.stem
            os.symlink(t, out / "images" / split / f"{name}.jpg")
            os.symlink(_label(t), out / "labels" / split / f"{name}.txt")
    (out / "data.yaml").write_text(
        f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n  1: back\n"
    )
    print(f"{out}: {len(taken)} table tiles ({len(joker)} Joker views), {len(stills)} scenes, {len(val)} val")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
