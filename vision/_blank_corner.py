"""Cards found by their paper, not their index: the Joker of a deck that prints no index on it.

Why: every face of a deck prints its index (a rank over a suit) in its corners; some decks' Jokers
print nothing there (dondorf, sample clip s07) or one small mark (tigullio's star, s04), so the
index detector finds nothing to read and the hand is a card short. What the camera does see is the
card's paper: in a spread hand the bottom card shows a strip of white left of the next card's
index, the top card shows whole.

``blank_corner_cards`` finds card-white paper in a card region's crop that no card found explains
(each found card explains a card-sized rectangle at its index; a hand's light skin is not paper, a
picture's skin-coloured face is), keeps what is card-high, filled and
sits against a found card as a spread's bottom or top card (or lies whole on its own), and looks at
where that card's top-left index would be printed. Ink there shorter than ``_INDEX_INK`` of a card's
height (no rank over a suit: nothing, or a star), with no box found starting at that corner (nor,
for a card that shows whole, ending at its bottom-right one), says the card prints no index: the
Joker. Ink as tall as an index says a face lies there whose index was not read: that is not named
here (the detector's unread boxes count such faces).

Only a spread's bottom and top cards are looked for: a card with no index in the middle of a spread
lies under the rectangle of the card left of it (the renderer fans a set hand highest first, so its
Joker is the bottom card). The i-Verify display shows each card whole in a slot of its own:
``blank_slot_cards`` looks at the slots nothing was found in, and ``same_picture`` tells whether two
of its cards show one face drawn twice (a face read twice there is a misread or a second copy).

This is a deduction, not a read: ``JOKER_BY_PAPER`` is the confidence given, under
``MonitorConfig.review_below`` (0.7), so a finding that rests on it is a review item, never an
alert. The crop must be the upright card-scale crop of a card region (``px_per_mm`` known), cards
lying square in it; a card at an angle is not filled enough to count, and is left as found.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision._skin import skin_mask
from vision.card_body import CARD_MM, INDEX_INSET, INDEX_SIZED
from vision.detections import BACK_CLASS, Detections
from vision.layout import IVerifySlots

__all__ = [
    "JOKER_BY_PAPER",
    "blank_corner_cards",
    "blank_slot_cards",
    "empty_slots",
    "found_card_rects",
    "same_picture",
]

JOKER_BY_PAPER = 0.6  # the confidence of a Joker named by its blank corner (below review_below, 0.7)
_CORNER = np.array([0.04, 0.015, 0.2, 0.28])  # where an index is printed (xyxy, in card widths / heights)
# ink in the corner at least this share of a card high is an index (a rank over a suit, 0.2-0.25 of a
# card); tigullio's star, blurred by the camera, inks 0.12 (b42-0008), dondorf's blank corner none
_INDEX_INK = 0.14
_INK_DARKER, _INK_CHROMA = 15, 18  # ink: this much darker than the paper (L*), or this colourful
_ABUT = 0.08  # a strip this close (card widths / heights) to a found card sits against it
_FILL = 0.8  # share of its bounding box a strip of paper must fill
_HAND = 0.25  # a skin-coloured blob this big (of a card's area) is a hand, not paper (``_hand``)
# an i-Verify slot shows a card: paper rows spanning this share of a card's height, this share paper
_CARD_SHOWN, _CARD_PAPER = 0.8, 0.4
# two of the display's cards are one picture (``same_picture``): laid one on the other within this many
# pixels, under this share of their pixels differing by this much (0-255, any channel)
_ALIGN, _PICTURE_SAME, _PICTURE_DIFF = 2, 0.002, 60
# a panel column with this share of paper or more lies on a card (its margins are paper, its picture
# may not be); the ground between cards shows none
_ON_CARD = 0.05


class _Page:
    """A crop's card-white pixels (light and grey: the test of ``vision.pipeline.card_centres``), and
    the height of the ink in a box: pixels darker than the paper's own level by ``_INK_DARKER`` or as
    colourful as ``_INK_CHROMA`` (a blurred frame prints an index pale grey: b42-0009's 2c, whose rank
    was 15-30 levels under its paper, light enough to pass for paper itself). The paper's level is
    worked out only when a box is asked about: most reads find no strip and ask nothing."""

    def __init__(self, crop: np.ndarray) -> None:
        self._crop = crop
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
        self.light = lab[..., 0]
        grey = np.full(self.light.shape, 128, np.uint8)
        self.chroma = cv2.max(cv2.absdiff(lab[..., 1], grey), cv2.absdiff(lab[..., 2], grey))
        self.paper = np.asarray((self.light > 170) & (self.chroma < 25))
        self._level: float | None = None

    def drop_hand(self, px: float) -> None:
        """Paper less a hand's skin (``_hand``: skin-coloured blobs of ``px`` pixels or more); the
        paper's level worked out again when next asked."""
        self.paper = self.paper & ~_hand(self._crop, px)
        self._level = None

    def ink_height(self, box: np.ndarray) -> float:
        """How high (px) the ink in xyxy ``box`` is: from its first row to its last with two inked
        pixels (one is a card's edge)."""
        h, w = self.paper.shape
        x0, y0 = max(int(box[0]), 0), max(int(box[1]), 0)
        x1, y1 = min(int(np.ceil(box[2])), w), min(int(np.ceil(box[3])), h)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        if self._level is None:
            sample = self.light[::3, ::3][self.paper[::3, ::3]]
            self._level = float(np.median(sample)) if len(sample) else 255.0
        light = self.light[y0:y1, x0:x1].astype(np.int16)
        ink = (light < self._level - _INK_DARKER) | (self.chroma[y0:y1, x0:x1] >= _INK_CHROMA)
        ink = _edges_out(ink)
        rows = np.flatnonzero(ink.sum(axis=1) >= 2)
        return float(rows[-1] - rows[0] + 1) if len(rows) else 0.0


