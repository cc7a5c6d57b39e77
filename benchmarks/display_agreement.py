"""How often the felt's and the i-Verify display's reads of one hand agree, and whether they are then right.

    .venv/bin/python benchmarks/display_agreement.py AUDIT_DIR TRUTH_DIR [AUDIT_DIR TRUTH_DIR ...]

``AUDIT_DIR``: a ``paigow-monitor audit`` output made through the camera (its ``clips/*/result.json``);
``TRUTH_DIR``: the folder of those clips' ``<clip>.truth.json``. For every DEALER_SET and PLAYER_EXPOSED
event of a position the i-Verify display showed (IVERIFY_DEALER / IVERIFY_SEAT), the felt's faces are
compared with each display's: when one shows exactly the same faces (``PositionState.corroborated``
combines the two reads then), the hand is scored against the truth's cards of that position. Prints the
agreeing hands, how many were right, and each wrong one (with both reads) - the check of the claim in
``compliance.rounds.PositionState.corroborated`` that two agreeing pictures are rarely both wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def score(audit: Path, truth_dir: Path) -> tuple[Counter[str], list[str]]:
    stats: Counter[str] = Counter()
    wrong: list[str] = []
    results = sorted(audit.glob("clips/*/result.json"))
    if not results:
        raise SystemExit(f"{audit}: no clips/*/result.json (not an audit output)")
    for rj in results:
        clip = rj.parent.name
        truth_path = truth_dir / f"{clip}.truth.json"
        if not truth_path.is_file():
            raise SystemExit(f"{truth_path}: no ground truth for audited clip {clip}")
        truth = json.loads(truth_path.read_text())
        for rnd in json.loads(rj.read_text())["rounds"]:
            tr = next((r for r in truth["rounds"] if r["round"] == rnd["round"]), None)
            if tr is None:
                continue
            true = {h["position"]: sorted(h["cards"]) for h in tr["hands"]}
            shown: dict[str, list[dict]] = {}
            for e in rnd["events"]:
                if e["kind"] in ("iverify_dealer", "iverify_seat"):
                    shown.setdefault(e["position"], []).append(e)
            for e in rnd["events"]:
                if e["kind"] not in ("dealer_set", "player_exposed") or not shown.get(e["position"]):
                    continue
                felt = sorted(e["high"] + e["low"])
                same = [d for d in shown[e["position"]] if sorted(d["high"] + d["low"]) == felt]
                if not same:
                    stats["disagree"] += 1
                    continue
                right = felt == true.get(e["position"])
                stats["agree, right" if right else "agree, wrong"] += 1
                if not right:
                    display = max(d.get("read_confidence") or 0.0 for d in same)
                    wrong.append(
                        f"{clip} round {rnd['round']} {e['position']}: read {' '.join(felt)} (felt "
                        f"{e.get('read_confidence') or 0.0:.2f}, display {display:.2f}), "
                        f"true {' '.join(true.get(e['position'], []))}"
                    )
    return stats, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="+", type=Path, help="AUDIT_DIR TRUTH_DIR, one pair per batch")
    a = ap.parse_args(argv)
    if len(a.pairs) % 2:
        ap.error("give AUDIT_DIR TRUTH_DIR pairs")
    total: Counter[str] = Counter()
    for audit, truth_dir in zip(a.pairs[::2], a.pairs[1::2], strict=True):
        stats, wrong = score(audit, truth_dir)
        total += stats
        print(f"{audit}: {dict(stats)}")
        for line in wrong:
            print(f"  {line}")
    agree = total["agree, right"] + total["agree, wrong"]
    print(
        f"all: {agree} hands read the same on the felt and the display, {total['agree, right']} right, "
        f"{total['agree, wrong']} wrong; {total['disagree']} read otherwise on the display"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
