"""The ``paigow-monitor`` command line: one typer app; each package registers its own commands.

Heavy imports (numba kernels, OpenCV, the detector) happen inside the commands, so that
``paigow-monitor --help`` and the quick rules commands start fast.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="paigow-monitor",
    help="Fortune Pai Gow Poker surveillance and i-Verify compliance monitor.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    from compliance import _commands
    from render import cli as render_cli
    from rules import cli as rules_cli
    from vision import cli as vision_cli

    rules_cli.register(app)
    vision_cli.register(app)
    render_cli.register(app)
    _commands.register(app)


_register()