def _hand(crop: np.ndarray, px: float) -> np.ndarray:
    """The skin of a hand in ``crop``: skin-coloured blobs (``vision._skin.skin_mask``) of at least
    ``px`` pixels. A light hand passes the paper's light-and-grey test, and fingers resting on a card
    joined it to the arm's blob, no card-shaped strip left (b91-0003, seed 91, 720p: seat 1's low
    Joker, turned up beside the dealer's hand resting on the high hand, unnamed for a second). A
    picture's face is no hand: dondorf's Joker shows its jester's in a spread's strip (b91-0011)."""
    skin = skin_mask(crop).astype(np.uint8)
    if cv2.countNonZero(skin) < px:
        return np.zeros(skin.shape, bool)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] >= px
    big[0] = False  # the background
    out: np.ndarray = big[labels]
    return out


def _edges_out(ink: np.ndarray) -> np.ndarray:
    """``ink`` (a box's inked pixels) less the card's edges: a stroke lying wholly within two pixels
    of the box's border is a card's edge caught in the box, not print: along one side (b41-0013's
    tigullio Joker: its star inks 17 rows, under an index's height, but the card's top edge, one row
    caught at the box's top, made it 22, an index's) or around its rounded corner, down the top row
    and the left column at once (b83-0003, seed 83, 720p: the same Joker's box a pixel higher caught
    the corner three rows deep, 23 rows of ink, and the Joker, named by its blank corner before the
    payout, was not named after it)."""
    n, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    if n <= 1:
        return ink
    h, w = ink.shape
    band = np.ones((h, w), bool)
    band[2 : h - 2, 2 : w - 2] = False
    total = np.bincount(labels.ravel(), minlength=n)
    near = np.bincount(labels[band], minlength=n)
    edge = near == total
    edge[0] = False  # label 0 is the unlinked background
    out: np.ndarray = ink & ~edge[labels]
    return out


def found_card_rects(dets: Detections, px_per_mm: float) -> np.ndarray:
    """The card-sized rectangle (xyxy) each found card covers: a back's box, a face's from its index.

    An index box in a spread is a card's top-left index (the card lies below and right of it) or, in
    a deck printing all four corners, its turned bottom-left one (the card lies above and right):
    both rectangles are counted, so paper is taken as explained wherever some found card may cover
    it. (A right-hand index shows only on a spread's top card, whose left-hand indices show too.) A
    box as tall as a card (two indices merged, or a card boxed whole) spans the card from its
    top-left."""
    cw, ch = CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm
    dx, dy = INDEX_INSET[0] * cw, INDEX_INSET[1] * ch
    out: list[list[float]] = []
    for (x0, y0, x1, y1), cls in zip(dets.xyxy.astype(np.float64), dets.class_id, strict=True):
        if cls == BACK_CLASS:
            out.append([x0, y0, max(x1, x0 + cw), max(y1, y0 + ch)])
            continue
        out.append([x0 - dx, y0 - dy, x0 - dx + cw, y0 - dy + ch])
        if y1 - y0 < INDEX_SIZED * ch:
            out.append([x0 - dx, y1 + dy - ch, x0 - dx + cw, y1 + dy])
    return np.array(out, np.float64).reshape(-1, 4)


