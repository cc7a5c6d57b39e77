"""IVERIFY-DEALER-EARLY (seed 000 rule 5.a.ii): dealer's house way on i-Verify before every seat set."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "IVERIFY-DEALER-EARLY"


def _dealt() -> Table:
    return Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all()


def _finish(t: Table) -> Table:
    return t.iverify_blank().expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)


def test_seed000_5aii_dealer_house_way_shown_before_seat3_set_is_a_breach() -> None:
    t = _dealt().set(1).iverify_dealer()
    shown_at = t.states[-1].frame - 4
    _finish(t.set(3))
    [f] = Run(t).of(CHECK)
    assert f.seat is None and f.frame == shown_at and "seat 3" in f.observed and f.confidence == 1.0


def test_seed000_5aii_after_every_seat_set_including_one_through_iverify_is_compliant() -> None:
    t = _finish(_dealt().set(1).iverify_seat(3).set(3).iverify_dealer())
    assert Run(t).findings == []


def test_empty_spot_dead_hand_never_blocks_the_dealer_display() -> None:
    t = _finish(_dealt().set(1).set(3).iverify_dealer())
    run = Run(t)
    assert run.of(CHECK) == []
    assert "iverify_dealer" in run.kinds()
