"""How sure the camera pipeline is of each zone's cards (``TableState.read_confidence``) and of each
card (``TableState.card_confidence``), and one card read once however many of its corner indices the
detector finds (``vision.pipeline``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_pipeline_synth import PALETTE, ColourDetector, SynthTable, make_layout

from vision.detections import CLASSES, Detections
from vision.pipeline import PipelineConfig, TablePipeline, card_centres, merge_card_indices
from vision.state import BACK, UNREAD, TableState

CFG = PipelineConfig(analyse_fps=None)
PX_PER_MM = 1.6  # a card is 101.6 x 142.2 px


def _dets(*rows: tuple[str, float, float, float]) -> Detections:
    """(label, x, y, confidence): a 15 x 30 px index box at (x, y)."""
    xyxy = [[x, y, x + 15, y + 30] for _, x, y, _ in rows]
    return Detections(
        np.array(xyxy, np.float32),
        np.array([CLASSES.index(r[0]) for r in rows]),
        np.array([r[3] for r in rows]),
    )


def test_the_four_corner_indices_of_one_card_are_one_card() -> None:
    # a deck with an index in every corner: the detector's pairs leave two "4c" 80 px apart (s02's dealer)
    d = _dets(("4c", 94, 38, 0.77), ("4c", 175, 38, 0.55), ("Th", 204, 38, 0.8), ("BACK", 300, 40, 0.9))
    m = merge_card_indices(d, PX_PER_MM)
    assert sorted(m.labels) == ["4c", "BACK", "Th"]
    four = m[np.array([lab == "4c" for lab in m.labels])]
    assert float(four.confidence[0]) == np.float32(0.77)
    assert four.xyxy[0].tolist() == [94, 38, 190, 68]


def test_two_cards_of_one_face_further_apart_than_a_card_stay_two() -> None:
    d = _dets(("Kd", 10, 10, 0.9), ("Kd", 200, 10, 0.9))  # 190 px apart: more than a card's width or height
    assert merge_card_indices(d, PX_PER_MM).labels == ["Kd", "Kd"]
    turned = _dets(("Kd", 10, 10, 0.9), ("Kd", 10, 125, 0.9))  # one card's two indices, top and bottom
    assert merge_card_indices(turned, PX_PER_MM).labels == ["Kd"]


def test_two_reads_of_one_face_with_another_card_between_are_two_cards() -> None:
    # a duplicate fanned in one hand, or b61-0011's As read Ac two cards right of the real Ac: the Ad's
    # index between them says two cards (joined, the hand was a card short and the duplicate unseen)
    fan = _dets(("Ac", 60, 30, 0.8), ("Ad", 86, 30, 0.8), ("Ac", 111, 30, 0.62))
    assert sorted(merge_card_indices(fan, PX_PER_MM).labels) == ["Ac", "Ac", "Ad"]
    alone = _dets(("Ac", 60, 30, 0.8), ("Ac", 111, 30, 0.62))
    assert merge_card_indices(alone, PX_PER_MM).labels == ["Ac"]


def test_two_reads_of_different_faces_at_both_ends_of_one_card_are_that_card() -> None:
    # s02 (dondorf): a Ts read Tc at its bottom end, 120 px below, in the same column: one card, not
    # an extra one (a false CARD-COUNT); the surer read wins, less sure for the disagreement
    d = _dets(("Ts", 100, 10, 0.73), ("Tc", 100, 120, 0.51), ("7c", 125, 10, 0.68), ("Qc", 75, 120, 0.85))
    m = merge_card_indices(d, PX_PER_MM)
    assert sorted(m.labels) == ["7c", "Qc", "Ts"]
    ts = m[np.array([lab == "Ts" for lab in m.labels])]
    assert abs(float(ts.confidence[0]) - 0.73 * 0.49 / (0.73 * 0.49 + 0.51 * 0.27)) < 1e-5
    assert ts.xyxy[0].tolist() == [100, 10, 115, 150]
    # the next card of a spread (a fifth of a card aside), or a card half a card lower, is another card
    assert len(merge_card_indices(_dets(("Ts", 100, 10, 0.7), ("Tc", 121, 120, 0.6)), PX_PER_MM)) == 2
    assert len(merge_card_indices(_dets(("Ts", 100, 10, 0.7), ("Tc", 100, 60, 0.6)), PX_PER_MM)) == 2
    # whole-card boxes (ground-truth boxes, a pile in one column) are cards, not a card's two ends
    cards = Detections(
        np.array([[100, 10, 202, 152], [100, 25, 202, 167]], np.float32),
        np.array([CLASSES.index("Ts"), CLASSES.index("Tc")]),
        np.array([0.9, 0.9]),
    )
    assert len(merge_card_indices(cards, PX_PER_MM)) == 2


def test_two_reads_of_different_faces_at_opposite_corners_of_one_card_are_that_card() -> None:
    # b42-0019: the dealer's six cards turned up in a row, 110 px apart; a 3c read 3s at its
    # bottom-right corner (96 x 138 px from its top-left one): one card, not a seventh
    d = _dets(("3c", 95, 41, 0.81), ("3s", 176, 149, 0.68), ("6d", 205, 41, 0.78), ("6d", 286, 149, 0.76))
    m = merge_card_indices(d, PX_PER_MM)
    assert sorted(m.labels) == ["3c", "6d"]
    three = m[np.array([lab == "3c" for lab in m.labels])]
    assert three.xyxy[0].tolist() == [95, 41, 191, 179]
    assert abs(float(three.confidence[0]) - 0.81 * 0.32 / (0.81 * 0.32 + 0.68 * 0.19)) < 1e-5
    # a spread hand, 25 px a card: the last card's far corner belongs to it, not to the one before
    spread = [(c, 100 + 25 * k, 10, 0.8) for k, c in enumerate(("2h", "5c", "9d", "Js"))]
    m = merge_card_indices(_dets(*spread, ("Kh", 256, 118, 0.5)), PX_PER_MM)
    assert sorted(m.labels) == ["2h", "5c", "9d", "Js"]
    assert m[np.array([lab == "Js" for lab in m.labels])].xyxy[0].tolist() == [175, 10, 271, 148]
    assert sorted(merge_card_indices(_dets(*spread[:3], ("Kh", 256, 118, 0.5)), PX_PER_MM).labels) == sorted(
        ["2h", "5c", "9d", "Kh"]
    )  # 121 px from the nearest: another card's corner
    # s13: a 2c and a Joker's second box 115 x 154 px apart: wider and longer than one card
    assert len(merge_card_indices(_dets(("2c", 138, 31, 0.72), ("Jk", 238, 155, 0.7)), PX_PER_MM)) == 2


def test_a_third_index_read_inside_a_card_boxed_corner_to_corner_is_that_card() -> None:
    # s02 (dondorf, an index in every corner): As boxed from its top-left to its bottom-right index,
    # its top-right index read Ac at 0.42 inside that box: one card (not a seventh in a 6-card hand)
    card = [100, 200, 202, 342]  # 101.6 x 142.2 px at 1.6 px/mm
    d = Detections(
        np.array([card, [186, 202, 200, 232], [60, 10, 75, 40]], np.float32),
        np.array([CLASSES.index("As"), CLASSES.index("Ac"), CLASSES.index("Qc")]),
        np.array([0.55, 0.42, 0.85]),
    )
    m = merge_card_indices(d, PX_PER_MM)
    assert sorted(m.labels) == ["As", "Qc"]
    ace = m[np.array([lab == "As" for lab in m.labels])]
    assert ace.xyxy[0].tolist() == card
    assert abs(float(ace.confidence[0]) - 0.55 * 0.58 / (0.55 * 0.58 + 0.42 * 0.45)) < 1e-5
    # the surer read names the card
    d.confidence[:] = [0.45, 0.7, 0.85]
    assert sorted(merge_card_indices(d, PX_PER_MM).labels) == ["Ac", "Qc"]
    # an index that only touches the card's box (the next card of a spread, its index beside the
    # top card's edge) is another card
    beside = Detections(
        np.array([card, [190, 202, 215, 232]], np.float32),
        np.array([CLASSES.index("As"), CLASSES.index("7h")]),
        np.array([0.55, 0.42]),
    )
    assert sorted(merge_card_indices(beside, PX_PER_MM).labels) == ["7h", "As"]


def test_two_reads_each_boxing_the_same_card_corner_to_corner_are_that_card() -> None:
    # b42-0011 (dondorf): the detector's corner pairs of a four-index card gave 9s at 0.83 and 9c at
    # 0.47, each boxed nearly corner to corner on the one card: a seventh card at the dealer
    d = Detections(
        np.array([[100, 200, 202, 342], [101, 201, 201, 341], [300, 200, 402, 342]], np.float32),
        np.array([CLASSES.index("9s"), CLASSES.index("9c"), CLASSES.index("Kd")]),
        np.array([0.83, 0.47, 0.8]),
    )
    m = merge_card_indices(d, PX_PER_MM)
    assert sorted(m.labels) == ["9s", "Kd"]
    nine = float(m.confidence[m.labels.index("9s")])
    assert abs(nine - 0.83 * 0.53 / (0.83 * 0.53 + 0.47 * 0.17)) < 1e-5
    # two whole cards side by side (a card-long box each, half overlapping) stay two
    apart = Detections(
        np.array([[100, 200, 202, 342], [150, 200, 252, 342]], np.float32),
        np.array([CLASSES.index("9s"), CLASSES.index("9c")]),
        np.array([0.83, 0.47]),
    )
    assert sorted(merge_card_indices(apart, PX_PER_MM).labels) == ["9c", "9s"]


def test_a_card_read_by_its_top_index_is_placed_by_its_body_below() -> None:
    # s13: face-up dealt cards fanned across the deal spot; only their top indices are read, and
    # those lie in the high area above it. Where the card's blank white lies below the index and felt
    # above, the card's middle is its place; where the picture below is no blank card, the index's.
    crop = np.zeros((400, 300, 3), np.uint8)
    crop[:] = (40, 120, 45)  # felt
    crop[100:242, 50:152] = (245, 245, 245)  # a card, 101.6 x 142.2 px at 1.6 px/mm
    d = _dets(("7c", 54, 104, 0.8))
    (cx, cy), *_ = card_centres(crop, d, PX_PER_MM)
    # down, not sideways: an index may be at a card's top right (four-corner decks, s02)
    assert cx == 54 + 7.5 and abs(cy - (104 + 0.45 * 142.2)) < 1
    crop[150:190, 50:152] = (40, 40, 200)  # a picture where the probe looks: not a blank card
    assert card_centres(crop, d, PX_PER_MM).tolist() == d.centers.tolist()
    crop[150:190, 50:152] = (245, 245, 245)
    crop[40:80, 40:160] = (245, 245, 245)  # another card above: which way is unclear, kept
    assert card_centres(crop, d, PX_PER_MM).tolist() == d.centers.tolist()


class _SureOf(ColourDetector):
    """The colour detector with a confidence per card."""

    def __init__(self, conf: dict[str, float]) -> None:
        super().__init__()
        self.conf = conf

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        c = np.array([self.conf.get(lab, 0.9) for lab in d.labels], np.float32)
        return Detections(d.xyxy, d.class_id, c)


def _run(p: TablePipeline, t: SynthTable, n: int, start: int, fps: float = 12.5) -> list[TableState]:
    return [s for i in range(start, start + n) if (s := p.process(i, i / fps, t.frame(i))) is not None]


def test_each_zone_carries_the_lowest_read_confidence_of_its_faces() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620), ("BACK", 560, 620), ("Qh", 1000, 330)])
    p = TablePipeline(lay, _SureOf({"As": 0.62, "Kd": 0.97, "Qh": 0.81}), CFG)
    s = _run(p, t, 10, 0)[-1]
    assert s.seat(1).high == ["As", "Kd"] and s.seat(1).low == ["BACK"]
    assert s.read_confidence["seat1.high"] == np.float32(0.62)
    assert s.read_confidence["dealer.low"] == np.float32(0.81)
    assert "seat1.low" not in s.read_confidence  # backs are not read: nothing to doubt
    assert "seat2.high" not in s.read_confidence  # empty


def test_each_card_carries_its_own_confidence_in_the_order_of_its_zone() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("Kd", 330, 620), ("As", 250, 620), ("BACK", 560, 620), ("Qh", 1000, 330)])
    p = TablePipeline(lay, _SureOf({"As": 0.62, "Kd": 0.97, "Qh": 0.81, "BACK": 0.88}), CFG)
    s = _run(p, t, 10, 0)[-1]
    assert s.seat(1).high == ["As", "Kd"]  # left to right, whatever order the detector gave them in
    assert s.card_confidence["seat1.high"] == [np.float32(0.62), np.float32(0.97)]
    assert s.card_confidence["seat1.low"] == [np.float32(0.88)]  # a back: the detector's score for it
    assert s.card_confidence["dealer.low"] == [np.float32(0.81)]
    assert "seat2.high" not in s.card_confidence  # empty
    # the zone's read confidence is the lowest of its faces' (backs are not read)
    assert s.read_confidence["seat1.high"] == min(s.card_confidence["seat1.high"])
    assert "seat1.low" not in s.read_confidence
    # the record crosses to compliance/ as JSON and comes back the same
    assert TableState.model_validate_json(s.model_dump_json()) == s


def test_a_card_swapped_between_a_hands_areas_is_read_in_both_though_one_hardly_changed() -> None:
    # b46-0013: the dealer re-set a foul hand, its high Qs swapped with its low Ks; the high hand's
    # picture changed under change_fraction (a spread's corner), so it kept its stale Qs beside the
    # low hand's new Qs: a false FOREIGN-CARD alert. Here the high area's change is made too small to
    # count (change_fraction 0.15: one card of five), the low area's is not.
    lay = make_layout()
    high = ["Qh", "Kd", "As", "Jc", "2c"]
    t = SynthTable(lay, cards=[(c, 185.0 + 65 * i, 620.0) for i, c in enumerate(high)])
    t.cards.append(("Ts", 560.0, 620.0))
    p = TablePipeline(lay, _SureOf({}), CFG.model_copy(update={"change_fraction": 0.15}))
    s = _run(p, t, 10, 0)[-1]
    assert s.seat(1).high == high and s.seat(1).low == ["Ts"]
    t.cards[0], t.cards[-1] = ("Ts", *t.cards[0][1:]), ("Qh", *t.cards[-1][1:])
    seen = _run(p, t, 12, 10)
    assert seen[-1].seat(1).low == ["Qh"] and seen[-1].seat(1).high == ["Ts", *high[1:]]
    # while the high area still shows its old Qh beside the low's new one, it is known to be unread
    twice = [st for st in seen if "Qh" in st.seat(1).low and "Qh" in st.seat(1).high]
    assert all(st.read_confidence.get("seat1.high") == UNREAD for st in twice)


class _Hiding(_SureOf):
    """The colour detector, not finding the cards named in ``hide`` (an arm beside them, say)."""

    def __init__(self) -> None:
        super().__init__({})
        self.hide: set[str] = set()

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        return d[np.array([lab not in self.hide for lab in d.labels], bool)]


def test_a_still_zone_read_with_a_card_fewer_beside_a_changed_one_keeps_its_cards() -> None:
    # b42-0010: the dealer's arm beside seat 6's high hand, reading its low hand, hid two of the high
    # hand's indices without changing its picture enough; read again, the high hand lost two cards
    lay = make_layout()
    high = ["Qh", "Kd", "As", "Jc", "2c"]
    t = SynthTable(lay, cards=[(c, 185.0 + 65 * i, 620.0) for i, c in enumerate(high)])
    t.cards.append(("Ts", 560.0, 620.0))
    det = _Hiding()
    p = TablePipeline(lay, det, CFG.model_copy(update={"change_fraction": 0.15}))
    assert _run(p, t, 10, 0)[-1].seat(1).high == high
    det.hide = {"Kd"}
    t.cards[-1] = ("5d", *t.cards[-1][1:])
    seen = _run(p, t, 12, 10)
    assert seen[-1].seat(1).low == ["5d"] and all(st.seat(1).high == high for st in seen)


def test_a_zone_changing_and_not_read_again_is_unread_until_it_is() -> None:
    lay = make_layout()
    t = SynthTable(lay)
    p = TablePipeline(lay, _SureOf({}), CFG)
    _run(p, t, 8, 0)
    seen: list[TableState] = []
    for k in range(6):  # a card slides across seat 2's high area: its picture never settles ...
        t.cards = [("Kd", 760.0 + 25 * k, 620.0)] + ([("As", 250.0, 620.0)] if k >= 1 else [])
        seen += _run(p, t, 1, 8 + k)
    # ... while seat 1's new card settles and is reported: seat 2's high area is not known then
    first = next(s for s in seen if s.seat(1).high == ["As"])
    assert first.read_confidence.get("seat2.high") == UNREAD and first.seat(2).high == []
    assert "seat2.high" not in first.card_confidence  # an unread zone has no card confidences
    after = _run(p, t, 8, 14)[-1]  # it stops: read, and known again
    assert after.seat(2).high == ["Kd"] and after.read_confidence["seat2.high"] == np.float32(0.9)
    assert after.card_confidence["seat2.high"] == [np.float32(0.9)]


def test_a_zone_read_anew_but_not_yet_held_long_enough_is_unread_until_shown() -> None:
    # b42-0002: seat 5's high hand, read as the arm left it, was shown empty for one more state (its
    # new reading waiting out the debounce): "seen unset in plain view", a false IVERIFY-SEAT-EARLY
    lay = make_layout()
    t = SynthTable(lay)
    p = TablePipeline(lay, _SureOf({}), CFG.model_copy(update={"hold_frames": 4}))
    _run(p, t, 8, 0)
    t.cards = [("As", 250.0, 620.0)]
    seen = _run(p, t, 2, 8)
    t.cards.append(("Kd", 760.0, 620.0))  # two frames later, in seat 2's high area
    seen += _run(p, t, 12, 10)
    first = next(s for s in seen if s.seat(1).high == ["As"])
    assert first.seat(2).high == [] and first.read_confidence.get("seat2.high") == UNREAD
    last = seen[-1]
    assert last.seat(2).high == ["Kd"] and last.read_confidence["seat2.high"] == np.float32(0.9)


class _WithUnread(_SureOf):
    """The colour detector, but the cards named in ``unread`` are found and not read: they come back as
    unread index boxes (``OnnxCardDetector.detect_with_unread``), or with ``weak`` as reads below the
    pipeline's floor."""

    def __init__(self, unread: set[str], weak: bool = False, weak_read: float = 0.2) -> None:
        super().__init__({})
        self.unread, self.weak, self.weak_read = unread, weak, weak_read

    def detect_with_unread(self, image: np.ndarray) -> tuple[Detections, np.ndarray]:
        d = self.detect(image)
        gone = np.array([lab in self.unread for lab in d.labels], bool)
        if self.weak:
            return Detections(d.xyxy, d.class_id, np.where(gone, self.weak_read, d.confidence)), np.zeros(
                (0, 4)
            )
        return d[~gone], d.xyxy[gone]


