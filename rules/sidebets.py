"""Side bets: what a hand makes for the paytables, and how each side bet settles.

* ``bonus_hands(cards)``: every ``BonusHand`` a whole hand (7 cards, or 6) makes that a paytable
  can pay: its best five-card category, plus three of a kind beside a better straight or flush,
  three pair, a seven-card straight flush (with or without the Joker) and Royal Flush + Royal
  Match. Worked out over the five-card subsets with ``rules.ranking`` (the Joker semi-wild), so it
  is also the slow reference the numba counting kernel is tested against.
* ``paytable_bet``: Fortune Bonus, Insurance and the progressive wager (the player's own hand).
* ``envy_bonuses``: the Envy Bonus of a whole table, per the paytable's own rule.
* ``pai_gowd_bet``, ``tiger_9_bet``, ``double_down_bet``: the bets that also need the dealer.

Money is ``Decimal``; a share of a progressive meter needs the meter's amount (else ``net`` is
None and the detail says what is owed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from itertools import combinations

from pydantic import BaseModel, ConfigDict

from rules.cards import Card, Rank, format_cards, parse_cards
from rules.math import paid_hand
from rules.paytables import BonusHand, PayKind, Paytable
from rules.ranking import HandCategory, category_of, high_value, low_value

__all__ = [
    "BetName",
    "BetResult",
    "EnvyHand",
    "Outcome",
    "bonus_hands",
    "dealer_qualifies_for_double_down",
    "double_down_bet",
    "envy_bonuses",
    "pai_gowd_bet",
    "paytable_bet",
    "tiger_9_bet",
]


class BetName(StrEnum):
    MAIN = "main"
    FORTUNE = "fortune"
    ENVY = "envy"
    PROGRESSIVE = "progressive"
    PROGRESSIVE_ENVY = "progressive-envy"
    INSURANCE = "insurance"
    DOUBLE_DOWN = "double-down"
    PAI_GOWD = "pai-gowd"
    TIGER_9 = "tiger-9"


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


class BetResult(BaseModel):
    """One bet's result: ``net`` is what the player gains (+) or loses (-), after commission."""

    model_config = ConfigDict(frozen=True)

    bet: BetName
    wager: Decimal
    outcome: Outcome
    net: Decimal | None
    hand: str | None = None  # the paytable line paid, or the hand that decided
    commission: Decimal = Decimal(0)
    detail: str = ""
    cite: str = ""


# --------------------------------------------------------------------------------------------
# What a hand makes
# --------------------------------------------------------------------------------------------

_FIVE_OF: dict[HandCategory, BonusHand] = {
    HandCategory.ONE_PAIR: BonusHand.PAIR,
    HandCategory.TWO_PAIR: BonusHand.PAIR,
    HandCategory.THREE_OF_A_KIND: BonusHand.THREE_OF_A_KIND,
    HandCategory.STRAIGHT: BonusHand.STRAIGHT,
    HandCategory.FLUSH: BonusHand.FLUSH,
    HandCategory.FULL_HOUSE: BonusHand.FULL_HOUSE,
    HandCategory.FOUR_OF_A_KIND: BonusHand.FOUR_OF_A_KIND,
    HandCategory.STRAIGHT_FLUSH: BonusHand.STRAIGHT_FLUSH,
    HandCategory.ROYAL_FLUSH: BonusHand.ROYAL_FLUSH,
    HandCategory.FIVE_ACES: BonusHand.FIVE_ACES,
}
_HIGH_OF = {8: BonusHand.HIGH_8, 9: BonusHand.HIGH_9, 10: BonusHand.HIGH_T, 11: BonusHand.HIGH_J}
_HIGH_OF |= {12: BonusHand.HIGH_Q, 13: BonusHand.HIGH_K, 14: BonusHand.HIGH_A}
# seven consecutive ranks: A-2-..-7 (A-2-3-4-5 is a straight, seed 002 3.9), 2-8 .. 8-A
_SEVEN_RUNS = [frozenset({14, 2, 3, 4, 5, 6, 7})] + [frozenset(range(lo, lo + 7)) for lo in range(2, 9)]


