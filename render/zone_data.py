"""Detector training data cut from rendered *table* frames exactly as the camera pipeline cuts them.

``render.training`` draws generic scenes (cards on random backgrounds, 240-400 px); this module
renders whole table frames of random rounds (``render.scenario.random_scenario``) with the table
renderer, at a camera resolution drawn per round (mostly 1920x1080), degrades them like the
delivered video (JPEG, chroma subsampling), and cuts every card region the way ``vision.pipeline``
does at run time: ``vision.zones.build_regions`` with the pipeline's own config (seat and dealer
regions rectified at ``CARD_PX_PER_MM``, the i-Verify card row enlarged to it), read in 256-px
tiles with a quarter overlap (``vision.detector.OnnxCardDetector._stage1_tiled``). The labels come
from the renderer's own card quads: every index (top-left and, turned, bottom-right, per deck from
``render.training.index_box``) at least ``MIN_INDEX_VISIBLE`` uncovered by cards above it, the arm
or a towel, and every back at least 30 % visible.

Output under ``out``: ``det/`` (YOLO images/labels + data.yaml, 2 classes as in render.training),
``zones/`` (the held-out rounds' whole region crops with ``render.training.Scene`` truth, which
``paigow-monitor eval-detector`` scores) and ``cls/<split>/cNN/*.png`` (40x40 classifier crops cut
with ``render.training.crop_square`` around jittered index boxes, plus "not an index" crops from
the same zones). ``train`` uses the training decks only, ``val`` the held-out ``VALIDATION_DECKS``,
or the held-out decks named by ``val_decks`` (``--val-decks kde-standard``: the clean held-out
``CLEAN_HELDOUT_DECKS``). A deck without a Joker is dealt from its 52 other cards.

Run: ``paigow-monitor export-table-training --out D`` (or ``python -m render.zone_data --out D``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from render.artwork import HELD_OUT_DECKS, VALIDATION_DECKS, available_decks, load_deck, train_decks
from render.clip import _ART_SOURCE_WIDTH, plan_clip
from render.draw import CardBox, FrameRenderer
from render.scenario import random_scenario
from render.training import (
    CLS_CLASS_NAMES,
    NOT_INDEX_CLASS,
    Scene,
    SceneObject,
    _jitter_box,
    crop_square,
    index_box,
    write_det_spec,
)
from rules.cards import JOKER, parse_card
from vision.detector import tile_origins
from vision.layout import Game

__all__ = ["MIN_INDEX_VISIBLE", "ZoneExportSummary", "export_zone_training", "parse_val_decks"]

MIN_INDEX_VISIBLE = 0.8  # share of an index's area that must be uncovered for a label
_MIN_BACK_VISIBLE = 0.3
_TILE = 256  # the stage-1 model's input (models/card_det.onnx)
_SIZES = ((1920, 1080), (1600, 900), (2560, 1440), (1280, 720))
_SIZE_P = (0.6, 0.15, 0.15, 0.1)


@dataclass
class ZoneExportSummary:
    clips: int = 0
    frames: int = 0
    decks: list[str] = field(default_factory=list)
    tiles: int = 0
    index_boxes: int = 0
    back_boxes: int = 0
    cls_crops: int = 0


def _frac_quad(card_quad: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Image quad of a box given in fractions of the card artwork (TL, TR, BR, BL order)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(unit, card_quad.astype(np.float32))
    x0, y0, x1, y1 = box
    pts = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
    return np.asarray(cv2.perspectiveTransform(pts, m)[0], np.float64)


def _free_fraction(quad: np.ndarray, cover: np.ndarray) -> float:
    h, w = cover.shape
    x0, y0 = max(math.floor(quad[:, 0].min()), 0), max(math.floor(quad[:, 1].min()), 0)
    x1, y1 = min(math.ceil(quad[:, 0].max()) + 1, w), min(math.ceil(quad[:, 1].max()) + 1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, np.round((quad - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    total = cv2.countNonZero(m)
    if total == 0:
        return 0.0
    free = cv2.countNonZero(cv2.bitwise_and(m, cv2.bitwise_not(cover[y0:y1, x0:x1])))
    # an index partly outside the frame counts as covered there
    area = 0.5 * abs(
        float(np.dot(quad[:, 0], np.roll(quad[:, 1], 1)) - np.dot(quad[:, 1], np.roll(quad[:, 0], 1)))
    )
    return min(1.0, free / max(area, float(total)))


_Label = tuple[str, int, np.ndarray, float, np.ndarray]
_Box = tuple[float, float, float, float]


def _labels(
    boxes: list[CardBox],
    occl: np.ndarray | None,
    deck: str,
    shape: tuple[int, int],
    joker_box: _Box | None = None,
) -> list[_Label]:
    """``(kind, card code, image quad, visible share, card quad)`` of every index and back in a frame
    (a back's quad is its card's). ``joker_box``: the Joker's index box when its face is a
    ``render.synth_joker`` one (the deck's own box otherwise)."""
    cover = occl.copy() if occl is not None else np.zeros(shape, np.uint8)
    on_table = [b for b in boxes if b.zone != "iverify"]
    display = [b for b in boxes if b.zone == "iverify"]
    out: list[_Label] = []
    for b in reversed(on_table):  # top card first
        q = np.asarray(b.quad, np.float64)
        if b.card == "BACK":
            out.append(("back", -1, q, b.visible, q))
        elif b.zone != "moving":
            out += _indices(b, q, deck, cover, joker_box)
        else:  # a card in the dealer's hand or being turned: no index label, but it is there (a
            # detection of it is neither right nor wrong in eval-detector)
            out.append(("moving", parse_card(b.card).code, q, 0.0, q))
        cv2.fillConvexPoly(cover, np.round(q * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    base = occl if occl is not None else np.zeros(shape, np.uint8)
    for b in display:  # the display's pictures: hidden only by the arm or the towel
        out += _indices(b, np.asarray(b.quad, np.float64), deck, base, joker_box)
    return out


def _indices(
    b: CardBox, q: np.ndarray, deck: str, cover: np.ndarray, joker_box: _Box | None = None
) -> list[_Label]:
    """A face's two index labels (top-left, and bottom-right turned), each with its uncovered share."""
    code = parse_card(b.card).code
    x0, y0, x1, y1 = joker_box if joker_box is not None and code == JOKER.code else index_box(deck, code)
    out: list[_Label] = []
    for fb in ((x0, y0, x1, y1), (1 - x1, 1 - y1, 1 - x0, 1 - y0)):
        iq = _frac_quad(q, fb)
        out.append(("index", code, iq, _free_fraction(iq, cover), q))
    return out


def _jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    q = int(rng.integers(35, 91))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if out is None:
        raise RuntimeError("JPEG round trip failed")
    return np.asarray(out)


_Job = tuple[Path, str, int, int, int, int, tuple[int, int] | None, tuple[str, ...], float, bool]


def _clip_job(args: _Job) -> ZoneExportSummary:
    from vision.displays import HEADER_FRACTION
    from vision.pipeline import PipelineConfig, iverify_zoom
    from vision.zones import build_regions

    out, split, seed, clip, frames_per_clip, empty_keep_pct, image_size, val_decks, synth_jokers, zones = args
    rng = np.random.default_rng([seed, clip, 7])
    decks = train_decks() if split == "train" else list(val_decks)
    deck = decks[int(rng.integers(len(decks)))]
    game: Game = "seven-card" if rng.random() < 0.6 else "six-card"
    scenario = random_scenario(
        game, int(rng.integers(1 << 30)), rounds=1, face_up_dealing=bool(rng.random() < 0.2)
    ).model_copy(update={"deck": deck})
    cseed = int(rng.integers(1 << 30))
    if image_size is None:  # mostly the sample camera; some coarser and finer views
        image_size = _SIZES[int(rng.choice(len(_SIZES), p=_SIZE_P))]
    layout, director = plan_clip(scenario, cseed, image_size)
    art = load_deck(deck, _ART_SOURCE_WIDTH)
    joker_box: _Box | None = None
    if split == "train" and synth_jokers > 0 and art.has_joker and rng.random() < synth_jokers:
        from render.synth_index import index_fonts
        from render.synth_joker import with_synthetic_joker

        jr = random.Random(int(rng.integers(1 << 30)))
        fonts = index_fonts()
        if not fonts:
            raise FileNotFoundError("synthetic Jokers need the fonts of scripts/setup.sh train")
        art, joker_box = with_synthetic_joker(
            art, {c: index_box(deck, c) for c in range(53)}, jr, jr.choice(fonts)
        )
    renderer = FrameRenderer(layout, art, cseed)
    cfg = PipelineConfig()  # the camera pipeline's own crops
    regions = [
        r
        for r in build_regions(
            layout, margin_mm=cfg.crop_margin_mm, px_per_mm=cfg.px_per_mm, card_px_per_mm=cfg.card_px_per_mm
        )
        if r.kind in ("cards", "iverify")
    ]
    n = len(director.frames)
    # frames spread over the clip (face-down early, face-up late), each a little jittered
    ks = sorted({min(n - 1, int((i + rng.random()) * n / frames_per_clip)) for i in range(frames_per_clip)})
    s = ZoneExportSummary(clips=1, decks=[deck])
    det_dir, cls_dir = out / "det", out / "cls" / split
    stem0 = f"{split}_{clip:05d}"
    for k in ks:
        img, boxes, occl = renderer.render(director.frames[k], k)
        labels = _labels(boxes, occl, deck, img.shape[:2], joker_box)
        img = _jpeg(img, rng)
        s.frames += 1
        for r in regions:
            crop = r.rectify(img)
            y_off, zoom = 0, 1.0
            if r.kind == "iverify":  # as vision.pipeline reads the panel: below the header, enlarged
                y_off = round(crop.shape[0] * HEADER_FRACTION)
                crop = crop[y_off:]
                zoom = iverify_zoom(r.px_per_mm, cfg.card_px_per_mm)
            shown = (
                crop
                if zoom == 1.0
                else cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
            )
            hh, ww = shown.shape[:2]
            objs: list[tuple[int, int, tuple[float, float, float, float]]] = []  # (class, code, xyxy)
            scene_objs: list[SceneObject] = []
            present: set[int] = set()
            for kind, code, quad, vis, card_q in labels:
                cq = (r.image_to_crop(quad) - [0, y_off]) * zoom
                bx = (
                    float(cq[:, 0].min()),
                    float(cq[:, 1].min()),
                    float(cq[:, 0].max()),
                    float(cq[:, 1].max()),
                )
                kq = (r.image_to_crop(card_q) - [0, y_off]) * zoom
                card_bx = (
                    float(kq[:, 0].min()),
                    float(kq[:, 1].min()),
                    float(kq[:, 0].max()),
                    float(kq[:, 1].max()),
                )
                if (
                    kind in ("index", "moving")
                    and card_bx[2] > 0
                    and card_bx[3] > 0
                    and card_bx[0] < ww
                    and card_bx[1] < hh
                ):
                    present.add(code)
                if bx[2] <= 0 or bx[3] <= 0 or bx[0] >= ww or bx[1] >= hh:
                    continue
                inside = (
                    (min(bx[2], ww) - max(bx[0], 0))
                    * (min(bx[3], hh) - max(bx[1], 0))
                    / max((bx[2] - bx[0]) * (bx[3] - bx[1]), 1e-6)
                )
                if kind == "index" and vis >= MIN_INDEX_VISIBLE and inside >= 0.95:
                    objs.append((0, code, bx))
                    scene_objs.append(
                        SceneObject(
                            kind="index", card=code, xyxy=bx, visible=vis, card_id=0, card_xyxy=card_bx
                        )
                    )
                elif kind == "back" and vis >= _MIN_BACK_VISIBLE and inside >= 0.5:
                    clipped = (max(bx[0], 0), max(bx[1], 0), min(bx[2], ww), min(bx[3], hh))
                    objs.append((1, -1, clipped))
                    scene_objs.append(
                        SceneObject(
                            kind="back", card=53, xyxy=clipped, visible=vis, card_id=0, card_xyxy=clipped
                        )
                    )
            if split == "val" or zones:  # whole crops with their cards (eval-detector; the body model)
                cv2.imwrite(
                    str(out / "zones" / f"{stem0}_{k:04d}_{r.name}.jpg"),
                    shown,
                    [cv2.IMWRITE_JPEG_QUALITY, 95],
                )
                scene = Scene(deck=deck, width=ww, height=hh, objects=scene_objs, present=sorted(present))
                (out / "zones" / f"{stem0}_{k:04d}_{r.name}.json").write_text(scene.model_dump_json())
            tag = f"{stem0}_{k:04d}_{r.name}"
            for ti, (tx, ty) in enumerate(tile_origins(ww, hh, _TILE)):
                tw, th = min(_TILE, ww - tx), min(_TILE, hh - ty)
                lines = []
                for c, _, b in objs:
                    x0, y0 = max(b[0] - tx, 0), max(b[1] - ty, 0)
                    x1, y1 = min(b[2] - tx, tw), min(b[3] - ty, th)
                    if x1 <= x0 or y1 <= y0:
                        continue
                    share = (x1 - x0) * (y1 - y0) / max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
                    if share < 0.6:
                        continue
                    lines.append(
                        f"{c} {(x0 + x1) / 2 / tw:.6f} {(y0 + y1) / 2 / th:.6f} "
                        f"{(x1 - x0) / tw:.6f} {(y1 - y0) / th:.6f}"
                    )
                if not lines and rng.integers(100) >= empty_keep_pct:
                    continue
                name = f"{tag}_t{ti}"
                cv2.imwrite(
                    str(det_dir / "images" / split / f"{name}.jpg"),
                    shown[ty : ty + th, tx : tx + tw],
                    [cv2.IMWRITE_JPEG_QUALITY, 95],
                )
                (det_dir / "labels" / split / f"{name}.txt").write_text(
                    "\n".join(lines) + ("\n" if lines else "")
                )
                s.tiles += 1
                s.index_boxes += sum(1 for ln in lines if ln[0] == "0")
                s.back_boxes += sum(1 for ln in lines if ln[0] == "1")
            idx = [b for c, _, b in objs if c == 0]
            for j, (c, code, b) in enumerate(objs):
                if c != 0:
                    continue
                crop40 = crop_square(shown, _jitter_box(rng, b))
                cv2.imwrite(str(cls_dir / CLS_CLASS_NAMES[code] / f"{tag}_{j}.png"), crop40)
                s.cls_crops += 1
            # "not an index": index-sized boxes anywhere in the zone that do not hold an index centre
            size = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in idx])) if idx else 24.0
            for j in range(2 if idx else 1):
                for _ in range(10):
                    side = size * rng.uniform(0.7, 1.4)
                    cx, cy = rng.uniform(0, ww), rng.uniform(0, hh)
                    box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
                    if all(
                        not (box[0] <= (b[0] + b[2]) / 2 <= box[2] and box[1] <= (b[1] + b[3]) / 2 <= box[3])
                        and not (b[0] <= cx <= b[2] and b[1] <= cy <= b[3])
                        for b in idx
                    ):
                        neg = crop_square(shown, box, margin=1.0)
                        cv2.imwrite(str(cls_dir / CLS_CLASS_NAMES[NOT_INDEX_CLASS] / f"{tag}_n{j}.png"), neg)
                        s.cls_crops += 1
                        break
    return s


