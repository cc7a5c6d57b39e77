"""The runtime detector's own logic on synthetic raw outputs: YOLO decoding, NMS, merging the two
index corners of a card. No model needed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rules.cards import parse_card
from vision.detections import BACK_CLASS, Detections
from vision.detector import decode_yolo, merge_index_corners, nms


def _raw(rows: list[tuple[float, float, float, float, int, float]], nc: int = 2, n: int = 50) -> np.ndarray:
    """A fake (1, 4 + nc, n) YOLO output: the given boxes, then low-score filler."""
    out = np.zeros((4 + nc, n), np.float32)
    out[:4, :] = [[10], [10], [4], [4]]
    out[4:, :] = 0.01
    for i, (cx, cy, w, h, c, s) in enumerate(rows):
        out[:4, i] = (cx, cy, w, h)
        out[4 + c, i] = s
    return out[None]


def test_nms_drops_overlapping_lower_score_and_keeps_separate_boxes() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], np.float32)
    keep = nms(boxes, np.array([0.9, 0.8, 0.7], np.float32), iou=0.5)
    assert keep.tolist() == [0, 2]


def test_nms_keeps_boxes_below_iou_threshold() -> None:
    boxes = np.array([[0, 0, 10, 10], [6, 0, 16, 10]], np.float32)  # IoU = 4/16 = 0.25
    assert sorted(nms(boxes, np.array([0.9, 0.8], np.float32), iou=0.5).tolist()) == [0, 1]
    assert nms(boxes, np.array([0.9, 0.8], np.float32), iou=0.2).tolist() == [0]


def test_decode_cuts_confidence_and_maps_back_through_letterbox() -> None:
    raw = _raw(
        [
            (100, 60, 20, 40, 0, 0.9),
            (101, 61, 20, 40, 0, 0.6),
            (30, 30, 10, 10, 1, 0.8),
            (200, 200, 10, 10, 0, 0.2),
        ]
    )
    # letterbox: image scaled by 0.5, padded 8 px at the top
    xyxy, cls, score = decode_yolo(
        raw, conf=0.3, iou=0.5, scale=0.5, pad=(0.0, 8.0), image_shape=(1000, 1000)
    )
    assert cls.tolist() == [0, 1]
    assert score.tolist() == pytest.approx([0.9, 0.8])
    assert xyxy[0].tolist() == pytest.approx([180, 64, 220, 144])
    assert xyxy[1].tolist() == pytest.approx([50, 34, 70, 54])


def test_decode_nms_is_per_class() -> None:
    raw = _raw([(50, 50, 20, 20, 0, 0.9), (50, 50, 20, 20, 1, 0.8)])
    _, cls, _ = decode_yolo(raw, conf=0.3, iou=0.5)
    assert sorted(cls.tolist()) == [0, 1]


def test_decode_clips_to_image() -> None:
    raw = _raw([(5, 5, 20, 20, 0, 0.9)])
    xyxy, _, _ = decode_yolo(raw, conf=0.3, iou=0.5, image_shape=(100, 100))
    assert xyxy[0].tolist() == pytest.approx([0, 0, 15, 15])


def test_decode_rejects_wrong_shape() -> None:
    with pytest.raises(ValueError, match="4 \\+ nc"):
        decode_yolo(np.zeros((1, 3, 10), np.float32), conf=0.3, iou=0.5)


def _dets(rows: list[tuple[float, float, float, float, int, float]]) -> Detections:
    return Detections(
        np.array([r[:4] for r in rows], np.float32),
        np.array([r[4] for r in rows]),
        np.array([r[5] for r in rows], np.float32),
    )


def test_two_corners_of_one_card_become_one_card_with_the_union_box() -> None:
    ace = parse_card("As").code
    d = _dets([(10, 10, 20, 40, ace, 0.9), (80, 110, 90, 140, ace, 0.7)])
    m = merge_index_corners(d)
    assert len(m) == 1
    assert m.labels == ["As"]
    assert m.xyxy[0].tolist() == pytest.approx([10, 10, 90, 140])
    assert float(m.confidence[0]) == pytest.approx(0.9)


def test_corners_of_different_cards_stay_apart() -> None:
    a, k = parse_card("As").code, parse_card("Kd").code
    d = _dets([(10, 10, 20, 40, a, 0.9), (30, 10, 40, 40, k, 0.8)])
    m = merge_index_corners(d)
    assert sorted(m.labels) == ["As", "Kd"]


def test_same_card_far_apart_is_not_merged() -> None:
    a = parse_card("As").code
    d = _dets([(0, 0, 10, 20, a, 0.9), (900, 900, 910, 920, a, 0.8)])  # 1270 px apart, index 20 px
    assert len(merge_index_corners(d, merge_distance=9.0)) == 2


def test_three_same_class_indices_merge_nearest_pair_only() -> None:
    a = parse_card("7h").code
    d = _dets([(0, 0, 10, 20, a, 0.9), (60, 100, 70, 120, a, 0.8), (1000, 0, 1010, 20, a, 0.5)])
    m = merge_index_corners(d)
    assert len(m) == 2
    assert sorted(m.confidence.tolist()) == pytest.approx([0.5, 0.9])


def test_two_cards_of_one_face_with_another_card_between_stay_two() -> None:
    """A duplicate fanned in one hand: two Ac top-left indices 50 px apart at 1.6 px/mm with the Ad's
    between them. Joined, the hand showed one Ac and was a card short (a count review item, not the
    duplicate FOREIGN-CARD must report). Without the card between, the same two boxes are one card's
    (a four-corner deck's top-left and top-right are a card apart; these are nearer, so the test
    asserts only the card between decides)."""
    ace_c, ace_d = parse_card("Ac").code, parse_card("Ad").code
    # 51 px apart: more than half a card (50.8 px at 1.6 px/mm), so not spread neighbours
    fan = [(60, 30, 75, 64, ace_c, 0.9), (86, 30, 101, 64, ace_d, 0.9), (111, 30, 127, 64, ace_c, 0.8)]
    assert sorted(merge_index_corners(_dets(fan), card_px_per_mm=1.6).labels) == ["Ac", "Ac", "Ad"]
    assert merge_index_corners(_dets([fan[0], fan[2]]), card_px_per_mm=1.6).labels == ["Ac"]
    # an index found and not named between them is another card too
    unread = np.array([[86, 30, 101, 64]], np.float32)
    two = merge_index_corners(_dets([fan[0], fan[2]]), unread=unread, card_px_per_mm=1.6)
    assert two.labels == ["Ac", "Ac"]
    # a still (no scale: cards at any overlap) keeps the old rule
    assert sorted(merge_index_corners(_dets(fan)).labels) == ["Ac", "Ad"]


def test_at_a_known_scale_one_face_beyond_a_cards_diagonal_or_beside_itself_is_two_cards() -> None:
    """The camera pipeline knows the scale (1.6 px/mm: a card 102 x 142 px, its diagonal 176 px). A
    seat's high-hand Th and his low-hand Th, 175 px apart down one column (the union 210 px long:
    no card spreads its indices so far at any turn), and two 6c side by side in one fan (spread
    neighbours, 26 px apart: a card's own indices lie a card's width or length apart) are two cards
    each; unscaled (stills), the old reach joins them. A card's own two indices still join."""
    ten_h, six_c = parse_card("Th").code, parse_card("6c").code
    high_low = [(109, 30, 123, 64, ten_h, 0.54), (97, 205, 110, 240, ten_h, 0.58)]
    fan = [(110, 30, 127, 64, six_c, 0.48), (136, 31, 152, 64, six_c, 0.40)]
    for hand in (high_low, fan):
        assert len(merge_index_corners(_dets(hand), card_px_per_mm=1.6)) == 2
        assert len(merge_index_corners(_dets(hand))) == 1
    own = [(60, 30, 75, 64, ten_h, 0.8), (147, 138, 162, 172, ten_h, 0.7)]  # top-left, bottom-right
    assert merge_index_corners(_dets(own), card_px_per_mm=1.6).xyxy.tolist() == [[60, 30, 162, 172]]
    edge = [(60, 30, 75, 64, ten_h, 0.8), (60, 138, 75, 172, ten_h, 0.7)]  # a four-corner deck's left edge
    assert len(merge_index_corners(_dets(edge), card_px_per_mm=1.6)) == 1


def test_a_court_cards_picture_read_as_its_face_beside_its_index_is_still_that_one_card() -> None:
    """b58-0005 (720p): the dealer's lone Qh, its top-left index boxed short (21 px) and a box in the
    queen's picture beside it of that height, 34 px along: spread neighbours by their geometry, and
    both read Qh at 0.993 (so left as read: ``_BOTH_SURE``). The detector keeps the picture's box
    apart from the index, but the card's two corners join into a card-long box it lies inside, and
    the pipeline's merge makes them one Qh (no false duplicate)."""
    from vision.pipeline import merge_card_indices

    q = parse_card("Qh").code
    card = [(490, 234, 503, 255, q, 0.89), (524, 234, 541, 255, q, 0.89), (576, 296, 589, 370, q, 0.88)]
    found = merge_index_corners(_dets(card), card_px_per_mm=1.6)
    assert len(found) == 2
    merged = merge_card_indices(found, 1.6)
    assert merged.labels == ["Qh"] and merged.xyxy.tolist() == [[490, 234, 589, 370]]


def test_a_cards_two_corners_with_a_pip_read_as_an_index_between_them_are_one_card() -> None:
    """b74-0007 (seed 74, 1440x810): a lone 9c's two corners read 9c (0.64, 0.74) and, amid its clubs,
    a Jk at 0.42: the Jk between them kept the corners two cards, and the low hand read 9c 9c Jk
    (a false CARD-COUNT alert). Two reads of one face at a card's opposite corners are that card;
    what lies inside it is its own body, taken into it. Two of one face with another card's index
    between them in a row (a spread) stay two."""
    from vision.pipeline import merge_card_indices

    nine, jk = parse_card("9c").code, 52
    card = [(0, 0, 15, 34, nine, 0.64), (87, 108, 102, 142, nine, 0.74), (40, 55, 58, 85, jk, 0.42)]
    merged = merge_card_indices(_dets(card), 1.6)
    assert merged.labels == ["9c"] and merged.xyxy.tolist() == [[0, 0, 102, 142]]
    # the same card lying sideways in the crop
    sideways = [(0, 0, 34, 15, nine, 0.64), (108, 87, 142, 102, nine, 0.74), (55, 40, 85, 58, jk, 0.42)]
    assert merge_card_indices(_dets(sideways), 1.6).labels == ["9c"]
    # a sure read between is another card's index (b72-0011: a hand's two 6h, an injected duplicate,
    # a 9h read between them): the two stay two
    sure = [*card[:2], (40, 55, 58, 85, parse_card("9h").code, 0.8)]
    assert sorted(merge_card_indices(_dets(sure), 1.6).labels) == ["9c", "9c", "9h"]
    # a row: 9c, Kd, 9c fanned (each 20 px along): two nines with a card between
    row = [(0, 0, 15, 34, nine, 0.9), (20, 0, 35, 34, parse_card("Kd").code, 0.9), (40, 0, 55, 34, nine, 0.9)]
    assert sorted(merge_card_indices(_dets(row), 1.6).labels) == ["9c", "9c", "Kd"]


def test_a_four_corner_cards_other_corner_read_as_another_face_does_not_split_it() -> None:
    """dondorf's 2s: top-left and bottom-right read 2s, the top-right 2c. The 2c lies inside the
    union of the 2s pair, at its corner (the card's own index), so the pair is still one card."""
    two_s, two_c = parse_card("2s").code, parse_card("2c").code
    card = [(0, 0, 15, 34, two_s, 0.9), (87, 108, 102, 142, two_s, 0.8), (87, 0, 102, 34, two_c, 0.6)]
    assert sorted(merge_index_corners(_dets(card), card_px_per_mm=1.6).labels) == ["2c", "2s"]


def test_card_between_reads_a_row_of_indices_and_a_card_corner_to_corner() -> None:
    from vision.detections import card_between

    a, b = np.array([60, 30, 75, 64], np.float32), np.array([111, 30, 127, 64], np.float32)
    assert card_between(a, b, np.array([[86, 30, 101, 64]], np.float32))  # a row: the card between
    assert not card_between(a, b, np.array([[137, 30, 152, 64]], np.float32))  # beside, not between
    assert not card_between(a, b, np.zeros((0, 4), np.float32))
    # corner to corner (a card 91 x 140): its other corners' indices do not count, its middle does
    tl, br = np.array([0, 0, 15, 34], np.float32), np.array([76, 106, 91, 140], np.float32)
    assert not card_between(tl, br, np.array([[76, 0, 91, 34], [0, 106, 15, 140]], np.float32))
    assert card_between(tl, br, np.array([[38, 53, 53, 87]], np.float32))


