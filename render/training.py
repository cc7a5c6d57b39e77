"""Synthetic training data for the card detector, drawn from the real card artwork.

Each scene is a small image (the size of a rectified zone crop) on a procedural background (or, with
``backdrops``, a part of a real photograph) with cards laid as they lie on a table: spread hands (each
card offset 15-25% of its width), rows like the i-Verify display, piles of backs and loose cards, at
any angle, under perspective, lighting gradients, glare, blur, noise, JPEG artefacts and a skin-toned
occluder (a dealer's hand).

What is labelled (the detector's two stages, see ``vision/detector.py``):

* every card *index* (the rank + suit printed in the artwork's top-left corner and, turned 180
  degrees, in the bottom-right) that is at least ``_MIN_INDEX_VISIBLE`` uncovered;
* every face-down card (BACK) at least ``_MIN_BACK_VISIBLE`` uncovered, boxed by its visible part.

The export is split BY DECK: training scenes use only ``train_decks()``, validation scenes only
``VALIDATION_DECKS`` (decks never trained on). Everything is deterministic in ``seed``. A deck
without a Joker (``CardArt.has_joker``) never shows one.

Layout written by :func:`export_training` under ``out``::

    det/images/{train,val}/*.jpg     scenes
    det/labels/{train,val}/*.txt     YOLO labels, 2 classes: 0 = card index, 1 = card back
    det/truth/{train,val}/*.json     the same boxes with the card (54-class id) and visibility
    det/data.yaml                    ultralytics dataset file (2 classes)
    cls/{train,val}/<class>/*.png    square crops around index boxes (those at least
                                     ``MIN_CLS_INDEX_PX`` long), 54 folders: c00..c52
                                     (faces in card-code order, c52 = Joker) and c53 = not an index
    zones/*.jpg + zones/*.json       larger zone-like crops (a spread hand on felt) for eval
    export.json                      an ``ExportSummary``
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict

from render.artwork import VALIDATION_DECKS, CardArt, load_deck, train_decks
from rules.cards import DECK, JOKER

__all__ = [
    "CLS_CLASS_NAMES",
    "CLS_IMGSZ",
    "MIN_CLS_INDEX_PX",
    "NOT_INDEX_CLASS",
    "ExportSummary",
    "Scene",
    "SceneObject",
    "crop_square",
    "export_training",
    "index_box",
    "render_scene",
    "write_det_spec",
]

_ART_WIDTH = 200  # artwork raster width (px); cards are scaled down from it
CLS_IMGSZ = 40  # classifier crop size (px)
MIN_CLS_INDEX_PX = 12  # index boxes smaller than this (longer side, px) give no classifier crop
NOT_INDEX_CLASS = 53  # classifier's "not a card index" class (same id as BACK in vision.detections)
CLS_CLASS_NAMES: tuple[str, ...] = tuple(f"c{i:02d}" for i in range(54))
_MIN_INDEX_VISIBLE = 0.7
_MIN_BACK_VISIBLE = 0.3
_BACK = 53
_CROP_MARGIN = 1.25  # classifier crop side = this x the longer side of the index box


class SceneObject(BaseModel):
    """One labelled object of a scene."""

    model_config = ConfigDict(extra="forbid")

    kind: str  # "index" or "back"
    card: int  # 0..51 faces, 52 Joker, 53 back
    xyxy: tuple[float, float, float, float]
    visible: float
    card_id: int  # which physical card of the scene (both indices of one card share it)
    card_xyxy: tuple[float, float, float, float]  # the whole card's bounding box


class Scene(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deck: str
    width: int
    height: int
    objects: list[SceneObject]
    present: list[int] = []  # every card class in the scene, labelled or not (too covered)


class ExportSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: int
    images_train: int
    images_val: int
    zones_val: int
    index_boxes_train: int
    index_boxes_val: int
    back_boxes_train: int
    back_boxes_val: int
    cls_crops_train: int
    cls_crops_val: int
    train_decks: list[str]
    val_decks: list[str]
    scene_size: tuple[int, int]


# ---------------------------------------------------------------------------------------------
# Where the index sits on each deck's artwork


def _ink_box(img: np.ndarray) -> tuple[float, float, float, float] | None:
    """Bounding box (fractions of the card) of the index ink in a face's top-left corner."""
    h, w = img.shape[:2]
    alpha = img[:, :, 3]
    bgr = img[:, :, :3].astype(np.int16)
    band = bgr[int(0.45 * h) : int(0.55 * h), int(0.03 * w) : int(0.10 * w)].reshape(-1, 3)
    bg = np.median(band, 0)
    rh, rw = int(0.5 * h), int(0.45 * w)
    ink = (np.abs(bgr[:rh, :rw] - bg).sum(2) > 90) & (alpha[:rh, :rw] > 128)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    comps: list[tuple[int, int, int, int]] = []
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if area < 4 or ch > 0.35 * h or cw > 0.35 * w:
            continue  # specks, frames and pictures
        at_left, at_top = x < 0.015 * w, y < 0.01 * h
        if (at_left and at_top) or (at_top and cw > 4 * ch) or (at_left and ch > 4 * cw):
            continue  # the card's outline or border (a corner arc, a line along an edge); an index
            # that touches the edge (bellot's ranks start at the card's top) is kept
        comps.append((x, y, x + cw, y + ch))
    seeds = [c for c in comps if c[0] < 0.16 * w and c[1] < 0.16 * h]
    if not seeds:
        return None
    first = min(seeds, key=lambda c: c[0] + c[1])
    box = [first[0], first[1], first[2], first[3]]
    one_row = True  # nothing merged below the rank yet
    changed = True
    while changed:
        changed = False
        bh = max(box[3] - box[1], 8)
        for c in comps:
            if c[0] >= box[0] and c[1] >= box[1] and c[2] <= box[2] and c[3] <= box[3]:
                continue
            xo = min(c[2], box[2]) - max(c[0], box[0])
            yo = min(c[3], box[3]) - max(c[1], box[1])
            # a glyph beside joins only a narrow rank of the same height ("1" then "0"), so a suit
            # pip printed next to the index (bellot, simplistic) is not taken into it
            narrow = box[2] - box[0] < 0.7 * bh
            beside = (
                one_row
                and narrow
                and yo > 0
                and c[0] > box[0]
                and c[0] - box[2] < 0.25 * bh
                and c[3] - c[1] > 0.7 * bh
                and abs(c[1] - box[1]) < 0.2 * bh
            )
            below = xo > -0.01 * w and c[1] >= box[1] and c[1] - box[3] < 0.35 * bh and c[0] < box[2]
            if beside or below:
                nb = [min(box[0], c[0]), min(box[1], c[1]), max(box[2], c[2]), max(box[3], c[3])]
                if nb[2] - nb[0] > 0.33 * w or nb[3] - nb[1] > 0.45 * h:
                    continue
                box = nb
                one_row = one_row and beside
                changed = True
    return box[0] / w, box[1] / h, box[2] / w, box[3] / h