def test_a_face_found_but_not_read_is_counted_in_its_zone_and_not_listed_among_its_cards() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620), ("Qh", 1000, 330)])
    for weak in (False, True):
        p = TablePipeline(lay, _WithUnread({"Kd"}, weak=weak), CFG)
        s = _run(p, t, 10, 0)[-1]
        assert s.seat(1).high == ["As"] and s.unread_faces == {"seat1.high": 1}, weak
        assert s.card_confidence["seat1.high"] == [np.float32(0.9)]
        assert TableState.model_validate_json(s.model_dump_json()) == s
    # a detector without the method (a fake, an older one): no unread faces, as before
    s = _run(TablePipeline(lay, _SureOf({}), CFG), t, 10, 0)[-1]
    assert s.unread_faces == {} and s.seat(1).high == ["As", "Kd"]


def test_an_unread_box_on_a_read_card_or_at_its_far_corner_is_that_card() -> None:
    from vision.pipeline import _unread_cards

    reads = _dets(("As", 100, 50, 0.9))  # a 15 x 30 index at (100, 50); a card is ~102 x 142 px
    boxes = np.array(
        [
            [102, 52, 117, 82],  # on the read index: that index again
            [184, 160, 199, 190],  # the read card's bottom-right corner: that card
            [130, 50, 145, 80],  # the next card of a spread, 30 px on: a card
            [131, 51, 146, 81],  # ... boxed twice
            [213, 161, 228, 191],  # that next card's own far corner: the same card
        ],
        np.float32,
    )
    kept = _unread_cards(boxes, reads, PX_PER_MM)
    assert kept.tolist() == [[130, 50, 145, 80]]
    # the read card's far corner as seen from a card two places on (union 114 px wide): a card
    assert len(_unread_cards(np.array([[197, 160, 212, 190]], np.float32), reads, PX_PER_MM)) == 1
    assert _unread_cards(np.zeros((0, 4), np.float32), reads, PX_PER_MM).shape == (0, 4)
    # b86-0000: one index boxed in two slivers overlapping a little (12 x 18 and 5 x 31 px at 1.6 px/mm):
    # one card; the next card's index 15 % of a card on (15 px), touching this one's box: another
    slivers = np.array([[183, 236, 195, 254], [192, 238, 197, 269]], np.float32)
    assert _unread_cards(slivers, Detections.empty(), PX_PER_MM).tolist() == [[183, 236, 195, 254]]
    spread = np.array([[183, 236, 199, 262], [198, 236, 214, 262]], np.float32)
    assert len(_unread_cards(spread, Detections.empty(), PX_PER_MM)) == 2


def test_the_shipped_detector_loaded_on_first_use_also_gives_its_unread_faces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.pipeline as vp

    asked: list[bool] = []
    monkeypatch.setattr(
        vp, "load_shipped_detector", lambda coarse=False: asked.append(coarse) or _WithUnread({"Kd"})
    )
    lazy = vp._LazyDetector(coarse=True)  # a coarse camera's detector, asked for on first use
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    s = _run(TablePipeline(lay, lazy, CFG), t, 10, 0)[-1]
    assert s.seat(1).high == ["As"] and s.unread_faces == {"seat1.high": 1} and asked == [True]
    monkeypatch.setattr(vp, "load_shipped_detector", lambda coarse=False: _SureOf({}))  # one without: none
    s = _run(TablePipeline(lay, vp._LazyDetector(), CFG), t, 10, 0)[-1]
    assert s.seat(1).high == ["As", "Kd"] and s.unread_faces == {}


_HAND = ["As", "Kd", "Qh", "Jc", "Ts", "9h", "2c"]


def _dealer_sets(
    p: TablePipeline,
    det: _WithUnread,
    unread: set[str],
    put: list[str] | None = None,
    first: list[str] | None = None,
) -> TableState:
    """The dealer's seven cards turned up in a row and all read (``first``, by default ``_HAND``),
    then set (``put``: the first five high, the next two low, any more left in the row; by default
    ``_HAND``) with the faces in ``unread`` found but not read."""
    t = SynthTable(p.layout, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(first or _HAND)])
    _run(p, t, 10, 0)
    put = put or _HAND
    t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(put[:5])]
    t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(put[5:7])]
    t.cards += [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(put[7:])]
    det.unread = unread
    return _run(p, t, 12, 10)[-1]


def test_the_one_face_not_read_in_a_set_hand_is_the_one_missing_from_the_hand_read_whole() -> None:
    lay = make_layout()
    det = _WithUnread(set())
    s = _dealer_sets(TablePipeline(lay, det, CFG), det, {"Ts"})
    assert s.dealer.hand == [] and sorted(s.dealer.high) == sorted(_HAND[:5]) and s.dealer.low == ["9h", "2c"]
    assert s.unread_faces == {}  # named now: no longer counted as seen and not named
    assert s.card_confidence["dealer.high"][s.dealer.high.index("Ts")] == np.float32(0.9)  # its first read's
    assert s.carried_faces == {"dealer.high": ["Ts"]}  # and the record says it was not read there
    assert s.carried_from_display == {}  # from the felt's own view of the hand turned up
    assert TableState.model_validate_json(s.model_dump_json()) == s


def test_a_face_not_read_is_not_named_when_the_hand_read_whole_cannot_tell_which_it_is() -> None:
    lay = make_layout()
    # two faces not read: which is which cannot be told
    det = _WithUnread(set())
    s = _dealer_sets(TablePipeline(lay, det, CFG), det, {"Ts", "9h"})
    assert "Ts" not in s.dealer.high and "9h" not in s.dealer.low
    assert s.unread_faces == {"dealer.high": 1, "dealer.low": 1} and s.carried_faces == {}
    # a card among them that was not in the hand (5d, an eighth card): not all the same cards
    det = _WithUnread(set())
    s = _dealer_sets(TablePipeline(lay, det, CFG), det, {"Ts"}, put=[*_HAND, "5d"])
    assert s.dealer.hand == ["5d"] and "Ts" not in s.dealer.high
    assert s.unread_faces == {"dealer.high": 1}
    # the hand never seen whole (one face of the row not read either): nothing to name it from
    det = _WithUnread({"Ts"})
    s = _dealer_sets(TablePipeline(lay, det, CFG), det, {"Ts"})
    assert "Ts" not in s.dealer.high and s.unread_faces == {"dealer.high": 1}


def test_a_card_read_two_ways_in_two_views_still_leaves_the_one_face_not_read_named() -> None:
    # as b81-0014 (its 2c read 2s at the last whole look): the hand turned up read with its Kd as 5d
    # (the colour detector's faces: one suit shared); set, the Kd read right and the Ts not named
    lay = make_layout()
    det = _WithUnread(set())
    first = [c if c != "Kd" else "5d" for c in _HAND]
    s = _dealer_sets(TablePipeline(lay, det, CFG), det, {"Ts"}, first=first)
    assert sorted(s.dealer.high) == sorted(_HAND[:5]) and s.dealer.low == ["9h", "2c"]
    assert s.unread_faces == {} and s.carried_faces == {"dealer.high": ["Ts"]}


def test_a_card_read_two_ways_names_the_face_only_where_it_pairs_with_one_card() -> None:
    from vision.pipeline import _carry_known_face

    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["As", "Kd", "Qh", "Jc"])]

    def carry(known: list[str], low: list[str]) -> tuple[list[tuple[str, str]] | None, dict[str, list]]:
        out = {"dealer.high": list(high), "dealer.low": [(100.0 + i, c, 0.55) for i, c in enumerate(low)]}
        conf = {c: 0.8 for c in known} | {"2s": 0.6}
        return _carry_known_face(out, [("dealer.high", 45.0)], conf), out

    # the 2c read now, 2s in the hand seen whole: the same card, so the face not read is the Ts,
    # no surer than the weaker of the two reads that disagree (0.55 here)
    named, out = carry(["As", "Kd", "Qh", "Jc", "Ts", "9h", "2s"], ["9h", "2c"])
    assert named == [("dealer.high", "Ts")] and out["dealer.high"][-1] == (45.0, "Ts", 0.55)
    # the 2s shares its suit with the Ts and its rank with the 2h: which card it is cannot be told
    named, out = carry(["As", "Kd", "Qh", "Jc", "Ts", "9h", "2h"], ["9h", "2s"])
    assert named is None and len(out["dealer.high"]) == 4
    # a 5d shares nothing with the Ts or the 2s: a card not seen before, the face stays unnamed
    named, out = carry(["As", "Kd", "Qh", "Jc", "Ts", "9h", "2s"], ["9h", "5d"])
    assert named is None and len(out["dealer.high"]) == 4
    # two cards read now that the hand lacked: nothing is told
    named, _ = carry(["As", "Kd", "Qh", "Jc", "Ts", "9s", "2s"], ["9h", "2c"])
    assert named is None


def test_faces_not_named_where_the_zone_had_settled_cards_are_those_cards() -> None:
    """b88-0010: seat 1's high hand 5h 9h 8c 8s 7d, read again after an arm passed over it, its 8c and
    8s then read under the floor: the two faces not named lie where the 8c and 8s lay."""
    from vision.pipeline import _carry_in_place

    was = {"seat1.high": [("5h", 0.63), ("9h", 0.8), ("8c", 0.76), ("8s", 0.36), ("7d", 0.85)]}

    def read(*named: tuple[float, str]) -> dict[str, list[tuple[float, str, float]]]:
        return {"seat1.high": [(x, c, 0.8) for x, c in named], "seat1.low": [(90.0, "Jd", 0.8)]}

    lone = [("seat1.high", 30.0), ("seat1.high", 40.0)]
    out = read((10.0, "5h"), (20.0, "9h"), (50.0, "7d"))
    assert _carry_in_place(out, lone, was) == [("seat1.high", "8c"), ("seat1.high", "8s")]
    assert sorted(out["seat1.high"]) == [
        (10.0, "5h", 0.8), (20.0, "9h", 0.8), (30.0, "8c", 0.76), (40.0, "8s", 0.36), (50.0, "7d", 0.8)
    ]  # fmt: skip
    # a named card out of its place, a card the zone did not settle on, a card shown elsewhere, a
    # face too few or too many, one face alone (the count's and the hand seen whole's), no settled
    # cards: nothing is named and the read is left as it was
    for named, faces, elsewhere, settled in [
        (((10.0, "9h"), (20.0, "5h"), (50.0, "7d")), lone, (), was),
        (((10.0, "5h"), (20.0, "9h"), (50.0, "7c")), lone, (), was),
        (((10.0, "5h"), (20.0, "9h"), (50.0, "7d")), lone, ("8s",), was),
        (((10.0, "5h"), (50.0, "7d")), lone, (), was),
        (((10.0, "5h"), (20.0, "9h"), (50.0, "7d")), [*lone, ("seat1.high", 45.0)], (), was),
        (((10.0, "5h"), (20.0, "9h"), (40.0, "8s"), (50.0, "7d")), lone[:1], (), was),
        (((10.0, "5h"), (20.0, "9h"), (50.0, "7d")), lone, (), {}),
    ]:
        out = read(*named)
        assert _carry_in_place(out, faces, settled, elsewhere) is None and out == read(*named)


