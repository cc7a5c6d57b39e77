"""A card found by its paper where it prints no index (vision._blank_corner): the Joker of a deck
whose Joker has a blank corner (dondorf, sample s07) or one small mark (tigullio's star, s04).
Drawn images and the index boxes a detector would give; no model."""

from __future__ import annotations

import numpy as np
import pytest

from vision._blank_corner import blank_corner_cards, blank_slot_cards, found_card_rects
from vision.detections import BACK_CLASS, Detections

PX = 1.6  # px per mm: a card is 101.6 x 142.2 px
FELT = (40, 120, 40)


def _card(img: np.ndarray, x0: int, y0: int, corner: str) -> None:
    """A white card, its top-left corner at (x0, y0), a grey edge, and in its corner ``corner``: an
    "index" (a rank over a suit, black, 34 px high), a "pale" one (the same, light grey: a blurred
    frame), a "star" (one 6 px mark) or "blank"."""
    img[y0 : y0 + 142, x0 : x0 + 102] = 255
    img[y0 : y0 + 142, x0] = 150
    if corner in ("index", "pale"):
        ink = 0 if corner == "index" else 222  # pale: lighter than the paper test's 170, 33 under it
        img[y0 + 4 : y0 + 22, x0 + 5 : x0 + 17] = ink  # the rank
        img[y0 + 26 : y0 + 38, x0 + 6 : x0 + 16] = ink  # the suit under it
    elif corner == "star":
        img[y0 + 6 : y0 + 12, x0 + 7 : x0 + 13] = 0


def _spread(
    bottom: str, n: int = 5, step: int = 25, x: int = 40, y: int = 30
) -> tuple[np.ndarray, Detections]:
    """``n`` cards spread left to right on felt, each on top of the one left of it, the bottom one's
    corner ``bottom``; and the detections of every card but the bottom one (their top-left indices)."""
    img = np.zeros((220, x + 2 * 102 + n * step, 3), np.uint8)
    img[:] = FELT
    boxes = []
    for k in range(n):
        x0 = x + k * step
        _card(img, x0, y, bottom if k == 0 else "index")
        if k:
            boxes.append([x0 + 3.5, y + 3, x0 + 18.5, y + 37])
    return img, Detections(np.array(boxes), np.arange(len(boxes)), np.full(len(boxes), 0.9))


@pytest.mark.parametrize("corner", ["blank", "star"])
def test_the_bottom_card_of_a_spread_with_no_index_is_found(corner: str) -> None:
    img, dets = _spread(corner)
    found = blank_corner_cards(img, dets, PX)
    assert len(found) == 1
    x0, y0, x1, y1 = found[0]
    assert abs(x0 - 43.5) < 4 and abs(y0 - 33) < 4  # at the bottom card's top-left corner
    assert x1 < 40 + 25 and y1 < 30 + 50  # index-sized, on the strip the next card leaves showing


@pytest.mark.parametrize("corner", ["index", "pale"])
@pytest.mark.parametrize("step", [25, 45])  # 45: the strip is card-high beside its index
def test_a_bottom_card_that_prints_its_index_is_not_taken_for_a_joker(step: int, corner: str) -> None:
    img, dets = _spread(corner, step=step)
    assert len(blank_corner_cards(img, dets, PX)) == 0


def test_an_unread_box_on_an_index_is_a_card_found_but_one_on_a_star_is_not() -> None:
    img, dets = _spread("index", step=45)
    box = np.array([[43.5, 33, 58.5, 67]])  # the bottom card's index, found but not read
    assert len(blank_corner_cards(img, dets, PX, unread=box)) == 0
    img, dets = _spread("star", step=45)  # the star boxed as an index: the Joker still
    assert len(blank_corner_cards(img, dets, PX, unread=box)) == 1


