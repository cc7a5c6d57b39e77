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
from vision.layout import IVerifySlots

__all__ = [
    "HEADER_FRACTION",
    "IVERIFY_PANEL_BGR",
    "Header",
    "panel_quad",
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
        # lit where a line along the segment is: a row across a bar's window (a, g, d), a column
        # down a side's; not the window's mean, which a bar 2-3 px thick at 720p leaves under any
        # fixed share once a speck below it stretches the digit's box (b47-0002: the LCD's 3 read
        # as nothing for 35 s, its bottom bar 0.28 of its window)
        lines = sub.mean(axis=1) if s in "adg" else sub.mean(axis=0)
        if sub.size and float(lines.max()) > 0.5:
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


@lru_cache(maxsize=1)
def _digit_templates() -> dict[int, np.ndarray]:
    """Each seat digit drawn alone as ``_templates`` draws it in ``SEAT n``."""
    out: dict[int, np.ndarray] = {}
    for n in range(1, 8):
        canvas = np.zeros((80, 120), np.uint8)
        cv2.putText(canvas, str(n), (10, 55), cv2.FONT_HERSHEY_SIMPLEX, 1.5, 255, 3, cv2.LINE_AA)
        out[n] = _normalise((canvas > 127).astype(np.uint8))
    return out


def _white_mask(bgr: np.ndarray) -> np.ndarray:
    """Bright, unsaturated pixels (the header's ink, under any camera gain or glare)."""
    lo = bgr.min(axis=2).astype(np.int16)
    hi = bgr.max(axis=2).astype(np.int16)
    return np.asarray((lo > 120) & (hi - lo < 60), dtype=np.uint8)


def _panel_mask(bgr: np.ndarray, edge: bool = False) -> np.ndarray:
    """Pixels of the i-Verify panel's dark blue (blue well above red and green; survives gain and glare).
    ``edge``: also the paler blue where white ink blurs into it (blue above red, not below green): at
    720p a glyph's 2-px ring is mostly that blend, and b53-0014's "SEAT 5", coded coarser, lost its S and
    E to the clock test (``_on_panel``) and read blank for 3.6 s; a clock's black outline is no blue."""
    b, g, r = (bgr[..., i].astype(np.int16) for i in range(3))
    if edge:
        return np.asarray(((b - r > 20) & (b - g > 12)) | ((b - r > 8) & (b >= g)))
    return np.asarray((b - r > 20) & (b - g > 12))


def read_header(panel: np.ndarray, min_score: float = 0.5) -> Header:
    """The i-Verify header on an upright panel crop (BGR): blank, ``SEAT n`` or ``DEALER``.

    The white ink of the top 30% is cut to its bounding box and compared (normalised correlation,
    with a penalty for a different width) with each template rendered by ``cv2.putText``. A ``SEAT n``
    header's seat is then read from its digit alone (``_seat_digit``): the whole line's match barely
    tells one seat from another (b86-0011, seed 86 at 720p: the display's SEAT 5 matched SEAT 6 at
    0.8094, SEAT 5 at 0.8087 and SEAT 3 at 0.796, and an IVERIFY-SEAT-EARLY alert was made on seat 6).
    """
    h = panel.shape[0]
    head = panel[: max(1, round(h * HEADER_FRACTION))]
    mask = _white_mask(head)
    # the header is the widest cluster of white ink touching the left margin region; drop specks, and
    # ink not drawn on the panel (a recorder's burnt-in clock over the panel's top edge: _on_panel)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = _on_panel(head, mask, labels, stats, [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3])
    if not keep or sum(int(stats[i, cv2.CC_STAT_AREA]) for i in keep) < max(12, 0.004 * mask.size):
        return Header("blank", None, 1.0)
    ink = np.isin(labels, keep).astype(np.uint8)
    obs = _normalise(ink)
    best_text, best = "", -1.0
    for text, tpl in _templates().items():
        s = _match(obs, tpl)
        if s > best:
            best_text, best = text, s
    if best < min_score:
        return Header("blank", None, best)
    if best_text == "DEALER":
        return Header("dealer", None, best)
    digit = _seat_digit(ink)
    return Header("seat", int(best_text.split()[1]) if digit is None else digit, best)


def _match(obs: np.ndarray, tpl: np.ndarray) -> float:
    """How well normalised ink ``obs`` matches template ``tpl``: normalised correlation, side by side
    or with the observation stretched to the template's width (perspective, font scale; penalised
    by how far it was stretched), whichever is higher."""
    w = max(obs.shape[1], tpl.shape[1])
    a = np.zeros((_TEMPLATE_H, w), np.float32)
    b = np.zeros((_TEMPLATE_H, w), np.float32)
    a[:, : obs.shape[1]] = obs
    b[:, : tpl.shape[1]] = tpl
    stretched = cv2.resize(obs, (tpl.shape[1], _TEMPLATE_H), interpolation=cv2.INTER_LINEAR)
    return float(max(_ncc(a, b), _ncc(stretched, tpl) - 0.5 * abs(np.log(obs.shape[1] / tpl.shape[1]))))


def _seat_digit(ink: np.ndarray) -> int | None:
    """The seat a ``SEAT n`` header's ink (a mask) names, read from its digit alone: the ink right of
    the widest run of blank columns (the space after ``SEAT``), matched against each digit 1-7 drawn
    alone. None where the line shows no such space (the ink run together: the whole line's match
    stands)."""
    cols = np.flatnonzero(ink.any(axis=0))
    gaps = np.diff(cols)
    if len(gaps) < 2:
        return None
    k = int(np.argmax(gaps))
    # the space is the widest gap by far; a gap between letters is a pixel or two
    if gaps[k] < 2 or np.sort(gaps)[-2] * 1.5 >= gaps[k]:
        return None
    glyph = _normalise(ink[:, cols[k + 1] :])
    scores = {n: _match(glyph, tpl) for n, tpl in _digit_templates().items()}
    return max(scores, key=lambda n: scores[n])


_RING = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_ON_PANEL = 0.5  # share of the ring around a header glyph that is the panel's blue or more ink


def _on_panel(
    head: np.ndarray, mask: np.ndarray, labels: np.ndarray, stats: np.ndarray, comps: list[int]
) -> list[int]:
    """Of the white ink components ``comps``, those drawn on the panel. A recorder's on-screen clock
    laid over the panel's top edge (``benchmarks/camera_conditions.py`` "clock") had been taken for
    header ink: the header read blank and every hand the display showed was lost. Ink crossing the
    panel's top edge comes from outside it (the header is drawn well inside), unless it is as tall as
    the header's glyphs below the edge (a panel calibrated a little tight); and the 2-px ring around
    a glyph drawn on the panel is mostly the panel's blue (or ink: its anti-aliased edge), where the
    clock is outlined in black (the sample's ring shares: the header's glyphs 0.74-1.0 at 720p and
    1080p, the clock's 0.0-0.28)."""
    h, w = mask.shape
    tall = max((int(stats[i, cv2.CC_STAT_HEIGHT]) for i in comps if stats[i, cv2.CC_STAT_TOP] > 0), default=0)
    out = []
    for i in comps:
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        if y == 0 and not bh >= 0.6 * tall > 0:
            continue
        x0, y0, x1, y1 = max(0, x - 2), max(0, y - 2), min(w, x + bw + 2), min(h, y + bh + 2)
        glyph = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        ring = (cv2.dilate(glyph, _RING) > 0) & (glyph == 0)
        if not ring.any():
            continue
        near = _panel_mask(head[y0:y1, x0:x1], edge=True) | (mask[y0:y1, x0:x1] > 0)
        if float(near[ring].mean()) >= _ON_PANEL:
            out.append(i)
    return out


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    d = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / d) if d > 0 else 0.0


