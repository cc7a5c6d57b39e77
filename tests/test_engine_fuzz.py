"""The engine never falls over on odd but valid table states (what a confused camera could send)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import make_layout, shipped_house_way

from compliance.engine import Monitor, MonitorConfig
from vision.state import DealerState, IVerifyState, SeatState, TableState

LAYOUT = make_layout("seven-card", [1, 2, 3])
TOKENS = st.sampled_from(["BACK", "As", "Kd", "Jk", "7h", "2c", "Qs", "Td", "9s", "zz", "3h"])
PILE = st.lists(TOKENS, max_size=9)


@st.composite
def _state(draw: st.DrawFn, frame: int) -> TableState:
    return TableState(
        table_id="T1",
        frame=frame,
        t=frame * 0.1,
        lcd=draw(st.none() | st.integers(0, 9)),
        seats=[
            SeatState(seat=n, chips=draw(st.booleans()), dealt=draw(PILE), high=draw(PILE), low=draw(PILE))
            for n in draw(st.sampled_from([[1, 2, 3], [1, 3], []]))
        ],
        dealer=DealerState(hand=draw(PILE), high=draw(PILE), low=draw(PILE)),
        iverify=IVerifyState(
            visible=draw(st.booleans()),
            mode=draw(st.sampled_from(["blank", "seat", "dealer"])),
            seat=draw(st.none() | st.integers(0, 9)),
            high=draw(PILE),
            low=draw(PILE),
        ),
        occluded=draw(st.lists(st.sampled_from(["seat1", "seat2.high", "dealer", "iverify", "lcd", "x.y"]))),
    )


@st.composite
def _stream(draw: st.DrawFn) -> list[TableState]:
    n = draw(st.integers(1, 40))
    # Each drawn state holds for a few frames, so the debounce lets some of them through.
    out: list[TableState] = []
    frame = 0
    for _ in range(n):
        s = draw(_state(frame))
        for _ in range(draw(st.integers(1, 4))):
            out.append(s.model_copy(update={"frame": frame, "t": frame * 0.1}))
            frame += 1
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_stream(), st.booleans())
def test_any_valid_stream_is_taken_without_error_and_rounds_stay_consistent(
    states: list[TableState], exact: bool
) -> None:
    m = Monitor(
        LAYOUT, house_way=shipped_house_way("seven-card"), config=MonitorConfig(face_down_counts_exact=exact)
    )
    events = []
    findings = []
    for s in states:
        u = m.feed(s)
        events += u.events
        findings += u.findings
    u = m.finish()
    events += u.events
    findings += u.findings
    rounds = m.rounds
    assert [e for r in rounds for e in r.events] == events
    assert sorted(f.model_dump_json() for r in rounds for f in r.findings) == sorted(
        f.model_dump_json() for f in findings
    )
    assert [r.round for r in rounds] == list(range(1, len(rounds) + 1))
    for f in findings:
        assert 0 < f.confidence <= 1 and f.expected and f.observed