def test_centres_between_exempts_only_the_named_corners_of_the_union() -> None:
    from vision.detections import centres_between

    tl, br = np.array([0, 0, 15, 34]), np.array([76, 106, 91, 140])
    # the card's top-right and bottom-left indices, its middle, and a point outside the union
    centres = np.array([[83.5, 17.0], [7.5, 123.0], [45.5, 70.0], [120.0, 70.0]])
    assert centres_between(tl, br, centres).tolist() == [True, True, True, False]
    assert centres_between(tl, br, centres, 34.0, ("tr",)).tolist() == [False, True, True, False]
    assert centres_between(tl, br, centres, 34.0, ("tr", "bl")).tolist() == [False, False, True, False]
    # a corner the point is not near exempts nothing
    assert centres_between(tl, br, centres, 34.0, ("tl", "br")).tolist() == [True, True, True, False]


def test_backs_pass_through_unmerged() -> None:
    d = _dets([(0, 0, 50, 70, BACK_CLASS, 0.9), (5, 5, 55, 75, BACK_CLASS, 0.8)])
    m = merge_index_corners(d)
    assert m.labels == ["BACK", "BACK"]


def test_merge_of_nothing_is_empty() -> None:
    assert len(merge_index_corners(Detections.empty())) == 0


@pytest.mark.parametrize("workers", [1, 2])
def test_tiled_stage1_maps_tile_boxes_to_the_image_and_drops_overlap_duplicates(workers: int) -> None:
    """A zone larger than the model's input is read in overlapping tiles, not shrunk to fit (one after
    another, or on two threads)."""
    from vision.detector import OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.imgsz, det.iou, det.tile_memory = 256, 0.5, None
    det.tile_workers, det._pool = workers, None
    h, w = 300, 600
    yy, xx = np.mgrid[0:h, 0:w]
    # each pixel carries its own image coordinates, so a tile knows where it was cut from
    image = np.stack([xx % 256, yy % 256, xx // 256], axis=2).astype(np.uint8)
    target = np.array([200.0, 100.0, 216.0, 120.0], np.float32)  # one index in the image
    origins: list[tuple[int, int]] = []

    def fake_stage1(tile: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        assert tile.shape[0] <= 256 and tile.shape[1] <= 256
        x0, y0 = int(tile[0, 0, 2]) * 256 + int(tile[0, 0, 0]), int(tile[0, 0, 1])
        origins.append((y0, x0))
        box = target - np.array([x0, y0, x0, y0], np.float32)
        if box[0] < 0 or box[1] < 0 or box[2] > tile.shape[1] or box[3] > tile.shape[0]:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32)
        return box[None], np.array([0]), np.array([0.9], np.float32)  # seen whole by this tile

    det._stage1 = fake_stage1  # type: ignore[method-assign]
    xyxy, cls, score = det._stage1_tiled(image)
    assert len(origins) >= 3  # 600 px wide: at least three 256-px tiles
    assert all(x + 256 <= w and y + 256 <= h for y, x in origins)
    assert max(x for _, x in origins) + 256 == w and max(y for y, _ in origins) + 256 == h  # edges covered
    assert len(xyxy) == 1, "the index seen whole by two overlapping tiles is one detection"
    np.testing.assert_allclose(xyxy[0], target)
    assert cls.tolist() == [0] and score.tolist() == pytest.approx([0.9])


def test_tiles_the_memory_cannot_answer_are_read_on_the_workers_with_the_same_finds_and_memory() -> None:
    """With a tile memory and two workers, a tile not answered is set to a worker while the next tiles
    are asked about: the same finds, and the memory left as reading on one thread leaves it (the same
    places, in the same order, holding the same pictures and finds)."""
    import threading

    from vision._still_memory import StillMemory
    from vision.detector import OnnxCardDetector

    rng = np.random.default_rng(4)
    base = rng.integers(0, 256, (300, 600, 3), np.uint8)
    frames = [base, base.copy(), base.copy()]
    frames[1][260:300, 560:600] = 255 - frames[1][260:300, 560:600]  # a corner changed: one tile read again
    frames[2][:, 300:] = rng.integers(0, 256, (300, 300, 3), np.uint8)  # the right half changed

    def run(workers: int) -> tuple[list[Any], StillMemory, set[str]]:
        det = object.__new__(OnnxCardDetector)
        det.imgsz, det.iou, det.stage1_scale = 256, 0.5, 1.0
        det.tile_memory = StillMemory()
        det.tile_workers, det._pool = workers, None
        threads: set[str] = set()

        def fake_stage1(tile: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            threads.add(threading.current_thread().name)
            v = float(tile.mean())  # a find that depends on the tile's pixels
            return (
                np.array([[10.0, 10.0, 26.0, 30.0]], np.float32),
                np.array([0]),
                np.array([v / 255], np.float32),
            )

        det._stage1 = fake_stage1  # type: ignore[method-assign]
        finds = [[a.tolist() for a in det._stage1_tiled(f)] for f in frames]
        return finds, det.tile_memory, threads

    (one, mem1, threads1), (two, mem2, threads2) = run(1), run(2)
    assert one == two
    assert list(mem1._kept) == list(mem2._kept)
    for place in mem1._kept:
        for (p1, _, f1), (p2, _, f2) in zip(mem1._kept[place], mem2._kept[place], strict=True):
            assert np.array_equal(p1, p2) and all(np.array_equal(a, b) for a, b in zip(f1, f2, strict=True))
    assert mem2.answered == mem1.answered > 0  # some tiles answered from memory on the later frames
    assert threads1 == {threading.current_thread().name}
    assert threads2 and all(t.startswith("detector") for t in threads2)  # read on the workers


def test_four_index_corners_of_one_card_become_one_card() -> None:
    # a dondorf-style card, 63 x 89 px, an index (10 x 20 px) in each corner
    q = parse_card("Qc").code
    corners = [(0, 0, 10, 20), (53, 0, 63, 20), (0, 69, 10, 89), (53, 69, 63, 89)]
    d = _dets([(*c, q, 0.9 - 0.1 * i) for i, c in enumerate(corners)])
    m = merge_index_corners(d)
    assert m.labels == ["Qc"]
    assert m.xyxy[0].tolist() == pytest.approx([0, 0, 63, 89])


def test_a_jokers_four_corner_marks_smaller_than_an_index_become_one_card() -> None:
    """plastic's Joker prints a small round mark in each corner (20 px at 1.6 px/mm, an index is 41):
    by its own marks' size its four corners do not fit one card, and it was two Jokers (D5). The
    image's typical index (the median box) sizes the card; alone, the marks size it themselves."""
    jk, seven = 52, parse_card("7d").code
    marks = [(424, 38, 443, 58), (499, 38, 518, 57), (424, 153, 444, 174), (499, 154, 517, 172)]
    indices = [(x, 36, x + 19, 77) for x in (94, 203, 312, 532, 643)]
    rows = [(*m, jk, 0.74 - 0.01 * i) for i, m in enumerate(marks)] + [
        (*b, seven + 4 * i, 0.8) for i, b in enumerate(indices)
    ]
    m = merge_index_corners(_dets(rows))
    assert m.labels.count("Jk") == 1
    assert m.xyxy[m.class_id == jk][0].tolist() == pytest.approx([424, 38, 518, 174])
    assert len(m) == 6
    assert merge_index_corners(_dets(rows[:4])).labels == ["Jk", "Jk"]  # nothing else to size the card by


def test_two_cards_of_one_face_side_by_side_stay_two() -> None:
    # a second-deck copy spread beside the first (80 px on): four indices, two cards
    q = parse_card("Qc").code
    rows = []
    for dx in (0, 80):
        rows += [(dx, 0, dx + 10, 20, q, 0.9), (dx + 53, 69, dx + 63, 89, q, 0.8)]
    assert len(merge_index_corners(_dets(rows))) == 2


def test_a_box_much_shorter_than_the_other_indices_is_also_read_grown_to_their_size() -> None:
    from vision.detector import _regrown

    boxes = np.array(
        [[10, 10, 22, 40], [40, 10, 52, 40], [70, 10, 82, 40], [100, 10, 112, 29]], np.float32
    )  # three 30-px indices and one of 19 px (the rank only)
    grown = _regrown(boxes)
    assert [i for i, _ in grown] == [3, 3]
    down, up = (b.tolist() for _, b in grown)
    assert down == [100, 10, 112, 40] and up == [100, -1, 112, 29]  # 30 px, either way up
    assert _regrown(boxes[:2]) == []  # two indices do not tell the size
    assert _regrown(boxes[:3]) == []  # none short


def test_an_index_box_inside_a_larger_one_is_not_read_again() -> None:
    from vision.detector import _contained

    boxes = np.array(
        [
            [232, 236, 252, 280],  # a whole index
            [235, 237, 249, 256],  # its rank boxed again, inside it
            [260, 237, 278, 273],  # the next card's index: overlapping, not inside
            [262, 238, 276, 300],  # a taller box mostly overlapping the previous one, not inside it
        ],
        np.float32,
    )
    assert _contained(boxes).tolist() == [False, True, False, False]
    assert _contained(boxes[:1]).tolist() == [False]


def test_a_doubtful_index_is_read_again_cut_tighter_and_looser_and_a_sure_one_is_not() -> None:
    from vision.detector import _CROP_MARGIN, _NOT_INDEX, _SECOND_LOOK_MARGINS, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.7, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look = None, 0.0
    seen: list[tuple[float, int]] = []

    def probs(image: np.ndarray, boxes: list[np.ndarray], margin: float = _CROP_MARGIN) -> np.ndarray:
        seen.append((margin, len(boxes)))
        p = np.zeros((len(boxes), _NOT_INDEX + 1), np.float32)
        for i, b in enumerate(boxes):
            if b[0] < 50:  # the sure index: card 0 whatever the cut
                p[i, 0] = 0.95
            elif margin == _CROP_MARGIN:  # the doubtful one: 7 by a hair at the usual cut
                p[i, 7], p[i, 5] = 0.5, 0.45
            else:  # 5 at both other cuts
                p[i, 5], p[i, 7] = 0.8, 0.15
            p[i, _NOT_INDEX] = 1 - p[i].sum()
        return p

    det._class_probs = probs  # type: ignore[method-assign]
    boxes = np.array([[10, 10, 22, 40], [100, 10, 112, 40]], np.float32)
    found, _, _, _ = det._read_indices(
        np.zeros((60, 120, 3), np.uint8), boxes, np.zeros(2, np.int64), np.full(2, 0.9)
    )
    assert sorted(found.class_id.tolist()) == [0, 5]
    assert seen == [(_CROP_MARGIN, 2)] + [(m, 1) for m in _SECOND_LOOK_MARGINS]  # only the doubtful one
    p5 = float(found.confidence[found.class_id == 5][0])
    assert p5 == pytest.approx(0.9 * (0.45 + 0.8 + 0.8) / 3)
    det.second_look, seen[:] = 0.0, []
    again, _, _, _ = det._read_indices(
        np.zeros((60, 120, 3), np.uint8), boxes, np.zeros(2, np.int64), np.full(2, 0.9)
    )
    assert sorted(again.class_id.tolist()) == [0, 7] and len(seen) == 1


def _scripted_reads(
    usual: dict[Any, list[tuple[int, float]]],
    narrowed: dict[Any, list[tuple[int, float]]],
    seen: list[tuple[float, int]] | None = None,
    *,
    whole_box: bool = False,
) -> Any:
    """A stand-in for ``OnnxCardDetector._class_probs``: each box (by its left x, or with
    ``whole_box`` by its xyxy as a tuple) read as scripted, by the usual cut or the narrow one, the
    rest of the probability "not an index"."""
    from vision.detector import _CROP_MARGIN, _NOT_INDEX

    def probs(
        image: np.ndarray, boxes: list[np.ndarray], margin: float = _CROP_MARGIN, narrow: float = 1.0
    ) -> np.ndarray:
        if seen is not None:
            seen.append((narrow, len(boxes)))
        p = np.zeros((len(boxes), _NOT_INDEX + 1), np.float32)
        for i, b in enumerate(boxes):
            key = tuple(float(c) for c in b) if whole_box else int(b[0])
            for k, v in (usual if narrow == 1.0 else narrowed)[key]:
                p[i, k] = v
            p[i, _NOT_INDEX] = 1 - p[i].sum()
        return p

    return probs


def test_a_doubtful_index_is_read_again_cut_narrower_and_a_contested_read_is_left_unnamed() -> None:
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.6
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look = None, 0.0
    seen: list[tuple[float, int]] = []
    usual = {  # box x -> the usual cut's read: (class, p) pairs
        10: [(0, 0.95)],  # an ordinary font: sure of card 0, never read again
        40: [(4, 0.25), (36, 0.2)],  # a condensed 3 (code 4) the usual cut cannot name
        70: [(36, 0.4), (4, 0.35)],  # a condensed 3 the usual cut names J (code 36) by a hair
        100: [(20, 0.45), (16, 0.3)],  # a 7 (code 20) the usual cut names, doubtfully
    }
    narrowed = {40: [(4, 0.85)], 70: [(4, 0.85)], 100: [(20, 0.7)]}
    det._class_probs = _scripted_reads(usual, narrowed, seen)  # type: ignore[method-assign]
    boxes = np.array([[x, 10, x + 12, 40] for x in (10, 40, 70, 100)], np.float32)
    image = np.zeros((60, 140, 3), np.uint8)
    found, unread, rivals, guesses = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9))
    assert seen[1:] == [(pytest.approx(0.7), 3)]  # the three doubtful ones, once
    # each index named or not named, its two likeliest faces by its final read, for the count: the
    # contested one's by the usual cut (the narrow cut's 3 at 0.85 is its rival's read, not this)
    assert guesses.xyxy[:, 0].tolist() == [10, 10, 40, 40, 70, 70, 100, 100]
    assert guesses.class_id.tolist() == [0, 1, 4, 36, 36, 4, 20, 16]
    assert guesses.confidence[4:].tolist() == pytest.approx([0.9 * 0.4, 0.9 * 0.35, 0.9 * 0.45, 0.9 * 0.3])
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    # named where the two cuts agree, or by their average where the usual cut could not name it
    assert got == {10: 0, 40: 4, 100: 20}
    conf = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.confidence.tolist(), strict=True))
    assert conf[40] == pytest.approx(0.9 * (0.25 + 0.85) / 2)
    assert conf[100] == pytest.approx(0.9 * 0.45)  # the usual cut's read, the narrow one agreeing
    assert unread[:, 0].tolist() == [70]  # J by the usual cut, 3 by the narrow one: a face not named
    # its two faces, each at its cut's read, for the count to choose between (vision.pipeline)
    assert rivals.xyxy[:, 0].tolist() == [70, 70] and rivals.class_id.tolist() == [36, 4]
    assert rivals.confidence.tolist() == pytest.approx([0.9 * 0.4, 0.9 * 0.85])
    det.narrow_look, seen[:] = 0.0, []
    off, off_unread, off_rivals, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9))
    assert sorted(off.class_id.tolist()) == [0, 20, 36] and len(seen) == 1
    assert off_unread.size == 0  # box 40 is "not an index" (p 0.55) to the usual cut alone
    assert len(off_rivals) == 0  # nothing contested without the narrow look


