"""IVERIFY-SEAT-EARLY (seed 000 rule 5.a.i): i-Verify sets a seat while another active seat is unset."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "IVERIFY-SEAT-EARLY"


def _dealt() -> Table:
    t = Table(seats=[1, 2, 3])
    return t.hold(1).chips(1, 3).lcd(2).deal_all()


def _finish(t: Table) -> Table:
    return t.iverify_blank().expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)


def test_seed000_5ai_iverify_for_seat3_while_seat1_unset_is_a_breach() -> None:
    t = _dealt().iverify_seat(3)
    shown_at = t.states[-1].frame - 4
    _finish(t.set(3).set(1))
    [f] = Run(t).of(CHECK)
    assert f.seat == 3 and f.frame == shown_at and f.confidence == 1.0
    assert "seat 1: 7 cards unset in the deal spot" in f.observed
    assert "5.a.i" in f.rule


def test_seed000_5ai_iverify_used_when_every_other_seat_has_set_is_compliant() -> None:
    t = _finish(_dealt().set(1).iverify_seat(3).set(3))
    run = Run(t)
    assert run.findings == []
    assert {h.position: h.set_by for h in run.rounds[0].hands}["seat3"] == "iverify"


def test_empty_spot_dead_hand_never_blocks_iverify() -> None:
    # Seat 2 has no chips: its dead hand lies unset all round.
    t = _finish(_dealt().set(1).iverify_seat(3).set(3))
    assert Run(t).of(CHECK) == []


def test_seat_hidden_at_the_display_then_seen_unset_is_a_breach_at_the_displays_frame() -> None:
    t = _dealt().occlude("seat1")
    shown_at = t.frame
    t.iverify_seat(3, hold=0.5)
    t.occlude()
    _finish(t.set(3).set(1))
    [f] = Run(t).of(CHECK)
    assert f.confidence == 0.9 and "seat 1: hidden then, seen unset" in f.observed and f.frame == shown_at


def test_seat_hidden_at_the_display_and_seen_set_when_the_arm_lifts_is_compliant() -> None:
    t = _dealt().set(1, hold=0.1)  # set while the arm comes over it
    t.occlude("seat1", hold=0.1)
    t.iverify_seat(3, hold=0.5)
    t.occlude()
    _finish(t.set(3))
    assert Run(t).of(CHECK) == []


def test_seat_whose_cards_stay_off_the_felt_is_a_breach_with_lower_confidence() -> None:
    t = _dealt()
    t.seats[1].dealt = []  # the player holds his cards (or the camera missed them) for 2.5 s
    t.iverify_seat(3).set(3).hold(1.5)
    _finish(t.set(1))
    [f] = Run(t).of(CHECK)
    assert f.confidence == 0.6 and "no cards seen at the seat, first seen set at t=6.50s" in f.observed


def test_seat_whose_cards_are_in_the_air_while_it_sets_is_not_a_breach() -> None:
    t = _dealt()
    t.seats[1].dealt = []  # cards moving from the deal spot to high/low for 0.5 s
    t.iverify_seat(3)
    _finish(t.set(1).set(3))
    assert Run(t).of(CHECK) == []


def test_one_frame_iverify_flicker_is_not_a_breach() -> None:
    t = _finish(_dealt().flicker(1, iverify_seat=3).set(1).set(3))
    assert Run(t).findings == []
