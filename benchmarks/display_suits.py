"""What the card body tells of the i-Verify display's pip faces' suits, against the truth.

    .venv/bin/python benchmarks/display_suits.py BATCH_DIR [BATCH_DIR ...] [--clips GLOB] [--sure 0.6]

``BATCH_DIR``: a rendered batch (``benchmarks/compliance_batch.py ... --video --out DIR``; its
``clips/*.mp4`` with their ``.states.jsonl`` truth). Every clip is read as ``eval-vision`` reads it,
but with the display's pip look off (``OnnxCardDetector._suit_by_pips``), so the reads are the index's
own; on every display read, each face box read as a pip face (2-10, the ace) has its card body read
(``card_body.onnx``, the window below the box, as the look cuts it) and is matched to the display's
true card of its rank (of its colour where the display shows two of that rank; skipped where that
leaves none or two). Distinct reads (clip, truth, read, box, confidence) are counted once.

Prints, over the reads whose body names the read's rank (its window is that card's): how many were
right and how many misread in another suit; of the misreads, on how many the body is sure of the true
suit against the read's (``--sure``, ``vision.card_body.WHOLE_SUIT_SURE``: the two suits' probabilities
that far apart as a share of their sum, the surer at 0.3 or more); of the right reads, on how many it
is sure of another suit against the read's (each listed). That is what the pip look turns, right and
wrong: the forty-eighth session chose 0.6 on it.
"""

from __future__ import annotations

import argparse
import bisect
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_SUITS = "shdc"  # card codes: rank * 4 + suit


def _truth_at(states: list[dict[str, Any]], times: list[float], t: float) -> list[str]:
    i = bisect.bisect_right(times, t) - 1
    if i < 0:
        return []
    iv = states[i]["iverify"]
    return [*iv["high"], *iv["low"]]


def _probe(clips: list[Path]) -> list[dict[str, Any]]:
    """Every display pip-face box read in ``clips``, with its body's suit and rank and its true card."""
    import vision.detector as det_mod
    import vision.pipeline as pipe_mod
    from vision.card_body import PIP_FACES, body_ranks
    from vision.detections import CLASSES
    from vision.evaluate import evaluate_clip

    now: dict[str, Any] = {"display": False, "t": 0.0, "clip": "", "states": [], "times": []}
    rows: list[dict[str, Any]] = []
    detect, read, read_indices = (
        pipe_mod.TablePipeline._detect,
        pipe_mod.TablePipeline._read,
        det_mod.OnnxCardDetector._read_indices,
    )

    def on_detect(self: Any, r: Any, crop: Any, *a: Any, **k: Any) -> Any:
        now["display"] = r.kind == "iverify"
        try:
            return detect(self, r, crop, *a, **k)
        finally:
            now["display"] = False

    def on_read(self: Any, w: Any, image: Any, t: float, *a: Any, **k: Any) -> Any:
        now["t"] = t
        return read(self, w, image, t, *a, **k)

    def on_read_indices(
        self: Any, image: Any, xyxy: Any, cls: Any, score: Any, body_px: Any = None, whole: Any = False
    ) -> Any:
        got = read_indices(self, image, xyxy, cls, score, body_px, False)  # the index's own reads
        if not (now["display"] and self._body is not None and body_px):
            return got
        found = got[0]
        pip = PIP_FACES[found.class_id]
        if not pip.any():
            return got
        body = self._body.probs(image, list(found.xyxy[pip]), xyxy, body_px)
        shown = _truth_at(now["states"], now["times"], now["t"])
        for box, code, conf, p in zip(
            found.xyxy[pip], found.class_id[pip], found.confidence[pip], body, strict=True
        ):
            label = CLASSES[int(code)]
            same = [c for c in shown if c[0] == label[0]]
            if len(same) > 1:
                same = [c for c in same if (c[1] in "sc") == (label[1] in "sc")]
            if len(same) != 1:
                continue
            suits = p[:52].reshape(13, 4).sum(axis=0)
            rows.append(
                {
                    "clip": now["clip"],
                    "t": round(now["t"], 2),
                    "read": label,
                    "conf": round(float(conf), 2),
                    "truth": same[0],
                    "box": tuple(int(v) // 10 for v in box[:2]),
                    "suits": {s: float(suits[j]) for j, s in enumerate(_SUITS)},
                    "rank": "23456789TJQKA"[int(body_ranks(p[None])[0].argmax())],
                }
            )
        return got

    pipe_mod.TablePipeline._detect = on_detect  # type: ignore[method-assign]
    pipe_mod.TablePipeline._read = on_read  # type: ignore[method-assign]
    det_mod.OnnxCardDetector._read_indices = on_read_indices  # type: ignore[method-assign, assignment]
    try:
        for clip in clips:
            text = Path(f"{clip.with_suffix('')}.states.jsonl").read_text()
            states = [json.loads(line) for line in text.splitlines() if line.strip()]
            now.update(clip=clip.name, states=states, times=[s["t"] for s in states])
            evaluate_clip(clip)
            print(f"  {clip.name}: {len(rows)} pip-face box reads so far", file=sys.stderr)
    finally:
        pipe_mod.TablePipeline._detect = detect  # type: ignore[method-assign]
        pipe_mod.TablePipeline._read = read  # type: ignore[method-assign]
        det_mod.OnnxCardDetector._read_indices = read_indices  # type: ignore[method-assign]
    return rows


def _sure_against(suits: dict[str, float], suit: str, sure: float) -> str | None:
    """The body's surest suit where it is sure against ``suit`` (``pip_suit_weights``' test), else None."""
    top = max(suits, key=lambda s: suits[s])
    if top == suit or suits[top] < 0.3 or suits[top] - suits[suit] < sure * (suits[top] + suits[suit]):
        return None
    return top


def main() -> int:
    from vision.card_body import WHOLE_SUIT_SURE

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("batches", nargs="+", type=Path, help="rendered batch folders (their clips/)")
    ap.add_argument("--clips", default="*.mp4", help="which clips of each batch (a glob)")
    ap.add_argument("--sure", type=float, default=WHOLE_SUIT_SURE)
    args = ap.parse_args()
    clips = [c for b in args.batches for c in sorted((b / "clips").glob(args.clips))]
    if not clips:
        print(f"no clips under {', '.join(str(b / 'clips') for b in args.batches)}", file=sys.stderr)
        return 2
    distinct = {(r["clip"], r["truth"], r["read"], r["box"], r["conf"]): r for r in _probe(clips)}
    mine = [r for r in distinct.values() if r["rank"] == r["read"][0] == r["truth"][0]]
    right = [r for r in mine if r["read"] == r["truth"]]
    wrong = [r for r in mine if r["read"] != r["truth"]]
    fixed = [r for r in wrong if _sure_against(r["suits"], r["read"][1], args.sure) == r["truth"][1]]
    turned = [r for r in right if _sure_against(r["suits"], r["read"][1], args.sure) is not None]
    print(f"{len(clips)} clips; {len(mine)} distinct display pip-face reads whose body names their rank")
    print(f"misread in another suit: {len(wrong)}; the body sure of the truth against the read: {len(fixed)}")
    print(f"read right: {len(right)}; the body sure of another suit against the read: {len(turned)}")
    for r in turned:
        print(f"  turned: {r['clip']} t={r['t']} {r['truth']} read at {r['conf']}, body {r['suits']}")
    for r in wrong:
        if r not in fixed:
            print(f"  left: {r['clip']} t={r['t']} {r['truth']} read {r['read']} at {r['conf']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
