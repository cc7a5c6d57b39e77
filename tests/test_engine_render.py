"""The engine against the renderer's ground truth: every shipped scenario, its true table states in,
exactly the findings the renderer injected out (check id, seat, round), every round rebuilt.

The states are the renderer's true ``TableState`` at every change (what ``<clip>.states.jsonl``
holds), made without drawing a frame (``render.clip.plan_clip``), so this needs no video.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compliance.engine import Monitor
from render.clip import _true_state, plan_clip
from render.scenario import load_scenario
from vision.state import DealerState, IVerifyState, TableState

SCENARIOS = sorted((Path(__file__).parents[1] / "render" / "data" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_rendered_scenario_true_states_give_exactly_the_injected_findings(path: Path) -> None:
    layout, director = plan_clip(load_scenario(path), seed=0)
    monitor = Monitor(layout)
    found = []
    prev = None
    for k, scene in enumerate(director.frames):
        state = _true_state(layout, scene, k, [])
        key = state.model_dump(exclude={"frame", "t"})
        if key != prev:  # states at changes only, as the renderer writes them
            found += monitor.feed(state).findings
            prev = key
    found += monitor.finish().findings
    truth = sorted((f.round, f.check_id.value, f.seat) for r in director.rounds for f in r.findings)
    assert sorted((f.round, f.check_id.value, f.seat) for f in found) == truth
    rebuilt = monitor.rounds
    assert len(rebuilt) == len(director.rounds)
    for mine, true in zip(rebuilt, director.rounds, strict=True):
        assert mine.deal_order == [e.position for e in true.events if e.kind.value == "hand_dealt"]
        hands = {h.position: h for h in mine.hands}
        for h in true.hands:
            if h.active or h.position == "dealer":
                got = hands[h.position]
                assert sorted(got.cards) == sorted(h.cards), h.position
                assert (sorted(got.high), sorted(got.low)) == (sorted(h.high), sorted(h.low)), h.position


def _noisy(states: list[TableState], layout_seats: list[int], seed: int) -> list[TableState]:
    """What a camera pipeline might send instead: 30% of frames missed, one-frame misreads of a
    zone (a card lost, a wrong face, the display read as some seat), and arm occlusions of 3-25
    frames over a seat, the dealer's area or the display (the hidden zone reads empty)."""
    rng = random.Random(seed)
    out: list[TableState] = []
    left, zone = 0, ""
    for st in states:
        if rng.random() < 0.3:
            continue
        r = rng.random()
        if left == 0 and r < 0.01:
            left = rng.randint(3, 25)
            zone = rng.choice([f"seat{n}" for n in layout_seats] + ["dealer", "iverify"])
        if left > 0:
            left -= 1
            st = st.model_copy(deep=True)
            st.occluded = [zone]
            if zone.startswith("seat"):
                s = st.seat(int(zone[4:]))
                s.high, s.low, s.dealt = [], [], []
            elif zone == "dealer":
                st.dealer = DealerState()
            else:
                st.iverify = IVerifyState()
        elif r < 0.05:
            st = st.model_copy(deep=True)
            s = st.seats[rng.randrange(len(st.seats))]
            what = rng.choice(["high", "low", "dealt", "iverify", "dealer"])
            if what == "iverify":
                st.iverify = IVerifyState(mode="seat", seat=s.seat)
            elif what == "dealer":
                st.dealer.hand = [*st.dealer.hand[:-1], "Ah"] if st.dealer.hand else ["BACK"]
            else:
                setattr(s, what, getattr(s, what)[:-1])
        out.append(st)
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_rendered_scenario_survives_missed_frames_glitches_and_occlusions(path: Path) -> None:
    layout, director = plan_clip(load_scenario(path), seed=1)
    states = [_true_state(layout, scene, k, []) for k, scene in enumerate(director.frames)]
    monitor = Monitor(layout)
    found = []
    for state in _noisy(states, layout.seat_numbers, seed=1):
        found += monitor.feed(state).findings
    found += monitor.finish().findings
    truth = sorted((f.round, f.check_id.value, f.seat) for r in director.rounds for f in r.findings)
    assert sorted((f.round, f.check_id.value, f.seat) for f in found) == truth
    assert len(monitor.rounds) == len(director.rounds)
