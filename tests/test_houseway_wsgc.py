"""Seed 000 rule 6 a-h (WSGC 6-card house way): one named test per rule letter.

Seed 000 prints no examples for rule 6; these hands are constructed to exercise each rule, and
the expected settings are read off the rule text (written here independently of the YAML).
"""

from __future__ import annotations

import pytest

from rules.cards import parse_cards
from rules.houseway import HouseWay, load_house_way
from rules.settings import is_foul, setting_from_low, setting_key


@pytest.fixture(scope="module")
def wsgc() -> HouseWay:
    return load_house_way("wsgc-6card")


def check(way: HouseWay, cards: str, low: str, row: str) -> None:
    dealt = parse_cards(cards)
    expected = setting_from_low(dealt, parse_cards(low))
    got = way.set(dealt)
    assert setting_key(got.setting) == setting_key(expected), f"got {got.setting}, rule says {expected}"
    assert got.rule_id == row
    assert not is_foul(got.setting)


def test_wsgc_rule_6a_no_pair_second_highest_low(wsgc: HouseWay) -> None:
    check(wsgc, "Kc 9d 7h 5s 3c 2d", "9d", "6a-no-pair")


def test_wsgc_rule_6b_one_pair_highest_kicker_low(wsgc: HouseWay) -> None:
    check(wsgc, "8c 8d Kh 9s 5c 2d", "Kh", "6b-sets")


def test_wsgc_rule_6b_two_pairs_highest_kicker_low(wsgc: HouseWay) -> None:
    check(wsgc, "Qc Qd 4h 4s Ac 7d", "Ac", "6b-sets")


def test_wsgc_rule_6b_three_of_a_kind_kept(wsgc: HouseWay) -> None:
    check(wsgc, "5c 5d 5h Ks 9c 2d", "Ks", "6b-sets")


def test_wsgc_rule_6b_full_house_kept(wsgc: HouseWay) -> None:
    check(wsgc, "9c 9d 9h 3s 3c Kd", "Kd", "6b-sets")


def test_wsgc_rule_6b_four_of_a_kind_with_pair_kicker_low(wsgc: HouseWay) -> None:
    check(wsgc, "6c 6d 6h 6s Qc Qd", "Qc", "6b-sets")


def test_wsgc_rule_6b_straight_kept_kicker_low(wsgc: HouseWay) -> None:
    check(wsgc, "5c 6d 7h 8s 9c Kd", "Kd", "6b-straight-or-flush")


def test_wsgc_rule_6b_pair_broken_for_straight(wsgc: HouseWay) -> None:
    check(wsgc, "5c 6d 7h 8s 9c 9d", "9d", "6b-straight-or-flush")


def test_wsgc_rule_6c_two_three_of_a_kinds(wsgc: HouseWay) -> None:
    check(wsgc, "Kc Kd Kh 4s 4c 4d", "Kc", "6c-two-three-of-a-kinds")


def test_wsgc_rule_6d_three_pairs(wsgc: HouseWay) -> None:
    check(wsgc, "Jc Jd 7h 7s 2c 2d", "Jc", "6d-three-pairs")


def test_wsgc_rule_6e_six_card_straight(wsgc: HouseWay) -> None:
    check(wsgc, "4c 5d 6h 7s 8c 9d", "9d", "6e-six-card-straight-or-flush")


def test_wsgc_rule_6e_ace_to_six_plays_ace_low(wsgc: HouseWay) -> None:
    got = wsgc.set(parse_cards("Ac 2d 3h 4s 5c 6d"))
    assert [str(c) for c in got.setting.low] == ["Ac"]
    check(wsgc, "Ac 2d 3h 4s 5c 6d", "Ac", "6e-six-card-straight-or-flush")


def test_wsgc_rule_6e_six_card_flush(wsgc: HouseWay) -> None:
    check(wsgc, "Kh Th 8h 6h 4h 2h", "Kh", "6e-six-card-straight-or-flush")


def test_wsgc_rule_6f_straight_and_flush_plays_flush(wsgc: HouseWay) -> None:
    check(wsgc, "9h 8h 7h 5h 2h 6c", "6c", "6f-straight-and-flush")


def test_wsgc_rule_6g_six_card_flush_with_straight_flush(wsgc: HouseWay) -> None:
    check(wsgc, "Kh Qh Jh Th 9h 3h", "3h", "6g-flush-with-straight-flush")


def test_wsgc_rule_6h_joker_as_ace_in_no_pair(wsgc: HouseWay) -> None:
    check(wsgc, "Jk Kc 9d 7h 4s 2c", "Kc", "6a-no-pair")


def test_wsgc_rule_6h_joker_completes_straight(wsgc: HouseWay) -> None:
    check(wsgc, "Jk 5c 6d 7h 8s Kd", "Kd", "6b-straight-or-flush")


def test_wsgc_rule_6h_joker_pairs_with_ace_in_three_pairs(wsgc: HouseWay) -> None:
    check(wsgc, "Ac Jk 7h 7s 2c 2d", "Ac", "6d-three-pairs")


def test_wsgc_rule_6h_joker_completes_six_card_straight(wsgc: HouseWay) -> None:
    check(wsgc, "4c 5d Jk 7s 8c 9d", "9d", "6e-six-card-straight-or-flush")