@lru_cache(maxsize=64)
def _deck_index_boxes(name: str) -> dict[int, tuple[float, float, float, float]]:
    art = load_deck(name, _ART_WIDTH)
    found = {card.code: _ink_box(img) for card, img in art.faces.items()}
    boxes = np.array([b for c, b in found.items() if b is not None and c < 52], dtype=np.float64)
    med = np.array([0.03, 0.03, 0.16, 0.26]) if len(boxes) < 10 else np.median(boxes, 0)
    pad_x = 0.12 * (med[2] - med[0])
    pad_y = 0.06 * (med[3] - med[1])
    base = (max(0.0, med[0] - pad_x), max(0.0, med[1] - pad_y), med[2] + pad_x, med[3] + pad_y)
    tens = [b for c in DECK if str(c)[0] == "T" and (b := found.get(c.code)) is not None]
    ten_x1 = max(float(np.median([b[2] for b in tens])) + pad_x, base[2]) if tens else base[2]
    ten_x1 = min(ten_x1, base[2] + 0.6 * (base[2] - base[0]))
    out: dict[int, tuple[float, float, float, float]] = {}
    for card in DECK:
        out[card.code] = (base[0], base[1], ten_x1, base[3]) if str(card)[0] == "T" else base
    jb = found.get(JOKER.code)
    area = (base[2] - base[0]) * (base[3] - base[1])
    if jb is not None and (jb[2] - jb[0]) * (jb[3] - jb[1]) < 2.5 * area:
        out[JOKER.code] = (max(0.0, jb[0] - pad_x), max(0.0, jb[1] - pad_y), jb[2] + pad_x, jb[3] + pad_y)
    else:
        out[JOKER.code] = base
    return out


