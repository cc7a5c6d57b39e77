"""Differential tests: the YAML house ways run by the kernel versus a direct Python reading.

The references below are written straight from the seed text (seed 002 Appendix A; seed 000
rule 6), with no rule table, over every setting of the hand (``all_settings``). Agreement on
thousands of random hands (Joker-rich and rich in pairs, trips and quads too) shows the YAML
rows and their interpreter say what the appendix says, beyond the printed examples.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from rules.cards import DECK, JOKER, Card
from rules.houseway import TableHouseWay, load_house_way
from rules.ranking import HandCategory, category_of, high_value, low_value
from rules.settings import Setting, all_settings, is_foul, setting_key

_SF = {HandCategory.STRAIGHT, HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH}


def _rank(c: Card) -> int:
    return 14 if c.is_joker else c.code // 4 + 2  # an unpaired Joker is an Ace (seed 002 1.1.7)


def _low_ranks(s: Setting) -> list[int]:
    return sorted((_rank(c) for c in s.low), reverse=True)


def _with_low(settings: Sequence[Setting], ranks: list[int]) -> Setting:
    """The setting with these low ranks that leaves the best high hand."""
    want = sorted(ranks, reverse=True)
    return max((s for s in settings if _low_ranks(s) == want), key=lambda s: high_value(s.high))


def _keep_sf(settings: Sequence[Setting]) -> Setting | None:
    """A.5: the highest low hand that leaves a straight, flush, straight or royal flush high."""
    ok = [s for s in settings if category_of(high_value(s.high)) in _SF]
    return max(ok, key=lambda s: (low_value(s.low), high_value(s.high))) if ok else None


def mbs_reference(cards: Sequence[Card]) -> Setting:
    settings = all_settings(cards)
    count = Counter(_rank(c) for c in cards)
    by = {k: sorted((r for r, n in count.items() if n == k), reverse=True) for k in range(1, 6)}
    fives, quads, trips, pairs, singles = by[5], by[4], by[3], by[2], by[1]
    joker = JOKER in cards
    sf = _keep_sf(settings)
    if fives:  # A.8
        return _with_low(settings, [13, 13] if pairs == [13] else [14, 14])
    if quads:  # A.7
        q = quads[0]
        if q == 14 and (pairs or trips):
            return _with_low(settings, [13, 13] if pairs == [13] else [14, 14])
        if pairs:
            return _with_low(settings, [pairs[0]] * 2)
        if trips:
            return _with_low(settings, [trips[0]] * 2)
        if q <= 6 or (q <= 10 and singles[0] == 14):
            return _with_low(settings, singles[:2])
        return _with_low(settings, [q, q])
    if trips:
        if trips == [13] and pairs == [14] and joker and sf is not None:  # A.5 exception
            return sf
        if len(trips) == 2:  # A.4 two trips
            return _with_low(settings, [trips[0]] * 2)
        if len(pairs) == 2:  # A.6 trips + two pairs
            return _with_low(settings, [pairs[0]] * 2)
        if pairs:  # A.6
            if pairs == [2] and 14 in singles and 13 in singles:
                return _with_low(settings, [14, 13])
            return _with_low(settings, [pairs[0]] * 2)
        if sf is not None:  # A.5 three of a kind
            return sf
        if trips == [14]:  # A.4 three Aces
            return _with_low(settings, [14, singles[0]])
        return _with_low(settings, singles[:2])
    if len(pairs) == 3:  # A.3
        return _with_low(settings, [pairs[0]] * 2)
    if len(pairs) == 2:  # A.2

        def cls(r: int) -> str:
            return "L" if r <= 6 else "M" if r <= 10 else "H"

        hi, lo = pairs
        both_high = False
        if hi == 14:
            both_high = False
        elif (cls(hi), cls(lo)) in {("L", "L"), ("M", "L")}:
            both_high = singles[0] >= 13
        elif (cls(hi), cls(lo)) in {("H", "L"), ("M", "M")}:
            both_high = singles[0] == 14
        return _with_low(settings, singles[:2] if both_high else [lo, lo])
    if sf is not None:  # A.5 no pair / one pair
        return sf
    if pairs:  # A.1
        return _with_low(settings, singles[:2])
    return _with_low(settings, singles[1:3])


def wsgc_reference(cards: Sequence[Card]) -> Setting:
    """Seed 000 rule 6, compact reading: best category high, then the highest low card, then best high."""
    fair = [s for s in all_settings(cards) if not is_foul(s)]
    return max(fair, key=lambda s: (category_of(high_value(s.high)), low_value(s.low), high_value(s.high)))


def _hands(n: int, count: int, seed: int) -> list[list[Card]]:
    """Random hands, a third with the Joker, a third built around a repeated rank."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 3 == 0:
            hand = [JOKER, *rng.sample(DECK[:52], n - 1)]
        elif i % 3 == 1:
            rank = rng.randrange(13)
            same = rng.sample(DECK[rank * 4 : rank * 4 + 4], rng.choice([2, 3, 4]))
            rest = [c for c in DECK if c not in same]
            hand = same + rng.sample(rest, n - len(same))
        else:
            hand = rng.sample(DECK, n)
        out.append(hand)
    return out


@pytest.fixture(scope="module")
def mbs() -> TableHouseWay:
    way = load_house_way("mbs-7card")
    assert isinstance(way, TableHouseWay)
    return way


@pytest.fixture(scope="module")
def wsgc() -> TableHouseWay:
    way = load_house_way("wsgc-6card")
    assert isinstance(way, TableHouseWay)
    return way


def test_mbs_yaml_agrees_with_direct_reading_of_appendix_a(mbs: TableHouseWay) -> None:
    hands = _hands(7, 2500, 11)
    hands += [[*DECK[48:52], JOKER, c, d] for c, d in ((DECK[44], DECK[45]), (DECK[40], DECK[36]))]
    for hand in hands:
        got = mbs.set(hand)
        want = mbs_reference(hand)
        assert setting_key(got.setting) == setting_key(want), (hand, got.rule_id, str(got.setting), str(want))


def test_wsgc_yaml_agrees_with_compact_reading_of_rule_6(wsgc: TableHouseWay) -> None:
    for hand in _hands(6, 2500, 12):
        got = wsgc.set(hand)
        want = wsgc_reference(hand)
        assert setting_key(got.setting) == setting_key(want), (hand, got.rule_id, str(got.setting), str(want))
