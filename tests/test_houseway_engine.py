"""The house-way engine: loading, file errors, plug-ins, the batch API, and properties."""

from __future__ import annotations

import textwrap
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card, parse_cards
from rules.games import GameSpec, get_game
from rules.houseway import (
    HouseWay,
    HouseWayError,
    HouseWayResult,
    TableHouseWay,
    available_house_ways,
    house_way_from_yaml,
    load_house_way,
)
from rules.settings import all_settings, is_foul, setting_from_low, setting_key


@cache
def _shipped(name: str) -> HouseWay:
    return load_house_way(name)


SHIPPED = Path(__file__).resolve().parents[1] / "rules" / "data" / "houseways"


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


def test_shipped_house_ways_are_available() -> None:
    assert {"mbs-7card", "wsgc-6card"} <= set(available_house_ways())


def test_shipped_examples_replay(mbs: TableHouseWay, wsgc: TableHouseWay) -> None:
    assert mbs.check_examples() == []
    assert wsgc.check_examples() == []
    assert sum(len(r.examples) for r in mbs.rows) >= 35


def test_every_seed_section_has_a_row_with_a_citation(mbs: TableHouseWay, wsgc: TableHouseWay) -> None:
    cites = " ".join(r.cite for r in mbs.rows)
    for section in ("A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "A.7", "A.8"):
        assert f"Appendix {section}" in cites
    wcites = " ".join(r.cite for r in wsgc.rows)
    for letter in "abcdefg":
        assert f"rule 6{letter}" in wcites


def test_load_by_path_a_casino_copy_with_a_changed_row(tmp_path: Path) -> None:
    text = (SHIPPED / "mbs-7card.yaml").read_text()
    # The casino keeps both pairs high with a King for Low + High pairs too.
    changed = text.replace(
        "when: {shape: two_pair, pair_rank: J-A, second_pair_rank: 2-6, top_single: A}",
        "when: {shape: two_pair, pair_rank: J-A, second_pair_rank: 2-6, top_single: K-A}",
    ).replace("name: mbs-7card", "name: casino-7card")
    assert changed != text
    path = tmp_path / "casino.yaml"
    path.write_text(changed)
    way = load_house_way(path)
    hand = parse_cards("Qc Qh 5s 5h Kc 6d 4s")
    assert way.name == "casino-7card"
    assert {str(c) for c in way.set(hand).setting.low} == {"Kc", "6d"}
    assert {str(c) for c in load_house_way("mbs-7card").set(hand).setting.low} == {"5s", "5h"}


def _yaml(body: str) -> str:
    return textwrap.dedent(body)


def test_bad_field_error_names_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        _yaml("""
        name: bad
        game: seven-card
        title: t
        source: s
        rows:
          - id: r1
            text: t
            cite: c
            when: {shape: two_pair, pair_rank: Z}
            action: {low: [lowest pair]}
        """)
    )
    with pytest.raises(HouseWayError) as err:
        load_house_way(path)
    msg = str(err.value)
    assert str(path) in msg and "rows.0.when.pair_rank" in msg and "unknown rank" in msg


def test_unknown_condition_and_bad_pick_are_refused() -> None:
    base = """
    name: bad
    game: seven-card
    title: t
    source: s
    rows:
      - id: r1
        text: t
        cite: c
        {when}
        action: {action}
    """
    with pytest.raises(HouseWayError, match=r"rows\.0\.when\.colour"):
        house_way_from_yaml(
            _yaml(base.format(when="when: {colour: red}", action="{low: [2nd single, 3rd single]}"))
        )
    with pytest.raises(HouseWayError, match="cannot read the pick"):
        house_way_from_yaml(_yaml(base.format(when="when: {}", action="{low: [best two cards]}")))
    with pytest.raises(HouseWayError, match="is not there in a 'no_pair' hand"):
        house_way_from_yaml(_yaml(base.format(when="when: {shape: no_pair}", action="{low: [highest pair]}")))
    with pytest.raises(HouseWayError, match="names 1 cards"):
        house_way_from_yaml(_yaml(base.format(when="when: {}", action="{low: [highest single]}")))
    with pytest.raises(HouseWayError, match="exactly one"):
        house_way_from_yaml(_yaml(base.format(when="when: {}", action="{}")))


def test_not_yaml_and_missing_file_errors(tmp_path: Path) -> None:
    with pytest.raises(HouseWayError, match="not valid YAML"):
        house_way_from_yaml("rows: [", origin="x.yaml")
    with pytest.raises(HouseWayError, match="cannot read"):
        load_house_way(tmp_path / "nope.yaml")
    with pytest.raises(HouseWayError, match="unknown house way 'nope'"):
        load_house_way("nope")


def test_incomplete_house_way_names_the_unmatched_hand() -> None:
    way = house_way_from_yaml(
        _yaml("""
        name: partial
        game: six-card
        title: t
        source: s
        rows:
          - id: pairs-only
            text: t
            cite: c
            when: {shape: one_pair}
            action: {low: [highest single]}
        """),
        origin="partial.yaml",
    )
    assert way.set(parse_cards("8c 8d Kh 9s 5c 2d")).rule_id == "pairs-only"
    with pytest.raises(HouseWayError, match=r"partial\.yaml.*no row matches the hand Kc 9d 7h 5s 3c 2d"):
        way.set(parse_cards("Kc 9d 7h 5s 3c 2d"))


