"""CARD-COUNT (seed 002 rules 5.2-5.3): 7 cards a hand (6 in the 6-card game), set 5 + 2 (5 + 1)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "CARD-COUNT"


def test_seed002_5_2_a_six_card_hand_in_the_seven_card_game_is_a_breach() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer").deal("seat1", "As Kd 9c 7h 5s 3d")
    t.set(1, "Kd 9c", high="As 7h 5s 3d").set(3).expose_dealer().dealer_set().turn(1).turn(3)
    t.collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert f.seat == 1 and "high 4 / low 2" in f.observed


def test_seed002_5_3_an_eighth_card_at_a_position_is_reported_when_it_appears() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all()
    t.seats[2].dealt = ["BACK"] * 8
    t.hold()
    at = t.frame - 5
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat == 2 and f.frame == at and "8 cards" in f.observed


def test_dealer_setting_4_and_3_is_a_breach() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3).expose_dealer()
    real = t.truth["dealer"]
    t.dealer.hand, t.dealer.high, t.dealer.low = [], real[:4], real[4:]
    t.hold().turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat is None and "dealer set as high 4 / low 3" in f.observed


def test_six_card_game_wants_six_cards_set_five_and_one() -> None:
    t = Table("six-card", seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all()
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.findings == []
    assert all(len(h.cards) == 6 for h in run.rounds[0].hands if h.cards)


def test_stacked_face_down_piles_showing_fewer_backs_are_no_breach_and_turn_over_cleanly() -> None:
    # A camera sees a stacked face-down pile as one or two backs, whatever it holds.
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all()
    for n in (1, 2, 3):
        t.seats[n].dealt = ["BACK"]
    t.dealer.hand = ["BACK", "BACK"]
    t.hold()
    t.set(1).set(3)
    for n in (1, 3):
        t.seats[n].high, t.seats[n].low = ["BACK"], ["BACK"]
    t.hold().expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.findings == []
    assert run.kinds().count("player_exposed") == 2


def test_a_dealer_setting_of_six_cards_in_the_seven_card_game_is_counted_not_judged_by_house_way() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3).expose_dealer()
    real = t.truth["dealer"]
    t.dealer.hand, t.dealer.high, t.dealer.low = [], real[:5], real[5:6]  # one card gone
    t.hold().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.checks() == ["CARD-COUNT"]
    assert "high 5 / low 1 (6 cards)" in run.of("CARD-COUNT")[0].observed
