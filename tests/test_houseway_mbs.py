"""Every printed example of seed 002 Appendix A (MBS house way), one named test each.

Each test deals the seed's seven cards, asks the shipped ``mbs-7card`` house way, and checks the
setting is equal in rank to the seed's (copies are the same setting) and which row decided it.
The expected cards are written here from the seed, independently of the YAML file.
"""

from __future__ import annotations

import pytest

from rules.cards import parse_cards
from rules.houseway import HouseWay, load_house_way
from rules.settings import is_foul, setting_from_low, setting_key


@pytest.fixture(scope="module")
def mbs() -> HouseWay:
    return load_house_way("mbs-7card")


def check(way: HouseWay, cards: str, low: str, high: str, row: str) -> None:
    dealt = parse_cards(cards)
    printed = setting_from_low(dealt, parse_cards(low))
    assert set(printed.high) == set(parse_cards(high)), "transcription of the seed's high hand"
    got = way.set(dealt)
    assert setting_key(got.setting) == setting_key(printed), f"got {got.setting}, seed says {printed}"
    assert got.rule_id == row
    assert not is_foul(got.setting)
    assert got.cite.startswith("seed 002 Appendix A")


# --- A.1 No pair and one pair -----------------------------------------------------------------


def test_mbs_app_a_1_no_pair(mbs: HouseWay) -> None:
    check(mbs, "Kc Qh 9s 6h 4c 3d 2s", "Qh 9s", "Kc 6h 4c 3d 2s", "A.1-no-pair")


def test_mbs_app_a_1_one_pair(mbs: HouseWay) -> None:
    check(mbs, "3c 3h Ks Jh 9c 8d 5s", "Ks Jh", "3c 3h 9c 8d 5s", "A.1-one-pair")


# --- A.2 Two pairs ---------------------------------------------------------------------------


def test_mbs_app_a_two_pair_low_low_with_king(mbs: HouseWay) -> None:
    check(mbs, "4c 4h 2s 2h Kc Qd 7s", "Kc Qd", "4c 4h 2s 2h 7s", "A.2-low-low-or-low-medium-with-king")


def test_mbs_app_a_2_two_pair_low_medium_split(mbs: HouseWay) -> None:
    check(mbs, "8c 8h 6s 6h Qc 9d 7s", "6s 6h", "8c 8h Qc 9d 7s", "A.2-low-low-or-low-medium")


def test_mbs_app_a_2_two_pair_low_high_with_ace(mbs: HouseWay) -> None:
    check(mbs, "Kc Kh 5s 5h Ac 6d 4s", "Ac 6d", "Kc Kh 5s 5h 4s", "A.2-low-high-with-ace")


def test_mbs_app_a_2_two_pair_medium_medium_split(mbs: HouseWay) -> None:
    check(mbs, "Tc Th 8s 8h Kc 9d 2s", "8s 8h", "Tc Th Kc 9d 2s", "A.2-medium-medium")


def test_mbs_app_a_2_two_pair_medium_high_split(mbs: HouseWay) -> None:
    check(mbs, "Jc Jh 9s 9h Ac Kd 3s", "9s 9h", "Jc Jh Ac Kd 3s", "A.2-medium-high")


def test_mbs_app_a_2_two_pair_high_high_split(mbs: HouseWay) -> None:
    check(mbs, "Kc Kh Qs Qh Ac Jd 9s", "Qs Qh", "Kc Kh Ac Jd 9s", "A.2-high-high")


