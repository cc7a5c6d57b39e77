"""The compliance commands of ``paigow-monitor``: live, audit, evaluate."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the compliance commands to the main app."""
