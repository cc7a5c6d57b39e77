"""The card body under an index: a second, font-free witness of the face for the index classifier.

Why: the index classifier's held-out errors are fonts (bellot's condensed 3, 5 and 10 read J; a 6
read 10; simplistic's 3 read 5, which was the renderer's: its 3s glyph drawn filled until the
forty-second session; see models/HISTORY.md), and more fonts trained on did not fix
them. The card's body does not depend on the font: a pip card shows its pips in the standard
layout (in a spread, the left column of pips beside the index: none for a 2 or 3, two for a 4 or 5,
three for a 6, 7 or 8, four for a 9 or 10), a court card shows a picture; the card on top of a
spread, and every card the i-Verify display draws, shows whole.

``body_window`` cuts what the camera shows of a card below and right of its top-left index: a
card-sized window (its corner a little above and left of the index box), scaled to
``WINDOW_W`` x ``WINDOW_H``, with the part under the next card to the right (the next index box at
about the same height, within a card's width) painted grey, as a spread hand hides it, and the
index itself and the other three corners painted grey too, so the model learns pips and pictures,
not fonts. The body model (``models/card_body.onnx``, trained by ``vision.body_classifier``) reads
the window into 54 classes: the 53 faces and "no card body here" (the window of a bottom-right
index, which looks off the card). ``fuse`` weighs the index read by the rank the body shows, the
body's "no card body" spread evenly over the faces, so a window that shows nothing leaves the index
read as it was. Of its suit only spade against club is taken, where the model is sure of it
(``black_suit_weights``): its other suit reads are surer than right on held-out decks.

The body's ink tells the suit's colour where its model does not tell the suit: ``ink_colour`` calls a
window's ink red or black where nearly all of it is one or the other and there is enough of it (pips;
a court's picture is of every colour and is left alone), and ``colour_weights`` then all but rules
out the pip faces of the other colour (b46-0004: the i-Verify display's simplistic 8s, its index's
small pip fringed red by the video's colour blur, read 8d 0.59 / 8s 0.20; its eight big pips are
black).

The window needs the card's size in pixels: the camera pipeline knows it (its card zones are cut
at a fixed px/mm; the i-Verify panel draws cards at a known width), a still does not, so
``detect`` on stills does not use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vision._still_memory import StillMemory, read_through

__all__ = [
    "CARD_MM",
    "INDEX_INSET",
    "INDEX_SIZED",
    "NO_BODY",
    "OPPOSITE_CORNERS",
    "PIP_FACES",
    "WINDOW_H",
    "WINDOW_W",
    "BodyReader",
    "at_opposite_corners",
    "black_suit_weights",
    "body_ranks",
    "body_weights",
    "body_window",
    "colour_weights",
    "fuse",
    "index_colour_weights",
    "index_ink",
    "ink_colour",
    "ink_colours",
    "pip_suit_weights",
]

WINDOW_W, WINDOW_H = 48, 64  # the model's input (a card's 63.5 x 88.9 mm, a little squeezed)
NO_BODY = 53  # the body model's class for "no card body in the window"
CARD_MM = (63.5, 88.9)  # a poker-size card, width x height
INDEX_INSET = (0.035, 0.02)  # the index box's top-left corner from the card's, in card widths/heights
# a box under this share of a card's length is an index (a whole card, or a card's two indices joined,
# is longer)
INDEX_SIZED = 0.5
_GREY = 128
# two index boxes at a card's opposite corners (a standard deck's top-left and bottom-right indices)
# span the card itself: their union is this share of the card's width and length (the index boxes
# stop a little short of the card's edges). The next card of a spread, or one beside it in a row,
# makes the union a fifth of a card wider or more.
OPPOSITE_CORNERS = (0.85, 1.04)


def at_opposite_corners(a: np.ndarray, b: np.ndarray, px_per_mm: float) -> bool:
    """Whether two boxes (xyxy, at ``px_per_mm``) lie at one card's opposite corners: their union
    spans the card's width and length (``OPPOSITE_CORNERS``), either way round."""
    spans = sorted((float(max(a[2], b[2]) - min(a[0], b[0])), float(max(a[3], b[3]) - min(a[1], b[1]))))
    card = sorted(px_per_mm * m for m in CARD_MM)
    return all(
        OPPOSITE_CORNERS[0] * c <= v <= OPPOSITE_CORNERS[1] * c for v, c in zip(spans, card, strict=True)
    )


