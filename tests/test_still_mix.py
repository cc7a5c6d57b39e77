"""scripts/still_mix.py: a stage-1 training set of table tiles (Joker views first) and still-like scenes."""

from __future__ import annotations

import json
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


def _table(root: Path, views: int, joker_view: int) -> None:
    """``views`` zone views of two tiles each; ``joker_view``'s classifier crops hold a Joker."""
    _images(root, "train", [f"train_{v:04d}_seat1_t{t}" for v in range(views) for t in range(2)])
    (root / "cls/train/c52").mkdir(parents=True)
    (root / f"cls/train/c52/train_{joker_view:04d}_seat1_5.png").write_bytes(b"png")


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_mixes_joker_views_other_tiles_and_every_scene(tmp_path: Path) -> None:
    table, scenes, held, out = (tmp_path / n for n in ("table", "scenes", "held", "out"))
    _table(table, 6, joker_view=3)
    _images(scenes, "train", ["train_000000", "train_000001", "train_000002"])
    _images(held, "val", [f"val_{i}" for i in range(5)])
    got = _run(
        "--table", table, "--scenes", scenes, "--val-data", held, "--out", out, "--table-tiles", 5, "--val=2"
    )
    assert got.returncode == 0, got.stderr
    train = sorted(p.name for p in (out / "det/images/train").iterdir())
    tiles = [n for n in train if n.startswith("a_table0_")]
    # five table tiles, the Joker view's two among them, first; then all three scenes
    assert len(tiles) == 5
    assert {"a_table0_train_0003_seat1_t0.jpg", "a_table0_train_0003_seat1_t1.jpg"} <= set(tiles)
    assert train[5:] == [f"b_scene_train_00000{i}.jpg" for i in range(3)]
    assert len(list((out / "det/images/val").iterdir())) == 2
    # each image's label is its own (the exports name files alike)
    assert "scenes/train_000001" in (out / "det/labels/train/b_scene_train_000001.txt").read_text()
    spec = (out / "det/data.yaml").read_text()
    assert spec.startswith(f"path: {out.resolve() / 'det'}") and "1: back" in spec


def test_two_table_exports_named_alike_are_kept_apart(tmp_path: Path) -> None:
    a, b, scenes, out = (tmp_path / n for n in ("a", "b", "scenes", "out"))
    _table(a, 2, joker_view=0)
    _table(b, 2, joker_view=1)
    _images(scenes, "train", ["train_000000"])
    _images(tmp_path / "held", "val", ["val_0"])
    got = _run("--table", a, b, "--scenes", scenes, "--val-data", tmp_path / "held", "--out", out, "--val=1")
    assert got.returncode == 0, got.stderr
    train = sorted(p.name for p in (out / "det/images/train").iterdir())
    assert train[:8] == [
        f"a_table{k}_train_{v:04d}_seat1_t{t}.jpg" for k in (0, 1) for v in (0, 1) for t in (0, 1)
    ]
    assert "b/train_0001_seat1_t0" in (out / "det/labels/train/a_table1_train_0001_seat1_t0.txt").read_text()


def test_scene_backs_boxed_by_their_whole_card_where_most_of_it_shows(tmp_path: Path) -> None:
    scenes, out = tmp_path / "scenes", tmp_path / "out"
    _table(tmp_path / "table", 1, joker_view=0)
    _images(scenes, "train", ["train_000000"])
    _images(tmp_path / "held", "val", ["val_0"])
    back = {"kind": "back", "card": 53, "card_id": 0}
    scene = {
        "deck": "anglo",
        "width": 200,
        "height": 100,
        "objects": [
            {
                "kind": "index",
                "card": 3,
                "xyxy": [10, 10, 20, 30],
                "visible": 1.0,
                "card_id": 1,
                "card_xyxy": [0, 0, 60, 90],
            },
            # the pile's top card, partly off the image: its whole card, clipped
            {**back, "xyxy": [100, 0, 200, 80], "visible": 0.9, "card_xyxy": [100, -10, 220, 80]},
            # a lower card of the pile, a strip of it showing: not boxed at all
            {**back, "xyxy": [90, 0, 100, 80], "visible": 0.35, "card_xyxy": [90, 0, 190, 80]},
        ],
    }
    (scenes / "det/truth/train").mkdir(parents=True)
    (scenes / "det/truth/train/train_000000.json").write_text(json.dumps(scene))
    got = _run(
        *("--table", tmp_path / "table", "--scenes", scenes, "--val-data", tmp_path / "held", "--out", out),
        *("--val=1", "--scene-backs", "card"),
    )
    assert got.returncode == 0, got.stderr
    label = out / "det/labels/train/b_scene_train_000000.txt"
    assert not label.is_symlink()  # written, not the export's own labels
    rows = [[float(v) for v in line.split()] for line in label.read_text().splitlines()]
    assert rows == [[0, 0.075, 0.2, 0.05, 0.2], [1, 0.75, 0.4, 0.5, 0.8]]


def test_an_empty_export_is_named(tmp_path: Path) -> None:
    _images(tmp_path / "table", "train", ["train_0000_seat1_t0"])
    (tmp_path / "scenes").mkdir()
    got = _run(
        *("--table", tmp_path / "table", "--scenes", tmp_path / "scenes"),
        *("--val-data", tmp_path, "--out", tmp_path / "o"),
    )
    assert got.returncode != 0 and "scenes/det/images/train" in got.stderr