def test_a_zone_settled_on_its_cards_read_worse_keeps_the_cards_it_settled_on_all_named() -> None:
    """b83-0003: seat 1's high hand 3h Kc 9c 5s 3c settled all named; read while the dealer's arm paid
    beside it, it settled on 3h Kc 9c 5s and a face not named; after the arm, two faces not named lay
    where the 9c and 3c had: those are the cards of the hand it settled on all named, for review."""
    from vision.pipeline import _whole_hand, _ZoneRead

    p = TablePipeline(make_layout(), _SureOf({}), CFG)
    whole = [("3h", 0.85), ("Kc", 0.81), ("9c", 0.49), ("5s", 0.76), ("3c", 0.65)]

    def settle(cards: tuple[str, ...], unread: int = 0) -> None:
        conf = dict(whole)
        reads = tuple(conf.get(c, 0.9) for c in cards)
        before = p._settled_conf.get("seat1.high")
        kept = _whole_hand(cards, reads, unread, None if before is None else before.whole)
        p._settled_conf["seat1.high"] = _ZoneRead(cards, None, reads, unread, (), (), (), whole=kept)

    lone = [("seat1.high", 30.0), ("seat1.high", 50.0)]
    settle(tuple(c for c, _ in whole))
    assert p._settled_cards(lone) == {"seat1.high": whole}
    # the same cards read worse: the whole hand stands, each card no surer than the floor (a face not
    # named in between may be another card), so a finding on one named from it is for review
    floor = CFG.min_confidence
    doubted = [(c, floor) for c, _ in whole]  # every card of it read surer than the floor
    settle(("3h", "Kc", "9c", "5s"), unread=1)
    assert p._settled_cards(lone) == {"seat1.high": doubted}
    settle(("3h", "9c", "5s"), unread=2)
    assert p._settled_cards(lone) == {"seat1.high": doubted}
    # a card the hand did not hold, the cards out of their order, a card more or fewer, a back: forgotten
    for cards, unread in [
        (("3h", "Kc", "9d", "5s"), 1),
        (("Kc", "3h", "9c", "5s"), 1),
        (("3h", "Kc", "9c", "5s"), 2),
        (("3h", "Kc", "9c"), 1),
        ((BACK, "Kc", "9c", "5s"), 1),
    ]:
        settle(tuple(c for c, _ in whole))
        settle(cards, unread)
        assert p._settled_cards(lone) == {}, cards
        settle(("3h", "Kc", "9c", "5s"), unread=1)  # and stays forgotten
        assert p._settled_cards(lone) == {}, cards
    settle(("3h", "Kc"))  # settled all named again: that is the hand now
    assert p._settled_cards(lone) == {"seat1.high": whole[:2]}
    del p._settled_conf["seat1.high"]  # a zone settled on nothing read names nothing
    assert p._settled_cards(lone) == {}


def test_a_hidden_zone_counts_with_the_cards_it_last_showed() -> None:
    from vision.pipeline import _carry_known_face

    known = {c: 0.8 for c in _HAND}
    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["As", "Kd", "Qh", "Jc"])]
    # the low hand (9h 2c) under the dealer's arm: the unnamed face in the high hand is the Ts
    out = {"dealer.high": list(high), "dealer.low": []}
    named = _carry_known_face(out, [("dealer.high", 45.0)], known, hidden=["9h", "2c"])
    assert named == [("dealer.high", "Ts")]
    assert out["dealer.high"][-1] == (45.0, "Ts", 0.8)  # where it lies, with its first read's confidence
    # without them, two known cards are unaccounted for: the face stays unnamed
    out = {"dealer.high": list(high), "dealer.low": []}
    assert _carry_known_face(out, [("dealer.high", 45.0)], known) is None and out["dealer.high"] == high


def test_a_hand_the_iverify_display_showed_whole_names_its_one_face_not_read_on_the_felt() -> None:
    lay = make_layout()
    det = _WithUnread(set())
    p = TablePipeline(lay, det, CFG)
    t = SynthTable(lay, header="SEAT 1", iv_high=_HAND[:5], iv_low=_HAND[5:])
    assert _run(p, t, 10, 0)[-1].iverify.high == _HAND[:5]
    t.header, t.iv_high, t.iv_low = None, [], []
    _run(p, t, 8, 10)
    # the dealer turns seat 1's hand up, set as the display showed it; its Ts is found, not read
    t.cards = [(c, 185.0 + 65 * i, 620.0) for i, c in enumerate(_HAND[:5])]
    t.cards += [(c, 525.0 + 70 * i, 620.0) for i, c in enumerate(_HAND[5:])]
    det.unread = {"Ts"}
    s = _run(p, t, 12, 18)[-1]
    assert sorted(s.seat(1).high) == sorted(_HAND[:5]) and s.seat(1).low == ["9h", "2c"]
    assert s.unread_faces == {} and s.carried_faces == {"seat1.high": ["Ts"]}
    # named from the display's picture: one picture of that card, not two (PositionState.corroborated)
    assert s.carried_from_display == {"seat1.high": ["Ts"]}


def test_a_face_carried_from_a_hand_the_felt_read_whole_too_is_not_the_display_s_alone() -> None:
    """b89-0014: the display showed the dealer's hand, then his hand turned up was read whole on the
    felt (its 3s at 0.62); set, the 3s was found and not read, and carried from the hand seen whole. It
    had counted as named from the display's picture alone (the display had shown the hand first), so
    the felt's own earlier read did not corroborate the setting, and a HOUSE-WAY alert became a review
    item. A carried face is the display's alone only where the felt never read it itself."""
    lay = make_layout()
    det = _WithUnread(set())
    p = TablePipeline(lay, det, CFG)
    t = SynthTable(lay, header="DEALER", iv_high=_HAND[:5], iv_low=_HAND[5:])
    assert _run(p, t, 10, 0)[-1].iverify.high == _HAND[:5]
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]  # turned up, read whole
    assert _run(p, t, 10, 10)[-1].dealer.hand == _HAND
    t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(_HAND[:5])]
    t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(_HAND[5:])]
    det.unread = {"Ts"}
    s = _run(p, t, 12, 20)[-1]
    assert s.dealer.high == _HAND[:5] and s.carried_faces == {"dealer.high": ["Ts"]}
    assert s.carried_from_display == {}


def _turned_up(lay: Any, cards: list[str]) -> SynthTable:
    """Seat 1's hand turned up, set: the first five high, the rest low."""
    t = SynthTable(lay)
    t.cards = [(c, 185.0 + 65 * i, 620.0) for i, c in enumerate(cards[:5])]
    t.cards += [(c, 525.0 + 70 * i, 620.0) for i, c in enumerate(cards[5:])]
    return t


def test_the_one_card_a_whole_hand_lacks_is_named_by_its_weak_read() -> None:
    lay = make_layout()
    # a hand turned up that the camera never saw whole: six of seven cards read, the Ts only at 0.3
    det = _WithUnread({"Ts"}, weak=True, weak_read=0.3)
    s = _run(TablePipeline(lay, det, CFG), _turned_up(lay, _HAND), 12, 0)[-1]
    assert sorted(s.seat(1).high) == sorted(_HAND[:5]) and s.unread_faces == {}
    assert s.card_confidence["seat1.high"][s.seat(1).high.index("Ts")] == np.float32(0.3)  # its doubt kept
    assert s.carried_faces == {}  # read where it lies, not carried from an earlier hand
    assert s.counted_faces == {"seat1.high": ["Ts"]}  # named by the count, and said so
    # under the count's floor (0.25), or with the count not telling a card is missing: left unnamed
    det = _WithUnread({"Ts"}, weak=True, weak_read=0.2)
    s = _run(TablePipeline(lay, det, CFG), _turned_up(lay, _HAND), 12, 0)[-1]
    assert "Ts" not in s.seat(1).high and s.unread_faces == {"seat1.high": 1}
    det = _WithUnread({"Ts"}, weak=True, weak_read=0.3)
    s = _run(TablePipeline(lay, det, CFG), _turned_up(lay, _HAND[:6]), 12, 0)[-1]  # a card short
    assert "Ts" not in s.seat(1).high and s.unread_faces == {"seat1.high": 1}
    for off in ({"count_floor": 0.31}, {"name_by_count": False}):
        s = _run(TablePipeline(lay, det, CFG.model_copy(update=off)), _turned_up(lay, _HAND), 12, 0)[-1]
        assert "Ts" not in s.seat(1).high and s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}


class _WeakWhereFirstSeen(_WithUnread):
    """``_WithUnread`` (weak reads), but only in crops shaped as the first one a weak card was found
    in (one region's): elsewhere the same face is read surely."""

    shape: tuple[int, ...] | None = None

    def detect_with_unread(self, image: np.ndarray) -> tuple[Detections, np.ndarray]:
        if self.shape is None and any(lab in self.unread for lab in self.detect(image).labels):
            self.shape = image.shape
        if image.shape != self.shape:
            return self.detect(image), np.zeros((0, 4))
        return super().detect_with_unread(image)


def test_a_face_named_by_the_count_yields_to_the_same_face_read_at_another_position() -> None:
    lay = make_layout()
    # b48-0005: seat 1's 8d read Td weakly, named Td by the count; seat 5 then turned up its Td.
    # Here: seat 1's Ts named by the count from a 0.3 read, then the dealer's Ts is read at 0.9
    det = _WeakWhereFirstSeen({"Ts"}, weak=True, weak_read=0.3)
    p = TablePipeline(lay, det, CFG)
    t = _turned_up(lay, _HAND)
    s = _run(p, t, 12, 0)[-1]
    assert s.counted_faces == {"seat1.high": ["Ts"]} and "Ts" in s.seat(1).high
    t.cards = [*t.cards, ("Ts", 1000.0, 330.0)]
    states = _run(p, t, 16, 12)
    s = states[-1]
    assert s.dealer.low == ["Ts"] and s.card_confidence["dealer.low"] == [np.float32(0.9)]  # read there
    # withdrawn in the state that shows the dealer's: no state shows the two (FOREIGN-CARD would)
    assert not any("Ts" in x.seat(1).high and x.dealer.low == ["Ts"] for x in states)
    # seat 1's high hand read again: the count, the Ts now shown, names nothing; the face is counted
    # as seen and not named, as it was before the count
    assert "Ts" not in s.seat(1).high and s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}
    assert sorted(s.seat(1).high) == sorted(c for c in _HAND[:5] if c != "Ts")
    # the hand's other cards were never dropped on the way (only the doubted area was read again)
    assert all(sorted(x.seat(1).low) == sorted(_HAND[5:]) for x in states)
    # the same with the count off: nothing named, nothing to withdraw
    det = _WeakWhereFirstSeen({"Ts"}, weak=True, weak_read=0.3)
    p = TablePipeline(lay, det, CFG.model_copy(update={"name_by_count": False}))
    t = _turned_up(lay, _HAND)
    _run(p, t, 12, 0)
    t.cards = [*t.cards, ("Ts", 1000.0, 330.0)]
    s = _run(p, t, 16, 12)[-1]
    assert s.dealer.low == ["Ts"] and s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}


class _WithRivals(_WithUnread):
    """The colour detector, but each card named in ``rivals`` is found and its two cuts disagree: an
    unread index box, and its two faces (``OnnxCardDetector.detect_with_rivals``), the card's own at
    ``conf`` and its rival's at 0.35."""

    def __init__(self, rivals: dict[str, str], conf: float = 0.8) -> None:
        super().__init__(set(rivals))
        self.rivals, self.rival_conf = rivals, conf

    def detect_with_rivals(self, image: np.ndarray) -> tuple[Detections, np.ndarray, Detections]:
        found, unread = self.detect_with_unread(image)
        d = self.detect(image)
        on = [i for i, lab in enumerate(d.labels) if lab in self.rivals]
        xyxy = np.concatenate([d.xyxy[on], d.xyxy[on]])
        cls = [*d.class_id[on], *(CLASSES.index(self.rivals[d.labels[i]]) for i in on)]
        conf = [self.rival_conf] * len(on) + [0.35] * len(on)
        return found, unread, Detections(xyxy, cls, conf)


def test_a_contested_card_is_named_by_the_count_where_the_table_shows_its_rival() -> None:
    lay = make_layout()
    # b41-0000: a Th read 9h by the usual cut and Th by the narrow one, while another hand held the 9h.
    # Here the hand turned up holds the 9h itself: its Ts, read Ts or 9h, can only be the Ts
    s = _run(TablePipeline(lay, _WithRivals({"Ts": "9h"}), CFG), _turned_up(lay, _HAND), 12, 0)[-1]
    assert sorted(s.seat(1).high) == sorted(_HAND[:5]) and s.unread_faces == {}
    assert s.counted_faces == {"seat1.high": ["Ts"]} and s.carried_faces == {}
    assert s.counted_aside == {}  # the 9h it set aside is in the hand itself, not shown elsewhere
    # a deduction: no surer than the pipeline's floor, whatever its cut read (0.8)
    assert s.card_confidence["seat1.high"][s.seat(1).high.index("Ts")] == np.float32(CFG.min_confidence)
    # its rival shown by another position (the dealer's 5d, set before the hand is turned up): the same
    p = TablePipeline(lay, _WithRivals({"Ts": "5d"}), CFG)
    t = SynthTable(lay, cards=[("5d", 1000.0, 330.0)])
    _run(p, t, 8, 0)
    t.cards += _turned_up(lay, _HAND).cards
    s = _run(p, t, 12, 8)[-1]
    assert s.dealer.low == ["5d"] and s.counted_faces == {"seat1.high": ["Ts"]}
    # ... and the 5d set aside is said, at its read there: a second deck's 5d would read so (b53-0012)
    assert s.counted_aside == {"seat1.high": {"5d": np.float32(0.35)}}
    # neither face shown anywhere: which it is, the count cannot tell
    s = _run(TablePipeline(lay, _WithRivals({"Ts": "5d"}), CFG), _turned_up(lay, _HAND), 12, 0)[-1]
    assert "Ts" not in s.seat(1).high and s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}
    # a card short of the count, or the rule off: left unnamed
    s = _run(TablePipeline(lay, _WithRivals({"Ts": "9h"}), CFG), _turned_up(lay, _HAND[:6]), 12, 0)[-1]
    assert s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}
    off = CFG.model_copy(update={"name_by_count": False})
    s = _run(TablePipeline(lay, _WithRivals({"Ts": "9h"}), off), _turned_up(lay, _HAND), 12, 0)[-1]
    assert s.unread_faces == {"seat1.high": 1} and s.counted_faces == {}


