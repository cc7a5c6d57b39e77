"""Faces of one rank that lie apart as two cards do (``vision.pipeline._apart_faces``,
``TableState.apart_faces``): what lets CARD-COUNT tell a natural pair from one card read twice."""

from __future__ import annotations

import numpy as np
import pytest

from rules.cards import DECK
from vision.detections import Detections
from vision.pipeline import _apart_faces, _apart_now
from vision.state import SeatState, TableState

PX_PER_MM = 1.6  # the camera pipeline's card scale: a card 102 x 142 px, an index about 16 x 35


def _code(face: str) -> int:
    return 52 if face == "Jk" else [str(c) for c in DECK].index(face)


def _dets(*found: tuple[str, tuple[float, float, float, float]]) -> Detections:
    return Detections(
        np.array([b for _, b in found], np.float32),
        np.array([_code(f) for f, _ in found]),
        np.full(len(found), 0.6, np.float32),
    )


def test_a_pair_side_by_side_is_two_cards_and_a_cards_two_sides_are_not() -> None:
    dets = _dets(
        ("9s", (100, 40, 116, 75)),  # a spread: the 9h's index beside the 9s's
        ("9h", (125, 40, 141, 75)),
        ("Ks", (204, 38, 220, 174)),  # b63-0001: one king's left edge read Ks, its right edge Kc
        ("Kc", (264, 36, 299, 174)),
    )
    zones = ["seat1.high", "seat1.high", "dealer.hand", "dealer.hand"]
    assert _apart_faces(dets, zones, PX_PER_MM) == {"seat1.high": ("9s", "9h")}


def test_a_cards_edge_read_down_its_length_beside_the_next_cards_index_is_two_cards() -> None:
    # b51-0006 (seed 51, 720p): seat 2's Jc read down its edge (top and bottom indices joined, a
    # card-long column), the Jh's top index alone beside it: its column's top is the Jc's index
    dets = _dets(("Jc", (60, 29, 75, 166)), ("Jh", (86, 29, 101, 64)))
    assert _apart_faces(dets, ["seat2.high"] * 2, PX_PER_MM) == {"seat2.high": ("Jc", "Jh")}
    # the same index beside the column's middle, nowhere near either end: not a spread's neighbours
    mid = _dets(("Jc", (60, 29, 75, 166)), ("Jh", (86, 80, 101, 115)))
    assert _apart_faces(mid, ["seat2.high"] * 2, PX_PER_MM) == {}


def test_further_apart_than_a_card_or_with_a_card_between_is_two_cards() -> None:
    far = _dets(("7c", (100, 40, 116, 75)), ("7d", (400, 40, 416, 75)))
    assert _apart_faces(far, ["seat2.low"] * 2, PX_PER_MM) == {"seat2.low": ("7c", "7d")}
    between = _dets(("7c", (100, 40, 116, 75)), ("Qh", (150, 40, 166, 75)), ("7d", (200, 40, 216, 75)))
    assert _apart_faces(between, ["seat2.low"] * 3, PX_PER_MM) == {"seat2.low": ("7c", "7d")}
    # the same two with nothing between them, too far apart for neighbours, within one card: may be one
    alone = _dets(("7c", (100, 40, 116, 75)), ("7d", (200, 40, 216, 75)))
    assert _apart_faces(alone, ["seat2.low"] * 2, PX_PER_MM) == {}


def test_a_rank_is_listed_whole_or_not_at_all_and_zones_apart_are_not_compared() -> None:
    # three nines: two side by side, the third within one card of both with nothing between: none listed
    dets = _dets(("9s", (100, 40, 116, 75)), ("9h", (125, 40, 141, 75)), ("9d", (160, 100, 176, 135)))
    assert _apart_faces(dets, ["seat1.high"] * 3, PX_PER_MM) == {}
    # one face of a rank in each of two zones: nothing to say (each zone holds its rank once)
    assert _apart_faces(dets[[0, 1]], ["seat1.high", "seat1.low"], PX_PER_MM) == {}
    # the Joker is a rank of its own, and a zone outside every zone (None) is skipped
    jokers = _dets(("Jk", (100, 40, 116, 75)), ("Jk", (400, 40, 416, 75)))
    assert _apart_faces(jokers, ["seat1.high"] * 2, PX_PER_MM) == {}
    assert _apart_faces(dets[[0, 1]], [None, None], PX_PER_MM) == {}


def test_a_face_named_since_voids_its_ranks_listing() -> None:
    assert _apart_now(("9s", "9h"), ("9s", "9h", "7c")) == ["9h", "9s"]
    # a third nine carried or counted into the zone since: it was not among the faces placed
    assert _apart_now(("9s", "9h"), ("9s", "9h", "9c")) == []
    # a face renamed (the display's read taken over the felt's): the pair is not the one placed
    assert _apart_now(("9s", "9h", "7c", "7d"), ("9s", "9d", "7c", "7d")) == ["7c", "7d"]


def test_the_state_refuses_a_face_apart_that_the_zone_does_not_show() -> None:
    seat = SeatState(seat=1, high=["9s", "9h", "7c", "4d", "2s"], low=["Kd", "Qc"])
    ok = TableState(table_id="t", frame=3, t=0.1, seats=[seat], apart_faces={"seat1.high": ["9s", "9h"]})
    assert ok.apart_faces == {"seat1.high": ["9s", "9h"]}
    with pytest.raises(ValueError, match=r"apart_faces\['seat1.high'\] names \['9d'\]"):
        TableState(table_id="t", frame=3, t=0.1, seats=[seat], apart_faces={"seat1.high": ["9s", "9d"]})
