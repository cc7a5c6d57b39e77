"""benchmarks/vision_errors.py: the distinct errors of an eval-vision --json file, and what differs
between two."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from bench_loader import load_benchmark, run_benchmark


def _load() -> ModuleType:
    return load_benchmark("vision_errors")


def _write(path: Path, clips: list[tuple[str, list[str], list[str]]]) -> Path:
    path.write_text(json.dumps([{"clip": c, "card_errors": e, "iverify_errors": i} for c, e, i in clips]))
    return path


def test_one_misread_lasting_several_moments_is_one_error(tmp_path: Path) -> None:
    errors = [
        "round 2: t=62.72s seat3.high: true ['2d', '8s', '9d'] read ['2d', '9d']",
        "round 2: t=62.24s seat3.high: true ['2d', '8s', '9d'] read ['2d', '9d']",  # the same, earlier
        "round 2: t=63.20s seat3.high: true ['2d', '8s', '9d'] read ['2d', '9c']",  # another error
    ]
    display = ["t=45.56s iverify.high: true ['2c', 'Js'] read ['Js']"]
    got = _load().distinct_errors(
        _write(tmp_path / "e.json", [("a.mp4", errors, display), ("b.mp4", [], [])])
    )
    assert got == {
        ("a.mp4", "2", "seat3.high", ("8s",), ()): (62.24, 2),
        ("a.mp4", "2", "seat3.high", ("8s", "9d"), ("9c",)): (63.2, 1),
        ("a.mp4", "?", "iverify.high", ("2c",), ()): (45.56, 1),
    }


def test_two_runs_print_the_errors_gone_and_new(tmp_path: Path) -> None:
    old = "round 1: t=25.44s dealer.high: true ['3s', '4h'] read ['3s']"
    kept = "round 1: t=30.00s seat1.low: true ['Jk'] read []"
    new = "round 2: t=60.00s seat2.high: true ['Ac'] read ['Ah']"
    before = _write(tmp_path / "before.json", [("a.mp4", [old, kept], [])])
    after = _write(tmp_path / "after.json", [("a.mp4", [kept, new], [])])
    got = run_benchmark("vision_errors", after, before)
    got.check_returncode()
    out = got.stdout
    assert "gone a.mp4" in out and "['4h']" in out and "new  a.mp4" in out and "['Ah']" in out
    assert out.strip().endswith("2 -> 2 distinct errors: 1 gone, 1 new")


def test_a_file_that_is_not_an_evaluation_is_named_in_the_error(tmp_path: Path) -> None:
    mod = _load()
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(SystemExit, match=r"bad\.json"):
        mod.distinct_errors(bad)
    odd = _write(tmp_path / "odd.json", [("a.mp4", ["round 1: something else"], [])])
    with pytest.raises(SystemExit, match=r"odd\.json: a\.mp4: an error this script does not parse"):
        mod.distinct_errors(odd)