def body_window(image: np.ndarray, box: np.ndarray, boxes: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The ``WINDOW_W`` x ``WINDOW_H`` BGR window of the card whose top-left index is ``box`` (xyxy, in
    ``image`` pixels at ``px_per_mm``); ``boxes``: every index box found in the image (``box`` may be
    among them), the next one to the right cutting the window short."""
    import cv2

    cw, ch = CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm
    x0, y0 = box[0] - INDEX_INSET[0] * cw, box[1] - INDEX_INSET[1] * ch
    w_idx, h_idx = box[2] - box[0], box[3] - box[1]
    seen = cw
    for b in np.asarray(boxes, np.float64).reshape(-1, 4):
        dx = b[0] - box[0]
        if abs(b[1] - box[1]) < 0.5 * h_idx and 0.5 * w_idx < dx < cw:
            seen = min(seen, dx)  # the next card's left edge, from this card's (both inset alike)
    sx, sy = WINDOW_W / cw, WINDOW_H / ch
    m = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]], np.float32)
    out = cv2.warpAffine(
        image,
        m,
        (WINDOW_W, WINDOW_H),
        flags=cv2.INTER_LINEAR,  # (warpAffine reads INTER_AREA as this: what the model was trained on)
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(_GREY, _GREY, _GREY),
    )
    cut = round(seen * sx)
    if cut < WINDOW_W:
        out[:, max(cut, 0) :] = _GREY
    # the index, and where the card's other indices would lie (the turned one at the bottom right; some
    # decks print all four corners), are painted out: the body model is to read pips and pictures,
    # not the fonts the index classifier reads already
    ix0, iy0 = max(int((box[0] - 1 - x0) * sx), 0), max(int((box[1] - 1 - y0) * sy), 0)
    ix1, iy1 = int(np.ceil((box[2] + 1 - x0) * sx)), int(np.ceil((box[3] + 1 - y0) * sy))
    if ix1 > ix0 and iy1 > iy0:
        for ys in (slice(iy0, iy1), slice(max(WINDOW_H - iy1, 0), WINDOW_H - iy0)):
            for xs in (slice(ix0, ix1), slice(max(WINDOW_W - ix1, 0), WINDOW_W - ix0)):
                out[ys, xs] = _GREY
    return out


def body_ranks(body_probs: np.ndarray) -> np.ndarray:
    """The body model's probability of each rank, 2..A (N x 13), its suits summed (card codes:
    rank * 4 + suit)."""
    ranks: np.ndarray = body_probs[:, :52].reshape(len(body_probs), 13, 4).sum(axis=2)
    return ranks


# the body model tells a spade from a club where it is sure: the two black suits' probabilities (summed
# over ranks) at least this far apart, as a share of their sum, with the surer at least _SUIT_SEEN
_SUIT_SURE, _SUIT_SEEN = 0.8, 0.3
# the other black suit's faces then keep this share of their probability
OTHER_BLACK_SUIT = 0.2


def black_suit_weights(body_probs: np.ndarray) -> np.ndarray:
    """Likelihood weights (N x 54, card codes) from the body's spade against club: where it is sure
    (``_SUIT_SURE``), the other black suit's faces weigh ``OTHER_BLACK_SUIT``, all else 1.

    Its suit reads are not trusted otherwise (plastic's spades read as clubs; a card's whole read,
    suit included, turned a bellot Ac into As), but spade against club, where sure, was right:
    on the body looks of the held-out zone crops (D5, D6) it made 23 more reads right (index and
    rank: 510 of 703; with it 533) and none wrong. Hearts against diamonds changed no read, and is
    not used."""
    spade = body_probs[:, 0:52:4].sum(axis=1)
    club = body_probs[:, 3:52:4].sum(axis=1)
    sure = (np.maximum(spade, club) >= _SUIT_SEEN) & (
        np.abs(spade - club) >= _SUIT_SURE * np.maximum(spade + club, 1e-9)
    )
    w = np.ones((len(body_probs), NO_BODY + 1), np.float32)
    w[np.ix_(sure & (spade > club), np.arange(3, 52, 4))] = OTHER_BLACK_SUIT
    w[np.ix_(sure & (club > spade), np.arange(0, 52, 4))] = OTHER_BLACK_SUIT
    return w


# the i-Verify display draws each card whole, its pips as large as a card's on the felt while its index is a
# few pixels: the body below a pip face's top-left index tells that face's suit (``pip_suit_weights``) from
# another where the two suits' probabilities (summed over ranks) lie at least this far apart, as a share of
# their sum, and the surer is at least _SUIT_SEEN. Measured on the display at 1280x720 by
# ``benchmarks/display_suits.py`` (forty-ninth session; each box matched to the true card of its slot) on
# the display reads of the ten 720p batches the forty-eighth session chose it on (81, 82, 84, 86, 90, 91,
# 95, 97, 99, 100): of 2,670 distinct pip-face reads whose body names the read's rank, 35 misread in another
# suit, the body sure of the truth against the read on 29 (box reads: within the colour 2c/2s 5, 3c read 3s,
# 2h read 2d 6, 3d/3h 5, Ad read Ah 3; across it 2c read 2d 3, As read Ad 3, 3c read 3h 2, 9s read 9d), on
# none of the 2,635 read right sure of another suit. Lower, 0.55 names two more (b99-0014's 2c, named right
# by the display anyway), 0.5 turns two right reads (b81-0007's 2c, its body 0.57 spade; b100-0001's 9c,
# 0.44 diamond), 0.3 seven; 0.7 names one fewer. (The forty-eighth session's own probe, on parts of two more
# batches and matching each box by rank and colour, counted 2,865, 38, 30 and one right read turned,
# b79-0012's 4c: its body a spade at 0.62 and 0.81.)
WHOLE_SUIT_SURE = 0.6


def pip_suit_weights(body_probs: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Likelihood weights (N x 54, card codes) from the suit the body of a pip face drawn whole shows
    (the i-Verify display: ``WHOLE_SUIT_SURE``). ``faces``: each window's read (card codes; a court,
    the Joker or "not an index" is left alone). Where the body reads the face's rank (its window is
    that card's, not the next one's), each suit its surest suit is sure against weighs the body's odds
    of it against the surest (under a quarter), all else 1: a read turns only where the body is sure
    against its own suit, and then to the suit the body shows where the index leant to it at all."""
    w = np.ones((len(body_probs), NO_BODY + 1), np.float32)
    rank = body_ranks(body_probs).argmax(axis=1)
    suits = body_probs[:, :52].reshape(len(body_probs), 13, 4).sum(axis=1)  # s, h, d, c
    for i, face in enumerate(np.asarray(faces, np.int64)):
        if not PIP_FACES[face] or rank[i] != face // 4:
            continue
        p = suits[i]
        top = int(p.argmax())
        if p[top] < _SUIT_SEEN:
            continue
        for other in range(4):
            if other != top and p[top] - p[other] >= WHOLE_SUIT_SURE * (p[top] + p[other]):
                w[i, other:52:4] = p[other] / p[top]
    return w