def test_the_narrow_cut_contests_a_rank_not_a_suit() -> None:
    """The narrow look is for condensed ranks: a narrow cut naming another rank contests the usual
    cut's face; one naming the same rank in another suit does not (b79-0002's 6c, read 6s narrow,
    was left unnamed for a whole hand). The Joker shares no rank with a face."""
    from vision.detector import _NOT_INDEX, _narrow_look_reads

    names = np.arange(_NOT_INDEX + 1)
    six_s, six_c, five_s, jack_c, joker = 4 * 4, 4 * 4 + 3, 3 * 4, 9 * 4 + 3, 52

    def row(k: int, p: float) -> np.ndarray:
        r = np.full(_NOT_INDEX + 1, (1 - p) / _NOT_INDEX, np.float32)
        r[k] = p
        return r

    usual = np.stack([row(six_c, 0.5), row(six_c, 0.5), row(six_c, 0.5), row(jack_c, 0.5), row(joker, 0.5)])
    narrow = np.stack([row(six_s, 0.8), row(five_s, 0.8), row(six_c, 0.8), row(joker, 0.8), row(jack_c, 0.8)])
    out, contested = _narrow_look_reads(usual, narrow, names, 0.3)
    assert contested.tolist() == [False, True, False, True, True]
    assert out.argmax(1).tolist() == [six_c, six_c, six_c, jack_c, joker]  # the usual cut's reads kept


def test_a_doubtful_index_is_weighed_by_its_card_body_only_where_the_card_scale_is_known() -> None:
    """The body look (vision.card_body): a doubtful read is weighed by the rank the card's body shows;
    it settles a read the index's two cuts contest for the narrow cut; a read it weighed stays under
    the bar (``body_look``); a sure read, a body showing nothing, or a call without the card's scale
    (a still) leave the index read as it was."""
    from vision.card_body import NO_BODY
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.6
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look = 0.7
    det.pair_corners = True  # a row of indices: no two at one card's opposite corners
    five_c, jack_c, three_c = 3 * 4 + 3, 9 * 4 + 3, 1 * 4 + 3  # card codes: rank * 4 + suit
    usual = {
        10: [(0, 0.95)],  # sure: never weighed
        40: [(jack_c, 0.28), (five_c, 0.22), (jack_c + 4, 0.2), (jack_c + 8, 0.15)],  # bellot's 5: J, Q, K
        70: [(jack_c, 0.45), (three_c, 0.3)],  # J by the usual cut, 3 by the narrow one: contested
        100: [(jack_c, 0.28), (five_c, 0.22), (jack_c + 4, 0.2), (jack_c + 8, 0.15)],  # as 40, no body
    }
    narrowed = {
        40: [(jack_c, 0.35), (five_c, 0.3), (jack_c + 4, 0.2)],  # the two cuts' average names it J
        70: [(three_c, 0.8)],
        100: [(jack_c, 0.35), (five_c, 0.3), (jack_c + 4, 0.2)],
    }
    body_rank = {40: 3 * 4, 70: 1 * 4, 100: NO_BODY}  # the body's read (its suit guess is not used)
    looked: list[list[int]] = []

    class FakeBody:
        def probs(
            self, image: np.ndarray, boxes: list[np.ndarray], all_boxes: np.ndarray, px_per_mm: float
        ) -> np.ndarray:
            assert px_per_mm == 1.6 and len(all_boxes) == 4
            looked.append([int(b[0]) for b in boxes])
            q = np.full((len(boxes), NO_BODY + 1), 0.002, np.float32)
            for i, b in enumerate(boxes):
                q[i, body_rank[int(b[0])]] = 0.9
            return q / q.sum(1, keepdims=True)

    det._class_probs = _scripted_reads(usual, narrowed)  # type: ignore[method-assign]
    det._body = FakeBody()  # type: ignore[assignment]
    boxes = np.array([[x, 10, x + 12, 40] for x in (10, 40, 70, 100)], np.float32)
    image = np.zeros((60, 140, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9), 1.6)
    assert looked == [[40, 70, 100]]  # the doubtful ones only
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    assert got == {10: 0, 40: five_c, 70: three_c, 100: jack_c}
    conf = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.confidence.tolist(), strict=True))
    # the body all but settles the 5, but a read it weighed never passes the bar below which it looked
    # (0.7): it names the card, it does not make a finding resting on it an alert
    assert conf[40] == pytest.approx(0.9 * 0.7) and conf[70] == pytest.approx(0.9 * 0.7)
    assert conf[100] == pytest.approx(0.9 * (0.28 + 0.35) / 2, rel=1e-4)  # nothing seen: the index's read
    assert unread.size == 0
    looked.clear()
    still, still_unread, _, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9))
    assert looked == []  # no card scale given: no body look
    got = dict(zip(still.xyxy[:, 0].astype(int).tolist(), still.class_id.tolist(), strict=True))
    assert got == {10: 0, 40: jack_c, 100: jack_c} and still_unread[:, 0].tolist() == [70]


# at 1.6 px/mm a card is 101.6 x 142.2 px: a top-left index box and the bottom-right one of the same
# card span 96 x 134 px together
def _card_corners(x: int, y: int = 10) -> list[list[float]]:
    return [[x, y, x + 12, y + 30], [x + 84, y + 104, x + 96, y + 134]]


def test_the_two_index_corners_of_one_card_are_paired_and_nothing_else_is() -> None:
    from vision.detector import corner_pairs

    top = _card_corners(100)  # the top card of a spread: both its corners in view
    spread = [[x, 10, x + 12, 40] for x in (20, 45, 70)]  # the cards under it: their top-left indices
    boxes = np.array([*spread, *top], np.float32)
    assert corner_pairs(boxes, 1.6) == [(3, 4)]
    assert corner_pairs(boxes, 1.0) == []  # at another scale they do not span a card
    # a deck printing all four corners (dondorf): the top card's top-right and bottom-left indices are
    # not paired (one pair a card), nor the first card's bottom-left index with the top-left index of
    # the card whose top-right corner it would make (the indices of the cards between lie inside)
    four = [*top, [184, 10, 196, 40], [100, 114, 112, 144]]
    first_bl = [[20, 114, 32, 144]]
    boxes = np.array([*spread, *four, *first_bl], np.float32)
    assert corner_pairs(boxes, 1.6) == [(3, 4)]
    # a bottom-left index and a top-left one further along make an up-and-right diagonal: never a pair
    assert corner_pairs(np.array([[110, 10, 122, 40], [26, 114, 38, 144]], np.float32), 1.6) == []
    assert corner_pairs(np.zeros((0, 4), np.float32), 1.6) == []


def test_a_cards_two_corners_are_read_as_one_and_no_surer_than_the_surer_corner() -> None:
    """``pair_corners``: the two indices of one card (both in view) are read as one, their class
    probabilities multiplied; the pair is named no surer than its surer corner, or ``body_look``."""
    from vision.detector import _NOT_INDEX, OnnxCardDetector, merge_index_corners

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look, det.pair_corners = None, 0.7, True
    three_s, three_c, jack_s = 1 * 4 + 2, 1 * 4 + 3, 9 * 4 + 2  # card codes: rank * 4 + suit
    usual = {
        # card A: read 3c at its top-left corner by a hair, 3s surely at its bottom-right one
        10: [(three_c, 0.45), (three_s, 0.35)],
        94: [(three_s, 0.6), (three_c, 0.1)],
        # card B: two doubtful corners that agree
        210: [(jack_s, 0.6), (three_s, 0.1)],
        294: [(jack_s, 0.6), (three_s, 0.1)],
        # card C: a sure corner and a doubtful one
        410: [(three_c, 0.95)],
        494: [(three_c, 0.5), (three_s, 0.3)],
    }
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    boxes = np.array([*_card_corners(10), *_card_corners(210), *_card_corners(410)], np.float32)
    image = np.zeros((160, 520, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(6, np.int64), np.full(6, 0.9), 1.6)
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    assert got == {10: three_s, 94: three_s, 210: jack_s, 294: jack_s, 410: three_c, 494: three_c}
    conf = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.confidence.tolist(), strict=True))
    # A: 0.35 x 0.6 against 0.45 x 0.1 (and "not an index" 0.2 x 0.3): 3s at 0.21 / 0.315
    assert conf[10] == conf[94] == pytest.approx(0.9 * 0.21 / 0.315, rel=1e-4)
    # B: 0.36 against 0.01 + 0.09 (0.78), surer than either corner, but a pair of doubtful corners stops
    # at 0.7
    assert conf[210] == conf[294] == pytest.approx(0.9 * 0.7)
    # C: 0.475 against 0.05 x 0.3 and "not an index" 0.05 x 0.2: under the sure corner's 0.95 (capped)
    assert conf[410] == pytest.approx(0.9 * min(0.95, 0.475 / (0.475 + 0.015 + 0.01)), rel=1e-4)
    assert unread.size == 0
    assert sorted(merge_index_corners(found).class_id.tolist()) == sorted([three_s, jack_s, three_c])
    # without the card's scale (a still), or with pairing off, each corner is read on its own
    for scale, pair in ((None, True), (1.6, False)):
        det.pair_corners = pair
        alone, _, _, _ = det._read_indices(image, boxes, np.zeros(6, np.int64), np.full(6, 0.9), scale)
        got = dict(zip(alone.xyxy[:, 0].astype(int).tolist(), alone.class_id.tolist(), strict=True))
        assert got[10] == three_c and got[94] == three_s


