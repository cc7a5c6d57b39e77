"""Side-bet paytables as data: the YAML files in ``rules/data/paytables`` checked by pydantic.

Each file is one paytable exactly as its seed prints it (name, rows, "to 1" / "for 1" /
percentage-of-meter pays, Envy Bonus column, published figures) with its source citation.

Pays (the seeds print three kinds):

* ``"5,000 to 1"``: the wager is returned and 5,000 times it is paid (net win 5,000).
* ``"500 for 1"``: 500 times the wager is paid and the wager is not returned (net win 499);
  seed 003 progressive tables, "*Original Wager is NOT Returned".
* ``"10%"``: that share of the progressive meter is paid, the wager not returned (seed 003
  progressive rule 9.a "The percentage pays are paid from the progressive jackpot").
* ``"push"``: the wager is returned (seed 003 Paytable 1 "Three Pair Push").

Bonus hands (``BonusHand``) are the categories the Fortune, Insurance, progressive and Pai Gow'd
paytables name; they are worked out over all of a hand's cards (7, or 6 in the 6-card game),
see ``rules.sidebets.bonus_hand``.
"""

from __future__ import annotations

import re
from decimal import Decimal
from enum import IntEnum, StrEnum
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "BetKind",
    "BonusHand",
    "EnvyRule",
    "Game",
    "Pay",
    "PayKind",
    "Paytable",
    "PaytableError",
    "PaytableRow",
    "PublishedFigure",
    "load_paytable",
    "load_paytable_file",
    "paytable_names",
]


class Game(StrEnum):
    SEVEN_CARD = "seven-card"
    SIX_CARD = "six-card"


class BetKind(StrEnum):
    FORTUNE = "fortune"
    INSURANCE = "insurance"
    PROGRESSIVE = "progressive"
    PAI_GOWD = "pai-gowd"
    TIGER_9 = "tiger-9"


class BonusHand(IntEnum):
    """What a whole hand (all 7, or 6, cards) makes, for the paytables.

    One value per hand: the best poker category of its best five cards (the Joker completing a
    straight or flush, otherwise an Ace), raised to the 7-card-only hands above Five Aces where
    they apply. Hands below a pair are split by their high card (the Insurance and Pai Gow'd
    paytables pay by it; a lone Joker is an Ace). Order is the order of the seeds' paytables.
    """

    HIGH_8 = 0
    HIGH_9 = 1
    HIGH_T = 2
    HIGH_J = 3
    HIGH_Q = 4
    HIGH_K = 5
    HIGH_A = 6
    PAIR = 7  # one pair or two pair in the best five cards (three pair below is its own entry)
    THREE_PAIR = 8  # seed 003 Paytable 1: three ranks of two cards each, the Joker pairing as an Ace
    THREE_OF_A_KIND = 9
    STRAIGHT = 10
    FLUSH = 11
    FULL_HOUSE = 12
    FOUR_OF_A_KIND = 13
    STRAIGHT_FLUSH = 14
    ROYAL_FLUSH = 15
    FIVE_ACES = 16
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER = 17
    ROYAL_FLUSH_ROYAL_MATCH = 18  # seed 002 1.1.9 "Royal Match"; seed 003 "Royal Flush + Royal Match"
    SEVEN_CARD_STRAIGHT_FLUSH = 19  # without Joker (seed 002 3.18, seed 003 "Natural")


class PayKind(StrEnum):
    TO_ONE = "to-one"
    FOR_ONE = "for-one"
    METER_PERCENT = "meter-percent"
    PUSH = "push"


_PAY_RE = re.compile(r"^\s*([\d,]+(?:\.\d+)?)\s*(to|for)\s*1\s*$", re.IGNORECASE)
_PCT_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


class Pay(BaseModel):
    """One pay: ``kind`` and ``amount`` (the odds for "to 1"/"for 1", the percent for the meter)."""

    model_config = ConfigDict(frozen=True)

    kind: PayKind
    amount: Decimal = Decimal(0)
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> Pay:
        """Read a pay as the seeds print it: ``"2,000 to 1"``, ``"500 for 1"``, ``"25%"``, ``"push"``."""
        t = str(text).strip()
        if t.lower() == "push":
            return cls(kind=PayKind.PUSH, text=t)
        m = _PAY_RE.match(t)
        if m:
            kind = PayKind.TO_ONE if m.group(2).lower() == "to" else PayKind.FOR_ONE
            return cls(kind=kind, amount=Decimal(m.group(1).replace(",", "")), text=t)
        m = _PCT_RE.match(t)
        if m:
            return cls(kind=PayKind.METER_PERCENT, amount=Decimal(m.group(1)), text=t)
        raise ValueError(f"pay {t!r} is not 'N to 1', 'N for 1', 'P%' or 'push'")

    def net(self, wager: Decimal, meter: Decimal | None = None) -> Decimal:
        """The player's net result on a winning ``wager`` (the meter is needed for a % pay)."""
        if self.kind is PayKind.PUSH:
            return Decimal(0)
        if self.kind is PayKind.TO_ONE:
            return wager * self.amount
        if self.kind is PayKind.FOR_ONE:
            return wager * self.amount - wager
        if meter is None:
            raise ValueError(f"pay {self.text!r} is a share of the progressive meter: give the meter amount")
        # seed 003 progressive: the percentage of the meter is the prize for the bet (a $1 sensor
        # bet, seed 004); the wager is not returned.
        return meter * self.amount / Decimal(100) - wager

    def net_units(self) -> Fraction | None:
        """Net result per unit wagered, or None for a share of the meter (it has no fixed value)."""
        if self.kind is PayKind.PUSH:
            return Fraction(0)
        if self.kind is PayKind.TO_ONE:
            return Fraction(self.amount)
        if self.kind is PayKind.FOR_ONE:
            return Fraction(self.amount) - 1
        return None