def _index_found_at(card: np.ndarray, boxes: np.ndarray, *, whole: bool) -> bool:
    """Whether a box found starts at ``card``'s top-left index or, when the card shows ``whole`` (a
    spread's top card, a card on its own), ends at its bottom-right one: a card whose index the
    detector saw (b42-0009: a faint 2s's top-left index taken into the box of the card under it, its
    bottom-right one ending that box). A bottom card's other corners lie under the cards on it."""
    near = np.array([0.12, 0.1]) * (card[2:] - card[:2])
    found = np.all(np.abs(boxes[:, :2] - card[:2]) <= near, axis=1)
    if whole:
        found |= np.all(np.abs(boxes[:, 2:] - card[2:]) <= near, axis=1)
    return bool(np.any(found))


def blank_corner_cards(
    crop: np.ndarray, dets: Detections, px_per_mm: float, unread: np.ndarray | None = None
) -> np.ndarray:
    """The index-sized box (xyxy, at the card's top-left corner) of each card in ``crop`` that shows
    its paper but prints no index: a Joker (module docstring). ``dets``: the cards read in the crop
    (faces and backs); ``unread``: the index boxes found but not read surely enough to name. An unread
    box holding ink as tall as an index is a card found (a face not named); one holding less (a
    Joker's star boxed as an index) is not."""
    cw, ch = CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm
    h, w = crop.shape[:2]
    page = _Page(crop)
    if unread is not None and len(unread):
        boxes = np.asarray(unread, np.float32).reshape(-1, 4)
        boxes = boxes[[page.ink_height(b) >= _INDEX_INK * ch for b in boxes]]
        n = len(boxes)
        dets = Detections.merge([dets, Detections(boxes, np.zeros(n, np.int64), np.zeros(n, np.float32))])
    rects = found_card_rects(dets, px_per_mm)
    faces = dets.xyxy[dets.class_id != BACK_CLASS]
    explained = np.zeros((h, w), bool)
    whole_px = np.clip(np.column_stack([rects[:, :2], np.ceil(rects[:, 2:])]), 0, None).astype(int)
    for x0, y0, x1, y1 in whole_px:
        explained[y0:y1, x0:x1] = True
    k = max(3, round(0.08 * cw)) | 1  # wider than a printed line on the felt, narrower than a strip
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    least = _FILL * (0.12 * cw) * (0.8 * ch)
    for hand in (False, True):  # a hand's skin is taken out only where the paper is worth looking at
        if hand:
            page.drop_hand(_HAND * cw * ch)
        strips = cv2.morphologyEx((page.paper & ~explained).astype(np.uint8), cv2.MORPH_OPEN, kernel)
        if cv2.countNonZero(strips) < least:
            return np.zeros((0, 4), np.float32)  # too little paper left for the smallest strip (most reads)
    n, _, stats, _ = cv2.connectedComponentsWithStats(strips, connectivity=4)
    out: list[list[float]] = []
    for i in range(1, n):
        x, y, sw, sh, area = (int(v) for v in stats[i])
        if not (0.8 * ch <= sh <= 1.1 * ch and sw >= 0.12 * cw):
            continue
        lone = sw >= 0.85 * cw  # a card's width of paper: a card on its own, whole
        # a card lying whole may be filled with paper that a found card's rectangle takes in: an index
        # read alone is counted as a card below it and as one above it (``found_card_rects``), and the
        # rectangle it is not lies over whatever lies there. b84-0011 (seed 84, 720p): the dealer's hand
        # on seat 1's high hand left only its 5c's turned bottom-left index in view, the card counted
        # below it took in a corner of the low hand's Joker (0.65 of its box left unexplained, 0.85
        # paper), and the Joker, turned up whole, was named only once the hand had gone
        if area < _FILL * sw * sh and not (
            lone and np.count_nonzero(page.paper[y : y + sh, x : x + sw]) >= _FILL * sw * sh
        ):
            continue
        if x <= 0 or y <= 0 or x + sw >= w or y + sh >= h:
            continue  # reaches the crop's edge: not a card lying in the region (a white cuff)
        top = float(y)
        card: np.ndarray | None = None
        if lone:
            card = np.array([x, top, x + cw, top + ch])
        else:
            for rx0, ry0, rx1, _ in rects:
                if abs(ry0 - top) > _ABUT * ch:
                    continue
                if abs(rx0 - (x + sw)) <= _ABUT * cw:  # the spread's bottom card, left of a found one
                    card = np.array([x, top, x + cw, top + ch])
                    break
                if abs(rx1 - x) <= _ABUT * cw:  # its top card, right of a found one
                    card = np.array([x + sw - cw, top, x + sw, top + ch])
                    break
        if card is None:
            continue
        bottom = not lone and card[0] == x  # a spread's bottom card: only its strip shows
        if _index_found_at(card, faces, whole=not bottom):
            continue
        # where its index would be printed, on what the card shows: a bottom card its strip (the
        # index lies between its edge and the next card), a top or lone card all of itself
        corner = card[[0, 1, 0, 1]] + _CORNER * np.array([cw, ch, cw, ch])
        if bottom:
            corner[2] = min(corner[2], x + sw - 2)  # short of the next card's edge
        if page.ink_height(corner) >= _INDEX_INK * ch:
            continue  # an index is printed there: a face not read, not a blank corner
        cx0, cy0 = card[0] + INDEX_INSET[0] * cw, card[1] + INDEX_INSET[1] * ch
        out.append([cx0, cy0, cx0 + 0.15 * cw, cy0 + 0.25 * ch])
    return np.array(out, np.float32).reshape(-1, 4)


