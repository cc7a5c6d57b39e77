"""The distinct reading errors behind `paigow-monitor eval-vision --json`.

    .venv/bin/paigow-monitor eval-vision B/clips/*.mp4 --json EVAL.json
    .venv/bin/python benchmarks/vision_errors.py EVAL.json [EVAL_BEFORE.json]

``eval-vision`` lists every moment a zone was read wrong, and one misread card stays wrong for
several moments. This groups those moments by clip, round, zone and the cards missing and extra
(the error), prints each with its first time and how many moments it lasted, and counts them: the
"distinct errors" of the model card. Given a second file (the same clips read by other code), it
prints only what differs: the errors gone and the errors new.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path

# "round 2: t=62.72s seat3.high: true ['2d', '8s'] read ['2d']" (i-Verify errors carry no round)
_ERROR = re.compile(r"(?:round (\S+): )?t=([\d.]+)s (\S+): true (\[.*?\]) read (\[.*?\])$")

Key = tuple[str, str, str, tuple[str, ...], tuple[str, ...]]


def distinct_errors(path: Path) -> dict[Key, tuple[float, int]]:
    """Each distinct error in an ``eval-vision --json`` file: (clip, round or "?", zone, cards
    missing, cards extra) -> (its first time, s; the moments it lasted)."""
    try:
        scores = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: not an eval-vision --json file ({e})") from None
    if not isinstance(scores, list):
        raise SystemExit(f"{path}: not an eval-vision --json file (expected a list of clip scores)")
    out: dict[Key, tuple[float, int]] = {}
    for i, clip in enumerate(scores):
        try:
            name = str(clip["clip"])
            errors = [*clip["card_errors"], *clip["iverify_errors"]]
        except (KeyError, TypeError):
            raise SystemExit(f"{path}: clip {i}: no clip, card_errors or iverify_errors field") from None
        for text in errors:
            m = _ERROR.match(text)
            if m is None:
                raise SystemExit(f"{path}: {name}: an error this script does not parse: {text!r}")
            rnd, t, zone, true, read = m.groups()
            a, b = Counter(ast.literal_eval(true)), Counter(ast.literal_eval(read))
            key = (
                name,
                rnd or "?",
                zone,
                tuple(sorted((a - b).elements())),
                tuple(sorted((b - a).elements())),
            )
            first, n = out.get(key, (float(t), 0))
            out[key] = (min(first, float(t)), n + 1)
    return out


def _line(key: Key, first: float, n: int) -> str:
    clip, rnd, zone, missing, extra = key
    return (
        f"{clip:22s} r{rnd:>2s} t={first:7.2f} x{n:<3d} {zone:14s} "
        f"missing {list(missing)} extra {list(extra)}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("eval_json", type=Path, help="eval-vision --json output")
    ap.add_argument("before", type=Path, nargs="?", help="another run's output on the same clips")
    args = ap.parse_args()
    now = distinct_errors(args.eval_json)
    if args.before is None:
        for key in sorted(now):
            print(_line(key, *now[key]))
        print(f"{len(now)} distinct errors, {sum(n for _, n in now.values())} moments")
        return 0
    before = distinct_errors(args.before)
    for what, keys, src in (
        ("gone", before.keys() - now.keys(), before),
        ("new", now.keys() - before.keys(), now),
    ):
        for key in sorted(keys):
            print(f"{what:4s} {_line(key, *src[key])}")
    print(
        f"{len(before)} -> {len(now)} distinct errors: {len(before.keys() - now.keys())} gone, "
        f"{len(now.keys() - before.keys())} new"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
