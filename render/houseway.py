"""The renderer's door to the rules engine: house-way settings, fouls, other settings to inject, and
the result of a seat's wager.

The house way is ``rules.houseway`` (``mbs-7card`` for the 7-card game, seed 002 Appendix A;
``wsgc-6card`` for the 6-card game, seed 000 rule 6); fouls are ``rules.settings.is_foul``; a wager's
result is ``rules.settlement.settle_round`` (seed 002 3.11-3.15, seed 000 rule 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from rules.cards import Card
from rules.settings import Setting, all_settings, is_foul, setting_key
from rules.sidebets import BetResult
from vision.layout import Game

__all__ = [
    "foul_setting_exists",
    "house_way",
    "is_foul_cards",
    "other_setting",
    "random_fair_setting",
    "wager_result",
]

_HOUSE_WAYS = {"seven-card": "mbs-7card", "six-card": "wsgc-6card"}


@lru_cache(maxsize=2)
def _engine(game: Game) -> Any:
    from rules.houseway import load_house_way

    return load_house_way(_HOUSE_WAYS[game])


def house_way(game: Game, cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(high, low) of the house-way setting of ``cards``."""
    s: Setting = _engine(game).set(tuple(cards)).setting
    return tuple(s.high), tuple(s.low)


def is_foul_cards(high: Sequence[Card], low: Sequence[Card]) -> bool:
    return is_foul(Setting(high=tuple(high), low=tuple(low)))


def foul_setting_exists(cards: Sequence[Card]) -> bool:
    return any(is_foul(s) for s in all_settings(cards))


def random_fair_setting(
    cards: Sequence[Card], rng: np.random.Generator, foul: bool
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A player's own setting: any non-foul one (or, ``foul=True``, a foul one)."""
    pool = [s for s in all_settings(cards) if is_foul(s) == foul]
    if not pool:
        raise ValueError(f"no {'foul' if foul else 'legal'} setting of {' '.join(map(str, cards))}")
    s = pool[int(rng.integers(len(pool)))]
    return s.high, s.low


def other_setting(
    game: Game, cards: Sequence[Card], rng: np.random.Generator
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A legal (non-foul) setting that differs in rank from the house way: a dealer breaking it."""
    hw_high, hw_low = house_way(game, cards)
    key = setting_key(Setting(high=hw_high, low=hw_low))
    pool = [s for s in all_settings(cards) if not is_foul(s) and setting_key(s) != key]
    if not pool:
        pool = [s for s in all_settings(cards) if setting_key(s) != key]
    s = pool[int(rng.integers(len(pool)))]
    return s.high, s.low


def wager_result(
    game: Game,
    foul_policy: str,
    dealer: tuple[Sequence[str], Sequence[str]],
    player: tuple[Sequence[str], Sequence[str]],
) -> BetResult | None:
    """The standard wager's result for a seat that set ``player`` (high, low) against the dealer's
    played setting ``dealer`` (high, low): ``rules.settlement.settle_main_wager`` with the table's foul
    policy (the layout's ``house-way-reset``: seed 002 3.7.2; ``loses``: seed 000 rule 5). None when
    the rules cannot settle it (a hand of the wrong size, a card twice in the round)."""
    from rules.paytables import Game as RulesGame
    from rules.settlement import FoulPolicy, SettlementError, TableOptions, settle_main_wager

    policy = FoulPolicy.HOUSE_WAY if foul_policy == "house-way-reset" else FoulPolicy.LOSE
    options = TableOptions(game=RulesGame(game), foul_policy=policy)
    try:
        return settle_main_wager(options, dealer, player, house_way=_engine(game))
    except SettlementError:
        return None
