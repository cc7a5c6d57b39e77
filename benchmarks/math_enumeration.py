"""Benchmark: the full exhaustive enumeration (C(53,7) and C(53,6) hands) and its figures.

Prints the wall time and hands per second of each game's enumeration (numba compile time
separately, on a tiny deck first), then every paytable's hit frequency and house edge beside the
figures the seeds publish. Target: the whole 7-card enumeration with every paytable under 10
minutes on the project's 2-core machine. Run it niced:

    nice -n 10 .venv/bin/python benchmarks/math_enumeration.py [--game seven-card|six-card|all]
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=["seven-card", "six-card", "all"], default="all")
    args = parser.parse_args()

    from rules.math import count_bonus_hands, run_math
    from rules.paytables import Game

    start = time.perf_counter()
    count_bonus_hands(deck=list(range(12)), k=7)  # compile (or load the cached kernel)
    print(f"kernel compile/load: {time.perf_counter() - start:.2f} s")
    try:
        import numba

        threads = numba.get_num_threads()
    except Exception:  # pragma: no cover - informational only
        threads = -1
    print(f"cpu cores: {os.cpu_count()}, numba threads: {threads}")

    games = [Game.SEVEN_CARD, Game.SIX_CARD] if args.game == "all" else [Game(args.game)]
    start = time.perf_counter()
    report = run_math(games)
    wall = time.perf_counter() - start
    for name, counts in report.counts.items():
        rate = counts.total / counts.seconds
        print(f"{name}: {counts.total:,} hands in {counts.seconds:.2f} s = {rate:,.0f} hands/s")
    print(f"whole run (enumeration + {len(report.paytables)} paytables): {wall:.2f} s wall")
    print()
    print(f"{'paytable':32} {'hit freq':>10} {'house edge':>11}  published")
    checked = bad = 0
    for m in report.paytables:
        edge = "undefined" if m.house_edge_percent is None else f"{m.house_edge_percent:.4f}%"
        figs = []
        for f in m.figures:
            mark = {True: "match", False: "MISMATCH", None: "not a target"}[f.matches]
            figs.append(f"{f.name} {f.published_percent}% ({f.rounding}) {mark}")
            if f.matches is not None:
                checked += 1
                bad += f.matches is False
        print(f"{m.paytable:32} {m.hit_frequency_percent:9.4f}% {edge:>11}  {'; '.join(figs)}")
    for s in report.skipped:
        print(f"{s.paytable:32} not enumerated: {s.reason}")
    print()
    print(f"published target figures reproduced: {checked - bad} of {checked}")


if __name__ == "__main__":
    main()