def test_a_four_corner_cards_other_two_indices_are_found_and_read_with_its_pair() -> None:
    """seed 41, b41-0001: the i-Verify display's dondorf 2s, read 2s at its top-left and bottom-right
    corners and 2c at the other two, was two cards in one slot."""
    from vision.detector import corner_pairs, merge_index_corners, other_corners

    x = 100
    tl, br = _card_corners(x)
    tr, bl = [x + 84, 10, x + 96, 40], [x, 114, x + 12, 144]
    spread = [[x - 25, 10, x - 13, 40]]  # the card under it: its top-left index, left of the card
    boxes = np.array([tl, br, tr, bl, *spread], np.float32)
    pairs = corner_pairs(boxes, 1.6)
    assert pairs == [(0, 1)]
    assert other_corners(boxes, pairs) == {(0, 1): [2, 3]}
    assert other_corners(boxes[[0, 1, 4]], [(0, 1)]) == {}  # a two-corner deck: nothing more

    det = _spread_detector(0.0)
    two_s, two_c = 0, 3
    usual = {
        x: [(two_s, 0.60), (two_c, 0.27)],
        x + 84: [(two_s, 0.71), (two_c, 0.14)],  # the bottom-right corner (same left x as top-right)
        x - 25: [(45, 0.9)],
    }
    # the top-right and bottom-left corners read 2c (scripted by the whole box: the bottom-left shares
    # the top-left's left x)
    per_box = {tuple(tl): usual[x], tuple(br): usual[x + 84], tuple(tr): [(two_c, 0.80), (two_s, 0.07)]}
    per_box[tuple(bl)] = [(two_c, 0.60), (two_s, 0.30)]
    per_box[tuple(spread[0])] = usual[x - 25]

    det._class_probs = _scripted_reads(per_box, {}, whole_box=True)  # type: ignore[method-assign]
    image = np.zeros((160, 220, 3), np.uint8)
    found, _, _, _ = det._read_indices(image, boxes, np.zeros(5, np.int64), np.full(5, 0.9), 1.6)
    cards = merge_index_corners(found)
    assert sorted(cards.class_id.tolist()) == [two_s, 45]
    # the pair's read (0.60 x 0.71 against 0.27 x 0.14: 2s at 0.88), no surer than its surer corner,
    # 0.71; the other two corners take it, not multiplied in (three of four corners reading 2c would
    # name 2c)
    assert (found.class_id[:4] == two_s).all()
    assert float(cards.confidence[cards.class_id == two_s][0]) == pytest.approx(0.9 * 0.71, rel=1e-4)
    # with pairing off each corner reads alone: the other two corners are a second card, 2c
    det.pair_corners = False
    found, _, _, _ = det._read_indices(image, boxes, np.zeros(5, np.int64), np.full(5, 0.9), 1.6)
    assert sorted(merge_index_corners(found).class_id.tolist()) == [two_s, two_c, 45]


def test_a_four_corner_spreads_cards_pair_their_left_edge_indices_and_nothing_else() -> None:
    """A dondorf spread shows the top-left and bottom-left indices of each card under the top one:
    one column, a card's length apart (``edge_pairs``). The top card's corners (taken by its corner
    pair), indices in two columns, a pair with another index between, and a pair at a scale where
    they do not span a card are not edge pairs."""
    from vision.detector import corner_pairs, edge_pairs, other_corners

    under = (20, 45, 70)
    tops = [[x, 10, x + 12, 40] for x in under]
    lefts = [[x, 114, x + 12, 144] for x in under]
    top_card = [*_card_corners(100), [184, 10, 196, 40], [100, 114, 112, 144]]
    boxes = np.array([*tops, *lefts, *top_card], np.float32)
    pairs = corner_pairs(boxes, 1.6)
    assert pairs == [(6, 7)]
    taken = {6, 7, *other_corners(boxes, pairs)[(6, 7)]}
    assert taken == {6, 7, 8, 9}
    assert sorted(edge_pairs(boxes, 1.6, taken)) == [(0, 3), (1, 4), (2, 5)]
    assert edge_pairs(boxes, 1.0, taken) == []  # at another scale they do not span a card
    assert edge_pairs(boxes[[0, 1, 2, 6, 7]], 1.6, {3, 4}) == []  # a two-corner deck: nothing below
    # a sliver of an index (a neighbour covers part of it) is in the column all the same
    assert edge_pairs(np.array([[183, 235, 198, 269], [192, 339, 199, 372]], np.float32), 1.6, set()) == [
        (0, 1)
    ]
    # two columns apart, or another index between them, are not one card's edge
    assert edge_pairs(np.array([tops[0], lefts[1]], np.float32), 1.6, set()) == []
    assert edge_pairs(np.array([tops[0], lefts[0], [20, 60, 32, 90]], np.float32), 1.6, set()) == []


def test_a_four_corner_spreads_card_is_read_by_both_of_its_left_edge_indices() -> None:
    """seed 41, b41-0006: the dealer's dondorf As beside the Ac. Its top-left index read Ac 0.73 /
    As 0.12 (the Ac's own 0.87), its bottom-left one As 0.61 / Ac 0.27: read apart, one deck's rule
    named it As at 0.32, under the pipeline's floor, and the card was lost. Read with its bottom-left
    index, and beside the Ac read with its own, it is As. And a 3s whose top-left index read 3c 0.71 /
    3s 0.27 and bottom-left one 3s 0.58 / 3c 0.19 was read 3c: it is 3s."""
    from vision.detector import merge_index_corners
    from vision.pipeline import merge_card_indices

    det = _spread_detector(0.0)
    ace_s, ace_c, three_s, three_c, king_c = 48, 51, 4, 7, 47
    reads = {
        20: ([(ace_c, 0.87), (ace_s, 0.01)], [(ace_c, 0.90), (ace_s, 0.02)]),
        # the rest of the top-left index's read spread over other faces, as the classifier's was
        45: ([(ace_c, 0.73), (ace_s, 0.12), *((k, 0.03) for k in range(5))], [(ace_s, 0.61), (ace_c, 0.27)]),
        70: ([(three_c, 0.71), (three_s, 0.27)], [(three_s, 0.58), (three_c, 0.19)]),
        95: ([(king_c, 0.91)], [(king_c, 0.90)]),
    }
    per_box: dict[Any, list[tuple[int, float]]] = {}
    for x, (top, bottom) in reads.items():
        per_box[(float(x), 10.0, x + 12.0, 40.0)] = top
        per_box[(float(x), 114.0, x + 12.0, 144.0)] = bottom
    det._class_probs = _scripted_reads(per_box, {}, whole_box=True)  # type: ignore[method-assign]
    boxes = np.array([k for k in per_box], np.float32)
    image = np.zeros((160, 200, 3), np.uint8)
    score = np.full(len(boxes), 0.9)
    score[3] = 0.5  # the As's bottom-left index: a sliver, boxed less surely

    def cards() -> dict[int, tuple[int, float]]:
        found, _, _, _ = det._read_indices(image, boxes, np.zeros(len(boxes), np.int64), score, 1.6)
        found = merge_card_indices(merge_index_corners(found), 1.6)  # as the camera pipeline does
        rows = zip(found.xyxy, found.class_id, found.confidence, strict=True)
        return {int(b[0]): (int(c), float(p)) for b, c, p in rows if p >= 0.4}

    got = cards()
    assert {x: c for x, (c, _) in got.items()} == {20: ace_c, 45: ace_s, 70: three_s, 95: king_c}
    # each card read no surer than its surer index (0.73 for the As, 0.71 for the 3s)
    assert got[45][1] <= 0.9 * 0.73 + 1e-6 and got[70][1] <= 0.9 * 0.71 + 1e-6
    # each index alone: the As is lost (under the floor), the 3s's two reads are joined as one card
    # by the pipeline (``_join_card_ends``), which keeps the surer: 3c
    det.pair_corners = False
    assert sorted(c for c, _ in cards().values()) == sorted([ace_c, three_c, king_c])


def test_one_deck_turns_every_corner_of_a_four_corner_card_together() -> None:
    """The top card of a dondorf spread shows four corners, its top-left index beside the next card's:
    where one deck tells the two apart, all four corners take the new read (one card, not two)."""
    from vision.detector import merge_index_corners

    det = _spread_detector(0.0)
    ace_s, ace_c = 48, 51
    x = 100
    top_card = [*_card_corners(x), [x + 84, 10, x + 96, 40], [x, 114, x + 12, 144]]
    under = [x - 25, 10, x - 13, 40]
    doubt = [(ace_s, 0.5), (ace_c, 0.45)]
    per_box = {tuple(float(v) for v in b): doubt for b in top_card}
    per_box[tuple(float(v) for v in under)] = [(ace_s, 0.9), (ace_c, 0.05)]
    det._class_probs = _scripted_reads(per_box, {}, whole_box=True)  # type: ignore[method-assign]
    boxes = np.array([*top_card, under], np.float32)
    image = np.zeros((160, 220, 3), np.uint8)
    found, _, _, _ = det._read_indices(image, boxes, np.zeros(5, np.int64), np.full(5, 0.9), 1.6)
    assert found.class_id.tolist() == [ace_c] * 4 + [ace_s]
    assert sorted(merge_index_corners(found).class_id.tolist()) == [ace_s, ace_c]