def index_box(deck: str, card: int) -> tuple[float, float, float, float]:
    """The top-left index box of ``card`` (code 0..52) on ``deck``, as fractions of the card."""
    return _deck_index_boxes(deck)[card]


# ---------------------------------------------------------------------------------------------
# Backgrounds and photometric effects


def _background(rng: np.random.Generator, w: int, h: int, decks: Sequence[str]) -> np.ndarray:
    kind = rng.integers(0, 6)
    base = rng.integers(0, 256, 3).astype(np.float32)
    if kind == 0:  # felt: a dominant colour with blurred noise and fine grain
        felt = np.array([[40, 110, 30], [90, 60, 20], [40, 30, 120], [60, 60, 60]], np.float32)
        base = felt[rng.integers(0, 4)] * rng.uniform(0.6, 1.4)
        img = np.tile(base, (h, w, 1))
        img += cv2.GaussianBlur(rng.normal(0, 25, (h, w, 1)).astype(np.float32), (0, 0), 3)[..., None]
        img += rng.normal(0, 8, (h, w, 1)).astype(np.float32)
    elif kind == 1:  # linear gradient between two colours
        other = rng.integers(0, 256, 3).astype(np.float32)
        ang = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = (xx * math.cos(ang) + yy * math.sin(ang)) / (w + h) + 0.5
        t = np.clip(t, 0, 1)[..., None]
        img = base * (1 - t) + other * t
    elif kind == 2:  # random shapes
        img = np.tile(base, (h, w, 1))
        for _ in range(int(rng.integers(5, 30))):
            col = tuple(float(v) for v in rng.integers(0, 256, 3))
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            r = int(rng.integers(3, max(4, w // 3)))
            s = rng.integers(0, 3)
            if s == 0:
                cv2.circle(img, (x, y), r, col, -1 if rng.random() < 0.7 else 2)
            elif s == 1:
                cv2.rectangle(img, (x, y), (x + r, y + int(rng.integers(3, h // 2))), col, -1)
            else:
                cv2.line(
                    img,
                    (x, y),
                    (int(rng.integers(0, w)), int(rng.integers(0, h))),
                    col,
                    int(rng.integers(1, 6)),
                )
    elif kind == 3:  # a crop of some card's artwork, blown up
        art = load_deck(decks[int(rng.integers(0, len(decks)))], _ART_WIDTH)
        faces = list(art.faces.values())  # 53, or 52 for a deck without a Joker
        src = faces[int(rng.integers(0, len(faces)))] if rng.random() < 0.7 else art.back
        ch, cw = src.shape[:2]
        x0, y0 = int(rng.integers(0, cw // 2)), int(rng.integers(0, ch // 2))
        part = src[y0 : y0 + ch // 2, x0 : x0 + cw // 2, :3].astype(np.float32)
        img = cv2.resize(part, (w, h), interpolation=cv2.INTER_LINEAR)
    elif kind == 4:  # plain noise
        img = rng.normal(base, rng.uniform(10, 60), (h, w, 3)).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.5, 4)))
    else:  # wood/cloth-like stripes
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        f = rng.uniform(0.02, 0.3)
        ang = rng.uniform(0, math.pi)
        s = np.sin((xx * math.cos(ang) + yy * math.sin(ang)) * f + rng.normal(0, 1, (h, w)) * 0.5)
        img = base + s[..., None] * rng.uniform(10, 50)
    return np.asarray(np.clip(img, 0, 255), np.float32)


def _backdrop(
    rng: np.random.Generator, photo: np.ndarray, w: int, h: int, smallest: float = 0.5
) -> np.ndarray:
    """A part of ``photo`` (BGR, or grey) of the scene's shape, from ``smallest`` (a share of each side)
    to all of the most the photo holds, resized to ``w`` x ``h`` and sometimes mirrored: a real
    background for a scene's cards. A still is read magnified up to 4x (``pyramid_scales``), so a
    detector taught on parts of half a photo and up sees its details blown up only where it was never
    taught: det 11's false backs on its own training photos (models/HISTORY.md, thirtieth session)."""
    if not 0 < smallest <= 1:
        raise ValueError(f"smallest must be within (0, 1], but got {smallest}")
    if photo.ndim == 2:
        photo = cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)
    ph, pw = photo.shape[:2]
    most = min(pw / w, ph / h)  # the largest crop of the scene's shape the photo holds, in scene px
    cw, ch = (max(1, round(v * most * float(rng.uniform(smallest, 1.0)))) for v in (w, h))
    x0, y0 = int(rng.integers(0, pw - cw + 1)), int(rng.integers(0, ph - ch + 1))
    part = photo[y0 : y0 + ch, x0 : x0 + cw, :3]
    if rng.random() < 0.5:
        part = part[:, ::-1]
    interp = cv2.INTER_AREA if cw > w else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(np.ascontiguousarray(part), (w, h), interpolation=interp), np.float32)


def _angle(rng: np.random.Generator) -> float:
    """A card's turn: mostly near upright or upside down (the camera pipeline feeds rectified zone
    crops), sometimes any angle."""
    r = rng.random()
    if r < 0.3:
        return float(rng.uniform(-math.pi, math.pi))
    return float(rng.normal(0, 0.2) + (math.pi if r > 0.85 else 0.0))


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.3:  # low resolution: a small part of a 720p frame, scaled up by the pipeline
        f = float(rng.uniform(1.5, 4.0))
        small = cv2.resize(out, (max(8, round(w / f)), max(8, round(h / f))), interpolation=cv2.INTER_AREA)
        out = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    # lighting gradient and colour cast
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    t = (xx * math.cos(ang) + yy * math.sin(ang)) / max(w, h)
    gain = rng.uniform(0.55, 1.25) + rng.uniform(-0.35, 0.35) * t
    out *= gain[..., None]
    out *= rng.uniform(0.8, 1.2, 3).astype(np.float32)
    out += rng.uniform(-25, 25)
    if rng.random() < 0.35:  # glare: a soft white blob
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.05, 0.35) * w, rng.uniform(0.05, 0.35) * h
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        out += (blob * rng.uniform(60, 200))[..., None]
    out = np.clip(out, 0, 255)
    r = rng.random()
    if r < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.5)))
    elif r < 0.35:  # motion blur
        k = int(rng.integers(3, 8))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        ker = np.asarray(cv2.warpAffine(ker, rot, (k, k)), np.float32)
        ker /= max(float(ker.sum()), 1e-6)
        out = cv2.filter2D(out, -1, ker)
    if rng.random() < 0.6:
        out = out + rng.normal(0, rng.uniform(2, 12), out.shape).astype(np.float32)
    u8 = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        dec = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
        if dec is not None:
            u8 = np.asarray(dec, np.uint8)
    return u8


# ---------------------------------------------------------------------------------------------
# Scenes


@dataclass
class _Placed:
    card: int  # 0..52 face, 53 back
    H: np.ndarray  # 3x3 homography artwork pixels -> scene pixels


def _card_homography(
    rng: np.random.Generator, cw: float, art_w: int, art_h: int, cx: float, cy: float, angle: float
) -> np.ndarray:
    s = cw / art_w
    c, si = math.cos(angle), math.sin(angle)
    t0 = np.array([[1, 0, -art_w / 2], [0, 1, -art_h / 2], [0, 0, 1]], np.float64)
    rs = np.array([[s * c, -s * si, 0], [s * si, s * c, 0], [0, 0, 1]], np.float64)
    t1 = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], np.float64)
    return t1 @ rs @ t0


