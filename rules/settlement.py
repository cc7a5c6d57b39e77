"""Settlement of a whole round: the standard wager of every seat and every side bet.

``settle_round(options, dealer, players)`` takes the table's options (game, variant, house way,
foul policy, commission, paytables, meters), the dealer's cards and setting, and each seat's cards,
setting and wagers, and returns every bet's result as pydantic models.

Standard wager (seed 002 3.11-3.15, seed 000 rule 7): each of the player's two hands is compared
with the dealer's; a copy (equal rank) goes to the dealer. Win both: paid 1 to 1 (less 5%
commission in Fortune Pai Gow Poker, seed 002 4.1.1; waived by a casino with a $5+ Fortune or
Pai Gow'd bet, seed 004; none in the Commission Free game and the 6-card game). Lose both: lost.
Otherwise a push. 6-card only: a Joker in the player's low hand beats any dealer low hand (seed 000
rule 7.a.i and 6.k). Commission Free (seed 003): every player pushes when the dealer's low hand
is 9-high.

Foul (the low hand outranks the high hand) is a table setting: ``house-way`` (seed 002 3.7.2:
the dealer re-sets the hand by the house way) or ``lose`` (seed 000 rule 5: the hand loses; its
Fortune bet still has action).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from rules.cards import Card, format_cards, parse_cards
from rules.games import get_game
from rules.paytables import BetKind, Game, Paytable, load_paytable
from rules.ranking import describe_high, describe_low, high_value, low_value
from rules.settings import Setting, is_foul, setting_from_low, setting_key
from rules.sidebets import (
    BetName,
    BetResult,
    EnvyHand,
    Outcome,
    double_down_bet,
    envy_bonuses,
    pai_gowd_bet,
    paytable_bet,
    tiger_9_bet,
)

if TYPE_CHECKING:
    from rules.houseway import HouseWay

__all__ = [
    "DealerHand",
    "FoulPolicy",
    "PlayerHand",
    "RoundResult",
    "SeatResult",
    "SettlementError",
    "TableOptions",
    "Variant",
    "Wagers",
    "settle_main_wager",
    "settle_round",
]


class SettlementError(ValueError):
    """A round that cannot be settled as given; the message names the seat and the field."""


def _norm_cards(value: Any) -> Any:
    if value is None:
        return None
    cards = parse_cards(value) if isinstance(value, str) else parse_cards([str(v) for v in value])
    return tuple(str(c) for c in cards)


Cards = Annotated[tuple[str, ...], BeforeValidator(_norm_cards)]


class Variant(StrEnum):
    STANDARD = "standard"  # Fortune Pai Gow Poker (seed 002/003/004), or the 6-card game (seed 000)
    COMMISSION_FREE = "commission-free"  # Commission Free Fortune Pai Gow Poker (seed 003), 7 cards


class FoulPolicy(StrEnum):
    HOUSE_WAY = "house-way"  # seed 002 rule 3.7.2
    LOSE = "lose"  # seed 000 rule 5


class TableOptions(BaseModel):
    """How the table plays; defaults follow the seeds for each game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: Game
    variant: Variant = Variant.STANDARD
    house_way: str | None = None  # default: the game's (mbs-7card / wsgc-6card)
    foul_policy: FoulPolicy | None = None  # default: house-way (7-card), lose (6-card)
    commission_percent: Decimal | None = None  # default: 5 (7-card standard), else 0
    # seed 004: no commission with a Fortune Bonus or Pai Gow'd wager of at least this much ($5)
    commission_waiver_min_bonus: Decimal | None = None
    fortune_paytable: str | None = None  # default: mbs-fortune-bonus / 6card-paytable-1
    progressive_paytable: str | None = None  # default: FPGPP-WA01 / 6card-progressive-paytable-2
    insurance_paytable: str = "6card-insurance"
    pai_gowd_paytable: str = "seed004-pai-gowd"
    tiger_9_paytable: str = "tiger-9"
    meters: dict[str, Decimal] = Field(default_factory=dict)  # progressive meter amounts ($), "" = the meter

    @model_validator(mode="after")
    def _check(self) -> TableOptions:
        if self.variant is Variant.COMMISSION_FREE and self.game is not Game.SEVEN_CARD:
            raise ValueError("variant: commission-free is a seven-card game (seed 003)")
        if self.commission_percent is not None and not 0 <= self.commission_percent < 100:
            raise ValueError(f"commission_percent: must be in 0..100, but got {self.commission_percent}")
        return self

    @property
    def seven(self) -> bool:
        return self.game is Game.SEVEN_CARD

    def resolved_house_way(self) -> str:
        return self.house_way or get_game(self.game.value).default_house_way

    def resolved_foul_policy(self) -> FoulPolicy:
        if self.foul_policy is not None:
            return self.foul_policy
        return FoulPolicy.HOUSE_WAY if self.seven else FoulPolicy.LOSE

    def resolved_commission(self) -> Decimal:
        if self.commission_percent is not None:
            return self.commission_percent
        return Decimal(5) if self.seven and self.variant is Variant.STANDARD else Decimal(0)

    def paytable(self, bet: BetKind) -> Paytable:
        name = {
            BetKind.FORTUNE: self.fortune_paytable
            or ("mbs-fortune-bonus" if self.seven else "6card-paytable-1"),
            BetKind.PROGRESSIVE: self.progressive_paytable
            or ("FPGPP-WA01" if self.seven else "6card-progressive-paytable-2"),
            BetKind.INSURANCE: self.insurance_paytable,
            BetKind.PAI_GOWD: self.pai_gowd_paytable,
            BetKind.TIGER_9: self.tiger_9_paytable,
        }[bet]
        table = load_paytable(name)
        if table.bet is not bet or table.game is not self.game:
            raise SettlementError(
                f"{bet.value}_paytable: {name} is a {table.game.value} {table.bet.value} paytable, "
                f"not a {self.game.value} {bet.value} one"
            )
        return table


