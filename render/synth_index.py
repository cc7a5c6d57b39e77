"""Synthetic card-index crops in fonts no deck has: training data for the stage-2 index classifier.

Why: the classifier's errors on held-out decks are fonts none of the 22 training decks uses
(bellot's condensed bold digits, plastic's thin geometric ranks and small suits; see
models/HISTORY.md). The decks are few; fonts are many. This draws the index of a card corner -
a rank over a suit pip - in every installed font that has the rank glyphs (Debian font packages,
installed by ``scripts/setup.sh train``), with drawn or font suit pips, varied weight, width,
spacing and colour, on a card corner over felt or a neighbouring card, then cuts the crop exactly as
``vision.detector.crop_square`` cuts it (square, 1.25x the index's longer side) and degrades it the
way the camera does (low resolution, chroma subsampling, blur, JPEG).

Output: an ImageFolder (``<out>/cNN/syn_<font>_<n>.png``, 40x40, classes ``c00``..``c52`` in card-code
order of ``rules.cards``), the layout ``vision.index_classifier`` trains on. Deterministic for a seed.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rules.cards import DECK, JOKER

__all__ = ["CAMERAS", "CROP_SIZE", "index_fonts", "synth_index_crop", "write_synthetic_indices"]

CROP_SIZE = 40  # the classifier data's crop size (vision/index_classifier.py)
# the crop's side in the frame, as a share of CROP_SIZE: a 1080p view of the table (about 1.2 px/mm on
# the felt; the index's crop 24-42 px across) and a 720p one (about 0.8 px/mm: 16-26 px)
FINE_NATIVE = (0.6, 1.05)
COARSE_NATIVE = (0.4, 0.65)
# the blur at that size: (chance, least and most sigma in frame px)
FINE_BLUR = (0.5, 0.3, 0.9)
COARSE_BLUR = (1.0, 0.5, 1.0)
# ``camera``'s name -> (native, blur). The coarse one was matched to the 720p index crops of the five
# decorative held-out decks (D720's val crops: `export-table-training --clips 0 --val-clips 20 --seed
# 31 --image-size 1280x720`; twenty-fifth session): the 95th percentile of the gradient over the
# crop's contrast, median 4.93 (25-75 %: 4.18-5.59) there, 5.18 (4.16-6.51) drawn so; the fine one's
# crops read 7.94 (6.68-9.86), sharper than a 720p camera ever gives
CAMERAS = {"fine": (FINE_NATIVE, FINE_BLUR), "coarse": (COARSE_NATIVE, COARSE_BLUR)}
_CROP_MARGIN = 1.25  # vision.detector._CROP_MARGIN: the crop's side over the index's longer side
_FONT_DIRS = (Path("/usr/share/fonts"),)
_RANK_TEXT = {"T": "10"}
_SUIT_CHARS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
# Families whose letters are not plain rank letters (symbols, dingbats, scripts, keyboard caps)
# and slanted styles (card indices stand upright; the classifier's own augmentation tilts them).
_SKIP = (
    "symbol",
    "dingbat",
    "d050000l",
    "z003",
    "chorus",
    "keyboard",
    "initials",
    "math",
    "ital",
    "obli",
    "_ri",
    "_i.",
    "bdita",
)
_HI = 64  # drawing scale: a rank is drawn about this many pixels tall, then reduced to the crop


@functools.lru_cache(maxsize=1024)
def _cmap(path: Path) -> frozenset[int]:
    """The code points ``path`` has glyphs for (empty for a file fontTools cannot read)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    try:
        with TTFont(path, lazy=True, fontNumber=0) as tt:
            return frozenset(tt.getBestCmap() or {})
    except Exception:  # a broken font file is simply not used
        return frozenset()


def index_fonts(dirs: Sequence[Path] = _FONT_DIRS) -> list[Path]:
    """Installed outline fonts that have every rank glyph (A 2-9 10 J Q K)."""
    found: list[Path] = []
    for d in dirs:
        for f in sorted(d.rglob("*")):
            if f.suffix.lower() not in (".ttf", ".otf") or any(s in f.name.lower() for s in _SKIP):
                continue
            if all(ord(ch) in _cmap(f) for ch in "A23456789JQK10"):
                found.append(f)
    return found


