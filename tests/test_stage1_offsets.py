"""benchmarks/stage1_offsets.py: a tile moved about in the model's input, and its index boxes followed."""

from __future__ import annotations

import numpy as np
import pytest
from bench_loader import load_benchmark, run_benchmark


def test_a_tile_moved_right_and_down_leaves_the_letterboxs_grey_where_it_was() -> None:
    mod = load_benchmark("stage1_offsets")
    x = np.random.default_rng(0).random((1, 3, 64, 48), dtype=np.float32)
    out = mod._moved(x, 5, 9)
    assert out.shape == x.shape
    assert np.array_equal(out[:, :, 9:, 5:], x[:, :, :-9, :-5])  # the same pixels, 5 right and 9 down
    assert np.allclose(out[:, :, :9], 114 / 255) and np.allclose(out[:, :, :, :5], 114 / 255)
    assert np.array_equal(mod._moved(x, 0, 0), x)


def test_an_index_box_is_followed_to_the_box_over_it_by_iou() -> None:
    mod = load_benchmark("stage1_offsets")
    box = np.array([10.0, 10.0, 30.0, 50.0])
    others = np.array([[10.0, 10.0, 30.0, 50.0], [20.0, 10.0, 40.0, 50.0], [100.0, 0.0, 120.0, 40.0]])
    assert mod._iou(box, others) == pytest.approx([1.0, 1 / 3, 0.0])


def test_shifts_past_the_margin_an_index_keeps_inside_its_tile_are_refused() -> None:
    got = run_benchmark("stage1_offsets", "--shifts", "0,40")
    assert got.returncode == 2 and "--shifts must lie in 0..39" in got.stderr