def _layout(
    rng: np.random.Generator, w: int, h: int, art_w: int, art_h: int, angle: float | None = None
) -> list[_Placed]:
    """Where the cards go: a list of placements (bottom first), card ids still to be drawn. With
    ``angle`` (radians) every group of cards and every loose card is turned by it, not a random turn."""

    def turn() -> float:
        return _angle(rng) if angle is None else angle

    mode = rng.choice(["spread", "spread", "spread", "row", "pile", "loose", "mixed"])
    placed: list[_Placed] = []
    # card width: from a small card in a wide view up to a zone crop that one card nearly fills
    cw = float(rng.uniform(0.16, 0.55) * min(w, h) * (1.3 if mode in ("loose", "pile") else 1.0))
    if mode in ("spread", "mixed"):
        groups = 1 if mode == "spread" else 2
        for _g in range(groups):
            k = int(rng.integers(2, 8))
            gcw = cw * rng.uniform(0.8, 1.1)
            step = gcw * rng.uniform(0.15, 0.27)
            ang = turn()
            back = rng.random() < 0.2
            cx0 = rng.uniform(0.2, 0.8) * w
            cy0 = rng.uniform(0.2, 0.8) * h
            fan = rng.normal(0, 0.06) if rng.random() < 0.4 else 0.0
            for i in range(k):
                off = (i - (k - 1) / 2) * step
                jx, jy = rng.normal(0, 0.02 * gcw, 2)
                x = cx0 + off * math.cos(ang) + jx
                y = cy0 + off * math.sin(ang) + jy
                a = ang + fan * (i - (k - 1) / 2) + rng.normal(0, 0.03)
                placed.append(
                    _Placed(_BACK if back else -1, _card_homography(rng, gcw, art_w, art_h, x, y, a))
                )
    elif mode == "row":  # like the i-Verify display: 5 then 2, not overlapping
        ang = rng.normal(0, 0.08) + (math.pi if rng.random() < 0.1 else 0.0)
        ang = ang if angle is None else angle
        gap = cw * rng.uniform(1.02, 1.2)
        n1, n2 = 5, int(rng.integers(1, 3))
        cwr = min(cw, 0.9 * w / (n1 + n2 + 1) / 1.05)
        gap = cwr * rng.uniform(1.02, 1.2)
        x0 = rng.uniform(0.02, 0.1) * w + cwr / 2
        y0 = rng.uniform(0.3, 0.7) * h
        for i in range(n1 + n2):
            x = x0 + (i + (1 if i >= n1 else 0)) * gap
            placed.append(_Placed(-1, _card_homography(rng, cwr, art_w, art_h, x, y0, ang)))
    elif mode == "pile":
        k = int(rng.integers(2, 8))
        cx0, cy0 = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        ang = turn()
        spread = rng.uniform(0.02, 0.3) * cw
        for _ in range(k):
            x, y = cx0 + rng.normal(0, spread), cy0 + rng.normal(0, spread)
            a = ang + rng.normal(0, 0.15)
            card = _BACK if rng.random() < 0.8 else -1
            placed.append(_Placed(card, _card_homography(rng, cw, art_w, art_h, x, y, a)))
    else:  # loose cards
        for _ in range(int(rng.integers(1, 5))):
            x, y = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
            a = turn()
            card = _BACK if rng.random() < 0.25 else -1
            placed.append(
                _Placed(card, _card_homography(rng, cw * rng.uniform(0.7, 1.1), art_w, art_h, x, y, a))
            )
    # a mild global perspective (the camera is not exactly overhead)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    d = rng.uniform(-0.08, 0.08, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    persp = np.asarray(cv2.getPerspectiveTransform(src, src + d), np.float64)
    for p in placed:
        p.H = persp @ p.H
    return placed


