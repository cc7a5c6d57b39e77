"""Settings: one way to split a dealt hand into a five-card high hand and a low hand.

A 7-card hand (seed 002) splits into 5 high + 2 low in 21 ways; a 6-card hand (seed 000) into
5 high + 1 low in 6 ways. A setting *fouls* when its low hand outranks its high hand (seed 002
rules 1.1.5, 1.1.8 and 3.7.2; seed 000 rule 5), compared the Pai Gow way:

* a 2-card low pair fouls unless the high hand holds a pair at least as high, or a better
  category (two pairs or better);
* a no-pair low fouls when its cards outrank the high hand's two highest cards (the high hand
  having no pair); a 1-card low fouls when it outranks the high hand's highest card.

``setting_key`` is ``(high_value, low_value)``: two settings equal in rank compare equal, which
is how compliance reads "a setting equal in rank to the house way is compliant" (e.g. which of
two equal cards goes low does not matter).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rules import _kernels as _k
from rules.cards import Card, format_cards
from rules.ranking import describe_high, describe_low, high_value, low_value

__all__ = [
    "LOW_POSITIONS",
    "Setting",
    "SettingError",
    "all_settings",
    "is_foul",
    "setting_from_low",
    "setting_key",
]


class SettingError(ValueError):
    """A setting that does not fit the dealt cards or the game."""


@dataclass(frozen=True, slots=True)
class Setting:
    """A five-card high hand and a 2-card (7-card game) or 1-card (6-card game) low hand."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.high) != 5 or len(self.low) not in (1, 2):
            raise SettingError(
                f"a setting needs 5 high cards and 1 or 2 low cards, but got "
                f"{len(self.high)} high and {len(self.low)} low"
            )
        codes = [c.code for c in (*self.high, *self.low)]
        if len(set(codes)) != len(codes):
            raise SettingError(f"a card appears twice in the setting {self}")

    @property
    def cards(self) -> frozenset[Card]:
        return frozenset((*self.high, *self.low))

    def describe(self) -> str:
        """``"high Kc 6h 4c 3d 2s (High Card, K-6-4-3-2) / low Qh 9s (Q-9)"``."""
        return (
            f"high {format_cards(self.high)} ({describe_high(high_value(self.high))}) / "
            f"low {format_cards(self.low)} ({describe_low(low_value(self.low))})"
        )

    def __str__(self) -> str:
        return f"{format_cards(self.high)} / {format_cards(self.low)}"


def _combos(n: int, low_size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations(range(n), low_size))


# Positions of the low cards of each setting, in the order all_settings() yields them; the
# house-way kernels index settings the same way.
LOW_POSITIONS: dict[int, tuple[tuple[int, ...], ...]] = {7: _combos(7, 2), 6: _combos(6, 1)}


def _low_size(n: int) -> int:
    if n == 7:
        return 2
    if n == 6:
        return 1
    raise SettingError(f"a hand to set has 7 cards (seven-card game) or 6 (six-card game), but got {n}")


def all_settings(cards: Sequence[Card]) -> tuple[Setting, ...]:
    """Every legal way to set the hand: 21 for 7 cards, 6 for 6 cards (cards keep their order)."""
    cards = tuple(cards)
    _low_size(len(cards))
    if len({c.code for c in cards}) != len(cards):
        raise SettingError(f"a card appears twice in {format_cards(cards)}")
    out = []
    for low_pos in LOW_POSITIONS[len(cards)]:
        low = tuple(cards[i] for i in low_pos)
        high = tuple(c for i, c in enumerate(cards) if i not in low_pos)
        out.append(Setting(high=high, low=low))
    return tuple(out)


def setting_from_low(cards: Sequence[Card], low: Sequence[Card]) -> Setting:
    """The setting of ``cards`` that plays ``low`` in the low hand and the rest high."""
    cards = tuple(cards)
    n_low = _low_size(len(cards))
    if len(low) != n_low or not set(low) <= set(cards):
        raise SettingError(
            f"low hand {format_cards(low)} is not {n_low} of the dealt cards {format_cards(cards)}"
        )
    return Setting(high=tuple(c for c in cards if c not in low), low=tuple(low))


def setting_key(setting: Setting) -> tuple[int, int]:
    """``(high_value, low_value)``: equal keys are settings equal in rank."""
    return high_value(setting.high), low_value(setting.low)


def is_foul(setting: Setting) -> bool:
    """True when the low hand outranks the high hand (see the module doc for the comparison)."""
    return bool(_k.fouls(high_value(setting.high), low_value(setting.low)))
