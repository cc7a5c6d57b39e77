"""Numba kernels for hand ranking over card codes (``rules.cards``: rank_index*4+suit, Joker = 52).

This module is the ONE implementation of hand ranking: ``rules.ranking`` (Python API), the house
ways and the exhaustive math all call these kernels.

Value encodings (plain ints, bigger is better, equal ints are copies):

* High hand (exactly 5 cards): ``category << 20 | tiebreak`` where ``category`` is
  ``rules.ranking.HandCategory`` (0 = high card ... 10 = five Aces) and ``tiebreak`` holds five
  4-bit rank nibbles (2..14) in order of significance: groups by size then rank (``8-8-Q-T-2``,
  ``K-K-K-A-A``), or all five ranks high to low (high card, flush). Straights and straight
  flushes store only a strength nibble (top rank; ``A-2-3-4-5`` = 14 and ``A-K-Q-J-T`` = 15, so
  the wheel is the SECOND-highest straight / straight flush: SPEC.md "Ranking", seed 000 "A2345
  is the second-highest straight").
* Low hand: two cards ``pair << 8 | hi << 4 | lo``; one card ``rank << 4``. The Joker in a low
  hand is an Ace (seed 002 rule 1.1.7; the 6-card player-Joker-low exception, seed 000 rule
  6k / 7a.i, belongs to settlement).

The Joker is semi-wild (seed 002 rule 1.1.7, seed 000 rule 6h): it completes a straight, a flush
or a straight flush; otherwise it is an Ace. A hand is worth the best of these readings. When the
Joker completes a flush that is not a straight flush it takes the HIGHEST rank missing from the
flush (e.g. ``A K Q 9 + Jk`` suited is the flush ``A-K-Q-J-9``); the seeds do not say which rank
the Joker takes in a flush, and this is the reading that gives the hand its best value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

__all__: list[str] = []  # private module; see rules.ranking for the public face

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    """``numba.njit(cache=True)`` with the function's type kept for mypy."""
    return cast(_F, numba.njit(cache=True)(fn))


JOKER = 52

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9
FIVE_ACES = 10

CAT_SHIFT = 20
_BROADWAY = 0x1F00  # T J Q K A as rank-index bits (rank_index = rank - 2)
_WHEEL = 0x100F  # A 2 3 4 5


@_jit
def _straight_strength(mask: int, jokers: int) -> int:
    """Strength (6..15) of the best straight that the rank bits ``mask`` (+ Jokers) make, else 0.

    ``mask`` must hold 5 - jokers distinct ranks. Broadway = 15, wheel = 14, else the top rank.
    """
    if jokers == 0:
        if mask == _BROADWAY:
            return 15
        if mask == _WHEEL:
            return 14
        for top in range(11, 3, -1):  # K-high (index 11) down to 6-high (index 4)
            if mask == (0x1F << (top - 4)):
                return top + 2
        return 0
    if (mask & ~_BROADWAY) == 0:
        return 15
    if (mask & ~_WHEEL) == 0:
        return 14
    for top in range(11, 3, -1):
        if (mask & ~(0x1F << (top - 4))) == 0:
            return top + 2
    return 0


@_jit
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@_jit
def _counts_value(cnt: int) -> int:
    """Value of a 5-card hand from its packed rank counts (4 bits per rank index), no straights/flushes."""
    acc4 = 0
    acc3 = 0
    acc2 = 0
    acc1 = 0
    n4 = 0
    n3 = 0
    n2 = 0
    n1 = 0
    for r in range(12, -1, -1):
        c = (cnt >> (4 * r)) & 15
        if c == 0:
            continue
        rk = r + 2
        if c == 1:
            acc1 = (acc1 << 4) | rk
            n1 += 1
        elif c == 2:
            acc2 = (acc2 << 8) | (rk * 0x11)
            n2 += 1
        elif c == 3:
            acc3 = (acc3 << 12) | (rk * 0x111)
            n3 += 1
        elif c == 4:
            acc4 = (acc4 << 16) | (rk * 0x1111)
            n4 += 1
        else:  # four Aces and the Joker
            return (FIVE_ACES << CAT_SHIFT) | (rk * 0x11111)
    tb = (acc4 << (4 * (3 * n3 + 2 * n2 + n1))) | (acc3 << (4 * (2 * n2 + n1))) | (acc2 << (4 * n1)) | acc1
    if n4:
        cat = FOUR_OF_A_KIND
    elif n3 and n2:
        cat = FULL_HOUSE
    elif n3:
        cat = THREE_OF_A_KIND
    elif n2 == 2:
        cat = TWO_PAIR
    elif n2 == 1:
        cat = ONE_PAIR
    else:
        cat = HIGH_CARD
    return (cat << CAT_SHIFT) | tb


