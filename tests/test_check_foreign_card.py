"""FOREIGN-CARD (seed 002 rules 5.1, 5.5): a duplicate or foreign card voids the round."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "FOREIGN-CARD"


def test_seed002_5_5_the_same_face_in_two_hands_voids_the_round() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1)
    at = t.frame - 5  # seat 1's As is seen when its hand is turned face up
    t.turn(3).collect_all().hold(1)
    run = Run(t)
    [dup] = run.of(CHECK)
    assert dup.observed == "As seen 2 times: at dealer, seat1" and dup.seat == 1 and dup.frame == at


def test_a_face_down_copy_is_not_a_duplicate_until_it_is_seen() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().collect_all().hold(1)
    assert Run(t).of(CHECK) == []


def test_seed002_5_1_a_token_that_is_no_card_is_foreign() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3)
    t.deal("dealer", "As Kd 9c 7h 5s 3d Zz")
    t.expose_dealer().collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert "foreign card 'Zz' at dealer" in f.observed


def test_findings_after_a_void_say_the_round_is_void() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1)
    t.deal("dealer", "As Kd 9c 7h 5s 3d Zz").expose_dealer().set(3).collect_all().hold(1)
    run = Run(t)
    assert run.checks() == ["DEALER-REVEAL-EARLY", CHECK]
    assert all("[round void: FOREIGN-CARD" in f.observed for f in run.findings if f.check_id.value != CHECK)
