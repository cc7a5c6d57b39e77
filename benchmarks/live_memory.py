"""Live watch memory over a long session: does it grow with the rounds it has watched?

    .venv/bin/python benchmarks/live_memory.py [--hours 10] [--keep-all]

A surveillance room runs ``paigow-monitor live`` for days. This feeds the sample footage's
ground-truth states (``sample_footage/*.states.jsonl`` of the seven-card game), clip after clip and
over again, as one stream with its times running on, to the ``StreamProcessor`` a live watch uses
(``compliance.live``, with the compliance engine, alerts written to a temporary folder), until
``--hours`` of footage have been watched. It prints, every tenth of the way, the rounds watched, the
alerts raised, the rounds and events held in memory and the process's resident memory (peak RSS),
then its growth per hour of footage over the second half (by then what is bounded has filled).

The live watch keeps the last ``compliance.live.LIVE_KEEP_ROUNDS`` closed rounds; ``--keep-all``
keeps every one, as the audit does (and as the live watch did before the thirty-fifth session).
The states carry no pictures: the camera pipeline's own memory (bounded: ``vision/_still_memory.py``)
is ``benchmarks/vision_fps.py``'s; this measures what grows with the rounds.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hours", type=float, default=10.0, help="hours of footage to watch (default 10)")
    ap.add_argument("--keep-all", action="store_true", help="keep every closed round (as an audit does)")
    ap.add_argument("--footage", type=Path, default=ROOT / "sample_footage")
    args = ap.parse_args()

    from compliance.alerts import AlertWriter
    from compliance.live import LIVE_KEEP_ROUNDS, StreamFrame, StreamProcessor, default_monitor, read_states
    from vision.layout import load_layout

    clips = sorted(args.footage.glob("s*-seven-*.states.jsonl"))
    if not clips:
        raise SystemExit(f"{args.footage}: no seven-card .states.jsonl files")
    layout = load_layout(args.footage / "render-7card.layout.yaml")
    seqs = [list(read_states(c)) for c in clips]
    per_pass = sum(seq[-1].t for seq in seqs)
    keep = None if args.keep_all else LIVE_KEEP_ROUNDS
    with tempfile.TemporaryDirectory() as tmp:
        writer = AlertWriter(Path(tmp) / "alerts.jsonl")
        proc = StreamProcessor(
            layout,
            default_monitor(layout, camera=False),
            source_name="live-memory",
            evidence_dir=Path(tmp) / "evidence",
            writer=writer,
            keep_rounds=keep,
        )
        print(
            f"{len(clips)} seven-card sample clips ({per_pass / 60:.1f} min a pass) watched as one stream "
            f"for {args.hours:g} h of footage; rounds kept: {'every one' if keep is None else keep}"
        )
        t_off, f_off, alerts, t = 0.0, 0, 0, 0.0
        marks = [args.hours * 3600 * k / 10 for k in range(1, 11)]
        half: tuple[float, float] | None = None
        wall = time.perf_counter()
        while marks:
            for seq in seqs:
                for st in seq:
                    s = st.model_copy(update={"t": st.t + t_off, "frame": st.frame + f_off})
                    alerts += len(proc.feed(StreamFrame(s)))
                t = s.t
                t_off, f_off = s.t + 2.0, s.frame + 50  # the next clip begins 2 s after this one ends
                if marks and t >= marks[0]:
                    marks.pop(0)
                    rss = _rss_mb()
                    held = len(proc.monitor.rounds)
                    print(
                        f"  {t / 3600:6.2f} h: {proc.current_round or 0:5d} rounds watched, {alerts:4d} "
                        f"alerts, {held:4d} rounds held, {len(proc.events):6d} events held, peak RSS "
                        f"{rss:6.1f} MB ({time.perf_counter() - wall:.0f} s)",
                        flush=True,
                    )
                    if len(marks) == 5:
                        half = (t, rss)
        proc.finish()
        proc.close()
        writer.close()
    assert half is not None
    grew = (_rss_mb() - half[1]) / max(1e-9, (t - half[0]) / 3600)
    print(f"growth over the second half: {grew:.2f} MB per hour of footage ({grew * 24:.0f} MB a day)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
