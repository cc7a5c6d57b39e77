"""Side bets: Fortune, Insurance, progressive, Envy Bonus, Double Down, Pai Gow'd, Tiger 9."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.cards import parse_cards
from rules.paytables import load_paytable
from rules.sidebets import (
    BetName,
    EnvyHand,
    Outcome,
    dealer_qualifies_for_double_down,
    double_down_bet,
    envy_bonuses,
    pai_gowd_bet,
    paytable_bet,
    tiger_9_bet,
)

D = Decimal


def test_fortune_pays_to_one_on_the_whole_hand() -> None:
    r = paytable_bet(
        BetName.FORTUNE, load_paytable("7card-paytable-2"), parse_cards("Ad Kd Qd Jd Td Ks Qs"), D(5)
    )
    assert (r.outcome, r.net, r.hand) == (Outcome.WIN, D(10000), "Royal Flush + Royal Match")


def test_fortune_loses_below_the_paytable_and_three_pair_pushes_on_paytable_1() -> None:
    cards = parse_cards("2c 2d 5c 5d 9h 9s Kc")
    lose = paytable_bet(BetName.FORTUNE, load_paytable("7card-paytable-2"), cards, D(5))
    assert (lose.outcome, lose.net) == (Outcome.LOSE, D(-5))
    push = paytable_bet(BetName.FORTUNE, load_paytable("7card-paytable-1"), cards, D(5))
    assert (push.outcome, push.net) == (Outcome.PUSH, D(0))


def test_six_card_insurance_pays_by_high_card() -> None:
    table = load_paytable("6card-insurance")
    r = paytable_bet(BetName.INSURANCE, table, parse_cards("2c 3d 4h 5s 7c 8d"), D(1))
    assert (r.outcome, r.net, r.hand) == (Outcome.WIN, D(100), "8-high")
    ace = paytable_bet(BetName.INSURANCE, table, parse_cards("2c 3d 4h 9s Tc Ad"), D(1))
    assert ace.outcome is Outcome.LOSE


def test_progressive_for_one_and_meter_share() -> None:
    wa01 = load_paytable("FPGPP-WA01")
    full = paytable_bet(BetName.PROGRESSIVE, wa01, parse_cards("Kc Kd Ks 4h 4d 2c 9s"), D(1))
    assert full.net == D(5)  # 6 for 1, the wager not returned
    sf7 = parse_cards("Js Ts 9s 8s 7s 6s 5s")
    unknown = paytable_bet(BetName.PROGRESSIVE, wa01, sf7, D(1))
    assert unknown.outcome is Outcome.WIN and unknown.net is None and "meter" in unknown.detail
    known = paytable_bet(BetName.PROGRESSIVE, wa01, sf7, D(1), meters={"": D(25000)})
    assert known.net == D(24999)
    ml2 = load_paytable("FPGPP-ML2")
    mega = paytable_bet(BetName.PROGRESSIVE, ml2, sf7, D(1), meters={"Mega": D(90000), "Minor": D(5)})
    assert mega.net == D(89999)


def _hands(*specs: tuple[int, str, int]) -> list[EnvyHand]:
    return [EnvyHand(seat=s, cards=parse_cards(c), wager=D(w)) for s, c, w in specs]


def test_wsgc_envy_needs_five_dollars_and_never_pays_for_own_hand() -> None:
    # seed 003 rules 3 and 7.a: four of a kind or better; $5 minimum; not one's own hand
    table = load_paytable("7card-paytable-1")
    players = _hands(
        (1, "9c 9d 9h 9s 2c 3d 5h", 5), (2, "Kc Qd 8s 6h 4c 3h 2s", 5), (3, "Kh Jd 8c 6d 4s 3c 2d", 4)
    )
    out = envy_bonuses(table, players, parse_cards("Ac Ad Ah As Jk 7c 7d"))
    assert out[1] == []  # own hand; the dealer's five Aces never count
    assert [(r.net, r.hand) for r in out[2]] == [(D(5), "4 of a Kind")]
    assert out[3] == []  # only $4 on the Fortune


def test_wsgc_envy_pays_once_per_qualifying_hand() -> None:
    table = load_paytable("6card-paytable-1")
    players = _hands((1, "9c 9d 9h 9s 2c 3d", 5), (2, "Kc Kd Ks 6h 6c 3h", 5), (3, "Kh Jd 8c 6d 4s 3c", 10))
    out = envy_bonuses(table, players, parse_cards("2h 4h 7c 8d Td Qs"))
    assert sorted(r.net for r in out[3]) == [D(5), D(15)]  # full house $5, four of a kind $15
    assert [r.net for r in out[1]] == [D(5)] and [r.net for r in out[2]] == [D(15)]


MBS = load_paytable("mbs-fortune-bonus")
SF7 = "Js Ts 9s 8s 7s 6s 5s"
MATCH = "Ad Kd Qd Jd Td Kh Qh"
OTHER = "2c 3c 4d 6h 8c 9d Jc"


def test_mbs_3_18_envy_for_another_players_seven_card_straight_flush() -> None:
    out = envy_bonuses(
        MBS,
        _hands((1, SF7, 1), (2, OTHER, 1), (3, "2d 3h 4c 6c 8d 9h Kc", 0)),
        parse_cards("2h 3d 4s 6d 8h 9c Ac"),
    )
    assert [r.net for r in out[2]] == [D(250)]
    assert out[1] == [] and out[3] == []  # own hand (3.18.1.2); no Fortune Bonus wager


def test_mbs_3_18_1_1_no_envy_when_the_dealer_has_one() -> None:
    out = envy_bonuses(MBS, _hands((1, MATCH, 1), (2, OTHER, 1)), parse_cards("As Ks Qs Js Ts Kc Qc"))
    assert out == {1: [], 2: []}


def test_mbs_3_18_1_3_royal_match_holder_envies_only_a_seven_card_straight_flush() -> None:
    players = _hands((1, MATCH, 1), (2, SF7, 1), (3, "Ac Kc Qc Jc Tc Ks Qs", 1))
    dealer = parse_cards("2h 3d 4c 6d 8h 9c 2d")
    out = envy_bonuses(MBS, players, dealer)
    assert sorted(r.net for r in out[1]) == [D(250)]  # seat 2's SF7 yes, seat 3's royal match no
    assert out[2] == []  # 3.18.1.2
    assert sorted(r.net for r in out[3]) == [D(250)]


def test_double_down_needs_a_pair_of_eights() -> None:
    assert dealer_qualifies_for_double_down(parse_cards("8c 8d 4h 3s 2c"))
    assert not dealer_qualifies_for_double_down(parse_cards("7c 7d Ah Ks Qc"))
    assert dealer_qualifies_for_double_down(parse_cards("3c 3d 2h 2s Qc"))  # two pairs beat a pair of 8s
    push = double_down_bet(D(10), parse_cards("7c 7d Ah Ks Qc"), Outcome.WIN)
    assert (push.outcome, push.net) == (Outcome.PUSH, D(0))
    assert double_down_bet(D(10), parse_cards("9c 9d Ah Ks Qc"), Outcome.LOSE).net == D(-10)


def test_pai_gowd_pays_by_the_dealers_high_card_when_the_player_beats_him() -> None:
    t = load_paytable("seed004-pai-gowd")
    dealer = parse_cards("9c 8d 7h 6s 4c 3d 2h")  # nine-high: no pair, no straight (no 5)
    win = pai_gowd_bet(t, D(5), dealer, parse_cards("9c 6s 4c 3d 2h"), parse_cards("Kc Kd 4s 3h 2s"))
    assert (win.outcome, win.net, win.hand) == (Outcome.WIN, D(500), "Nine-High")
    lose = pai_gowd_bet(t, D(5), dealer, parse_cards("9c 6s 4c 3d 2h"), parse_cards("8c 7c 4s 3h 2s"))
    assert lose.outcome is Outcome.LOSE
    paired = parse_cards("9c 9d 6h 5s 3c 2d 4h")
    assert pai_gowd_bet(t, D(5), paired, paired[:5], parse_cards("Kc Kd Ks 3h 2h")).outcome is Outcome.LOSE


@pytest.mark.parametrize(
    ("dealer_low", "player_low", "outcome"),
    [("9c 4d", "Tc 2d", Outcome.WIN), ("9c 4d", "9h 4s", Outcome.LOSE), ("Tc 4d", "Ac Kd", Outcome.LOSE)],
)
def test_tiger_9(dealer_low: str, player_low: str, outcome: Outcome) -> None:
    r = tiger_9_bet(load_paytable("tiger-9"), D(5), parse_cards(dealer_low), parse_cards(player_low))
    assert r.outcome is outcome
    assert r.net == (D(150) if outcome is Outcome.WIN else D(-5))