# a panel found must have every side the length the layout gives it within this share: a lens or a
# calibration off moves it whole (the lens condition's sides: within 2 %); a blue patch cut short is
# not the panel (under a warm cast the blue test missed its lower left: a side 5-12 % short)
_SIDES = 0.03


def panel_quad(picture: np.ndarray, expected: np.ndarray, slack: float) -> np.ndarray | None:
    """The i-Verify panel's four corners (TL, TR, BR, BL, float (4, 2)) in ``picture`` (a crop around
    where the layout puts it, upright), found by its blue: the outline of the largest blue patch, a
    quadrilateral whose every corner lies within ``slack`` pixels of ``expected``'s and each of whose
    sides is as long as ``expected``'s within ``_SIDES``; None where none is (the panel covered, a
    corner notched by an arm, or its blue not found whole)."""
    blue = cv2.morphologyEx(_panel_mask(picture).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(blue, connectivity=8)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(quad) != 4:
        return None
    s, d = quad.sum(1), quad[:, 0] - quad[:, 1]
    quad = quad[[int(np.argmin(s)), int(np.argmax(d)), int(np.argmax(s)), int(np.argmin(d))]]
    if len({tuple(q) for q in quad}) != 4 or np.abs(quad - expected).max() > slack:
        return None
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    if np.abs(sides / np.linalg.norm(np.roll(expected, -1, axis=0) - expected, axis=1) - 1.0).max() > _SIDES:
        return None
    return np.asarray(quad, np.float64)


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


# The i-Verify card row (render/draw.py ``_paint_iverify`` on the layouts' 420 x 120 mm panel): cards 0.64 of
# the panel's height tall (63.5 x 88.9 mm aspect), 3 mm apart, in fixed slots from 8 mm off the panel's left
# edge; the low hand's slots start 14 mm further on. The high hand has 5 cards in both games (rules.ranking),
# the low hand ``game_low`` (2 seven-card, 1 six-card).
# (vision.layout.IVerifySlots holds these figures; a layout file may give a real display's.)
_HIGH_CARDS = 5
_PITCH_TOL = 0.12  # a gap this close (in pitches) to a whole number of pitches measures the pitch
_ANCHOR_WEIGHT = 0.5  # weight of the slots' distance from where the panel's edge puts them, against gaps


def split_setting(
    dets: Detections,
    game_low: int = 2,
    *,
    panel_px_per_mm: float | None = None,
    slots: IVerifySlots | None = None,
) -> tuple[list[str], list[str]]:
    """The high and low hands shown on the i-Verify display, from the detections on its crop.

    Two rows (high above low) split by rows. One row is laid out in fixed slots at a constant pitch
    (``slots``, the layout's ``iverify_slots``): every gap between neighbouring cards is a whole
    number of pitches (k - 1 missed cards), except the one across the high/low break, which is
    ``slots.low_break_mm`` longer. ``_row_slots`` picks
    the break and the slots that fit the gaps best and fit the hands (5 high, ``game_low`` low), so a
    missed card leaves a hole in its own hand instead of moving the break. ``panel_px_per_mm``: the
    detections are in pixels of the panel's crop at this scale, x = 0 on the panel's left edge; that
    anchors slot 0 (a hand read alone: high or low?) and gives the pitch before any gap does. Cards
    read left to right; a slot shows one card (the most confident of the detections in it).
    """
    if not len(dets):
        return [], []
    c = dets.centers
    hgt, wid = _card_size(dets)
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
    idx, lefts = _row_cards(dets, wid)
    if not idx:
        return [], []
    geo = slots or IVerifySlots()
    pitch = _row_pitch(lefts, wid, panel_px_per_mm, geo)
    cut, slot_of = _row_slots(lefts / pitch, game_low, panel_px_per_mm is not None, geo)
    keep: dict[int, int] = {}  # slot -> position in the row of its most confident detection
    for j, s in enumerate(slot_of.tolist()):
        if s not in keep or dets.confidence[idx[j]] > dets.confidence[idx[keep[s]]]:
            keep[s] = j
    row = sorted(keep.values())
    return [labels[idx[j]] for j in row if j < cut], [labels[idx[j]] for j in row if j >= cut]


def _card_size(dets: Detections) -> tuple[float, float]:
    """Height and width of a whole card's box: the medians over the boxes at least 0.6 as tall as the
    tallest (the detector also boxes a card's corner index alone, a box about a quarter as tall)."""
    h = dets.xyxy[:, 3] - dets.xyxy[:, 1]
    w = dets.xyxy[:, 2] - dets.xyxy[:, 0]
    whole = h >= 0.6 * h.max()
    return float(np.median(h[whole])), float(np.median(w[whole]))


def _row_cards(dets: Detections, wid: float) -> tuple[list[int], np.ndarray]:
    """The row's detections (indices) and the left edge of the card each one shows, left to right.

    A box narrower than half a card is a corner index: inside a whole card's box it is that card read
    again and is dropped; alone (the panel cuts off the right part of a seven-card setting's last card,
    8 + 7 x 57.9 + 14 mm > 420 mm, and the detector often boxes only its top-left index) it marks the
    card's left edge, or with the bottom-right index (starting below the row's middle) the right edge.
    A narrow box from the top down past the middle is the left strip of a card cut off (both its left
    indices: b42-0016's Kc, which taken for a right edge was put in the slot before, the Joker's).
    """
    xyxy = dets.xyxy.astype(np.float64)
    w = xyxy[:, 2] - xyxy[:, 0]
    cy = (xyxy[:, 1] + xyxy[:, 3]) / 2
    whole = w >= 0.5 * wid
    mid = float(np.median(cy[whole])) if whole.any() else float(np.median(cy))
    tol = 0.1 * wid
    out: list[tuple[float, int]] = []
    for i in range(len(dets)):
        x0, x1 = xyxy[i, 0], xyxy[i, 2]
        if whole[i]:
            out.append((x0, i))
            continue
        inside = whole & (xyxy[:, 0] - tol <= x0) & (x1 <= xyxy[:, 2] + tol)
        if not inside.any():
            out.append((x0 if xyxy[i, 1] <= mid else x1 - wid, i))
    out.sort()
    return [i for _, i in out], np.array([x for x, _ in out])


def _row_pitch(lefts: np.ndarray, wid: float, px_per_mm: float | None, geo: IVerifySlots) -> float:
    """The slot pitch in pixels: the median of the gaps that are close to a whole number k >= 1 of the
    prior pitch (each divided by its k); the prior alone when no gap is. The prior is the display's pitch
    at the panel's scale, or without one the card width times the display's pitch/width ratio."""
    pitch_mm = geo.card_width_mm + geo.gap_mm
    prior = px_per_mm * pitch_mm if px_per_mm else wid * pitch_mm / geo.card_width_mm
    g = np.diff(lefts)
    q = g / prior
    k = np.rint(q)
    ok = (k >= 1) & (np.abs(q - k) < _PITCH_TOL)
    return float(np.median(g[ok] / k[ok])) if ok.any() else prior


def _row_slots(x: np.ndarray, game_low: int, anchored: bool, geo: IVerifySlots) -> tuple[int, np.ndarray]:
    """(cut, slots) for cards at left edges ``x`` (in pitches, ascending): cards ``[:cut]`` are the high
    hand, and card j sits in slot ``slots[j]`` (0..4 high, 5.. low).

    Every cut 0..n is tried (0: all low, n: all high) with every slot for the first card. A gap of q
    pitches within a hand spans round(q) slots and costs its remainder |q - round(q)|; the gap across the
    cut must be the low hand's break longer. Slots outside their hand cost their distance from it, and, when
    ``anchored`` (x measured from the panel's left edge), every card's distance from its slot's place
    costs ``_ANCHOR_WEIGHT`` per pitch. Ties go to more high cards, then to lower slots.
    """
    n, n_slots = len(x), _HIGH_CARDS + game_low
    pitch_mm = geo.card_width_mm + geo.gap_mm
    brk, margin = geo.low_break_mm / pitch_mm, geo.margin_mm / pitch_mm  # in pitches
    q = np.diff(x)
    best: tuple[float, int, np.ndarray] | None = None
    for cut in range(n, -1, -1):
        rel, err = [0], 0.0
        for j, qj in enumerate(q.tolist()):
            extra = brk if j == cut - 1 else 0.0
            k = max(1 if extra else 0, round(qj - extra))
            err += abs(qj - extra - k)
            rel.append(rel[-1] + k)
        low = np.arange(n) >= cut
        lo, hi = np.where(low, _HIGH_CARDS, 0), np.where(low, n_slots - 1, _HIGH_CARDS - 1)  # hands' slots
        for first in range(n_slots):
            s = first + np.array(rel)
            cost = err + float((np.maximum(0, lo - s) + np.maximum(0, s - hi)).sum())
            if anchored:
                cost += _ANCHOR_WEIGHT * float(np.abs(x - (margin + s + brk * low)).sum())
            if best is None or cost < best[0] - 1e-9:
                best = (cost, cut, s)
    assert best is not None
    return best[1], best[2]