def test_a_weak_read_the_hand_already_holds_or_two_weak_reads_disagreeing_name_nothing() -> None:
    from vision.pipeline import _name_by_count

    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["As", "Kd", "Qh", "Jc"])]
    box = np.array([100, 0, 115, 30], np.float32)
    weak = _dets(("Ts", 100, 0, 0.3))
    out = {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}
    assert _name_by_count(out, ("seat1.high", 45.0, box), weak, 7, 0.25) == "Ts"
    assert out["seat1.high"][-1] == (45.0, "Ts", np.float32(0.3))
    for bad in (
        _dets(("Kd", 100, 0, 0.3)),
        _dets(("Ts", 100, 0, 0.3), ("9s", 102, 2, 0.3)),
        _dets(("Ts", 300, 0, 0.3)),
    ):
        out = {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}
        assert _name_by_count(out, ("seat1.high", 45.0, box), bad, 7, 0.25) is None
        assert out["seat1.high"] == high
    # another position shows the Ts: a second copy read this weakly is left unnamed (FOREIGN-CARD's)
    out = {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}
    assert _name_by_count(out, ("seat1.high", 45.0, box), weak, 7, 0.25, elsewhere=["Ts"]) is None
    # a back among the hand's cards: not a hand turned up
    out = {"seat1.high": list(high), "seat1.low": [(60.0, BACK, 0.9), (70.0, "2c", 0.9)]}
    assert _name_by_count(out, ("seat1.high", 45.0, box), weak, 7, 0.25) is None


def test_a_contested_reads_face_is_named_by_the_count_only_where_its_rival_is_shown() -> None:
    from vision.pipeline import _name_by_count

    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["As", "Kd", "Qh", "Jc"])]
    box = np.array([100, 0, 115, 30], np.float32)
    lone, none = ("seat1.high", 45.0, box), Detections.empty()

    def hand() -> dict[str, list[tuple[float, str, float]]]:
        return {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}

    # read Kd by one cut and Ts by the other: the hand holds the Kd, so the Ts, whatever its read
    # (a rival needs no floor), never surer than the cap
    out = hand()
    rivals = _dets(("Kd", 100, 0, 0.8), ("Ts", 100, 0, 0.2))
    assert _name_by_count(out, lone, none, 7, 0.25, rivals=rivals, cap=0.4) == "Ts"
    assert out["seat1.high"][-1] == (45.0, "Ts", pytest.approx(0.2))
    out = hand()
    rivals = _dets(("Kd", 100, 0, 0.3), ("Ts", 100, 0, 0.8))
    assert _name_by_count(out, lone, none, 7, 0.25, rivals=rivals, cap=0.4) == "Ts"
    assert out["seat1.high"][-1] == (45.0, "Ts", 0.4)
    # its rival shown at another position: the same; shown nowhere, or both shown: nothing
    rivals = _dets(("8s", 100, 0, 0.8), ("Ts", 100, 0, 0.3))
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["8s"], rivals) == "Ts"
    for elsewhere in ([], ["8s", "Ts"]):
        out = hand()
        assert _name_by_count(out, lone, none, 7, 0.25, elsewhere, rivals) is None and out == hand()
    # a weak read on the box naming a third face leaves two faces open: nothing
    weak = _dets(("7c", 102, 1, 0.3))
    assert _name_by_count(hand(), lone, weak, 7, 0.25, ["8s"], rivals) is None


def test_a_detector_s_two_likeliest_faces_stand_in_for_its_rivals_and_need_the_floor() -> None:
    """Where the detector reports each index's two likeliest faces (``detect_with_guesses``), the
    count weighs those, each read at the floor or more, and not the two cuts' faces (a cut's face
    the final read makes unlikely only left the count undecided, seeds 78-85)."""
    from vision.pipeline import _name_by_count

    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["As", "Kd", "Qh", "Jc"])]
    box = np.array([100, 0, 115, 30], np.float32)
    lone, none = ("seat1.high", 45.0, box), Detections.empty()

    def hand() -> dict[str, list[tuple[float, str, float]]]:
        return {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}

    # b84-0000's kind: an 8s read Ts 0.33 / 8s 0.27 while another position shows the Ts: the 8s
    guesses = _dets(("Ts", 100, 0, 0.33), ("8s", 100, 0, 0.27))
    aside: dict[str, float] = {}
    out = hand()
    assert _name_by_count(out, lone, none, 7, 0.25, ["Ts"], cap=0.4, aside=aside, guesses=guesses) == "8s"
    assert out["seat1.high"][-1] == (45.0, "8s", pytest.approx(0.27)) and aside == {"Ts": pytest.approx(0.33)}
    # the likeliest face in the hand itself: the same, with nothing set aside
    out, aside = hand(), {}
    guesses = _dets(("Kd", 100, 0, 0.5), ("8s", 100, 0, 0.3))
    assert _name_by_count(out, lone, none, 7, 0.25, [], cap=0.4, aside=aside, guesses=guesses) == "8s"
    assert aside == {}
    # the second face under the floor: not a face left open; but where every face left open at the
    # floor is ruled out (the likeliest shown elsewhere), it is named when its read given that the
    # ruled-out face is not there reaches the floor: 0.2 / 0.67 (b88-0010's 6d, read 8d 0.58 and 6d
    # 0.22 beside the hand's own 8d), not 0.2 / 0.9
    guesses = _dets(("Ts", 100, 0, 0.33), ("8s", 100, 0, 0.2))
    out = hand()
    assert _name_by_count(out, lone, none, 7, 0.25, ["Ts"], cap=0.4, guesses=guesses) == "8s"
    assert out["seat1.high"][-1] == (45.0, "8s", pytest.approx(0.2))
    guesses = _dets(("Kd", 100, 0, 0.58), ("8s", 100, 0, 0.22))
    assert _name_by_count(hand(), lone, none, 7, 0.25, [], guesses=guesses) == "8s"
    guesses = _dets(("5d", 100, 0, 0.33), ("8s", 100, 0, 0.2))  # the 5d left open at the floor
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], guesses=guesses) == "5d"
    guesses = _dets(("Ts", 100, 0, 0.1), ("8s", 100, 0, 0.2))
    out = hand()
    assert _name_by_count(out, lone, none, 7, 0.25, ["Ts"], guesses=guesses) is None and out == hand()
    # ... nor is a face only a rival names, whatever its read: the guesses stand in for the rivals
    rivals = _dets(("Ts", 100, 0, 0.8), ("8s", 100, 0, 0.2))
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], rivals, guesses=guesses) is None
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], rivals) == "8s"  # (not reported: the rivals)
    # and a cut's face the final read makes unlikely (the 9s) no longer leaves the count undecided
    guesses = _dets(("Ts", 100, 0, 0.33), ("8s", 100, 0, 0.3))
    rivals = _dets(("8s", 100, 0, 0.8), ("9s", 100, 0, 0.1))
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], rivals, guesses=guesses) == "8s"
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], rivals) is None
    # two faces open: nothing; a guess on another card's box does not count
    guesses = _dets(("Ts", 100, 0, 0.33), ("8s", 100, 0, 0.3), ("7c", 102, 1, 0.3))
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], guesses=guesses) is None
    guesses = _dets(("Ts", 100, 0, 0.33), ("8s", 300, 0, 0.3))
    assert _name_by_count(hand(), lone, none, 7, 0.25, ["Ts"], guesses=guesses) is None


def test_a_face_the_count_cannot_name_read_as_a_face_of_its_own_hand_is_its_twin() -> None:
    """b86-0013 (seed 86, 720p): seat 5's second Js, read Js 0.28 / Jc 0.06 beside his own Js, stayed
    a face not named (the count names no second copy of a face the hand shows); the count says so
    (``twin``: ``TableState.unread_twins``), with the surest read, where no other position shows it."""
    from vision.pipeline import _name_by_count

    high = [(10.0 * i, c, 0.9) for i, c in enumerate(["Js", "Kd", "Qh", "Jc"])]
    box = np.array([100, 0, 115, 30], np.float32)
    lone, none = ("seat1.high", 45.0, box), Detections.empty()

    def hand() -> dict[str, list[tuple[float, str, float]]]:
        return {"seat1.high": list(high), "seat1.low": [(60.0, "9h", 0.9), (70.0, "2c", 0.9)]}

    twin: dict[str, float] = {}
    out = hand()
    guesses = _dets(("Js", 100, 0, 0.28), ("Jc", 100, 0, 0.06))
    assert _name_by_count(out, lone, none, 7, 0.25, ["Ad"], guesses=guesses, twin=twin) is None
    assert out == hand() and twin == {"Js": pytest.approx(0.28)}
    # a face its read given the ruled-out one names is named, no twin (b88-0010's 6d beside his 8d)
    twin = {}
    guesses = _dets(("Kd", 100, 0, 0.58), ("8s", 100, 0, 0.22))
    assert _name_by_count(hand(), lone, none, 7, 0.25, [], guesses=guesses, twin=twin) == "8s" and twin == {}
    # the surest read shown at another position too, or under the floor, or a face left open: no twin
    for elsewhere, reads in (
        (["Js"], (("Js", 100, 0, 0.28), ("Jc", 100, 0, 0.06))),
        ([], (("Js", 100, 0, 0.2), ("Jc", 100, 0, 0.06))),
        ([], (("Js", 100, 0, 0.28), ("5d", 100, 0, 0.27), ("4d", 100, 0, 0.26))),
    ):
        twin = {}
        _name_by_count(hand(), lone, none, 7, 0.25, elsewhere, guesses=_dets(*reads), twin=twin)
        assert twin == {}, (elsewhere, reads)


@pytest.mark.parametrize("field", ["carried_faces", "counted_faces"])
def test_a_face_named_without_its_read_must_be_among_its_zones_cards(field: str) -> None:
    with pytest.raises(ValueError, match=rf"{field}\['dealer.high'\] names \['Ts'\].*frame 7"):
        TableState.model_validate({"table_id": "T1", "frame": 7, "t": 0.28, field: {"dealer.high": ["Ts"]}})
    ok = TableState.model_validate(
        {"table_id": "T1", "frame": 7, "t": 0.28, "dealer": {"high": ["Ts"]}, field: {"dealer.high": ["Ts"]}}
    )
    assert TableState.model_validate_json(ok.model_dump_json()) == ok


