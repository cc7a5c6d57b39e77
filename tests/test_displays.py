"""Reading the LCD, the i-Verify display and chips (vision.displays, vision.chips)."""

from __future__ import annotations

from pathlib import Path

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


_SEGS = {  # seven-segment bars as line ends on a 20 x 44 digit box (x, y)
    "a": ((1, 1), (18, 1)),
    "b": ((18, 1), (18, 21)),
    "c": ((18, 23), (18, 42)),
    "d": ((1, 42), (18, 42)),
    "e": ((1, 23), (1, 42)),
    "f": ((1, 1), (1, 21)),
    "g": ((1, 22), (18, 22)),
}
_LIT = {1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg", 6: "acdefg", 7: "abc"}


@pytest.mark.parametrize("digit", range(2, 8))
def test_lcd_digits_with_thin_bars_and_a_speck_below_read_right(digit: int) -> None:
    """b47-0002 (720p): the LCD's 3, its bars 2-3 px thick, and a two-pixel speck of red just below it
    stretching the digit's box; its bottom bar filled 0.28 of its window and the 3 read as nothing
    for 35 s. A bar is lit where a line along it is. (Bars 1 px thick here; a 1 so thin is too few lit
    pixels to be read, as before.)"""
    p = np.zeros((64, 81, 3), np.uint8)
    for seg in _LIT[digit]:
        (x0, y0), (x1, y1) = _SEGS[seg]
        cv2.line(p, (32 + x0, 10 + y0), (32 + x1, 10 + y1), (40, 40, 200), 1)
    lit = np.flatnonzero(p[..., 2].max(axis=0))
    p[54, lit[len(lit) // 2] : lit[len(lit) // 2] + 2] = (40, 40, 200)  # the speck, 2 px below the digit
    assert read_lcd(p) == digit


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


@pytest.mark.parametrize("blur", [0.0, 0.6])
def test_header_seat_is_read_from_its_digit_at_the_coarse_cameras_size(blur: float) -> None:
    """At the 720p camera's panel size (330 x 94 px) the header is about 12 px tall, its letters set
    closer than the templates', and the whole line's match barely tells one seat from another: drawn
    so, SEAT 5 matched SEAT 3 best (b86-0011, seed 86: the display's SEAT 5 read SEAT 6, 0.8094
    against 0.8087, and an IVERIFY-SEAT-EARLY alert was made on seat 6). Its digit alone tells."""
    for n in range(1, 8):
        p = np.zeros((94, 330, 3), np.uint8)
        p[:] = (70, 30, 10)
        cv2.putText(p, f"SEAT {n}", (8, 23), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 2, cv2.LINE_AA)
        if blur:
            p = cv2.GaussianBlur(p, (0, 0), blur)
        h = read_header(p)
        assert (h.mode, h.seat) == ("seat", n)


def test_a_header_line_showing_no_space_keeps_the_whole_lines_seat() -> None:
    from vision.displays import _seat_digit

    assert _seat_digit(np.zeros((10, 30), np.uint8)) is None  # no ink
    one_gap = np.zeros((10, 30), np.uint8)
    one_gap[2:8, [3, 20]] = 1
    assert _seat_digit(one_gap) is None  # two strokes: no word before a space
    even = np.zeros((10, 40), np.uint8)
    even[2:8, 2:38:4] = 1  # strokes evenly spaced: no gap wider by far than the rest
    assert _seat_digit(even) is None


def _with_clock(frame: np.ndarray, y: int, scale: float) -> np.ndarray:
    """A recorder's on-screen clock burnt into the picture at the top left: white, outlined in black."""
    out = frame.copy()
    for colour, thick in (((0, 0, 0), 4), ((255, 255, 255), 1)):
        cv2.putText(
            out, "2026-11-25 10:00:02  CAM 07", (6, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick
        )
    return out


@pytest.mark.parametrize(
    "text,mode,seat", [("SEAT 3", "seat", 3), ("DEALER", "dealer", None), (None, "blank", None)]
)
def test_header_under_a_recorders_clock_over_the_panels_top_edge(
    text: str | None, mode: str, seat: int | None
) -> None:
    """The clock's white digits reaching into the header band had been taken for header ink: the
    header read blank and every hand the display showed was lost (the sample under
    benchmarks/camera_conditions.py "clock": recall 0.78, three i-Verify alerts missed)."""
    t = SynthTable(make_layout(), header=text, iv_high=["As", "Kd", "Qh", "Jc", "Ts"], iv_low=["9h", "2c"])
    r = _region("iverify")
    frame = t.frame()
    top = int(r.crop_to_image(np.array([[0.0, 0.0]]))[0, 1])  # the panel crop's top edge in the frame
    h = read_header(r.rectify(_with_clock(frame, top + 3, 0.5)))  # its lower part over the panel
    assert (h.mode, h.seat) == (mode, seat)


@pytest.mark.parametrize("size", [(300, 200), (600, 380)])
@pytest.mark.parametrize("text,mode,seat", [("SEAT 3", "seat", 3), ("DEALER", "dealer", None)])
def test_header_beside_a_clocks_dots_just_inside_the_panel(
    size: tuple[int, int], text: str, mode: str, seat: int | None
) -> None:
    """A clock's colons and dots clear of the panel's edge (the sample's lay 1 px inside it): white
    but outlined in black, not drawn on the panel's blue."""
    p = np.zeros((size[1], size[0], 3), np.uint8)
    draw_iverify(p, text, [], [])
    for k in range(6):
        x = int(size[0] * (0.05 + 0.15 * k))
        cv2.rectangle(p, (x - 2, 1), (x + 5, 8), (0, 0, 0), -1)
        cv2.rectangle(p, (x, 3), (x + 3, 6), (255, 255, 255), -1)
    h = read_header(p)
    assert (h.mode, h.seat) == (mode, seat)


def test_the_panel_is_found_by_its_blue_when_whole_and_not_when_cut_short() -> None:
    """``panel_quad``: the panel moved whole (a lens, a calibration a little off) is found at its
    corners; a blue patch with a side cut short (a warm cast's blue missed at one corner) or a corner
    notched (an arm) is not taken for it."""
    from vision.displays import panel_quad

    g, w, h = 20, 300, 100
    expected = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) + g
    pic = np.full((h + 2 * g, w + 2 * g, 3), (40, 110, 50), np.uint8)  # felt green around it
    panel = np.zeros((h, w, 3), np.uint8)
    draw_iverify(panel, "SEAT 3", ["As", "Kd", "Qh"], ["9h"])
    moved = pic.copy()
    moved[g + 8 : g + 8 + h, g - 6 : g - 6 + w] = panel
    got = panel_quad(moved, expected, g)
    assert got is not None and np.abs(got - expected - np.array([-6.0, 8.0])).max() <= 1.5
    assert panel_quad(pic, expected, g) is None  # no panel at all
    short = moved.copy()
    short[g + 8 + 80 : g + 8 + h, g - 6 : g - 6 + 40] = (40, 110, 50)  # its lower left not blue
    assert panel_quad(short, expected, g) is None
    far = pic.copy()
    far[g + 30 : g + 30 + h - 10, g : g + w] = panel[: h - 10]  # too far off, and cut
    assert panel_quad(far, expected, g) is None


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


# The i-Verify row as render/draw.py ``_paint_iverify`` draws it on the layouts' 120 mm tall panel: cards
# 0.64 of the panel's height tall, from 8 mm off its left edge, 3 mm apart, 14 mm more before the low hand.
_PX_MM = 1.178  # the sample footage's i-Verify crop scale
_CH_MM = 0.64 * 120
_CW_MM = _CH_MM * 63.5 / 88.9
_SEVEN = (["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"])
_SIX = (["Ah", "9d", "7s", "5c", "2d"], ["Qs"])


def _slot_left_mm(slot: int) -> float:
    return 8 + slot * (_CW_MM + 3) + (14 if slot >= 5 else 0)


def _iv_row(setting: tuple[list[str], list[str]], missing: tuple[int, ...] = ()) -> Detections:
    """Detections of the row in the panel crop's pixels (x = 0 on the panel's left edge), the boxes 2 mm
    inside each card's edges as the shipped detector's are; the slots in ``missing`` not detected."""
    cards = setting[0] + setting[1]
    boxes = []
    for slot, tok in enumerate(cards):
        if slot not in missing:
            x = (_slot_left_mm(slot) + 2) * _PX_MM
            boxes.append([x, 4.0, x + (_CW_MM - 4) * _PX_MM, 4.0 + (_CH_MM - 4) * _PX_MM, CLASSES.index(tok)])
    a = np.array(boxes).reshape(-1, 5)
    return Detections(a[:, :4], a[:, 4].astype(int), np.full(len(a), 0.7))


def _expected(setting: tuple[list[str], list[str]], missing: tuple[int, ...]) -> tuple[list[str], list[str]]:
    high, low = setting
    return (
        [c for i, c in enumerate(high) if i not in missing],
        [c for i, c in enumerate(low) if i + 5 not in missing],
    )


@pytest.mark.parametrize("anchored", [True, False])
@pytest.mark.parametrize(
    "setting,missing",
    [
        (_SEVEN, ()),
        (_SIX, ()),
        (_SEVEN, (2,)),  # an interior high card
        (_SEVEN, (0,)),  # the first card
        (_SEVEN, (4,)),  # the last high card
        (_SEVEN, (5,)),  # the first low card: the gap across the break is 2 pitches + 14 mm
        (_SEVEN, (6,)),
        (_SEVEN, (1, 3)),
        (_SEVEN, (4, 5)),
        (_SEVEN, (5, 6)),  # no low card at all
        (_SIX, (1,)),
        (_SIX, (0,)),
        (_SIX, (4,)),
        (_SIX, (5,)),  # the low card
        (_SIX, (3, 4)),
        (_SIX, (0, 5)),
    ],
)
def test_split_setting_by_slots_with_missed_cards(
    setting: tuple[list[str], list[str]], missing: tuple[int, ...], anchored: bool
) -> None:
    """A missed card is a hole in its own hand; the break stays where the 14 mm extra is."""
    game_low = len(setting[1])
    got = split_setting(_iv_row(setting, missing), game_low, panel_px_per_mm=_PX_MM if anchored else None)
    assert got == _expected(setting, missing)


@pytest.mark.parametrize("setting,missing", [(_SEVEN, (2,)), (_SEVEN, (1,)), (_SIX, (1,)), (_SIX, (2,))])
def test_split_setting_when_the_widest_gap_is_a_missed_cards_hole(
    setting: tuple[list[str], list[str]], missing: tuple[int, ...]
) -> None:
    """The case a split at the widest gap gets wrong: the hole of a missed high card (2 pitches) is wider
    than the break (1 pitch + 14 mm), so the old split put the high hand's right part in the low hand."""
    dets = _iv_row(setting, missing)
    x = np.sort(dets.centers[:, 0])
    widest = int(np.argmax(np.diff(x)))
    assert widest == missing[0] - 1  # the hole, not the break, is the widest gap ...
    high, low = split_setting(dets, len(setting[1]))
    assert (high, low) == _expected(setting, missing)  # ... and still the hands come out whole
    assert len(low) == len(setting[1])


@pytest.mark.parametrize(
    "setting,missing,low_alone",
    [
        (_SEVEN, (0, 1, 2, 3, 4), True),  # only the low hand was read
        (_SEVEN, (0, 1, 2, 5, 6), False),  # two high cards alone: span and counts allow either hand
        (_SIX, (0, 1, 2, 3, 4), True),
        (_SIX, (0, 1, 2, 3, 5), False),
    ],
)
def test_split_setting_a_hand_read_alone_by_the_panels_edge(
    setting: tuple[list[str], list[str]], missing: tuple[int, ...], low_alone: bool
) -> None:
    """With no break in sight, the slot counted from the panel's left edge tells which hand it is."""
    got = split_setting(_iv_row(setting, missing), len(setting[1]), panel_px_per_mm=_PX_MM)
    assert got == _expected(setting, missing)
    assert (got[1] != []) == low_alone


def test_split_setting_corner_index_boxes_and_duplicates() -> None:
    """The detector also boxes a card's corner index alone: inside the card's box it is dropped; alone
    (the panel's right edge cuts off a seven-card setting's last card) it stands for its card, and two
    detections in one slot are one card, the more confident one."""
    base = _iv_row(_SEVEN, (6,))
    x6 = (_slot_left_mm(6) + 1.5) * _PX_MM  # the last card's top-left index
    k1 = base.xyxy[2]  # the bottom-right index of the third card
    extra = np.array(
        [
            [x6, 4.0, x6 + 8, 26.0],
            [k1[2] - 9, k1[3] - 21, k1[2], k1[3]],
            base.xyxy[0] + [0.5, 0.3, 0.4, 0.2],  # the first card again, read as another card, less sure
        ]
    )
    dets = Detections(
        np.vstack([base.xyxy, extra]),
        np.concatenate([base.class_id, [CLASSES.index("2c"), CLASSES.index("3d"), CLASSES.index("Ah")]]),
        np.concatenate([base.confidence, [0.6, 0.6, 0.5]]),
    )
    assert split_setting(dets, 2, panel_px_per_mm=_PX_MM) == _SEVEN
    assert split_setting(dets, 2) == _SEVEN


def test_split_setting_a_cut_off_last_card_boxed_by_its_left_strip_keeps_the_slot_before_it_free() -> None:
    """b42-0016: the panel's edge cuts off the last card, and the detector boxes its left strip from
    the top index down (narrow, card-tall): that is its left edge, not a bottom-right index marking a
    right edge, which put it in the slot before, the Joker's (a blank-corner find, less sure)."""
    base = _iv_row(_SEVEN, (5, 6))
    x5, x6 = ((_slot_left_mm(k) + 1.5) * _PX_MM for k in (5, 6))
    # the strip a pixel lower than the whole cards' boxes: its centre below the row's middle
    bottom = 4.0 + (_CH_MM - 4) * _PX_MM
    extra = np.array([[x5, 4.0, x5 + 8, 26.0], [x6, 5.0, x6 + 8, bottom + 1.0]])
    dets = Detections(
        np.vstack([base.xyxy, extra]),
        np.concatenate([base.class_id, [CLASSES.index(_SEVEN[1][0]), CLASSES.index(_SEVEN[1][1])]]),
        np.concatenate([base.confidence, [0.6, 0.71]]),
    )
    assert split_setting(dets, 2, panel_px_per_mm=_PX_MM) == _SEVEN
    assert split_setting(dets, 2) == _SEVEN


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


def _felt_crop(felt_bgr: tuple[int, int, int], seed: int) -> tuple[np.ndarray, FeltModel, np.ndarray]:
    """A 60-px crop of bare felt of that colour (a little noise), its felt model, and its bet
    circle's inner disc (the mask ``chips_present`` reads)."""
    rng = np.random.default_rng(seed)
    crop = np.clip(np.array(felt_bgr, np.float32) + rng.normal(0, 3, (60, 60, 3)), 0, 255).astype(np.uint8)
    mask = inner_mask((60, 60), np.array([[5, 5], [55, 5], [55, 55], [5, 55]], np.float32))
    return crop, FeltModel.learn([crop]), mask


def test_an_arm_shadow_on_an_empty_circle_is_felt_and_a_dark_chip_is_still_a_chip() -> None:
    # s10: the dealer's arm shaded seat 3's empty payout spot (the felt x 0.65) and it read as a payout
    crop, felt, mask = _felt_crop((40, 120, 45), seed=0)
    assert not chips_present(crop, mask, felt)
    shaded = crop.copy()
    shaded[:, 10:50] = (shaded[:, 10:50].astype(np.float32) * 0.65).astype(np.uint8)  # across the crop
    assert not chips_present(shaded, mask, felt)
    for chip in ((35, 35, 35), (40, 40, 210), (190, 90, 30), (20, 150, 230), (30, 90, 30)):
        stacked = crop.copy()
        stacked[18:42, 18:42] = chip  # a black, red, blue, orange or dark green (felt-hued) chip
        assert chips_present(stacked, mask, felt), chip
        # under the shadow a chip of another colour is still a chip
        if chip != (30, 90, 30):
            stacked[:, 10:50] = (stacked[:, 10:50].astype(np.float32) * 0.65).astype(np.uint8)
            assert chips_present(stacked, mask, felt), chip


def test_an_arm_shadow_whose_blue_a_warm_cast_took_to_black_is_felt() -> None:
    # s13 under a warm cast (benchmarks/camera_conditions.py): felt BGR 59/113/54, the dealer's arm's
    # shadow over the empty payout spot 1/59/27: the felt halved in green and red, its blue crushed
    crop, felt, mask = _felt_crop((59, 113, 54), seed=2)
    shaded = crop.copy()  # the shadow over the crop's left part, a third of the disc
    part = shaded[:, :26].astype(np.float32) * 0.52
    part[..., 0] = 1.0  # the blue channel at the black floor
    shaded[:, :26] = part.astype(np.uint8)
    assert not chips_present(shaded, mask, felt)
    for chip in ((35, 35, 35), (2, 40, 210), (190, 90, 30), (20, 150, 230), (1, 1, 1)):
        stacked = shaded.copy()
        stacked[18:42, 18:42] = chip  # a black, red (its blue crushed too), blue, orange, jet chip
        assert chips_present(stacked, mask, felt), chip


def test_felt_under_a_spotlight_is_felt_and_a_chip_on_it_is_still_a_chip() -> None:
    # b41-0011: a pool of light over seat 5's empty circle (the felt's colour, lighter) read as chips
    crop, felt, mask = _felt_crop((40, 120, 45), seed=1)
    lit = cv2.convertScaleAbs(crop, alpha=1.5)  # the whole crop under the light
    assert not chips_present(lit, mask, felt)
    for chip in ((35, 35, 35), (40, 40, 210), (30, 90, 30)):
        stacked = lit.copy()
        stacked[18:42, 18:42] = chip
        assert chips_present(stacked, mask, felt), chip
    # an arm of another colour lying all around the circle is not the felt: the felt's own colour holds
    sleeve = crop.copy()
    sleeve[:] = (60, 30, 110)
    sleeve[mask > 0] = crop[mask > 0]
    assert not chips_present(sleeve, mask, felt)


def test_a_bet_circle_s_printed_ring_in_a_pool_of_light_is_not_taken_for_the_felt() -> None:
    # b49-0007: seat 2's empty bet circle in a pool of light, its yellow ring, and b48-0006: seat 2's
    # empty payout spot, its white ring blended pale green into the lit felt, brighter still beyond it.
    # Each had lifted the median "felt around it" past the felt inside and read as chips all along
    from vision.chips import around_mask

    crop, felt, _ = _felt_crop((40, 120, 45), seed=3)
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    circle = np.stack([30 + 28 * np.cos(a), 30 + 28 * np.sin(a)], 1).astype(np.float32)  # as the crop's
    mask, around = inner_mask((60, 60), circle), around_mask((60, 60), circle)
    yy, xx = np.mgrid[:60, :60]
    far = np.hypot(yy - 30, xx - 30) > 28
    for ring, beyond in (((60, 200, 235), 1.0), ((60, 200, 235), 1.3), ((150, 215, 150), 1.3)):
        lit = cv2.convertScaleAbs(crop, alpha=1.3)
        lit[far] = np.clip(lit[far] * beyond, 0, 255).astype(np.uint8)
        cv2.circle(lit, (30, 30), 28, ring, 4)
        assert not chips_present(lit, mask, felt, around=around), (ring, beyond)
        for chip in ((35, 35, 35), (40, 40, 210), (30, 90, 30)):
            stacked = lit.copy()
            stacked[18:42, 18:42] = chip
            assert chips_present(stacked, mask, felt, around=around), (ring, beyond, chip)
    # without the outline left out, the felt-coloured part of what lies around still leaves the yellow
    # ring out (not the pale one, whose hue is the felt's)
    lit = cv2.convertScaleAbs(crop, alpha=1.3)
    lit[far] = np.clip(lit[far] * 1.3, 0, 255).astype(np.uint8)
    cv2.circle(lit, (30, 30), 28, (60, 200, 235), 4)
    assert not chips_present(lit, mask, felt)


def test_felt_model_ignores_a_minority_of_other_colours() -> None:
    img = np.full((50, 50, 3), (40, 100, 30), np.uint8)
    img[:10] = (0, 0, 255)
    m = FeltModel.learn([img])
    lab = cv2.cvtColor(np.full((1, 1, 3), (40, 100, 30), np.uint8), cv2.COLOR_BGR2LAB)[0, 0]
    assert np.allclose(m.median_lab, lab, atol=2)


def test_split_setting_follows_the_layouts_slot_geometry() -> None:
    """A display laid out otherwise (the layout's ``iverify_slots``): narrow cards far from the
    panel's edge and a wide break before the low hand. When both low cards are missed, its own
    geometry still puts the five cards read in the high hand; the rendered display's defaults do
    not (the case was found by trying every one- to three-card miss on a few geometries)."""
    from vision.layout import IVerifySlots

    geo = IVerifySlots(card_width_mm=30.0, gap_mm=3.0, low_break_mm=60.0, margin_mm=100.0)
    boxes = []
    for slot, tok in enumerate(_SEVEN[0]):  # the high hand only: both low cards missed
        left = geo.margin_mm + slot * (geo.card_width_mm + geo.gap_mm)
        x = (left + 2) * _PX_MM
        boxes.append([x, 4.0, x + (geo.card_width_mm - 4) * _PX_MM, 4.0 + 40 * _PX_MM, CLASSES.index(tok)])
    a = np.array(boxes)
    dets = Detections(a[:, :4], a[:, 4].astype(int), np.full(len(a), 0.7))
    want = (_SEVEN[0], [])
    assert split_setting(dets, 2, panel_px_per_mm=_PX_MM, slots=geo) == want
    assert split_setting(dets, 2, panel_px_per_mm=_PX_MM) != want


def test_layout_takes_a_displays_slot_geometry_and_names_a_bad_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import yaml

    from vision.layout import LayoutError, load_layout

    src = Path(__file__).resolve().parent.parent / "sample_footage" / "render-7card.layout.yaml"
    data = yaml.safe_load(src.read_text())
    assert load_layout(src).iverify_slots.gap_mm == 3.0  # the rendered display's, by default
    data["iverify_slots"] = {"gap_mm": 6.5}
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(data))
    assert load_layout(good).iverify_slots.gap_mm == 6.5
    data["iverify_slots"] = {"gap_mm": -1}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(LayoutError, match=r"iverify_slots\.gap_mm"):
        load_layout(bad)
