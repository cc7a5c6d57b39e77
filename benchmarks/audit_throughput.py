"""Audit throughput: footage seconds audited per wall-clock second, in all and per core.

Runs ``compliance.audit.run_audit`` (the same code as ``paigow-monitor audit``) into a temporary
folder, with ``--force`` so nothing is skipped:

- on ground-truth states (``--states``: the compliance side alone: monitor, evidence, reports), and
- on the videos through the vision pipeline, when ``vision.pipeline`` exists (the whole chain).

Footage: ``sample_footage/`` (or ``--footage DIR``). Where it has no clips yet, a synthetic batch of
ground-truth states is generated (rounds of the test fixtures, repeated) and the figures say so.

    .venv/bin/python benchmarks/audit_throughput.py [--footage DIR] [--workers N] [--modes states,vision]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _synthetic_batch(folder: Path, clips: int, rounds: int) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_audit_support import make_clip  # the tests' fixture rounds (6 s each)

    for i in range(clips):
        make_clip(folder, f"synthetic{i:02d}", pattern=tuple(j % 3 == 1 for j in range(rounds)))


def _has_clips(folder: Path, states: bool) -> bool:
    from compliance.audit import discover

    return folder.is_dir() and any(not j.problem for j in discover([folder], states=states))


def _run(footage: Path, workers: int, states: bool) -> tuple[float, float, int, int, list[str], str]:
    """(footage s, wall s, clips audited, findings, failed clips, first failure's error)."""
    from rich.console import Console

    from compliance.audit import run_audit
    from compliance.reports import load_clip_reports

    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        res = run_audit(
            [footage],
            Path(tmp) / "out",
            workers=workers,
            states=states,
            force=True,
            progress=False,
            console=quiet,
        )
        wall = time.perf_counter() - t0
        errors = [r.error for r in load_clip_reports(Path(tmp) / "out")[0] if r.status != "ok"]
    return res.footage_s, wall, res.audited, res.findings, res.failed, errors[0] if errors else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--footage", type=Path, default=ROOT / "sample_footage")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--modes", default="states,vision")
    ap.add_argument("--synthetic-clips", type=int, default=4)
    ap.add_argument("--synthetic-rounds", type=int, default=50)
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    print(f"machine: {cores} CPU core(s); python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as syn:
        for mode in args.modes.split(","):
            states = mode == "states"
            footage = args.footage
            what = str(footage)
            if not _has_clips(footage, states):
                if not states:
                    print(f"[vision] skipped: no videos in {footage}")
                    continue
                footage = Path(syn)
                if not _has_clips(footage, True):
                    _synthetic_batch(footage, args.synthetic_clips, args.synthetic_rounds)
                what = (
                    f"SYNTHETIC ground-truth states ({args.synthetic_clips} clips x {args.synthetic_rounds} "
                    f"rounds; no clips in {args.footage})"
                )
            if not states:
                try:
                    import vision.pipeline  # noqa: F401
                except ImportError as e:
                    print(f"[vision] skipped: the vision pipeline is not available ({e})")
                    continue
            fs, wall, n, _, failed, error = _run(footage, 1, states)  # warm-up: imports, JIT, file cache
            if failed and len(failed) == n:
                print(f"[{mode}] could not run: every clip failed, e.g. {error}")
                continue
            print(
                f"[{mode}] warm-up run (includes one-off imports and JIT compilation): {fs:.1f} s of footage "
                f"in {wall:.2f} s wall"
            )
            for workers in sorted({1, args.workers}):
                fs, wall, n, findings, failed, error = _run(footage, workers, states)
                rate = fs / wall if wall > 0 else float("nan")
                print(
                    f"[{mode}] {what}: workers={workers}: {n} clip(s), {fs:.1f} s of footage "
                    f"in {wall:.2f} s wall "
                    f"-> {rate:.1f} footage-s per wall-s, {rate / workers:.1f} per core; "
                    f"{findings} finding(s); failed: {failed or 'none'} {error}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
