"""Cards of the 53-card Pai Gow deck: 52 faces and one Joker, as immutable values.

Notation (SPEC.md "Card notation"): ranks ``2``-``9``, ``T`` (also ``10``), ``J``, ``Q``, ``K``,
``A``; suits ``s h d c`` (also the suit symbols); the Joker ``Jk`` (also ``JOKER`` and ``@``, as
seed 002 Appendix A prints it).

Every card also has a small integer *code*, the form the fast kernels work on:
``code = rank_index * 4 + suit_index`` for the 52 faces (rank_index 0 is a deuce, 12 an Ace;
suit_index 0..3 is s, h, d, c) and ``JOKER_CODE = 52`` for the Joker. The code order is
therefore: ``2s 2h 2d 2c 3s ... Ac Jk``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum, StrEnum

__all__ = [
    "DECK",
    "JOKER",
    "JOKER_CODE",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]

JOKER_CODE = 52


class CardParseError(ValueError):
    """A card token could not be read, or a set of cards repeats one."""


class Rank(IntEnum):
    """Poker rank; the value is the rank's pip order (Ace high = 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return _RANK_CHARS[self.value - 2]


class Suit(StrEnum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def code(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self.code]


_RANK_CHARS = "23456789TJQKA"
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_SYMBOLS = "♠♥♦♣"
_SUIT_ALIASES = {
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_JOKER_ALIASES = {"jk", "joker", "@", "jkr"}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One card of the 53-card deck. ``Card.from_code(52)`` (or ``JOKER``) is the Joker."""

    code: int

    def __post_init__(self) -> None:
        if not 0 <= self.code <= JOKER_CODE:
            raise CardParseError(f"card code must be in 0..{JOKER_CODE}, but got {self.code}")

    @classmethod
    def from_code(cls, code: int) -> Card:
        return _BY_CODE[code]

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return _BY_CODE[(int(rank) - 2) * 4 + suit.code]

    @property
    def is_joker(self) -> bool:
        return self.code == JOKER_CODE

    @property
    def rank(self) -> Rank | None:
        """The printed rank, or None for the Joker (whose value depends on the hand)."""
        return None if self.is_joker else Rank(self.code // 4 + 2)

    @property
    def suit(self) -> Suit | None:
        return None if self.is_joker else _SUIT_ORDER[self.code % 4]

    @property
    def pip(self) -> int:
        """Rank value 2..14; the Joker counts as an Ace (14) wherever it is not wild."""
        return 14 if self.is_joker else self.code // 4 + 2

    def __str__(self) -> str:
        if self.is_joker:
            return "Jk"
        return f"{_RANK_CHARS[self.code // 4]}{_SUIT_ORDER[self.code % 4].value}"

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: Card) -> bool:
        """Sort by rank then suit, the Joker last (a display order, not a hand ranking)."""
        return self.code < other.code


_BY_CODE: tuple[Card, ...] = tuple(object.__new__(Card) for _ in range(JOKER_CODE + 1))
for _code, _card in enumerate(_BY_CODE):
    object.__setattr__(_card, "code", _code)

JOKER: Card = _BY_CODE[JOKER_CODE]
DECK: tuple[Card, ...] = _BY_CODE  # the 53-card deck, in code order

_TOKEN_SPLIT = re.compile(r"[\s,;]+")


def parse_card(token: str) -> Card:
    """Read one card such as ``As``, ``10h``, ``T♦``, ``Jk``, ``JOKER`` or ``@``."""
    raw = token
    tok = token.strip()
    if tok.lower() in _JOKER_ALIASES:
        return JOKER
    if len(tok) < 2:
        raise CardParseError(f"bad card {raw!r}: expected rank then suit, like 'As', 'Td' or 'Jk'")
    rank_part, suit_part = tok[:-1], tok[-1]
    suit = _SUIT_ALIASES.get(suit_part.lower())
    if suit is None:
        raise CardParseError(f"bad card {raw!r}: unknown suit {suit_part!r} (use s, h, d, c or ♠♥♦♣)")
    rank_part = rank_part.upper()
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) != 1 or rank_part not in _RANK_CHARS:
        raise CardParseError(f"bad card {raw!r}: unknown rank {rank_part!r} (use 2-9, T or 10, J, Q, K, A)")
    return Card.of(Rank(_RANK_CHARS.index(rank_part) + 2), suit)


def _tokens(text: str) -> Iterator[str]:
    """Split card text: separated by spaces/commas, or packed like ``AsKd`` / ``A♣,A♥``."""
    for chunk in _TOKEN_SPLIT.split(text.strip()):
        if not chunk:
            continue
        if chunk.lower() in _JOKER_ALIASES:
            yield chunk
            continue
        # Packed tokens: a rank (1-2 chars) followed by a suit, or a Joker alias, repeated.
        i = 0
        while i < len(chunk):
            if chunk[i] == "@":
                yield "@"
                i += 1
                continue
            if chunk[i : i + 2].lower() == "jk":
                yield chunk[i : i + 2]
                i += 2
                continue
            width = 3 if chunk[i : i + 2] == "10" else 2
            yield chunk[i : i + width]
            i += width


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Read several cards (``"As Kd Tc Jk"``, ``"AsKdTcJk"`` or a list of tokens).

    Duplicates are refused (one deck of 53, seed 002 rule 2.1) unless ``allow_duplicates``.
    """
    tokens = list(_tokens(text)) if isinstance(text, str) else [t for t in text]
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for tok in tokens:
        card = parse_card(tok)
        if not allow_duplicates and card in seen:
            raise CardParseError(f"duplicate card {tok!r}: {card} appears twice (one 53-card deck)")
        seen[card] = tok
        cards.append(card)
    return tuple(cards)


def format_cards(cards: Iterable[Card], *, symbols: bool = False, sep: str = " ") -> str:
    """Print cards as text (``As Kd Jk``), or with suit symbols (``A♠ K♦ Jk``)."""
    out = []
    for c in cards:
        if symbols and not c.is_joker:
            out.append(f"{str(c)[0]}{c.suit.symbol}" if c.suit else str(c))
        else:
            out.append(str(c))
    return sep.join(out)
