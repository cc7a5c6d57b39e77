"""Commands of the rules package for ``paigow-monitor``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this package's commands to the main app."""
