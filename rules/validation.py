"""How the file loaders word a pydantic ``ValidationError``: a header, then one line per bad field.

Shared by the loaders of house ways (``rules.houseway``), table layouts (``vision.layout``) and
scenarios (``render.scenario``); it lives here because those packages may import ``rules`` and
``rules`` imports neither of them.
"""

from __future__ import annotations

from pydantic import ValidationError

__all__ = ["format_validation_error"]


def format_validation_error(
    header: str, err: ValidationError, *, root: str = "<root>", show_input: bool = False
) -> str:
    """``header``, then ``  <field.path>: <pydantic's message>`` for each problem.

    ``root`` names a problem with the whole document (an empty field path). ``show_input`` adds
    `` (got <value>)`` after the message when the bad value is a scalar (a mapping or a list would
    repeat half the file).
    """
    lines = [header]
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or root
        got = e.get("input")
        shown = show_input and got is not None and not isinstance(got, dict | list)
        lines.append(f"  {loc}: {e['msg']}{f' (got {got!r})' if shown else ''}")
    return "\n".join(lines)
