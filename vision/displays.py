"""Reading the shuffler's LCD and the i-Verify display (conventions: the renderer's display spec).

- LCD: a black panel with one red seven-segment digit (1-7), or all segments off. ``read_lcd`` finds the
  lit segments in the digit's bounding box and decodes them.
- i-Verify: a dark panel (BGR 70, 30, 10); blank, or a white header ``SEAT n`` / ``DEALER`` drawn with
  ``cv2.FONT_HERSHEY_SIMPLEX`` in the top 30% of the panel, and the house-way setting as card images
  below it. ``read_header`` template-matches the header against the same glyphs rendered here with
  ``cv2.putText`` (nothing downloaded); ``split_setting`` splits the cards the detector found on the
  display into the high and low hands; ``panel_visible`` says whether most of the panel is covered.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import cv2
import numpy as np

from vision.detections import CLASSES, Detections

__all__ = [
    "HEADER_FRACTION",
    "IVERIFY_PANEL_BGR",
    "Header",
    "panel_visible",
    "read_header",
    "read_lcd",
    "split_setting",
]

IVERIFY_PANEL_BGR = (70, 30, 10)
HEADER_FRACTION = 0.30  # the header line lies in the top 30% of the panel

# segments a..g: top, upper right, lower right, bottom, lower left, upper left, middle
_SEG_BOXES = {
    "a": (0.25, 0.75, 0.00, 0.16),
    "b": (0.72, 1.00, 0.18, 0.42),
    "c": (0.72, 1.00, 0.58, 0.82),
    "d": (0.25, 0.75, 0.84, 1.00),
    "e": (0.00, 0.28, 0.58, 0.82),
    "f": (0.00, 0.28, 0.18, 0.42),
    "g": (0.25, 0.75, 0.42, 0.58),
}
_DIGITS = {
    "abcdef": 0,
    "bc": 1,
    "abdeg": 2,
    "abcdg": 3,
    "bcfg": 4,
    "acdfg": 5,
    "acdefg": 6,
    "abc": 7,
    "abcdefg": 8,
    "abcdfg": 9,
    "abcf": 7,
}


def _red_mask(bgr: np.ndarray) -> np.ndarray:
    b, g, r = (bgr[..., i].astype(np.int16) for i in range(3))
    return ((r > 110) & (r - g > 60) & (r - b > 50)).astype(np.uint8)


def read_lcd(crop: np.ndarray) -> int | None:
    """The digit on the LCD crop (BGR), or None when no segment is lit or the pattern is no digit."""
    mask = _red_mask(crop)
    h, w = mask.shape
    if mask.sum() < max(4, 0.01 * h * w):
        return None
    # the digit's box: rows/columns with lit pixels (ignore stray specks)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= max(3, 0.002 * h * w)]
    if not keep:
        return None
    sel = np.isin(labels, keep)
    ys, xs = np.nonzero(sel)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    bw, bh = x1 - x0, y1 - y0
    if bh < 0.25 * h:
        return None
    box = sel[y0:y1, x0:x1].astype(np.float32)
    if bw < 0.3 * bh:  # only the right-hand segments: a one
        return 1
    on = ""
    for s, (u0, u1, v0, v1) in _SEG_BOXES.items():
        sub = box[
            int(v0 * bh) : max(int(v0 * bh) + 1, int(v1 * bh)),
            int(u0 * bw) : max(int(u0 * bw) + 1, int(u1 * bw)),
        ]
        if sub.size and float(sub.mean()) > 0.3:
            on += s
    if on in _DIGITS:
        return _DIGITS[on]
    # one segment misread: the nearest pattern, if unique
    best = [(len(set(on) ^ set(k)), v) for k, v in _DIGITS.items()]
    best.sort()
    if best[0][0] == 1 and best[1][0] > 1:
        return best[0][1]
    return None


# --- i-Verify ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    mode: Literal["blank", "seat", "dealer"]
    seat: int | None
    score: float  # match score of the chosen template (1.0 for blank)


_TEMPLATE_H = 24


def _ink_box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _normalise(mask: np.ndarray) -> np.ndarray:
    box = _ink_box(mask)
    if box is None:
        return np.zeros((_TEMPLATE_H, _TEMPLATE_H), np.float32)
    x0, y0, x1, y1 = box
    ink = mask[y0:y1, x0:x1].astype(np.float32)
    w = max(1, round(ink.shape[1] * _TEMPLATE_H / ink.shape[0]))
    out = cv2.resize(ink, (w, _TEMPLATE_H), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(out, (3, 3), 0), dtype=np.float32)


@lru_cache(maxsize=1)
def _templates() -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for text in [f"SEAT {n}" for n in range(1, 8)] + ["DEALER"]:
        canvas = np.zeros((80, 400), np.uint8)
        cv2.putText(canvas, text, (10, 55), cv2.FONT_HERSHEY_SIMPLEX, 1.5, 255, 3, cv2.LINE_AA)
        out[text] = _normalise((canvas > 127).astype(np.uint8))
    return out


def _white_mask(bgr: np.ndarray) -> np.ndarray:
    """Bright, unsaturated pixels (the header's ink, under any camera gain or glare)."""
    lo = bgr.min(axis=2).astype(np.int16)
    hi = bgr.max(axis=2).astype(np.int16)
    return np.asarray((lo > 120) & (hi - lo < 60), dtype=np.uint8)


def _panel_mask(bgr: np.ndarray) -> np.ndarray:
    """Pixels of the i-Verify panel's dark blue (blue well above red and green; survives gain and glare)."""
    b, g, r = (bgr[..., i].astype(np.int16) for i in range(3))
    return np.asarray((b - r > 20) & (b - g > 12))


def read_header(panel: np.ndarray, min_score: float = 0.5) -> Header:
    """The i-Verify header on an upright panel crop (BGR): blank, ``SEAT n`` or ``DEALER``.

    The white ink of the top 30% is cut to its bounding box and compared (normalised correlation,
    with a penalty for a different width) with each template rendered by ``cv2.putText``.
    """
    h = panel.shape[0]
    head = panel[: max(1, round(h * HEADER_FRACTION))]
    mask = _white_mask(head)
    # the header is the widest cluster of white ink touching the left margin region; drop specks
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3]
    if not keep or sum(int(stats[i, cv2.CC_STAT_AREA]) for i in keep) < max(12, 0.004 * mask.size):
        return Header("blank", None, 1.0)
    obs = _normalise(np.isin(labels, keep).astype(np.uint8))
    best_text, best = "", -1.0
    for text, tpl in _templates().items():
        w = max(obs.shape[1], tpl.shape[1])
        a = np.zeros((_TEMPLATE_H, w), np.float32)
        b = np.zeros((_TEMPLATE_H, w), np.float32)
        a[:, : obs.shape[1]] = obs
        b[:, : tpl.shape[1]] = tpl
        # also compare after stretching the observation to the template's width (perspective, font scale)
        stretched = cv2.resize(obs, (tpl.shape[1], _TEMPLATE_H), interpolation=cv2.INTER_LINEAR)
        s1 = _ncc(a, b)
        s2 = _ncc(stretched, tpl) - 0.5 * abs(np.log(obs.shape[1] / tpl.shape[1]))
        s = max(s1, s2)
        if s > best:
            best_text, best = text, s
    if best < min_score:
        return Header("blank", None, best)
    if best_text == "DEALER":
        return Header("dealer", None, best)
    return Header("seat", int(best_text.split()[1]), best)


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    d = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / d) if d > 0 else 0.0


