"""Debounce and table-state building (vision.tracking)."""

from __future__ import annotations

import pytest
from test_pipeline_synth import make_layout

from vision.tracking import Debouncer, IVerifyReading, TableTracker


def test_debouncer_ignores_a_one_frame_flicker() -> None:
    d: Debouncer[str] = Debouncer("A", hold_frames=2)
    seen = []
    for i, v in enumerate("AABAACCC"):
        d.update(v, i * 0.1)
        seen.append(d.value)
    assert "".join(seen) == "AAAAAACC"


def test_debouncer_holds_for_seconds_too() -> None:
    d: Debouncer[int] = Debouncer(0, hold_frames=1, hold_s=0.5)
    assert not d.update(1, 0.0)
    assert not d.update(1, 0.4)
    assert d.update(1, 0.5)
    assert d.value == 1


def test_debouncer_accepts_none_as_a_value() -> None:
    d: Debouncer[int | None] = Debouncer(4, hold_frames=2)
    assert not d.update(None, 0.0)
    assert d.update(None, 0.1)
    assert d.value is None


def test_debouncer_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="hold_frames must be at least 1"):
        Debouncer(0, hold_frames=0)


def test_tracker_builds_states_only_on_change() -> None:
    tr = TableTracker(make_layout(), hold_frames=2)
    first = tr.update({}, 0, 0.0)
    assert first is not None and first.seat(1).high == [] and first.iverify.mode == "blank"
    assert tr.update({"seat1.high": ("As", "Kd")}, 1, 0.1) is None  # not held yet
    st = tr.update({}, 2, 0.2)  # the reading holds (zones keep their last reading)
    assert st is not None and st.seat(1).high == ["As", "Kd"] and st.frame == 2 and st.t == 0.2
    assert tr.update({}, 3, 0.3) is None
    st = tr.update(
        {
            "iverify": IVerifyReading(True, "seat", 2, ("As",), ("Kd",)),
            "lcd": 4,
            "occluded": frozenset({"dealer.hand"}),
        },
        4,
        0.4,
    )
    assert st is None
    st = tr.update({}, 5, 0.5)
    assert st is not None
    assert (st.iverify.mode, st.iverify.seat, st.iverify.high, st.lcd) == ("seat", 2, ["As"], 4)
    assert st.occluded == ["dealer.hand"]


def test_tracker_names_an_unknown_zone() -> None:
    tr = TableTracker(make_layout())
    with pytest.raises(KeyError, match=r"frame 7: reading for unknown zone 'seat9\.high'"):
        tr.update({"seat9.high": ()}, 7, 0.0)


def test_a_state_without_payout_reads_as_not_paid() -> None:
    """``SeatState.payout`` is new: a state written before it (no such field) reads as no payout."""
    from vision.state import TableState

    st = TableState.model_validate_json(
        '{"table_id": "T1", "frame": 0, "t": 0.0, "seats": [{"seat": 1, "chips": true}]}'
    )
    assert st.seat(1).chips and not st.seat(1).payout
    tr = TableTracker(make_layout(payout=True))
    tr.update({"seat2.payout": True}, 0, 0.0)
    got = tr.update({}, 1, 0.1)
    assert got is not None and got.seat(2).payout and not got.seat(2).chips
