"""benchmarks/feed_drops.py: a sample clip played as a live camera whose feed drops."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bench_loader import load_benchmark, run_benchmark


def _clip(path: Path, frames: int, fps: float = 10.0) -> Path:
    import cv2

    out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (64, 48))
    for i in range(frames):
        out.write(np.full((48, 64, 3), i * 5 % 256, np.uint8))
    out.release()
    return path


def test_the_drop_gives_one_lost_marker_then_the_footage_where_it_would_be(tmp_path: Path) -> None:
    fd = load_benchmark("feed_drops")
    got = list(fd._frames(_clip(tmp_path / "c.avi", 30), (1.0, 1.5)))
    lost = [f for f in got if f.lost]
    assert len(lost) == 1 and lost[0].t == 1.0 and lost[0].image is None
    shown = [f for f in got if not f.lost]
    assert all(f.live and f.image is not None for f in shown)
    assert not any(1.0 <= f.t < 1.5 for f in shown)  # nothing seen while the feed is lost
    assert [f.frame for f in shown] == list(range(len(shown)))  # a live source counts what it gave
    assert len(shown) == 30 - 5 and shown[-1].t == 2.9  # the footage goes on where it would be
    assert list(fd._frames(_clip(tmp_path / "d.avi", 12), None))[-1].frame == 11  # no drop: every frame


def test_a_clip_not_in_the_footage_is_named(tmp_path: Path) -> None:
    r = run_benchmark("feed_drops", "--drop", "s99-none:1:2", "--footage", tmp_path)
    assert r.returncode == 2 and "s99-none.mp4: no such clip" in r.stderr
