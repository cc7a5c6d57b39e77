"""The house-way interpreter: a numba kernel that runs a compiled rule table over card codes.

``rules.houseway`` compiles a house-way YAML file into an int64 table (one row per rule row, the
columns below) and calls ``decide`` (one hand) or ``set_many`` (a batch); there is no other
implementation of the house way.

Hand features (the Joker counts as an Ace here, seed 002 rule 1.1.7, except where it completes
a straight or flush, which ``can_make`` / ``whole_hand`` see through the ranking kernels):
rank groups (five Aces, quads, trips, pairs, singles, each listed high to low), the shape
(which groups there are), the categories some 5-card high hand can make, whether the whole hand
is one straight / flush, whether a Joker is held.

A matching row picks the setting with its action:

* ``PICKS``: the low hand is named by group, e.g. "2nd single + 3rd single" or "2 of quads";
  this gives the low hand's rank value; among the settings with that low value, the best high
  hand (so it does not matter which of two equal cards, or which of Ace and Joker, goes low).
* ``KEEP``: among settings whose high hand is in one of the listed categories and that do not
  foul: the highest low hand, then the best high hand.
* ``BEST_CATEGORY``: among settings that do not foul: the best high-hand category, then the
  highest low hand, then the best high hand.
"""

from __future__ import annotations

import numpy as np

from rules._kernels import (
    CAT_SHIFT,
    FLUSH,
    JOKER,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    _jit,
    fouls,
    high_value5,
    low_value1,
    low_value2,
)

__all__: list[str] = []

SHAPES = (
    "no_pair",
    "one_pair",
    "two_pair",
    "three_pair",
    "trips",
    "full_house",
    "full_house_two_pair",
    "two_trips",
    "quads",
    "quads_pair",
    "quads_trips",
    "five_aces",
    "five_aces_pair",
)
# (five Aces, quads, trips, pairs) group counts of each shape
SHAPE_SIGNATURES = (
    (0, 0, 0, 0),
    (0, 0, 0, 1),
    (0, 0, 0, 2),
    (0, 0, 0, 3),
    (0, 0, 1, 0),
    (0, 0, 1, 1),
    (0, 0, 1, 2),
    (0, 0, 2, 0),
    (0, 1, 0, 0),
    (0, 1, 0, 1),
    (0, 1, 1, 0),
    (1, 0, 0, 0),
    (1, 0, 0, 1),
)


def shape_table() -> np.ndarray:
    """Lookup [n5, n4, n3, n2] -> shape id (-1: impossible)."""
    table = np.full((2, 2, 3, 4), -1, dtype=np.int64)
    for sid, (a, b, c, d) in enumerate(SHAPE_SIGNATURES):
        table[a, b, c, d] = sid
    return table


# Columns of a compiled row.
C_SHAPES = 0  # bitmask over shape ids (0 = any)
C_QUADS_LO, C_QUADS_HI = 1, 2  # rank range of the quads (0 = no condition)
C_TRIPS_LO, C_TRIPS_HI = 3, 4  # highest trips
C_PAIR_LO, C_PAIR_HI = 5, 6  # highest pair
C_PAIR2_LO, C_PAIR2_HI = 7, 8  # second-highest pair
C_TOP1_LO, C_TOP1_HI = 9, 10  # highest single
C_SINGLES_ALL = 11  # rank bitmask (bit = rank value): all of these ranks are held as singles
C_CAN_ANY = 12  # category bitmask: some 5-card high hand is one of these
C_CAN_ALL = 13  # category bitmask: for each of these, some 5-card high hand is it
C_WHOLE = 14  # bit 0: the whole hand is one straight; bit 1: one flush (any of)
C_JOKER = 15  # -1 any, 0 no Joker, 1 a Joker
C_ACTION = 16
C_KEEP = 17  # category bitmask for KEEP
C_NPICKS = 18
C_PICKS = 19  # (group size, index, count) x 2; index -1 = lowest
NCOLS = 25

PICKS = 0
KEEP = 1
BEST_CATEGORY = 2

_SF_CATS = (1 << STRAIGHT) | (1 << FLUSH) | (1 << STRAIGHT_FLUSH) | (1 << ROYAL_FLUSH)

NO_ROW = -1
MISSING_GROUP = -2
NO_SETTING = -3
FOULS = -4  # a row's named low hand outranks the high hand (a bad house-way file)


@_jit
def _in_range(v: int, lo: int, hi: int) -> bool:
    return lo == 0 or (v > 0 and lo <= v <= hi)


