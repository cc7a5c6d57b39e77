"""Hand ranking: seed 002 rule 3.9 / 3.9.1, the Joker (rule 1.1.7), the wheel, low hands, pokerkit."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK, JOKER, parse_cards
from rules.ranking import (
    HandCategory,
    HandValue,
    best_five,
    category_of,
    high_value,
    high_values_many,
    low_value,
)


def hv(text: str) -> int:
    return high_value(parse_cards(text))


def lv(text: str) -> int:
    return low_value(parse_cards(text))


# --- seed 002 rule 3.9.1: printed examples of equal categories -------------------------------


def test_rule_3_9_1_1_queen_high_straight_beats_ten_high_straight() -> None:
    assert hv("Qc Jd Th 9s 8c") > hv("Td 9h 8s 7c 6d")


def test_rule_3_9_1_2_pair_of_eights_queen_kicker_beats_jack_kicker() -> None:
    assert hv("8c 8d Qh Ts 2c") > hv("8h 8s Jd 9c 7d")


def test_rule_3_9_1_3_ace_king_jack_beats_ace_king_ten() -> None:
    assert hv("Ac Kd Jh 4s 2c") > hv("Ad Kh Ts 6c 3d")


# --- seed 002 rule 3.9: the order of the categories, with its printed examples ---------------


def test_rule_3_9_category_order_printed_examples() -> None:
    printed = [
        ("Ac Ah Ad As Jk", HandCategory.FIVE_ACES),
        ("Ad Kd Qd Jd Td", HandCategory.ROYAL_FLUSH),
        ("Kc Qc Jc Tc 9c", HandCategory.STRAIGHT_FLUSH),
        ("Ac Ah Ad As 2c", HandCategory.FOUR_OF_A_KIND),
        ("Kc Kh Kd As Ah", HandCategory.FULL_HOUSE),
        ("Jh 8h 6h 5h 2h", HandCategory.FLUSH),
        ("Ad Ks Qc Jc Td", HandCategory.STRAIGHT),
        ("Ts Th Tc 4d 2s", HandCategory.THREE_OF_A_KIND),
        ("Qs Qh 6c 6h 2d", HandCategory.TWO_PAIR),
        ("Ac Ah 9d 7s 2c", HandCategory.ONE_PAIR),
        ("Jc 8d 6s 4h 2c", HandCategory.HIGH_CARD),
    ]
    values = [hv(cards) for cards, _ in printed]
    assert [category_of(v) for v in values] == [cat for _, cat in printed]
    assert values == sorted(values, reverse=True)


def test_rule_3_9_highest_and_second_highest_straight_flush() -> None:
    # "K♣,Q♣,J♣,10♣,9♣ (Highest Straight Flush)" sits below the royal flush; Q-high is next.
    # Our wheel straight flush goes between them (SPEC.md): royal > A-5 > K-high > Q-high.
    royal, wheel = hv("As Ks Qs Js Ts"), hv("Ah 2h 3h 4h 5h")
    king, queen = hv("Kc Qc Jc Tc 9c"), hv("Qh Jh Th 9h 8h")
    assert royal > wheel > king > queen
    assert category_of(wheel) == HandCategory.STRAIGHT_FLUSH


def test_wheel_is_second_highest_straight() -> None:
    broadway, wheel, king = hv("Ad Ks Qc Jc Td"), hv("Ac 2d 3h 4s 5c"), hv("Kh Qd Jc Ts 9s")
    assert broadway > wheel > king
    assert HandValue(wheel).describe() == "Straight, A-2-3-4-5"


# --- the Joker (seed 002 rule 1.1.7; seed 000 rule 6h) --------------------------------------


def test_joker_with_four_aces_is_five_aces_the_top_hand() -> None:
    assert category_of(hv("Ac Ah Ad As Jk")) == HandCategory.FIVE_ACES
    assert hv("Ac Ah Ad As Jk") > hv("As Ks Qs Js Ts")


def test_joker_completes_straight_flush_and_royal() -> None:
    assert category_of(hv("Ad Kd Qd Jd Jk")) == HandCategory.ROYAL_FLUSH
    assert category_of(hv("9d 8d 7d 5d Jk")) == HandCategory.STRAIGHT_FLUSH
    assert hv("9d 8d 7d 5d Jk") == hv("9h 8h 7h 6h 5h")


def test_joker_completes_straight_taking_the_best_one() -> None:
    # 2-3-4-5 + Joker: the Joker as an Ace makes the wheel, which outranks 2-3-4-5-6.
    assert hv("2c 3d 4h 5s Jk") == hv("Ac 2d 3h 4s 5c")
    assert hv("Kc Qd Jh Ts Jk") == hv("Ad Ks Qc Jc Td")


def test_joker_completes_flush_with_highest_missing_rank() -> None:
    # Documented choice: the Joker takes the highest rank missing from the flush.
    assert hv("Ah Kh Qh 9h Jk") == hv("Ad Kd Qd Jd 9d")
    assert hv("Kh 9h 6h 3h Jk") == hv("As Ks 9s 6s 3s")


def test_joker_is_otherwise_an_ace() -> None:
    assert hv("Jk 2c 2d 7h 9s") == hv("Ac 2h 2s 7d 9c")
    assert hv("Jk Ac Kd 7h 3s") == hv("Ad Ah Kc 7d 3c")
    assert category_of(hv("Jk Ac Ad Kh Ks")) == HandCategory.FULL_HOUSE
    # The Joker does not make a pair with a King.
    assert category_of(hv("Jk Kc 9d 7h 3s")) == HandCategory.HIGH_CARD


def test_joker_in_low_hand_is_an_ace() -> None:
    assert lv("Jk Kc") == lv("Ad Kc")
    assert lv("Jk Ah") == lv("Ac Ad")
    assert lv("Jk") == lv("As")


# --- low hands (seed 002 rule 3.10) ---------------------------------------------------------


def test_rule_3_10_pair_beats_no_pair_then_high_then_next_card() -> None:
    assert lv("2c 2d") > lv("Ac Kd")
    assert lv("Ac Ad") > lv("Kc Kd")
    assert lv("Jc 4h") > lv("Tc 9d")
    assert lv("Jc 5h") > lv("Jd 4c")
    assert lv("Jc 4h") == lv("Jd 4s")  # a copy
    assert lv("Kc") > lv("Qd")


def test_high_value_refuses_wrong_counts_and_repeats() -> None:
    with pytest.raises(ValueError, match="5 cards"):
        high_value(parse_cards("As Ks"))
    with pytest.raises(ValueError, match="twice"):
        high_value(parse_cards("As As Ks Qs Js", allow_duplicates=True))


def test_best_five_of_seven() -> None:
    value, five = best_five(parse_cards("Kc Kd Kh Jk As Jd Ts"))
    assert value == hv("Kc Kd Kh As Jk")  # the full house beats the straight
    assert category_of(value) == HandCategory.FULL_HOUSE
    assert len(five) == 5
    batch = high_values_many(np.array([[c.code for c in parse_cards("Kc Kd Kh Jk As Jd Ts")]]))
    assert int(batch[0]) == value


def test_hand_value_description_and_order() -> None:
    assert str(HandValue.of(parse_cards("8c 8d Qh Ts 2c"))) == "One Pair, 8-8-Q-T-2"
    assert HandValue.of(parse_cards("Ac Ah Ad As Jk")).describe() == "Five Aces"
    a, b = HandValue.of(parse_cards("Ac Kd Jh 4s 2c")), HandValue.of(parse_cards("Ad Kh Ts 6c 3d"))
    assert a > b and b < a and a != b and max(a, b) is a


# --- properties -----------------------------------------------------------------------------

_cards53 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(_cards53, _cards53, _cards53)
def test_ranking_is_a_total_order(a: list, b: list, c: list) -> None:  # type: ignore[type-arg]
    va, vb, vc = HandValue.of(a), HandValue.of(b), HandValue.of(c)
    assert (va < vb) + (va == vb) + (va > vb) == 1
    if va <= vb and vb <= vc:
        assert va <= vc


@settings(max_examples=300, deadline=None)
@given(_cards53, st.permutations(range(5)), st.permutations(range(4)))
def test_value_ignores_order_and_suit_names(cards: list, order: list, suit_perm: list) -> None:  # type: ignore[type-arg]
    # Copies: the same ranks with the suits renamed (and any order) have an equal value.
    renamed = [c if c.is_joker else DECK[(c.code // 4) * 4 + suit_perm[c.code % 4]] for c in cards]
    assert high_value([renamed[i] for i in order]) == high_value(cards)


# --- differential test against pokerkit (Joker-free hands) ----------------------------------


def _pokerkit_order_key(value: int) -> tuple[int, int]:
    """Our value re-mapped to pokerkit's order: pokerkit ranks the wheel LOWEST (5-high) and has
    no royal-flush category; we rank the wheel second-highest (SPEC.md). Nothing else differs."""
    cat, strength = category_of(value), (value >> 16) & 15
    if cat == HandCategory.ROYAL_FLUSH:
        return (int(HandCategory.STRAIGHT_FLUSH), 14 << 16)
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        return (int(cat), (5 if strength == 14 else 14 if strength == 15 else strength) << 16)
    return (int(cat), value & 0xFFFFF)


def test_differential_against_pokerkit_on_joker_free_hands() -> None:
    from pokerkit import StandardHighHand

    rng = random.Random(20260321)
    faces = [c for c in DECK if not c.is_joker]
    hands = [rng.sample(faces, 5) for _ in range(4000)]
    # Make sure straights, flushes, wheels and full houses are in the sample.
    hands += [
        list(parse_cards(t))
        for t in (
            "Ac 2d 3h 4s 5c",
            "Ah 2h 3h 4h 5h",
            "As Ks Qs Js Ts",
            "6c 2d 3h 4s 5c",
            "Kh Kd Ks 2c 2d",
            "Jh 8h 6h 5h 2h",
        )
    ]
    ours = [_pokerkit_order_key(high_value(h)) for h in hands]
    theirs = [StandardHighHand("".join(str(c) for c in h)) for h in hands]
    # Two total orders agree iff sorting by ours leaves theirs sorted with the same ties:
    # comparing neighbours is enough (both orders are transitive).
    order = sorted(range(len(hands)), key=lambda i: ours[i])
    for i, j in itertools.pairwise(order):
        if ours[i] == ours[j]:
            assert theirs[i] == theirs[j], (hands[i], hands[j])
        else:
            assert theirs[i] < theirs[j], (hands[i], hands[j])


def test_joker_never_worse_than_as_an_ace() -> None:
    rng = random.Random(7)
    faces = [c for c in DECK if not c.is_joker]
    for _ in range(500):
        four = rng.sample([c for c in faces if c.rank is not None and c.rank != 14], 4)
        aces = [c for c in faces if c.rank == 14 and c not in four]
        assert high_value([*four, JOKER]) >= high_value([*four, aces[0]])


def test_all_joker_free_five_card_hands_have_the_textbook_category_counts() -> None:
    # C(52, 5) = 2,598,960 hands; standard frequencies (royal flush split out of straight flush).
    import numba

    from rules.ranking import high_value_kernel

    @numba.njit
    def count_all() -> np.ndarray:
        out = np.zeros(11, dtype=np.int64)
        for a in range(52):
            for b in range(a + 1, 52):
                for c in range(b + 1, 52):
                    for d in range(c + 1, 52):
                        for e in range(d + 1, 52):
                            out[high_value_kernel(a, b, c, d, e) >> 20] += 1
        return out

    counts = count_all()
    assert counts.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4, 0]