def test_a_contested_corner_is_named_only_when_a_corner_backs_the_pairs_class() -> None:
    """A pair whose contested corner (the narrow look's two cuts disagreed) has its narrow cut naming
    another class than the pair is left unnamed unless the other corner reads the pair's class; two
    contested corners whose narrow cuts name two different classes are no one objection (b41-0009:
    the display's simplistic 6d, its narrow cuts 6h and 5d)."""
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.6
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look, det.pair_corners = None, 0.7, True
    three_s, five_s, jack_s = 1 * 4 + 2, 3 * 4 + 2, 9 * 4 + 2
    usual = {
        10: [(jack_s, 0.45), (three_s, 0.35)],  # contested: the narrow cut reads 3s
        94: [(three_s, 0.8)],  # the other corner: 3s, surely (the narrow cut backed)
        210: [(jack_s, 0.45), (three_s, 0.35)],  # contested: the narrow cut reads 3s
        294: [(jack_s, 0.45), (three_s, 0.3)],  # contested too: the narrow cut reads 3s
        410: [(jack_s, 0.5), (three_s, 0.3)],  # contested: the narrow cut reads 3s ...
        494: [(jack_s, 0.9)],  # ... but the other corner reads J surely
        610: [(jack_s, 0.45), (three_s, 0.35)],  # contested: the narrow cut reads 3s ...
        694: [(jack_s, 0.45), (five_s, 0.3)],  # ... and here 5s
    }
    narrowed = {
        10: [(three_s, 0.8)],
        210: [(three_s, 0.7)],
        294: [(three_s, 0.7)],
        410: [(three_s, 0.8)],
        610: [(three_s, 0.7)],
        694: [(five_s, 0.7)],
    }
    det._class_probs = _scripted_reads(usual, narrowed)  # type: ignore[method-assign]
    boxes = np.array([c for x in (10, 210, 410, 610) for c in _card_corners(x)], np.float32)
    image = np.zeros((160, 720, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(8, np.int64), np.full(8, 0.9), 1.6)
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    # card 1: the pair reads 3s, what the contested corner's narrow cut read: named
    # card 2: the pair reads J, both corners' narrow cuts read 3s: unnamed, both corners
    # card 3: the pair reads J, the contested corner's narrow cut 3s, the other corner J: named J
    # card 4: the pair reads J, the two narrow cuts 3s and 5s: named J
    assert got == {10: three_s, 94: three_s, 410: jack_s, 494: jack_s, 610: jack_s, 694: jack_s}
    assert unread[:, 0].tolist() == [210, 294]


def test_two_cards_side_by_side_in_a_spread_are_neighbours_and_one_cards_corners_are_not() -> None:
    from vision.detector import spread_neighbours

    spread = [[x, 10, x + 12, 40] for x in (20, 45, 70)]  # top-left indices, a quarter card apart
    boxes = np.array([*spread, *_card_corners(100)], np.float32)
    # at 1.6 px/mm half a card is 50.8 px, but the first and third spread cards' indices, 50 px apart,
    # are over 3 index widths (36 px) apart: only next neighbours
    assert spread_neighbours(boxes, 1.6) == [(0, 1), (1, 2), (2, 3)]
    assert spread_neighbours(boxes, 0.7) == []  # half a card: 22.2 px
    # a four-corner deck's top-right index lies a card's width from its top-left one: one card; also
    # in a crop squashed across (a 58-px card at a nominal 1.6 px/mm: 48 px, under half a card)
    four = np.array([[100, 10, 112, 40], [184, 10, 196, 40]], np.float32)
    assert spread_neighbours(four, 1.6) == []
    squashed = np.array([[100, 10, 110, 43], [148, 10, 158, 43]], np.float32)
    assert spread_neighbours(squashed, 1.6) == []
    # the rank boxed alone, a box overlapping another, an index lying sideways, one in another row
    odd = [[45, 10, 57, 24], [26, 10, 38, 40], [45, 10, 75, 22], [45, 60, 57, 90]]
    for box in odd:
        assert spread_neighbours(np.array([spread[0], box], np.float32), 1.6) == [], box


def _spread_detector(narrow_look: float) -> Any:
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, narrow_look
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look, det.pair_corners = None, 0.7, True
    return det


def test_one_deck_holds_one_of_each_face_so_two_cards_of_a_spread_are_not_one() -> None:
    """seed 42, b42-0005: a bellot Ac in the dealer's spread read As 0.47 / Ac 0.40 beside the As
    (0.79); the two As reads were merged as one card, a card lost to the count."""
    from vision.pipeline import merge_card_indices

    det = _spread_detector(0.0)
    ace_s, ace_d, ace_c, king_h = 48, 50, 51, 45  # card codes: rank * 4 + suit (s, h, d, c)
    usual = {20: [(ace_s, 0.79), (ace_d, 0.11)], 45: [(ace_s, 0.47), (ace_c, 0.40)], 70: [(king_h, 0.9)]}
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    boxes = np.array([[x, 10, x + 12, 40] for x in (20, 45, 70)], np.float32)
    image = np.zeros((160, 200, 3), np.uint8)

    def read(scale: float | None) -> dict[int, tuple[int, float]]:
        found, _, _, _ = det._read_indices(image, boxes, np.zeros(3, np.int64), np.full(3, 0.9), scale)
        found = merge_card_indices(found, 1.6)
        rows = zip(found.xyxy, found.class_id, found.confidence, strict=True)
        return {int(b[0]): (int(c), float(p)) for b, c, p in rows}

    got = read(1.6)
    assert {x: c for x, (c, _) in got.items()} == {20: ace_s, 45: ace_c, 70: king_h}
    # the joint of the two reads without the As twice: 0.79 x 0.53 for As, Ac ... against 0.21 x 0.47
    # for Ac|Ad, As ...; the sure King beside shares nothing with them and keeps its read
    p20 = np.array([0.79, 0.11, 0.10])  # As, Ad, not an index
    p45 = np.array([0.47, 0.40, 0.13])  # As, Ac, not an index
    joint = np.outer(p20, p45)
    joint[0, 0] = 0.0
    joint /= joint.sum()
    assert got[20][1] == pytest.approx(0.9 * joint[0].sum(), rel=1e-4)
    assert got[45][1] == pytest.approx(0.9 * joint[:, 1].sum(), rel=1e-4)
    assert got[70][1] == pytest.approx(0.9 * 0.9, rel=1e-4)
    # off (or with no card scale: a still), both read As: still two cards (spread neighbours are
    # never one card's two indices), the duplicate left for FOREIGN-CARD to weigh by their reads
    det.one_deck = False
    assert {x: c for x, (c, _) in read(1.6).items()} == {20: ace_s, 45: ace_s, 70: king_h}
    det.one_deck = True
    assert {x: c for x, (c, _) in read(None).items()} == {20: ace_s, 45: ace_s, 70: king_h}


def test_two_sure_reads_of_one_face_side_by_side_are_two_copies() -> None:
    """A player's hold-out: a copy of one of his cards fanned beside it, both read As at 0.95. One deck
    holds one As, but two sure reads are two copies, not a misread: both are named, surely, and stay
    two cards through the pipeline's merges (FOREIGN-CARD's to report). With one read under
    ``_BOTH_SURE`` (0.85) the joint still takes the As from the weaker."""
    from vision.detector import _BOTH_SURE, merge_index_corners
    from vision.pipeline import merge_card_indices

    det = _spread_detector(0.0)
    ace_s, ace_c, king_h = 48, 51, 45
    usual = {20: [(ace_s, 0.95), (ace_c, 0.03)], 45: [(ace_s, 0.95), (ace_c, 0.04)], 70: [(king_h, 0.9)]}
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    boxes = np.array([[x, 10, x + 12, 40] for x in (20, 45, 70)], np.float32)
    image = np.zeros((160, 200, 3), np.uint8)

    def read() -> dict[int, tuple[int, float]]:
        found, _, _, _ = det._read_indices(image, boxes, np.zeros(3, np.int64), np.full(3, 0.9), 1.6)
        found = merge_card_indices(merge_index_corners(found, card_px_per_mm=1.6), 1.6)
        rows = zip(found.xyxy, found.class_id, found.confidence, strict=True)
        return {int(b[0]): (int(c), round(float(p), 4)) for b, c, p in rows}

    assert read() == {
        20: (ace_s, round(0.9 * 0.95, 4)),
        45: (ace_s, round(0.9 * 0.95, 4)),
        70: (king_h, 0.81),
    }
    assert _BOTH_SURE > 0.85
    usual[45] = [(ace_s, 0.85), (ace_c, 0.14)]
    got = read()
    assert got[20][0] == ace_s and got[45][0] == ace_c


def test_a_contest_is_settled_where_the_narrow_cuts_face_is_the_neighbours() -> None:
    """A 6c beside the 5c, read 6c 0.59 / 5c 0.17, its narrow cut 5c: the neighbour holds the narrow
    cut's face. (Seed 42's b42-0007, a plastic 6c beside the 6s with its narrow cut 6s, was this case
    until the thirty-sixth session; a narrow cut naming only another suit contests nothing now.)"""
    det = _spread_detector(0.6)
    six_s, six_c = 3 * 4 + 3, 19  # (six_s: the neighbour's face, here the 5c)
    usual = {20: [(six_s, 0.78)], 45: [(six_c, 0.59), (six_s, 0.17)]}
    det._class_probs = _scripted_reads(usual, {45: [(six_s, 0.6)]})  # type: ignore[method-assign]
    boxes = np.array([[x, 10, x + 12, 40] for x in (20, 45)], np.float32)
    image = np.zeros((160, 200, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(2, np.int64), np.full(2, 0.9), 1.6)
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    assert got == {20: six_s, 45: six_c} and unread.size == 0
    conf = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.confidence.tolist(), strict=True))
    assert conf[45] == pytest.approx(0.9 * 0.59, rel=1e-4)  # two faces named: no joint
    # a neighbour not sure of the narrow cut's face leaves the contest
    usual[20] = [(six_s, 0.65)]
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(2, np.int64), np.full(2, 0.9), 1.6)
    assert found.xyxy[:, 0].astype(int).tolist() == [20] and unread[:, 0].tolist() == [45]
    det.one_deck = False
    usual[20] = [(six_s, 0.78)]
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(2, np.int64), np.full(2, 0.9), 1.6)
    assert found.xyxy[:, 0].astype(int).tolist() == [20] and unread[:, 0].tolist() == [45]


def test_a_narrowed_crop_keeps_the_middle_across_the_index() -> None:
    from vision.detector import _narrowed

    crop = np.arange(40 * 40 * 3, dtype=np.int64).reshape(40, 40, 3)
    cols = _narrowed(crop, 0.7, across_x=True)
    assert cols.shape == (40, 28, 3) and (cols == crop[:, 6:34]).all()
    rows = _narrowed(crop, 0.7, across_x=False)  # an index lying on its side: narrowed across its rows
    assert rows.shape == (28, 40, 3) and (rows == crop[6:34]).all()


def test_an_index_boxed_surely_but_read_below_the_floor_comes_back_as_unread() -> None:
    from vision.detector import _CROP_MARGIN, _NOT_INDEX, _UNREAD_MIN_BOX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det._body, det.body_look = None, 0.0

    def probs(image: np.ndarray, boxes: list[np.ndarray], margin: float = _CROP_MARGIN) -> np.ndarray:
        p = np.zeros((len(boxes), _NOT_INDEX + 1), np.float32)
        for i, b in enumerate(boxes):
            top = {10: (0, 0.9), 40: (5, 0.25), 70: (_NOT_INDEX, 0.6), 100: (9, 0.28)}[int(b[0])]
            p[i] = (1 - top[1]) / _NOT_INDEX  # the rest spread thin over the other classes
            p[i, top[0]] = top[1]
        return p

    det._class_probs = probs  # type: ignore[method-assign]
    boxes = np.array([[x, 10, x + 12, 40] for x in (10, 40, 70, 100)], np.float32)
    score = np.array([0.9, 0.9, 0.9, _UNREAD_MIN_BOX - 0.1], np.float32)
    found, unread, _, _ = det._read_indices(
        np.zeros((60, 140, 3), np.uint8), boxes, np.zeros(4, np.int64), score
    )
    assert found.class_id.tolist() == [0]
    # read as a face below cls_conf, boxed surely: a card there, its face unknown; "not an index" and a
    # box stage 1 doubts are nothing
    assert unread.tolist() == [[40, 10, 52, 40]]


def test_turned_reads_pool_one_find_per_card() -> None:
    """``_pooled`` (a still read turned): finds surest first; one overlapping a kept find (IoU >= 0.3,
    any class) goes, and so does one of the same card lying half on a kept one (its corner read in
    one turn, the whole card in another); another card's index on a kept card's box stays (a spread
    hand), and so does the same card elsewhere."""
    from vision.detector import _pooled

    ks, kh, qs = (parse_card(c).code for c in ("Ks", "Kh", "Qs"))
    found = Detections(
        np.array(
            [
                [0, 0, 60, 90],  # Ks, the whole card (its corners merged in one turn): kept
                [2, 2, 12, 30],  # Ks, one corner read in another turn, on the card: dropped
                [1, 1, 61, 91],  # Kh over the same place (a misread in a third turn): dropped, IoU
                [40, 5, 50, 33],  # Qs, an index lying on the Ks's box: another card, kept
                [200, 0, 210, 28],  # Ks far away: kept
            ],
            np.float32,
        ),
        np.array([ks, ks, kh, qs, ks]),
        np.array([0.95, 0.9, 0.5, 0.8, 0.6], np.float32),
    )
    kept = _pooled(found)
    assert kept.xyxy.tolist() == [[0, 0, 60, 90], [40, 5, 50, 33], [200, 0, 210, 28]]
    assert kept.class_id.tolist() == [ks, qs, ks]


class _RankBody:
    """A stand-in for the card body model: each box (by its left x) shows the given rank code (card
    code of the rank's first suit) at probability ``p``, or nothing; records what it was shown."""

    def __init__(self, shows: dict[int, tuple[int, float]]) -> None:
        self.shows, self.looked = shows, []  # type: list[int]

    def probs(
        self, image: np.ndarray, boxes: list[np.ndarray], all_boxes: np.ndarray, px_per_mm: float
    ) -> np.ndarray:
        from vision.card_body import NO_BODY

        q = np.zeros((len(boxes), NO_BODY + 1), np.float32)
        for i, b in enumerate(boxes):
            self.looked.append(int(b[0]))
            code, p = self.shows.get(int(b[0]), (NO_BODY, 1.0))
            q[i, code] = p
            q[i, NO_BODY if code != NO_BODY else 0] += 1 - p
        return q