@_jit
def _whole_hand(h: np.ndarray, n: int) -> int:
    """Bit 0: the n cards are one n-card straight (Joker filling); bit 1: one flush."""
    mask = 0
    jokers = 0
    suit = -1
    flush = True
    distinct = True
    for i in range(n):
        c = h[i]
        if c == JOKER:
            jokers += 1
            continue
        bit = 1 << ((c >> 2) + 2)
        if mask & bit:
            distinct = False
        mask |= bit
        if suit < 0:
            suit = c & 3
        elif (c & 3) != suit:
            flush = False
    out = 2 if flush else 0
    if distinct:
        full = (1 << n) - 1
        for top in range(14, n, -1):
            window = full << (top - n + 1)
            if (mask & ~window) == 0:
                return out | 1
        # Ace low: A-2-3-4-5(-6-7)
        window = (1 << 14) | (((1 << (n - 1)) - 1) << 2)
        if (mask & ~window) == 0:
            return out | 1
    return out


@_jit
def _sf_possible(h: np.ndarray, n: int) -> bool:
    """Can some five of the cards make a straight or a flush (the Joker filling)? A quick screen."""
    jokers = 0
    mask = 0
    s0 = 0
    s1 = 0
    s2 = 0
    s3 = 0
    for i in range(n):
        c = h[i]
        if c == JOKER:
            jokers += 1
            continue
        mask |= 1 << ((c >> 2) + 2)
        s = c & 3
        if s == 0:
            s0 += 1
        elif s == 1:
            s1 += 1
        elif s == 2:
            s2 += 1
        else:
            s3 += 1
    if max(max(s0, s1), max(s2, s3)) + jokers >= 5:
        return True
    if (mask >> 14) & 1:
        mask |= 2  # the Ace also plays low (A-2-3-4-5)
    for top in range(14, 4, -1):
        window = 0x1F << (top - 4)
        m = mask & window
        k = 0
        while m:
            m &= m - 1
            k += 1
        if k + jokers >= 5:
            return True
    return False


@_jit
def _fill_high(h: np.ndarray, lowpos: np.ndarray, hv: np.ndarray, s: int) -> int:
    """High-hand value of setting ``s`` (stored in ``hv[s]``)."""
    n = h.shape[0]
    a = lowpos[s, 0]
    b = lowpos[s, 1]
    c0 = c1 = c2 = c3 = c4 = 0
    k = 0
    for i in range(n):
        if i != a and i != b:
            v = h[i]
            if k == 0:
                c0 = v
            elif k == 1:
                c1 = v
            elif k == 2:
                c2 = v
            elif k == 3:
                c3 = v
            else:
                c4 = v
            k += 1
    v = high_value5(c0, c1, c2, c3, c4)
    hv[s] = v
    return v


