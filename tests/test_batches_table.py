"""benchmarks/batches_table.py: many scored camera batches, one row each, pooled by counts per camera."""

from __future__ import annotations

import json
from pathlib import Path

from bench_loader import run_benchmark


def _zones(tp: int, fp: int, fn: int, unnamed: int = 0) -> dict[str, dict[str, int]]:
    return {"seat.high": {"tp": tp, "fp": fp, "fn": fn, "unnamed": unnamed}}


def _batch(root: Path, name: str, clips: list[dict[str, object]], found: int, true: int, false: int) -> Path:
    b = root / name
    (b / "clips").mkdir(parents=True)
    (b / "clips" / "c.truth.json").write_text(json.dumps({"layout": "t.layout.yaml"}))
    (b / "clips" / "t.layout.yaml").write_text("image_width: 1280\nimage_height: 720\n")
    (b / "eval.json").write_text(json.dumps(clips))
    evaluation = {
        "findings_found": found,
        "findings_true": true,
        "false_alerts": false,
        "review_items": 3,
        "rounds_rebuilt": 2,
        "rounds_true": 2,
    }
    (b / "batch_report.json").write_text(json.dumps({"evaluation": evaluation}))
    return b


def test_rows_and_pooled_counts_not_averaged_ratios(tmp_path: Path) -> None:
    # batch a: 1000 cards, 1 missed (R 0.999, both targets); batch b: 100 cards, 2 missed (R 0.98, short)
    a = _batch(tmp_path, "vb1", [{"zones": _zones(999, 0, 1), "rounds": 2, "rounds_exact": 2}], 3, 3, 0)
    b = _batch(tmp_path, "vb2", [{"zones": _zones(98, 1, 2, 1), "rounds": 2, "rounds_exact": 1}], 1, 2, 1)
    res = run_benchmark("batches_table", a, b)
    assert res.returncode == 0, res.stderr
    rows = {ln.split()[0]: ln for ln in res.stdout.splitlines() if ln.startswith("vb")}
    assert "0.9990" in rows["vb1"] and "both" in rows["vb1"] and "3/3" in rows["vb1"]
    assert "0.9800" in rows["vb2"] and "short" in rows["vb2"] and "1/2" in rows["vb2"]
    # pooled: tp 1097, fp 1, fn 3 -> R 1097/1100 = 0.9973 (the ratios' mean would be 0.9895)
    assert "1280x720: 1 of 2 batches meet both per-card targets" in res.stdout
    assert "P 0.9991 / R 0.9973" in res.stdout and "1 of the fn seen but not named" in res.stdout
    assert "alerts 4/5, 1 false" in res.stdout


def test_a_batch_not_yet_scored_is_named_and_left_out(tmp_path: Path) -> None:
    a = _batch(tmp_path, "vb1", [{"zones": _zones(10, 0, 0), "rounds": 1, "rounds_exact": 1}], 1, 1, 0)
    (a / "eval.json").unlink()
    res = run_benchmark("batches_table", a)
    assert res.returncode == 1 and "vb1" in res.stdout and "eval.json missing" in res.stdout


def test_a_folder_that_is_no_batch_is_an_error_naming_it(tmp_path: Path) -> None:
    res = run_benchmark("batches_table", tmp_path)
    assert res.returncode != 0 and str(tmp_path) in res.stderr and "not a scored batch" in res.stderr
