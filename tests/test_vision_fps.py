"""benchmarks/vision_fps.py's arguments: a replay count under one is refused before anything runs."""

from __future__ import annotations

from bench_loader import run_benchmark


def test_no_replay_asked_for_is_refused_with_the_flag_named() -> None:
    got = run_benchmark("vision_fps", "--runs", "0")
    assert got.returncode == 2 and "--runs must be 1 or more" in got.stderr
    assert "replay:" not in got.stdout  # nothing was replayed