def parse_val_decks(text: str | None) -> tuple[str, ...]:
    """``--val-decks`` text (``kde-standard`` or ``bellot,kde-standard``) to deck names, checked:
    each must be a held-out deck (``HELD_OUT_DECKS``) and installed. ValueError names a bad one.
    None (the option not given): ``VALIDATION_DECKS``."""
    if text is None:
        return VALIDATION_DECKS
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise ValueError(f"--val-decks {text!r}: name one or more decks, like kde-standard")
    return _check_val_decks(names)


def _check_val_decks(decks: Sequence[str]) -> tuple[str, ...]:
    names = tuple(decks)
    if not names:
        raise ValueError("no validation decks")
    installed = available_decks()
    for d in names:
        if d not in HELD_OUT_DECKS:
            kind = "a training deck" if d in installed else "not a usable deck"
            raise ValueError(
                f"validation deck {d!r} is {kind}: the held-out decks are {', '.join(HELD_OUT_DECKS)}"
            )
    missing = [d for d in names if d not in installed]
    if missing:
        raise ValueError(
            f"validation deck {', '.join(repr(d) for d in missing)} is not installed "
            "(scripts/setup.sh dev installs gnome-cards-data and kdegames-card-data-kf5)"
        )
    if len(set(names)) != len(names):
        raise ValueError(f"validation decks named twice: {', '.join(names)}")
    return names