class AlwaysHighestLow:
    """A casino's Python house way (6-card): the highest card that does not foul goes low."""

    name = "highest-low"
    game: GameSpec = get_game("six-card")

    def set(self, cards: tuple[Card, ...] | list[Card]) -> HouseWayResult:
        ok = [x for x in all_settings(cards) if not is_foul(x)]
        best = max(ok, key=lambda x: (setting_key(x)[1], setting_key(x)[0]))
        return HouseWayResult(self.name, best, "only", "highest low that does not foul", "casino")


def test_python_house_way_plug_in_by_extra_and_module_path() -> None:
    way = load_house_way("highest-low", extra={"highest-low": AlwaysHighestLow})
    assert isinstance(way, HouseWay)
    assert [str(c) for c in way.set(parse_cards("8c 8d Kh 9s 5c 2d")).setting.low] == ["Kh"]
    way2 = load_house_way(f"{__name__}:AlwaysHighestLow")
    assert way2.name == "highest-low"
    with pytest.raises(HouseWayError, match="not a house way"):
        load_house_way("highest-low", extra={"highest-low": object})


def test_set_refuses_wrong_counts(mbs: TableHouseWay) -> None:
    with pytest.raises(HouseWayError, match="deals 7 cards"):
        mbs.set(parse_cards("Kc Qh 9s 6h 4c 3d"))
    with pytest.raises(HouseWayError, match=r"\(N, 7\)"):
        mbs.set_many(np.zeros((3, 6), dtype=np.int64))


def test_batch_api_agrees_with_per_hand_api(mbs: TableHouseWay) -> None:
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((300, 53)), axis=1)[:, :7]
    masks, rows = mbs.set_many(hands)
    for codes, mask, row in zip(hands, masks, rows, strict=True):
        cards = [Card.from_code(int(c)) for c in codes]
        result = mbs.set(cards)
        assert {cards[i] for i in range(7) if (int(mask) >> i) & 1} == set(result.setting.low)
        assert mbs.rows[int(row)].id == result.rule_id


_seven = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)
_six = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)


@settings(max_examples=400, deadline=None)
@given(_seven)
def test_mbs_setting_uses_exactly_the_dealt_cards_and_never_fouls(cards: list[Card]) -> None:
    way = _shipped("mbs-7card")
    result = way.set(cards)
    assert sorted(c.code for c in (*result.setting.high, *result.setting.low)) == sorted(
        c.code for c in cards
    )
    assert len(result.setting.high) == 5 and len(result.setting.low) == 2
    assert not is_foul(result.setting)
    assert isinstance(way, TableHouseWay)
    assert result.rule_id in {r.id for r in way.rows}


@settings(max_examples=400, deadline=None)
@given(_six)
def test_wsgc_setting_uses_exactly_the_dealt_cards_and_never_fouls(cards: list[Card]) -> None:
    result = _shipped("wsgc-6card").set(cards)
    assert sorted(c.code for c in (*result.setting.high, *result.setting.low)) == sorted(
        c.code for c in cards
    )
    assert len(result.setting.low) == 1
    assert not is_foul(result.setting)


@settings(max_examples=200, deadline=None)
@given(_six)
def test_wsgc_high_hand_is_the_best_category_the_cards_make(cards: list[Card]) -> None:
    # Rule 6b: never break a set (the compact reading documented in wsgc-6card.yaml).
    from rules.ranking import best_five, category_of, high_value

    result = _shipped("wsgc-6card").set(cards)
    assert category_of(high_value(result.setting.high)) == category_of(best_five(cards)[0])


def test_equal_rank_setting_is_compliant(mbs: TableHouseWay) -> None:
    dealt = parse_cards("Ac Ah As Kh Qc Jd 2s")
    house = mbs.set(dealt).setting
    ace_low = next(c for c in house.low if c.rank == 14)
    other_ace = next(c for c in dealt if c.rank == 14 and c != ace_low)
    other = setting_from_low(dealt, [other_ace, *[c for c in house.low if c != ace_low]])
    assert other != house
    assert setting_key(other) == setting_key(house)


def test_a_row_that_fouls_is_refused_naming_row_and_hand() -> None:
    way = house_way_from_yaml(
        _yaml("""
        name: greedy
        game: seven-card
        title: t
        source: s
        rows:
          - id: two-highest-low
            text: the two highest cards low (fouls a no-pair hand)
            cite: c
            when: {shape: no_pair}
            action: {low: [highest single, 2nd single]}
        """),
        origin="greedy.yaml",
    )
    with pytest.raises(HouseWayError, match=r"greedy\.yaml.*'two-highest-low' fouls the hand Kc Qh 9s"):
        way.set(parse_cards("Kc Qh 9s 6h 4c 3d 2s"))