def test_a_sure_body_settles_a_contest_of_ranks_and_of_spade_against_club_not_one_of_red_suits() -> None:
    """The narrow look's two cuts disagreeing on an index's rank (contested): a body that reads the
    usual cut's rank at ``_BODY_SETTLES`` or more settles it for that face; a less sure body does not.
    Cuts disagreeing only on the suit (spade against club, hearts against diamonds) contest nothing
    since the thirty-sixth session: the usual cut's face is named, weighed by the body (its rank only:
    the body's suit reads are not trusted) and so under the review level."""
    from vision.detector import _BODY_SETTLES, _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.6
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det.pair_corners = 0.7, True
    six_h, ten_h, ace_s, ace_h, ace_d, ace_c = (
        4 * 4 + 1,
        8 * 4 + 1,
        12 * 4,
        12 * 4 + 1,
        12 * 4 + 2,
        12 * 4 + 3,
    )
    usual = {
        10: [(six_h, 0.5), (ten_h, 0.3)],  # 6h by the usual cut, Th by the narrow one; the body: 6, surely
        40: [(six_h, 0.5), (ten_h, 0.3)],  # the same, the body less sure of the 6
        70: [(ace_s, 0.5), (ace_c, 0.4)],  # As by the usual cut, Ac by the narrow one; the body: As surely
        100: [(ace_s, 0.5), (ace_c, 0.4)],  # the same; the body: an ace, not a black suit's
        130: [(ace_h, 0.5), (ace_d, 0.4)],  # Ah by the usual cut, Ad by the narrow one; the body: Ah surely
    }
    narrowed = {
        10: [(ten_h, 0.6)],
        40: [(ten_h, 0.6)],
        70: [(ace_c, 0.6)],
        100: [(ace_c, 0.6)],
        130: [(ace_d, 0.6)],
    }
    det._class_probs = _scripted_reads(usual, narrowed)  # type: ignore[method-assign]
    assert 0.8 < _BODY_SETTLES <= 0.95
    body = _RankBody(
        {10: (4 * 4, 0.95), 40: (4 * 4, 0.8), 70: (ace_s, 0.95), 100: (ace_h, 0.95), 130: (ace_h, 0.95)}
    )
    det._body = body  # type: ignore[assignment]
    boxes = np.array([[x, 10, x + 12, 40] for x in (10, 40, 70, 100, 130)], np.float32)
    image = np.zeros((60, 160, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(5, np.int64), np.full(5, 0.9), 1.6)
    assert body.looked == [10, 40, 70, 100, 130]
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    # (100: the body's read of a red ace's suit is not trusted: a black ace, as the index and its ink say)
    assert {k: v for k, v in got.items() if k != 100} == {10: six_h, 70: ace_s, 130: ace_h}
    assert got[100] in (ace_s, ace_c)
    assert (found.confidence <= 0.9 * 0.7 + 1e-6).all()  # weighed by the body: a review item's read at most
    assert unread[:, 0].tolist() == [40]


def test_a_body_sure_of_the_joker_settles_a_jokers_contested_index() -> None:
    """The Joker is a rank of its own to the body look: a Joker's index the usual cut reads Jk and
    the narrow cut "not an index" is read Jk where the body reads the Joker at ``_BODY_SETTLES`` or
    more (seed 41, b41-0010: body Jk 0.99, the card had been left unnamed), and stays unnamed where
    the body is less sure."""
    from vision.detections import JOKER_CLASS
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.6
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det.pair_corners = 0.7, True
    usual = {10: [(JOKER_CLASS, 0.55)], 40: [(JOKER_CLASS, 0.55)]}
    narrowed = {10: [(JOKER_CLASS, 0.2)], 40: [(JOKER_CLASS, 0.2)]}  # "not an index" 0.8
    det._class_probs = _scripted_reads(usual, narrowed)  # type: ignore[method-assign]
    det._body = _RankBody({10: (JOKER_CLASS, 0.95), 40: (JOKER_CLASS, 0.8)})  # type: ignore[assignment]
    boxes = np.array([[x, 10, x + 12, 40] for x in (10, 40)], np.float32)
    image = np.zeros((60, 80, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(2, np.int64), np.full(2, 0.9), 1.6)
    assert found.xyxy[:, 0].astype(int).tolist() == [10]
    assert found.class_id.tolist() == [JOKER_CLASS]
    assert unread[:, 0].tolist() == [40]


def test_a_cards_body_weighs_both_its_corners_and_is_looked_at_where_they_disagree() -> None:
    """A pair of corners: a doubtful bottom-right corner is weighed by its card's body (the window
    below the top-left index, not below itself), and a card whose corners name different faces has
    its body read even where its top-left corner is sure."""
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det.pair_corners = 0.7, True
    three_s, three_c, five_s, six_s, eight_s = 1 * 4, 1 * 4 + 3, 3 * 4, 4 * 4, 6 * 4
    ten_h, six_h = 8 * 4 + 1, 4 * 4 + 1
    usual = {
        # card A (simplistic's 3s at 720p): the top-left index reads 6s, 3s a little; the bottom-right
        # one 5s and 6s, 3s third; the body shows three pips
        10: [
            (six_s, 0.33),
            (six_s + 3, 0.1),
            (five_s, 0.2),
            (eight_s, 0.2),
            (three_s, 0.08),
            (three_c, 0.04),
        ],
        94: [
            (five_s, 0.3),
            (six_s, 0.25),
            (eight_s, 0.2),
            (three_s, 0.1),
            (six_s + 3, 0.07),
            (three_c, 0.03),
        ],
        # card B (tigullio's 6h on the display): the top-left index reads Th surely, the bottom-right
        # 6h; the body shows six pips
        210: [(ten_h, 0.8), (six_h, 0.1)],
        294: [(six_h, 0.55), (ten_h, 0.35)],
    }
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    body = _RankBody({10: (1 * 4, 0.95), 210: (4 * 4, 0.95)})
    det._body = body  # type: ignore[assignment]
    boxes = np.array([*_card_corners(10), *_card_corners(210)], np.float32)
    image = np.zeros((160, 320, 3), np.uint8)
    found, unread, _, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9), 1.6)
    # each corner weighed by the body below its card's top-left index; 210 is sure, but its corners
    # disagree
    assert sorted(body.looked) == [10, 10, 210, 210]
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    assert got == {10: three_s, 94: three_s, 210: six_h, 294: six_h}
    assert (found.confidence <= 0.9 * 0.7 + 1e-6).all() and unread.size == 0
    # without the body model, card A's corners do not agree enough to pair and neither is named 3s;
    # card B's pair reads Th (the sure corner's face)
    det._body = None
    alone, _, _, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9), 1.6)
    got = dict(zip(alone.xyxy[:, 0].astype(int).tolist(), alone.class_id.tolist(), strict=True))
    assert three_s not in got.values() and got[210] == ten_h


def test_a_corner_whose_other_corner_the_body_turns_to_another_face_is_weighed_by_that_body_too() -> None:
    """b41-0000: a bellot 3s whose top-left index reads Js doubtfully and whose bottom-right one reads
    Js surely. The body (three pips) turns the top-left corner to 3s; the bottom-right corner is then
    weighed by the same body, and the card is one 3s, not a 3s and a Js. A pair whose corners the
    body leaves agreeing is weighed no further."""
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det.pair_corners = 0.7, True
    three_s, jack_s, four_h = 1 * 4, 9 * 4, 2 * 4 + 1
    usual = {
        10: [(jack_s, 0.56), (three_s, 0.3)],  # the top-left index: doubtful, so weighed
        94: [(jack_s, 0.79), (three_s, 0.06)],  # the bottom-right one: sure of the wrong face
        210: [(four_h, 0.6), (four_h + 4, 0.2)],  # another card: doubtful, the body agrees
        294: [(four_h, 0.9)],
    }
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    body = _RankBody({10: (1 * 4, 0.95), 210: (2 * 4, 0.95)})
    det._body = body  # type: ignore[assignment]
    boxes = np.array([*_card_corners(10), *_card_corners(210)], np.float32)
    image = np.zeros((160, 320, 3), np.uint8)
    found, _, _, _ = det._read_indices(image, boxes, np.zeros(4, np.int64), np.full(4, 0.9), 1.6)
    assert sorted(body.looked) == [10, 10, 210]  # card A's body twice: once for each corner
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    assert got == {10: three_s, 94: three_s, 210: four_h, 294: four_h}


