"""The card body look (vision.card_body): the window cut under an index, and how its read weighs the
index read. No model: drawn images and made-up probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from vision.card_body import NO_BODY, WINDOW_H, WINDOW_W, body_weights, body_window, fuse

PX = 1.6  # px per mm: a card is 101.6 x 142.2 px
GREY = 128


def _spread(n: int, step: int = 26) -> tuple[np.ndarray, np.ndarray]:
    """A white spread of ``n`` cards on green felt, each on top of the one to its left, every card's
    left pip column drawn as a black dot 30 px in; and each card's top-left index box."""
    img = np.zeros((200, 120 + n * step, 3), np.uint8)
    img[:] = (40, 120, 40)
    boxes = []
    for k in range(n):
        x0, y0 = 10 + k * step, 20
        img[y0 : y0 + 142, x0 : x0 + 102] = 255
        img[y0 + 40 : y0 + 48, x0 + 30 : x0 + 38] = 0  # a pip in the left column
        img[y0 + 4 : y0 + 36, x0 + 4 : x0 + 18] = (0, 0, 200)  # the index (red ink)
        boxes.append([x0 + 3.5, y0 + 3, x0 + 18.5, y0 + 37])
    return img, np.array(boxes)


def test_a_card_on_top_shows_whole_and_its_index_is_painted_out() -> None:
    img, boxes = _spread(3)
    win = body_window(img, boxes[-1], boxes, PX)
    assert win.shape == (WINDOW_H, WINDOW_W, 3)
    # its pip is there (30-38 px in and 40-48 down, of 102 x 142: about 14-18 across, 18-21 down)
    assert win[18:21, 15:17].max() < 60
    # the index (4-18 px in, 4-36 down) is painted grey, not left in red
    corner = win[3:14, 2:7]
    assert np.abs(corner.astype(int) - GREY).max() <= 2
    # the card is white across its whole width: nothing lies on it
    assert win[40, 10:40].min() > 200


def test_a_card_under_the_next_one_shows_only_its_strip() -> None:
    img, boxes = _spread(3)
    win = body_window(img, boxes[0], boxes, PX)
    # the next card's left edge lies 26 px on: ~12 of the window's 48 columns; the rest is grey
    assert np.abs(win[:, 14:].astype(int) - GREY).max() <= 2
    assert win[40, 9:12].min() > 200  # the strip itself is the card's white


def test_an_index_at_another_height_does_not_cut_the_window() -> None:
    img, boxes = _spread(2)
    lower = boxes.copy()
    lower[1, [1, 3]] += 60  # the second card's index far below the first's: not its neighbour in a spread
    win = body_window(img, lower[0], lower, PX)
    assert (np.abs(win[:, 20:40].astype(int) - GREY) > 2).any()


def test_window_off_the_image_is_grey_not_an_error() -> None:
    img, boxes = _spread(1)
    shift = np.array([60.0, 100.0, 60.0, 100.0])  # the card hangs off the image's bottom edge
    win = body_window(img, boxes[0] + shift, boxes + shift, PX)
    assert win.shape == (WINDOW_H, WINDOW_W, 3)
    assert (win[-5:] == GREY).all()


def _probs(pairs: dict[int, float], n: int = 54) -> np.ndarray:
    p = np.full(n, 1e-4, np.float32)
    for k, v in pairs.items():
        p[k] = v
    return (p / p.sum())[None]


FIVE_C, JACK_C, FIVE_S = 3 * 4 + 3, 9 * 4 + 3, 3 * 4  # card codes: rank * 4 + suit (s h d c)


def test_a_body_that_shows_a_five_turns_a_doubtful_jack_into_the_five() -> None:
    index = _probs({JACK_C: 0.39, FIVE_C: 0.23, 53: 0.05})
    # a 5, its suit read wrong: it weighs the clubs down, but the index read no other 5 to prefer
    body = _probs({FIVE_S: 0.5, FIVE_S + 1: 0.2, 7 * 4: 0.05})
    fused = fuse(index, body)
    assert fused.argmax() == FIVE_C
    assert fused[0, FIVE_C] > 0.8
    np.testing.assert_allclose(fused.sum(), 1.0, rtol=1e-5)


