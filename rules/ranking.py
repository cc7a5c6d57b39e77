"""Hand ranking for Fortune Pai Gow: high hands (5 cards), low hands (2 or 1 cards), best five.

Rules (seed 002 rule 3.9 and 3.10, seed 000, SPEC.md "Ranking"): standard poker order with Five
Aces (four Aces + Joker) on top; ``A-2-3-4-5`` is the second-highest straight and straight flush
(between ``A-K-Q-J-T`` and ``K-Q-J-T-9``); the Joker is semi-wild (seed 002 rule 1.1.7): it
completes a straight, a flush or a straight flush, and is otherwise an Ace. When the Joker
completes a plain flush it takes the highest rank missing from it (the seeds do not say; this is
the reading that gives the hand its best value). In a low hand the Joker is an Ace.

Values are plain ints (bigger is better, equal ints are copies) computed by the numba kernels of
``rules._kernels`` over card codes; this module is their Python face. ``HandValue`` wraps a
value for people: totally ordered and described (``"Straight, A-2-3-4-5"``).

Fast callers use the kernels directly: ``high_value_kernel(c0, c1, c2, c3, c4)``,
``low_value2_kernel(a, b)``, ``low_value1_kernel(a)``, ``fouls_kernel(high, low)`` and
``best_five_kernel(codes_array)`` take card codes and can be called from other numba functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import total_ordering

import numpy as np

from rules import _kernels as _k
from rules.cards import Card

__all__ = [
    "CATEGORY_SHIFT",
    "HandCategory",
    "HandValue",
    "best_five",
    "best_five_kernel",
    "category_of",
    "describe_high",
    "describe_low",
    "fouls_kernel",
    "high_value",
    "high_value_kernel",
    "high_values_many",
    "low_value",
    "low_value1_kernel",
    "low_value2_kernel",
]

CATEGORY_SHIFT = _k.CAT_SHIFT

high_value_kernel = _k.high_value5
low_value2_kernel = _k.low_value2
low_value1_kernel = _k.low_value1
fouls_kernel = _k.fouls
best_five_kernel = _k.best_five_codes


class HandCategory(IntEnum):
    """Five-card hand categories, lowest to highest (seed 002 rule 3.9)."""

    HIGH_CARD = _k.HIGH_CARD
    ONE_PAIR = _k.ONE_PAIR
    TWO_PAIR = _k.TWO_PAIR
    THREE_OF_A_KIND = _k.THREE_OF_A_KIND
    STRAIGHT = _k.STRAIGHT
    FLUSH = _k.FLUSH
    FULL_HOUSE = _k.FULL_HOUSE
    FOUR_OF_A_KIND = _k.FOUR_OF_A_KIND
    STRAIGHT_FLUSH = _k.STRAIGHT_FLUSH
    ROYAL_FLUSH = _k.ROYAL_FLUSH
    FIVE_ACES = _k.FIVE_ACES

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    HandCategory.HIGH_CARD: "High Card",
    HandCategory.ONE_PAIR: "One Pair",
    HandCategory.TWO_PAIR: "Two Pairs",
    HandCategory.THREE_OF_A_KIND: "Three of a Kind",
    HandCategory.STRAIGHT: "Straight",
    HandCategory.FLUSH: "Flush",
    HandCategory.FULL_HOUSE: "Full House",
    HandCategory.FOUR_OF_A_KIND: "Four of a Kind",
    HandCategory.STRAIGHT_FLUSH: "Straight Flush",
    HandCategory.ROYAL_FLUSH: "Royal Flush",
    HandCategory.FIVE_ACES: "Five Aces",
}
_RANK_CHARS = "??23456789TJQKA"


def _codes(cards: Sequence[Card], sizes: tuple[int, ...], what: str) -> list[int]:
    if len(cards) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise ValueError(f"{what} needs {want} cards, but got {len(cards)}")
    codes = [c.code for c in cards]
    if len(set(codes)) != len(codes):
        raise ValueError(f"{what}: a card appears twice in {[str(c) for c in cards]}")
    return codes


def high_value(cards: Sequence[Card]) -> int:
    """Value of exactly five cards as a high hand (bigger is better; equal ints are copies)."""
    c = _codes(cards, (5,), "high_value")
    return int(_k.high_value5(c[0], c[1], c[2], c[3], c[4]))


def category_of(value: int) -> HandCategory:
    """The category of a high-hand value."""
    return HandCategory(value >> CATEGORY_SHIFT)


def low_value(cards: Sequence[Card]) -> int:
    """Value of a low hand: 2 cards (7-card game) or 1 card (6-card game). The Joker is an Ace."""
    c = _codes(cards, (1, 2), "low_value")
    if len(c) == 2:
        return int(_k.low_value2(c[0], c[1]))
    return int(_k.low_value1(c[0]))


def best_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best five-card hand among 5-7 cards: (value, the five cards in the given order)."""
    c = _codes(cards, (5, 6, 7), "best_five")
    value, mask = _k.best_five_codes(np.asarray(c, dtype=np.int64))
    return int(value), tuple(card for i, card in enumerate(cards) if (int(mask) >> i) & 1)


def high_values_many(hands: np.ndarray) -> np.ndarray:
    """Values of an (N, 5) int array of card codes; (N, 6) or (N, 7) give the best five of each row."""
    arr = np.ascontiguousarray(hands, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise ValueError(f"hands must be an (N, 5..7) array of card codes, but got shape {arr.shape}")
    if arr.shape[1] == 5:
        out: np.ndarray = _k.high_values_many(arr)
    else:
        out = _k.best_five_many(arr)
    return out


def _nibbles(value: int) -> list[int]:
    return [(value >> s) & 15 for s in (16, 12, 8, 4, 0)]


def describe_high(value: int) -> str:
    """``"Straight, A-2-3-4-5"``, ``"One Pair, 8-8-Q-T-2"``, ``"Five Aces"`` ..."""
    cat = category_of(value)
    if cat in (HandCategory.FIVE_ACES, HandCategory.ROYAL_FLUSH):
        return cat.label
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        strength = (value >> 16) & 15
        if strength == 14:
            ranks = [14, 2, 3, 4, 5]
        elif strength == 15:
            ranks = [14, 13, 12, 11, 10]
        else:
            ranks = list(range(strength, strength - 5, -1))
    else:
        ranks = _nibbles(value)
    return f"{cat.label}, {'-'.join(_RANK_CHARS[r] for r in ranks)}"


def describe_low(value: int) -> str:
    """``"Pair of Aces"``, ``"K-Q"`` (two cards) or ``"K"`` (one card)."""
    hi, lo = (value >> 4) & 15, value & 15
    if value >= 256:
        return f"Pair, {_RANK_CHARS[hi]}-{_RANK_CHARS[lo]}"
    if lo == 0:
        return _RANK_CHARS[hi]
    return f"{_RANK_CHARS[hi]}-{_RANK_CHARS[lo]}"


@total_ordering
@dataclass(frozen=True, slots=True)
class HandValue:
    """A high-hand value for people: totally ordered, hashable, described.

    ``HandValue.of(cards)`` takes 5 cards (or 6-7 for the best five).
    """

    value: int

    @classmethod
    def of(cls, cards: Sequence[Card]) -> HandValue:
        if len(cards) == 5:
            return cls(high_value(cards))
        return cls(best_five(cards)[0])

    @property
    def category(self) -> HandCategory:
        return category_of(self.value)

    def describe(self) -> str:
        return describe_high(self.value)

    def __str__(self) -> str:
        return self.describe()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.value < other.value
