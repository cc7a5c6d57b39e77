"""scripts/still_mix.py: det 7's training set, table tiles (Joker views first) and still-like scenes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "still_mix.py"


def _images(root: Path, split: str, stems: list[str]) -> None:
    for sub in ("images", "labels"):
        (root / "det" / sub / split).mkdir(parents=True, exist_ok=True)
    for s in stems:
        (root / "det/images" / split / f"{s}.jpg").write_bytes(b"jpg")
        (root / "det/labels" / split / f"{s}.txt").write_text(f"0 0.5 0.5 0.1 0.1 # {root.name}/{s}\n")


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_mixes_joker_views_other_tiles_and_every_scene(tmp_path: Path) -> None:
    table, scenes, held, out = (tmp_path / n for n in ("table", "scenes", "held", "out"))
    # six zone views of two tiles each; view 0003's crops hold a Joker
    _images(table, "train", [f"train_{v:04d}_seat1_t{t}" for v in range(6) for t in range(2)])
    (table / "cls/train/c52").mkdir(parents=True)
    (table / "cls/train/c52/train_0003_seat1_5.png").write_bytes(b"png")
    _images(scenes, "train", ["train_000000", "train_000001", "train_000002"])
    _images(held, "val", [f"val_{i}" for i in range(5)])
    got = _run(
        "--table", table, "--scenes", scenes, "--val-data", held, "--out", out, "--table-tiles", 5, "--val", 2
    )
    assert got.returncode == 0, got.stderr
    train = sorted(p.name for p in (out / "det/images/train").iterdir())
    tiles = [n for n in train if n.startswith("a_table_")]
    # five table tiles, the Joker view's two among them; all three scenes, named after the tiles
    assert len(tiles) == 5 and {"a_table_train_0003_seat1_t0.jpg", "a_table_train_0003_seat1_t1.jpg"} <= set(
        tiles
    )
    assert train[5:] == [f"b_scene_train_00000{i}.jpg" for i in range(3)]
    assert len(list((out / "det/images/val").iterdir())) == 2
    # each image's label is its own (the two exports name files alike)
    label = (out / "det/labels/train/b_scene_train_000001.txt").read_text()
    assert "scenes/train_000001" in label
    assert (
        "path: " in (out / "det/data.yaml").read_text() and "1: back" in (out / "det/data.yaml").read_text()
    )


def test_an_empty_export_is_named(tmp_path: Path) -> None:
    _images(tmp_path / "table", "train", ["train_0000_seat1_t0"])
    (tmp_path / "scenes").mkdir()
    got = _run(
        "--table",
        tmp_path / "table",
        "--scenes",
        tmp_path / "scenes",
        "--val-data",
        tmp_path,
        "--out",
        tmp_path / "o",
    )
    assert got.returncode != 0 and "scenes/det/images/train" in got.stderr