def _quad(H: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    pts = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64).T
    q = H @ pts
    return np.asarray((q[:2] / q[2]).T, np.float64)


def _occluder(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """A skin-toned hand/arm shape: (colour image float32, mask bool)."""
    mask = np.zeros((h, w), np.uint8)
    edge = rng.integers(0, 4)
    ex = {
        0: (rng.uniform(0, w), -10),
        1: (w + 10, rng.uniform(0, h)),
        2: (rng.uniform(0, w), h + 10),
        3: (-10, rng.uniform(0, h)),
    }[int(edge)]
    tip = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    thick = int(rng.uniform(0.12, 0.3) * min(w, h))
    cv2.line(mask, (int(ex[0]), int(ex[1])), (int(tip[0]), int(tip[1])), 255, thick)
    cv2.ellipse(
        mask,
        (int(tip[0]), int(tip[1])),
        (int(thick * 0.8), int(thick * 0.6)),
        float(rng.uniform(0, 180)),
        0,
        360,
        255,
        -1,
    )
    tone = np.array([rng.uniform(60, 190), rng.uniform(90, 200), rng.uniform(140, 240)], np.float32)
    tone *= rng.uniform(0.5, 1.1)
    shade = cv2.GaussianBlur(rng.normal(1.0, 0.15, (h, w)).astype(np.float32), (0, 0), 6)
    col = tone[None, None, :] * shade[..., None]
    soft = cv2.GaussianBlur(mask, (0, 0), 2)
    return col, soft > 127


def render_scene(
    rng: np.random.Generator,
    deck: str,
    width: int,
    height: int,
    bg_decks: Sequence[str],
    angle: float | None = None,
    backdrop: np.ndarray | None = None,
    backdrop_smallest: float = 0.5,
) -> tuple[np.ndarray, Scene]:
    """One labelled scene (BGR uint8 image, its labels) from ``deck``; with ``angle`` (radians) its
    cards turned by that much (``benchmarks/photo_stills.py``), else mostly upright or upside down;
    with ``backdrop`` (a BGR photograph: ``render.real_photos``) the cards lie on a part of it
    (``_backdrop``, parts of ``backdrop_smallest`` of it and up) instead of a drawn background."""
    art: CardArt = load_deck(deck, _ART_WIDTH)
    art_w, art_h = art.size
    placed = _layout(rng, width, height, art_w, art_h, angle)
    # a deck's cards are unique in a scene (52 faces + Joker; no Joker from a deck without one)
    faces = rng.permutation(53 if art.has_joker else 52)
    fi = 0
    for p in placed:
        if p.card == -1:
            p.card = int(faces[fi])
            fi += 1
    canvas = (
        _background(rng, width, height, bg_decks)
        if backdrop is None
        else _backdrop(rng, backdrop, width, height, backdrop_smallest)
    )
    owner = np.full((height, width), -1, np.int32)
    for idx, p in enumerate(placed):
        src = art.back if p.card == _BACK else art.faces[DECK[p.card] if p.card < 52 else JOKER]
        if p.card == JOKER.code and art.red_joker is not None and rng.random() < 0.5:
            src = art.red_joker
        warped = cv2.warpPerspective(
            src,
            p.H,
            (width, height),
            flags=cv2.INTER_AREA if abs(np.linalg.det(p.H[:2, :2])) < 1 else cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        a = warped[:, :, 3:4].astype(np.float32) / 255.0
        canvas = canvas * (1 - a) + warped[:, :, :3].astype(np.float32) * a
        owner[warped[:, :, 3] > 127] = idx
        # a thin shadow line at the card's edge helps nothing; real cards have a visible edge anyway
    if rng.random() < 0.2:
        col, m = _occluder(rng, width, height)
        canvas[m] = col[m]
        owner[m] = -2
    objects: list[SceneObject] = []
    for idx, p in enumerate(placed):
        full = np.zeros((height, width), np.uint8)
        cq = _quad(p.H, (0, 0, art_w, art_h))
        cv2.fillConvexPoly(full, np.round(cq).astype(np.int32), 1)
        card_xyxy = _clip_box(cq, width, height)
        if card_xyxy is None:
            continue
        if p.card == _BACK:
            area = float(abs(cv2.contourArea(cq.astype(np.float32))))
            vis = owner == idx
            n_vis = int(vis.sum())
            if area <= 0 or n_vis / area < _MIN_BACK_VISIBLE:
                continue
            ys, xs = np.nonzero(vis)
            box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
            objects.append(
                SceneObject(
                    kind="back", card=_BACK, xyxy=box, visible=n_vis / area, card_id=idx, card_xyxy=card_xyxy
                )
            )
            continue
        fx0, fy0, fx1, fy1 = index_box(deck, p.card)
        tl = (fx0 * art_w, fy0 * art_h, fx1 * art_w, fy1 * art_h)
        br = ((1 - fx1) * art_w, (1 - fy1) * art_h, (1 - fx0) * art_w, (1 - fy0) * art_h)
        for box_art in (tl, br):
            q = _quad(p.H, box_art)
            m = np.zeros((height, width), np.uint8)
            cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 1)
            tot = int(m.sum())
            if tot < 12:
                continue
            inside = m.astype(bool) & (owner == idx)
            area = float(abs(cv2.contourArea(q.astype(np.float32))))
            vis = int(inside.sum()) / max(area, 1.0)
            if vis < _MIN_INDEX_VISIBLE:
                continue
            ys, xs = np.nonzero(inside)
            box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
            if box[2] - box[0] < 3 or box[3] - box[1] < 3:
                continue
            objects.append(
                SceneObject(
                    kind="index",
                    card=p.card,
                    xyxy=box,
                    visible=min(vis, 1.0),
                    card_id=idx,
                    card_xyxy=card_xyxy,
                )
            )
    img = _photometric(rng, canvas)
    present = sorted({p.card for p in placed})
    return img, Scene(deck=deck, width=width, height=height, objects=objects, present=present)


def _clip_box(q: np.ndarray, w: int, h: int) -> tuple[float, float, float, float] | None:
    x0, y0 = max(0.0, float(q[:, 0].min())), max(0.0, float(q[:, 1].min()))
    x1, y1 = min(float(w), float(q[:, 0].max())), min(float(h), float(q[:, 1].max()))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return x0, y0, x1, y1


def crop_square(
    img: np.ndarray, xyxy: Sequence[float], size: int = CLS_IMGSZ, margin: float = _CROP_MARGIN
) -> np.ndarray:
    """The classifier's input for one index box: the runtime detector's own cut
    (``vision.detector.crop_square``), so training crops and live crops match."""
    from vision.detector import crop_square as cut

    return cut(img, xyxy, size, margin)


def _not_index_crop(rng: np.random.Generator, img: np.ndarray, scene: Scene) -> np.ndarray | None:
    idx = [o.xyxy for o in scene.objects if o.kind == "index"]
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in idx] or [scene.width * 0.08]
    for _ in range(10):
        side = float(rng.choice(sizes)) * rng.uniform(0.7, 1.5)
        cx, cy = rng.uniform(0, scene.width), rng.uniform(0, scene.height)
        box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        if all(_iou(box, b) < 0.1 and not _center_in(b, box) for b in idx):
            return crop_square(img, box, margin=1.0)
    return None