class _ReadsBodies(_SureOf):
    """The colour detector, saying it reads card bodies: it records the card scale of every call."""

    reads_card_bodies = True

    def __init__(self) -> None:
        super().__init__({})
        self.scales: list[tuple[int, float | None]] = []

    def detect_with_unread(
        self, image: np.ndarray, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        self.scales.append((image.shape[1], card_px_per_mm))
        return self.detect(image), np.zeros((0, 4), np.float32)


def _felt_and_display_read_by(det: ColourDetector) -> list[Any]:
    """Seat 1's two cards on the felt and the dealer's hand on the i-Verify display, read by ``det``
    (both read right); the layout's regions, as the pipeline cuts them."""
    from vision.zones import build_regions

    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    t.header, t.iv_high, t.iv_low = "DEALER", ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    s = _run(TablePipeline(lay, det, CFG), t, 8, 0)[-1]
    assert s.seat(1).high == ["As", "Kd"] and s.iverify.high == ["As", "Kd", "Qh", "Jc", "Ts"]
    return build_regions(
        lay, margin_mm=CFG.crop_margin_mm, px_per_mm=CFG.px_per_mm, card_px_per_mm=CFG.card_px_per_mm
    )


def test_a_detector_that_reads_card_bodies_is_told_each_zone_s_card_scale() -> None:
    """The body look needs the size a card shows at: a card zone's own (its crop is cut at the card
    scale), and on the i-Verify panel that of the cards it draws (``iverify_slots.card_width_mm`` of a
    card's 63.5 mm, at the panel's scale as enlarged for the detector)."""
    from vision.pipeline import iverify_zoom

    det = _ReadsBodies()
    regions = {r.kind: r for r in _felt_and_display_read_by(det)}
    lay = make_layout()
    panel = regions["iverify"]
    zoom = iverify_zoom(panel.px_per_mm, CFG.card_px_per_mm)
    drawn = panel.px_per_mm * zoom * lay.iverify_slots.card_width_mm / 63.5
    scales = {round(sc, 4) for _, sc in det.scales}
    assert scales == {round(regions["cards"].px_per_mm, 4), round(drawn, 4)}
    assert regions["cards"].px_per_mm == pytest.approx(CFG.card_px_per_mm)


class _ReadsWholeCards(_SureOf):
    """The colour detector, saying it reads card bodies and whole cards: it records, per call, the
    image's width and whether it was told the cards lie whole."""

    reads_card_bodies = reads_whole_cards = True

    def __init__(self) -> None:
        super().__init__({})
        self.whole: list[tuple[int, bool]] = []

    def detect_with_guesses(
        self, image: np.ndarray, card_px_per_mm: float | None = None, whole_cards: bool = False
    ) -> tuple[Detections, np.ndarray, Detections, Detections]:
        self.whole.append((image.shape[1], whole_cards))
        return self.detect(image), np.zeros((0, 4), np.float32), Detections.empty(), Detections.empty()


def test_the_detector_is_told_the_i_verify_display_s_cards_lie_whole_and_the_felt_s_do_not() -> None:
    """The display draws its cards whole, side by side, so every pip face's suit there is weighed by
    its body (``OnnxCardDetector.detect_with_guesses``' ``whole_cards``); on the felt a spread covers
    most of each card, and only a doubtful index is."""
    det = _ReadsWholeCards()
    regions = _felt_and_display_read_by(det)
    assert {w for _, w in det.whole} == {True, False}
    card_widths = {r.size[0] for r in regions if r.kind == "cards"}
    assert {whole for width, whole in det.whole if width in card_widths} == {False}  # the felt's zones


class _WithPaperCards(SynthTable):
    """The synthetic table with white cards the colour detector does not see: ``paper`` (table x, y
    of the centre, and whether an index is printed in the top-left corner)."""

    paper: list[tuple[float, float, bool]]

    def frame(self, seed: int = 0) -> np.ndarray:
        import cv2
        from test_pipeline_synth import CARD_H, CARD_W, _to_img

        img = super().frame(seed)
        hmat = self.layout.homography()
        for x, y, index in self.paper:
            x0, y0 = x - CARD_W / 2, y - CARD_H / 2
            card = np.array([[x0, y0], [x0 + CARD_W, y0], [x0 + CARD_W, y0 + CARD_H], [x0, y0 + CARD_H]])
            cv2.fillPoly(img, [_to_img(hmat, card)], (250, 250, 250))
            if index:  # a rank over a suit, 20 mm high, in the top-left corner
                ink = np.array([[x0 + 2, y0 + 2], [x0 + 10, y0 + 2], [x0 + 10, y0 + 22], [x0 + 2, y0 + 22]])
                cv2.fillPoly(img, [_to_img(hmat, ink)], (20, 20, 20))
        return img


def test_a_card_showing_its_paper_and_no_index_is_read_as_the_joker_but_only_for_review() -> None:
    """dondorf's Joker prints no index (s07): the card is seen, its corner is blank, so it is the Joker,
    at a confidence under review_below (a finding resting on it is a review item, never an alert)."""
    from vision._blank_corner import JOKER_BY_PAPER

    lay = make_layout()
    t = _WithPaperCards(lay, cards=[("Kd", 760, 620)])
    t.paper = [(250, 620, False)]
    s = _run(TablePipeline(lay, _SureOf({}), CFG), t, 10, 0)[-1]
    assert s.seat(1).high == ["Jk"] and s.seat(2).high == ["Kd"]
    assert s.card_confidence["seat1.high"] == [np.float32(JOKER_BY_PAPER)]
    assert s.blank_corner_faces == {"seat1.high": ["Jk"]}  # said apart from the cards read by index
    assert JOKER_BY_PAPER < 0.7  # MonitorConfig.review_below
    # the same card with an index in its corner is a face the detector did not find: not a Joker
    t.paper = [(250, 620, True)]
    s = _run(TablePipeline(lay, _SureOf({}), CFG), t, 10, 0)[-1]
    assert s.seat(1).high == [] and s.seat(2).high == ["Kd"] and s.blank_corner_faces == {}
    # one deck of 53 holds one Joker (seed 002 rule 2.1): with a Jk read by its index in the same
    # region (b51-0003: the dealer's Joker, read at one end, blank at the other) or shown at another
    # position, blank paper is not another
    for where in ((330, 620), (1000, 330)):
        t = _WithPaperCards(lay, cards=[("Kd", 760, 620), ("Jk", *where)])
        t.paper = []
        p = TablePipeline(lay, _SureOf({}), CFG)
        states = _run(p, t, 6, 0)
        t.paper = [(250, 620, False)]  # put down after the Jk was read
        s = [*states, *_run(p, t, 10, 6)][-1]
        assert s.seat(1).high == ([] if where[0] == 1000 else ["Jk"]) and s.blank_corner_faces == {}
        assert [*s.seat(1).high, *s.dealer.low].count("Jk") == 1


def test_a_joker_named_by_its_paper_counts_as_a_whole_card_where_the_paper_lies() -> None:
    """The still arm test takes away the cards found from what reaches into a zone (``_card_mask``). A
    Joker named by its paper is boxed at its top-left corner, and an index-sized box is grown about its
    centre: half the card was left out and, changed from back to face, counted as arm. b91-0003 (seed
    91, 720p): seat 1's low Joker, turned up beside the dealer's hand resting on the high hand, 35 % of
    the zone so counted (over ``zone_occlusion_fraction``), unnamed for a second. The card is the one
    whose paper was found, lying right of and below its corner."""
    from vision.card_body import CARD_MM

    lay = make_layout()
    t = _WithPaperCards(lay, cards=[("Kd", 760, 620)])
    t.paper = [(250, 620, False)]
    p = TablePipeline(lay, _SureOf({}), CFG)
    seen: dict[str, tuple[np.ndarray, Any]] = {}
    read = p._read

    def keep(w: Any, *a: Any, **k: Any) -> Any:
        out = read(w, *a, **k)
        seen[w.region.name] = (p._last_boxes.copy(), w)
        return out

    p._read = keep  # type: ignore[method-assign]
    assert _run(p, t, 10, 0)[-1].seat(1).high == ["Jk"]
    (box,), w = seen["seat1"]
    card = np.array(CARD_MM) * w.region.px_per_mm
    assert box[2:] - box[:2] == pytest.approx(card, abs=0.5)  # a card, not its corner
    crop = w.region.rectify(t.frame(9), 1.0)
    paper = crop.min(axis=2) >= 240
    x0, y0, x1, y1 = np.round(box).astype(int)
    inside = np.count_nonzero(paper[y0:y1, x0:x1])
    assert inside >= 0.97 * np.count_nonzero(paper) and inside >= 0.9 * (x1 - x0) * (y1 - y0)


class _SlotPanel(SynthTable):
    """A seat's setting on the i-Verify display as the renderer lays it out: one row of whole white
    cards in the layout's slots (``IVerifySlots``, 1 px per mm: the panel is 420 x 300 mm) on the dark
    ground, each face with its palette colour as the index in its top-left corner (what
    ``ColourDetector`` reads). ``blank``: the face printed with no index (a grey picture in its middle
    only: dondorf's Joker); ``inked``: one whose index the detector cannot read (black ink)."""

    blank: str = ""
    inked: str = ""
    other: tuple[str, str] = ("", "")  # (card, face): that face's index also in the card's top-right corner
    pictured: tuple[
        int, ...
    ] = ()  # the slots whose card also shows a picture (another face's, read the same)

    def _iv_panel(self, w: int, h: int) -> np.ndarray:
        import cv2

        p = np.zeros((h, w, 3), np.uint8)
        p[:] = (70, 30, 10)
        if self.header is None:
            return p
        cv2.putText(p, self.header, (21, 66), cv2.FONT_HERSHEY_SIMPLEX, 2.7, (255, 255, 255), 2, cv2.LINE_AA)
        geo = self.layout.iverify_slots
        cw, ch, top = geo.card_width_mm, geo.card_width_mm * 88.9 / 63.5, 110
        for i, card in enumerate([*self.iv_high, *self.iv_low]):
            low = geo.low_break_mm if i >= len(self.iv_high) else 0
            x = round(geo.margin_mm + i * (cw + geo.gap_mm) + low)
            p[top : top + round(ch), x : x + round(cw)] = 250
            if card == self.blank:
                p[top + 25 : top + 55, x + 15 : x + 40] = 120  # the picture, away from the corners
            else:
                p[top + 3 : top + 20, x + 3 : x + 13] = (20, 20, 20) if card == self.inked else PALETTE[card]
            if i in self.pictured:
                p[top + 30 : top + 50, x + 20 : x + 35] = (40, 40, 200)
            if card == self.other[0]:
                p[top + 3 : top + 20, x + round(cw) - 13 : x + round(cw) - 3] = PALETTE[self.other[1]]
        return p


class _PairedReads(ColourDetector):
    """``ColourDetector`` that reads the card of face ``whole`` corner to corner, as the shipped detector
    reports a card whose two indices it paired: its box spans the card's paper."""

    def __init__(self, whole: str) -> None:
        super().__init__()
        self.whole = CLASSES.index(whole)

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        xyxy = d.xyxy.copy()
        for i in np.flatnonzero(d.class_id == self.whole):
            x0, y0, _, y1 = xyxy[i].astype(int)
            paper = image[y1 + 2, x0:].min(axis=1) >= 200  # the card's paper below the index, rightwards
            right = x0 + int(np.argmin(paper))
            below = image[y1 + 2 :, x0 + 2].min(axis=1) >= 200
            xyxy[i] = [x0 - 2, y0 - 2, right, y1 + 2 + int(np.argmin(below))]
        return Detections(xyxy, d.class_id, d.confidence)


def test_the_iverify_display_s_joker_printing_no_index_is_read_as_the_joker_but_only_for_review() -> None:
    """dondorf's Joker on the display (b42-0006): a slot shows a card and nothing was found on it, its
    corner is blank, so it is the Joker, read at JOKER_BY_PAPER and said apart; a face the detector did
    not read there is left unnamed."""
    from vision._blank_corner import JOKER_BY_PAPER

    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["Jk", "9h"]
    t = _SlotPanel(lay, header="SEAT 1", iv_high=high, iv_low=low)
    t.blank = "Jk"
    s = _run(TablePipeline(lay, ColourDetector(), CFG), t, 10, 0)[-1]
    assert s.iverify.mode == "seat" and s.iverify.high == high and s.iverify.low == low
    assert s.blank_corner_faces == {"iverify": ["Jk"]}
    assert s.read_confidence["iverify"] == pytest.approx(JOKER_BY_PAPER)
    # the same card with an index in its corner (one not read): not a Joker, the hand stays short
    t.blank, t.inked = "", "Jk"
    s = _run(TablePipeline(lay, ColourDetector(), CFG), t, 10, 0)[-1]
    assert s.iverify.high == high and s.iverify.low == ["9h"] and s.blank_corner_faces == {}
    # every card found: nothing is looked for
    t.inked = ""
    s = _run(TablePipeline(lay, ColourDetector(), CFG), t, 10, 0)[-1]
    assert s.iverify.low == low and s.blank_corner_faces == {}
    assert s.read_confidence["iverify"] == pytest.approx(0.9)


def test_the_display_s_one_face_not_read_is_named_from_the_hand_seen_whole_on_the_felt() -> None:
    """b41-0011: the dealer's hand turned up and read whole; the display then showed the dealer's house
    way with one card's index found and not read (dondorf's Js, at 720p). The display shows that hand,
    so the face is the one card of it not named: listed, said apart (``carried_faces``), at the felt
    read's confidence."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    det = _WithUnread(set())
    p = TablePipeline(lay, _SureOf({"Ts": 0.8}), CFG)  # the felt's read of the Ts
    t = _SlotPanel(lay, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)])
    _run(p, t, 10, 0)
    p.detector = det  # the display's Ts is found, not read
    det.unread = {"Ts"}
    t.header, t.iv_high, t.iv_low = "DEALER", high, low
    s = _run(p, t, 10, 10)[-1]
    assert s.iverify.mode == "dealer" and s.iverify.high == high and s.iverify.low == low
    assert s.carried_faces == {"iverify": ["Ts"]}
    assert s.read_confidence["iverify"] == pytest.approx(
        0.8
    )  # its faces' lowest: the Ts, as read on the felt
    assert TableState.model_validate_json(s.model_dump_json()) == s
    # the hand never seen whole before: nothing to name it from, the display's high hand is short
    p = TablePipeline(lay, det, CFG)
    t.cards = []
    s = _run(p, t, 10, 0)[-1]
    assert s.iverify.high == ["As", "Kd", "Qh", "Jc"] and s.carried_faces == {}
    # two faces not read: which is which cannot be told
    p = TablePipeline(lay, _SureOf({}), CFG)
    t = _SlotPanel(lay, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)])
    _run(p, t, 10, 0)
    p.detector = _WithUnread({"Ts", "Kd"})
    t.header, t.iv_high, t.iv_low = "DEALER", high, low
    s = _run(p, t, 10, 10)[-1]
    assert s.iverify.high == ["As", "Qh", "Jc"] and s.carried_faces == {}


class _UnreadAndMisread(_WithUnread):
    """``_WithUnread``, and the face ``card`` read as ``as_`` at ``conf``."""

    def __init__(self, unread: set[str], card: str, as_: str, conf: float) -> None:
        super().__init__(unread)
        self.card, self.as_ = CLASSES.index(card), CLASSES.index(as_)
        self.conf = {as_: conf}

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        d = Detections(d.xyxy, np.where(d.class_id == self.card, self.as_, d.class_id), d.confidence)
        return Detections(d.xyxy, d.class_id, np.array([self.conf.get(lab, 0.9) for lab in d.labels]))


def test_the_display_s_face_not_read_beside_a_misread_are_named_from_the_hand_seen_whole_on_the_felt() -> (
    None
):
    """b67-0009 (seed 67, 720p): the dealer's hand read whole on the felt; the display showed his house
    way with his Kc read Kd (0.63) and his 2c not named, for 3 moments. The misread is matched among
    the cards not shown (sharing rank or suit, read surer on the felt, the only match), then the one
    card left is the face not named: both said apart (``carried_faces``), or neither."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for misread, conf, named in (("Kh", 0.6, True), ("Kh", 0.75, False), ("5h", 0.6, False)):
        p = TablePipeline(lay, _SureOf({"Kd": 0.8}), CFG)  # the felt's read of the Kd
        t = _SlotPanel(lay, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)])
        _run(p, t, 10, 0)
        p.detector = _UnreadAndMisread({"Ts"}, "Kd", misread, conf)  # the display's Ts not read
        t.header, t.iv_high, t.iv_low = "DEALER", high, low
        s = _run(p, t, 10, 10)[-1]
        assert s.iverify.mode == "dealer" and s.iverify.low == low
        if named:
            assert s.iverify.high == high
            assert sorted(s.carried_faces["iverify"]) == ["Kd", "Ts"]
            assert s.read_confidence["iverify"] == pytest.approx(conf)  # no surer than the display's read
        else:  # read surely on the display, or sharing neither rank nor suit: left as read
            assert s.iverify.high == ["As", misread, "Qh", "Jc"] and s.carried_faces == {}
    # the hand never seen whole: nothing to match against
    p = TablePipeline(lay, _UnreadAndMisread({"Ts"}, "Kd", "Kh", 0.6), CFG)
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    assert _run(p, t, 10, 0)[-1].iverify.high == ["As", "Kh", "Qh", "Jc"]