def test_a_top_card_whose_index_ends_a_box_found_is_not_a_joker() -> None:
    # b42-0009: a faint 2s on top of a spread; its top-left index was taken into one box with the
    # index of the card under it, the box ending at the 2s's bottom-right index
    img, dets = _spread("index", n=4)
    x_top = 40 + 4 * 25
    _card(img, x_top, 30, "blank")  # what the pale corner looks like to the ink test
    first = Detections(np.array([[43.5, 33, 58.5, 67]]), np.array([30]), np.array([0.8]))
    merged = Detections(np.array([[x_top - 21.5, 33, x_top + 98, 169]]), np.array([12]), np.array([0.6]))
    assert len(blank_corner_cards(img, Detections.merge([first, dets[:-1], merged]), PX)) == 0


@pytest.mark.parametrize("step", [25, 45])
def test_a_wide_strip_with_a_blank_corner_is_found(step: int) -> None:
    img, dets = _spread("blank", step=step)
    assert len(blank_corner_cards(img, dets, PX)) == 1


def test_a_spread_fully_found_has_no_blank_corner() -> None:
    img, dets = _spread("index")
    first = Detections(np.array([[43.5, 33, 58.5, 67]]), np.array([30]), np.array([0.8]))
    assert len(blank_corner_cards(img, Detections.merge([first, dets]), PX)) == 0


def test_the_top_card_of_a_spread_with_no_index_is_found() -> None:
    img, dets = _spread("index", n=4)
    x_top = 40 + 4 * 25
    _card(img, x_top, 30, "blank")  # a fifth card laid on top, its corner blank
    first = Detections(np.array([[43.5, 33, 58.5, 67]]), np.array([30]), np.array([0.8]))
    found = blank_corner_cards(img, Detections.merge([first, dets]), PX)
    assert len(found) == 1
    assert abs(found[0][0] - (x_top + 3.5)) < 4


def test_a_lone_card_with_a_blank_corner_is_found() -> None:
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    _card(img, 40, 30, "blank")
    found = blank_corner_cards(img, Detections(), PX)
    assert len(found) == 1 and abs(found[0][0] - 43.5) < 4


def test_a_card_s_own_edge_caught_in_its_corner_is_not_counted_as_ink() -> None:
    # b41-0013: a tigullio Joker lying alone, its star (17 px of ink) under an index's height (20 px),
    # but a row of its dark top edge, caught at the top of the corner looked at, made the ink 22 high
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    _card(img, 40, 30, "blank")
    img[48:65, 55:66] = 0  # the star: 17 rows, from 18 px below the card's top
    img[30:33, 40:142] = 200  # the card's top edge, blurred: light enough for paper, dark enough for ink
    assert len(blank_corner_cards(img, Detections(), PX)) == 1
    img[34:51, 55:66] = 0  # a real index's height of ink from just under the edge: a face, not a Joker
    assert len(blank_corner_cards(img, Detections(), PX)) == 0


def test_a_card_s_rounded_corner_caught_in_its_corner_is_not_counted_as_ink() -> None:
    # b83-0003 (seed 83, 720p): the same Joker, its box a pixel higher after the payout, caught the
    # card's rounded corner: the top edge two rows deep and the left edge a row further down, one
    # stroke three rows high, which the one-side rule (at most two pixels thick) did not take out
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    _card(img, 40, 30, "blank")
    img[48:65, 55:66] = 0  # the star: 17 rows
    img[32:34, 44:62] = 200  # the top edge, blurred, along the top of the corner looked at
    img[32:35, 44:46] = 200  # and curving down its left side
    assert len(blank_corner_cards(img, Detections(), PX)) == 1
    img[36:53, 55:66] = 0  # a real index's height of ink under the corner: a face, not a Joker
    assert len(blank_corner_cards(img, Detections(), PX)) == 0


def test_white_lines_and_what_reaches_in_from_the_edge_are_not_cards() -> None:
    img = np.zeros((220, 300, 3), np.uint8)
    img[:] = FELT
    img[10:200, 20:24] = 255  # a zone's printed border
    img[10:14, 20:280] = 255
    img[40:190, 250:300] = 255  # a white cuff reaching in from the right edge
    assert len(blank_corner_cards(img, Detections(), PX)) == 0