def _suit_fonts(fonts: Sequence[Path]) -> list[Path]:
    """Those of ``fonts`` that also have the four filled suit symbols."""
    return [f for f in fonts if all(ord(ch) in _cmap(f) for ch in _SUIT_CHARS.values())]


def _drawn_suit(suit: str, size: int, rng: random.Random) -> np.ndarray:
    """A suit pip drawn from circles and polygons, ``size`` px tall, as an alpha mask (uint8)."""
    import cv2

    w = max(4, round(size * rng.uniform(0.75, 1.05)))
    h = size
    m = np.zeros((h, w), np.uint8)
    if suit == "d":
        pinch = rng.uniform(0.0, 0.12) * w
        pts = np.array([[w / 2, 0], [w - 1, h / 2], [w / 2, h - 1], [0, h / 2]], np.float32)
        cv2.fillPoly(m, [pts.round().astype(np.int32)], 255)
        if pinch > 0.5:  # concave sides
            for px, py in ((0, 0), (w, 0), (w, h), (0, h)):
                cv2.circle(m, (px, py), round(0.5 * min(w, h) - pinch / 2), 0, -1)
    elif suit == "h":
        r = w / 4
        cy = h * 0.3
        cv2.circle(m, (round(r), round(cy)), round(r), 255, -1)
        cv2.circle(m, (round(w - r - 1), round(cy)), round(r), 255, -1)
        pts = np.array([[0, cy + r * 0.3], [w - 1, cy + r * 0.3], [w / 2, h - 1]], np.float32)
        cv2.fillPoly(m, [pts.round().astype(np.int32)], 255)
        cv2.rectangle(m, (round(r), round(cy - r * 0.2)), (round(w - r), round(cy + r)), 255, -1)
    elif suit == "s":
        r = w / 4
        cy = h * 0.55
        cv2.circle(m, (round(r), round(cy)), round(r), 255, -1)
        cv2.circle(m, (round(w - r - 1), round(cy)), round(r), 255, -1)
        pts = np.array([[0, cy - r * 0.3], [w - 1, cy - r * 0.3], [w / 2, 0]], np.float32)
        cv2.fillPoly(m, [pts.round().astype(np.int32)], 255)
        cv2.rectangle(m, (round(r), round(cy - r)), (round(w - r), round(cy + r * 0.2)), 255, -1)
        stem = np.array([[w / 2, cy], [w * 0.72, h - 1], [w * 0.28, h - 1]], np.float32)
        cv2.fillPoly(m, [stem.round().astype(np.int32)], 255)
    else:  # clubs
        r = w * rng.uniform(0.2, 0.25)
        cv2.circle(m, (round(w / 2), round(r)), round(r), 255, -1)
        cv2.circle(m, (round(r), round(h * 0.55)), round(r), 255, -1)
        cv2.circle(m, (round(w - r - 1), round(h * 0.55)), round(r), 255, -1)
        cv2.circle(m, (round(w / 2), round(h * 0.45)), round(r * 0.8), 255, -1)
        stem = np.array([[w / 2, h * 0.4], [w * 0.7, h - 1], [w * 0.3, h - 1]], np.float32)
        cv2.fillPoly(m, [stem.round().astype(np.int32)], 255)
    return m


@functools.lru_cache(maxsize=512)
def _font(path: Path, px: int) -> object:
    from PIL import ImageFont

    return ImageFont.truetype(str(path), px)


def _text_mask(text: str, font: Path, px: int, stroke: int) -> np.ndarray:
    """``text`` in ``font`` as a tight alpha mask (uint8)."""
    from PIL import Image, ImageDraw

    f: Any = _font(font, px)
    x0, y0, x1, y1 = f.getbbox(text, stroke_width=stroke)
    img = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    ImageDraw.Draw(img).text((2 - x0, 2 - y0), text, font=f, fill=255, stroke_width=stroke, stroke_fill=255)
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 20)
    if not len(ys):
        return np.zeros((1, 1), np.uint8)
    return a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _squeeze(mask: np.ndarray, sx: float) -> np.ndarray:
    import cv2

    h, w = mask.shape
    return cv2.resize(mask, (max(1, round(w * sx)), h), interpolation=cv2.INTER_AREA)