def panel_visible(panel: np.ndarray, *, min_fraction: float = 0.5) -> bool:
    """Whether the i-Verify panel can be seen: its own colour must show on at least ``min_fraction``
    of the panel's outer margins and of the header line's right third (where neither the header
    text nor the cards are drawn). A cover of any colour (a tray lid, a towel) hides that colour."""
    h, w = panel.shape[:2]
    near = _panel_mask(panel)
    band = np.zeros((h, w), bool)
    m = max(1, round(0.04 * min(h, w)))
    band[:m] = band[-m:] = True
    band[:, :m] = band[:, -m:] = True
    band[: round(h * HEADER_FRACTION), 2 * w // 3 :] = True
    return bool(near[band].mean() >= min_fraction)


def split_setting(dets: Detections, game_low: int = 2) -> tuple[list[str], list[str]]:
    """The high and low hands shown on the i-Verify display, from the detections on its crop.

    Two rows (high above low) split by rows; one row splits at the widest horizontal gap, or, with no
    clear gap, leaves the last ``game_low`` cards as the low hand. Cards read left to right.
    """
    if not len(dets):
        return [], []
    c = dets.centers
    hgt = float(np.median(dets.xyxy[:, 3] - dets.xyxy[:, 1]))
    wid = float(np.median(dets.xyxy[:, 2] - dets.xyxy[:, 0]))
    labels = [CLASSES[i] for i in dets.class_id.tolist()]
    order_y = np.argsort(c[:, 1])
    ys = c[order_y, 1]
    gaps = np.diff(ys)
    if len(gaps) and gaps.max() > 0.5 * hgt:
        cut = int(np.argmax(gaps)) + 1
        top, bottom = order_y[:cut], order_y[cut:]
        high = [labels[i] for i in sorted(top.tolist(), key=lambda i: c[i, 0])]
        low = [labels[i] for i in sorted(bottom.tolist(), key=lambda i: c[i, 0])]
        return high, low
    order_x = np.argsort(c[:, 0])
    xs = c[order_x, 0]
    gx = np.diff(xs)
    ordered = [labels[i] for i in order_x.tolist()]
    if len(gx) >= 2:
        k = int(np.argmax(gx))
        rest = np.delete(gx, k)
        if gx[k] > 1.15 * float(np.median(rest)) and gx[k] > 0.5 * wid:
            return ordered[: k + 1], ordered[k + 1 :]
    if len(ordered) > game_low:
        return ordered[:-game_low], ordered[-game_low:]
    return ordered, []