def blank_slot_cards(
    crop: np.ndarray,
    found: np.ndarray,
    px_per_mm: float,
    slots: IVerifySlots,
    high: int,
    low: int,
) -> np.ndarray:
    """The i-Verify display's Jokers that print no index: the index-sized box (xyxy, at the card's
    top-left corner) of each. ``crop``: the panel below its header, x = 0 at the panel's left edge, at
    ``px_per_mm``; ``found``: the boxes of everything found on it (faces, backs, indices not read).

    The display lays a setting's cards in fixed slots (``slots``: ``high`` then, after the break,
    ``low``), each card whole on the panel's dark ground. A slot no found box reaches into that shows a
    card's paper (its top and bottom margins mostly paper a card's height apart, much of it paper
    between: a Joker's picture may be large), with no index-tall ink in its top-left corner, shows a
    card printing no index: the Joker (b42-0006: dondorf's, in a seat's low hand). A
    slot the panel's edge cuts off is not looked at."""
    cw = slots.card_width_mm * px_per_mm
    ch = cw * CARD_MM[1] / CARD_MM[0]
    h, w = crop.shape[:2]
    boxes = np.asarray(found, np.float64).reshape(-1, 4)
    page: _Page | None = None
    out: list[list[float]] = []
    for x0 in empty_slots(boxes, px_per_mm, slots, high, low, w):
        x1 = x0 + cw
        page = page or _Page(crop)
        inner = page.paper[:, int(x0 + 0.1 * cw) : int(np.ceil(x1 - 0.1 * cw))]
        rows = np.flatnonzero(inner.mean(axis=1) >= 0.5)  # a card's margins are paper edge to edge
        if not len(rows):
            continue  # the panel's ground
        span = rows[-1] - rows[0] + 1
        if not _CARD_SHOWN * min(ch, h - rows[0]) <= span <= 1.1 * ch:
            continue  # no card's height of paper (or more than one card's)
        if inner[rows[0] : rows[-1] + 1].mean() < _CARD_PAPER:
            continue  # not a card's paper between (light lines, a white cuff's edge)
        # the card's own left edge (the slots place it within a few pixels): where its paper begins
        xa = max(int(x0 - 0.1 * cw), 0)
        cols = np.flatnonzero(page.paper[rows[0] : rows[-1] + 1, xa : int(x0 + 0.5 * cw)].mean(axis=0) >= 0.5)
        left = float(xa + cols[0]) if len(cols) else x0
        card = np.array([left, rows[0], left + cw, rows[0] + ch])
        corner = card[[0, 1, 0, 1]] + _CORNER * np.array([cw, ch, cw, ch])
        if page.ink_height(corner) >= _INDEX_INK * ch:
            continue  # an index is printed there: a face not found, not a blank corner
        cx0, cy0 = card[0] + INDEX_INSET[0] * cw, card[1] + INDEX_INSET[1] * ch
        out.append([cx0, cy0, cx0 + 0.15 * cw, cy0 + 0.25 * ch])
    return np.array(out, np.float32).reshape(-1, 4)


