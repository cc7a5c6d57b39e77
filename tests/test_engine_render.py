"""The engine against the renderer's ground truth: every shipped scenario, its true table states in,
exactly the findings the renderer injected out (check id, seat, round), every round rebuilt.

The states are the renderer's true ``TableState`` at every change (what ``<clip>.states.jsonl``
holds), made without drawing a frame (``render.clip.plan_clip``), so this needs no video.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.engine import Monitor
from render.clip import _true_state, plan_clip
from render.scenario import load_scenario

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