class Wagers(BaseModel):
    """A seat's wagers in dollars (0 = not made)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    main: Decimal = Field(gt=0)
    fortune: Decimal = Field(default=Decimal(0), ge=0)
    progressive: Decimal = Field(default=Decimal(0), ge=0)
    insurance: Decimal = Field(default=Decimal(0), ge=0)  # 6-card
    double_down: Decimal = Field(default=Decimal(0), ge=0)  # 6-card
    pai_gowd: Decimal = Field(default=Decimal(0), ge=0)  # 7-card
    tiger_9: Decimal = Field(default=Decimal(0), ge=0)  # Commission Free


class DealerHand(BaseModel):
    """The dealer's cards and the setting he played (None: the house way's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: Cards
    high: Cards | None = None
    low: Cards | None = None


class PlayerHand(BaseModel):
    """One seat: cards, the setting played (None: set for the player by the house way), wagers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=1)
    cards: Cards
    high: Cards | None = None
    low: Cards | None = None
    wagers: Wagers


class SeatResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    cards: tuple[str, ...]
    high: tuple[str, ...]
    low: tuple[str, ...]
    high_hand: str
    low_hand: str
    set_by: Literal["player", "house-way"]
    fouled: bool
    foul_handling: str = ""
    high_matchup: Outcome
    low_matchup: Outcome
    matchup_detail: str
    bets: list[BetResult]
    net: Decimal | None  # None when a share of a meter was won without the meter's amount


class RoundResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    game: Game
    variant: Variant
    house_way: str
    foul_policy: FoulPolicy
    dealer_cards: tuple[str, ...]
    dealer_high: tuple[str, ...]
    dealer_low: tuple[str, ...]
    dealer_high_hand: str
    dealer_low_hand: str
    dealer_house_way_high: tuple[str, ...]
    dealer_house_way_low: tuple[str, ...]
    dealer_house_way_rule: str
    dealer_follows_house_way: bool
    seats: list[SeatResult]
    notes: list[str] = Field(default_factory=list)


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return parse_cards(list(texts))


def _setting(
    who: str, cards: tuple[Card, ...], high: Sequence[str] | None, low: Sequence[str] | None
) -> Setting | None:
    if low is None and high is None:
        return None
    try:
        if low is not None:
            setting = setting_from_low(cards, _cards(low))
            if high is not None and set(_cards(high)) != set(setting.high):
                raise SettlementError(
                    f"{who}: high {' '.join(high)} and low {' '.join(low)} are not a split of "
                    f"{format_cards(cards)}"
                )
            return setting
        assert high is not None
        rest = tuple(c for c in cards if c not in set(_cards(high)))
        return setting_from_low(cards, rest)
    except ValueError as exc:
        if isinstance(exc, SettlementError):
            raise
        raise SettlementError(f"{who}: {exc}") from None


def _strs(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)


def _check_cards(options: TableOptions, dealer: DealerHand, players: Sequence[PlayerHand]) -> None:
    n = get_game(options.game.value).cards
    seen: dict[str, str] = {}
    hands: list[tuple[str, tuple[str, ...]]] = [("dealer", dealer.cards)]
    hands += [(f"seat {p.seat}", p.cards) for p in players]
    for who, cards in hands:
        if len(cards) != n:
            raise SettlementError(
                f"{who}: cards: a {options.game.value} hand has {n} cards, but got {len(cards)}"
            )
        for c in cards:
            if c in seen:
                raise SettlementError(f"{who}: cards: {c} is also in {seen[c]}'s hand (one 53-card deck)")
            seen[c] = who
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise SettlementError(f"players: a seat appears twice in {seats}")
    for p in players:
        w = p.wagers
        if options.seven and (w.insurance or w.double_down):
            raise SettlementError(
                f"seat {p.seat}: wagers: Insurance and Double Down are 6-card bets (seed 000)"
            )
        if not options.seven and (w.pai_gowd or w.tiger_9):
            raise SettlementError(f"seat {p.seat}: wagers: Pai Gow'd and Tiger 9 are 7-card bets (seed 003)")
        if w.tiger_9 and options.variant is not Variant.COMMISSION_FREE:
            raise SettlementError(
                f"seat {p.seat}: wagers: Tiger 9 is a Commission Free Fortune Pai Gow Poker bet (seed 003)"
            )


def _nine_high(low: Sequence[Card]) -> bool:
    return len(low) == 2 and low[0].pip != low[1].pip and max(c.pip for c in low) == 9


def _sum(bets: Sequence[BetResult]) -> Decimal | None:
    total = Decimal(0)
    for b in bets:
        if b.net is None:
            return None
        total += b.net
    return total


@lru_cache(maxsize=16)
def _house_way(name: str) -> HouseWay:
    from rules.houseway import load_house_way

    return load_house_way(name)


def _foul_loss(bet: BetName, wager: Decimal) -> BetResult:
    """A bet on the dealer's hand lost with a fouled hand under the 'lose' policy (seed 000 rule 5)."""
    return BetResult(
        bet=bet,
        wager=wager,
        outcome=Outcome.LOSE,
        net=-wager,
        detail="fouled hand loses",
        cite="seed 000 rule 5 (foul policy 'lose')",
    )


