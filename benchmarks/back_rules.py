"""Every rule for keeping a still's card backs, each scored as `detect` would score with it.

    .venv/bin/python benchmarks/back_rules.py [--models models/] [--per 2 --seed 13]
        [--photos ~/.cache/paigow-monitor/real-photos] [--ious 0.5]

`detect` keeps a still's card back only where enough of the still's reads turned by a right angle
box it again (``vision.detector._still_backs``: ``_BACK_TURNS``, the turns that count,
``_BACK_TURNS_NEEDED`` of them, at IoU ``_BACK_HALF_TURN_IOU``; the shipped rule is the half turn
alone), and only at the smallest scale of the still's pyramid that boxes a back surely
(``_STILL_BACK_FLOOR``), whether or not any of those backs survives the checks; the rule "first
scale kept" instead takes the smallest scale at which one survives. This prints, for each detector
folder of ``--models`` and each rule, the backs it would keep, scored on three sets:

- the drawn stills of ``benchmarks/photo_stills.py`` (the same stills, by ``--per``, ``--seed``,
  ``--decks`` and ``--angles``): backs precision / recall (a back boxed on a face-up card is false);
- the same stills laid on the held-out real photographs (``PHOTOS/held-out``, as
  ``photo_stills.py --backdrops``);
- the real photographs of no card themselves (``PHOTOS/held-out`` and ``PHOTOS/train``, as
  ``paigow-monitor eval-photos`` reads them): every back boxed is false, and a photo is clean where
  nothing is boxed on it.

Each still is read once, as ``detect`` reads it (``OnnxCardDetector.read_still``, every turn); what
its reading hands ``_still_backs`` is kept, and each rule's backs are that function's answer with
the rule's constants set, so every rule is the production code's, not a copy of it. The shipped
rule's answer is checked against the backs the reading returned (the line "shipped rule matches").
Faces do not depend on the rule: they are printed once per set. `python -m render.real_photos`
fetches the photographs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# name: (turns that count, how many of them must box the back again, the scale the backs are taken
# at: "sure", the production rule, the smallest scale boxing a back at _STILL_BACK_FLOOR; "kept", the
# smallest scale at which a back is left once every check has been made, each scale's backs being
# _still_backs' answer given that scale's read alone)
RULES: dict[str, tuple[tuple[float, ...], int, str]] = {
    "no check": ((), 0, "sure"),
    "half turn (shipped)": ((180.0,), 1, "sure"),
    "any 1 of 90/180/270": ((90.0, 180.0, 270.0), 1, "sure"),
    "2 of 90/180/270": ((90.0, 180.0, 270.0), 2, "sure"),
    "all of 90/180/270": ((90.0, 180.0, 270.0), 3, "sure"),
    "half turn, first scale kept": ((180.0,), 1, "kept"),
}


def _photo_stills() -> Any:
    """``benchmarks/photo_stills.py`` as a module (its ``stills``: the same stills it scores)."""
    spec = importlib.util.spec_from_file_location("photo_stills", ROOT / "benchmarks" / "photo_stills.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Recorder:
    """Wraps ``vision.detector._still_backs`` so a reading's arguments to it are kept, and answers
    what it would have returned under each rule."""

    def __init__(self) -> None:
        import vision.detector as D

        self.D = D
        self.original: Callable[..., Any] = D._still_backs
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any], Any]] = []

    def __enter__(self) -> _Recorder:
        def recording(*a: Any, **kw: Any) -> Any:
            out = self.original(*a, **kw)
            self.calls.append((a, kw, out))
            return out

        self.D._still_backs = recording
        return self

    def __exit__(self, *exc: object) -> None:
        self.D._still_backs = self.original

    def backs(self, turns: tuple[float, ...], needed: int, iou: float, scale: str = "sure") -> Any:
        """The last reading's backs under a rule (the production function, its constants set; with
        ``scale`` "kept", asked of each scale's read alone, smallest first, the first answer that
        holds a back)."""
        D = self.D
        (a, kw, _), kept = self.calls[-1], (D._BACK_TURNS, D._BACK_TURNS_NEEDED, D._BACK_HALF_TURN_IOU)
        try:
            D._BACK_TURNS, D._BACK_TURNS_NEEDED, D._BACK_HALF_TURN_IOU = turns, needed, iou
            if scale == "sure":
                return self.original(*a, **kw)
            image, by_scale, *rest = a
            answers = (
                self.original(image, [(s, f)], *rest, **kw) for s, f in sorted(by_scale, key=lambda p: p[0])
            )
            return next((b for b in answers if len(b)), D.Detections())
        finally:
            D._BACK_TURNS, D._BACK_TURNS_NEEDED, D._BACK_HALF_TURN_IOU = kept


def _same_boxes(a: Any, b: Any) -> bool:
    """Whether two detections hold the same boxes, in any order."""

    def rows(xyxy: np.ndarray) -> np.ndarray:
        return xyxy[np.lexsort(xyxy.T[::-1])]

    return len(a) == len(b) and bool(np.allclose(rows(a.xyxy), rows(b.xyxy)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--models",
        default="models",
        help="comma-separated detector folders, each as load_detector reads one (default: models)",
    )
    ap.add_argument("--per", type=int, default=2, help="stills per deck and angle (photo_stills.py --per)")
    ap.add_argument("--angles", default="0,20,45,70,90,135,180,270", help="degrees, comma-separated")
    ap.add_argument("--decks", default=None, help="comma-separated (default: every held-out deck)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--photos",
        type=Path,
        default=Path.home() / ".cache" / "paigow-monitor" / "real-photos",
        help="the real photographs (held-out/ and train/, as python -m render.real_photos writes them)",
    )
    ap.add_argument(
        "--ious", default=None, help="IoUs a turn's box must reach, comma-separated (default: shipped)"
    )
    ap.add_argument(
        "--sets",
        default="drawn,photos,no-card",
        help="which sets to score, comma-separated: drawn, photos (the stills on held-out photos), no-card",
    )
    args = ap.parse_args()

    from render.artwork import HELD_OUT_DECKS
    from vision.detections import BACK_CLASS, Detections
    from vision.detector import (
        _BACK_HALF_TURN_IOU,
        STILL_FINE_ROTATIONS,
        STILL_ROTATIONS,
        load_detector,
        still_workers,
    )
    from vision.photos import PhotoError, read_photos
    from vision.training import _match_image

    sets = args.sets.split(",")
    unknown = set(sets) - {"drawn", "photos", "no-card"}
    if unknown:
        raise SystemExit(f"--sets: unknown {', '.join(sorted(unknown))} (drawn, photos, no-card)")
    ious = [float(x) for x in args.ious.split(",")] if args.ious else [_BACK_HALF_TURN_IOU]
    rules = [
        (f"{name}" + (f" IoU {iou:g}" if args.ious else ""), t, n, iou, at)
        for name, (t, n, at) in RULES.items()
        for iou in ious
    ]
    decks = args.decks.split(",") if args.decks else list(HELD_OUT_DECKS)
    angles = [float(a) for a in args.angles.split(",")]
    try:
        held_out = read_photos(args.photos / "held-out") if {"photos", "no-card"} & set(sets) else []
        train = read_photos(args.photos / "train") if "no-card" in sets else []
    except PhotoError as e:
        raise SystemExit(f"--photos: {e}") from None
    ps = _photo_stills()

    def scenes(backdrops: list[np.ndarray]) -> Iterator[tuple[np.ndarray, Any]]:
        for _, _, _, img, scene in ps.stills(decks, angles, args.per, args.seed, backdrops):
            yield img, scene

    def plain(photos: list[np.ndarray]) -> Iterator[tuple[np.ndarray, Any]]:
        for img in photos:
            yield img, None

    def pr(tp: int, fp: int, fn: int) -> str:
        return f"P {tp / max(1, tp + fp):.3f} R {tp / max(1, tp + fn):.3f} ({tp}/{fp}/{fn})"

    for folder in args.models.split(","):
        det = load_detector(
            Path(folder),
            tile=True,
            rotations=list(STILL_ROTATIONS),
            fine_rotations=STILL_FINE_ROTATIONS,
            stills=True,
            tile_workers=still_workers(),
        )
        print(f"== {folder} ({len(decks)} decks x {len(angles)} angles x {args.per}, seed {args.seed})")
        table: dict[str, list[str]] = {name: [] for name, *_ in rules}
        heads: list[str] = []
        for what in sets:
            feed = {
                "drawn": lambda: scenes([]),
                "photos": lambda: scenes(held_out),
                "no-card": lambda: plain(held_out + train),
            }[what]()
            faces = [0, 0, 0]
            counts = {name: [0, 0, 0] for name, *_ in rules}  # stills: backs tp fp fn
            split = {name: [0, 0] for name, *_ in rules}  # no-card: false backs on held-out, on train
            clean = {name: [0, 0] for name, *_ in rules}  # no-card: clean photos, held-out and train
            matched = n = 0
            t0 = time.perf_counter()
            with _Recorder() as rec:
                for img, scene in feed:
                    rec.calls.clear()
                    found = det.read_still(img)
                    if len(rec.calls) != 1:
                        raise SystemExit(
                            f"{what} #{n}: the reading called _still_backs {len(rec.calls)} times"
                        )
                    others = found[found.class_id != BACK_CLASS]
                    matched += _same_boxes(found[found.class_id == BACK_CLASS], rec.calls[-1][2])
                    if scene is not None:
                        m = _match_image(others, scene)
                        for i, key in enumerate(("tp", "fp", "fn")):
                            faces[i] += sum(v for c, v in m[key].items() if c < BACK_CLASS)
                    else:
                        faces[1] += len(others)
                    for name, turns, needed, iou, at in rules:
                        backs = rec.backs(turns, needed, iou, at)
                        if scene is not None:
                            m = _match_image(Detections.merge([others, backs]), scene)
                            for i, key in enumerate(("tp", "fp", "fn")):
                                counts[name][i] += m[key].get(BACK_CLASS, 0)
                        else:
                            split[name][n >= len(held_out)] += len(backs)
                            clean[name][n >= len(held_out)] += not len(backs) and not len(others)
                    n += 1
            took = time.perf_counter() - t0
            if what == "no-card":
                print(
                    f"  no-card: {n} real photographs of no card ({len(held_out)} held-out, {len(train)} "
                    f"train): {faces[1]} false faces; shipped rule matches on {matched}/{n}; {took:.0f} s"
                )
                heads.append(f"{'no-card false backs (held/train)':>33s}  clean (held/train)")
                for name, *_ in rules:
                    s, k = split[name], clean[name]
                    table[name].append(
                        f"{sum(s):>22d} ({s[0]:>3d}/{s[1]:>3d})  {sum(k):>2d}/{n} ({k[0]}/{k[1]})"
                    )
            else:
                label = "drawn stills" if what == "drawn" else f"stills on {len(held_out)} held-out photos"
                print(
                    f"  {label}: {n}, faces {pr(*faces)}; shipped rule matches on {matched}/{n}; {took:.0f} s"
                )
                heads.append(f"{'backs, ' + what + ' (tp/fp/fn)':>33s}")
                for name, *_ in rules:
                    table[name].append(f"{pr(*counts[name]):>33s}")
        width = max(len(name) for name in table)
        print(f"  {'rule':{width}s}  " + "  ".join(heads))
        for name, cells in table.items():
            print(f"  {name:{width}s}  " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
