"""DEALER-REVEAL-EARLY (seed 002 rule 3.8, seed 004): dealer exposes before every active seat is set."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "DEALER-REVEAL-EARLY"


def _dealt() -> Table:
    return Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all()


def test_seed002_3_8_seat_that_never_sets_then_dealer_reveals_is_a_breach() -> None:
    t = _dealt().set(1).expose_dealer()
    shown_at = t.states[-1].frame - 4
    t.dealer_set().turn(1).collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert f.frame == shown_at and f.seat is None and "seat 3" in f.observed and f.confidence == 1.0
    assert run.checks() == [CHECK]


def test_seed002_3_8_reveal_after_every_active_seat_set_is_compliant() -> None:
    t = _dealt().set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_empty_spot_dead_hand_is_not_waited_for() -> None:
    t = _dealt().set(1).set(3).expose_dealer().collect_all().hold(1)
    run = Run(t)
    assert run.of(CHECK) == []
    assert "dealer_exposed" in run.kinds()


def test_a_breach_seen_while_the_cameras_view_has_moved_is_for_review_and_says_so() -> None:
    """The engine, for every check: a knocked camera's zones may show what lies beside them."""
    t = _dealt().set(1).expose_dealer()
    t.dealer_set().turn(1).collect_all().hold(1)
    t.states = [s.model_copy(update={"view_moved_px": 18.5}) for s in t.states]
    [f] = Run(t).of(CHECK)
    assert f.status == "review" and "the camera's view had moved 18.5 px" in f.observed
