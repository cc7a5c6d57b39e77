"""The games the engine knows: how many cards, how they split, which house way is the default.

| game | cards | high / low | source |
|---|---|---|---|
| ``seven-card`` (Fortune Pai Gow Poker) | 7 of 53 | 5 / 2 | seed 002 rules 1.1.5, 1.1.8; seed 003 |
| ``six-card`` (6 Card Fortune Pai Gow Poker) | 6 of 53 | 5 / 1 | seed 000 (five-card high, one-card low) |
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["GAMES", "GameSpec", "get_game"]


class GameSpec(BaseModel):
    """One Pai Gow variant: card counts and the default house way."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    cards: int
    high_size: int
    low_size: int
    default_house_way: str
    source: str


GAMES: dict[str, GameSpec] = {
    g.name: g
    for g in (
        GameSpec(
            name="seven-card",
            title="Fortune Pai Gow Poker",
            cards=7,
            high_size=5,
            low_size=2,
            default_house_way="mbs-7card",
            source="seed 002 rules 1.1.5, 1.1.8, Appendix A; seed 003",
        ),
        GameSpec(
            name="six-card",
            title="6 Card Fortune Pai Gow Poker",
            cards=6,
            high_size=5,
            low_size=1,
            default_house_way="wsgc-6card",
            source="seed 000 (Rules and Dealing Procedures, rule 6)",
        ),
    )
}


def get_game(name: str) -> GameSpec:
    """The game called ``name`` (``seven-card`` or ``six-card``); ValueError names the choices."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}") from None