def test_the_display_is_read_again_when_the_hand_it_shows_is_then_turned_up_on_the_felt() -> None:
    """b47-0006: the display showed the dealer's house way, one card's index found and not read, before
    the dealer turned his hand up; it stayed short for the 2 s his hand then lay face up on the felt,
    read whole, beside it (the display's picture had not changed, so it was not read again). Now it
    is read again once the felt shows the hand, and the face is named from it, said apart."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    p = TablePipeline(lay, _WeakWhereFirstSeen({"Ts"}), CFG)  # the display's Ts found, not read
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    s = _run(p, t, 10, 0)[-1]
    assert s.iverify.mode == "dealer" and s.iverify.high == high[:4] and s.carried_faces == {}
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]  # turned up, read surely
    states = _run(p, t, 14, 10)
    s = states[-1]
    assert s.dealer.hand == _HAND
    assert s.iverify.high == high and s.iverify.low == low
    assert s.carried_faces == {"iverify": ["Ts"]}
    # nothing at all found on the display's Ts (its index in ink the detector does not read: as
    # b47-0006's Jk printing no index): its slot, the one nothing reaches into, is where it lies
    p = TablePipeline(lay, _SureOf({}), CFG)
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    t.inked = "Ts"
    assert _run(p, t, 10, 0)[-1].iverify.high == high[:4]
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]
    s = _run(p, t, 14, 10)[-1]
    assert s.iverify.high == high and s.iverify.low == low and s.carried_faces == {"iverify": ["Ts"]}
    # a hand the felt shows that is not the display's: nothing named from it
    p = TablePipeline(lay, _WeakWhereFirstSeen({"Ts"}), CFG)
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    _run(p, t, 10, 0)
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(["5d", *_HAND[1:]])]
    s = _run(p, t, 14, 10)[-1]
    assert s.iverify.high == high[:4] and s.carried_faces == {}


def test_the_display_s_contested_face_is_named_by_the_count_where_the_felt_shows_its_rival() -> None:
    """The display shows seat 1's setting before any of its cards were seen face up; its Ts is read
    Ts by one cut and 5d by the other. With the dealer's 5d face up on the felt, it is the Ts, said
    apart (``counted_faces``) and no surer than the floor; with the 5d nowhere, it stays unnamed."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for dealt, named in ((True, True), (False, False)):
        p = TablePipeline(lay, _WithRivals({"Ts": "5d"}), CFG)
        t = _SlotPanel(lay, cards=[("5d", 1000.0, 330.0)] if dealt else [])
        _run(p, t, 8, 0)
        t.header, t.iv_high, t.iv_low = "SEAT 1", high, low
        s = _run(p, t, 10, 8)[-1]
        assert s.iverify.mode == "seat" and s.iverify.low == low and s.carried_faces == {}
        if named:
            assert s.iverify.high == high and s.counted_faces == {"iverify": ["Ts"]}
            assert s.read_confidence["iverify"] == pytest.approx(CFG.min_confidence)
        else:
            assert s.iverify.high == high[:4] and s.counted_faces == {}
    # the rule off
    p = TablePipeline(lay, _WithRivals({"Ts": "5d"}), CFG.model_copy(update={"name_by_count": False}))
    t = _SlotPanel(lay, cards=[("5d", 1000.0, 330.0)])
    _run(p, t, 8, 0)
    t.header, t.iv_high, t.iv_low = "SEAT 1", high, low
    s = _run(p, t, 10, 8)[-1]
    assert s.iverify.high == high[:4] and s.counted_faces == {}


class _RivalsWhereFirstSeen(_WithRivals):
    """``_WithRivals``, but only in crops shaped as the first one a contested card was found in (one
    region's): elsewhere the same face is read surely."""

    shape: tuple[int, ...] | None = None

    def detect_with_rivals(self, image: np.ndarray) -> tuple[Detections, np.ndarray, Detections]:
        if self.shape is None and any(lab in self.rivals for lab in self.detect(image).labels):
            self.shape = image.shape
        if image.shape != self.shape:
            return self.detect(image), np.zeros((0, 4)), Detections.empty()
        return super().detect_with_rivals(image)


def test_the_display_s_face_named_by_the_count_yields_to_the_same_face_read_on_the_felt() -> None:
    """The display's Ts named by the count (its rival 5d on the felt), then the dealer turns up a Ts
    of his own, read surely: the display is read again and the Ts left unnamed there."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    p = TablePipeline(lay, _RivalsWhereFirstSeen({"Ts": "5d"}), CFG)
    t = _SlotPanel(lay, cards=[("5d", 1000.0, 330.0)])
    _run(p, t, 8, 0)
    t.header, t.iv_high, t.iv_low = "SEAT 1", high, low
    s = _run(p, t, 10, 8)[-1]
    assert s.iverify.high == high and s.counted_faces == {"iverify": ["Ts"]}
    t.cards = [*t.cards, ("Ts", 640.0, 335.0)]
    states = _run(p, t, 12, 18)
    s = states[-1]
    assert s.dealer.high == ["Ts"] and s.card_confidence["dealer.high"] == [np.float32(0.9)]
    assert not any("Ts" in x.iverify.high and x.dealer.high == ["Ts"] for x in states)
    assert s.iverify.high == high[:4] and s.iverify.low == low and s.counted_faces == {}


def test_a_card_read_again_at_another_corner_does_not_stop_the_display_s_joker_search() -> None:
    """b45-0001: dondorf prints an index in every corner. On the display its Ts and 5s were read whole
    and again, at another corner, as Tc and 5c: seven faces named for a six-card hand, so the Joker
    (no index) was not looked for. The faces are counted one a slot, as the display shows them."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["Jk", "9h"]
    t = _SlotPanel(lay, header="SEAT 1", iv_high=high, iv_low=low)
    t.blank, t.other = "Jk", ("As", "2c")
    det = _PairedReads("As")
    raw = det.detect(t._iv_panel(420, 300)[110:])
    assert sorted(CLASSES[c] for c in raw.class_id) == sorted(["2c", *high, "9h"])  # seven faces named
    s = _run(TablePipeline(lay, det, CFG), t, 10, 0)[-1]
    assert s.iverify.high == high and s.iverify.low == low
    assert s.blank_corner_faces == {"iverify": ["Jk"]}


def test_the_blank_corner_search_is_not_run_again_on_a_still_crop_with_the_same_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A region is often read again with nothing changed (an arm passed over): the search for a card
    printing no index gives what it gave, while the crop holds still and the detector finds the same."""
    import vision.pipeline as vp

    calls: list[int] = []
    search = vp.blank_corner_cards

    def counted(*args: object, **kwargs: object) -> np.ndarray:
        calls.append(1)
        return search(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(vp, "blank_corner_cards", counted)
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    w = next(w for w in p._watch if w.region.kind == "cards" and w.region.name == "seat1")
    frame = t.frame(0)
    first = p._read(w, frame, 0.0)
    assert p._read(w, frame.copy(), 0.1) == first and len(calls) == 1
    t.cards.append(("Qh", 420, 620))  # a card dealt: other finds, read again
    p._read(w, t.frame(1), 0.2)
    assert len(calls) == 2


def test_a_back_cut_by_the_crops_edge_is_placed_at_least_half_a_card_in_from_its_inner_edge() -> None:
    """A back is boxed whole unless the crop's edge cuts it; then its card's centre is at least half
    the card's short side (50.8 px at 1.6 px/mm) from the box's inner edge, and a centre that comes
    to lie outside the crop is a card mostly beyond the region (b44-0000: the dealer's sleeve at the
    crop's corner, boxed as a 50 x 178 px back, was an eighth card in the dealer's area)."""
    from vision.pipeline import _outside

    crop = np.zeros((400, 300, 3), np.uint8)

    def backs(*boxes: tuple[float, float, float, float]) -> Detections:
        n = len(boxes)
        return Detections(np.array(boxes, np.float32), np.full(n, CLASSES.index("BACK")), np.full(n, 0.9))

    d = backs(
        (100, 100, 202, 242),  # whole: its box's centre
        (250, 0, 300, 178),  # cut by the right and top edges, 50 px seen: mostly beyond the crop
        (220, 200, 300, 342),  # cut by the right edge, 80 px seen: mostly in the crop
        (150, 50, 300, 192),  # a spread of backs cut by the right edge, 150 px seen
        (0, 250, 30, 392),  # cut by the left edge, 30 px seen
        (120, 370, 222, 400),  # cut by the bottom edge, 30 px seen
    )
    c = card_centres(crop, d, PX_PER_MM)
    half = 63.5 * PX_PER_MM / 2  # the card is 63.5 mm across
    assert c[0].tolist() == [151, 171]
    assert c[1].tolist() == pytest.approx([250 + half, 89])  # the top edge: the box's centre is further in
    assert c[2].tolist() == pytest.approx([220 + half, 271])
    assert c[3].tolist() == pytest.approx([225, 121])  # the box's own centre is further out already
    assert c[4].tolist() == pytest.approx([30 - half, 321])
    assert c[5].tolist() == pytest.approx([171, 370 + half])
    assert _outside(c, crop) == [False, True, False, False, True, True]


class _MisreadFirst(_SureOf):
    """The colour detector, but the first ``n`` crops showing ``card`` and shaped as the first one that
    did (one region's) read it as ``as_`` (at ``conf``): the first frames after a change, coded coarser
    than the ones after. ``looks``: how many such crops it was given."""

    def __init__(self, card: str, as_: str, n: int, conf: float = 0.9) -> None:
        super().__init__({as_: conf})
        self.card, self.as_, self.n = CLASSES.index(card), CLASSES.index(as_), n
        self.shape: tuple[int, ...] | None = None
        self.looks = 0

    def detect(self, image: np.ndarray) -> Detections:
        d = ColourDetector.detect(self, image)
        if self.shape is None and self.card in d.class_id:
            self.shape = image.shape
        if image.shape == self.shape and self.card in d.class_id:
            self.looks += 1
            if self.looks <= self.n:
                d = Detections(d.xyxy, np.where(d.class_id == self.card, self.as_, d.class_id), d.confidence)
        return Detections(
            d.xyxy, d.class_id, np.array([self.conf.get(lab, 0.9) for lab in d.labels], np.float32)
        )


def test_the_display_is_read_once_more_after_it_has_shown_a_hand_for_a_second() -> None:
    """b45-0014: the dealer's 3d on the display read 3h at 0.61 as the display changed, and 3d at 0.77
    two seconds on; the display was not read again (its picture did not change), so the 3h stood. A
    hand the display shows is read once more after ``iverify_second_look_s``, and before that after
    ``iverify_early_look_s`` (half a second: the card named sooner); no more. Its reading is taken only
    if surer (``TablePipeline._surer``), as a card zone's second look: b53-0009's dealer 3h, right, read
    3d on the second look."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for look, early, named, at, looks in (
        (1.0, 0.5, "Ts", 0.96, 6),
        (1.0, 0.0, "Ts", 1.44, 5),
        (0.0, 0.0, "5d", None, 2),
    ):
        det = _MisreadFirst("Ts", "5d", 2, conf=0.61)
        cfg = CFG.model_copy(update={"iverify_second_look_s": look, "iverify_early_look_s": early})
        p = TablePipeline(lay, det, cfg)
        t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
        states = _run(p, t, 40, 0)
        assert states[0].iverify.high == [*high[:4], "5d"]
        assert states[-1].iverify.high == [*high[:4], named] and states[-1].iverify.low == low
        first = next((s.t for s in states if s.iverify.high[-1:] == ["Ts"]), None)
        assert first == pytest.approx(at) if at else first is None
        # read twice as it settled, then at each look until the new reading settled, and the looks
        # again after that: no more while the display holds the same hand
        assert det.looks == looks
    # right at first (the Ts at 0.9), the second look reads it 5d at 0.77: the reading stands
    for rule in (True, False):
        det = _MisreadFirst("Ts", "5d", 0)
        p = TablePipeline(lay, det, CFG.model_copy(update={"iverify_second_look_s": 1.0}))
        if not rule:
            p._surer = lambda key, v: True  # type: ignore[method-assign]
        t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
        states = _run(p, t, 12, 0)
        assert states[-1].iverify.high == high
        det.n, det.conf["5d"] = 99, 0.77
        states += _run(p, t, 28, 12)
        assert states[-1].iverify.high == (high if rule else [*high[:4], "5d"])


def test_a_display_read_blank_is_looked_at_once_more_a_second_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """b53-0014: the display read blank 0.16 s after it began to show seat 5's hand (a frame caught
    mid-change) and stayed so for 3.6 s: its picture did not change again. A blank reading gets the
    display's second look too."""
    import vision.pipeline as pipeline_module
    from vision.displays import Header

    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    real = pipeline_module.read_header
    for look in (1.0, 0.0):
        calls = {"n": 0}

        def first_blank(panel: np.ndarray, min_score: float = 0.5, calls: dict[str, int] = calls) -> Header:
            calls["n"] += 1
            return Header("blank", None, 1.0) if calls["n"] <= 2 else real(panel, min_score)

        monkeypatch.setattr(pipeline_module, "read_header", first_blank)
        p = TablePipeline(lay, _SureOf({}), CFG.model_copy(update={"iverify_second_look_s": look}))
        states = _run(p, _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low), 40, 0)
        assert states[0].iverify.mode == "blank"
        if look:
            assert states[-1].iverify.mode == "dealer" and states[-1].iverify.high == high
            assert states[-1].iverify.low == low
        else:
            assert states[-1].iverify.mode == "blank"


