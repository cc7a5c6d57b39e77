"""`paigow-monitor detect` on photo-like stills of held-out decks, by the angle the cards lie at.

    .venv/bin/python benchmarks/photo_stills.py [--per 4] [--angles 0,20,45,70,90,135,180,270]

No real photographs can be had here (no internet); this is the closest check of "real cards at any
angle on any background" this machine allows. Each still is a ``render.training.render_scene``
scene of one held-out deck (never trained on: ``render.artwork.HELD_OUT_DECKS``), 640x480, its cards
spread, in a row, piled or loose, all turned by the one angle given, on a random background
(felt, gradients, shapes, noise, stripes, a blown-up card), with a mild perspective, a lighting
gradient and colour cast, glare, blur or motion blur, sensor noise, JPEG, sometimes a hand over
them: what a phone photo of cards on a table gives, less real lighting and real paper. Each is read
as ``detect`` reads a still (tiled, through ``vision.detector.pyramid_scales``, and turned by each
of ``--rotations``, as ``detect --rotations`` does), scored as ``eval-detector`` scores a crop: a face read
is right when the card lies in the image, labelled (an index at least 70 % visible) and the read's
centre is on it. Prints faces precision / recall per deck and per angle, card backs' over all
stills and per deck (a back boxed on a face-up card is a false one), and the time per still.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per", type=int, default=4, help="stills per deck and angle")
    ap.add_argument("--angles", default="0,20,45,70,90,135,180,270", help="degrees, comma-separated")
    ap.add_argument("--decks", default=None, help="comma-separated (default: every held-out deck)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--models", type=Path, default=None, help="folder with the detector (default: models/)")
    ap.add_argument(
        "--rotations",
        default="auto",
        help="degrees each still is also read turned by, as `detect --rotations` ('auto': every 45 at "
        "every scale and the turns between at the scale those chose; '0': only as it lies)",
    )
    ap.add_argument(
        "--white-balance",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="take each still's colour cast out first, as `detect` does by default",
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        help="threads a still's tiles are read on, as `detect --workers` (0, the default: one per CPU core)",
    )
    ap.add_argument(
        "--backdrops",
        type=Path,
        default=None,
        help="lay each still's cards on a part of one of the photographs in this folder (its images/ or "
        "itself; `python -m render.real_photos` writes forty-seven real ones, twenty-four of them in "
        "held-out/), drawn at random, instead of a drawn background",
    )
    ap.add_argument(
        "--save",
        type=Path,
        default=None,
        help="also write each still here with its labels, as a labelled photo set `paigow-monitor "
        "eval-photos` reads (DIR/images/*.png, DIR/labels/*.txt: YOLO boxes of each index and back "
        "labelled; DIR/data.yaml)",
    )
    args = ap.parse_args()

    from render.artwork import HELD_OUT_DECKS
    from vision.detector import (
        STILL_FINE_ROTATIONS,
        STILL_ROTATIONS,
        load_detector,
        still_workers,
    )
    from vision.photos import write_labelled_photo
    from vision.training import _match_image

    decks = args.decks.split(",") if args.decks else list(HELD_OUT_DECKS)
    angles = [float(a) for a in args.angles.split(",")]
    rotations = (
        list(STILL_ROTATIONS) if args.rotations == "auto" else [float(r) for r in args.rotations.split(",")]
    )
    det = load_detector(
        args.models,
        tile=True,
        rotations=rotations if rotations != [0.0] else None,
        fine_rotations=STILL_FINE_ROTATIONS if args.rotations == "auto" else None,
        stills=True,
        tile_workers=args.workers or still_workers(),
    )
    from vision.photos import PhotoError, read_photos

    try:
        backdrops = read_photos(args.backdrops) if args.backdrops else []
    except PhotoError as e:
        raise SystemExit(f"--backdrops: {e}") from None
    # [tp, fp, fn] of faces, by deck and by angle
    by_deck: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    by_angle: dict[float, list[int]] = defaultdict(lambda: [0, 0, 0])
    backs_by_deck: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # [tp, fp, fn] of card backs
    spent: list[float] = []
    last = None
    for deck, deg, k, img, scene in stills(decks, angles, args.per, args.seed, backdrops):
        if last not in (None, deck):
            print(f"{last}: done", file=sys.stderr, flush=True)
        last = deck
        if args.save:
            write_labelled_photo(args.save, f"{deck}_{deg:g}_{k}", img, _labels(scene))
        t0 = time.perf_counter()
        found = det.read_still(img, white_balance=args.white_balance)
        spent.append(time.perf_counter() - t0)
        m = _match_image(found, scene)
        row = [sum(v for c, v in m[key].items() if c < 53) for key in ("tp", "fp", "fn")]
        for acc in (by_deck[deck], by_angle[deg]):
            for i in range(3):
                acc[i] += row[i]
        for i, key in enumerate(("tp", "fp", "fn")):
            backs_by_deck[deck][i] += m[key].get(53, 0)
    print(f"{last}: done", file=sys.stderr, flush=True)

    def line(name: str, tp: int, fp: int, fn: int, what: str = "faces", note: str = "") -> str:
        return (
            f"  {name:28s} {what} P {tp / max(1, tp + fp):.3f}  R {tp / max(1, tp + fn):.3f}"
            f"  (tp {tp} fp {fp} fn {fn}{note})"
        )

    n = len(spent)
    print(
        f"{n} stills (640x480), {len(decks)} held-out decks x {len(angles)} angles x {args.per}; "
        f"read turned by {args.rotations} degrees; white-balanced: {args.white_balance}; "
        f"backgrounds: {f'{len(backdrops)} photographs of {args.backdrops}' if backdrops else 'drawn'}"
    )
    print("by deck:")
    for d in decks:
        print(line(d, *by_deck[d]))
    print("by angle (degrees):")
    for a in angles:
        print(line(f"{a:g}", *by_angle[a]))
    tot = [sum(v[i] for v in by_deck.values()) for i in range(3)]
    print("all:")
    print(line("every still", *tot))
    backs = [sum(v[i] for v in backs_by_deck.values()) for i in range(3)]
    print(line("card backs, every still", *backs, "backs", ": a back boxed on a face-up card is a false one"))
    print("card backs by deck:")
    for d in decks:
        print(line(d, *backs_by_deck[d], "backs"))
    print(
        f"time per still: median {np.median(spent):.2f} s, max {max(spent):.2f} s, on {det.tile_workers} "
        f"thread(s) of {os.cpu_count()} CPU(s) (the machine may vary)"
    )
    return 0


def stills(
    decks: list[str], angles: list[float], per: int, seed: int, backdrops: list[np.ndarray]
) -> Iterator[tuple[str, float, int, np.ndarray, Any]]:
    """The photo-like stills, in order: deck, angle (degrees), its number ``k`` of ``per``, the
    image and its scene (``render.training.render_scene``: its ground truth). Still (deck ``di``,
    angle ``ai``, ``k``) is drawn from ``numpy.random.default_rng([seed, di, ai, k])``, laid on one of
    ``backdrops`` drawn from it where any are given, so any script that walks the same arguments
    sees the same stills (``benchmarks/back_rules.py``)."""
    from render.training import render_scene

    for di, deck in enumerate(decks):
        for ai, deg in enumerate(angles):
            for k in range(per):
                rng = np.random.default_rng([seed, di, ai, k])
                backdrop = backdrops[int(rng.integers(len(backdrops)))] if backdrops else None
                img, scene = render_scene(
                    rng, deck, 640, 480, [deck], angle=math.radians(deg), backdrop=backdrop
                )
                yield deck, deg, k, img, scene


def _labels(scene: Any) -> list[Any]:
    """A rendered still's labels as a photo set's (``vision.photos``): each labelled index and back
    box, normalised to the still (its cards too covered to be labelled are not)."""
    from vision.photos import PhotoLabel

    w, h = scene.width, scene.height
    return [
        PhotoLabel(card=o.card, boxes=[(o.xyxy[0] / w, o.xyxy[1] / h, o.xyxy[2] / w, o.xyxy[3] / h)])
        for o in scene.objects
    ]


if __name__ == "__main__":
    raise SystemExit(main())