def test_mbs_app_a_2_two_pair_aces_and_any_pair_split(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah 2s 2h Kc Qd Js", "2s 2h", "Ac Ah Kc Qd Js", "A.2-aces-and-any-pair")


# --- A.3 Three pairs -------------------------------------------------------------------------


def test_mbs_app_a_3_three_pairs_highest_pair_low(mbs: HouseWay) -> None:
    check(mbs, "Jc Jh 7s 7h 2c 2d 6s", "Jc Jh", "7s 7h 2c 2d 6s", "A.3-three-pairs")


# --- A.4 Three of a kind ---------------------------------------------------------------------


def test_mbs_app_a_4_three_of_a_kind(mbs: HouseWay) -> None:
    check(mbs, "7c 7h 7s Jh 8c 4d 3s", "Jh 8c", "7c 7h 7s 4d 3s", "A.4-three-of-a-kind")


def test_mbs_app_a_4_three_aces(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Kh Qc Jd 2s", "As Kh", "Ac Ah Qc Jd 2s", "A.4-three-aces")


def test_mbs_app_a_4_two_three_of_a_kinds(mbs: HouseWay) -> None:
    check(mbs, "Tc Th Ts 4h 4c 4d 8s", "Tc Th", "4h 4c 4d Ts 8s", "A.4-two-trips")


# --- A.5 Straights, flushes, straight flushes and royal flushes ------------------------------


def test_mbs_app_a_5_no_pair_straight_highest_two_low(mbs: HouseWay) -> None:
    check(mbs, "Jc Th 8s 7d 6h 5d 4c", "Jc Th", "8s 7d 6h 5d 4c", "A.5-no-pair")


def test_mbs_app_a_5_no_pair_straight_rather_than_flush(mbs: HouseWay) -> None:
    # The seed prints the cards as "K♥,8♥,6♥,5♥,4♥,7,♠3♦" and the high hand as "7,♠6♥,5♥,4♥,3♦".
    check(mbs, "Kh 8h 6h 5h 4h 7s 3d", "Kh 8h", "7s 6h 5h 4h 3d", "A.5-no-pair")


def test_mbs_app_a_5_one_pair_flush_kept_pair_broken(mbs: HouseWay) -> None:
    check(mbs, "Ah 8h 6h 5h 4h Qc 8s", "Qc 8s", "Ah 8h 6h 5h 4h", "A.5-one-pair")


def test_mbs_app_a_5_one_pair_low_with_flush_kept(mbs: HouseWay) -> None:
    check(mbs, "Ah Qh 8h 6h 5h 4h 8s", "8h 8s", "Ah Qh 6h 5h 4h", "A.5-one-pair")


def test_mbs_app_a_5_two_pair_uses_two_pair_rule(mbs: HouseWay) -> None:
    check(mbs, "Qh Th 7h 6h 5h Tc 6s", "6h 6s", "Th Tc Qh 7h 5h", "A.2-low-low-or-low-medium")


def test_mbs_app_a_5_three_pair_uses_three_pair_rule(mbs: HouseWay) -> None:
    # "A♣,@" (Ace + Joker) is the pair of Aces, played low.
    check(mbs, "Ac Jk 2s 2d 3h 3d 4c", "Ac Jk", "3h 3d 2s 2d 4c", "A.3-three-pairs")


def test_mbs_app_a_5_three_of_a_kind_pair_low_straight_high(mbs: HouseWay) -> None:
    check(mbs, "Tc 9h 8s 7d 6h 9d 9c", "9d 9c", "Tc 9h 8s 7d 6h", "A.5-trips")


def test_mbs_app_a_5_full_house_uses_full_house_rule(mbs: HouseWay) -> None:
    check(mbs, "Ah As Jk Kc Kd Qh Jd", "Kc Kd", "Ah As Jk Qh Jd", "A.6-full-house")


def test_mbs_app_a_5_full_house_three_kings_ace_joker_exception(mbs: HouseWay) -> None:
    check(mbs, "Kc Kd Kh Jk As Jd Ts", "Kc Kd", "As Kh Jk Jd Ts", "A.5-full-house-kings-ace-joker")


def test_mbs_app_a_5_four_of_a_kind_uses_four_of_a_kind_rule(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Jk Kd Qh Jd", "Ac Ah", "As Kd Qh Jd Jk", "A.7-quads-J-A")


# --- A.6 Full house --------------------------------------------------------------------------


def test_mbs_app_a_6_full_house_pair_low(mbs: HouseWay) -> None:
    check(mbs, "Kc Kh Ks 2h 2c 7d 6s", "2h 2c", "Kc Kh Ks 7d 6s", "A.6-full-house")


def test_mbs_app_a_6_full_house_pair_of_twos_ace_king(mbs: HouseWay) -> None:
    check(mbs, "Qc Qh Qs 2h 2c Ad Ks", "Ad Ks", "Qc Qh Qs 2h 2c", "A.6-full-house-deuces-ace-king")


def test_mbs_app_a_6_trips_and_two_pairs_highest_pair_low(mbs: HouseWay) -> None:
    check(mbs, "Jc Jh Js 4h 4c 3d 3s", "4h 4c", "Jc Jh Js 3d 3s", "A.6-full-house-two-pairs")


# --- A.7 Four of a kind ----------------------------------------------------------------------


def test_mbs_app_a_7_quads_2_to_6_never_split(mbs: HouseWay) -> None:
    check(mbs, "4c 4h 4s 4d 8h 7d 3c", "8h 7d", "4c 4h 4s 4d 3c", "A.7-quads-2-6")


def test_mbs_app_a_7_quads_7_to_10_split(mbs: HouseWay) -> None:
    check(mbs, "7c 7h 7s 7d Qh Jd 5c", "7c 7h", "7s 7d Qh Jd 5c", "A.7-quads-7-T")


def test_mbs_app_a_7_quads_7_to_10_with_ace_kept_high(mbs: HouseWay) -> None:
    # The seed prints the low hand as "A♥,J" (the Jack's suit is missing; the J♦ was dealt).
    check(mbs, "7c 7h 7s 7d Ah Jd 5c", "Ah Jd", "7c 7h 7s 7d 5c", "A.7-quads-7-T-with-ace")


def test_mbs_app_a_7_quads_jacks_to_aces_always_split(mbs: HouseWay) -> None:
    check(mbs, "Jc Jh Js Jd Qh 9d 4c", "Jc Jh", "Js Jd Qh 9d 4c", "A.7-quads-J-A")


def test_mbs_app_a_7_quads_with_pair(mbs: HouseWay) -> None:
    check(mbs, "Qc Qh Qs Qd 2h 2d 3c", "2h 2d", "Qc Qh Qs Qd 3c", "A.7-quads-with-pair")


def test_mbs_app_a_7_four_aces_with_pair_split(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Ad Qh Qd 9c", "Ac Ah", "As Ad Qh Qd 9c", "A.7-four-aces-with-pair-or-trips")


def test_mbs_app_a_7_four_aces_with_pair_of_kings(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Ad Kh Kd 9c", "Kh Kd", "Ac Ah As Ad 9c", "A.7-four-aces-with-kings")


# --- A.8 Five Aces ---------------------------------------------------------------------------


def test_mbs_app_a_8_five_aces_split(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Ad Jk Qh Qd", "Ac Ah", "As Ad Jk Qh Qd", "A.8-five-aces")


def test_mbs_app_a_8_five_aces_with_pair_of_kings(mbs: HouseWay) -> None:
    check(mbs, "Ac Ah As Ad Jk Kh Kd", "Kh Kd", "Ac Ah As Ad Jk", "A.8-five-aces-with-kings")


# --- Readings of the seed beyond its printed examples (documented in the YAML) ---------------


def test_mbs_reading_lone_joker_counts_as_ace_for_two_pair_rule(mbs: HouseWay) -> None:
    # Low + High pairs "unless holding an Ace or Joker": the Joker alone keeps both pairs high.
    check(mbs, "Kc Kh 5s 5h Jk 6d 4s", "Jk 6d", "Kc Kh 5s 5h 4s", "A.2-low-high-with-ace")


def test_mbs_reading_king_does_not_save_medium_medium(mbs: HouseWay) -> None:
    # Medium + Medium keeps both pairs high only with an Ace or Joker, not a King.
    check(mbs, "9c 9h 7s 7h Kc 4d 2s", "7s 7h", "9c 9h Kc 4d 2s", "A.2-medium-medium")


def test_mbs_reading_joker_completes_straight_with_no_pair(mbs: HouseWay) -> None:
    # K-Q-J-Joker-9: the Joker makes the straight (A.5), so 5-3 go low, not K-Q.
    check(mbs, "Kc Qd Jh Jk 9s 5c 3d", "5c 3d", "Kc Qd Jh Jk 9s", "A.5-no-pair")


def test_mbs_reading_three_kings_ace_joker_without_straight_is_full_house(mbs: HouseWay) -> None:
    # The A.5 exception needs a straight to keep; otherwise the full-house rule: Ace + Joker low.
    check(mbs, "Kc Kd Kh Jk As 5d 3s", "Jk As", "Kc Kd Kh 5d 3s", "A.6-full-house")
