"""The compliance engine end to end: hand-written table-state scripts in, findings and rounds out.

Each ``tests/fixtures/states/*.yaml`` script lists the findings it must produce (``expect``: check
id and seat) and nothing else; each runs at frame rate and as a changes-only stream.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table, changes_only, load_script

from compliance.engine import Monitor, MonitorConfig, Update
from compliance.events import CheckId, EventKind

SCRIPTS = sorted((Path(__file__).parent / "fixtures" / "states").glob("*.yaml"))


def _expected(path: Path) -> list[tuple[str, int | None]]:
    return sorted((c, s) for c, s in yaml.safe_load(path.read_text())["expect"])


def _found(run: Run) -> list[tuple[str, int | None]]:
    return sorted((f.check_id.value, f.seat) for f in run.findings)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_produces_exactly_its_expected_findings(path: Path) -> None:
    t = load_script(path)
    run = Run(t)
    assert _found(run) == _expected(path)
    [rnd] = run.rounds
    assert rnd.t_end is not None and rnd.events[-1].kind is EventKind.ROUND_END
    assert sorted((f.check_id.value, f.seat) for f in rnd.findings) == _expected(path)
    for f in run.findings:
        assert f.rule and f.expected and f.observed and 0 < f.confidence <= 1
        assert any(s.frame == f.frame for s in t.states), "evidence frame must be a real state"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_gives_the_same_findings_when_states_come_only_at_changes(path: Path) -> None:
    t = load_script(path)
    full = Run(t)
    t.states = changes_only(t.states)
    sparse = Run(t)
    assert _found(sparse) == _found(full)
    assert [e.kind for e in sparse.events] == [e.kind for e in full.events]


def test_compliant_seven_card_round_is_rebuilt() -> None:
    run = Run(load_script(Path(__file__).parent / "fixtures" / "states" / "compliant_7card.yaml"))
    [rnd] = run.rounds
    assert rnd.game == "seven-card" and rnd.lcd == 4
    assert rnd.deal_order == ["seat4", "seat5", "seat6", "dealer", "seat1", "seat2", "seat3"]
    hands = {h.position: h for h in rnd.hands}
    assert hands["seat4"].set_by == "iverify" and hands["seat4"].low == ["As", "Kh"]
    assert hands["dealer"].low == ["9s", "7h"]
    assert [p for p, h in hands.items() if h.active] == ["seat1", "seat2", "seat4", "seat6"]
    assert all(len(h.cards) == 7 for h in hands.values() if h.active)
    kinds = [e.kind for e in rnd.events]
    assert kinds.count(EventKind.SEAT_SET) == 4 and kinds.count(EventKind.PLAYER_EXPOSED) == 4
    assert kinds.index(EventKind.IVERIFY_DEALER) < kinds.index(EventKind.DEALER_EXPOSED)


def test_feed_returns_only_what_is_new_and_rounds_keep_everything() -> None:
    t = load_script(Path(__file__).parent / "fixtures" / "states" / "dealer_reveal_early.yaml")
    m = Monitor(t.layout)
    updates: list[Update] = [m.feed(s) for s in t.states]
    updates.append(m.finish())
    events = [e for u in updates for e in u.events]
    findings = [f for u in updates for f in u.findings]
    assert len(findings) == 1 and findings[0].check_id is CheckId.DEALER_REVEAL_EARLY
    # The finding comes with the update that accepted the dealer's exposure, within the debounce.
    [u] = [u for u in updates if u.findings]
    assert [e.kind for e in u.events] == [EventKind.DEALER_EXPOSED]
    assert m.rounds[0].events == events and m.rounds[0].findings == findings
    assert m.finish().events == [] and m.finish().findings == []


def test_two_rounds_then_footage_ends_mid_round() -> None:
    path = Path(__file__).parent / "fixtures" / "states" / "foul_not_reset.yaml"
    t = load_script(path)
    t.chips(1, 3).lcd(3).deal_all().set(1)
    run = Run(t)
    assert [r.round for r in run.rounds] == [1, 2]
    assert [(f.round, f.check_id.value) for f in run.findings] == [(1, "FOUL-MISHANDLED")]
    assert run.rounds[1].t_end is None and run.rounds[1].findings == []


def test_checks_can_be_chosen() -> None:
    t = load_script(Path(__file__).parent / "fixtures" / "states" / "foreign_card.yaml")
    assert Run(t, checks=["DEAL-ORDER"]).findings == []
    assert len(Run(t, checks=["FOREIGN-CARD"]).findings) == 1


def test_five_rounds_in_a_row_at_25_fps_are_all_rebuilt() -> None:
    t = Table(seats=[1, 2, 3, 4, 5, 6], fps=25)
    for lcd in (1, 3, 5, 7, 2):
        t.chips(1, 2, 4).lcd(lcd).deal_all().set(1).set(2).set(4).expose_dealer().dealer_set()
        t.turn(1).turn(2).turn(4).collect_all()
    run = Run(t, debounce_s=0.2)
    assert len(run.rounds) == 5 and run.findings == []
    assert len(t.states) > 1000


def test_default_config_values() -> None:
    cfg = MonitorConfig()
    assert cfg.debounce_s == 0.25 and cfg.iverify_hidden_s == 5.0 and cfg.checks is None
