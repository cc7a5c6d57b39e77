"""What the card body tells of the i-Verify display's pip faces' suits, and what the index tells of its
courts', against the truth.

    .venv/bin/python benchmarks/display_suits.py BATCH_DIR [BATCH_DIR ...] [--clips GLOB] [--sure 0.6]
        [--save READS.jsonl]
    .venv/bin/python benchmarks/display_suits.py --load READS.jsonl [READS.jsonl ...] [--sure 0.4,0.5,0.6]

``BATCH_DIR``: a rendered batch (``benchmarks/compliance_batch.py ... --video --out DIR``; its
``clips/*.mp4`` with their ``.states.jsonl`` truth). Every clip is read as ``eval-vision`` reads it,
but with the display's pip look off (``OnnxCardDetector._suit_by_pips``), so the reads are the index's
own; on every display read, each face box read as a pip face (2-10, the ace) has its card body read
(``card_body.onnx``, the window below the box, as the look cuts it) and is matched to the display's
true card in the slot the box lies in (the layout's ``iverify_slots``; a box between slots or in an
empty one is skipped). Distinct reads (clip, truth, read, box, confidence) are counted once.

Prints, over the pip-face reads whose body names the read's rank (its window is that card's): how
many were right and how many misread in another suit; of the misreads, on how many the body is sure
of the true suit against the read's (``--sure``, ``vision.card_body.WHOLE_SUIT_SURE``: the two suits'
probabilities that far apart as a share of their sum, the surer at 0.3 or more); of the right reads,
on how many it is sure of another suit against the read's (each listed). That is what the pip look
turns, right and wrong: the forty-eighth session chose 0.6 on it. Several ``--sure`` (comma-separated)
print a line each, the reads listed for the first only.

Then the display's courts (a court's suit is left to its index there: the body model does not tell
it), each court box whose slot holds a court of the rank it was read: by deck (as a batch
deals its clips without ``--deck``) and true suit, how many were read in each suit, at what
confidence (quartiles).

``--save`` writes the distinct reads (one JSON object a line) and ``--load`` prints from such files
instead of reading clips: batches read in parallel, by one process each, are counted together.
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


def _truth_at(states: list[dict[str, Any]], times: list[float], t: float) -> tuple[list[str], list[str]]:
    """The display's true high and low hands at ``t``."""
    i = bisect.bisect_right(times, t) - 1
    if i < 0:
        return [], []
    iv = states[i]["iverify"]
    return list(iv["high"]), list(iv["low"])


def _slot_card(box: Any, card_px: float, slots: Any, high: list[str], low: list[str]) -> str | None:
    """The true card in the display's slot a box (in the detector's picture of the panel, x = 0 at its
    left edge) lies in, by the box's centre; None between slots or in an empty one. ``card_px``: the
    picture's scale for a real card (the body look's), the panel's own being the drawn card's width to
    a real one's; ``slots``: the layout's ``iverify_slots`` (the high hand from slot 0, the low from
    slot 5, after its break)."""
    from vision.card_body import CARD_MM

    x = (float(box[0]) + float(box[2])) / 2 / (card_px * CARD_MM[0] / slots.card_width_mm)
    for j, card in [*enumerate(high), *((5 + k, c) for k, c in enumerate(low))]:
        left = slots.left_mm(j, 5)
        if left <= x <= left + slots.card_width_mm:
            return str(card)
    return None


def _deck(clip: Path) -> str:
    """The deck a batch clip is dealt from: ``render.clip._deck_for``'s for a batch made without
    ``--deck`` (the held-out decks in turn by the clip's seed, from its batch's ``batch_clips.json``);
    "?" where that is not at hand."""
    from render.artwork import VALIDATION_DECKS

    try:
        clips = json.loads((clip.parent.parent / "batch_clips.json").read_text())["clips"]
        seed = next(int(c["seed"]) for c in clips if c["name"] == clip.stem)
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return "?"
    return VALIDATION_DECKS[seed % len(VALIDATION_DECKS)]