def export_zone_training(
    out: Path,
    clips: int,
    val_clips: int,
    seed: int,
    frames_per_clip: int = 24,
    workers: int = 2,
    empty_keep_pct: int = 10,
    image_size: tuple[int, int] | None = None,
    val_decks: Sequence[str] = VALIDATION_DECKS,
    synthetic_jokers: float = 0.0,
    train_zones: bool = False,
) -> dict[str, ZoneExportSummary]:
    """Render ``clips`` training and ``val_clips`` held-out-deck rounds into ``out`` (see module doc).

    ``val_decks``: the held-out decks the ``val`` rounds are drawn from (each one of
    ``HELD_OUT_DECKS``, never a training deck); the default keeps the files of earlier exports.
    ``synthetic_jokers``: the share of training rounds whose deck's Joker is replaced by a
    ``render.synth_joker`` face (0, the default, draws exactly what earlier exports drew).
    ``train_zones``: also write the training rounds' whole zone crops and their cards to ``zones/``
    (``train_*``), as the held-out rounds' always are: the card body model trains on them
    (``vision.body_classifier``)."""
    if not 0.0 <= synthetic_jokers <= 1.0:
        raise ValueError(f"synthetic_jokers must be within 0..1, but got {synthetic_jokers}")
    val = _check_val_decks(val_decks)
    (out / "zones").mkdir(parents=True, exist_ok=True)
    for split in ("train", "val"):
        for sub in ("images", "labels"):
            (out / "det" / sub / split).mkdir(parents=True, exist_ok=True)
        for name in CLS_CLASS_NAMES:
            (out / "cls" / split / name).mkdir(parents=True, exist_ok=True)
    common = (frames_per_clip, empty_keep_pct, image_size, val)
    jobs: list[_Job] = [(out, "train", seed, i, *common, synthetic_jokers, train_zones) for i in range(clips)]
    jobs += [(out, "val", seed, 100_000 + i, *common, 0.0, True) for i in range(val_clips)]
    totals = {"train": ZoneExportSummary(), "val": ZoneExportSummary()}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for job, s in zip(jobs, pool.map(_clip_job, jobs), strict=True):
            t = totals[job[1]]
            for f in ("clips", "frames", "tiles", "index_boxes", "back_boxes", "cls_crops"):
                setattr(t, f, getattr(t, f) + getattr(s, f))
            t.decks = sorted({*t.decks, *s.decks})
    write_det_spec(out / "det")
    summary = {
        "seed": seed,
        "frames_per_clip": frames_per_clip,
        "image_size": list(image_size) if image_size else None,
        "train_decks": train_decks(),
        "val_decks": list(val),
        "synthetic_jokers": synthetic_jokers,
        "train_zones": train_zones,
        **{k: vars(v) for k, v in totals.items()},
    }
    (out / "export.json").write_text(json.dumps(summary, indent=2))
    return totals


