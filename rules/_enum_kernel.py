"""Numba kernels: classify a whole hand for the paytables, and count every hand of a deck.

Card codes as ``rules.cards`` (rank_index * 4 + suit_index, 52 = Joker). A hand is classified
into two numbers:

* ``five``: the ``BonusHand`` value of its best five-card poker hand (HIGH_8 .. FIVE_ACES; the
  Joker completes a straight or flush, otherwise it is an Ace, SPEC.md "Ranking");
* ``special``: 0 none, or one of the hands over all the cards that some paytables name:
  1 three pair (seed 003 Paytable 1), 2 seven-card straight flush with Joker, 3 Royal Flush +
  Royal Match (seed 002 1.1.9), 4 seven-card straight flush without Joker, 5 three of a kind
  beside a better straight or flush (another five of the cards make it; the Fortune paytables pay
  three of a kind more than a straight, and the seed 003 house edges pay the player the better).

The counting kernel enumerates every ``k``-card hand of a deck (parallel over the first card)
and counts each (special, five) pair once; paytables are applied to the counts afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

__all__ = ["N_FIVE", "N_SPECIAL", "SPECIAL_CODES", "classify", "count_hands"]

N_FIVE = 17  # BonusHand.HIGH_8 (0) .. BonusHand.FIVE_ACES (16)
N_SPECIAL = 6
# special index -> BonusHand value (0 = none)
SPECIAL_CODES = (-1, 8, 17, 18, 19, 9)

# BonusHand values of the best-five categories (rules.paytables.BonusHand)
_HIGH_8, _PAIR, _TRIPS, _STRAIGHT, _FLUSH = 0, 7, 9, 10, 11
_FULL, _QUADS, _SF, _RF, _FIVE_ACES = 12, 13, 14, 15, 16
_JOKER = 52
_ACE = 12

_POP = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
# Five-card straights: wheel A-2-3-4-5 (second highest, but a straight all the same), 2-6 .. T-A.
_W5 = np.array([(1 << 12) | 0xF] + [0x1F << lo for lo in range(9)], dtype=np.int64)
_ROYAL = 0x1F << 8
# Seven-card straights: A-2-..-7, then 2-8 .. 8-A.
_W7 = np.array([(1 << 12) | 0x3F] + [0x7F << lo for lo in range(7)], dtype=np.int64)
_KQ = (1 << 11) | (1 << 10)


@njit(cache=True, nogil=True)
def _classify(hand: np.ndarray, n: int, pop: np.ndarray, w5: np.ndarray, w7: np.ndarray) -> tuple[int, int]:
    s0 = 0
    s1 = 0
    s2 = 0
    s3 = 0
    cnt = np.zeros(13, dtype=np.int64)
    j = 0
    for i in range(n):
        c = hand[i]
        if c == _JOKER:
            j = 1
            continue
        r = c >> 2
        cnt[r] += 1
        bit = 1 << r
        s = c & 3
        if s == 0:
            s0 |= bit
        elif s == 1:
            s1 |= bit
        elif s == 2:
            s2 |= bit
        else:
            s3 |= bit
    suits = (s0, s1, s2, s3)

    # Straight flush / royal flush (per suit, the Joker filling at most one gap).
    sf = False
    rf_suit = -1
    flush = False
    for si in range(4):
        m = suits[si]
        pm = pop[m]
        if pm + j >= 5:
            flush = True
            for wi in range(w5.shape[0]):
                if pop[m & w5[wi]] + j >= 5:
                    sf = True
                    if w5[wi] == _ROYAL:
                        rf_suit = si

    special = 0
    if n >= 7:
        for si in range(4):
            m = suits[si]
            if pop[m] + j >= 7:
                for wi in range(w7.shape[0]):
                    pw = pop[m & w7[wi]]
                    if pw >= 7:
                        special = 4
                    elif pw == 6 and j == 1 and special < 2:
                        special = 2
    if special == 0 and rf_suit >= 0 and n >= 7:
        # Royal Match: a natural suited K-Q beside the royal flush (seed 002 1.1.7, 1.1.9).
        for si in range(4):
            if si != rf_suit and (suits[si] & _KQ) == _KQ:
                special = 3

    # Rank multiplicities with the Joker as an Ace.
    n3 = 0
    n2 = 0
    quads = cnt[_ACE] + j >= 4
    top = -1
    for r in range(13):
        cr = cnt[r] + (j if r == _ACE else 0)
        if cr >= 4:
            quads = True
        if cr >= 3:
            n3 += 1
        elif cr == 2:
            n2 += 1
        if cr > 0:
            top = r
    if special == 0 and n2 == 3:
        special = 1

    if j == 1 and cnt[_ACE] == 4:
        return _FIVE_ACES, special
    if rf_suit >= 0:
        return _RF, special
    if sf:
        return _SF, special
    if quads:
        return _QUADS, special
    if n3 >= 2 or (n3 >= 1 and n2 >= 1):
        return _FULL, special
    if flush:
        return _FLUSH, (5 if special == 0 and n3 >= 1 else special)
    ranks = s0 | s1 | s2 | s3
    for wi in range(w5.shape[0]):
        if pop[ranks & w5[wi]] + j >= 5:
            return _STRAIGHT, (5 if special == 0 and n3 >= 1 else special)
    if n3 >= 1:
        return _TRIPS, special
    if n2 >= 1:
        return _PAIR, special
    # No pair: the high card (6 or 7 distinct ranks without a straight always reach an 8).
    return max(top - 6, 0) + _HIGH_8, special


@njit(cache=True, parallel=True)
def _count_pairs(
    deck: np.ndarray, k: int, pairs: np.ndarray, pop: np.ndarray, w5: np.ndarray, w7: np.ndarray
) -> np.ndarray:
    """Counts over every hand whose two lowest cards are one of ``pairs`` (deck indices)."""
    n = deck.shape[0]
    out = np.zeros((pairs.shape[0], N_SPECIAL, N_FIVE), dtype=np.int64)
    m = k - 2
    for p in prange(pairs.shape[0]):
        hand = np.empty(k, dtype=np.int64)
        hand[0] = deck[pairs[p, 0]]
        hand[1] = deck[pairs[p, 1]]
        base = pairs[p, 1] + 1
        if base + m > n:
            continue
        idx = np.empty(m, dtype=np.int64)
        for t in range(m):
            idx[t] = base + t
        while True:
            for t in range(m):
                hand[t + 2] = deck[idx[t]]
            f, s = _classify(hand, k, pop, w5, w7)
            out[p, s, f] += 1
            # next combination of m indices from base .. n-1
            t = m - 1
            while t >= 0 and idx[t] == n - m + t:
                t -= 1
            if t < 0:
                break
            idx[t] += 1
            for u in range(t + 1, m):
                idx[u] = idx[u - 1] + 1
    total: np.ndarray = out.sum(axis=0)
    return total


def classify(codes: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(five, special) of one hand of card codes (the kernel's own classification)."""
    hand = np.asarray(codes, dtype=np.int64)
    f, s = _classify(hand, hand.shape[0], _POP, _W5, _W7)
    return int(f), int(s)


def count_hands(
    deck: np.ndarray, k: int, progress: Callable[[int], None] | None = None, chunks: int = 48
) -> np.ndarray:
    """Counts[special, five] over every ``k``-card hand of ``deck`` (sorted card codes, k >= 3).

    The work is cut into ``chunks`` of about equal numbers of hands (by their two lowest cards);
    ``progress(hands_done)`` is called after each.
    """
    from math import comb

    codes = np.asarray(deck, dtype=np.int64)
    n = codes.shape[0]
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if n - b - 1 >= k - 2]
    weights = [comb(n - b - 1, k - 2) for _, b in pairs]
    total = sum(weights)
    out = np.zeros((N_SPECIAL, N_FIVE), dtype=np.int64)
    target = max(1, total // max(1, chunks))
    i = 0
    while i < len(pairs):
        j = i
        acc = 0
        while j < len(pairs) and (acc < target or j == i):
            acc += weights[j]
            j += 1
        block = np.asarray(pairs[i:j], dtype=np.int64).reshape(-1, 2)
        out += _count_pairs(codes, k, block, _POP, _W5, _W7)
        if progress is not None:
            progress(acc)
        i = j
    return out
