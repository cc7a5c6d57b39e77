"""benchmarks/vision_fps.py's arguments: a replay count under one is refused before anything runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_replay_asked_for_is_refused_with_the_flag_named() -> None:
    got = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "vision_fps.py"), "--runs", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode == 2 and "--runs must be 1 or more" in got.stderr
    assert "replay:" not in got.stdout  # nothing was replayed