def _main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Detector training data cut from rendered table frames.")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--clips", type=int, default=120, help="training rounds (training decks)")
    ap.add_argument("--val-clips", type=int, default=16, help="validation rounds (held-out decks)")
    ap.add_argument("--frames", type=int, default=24, help="frames drawn per round")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--image-size", type=int, nargs=2, metavar=("W", "H"), help="camera resolution")
    ap.add_argument(
        "--val-decks", help="held-out decks of the val rounds, NAME[,NAME] (default: VALIDATION_DECKS)"
    )
    ap.add_argument(
        "--synthetic-jokers", type=float, default=0.0, help="share of training rounds with a synthetic Joker"
    )
    ap.add_argument("--train-zones", action="store_true", help="also write the training rounds' zone crops")
    a = ap.parse_args(argv)
    try:
        val = parse_val_decks(a.val_decks)
    except ValueError as e:
        ap.error(str(e))
    totals = export_zone_training(
        a.out,
        a.clips,
        a.val_clips,
        a.seed,
        a.frames,
        a.workers,
        image_size=tuple(a.image_size) if a.image_size else None,
        val_decks=val,
        synthetic_jokers=a.synthetic_jokers,
        train_zones=a.train_zones,
    )
    for split, t in totals.items():
        print(split, vars(t))


if __name__ == "__main__":
    _main()