@_jit
def _desc_ranks(mask: int) -> int:
    """Five nibbles: the ranks in ``mask`` (rank-index bits), high to low."""
    acc = 0
    for r in range(12, -1, -1):
        if (mask >> r) & 1:
            acc = (acc << 4) | (r + 2)
    return acc


@_jit
def high_value5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Value of exactly five cards given as codes (see the module doc for the encoding)."""
    jokers = 0
    cnt = 0
    mask = 0
    suit = -1
    flush = True
    for code in (a, b, c, d, e):
        if code == JOKER:
            jokers += 1
            continue
        r = code >> 2
        cnt += 1 << (4 * r)
        mask |= 1 << r
        s = code & 3
        if suit < 0:
            suit = s
        elif s != suit:
            flush = False
    distinct = _popcount(mask) == 5 - jokers
    if jokers == 0:
        base = _counts_value(cnt)
        if not distinct:
            return base
        strength = _straight_strength(mask, 0)
        if strength and flush:
            if strength == 15:
                return (ROYAL_FLUSH << CAT_SHIFT) | (15 << 16)
            return (STRAIGHT_FLUSH << CAT_SHIFT) | (strength << 16)
        if flush:
            return (FLUSH << CAT_SHIFT) | base
        if strength:
            return (STRAIGHT << CAT_SHIFT) | (strength << 16)
        return base
    # One Joker: an Ace (counts), or the card that completes a straight / flush / straight flush.
    best = _counts_value(cnt + (1 << (4 * 12)))
    if distinct:
        strength = _straight_strength(mask, 1)
        if strength and flush:
            if strength == 15:
                return (ROYAL_FLUSH << CAT_SHIFT) | (15 << 16)
            return (STRAIGHT_FLUSH << CAT_SHIFT) | (strength << 16)
        if flush:
            fill = 12
            while (mask >> fill) & 1:
                fill -= 1
            v = (FLUSH << CAT_SHIFT) | _desc_ranks(mask | (1 << fill))
            if v > best:
                best = v
        if strength:
            v = (STRAIGHT << CAT_SHIFT) | (strength << 16)
            if v > best:
                best = v
    return best


@_jit
def low_value2(a: int, b: int) -> int:
    """Value of a 2-card low hand (7-card game): a pair beats no pair, then high card, next card."""
    ra = 14 if a == JOKER else (a >> 2) + 2
    rb = 14 if b == JOKER else (b >> 2) + 2
    if ra == rb:
        return 256 | (ra << 4) | rb
    if ra > rb:
        return (ra << 4) | rb
    return (rb << 4) | ra


@_jit
def low_value1(a: int) -> int:
    """Value of a 1-card low hand (6-card game); the Joker is an Ace here."""
    return (14 if a == JOKER else (a >> 2) + 2) << 4


@_jit
def fouls(high: int, low: int) -> bool:
    """True when the low hand outranks the high hand (values as encoded above).

    Pai Gow comparison (seed 002 rules 1.1.5 / 1.1.8 / 3.7.2, seed 000 rule 5): a no-pair high
    hand is fouled by any low pair, or by a no-pair low whose cards outrank its two highest cards
    (one-card low: its highest card); a one-pair high hand only by a higher low pair. Two pair or
    better never fouls.
    """
    cat = high >> CAT_SHIFT
    if cat == HIGH_CARD:
        if low >= 256:
            return True
        return low > ((high >> 12) & 0xFF)
    if cat == ONE_PAIR:
        return low >= 256 and (low & 15) > ((high >> 16) & 15)
    return False


@_jit
def best_five_codes(codes: np.ndarray) -> tuple[int, int]:
    """Best 5-card value among 5-7 codes, and the bitmask of the positions that make it."""
    n = codes.shape[0]
    best = -1
    best_mask = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                for m in range(k + 1, n):
                    for p in range(m + 1, n):
                        v = high_value5(codes[i], codes[j], codes[k], codes[m], codes[p])
                        if v > best:
                            best = v
                            best_mask = (1 << i) | (1 << j) | (1 << k) | (1 << m) | (1 << p)
    return best, best_mask


@_jit
def high_values_many(hands: np.ndarray) -> np.ndarray:
    """``high_value5`` over an (N, 5) array of codes."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = high_value5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    return out


@_jit
def best_five_many(hands: np.ndarray) -> np.ndarray:
    """Best 5-card value of each row of an (N, 5..7) array of codes."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = best_five_codes(hands[i])[0]
    return out