def _parse_pay(value: Any) -> Any:
    if isinstance(value, str):
        return Pay.parse(value)
    if isinstance(value, int | float):
        raise ValueError(f"pay {value!r} must say 'to 1' or 'for 1' (write e.g. '{value} to 1')")
    return value


def _parse_hand(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return BonusHand[value.strip().upper().replace(" ", "_").replace("-", "_")]
        except KeyError:
            names = ", ".join(h.name for h in BonusHand)
            raise ValueError(f"unknown bonus hand {value!r}; one of: {names}") from None
    return value


class PaytableRow(BaseModel):
    """One printed line: the hand as the seed names it, what it pays, and its Envy Bonus ($)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    hands: Annotated[tuple[Annotated[BonusHand, BeforeValidator(_parse_hand)], ...], Field(min_length=1)]
    pays: Annotated[Pay, BeforeValidator(_parse_pay)]
    envy: Decimal | None = None
    meter: str | None = None  # which progressive meter a "%" pay comes from (seed 003 ML2: Mega/Major/Minor)


def _as_printed(value: Any) -> Any:
    if isinstance(value, float):
        raise ValueError(f"write the figure as printed, quoted (e.g. '{value:.2f}'), to keep its decimals")
    return value


class PublishedFigure(BaseModel):
    """A figure printed beside the paytable, and how the seed printed it (its decimals matter)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    percent: Annotated[Decimal, BeforeValidator(_as_printed)]
    rounding: Literal["truncate", "round"] = "round"
    target: bool = True
    note: str = ""


class EnvyRule(BaseModel):
    """Who wins the Envy Bonus column of this paytable, and on whose hand."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_bet: Decimal = Decimal(5)
    # "wsgc": paid to every player with the minimum bet, once per other player's qualifying hand,
    #         never for his own or the dealer's hand (seed 003 rules 3 and 7.a, seed 000 2.a).
    # "mbs":  seed 002 rule 3.18 with its exclusions 3.18.1.1-3.18.1.3.
    policy: Literal["wsgc", "mbs"] = "wsgc"
    source: str


class Paytable(BaseModel):
    """One paytable, as printed by its seed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9.\-]*$")
    title: str
    game: Game
    bet: BetKind
    source: str
    rows: Annotated[tuple[PaytableRow, ...], Field(min_length=1)]
    envy: EnvyRule | None = None
    published: dict[str, PublishedFigure] = Field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> Paytable:
        seen: dict[BonusHand, str] = {}
        for row in self.rows:
            for hand in row.hands:
                if hand in seen:
                    raise ValueError(
                        f"hand {hand.name} is paid twice (rows {seen[hand]!r} and {row.label!r})"
                    )
                seen[hand] = row.label
            if row.envy is not None and self.envy is None:
                raise ValueError(f"row {row.label!r} has an Envy pay but the paytable has no 'envy' rule")
        return self

    def row_for(self, hand: BonusHand) -> PaytableRow | None:
        """The row that pays ``hand``, or None (the bet loses)."""
        for row in self.rows:
            if hand in row.hands:
                return row
        return None

    @property
    def has_meter_pays(self) -> bool:
        return any(r.pays.kind is PayKind.METER_PERCENT for r in self.rows)


class PaytableError(ValueError):
    """A paytable file is missing or invalid; the message names the file and the field."""


_DATA = "data/paytables"


def _data_dir() -> Path:
    return Path(str(resources.files("rules").joinpath(_DATA)))


def load_paytable_file(path: Path) -> Paytable:
    """Load and validate one paytable YAML file (a casino may add its own)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PaytableError(f"{path}: cannot read paytable file: {exc}") from exc
    except yaml.YAMLError as exc:
        raise PaytableError(f"{path}: not valid YAML: {exc}") from exc
    try:
        return Paytable.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"  {where}: {err['msg']}")
        raise PaytableError(f"{path}: invalid paytable:\n" + "\n".join(lines)) from None


@cache
def _all() -> dict[str, Paytable]:
    tables: dict[str, Paytable] = {}
    for path in sorted(_data_dir().glob("*.yaml")):
        table = load_paytable_file(path)
        if table.name in tables:
            raise PaytableError(f"{path}: name: paytable {table.name!r} is defined twice")
        tables[table.name] = table
    return tables


def paytable_names(game: Game | None = None, bet: BetKind | None = None) -> list[str]:
    """Names of the shipped paytables, optionally of one game and/or one bet."""
    return [
        n for n, t in _all().items() if (game is None or t.game is game) and (bet is None or t.bet is bet)
    ]


def load_paytable(name: str) -> Paytable:
    """A shipped paytable by name (``paytable_names()`` lists them)."""
    tables = _all()
    if name not in tables:
        raise PaytableError(f"unknown paytable {name!r}; known: {', '.join(tables)}")
    return tables[name]
