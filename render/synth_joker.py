"""Synthetic Joker faces: stage-1 training data for Joker corners no deck has.

Why: stage 1 (the index box finder) boxes a held-out deck's Joker far less often than any other card
(``eval-detector`` on D5: Joker recall 0.65, every other face >= 0.79). Given the box, the
classifier reads those same Jokers right (bellot, plastic, simplistic, tigullio: every D5 crop), so
what is missing is a box. Each deck has one Joker design, and its corner is unlike a rank over a suit:
a word across (bellot's "JOKER"), an icon beside a word (plastic), a star (tigullio), a word
downwards. The 25 training decks give stage 1 25 such corners; this draws as many as wanted.

``synthetic_joker`` takes one of a deck's own faces (its Joker, or a court card, for the picture),
paints its two index corners over with the card's own paper, and prints a Joker index there in one
of several layouts, in a font from ``render.synth_index.index_fonts``: the word downwards, the word
across, a star (plain, outlined, or in a ring), a star over the word, an icon beside the word, a "J"
over a star. The bottom-right corner gets the same index turned 180 degrees. It returns the face and
its index box (fractions of the card, padded as ``render.training`` pads a deck's boxes), so the
labels fit the ink actually printed.
"""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from render.artwork import CardArt
from render.synth_index import _ink, _paste, _text_mask
from rules.cards import DECK, JOKER

__all__ = ["JOKER_LAYOUTS", "synthetic_joker", "with_synthetic_joker"]

JOKER_LAYOUTS = ("down", "across", "star", "star-down", "icon-across", "j-star")
_Box = tuple[float, float, float, float]


