"""The exhaustive math: the numba counting kernel against the slow Python reference (which works
over the ``rules.ranking`` API), on random hands and on every hand of reduced decks, and the
house-edge arithmetic on counts worked by hand. The full 154,143,080-hand enumeration is not run
here (benchmarks/math_enumeration.py runs it); the 6-card one (23 M hands) is, marked slow."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest

from rules import _enum_kernel
from rules.cards import DECK, JOKER, Card, parse_cards
from rules.math import (
    HandCounts,
    _brute_force_counts,
    count_bonus_hands,
    paid_hand,
    paytable_math,
)
from rules.paytables import BonusHand, Game, PublishedFigure, load_paytable
from rules.sidebets import bonus_hands


def _kernel_hands(cards: list[Card] | tuple[Card, ...]) -> tuple[BonusHand, ...]:
    five, special = _enum_kernel.classify([c.code for c in cards])
    made = {BonusHand(five)}
    if special:
        made.add(BonusHand(_enum_kernel.SPECIAL_CODES[special]))
    return tuple(sorted(made, reverse=True))


def test_kernel_matches_reference_on_random_hands() -> None:
    rng = random.Random(20240607)
    for _ in range(3000):
        k = rng.choice((6, 7))
        cards = rng.sample(DECK, k)
        if rng.random() < 0.4 and JOKER not in cards:
            cards[0] = JOKER  # the Joker is where the hard cases are
        assert _kernel_hands(cards) == bonus_hands(cards), [str(c) for c in cards]


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "Js Ts 9s 8s 7s 6s 5s",
            {BonusHand.SEVEN_CARD_STRAIGHT_FLUSH, BonusHand.STRAIGHT_FLUSH},
        ),  # seed 002 3.18
        ("As 2s 3s 4s 5s 6s 7s", {BonusHand.SEVEN_CARD_STRAIGHT_FLUSH, BonusHand.STRAIGHT_FLUSH}),
        ("8s 9s Ts Js Qs Ks As", {BonusHand.SEVEN_CARD_STRAIGHT_FLUSH, BonusHand.ROYAL_FLUSH}),
        ("8s 9s Ts Js Qs Jk As", {BonusHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER, BonusHand.ROYAL_FLUSH}),
        ("Ad Kd Qd Jd Td Ks Qs", {BonusHand.ROYAL_FLUSH_ROYAL_MATCH, BonusHand.ROYAL_FLUSH}),  # seed 002 3.18
        (
            "Ad Kd Jk Jd Td Ks Qs",
            {BonusHand.ROYAL_FLUSH_ROYAL_MATCH, BonusHand.ROYAL_FLUSH},
        ),  # Joker in the royal
        ("Ad Kd Qd Jd Td Ks Jk", {BonusHand.ROYAL_FLUSH}),  # the Joker cannot complete the K-Q (1.1.7)
        ("Ad Kd Qd Jd Td Ks Qh", {BonusHand.ROYAL_FLUSH}),  # K-Q not suited
        ("Ac Ah Ad As Jk 2c 3d", {BonusHand.FIVE_ACES}),
        ("2c 2d 5c 5d 9h 9s Kc", {BonusHand.THREE_PAIR, BonusHand.PAIR}),
        ("Ac 2d 5c 5d 9h 9s Jk", {BonusHand.THREE_PAIR, BonusHand.PAIR}),  # the Joker pairs as an Ace
        ("5s 5h 5d 6c 7s 8h 9d", {BonusHand.STRAIGHT, BonusHand.THREE_OF_A_KIND}),
        ("2c 3d 4h 5s 7c 8d", {BonusHand.HIGH_8}),  # SPEC.md: 8-high exists in the 6-card game
        ("2c 3d 4h 9s Tc Jk", {BonusHand.HIGH_A}),  # a lone Joker is an Ace
        ("2c 3d 4h 5s 7c 6d", {BonusHand.STRAIGHT}),
    ],
)
def test_bonus_hands_of_printed_and_edge_hands(text: str, made: set[BonusHand]) -> None:
    cards = parse_cards(text)
    assert set(bonus_hands(cards)) == made
    assert _kernel_hands(cards) == bonus_hands(cards)


@pytest.mark.parametrize(
    ("codes", "k"),
    [
        # every spade, the Joker, and K-Q-A of hearts: seven-card straight flushes and royal matches
        ([4 * r for r in range(13)] + [52, 4 * 11 + 1, 4 * 10 + 1, 4 * 12 + 1], 7),
        # four ranks of every suit and the Joker: quads, full houses, three pair, five Aces
        ([4 * r + s for r in (0, 1, 11, 12) for s in range(4)] + [52], 7),
        ([4 * r + s for r in (3, 4, 5, 6, 9) for s in range(2)] + [52, 48, 49, 50], 6),
    ],
)
def test_kernel_counts_every_hand_of_a_reduced_deck_like_brute_force(codes: list[int], k: int) -> None:
    counts = count_bonus_hands(deck=codes, k=k)
    assert counts.cells == _brute_force_counts(codes, k)
    assert counts.total == sum(counts.cells.values())


def test_bad_deck_or_size_is_refused() -> None:
    with pytest.raises(ValueError, match="hand size"):
        count_bonus_hands(deck=list(range(20)), k=5)
    with pytest.raises(ValueError, match=r"0\.\.52"):
        count_bonus_hands(deck=[1, 2, 99, 3, 4, 5, 6], k=6)


def _counts(cells: dict[str, int], k: int = 7) -> HandCounts:
    return HandCounts(hand_size=k, deck=(), total=sum(cells.values()), cells=cells)


def test_house_edge_arithmetic_by_hand() -> None:
    # 100 hands: 1 royal flush (100 to 1 on MBS), 10 flushes (4 to 1), 89 losers.
    t = load_paytable("mbs-fortune-bonus")
    m = paytable_math(t, _counts({"ROYAL_FLUSH": 1, "FLUSH": 10, "PAIR": 89}))
    # return: (100 + 40 - 89) / 100 = +0.51, so the house edge is -51%
    assert m.house_edge_exact == "-51/1 %"
    assert m.hit_frequency_percent == pytest.approx(11.0)
    assert m.losing_hands == 89


def test_three_pair_pushes_only_when_nothing_pays() -> None:
    t = load_paytable("7card-paytable-1")
    m = paytable_math(t, _counts({"THREE_PAIR+PAIR": 2, "FLUSH+THREE_PAIR": 1, "PAIR": 7}))
    assert m.pushing_hands == 2
    lines = {line.label: line.count for line in m.lines}
    assert lines["Flush"] == 1 and lines["Three Pair Push"] == 2
    assert m.house_edge_exact == "30/1 %"  # (4 - 7) / 10 = -0.3: three pushes never lose
    # Paytable 2 has no push: three pair loses there
    m2 = paytable_math(load_paytable("7card-paytable-2"), _counts({"THREE_PAIR+PAIR": 2, "PAIR": 8}))
    assert m2.house_edge_exact == "100/1 %"


def test_paid_hand_prefers_the_better_pay() -> None:
    t = load_paytable("7card-paytable-2")
    # trips (3 to 1) beside a straight (2 to 1) in the same seven cards: paid as trips
    assert paid_hand(t, (BonusHand.STRAIGHT, BonusHand.THREE_OF_A_KIND)) is BonusHand.THREE_OF_A_KIND
    six = load_paytable("6card-paytable-3")  # straight 8 to 1 beats trips 6 to 1
    assert paid_hand(six, (BonusHand.STRAIGHT, BonusHand.THREE_OF_A_KIND)) is BonusHand.STRAIGHT
    wa07 = load_paytable("FPGPP-WA07")  # no seven-card lines: the royal flush inside pays
    made = (BonusHand.SEVEN_CARD_STRAIGHT_FLUSH, BonusHand.ROYAL_FLUSH)
    assert paid_hand(wa07, made) is BonusHand.ROYAL_FLUSH
    assert paid_hand(load_paytable("FPGPP-WA01"), made) is BonusHand.SEVEN_CARD_STRAIGHT_FLUSH


def test_meter_pays_leave_the_edge_undefined_unless_a_meter_is_given() -> None:
    t = load_paytable("FPGPP-WA07")
    counts = _counts({"FIVE_ACES": 1, "FULL_HOUSE": 9, "PAIR": 90})
    m = paytable_math(t, counts)
    assert m.house_edge_percent is None and "meter" in m.house_edge_note
    assert m.hit_frequency_percent == pytest.approx(10.0)
    m2 = paytable_math(t, counts, meters={"": Fraction(1000)})
    # (999 + 9 * 4 - 90) / 100 = 9.45 per unit: the edge is -945%
    assert m2.house_edge_exact == "-945/1 %"


def test_published_figure_truncation_vs_rounding() -> None:
    from rules.math import _round_like

    truncated = PublishedFigure(percent=Decimal("7.76"), rounding="truncate")
    assert _round_like(Fraction(77699, 10000), truncated) == Decimal("7.76")
    rounded = PublishedFigure(percent=Decimal("7.77"), rounding="round")
    assert _round_like(Fraction(77699, 10000), rounded) == Decimal("7.77")


def test_non_paytable_bets_are_not_enumerated() -> None:
    with pytest.raises(ValueError, match="dealer"):
        paytable_math(load_paytable("seed004-pai-gowd"), _counts({"PAIR": 1}))
    with pytest.raises(ValueError, match="6-card"):
        paytable_math(load_paytable("6card-insurance"), _counts({"PAIR": 1}))


@pytest.mark.slow
def test_six_card_enumeration_reproduces_seed_000() -> None:
    counts = count_bonus_hands(Game.SIX_CARD)
    assert counts.total == 22_957_480
    ins = paytable_math(load_paytable("6card-insurance"), counts)
    assert f"{ins.house_edge_percent:.2f}" == "7.63"
    assert f"{ins.hit_frequency_percent:.2f}" == "15.32"
    p3 = paytable_math(load_paytable("6card-paytable-3"), counts)
    assert f"{p3.house_edge_percent:.2f}" == "8.41" and f"{p3.hit_frequency_percent:.2f}" == "9.11"
    p2 = paytable_math(load_paytable("6card-paytable-2"), counts)
    assert f"{p2.house_edge_percent:.2f}" == "4.01"  # the seed's 4.10% is not reproducible (SPEC.md)
    for m in (ins, p3, p2):
        assert all(f.matches is not False for f in m.figures)


def test_chunking_for_the_progress_bar_does_not_change_the_counts() -> None:
    deck = [4 * r + s for r in range(7, 13) for s in range(4)] + [52]
    seen: list[int] = []
    one = _enum_kernel.count_hands(deck, 6, chunks=1)
    many = _enum_kernel.count_hands(deck, 6, progress=seen.append, chunks=40)
    assert (one == many).all()
    assert sum(seen) == int(one.sum()) and len(seen) > 10