def body_weights(body_probs: np.ndarray) -> np.ndarray:
    """What the body model (N x 54, class 53 "no card body") says of each of the index classifier's
    classes (N x 54 in card-code order, class 53 "not an index"), as likelihood weights.

    Only the rank is taken here (its suit reads are surer than they are right on held-out decks:
    plastic's spades read as clubs; spade against club where sure: ``black_suit_weights``). The body
    read, a posterior under the training data's even prior, becomes a likelihood per face: its
    rank's probability over the faces of that rank (four, one for the Joker), plus "no card body"
    spread evenly over the 53 faces; "not an index" is weighed as the average face (1/53), as if the
    body said nothing."""
    n = len(body_probs)
    rank = body_ranks(body_probs)
    nothing = body_probs[:, NO_BODY:] / NO_BODY
    faces = np.repeat(rank, 4, axis=1) / 4 + nothing
    joker = body_probs[:, 52:53] + nothing
    return np.concatenate([faces, joker, np.full((n, 1), 1 / NO_BODY)], axis=1).astype(np.float32)


BLACK, RED, UNKNOWN = 0, 1, -1
# ink: a pixel this much darker than the window's paper (LAB L, 0-255). A window shows a colour when it
# has this many ink pixels (a tenth of it: pips, not a card's outline or a strip's edge), and at least
# _RED_SHARE of them are red (a* over 153, b* not far below 128: blue is not), or at most _BLACK_RED
# red and _BLACK_NEUTRAL grey-black. On the held-out decks' zone crops (the truth's top-left index boxes;
# D5 and D6): 1,863 of 6,203 pip-card windows called, 5 wrong; the rest too covered to tell. Court
# cards' pictures: 125 called, 9 wrong (plastic's), so only pip faces are weighed
_INK_DARKER, _INK_MIN = 50, 300
_RED_SHARE, _BLACK_RED, _BLACK_NEUTRAL = 0.5, 0.05, 0.5
# a pip face of the other colour than the body's ink keeps this share of its probability
OTHER_COLOUR = 0.05
_codes = np.arange(NO_BODY + 1)
# the pip faces, 2..10 and the ace (N = 54, card codes): the faces whose body shows pips, not a picture
PIP_FACES = (_codes < 9 * 4) | ((_codes >= 12 * 4) & (_codes < 13 * 4))
_RED_PIPS = PIP_FACES & np.isin(_codes % 4, (1, 2))  # card codes: rank * 4 + suit (s h d c)
_BLACK_PIPS = PIP_FACES & np.isin(_codes % 4, (0, 3))