def _row(now: dict[str, Any], read: str, conf: float, truth: str, box: Any, kind: str) -> dict[str, Any]:
    return {
        "clip": now["clip"],
        "deck": now["deck"],
        "kind": kind,
        "t": round(now["t"], 2),
        "read": read,
        "conf": round(conf, 2),
        "truth": truth,
        "box": tuple(int(v) // 10 for v in box[:2]),
    }


def _probe(clips: list[Path]) -> list[dict[str, Any]]:
    """Every display face box read in ``clips`` with its true card: each pip face with its body's suit
    and rank, each court (its index's read alone)."""
    import vision.detector as det_mod
    import vision.pipeline as pipe_mod
    from vision.card_body import PIP_FACES, body_ranks
    from vision.detections import CLASSES
    from vision.evaluate import evaluate_clip

    now: dict[str, Any] = {"display": False, "t": 0.0, "clip": "", "deck": "?", "states": [], "times": []}
    rows: list[dict[str, Any]] = []
    detect, read, read_indices = (
        pipe_mod.TablePipeline._detect,
        pipe_mod.TablePipeline._read,
        det_mod.OnnxCardDetector._read_indices,
    )

    def on_detect(self: Any, r: Any, crop: Any, *a: Any, **k: Any) -> Any:
        now["display"] = r.kind == "iverify"
        now["slots"] = self.layout.iverify_slots
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
        high, low = _truth_at(now["states"], now["times"], now["t"])

        def truth(box: Any) -> str | None:
            return _slot_card(box, body_px, now["slots"], high, low)

        court = ~PIP_FACES[found.class_id] & (found.class_id < 52)  # the Joker and the back are neither
        for box, code, conf in zip(
            found.xyxy[court], found.class_id[court], found.confidence[court], strict=True
        ):
            label, true = CLASSES[int(code)], truth(box)
            if true is not None and true[0] == label[0]:
                rows.append(_row(now, label, float(conf), true, box, kind="court"))
        pip = PIP_FACES[found.class_id]
        if not pip.any():
            return got
        body = self._body.probs(image, list(found.xyxy[pip]), xyxy, body_px)
        for box, code, conf, p in zip(
            found.xyxy[pip], found.class_id[pip], found.confidence[pip], body, strict=True
        ):
            label, true = CLASSES[int(code)], truth(box)
            if true is None:
                continue
            suits = p[:52].reshape(13, 4).sum(axis=0)
            row = _row(now, label, float(conf), true, box, kind="pip")
            row["suits"] = {s: float(suits[j]) for j, s in enumerate(_SUITS)}
            row["rank"] = "23456789TJQKA"[int(body_ranks(p[None])[0].argmax())]
            rows.append(row)
        return got

    pipe_mod.TablePipeline._detect = on_detect  # type: ignore[method-assign]
    pipe_mod.TablePipeline._read = on_read  # type: ignore[method-assign]
    det_mod.OnnxCardDetector._read_indices = on_read_indices  # type: ignore[method-assign, assignment]
    try:
        for clip in clips:
            text = Path(f"{clip.with_suffix('')}.states.jsonl").read_text()
            states = [json.loads(line) for line in text.splitlines() if line.strip()]
            now.update(clip=clip.name, deck=_deck(clip), states=states, times=[s["t"] for s in states])
            evaluate_clip(clip)
            print(f"  {clip.name}: {len(rows)} face box reads so far", file=sys.stderr)
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


def _thresholds(text: str) -> list[float]:
    try:
        out = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not comma-separated numbers: {text!r}") from None
    if not out or any(not 0 <= v <= 1 for v in out):
        raise argparse.ArgumentTypeError(f"each threshold lies in 0..1: {text!r}")
    return out


def _load(paths: list[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        try:
            text = path.read_text()
        except OSError as e:
            raise SystemExit(f"{path}: cannot be read ({e.strerror})") from None
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                row["box"] = tuple(row["box"])
                row.setdefault("kind", "pip")
                row.setdefault("deck", "?")
                if row["kind"] == "pip":
                    row["suits"] = {s: float(row["suits"][s]) for s in _SUITS}
                rows.append(row)
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{path}: line {n}: not a display_suits.py --save row ({e})") from None
    return rows


def main() -> int:
    from vision.card_body import WHOLE_SUIT_SURE

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("batches", nargs="*", type=Path, help="rendered batch folders (their clips/)")
    ap.add_argument("--clips", default="*.mp4", help="which clips of each batch (a glob; .mp4 only)")
    ap.add_argument("--sure", type=_thresholds, default=[WHOLE_SUIT_SURE], help="threshold(s), a,b,...")
    ap.add_argument("--save", type=Path, help="write the distinct reads here (JSON lines)")
    ap.add_argument("--load", type=Path, nargs="+", help="count the reads of --save files, reading no clip")
    args = ap.parse_args()
    if args.load:
        if args.batches:
            ap.error("give batch folders or --load, not both")
        rows, n_clips = _load(args.load), None
    else:
        found = [c for b in args.batches for c in sorted((b / "clips").glob(args.clips))]
        clips = [c for c in found if c.suffix == ".mp4"]
        if not clips:
            where = ", ".join(str(b / "clips") for b in args.batches) or "(no batch folder given)"
            print(f"no clips under {where}", file=sys.stderr)
            return 2
        rows, n_clips = _probe(clips), len(clips)
    distinct = {(r["clip"], r["truth"], r["read"], r["box"], r["conf"]): r for r in rows}
    if args.save:
        args.save.write_text("".join(json.dumps(r) + "\n" for r in distinct.values()))
    mine = [r for r in distinct.values() if r["kind"] == "pip" and r["rank"] == r["read"][0] == r["truth"][0]]
    right = [r for r in mine if r["read"] == r["truth"]]
    wrong = [r for r in mine if r["read"] != r["truth"]]
    clips_said = f"{n_clips} clips" if n_clips is not None else f"{len({r['clip'] for r in rows})} clips read"
    print(f"{clips_said}; {len(mine)} distinct display pip-face reads whose body names their rank")
    print(f"read right: {len(right)}; misread in another suit: {len(wrong)}")
    for k, sure in enumerate(args.sure):
        fixed = [r for r in wrong if _sure_against(r["suits"], r["read"][1], sure) == r["truth"][1]]
        turned = [r for r in right if _sure_against(r["suits"], r["read"][1], sure) is not None]
        print(
            f"--sure {sure:g}: of the misreads, the body sure of the truth against the read on {len(fixed)}; "
            f"of the right reads, sure of another suit against the read on {len(turned)}"
        )
        if k:
            continue
        for r in turned:
            print(f"  turned: {r['clip']} t={r['t']} {r['truth']} read at {r['conf']}, body {r['suits']}")
        for r in wrong:
            if r not in fixed:
                print(f"  left: {r['clip']} t={r['t']} {r['truth']} read {r['read']} at {r['conf']}")
    _courts([r for r in distinct.values() if r["kind"] == "court"])
    return 0


def _courts(rows: list[dict[str, Any]]) -> None:
    """The display's court reads, by deck and true suit: how many read in each suit of the true one's
    colour, and their confidences' quartiles (the index alone names a court's suit there)."""
    if not rows:
        return
    print(f"court reads: {len(rows)} distinct (the index's alone), by deck and true suit:")
    for deck, suit in sorted({(r["deck"], r["truth"][1]) for r in rows}):
        these = [r for r in rows if r["deck"] == deck and r["truth"][1] == suit]
        said = []
        for read in sorted({r["read"][1] for r in these}, key=lambda x: x != suit):
            conf = sorted(r["conf"] for r in these if r["read"][1] == read)
            q = [conf[min(len(conf) - 1, int(f * len(conf)))] for f in (0.25, 0.5, 0.75)]
            said.append(f"read {read} {len(conf)} (conf quartiles {q[0]:.2f} {q[1]:.2f} {q[2]:.2f})")
        print(f"  {deck:<12} true {suit}: " + "; ".join(said))


if __name__ == "__main__":
    raise SystemExit(main())
