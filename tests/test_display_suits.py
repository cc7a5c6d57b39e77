"""benchmarks/display_suits.py: each display box matched to the true card of its slot, and the counts
it prints from saved reads."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_loader import load_benchmark, run_benchmark

from vision.card_body import CARD_MM
from vision.layout import IVerifySlots


def _load() -> ModuleType:
    return load_benchmark("display_suits")


SLOTS = IVerifySlots()
PANEL_PX_MM = 2.0  # the detector's picture of the panel, px per mm
CARD_PX = PANEL_PX_MM * SLOTS.card_width_mm / CARD_MM[0]  # its scale for a real card (the body look's)


def _box_at(x_mm: float) -> list[float]:
    """An index-sized box centred ``x_mm`` from the panel's left edge."""
    x = x_mm * PANEL_PX_MM
    return [x - 5, 10, x + 5, 30]


def _slot_centre(j: int) -> float:
    pitch = SLOTS.card_width_mm + SLOTS.gap_mm
    left = SLOTS.margin_mm + j * pitch + (SLOTS.low_break_mm if j >= 5 else 0.0)
    return left + SLOTS.card_width_mm / 2


def test_a_box_is_matched_to_the_card_in_its_slot_not_to_another_of_its_rank() -> None:
    mod = _load()
    high, low = ["4d", "3d", "2c", "2d", "2s"], ["Ts", "9h"]  # b99-0004's dealer hand: three 2s
    assert mod._slot_card(_box_at(_slot_centre(2)), CARD_PX, SLOTS, high, low) == "2c"
    assert mod._slot_card(_box_at(_slot_centre(3)), CARD_PX, SLOTS, high, low) == "2d"
    assert mod._slot_card(_box_at(_slot_centre(5)), CARD_PX, SLOTS, high, low) == "Ts"
    assert mod._slot_card(_box_at(_slot_centre(6)), CARD_PX, SLOTS, high, low) == "9h"


def test_a_box_between_slots_or_in_an_empty_one_is_matched_to_nothing() -> None:
    mod = _load()
    high, low = ["Kc", "Kd", "Jc", "Js", "4s"], ["9s"]  # a 6-card game: one low card
    pitch = SLOTS.card_width_mm + SLOTS.gap_mm
    in_gap = SLOTS.margin_mm + SLOTS.card_width_mm + SLOTS.gap_mm / 2
    in_break = SLOTS.margin_mm + 5 * pitch + SLOTS.low_break_mm / 2 - SLOTS.gap_mm
    assert mod._slot_card(_box_at(in_gap), CARD_PX, SLOTS, high, low) is None
    assert mod._slot_card(_box_at(in_break), CARD_PX, SLOTS, high, low) is None
    assert mod._slot_card(_box_at(_slot_centre(6)), CARD_PX, SLOTS, high, low) is None  # no second low
    assert mod._slot_card(_box_at(_slot_centre(0)), CARD_PX, SLOTS, [], []) is None  # a blank display


def _pip(read: str, truth: str, suits: dict[str, float], t: float, rank: str | None = None) -> dict[str, Any]:
    return {
        "clip": "c.mp4",
        "deck": "dondorf",
        "kind": "pip",
        "t": t,
        "read": read,
        "conf": 0.6,
        "truth": truth,
        "box": [int(t), 0],
        "suits": suits,
        "rank": rank or truth[0],
    }


def _court(read: str, truth: str, conf: float, t: float) -> dict[str, Any]:
    row = _pip(read, truth, {}, t)
    del row["suits"], row["rank"]
    return {**row, "kind": "court", "conf": conf}


def test_saved_reads_are_counted_at_each_threshold_asked(tmp_path: Path) -> None:
    rows = [
        # a 2c read 2s, the body a club at 0.54 against 0.23 (b81-0014): 0.40 apart as a share of the two
        _pip("2s", "2c", {"s": 0.23, "h": 0.11, "d": 0.10, "c": 0.54}, 1),
        # a 2h read 2d, the body sure of a heart
        _pip("2d", "2h", {"s": 0.02, "h": 0.94, "d": 0.02, "c": 0.02}, 2),
        # a 2c read right, the body leaning to a spade (0.51 apart)
        _pip("2c", "2c", {"s": 0.57, "h": 0.06, "d": 0.05, "c": 0.18}, 3),
        # a body that names another rank: its window is not this card's; not counted
        _pip("5c", "5s", {"s": 0.90, "h": 0.03, "d": 0.03, "c": 0.04}, 4, rank="J"),
        _court("Kc", "Kc", 0.75, 5),
        _court("Kc", "Ks", 0.57, 6),
        _court("Ks", "Ks", 0.59, 7),
    ]
    saved = tmp_path / "reads.jsonl"
    saved.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = run_benchmark("display_suits", "--load", str(saved), "--sure", "0.6,0.5,0.35")
    assert got.returncode == 0, got.stderr
    out = got.stdout
    assert "3 distinct display pip-face reads whose body names their rank" in out
    assert "read right: 1; misread in another suit: 2" in out
    lines = {line.split(":")[0]: line for line in out.splitlines() if line.startswith("--sure")}
    said = "the read on {}; of the right reads, sure of another suit against the read on {}"
    assert said.format(1, 0) in lines["--sure 0.6"]
    assert said.format(1, 1) in lines["--sure 0.5"]
    assert said.format(2, 1) in lines["--sure 0.35"]
    assert "left: c.mp4 t=1 2c read 2s at 0.6" in out  # listed at the first threshold only
    assert "court reads: 3 distinct" in out
    assert "dondorf      true c: read c 1" in out
    assert "dondorf      true s: read s 1 (conf quartiles 0.59 0.59 0.59); read c 1" in out


def test_a_saved_file_that_is_not_one_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "reads.jsonl"
    good = json.dumps(_pip("2s", "2c", {"s": 0.5, "h": 0.0, "d": 0.0, "c": 0.5}, 1))
    bad.write_text(good + "\n{not json\n")
    got = run_benchmark("display_suits", "--load", str(bad))
    assert got.returncode != 0
    assert f"{bad}: line 2: not a display_suits.py --save row" in got.stderr
    missing = run_benchmark("display_suits", "--load", str(tmp_path / "none.jsonl"))
    assert missing.returncode != 0 and "none.jsonl: cannot be read" in missing.stderr


@pytest.mark.parametrize("sure", ["2", "a", "0.5,"])
def test_a_threshold_out_of_range_or_not_a_number_is_refused(sure: str, tmp_path: Path) -> None:
    got = run_benchmark("display_suits", "--load", str(tmp_path / "none.jsonl"), "--sure", sure)
    assert got.returncode == 2 and "--sure" in got.stderr