@_jit
def decide(
    h: np.ndarray,
    rows: np.ndarray,
    lowpos: np.ndarray,
    shapes: np.ndarray,
    lv: np.ndarray,
    hv: np.ndarray,
    cnt: np.ndarray,
    grp: np.ndarray,
    gn: np.ndarray,
) -> tuple[int, int]:
    """(row index, setting index) for one hand ``h`` of 6 or 7 codes; row < 0 is an error code."""
    n = h.shape[0]
    nset = lowpos.shape[0]
    two_low = n == 7
    can = 0
    have_hv = False
    sfq = -1
    for s in range(nset):
        a = lowpos[s, 0]
        lv[s] = low_value2(h[a], h[lowpos[s, 1]]) if two_low else low_value1(h[a])
    cnt[:] = 0
    has_joker = 0
    for i in range(n):
        c = h[i]
        if c == JOKER:
            has_joker = 1
            cnt[14] += 1
        else:
            cnt[(c >> 2) + 2] += 1
    gn[:] = 0
    singles = 0
    for r in range(14, 1, -1):
        c = cnt[r]
        if c:
            grp[c, gn[c]] = r
            gn[c] += 1
            if c == 1:
                singles |= 1 << r
    shape = shapes[gn[5], gn[4], gn[3], gn[2]]
    top1 = grp[1, 0] if gn[1] else 0
    quads = grp[4, 0] if gn[4] else 0
    trips = grp[3, 0] if gn[3] else 0
    pair1 = grp[2, 0] if gn[2] else 0
    pair2 = grp[2, 1] if gn[2] > 1 else 0
    whole = -1
    for ri in range(rows.shape[0]):
        row = rows[ri]
        if row[C_SHAPES] and not (row[C_SHAPES] >> shape) & 1:
            continue
        if not _in_range(quads, row[C_QUADS_LO], row[C_QUADS_HI]):
            continue
        if not _in_range(trips, row[C_TRIPS_LO], row[C_TRIPS_HI]):
            continue
        if not _in_range(pair1, row[C_PAIR_LO], row[C_PAIR_HI]):
            continue
        if not _in_range(pair2, row[C_PAIR2_LO], row[C_PAIR2_HI]):
            continue
        if not _in_range(top1, row[C_TOP1_LO], row[C_TOP1_HI]):
            continue
        if (singles & row[C_SINGLES_ALL]) != row[C_SINGLES_ALL]:
            continue
        want_any = row[C_CAN_ANY]
        want_all = row[C_CAN_ALL]
        if want_any or want_all:
            # Straights and flushes are screened cheaply before the settings are valued.
            if ((want_any and (want_any & ~_SF_CATS) == 0) or (want_all & _SF_CATS)) and sfq < 0:
                sfq = 1 if _sf_possible(h, n) else 0
            if sfq == 0 and ((want_any and (want_any & ~_SF_CATS) == 0) or (want_all & _SF_CATS)):
                continue
            if not have_hv:
                for s in range(nset):
                    can |= 1 << (_fill_high(h, lowpos, hv, s) >> CAT_SHIFT)
                have_hv = True
            if want_any and not (can & want_any):
                continue
            if (can & want_all) != want_all:
                continue
        if row[C_JOKER] >= 0 and row[C_JOKER] != has_joker:
            continue
        if row[C_WHOLE]:
            if whole < 0:
                whole = _whole_hand(h, n)
            if not (whole & row[C_WHOLE]):
                continue
        # The row matches: its action picks the setting.
        action = row[C_ACTION]
        best = -1
        best_s = NO_SETTING
        if action == PICKS:
            r1 = 0
            r2 = 0
            for p in range(row[C_NPICKS]):
                size = row[C_PICKS + 3 * p]
                idx = row[C_PICKS + 3 * p + 1]
                count = row[C_PICKS + 3 * p + 2]
                if idx < 0:
                    idx += gn[size]
                if idx < 0 or idx >= gn[size]:
                    return MISSING_GROUP, ri
                rank = grp[size, idx]
                for _ in range(count):
                    if r1 == 0:
                        r1 = rank
                    else:
                        r2 = rank
            if two_low:
                if r1 == r2:
                    target = 256 | (r1 << 4) | r2
                elif r1 > r2:
                    target = (r1 << 4) | r2
                else:
                    target = (r2 << 4) | r1
            else:
                target = r1 << 4
            for s in range(nset):
                if lv[s] == target:
                    v = hv[s] if have_hv else _fill_high(h, lowpos, hv, s)
                    if v > best:
                        best = v
                        best_s = s
        if action != PICKS and not have_hv:
            for s in range(nset):
                _fill_high(h, lowpos, hv, s)
            have_hv = True
        if action == PICKS:
            pass
        elif action == KEEP:
            keep = row[C_KEEP]
            for s in range(nset):
                if (keep >> (hv[s] >> CAT_SHIFT)) & 1 and not fouls(hv[s], lv[s]):
                    key = (lv[s] << 24) | hv[s]
                    if key > best:
                        best = key
                        best_s = s
        else:
            for s in range(nset):
                if not fouls(hv[s], lv[s]):
                    key = ((hv[s] >> CAT_SHIFT) << 33) | (lv[s] << 24) | hv[s]
                    if key > best:
                        best = key
                        best_s = s
        if best_s < 0:
            return NO_SETTING, ri
        if fouls(hv[best_s], lv[best_s]):
            return FOULS, ri
        return ri, best_s
    return NO_ROW, -1


@_jit
def set_many(hands: np.ndarray, rows: np.ndarray, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """House way of each row of an (N, 6 or 7) code array: (low-card position bitmask, row index).

    A negative row index is an error code (no row matched, or a row's pick names a missing group;
    the second array then holds the failing row index, or -1).
    """
    n_hands = hands.shape[0]
    n = hands.shape[1]
    lowpos = np.empty((21 if n == 7 else n, 2), dtype=np.int64)
    s = 0
    if n == 7:
        for i in range(7):
            for j in range(i + 1, 7):
                lowpos[s, 0] = i
                lowpos[s, 1] = j
                s += 1
    else:
        for i in range(n):
            lowpos[i, 0] = i
            lowpos[i, 1] = -1
    lv = np.empty(lowpos.shape[0], dtype=np.int64)
    hv = np.empty(lowpos.shape[0], dtype=np.int64)
    cnt = np.zeros(15, dtype=np.int64)
    grp = np.zeros((6, 8), dtype=np.int64)
    gn = np.zeros(6, dtype=np.int64)
    masks = np.empty(n_hands, dtype=np.int64)
    which = np.empty(n_hands, dtype=np.int64)
    for k in range(n_hands):
        ri, si = decide(hands[k], rows, lowpos, shapes, lv, hv, cnt, grp, gn)
        if ri < 0:
            masks[k] = si
            which[k] = ri
            continue
        m = 1 << lowpos[si, 0]
        if lowpos[si, 1] >= 0:
            m |= 1 << lowpos[si, 1]
        masks[k] = m
        which[k] = ri
    return masks, which
