"""Reading the LCD, the i-Verify display and chips (vision.displays, vision.chips)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_pipeline_synth import SynthTable, draw_digit, draw_iverify, make_layout

from vision.chips import FeltModel, chips_present, inner_mask
from vision.detections import CLASSES, Detections
from vision.displays import panel_visible, read_header, read_lcd, split_setting
from vision.zones import build_regions


def _region(name: str):  # type: ignore[no-untyped-def]
    return next(r for r in build_regions(make_layout()) if r.name == name)


@pytest.mark.parametrize("digit", [1, 2, 3, 4, 5, 6, 7])
def test_lcd_digits_through_the_camera(digit: int) -> None:
    t = SynthTable(make_layout(), lcd=digit)
    assert read_lcd(_region("lcd").rectify(t.frame())) == digit


def test_lcd_blank_and_dim_noise_read_none() -> None:
    assert read_lcd(_region("lcd").rectify(SynthTable(make_layout(), lcd=None).frame())) is None
    panel = np.zeros((60, 40, 3), np.uint8)
    panel[10, 10] = (40, 40, 235)  # one stray lit pixel
    assert read_lcd(panel) is None


def test_lcd_large_panel_direct() -> None:
    for d in range(1, 8):
        p = np.zeros((200, 140, 3), np.uint8)
        draw_digit(p, d)
        assert read_lcd(p) == d


@pytest.mark.parametrize(
    "text,mode,seat",
    [("SEAT 1", "seat", 1), ("SEAT 4", "seat", 4), ("SEAT 7", "seat", 7), ("DEALER", "dealer", None)],
)
def test_header_through_the_camera(text: str, mode: str, seat: int | None) -> None:
    t = SynthTable(make_layout(), header=text, iv_high=["As", "Kd", "Qh", "Jc", "Ts"], iv_low=["9h", "2c"])
    h = read_header(_region("iverify").rectify(t.frame()))
    assert (h.mode, h.seat) == (mode, seat)


@pytest.mark.parametrize("size", [(300, 200), (600, 380)])
def test_header_every_seat_at_other_sizes(size: tuple[int, int]) -> None:
    for n in range(1, 8):
        p = np.zeros((size[1], size[0], 3), np.uint8)
        draw_iverify(p, f"SEAT {n}", [], [])
        h = read_header(p)
        assert (h.mode, h.seat) == ("seat", n)


def test_blank_panel_reads_blank_and_visible() -> None:
    p = np.zeros((200, 300, 3), np.uint8)
    draw_iverify(p, None, [], [])
    assert read_header(p).mode == "blank"
    assert panel_visible(p)


def test_towel_over_panel_is_not_visible_but_a_passing_corner_is() -> None:
    t = SynthTable(make_layout(), header="SEAT 2", iv_high=["As"], iv_low=["Kd"], towel=True)
    assert not panel_visible(_region("iverify").rectify(t.frame()))
    p = np.zeros((200, 300, 3), np.uint8)
    draw_iverify(p, "DEALER", ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"])
    assert panel_visible(p)
    p[:60, :60] = (200, 200, 200)  # something small over a corner
    assert panel_visible(p)


def _dets(boxes: list[tuple[float, float, str]], w: float = 30, h: float = 40) -> Detections:
    xyxy = [[x, y, x + w, y + h] for x, y, _ in boxes]
    return Detections(np.array(xyxy), np.array([CLASSES.index(c) for _, _, c in boxes]), np.ones(len(boxes)))


def test_split_setting_two_rows() -> None:
    d = _dets([(100, 10, "Kd"), (10, 10, "As"), (60, 80, "2c"), (10, 80, "9h"), (50, 10, "Qh")])
    assert split_setting(d) == (["As", "Qh", "Kd"], ["9h", "2c"])


def test_split_setting_one_row_with_gap_and_without() -> None:
    gap = _dets(
        [
            (0, 0, "As"),
            (35, 0, "Kd"),
            (70, 0, "Qh"),
            (105, 0, "Jc"),
            (140, 0, "Ts"),
            (260, 0, "9h"),
            (295, 0, "2c"),
        ]
    )
    assert split_setting(gap) == (["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"])
    even = _dets([(i * 35.0, 0, c) for i, c in enumerate(["As", "Kd", "Qh", "Jc", "Ts", "9h"])])
    assert split_setting(even, game_low=1) == (["As", "Kd", "Qh", "Jc", "Ts"], ["9h"])
    assert split_setting(Detections()) == ([], [])


def test_chips_against_the_felt() -> None:
    lay = make_layout()
    regions = build_regions(lay)
    t = SynthTable(lay, chips={2})
    f = t.frame()
    felt = FeltModel.learn([r.rectify(f, 0.3) for r in regions if r.kind in ("cards", "bet")])
    for n in (1, 2, 3):
        r = next(r for r in regions if r.name == f"seat{n}.bet")
        poly = r.table_to_crop_pts(r.zones[0].table_poly)
        mask = inner_mask(r.size, poly)
        assert chips_present(r.rectify(f), mask, felt) == (n == 2)


def test_felt_model_ignores_a_minority_of_other_colours() -> None:
    img = np.full((50, 50, 3), (40, 100, 30), np.uint8)
    img[:10] = (0, 0, 255)
    m = FeltModel.learn([img])
    lab = cv2.cvtColor(np.full((1, 1, 3), (40, 100, 30), np.uint8), cv2.COLOR_BGR2LAB)[0, 0]
    assert np.allclose(m.median_lab, lab, atol=2)
