"""``TableState.card_confidence``: one confidence per card of a zone, parallel to its cards; records
without it (ground truth, older JSONL) load as before and fall back on the zone's read confidence."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from vision.state import BACK, DealerState, IVerifyState, SeatState, TableState


def _state(**extra: object) -> TableState:
    return TableState(
        table_id="T1",
        frame=7,
        t=0.28,
        seats=[SeatState(seat=3, high=["As", BACK, "Kd"], low=["2c"])],
        dealer=DealerState(hand=[BACK, BACK]),
        iverify=IVerifyState(mode="dealer", high=["Qh", "Jh"], low=["9s"]),
        **extra,
    )


def test_an_old_record_loads_unchanged_and_each_face_gets_its_zones_read() -> None:
    old = _state(read_confidence={"seat3.high": 0.61}).model_dump_json(exclude={"card_confidence"})
    assert "card_confidence" not in old
    s = TableState.model_validate_json(old)
    assert s.card_confidence == {}
    assert s.card_reads("seat3.high") == [0.61, None, 0.61]  # a back is not read: no doubt about it
    assert s.card_reads("seat3.low") == [None]  # no read confidence: sure (ground truth)
    assert s.card_reads("dealer.hand") == [None, None]


def test_card_confidences_are_per_card_and_win_over_the_zones() -> None:
    s = _state(
        read_confidence={"seat3.high": 0.61},
        card_confidence={"seat3.high": [0.61, 0.93, 0.88], "iverify": [0.7, 0.8, 0.9]},
    )
    assert s.card_reads("seat3.high") == [0.61, 0.93, 0.88]
    assert s.zone_cards("iverify") == ["Qh", "Jh", "9s"] and s.card_reads("iverify") == [0.7, 0.8, 0.9]
    assert TableState.model_validate_json(s.model_dump_json()) == s


@pytest.mark.parametrize(
    ("conf", "words"),
    [
        ({"seat3.high": [0.9, 0.9]}, "has 2 entries but the zone shows 3 cards"),
        ({"seat3.chips": []}, "no card zone 'seat3.chips'"),
        ({"seat5.high": []}, "no card zone 'seat5.high'"),
        ({"seat3.high": [0.9, 1.2, 0.9]}, "less than or equal to 1"),
    ],
)
def test_card_confidences_that_do_not_fit_their_zone_are_refused(
    conf: dict[str, list[float]], words: str
) -> None:
    with pytest.raises(ValidationError, match=words):
        _state(card_confidence=conf)


def test_unread_faces_name_card_zones_on_the_felt_and_count_at_least_one() -> None:
    s = _state(unread_faces={"seat3.high": 1, "dealer.hand": 2})
    assert TableState.model_validate_json(s.model_dump_json()) == s
    old = _state().model_dump_json(exclude={"unread_faces"})
    assert TableState.model_validate_json(old).unread_faces == {}
    for bad, words in (
        ({"seat9.high": 1}, "seat9.high"),
        ({"iverify": 1}, "only card zones on the felt"),
        ({"seat3.chips": 1}, "seat3.chips"),
        ({"seat3.high": 0}, "greater than or equal to 1"),
    ):
        with pytest.raises(ValidationError, match=words):
            _state(unread_faces=bad)


def test_what_the_count_set_aside_belongs_to_a_zone_it_named_a_face_in() -> None:
    s = _state(counted_faces={"seat3.high": ["Kd"]}, counted_aside={"seat3.high": {"Ks": 0.33}})
    assert TableState.model_validate_json(s.model_dump_json()) == s
    assert (
        TableState.model_validate_json(_state().model_dump_json(exclude={"counted_aside"})).counted_aside
        == {}
    )
    with pytest.raises(
        ValidationError, match=r"counted_aside\['seat3\.low'\]: the zone names no face by the count"
    ):
        _state(counted_faces={"seat3.high": ["Kd"]}, counted_aside={"seat3.low": {"Ks": 0.33}})
    with pytest.raises(ValidationError, match="less than or equal to 1"):
        _state(counted_faces={"seat3.high": ["Kd"]}, counted_aside={"seat3.high": {"Ks": 1.5}})


def test_faces_carried_from_the_display_are_carried_faces_and_twins_are_faces_not_named() -> None:
    s = _state(carried_faces={"seat3.high": ["Kd"]}, carried_from_display={"seat3.high": ["Kd"]})
    assert TableState.model_validate_json(s.model_dump_json()) == s
    old = _state().model_dump_json(exclude={"carried_from_display", "unread_twins"})
    assert TableState.model_validate_json(old).carried_from_display == {}
    with pytest.raises(ValidationError, match=r"carried_from_display\['seat3\.high'\] names \['Kd'\]"):
        _state(carried_from_display={"seat3.high": ["Kd"]})
    s = _state(unread_faces={"seat3.high": 1}, unread_twins={"seat3.high": {"Kd": 0.3}})
    assert TableState.model_validate_json(s.model_dump_json()) == s
    with pytest.raises(ValidationError, match=r"unread_twins\['seat3\.low'\]: the zone shows no face found"):
        _state(unread_faces={"seat3.high": 1}, unread_twins={"seat3.low": {"Kd": 0.3}})