def settle_round(
    options: TableOptions,
    dealer: DealerHand,
    players: Sequence[PlayerHand],
    *,
    house_way: HouseWay | None = None,
) -> RoundResult:
    """Settle every wager of one round (see the module doc for the rules and their sources).

    ``house_way`` (a plug-in object) overrides ``options.house_way``; named house ways are loaded
    once per process.
    """
    _check_cards(options, dealer, players)
    if house_way is None:
        house_way = _house_way(options.resolved_house_way())
    foul_policy = options.resolved_foul_policy()
    commission_pct = options.resolved_commission()
    notes: list[str] = []

    d_cards = _cards(dealer.cards)
    d_way = house_way.set(d_cards)
    d_set = _setting("dealer", d_cards, dealer.high, dealer.low) or d_way.setting
    follows = setting_key(d_set) == setting_key(d_way.setting)
    if not follows:
        notes.append(
            f"the dealer's setting {d_set} differs from the house way {d_way.setting} "
            f"({house_way.name} {d_way.rule_id}); settled as played"
        )
    d_high_v, d_low_v = high_value(d_set.high), low_value(d_set.low)
    push_all = options.variant is Variant.COMMISSION_FREE and _nine_high(d_set.low)
    if push_all:
        notes.append("the dealer plays 9-high low: every player pushes (seed 003, Commission Free)")

    seats: list[SeatResult] = []
    bets_by_seat: dict[int, list[BetResult]] = {}
    for p in players:
        cards = _cards(p.cards)
        who = f"seat {p.seat}"
        played = _setting(who, cards, p.high, p.low)
        set_by: Literal["player", "house-way"] = "player"
        if played is None:
            played = house_way.set(cards).setting
            set_by = "house-way"
        fouled = is_foul(played)
        foul_lost = False
        handling = ""
        if fouled and foul_policy is FoulPolicy.HOUSE_WAY:
            played = house_way.set(cards).setting
            set_by = "house-way"
            handling = "foul: the dealer re-sets the hand by the house way (seed 002 3.7.2)"
        elif fouled:
            foul_lost = True
            handling = "foul: the hand loses; its Fortune bet still has action (seed 000 rule 5)"

        p_high_v, p_low_v = high_value(played.high), low_value(played.low)
        high_m = Outcome.WIN if p_high_v > d_high_v else Outcome.LOSE
        joker_low = not options.seven and played.low[0].is_joker
        low_m = Outcome.WIN if joker_low or p_low_v > d_low_v else Outcome.LOSE
        why = []
        why.append("high: " + ("copy, to the dealer" if p_high_v == d_high_v else high_m.value))
        if joker_low:
            why.append("low: the player's Joker beats any dealer low (seed 000 7.a.i, 6.k)")
        else:
            why.append("low: " + ("copy, to the dealer" if p_low_v == d_low_v else low_m.value))
        if foul_lost:
            high_m = low_m = Outcome.LOSE

        w = p.wagers
        bets: list[BetResult] = []
        # Standard wager
        if foul_lost:
            main = BetResult(
                bet=BetName.MAIN,
                wager=w.main,
                outcome=Outcome.LOSE,
                net=-w.main,
                detail="fouled hand loses",
                cite="seed 000 rule 5",
            )
        elif push_all:
            main = BetResult(
                bet=BetName.MAIN,
                wager=w.main,
                outcome=Outcome.PUSH,
                net=Decimal(0),
                detail="dealer's low hand is 9-high: push",
                cite="seed 003, Commission Free Fortune Pai Gow Poker",
            )
        elif high_m is Outcome.WIN and low_m is Outcome.WIN:
            waived = options.commission_waiver_min_bonus is not None and (
                w.fortune >= options.commission_waiver_min_bonus
                or w.pai_gowd >= options.commission_waiver_min_bonus
            )
            commission = Decimal(0) if waived else w.main * commission_pct / Decimal(100)
            if waived and commission_pct:
                floor = options.commission_waiver_min_bonus
                detail = f"wins both: 1 to 1, commission waived (a ${floor}+ Fortune or Pai Gow'd bet)"
                cite = "seed 004 (commission waived with a $5 Fortune or Pai Gow'd bet)"
            elif commission:
                detail = f"wins both: 1 to 1 less {commission_pct}% commission"
                cite = "seed 002 3.12, 4.1.1"
            else:
                detail = "wins both: 1 to 1, no commission"
                cite = (
                    "seed 000 rule 7.b" if not options.seven else "seed 003, Commission Free (no commission)"
                )
            main = BetResult(
                bet=BetName.MAIN,
                wager=w.main,
                outcome=Outcome.WIN,
                net=w.main - commission,
                commission=commission,
                detail=detail,
                cite=cite,
            )
        elif high_m is Outcome.LOSE and low_m is Outcome.LOSE:
            main = BetResult(
                bet=BetName.MAIN,
                wager=w.main,
                outcome=Outcome.LOSE,
                net=-w.main,
                detail="loses both",
                cite="seed 002 3.13, 3.15; seed 000 rule 7.c",
            )
        else:
            main = BetResult(
                bet=BetName.MAIN,
                wager=w.main,
                outcome=Outcome.PUSH,
                net=Decimal(0),
                detail="wins one, loses one",
                cite="seed 002 3.14",
            )
        bets.append(main)
        if w.double_down:
            bets.append(double_down_bet(w.double_down, d_set.high, main.outcome))
        if w.fortune:
            bets.append(paytable_bet(BetName.FORTUNE, options.paytable(BetKind.FORTUNE), cards, w.fortune))
        if w.progressive:
            bets.append(
                paytable_bet(
                    BetName.PROGRESSIVE,
                    options.paytable(BetKind.PROGRESSIVE),
                    cards,
                    w.progressive,
                    meters=options.meters,
                )
            )
        if w.insurance:
            bets.append(
                paytable_bet(BetName.INSURANCE, options.paytable(BetKind.INSURANCE), cards, w.insurance)
            )
        if w.pai_gowd:
            bets.append(
                _foul_loss(BetName.PAI_GOWD, w.pai_gowd)
                if foul_lost
                else pai_gowd_bet(
                    options.paytable(BetKind.PAI_GOWD), w.pai_gowd, d_cards, d_set.high, played.high
                )
            )
        if w.tiger_9:
            bets.append(
                _foul_loss(BetName.TIGER_9, w.tiger_9)
                if foul_lost
                else tiger_9_bet(options.paytable(BetKind.TIGER_9), w.tiger_9, d_set.low, played.low)
            )
        bets_by_seat[p.seat] = bets
        seats.append(
            SeatResult(
                seat=p.seat,
                cards=_strs(cards),
                high=_strs(played.high),
                low=_strs(played.low),
                high_hand=describe_high(p_high_v),
                low_hand=describe_low(p_low_v),
                set_by=set_by,
                fouled=fouled,
                foul_handling=handling,
                high_matchup=high_m,
                low_matchup=low_m,
                matchup_detail="; ".join(why),
                bets=bets,
                net=None,
            )
        )

    # Envy Bonuses, paid at the end of the round (seed 003 rule 7; seed 000 rule 8)
    envy_tables = [
        (BetName.ENVY, BetKind.FORTUNE, "fortune"),
        (BetName.PROGRESSIVE_ENVY, BetKind.PROGRESSIVE, "progressive"),
    ]
    for bet, kind, field in envy_tables:
        if not any(getattr(p.wagers, field) for p in players):
            continue
        table = options.paytable(kind)
        envy_players = [
            EnvyHand(seat=p.seat, cards=_cards(p.cards), wager=getattr(p.wagers, field)) for p in players
        ]
        for seat, results in envy_bonuses(table, envy_players, d_cards, bet=bet).items():
            bets_by_seat[seat].extend(results)

    final = [
        s.model_copy(update={"bets": bets_by_seat[s.seat], "net": _sum(bets_by_seat[s.seat])}) for s in seats
    ]
    return RoundResult(
        game=options.game,
        variant=options.variant,
        house_way=house_way.name,
        foul_policy=foul_policy,
        dealer_cards=_strs(d_cards),
        dealer_high=_strs(d_set.high),
        dealer_low=_strs(d_set.low),
        dealer_high_hand=describe_high(d_high_v),
        dealer_low_hand=describe_low(d_low_v),
        dealer_house_way_high=_strs(d_way.setting.high),
        dealer_house_way_low=_strs(d_way.setting.low),
        dealer_house_way_rule=f"{d_way.rule_id}: {d_way.rule_text} ({d_way.cite})",
        dealer_follows_house_way=follows,
        seats=final,
        notes=notes,
    )


