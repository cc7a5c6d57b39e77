"""Many rendered camera batches scored at once: one row a batch, and the pooled figures over them all.

    .venv/bin/python benchmarks/batches_table.py /tmp/vb78 /tmp/vb79 ... [--eval eval.json]

Each folder is a ``benchmarks/compliance_batch.py --video --camera --out B`` run (its
``batch_report.json``: the alerts through the camera) that has also been scored card by card with
``paigow-monitor eval-vision B/clips --json B/eval.json`` (the name ``--eval`` gives). A folder
missing either is named and left out; a folder with neither is an error.

Prints, per batch: its camera (the clips' layout), per-card precision and recall of face-up cards
(``eval-vision``'s counts, every zone pooled), rounds read exactly, whether both per-card targets
(99.5 %) are met, and from the batch report the findings alerted of the true ones, false alerts,
rounds rebuilt and review items. Then, per camera: how many batches meet both per-card targets, and
precision and recall pooled over every card moment of them all (a figure no one batch's luck sets).

Pooling is by counts, not by averaging the batches' ratios: a batch with more cards weighs more.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

TARGET = 0.995


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: not readable as JSON ({e})") from None


def _camera(batch: Path) -> str:
    """The camera of a batch's clips: WIDTHxHEIGHT of the layout beside its first clip."""
    for truth in sorted((batch / "clips").glob("*.truth.json")):
        layout = batch / "clips" / str(_load(truth).get("layout", ""))
        try:
            spec = yaml.safe_load(layout.read_text())
            return f"{int(spec['image_width'])}x{int(spec['image_height'])}"
        except (OSError, KeyError, TypeError, ValueError, yaml.YAMLError):
            continue
    return "?"


def card_counts(scores: Any, source: Path) -> dict[str, int]:
    """tp, fp, fn and unnamed pooled over every clip and zone of an ``eval-vision --json`` file, with
    its rounds and rounds read exactly."""
    if not isinstance(scores, list):
        raise SystemExit(f"{source}: not an eval-vision --json file (expected a list of clip scores)")
    out = dict.fromkeys(("tp", "fp", "fn", "unnamed", "rounds", "rounds_exact"), 0)
    for i, clip in enumerate(scores):
        try:
            for zone in clip["zones"].values():
                for k in ("tp", "fp", "fn", "unnamed"):
                    out[k] += int(zone[k])
            out["rounds"] += int(clip["rounds"])
            out["rounds_exact"] += int(clip["rounds_exact"])
        except (KeyError, TypeError, AttributeError, ValueError):
            raise SystemExit(f"{source}: clip {i}: no zones, rounds or rounds_exact") from None
    return out


def _ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("batches", type=Path, nargs="+", help="compliance_batch.py --camera output folders")
    ap.add_argument("--eval", default="eval.json", help="the eval-vision --json file in each folder")
    args = ap.parse_args(argv)

    pooled: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    names = [b.name for b in args.batches]
    label = {b: (b.name if names.count(b.name) == 1 else str(b)) for b in args.batches}
    width = max(10, *(len(v) for v in label.values()))
    print(
        f"{'batch':<{width}} {'camera':<10} {'P':>7} {'R':>7} {'exact':>6}  {'targets':<8}"
        f" {'alerts':>7} {'false':>5} {'rebuilt':>8} {'review':>6}"
    )
    shown = 0
    for batch in args.batches:
        ev, rep = batch / args.eval, batch / "batch_report.json"
        if not ev.exists() and not rep.exists():
            raise SystemExit(f"{batch}: neither {args.eval} nor batch_report.json: not a scored batch")
        if not ev.exists() or not rep.exists():
            print(f"{label[batch]:<{width}} left out: {ev.name if not ev.exists() else rep.name} missing")
            continue
        c = card_counts(_load(ev), ev)
        report = _load(rep)
        try:
            e = report["evaluation"]
            alerts = f"{int(e['findings_found'])}/{int(e['findings_true'])}"
            false, review = int(e["false_alerts"]), int(e["review_items"])
            rebuilt = f"{int(e['rounds_rebuilt'])}/{int(e['rounds_true'])}"
        except (KeyError, TypeError, ValueError):
            raise SystemExit(f"{rep}: no evaluation totals as compliance_batch.py writes") from None
        p, r = _ratio(c["tp"], c["tp"] + c["fp"]), _ratio(c["tp"], c["tp"] + c["fn"])
        met = p >= TARGET and r >= TARGET
        cam = _camera(batch)
        print(
            f"{label[batch]:<{width}} {cam:<10} {p:7.4f} {r:7.4f} {c['rounds_exact']:>3}/{c['rounds']:<2}"
            f"  {'both' if met else 'short':<8} {alerts:>7} {false:>5} {rebuilt:>8} {review:>6}"
        )
        shown += 1
        acc = pooled[cam]
        for k, v in c.items():
            acc[k] += v
        acc["batches"] += 1
        acc["met"] += int(met)
        acc["false"] += false
        acc["found"] += int(e["findings_found"])
        acc["true"] += int(e["findings_true"])
    if not shown:
        return 1
    print()
    for cam, acc in sorted(pooled.items()):
        p = _ratio(acc["tp"], acc["tp"] + acc["fp"])
        r = _ratio(acc["tp"], acc["tp"] + acc["fn"])
        print(
            f"{cam}: {acc['met']} of {acc['batches']} batches meet both per-card targets; pooled over "
            f"{acc['tp'] + acc['fn']} true card moments P {p:.4f} / R {r:.4f} "
            f"(tp {acc['tp']} fp {acc['fp']} fn {acc['fn']}, {acc['unnamed']} of the fn seen but not "
            f"named); rounds exact {acc['rounds_exact']}/{acc['rounds']}; alerts {acc['found']}/"
            f"{acc['true']}, {acc['false']} false"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