def _paste(canvas: np.ndarray, mask: np.ndarray, colour: np.ndarray, x: int, y: int) -> None:
    h, w = mask.shape
    a = mask[..., None].astype(np.float32) / 255
    region = canvas[y : y + h, x : x + w]
    region[:] = (region * (1 - a) + colour * a).astype(np.uint8)


def _ink(rng: random.Random, red: bool) -> np.ndarray:
    if red:
        return np.array([rng.randint(0, 60), rng.randint(0, 50), rng.randint(170, 255)], np.float32)  # BGR
    v = rng.randint(0, 60)
    return np.array([v + rng.randint(0, 20), v, v], np.float32)


def synth_index_crop(
    code: int,
    font: Path,
    suit_font: Path | None,
    rng: random.Random,
    style: int = 1,
    native: tuple[float, float] = FINE_NATIVE,
    blur: tuple[float, float, float] = FINE_BLUR,
) -> np.ndarray:
    """One 40x40 BGR crop of card ``code``'s index (``rules.cards`` order; 52 = the Joker).

    ``style`` 2 adds corner layouts real decks print (``STYLES``): a rank that starts at the card's
    very edge (bellot), a large suit pip or a court picture right beside the index (simplistic,
    bellot, anglo_poker), tighter "10"s. Style 1 draws exactly what it always drew (for a seed).
    ``native`` and ``blur``: the camera's size and blur of the crop (``CAMERAS``; the fine camera's
    by default, as every recorded recipe drew)."""
    import cv2

    card = JOKER if code == 52 else DECK[code]
    tok = str(card)
    rank_txt, suit = ("JOKER", None) if code == 52 else (_RANK_TEXT.get(tok[0], tok[0]), tok[1])
    red = suit in ("h", "d") if suit else rng.random() < 0.5
    ink = _ink(rng, red)
    stroke = rng.choice((0, 0, 0, 1, 2, 3))
    if rank_txt == "JOKER":  # a Joker's index: its word written downwards, letter under letter
        letters = [_text_mask(ch, font, _HI // 3, stroke) for ch in rank_txt]
        lw = max(m.shape[1] for m in letters)
        rank = np.vstack([np.pad(m, ((0, 2), (0, lw - m.shape[1]))) for m in letters])
    else:
        rank = _text_mask(rank_txt, font, _HI, stroke)
    sx = rng.uniform(0.55, 1.15)
    if rank_txt == "10" and rng.random() < 0.5:
        sx *= rng.uniform(0.6, 0.85)  # tight "10"s
    if style >= 2 and rank_txt == "10" and rng.random() < 0.3:
        sx *= rng.uniform(0.55, 0.8)  # very tight ones, the "1" and "0" almost touching
    rank = _squeeze(rank, sx)
    if rank.shape[1] > 1.6 * rank.shape[0]:
        rank = _squeeze(rank, 1.6 * rank.shape[0] / rank.shape[1])
    parts = [rank]
    if suit is not None:
        size = max(8, round(rank.shape[0] * rng.uniform(0.45, 0.95)))
        if suit_font is not None and rng.random() < 0.5:
            pip = _text_mask(_SUIT_CHARS[suit], suit_font, _HI // 2, 0)
            pip = cv2.resize(
                pip, (max(2, round(pip.shape[1] * size / pip.shape[0])), size), interpolation=cv2.INTER_AREA
            )
        else:
            pip = _drawn_suit(suit, size, rng)
        parts.append(pip)
    gap = round(rank.shape[0] * rng.uniform(0.04, 0.3))
    iw = max(p.shape[1] for p in parts)
    ih = sum(p.shape[0] for p in parts) + gap * (len(parts) - 1)
    # the card: off-white, its corner some way up-left of the index, then felt or another card
    pad = round(1.2 * max(iw, ih))
    H, W = ih + 2 * pad, iw + 2 * pad
    paper = np.array([rng.randint(215, 255)] * 3, np.float32) - np.array(
        [rng.randint(0, 25), rng.randint(0, 12), 0]
    )
    canvas = np.empty((H, W, 3), np.uint8)
    outside = rng.random()
    if outside < 0.5:
        canvas[:] = (rng.randint(10, 60), rng.randint(70, 140), rng.randint(10, 50))  # felt green (BGR)
    elif outside < 0.65:
        canvas[:] = (rng.randint(60, 120), rng.randint(20, 50), rng.randint(0, 30))  # a blue back / display
    else:
        canvas[:] = np.clip(paper + rng.randint(-15, 5), 0, 255)  # a neighbouring card
        if rng.random() < 0.6:  # with some of its ink
            cv2.rectangle(
                canvas,
                (rng.randint(0, W // 3), rng.randint(0, H)),
                (rng.randint(0, W // 3), rng.randint(0, H)),
                tuple(int(v) for v in _ink(rng, rng.random() < 0.5)),
                rng.randint(3, 12),
            )
    ix, iy = pad, pad
    cx0 = ix - round(iw * rng.uniform(0.12, 0.45))
    cy0 = iy - round(ih * rng.uniform(0.06, 0.3))
    if style >= 2 and rng.random() < 0.25:  # the rank starts at the card's edge, even cut by it
        cy0 = iy + round(ih * rng.uniform(-0.03, 0.03))
    radius = round(iw * rng.uniform(0.1, 0.5))
    face = np.zeros((H, W), np.uint8)
    cv2.rectangle(face, (cx0 + radius, cy0), (W - 1, H - 1), 255, -1)
    cv2.rectangle(face, (cx0, cy0 + radius), (W - 1, H - 1), 255, -1)
    cv2.circle(face, (cx0 + radius, cy0 + radius), radius, 255, -1)
    face = cv2.GaussianBlur(face, (3, 3), 0)
    _paste(canvas, face, paper, 0, 0)
    if rng.random() < 0.3:  # the card's printed border line
        cv2.rectangle(
            canvas, (cx0 + 4, cy0 + 4), (W + 10, H + 10), tuple(int(v) for v in ink * 0.5 + paper * 0.5), 2
        )
    on_card = face.astype(np.float32) / 255  # style 2: ink only on the card (a rank cut by its edge)
    y = iy
    for p in parts:
        x = ix + (iw - p.shape[1]) // 2 if rng.random() < 0.8 else ix
        if style >= 2:
            p = (p.astype(np.float32) * on_card[y : y + p.shape[0], x : x + p.shape[1]]).astype(np.uint8)
        _paste(canvas, p, ink, x, y)
        y += p.shape[0] + gap
    if style >= 2 and rng.random() < 0.35:  # what a deck prints right beside its index
        bx = ix + iw + round(iw * rng.uniform(0.08, 0.5))
        by = iy + round(rank.shape[0] * rng.uniform(-0.05, 0.6))
        if suit is not None and code // 4 < 9:  # a number card's first pip, as large as the rank
            big = _drawn_suit(suit, max(8, round(rank.shape[0] * rng.uniform(0.6, 1.1))), rng)
            h2, w2 = min(big.shape[0], H - by), min(big.shape[1], W - bx)
            if h2 > 0 and w2 > 0:
                _paste(canvas, big[:h2, :w2], ink, bx, by)
        else:  # a court card's (or the Joker's) picture: coloured shapes
            for _ in range(rng.randint(2, 5)):
                colour = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
                centre = (bx + rng.randint(0, max(1, iw)), by + rng.randint(0, max(1, ih)))
                axes = (rng.randint(2, max(3, iw // 2)), rng.randint(2, max(3, ih // 2)))
                cv2.ellipse(canvas, centre, axes, rng.uniform(0, 180), 0, 360, colour, -1)
    if rng.random() < 0.15:  # a card above covering part of the crop's edge
        side = rng.choice(("r", "b"))
        edge = np.zeros((H, W), np.uint8)
        if side == "r":
            cv2.rectangle(edge, (ix + iw + round(iw * rng.uniform(0.05, 0.4)), 0), (W, H), 255, -1)
        else:
            cv2.rectangle(edge, (0, iy + ih + round(ih * rng.uniform(0.05, 0.3))), (W, H), 255, -1)
        _paste(canvas, edge, np.clip(paper - rng.randint(0, 30), 0, 255), 0, 0)
    # the detector's crop around the index box (jittered as the detector's boxes are)
    side = max(iw, ih) * _CROP_MARGIN * rng.uniform(0.92, 1.12)
    ccx = ix + iw / 2 + rng.uniform(-0.07, 0.07) * side
    ccy = iy + ih / 2 + rng.uniform(-0.07, 0.07) * side
    ang = rng.uniform(-12, 12) + (180 if rng.random() < 0.5 else 0)
    # the camera's resolution: the crop is ``native`` (a share of CROP_SIZE) px across in the frame,
    # then enlarged to the crop
    npx = rng.uniform(*native) * CROP_SIZE
    s = npx / side
    m = cv2.getRotationMatrix2D((ccx, ccy), ang, s)
    m[:, 2] += (npx / 2 - ccx, npx / 2 - ccy)
    n = max(8, round(npx))
    small = cv2.warpAffine(canvas, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.7:  # 4:2:0 chroma
        ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        ch = cv2.resize(
            cv2.resize(ycc[:, :, 1:], (max(1, n // 2), max(1, n // 2)), interpolation=cv2.INTER_AREA), (n, n)
        )
        ycc[:, :, 1:] = ch
        small = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    if rng.random() < blur[0]:
        small = cv2.GaussianBlur(small, (3, 3), rng.uniform(blur[1], blur[2]))
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 92)])
    assert ok
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None
    return cv2.resize(decoded, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)


def write_synthetic_indices(
    out: Path,
    *,
    per_class: int,
    seed: int = 0,
    fonts: Sequence[Path] | None = None,
    joker: bool = False,
    codes: Sequence[int] | None = None,
    style: int = 1,
    camera: str = "fine",
) -> dict[str, int]:
    """Write ``per_class`` crops of each card (``codes``, default all 52, and the Joker with
    ``joker``) under ``out``; returns counts per class folder.

    Each crop depends only on (seed, card, n) and the font list, so a re-run skips files already
    written (resumable) and several processes may share the classes. ``style``: see
    ``synth_index_crop``; ``camera`` (``CAMERAS``) the size and blur a camera gives the index. Fonts
    are drawn round-robin so
    every font serves every class; a font that fails to draw a glyph is named in the error."""
    import cv2

    fonts = list(fonts) if fonts is not None else index_fonts()
    if not fonts:
        raise FileNotFoundError(
            f"no usable fonts under {[str(d) for d in _FONT_DIRS]}: run scripts/setup.sh train"
        )
    if camera not in CAMERAS:
        raise ValueError(f"camera must be one of {sorted(CAMERAS)}, but got {camera!r}")
    native, blur = CAMERAS[camera]
    suit_fonts = _suit_fonts(fonts)
    codes = list(codes) if codes is not None else list(range(52)) + ([52] if joker else [])
    counts: dict[str, int] = {}
    for code in codes:
        d = out / f"c{code:02d}"
        d.mkdir(parents=True, exist_ok=True)
        for n in range(per_class):
            font = fonts[(code * 7 + n) % len(fonts)]
            dest = d / f"syn_{font.stem[:24]}_{n:05d}.png"
            if dest.exists():
                continue
            key = f"{seed}:{code}:{n}".encode()
            rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
            sf = rng.choice(suit_fonts) if suit_fonts else None
            try:
                crop = synth_index_crop(code, font, sf, rng, style, native, blur)
            except Exception as exc:
                raise ValueError(f"{font}: cannot draw card code {code}: {exc}") from exc
            cv2.imwrite(str(dest), crop)
        counts[d.name] = per_class
    return counts
