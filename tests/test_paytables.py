"""Paytables as data: every seed paytable loads, pays are modelled exactly, bad files are named."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from rules.paytables import (
    BetKind,
    BonusHand,
    Game,
    Pay,
    PayKind,
    PaytableError,
    load_paytable,
    load_paytable_file,
    paytable_names,
)

SEED_TABLES = {
    # seed 003 WSGC 7-card Fortune paytables 1, 2, 3, 4, 6, 7
    "7card-paytable-1", "7card-paytable-2", "7card-paytable-3", "7card-paytable-4", "7card-paytable-6",
    "7card-paytable-7",
    "mbs-fortune-bonus",  # seed 002 4.1.2
    "seed004-fortune-bonus", "seed004-pai-gowd", "seed004-progressive",  # seed 004
    "6card-paytable-1", "6card-paytable-2", "6card-paytable-3", "6card-insurance",  # seed 000
    "FPGPP-WA01", "FPGPP-WA03", "FPGPP-WA07", "FPGPP-ML2", "tiger-9",  # seed 003
    "6card-progressive-paytable-2", "6card-progressive-paytable-3", "6card-progressive-paytable-4",
    "6card-progressive-paytable-5",  # seed 000 progressive
}  # fmt: skip


def test_every_seed_paytable_is_shipped_with_its_source() -> None:
    assert set(paytable_names()) == SEED_TABLES
    for name in SEED_TABLES:
        table = load_paytable(name)
        assert table.source.lower().startswith("seed 00"), name


def test_pay_to_one_returns_the_wager_for_one_does_not() -> None:
    to = Pay.parse("5,000 to 1")
    assert (to.kind, to.amount) == (PayKind.TO_ONE, Decimal(5000))
    assert to.net(Decimal(5)) == Decimal(25000)
    for_ = Pay.parse("500 for 1")
    assert for_.kind is PayKind.FOR_ONE
    assert for_.net(Decimal(1)) == Decimal(499)  # seed 003: "*Original Wager is NOT Returned"
    assert for_.net_units() == Fraction(499)


def test_pay_share_of_meter_needs_the_meter() -> None:
    pct = Pay.parse("10%")
    assert pct.kind is PayKind.METER_PERCENT
    assert pct.net_units() is None
    assert pct.net(Decimal(1), meter=Decimal(20000)) == Decimal(1999)
    with pytest.raises(ValueError, match="meter"):
        pct.net(Decimal(1))


def test_push_and_bad_pay_text() -> None:
    assert Pay.parse("push").net(Decimal(5)) == 0
    with pytest.raises(ValueError, match="to 1"):
        Pay.parse("5 1")


def test_seed_003_paytable_1_three_pair_push_and_envy() -> None:
    t = load_paytable("7card-paytable-1")
    row = t.row_for(BonusHand.THREE_PAIR)
    assert row is not None and row.pays.kind is PayKind.PUSH
    sf7 = t.row_for(BonusHand.SEVEN_CARD_STRAIGHT_FLUSH)
    assert sf7 is not None and sf7.pays.amount == 5000 and sf7.envy == 1000
    assert t.envy is not None and t.envy.min_bet == 5
    assert t.row_for(BonusHand.PAIR) is None


def test_mbs_envy_only_on_seven_card_straight_flush_and_royal_match() -> None:
    t = load_paytable("mbs-fortune-bonus")
    assert t.envy is not None and t.envy.policy == "mbs"
    assert [r.label for r in t.rows if r.envy is not None] == [
        "Seven Card Straight Flush (without Joker)",
        "Royal Match",
    ]


def test_ml2_has_three_meters_and_wa03_pays_any_seven_card_straight_flush() -> None:
    ml2 = load_paytable("FPGPP-ML2")
    assert {r.meter for r in ml2.rows if r.pays.kind is PayKind.METER_PERCENT} == {"Mega", "Major", "Minor"}
    wa03 = load_paytable("FPGPP-WA03")
    assert wa03.row_for(BonusHand.SEVEN_CARD_STRAIGHT_FLUSH) is wa03.row_for(
        BonusHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER
    )


def test_games_and_bets() -> None:
    assert set(paytable_names(game=Game.SIX_CARD, bet=BetKind.INSURANCE)) == {"6card-insurance"}
    assert load_paytable("seed004-pai-gowd").bet is BetKind.PAI_GOWD


def test_unknown_paytable_lists_the_known_ones() -> None:
    with pytest.raises(PaytableError, match="7card-paytable-1"):
        load_paytable("7card-paytable-5")


_GOOD = """\
name: casino-x
title: "House table"
game: seven-card
bet: fortune
source: "a casino sheet"
rows:
  - {label: "Straight", hands: [STRAIGHT], pays: "2 to 1"}
"""


def test_a_casino_can_add_a_paytable_file(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(_GOOD)
    assert load_paytable_file(path).rows[0].pays.amount == 2


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (('pays: "2 to 1"', "pays: 2"), "rows.0.pays"),
        (("[STRAIGHT]", "[STRAIGHTS]"), "rows.0.hands.0"),
        (("game: seven-card", "game: eight-card"), "game"),
        (("rows:\n", "published: {house_edge: {percent: 8.0}}\nrows:\n"), "published.house_edge.percent"),
        (('"2 to 1"}', '"2 to 1", envy: 5}'), "(top level)"),
    ],
)
def test_bad_paytable_file_names_file_and_field(tmp_path: Path, edit: tuple[str, str], field: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(_GOOD.replace(*edit))
    with pytest.raises(PaytableError) as err:
        load_paytable_file(path)
    assert str(path) in str(err.value)
    assert field in str(err.value)


def test_a_hand_paid_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(_GOOD + '  - {label: "Again", hands: [STRAIGHT], pays: "3 to 1"}\n')
    with pytest.raises(PaytableError, match="paid twice"):
        load_paytable_file(path)


def test_not_yaml_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(PaytableError, match=r"broken\.yaml: not valid YAML"):
        load_paytable_file(path)