def _rank_counts(cards: Sequence[Card]) -> dict[int, int]:
    """Rank multiplicities with the Joker as an Ace (seed 002 1.1.7, seed 003 'Three Pair Push')."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.pip] = counts.get(c.pip, 0) + 1
    return counts


def _seven_card_straight_flush(cards: Sequence[Card]) -> BonusHand | None:
    if len(cards) != 7:
        return None
    naturals = [c for c in cards if not c.is_joker]
    if len({c.suit for c in naturals}) != 1:
        return None
    ranks = {c.pip for c in naturals}
    joker = len(naturals) == 6
    for run in _SEVEN_RUNS:
        if ranks <= run and len(ranks) == len(naturals):
            return (
                BonusHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER
                if joker
                else BonusHand.SEVEN_CARD_STRAIGHT_FLUSH
            )
    return None


def bonus_hands(cards: Sequence[Card]) -> tuple[BonusHand, ...]:
    """Every paytable hand that ``cards`` (a whole 6- or 7-card hand) makes, best first.

    The best five-card category (high card split by its top card, the Joker an Ace), and where
    they apply: three of a kind beside a straight or flush (another five of the cards), three pair
    (three ranks of two cards each, the Joker pairing as an Ace: seed 003 Paytable 1), a
    seven-card straight flush with or without the Joker, Royal Flush + Royal Match (a royal flush,
    the Joker may complete it, with a natural suited K-Q as the other two: seed 002 1.1.7, 1.1.9).
    """
    cards = tuple(cards)
    if len(cards) not in (6, 7):
        raise ValueError(f"a whole hand has 6 or 7 cards, but got {len(cards)}: {format_cards(cards)}")
    cats = {}
    for five in combinations(range(len(cards)), 5):
        sub = [cards[i] for i in five]
        cats[five] = category_of(high_value(sub))
    best = max(cats.values())
    made: set[BonusHand] = set()
    if best is HandCategory.HIGH_CARD:
        top = max(c.pip for c in cards)
        if top not in _HIGH_OF:
            raise ValueError(f"{format_cards(cards)}: no pair, no straight and {top}-high cannot happen")
        made.add(_HIGH_OF[top])
    else:
        made.add(_FIVE_OF[best])
    if best in (HandCategory.STRAIGHT, HandCategory.FLUSH) and HandCategory.THREE_OF_A_KIND in cats.values():
        made.add(BonusHand.THREE_OF_A_KIND)
    if sorted(_rank_counts(cards).values()).count(2) == 3:
        made.add(BonusHand.THREE_PAIR)
    sf7 = _seven_card_straight_flush(cards)
    if sf7 is not None:
        made.add(sf7)
    elif len(cards) == 7:
        for five, cat in cats.items():
            rest = [cards[i] for i in range(7) if i not in five]
            if (
                cat is HandCategory.ROYAL_FLUSH
                and not any(c.is_joker for c in rest)
                and {c.rank for c in rest} == {Rank.KING, Rank.QUEEN}
                and rest[0].suit == rest[1].suit
            ):
                made.add(BonusHand.ROYAL_FLUSH_ROYAL_MATCH)
    if BonusHand.THREE_PAIR in made and len(made) > 2:
        # A royal match can also be three pair (As Ks Qs Jk Ts Kh Qh); it is paid as the royal
        # match anyway, and the counting kernel records one hand beside the best five.
        made.discard(BonusHand.THREE_PAIR)
    return tuple(sorted(made, reverse=True))


# --------------------------------------------------------------------------------------------
# Paytable bets on the player's own hand: Fortune Bonus, Insurance, progressive
# --------------------------------------------------------------------------------------------


def _pay(
    table: Paytable, hand: BonusHand, wager: Decimal, meters: Mapping[str, Decimal] | None
) -> tuple[Decimal | None, str]:
    row = table.row_for(hand)
    assert row is not None
    if row.pays.kind is PayKind.METER_PERCENT:
        name = row.meter or ""
        meter = None if meters is None else meters.get(name, meters.get(""))
        if meter is None:
            where = f"the {name} meter" if name else "the progressive meter"
            return None, f"{row.pays.text} of {where} (meter amount not given)"
        return row.pays.net(wager, meter), f"{row.pays.text} of {meter}"
    return row.pays.net(wager), row.pays.text


def paytable_bet(
    bet: BetName,
    table: Paytable,
    cards: Sequence[Card],
    wager: Decimal,
    *,
    meters: Mapping[str, Decimal] | None = None,
) -> BetResult:
    """A bet paid on the player's own whole hand by ``table`` (regardless of the dealer's hand).

    Seed 002 rules 3.16-3.17 and 1.1.3, seed 003 Fortune rule 2 ("the best hand possible among
    the player's seven cards"), seed 000 ("best possible five-card hand"; Insurance "King-high or
    less"; a fouled hand's Fortune bet still has action, rule 5).
    """
    made = bonus_hands(cards)
    hand = paid_hand(table, made)
    made_text = ", ".join(h.name for h in made)
    if hand is None:
        return BetResult(
            bet=bet,
            wager=wager,
            outcome=Outcome.LOSE,
            net=-wager,
            hand=None,
            detail=f"{format_cards(cards)} makes {made_text}: no line of {table.name} pays",
            cite=table.source,
        )
    row = table.row_for(hand)
    assert row is not None
    net, how = _pay(table, hand, wager, meters)
    outcome = Outcome.PUSH if row.pays.kind is PayKind.PUSH else Outcome.WIN
    return BetResult(
        bet=bet,
        wager=wager,
        outcome=outcome,
        net=net,
        hand=row.label,
        detail=f"{format_cards(cards)}: {row.label}, pays {how} ({table.name})",
        cite=table.source,
    )


# --------------------------------------------------------------------------------------------
# Envy Bonus
# --------------------------------------------------------------------------------------------


class EnvyHand(BaseModel):
    """One player at the table, for the Envy Bonus."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    seat: int
    cards: tuple[Card, ...]
    wager: Decimal  # the bet that qualifies for Envy (Fortune Bonus, or the progressive wager)


def _envy_line(table: Paytable, cards: Sequence[Card]) -> tuple[str, Decimal] | None:
    made = bonus_hands(cards)
    hand = paid_hand(table, made)
    if hand is None:
        return None
    row = table.row_for(hand)
    if row is None or row.envy is None:
        return None
    return row.label, row.envy


def envy_bonuses(
    table: Paytable,
    players: Sequence[EnvyHand],
    dealer_cards: Sequence[Card],
    *,
    bet: BetName = BetName.ENVY,
) -> dict[int, list[BetResult]]:
    """Every Envy Bonus of a round, per seat (a list: one per qualifying hand of another player).

    ``wsgc`` (seed 003 Fortune rules 3, 7, 7.a; seed 000 rule 2.a and the paytable note; seed 000
    Progressive rule 9): a player whose qualifying bet is at least ``min_bet`` wins the Envy
    amount of each other player's hand that has one; never for his own or the dealer's hand;
    several qualifying hands pay several times. ``mbs`` (seed 002 3.18): every player with a
    Fortune Bonus wins it for another player's Seven Card Straight Flush (without Joker) or Royal
    Match, except (3.18.1.1) when the dealer's hand makes one, (3.18.1.2) for a player whose own
    hand is a Seven Card Straight Flush (without Joker), (3.18.1.3) for a player whose own hand is
    a Royal Match, unless the other hand is a Seven Card Straight Flush (without Joker).
    """
    out: dict[int, list[BetResult]] = {p.seat: [] for p in players}
    rule = table.envy
    if rule is None:
        return out
    lines = {p.seat: _envy_line(table, p.cards) for p in players}
    made = {p.seat: bonus_hands(p.cards) for p in players}
    if rule.policy == "mbs":
        dealer_made = bonus_hands(dealer_cards)
        if {BonusHand.SEVEN_CARD_STRAIGHT_FLUSH, BonusHand.ROYAL_FLUSH_ROYAL_MATCH} & set(dealer_made):
            return out  # 3.18.1.1
    for p in players:
        if p.wager <= 0 or p.wager < rule.min_bet:
            continue
        if rule.policy == "mbs" and BonusHand.SEVEN_CARD_STRAIGHT_FLUSH in made[p.seat]:
            continue  # 3.18.1.2
        for other in players:
            line = lines[other.seat]
            if other.seat == p.seat or line is None:
                continue
            if (
                rule.policy == "mbs"
                and BonusHand.ROYAL_FLUSH_ROYAL_MATCH in made[p.seat]
                and BonusHand.SEVEN_CARD_STRAIGHT_FLUSH not in made[other.seat]
            ):
                continue  # 3.18.1.3
            label, amount = line
            out[p.seat].append(
                BetResult(
                    bet=bet,
                    wager=p.wager,
                    outcome=Outcome.WIN,
                    net=amount,
                    hand=label,
                    detail=f"Envy of seat {other.seat}'s {label}: ${amount} ({table.name})",
                    cite=rule.source,
                )
            )
    return out


# --------------------------------------------------------------------------------------------
# Bets against the dealer's hand
# --------------------------------------------------------------------------------------------

_PAIR_OF_EIGHTS = high_value(parse_cards("8s 8h 4d 3c 2s"))  # the lowest hand with a pair of 8s


def dealer_qualifies_for_double_down(dealer_high: Sequence[Card]) -> bool:
    """The dealer's high hand is a pair of 8s or better (seed 000, Double Down Wager)."""
    return high_value(dealer_high) >= _PAIR_OF_EIGHTS


def double_down_bet(wager: Decimal, dealer_high: Sequence[Card], main: Outcome) -> BetResult:
    """Seed 000 Double Down: settles as the standard wager when the dealer qualifies, else pushes."""
    cite = "seed 000, Double Down Wager (dealer must qualify with a pair of 8's or better)"
    if not dealer_qualifies_for_double_down(dealer_high):
        return BetResult(
            bet=BetName.DOUBLE_DOWN,
            wager=wager,
            outcome=Outcome.PUSH,
            net=Decimal(0),
            detail=f"dealer's high hand {format_cards(dealer_high)} is below a pair of 8s: no action",
            cite=cite,
        )
    net = {Outcome.WIN: wager, Outcome.LOSE: -wager, Outcome.PUSH: Decimal(0)}[main]
    return BetResult(
        bet=BetName.DOUBLE_DOWN,
        wager=wager,
        outcome=main,
        net=net,
        detail="dealer qualifies; settled as the standard wager (1 to 1)",
        cite=cite,
    )


def pai_gowd_bet(
    table: Paytable,
    wager: Decimal,
    dealer_cards: Sequence[Card],
    dealer_high: Sequence[Card],
    player_high: Sequence[Card],
) -> BetResult:
    """Seed 003 Pai Gow'd rule 3: wins when the dealer's seven cards contain less than a pair and
    the player's five-card hand beats the dealer's; paid by the dealer's high card (seed 004)."""
    made = bonus_hands(dealer_cards)
    cite = f"seed 003 Pai Gow'd Dealing Procedures rule 3; {table.source}"
    hand = paid_hand(table, made)
    if hand is None:
        return BetResult(
            bet=BetName.PAI_GOWD,
            wager=wager,
            outcome=Outcome.LOSE,
            net=-wager,
            hand=None,
            detail=f"dealer's hand {format_cards(dealer_cards)} makes {made[0].name}: a pair or better",
            cite=cite,
        )
    row = table.row_for(hand)
    assert row is not None
    if high_value(player_high) <= high_value(dealer_high):
        return BetResult(
            bet=BetName.PAI_GOWD,
            wager=wager,
            outcome=Outcome.LOSE,
            net=-wager,
            hand=row.label,
            detail=f"dealer is {row.label} but the player's high hand does not beat the dealer's",
            cite=cite,
        )
    return BetResult(
        bet=BetName.PAI_GOWD,
        wager=wager,
        outcome=Outcome.WIN,
        net=row.pays.net(wager),
        hand=row.label,
        detail=f"dealer is {row.label} and the player's high hand beats it: {row.pays.text}",
        cite=cite,
    )


def _nine_high(low: Sequence[Card]) -> bool:
    return len(low) == 2 and low[0].pip != low[1].pip and max(c.pip for c in low) == 9


def tiger_9_bet(
    table: Paytable, wager: Decimal, dealer_low: Sequence[Card], player_low: Sequence[Card]
) -> BetResult:
    """Seed 003 Tiger 9: wins when the dealer plays 9-high low and the player's low beats it."""
    row = table.rows[0]
    cite = f"seed 003, Commission Free Fortune Pai Gow Poker, Tiger 9 Wager; {table.source}"
    if not _nine_high(dealer_low):
        detail = f"dealer's low hand {format_cards(dealer_low)} is not 9-high"
        return BetResult(
            bet=BetName.TIGER_9, wager=wager, outcome=Outcome.LOSE, net=-wager, detail=detail, cite=cite
        )
    if low_value(player_low) <= low_value(dealer_low):
        detail = f"dealer plays 9-high ({format_cards(dealer_low)}) but the player's low does not beat it"
        return BetResult(
            bet=BetName.TIGER_9, wager=wager, outcome=Outcome.LOSE, net=-wager, detail=detail, cite=cite
        )
    return BetResult(
        bet=BetName.TIGER_9,
        wager=wager,
        outcome=Outcome.WIN,
        net=row.pays.net(wager),
        hand=row.label,
        detail=f"dealer plays 9-high ({format_cards(dealer_low)}), the player's low beats it: "
        f"{row.pays.text}",
        cite=cite,
    )
