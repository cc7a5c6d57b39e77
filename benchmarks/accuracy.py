"""End-to-end accuracy on the bundled sample footage, with the shipped detector: one script, all figures.

    .venv/bin/python benchmarks/accuracy.py [--out DIR] [--detector-data D] [--footage DIR]

``--footage`` scores another folder of rendered clips with their ground truth instead of the
sample, e.g. a 1280x720 camera batch of held-out decks (``benchmarks/compliance_batch.py --video
--camera --out B`` renders one into ``B/clips``).

Runs, in order, and prints each command's own score lines:
1. ``paigow-monitor eval-vision sample_footage/*.mp4`` (or ``--footage``'s clips): per-card
   precision/recall of face-up cards in every zone and the share of rounds read exactly (targets
   99.5 % / 99.5 % / every round);
2. ``paigow-monitor audit sample_footage --out DIR/audit`` then ``paigow-monitor evaluate``:
   compliance recall, false alerts and rounds rebuilt from the camera (targets 100 % / 0 / all);
3. with ``--detector-data D`` (a ``paigow-monitor export-table-training`` folder), also
   ``paigow-monitor eval-detector --data D``: the detector alone on held-out-deck zone crops.

Each command exits non-zero when its target is missed; this script reports that and goes on, and
exits 1 if any target was missed. Wall times are printed; the machine may be shared.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [str(Path(sys.executable).parent / "paigow-monitor")]  # the console script of this venv


def _run(title: str, args: list[str]) -> bool:
    print(f"\n== {title}\n$ paigow-monitor {' '.join(args)}", flush=True)
    t0 = time.perf_counter()
    res = subprocess.run([*CLI, *args], cwd=ROOT, capture_output=True, text=True)
    lines = (res.stdout + res.stderr).splitlines()
    keep = [ln for ln in lines if not ln.startswith("    ")]  # per-moment detail stays in the JSON
    print("\n".join(keep[-40:]))
    print(f"({time.perf_counter() - t0:.0f} s, exit {res.returncode})", flush=True)
    return res.returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="work folder (default: a temporary one)")
    ap.add_argument(
        "--detector-data", type=Path, help="an export-table-training folder to score the detector on"
    )
    ap.add_argument(
        "--footage",
        type=Path,
        default=ROOT / "sample_footage",
        help="a folder of rendered clips with their ground truth (default: sample_footage)",
    )
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="paigow-accuracy-"))
    out.mkdir(parents=True, exist_ok=True)
    footage = args.footage.resolve()
    clips = sorted(str(p) for p in footage.glob("*.mp4"))
    if not clips:
        print(f"no {footage}/*.mp4", file=sys.stderr)
        return 2
    ok = _run(
        "camera pipeline, shipped detector", ["eval-vision", *clips, "--json", str(out / "vision.json")]
    )
    audit = out / "audit"
    ok &= _run("audit (the main job)", ["audit", str(footage), "--out", str(audit)])
    ok &= _run(
        "compliance against the ground truth", ["evaluate", "--audit", str(audit), "--truth", str(footage)]
    )
    if args.detector_data:
        ok &= _run("detector alone, held-out decks", ["eval-detector", "--data", str(args.detector_data)])
    print(f"\nall targets met: {ok} (work folder {out})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
