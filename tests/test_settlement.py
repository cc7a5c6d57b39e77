"""Settlement of a round: standard wager, copies, commission, foul policies, every side bet, and
hypothesis properties for the symmetries the rules promise."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK, format_cards
from rules.settings import all_settings, is_foul
from rules.settlement import (
    DealerHand,
    FoulPolicy,
    PlayerHand,
    RoundResult,
    SettlementError,
    TableOptions,
    Variant,
    Wagers,
    settle_round,
)
from rules.sidebets import BetName, BetResult, Outcome

D = Decimal
SEVEN = TableOptions(game="seven-card")
SIX = TableOptions(game="six-card")
# Dealer: no pair, Kc 6h 4c 3d 2s / Qh 9s by the house way (seed 002 Appendix A.1 example)
DEALER7 = DealerHand(cards="Kc Qh 9s 6h 4c 3d 2s")


def _player(seat: int, cards: str, low: str | None = None, **wagers: int) -> PlayerHand:
    w = {"main": 10, **wagers}
    return PlayerHand(seat=seat, cards=cards, low=low, wagers=Wagers(**{k: D(v) for k, v in w.items()}))


def _bet(result: RoundResult, seat: int, bet: BetName) -> list[BetResult]:
    s = next(s for s in result.seats if s.seat == seat)
    return [b for b in s.bets if b.bet is bet]


def test_win_both_pays_one_to_one_less_five_percent_commission() -> None:
    # seed 002 3.12 and 4.1.1
    r = settle_round(SEVEN, DEALER7, [_player(1, "Ac Ad 8s 7h 5c Kh Kd", low="Kh Kd")])
    (main,) = _bet(r, 1, BetName.MAIN)
    assert (main.outcome, main.net, main.commission) == (Outcome.WIN, D("9.5"), D("0.5"))


def test_seed_004_waives_commission_with_a_five_dollar_fortune_or_pai_gowd_bet() -> None:
    opts = TableOptions(game="seven-card", commission_waiver_min_bonus=D(5))
    r = settle_round(
        opts,
        DEALER7,
        [
            _player(1, "Ac Ad 8s 7h 5c Kh Kd", low="Kh Kd", fortune=5),
            _player(2, "Jc Jd 8c 7d 5d Th Td", low="Th Td", pai_gowd=5),
            _player(3, "Js Jh 8d 7c 5s Ts Tc", low="Ts Tc", fortune=4),
        ],
    )
    assert _bet(r, 1, BetName.MAIN)[0].net == D(10)
    assert _bet(r, 2, BetName.MAIN)[0].net == D(10)
    assert _bet(r, 3, BetName.MAIN)[0].net == D("9.5")


def test_lose_both_and_push() -> None:
    dealer = DealerHand(cards="Ac Ad 8s 7h 5c Kh Kd", low="Kh Kd")
    r = settle_round(
        SEVEN, dealer, [_player(1, "Kc Qh 9s 6h 4c 3d 2s"), _player(2, "Qc Qd Jh Th 2c As 3s", low="As 3s")]
    )
    assert _bet(r, 1, BetName.MAIN)[0].outcome is Outcome.LOSE
    assert _bet(r, 1, BetName.MAIN)[0].net == D(-10)
    # seat 2: Q-Q high loses to A-A, A-3 low... loses to K-K: both lose. Check a push instead:
    r2 = settle_round(SEVEN, dealer, [_player(2, "9c 9d 2h 3h 4s As Qs", low="As Qs")])
    assert r2.seats[0].high_matchup is Outcome.LOSE
    dealer2 = DealerHand(cards="Ac 2d 8s 7h 5c Kh Qd", low="Kh Qd")
    r3 = settle_round(SEVEN, dealer2, [_player(2, "9c 9d 2h 3h 4s Js Ts", low="Js Ts")])
    assert (r3.seats[0].high_matchup, r3.seats[0].low_matchup) == (Outcome.WIN, Outcome.LOSE)
    assert _bet(r3, 2, BetName.MAIN)[0].outcome is Outcome.PUSH


def test_copies_go_to_the_dealer() -> None:
    # seed 002 3.15: identical low hands (K-Q) go to the dealer, so win one / lose one is a push
    dealer = DealerHand(cards="Kc Qh 9s 6h 4c 3d 2s", high="9s 6h 4c 3d 2s", low="Kc Qh")
    r = settle_round(SEVEN, dealer, [_player(1, "Kd Qs Ah Ad 7c 8c Tc", low="Kd Qs")])
    assert r.seats[0].low_matchup is Outcome.LOSE and "copy" in r.seats[0].matchup_detail
    assert _bet(r, 1, BetName.MAIN)[0].outcome is Outcome.PUSH
    assert not r.dealer_follows_house_way  # the dealer played K-Q low against Appendix A.1


def test_six_card_joker_in_the_player_low_beats_a_dealer_ace() -> None:
    # seed 000 rules 7.a.i and 6.k
    dealer = DealerHand(cards="Ac Kd Kh 8s 7c 2d", low="Ac")
    r = settle_round(SIX, dealer, [_player(1, "Jk Qc Qd 9s 5h 3c", low="Jk")])
    assert r.seats[0].low_matchup is Outcome.WIN
    assert "Joker" in r.seats[0].matchup_detail
    assert _bet(r, 1, BetName.MAIN)[0].outcome is Outcome.PUSH  # Q-Q loses to K-K high
    assert _bet(r, 1, BetName.MAIN)[0].commission == 0


def test_seven_card_foul_is_reset_by_the_house_way() -> None:
    # seed 002 3.7.2: A-A low over a one-pair... here A-A low with no pair high fouls
    r = settle_round(SEVEN, DEALER7, [_player(1, "Ac Ad 8s 7h 5c Th 2h", low="Ac Ad")])
    s = r.seats[0]
    assert s.fouled and s.set_by == "house-way" and "3.7.2" in s.foul_handling
    assert set(s.high) >= {"Ac", "Ad"}  # the house way keeps the pair high


def test_six_card_foul_loses_but_fortune_has_action() -> None:
    # seed 000 rule 5
    dealer = DealerHand(cards="2d 3d 4h 8s 9d Jd")
    r = settle_round(SIX, dealer, [_player(1, "Ac Kc 9c 7c 5c 3h", low="Ac", fortune=5)])
    s = r.seats[0]
    assert s.fouled and s.set_by == "player" and "rule 5" in s.foul_handling
    assert _bet(r, 1, BetName.MAIN)[0].outcome is Outcome.LOSE
    fortune = _bet(r, 1, BetName.FORTUNE)[0]
    assert (fortune.outcome, fortune.net) == (Outcome.WIN, D(50))  # the six cards hold a flush: 10 to 1


def test_commission_free_nine_high_pushes_everyone_and_tiger_9() -> None:
    opts = TableOptions(
        game="seven-card", variant=Variant.COMMISSION_FREE, fortune_paytable="7card-paytable-1"
    )
    dealer = DealerHand(cards="Kc 9h 4s 6h 7c 3d 2s", low="9h 4s")
    r = settle_round(
        opts,
        dealer,
        [
            _player(1, "Ac Ad As Ah 8c Tc Jd", low="Tc Jd", tiger_9=5),
            _player(2, "2h 3h 5h 6d 8d Qs Js", low="3h 2h", tiger_9=5),
        ],
    )
    assert all(_bet(r, s, BetName.MAIN)[0].outcome is Outcome.PUSH for s in (1, 2))
    assert _bet(r, 1, BetName.TIGER_9)[0].net == D(150)  # J-T beats 9-4: 30 to 1
    assert _bet(r, 2, BetName.TIGER_9)[0].net == D(-5)
    assert any("9-high" in n for n in r.notes)


def test_commission_free_has_no_commission() -> None:
    opts = TableOptions(game="seven-card", variant=Variant.COMMISSION_FREE)
    r = settle_round(opts, DEALER7, [_player(1, "Ac Ad 8s 7h 5c Kh Kd", low="Kh Kd")])
    assert _bet(r, 1, BetName.MAIN)[0].net == D(10)


def test_six_card_double_down_and_insurance() -> None:
    dealer = DealerHand(cards="8c 8d Ah 5s 3c Kd", low="Ah")
    r = settle_round(SIX, dealer, [_player(1, "2h 3h 4d 5c 7s 8h", low="2h", double_down=10, insurance=2)])
    assert _bet(r, 1, BetName.DOUBLE_DOWN)[0].net == D(-10)  # dealer qualifies; loses both
    ins = _bet(r, 1, BetName.INSURANCE)[0]
    assert (ins.net, ins.hand) == (D(200), "8-high")


def test_envy_across_the_table() -> None:
    opts = TableOptions(game="seven-card", fortune_paytable="7card-paytable-1")
    r = settle_round(
        opts,
        DEALER7,
        [_player(1, "8c 8d 8h 8s Ac Ad 5h", fortune=5), _player(2, "Jc Jd Th Td 7c 7d 5d", fortune=5)],
    )
    assert [b.net for b in _bet(r, 2, BetName.ENVY)] == [D(5)]
    assert _bet(r, 1, BetName.ENVY) == []


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([_player(1, "Kc Qh 9s 6h 4c 3d 2d")], "Kc is also in dealer"),
        ([_player(1, "Ac Ad 8s 7h 5c Kh")], "has 7 cards"),
        ([_player(1, "Ac Ad 8s 7h 5c Kh Kd"), _player(1, "2h 2d 8c 7d 5d Th Td")], "seat appears twice"),
        ([_player(1, "Ac Ad 8s 7h 5c Kh Kd", insurance=5)], "6-card bets"),
        ([_player(1, "Ac Ad 8s 7h 5c Kh Kd", tiger_9=5)], "Commission Free"),
        ([_player(1, "Ac Ad 8s 7h 5c Kh Kd", low="Ac 2h")], "seat 1"),
    ],
)
def test_bad_rounds_name_the_seat(players: list[PlayerHand], message: str) -> None:
    with pytest.raises(SettlementError, match=message):
        settle_round(SEVEN, DEALER7, players)


def test_wrong_paytable_for_the_bet_is_refused() -> None:
    opts = TableOptions(game="seven-card", fortune_paytable="6card-paytable-1")
    with pytest.raises(SettlementError, match="fortune_paytable"):
        settle_round(opts, DEALER7, [_player(1, "Ac Ad 8s 7h 5c Kh Kd", fortune=5)])


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

_MIRROR = {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}
_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def _deal(draw: st.DrawFn, n: int = 7, hands: int = 2) -> list[str]:
    order = draw(st.permutations(range(53)))
    return [format_cards(DECK[c] for c in order[i * n : (i + 1) * n]) for i in range(hands)]


@_SETTINGS
@given(_deal(), st.integers(0, 20), st.integers(0, 20))
def test_swapping_player_and_dealer_mirrors_the_result(deal: list[str], i: int, j: int) -> None:
    """Seed 002 3.12-3.14: with no copy, what one side wins the other loses (no commission)."""
    a_cards, b_cards = deal
    opts = TableOptions(game="seven-card", commission_percent=D(0), foul_policy=FoulPolicy.HOUSE_WAY)
    from rules.cards import parse_cards

    valid_a = [x for x in all_settings(parse_cards(a_cards)) if not is_foul(x)]
    valid_b = [x for x in all_settings(parse_cards(b_cards)) if not is_foul(x)]
    sa, sb = valid_a[i % len(valid_a)], valid_b[j % len(valid_b)]
    low_a, low_b = format_cards(sa.low), format_cards(sb.low)
    one = settle_round(opts, DealerHand(cards=b_cards, low=low_b), [_player(1, a_cards, low=low_a)])
    two = settle_round(opts, DealerHand(cards=a_cards, low=low_a), [_player(1, b_cards, low=low_b)])
    s1, s2 = one.seats[0], two.seats[0]
    if "copy" in s1.matchup_detail:
        assert "copy" in s2.matchup_detail  # copies go to the dealer either way
        return
    assert s2.high_matchup is _MIRROR[s1.high_matchup]
    assert s2.low_matchup is _MIRROR[s1.low_matchup]
    assert s2.bets[0].outcome is _MIRROR[s1.bets[0].outcome]
    assert s2.bets[0].net == -s1.bets[0].net


@_SETTINGS
@given(_deal(hands=4), st.permutations([1, 2, 3]))
def test_seat_order_and_settings_do_not_change_the_bonus_bets(deal: list[str], seats: list[int]) -> None:
    """Fortune and Envy depend on the cards, not the seat order or how the hand is set."""
    opts = TableOptions(game="seven-card", fortune_paytable="7card-paytable-1")
    dealer = DealerHand(cards=deal[0])
    players = [_player(s, cards, fortune=5) for s, cards in zip((1, 2, 3), deal[1:], strict=True)]
    base = settle_round(opts, dealer, players)
    shuffled = settle_round(opts, dealer, [players[s - 1] for s in seats])
    for s in base.seats:
        t = next(t for t in shuffled.seats if t.seat == s.seat)
        assert t == s
    # the same hand set any non-foul way keeps its Fortune and Envy results
    from rules.cards import parse_cards

    cards = parse_cards(deal[1])
    for setting in all_settings(cards)[:6]:
        if is_foul(setting):
            continue
        again = settle_round(
            opts, dealer, [_player(1, deal[1], low=format_cards(setting.low), fortune=5), *players[1:]]
        )
        for bet in (BetName.FORTUNE, BetName.ENVY):
            assert _bet(again, 1, bet) == _bet(base, 1, bet)


@_SETTINGS
@given(_deal(n=6, hands=2))
def test_six_card_players_are_symmetric_in_envy(deal: list[str]) -> None:
    """Seed 000 2.a: each player envies the other's full house or better, never his own."""
    opts = TableOptions(game="six-card")
    dealer_cards = "2c 3d 4h 8s 9c Jd"
    if set(dealer_cards.split()) & set(" ".join(deal).split()):
        return
    r = settle_round(
        opts, DealerHand(cards=dealer_cards), [_player(1, deal[0], fortune=5), _player(2, deal[1], fortune=5)]
    )
    f1, f2 = _bet(r, 1, BetName.FORTUNE)[0], _bet(r, 2, BetName.FORTUNE)[0]
    e1, e2 = _bet(r, 1, BetName.ENVY), _bet(r, 2, BetName.ENVY)
    big = {"5 Aces", "Royal Flush", "Straight Flush", "4 of a Kind", "Full House"}
    assert (len(e2) == 1) == (f1.hand in big)
    assert (len(e1) == 1) == (f2.hand in big)


def test_six_card_dealer_joker_low_is_only_an_ace() -> None:
    # seed 000 7.a.i is the player's exception; the dealer's Joker is an Ace (6.h), an Ace ties it
    dealer = DealerHand(cards="Jk Kd Kh 8s 7c 2d", low="Jk")
    r = settle_round(SIX, dealer, [_player(1, "Ac Qc Qd Qs 5h 3c", low="Ac")])
    assert r.seats[0].low_matchup is Outcome.LOSE and "copy" in r.seats[0].matchup_detail


def test_commission_free_is_a_seven_card_game() -> None:
    with pytest.raises(ValueError, match="commission-free"):
        TableOptions(game="six-card", variant=Variant.COMMISSION_FREE)
