"""Stage-1 training sets of table tiles and still-like scenes (det 7, det 8: models/detector_recipe.json).

    .venv/bin/python scripts/still_mix.py --table T7 --scenes S7 --val-data D5 --out dm7
    .venv/bin/python scripts/still_mix.py --table T7 T8 --scenes S7 --val-data D5 --out dm8 \
        --table-tiles 4000 --scene-backs card --seed 8

Stage 1 up to det 6 learnt from table tiles alone (``export-table-training``): card backs on the
camera's felt. On a still's backgrounds (``benchmarks/photo_stills.py``) it boxed no back at all. This
mixes every training scene of ``--scenes`` (an ``export-training`` folder: cards, backs and piles of
backs on random backgrounds, at many sizes and angles) with ``--table-tiles`` tiles of ``--table``
(``export-table-training`` folders, one or more): every tile cut from a zone view that holds a labelled
Joker (its ``cls/train/c52`` crops name the views), then others drawn with ``random.seed(--seed)``, so
the camera's cards are trained on as much as the stills'. ``--val`` tiles of ``--val-data`` (held-out
decks) serve ultralytics' closing validation. Writes ``OUT/det/{images,labels}/{train,val}`` (symlinks)
and ``OUT/det/data.yaml``: give ``--data OUT`` to ``paigow-monitor train-detector``.

``--scene-backs card`` boxes a scene's back as the table export boxes one: by its whole card, and
only where at least ``--card-visible`` of it shows (the scenes' own labels, ``visible``, box every
back at least 30 % uncovered by its uncovered part: a pile's lower cards as strips). Those scene
labels are then written out, not linked.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path


def _label(image: Path) -> Path:
    return image.parent.parent.parent / "labels" / image.parent.name / f"{image.stem}.txt"


def _name(image: Path, tables: list[Path], scenes: Path) -> str:
    """``image``'s name in the set: the exports name their files alike, so a prefix says whose it is,
    the table tiles' first (train-detector takes the tile size, so the scale stage 1 reads at, from
    the first image)."""
    if image.is_relative_to(scenes):
        return f"b_scene_{image.stem}"
    table = next((k for k, t in enumerate(tables) if image.is_relative_to(t)), None)
    return f"a_table{table}_{image.stem}" if table is not None else f"c_held_{image.stem}"


def _card_boxed(truth: Path, min_visible: float) -> str:
    """A scene's YOLO labels with each back boxed by its whole card (clipped to the image), and only
    where at least ``min_visible`` of it shows; its indices as they were."""
    scene = json.loads(truth.read_text())
    w, h = scene["width"], scene["height"]
    lines = []
    for o in scene["objects"]:
        if o["kind"] == "back" and o["visible"] < min_visible:
            continue
        x0, y0, x1, y1 = o["card_xyxy"] if o["kind"] == "back" else o["xyxy"]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        cls = 0 if o["kind"] == "index" else 1
        lines.append(
            f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return "".join(f"{line}\n" for line in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--table", type=Path, nargs="*", default=[], help="export-table-training folders (none: scenes only)"
    )
    ap.add_argument("--scenes", type=Path, required=True, help="an export-training folder")
    ap.add_argument("--val-data", type=Path, required=True, help="held-out tiles for the closing validation")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--table-tiles", type=int, default=3400)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scene-backs", choices=("visible", "card"), default="visible")
    ap.add_argument("--card-visible", type=float, default=0.6)
    a = ap.parse_args()
    from render.training import write_det_spec

    tables, scenes, held = [t.resolve() for t in a.table], a.scenes.resolve(), a.val_data.resolve()
    out = a.out.resolve() / "det"
    stills = sorted((scenes / "det/images/train").glob("*.jpg"))
    joker: list[Path] = []
    rest: list[Path] = []
    for table in tables:
        tiles = sorted((table / "det/images/train").glob("*.jpg"))
        if not tiles:
            raise SystemExit(f"no training images in {table}/det/images/train")
        views = {p.name.rsplit("_", 1)[0] for p in (table / "cls/train/c52").glob("*.png")}
        joker += [t for t in tiles if t.stem.rsplit("_", 1)[0] in views]
        rest += [t for t in tiles if t.stem.rsplit("_", 1)[0] not in views]
    if not stills:
        raise SystemExit(f"no training images in {scenes}/det/images/train")
    joker = joker[: a.table_tiles]
    random.seed(a.seed)
    taken = joker + random.sample(rest, max(0, min(a.table_tiles - len(joker), len(rest))))
    val = random.sample(sorted((held / "det/images/val").glob("*.jpg")), a.val)
    for split, items in (("train", taken + stills), ("val", val)):
        for sub in ("images", "labels"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
        for t in items:
            name = _name(t, tables, scenes)
            os.symlink(t, out / "images" / split / f"{name}.jpg")
            label = out / "labels" / split / f"{name}.txt"
            truth = t.parent.parent.parent / "truth" / t.parent.name / f"{t.stem}.json"  # its own split's
            if a.scene_backs == "card" and t.is_relative_to(scenes) and truth.is_file():
                label.write_text(_card_boxed(truth, a.card_visible))
            else:
                os.symlink(_label(t), label)
    write_det_spec(out)
    print(f"{out}: {len(taken)} table tiles ({len(joker)} Joker views), {len(stills)} scenes, {len(val)} val")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