def ink_colour(window: np.ndarray) -> int:
    """``RED``, ``BLACK`` or ``UNKNOWN``: the colour of a body window's ink (``body_window``; its grey
    paint, the part not in view and the indices, left out)."""
    import cv2

    shown = (np.abs(window.astype(np.int16) - _GREY).max(axis=2) > 0).reshape(-1)
    if np.count_nonzero(shown) < _INK_MIN:
        return UNKNOWN
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.int16).reshape(-1, 3)[shown]
    light, a, b = lab.T
    ink = light < np.percentile(light, 90) - _INK_DARKER
    if np.count_nonzero(ink) < _INK_MIN:
        return UNKNOWN
    red = float((((a[ink] - 128) > 25) & ((b[ink] - 128) > -10)).mean())  # not blue (a* > 0 too)
    neutral = float(((np.abs(a[ink] - 128) < 12) & (np.abs(b[ink] - 128) < 12)).mean())
    if red >= _RED_SHARE:
        return RED
    if red <= _BLACK_RED and neutral >= _BLACK_NEUTRAL:
        return BLACK
    return UNKNOWN


# an index's own ink (``index_ink``): its pixels this much darker than its paper (LAB L; the rank and
# suit glyphs, and the blur around them) and at least _INDEX_INK_MIN of them. Their mean a* (red-green,
# 128 neutral) over _INDEX_RED, with their mean b* over _INDEX_RED_B (blue's a* is high too), is red
# ink, and from _INDEX_BLACK_A to _INDEX_BLACK grey-black ink where their mean b* lies within
# _INDEX_BLACK_B of neutral (a four-colour deck's blue or green ink is neither; red ink's mean b* is
# at least -2.1 in the clips below, black's within 13.1). Measured on the camera pipeline's kept index
# reads of six 720p clips (b86-0004, b87-0003, b88-0013, b89-0014, b90-0010, b90-0014: 6,743 reads):
# the red faces' mean a* at least 10.1 (all but 20 of 3,231 over 14), the black faces' at most 10.3
# (97.7 % under 3: the higher ones a black index beside a red one, or fringed by the video's colour
# blur), and the black cards read red faces there (b89-0014's 4s read 4d, b90-0014's 7s read 7d,
# b90-0010's Qs read Qd, b88-0013's Jc read Jh on the display) at 0.4 to 6.1
_INDEX_DARKER, _INDEX_INK_MIN = 25, 20
_INDEX_RED, _INDEX_RED_B, _INDEX_BLACK, _INDEX_BLACK_A, _INDEX_BLACK_B = 14.0, -8.0, 4.0, -6.0, 10.0
_RED_FACES = (_codes < 52) & np.isin(_codes % 4, (1, 2))
_BLACK_FACES = (_codes < 52) & np.isin(_codes % 4, (0, 3))


def index_ink(image: np.ndarray, box: np.ndarray) -> int:
    """``RED``, ``BLACK`` or ``UNKNOWN``: the colour of the ink of the index in ``box`` (xyxy on the
    BGR ``image``), from its pixels alone: an index prints its rank and suit in the suit's colour, a
    court card's too (constants above)."""
    import cv2

    h, w = image.shape[:2]
    x0, y0 = max(0, round(float(box[0]))), max(0, round(float(box[1])))
    x1, y1 = min(w, round(float(box[2]))), min(h, round(float(box[3])))
    if x1 <= x0 or y1 <= y0:
        return UNKNOWN
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    light = lab[:, 0].astype(np.float32)
    ink = light < _percentile_90(light) - _INDEX_DARKER
    if np.count_nonzero(ink) < _INDEX_INK_MIN:
        return UNKNOWN
    red, yellow = float(lab[ink, 1].mean()) - 128, float(lab[ink, 2].mean()) - 128
    if red > _INDEX_RED and yellow > _INDEX_RED_B:
        return RED
    if _INDEX_BLACK_A <= red <= _INDEX_BLACK and abs(yellow) <= _INDEX_BLACK_B:
        return BLACK
    return UNKNOWN


