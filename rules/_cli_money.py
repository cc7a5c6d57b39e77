"""The money commands of ``paigow-monitor``: ``math`` (exhaustive paytable math) and ``settle``.

Thin commands: they read their options and hand over to ``rules.math.run_math`` and
``rules.settlement.settle_round``. numba is imported only inside ``math``.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from rules.math import MathReport, PaytableMath
    from rules.settlement import RoundResult

__all__ = ["register"]


class _GameChoice(StrEnum):
    SEVEN_CARD = "seven-card"
    SIX_CARD = "six-card"
    ALL = "all"


def _parse_meters(values: list[str]) -> dict[str, Fraction] | None:
    if not values:
        return None
    out: dict[str, Fraction] = {}
    for v in values:
        name, _, amount = v.rpartition("=")
        try:
            out[name.strip()] = Fraction(amount.strip())
        except (ValueError, ZeroDivisionError):
            raise typer.BadParameter(
                f"--meter {v!r}: expected UNITS or NAME=UNITS (the meter in units of the wager)"
            ) from None
    return out


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4f}%"


def _mark(matches: bool | None) -> str:
    return {True: "[green]✓ match[/]", False: "[red]✗ MISMATCH[/]", None: "[yellow]not a target[/]"}[matches]


def _print_paytable(console: Console, m: PaytableMath) -> None:
    from rich.table import Table

    table = Table(title=f"{m.paytable}: {m.title} ({m.game.value}, {m.bet.value})", title_justify="left")
    table.add_column("hand")
    table.add_column("pays", justify="right")
    table.add_column("hands", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("return", justify="right")
    for line in m.lines:
        contrib = "share of meter" if line.contribution is None else f"{line.contribution:.6f}"
        table.add_row(line.label, line.pays, f"{line.count:,}", f"{100 * line.probability:.4f}%", contrib)
    table.add_row("(loses)", "-1", f"{m.losing_hands:,}", f"{100 * m.losing_hands / m.total_hands:.4f}%", "")
    console.print(table)
    console.print(f"  source: {m.source}", highlight=False)
    console.print(f"  hit frequency {_pct(m.hit_frequency_percent)}", highlight=False)
    if m.house_edge_percent is None:
        console.print(f"  house edge: {m.house_edge_note}", highlight=False)
    else:
        console.print(
            f"  house edge {_pct(m.house_edge_percent)}  (exactly {m.house_edge_exact})", highlight=False
        )
    for fig in m.figures:
        how = "truncated" if fig.rounding == "truncate" else "rounded"
        console.print(
            f"  published {fig.name} {fig.published_percent}% ({how});"
            f" enumeration {_pct(fig.computed_percent)}"
            f"  {_mark(fig.matches)}",
            highlight=False,
        )
        if not fig.target or fig.computed_percent is None:
            console.print(f"      {fig.note}", highlight=False)
    console.print()


def _print_report(console: Console, report: MathReport) -> None:
    for game, counts in report.counts.items():
        console.print(
            f"[bold]{game}[/]: {counts.total:,} hands of {counts.hand_size} from {len(counts.deck)} cards"
            f" enumerated in {counts.seconds:.1f} s ({counts.total / max(counts.seconds, 1e-9):,.0f} hands/s)"
        )
    console.print()
    for m in report.paytables:
        _print_paytable(console, m)
    for s in report.skipped:
        console.print(f"[yellow]{s.paytable}[/]: not enumerated: {s.reason}", highlight=False)
    checked = [f for m in report.paytables for f in m.figures if f.matches is not None]
    bad = [f"{m.paytable} {f.name}" for m in report.paytables for f in m.figures if f.matches is False]
    console.print(
        f"[bold]{len(checked) - len(bad)} of {len(checked)} published target figures reproduced[/]"
        + (f"; mismatched: {', '.join(bad)}" if bad else "")
    )


def math(
    game: Annotated[
        _GameChoice, typer.Option("--game", help="Which game's hands to enumerate (all: both).")
    ] = _GameChoice.ALL,
    paytable: Annotated[
        list[str] | None,
        typer.Option("--paytable", help="Paytable name (repeatable); default: every paytable of the game."),
    ] = None,
    meter: Annotated[
        list[str] | None,
        typer.Option(
            "--meter",
            help="Progressive meter in units of the wager, UNITS or NAME=UNITS (e.g. Mega=50000), "
            "to give a house edge to paytables that pay a share of it.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Enumerate every hand and print each paytable's counts, hit frequency and house edge.

    All C(53,7) = 154,143,080 seven-card and C(53,6) = 22,957,480 six-card hands; each figure the
    seeds publish is shown beside it with a match / mismatch mark."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from rules.math import run_math
    from rules.paytables import Game, PaytableError

    games = [Game.SEVEN_CARD, Game.SIX_CARD] if game is _GameChoice.ALL else [Game(game.value)]
    if paytable:
        games = []
    meters = _parse_meters(meter or [])
    err = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} hands"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=as_json,
    ) as bar:
        tasks: dict[Game, TaskID] = {}

        def progress(g: Game, done: int, total: int) -> None:
            if g not in tasks:
                tasks[g] = bar.add_task(f"{g.value}", total=total)
            bar.update(tasks[g], completed=done)

        try:
            report = run_math(games, paytable or None, meters=meters, progress=progress)
        except PaytableError as exc:
            err.print(f"error: {exc}", highlight=False)
            raise typer.Exit(2) from exc
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        _print_report(Console(), report)


def _split_setting(text: str) -> tuple[str | None, str | None]:
    if "|" not in text:
        raise typer.BadParameter(f"setting {text!r}: write it HIGH|LOW, e.g. 'As Ks Qs Js Ts|Kd Qd'")
    high, _, low = text.partition("|")
    return (high.strip() or None), (low.strip() or None)


def _parse_hand(text: str, with_seat: bool) -> dict[str, object]:
    parts = text.split(":")
    out: dict[str, object] = {}
    if with_seat:
        if len(parts) < 2 or not parts[0].strip().isdigit():
            raise typer.BadParameter(f"--player {text!r}: write SEAT:CARDS[:HIGH|LOW], e.g. '3:As Kd ...'")
        out["seat"] = int(parts[0])
        parts = parts[1:]
    if len(parts) > 2:
        raise typer.BadParameter(f"{text!r}: too many ':' (CARDS[:HIGH|LOW])")
    out["cards"] = parts[0]
    if len(parts) == 2 and parts[1].strip():
        out["high"], out["low"] = _split_setting(parts[1])
    return out


_BET_FIELDS = ("main", "fortune", "progressive", "insurance", "double_down", "pai_gowd", "tiger_9")


def _parse_bets(values: list[str]) -> dict[int, dict[str, str]]:
    out: dict[int, dict[str, str]] = {}
    for v in values:
        seat, sep, rest = v.partition(":")
        if not sep or not seat.strip().isdigit():
            raise typer.BadParameter(
                f"--bet {v!r}: write SEAT:BET=AMOUNT[,BET=AMOUNT...], e.g. '3:main=10,fortune=5'"
            )
        for item in rest.split(","):
            name, eq, amount = item.partition("=")
            key = name.strip().lower().replace("-", "_").replace("'", "")
            if not eq or key not in _BET_FIELDS:
                raise typer.BadParameter(
                    f"--bet {v!r}: {item!r} is not BET=AMOUNT with BET one of {', '.join(_BET_FIELDS)}"
                )
            out.setdefault(int(seat), {})[key] = amount.strip()
    return out


class _Game(StrEnum):
    SEVEN_CARD = "seven-card"
    SIX_CARD = "six-card"


class _Variant(StrEnum):
    STANDARD = "standard"
    COMMISSION_FREE = "commission-free"


class _Foul(StrEnum):
    HOUSE_WAY = "house-way"
    LOSE = "lose"


def settle(
    dealer: Annotated[
        str,
        typer.Option(
            "--dealer",
            help="Dealer's cards, optionally with the setting played: 'CARDS[:HIGH|LOW]' "
            "(default: the house way).",
        ),
    ],
    player: Annotated[
        list[str],
        typer.Option(
            "--player",
            help="A seat: 'SEAT:CARDS[:HIGH|LOW]' (repeatable); without a setting the house way sets it.",
        ),
    ],
    game: Annotated[
        _Game, typer.Option("--game", help="seven-card (5/2) or six-card (5/1).")
    ] = _Game.SEVEN_CARD,
    variant: Annotated[
        _Variant, typer.Option("--variant", help="standard, or commission-free (seed 003, 7-card).")
    ] = _Variant.STANDARD,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            help="Wagers of a seat (repeatable): 'SEAT:main=10,fortune=5'; bets: main, fortune, "
            "progressive, insurance, double_down, pai_gowd, tiger_9.",
        ),
    ] = None,
    main: Annotated[
        str, typer.Option("--main", help="Standard wager of a seat with no 'main=' in --bet.")
    ] = "10",
    foul_policy: Annotated[
        _Foul | None,
        typer.Option(
            "--foul-policy", help="house-way (seed 002 3.7.2) or lose (seed 000 rule 5); default by game."
        ),
    ] = None,
    house_way: Annotated[
        str | None, typer.Option("--house-way", help="House way name or YAML path (default: the game's).")
    ] = None,
    commission: Annotated[
        str | None,
        typer.Option(
            "--commission",
            help="Commission percent on winning standard wagers (default: 5 for 7-card standard, else 0).",
        ),
    ] = None,
    commission_waiver: Annotated[
        str | None,
        typer.Option(
            "--commission-waiver",
            help="Waive commission with a Fortune or Pai Gow'd bet of at least this many dollars "
            "(seed 004: 5).",
        ),
    ] = None,
    fortune_paytable: Annotated[
        str | None, typer.Option("--fortune-paytable", help="Fortune Bonus paytable (see 'math').")
    ] = None,
    progressive_paytable: Annotated[
        str | None, typer.Option("--progressive-paytable", help="Progressive paytable.")
    ] = None,
    meter: Annotated[
        list[str] | None,
        typer.Option(
            "--meter", help="Progressive meter amount in dollars, AMOUNT or NAME=AMOUNT (repeatable)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Settle one round: every seat's standard wager and side bets, with the rule that decided each."""
    from pydantic import ValidationError

    from rules.cards import CardParseError
    from rules.houseway import HouseWayError
    from rules.paytables import PaytableError
    from rules.settlement import DealerHand, PlayerHand, SettlementError, TableOptions, settle_round

    try:
        bets = _parse_bets(bet or [])
        meters = {k: str(float(v)) for k, v in (_parse_meters(meter or []) or {}).items()}
        options = TableOptions.model_validate(
            {
                "game": game.value,
                "variant": variant.value,
                "house_way": house_way,
                "foul_policy": foul_policy.value if foul_policy else None,
                "commission_percent": commission,
                "commission_waiver_min_bonus": commission_waiver,
                "fortune_paytable": fortune_paytable,
                "progressive_paytable": progressive_paytable,
                "meters": meters,
            }
        )
        dealer_hand = DealerHand.model_validate(_parse_hand(dealer, with_seat=False))
        players = []
        for text in player:
            fields = _parse_hand(text, with_seat=True)
            seat = int(str(fields["seat"]))
            wagers = {"main": main, **bets.pop(seat, {})}
            players.append(PlayerHand.model_validate({**fields, "wagers": wagers}))
        if bets:
            raise SettlementError(f"--bet: seat(s) {sorted(bets)} have wagers but no --player")
        result = settle_round(options, dealer_hand, players)
    except ValidationError as exc:
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or exc.title
            typer.echo(f"error: {exc.title}: {where}: {err['msg']}", err=True)
        raise typer.Exit(2) from None
    except (SettlementError, CardParseError, HouseWayError, PaytableError, typer.BadParameter) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    _print_round(result)


