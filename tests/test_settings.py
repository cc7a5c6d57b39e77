"""Settings: every split of a hand, fouls (low outranks high), and equal-rank keys."""

from __future__ import annotations

import pytest

from rules.cards import parse_cards
from rules.settings import Setting, SettingError, all_settings, is_foul, setting_from_low, setting_key


def s(high: str, low: str) -> Setting:
    return Setting(high=parse_cards(high), low=parse_cards(low))


def test_seven_cards_split_21_ways_six_cards_6_ways() -> None:
    seven = parse_cards("Kc Qh 9s 6h 4c 3d 2s")
    six = parse_cards("Kc Qh 9s 6h 4c 3d")
    assert len(all_settings(seven)) == 21
    assert len(all_settings(six)) == 6
    for setting in (*all_settings(seven), *all_settings(six)):
        assert setting.cards == frozenset(seven if len(setting.low) == 2 else six)
    assert len({frozenset(x.low) for x in all_settings(seven)}) == 21


def test_all_settings_refuses_wrong_count_and_repeats() -> None:
    with pytest.raises(SettingError, match="7 cards"):
        all_settings(parse_cards("Kc Qh 9s 6h 4c"))
    with pytest.raises(SettingError, match="twice"):
        all_settings(parse_cards("Kc Kc 9s 6h 4c 3d 2s", allow_duplicates=True))


def test_low_pair_fouls_a_no_pair_high() -> None:
    assert is_foul(s("Kc Qh 9s 6h 4c", "3d 3s"))


def test_low_pair_fouls_only_a_lower_pair() -> None:
    assert is_foul(s("3c 3h 9s 6h 4c", "Kd Ks"))
    assert not is_foul(s("Kc Kh 9s 6h 4c", "3d 3s"))
    assert not is_foul(s("Ac Ah 9s 6h 4c", "As Jk"))  # equal pairs (Joker = Ace) do not foul
    assert not is_foul(s("3c 3h 2s 2h 4c", "Kd Ks"))  # two pairs beat any low


def test_no_pair_low_fouls_when_above_the_high_hands_top_two() -> None:
    assert is_foul(s("Kc 6h 4c 3d 2s", "Qh 9s")) is False
    assert is_foul(s("Qh 6h 4c 3d 2s", "Kc 9s"))
    assert is_foul(s("Kc 6h 4c 3d 2s", "Kh 9s"))  # K-9 beats K-6
    assert not is_foul(s("Kc 9h 4c 3d 2s", "Kh 9s"))  # K-9 = K-9: a copy, not higher
    assert not is_foul(s("3c 3h 9s 6h 4c", "Ac Kd"))  # any pair beats a no-pair low


def test_one_card_low_fouls_above_the_highest_card() -> None:
    assert is_foul(s("Qh 6h 4c 3d 2s", "Kc"))
    assert not is_foul(s("Kc 6h 4c 3d 2s", "Qh"))
    assert not is_foul(s("Kc 6h 4c 3d 2s", "Kh"))
    assert is_foul(s("Kc 6h 4c 3d 2s", "Jk"))  # the Joker low is an Ace
    assert not is_foul(s("2c 2h 4c 3d 5s", "Ah"))


def test_setting_key_equal_for_copies() -> None:
    dealt = parse_cards("Ac Ah As Kh Qc Jd 2s")
    a = setting_from_low(dealt, parse_cards("As Kh"))
    b = setting_from_low(dealt, parse_cards("Ac Kh"))
    assert a != b
    assert setting_key(a) == setting_key(b)
    assert setting_key(a) != setting_key(setting_from_low(dealt, parse_cards("Ac Ah")))


def test_setting_from_low_refuses_foreign_cards() -> None:
    with pytest.raises(SettingError, match="not 2 of the dealt cards"):
        setting_from_low(parse_cards("Kc Qh 9s 6h 4c 3d 2s"), parse_cards("Ah Kh"))


def test_setting_describe_names_both_hands() -> None:
    text = s("Kc 6h 4c 3d 2s", "Qh 9s").describe()
    assert "High Card, K-6-4-3-2" in text and "Q-9" in text
