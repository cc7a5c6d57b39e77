"""Commands of the render package for ``paigow-monitor``: ``render`` and ``render-samples``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add this package's commands to the main app."""

    @app.command("render")
    def render(
        scenario: Annotated[
            Path | None, typer.Argument(help="Scenario YAML (render/data/scenarios/ has examples).")
        ] = None,
        seed: Annotated[int, typer.Option(help="Seed: same seed, same frames.")] = 0,
        out: Annotated[
            Path, typer.Option(help="Output folder for the clip, its ground truth and layout.")
        ] = Path("."),
        name: Annotated[
            str | None, typer.Option(help="Clip file name (default: the scenario's name).")
        ] = None,
        random_game: Annotated[
            str | None,
            typer.Option(
                "--random", help="No scenario file: draw rounds from the seed for 'seven-card' or 'six-card'."
            ),
        ] = None,
        rounds: Annotated[int, typer.Option(help="Rounds with --random.")] = 2,
        crf: Annotated[int, typer.Option(help="x264 quality (higher: smaller file).")] = 23,
        size: Annotated[str, typer.Option(help="Camera resolution WIDTHxHEIGHT.")] = "1920x1080",
    ) -> None:
        """Render one clip of overhead table video with its exact ground truth."""
        from render.clip import ClipStats, RenderError, render_clip
        from render.scenario import ScenarioError, load_scenario, random_scenario

        try:
            if random_game is not None:
                if random_game not in ("seven-card", "six-card"):
                    raise ScenarioError(f"--random must be 'seven-card' or 'six-card', not {random_game!r}")
                sc = random_scenario(random_game, seed, rounds=rounds)  # type: ignore[arg-type]
            elif scenario is not None:
                sc = load_scenario(scenario)
            else:
                raise ScenarioError("give a scenario YAML or --random GAME")
            stats: list[ClipStats] = []
            truth = render_clip(sc, seed, out, name=name, crf=crf, stats=stats, image_size=_parse_size(size))
        except (ScenarioError, RenderError, ValueError) as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from e
        s = stats[0]
        findings = [f for r in truth.rounds for f in r.findings]
        typer.echo(
            f"{out / truth.clip}: {s.frames} frames, {s.bytes_video / 1e6:.1f} MB, "
            f"{s.ms_per_frame:.1f} ms/frame, "
            f"{len(truth.rounds)} round(s), {len(findings)} injected finding(s)"
        )

    @app.command("render-samples")
    def render_samples_cmd(
        out: Annotated[Path, typer.Option(help="Folder for the sample clips.")] = Path("sample_footage"),
        only: Annotated[
            list[str] | None, typer.Option(help="Render only these scenarios (file stems).")
        ] = None,
        size: Annotated[str, typer.Option(help="Camera resolution WIDTHxHEIGHT.")] = "1920x1080",
    ) -> None:
        """Regenerate the whole sample footage set (render/data/scenarios/*.yaml) and its README."""
        from render.clip import ClipStats
        from render.samples import render_samples

        def progress(name: str, s: ClipStats) -> None:
            typer.echo(
                f"{name}: {s.frames} frames, {s.bytes_video / 1e6:.1f} MB, {s.ms_per_frame:.1f} ms/frame"
            )

        render_samples(out, only=only, progress=progress, image_size=_parse_size(size))


def _parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` -> (1920, 1080); a clear error otherwise (``render.table.parse_image_size``)."""
    from render.table import parse_image_size

    try:
        return parse_image_size(text)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