def test_a_card_short_of_a_cards_height_is_not_a_card() -> None:
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    img[30:100, 40:142] = 255  # a white slip half a card high
    assert len(blank_corner_cards(img, Detections(), PX)) == 0


def test_a_back_explains_the_card_it_boxes() -> None:
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    _card(img, 40, 30, "blank")  # a white-bordered back is boxed whole by the detector
    back = Detections(np.array([[40, 30, 142, 172]]), np.array([BACK_CLASS]), np.array([0.9]))
    assert len(blank_corner_cards(img, back, PX)) == 0


def test_an_index_box_explains_the_card_below_it_and_the_card_above_its_turned_corner() -> None:
    dets = Detections(np.array([[100, 200, 115, 235]]), np.array([5]), np.array([0.9]))
    rects = found_card_rects(dets, PX)
    cw, ch = 63.5 * PX, 88.9 * PX
    assert len(rects) == 2
    down, up = rects
    assert down[0] < 100 < down[2] and abs(down[3] - down[1] - ch) < 1e-6 and down[1] < 200
    assert up[3] > 235 and up[1] < 200 - ch / 2 and abs(up[2] - up[0] - cw) < 1e-6


GROUND = (70, 30, 10)  # the i-Verify display's dark ground


def _panel(corners: list[str], width: int = 700, picture: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """The display below its header at 1.6 px/mm, a card in each of the default slots (5 high, 2 low)
    with ``corners[i]`` in slot i's corner ("index", "blank", "star", or "" for no card), and a grey
    ``picture`` mm square in each card's middle; the boxes a detector finds (the "index" cards' top-left
    indices) and the scale."""
    from vision.layout import IVerifySlots

    geo, px = IVerifySlots(), 1.6
    cw, ch = round(geo.card_width_mm * px), round(geo.card_width_mm * px * 88.9 / 63.5)
    img = np.zeros((ch + 30, width, 3), np.uint8)
    img[:] = GROUND
    found = []
    for i, corner in enumerate(corners):
        if not corner:
            continue
        mm = geo.margin_mm + i * (geo.card_width_mm + geo.gap_mm) + (geo.low_break_mm if i >= 5 else 0)
        x0, y0 = round(mm * px), 12
        img[y0 : y0 + ch, x0 : min(x0 + cw, width)] = 250
        if corner == "index":
            img[y0 + 5 : y0 + 20, x0 + 5 : x0 + 15] = 0  # the rank
            img[y0 + 22 : y0 + 32, x0 + 5 : x0 + 15] = 0  # the suit
            found.append([x0 + 3, y0 + 3, x0 + 17, y0 + 34])
        elif corner == "star":
            img[y0 + 6 : y0 + 11, x0 + 6 : x0 + 11] = 0
        if picture:
            p = round(picture * px / 2)
            img[y0 + ch // 2 - p : y0 + ch // 2 + p, x0 + cw // 2 - p : x0 + cw // 2 + p] = 110
    return img, np.array(found, np.float64).reshape(-1, 4), px


@pytest.mark.parametrize("picture", [0, 20, 40])
def test_a_card_on_the_display_with_no_index_in_a_slot_nothing_was_found_in_is_found(picture: int) -> None:
    from vision.layout import IVerifySlots

    img, found, px = _panel(["index"] * 5 + ["blank", "index"], picture=picture)
    got = blank_slot_cards(img, found, px, IVerifySlots(), 5, 2)
    slot5 = (IVerifySlots().margin_mm + 5 * (IVerifySlots().card_width_mm + 3.0) + 14.0) * px
    assert len(got) == 1 and abs(got[0, 0] - slot5) < 8 and got[0, 1] < 30  # at that card's corner


def test_the_display_s_faces_not_found_empty_slots_and_cut_off_cards_are_not_jokers() -> None:
    from vision.layout import IVerifySlots

    geo = IVerifySlots()
    # a face whose index was not found: ink in its corner
    img, found, px = _panel(["index"] * 5 + ["index", "index"])
    assert len(blank_slot_cards(img, found[[0, 1, 2, 3, 4, 6]], px, geo, 5, 2)) == 0
    # a slot showing the ground: no card there
    img, found, px = _panel(["index"] * 5 + ["", "index"])
    assert len(blank_slot_cards(img, found, px, geo, 5, 2)) == 0
    # the last slot cut off by the panel's edge is not looked at
    img, found, px = _panel(["index"] * 6 + ["blank"], width=650)
    assert len(blank_slot_cards(img, found, px, geo, 5, 2)) == 0
    # something found on the card (an index box reaching into the slot): not looked at
    img, found, px = _panel(["index"] * 5 + ["blank", "index"])
    slot5 = (geo.margin_mm + 5 * (geo.card_width_mm + geo.gap_mm) + geo.low_break_mm) * px
    onto = np.vstack([found, [[slot5 + 40, 20, slot5 + 60, 50]]])
    assert len(blank_slot_cards(img, onto, px, geo, 5, 2)) == 0
    # a star small enough is still a blank corner (tigullio's Joker), an index is not
    img, found, px = _panel(["index"] * 5 + ["star", "index"])
    assert len(blank_slot_cards(img, found, px, geo, 5, 2)) == 1


@pytest.mark.parametrize("skin", [(165, 190, 235), (150, 175, 225)])  # the renderer's two lightest tones
def test_a_light_hand_resting_on_a_lone_card_is_not_taken_for_its_paper(skin: tuple[int, int, int]) -> None:
    # b91-0003 (seed 91, 720p): seat 1's low Joker turned up, the dealer's hand turning the high hand
    # over above it, a thumb on the Joker's top edge; the light skin passed the paper test, joined the
    # card to the arm and the crop's edge, and no card-shaped strip was left: unnamed for a second
    img = np.zeros((220, 200, 3), np.uint8)
    img[:] = FELT
    _card(img, 40, 60, "blank")
    img[0:72, 70:140] = skin  # the hand, from the crop's edge onto the card's top, clear of its corner
    assert len(blank_corner_cards(img, Detections(), PX)) == 1
    img[0:72, 70:140] = 255  # a white cuff there instead: paper reaching the edge, no card found
    assert len(blank_corner_cards(img, Detections(), PX)) == 0


def test_a_skin_coloured_face_in_a_joker_s_picture_is_its_paper() -> None:
    # b91-0011 (seed 91, 720p): dondorf's Joker, a spread's bottom card, its jester's face in the strip
    # the next card leaves showing; taken for skin, it cut the strip in two, neither card-high
    img, dets = _spread("blank")
    img[110:126, 44:60] = (150, 175, 225)  # a face, 16 x 16 px, in the strip
    assert len(blank_corner_cards(img, dets, PX)) == 1


def test_a_lone_joker_a_found_card_s_other_rectangle_lies_over_is_found() -> None:
    # b84-0011 (seed 84, 720p): the dealer's hand on seat 1's high hand left only its 5c's turned
    # bottom-left index in view; that index is counted as a card above it and as one below it, and the
    # one below took in the top-left of the low hand's Joker, turned up whole below the high hand: a
    # third of the Joker's paper counted as explained, and it was named only once the hand had gone
    img = np.zeros((360, 260, 3), np.uint8)
    img[:] = FELT
    _card(img, 66, 20, "blank")  # the high hand's card, its turned index at its bottom-left
    img[140:152, 72:82] = 0  # the turned suit
    img[156:174, 71:83] = 0  # and rank
    index = Detections(np.array([[70.0, 138, 85, 175]]), np.array([5]), np.array([0.8]))
    _card(img, 120, 190, "blank")  # the Joker, whole, a card's width right of the index
    found = blank_corner_cards(img, index, PX)
    assert len(found) == 1 and abs(found[0][0] - 123.5) < 4 and abs(found[0][1] - 193) < 4
    _card(img, 120, 190, "index")  # a face lying there instead: its index is printed
    assert len(blank_corner_cards(img, index, PX)) == 0