def test_a_window_with_no_card_body_leaves_the_index_read_as_it_was() -> None:
    index = _probs({JACK_C: 0.39, FIVE_C: 0.23, 52: 0.1, 53: 0.05})
    body = np.zeros((1, 54), np.float32)
    body[0, NO_BODY] = 1.0
    np.testing.assert_allclose(fuse(index, body), index, rtol=1e-5)


def test_suits_of_a_rank_are_weighed_alike() -> None:
    body = _probs({FIVE_S: 0.9})
    w = body_weights(body)[0]
    assert w[12] == pytest.approx(w[13]) == pytest.approx(w[14]) == pytest.approx(w[15])
    assert w[12] > 20 * w[JACK_C]


def test_classifier_columns_in_another_order_are_weighed_by_their_own_card() -> None:
    index = _probs({JACK_C: 0.39, FIVE_C: 0.23})
    body = _probs({FIVE_S: 0.9})
    order = np.arange(54)[::-1].copy()  # column j holds card 53 - j
    fused = fuse(index[:, order], body, order)
    np.testing.assert_allclose(fused[:, order.argsort()], fuse(index, body), rtol=1e-5)


def _pip_card(
    ink: tuple[int, int, int], pips: int = 8, fringe: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """One whole card on a dark ground (the i-Verify panel) with ``pips`` big pips in ``ink`` (BGR);
    ``fringe``: each pip edged in light red, as the video's colour blur draws black ink; and its index box."""
    img = np.zeros((180, 140, 3), np.uint8)
    img[:] = (60, 20, 10)
    x0, y0 = 10, 20
    img[y0 : y0 + 142, x0 : x0 + 102] = 245
    for k in range(pips):
        px, py = x0 + 25 + (k % 2) * 40, y0 + 20 + (k // 2) * 28
        if fringe:
            img[py - 1 : py + 15, px - 1 : px + 17] = (190, 190, 250)
        img[py : py + 14, px : px + 16] = ink
    img[y0 + 4 : y0 + 36, x0 + 4 : x0 + 18] = ink  # the index
    return img, np.array([[x0 + 3.5, y0 + 3, x0 + 18.5, y0 + 37]])


def test_a_cards_ink_is_red_or_black_where_its_pips_say_so_and_unknown_where_too_little_shows() -> None:
    from vision.card_body import BLACK, RED, UNKNOWN, ink_colour

    for ink, fringe, want in [
        ((20, 20, 20), False, BLACK),
        ((20, 20, 20), True, BLACK),
        ((40, 30, 200), False, RED),
    ]:
        img, box = _pip_card(ink, fringe=fringe)
        assert ink_colour(body_window(img, box[0], box, PX)) == want, (ink, fringe)
    img, box = _pip_card((20, 20, 20), pips=1)  # a card of one small pip: too little ink to tell
    assert ink_colour(body_window(img, box[0], box, PX)) == UNKNOWN
    img, box = _pip_card((200, 60, 30))  # blue ink (a four-colour deck's diamonds): neither
    assert ink_colour(body_window(img, box[0], box, PX)) == UNKNOWN
    img, boxes = _spread(3)  # a strip of a card under the next: its one pip is too little
    assert ink_colour(body_window(img, boxes[0], boxes, PX)) == UNKNOWN


def test_the_inks_colour_all_but_rules_out_the_pip_faces_of_the_other_colour_not_court_faces() -> None:
    from vision.card_body import BLACK, OTHER_COLOUR, RED, UNKNOWN, colour_weights
    from vision.detections import CLASSES

    w = colour_weights([BLACK, RED, UNKNOWN])
    code = {c: i for i, c in enumerate(CLASSES)}
    assert w[0, code["8d"]] == w[0, code["Ah"]] == OTHER_COLOUR and w[0, code["8s"]] == w[0, code["Ac"]] == 1
    assert w[1, code["8s"]] == w[1, code["Tc"]] == OTHER_COLOUR and w[1, code["8d"]] == 1
    assert w[0, code["Kd"]] == w[1, code["Qs"]] == w[0, code["Jk"]] == w[0, NO_BODY] == 1
    assert (w[2] == 1).all()
    # a doubtful 8d over 8s on a card whose ink is black is read 8s; an unknown ink leaves it 8d
    index = _probs({code["8d"]: 0.59, code["8s"]: 0.2})
    nothing = _probs({NO_BODY: 1.0})
    assert fuse(index, nothing, colours=[BLACK]).argmax() == code["8s"]
    assert fuse(index, nothing, colours=[UNKNOWN]).argmax() == code["8d"]


def test_a_body_sure_of_spade_against_club_all_but_rules_out_the_other_black_suit() -> None:
    """The body's suit is trusted for spade against club only where it is sure: dondorf's As read Ac
    0.55 / As 0.40 at its small index, its big pip a spade."""
    from vision.card_body import OTHER_BLACK_SUIT, black_suit_weights
    from vision.detections import CLASSES

    code = {c: i for i, c in enumerate(CLASSES)}
    sure_spade = _probs({code["As"]: 0.85, code["Ac"]: 0.05})
    torn = _probs({code["As"]: 0.5, code["Ac"]: 0.4})  # not sure: nothing
    faint = _probs({code["As"]: 0.25, NO_BODY: 0.7})  # too little said of either suit: nothing
    sure_club = _probs({code["7c"]: 0.9})
    w = black_suit_weights(np.concatenate([sure_spade, torn, faint, sure_club]))
    assert w[0, code["Ac"]] == w[0, code["7c"]] == OTHER_BLACK_SUIT
    assert w[0, code["As"]] == w[0, code["Ad"]] == w[0, code["Ah"]] == w[0, code["Jk"]] == 1
    assert (w[1] == 1).all() and (w[2] == 1).all()
    assert w[3, code["7s"]] == w[3, code["As"]] == OTHER_BLACK_SUIT and w[3, code["7c"]] == 1
    index = _probs({code["Ac"]: 0.55, code["As"]: 0.4})
    assert fuse(index, sure_spade).argmax() == code["As"]
    assert fuse(index, torn).argmax() == code["Ac"]


def _index(ink: tuple[int, int, int], glyph: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """A 720p-sized index (13 x 30 px) on card paper: its rank and suit strokes in ``ink`` (BGR),
    ``glyph`` rows of them, a little blurred as a video's are."""
    import cv2

    img = np.full((40, 24, 3), 235, np.uint8)
    img[6 : 6 + glyph, 8:11] = ink  # the rank's stroke
    img[22:30, 7:13] = ink  # the suit's pip
    img = cv2.GaussianBlur(img, (3, 3), 0)
    return img, np.array([5.0, 4.0, 18.0, 34.0])


def test_an_index_prints_its_suits_colour_red_or_black_and_another_ink_tells_nothing() -> None:
    from vision.card_body import BLACK, RED, UNKNOWN, index_ink

    for ink, want in [((25, 25, 25), BLACK), ((40, 30, 200), RED), ((60, 60, 170), RED)]:
        img, box = _index(ink)
        assert index_ink(img, box) == want, ink
    img, box = _index((200, 60, 30))  # blue ink (a four-colour deck's diamonds): neither
    assert index_ink(img, box) == UNKNOWN
    img, box = _index((40, 150, 40))  # green (a four-colour deck's clubs): neither
    assert index_ink(img, box) == UNKNOWN
    img, box = _index((25, 25, 25))
    assert index_ink(img, np.array([5.0, 4.0, 18.0, 6.0])) == UNKNOWN  # two rows of paper: no ink
    assert index_ink(img, np.array([30.0, 4.0, 40.0, 34.0])) == UNKNOWN  # off the image


def test_the_index_ink_rules_out_every_face_of_the_other_colour_court_faces_too() -> None:
    from vision.card_body import BLACK, OTHER_COLOUR, RED, UNKNOWN, index_colour_weights
    from vision.detections import CLASSES

    w = index_colour_weights([BLACK, RED, UNKNOWN])
    code = {c: i for i, c in enumerate(CLASSES)}
    assert w[0, code["7d"]] == w[0, code["Qh"]] == OTHER_COLOUR and w[0, code["7s"]] == w[0, code["Kc"]] == 1
    assert w[1, code["Qs"]] == w[1, code["4c"]] == OTHER_COLOUR and w[1, code["Qd"]] == 1
    assert w[0, code["Jk"]] == w[1, code["Jk"]] == w[0, NO_BODY] == 1 and (w[2] == 1).all()


def test_a_pip_card_drawn_whole_has_its_suit_told_by_its_body() -> None:
    """The i-Verify display's pips are large where its index is a few pixels (seed 100's 3h read 3d
    0.77, its body hearts 0.91; seed 81's As read Ad, its body spades 0.89): where the body reads the
    face's rank, each suit its surest suit is sure against weighs the body's odds of it; not a court
    face, not another rank's body (the next card's), not a body unsure or saying too little."""
    from vision.card_body import pip_suit_weights
    from vision.detections import CLASSES

    code = {c: i for i, c in enumerate(CLASSES)}
    hearts = _probs({code["3h"]: 0.9, code["3d"]: 0.03})
    clubs = _probs({code["2c"]: 0.64, code["2s"]: 0.14, code["2h"]: 0.1, code["2d"]: 0.1})  # sure at 0.6
    spades = _probs({code["As"]: 0.89, code["Ad"]: 0.04})
    torn = _probs({code["5c"]: 0.24, code["5s"]: 0.64})  # 0.45 apart: not sure against the club
    faint = _probs({code["7s"]: 0.2, NO_BODY: 0.75})
    court = _probs({code["Qs"]: 0.95})
    body = np.concatenate([hearts, hearts, clubs, spades, torn, faint, court, hearts])
    faces = np.array([code[c] for c in ("3d", "3h", "2s", "Ad", "5c", "7s", "Qc", "9d")])
    w = pip_suit_weights(body, faces)

    def odds(p: np.ndarray, suit: int, surest: int) -> float:  # the suits' probabilities, ranks summed
        return float(p[0, suit:52:4].sum() / p[0, surest:52:4].sum())

    for row in (0, 1):  # read 3d or 3h: every suit but hearts weighs its odds, hearts 1
        assert w[row, code["3d"]] == w[row, code["Kd"]] == pytest.approx(odds(hearts, 2, 1), rel=0.01)
        assert w[row, code["3s"]] == pytest.approx(odds(hearts, 0, 1), rel=0.01)
        assert odds(hearts, 0, 1) < 0.05
        assert w[row, code["3h"]] == w[row, code["Kh"]] == w[row, code["Jk"]] == 1
    assert w[2, code["2s"]] == pytest.approx(odds(clubs, 0, 3), rel=0.01) and w[2, code["2c"]] == 1
    assert w[3, code["Ad"]] == pytest.approx(odds(spades, 2, 0), rel=0.01) and w[3, code["As"]] == 1
    assert w[4, code["5c"]] == w[4, code["5s"]] == 1  # unsure of spade against club: neither weighed
    for row in (5, 6, 7):  # too faint; a court; the body of a three under a nine
        assert (w[row] == 1).all()
    for row, read, truth in ((0, "3d", "3h"), (3, "Ad", "As")):
        index = _probs({code[read]: 0.77, code[truth]: 0.05})
        assert (index * w[row]).argmax() == code[truth]
