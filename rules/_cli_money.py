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
    """Enumerate every hand (C(53,7) / C(53,6)) and print each paytable's counts, hit frequency and
    house edge beside the seeds' published figures."""
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


def register(app: typer.Typer) -> None:
    """Add ``math`` and ``settle`` to the main app."""
    app.command("math")(math)