def empty_slots(
    found: np.ndarray, px_per_mm: float, slots: IVerifySlots, high: int, low: int, width: float
) -> list[float]:
    """The left edges (x, pixels) of the i-Verify display's slots (``slots``: ``high`` then, after the
    break, ``low``) that none of the ``found`` boxes (xyxy) reaches into by a tenth of a card's width,
    on a panel crop ``width`` pixels wide at ``px_per_mm``, x = 0 at its left edge; a slot the panel's
    edge cuts off is not listed."""
    cw = slots.card_width_mm * px_per_mm
    boxes = np.asarray(found, np.float64).reshape(-1, 4)
    out = []
    for i in range(high + low):
        x0 = slots.left_mm(i, high) * px_per_mm
        if x0 + cw > width:
            continue  # cut off by the panel's edge
        reach = np.minimum(boxes[:, 2], x0 + cw) - np.maximum(boxes[:, 0], x0)
        if not (reach > 0.1 * cw).any():
            out.append(float(x0))
    return out


def same_picture(
    panel: np.ndarray, xs: Sequence[float], px_per_mm: float, card_width_mm: float
) -> bool | None:
    """Whether the two cards the i-Verify display draws at panel x ``xs`` (a point on a card each, a
    box's centre: two or more, on two cards) are one picture: one face drawn twice. ``panel``: the
    display below its header at ``px_per_mm``, its cards ``card_width_mm`` wide. None where the points
    do not lie on exactly two cards found whole.

    A display draws each face from one picture, so two cards of one face show the same pixels but for
    the camera's noise, while a face misread as another's rank or suit (a 2h read 2d) shows other pips
    or another picture. The second card is laid on the first at the shift (up to ``_ALIGN`` px) where
    they differ least, and they are one picture when under ``_PICTURE_SAME`` of their pixels differ by
    ``_PICTURE_DIFF`` or more in any channel. Measured on the display at 1280x720 (0.79 px a felt mm,
    a card 43 px wide): a true second copy (b81-0000's Ad, b86-0005's 2h) 0.0000-0.0005 of its
    pixels; a misread, the nearest b80-0009's Ad beside an Ah, 0.0067, the others (2d and 2h, 5s and
    5c, 2c and 2d, Qs and Qc) 0.03-0.10."""
    cw = card_width_mm * px_per_mm
    ch = cw * CARD_MM[1] / CARD_MM[0]
    page = _Page(panel)
    cards = sorted({c for x in xs if (c := _drawn_card(page, x, cw, ch)) is not None})
    if len(cards) != 2:
        return None
    cuts = [panel[y : y + round(ch), x : x + round(cw)] for x, y in cards]
    hh, ww = min(c.shape[0] for c in cuts), min(c.shape[1] for c in cuts)
    if hh < 0.8 * ch or ww < 0.8 * cw:
        return None  # cut off by the panel's edge
    a = cuts[0][_ALIGN : hh - _ALIGN, _ALIGN : ww - _ALIGN].astype(np.float32)
    b = cuts[1][:hh, :ww].astype(np.float32)
    fit = cv2.matchTemplate(b, a, cv2.TM_SQDIFF)
    dy, dx = np.unravel_index(int(np.argmin(fit)), fit.shape)
    diff = np.abs(a - b[dy : dy + a.shape[0], dx : dx + a.shape[1]]).max(axis=2)
    return bool((diff >= _PICTURE_DIFF).mean() < _PICTURE_SAME)


def _drawn_card(page: _Page, x: float, cw: float, ch: float) -> tuple[int, int] | None:
    """The top-left corner of the card (``cw`` x ``ch`` pixels) the display draws over panel x ``x``:
    its left edge where the columns on a card (``_ON_CARD``) nearest left of ``x`` begin after the
    ground, its top where a row across it is mostly paper (its top margin); None where no card's
    width of columns on a card begins there."""
    on = page.paper.mean(axis=0) >= _ON_CARD
    xa, xb = max(int(x - cw), 0), min(int(x) + 1, len(on))
    starts = np.flatnonzero(on[xa + 1 : xb] & ~on[xa : xb - 1]) + xa + 1
    if not len(starts):
        return None
    left = int(starts[-1])
    if on[left : left + round(cw)].mean() < 0.9 or left + 0.9 * cw > len(on):
        return None
    rows = np.flatnonzero(page.paper[:, left : left + round(cw)].mean(axis=1) >= 0.5)
    return (left, int(rows[0])) if len(rows) else None