def test_the_ink_of_a_doubtful_cards_body_all_but_rules_out_faces_of_the_other_colour() -> None:
    """b46-0004: the i-Verify display's 8s, its index's small pip fringed red by the video, read 8d 0.59
    / 8s 0.20 (here 0.3: the rest is "not an index"); its body's eight big pips are black, so it is read
    8s (weighed: a review item's read).
    The same card with red pips stays 8d, and a sure index is not looked at."""
    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det.pair_corners = 0.7, True
    eight_s, eight_d = 6 * 4, 6 * 4 + 2
    box = np.array([[14, 13, 26, 43]], np.float32)  # the card's top-left index: the card is 102 x 142 px

    def card(ink: tuple[int, int, int]) -> np.ndarray:
        img = np.zeros((170, 130, 3), np.uint8)
        img[:] = (60, 20, 10)
        img[10:152, 10:112] = 245
        for k in range(8):
            x, y = 35 + (k % 2) * 40, 30 + (k // 2) * 28
            img[y : y + 14, x : x + 16] = ink
        return img

    for read, other, want in [(0.59, 0.3, eight_s), (0.8, 0.15, eight_d)]:
        det._class_probs = _scripted_reads({14: [(eight_d, read), (eight_s, other)]}, {})  # type: ignore[method-assign]
        body = _RankBody({})  # the body model says nothing of the rank
        det._body = body  # type: ignore[assignment]
        found, _, _, _ = det._read_indices(
            card((20, 20, 20)), box, np.zeros(1, np.int64), np.full(1, 0.9), 1.6
        )
        assert found.class_id.tolist() == [want], read
        assert body.looked == ([14] if read < 0.7 else [])
    assert found.confidence[0] == pytest.approx(0.9 * 0.8)  # not looked at: as sure as it was read
    det._class_probs = _scripted_reads({14: [(eight_d, 0.59), (eight_s, 0.3)]}, {})  # type: ignore[method-assign]
    found, _, _, _ = det._read_indices(card((40, 30, 200)), box, np.zeros(1, np.int64), np.full(1, 0.9), 1.6)
    assert found.class_id.tolist() == [eight_d] and found.confidence[0] <= 0.9 * 0.7 + 1e-6


def test_a_stills_scale_is_chosen_by_the_faces_it_reads_before_its_backs() -> None:
    """A photo of large cards read at a small scale boxed stray backs along their edges (tigullio's
    330-px cards, photo_stills): those backs' confidence had outweighed the scale that read faces."""
    from vision.detector import OnnxCardDetector, _faces_first

    det = object.__new__(OnnxCardDetector)
    det.upscale = 1.0
    det.scales = (0.5, 1.0)
    box = np.array([[0, 0, 10, 20]], np.float32)
    faces = Detections(np.repeat(box, 2, 0), np.array([5, 9]), np.array([0.8, 0.7], np.float32))
    backs = Detections(np.repeat(box, 6, 0), np.full(6, BACK_CLASS), np.full(6, 0.6, np.float32))
    read = {0.5: backs, 1.0: faces}
    det._detect_at = lambda image, scale, card_px_per_mm=None: (read[scale], np.zeros((0, 4)))  # type: ignore[method-assign]
    image = np.zeros((40, 40, 3), np.uint8)
    found = det._detect_scaled(image)  # 1.5 of faces against 3.6 of backs
    assert found.class_id.tolist() == [5, 9]  # (the backs, index-sized on a blank still, are no cards)
    # no scale reads a face (a still of face-down cards): the surest backs
    fewer = Detections(np.repeat(box, 2, 0), np.full(2, BACK_CLASS), np.full(2, 0.9, np.float32))
    assert max([fewer, backs], key=_faces_first) is backs


def test_every_turn_of_a_still_is_read_at_the_one_scale_its_faces_read_at() -> None:
    """A still's cards are of one size whichever way they lie: each turned read once chose its own
    scale, and a turn that read no card well kept the scale where it misread the most
    (photo_stills: faces P 0.951 -> 0.969, recall the same)."""
    from vision.detector import OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.upscale, det.scales, det.merge_distance = 1.0, (0.5, 1.0), 9.0
    upright = np.array([[10, 10, 20, 40]], np.float32)  # an index standing upright
    right = Detections(upright, np.array([5]), np.array([0.9], np.float32))
    wrong = Detections(upright + 5, np.array([9]), np.array([0.6], np.float32))
    image = np.zeros((60, 100, 3), np.uint8)

    def read(
        shown: np.ndarray, scale: float, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        as_it_lies = shown.shape == image.shape
        if as_it_lies:
            return (right if scale == 1.0 else Detections()), np.zeros((0, 4))
        return (wrong if scale == 0.5 else Detections()), np.zeros((0, 4))  # the turned read

    det._detect_at = read  # type: ignore[method-assign]
    found = det._read_turned(image, (0.0, 90.0), merge=False)
    assert found.class_id.tolist() == [5]  # the turn's misread at the other scale is not kept
    det.scales = (0.5,)  # where that is the only scale, it is read
    assert sorted(det._read_turned(image, (0.0, 90.0), merge=False).class_id.tolist()) == [9]


def _still_with_cards() -> tuple[np.ndarray, dict[str, list[float]]]:
    """A 400 x 300 still on dark felt (with sensor noise): a patterned card back (blue diamonds in a
    white border), a face-up card (white paper, a few pips), a plain patch of felt, and a blown-up
    red pip; the boxes of each."""
    rng = np.random.default_rng(3)
    img = np.clip(rng.normal(0, 6, (300, 400, 3)) + np.array([40, 90, 30]), 0, 255).astype(np.uint8)
    back = np.full((120, 86, 3), 255, np.uint8)
    yy, xx = np.mgrid[0:110, 0:76]
    inner = np.where((((yy // 6) + (xx // 6)) % 2 == 0)[..., None], (160, 60, 20), (230, 200, 150))
    back[5:115, 5:81] = inner.astype(np.uint8)
    img[20:140, 20:106] = back
    img[20:140, 150:236] = 245  # a face-up card: paper ...
    for y, x in ((40, 170), (80, 190), (120, 210)):
        img[y : y + 8, x : x + 8] = (20, 20, 200)  # ... and a few red pips
    img[180:222, 300:340] = (40, 40, 220)  # a blown-up pip: flat red
    boxes = {
        "back": [20, 20, 106, 140],
        "face_up": [150, 20, 236, 140],
        "felt": [20, 170, 106, 290],
        "pip": [300, 180, 340, 222],
    }
    return img, boxes


def test_a_stills_box_is_a_card_back_only_where_it_looks_like_one() -> None:
    """det 8's stray backs on the photo-like stills: face-up cards boxed whole, their pips, plain
    patches of the background (models/HISTORY.md, the eighth session's change)."""
    from vision.detector import _is_card_back

    img, boxes = _still_with_cards()
    none = np.zeros((0, 2), np.float32)
    box = {k: np.array(v, np.float32) for k, v in boxes.items()}
    assert _is_card_back(img, box["back"], none, 0.0)
    assert not _is_card_back(img, box["face_up"], none, 0.0)  # paper and three pips: no pattern
    assert not _is_card_back(img, box["felt"], none, 0.0)  # no pattern
    assert not _is_card_back(img, box["pip"], none, 0.0)
    # a face read inside the box: a face-up card, whatever it looks like
    assert not _is_card_back(img, box["back"], np.array([[60.0, 30.0]], np.float32), 0.0)
    assert _is_card_back(img, box["back"], np.array([[160.0, 30.0]], np.float32), 0.0)
    # smaller than a card of the still's faces (86 px wide; indices 60 px high: cards ~180 px wide)
    assert _is_card_back(img, box["back"], none, 40.0) and not _is_card_back(img, box["back"], none, 60.0)
    assert not _is_card_back(img, np.array([390, 290, 420, 330], np.float32), none, 0.0)  # off the image


def test_a_stills_backs_are_read_at_the_smallest_scale_that_boxes_one_surely() -> None:
    """A scale too large for a still's cards cuts them into tile-sized pieces, each boxed as a back:
    the backs are taken from the smallest scale boxing one at ``_STILL_BACK_FLOOR``, whichever scale
    the faces chose; boxes that do not look like card backs are dropped."""
    from vision.detector import _STILL_BACK_FLOOR, _still_backs

    img, boxes = _still_with_cards()

    def backs(*rows: tuple[str, float]) -> Detections:
        xyxy = np.array([boxes[k] for k, _ in rows], np.float32).reshape(-1, 4)
        return Detections(xyxy, np.full(len(rows), BACK_CLASS), np.array([c for _, c in rows], np.float32))

    face = Detections(np.array([[160, 30, 172, 60]], np.float32), np.array([5]), np.array([0.9], np.float32))
    pieces = Detections.merge([backs(("back", 0.9)), face])
    pieces.xyxy[0] = [20, 20, 60, 60]  # a piece of the back, at the larger scale
    by_scale = [
        (2.0, pieces),
        (0.5, backs(("back", _STILL_BACK_FLOOR - 0.05))),  # the smallest: not sure enough
        (1.0, backs(("back", 0.7), ("face_up", 0.8), ("felt", 0.6), ("pip", 0.6))),
    ]
    found = _still_backs(img, by_scale, face, 0.0)
    assert found.xyxy.tolist() == [boxes["back"]] and found.class_id.tolist() == [BACK_CLASS]
    # without the scale between, the larger scale's piece of the back is what there is
    assert _still_backs(img, by_scale[:2], face, 0.0).xyxy.tolist() == [[20, 20, 60, 60]]
    # a piece of a back boxed beside the whole back: a piece, not a card
    with_piece = Detections.merge([backs(("back", 0.7)), pieces[:1]])
    assert _still_backs(img, [(1.0, with_piece)], face, 0.0).xyxy.tolist() == [boxes["back"]]
    # two backs of a pile overlapping, of about one size: two cards
    pile = backs(("back", 0.7), ("back", 0.6))
    pile.xyxy[1] += [10, 12, 10, 12]
    assert len(_still_backs(img, [(1.0, pile)], face, 0.0)) == 2
    assert len(_still_backs(img, [(1.0, face)], face, 0.0)) == 0  # no back at any scale


def test_a_still_read_turned_takes_its_backs_from_the_read_as_it_lies() -> None:
    """The turned reads' backs are not kept (each turn boxes patches of the background as backs);
    the read as the still lies gives them, at their own scale."""
    from vision.detector import OnnxCardDetector

    img, boxes = _still_with_cards()
    det = object.__new__(OnnxCardDetector)
    det.upscale, det.scales, det.merge_distance = 1.0, (0.5, 1.0), 9.0
    det.fine_rotations = None
    upright = np.array([[150, 30, 162, 60]], np.float32)
    face = Detections(upright, np.array([5]), np.array([0.9], np.float32))
    back = Detections(
        np.array([boxes["back"]], np.float32), np.array([BACK_CLASS]), np.array([0.8], np.float32)
    )
    stray = Detections(
        np.array([[0, 0, 300, 300]], np.float32), np.array([BACK_CLASS]), np.array([0.9], np.float32)
    )

    def read(
        shown: np.ndarray, scale: float, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        if shown.shape != img.shape:  # a turned read: a stray back
            return stray, np.zeros((0, 4))
        return (Detections.merge([face, back]) if scale == 1.0 else Detections()), np.zeros((0, 4))

    det._detect_at = read  # type: ignore[method-assign]
    found = det._read_turned(img, (0.0,), merge=False)
    assert sorted(found.class_id.tolist()) == [5, BACK_CLASS]
    assert found.xyxy[found.class_id == BACK_CLASS].tolist() == [boxes["back"]]
    # read only turned (no 0 among the turns): the still is also read as it lies for its backs
    found = det._read_turned(img, (45.0,), merge=False)
    assert found.xyxy[found.class_id == BACK_CLASS].tolist() == [boxes["back"]]
    # read upside down too, where the half turn boxes no back over it (its canvas is the still's size,
    # so this fake reads it as the still: its back box lies across from the card): the back is not kept
    found = det._read_turned(img, (0.0, 180.0), merge=False)
    assert 5 in found.class_id.tolist() and BACK_CLASS not in found.class_id.tolist()


def _boxed_in_turn(
    img: np.ndarray, deg: float, xyxy: np.ndarray, cls: int = BACK_CLASS
) -> tuple[np.ndarray, Detections]:
    """The still ``img`` turned by ``deg``: the turn's affine back to the still, and a find at ``xyxy``
    (the still's pixels) as the turned read would box it."""
    import cv2

    from vision.detector import turned

    _, back = turned(img, deg)
    there = cv2.invertAffineTransform(back)
    corners = np.array([[xyxy[0], xyxy[1]], [xyxy[2], xyxy[3]]]) @ there[:, :2].T + there[:, 2]
    box = np.array([[*corners.min(0), *corners.max(0)]], np.float32)
    return back, Detections(box, np.array([cls]), np.array([0.6], np.float32))


def test_a_stills_back_is_kept_where_the_still_read_upside_down_boxes_it_again() -> None:
    """A card back is printed to look the same either way up; a texture taken for one (bricks, gravel,
    a face: 65 false backs on 47 real photographs of no card) seldom reads so twice: a back is kept
    where the half turn, read at the scale the backs were taken at, boxes it again
    (``_BACK_HALF_TURN_IOU``)."""

    from vision.detector import OnnxCardDetector, _boxed_again, turned

    img, boxes = _still_with_cards()
    card = np.array(boxes["back"], np.float64)

    def in_turn(deg: float, xyxy: np.ndarray, cls: int = BACK_CLASS) -> tuple[np.ndarray, Detections]:
        return _boxed_in_turn(img, deg, xyxy, cls)

    assert _boxed_again(card[None], *in_turn(180, card)).tolist() == [True]
    assert _boxed_again(card[None], *in_turn(180, card + np.array([200, 120, 200, 120]))).tolist() == [False]
    shifted = card + np.array([30, 0, 30, 0])  # IoU 0.48 once carried back: not the same box
    assert _boxed_again(card[None], *in_turn(180, shifted)).tolist() == [False]
    assert _boxed_again(card[None], *in_turn(180, card, cls=5)).tolist() == [False]  # a face there
    assert _boxed_again(card[None], *in_turn(180, card)[:1], Detections()).tolist() == [False]

    # through the still's reading: turns 0, 90, 180, 270 at two scales; the back is taken at 1.0 (the
    # only scale boxing it as the still lies) and boxed again upside down at ``again`` (the quarter
    # turns box it at every scale: they do not count)
    det = object.__new__(OnnxCardDetector)
    det.upscale, det.scales, det.merge_distance = 1.0, (0.5, 1.0), 9.0
    det.fine_rotations = None
    face = Detections(np.array([[150, 30, 162, 60]], np.float32), np.array([5]), np.array([0.9], np.float32))
    views = {deg: turned(img, deg)[0] for deg in (0, 90, 180, 270)}
    again = [1.0]

    def read(
        shown: np.ndarray, scale: float, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        deg = next(d for d, v in views.items() if v.shape == shown.shape and np.array_equal(v, shown))
        if deg == 0:
            back = Detections(
                card[None].astype(np.float32), np.array([BACK_CLASS]), np.array([0.8], np.float32)
            )
            return (Detections.merge([face, back]) if scale == 1.0 else Detections()), np.zeros((0, 4))
        if deg != 180 or scale in again:
            return in_turn(deg, card)[1], np.zeros((0, 4))
        return Detections(), np.zeros((0, 4))

    det._detect_at = read  # type: ignore[method-assign]
    found = det._read_turned(img, (0.0, 90.0, 180.0, 270.0), merge=False)
    assert found.xyxy[found.class_id == BACK_CLASS].tolist() == [boxes["back"]]
    again[:] = [0.5]  # boxed again upside down at another scale only
    found = det._read_turned(img, (0.0, 90.0, 180.0, 270.0), merge=False)
    assert BACK_CLASS not in found.class_id.tolist()
    # a still not read upside down (--rotations 0,90): its backs stand as read
    found = det._read_turned(img, (0.0, 90.0), merge=False)
    assert found.xyxy[found.class_id == BACK_CLASS].tolist() == [boxes["back"]]


def test_a_stills_back_must_be_boxed_again_by_as_many_turns_as_the_rule_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_still_backs`` counts, over the turns in ``_BACK_TURNS`` it is handed that were read at the
    backs' scale, those boxing a back again, and keeps it where they are ``_BACK_TURNS_NEEDED`` (or
    all of them, where fewer were read); turns outside ``_BACK_TURNS`` do not count."""

    import vision.detector as D

    img, boxes = _still_with_cards()
    card = np.array(boxes["back"], np.float32)
    found = Detections(card[None], np.array([BACK_CLASS]), np.array([0.8], np.float32))

    def turn(deg: float, boxed: bool, scale: float = 1.0) -> tuple[np.ndarray, dict[float, Detections]]:
        back, hit = _boxed_in_turn(img, deg, card)
        return back, {scale: hit if boxed else Detections()}

    def kept(**turns: tuple[np.ndarray, dict[float, Detections]]) -> int:
        by_deg = {float(k[1:]): v for k, v in turns.items()}
        return len(D._still_backs(img, [(1.0, found)], Detections(), 0.0, by_deg))

    assert D._BACK_TURNS == (180.0,) and D._BACK_TURNS_NEEDED == 1  # the shipped rule: the half turn
    assert kept(t180=turn(180, True), t90=turn(90, False)) == 1
    assert kept(t180=turn(180, False), t90=turn(90, True), t270=turn(270, True)) == 0  # quarters: no say
    assert kept(t180=turn(180, False, scale=2.0)) == 1  # not read at the backs' scale: no check
    monkeypatch.setattr(D, "_BACK_TURNS", (90.0, 180.0, 270.0))
    monkeypatch.setattr(D, "_BACK_TURNS_NEEDED", 2)
    assert kept(t90=turn(90, True), t180=turn(180, True), t270=turn(270, False)) == 1
    assert kept(t90=turn(90, False), t180=turn(180, True), t270=turn(270, False)) == 0
    assert kept(t180=turn(180, True)) == 1  # one turn read: it must box it, and does
    assert kept(t180=turn(180, False)) == 0


def test_a_stills_turns_between_are_read_at_the_chosen_scale_alone() -> None:
    """``fine_rotations`` (``detect``'s turns between every 45 degrees): each is read once, at the
    scale the other turns chose, and its finds pooled with theirs."""
    from vision.detector import OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.upscale, det.scales, det.merge_distance = 1.0, (0.5, 1.0, 2.0), 9.0
    det.fine_rotations = (22.5,)
    image = np.zeros((60, 100, 3), np.uint8)
    asked: list[tuple[tuple[int, ...], float]] = []
    face = Detections(np.array([[10, 10, 20, 40]], np.float32), np.array([5]), np.array([0.9], np.float32))

    def read(
        shown: np.ndarray, scale: float, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        asked.append((shown.shape, scale))
        return (face if scale == 1.0 else Detections()), np.zeros((0, 4))

    det._detect_at = read  # type: ignore[method-assign]
    found = det._read_turned(image, (0.0,), merge=False)
    assert [s for _, s in asked] == [0.5, 1.0, 2.0, 1.0]  # the turn between: at 1.0 only
    assert asked[-1][0] != image.shape  # read turned
    assert len(found) >= 1 and found.class_id[0] == 5


def test_a_still_whose_cards_all_lie_between_the_turns_is_read_between_at_every_scale() -> None:
    """No face read at any scale of the 45-degree turns (large cards lying 20 degrees off, photo_stills'
    bellot at 20 degrees: nothing read): the turns between are read at every scale too, and the
    scale chosen over all the turns."""
    from vision.detector import OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.upscale, det.scales, det.merge_distance = 1.0, (0.5, 1.0), 9.0
    det.fine_rotations = (22.5,)
    image = np.zeros((60, 100, 3), np.uint8)
    asked: list[float] = []
    face = Detections(np.array([[10, 10, 20, 40]], np.float32), np.array([5]), np.array([0.9], np.float32))

    def read(
        shown: np.ndarray, scale: float, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        asked.append(scale)
        between = shown.shape != image.shape
        return (face if between and scale == 0.5 else Detections()), np.zeros((0, 4))

    det._detect_at = read  # type: ignore[method-assign]
    found = det._read_turned(image, (0.0,), merge=False)
    assert asked == [0.5, 1.0, 0.5, 1.0]  # the turn between at both scales
    assert found.class_id.tolist() == [5]


def _scale_probe(side: float, best: float, face: bool = True) -> tuple[Any, list[float]]:
    """A detector whose stage 1 and classifier are faked: at each scale it asks, one index ``side`` px
    long in the still's pixels (a face, or a back), read surest at scale ``best``; and the scales asked."""
    from vision.detector import OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.scales, det.upscale, det.rotations, det.fine_rotations = (0.25, 0.5, 1.0, 2.0, 4.0), 1.0, None, None
    asked: list[float] = []

    def fake_detect_at(image: np.ndarray, scale: float, card_px_per_mm: float | None = None) -> Any:
        asked.append(scale)
        conf = 0.9 - 0.2 * abs(np.log2(scale / best))
        cls = parse_card("7h").code if face else BACK_CLASS
        found = _dets([(10, 10, 10 + side / 2, 10 + side, cls, conf)])
        return found, np.zeros((0, 4), np.float32), Detections.empty()

    det._detect_at = fake_detect_at  # type: ignore[method-assign]
    return det, asked


def test_a_still_is_not_read_at_scales_its_indices_are_too_long_for() -> None:
    """A still's pyramid is read smallest scale first, and no scale that would show the indices the
    surest scale so far read over ``_STILL_INDEX_MAX`` px: 30-px indices read surest at 2x are not
    read at 4x (120 px), and the 2x read is kept; 20-px ones are read at 4x too (80 px). Read turned,
    every turn stops at the same scale. Where no face is read, every scale is read."""
    from vision.detector import _STILL_INDEX_MAX

    assert 30 * 4 > _STILL_INDEX_MAX >= 20 * 4
    det, asked = _scale_probe(side=30, best=2.0)
    found = det._detect_scaled(np.zeros((120, 160, 3), np.uint8))
    assert asked == [0.25, 0.5, 1.0, 2.0]
    assert found.confidence.tolist() == pytest.approx([0.9])  # the 2x read
    det, asked = _scale_probe(side=20, best=2.0)
    det._detect_scaled(np.zeros((120, 160, 3), np.uint8))
    assert asked == [0.25, 0.5, 1.0, 2.0, 4.0]
    det, asked = _scale_probe(side=30, best=2.0)
    found = det._read_turned(np.zeros((120, 160, 3), np.uint8), (0.0, 90.0), merge=False)
    assert asked == [0.25, 0.25, 0.5, 0.5, 1.0, 1.0, 2.0, 2.0]
    assert found.confidence.tolist() == pytest.approx([0.9, 0.9])  # each turn's 2x read (two places)
    det, asked = _scale_probe(side=30, best=2.0, face=False)
    det._detect_scaled(np.zeros((120, 160, 3), np.uint8))
    assert asked == [0.25, 0.5, 1.0, 2.0, 4.0]


def test_training_crops_are_cut_as_the_runtime_detector_cuts_them() -> None:
    from render.training import crop_square as training_cut
    from vision.detector import crop_square

    rng = np.random.default_rng(3)
    img = rng.integers(0, 255, (120, 160, 3), np.uint8)
    box = np.array([30.5, 20.0, 47.0, 58.5], np.float32)
    live = crop_square(img, box)
    assert live.shape == (40, 40, 3)
    assert np.array_equal(training_cut(img, box), live)
    # the margin and size pass through: a tighter, larger cut is another picture
    assert not np.array_equal(training_cut(img, box, 48, 1.0)[:40, :40], live)


def test_a_second_find_of_a_corners_own_index_does_not_stand_between_the_corners() -> None:
    """b87-0001 (seed 87, 720p): the dealer's four-corner Ks, its bottom-right index found a second
    time as a wider box across it. That box's centre lay between the card's own corners, so the
    diagonal pair was refused, the card's two edges were paired apart, read Ks and Kc: two cards, a
    false FOREIGN-CARD and CARD-COUNT alert. An index of another card between the corners (a spread
    neighbour's, clear of the corners' boxes) still refuses the pair."""
    from vision.detector import corner_pairs

    tl, tr, bl, br = [205, 37, 219, 72], [285, 36, 300, 71], [205, 141, 221, 175], [284, 141, 300, 175]
    again = [260, 154, 300, 170]  # the bottom-right index found again, wider
    boxes = np.array([tl, tr, bl, br, again], np.float32)
    # the top-left index paired with one of the two finds at the bottom-right (the nearer a card's
    # span: the wider one), the card read as one (its other corners take the pair's read)
    assert corner_pairs(boxes, 1.6) == [(0, 4)]
    assert corner_pairs(boxes[:4], 1.6) == [(0, 3)]
    neighbour = [240, 37, 254, 72]  # another card's top-left index between the corners
    boxes = np.array([tl, tr, bl, br, neighbour], np.float32)
    assert (0, 3) not in corner_pairs(boxes, 1.6)


def test_an_index_read_as_a_face_of_the_other_colour_than_its_ink_is_read_again_no_surer() -> None:
    """b90-0014 (seed 90, 720p): seat 3's 7s read 7d at 0.63 after the wager was taken; its index's ink
    is black. Where no card scale is given (a still), the reads are the classifier's."""
    import cv2

    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.3, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det._body, det.pair_corners, det.one_deck = 0.0, None, False, False
    seven_s, seven_d, seven_c, queen_h, queen_s = 5 * 4, 5 * 4 + 2, 5 * 4 + 3, 10 * 4 + 1, 10 * 4
    usual = {
        10: [(seven_d, 0.63), (seven_s, 0.33), (seven_c, 0.02)],  # black ink, read red: read again
        50: [(seven_d, 0.8), (seven_s, 0.1)],  # red ink, read red: as read
        90: [(queen_h, 0.6), (queen_s, 0.3)],  # blue ink tells nothing: as read
    }
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    image = np.full((50, 130, 3), 235, np.uint8)
    for x, ink in ((10, (25, 25, 25)), (50, (40, 30, 200)), (90, (200, 60, 30))):
        image[16:28, x + 4 : x + 7] = ink
        image[32:40, x + 3 : x + 9] = ink
    image = cv2.GaussianBlur(image, (3, 3), 0)
    boxes = np.array([[x, 12, x + 13, 42] for x in (10, 50, 90)], np.float32)
    found, _, _, _ = det._read_indices(image, boxes, np.zeros(3, np.int64), np.full(3, 0.9), 1.6)
    got = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.class_id.tolist(), strict=True))
    conf = dict(zip(found.xyxy[:, 0].astype(int).tolist(), found.confidence.tolist(), strict=True))
    assert got == {10: seven_s, 50: seven_d, 90: queen_h}
    assert conf[10] == pytest.approx(0.9 * 0.63)  # 7s 0.33 of 0.38 left, but no surer than its 7d was
    assert conf[50] == pytest.approx(0.9 * 0.8) and conf[90] == pytest.approx(0.9 * 0.6)
    still, _, _, _ = det._read_indices(image, boxes, np.zeros(3, np.int64), np.full(3, 0.9))
    assert still.class_id[still.xyxy[:, 0].astype(int) == 10].tolist() == [seven_d]
    det.index_ink = False  # turned off: as read
    off, _, _, _ = det._read_indices(image, boxes, np.zeros(3, np.int64), np.full(3, 0.9), 1.6)
    assert off.class_id[off.xyxy[:, 0].astype(int) == 10].tolist() == [seven_d]


def test_a_face_its_own_ink_rules_out_is_no_guess_for_the_count() -> None:
    """b93-0003 (seed 93, 720p): seat 1's 2c, its index's ink black, read 2c 0.34 and 2d 0.27 beside
    the hand's own 2s. Its read stands (a face of its ink's colour), but the count took both faces
    as open and named neither: the card stayed unnamed through the settlement. The index's two
    likeliest faces are now those its ink leaves: the red 2d is no guess, the black 2s (next) is."""
    import cv2

    from vision.detector import _NOT_INDEX, OnnxCardDetector

    det = object.__new__(OnnxCardDetector)
    det.regrow_short, det.second_look, det.cls_conf, det.narrow_look = False, 0.0, 0.4, 0.0
    det._cls_names = np.arange(_NOT_INDEX + 1)
    det.body_look, det._body, det.pair_corners, det.one_deck = 0.0, None, False, False
    two_s, two_d, two_c = 0, 2, 3
    usual = {10: [(two_c, 0.38), (two_d, 0.3), (two_s, 0.2)], 50: [(two_d, 0.38), (two_c, 0.3)]}
    det._class_probs = _scripted_reads(usual, {})  # type: ignore[method-assign]
    image = np.full((50, 90, 3), 235, np.uint8)
    for x, ink in ((10, (25, 25, 25)), (50, (40, 30, 200))):  # black ink, red ink
        image[16:28, x + 4 : x + 7] = ink
        image[32:40, x + 3 : x + 9] = ink
    image = cv2.GaussianBlur(image, (3, 3), 0)
    boxes = np.array([[x, 12, x + 13, 42] for x in (10, 50)], np.float32)

    def guesses(scale: float | None) -> dict[int, list[int]]:
        """Each box's guesses at 0.1 or more (the count takes them from its floor, 0.25)."""
        _, unread, _, g = det._read_indices(image, boxes, np.zeros(2, np.int64), np.full(2, 0.9), scale)
        assert len(unread) == 2  # both read under the floor: faces seen, not named
        out: dict[int, list[int]] = {}
        for b, c, p in zip(g.xyxy[:, 0].astype(int).tolist(), g.class_id.tolist(), g.confidence, strict=True):
            if p >= 0.1:
                out.setdefault(b, []).append(c)
        return out

    # black ink: 2c and the black 2s, not the red 2d; red ink: the red 2d alone (2c all but ruled out)
    assert guesses(1.6) == {10: [two_c, two_s], 50: [two_d]}
    # a still (no card scale) and the rule turned off: the classifier's two likeliest, as read
    assert guesses(None) == {10: [two_c, two_d], 50: [two_d, two_c]}
    det.index_ink = False
    assert guesses(1.6) == {10: [two_c, two_d], 50: [two_d, two_c]}