def _print_round(result: RoundResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[bold]{result.game.value} ({result.variant.value})[/], house way {result.house_way}, "
        f"foul policy {result.foul_policy.value}",
        highlight=False,
    )
    follows = (
        "follows the house way" if result.dealer_follows_house_way else "[red]differs from the house way[/]"
    )
    console.print(
        f"dealer: {' '.join(result.dealer_high)} ({result.dealer_high_hand}) / {' '.join(result.dealer_low)} "
        f"({result.dealer_low_hand}): {follows} [{result.dealer_house_way_rule}]",
        highlight=False,
    )
    for note in result.notes:
        console.print(f"note: {note}", highlight=False)
    for s in result.seats:
        title = (
            f"seat {s.seat}: {' '.join(s.high)} ({s.high_hand}) / {' '.join(s.low)} ({s.low_hand})"
            f", set by {s.set_by}; {s.matchup_detail}"
        )
        if s.fouled:
            title += f"; {s.foul_handling}"
        table = Table(title=title, title_justify="left")
        for col in ("bet", "wager", "result", "net", "detail"):
            table.add_column(col, justify="right" if col in ("wager", "net") else "left")
        for b in s.bets:
            net = "meter share" if b.net is None else f"{b.net:+}"
            table.add_row(b.bet.value, f"{b.wager}", b.outcome.value, net, b.detail)
        table.add_row("total", "", "", "n/a" if s.net is None else f"{s.net:+}", "")
        console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``math`` and ``settle`` to the main app."""
    app.command("math")(math)
    app.command("settle")(settle)