def _star(size: int, points: int, inner: float) -> np.ndarray:
    """A filled star (``points`` points, inner radius ``inner`` of the outer) as a uint8 mask."""
    m = np.zeros((size, size), np.uint8)
    c, r = (size - 1) / 2, (size - 1) / 2
    a = np.arange(2 * points) * np.pi / points - np.pi / 2
    rad = np.where(np.arange(2 * points) % 2 == 0, r, r * inner)
    pts = np.stack([c + rad * np.cos(a), c + rad * np.sin(a)], 1)
    cv2.fillPoly(m, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return m


def _icon(size: int, rng: random.Random) -> np.ndarray:
    """A star or a ring with a star or a cross in it, ``size`` px square."""
    kind = rng.choice(("star", "outline", "ring", "ring", "disc"))
    points = rng.choice((5, 5, 5, 4, 6))
    inner = rng.uniform(0.35, 0.5) if points == 5 else rng.uniform(0.25, 0.45)
    star = _star(size, points, inner)
    if kind == "star":
        return star
    if kind == "outline":
        t = max(1, size // 10)
        return cv2.subtract(star, cv2.erode(star, np.ones((2 * t + 1, 2 * t + 1), np.uint8)))
    m = np.zeros((size, size), np.uint8)
    c, r = (size - 1) // 2, (size - 1) // 2
    if kind == "disc":  # a filled disc with the star cut out of it
        cv2.circle(m, (c, c), r, 255, -1, cv2.LINE_AA)
        inside = cv2.resize(star, (round(size * 0.62),) * 2, interpolation=cv2.INTER_AREA)
        o = (size - inside.shape[0]) // 2
        m[o : o + inside.shape[0], o : o + inside.shape[1]] = cv2.subtract(
            m[o : o + inside.shape[0], o : o + inside.shape[1]], inside
        )
        return m
    cv2.circle(m, (c, c), r - max(1, size // 14), 255, max(1, size // 9), cv2.LINE_AA)
    inside = cv2.resize(star, (round(size * 0.55),) * 2, interpolation=cv2.INTER_AREA)
    if rng.random() < 0.3:  # a cross instead of a star (plastic's icon)
        inside = np.zeros_like(inside)
        s, t = inside.shape[0], max(1, inside.shape[0] // 5)
        inside[(s - t) // 2 : (s + t) // 2 + 1, :] = 255
        inside[:, (s - t) // 2 : (s + t) // 2 + 1] = 255
    o = (size - inside.shape[0]) // 2
    m[o : o + inside.shape[0], o : o + inside.shape[1]] = np.maximum(
        m[o : o + inside.shape[0], o : o + inside.shape[1]], inside
    )
    return m


def _fit(mask: np.ndarray, w: int | None = None, h: int | None = None) -> np.ndarray:
    """``mask`` resized to ``w`` wide or ``h`` tall (the other side in proportion)."""
    mh, mw = mask.shape
    if w is not None:
        h = max(1, round(mh * w / mw))
    elif h is not None:
        w = max(1, round(mw * h / mh))
    return cv2.resize(mask, (max(1, int(w or 1)), max(1, int(h or 1))), interpolation=cv2.INTER_AREA)


def _stack(parts: list[np.ndarray], gap: int, across: bool = False) -> np.ndarray:
    """Masks one under another, centred (or side by side, centred vertically, with ``across``)."""
    if across:
        hh = max(p.shape[0] for p in parts)
        cols = []
        for i, p in enumerate(parts):
            t = (hh - p.shape[0]) // 2
            cols.append(np.pad(p, ((t, hh - p.shape[0] - t), (0, gap if i < len(parts) - 1 else 0))))
        return np.hstack(cols)
    ww = max(p.shape[1] for p in parts)
    rows = []
    for i, p in enumerate(parts):
        left = (ww - p.shape[1]) // 2
        rows.append(np.pad(p, ((0, gap if i < len(parts) - 1 else 0), (left, ww - p.shape[1] - left))))
    return np.vstack(rows)


def _joker_index(layout: str, font: Path, bw: int, bh: int, rng: random.Random) -> np.ndarray:
    """The ink mask of a Joker index in ``layout``, sized for a deck whose rank-and-suit index is
    ``bw`` x ``bh`` px."""
    word = rng.choice(("JOKER", "JOKER", "Joker"))
    stroke = rng.choice((0, 0, 1, 2))
    hi = 48
    if layout == "down":
        letters = [_text_mask(ch, font, hi, stroke) for ch in "JOKER"]
        m = _stack(letters, max(1, hi // 12))
        return _fit(m, h=round(bh * rng.uniform(1.0, 1.6)))
    if layout == "across":
        m = _text_mask(word, font, hi, stroke)
        return _fit(m, h=round(bh * rng.uniform(0.28, 0.45)))
    if layout == "star":
        return _icon(max(6, round(bw * rng.uniform(0.8, 1.3))), rng)
    if layout == "star-down":
        letters = [_text_mask(ch, font, hi, stroke) for ch in "JOKER"]
        m = _fit(_stack(letters, max(1, hi // 12)), h=round(bh * rng.uniform(0.9, 1.3)))
        icon = _icon(max(6, round(m.shape[1] * rng.uniform(1.0, 1.5))), rng)
        return _stack([icon, m], max(1, bh // 12))
    if layout == "icon-across":
        text = _fit(_text_mask(word, font, hi, stroke), h=round(bh * rng.uniform(0.25, 0.35)))
        icon = _icon(max(6, round(text.shape[0] * rng.uniform(1.0, 1.4))), rng)
        return _stack([icon, text], max(1, bh // 10), across=True)
    # "j-star": a rank-like "J" over a star
    j = _fit(_text_mask("J", font, hi, stroke), h=round(bh * rng.uniform(0.45, 0.6)))
    icon = _icon(max(6, round(bw * rng.uniform(0.7, 1.0))), rng)
    return _stack([j, icon], max(1, bh // 14))


def _paper(art: CardArt) -> np.ndarray:
    """The deck's paper colour (BGR): the median of its 2 of spades inside the card's outline (a card
    of little ink; a court card's sides can be picture)."""
    two = art.faces[DECK[0]]
    return np.asarray(np.median(two[:, :, :3][two[:, :, 3] > 128], 0), np.float32)


def synthetic_joker(
    art: CardArt, index_box_of: dict[int, _Box], rng: random.Random, font: Path
) -> tuple[np.ndarray, _Box]:
    """A Joker face drawn on one of ``art``'s faces, and its index box (fractions of the card).

    ``index_box_of`` maps card codes to the deck's index boxes (``render.training.index_box``): where
    the old index is painted over, and how big a rank-and-suit index is on this deck."""
    bases = [c for c in DECK if str(c)[0] in "KQJ"]
    if art.has_joker and rng.random() < 0.5:
        bases = [JOKER]
    base = rng.choice(bases)
    img = art.faces[base].copy()
    h, w = img.shape[:2]
    paper = _paper(art)
    rx0, ry0, rx1, ry1 = index_box_of[DECK[0].code]  # a rank-and-suit index of this deck
    bw, bh = max(4, round((rx1 - rx0) * w)), max(6, round((ry1 - ry0) * h))
    layout = rng.choice(JOKER_LAYOUTS)
    mask = _joker_index(layout, font, bw, bh, rng)
    scale = min(1.0, 0.38 * w / mask.shape[1], 0.4 * h / mask.shape[0])
    if scale < 1.0:  # too big for the corner: smaller, never cut
        mask = _fit(mask, w=max(1, round(mask.shape[1] * scale)))
    ink = _ink(rng, rng.random() < 0.4)
    ox0, oy0, ox1, oy1 = index_box_of[base.code]
    x = max(round(0.03 * w), round(rx0 * w + rng.uniform(-0.2, 0.2) * bw))
    y = max(round(0.02 * h), round(ry0 * h + rng.uniform(-0.1, 0.1) * bh))
    mh, mw = mask.shape
    # paint the old index and the new one's place over with paper, inside the card's outline
    px0 = max(round(0.025 * w), min(x, round(ox0 * w)) - bw // 4)
    py0 = max(round(0.018 * h), min(y, round(oy0 * h)) - bh // 8)
    px1 = min(w // 2, max(x + mw, round(ox1 * w)) + bw // 4)
    py1 = min(h // 2, max(y + mh, round(oy1 * h)) + bh // 8)
    bgr = np.ascontiguousarray(img[:, :, :3])
    for turned in (False, True):
        if turned:
            bgr = np.ascontiguousarray(bgr[::-1, ::-1])
        bgr[py0:py1, px0:px1] = paper.astype(np.uint8)
        _paste(bgr, mask, ink, x, y)
        if turned:
            bgr = np.ascontiguousarray(bgr[::-1, ::-1])
    img[:, :, :3] = bgr
    ys, xs = np.nonzero(mask > 60)
    ix0, iy0, ix1, iy1 = x + xs.min(), y + ys.min(), x + xs.max() + 1, y + ys.max() + 1
    # padded as render.training._deck_index_boxes pads a deck's boxes (its padded box is 1.24 x 1.12
    # the ink: 0.12 of the ink's width each side, 0.06 of its height)
    pad_x, pad_y = 0.12 * (rx1 - rx0) / 1.24, 0.06 * (ry1 - ry0) / 1.12
    box = (
        max(0.0, ix0 / w - pad_x),
        max(0.0, iy0 / h - pad_y),
        ix1 / w + pad_x,
        iy1 / h + pad_y,
    )
    return img, box


def with_synthetic_joker(
    art: CardArt, index_box_of: dict[int, _Box], rng: random.Random, font: Path
) -> tuple[CardArt, _Box]:
    """``art`` with its Joker (black and red) replaced by a ``synthetic_joker``, and that Joker's box."""
    face, box = synthetic_joker(art, index_box_of, rng, font)
    return CardArt(name=art.name, faces={**art.faces, JOKER: face}, back=art.back, red_joker=face), box