def test_a_card_zone_holding_a_doubtful_read_is_read_once_more_a_second_later() -> None:
    """b47-0007: the dealer's 4s read 4d at 0.38 as he set his hand, and 4s at 0.66 once he next
    touched it; nothing had changed the picture between. A zone holding a read under
    ``second_look_below`` (0.5) is read once more after ``second_look_s``, and before that after
    ``early_look_s`` (half a second: the card named sooner); one read surer is not. A picture looked at
    early is not always the finer one yet: the later look is kept (b62-0011's dealer Ks, looked at after
    0.5 s alone, was not named for 5 moments; seed 62, 720p)."""
    lay = make_layout()
    for conf, look, early, misreads, named, at in (
        (0.45, 1.0, 0.5, 2, "Ts", 0.96),  # the early look reads it
        (0.45, 1.0, 0.0, 2, "Ts", 1.44),  # the look a second on
        (0.45, 0.0, 0.0, 2, "5d", None),
        (0.6, 1.0, 0.5, 2, "5d", None),  # read surely enough: no look
        (0.45, 1.0, 0.5, 3, "Ts", 1.44),  # misread at the early look too: the later one reads it
        (0.45, 1.0, 0.0, 3, "5d", None),  # either look alone: misread
        (0.45, 0.0, 0.5, 3, "5d", None),
    ):
        det = _MisreadFirst("Ts", "5d", misreads, conf=conf)
        p = TablePipeline(lay, det, CFG.model_copy(update={"second_look_s": look, "early_look_s": early}))
        states = _run(p, _turned_up(lay, _HAND), 40, 0)
        assert states[0].seat(1).high == [*_HAND[:4], "5d"]
        assert states[-1].seat(1).high == [*_HAND[:4], named] and states[-1].seat(1).low == _HAND[5:]
        first = next((s.t for s in states if s.seat(1).high[-1] == "Ts"), None)
        assert first == pytest.approx(at) if at else first is None
        if misreads == 2:
            assert det.looks == (4 if named == "Ts" else 2)  # again until the new read settled; no more
    # a second look that reads the same picture less surely (the Ts read 5d at 0.45, then Jk at 0.42):
    # the reading stands, and so does the hand seen whole (a face not read later is named from it). The
    # look a second on alone (the early one would read the Ts before the picture turns to a Jk here)
    for rule in (True, False):
        det = _MisreadFirst("Ts", "5d", 2, conf=0.45)
        p = TablePipeline(lay, det, CFG.model_copy(update={"early_look_s": 0.0}))
        if not rule:
            p._surer = lambda key, v: True  # type: ignore[method-assign]
        states = _run(p, _turned_up(lay, _HAND), 12, 0)
        det.n, det.as_, det.conf["Jk"] = 99, CLASSES.index("Jk"), 0.42
        states += _run(p, _turned_up(lay, _HAND), 28, 12)
        assert states[-1].seat(1).high == [*_HAND[:4], "5d" if rule else "Jk"]
        assert det.looks == (3 if rule else 5)  # without it: the Jk confirmed, and looked at again
        assert sorted(p._seen("seat1").hand or {}) == sorted([*_HAND[:4], "5d" if rule else "Jk", *_HAND[5:]])


def test_a_display_face_the_hand_on_the_felt_lacks_yields_to_the_card_it_shows() -> None:
    """b47-0004: the dealer's 3d read 3h (0.70) on the display, beside his hand turned up and read 3d
    (0.71) on the felt. The display shows that hand: a face it lacks, read under 0.7, sharing its rank
    or suit with the one card of the hand not shown, read surer on the felt, is that card, said apart
    (``carried_faces``), no surer than the display's read. Read at 0.7 or more, it stands."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for conf, named in ((0.6, "Ts"), (0.75, "Th")):
        det = _MisreadFirst("Ts", "Th", 99, conf=conf)  # the display's Ts, always read Th
        p = TablePipeline(lay, det, CFG)
        t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
        assert _run(p, t, 10, 0)[-1].iverify.high == [*high[:4], "Th"]
        t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]  # read surely on the felt
        s = _run(p, t, 14, 10)[-1]
        assert s.dealer.hand == _HAND and s.iverify.high == [*high[:4], named] and s.iverify.low == low
        if named == "Ts":
            assert s.carried_faces == {"iverify": ["Ts"]}
            assert s.read_confidence["iverify"] == pytest.approx(conf)
        else:
            assert s.carried_faces == {}
    # a face sharing neither rank nor suit with the card not shown (5d for the Ts): it stands
    det = _MisreadFirst("Ts", "5d", 99, conf=0.6)
    p = TablePipeline(lay, det, CFG)
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    _run(p, t, 10, 0)
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]
    s = _run(p, t, 14, 10)[-1]
    assert s.iverify.high == [*high[:4], "5d"] and s.carried_faces == {}


def test_a_felt_face_the_hand_on_the_display_lacks_yields_to_the_card_it_shows() -> None:
    """b51-0005: the dealer's 8d read Td (under 0.7) on the felt for 6 s, the display having shown his
    hand, 8d read surer, a moment before. The felt's whole hand but for a face the display's hand
    lacks, sharing rank or suit with the one card of it not read here, read surer on the display: that
    card, said apart (b48-0000: the display's 6d at 0.71 against the felt's Td at 0.67, right)."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for conf, shown, named in ((0.6, 0.9, "Ts"), (0.75, 0.9, "Th"), (0.6, 0.65, "Ts")):
        det = _MisreadFirst("Ts", "Th", 99, conf=conf)
        det.conf["Ts"] = shown  # the display's read of the Ts
        p = TablePipeline(lay, det, CFG)
        dealer = next(r for r in p.regions if r.name == "dealer")
        det.shape = (dealer.size[1], dealer.size[0], 3)  # the felt's Ts read Th; the display's, surely
        t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
        assert _run(p, t, 10, 0)[-1].iverify.high == high
        t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]
        s = _run(p, t, 14, 10)[-1]
        assert s.iverify.high == high and s.dealer.hand == [*_HAND[:4], named, *_HAND[5:]]
        if named == "Ts":
            assert s.carried_faces == {"dealer.hand": ["Ts"]}
            assert s.card_confidence["dealer.hand"][4] == pytest.approx(conf)
        else:
            assert s.carried_faces == {}


class _MisreadWhile(_SureOf):
    """The colour detector, but while ``on``, crops shaped ``shape`` (one region's) read ``card`` as
    ``as_`` at ``conf``."""

    def __init__(self, card: str, as_: str, conf: float, sure: dict[str, float] | None = None) -> None:
        super().__init__(sure or {})  # every other read at its ``sure`` confidence, else 0.9
        self.card, self.as_, self.misread_conf = CLASSES.index(card), CLASSES.index(as_), conf
        self.shape: tuple[int, ...] | None = None
        self.on = False

    def detect(self, image: np.ndarray) -> Detections:
        d = ColourDetector.detect(self, image)
        if not (self.on and image.shape == self.shape):
            return Detections(
                d.xyxy, d.class_id, np.array([self.conf.get(lab, 0.9) for lab in d.labels], np.float32)
            )
        wrong = d.class_id == self.card
        return Detections(
            d.xyxy,
            np.where(wrong, self.as_, d.class_id),
            np.where(wrong, self.misread_conf, 0.9).astype(np.float32),
        )


def test_a_set_hand_s_doubtful_face_yields_to_the_card_both_views_read_in_the_hand_seen_whole() -> None:
    """b82-0014: the dealer's 2d, read 2d on the i-Verify display and in his hand turned up on the
    felt, was read 2h (0.50) in his high hand once set. A set hand read whole but for one face under
    0.7 that the hand seen whole lacks, sharing rank or suit with the card of it not read, which both
    views (the felt and the display) read themselves and surer: that card, said apart (carried, from
    the display's picture). The felt's own earlier read alone does not (b88-0009: it was as often the
    wrong one), nor does a read of 0.7 or more."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for display, conf, sure, named in (
        (True, 0.6, 0.9, "Ts"),
        (False, 0.6, 0.9, "Th"),
        (True, 0.75, 0.9, "Th"),
        # both views' reads less sure than the set hand's misread (b84-0001: As 0.62 on the felt and
        # the display, Ac 0.68 once set): two views read it so
        (True, 0.65, 0.6, "Ts"),
        (False, 0.65, 0.6, "Th"),
    ):
        det = _MisreadWhile("Ts", "Th", conf, {"Ts": sure})
        p = TablePipeline(lay, det, CFG)
        det.shape = next((r.size[1], r.size[0], 3) for r in p.regions if r.name == "dealer")
        t = _SlotPanel(lay, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)])
        assert _run(p, t, 10, 0)[-1].dealer.hand == _HAND  # turned up, read surely; then the display
        if display:
            t.header, t.iv_high, t.iv_low = "DEALER", high, low
            assert _run(p, t, 10, 10)[-1].iverify.high == high
        det.on = True  # set: the Ts read Th
        t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(_HAND[:5])]
        t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(_HAND[5:])]
        s = _run(p, t, 12, 20)[-1]
        assert s.dealer.hand == [] and s.dealer.low == low
        assert s.dealer.high == [*_HAND[:4], named], (display, conf)
        if named == "Ts":
            assert s.carried_faces == {"dealer.high": ["Ts"]}
            assert s.carried_from_display == {"dealer.high": ["Ts"]}  # not corroborated by this view
            assert s.card_confidence["dealer.high"][4] == pytest.approx(min(conf, sure))
        else:
            assert s.carried_faces == {}


def test_a_face_the_count_renamed_and_the_hand_seen_whole_named_back_is_not_the_count_s() -> None:
    """b78-0004: the dealer's 6c (0.64), renamed 6s by the count beside an injected 6c at seat 5 read
    surer, is named 6c again from his hand seen whole by both views (``_felt_misreads``): the zone
    shows the hand's card, carried, and the count's name and the face it set aside are dropped (a
    state listing a counted face its zone does not hold would mislead every check resting on it)."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    det = _MisreadWhile("Ts", "Ts", 0.6)  # the dealer's Ts read 0.6 on the felt, surely elsewhere
    p = TablePipeline(lay, det, CFG)
    det.shape = next((r.size[1], r.size[0], 3) for r in p.regions if r.name == "dealer")
    det.on = True
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    _run(p, t, 10, 0)
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]  # turned up, read whole
    assert _run(p, t, 10, 10)[-1].dealer.hand == _HAND
    copy = [("Ts", 250.0, 620.0)]  # a second Ts turned up at seat 1, read 0.9
    t.cards = [*t.cards, *copy]
    assert _run(p, t, 10, 20)[-1].seat(1).high == ["Ts"]
    t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(_HAND[:5])]
    t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(_HAND[5:])] + copy
    s = _run(p, t, 12, 30)[-1]
    assert s.dealer.high == _HAND[:5] and s.seat(1).high == ["Ts"]
    assert s.carried_faces == {"dealer.high": ["Ts"]}
    assert "dealer.high" not in s.counted_faces and "dealer.high" not in s.counted_aside
    assert TableState.model_validate_json(s.model_dump_json()) == s