def _percentile_90(v: np.ndarray) -> float:
    """``np.percentile(v, 90)`` (its linear interpolation) from a partial sort: a thirtieth of the time
    on an index's few hundred pixels."""
    at = 0.9 * (len(v) - 1)
    k = int(at)
    if k + 1 >= len(v):
        return float(np.partition(v, k)[k])
    part = np.partition(v, (k, k + 1))
    return float(part[k] + (at - k) * (part[k + 1] - part[k]))


def index_colour_weights(colours: Sequence[int]) -> np.ndarray:
    """Likelihood weights (N x 54, card codes) from each index's own ink (``index_ink``): every face
    of the other colour, court faces too, weighs ``OTHER_COLOUR``; the Joker and "not an index" 1."""
    return _other_colour_weights(colours, _RED_FACES, _BLACK_FACES)


def ink_colours(
    image: np.ndarray, boxes: Sequence[np.ndarray], all_boxes: np.ndarray, px_per_mm: float
) -> list[int]:
    """``ink_colour`` of the body window of each of ``boxes`` (top-left index boxes)."""
    return [ink_colour(body_window(image, np.asarray(b, np.float64), all_boxes, px_per_mm)) for b in boxes]


def colour_weights(colours: Sequence[int]) -> np.ndarray:
    """Likelihood weights (N x 54, card codes; 52 the Joker, 53 "not an index") from each window's ink
    colour: a pip face (2 to 10, and the ace) of the other colour weighs ``OTHER_COLOUR``, all else 1.
    Suits in card code order: s, h, d, c (hearts and diamonds red)."""
    return _other_colour_weights(colours, _RED_PIPS, _BLACK_PIPS)


def _other_colour_weights(colours: Sequence[int], red: np.ndarray, black: np.ndarray) -> np.ndarray:
    """N x 54 weights: 1, but ``OTHER_COLOUR`` on the ``black`` card codes of a ``RED`` colour and
    on the ``red`` ones of a ``BLACK`` one (``colour_weights``, ``index_colour_weights``)."""
    w = np.ones((len(colours), NO_BODY + 1), np.float32)
    for i, c in enumerate(colours):
        if c == RED:
            w[i, black] = OTHER_COLOUR
        elif c == BLACK:
            w[i, red] = OTHER_COLOUR
    return w


def fuse(
    index_probs: np.ndarray,
    body_probs: np.ndarray,
    columns: np.ndarray | None = None,
    colours: Sequence[int] | None = None,
) -> np.ndarray:
    """The index classifier's probabilities weighed by ``body_weights`` (and by ``colour_weights`` of
    ``colours``, the body's ink) and renormalised. ``columns``: the card class of each of
    ``index_probs``' columns (the classifier's own order), if not 0..53."""
    w = body_weights(body_probs) * black_suit_weights(body_probs)
    if colours is not None:
        w = w * colour_weights(colours)
    fused = index_probs * (w if columns is None else w[:, columns])
    total = fused.sum(axis=1, keepdims=True)
    return np.asarray(fused / np.maximum(total, 1e-12), np.float32)


class BodyReader:
    """``models/card_body.onnx`` on card windows (``body_window``)."""

    def __init__(self, onnx_path: Path, threads: int = 1) -> None:
        if not onnx_path.is_file():
            raise FileNotFoundError(f"{onnx_path}: card body model missing (vision.body_classifier makes it)")
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self._session: Any = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        # the windows read before, answered again while their pixels hold still (the detector's memory)
        self.memory: StillMemory | None = None
        shape = self._session.get_inputs()[0].shape
        if list(shape[1:]) != [3, WINDOW_H, WINDOW_W]:
            raise ValueError(f"{onnx_path}: input shape {shape}, expected (N, 3, {WINDOW_H}, {WINDOW_W})")

    def probs(
        self, image: np.ndarray, boxes: Sequence[np.ndarray], all_boxes: np.ndarray, px_per_mm: float
    ) -> np.ndarray:
        """Body class probabilities (N x 54) of the card under each of ``boxes``."""
        import cv2

        if not len(boxes):
            return np.zeros((0, NO_BODY + 1), np.float32)
        wins = [body_window(image, np.asarray(b, np.float64), all_boxes, px_per_mm) for b in boxes]
        places = [(round(px_per_mm, 3), *np.round(b).astype(int).tolist()) for b in boxes]

        def read(todo: list[int]) -> np.ndarray:
            x = np.stack([cv2.cvtColor(wins[i], cv2.COLOR_BGR2RGB).transpose(2, 0, 1) for i in todo])
            out = self._session.run(None, {self._input: np.ascontiguousarray(x, np.float32) / 255.0})[0]
            return np.asarray(out, np.float32)

        return read_through(self.memory, places, wins, read)
