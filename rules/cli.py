"""Commands of the rules package for ``paigow-monitor``.

``house-way``: what the house way says the dealer must do with a hand (seed 002 Appendix A,
seed 000 rule 6), for the surveillance officer who asks "what should the dealer have done?".
Heavy imports (numba kernels) stay inside the command functions.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

__all__ = ["register"]


class _GameName(StrEnum):
    SEVEN = "seven-card"
    SIX = "six-card"


def register(app: typer.Typer) -> None:
    """Add this package's commands to the main app."""
    from rules import _cli_money  # math, settle

    app.command("house-way")(house_way_command)
    _cli_money.register(app)


def house_way_command(
    cards: Annotated[
        str, typer.Argument(help="The dealt cards, e.g. 'Kc Qh 9s 6h 4c 3d 2s' (Jk = Joker; 10 or T).")
    ],
    game: Annotated[
        _GameName | None,
        typer.Option("--game", help="seven-card or six-card (default: from the number of cards)."),
    ] = None,
    house_way: Annotated[
        str | None,
        typer.Option(
            "--house-way",
            help="House way name (mbs-7card, wsgc-6card, a plug-in), a YAML file, or module:Class. "
            "Default: mbs-7card for seven-card, wsgc-6card for six-card.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Show the house-way setting of a hand: high hand, low hand, and the rule row that decided it."""
    from rules.cards import CardParseError, format_cards, parse_cards
    from rules.games import get_game
    from rules.houseway import HouseWayError, load_house_way
    from rules.ranking import describe_high, describe_low, high_value, low_value

    def fail(message: str) -> typer.Exit:
        typer.echo(f"error: {message}", err=True)
        return typer.Exit(2)

    try:
        dealt = parse_cards(cards)
    except CardParseError as err:
        raise fail(str(err)) from None
    if game is None:
        by_count = {7: "seven-card", 6: "six-card"}
        if len(dealt) not in by_count:
            raise fail(f"got {len(dealt)} cards: a hand has 7 (seven-card) or 6 (six-card)")
        spec = get_game(by_count[len(dealt)])
    else:
        spec = get_game(game.value)
    if len(dealt) != spec.cards:
        raise fail(
            f"the {spec.name} game deals {spec.cards} cards, but got {len(dealt)}: {format_cards(dealt)}"
        )
    try:
        way = load_house_way(house_way or spec.default_house_way)
        if way.game.name != spec.name:
            raise fail(f"house way {way.name!r} is for the {way.game.name} game, not {spec.name}")
        result = way.set(dealt)
    except HouseWayError as err:
        raise fail(str(err)) from None
    high, low = result.setting.high, result.setting.low
    if as_json:
        out = {"game": spec.name, "cards": [str(c) for c in dealt], **result.to_dict()}
        out["high_hand"] = describe_high(high_value(high))
        out["low_hand"] = describe_low(low_value(low))
        typer.echo(json.dumps(out, indent=2))
        return
    typer.echo(f"House way {result.house_way} ({spec.name}) for {format_cards(dealt)}")
    typer.echo(f"  High hand: {format_cards(high):<16} {describe_high(high_value(high))}")
    typer.echo(f"  Low hand:  {format_cards(low):<16} {describe_low(low_value(low))}")
    typer.echo(f"  Rule:      {result.rule_id}: {result.rule_text}")
    typer.echo(f"  Source:    {result.cite}")