def _center_in(b: Sequence[float], box: Sequence[float]) -> bool:
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _iou(a: Sequence[float], b: Sequence[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _jitter_box(rng: np.random.Generator, b: Sequence[float]) -> tuple[float, float, float, float]:
    """An index box as a detector might return it: shifted and resized a little."""
    w, h = b[2] - b[0], b[3] - b[1]
    dx, dy = rng.normal(0, 0.08, 2) * [w, h]
    sw, sh = rng.uniform(0.85, 1.2, 2)
    cx, cy = (b[0] + b[2]) / 2 + dx, (b[1] + b[3]) / 2 + dy
    return cx - w * sw / 2, cy - h * sh / 2, cx + w * sw / 2, cy + h * sh / 2


def write_det_spec(det_dir: Path) -> Path:
    """Write ``det_dir/data.yaml``, the ultralytics dataset file of a stage-1 set laid out as
    ``det_dir/{images,labels}/{train,val}``, with the two classes (0 card index, 1 card back)."""
    spec = det_dir / "data.yaml"
    spec.write_text(
        f"path: {det_dir.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n  1: back\n"
    )
    return spec


def export_training(
    out: Path,
    images: int,
    seed: int,
    size: int = 320,
    val_fraction: float = 0.12,
    zones: int = 40,
    crops_per_index: int = 1,
    backdrops: Sequence[np.ndarray] = (),
    backdrop_share: float = 0.5,
    backdrop_smallest: float = 0.5,
) -> ExportSummary:
    """Write the detector's training and validation data under ``out`` (see the module doc). With
    ``backdrops`` (photographs: ``render.real_photos``' training half), ``backdrop_share`` of the scenes
    lay their cards on a part of one of them (``backdrop_smallest`` of its sides and up: ``_backdrop``),
    and a tenth of those show the part alone, no card in it:
    stage 1 taught on drawn backgrounds alone boxed real textures (bricks, gravel, a lattice) as
    card backs."""
    tr_decks, va_decks = train_decks(), list(VALIDATION_DECKS)
    if set(tr_decks) & set(va_decks):
        raise ValueError(f"deck split overlaps: {sorted(set(tr_decks) & set(va_decks))}")
    n_val = max(1, round(images * val_fraction))
    n_train = images - n_val
    counts = {"index_train": 0, "index_val": 0, "back_train": 0, "back_val": 0, "cls_train": 0, "cls_val": 0}
    for split in ("train", "val"):
        for sub in ("images", "labels", "truth"):
            (out / "det" / sub / split).mkdir(parents=True, exist_ok=True)
        for name in CLS_CLASS_NAMES:
            (out / "cls" / split / name).mkdir(parents=True, exist_ok=True)
    for split, n, decks, base in (("train", n_train, tr_decks, 0), ("val", n_val, va_decks, 10_000_000)):
        for i in range(n):
            rng = np.random.default_rng([seed, base + i])
            deck = decks[int(rng.integers(0, len(decks)))]
            w = int(size * rng.uniform(0.75, 1.25))
            h = int(size * rng.uniform(0.75, 1.25))
            backdrop = None
            if backdrops and rng.random() < backdrop_share:  # (no draw without backdrops: old exports stand)
                backdrop = backdrops[int(rng.integers(len(backdrops)))]
            if backdrop is not None and rng.random() < 0.1:  # the photograph alone: nothing in it to box
                img = _photometric(rng, _backdrop(rng, backdrop, w, h, backdrop_smallest))
                scene = Scene(deck=deck, width=w, height=h, objects=[], present=[])
            else:
                img, scene = render_scene(
                    rng, deck, w, h, decks, backdrop=backdrop, backdrop_smallest=backdrop_smallest
                )
            stem = f"{split}_{i:06d}"
            cv2.imwrite(
                str(out / "det" / "images" / split / f"{stem}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92]
            )
            lines = []
            for o in scene.objects:
                x0, y0, x1, y1 = o.xyxy
                cls = 0 if o.kind == "index" else 1
                lines.append(
                    f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                    f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
                )
                counts[f"{o.kind}_{split}"] += 1
                if o.kind == "index":
                    for k in range(crops_per_index):
                        box = _jitter_box(rng, o.xyxy)
                        if max(x1 - x0, y1 - y0) < MIN_CLS_INDEX_PX:
                            continue  # too small to read: the classifier learns nothing from it
                        crop = crop_square(img, box)
                        cv2.imwrite(
                            str(
                                out / "cls" / split / CLS_CLASS_NAMES[o.card] / f"{stem}_{len(lines)}_{k}.png"
                            ),
                            crop,
                        )
                        counts[f"cls_{split}"] += 1
            (out / "det" / "labels" / split / f"{stem}.txt").write_text(
                "\n".join(lines) + ("\n" if lines else "")
            )
            (out / "det" / "truth" / split / f"{stem}.json").write_text(scene.model_dump_json())
            for k in range(2):
                neg = _not_index_crop(rng, img, scene)
                if neg is not None:
                    cv2.imwrite(
                        str(out / "cls" / split / CLS_CLASS_NAMES[NOT_INDEX_CLASS] / f"{stem}_n{k}.png"), neg
                    )
                    counts[f"cls_{split}"] += 1
    zone_dir = out / "zones"
    zone_dir.mkdir(parents=True, exist_ok=True)
    for i in range(zones):  # bigger zone-like crops from the held-out decks, for eval-detector
        rng = np.random.default_rng([seed, 20_000_000 + i])
        deck = va_decks[i % len(va_decks)]
        img, scene = render_scene(
            rng, deck, int(rng.integers(360, 520)), int(rng.integers(240, 360)), va_decks
        )
        cv2.imwrite(str(zone_dir / f"zone_{i:04d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (zone_dir / f"zone_{i:04d}.json").write_text(scene.model_dump_json())
    write_det_spec(out / "det")
    summary = ExportSummary(
        seed=seed,
        images_train=n_train,
        images_val=n_val,
        zones_val=zones,
        index_boxes_train=counts["index_train"],
        index_boxes_val=counts["index_val"],
        back_boxes_train=counts["back_train"],
        back_boxes_val=counts["back_val"],
        cls_crops_train=counts["cls_train"],
        cls_crops_val=counts["cls_val"],
        train_decks=tr_decks,
        val_decks=va_decks,
        scene_size=(size, size),
    )
    (out / "export.json").write_text(json.dumps(summary.model_dump(), indent=2))
    return summary