def settle_main_wager(
    options: TableOptions,
    dealer: tuple[Sequence[str], Sequence[str]],
    player: tuple[Sequence[str], Sequence[str]],
    *,
    house_way: HouseWay | None = None,
) -> BetResult:
    """The standard wager's result of one seat: the player's setting ``player`` (high, low) against the
    dealer's played setting ``dealer`` (high, low), by ``settle_round`` (seed 002 3.11-3.15, seed 000
    rule 7; a foul per ``options``' foul policy), for a 1-unit wager and no side bet. This is what a
    dealer's settlement must show: WIN paid, LOSE taken, PUSH left. Raises ``SettlementError`` for a
    hand ``settle_round`` refuses (wrong size, a card twice)."""
    d_high, d_low = tuple(dealer[0]), tuple(dealer[1])
    p_high, p_low = tuple(player[0]), tuple(player[1])
    try:
        result = settle_round(
            options,
            DealerHand(cards=d_high + d_low, high=d_high, low=d_low),
            [
                PlayerHand(
                    seat=1, cards=p_high + p_low, high=p_high, low=p_low, wagers=Wagers(main=Decimal(1))
                )
            ],
            house_way=house_way,
        )
    except ValidationError as exc:  # a token that is no card
        raise SettlementError(f"cards: {exc.errors()[0]['msg']}") from None
    return result.seats[0].bets[0]