def test_the_hand_the_display_shows_is_kept_while_the_position_s_area_lies_empty() -> None:
    """b82-0014: the display showed the dealer's hand (2d read 2d) while his cards, face down, were
    picked up to be turned over, and his area read empty: that had forgotten the hand seen whole (a new
    hand next), and his high hand's 2d, read 2h (0.50) once set, stood. An area read empty forgets its
    hand only where the display does not show that position's hand now."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    for header, named in (("DEALER", "Ts"), ("SEAT 1", "Th")):
        det = _MisreadWhile("Ts", "Th", 0.6)
        p = TablePipeline(lay, det, CFG)
        det.shape = next((r.size[1], r.size[0], 3) for r in p.regions if r.name == "dealer")
        t = _SlotPanel(lay, cards=[("BACK", 685.0 + 70 * i, 205.0) for i in range(7)])
        assert _run(p, t, 10, 0)[-1].dealer.hand == [BACK] * 7  # (one back per card: the synthetic deck)
        t.header, t.iv_high, t.iv_low = header, high, low
        _run(p, t, 10, 10)
        t.cards = []  # picked up
        assert _run(p, t, 10, 20)[-1].dealer.hand == []
        det.on = True  # turned up and set at once: the Ts read Th
        t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(_HAND[:5])]
        t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(_HAND[5:])]
        s = _run(p, t, 12, 30)[-1]
        assert s.dealer.high == [*_HAND[:4], named] and s.dealer.low == low, header


def test_the_weaker_of_two_reads_of_one_face_in_a_set_hand_is_the_card_it_lacks() -> None:
    """b78-0006: the dealer's hand turned up read As and Ac; set, his low As read Ac at 0.70 beside his
    high Ac at 0.81. One deck holds each face once and the hand's cards are the ones seen whole: the
    weaker read, however sure, is the card of that hand missing now that shares its rank or suit,
    named by the count (no surer than the floor) with the face set aside for FOREIGN-CARD. Without a
    hand seen whole, or with two such cards missing, the two reads stand."""
    from vision.pipeline import _missing_twin

    known = dict.fromkeys(["Ac", "Jc", "9c", "8c", "4c", "As", "6s"], 0.8)
    hand = {"Ac", "Jc", "9c", "8c", "4c", "6s"}
    assert _missing_twin("Ac", known, hand, hand) == "As"
    assert _missing_twin("Ac", None, {"Ac"}, {"Ac"}) is None
    assert _missing_twin("Ac", known, hand - {"4c"}, hand - {"4c"}) is None  # 4c and As both missing
    assert _missing_twin("Kd", known, {*hand, "Kd"}, {*hand, "Kd"}) is None  # not the hand seen whole

    lay = make_layout()
    for seen_whole, named in ((True, "Ts"), (False, "As")):
        det = _MisreadWhile("Ts", "As", 0.75)  # (the Ts shares its suit with the As)
        p = TablePipeline(lay, det, CFG)
        det.shape = next((r.size[1], r.size[0], 3) for r in p.regions if r.name == "dealer")
        det.on = not seen_whole
        t = SynthTable(lay, cards=[(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)])
        _run(p, t, 10, 0)
        det.on = True  # set: the high Ts read As
        t.cards = [(c, 640.0 + 65 * i, 335.0) for i, c in enumerate(_HAND[:5])]
        t.cards += [(c, 985.0 + 70 * i, 335.0) for i, c in enumerate(_HAND[5:])]
        s = _run(p, t, 12, 10)[-1]
        assert s.dealer.high == [*_HAND[:4], named] and s.dealer.low == _HAND[5:], seen_whole
        if seen_whole:
            assert s.counted_faces == {"dealer.high": ["Ts"]}
            assert s.counted_aside == {"dealer.high": {"As": pytest.approx(0.75)}}
            assert s.card_confidence["dealer.high"][4] == pytest.approx(CFG.min_confidence)
        else:
            assert s.counted_faces == {}


def test_a_doubtful_face_shown_surer_elsewhere_is_its_suit_twin() -> None:
    from vision.pipeline import _suit_twin

    sure = {"Ac": 0.79, "4s": 0.73, "Kd": 0.95}
    assert _suit_twin("Ac", 0.62, sure, set()) == "As"  # b79-0014: seat 3's As read Ac beside the dealer's
    assert _suit_twin("4s", 0.43, sure, set()) == "4c"
    assert _suit_twin("Kd", 0.5, sure, set()) == "Kh"
    assert _suit_twin("Ac", 0.62, sure, {"As"}) is None  # the twin is shown too: nothing to name
    assert _suit_twin("Ac", 0.76, sure, set()) is None  # read at the review level or more: as read
    assert _suit_twin("Ac", 0.75, {"Ac": 0.78}, set()) is None  # not surer there by more than the margin
    assert _suit_twin("Qh", 0.4, sure, set()) is None  # shown nowhere else
    assert (
        _suit_twin("Jk", 0.4, {"Jk": 0.9}, set()) is None
        and _suit_twin("BACK", 0.4, {"BACK": 0.9}, set()) is None
    )


def test_a_doubtful_face_shown_surer_elsewhere_is_its_second_face_before_its_twin() -> None:
    """Where the detector reports each index's likeliest faces, the read's second face is named before
    the twin: b79-0000's 8s read Ts beside the dealer's Ts, its second face 8s (the twin named it Tc)."""
    from vision.pipeline import _second_faces, _suit_twin

    sure = {"Ts": 0.8}
    assert _suit_twin("Ts", 0.55, sure, set(), "8s") == "8s"
    assert _suit_twin("Ts", 0.55, sure, set()) == "Tc"  # no second face reported: the twin
    assert _suit_twin("Ts", 0.55, sure, {"8s"}, "8s") == "Tc"  # the second shown too: the twin
    assert _suit_twin("Ts", 0.55, sure, {"8s", "Tc"}, "8s") is None  # both shown: nothing to name
    assert _suit_twin("Ts", 0.55, sure, set(), "Ts") == "Tc"  # (a face is never its own second)
    assert _suit_twin("Ts", 0.75, sure, set(), "8s") is None  # at the review level: as read
    assert _suit_twin("Qh", 0.4, sure, set(), "Qd") is None  # shown nowhere else: as read
    # each face read in a zone keyed by its zone and image x: the surest guess on its box naming
    # another face; none off its box, for a back, or where no guesses are reported
    dets = _dets(("Ts", 100, 0, 0.55), ("4c", 200, 0, 0.9), ("BACK", 300, 0, 0.9))
    guesses = _dets(("Ts", 100, 0, 0.55), ("8s", 101, 1, 0.3), ("9s", 100, 0, 0.1), ("Ks", 260, 0, 0.4))
    zones, x = ["seat1.high", "seat1.high", "seat1.low"], np.array([10.0, 20.0, 30.0])
    assert _second_faces(dets, zones, x, guesses) == {("seat1.high", 10.0): "8s"}
    assert _second_faces(dets, [None, None, None], x, guesses) == {}
    assert _second_faces(dets, zones, x, None) == {}


def test_the_weaker_of_two_reads_of_one_face_at_two_positions_takes_its_suit_twin() -> None:
    lay = make_layout()
    det = _SureOf({"Kd": 0.95})
    p = TablePipeline(lay, det, CFG)
    t = SynthTable(lay, cards=[("Kd", 250.0, 620.0)])  # seat 1's Kd, read surely
    assert _run(p, t, 10, 0)[-1].seat(1).high == ["Kd"]
    det.conf["Kd"] = 0.5  # then seat 2 shows a face read Kd, with doubt (seat 1 is not read again)
    t.cards.append(("Kd", 760.0, 620.0))
    s = _run(p, t, 12, 10)[-1]
    assert s.seat(1).high == ["Kd"] and s.seat(2).high == ["Kh"]
    assert s.counted_faces == {"seat2.high": ["Kh"]}  # a deduction, said so ...
    assert s.counted_aside == {"seat2.high": {"Kd": np.float32(0.5)}}  # ... with the read it set aside
    assert s.card_confidence["seat2.high"] == [np.float32(CFG.min_confidence)]  # no surer than the floor
    assert TableState.model_validate_json(s.model_dump_json()) == s
    # read as surely as the other sighting: the duplicate stands as read (FOREIGN-CARD weighs it)
    det2 = _SureOf({"Kd": 0.95})
    p2 = TablePipeline(lay, det2, CFG)
    t2 = SynthTable(lay, cards=[("Kd", 250.0, 620.0)])
    _run(p2, t2, 10, 0)
    det2.conf["Kd"] = 0.92
    t2.cards.append(("Kd", 760.0, 620.0))
    s2 = _run(p2, t2, 12, 10)[-1]
    assert s2.seat(2).high == ["Kd"] and s2.counted_faces == {}


class _DoubtfulLeftmost(ColourDetector):
    """The colour detector, the leftmost card of each face in ``doubt`` read at ``conf``, the rest at
    0.9: two cards of one face in one crop, one read with doubt."""

    def __init__(self, doubt: set[str], conf: float, others: float = 0.9) -> None:
        super().__init__()
        self.doubt, self.doubt_conf, self.others = doubt, conf, others

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        c = np.full(len(d), self.others, np.float32)
        for lab in self.doubt:
            at = np.flatnonzero(np.array(d.labels, dtype=object) == lab)
            if len(at) > 1:
                c[at[np.argmin(d.xyxy[at, 0])]] = self.doubt_conf
        return Detections(d.xyxy, d.class_id, c)


def test_the_weaker_of_two_reads_of_one_face_in_one_hand_takes_its_suit_twin() -> None:
    """b78-0010 (seed 78, 720p): seat 1's high 8d read Td at 0.42-0.5 while his low hand's Td read
    0.62-0.75, for six moments. One deck holds each face once within a hand as across hands: the
    doubtful read is named by the count as the twin of its face where the table does not show it,
    with the face set aside for FOREIGN-CARD (a copy in the same hand would read so)."""
    lay = make_layout()
    cards = [("Kd", 250.0, 620.0), ("Kd", 560.0, 620.0)]  # seat 1's high Kd and low Kd, one doubtful
    s = _run(TablePipeline(lay, _DoubtfulLeftmost({"Kd"}, 0.5), CFG), SynthTable(lay, cards=cards), 10, 0)[-1]
    (zone,) = s.counted_faces
    assert s.counted_faces[zone] == ["Kh"] and s.counted_aside == {zone: {"Kd": np.float32(0.5)}}
    assert sorted([*s.seat(1).high, *s.seat(1).low]) == ["Kd", "Kh"]
    assert s.card_confidence[zone] == [np.float32(CFG.min_confidence)]  # a deduction: no surer than the floor
    # both read as surely (a copy read plainly): the duplicate stands as read, for FOREIGN-CARD
    s = _run(TablePipeline(lay, _DoubtfulLeftmost({"Kd"}, 0.88), CFG), SynthTable(lay, cards=cards), 10, 0)[
        -1
    ]
    assert s.seat(1).high == ["Kd"] and s.seat(1).low == ["Kd"] and s.counted_faces == {}


def test_the_weaker_of_two_reads_of_one_face_on_the_display_takes_its_suit_twin() -> None:
    """b99-0000 (seed 99, 720p): the dealer's 2h read 2d at 0.67 on the i-Verify display beside his 2d
    read 0.72, for two moments, before his hand was turned up. The display shows one position's hand,
    and one deck holds each face once: two cards read as one face that are not one picture are a
    misread, and the weaker is named its twin by the count, the face set aside, as on the felt. Where
    the two lie in one hand (both high), either named so shows the same hand, and no margin is asked
    (b80-0009: the surer of the two was the misread); across the high and low hands the weaker is named
    only where the other is surer by the margin. One picture drawn twice is a second copy: as read."""
    lay = make_layout()
    high, low = ["As", "Kd", "Qh", "Jc", "Kd"], ["9h", "2c"]  # the dealer's Kh read Kd: another picture
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    t.pictured = (1,)
    for doubt, others in ((0.6, 0.9), (0.66, 0.7), (0.75, 0.9)):
        s = _run(TablePipeline(lay, _DoubtfulLeftmost({"Kd"}, doubt, others), CFG), t, 10, 0)[-1]
        assert s.iverify.mode == "dealer" and s.iverify.high == ["As", "Kh", "Qh", "Jc", "Kd"]
        assert s.iverify.low == low
        assert s.counted_faces == {"iverify": ["Kh"]}
        assert s.counted_aside == {"iverify": {"Kd": pytest.approx(doubt)}}
        assert s.read_confidence["iverify"] == pytest.approx(CFG.min_confidence)  # a deduction: no surer
        assert TableState.model_validate_json(s.model_dump_json()) == s
    t.pictured = ()  # one picture drawn twice: a second copy of the Kd, left for FOREIGN-CARD
    s = _run(TablePipeline(lay, _DoubtfulLeftmost({"Kd"}, 0.6), CFG), t, 10, 0)[-1]
    assert s.iverify.high == high and s.counted_faces == {}
    # one in the high hand, one in the low: the weaker is named only where the other is surer by the margin
    high, low = ["As", "Kd", "Qh", "Jc", "Ts"], ["Kd", "2c"]
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    t.pictured = (1,)
    for doubt, others, named in ((0.6, 0.9, True), (0.66, 0.7, False)):
        s = _run(TablePipeline(lay, _DoubtfulLeftmost({"Kd"}, doubt, others), CFG), t, 10, 0)[-1]
        assert s.iverify.high == (["As", "Kh", "Qh", "Jc", "Ts"] if named else high) and s.iverify.low == low
        assert s.counted_faces == ({"iverify": ["Kh"]} if named else {}), (doubt, others)


class _DisplayReadsAs(ColourDetector):
    """The colour detector, on the i-Verify panel (a crop mostly its dark ground) reading the face
    ``card`` as ``as_`` at ``conf``, ``card`` its second likeliest face (``detect_with_guesses``),
    while ``on``; elsewhere, and after, as drawn."""

    def __init__(self, card: str, as_: str, conf: float) -> None:
        super().__init__()
        self.card, self.as_, self.conf, self.on = card, as_, conf, True

    def detect_with_guesses(self, image: np.ndarray) -> tuple[Detections, np.ndarray, Detections, Detections]:
        d = self.detect(image)
        panel = (np.abs(image.astype(np.int16) - (70, 30, 10)).max(axis=2) <= 8).mean() > 0.2
        at = np.array(d.labels, dtype=object) == self.card
        if not (self.on and panel and at.any()):
            return d, np.zeros((0, 4), np.float32), Detections.empty(), Detections.empty()
        ids, conf = d.class_id.copy(), d.confidence.copy()
        ids[at], conf[at] = CLASSES.index(self.as_), self.conf
        guesses = Detections(
            d.xyxy[at], np.full(int(at.sum()), CLASSES.index(self.card)), np.full(int(at.sum()), 0.2)
        )
        return Detections(d.xyxy, ids, conf), np.zeros((0, 4), np.float32), Detections.empty(), guesses


def test_a_display_reading_a_face_of_which_the_count_named_is_read_again_once_the_felt_shows_the_hand() -> (
    None
):
    """b99-0000: the display's 2h, read 2d beside the 2d, was named by its second face (``_display_twins``);
    a reading naming a face by the count is not kept as a view of the hand, and the display was not
    read again once the dealer's hand lay whole on the felt (its reading was that hand), so it never
    vouched for his 3s, read 3c on the felt 12 s on and kept so. It is read again then, as a reading
    that is not the hand is."""
    lay = make_layout()
    cfg = PipelineConfig(analyse_fps=None, iverify_early_look_s=0, iverify_second_look_s=0)  # no timed looks
    high, low = _HAND[:5], _HAND[5:]
    det = _DisplayReadsAs("Ts", "Kd", 0.6)  # the display's Ts read Kd beside the Kd: another picture
    p = TablePipeline(lay, det, cfg)
    t = _SlotPanel(lay, header="DEALER", iv_high=high, iv_low=low)
    s = _run(p, t, 10, 0)[-1]
    assert s.iverify.high == high and s.counted_faces == {"iverify": ["Ts"]}
    det.on = False  # the display as the detector reads it next
    t.cards = [(c, 685.0 + 70 * i, 205.0) for i, c in enumerate(_HAND)]  # the hand turned up, read whole
    s = _run(p, t, 14, 10)[-1]
    assert s.dealer.hand == _HAND and s.iverify.high == high and s.iverify.low == low
    assert s.counted_faces == {}  # read again, as drawn: no face named by the count


def test_two_of_the_display_s_cards_are_one_picture_or_not() -> None:
    """``same_picture``: one face drawn twice shows the same pixels but for the camera's noise; another
    face's pips or picture differ. Measured on the rendered display at 1280x720 (the model card)."""
    from vision._blank_corner import same_picture

    rng = np.random.default_rng(0)
    panel = np.zeros((70, 200, 3), np.uint8)
    panel[:] = (70, 30, 10)
    for x0 in (5, 55, 105):  # three 43 x 60 px cards, 7 px apart
        panel[4:64, x0 : x0 + 43] = 250
        panel[8:16, x0 + 3 : x0 + 9] = (30, 30, 200)  # the index
        panel[20:30, x0 + 17 : x0 + 27] = (30, 30, 200)  # a pip
    panel[40:50, 122:132] = (30, 30, 200)  # the third card's second pip: another face
    noisy = np.clip(panel + rng.normal(0, 4, panel.shape), 0, 255).astype(np.uint8)
    ppm, width = 43 / 54.857142857142854, 54.857142857142854
    assert same_picture(noisy, [26.0, 76.0], ppm, width) is True
    assert same_picture(noisy, [6.0, 80.0, 90.0], ppm, width) is True  # two points on one card: two cards
    assert same_picture(noisy, [26.0, 126.0], ppm, width) is False
    assert same_picture(noisy, [26.0, 30.0], ppm, width) is None  # one card
    assert same_picture(noisy, [26.0, 180.0], ppm, width) is None  # the ground: no card there


def test_an_index_near_the_crops_edge_is_grown_into_the_card_the_crop_holds() -> None:
    """The still arm test takes away the cards found from what reaches into a zone; an index box is
    grown to a card. b79-0003 (seed 79, 720p): seat 4's low Kd turned up at the crop's foot, its top
    index under the dealer's fingers on the high hand, only its bottom index found; grown about its
    centre, half the card lay below the crop and its top half, changed and joined to the hand, was
    counted as arm: the card read a second late. A card with that index at its bottom-right corner
    lies in the crop; one with it at its top-left would not: the card is the first. An index in the
    crop's middle, either way in it, is still grown about its centre."""
    from types import SimpleNamespace

    p = TablePipeline(make_layout(), _SureOf({}), CFG)
    w = SimpleNamespace(region=SimpleNamespace(px_per_mm=1.0), scale=1.0)  # a card is 63.5 x 88.9 px
    shape = (200, 150)
    p._last_boxes = np.array([[100, 170, 110, 190]], np.float32)  # a bottom-right index at the foot
    mask = p._card_mask(w, shape)
    assert mask[110, 60] and mask[185, 105]  # up and left of it: the card
    assert not mask[185, 140] and not mask[195, 60]  # not right of the index, nor beside it below
    p._last_boxes = np.array([[40, 80, 50, 100]], np.float32)  # mid-crop: about its centre, as before
    mask = p._card_mask(w, shape)
    ys, xs = np.nonzero(mask)
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (13, 77, 46, 134)
