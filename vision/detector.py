"""The trained card detector at run time: two small ONNX models on onnxruntime (no torch).

Stage 1 (``models/card_det.onnx``, a YOLO11 detector) finds card *indices* (the rank + suit printed
in a card's top-left and, turned over, bottom-right corner) and card *backs*. Stage 2
(``models/card_cls.onnx``, a small CNN, see models/MODEL_CARD.md) reads each index crop: one of the
52 faces, the Joker, or "not an index" (dropped). Indices survive the overlap of a spread hand,
where whole-card boxes would overlap almost entirely.

Then the two indices of one card are merged: cards are unique in a deck, so two index detections
of the same card close together (within ``merge_distance`` index sizes) are one card, reported
with the union of their boxes (for an unobstructed card, about the card's own box). A card seen by
one index only is reported with that index's box. Backs are reported as detected (class BACK).

Everything returned is a :class:`vision.detections.Detections` in the 54-class scheme.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from vision._blas import one_blas_thread
from vision._sparse_head import SparseHead
from vision._still_memory import StillMemory, read_through
from vision.card_body import (
    CARD_MM,
    OPPOSITE_CORNERS,
    PIP_FACES,
    BodyReader,
    black_suit_weights,
    body_ranks,
    fuse,
    index_colour_weights,
    index_ink,
    ink_colours,
    pip_suit_weights,
)
from vision.detections import (
    BACK_CLASS,
    JOKER_CLASS,
    Detections,
    box_centres,
    card_between,
    centres_between,
    intersection_area,
    union_box,
)

__all__ = [
    "DEFAULT_MODELS_DIR",
    "STILL_ROTATIONS",
    "DetectorFiles",
    "OnnxCardDetector",
    "crop_square",
    "decode_yolo",
    "load_detector",
    "merge_index_corners",
    "nms",
    "still_workers",
    "tile_origins",
    "white_balanced",
]

DEFAULT_MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
_NOT_INDEX = 53  # the classifier's "not an index" class
_DET_INDEX, _DET_BACK = 0, 1  # stage-1 classes
_CLS_FLOOR = 0.3  # a face the classifier reads below this is not named (``cls_conf``'s default)
_CLS_CROP = 40  # crop size the classifier was trained on (render.training.CLS_IMGSZ)
_CROP_MARGIN = 1.25
_SECOND_LOOK_MARGINS = (1.1, 1.45)  # a doubtful index is read again cut tighter and looser
# a doubtful index is read again with its crop cut this much narrower across the index (then stretched
# back to a square): a condensed index font (bellot's) then looks like the ordinary ones trained on
_NARROW_VIEW = 0.7
# an index box not read counts as a card seen (detect_with_unread) only when stage 1 is this sure of it
_UNREAD_MIN_BOX = 0.6
# an index read less surely than this is also read by its card body (``body_look``)
_BODY_LOOK = 0.7
# a body read this sure of a rank settles a contested index (the narrow look's two cuts disagreeing)
# for the face of that rank the index and body read together
_BODY_SETTLES = 0.9
# two index boxes of one row this many index widths apart or nearer may be two cards of a spread
# (``spread_neighbours``); one card's own corners lie further apart
_NEIGHBOUR_REACH = 3.0
# two spread neighbours both read this surely as one face are left so (``_one_of_each``): two copies
_BOTH_SURE = 0.9
# a remembered tile whose picture changed in at most this many 8-px blocks, none on or beside a box
# found on it, is not read again (``StillMemory.recall``'s ``loose``)
_TILE_LOOSE = 3


@dataclass(frozen=True)
class DetectorFiles:
    det: Path
    cls: Path
    body: Path | None = None  # the card body model (vision.card_body), where there is one
    # the index classifier for a coarse camera (``OnnxCardDetector(coarse_camera=True)``), where there is one
    cls_coarse: Path | None = None
    # stage 1 for stills (``OnnxCardDetector(stills=True)``: ``detect``), where there is one
    det_still: Path | None = None

    @classmethod
    def in_dir(cls, models_dir: Path) -> DetectorFiles:
        body, coarse = models_dir / "card_body.onnx", models_dir / "card_cls_coarse.onnx"
        det, cls_ = models_dir / "card_det.onnx", models_dir / "card_cls.onnx"
        still = models_dir / "card_det_still.onnx"
        return cls(
            det,
            cls_,
            body if body.is_file() else None,
            coarse if coarse.is_file() else None,
            still if still.is_file() else None,
        )

    def check(self) -> None:
        for p in (self.det, self.cls):
            if not p.is_file():
                raise FileNotFoundError(
                    f"{p}: detector weights missing (they ship in models/; retrain with train-detector)"
                )


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best first."""
    if len(boxes) == 0:
        return np.zeros((0,), np.int64)
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = np.maximum(x2 - x1, 0) * np.maximum(y2 - y1, 0)
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while len(order):
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        w = np.maximum(0.0, np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]))
        h = np.maximum(0.0, np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]))
        inter = w * h
        ov = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        order = rest[ov <= iou]
    return np.asarray(keep, np.int64)


def decode_yolo(
    raw: np.ndarray,
    conf: float,
    iou: float,
    scale: float = 1.0,
    pad: tuple[float, float] = (0.0, 0.0),
    image_shape: tuple[int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decode one YOLO (v8/11) detect output ``(1, 4 + nc, N)``: centre-xywh in input pixels, then
    class scores. Returns ``(xyxy, class, score)`` after a confidence cut and per-class NMS, with
    boxes mapped back to the original image (``(input - pad) / scale``) and clipped to it."""
    a = np.asarray(raw, np.float32)
    if a.ndim == 3:
        a = a[0]
    if a.ndim != 2 or a.shape[0] < 5:
        raise ValueError(f"YOLO output must have shape (1, 4 + nc, N), but got {np.shape(raw)}")
    a = a.T  # (N, 4 + nc)
    cls_scores = a[:, 4:]
    cls = cls_scores.argmax(1)
    score = cls_scores[np.arange(len(a)), cls]
    m = score >= conf
    a, cls, score = a[m], cls[m], score[m]
    xy = np.stack(
        [a[:, 0] - a[:, 2] / 2, a[:, 1] - a[:, 3] / 2, a[:, 0] + a[:, 2] / 2, a[:, 1] + a[:, 3] / 2], 1
    )
    xy[:, [0, 2]] -= pad[0]
    xy[:, [1, 3]] -= pad[1]
    xy /= scale
    if image_shape is not None:
        h, w = image_shape
        xy[:, [0, 2]] = np.clip(xy[:, [0, 2]], 0, w)
        xy[:, [1, 3]] = np.clip(xy[:, [1, 3]], 0, h)
    keep_all: list[np.ndarray] = []
    for c in np.unique(cls):
        idx = np.nonzero(cls == c)[0]
        keep_all.append(idx[nms(xy[idx], score[idx], iou)])
    keep = np.concatenate(keep_all) if keep_all else np.zeros((0,), np.int64)
    keep = keep[np.argsort(-score[keep], kind="stable")]
    return xy[keep].astype(np.float32), cls[keep].astype(np.int64), score[keep].astype(np.float32)


def tile_origins(w: int, h: int, size: int) -> list[tuple[int, int]]:
    """Top-left corners ``(x, y)`` of the ``size``-px tiles that cover a ``w`` x ``h`` image, row by
    row, overlapping by a quarter (the last row and column flush with the far edges)."""
    step = size - size // 4
    ys = sorted({*range(0, max(h - size, 0) + 1, step), max(h - size, 0)})
    xs = sorted({*range(0, max(w - size, 0) + 1, step), max(w - size, 0)})
    return [(x, y) for y in ys for x in xs]


def pyramid_scales(
    width: int, height: int, imgsz: int, *, max_side: int = 4096, max_scale: float = 4.0
) -> list[float]:
    """Scales for reading a still whose card size is unknown: powers of two (1, 1/2, 1/4, ... and
    2, 4 for small images) that keep the image's longer side between ``imgsz`` / 2 and ``max_side``
    (a card under ~25 px wide is not legible enlarged any further). The detector reads cards well
    from about half to twice the width it was trained on (~102 px, ``vision.pipeline.CARD_PX_PER_MM``;
    measured on rendered rows, see models/HISTORY.md), so one of these scales brings any card into that
    range."""
    longer = max(width, height)
    if longer <= 0:
        raise ValueError(f"image size must be positive, but got {width}x{height}")
    lo = min(1.0, imgsz / 2 / longer)
    return [
        2.0**k
        for k in range(-12, 13)
        if lo <= 2.0**k <= max_scale and longer * 2.0**k <= max(max_side, longer)
    ]


# A card in index sizes (the index's longer side, ~20 mm of a 63.5 x 88.9 mm card), with slack:
# the most a card's corner indices can span, shorter side and longer side.
_CARD_SPAN = (4.0, 5.5)


# the turns a still is read at when its cards may lie at any angle (``detect --rotations auto``)
STILL_ROTATIONS = (0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0)
# and the turns between them, read at the one scale those chose (``OnnxCardDetector.fine_rotations``)
STILL_FINE_ROTATIONS = tuple(r + 22.5 for r in STILL_ROTATIONS)

# A still read turned (``OnnxCardDetector.rotations``): stage 1 was trained on cards near upright
# or upside down, so in each turned read only index boxes standing upright (height >= this x width)
# and reads as sure as the camera pipeline keeps (``PipelineConfig.min_confidence``, 0.4) count: a
# card 20-45 degrees off a turn is misread there. The turned reads' finds are then pooled,
# overlapping ones (IoU >= _TURN_NMS, any class) keeping the surest (benchmarks/photo_stills.py;
# models/HISTORY.md "Stills at any angle").
_TURN_UPRIGHT = 1.5
_TURN_FLOOR = 0.4
_TURN_NMS = 0.3
# A still's pyramid is read smallest scale first (``OnnxCardDetector._read_scales``), and a scale is
# left unread where the surest scale read so far shows its faces' indices so long that this one would
# show them over this many pixels (their longer side): stage 1 was trained on indices ~32-45 px long
# (the camera's 1.6 px/mm), and a still's cards are of one size, so a larger scale reads them no
# better and costs four times the last (on 56 photo-like stills, `benchmarks/photo_stills.py --per 1
# --seed 13`, the scale chosen showed them 18-76 px long; with this cut every still chose the scale
# it had chosen reading them all: models/HISTORY.md, the twenty-fourth session)
_STILL_INDEX_MAX = 96.0
# A still's card backs (``_still_backs``) are read as the still lies, at the smallest scale of its
# pyramid that boxes one at least this surely: a back is a card-sized pattern, and a scale too large
# for its cards cuts them into tile-sized pieces each boxed as a back (the scale its faces chose
# lost det 8's backs so: models/HISTORY.md, the eighth session's change).
_STILL_BACK_FLOOR = 0.5
# ... and a back box is dropped as a piece of another where this share of it lies in a back box
# ``_BACK_PIECE_AREA`` times its size or more ...
_BACK_PIECE = 0.7
_BACK_PIECE_AREA = 1.5
# ... or as a plain patch (felt, a gradient, a blown-up pip) where its picture, shrunk to
# ``_BACK_LOOK`` px, has fewer edge pixels (Canny 40/120 after a 3x3 blur) than this share: a card
# back is a printed pattern (or a picture) in a border ...
_BACK_EDGES = 0.08
_BACK_LOOK = (64, 88)
# ... or as a pip or index where its shorter side is under this many index heights of the faces
# read in the still (a card's width is about 3 of its index's heights)
_BACK_MIN_INDEXES = 1.5
# ... or where too few of the still's reads turned by a right angle (``_BACK_TURNS``, read anyway for
# its faces, at the backs' scale) box a back over it at ``_BACK_HALF_TURN_IOU`` once carried back
# (``_BACK_TURNS_NEEDED`` of them): a card back is printed to look the same either way up, a texture
# taken for one seldom reads so twice. The half turn alone is the rule: it shows the card as the still
# does, long side the same way, where a quarter turn sets it across, which stage 1 boxes less surely.
# Every rule was measured on det 8 and det 11, each with the rule's backs scored exactly as shipped
# (models/HISTORY.md, the thirtieth session): with det 11, on the 112 photo-like stills laid on the 24
# held-out real photographs (``photo_stills.py --per 2 --seed 13 --backdrops``), no check P 0.698 /
# R 0.682, the half turn P 0.871 / R 0.614, any one of the three right-angle turns P 0.784 / R 0.659,
# two of them P 0.852 / R 0.523, all three P 0.947 / R 0.409; on the drawn stills the half turn
# P 0.927 / R 0.717 (none 0.870 / 0.755, two of three 0.973 / 0.679); false backs on the 47 real
# photographs of no card, none 54, half 29, any one 39, two 25, all three 14. IoU 0.3-0.6 moved
# the half turn's figures by one to three backs either way.
_BACK_HALF_TURN_IOU = 0.5
_BACK_TURNS: tuple[float, ...] = (180.0,)
_BACK_TURNS_NEEDED = 1


def _pooled(found: Detections) -> Detections:
    """The turned reads' finds, surest first, each kept unless it overlaps one kept (IoU >=
    ``_TURN_NMS``, any class) or, of the same card, lies mostly on it (half its box: one card's
    corner read in one turn, the whole card in another)."""
    area = _areas(found.xyxy)
    keep: list[int] = []
    for i in np.argsort(-found.confidence, kind="stable"):
        k = np.asarray(keep, np.int64)
        inter, overlaps = _overlapping(found.xyxy, area, i, k)
        same_card = (found.class_id[k] == found.class_id[i]) & (inter >= 0.5 * np.minimum(area[i], area[k]))
        if not (overlaps | same_card).any():
            keep.append(int(i))
    return found[np.sort(np.asarray(keep, np.int64))]


# a still is white-balanced on this share of its pixels, the brightest (``white_balanced``) ...
_WHITE_SHARE = 0.02
# ... and no channel is raised more than this (a still of no cards, its brightest pixels coloured) ...
_WHITE_MAX_GAIN = 1.5
# ... and a still none of whose channels would be raised this much is left as it is
_WHITE_MIN_GAIN = 1.1


def white_balanced(image: np.ndarray) -> np.ndarray:
    """A still with its colour cast taken out: each channel scaled so that the mean colour of its
    brightest pixels (``_WHITE_SHARE`` of them by the channels' sum: the cards' white paper, where
    there are cards) is grey, no channel raised more than ``_WHITE_MAX_GAIN`` x and none lowered.
    The detector was trained on evenly lit renders; a photo's light is warm or cold: a pink-cast
    photo-like still of legible 110-px standard cards had none of its six read. On the photo-like
    stills (``benchmarks/photo_stills.py --per 2``: 112, turned every 45 degrees) faces P 0.954 /
    R 0.600 -> P 0.953 / R 0.679. A cast under ``_WHITE_MIN_GAIN`` is left: reads of such
    near-neutral stills changed at random with it (plastic's cream cards at 45, 70 and 90 degrees,
    gains 1.08-1.10: 5, 4 and 4 cards read -> 2, 2 and 0; R 0.667 without the floor)."""
    _check_image(image)
    f = image.astype(np.float32)
    pixels = f.reshape(-1, 3)
    lum = pixels.sum(1)
    k = max(1, int(_WHITE_SHARE * len(lum)))
    ref = pixels[np.argpartition(lum, len(lum) - k)[len(lum) - k :]].mean(0)
    gain = np.minimum(float(ref.max()) / np.maximum(ref, 1.0), _WHITE_MAX_GAIN)
    if gain.max() < _WHITE_MIN_GAIN:
        return image
    out: np.ndarray = np.clip(f * gain + 0.5, 0, 255).astype(np.uint8)
    return out


def still_workers() -> int:
    """The threads a still is read on (``detect``): one per CPU core this process may use. The camera
    pipeline keeps to one core (a live table's budget); a still is read while someone waits for it,
    and its pyramid's tiles are many (one 640x480 photo: hundreds of stage-1 tiles over its turns)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """``image`` turned by ``degrees`` (counter-clockwise) on a canvas that holds all of it, its
    border repeated; and the 2x3 affine taking the turned image's pixels back to the original's."""
    import cv2

    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = round(h * s + w * c), round(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    out = cv2.warpAffine(image, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out), np.asarray(cv2.invertAffineTransform(m), np.float64)


def boxes_through(xyxy: np.ndarray, affine: np.ndarray) -> np.ndarray:
    """The axis-aligned bounds of boxes (N x 4) carried through a 2x3 affine map."""
    if not len(xyxy):
        return np.zeros((0, 4), np.float32)
    x0, y0, x1, y1 = np.asarray(xyxy, np.float64).T
    corners = np.stack([np.stack(p, 1) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], 1)
    q = corners @ affine[:, :2].T + affine[:, 2]
    return np.concatenate([q.min(1), q.max(1)], 1).astype(np.float32)


def merge_index_corners(
    dets: Detections,
    merge_distance: float = 9.0,
    unread: np.ndarray | None = None,
    card_px_per_mm: float | None = None,
) -> Detections:
    """One detection per card: index detections of the same card class whose centres lie within
    ``merge_distance`` x the index size of each other are joined (union box, best confidence), two
    at a time, or more while their union fits one card (decks with four index corners, dondorf).
    A card's size is reckoned from its own index boxes, or from the image's typical index (the median
    box) where they are smaller: plastic's Joker prints a small round mark in each corner, not an
    index, and its four corners, boxed 20 px at 1.6 px/mm against a 41 px index, were two Jokers, the
    top pair and the bottom pair (D5: 12 of its 16 false Jokers). Backs pass through unchanged.

    Where the scale cards lie at is known (``card_px_per_mm``: the camera pipeline's zone crops),
    three kinds of pair are two cards of one face - a real duplicate in one hand, which is
    FOREIGN-CARD's to report (seed 002 rule 5.5), or a misread of one of them:
    - two with another card's index between them (``card_between``; the other faces' boxes and
      ``unread``, index boxes found and not named): a card's own indices enclose nothing else.
      b61-0011 (dondorf, a tight fan Ac Ad As Qc Qh): the As's two left-edge indices read Ac were
      joined to the real Ac across the Ad, and the Ad inside that union then taken for the same
      card, two cards lost;
    - two whose union is longer than a card's diagonal (no turn of one card spreads its indices so
      far): a face in a seat's high hand and the same face in his low hand, 175 px apart at 1.6
      px/mm, were one card;
    - spread neighbours (``spread_neighbours``: side by side in one row, nearer than half a card; a
      card's own indices lie a card's width or length apart).
    A player who holds out a copy of one of his own cards shows just these (``render.scenario.
    Violation`` "same-hand": of ten such hands at 720p, seven were read a card short). Stills
    (``detect``, no scale) keep the old rule: cards lie there at any overlap, and a card between
    split two of dondorf's stills' cards in two (``benchmarks/photo_stills.py --per 1 --seed 13``:
    faces P 0.963 -> 0.949, the same recall)."""
    backs = dets[dets.class_id == BACK_CLASS]
    faces = dets[dets.class_id != BACK_CLASS]
    typical = _index_side([faces])
    out_xyxy: list[np.ndarray] = []
    out_cls: list[int] = []
    out_conf: list[float] = []
    diagonal = None if card_px_per_mm is None else 1.05 * card_px_per_mm * float(np.hypot(*CARD_MM))
    unread_xyxy = (
        np.zeros((0, 4), np.float32) if unread is None else np.asarray(unread, np.float32).reshape(-1, 4)
    )
    for c in np.unique(faces.class_id):
        group = faces[faces.class_id == c]
        others, near = unread_xyxy, set()  # what keeps two of this face apart (at a known scale only)
        if card_px_per_mm is not None:
            others = np.concatenate([faces.xyxy[faces.class_id != c], unread_xyxy])
            near = set(spread_neighbours(group.xyxy, card_px_per_mm))
        order = np.argsort(-group.confidence, kind="stable")
        used = np.zeros(len(group), bool)
        centers = group.centers
        sizes = np.maximum(group.xyxy[:, 2] - group.xyxy[:, 0], group.xyxy[:, 3] - group.xyxy[:, 1])
        for i in order:
            if used[i]:
                continue
            used[i] = True
            box = group.xyxy[i].copy()
            best = float(group.confidence[i])
            # the partner: the nearest unused same-class index within reach (a card has two); then,
            # for decks printed with an index in all four corners, any further index of the class
            # while the union still fits one card (<= _CARD_SPAN index sizes each way)
            partners = 0
            members = [int(i)]
            apart: set[int] = set()  # another card of this face: each starts its own, below
            while cand := [j for j in order if not used[j] and j not in apart]:
                d = np.hypot(*(centers[cand] - centers[i]).T)
                k = int(np.argmin(d))
                j = cand[k]
                size = max(float(sizes[i]), float(sizes[j]))
                card = max(size, typical)
                union = union_box(box, group.xyxy[j])
                span = sorted((float(union[2] - union[0]), float(union[3] - union[1])))
                fits = span[0] <= _CARD_SPAN[0] * card and span[1] <= _CARD_SPAN[1] * card
                if d[k] > merge_distance * size or (partners and not fits):
                    break
                if diagonal is not None and (
                    span[1] > diagonal
                    or card_between(box, group.xyxy[j], others)
                    or any((min(m, j), max(m, j)) in near for m in members)
                ):
                    apart.add(j)
                    continue
                used[j] = True
                box = union
                members.append(int(j))
                partners += 1
            out_xyxy.append(box)
            out_cls.append(int(c))
            out_conf.append(best)
    merged = Detections(
        np.asarray(out_xyxy, np.float32).reshape(-1, 4),
        np.asarray(out_cls, np.int64),
        np.asarray(out_conf, np.float32),
    )
    return Detections.merge([merged, backs])


def _boxes_of(found: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """The boxes of stage 1's finds on a tile."""
    return found[0]


def _letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[float, float]]:
    import cv2

    h, w = img.shape[:2]
    s = min(size / h, size / w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(img, (nw, nh), interpolation=interp)
    canvas = np.full((size, size, 3), 114, np.uint8)
    px, py = (size - nw) // 2, (size - nh) // 2
    canvas[py : py + nh, px : px + nw] = resized
    return canvas, s, (float(px), float(py))


def _contained(boxes: np.ndarray, share: float = 0.8) -> np.ndarray:
    """Index boxes lying mostly (``share`` of their area) inside a larger index box: stage 1 boxing
    the rank of an index again inside the box of the whole index (tiles overlap, NMS keeps both as
    their IoU is low). Read on its own, such a box is half an index: at best the same card again,
    at worst another card read in the same place (an extra face)."""
    n = len(boxes)
    out = np.zeros(n, bool)
    if n < 2:
        return out
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    for i in range(n):
        inter = intersection_area(boxes[i], boxes)
        bigger = (area > area[i]) & (inter >= share * max(float(area[i]), 1e-6))
        bigger[i] = False
        out[i] = bool(bigger.any())
    return out


def _regrown(boxes: np.ndarray, short: float = 0.75) -> list[tuple[int, np.ndarray]]:
    """Alternative boxes for index boxes much shorter than the others of the same image.

    Stage 1 sometimes boxes only the rank of an index whose suit below it is half covered by the
    next card (a 19-px box among 30-px ones): the classifier, seeing half an index centred, is unsure.
    Indices in one zone crop are all one size (the pipeline rectifies zones to one scale), so such a
    box is grown to the median index length along its long side, once each way (the index may stand
    either way up); the classifier keeps the surest of the views. Needs 3 indices to know the size."""
    if len(boxes) < 3:
        return []
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    length = np.maximum(w, h)
    med = float(np.median(length))
    out: list[tuple[int, np.ndarray]] = []
    for i in np.flatnonzero(length < short * med):
        x0, y0, x1, y1 = (float(v) for v in boxes[i])
        if h[i] >= w[i]:  # an upright index: grow down (rank at the top) and up (turned over)
            out += [(int(i), np.array([x0, y0, x1, y0 + med], np.float32))]
            out += [(int(i), np.array([x0, y1 - med, x1, y1], np.float32))]
        else:  # a sideways index
            out += [(int(i), np.array([x0, y0, x0 + med, y1], np.float32))]
            out += [(int(i), np.array([x1 - med, y0, x1, y1], np.float32))]
    return out


def crop_square(
    img: np.ndarray, xyxy: Sequence[float] | np.ndarray, size: int = _CLS_CROP, margin: float = _CROP_MARGIN
) -> np.ndarray:
    """The classifier's input for one index box: a square ``margin`` x the box's longer side around
    its centre, resized to ``size`` (edges replicated). Training crops are cut by this same function
    (``render.training.crop_square``), so what the classifier learnt on and what it is shown match."""
    import cv2

    x0, y0, x1, y1 = (float(v) for v in xyxy)
    side = max(x1 - x0, y1 - y0) * margin
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = size / max(side, 1.0)
    m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float64)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def _narrowed(crop: np.ndarray, share: float, *, across_x: bool) -> np.ndarray:
    """The middle ``share`` of a square crop's columns (``across_x``) or rows: what the classifier
    then stretches back to its square input."""
    n = crop.shape[1] if across_x else crop.shape[0]
    keep = max(1, round(n * share))
    start = (n - keep) // 2
    return crop[:, start : start + keep] if across_x else crop[start : start + keep]


def _narrow_look_reads(
    usual: np.ndarray, narrow: np.ndarray, names: np.ndarray, floor: float
) -> tuple[np.ndarray, np.ndarray]:
    """The narrow look's rule (``OnnxCardDetector.narrow_look``), for doubtful indices' class
    probabilities as the usual cut and the narrow cut read them (columns named by ``names``): the
    probabilities to go on with, and which reads are contested. A face the usual cut names (at
    ``floor`` or above) keeps its read when the narrow cut agrees and is contested (not named at all)
    when it does not: the narrow cut also makes a wide font's 6 look like a 5. One the usual cut
    cannot name takes the two cuts' average. A narrow cut naming the same rank in another suit does
    not contest it: the look is for condensed ranks, and cut narrower a suit is no better read (the
    usual read stays under ``narrow_look``, so under the review level). Thirty-sixth session, seeds
    78 and 79 at 720p: b79-0002's 6c, read 6c by the usual cut and 6s by the narrow one, was unnamed
    for a whole hand; R 0.9915 -> 0.9921 and 0.9900 -> 0.9944 (P 0.9946 -> 0.9943, 0.9950 -> 0.9953)."""
    first, second = usual.argmax(1), narrow.argmax(1)
    named = (names[first] != _NOT_INDEX) & (usual.max(1) >= floor)
    out = usual.copy()
    out[~named] = (usual[~named] + narrow[~named]) / 2
    a, b = names[first].astype(np.int64), names[second].astype(np.int64)
    # (CLASSES lists the faces rank by rank, four suits each, then the Joker)
    same_rank = (a < JOKER_CLASS) & (b < JOKER_CLASS) & (a // 4 == b // 4)
    return out, named & (second != first) & ~same_rank


def _rival_reads(
    boxes: np.ndarray,
    det_conf: np.ndarray,
    usual: np.ndarray,
    usual_p: np.ndarray,
    narrow: np.ndarray,
    narrow_p: np.ndarray,
    rival: np.ndarray,
) -> Detections:
    """The two faces of each contested index read (``rival``, N booleans: the narrow look's two cuts
    named two faces, and neither the body nor a neighbour settled it): the face the usual cut names
    (``usual``, class ids, at ``usual_p``) and the narrow cut's (``narrow``, at ``narrow_p``), each
    box given twice, each read at stage 1's score for the box (``det_conf``) times its cut's.
    A cut naming no face (the "not an index" class) gives none. At 720p a Th's index reads 9h by the
    usual cut and Th by the narrow one, a 7d 7d and 2d: one of the two, never said which."""
    rows = np.flatnonzero(rival & (usual != narrow))
    xyxy = np.concatenate([boxes[rows], boxes[rows]]).astype(np.float32)
    cls = np.concatenate([usual[rows], narrow[rows]]).astype(np.int64)
    conf = np.concatenate([det_conf[rows] * usual_p[rows], det_conf[rows] * narrow_p[rows]])
    face = cls != _NOT_INDEX
    return Detections(xyxy[face], cls[face], conf[face])


_GUESSES = 2  # each index's likeliest faces reported to the count (``_index_guesses``)


def _index_guesses(
    boxes: np.ndarray, det_conf: np.ndarray, probs: np.ndarray, names: np.ndarray, rows: np.ndarray
) -> Detections:
    """The ``_GUESSES`` likeliest faces of each index ``rows`` picks (N booleans), by its final read
    (``probs``, columns named by ``names``: every look, pair and neighbour weighed in), each box given
    once a face, each at stage 1's score for the box (``det_conf``) times its probability; the "not an
    index" class is no face and is skipped. What an index read under the floor may be, for the count
    (``vision.pipeline._name_by_count``). Measured (thirty-eighth session, seeds 78-85 at 720p, the
    hands one face short whose other cards were all read): of 43 such hands, the count named 15
    right and 4 wrong from the weak reads and the two cuts' faces (``_rival_reads``), and 28 right
    and 3 wrong from these two, at the count's floor."""
    face = names != _NOT_INDEX
    cols = np.flatnonzero(face)
    at = np.flatnonzero(rows)
    if not len(at) or not len(cols):
        return Detections.empty()
    p = probs[np.ix_(at, cols)]
    k = min(_GUESSES, len(cols))
    order = np.argsort(-p, axis=1, kind="stable")[:, :k]
    xyxy = np.repeat(boxes[at], k, axis=0).astype(np.float32)
    cls = names[cols[order]].reshape(-1).astype(np.int64)
    conf = (det_conf[at][:, None] * np.take_along_axis(p, order, axis=1)).reshape(-1)
    return Detections(xyxy, cls, conf.astype(np.float32))


def _body_settles(
    fused: np.ndarray, narrow_top: np.ndarray, body: np.ndarray, names: np.ndarray
) -> np.ndarray:
    """Which contested index reads (the narrow look's two cuts disagreeing) the card body settles.
    ``fused``: the index read weighed by the body (columns named by ``names``); ``narrow_top``: the
    narrow cut's surest column (-1 where it did not look: never contested); ``body``: the body
    model's probabilities (N x 54, card codes). Settled: the fused read names the narrow cut's face,
    or a face of another rank than the narrow cut's whose rank the body reads at ``_BODY_SETTLES``
    or more, or the face of the narrow cut's rank whose black suit the body is sure of against the
    narrow cut's (``vision.card_body.black_suit_weights``: seed 42's tigullio As on the display,
    contested As / Ac, is read). Any other contest of suits stays (the body's other suit reads are
    not trusted: ``vision.card_body.body_weights``). The Joker is a rank of its own: read Joker where
    the body reads the Joker at ``_BODY_SETTLES`` or more (seed 41, b41-0010: a Joker's index read
    Jk 0.51 by the usual cut, "not an index" by the narrow one; its body Jk 0.99; the card was left
    unnamed, a player's hand short of its Joker)."""
    top = fused.argmax(1)
    face, narrow = names[top], names[np.maximum(narrow_top, 0)]
    rank = body_ranks(body)
    rows = np.arange(len(body))
    sure = rank[rows, np.minimum(face, 51) // 4] >= _BODY_SETTLES
    other_rank = (face < 52) & ((narrow >= 52) | (narrow // 4 != face // 4))
    suits = black_suit_weights(body)
    same_rank = (face < 52) & (narrow < 52) & (narrow // 4 == face // 4)
    black_suit = same_rank & (suits[rows, narrow] < 1) & (suits[rows, face] == 1)
    joker = (face == JOKER_CLASS) & (body[:, JOKER_CLASS] >= _BODY_SETTLES)
    out: np.ndarray = (top == narrow_top) | (sure & other_rank) | black_suit | joker
    return out


def _weigh_by_index_ink(
    image: np.ndarray, boxes: np.ndarray, probs: np.ndarray, cap: np.ndarray, names: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each index read as a face of the colour its own ink is not (``vision.card_body.index_ink``)
    read again with the faces of that colour all but ruled out (``index_colour_weights``), no surer
    than it was read (``cap``, lowered): the ink settles the colour, not which face of it. b90-0014
    (seed 90, 720p): seat 3's 7s, re-read after the wager was taken, 7d at 0.63 (its ink's mean a*
    1.8: black); b89-0014's dealer's 4s read 4d at 0.44 for 8 s (0.4). Indices read as faces of their
    own colour, or whose ink does not tell, are left as they were.

    Also each index's ink weights (N x the columns ``names`` names; 1 where the ink does not tell),
    for what the count may take the index to be (``_index_guesses``): an index read as a face of its
    own ink's colour keeps its read, but its second likeliest face may be of the other colour, and
    the count then saw two faces open where the ink leaves one (b93-0003, seed 93, 720p: seat 1's
    2c, its ink black, read 2c 0.34 / 2d 0.27 beside the hand's own 2s, stayed a card not named from
    its turn-up to its collection, the round rebuilt a card short)."""
    top = names[probs.argmax(1)]
    probs, cap = probs.copy(), cap.copy()
    ink = np.ones(probs.shape, np.float32)
    for i in np.flatnonzero(top < JOKER_CLASS):
        weights = index_colour_weights([index_ink(image, boxes[i])])[0]
        ink[i] = weights[names]
        if weights[top[i]] == 1:  # a face of the ink's own colour, or an ink that does not tell
            continue
        row = probs[i] * ink[i]
        cap[i] = min(float(cap[i]), float(probs[i].max()))
        probs[i] = row / max(float(row.sum()), 1e-12)
    return probs, cap, ink


def corner_pairs(boxes: np.ndarray, px_per_mm: float) -> list[tuple[int, int]]:
    """Pairs of index boxes (xyxy, N x 4, at ``px_per_mm``) lying at one card's opposite corners
    (``vision.card_body.OPPOSITE_CORNERS``: their union spans the card, standing upright; one box
    right of and below the other), each box in one pair at most, the pairs whose union is nearest a
    card's own span first. In a spread hand only the top card shows both of its indices; a lone card
    does, and every card the i-Verify display draws."""
    n = len(boxes)
    if n < 2:
        return []
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    i, j = np.triu_indices(n, 1)
    w = np.maximum(b[i, 2], b[j, 2]) - np.minimum(b[i, 0], b[j, 0])
    h = np.maximum(b[i, 3], b[j, 3]) - np.minimum(b[i, 1], b[j, 1])
    short, long_ = sorted(px_per_mm * m for m in CARD_MM)
    lo, hi = OPPOSITE_CORNERS
    # top-left and bottom-right: one box right of and below the other. A deck printing all four
    # corners (dondorf) shows a bottom-left index on the first card of a spread, a card-sized union
    # with the top-left index of the card three to the right: that pair lies the other way
    diagonal = (b[j, 0] - b[i, 0]) * (b[j, 1] - b[i, 1]) > 0
    ok = diagonal & (w >= lo * short) & (w <= hi * short) & (h >= lo * long_) & (h <= hi * long_)
    mid = (lo + hi) / 2  # the span a card's own two corners make, about
    off = np.where(ok, np.abs(w / short - mid) + np.abs(h / long_ - mid), np.inf)
    centres = box_centres(b)
    used = np.zeros(n, bool)
    out = []
    for k in np.argsort(off, kind="stable"):
        if not np.isfinite(off[k]):
            break
        a, c = int(i[k]), int(j[k])
        if used[a] or used[c] or _between(b, centres, a, c):
            continue
        used[a] = used[c] = True
        out.append((a, c))
    return out


def other_corners(boxes: np.ndarray, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], list[int]]:
    """For each corner pair (``corner_pairs``), the other index boxes at its card's other two corners
    (top-right, bottom-left: a deck printing all four, dondorf): a box not in a pair, lying mostly
    (0.8 of it) inside the pair's union, its centre within an index's length of that corner. Left
    out, such a card was read as two where its corners disagreed (seed 41, b41-0001: the i-Verify
    display's dondorf 2s read 2s by its top-left and bottom-right corners, 2c by the other two, two
    cards in one slot, the display's read flipping between them); ``_pair_corners`` gives them the
    pair's read."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    paired = {k for pair in pairs for k in pair}
    centres = box_centres(b)
    area = np.maximum(b[:, 2] - b[:, 0], 0) * np.maximum(b[:, 3] - b[:, 1], 0)
    out: dict[tuple[int, int], list[int]] = {}
    for a, c in pairs:
        union = union_box(b[a], b[c])
        reach = max(b[a, 2] - b[a, 0], b[a, 3] - b[a, 1], b[c, 2] - b[c, 0], b[c, 3] - b[c, 1])
        inside = intersection_area(union, b) >= 0.8 * np.maximum(area, 1e-9)
        more = []
        for cx, cy in ((union[2], union[1]), (union[0], union[3])):
            near = np.hypot(centres[:, 0] - cx, centres[:, 1] - cy)
            near[list(paired)] = np.inf
            near[~inside] = np.inf
            k = int(np.argmin(near))
            if near[k] <= reach:
                more.append(k)
                paired.add(k)
        if more:
            out[(a, c)] = more
    return out


class _Pairs(NamedTuple):
    """Index boxes (``b``: xyxy, float64) with their widths and heights, every pair of them (``i`` <
    ``j``) and whether both boxes of a pair stand upright (``upright``)."""

    b: np.ndarray
    w: np.ndarray
    h: np.ndarray
    i: np.ndarray
    j: np.ndarray
    upright: np.ndarray


def _upright_pairs(boxes: np.ndarray) -> _Pairs | None:
    """Every pair of the index boxes ``boxes`` (N x 4) and which stand upright (``_Pairs``); None for
    fewer than two (``edge_pairs``, ``spread_neighbours``)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    if len(b) < 2:
        return None
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    i, j = np.triu_indices(len(b), 1)
    return _Pairs(b, w, h, i, j, (h[i] >= w[i]) & (h[j] >= w[j]) & (w[i] > 0) & (w[j] > 0))


def edge_pairs(boxes: np.ndarray, px_per_mm: float, taken: set[int]) -> list[tuple[int, int]]:
    """Pairs of index boxes (xyxy, N x 4, at ``px_per_mm``) at the two ends of one card's edge: one
    column (each box across at least half of the narrower one, the union no wider than 1.5 of the
    wider), one box above the other, apart, their union a card's length tall
    (``vision.card_body.OPPOSITE_CORNERS``), no other box's centre between them. A deck printing all
    four corners (dondorf) shows the top-left and bottom-left indices of every card a spread covers
    but for its left edge: read apart, one such card was lost (seed 41, b41-0006: the dealer's As,
    its top-left index read Ac 0.73 / As 0.12 beside the real Ac, its bottom-left one As 0.61) or
    read as two (b41-0006: a 3s read 3c at the top, 3s at the bottom). A two-corner deck prints
    nothing at a card's bottom-left. Boxes in ``taken`` (corner pairs and their other corners,
    ``corner_pairs``, ``other_corners``) are left out; each box in one pair at most, the pairs whose
    height is nearest a card's own first."""
    pairs = _upright_pairs(boxes)
    if pairs is None:
        return []
    b, w, _, i, j, upright = pairs
    across = np.minimum(b[i, 2], b[j, 2]) - np.maximum(b[i, 0], b[j, 0])
    wide = np.maximum(b[i, 2], b[j, 2]) - np.minimum(b[i, 0], b[j, 0])
    column = (across >= 0.5 * np.minimum(w[i], w[j])) & (wide <= 1.5 * np.maximum(w[i], w[j]))
    apart = (b[i, 1] >= b[j, 3]) | (b[j, 1] >= b[i, 3])
    tall = np.maximum(b[i, 3], b[j, 3]) - np.minimum(b[i, 1], b[j, 1])
    long_ = px_per_mm * max(CARD_MM)
    lo, hi = OPPOSITE_CORNERS
    free = ~np.isin(i, list(taken)) & ~np.isin(j, list(taken))
    ok = upright & column & apart & (tall >= lo * long_) & (tall <= hi * long_) & free
    off = np.where(ok, np.abs(tall / long_ - (lo + hi) / 2), np.inf)
    centres = box_centres(b)
    used = np.zeros(len(b), bool)
    out = []
    for k in np.argsort(off, kind="stable"):
        if not np.isfinite(off[k]):
            break
        a, c = int(i[k]), int(j[k])
        if used[a] or used[c]:
            continue
        inside = centres_between(b[a], b[c], centres)
        inside[[a, c]] = False
        if inside.any():
            continue
        used[a] = used[c] = True
        out.append((a, c))
    return out


_OWN_INDEX = 0.3  # a box sharing this much of the smaller one's area with a corner's box is that index


def _between(b: np.ndarray, centres: np.ndarray, a: int, c: int) -> bool:
    """Whether another box's centre lies inside the union of boxes ``a`` and ``c``, away from its
    other two corners (where a deck printing all four corners has the card's own third and fourth
    index), and the box is not a second find of ``a`` or ``c`` itself (sharing ``_OWN_INDEX`` of the
    smaller box's area with it). A card's two corners enclose nothing else; a top-left index and the
    bottom-left one of a card further along the spread (four-corner decks) enclose the indices of the
    cards between, which lie clear of the corners' own boxes (spread neighbours are 1.4 index widths
    apart or more: ``spread_neighbours``). b87-0001 (seed 87, 720p): the dealer's four-corner Ks,
    turned up, its bottom-right index found a second time as a wider box across it (Kc 0.21); that
    box stood between the Ks's own corners, so its left edge's two indices (Ks 0.88, 0.84) and its
    right edge's (Kc 0.83, 0.79) were read as two cards, and FOREIGN-CARD and CARD-COUNT alerted."""
    reach = max(b[a, 2] - b[a, 0], b[a, 3] - b[a, 1], b[c, 2] - b[c, 0], b[c, 3] - b[c, 1])
    inside = centres_between(b[a], b[c], centres, float(reach), ("tr", "bl"))
    inside[[a, c]] = False
    if inside.any():
        area = np.maximum(b[:, 2] - b[:, 0], 0) * np.maximum(b[:, 3] - b[:, 1], 0)
        for own in (a, c):
            shared = intersection_area(b[own], b)
            inside &= shared < _OWN_INDEX * np.maximum(np.minimum(area, area[own]), 1e-9)
    return bool(inside.any())


def spread_neighbours(boxes: np.ndarray, px_per_mm: float) -> list[tuple[int, int]]:
    """Pairs of upright index boxes (xyxy, N x 4, at ``px_per_mm``) side by side in one row, of one
    size, apart but nearer than half a card's width and than ``_NEIGHBOUR_REACH`` index widths: two
    cards of a spread (each card's top-left index shows beside the next one's, a fifth of a card or
    so along: 1.4 to 1.9 index widths in seed 42's crops). Never one card twice: a card's own
    indices lie a card's width or length apart (a four-corner deck's top-right one too: 4.4 index
    widths or more, 5 in a crop squashed across, where a card was 58 px wide at a nominal 1.6
    px/mm; D5 ``val_100008_0427_dealer``), and a box cut short, or the rank boxed again inside its
    index, is not of one size with it."""
    pairs = _upright_pairs(boxes)
    if pairs is None:
        return []
    b, w, h, i, j, upright = pairs
    tall, wide = np.minimum(h[i], h[j]), np.minimum(w[i], w[j])
    one_size = (tall >= 0.7 * np.maximum(h[i], h[j])) & (wide >= 0.6 * np.maximum(w[i], w[j]))
    one_row = np.minimum(b[i, 3], b[j, 3]) - np.maximum(b[i, 1], b[j, 1]) >= 0.7 * tall
    apart = np.minimum(b[i, 2], b[j, 2]) - np.maximum(b[i, 0], b[j, 0]) <= 0.2 * wide
    dx = np.abs((b[i, 0] + b[i, 2]) - (b[j, 0] + b[j, 2])) / 2
    reach = (dx <= 0.5 * px_per_mm * min(CARD_MM)) & (dx <= _NEIGHBOUR_REACH * wide)
    ok = upright & one_size & one_row & apart & reach
    return [(int(a), int(c)) for a, c in zip(i[ok], j[ok], strict=True)]


def _one_of_each(
    probs: np.ndarray,
    names: np.ndarray,
    neighbours: list[tuple[int, int]],
    partner: dict[int, list[int]],
) -> np.ndarray:
    """Class probabilities of index reads (columns named by ``names``) read again where a pair in
    ``neighbours`` (two cards) names one face at both, which one deck holds once (the Joker too): the
    two reads' probabilities multiplied, the same face at both taken out, renormalised, and each read
    the joint's share for it (``one_deck``). Pairs naming two faces are left as read: the joint would
    only renormalise them, and could lift a doubtful read over the classifier's floor (D5, a
    simplistic 3s read As 0.29 beside a 2c, its 2c share taken out: As 0.31, a wrong face named).
    ``partner``: the other corners read as one card with a box (``_pair_corners``), which read as it
    does.

    So are pairs read both at ``_BOTH_SURE`` or more: two copies of one face side by side, a player's
    hold-out (``render.scenario.Violation`` "same-hand"), which the joint made two doubtful reads of
    (0.99 each -> about 0.5 each), one then lost under the floor, and the duplicate with it. Of the
    35 pairs the rule read again on seeds 57-62 (720p, one deck: each a misread or one card boxed
    twice), 33 had a read under 0.75 and one 0.84 (read again as before); b58-0005's lone Qh, its
    index and a box in its picture both read Qh at 0.993, is left as read and made one card by the
    pipeline's merge (one-off count, models/HISTORY.md, twenty-third session)."""
    probs = probs.copy()
    face = names < _NOT_INDEX
    both = np.ix_(face, face)
    order = sorted(neighbours, key=lambda n: -float((probs[n[0]] * probs[n[1]])[face].sum()))
    for i, j in order:
        top = int(probs[i].argmax())
        if top != int(probs[j].argmax()) or not face[top]:
            continue
        if min(float(probs[i, top]), float(probs[j, top])) >= _BOTH_SURE:
            continue
        joint = np.outer(probs[i], probs[j])
        joint[both] *= 1.0 - np.eye(int(face.sum()))
        total = float(joint.sum())
        if total <= 0.0:
            continue
        joint /= total
        for k, read in ((i, joint.sum(1)), (j, joint.sum(0))):
            probs[k] = read
            for m in partner.get(k, []):
                probs[m] = read
    return probs


def _taken_by_neighbour(
    probs: np.ndarray,
    narrow_top: np.ndarray,
    contested: np.ndarray,
    neighbours: list[tuple[int, int]],
    sure: float,
) -> np.ndarray:
    """Which contested reads (the narrow look's cut naming another face than the usual cut) a
    neighbour settles: the narrow cut's face is the neighbour's, read uncontested at ``sure`` or
    more, and one deck holds it once (seed 42, b42-0007: a plastic 6c in a spread beside the 6s,
    its narrow cut read 6s)."""
    out = np.zeros(len(probs), bool)
    for i, j in neighbours:
        for k, o in ((i, j), (j, i)):
            face = int(narrow_top[k])
            if not contested[k] or contested[o] or face < 0 or probs[k].argmax() == face:
                continue
            out[k] |= bool(probs[o].argmax() == face and probs[o, face] >= sure)
    return out


def _upright_finds(found: Detections) -> Detections:
    """A turned read's finds that count (``_TURN_UPRIGHT``, ``_TURN_FLOOR``): backs, and index reads
    standing upright in it, as sure as the camera pipeline keeps."""
    w, h = found.xyxy[:, 2] - found.xyxy[:, 0], found.xyxy[:, 3] - found.xyxy[:, 1]
    upright = (found.class_id == BACK_CLASS) | (h >= _TURN_UPRIGHT * w)
    return found[upright & (found.confidence >= _TURN_FLOOR)]


def _still_backs(
    image: np.ndarray,
    by_scale: Sequence[tuple[float, Detections]],
    faces: Detections,
    index_side: float,
    turns: Mapping[float, tuple[np.ndarray, dict[float, Detections]]] | None = None,
) -> Detections:
    """A still's card backs: the backs of its read as it lies (``by_scale``: scale and finds, at every
    scale of its pyramid) at the smallest scale that boxes one at ``_STILL_BACK_FLOOR`` or more,
    less each box that is not a card back (``_is_card_back``): ``faces`` are the still's face reads,
    ``index_side`` the median height of their index boxes (0 where none was read); and, given the
    still read turned (``turns``: by degrees, the turn's affine back to the still and its finds by
    scale), less each box too few of the turns in ``_BACK_TURNS`` read at that scale box again
    (``_boxed_again``; ``_BACK_TURNS_NEEDED``, or all of them where fewer were read)."""
    surely = (
        (scale, found[(found.class_id == BACK_CLASS) & (found.confidence >= _STILL_BACK_FLOOR)])
        for scale, found in sorted(by_scale, key=lambda p: p[0])
    )
    scale, backs = next(((s, b) for s, b in surely if len(b)), (0.0, Detections()))
    if not len(backs):
        return Detections()
    centres = faces.centers if len(faces) else np.zeros((0, 2), np.float32)
    keep = np.array([_is_card_back(image, box, centres, index_side) for box in backs.xyxy], bool)
    again = [
        _boxed_again(backs.xyxy, back, by[scale])
        for deg, (back, by) in (turns or {}).items()
        if deg % 360 in _BACK_TURNS and scale in by
    ]
    if again:
        keep &= np.sum(again, axis=0) >= min(_BACK_TURNS_NEEDED, len(again))
    backs = backs[keep]
    area = _areas(backs.xyxy)
    whole = np.array(
        [
            not (
                (intersection_area(box, backs.xyxy) >= _BACK_PIECE * a) & (area >= _BACK_PIECE_AREA * a)
            ).any()
            for box, a in zip(backs.xyxy, area, strict=True)
        ],
        bool,
    )
    return backs[whole]


def _boxed_again(xyxy: np.ndarray, back: np.ndarray, found: Detections) -> np.ndarray:
    """Whether each box (N x 4, the still's pixels) is boxed as a back by ``found``, a turned read's
    finds, carried back to the still through ``back`` (its 2x3 affine), at IoU ``_BACK_HALF_TURN_IOU``
    or more."""
    theirs = boxes_through(found.xyxy[found.class_id == BACK_CLASS], back)
    area = _areas(theirs)
    again = np.zeros(len(xyxy), bool)
    for i, box in enumerate(xyxy):
        inter = intersection_area(box, theirs)
        again[i] = bool((inter >= _BACK_HALF_TURN_IOU * (_areas(box[None])[0] + area - inter)).any())
    return again


def _is_card_back(image: np.ndarray, box: np.ndarray, face_centres: np.ndarray, index_side: float) -> bool:
    """Whether a still's back box can be a card back: not smaller than a card of the still's faces
    (``_BACK_MIN_INDEXES``), holding no face read, and patterned (``_BACK_EDGES``). Read at their
    own scale by det 8, the photo-like stills' stray backs (``benchmarks/photo_stills.py``, seed 7)
    were face-up cards and their pips (90 of 125) and plain patches of the background (35).
    (A check that the box is not mostly paper-white, a face-up card boxed whole, dropped more real
    backs, light designs and white borders, than stray ones: models/HISTORY.md,
    the eighth session's change.)"""
    import cv2

    h, w = image.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False
    if index_side and min(x1 - x0, y1 - y0) < _BACK_MIN_INDEXES * index_side:
        return False
    clipped = np.array([x0, y0, x1, y1], np.float64)
    if centres_between(clipped, clipped, face_centres).any():
        return False
    crop = image[y0:y1, x0:x1]
    gray = cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), _BACK_LOOK, interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120)
    return float(np.count_nonzero(edges)) / edges.size >= _BACK_EDGES


def _index_side(finds: Sequence[Detections]) -> float:
    """The median height (longer side) of the index boxes in ``finds`` (each read upright, before a
    card's two indices are merged); 0 where there are none."""
    sides = [
        np.maximum(f.xyxy[:, 2] - f.xyxy[:, 0], f.xyxy[:, 3] - f.xyxy[:, 1])[f.class_id != BACK_CLASS]
        for f in finds
    ]
    every = np.concatenate(sides) if sides else np.zeros(0)
    return float(np.median(every)) if len(every) else 0.0


def _areas(xyxy: np.ndarray) -> np.ndarray:
    area: np.ndarray = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
    return area


def _overlapping(
    xyxy: np.ndarray, area: np.ndarray, i: int, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Box ``i``'s intersection with each of the boxes ``others`` (indices), and whether each
    overlaps it as much as the turned reads' pooling asks (IoU >= ``_TURN_NMS``)."""
    inter = intersection_area(xyxy[i], xyxy[others])
    return inter, inter >= _TURN_NMS * (area[i] + area[others] - inter)


def _faces_first(found: Detections) -> tuple[float, float]:
    """How sure a scale's read of a still is (``_detect_scaled``, ``_read_turned``): the confidence
    its faces carry, then all its finds'. Backs alone (a still of face-down cards) count where no
    scale reads a face."""
    return float(found.confidence[found.class_id != BACK_CLASS].sum()), float(found.confidence.sum())


def _check_image(image: np.ndarray) -> None:
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be a BGR array (H, W, 3), but got shape {image.shape}")


class OnnxCardDetector:
    """The shipped two-stage detector (implements ``vision.detections.CardDetector``).

    ``threads`` is onnxruntime's intra-op thread count (1 by default: the live job runs it on one
    core). ``imgsz`` must match the exported stage-1 model. ``turned_views`` averages the classifier
    over each crop and the crop turned 180 degrees (held-out index top-1 +1 point, better-calibrated
    confidence, twice the stage-2 cost: ~0.5 ms per index). ``second_look``: an index whose surest
    class is below this is read again cut tighter and looser (``_SECOND_LOOK_MARGINS``) and the views
    averaged; 0 (the default) turns it off. Measured at 0.7: held-out D5, first 1,200 zone crops
    (``paigow-monitor eval-detector --data D5 --limit 1200 --second-look 0.7``), faces P 0.950 ->
    0.959, R 0.976 -> 0.980 at ~1 % more time; but the sample footage's card recall 0.964 -> 0.961
    (bellot's pip cards, doubtful at every cut, averaged under the pipeline's 0.4 floor).
    ``body_look``: an index whose surest class (after the narrow look) is below this is also read by
    the card body below it (``vision.card_body``: the pips or picture a spread leaves in view), where
    the caller gives the card's scale (``card_px_per_mm``: the camera pipeline's zone crops; stills
    have none) and ``models/`` has the body model; 0 turns it off.
    ``narrow_look``: an index whose surest class is below this is also read with its crop cut
    narrower across the index (``_NARROW_VIEW``) and stretched back: a condensed index font
    (bellot's 3, read J) then looks like the ordinary ones trained on. A face the usual cut cannot
    name takes the two reads' average; one it names keeps its read if the narrow cut agrees and is
    left unnamed (an unread face) if not: the narrow cut alone reads worse (held-out index top-1
    0.966 against 0.979: a wide font's 6 comes out a 5). 0 turns it off. Measured at 0.6 with
    cls 12 (``benchmarks/classifier_accuracy.py --data D5``), held-out index crops named at the
    classifier's floor: precision 0.9868 -> 0.9934 (wrong reads 75 -> 37), recall 0.9778 -> 0.9757.
    ``pair_corners``: where the caller gives the card's scale (as for ``body_look``), the two indices
    of one card (both in view: the top card of a spread, a lone card, a card the i-Verify display
    draws) are read as one, their class probabilities multiplied (``_pair_corners``); so are the two
    indices at the ends of a card's edge that a four-corner deck's spread shows (``edge_pairs``).
    ``one_deck``: where the caller gives the card's scale, two indices side by side in a spread
    (``spread_neighbours``: two cards) are read knowing one deck holds one of each face
    (``_one_of_each``): a spread's As misread beside the real As had been merged with it as one card
    (``vision.pipeline.merge_card_indices``), a card lost to the count.
    ``index_ink``: where the caller gives the card's scale, an index read as a face of the other
    colour than its own ink (``vision.card_body.index_ink``: red or black, where it tells) is read
    again with that colour's faces all but ruled out, no surer than it was (``_weigh_by_index_ink``).
    ``memory``: stage 1's finds on the last this many tiles read at each place of an image (with
    ``tile``), and the classifier's reads of the index crops cut at each box, are answered again
    while their pixels hold still (``vision._still_memory``). 0 (the default) reads everything.
    ``tile_workers``: threads stage 1 reads an image's tiles on (with ``tile``); the finds are the same.
    ``stills``: the images are stills (photos, ``detect``), not the camera's zone crops: stage 1 is
    the stills' one (``DetectorFiles.det_still``, det 11: det 8, taught card backs and cards on
    random backgrounds too, then on real photographs) where ``models/`` has it. The camera's stage 1
    (det 6) reads its table better (models/HISTORY.md, the eighth session's change).
    """

    one_deck = True  # ``one_deck``: set per detector in __init__
    index_ink = True  # ``index_ink``: set per detector in __init__
    fine_rotations: tuple[float, ...] | None = None  # set per detector in __init__

    def __init__(
        self,
        files: DetectorFiles,
        *,
        conf: float = 0.3,
        iou: float = 0.5,
        threads: int = 1,
        cls_conf: float = _CLS_FLOOR,
        merge_distance: float = 9.0,
        upscale: float = 1.0,
        tile: bool = False,
        turned_views: bool = True,
        scales: Sequence[float] | None = None,
        rotations: Sequence[float] | None = None,
        fine_rotations: Sequence[float] | None = None,
        regrow_short: bool = True,
        second_look: float = 0.0,
        narrow_look: float = 0.6,
        body_look: float = _BODY_LOOK,
        pair_corners: bool = True,
        one_deck: bool = True,
        index_ink: bool = True,
        coarse_camera: bool = False,
        memory: int = 0,
        tile_workers: int = 1,
        stills: bool = False,
    ) -> None:
        files.check()
        import onnxruntime as ort

        one_blas_thread()  # numpy's BLAS would spin a thread per core (vision._blas)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        # stage 1's box branch runs only where an index or back scores over ``conf`` (same boxes)
        self.det_file = files.det_still if stills and files.det_still is not None else files.det
        self._det = SparseHead(self.det_file, opts)
        # a coarse camera's crops are enlarged more (a 720p view: about 0.8 px/mm on the felt, read at
        # 1.6): its own classifier, fine-tuned on such crops, reads them; the default one the rest
        self.cls_file = files.cls_coarse if coarse_camera and files.cls_coarse is not None else files.cls
        self._cls = ort.InferenceSession(str(self.cls_file), opts, providers=["CPUExecutionProvider"])
        self._det_in = self._det.input
        self._cls_in = self._cls.get_inputs()[0]
        self.imgsz = int(self._det_in.shape[2])
        # the share of the classifier's picture stage 1 looks at (its ONNX's "crop_scale"): a stage 1
        # trained on crops shrunk by half finds indices in a quarter of the pixels
        self.stage1_scale = _meta_float(self._det.meta, "crop_scale", 1.0)
        cshape = self._cls_in.shape
        self.cls_imgsz = int(cshape[2]) if isinstance(cshape[2], int) else _meta_imgsz(self._cls)
        self._cls_batch_fixed = isinstance(cshape[0], int)
        self._cls_names = _class_names(self._cls)
        self.conf, self.iou, self.cls_conf, self.merge_distance = conf, iou, cls_conf, merge_distance
        if upscale <= 0:
            raise ValueError(f"upscale must be > 0, but got {upscale}")
        self.upscale, self.tile = upscale, tile
        self.turned_views = turned_views
        self.regrow_short = regrow_short
        if not 0 <= second_look <= 1:
            raise ValueError(f"second_look must be within 0..1, but got {second_look}")
        self.second_look = second_look
        if not 0 <= narrow_look <= 1:
            raise ValueError(f"narrow_look must be within 0..1, but got {narrow_look}")
        self.narrow_look = narrow_look
        if not 0 <= body_look <= 1:
            raise ValueError(f"body_look must be within 0..1, but got {body_look}")
        self.body_look = body_look
        self.pair_corners = pair_corners
        self.one_deck = one_deck
        self.index_ink = index_ink
        self._body: BodyReader | None = None
        if files.body is not None and body_look > 0:
            self._body = BodyReader(files.body, threads)
        if scales is not None and (not len(scales) or min(scales) <= 0):
            raise ValueError(f"scales must be positive, but got {list(scales)}")
        self.scales = tuple(scales) if scales is not None else None
        self.rotations = tuple(float(r) for r in rotations) if rotations else None
        self.fine_rotations = (
            tuple(float(r) for r in fine_rotations) if fine_rotations and rotations else None
        )
        if memory < 0:
            raise ValueError(f"memory must be >= 0, but got {memory}")
        if tile_workers < 1:
            raise ValueError(f"tile_workers must be >= 1, but got {tile_workers}")
        self.tile_workers = tile_workers
        self._pool: Any = None
        self.tile_memory = StillMemory(memory, noise_tolerant=True) if memory else None
        # index crops: 32 px, so finer blocks; a box's place is its own, a few pictures there do
        self.index_memory = StillMemory(2, places=4096, block=4) if memory else None
        if self._body is not None and memory:
            self._body.memory = StillMemory(2, places=1024, block=4)

    def detect_raw(self, image: np.ndarray, card_px_per_mm: float | None = None) -> Detections:
        """Every index and back found, before the two indices of a card are merged.
        ``card_px_per_mm``: as ``detect_with_unread`` (the body look; not with scales or rotations).

        With ``scales`` (an image pyramid, for stills whose card size is unknown) the image is read
        at each scale (smallest first, none larger than its cards' indices can be read at:
        ``_read_scales``) and the scale whose faces carry the most confidence is kept (``_faces_first``;
        then all its finds'): a scale far from the trained card size finds fewer cards, and reads
        them with less confidence. (Pooling every scale's finds instead let each wrong scale add its
        misreads; counting backs with the faces let large cards read small, their edges boxed as
        backs, outweigh the scale that read them.)

        With ``rotations`` (degrees, for stills whose cards may lie at any angle) the image is also
        read turned by each: stage 1 boxes indices standing near upright or upside down only. A
        turned read keeps its backs and the index reads standing upright in it (``_TURN_UPRIGHT``)
        at ``_TURN_FLOOR`` or more, carried back to the image; the reads are pooled, overlapping
        finds keeping the surest. All the turns are read at one scale (``_read_turned``), the turns
        between (``fine_rotations``) at that scale alone.

        With ``scales`` a still's card backs are read as it lies, at a scale of their own, and kept
        where they look like card backs and, where the still is read upside down too, that read boxes
        them again (``_still_backs``)."""
        _check_image(image)
        if self.rotations:
            return self._read_turned(image, self.rotations, merge=False)
        return self._detect_scaled(image, card_px_per_mm)

    def _read_turned(self, image: np.ndarray, rotations: Sequence[float], *, merge: bool) -> Detections:
        """The image read turned by each of ``rotations``, pooled (``detect_raw``); with ``merge``
        a card's indices are joined in each turned read, where they stand upright (a deck with an
        index in all four corners spans more than a card's size once carried back at an angle).
        Every turn is read at one pyramid scale, the one whose finds over all the turns carry the most
        face confidence (``_faces_first``; of the scales ``_read_scales`` reads them at): a still's
        cards are of one size, whichever way they lie.
        ``fine_rotations`` (the turns between) are then read at that scale alone; where no turn read a
        face at any scale, at every scale, the scale chosen over them too."""

        def at_scales(degrees: Sequence[float]) -> list[tuple[np.ndarray, dict[int, Detections]]]:
            views = [turned(image, deg) if deg % 360 else (image, np.eye(2, 3)) for deg in degrees]
            reads = self._read_scales([shown for shown, _ in views], upright=True)
            return [(back, by_scale) for (_, back), by_scale in zip(views, reads, strict=True)]

        turns = at_scales(rotations)
        fine = self.fine_rotations or ()
        if fine and not any((f.class_id != BACK_CLASS).any() for _, t in turns for f in t.values()):
            # no face read at any scale: the cards may all lie between the turns, so those are read at
            # every scale too, and the scale chosen over all of them (of the scales all were read at)
            turns += at_scales(fine)
            fine = ()
        k = max(
            sorted(set.intersection(*(set(t) for _, t in turns))),  # ties: the first listed
            key=lambda k: _faces_first(Detections.merge([t[k] for _, t in turns])),
        )
        chosen = [(back, by_scale[k]) for back, by_scale in turns]
        scale = (self.scales or (self.upscale,))[k]
        for deg in fine:  # the turns between, at that scale alone
            shown, back = turned(image, deg)
            chosen.append((back, _upright_finds(self._detect_at(shown, scale)[0])))
        index_side = _index_side([found for _, found in chosen])
        reads = []
        for back, found in chosen:
            found = found[found.class_id != BACK_CLASS]  # backs: read as the still lies (below)
            if merge:
                found = merge_index_corners(found, self.merge_distance)
            xyxy = boxes_through(found.xyxy, back)
            np.clip(xyxy, 0, [image.shape[1], image.shape[0]] * 2, out=xyxy)  # the turned canvas is larger
            reads.append(Detections(xyxy, found.class_id, found.confidence))
        faces = _pooled(Detections.merge(reads))
        scales = self.scales or (self.upscale,)
        as_it_lies = next(
            (by_scale for deg, (_, by_scale) in zip(rotations, turns, strict=False) if deg % 360 == 0), None
        )
        if as_it_lies is None:
            as_it_lies = self._read_scales([image])[0]
        again = {  # the still read turned: its backs read again where the rule asks (_still_backs)
            deg % 360: (back, {scales[k]: f for k, f in by_scale.items()})
            for deg, (back, by_scale) in zip(rotations, turns, strict=False)
        }
        backs = _still_backs(image, [(scales[k], f) for k, f in as_it_lies.items()], faces, index_side, again)
        return Detections.merge([faces, backs])

    def _read_scales(
        self, images: Sequence[np.ndarray], *, upright: bool = False
    ) -> list[dict[int, Detections]]:
        """Each of ``images`` (a still, or its turns) read at ``scales`` (or at ``upscale`` alone), no
        body look: per image, its finds by the scale's place in ``scales`` (``_upright_finds`` of them
        with ``upright``). Smallest scale first, every image at each, and no larger scale once the
        surest scale read so far (``_faces_first`` over the images) shows its faces' indices so long
        that it would show them over ``_STILL_INDEX_MAX`` px."""
        scales = self.scales or (self.upscale,)
        reads: list[dict[int, Detections]] = [{} for _ in images]
        for k in sorted(range(len(scales)), key=lambda k: scales[k]):
            if reads[0]:
                best = max(reads[0], key=lambda j: _faces_first(Detections.merge([r[j] for r in reads])))
                side = _index_side([r[best] for r in reads])  # the still's pixels; 0 where no face
                if side * scales[k] > _STILL_INDEX_MAX:
                    break
            for r, im in zip(reads, images, strict=True):
                found = self._detect_at(im, scales[k])[0]
                r[k] = _upright_finds(found) if upright else found
        return reads

    def _detect_scaled(self, image: np.ndarray, card_px_per_mm: float | None = None) -> Detections:
        """``image`` read at ``upscale``, or at each of ``scales`` keeping the surest scale (where the
        card scale is not known: no body look)."""
        if self.scales is None:
            return self._detect_at(image, self.upscale, card_px_per_mm)[0]
        by_scale = self._read_scales([image])[0]
        found = max(by_scale.values(), key=_faces_first)
        faces = found[found.class_id != BACK_CLASS]
        backs = _still_backs(
            image, [(self.scales[k], f) for k, f in by_scale.items()], faces, _index_side([faces])
        )
        return Detections.merge([faces, backs])

    @property
    def reads_card_bodies(self) -> bool:
        """Whether ``detect_with_unread`` looks at the card body of a doubtful index (``body_look``)."""
        return self._body is not None

    @property
    def reads_whole_cards(self) -> bool:
        """Whether ``detect_with_guesses`` takes ``whole_cards`` (the suit of every pip face read by its
        body, where the cards lie whole: the i-Verify display)."""
        return self._body is not None

    def detect_with_unread(
        self, image: np.ndarray, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray]:
        """``detect``, and the boxes (xyxy, N x 4) of the indices found whose face was not read: stage 1
        boxed an index (score >= ``_UNREAD_MIN_BOX``), and the classifier's surest class is a face, but
        below ``cls_conf``, or the narrow look's two cuts name two faces (contested). A card lies
        there, of a face not known (``TableState.unread_faces``). None with ``scales`` (stills: no
        such count is wanted). ``card_px_per_mm``: the scale the image shows real cards at, for the
        body look (``body_look``); None: no body look."""
        found, unread, _, _ = self.detect_with_guesses(image, card_px_per_mm)
        return found, unread

    def detect_with_rivals(
        self, image: np.ndarray, card_px_per_mm: float | None = None
    ) -> tuple[Detections, np.ndarray, Detections]:
        """``detect_with_unread``, and for each unread index the two cuts of the narrow look left
        contested, its two faces (``_rival_reads``): which one it is the cards the table already shows
        may tell (one deck holds each face once; ``vision.pipeline._name_by_count``)."""
        found, unread, rivals, _ = self.detect_with_guesses(image, card_px_per_mm)
        return found, unread, rivals

    def detect_with_guesses(
        self, image: np.ndarray, card_px_per_mm: float | None = None, whole_cards: bool = False
    ) -> tuple[Detections, np.ndarray, Detections, Detections]:
        """``detect_with_rivals``, and each face index's two likeliest faces by its final read
        (``_index_guesses``), for every index named or left unread: what one read under the floor
        may be, for the count (``vision.pipeline._name_by_count``). ``whole_cards``: the image shows
        its cards whole, side by side, none over another (the i-Verify display), so every pip face's
        suit is weighed by its body too, however sure its index (``_suit_by_pips``)."""
        if self.scales is not None or self.rotations:
            return self.detect(image), np.zeros((0, 4), np.float32), Detections.empty(), Detections.empty()
        _check_image(image)
        found, unread, rivals, guesses = self._detect_at(image, self.upscale, card_px_per_mm, whole_cards)
        merged = merge_index_corners(found, self.merge_distance, unread, card_px_per_mm)
        return merged, unread, rivals, guesses

    def _detect_at(
        self, image: np.ndarray, scale: float, card_px_per_mm: float | None = None, whole_cards: bool = False
    ) -> tuple[Detections, np.ndarray, Detections, Detections]:
        import cv2

        shown = image
        if scale != 1.0:
            interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
            shown = cv2.resize(image, None, fx=scale, fy=scale, interpolation=interp)
        looked = shown
        if self.stage1_scale != 1.0:  # stage 1 finds indices in a smaller picture, read in this one
            h, w = shown.shape[:2]
            size = (max(1, round(w * self.stage1_scale)), max(1, round(h * self.stage1_scale)))
            looked = cv2.resize(shown, size, interpolation=cv2.INTER_AREA)
        if self.tile and max(looked.shape[:2]) > self.imgsz:
            xyxy, cls, score = self._stage1_tiled(looked)
        else:
            xyxy, cls, score = self._stage1(looked)
        if looked is not shown:
            xyxy = xyxy * np.array(
                [shown.shape[1] / looked.shape[1], shown.shape[0] / looked.shape[0]] * 2, np.float32
            )
        body_px = card_px_per_mm * scale if card_px_per_mm else None
        found, unread, rivals, guesses = self._read_indices(shown, xyxy, cls, score, body_px, whole_cards)
        if scale != 1.0:
            found, rivals, guesses = (
                Detections(d.xyxy / scale, d.class_id, d.confidence) for d in (found, rivals, guesses)
            )
            unread = unread / scale
        return found, unread, rivals, guesses

    def _stage1(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Stage 1 on the whole image, letterboxed to the model's input size."""
        import cv2

        lb, s, pad = _letterbox(image, self.imgsz)
        x = (
            np.ascontiguousarray(cv2.cvtColor(lb, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None], np.float32)
            / 255.0
        )
        raw = self._det.run(x, self.conf)
        return decode_yolo(raw, self.conf, self.iou, s, pad, image.shape[:2])

    def _stage1_tiled(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Stage 1 on overlapping model-sized tiles, so small indices are not shrunk further.

        A zone crop at the camera's resolution shows an index ~9 px tall; letterboxing a whole
        zone down to the model's input would halve that. Tiles overlap by a quarter so an index cut
        by one tile's edge lies whole in the next; duplicates are removed per class by NMS.
        """
        size = self.imgsz
        origins = tile_origins(image.shape[1], image.shape[0], size)
        tiles = [image[y : y + size, x : x + size] for x, y in origins]
        finds: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] = [None] * len(tiles)
        if self.tile_memory is None:
            finds = list(self._stage1_many(tiles))
        else:
            # an index is 6 blocks or more at the scale det 6 reads; a stage 1 reading a shrunk crop
            # sees it in fewer, so it tolerates none
            loose = _TILE_LOOSE if self.stage1_scale >= 1.0 else 0
            # a tile the memory cannot answer is read on a worker at once, while the next tiles are
            # asked about: the same finds, remembered in the same order, as asking about all first
            pool = self._workers() if self.tile_workers >= 2 and len(tiles) >= 2 else None
            pending: dict[int, Any] = {}
            for i, ((x, y), t) in enumerate(zip(origins, tiles, strict=True)):
                finds[i] = self.tile_memory.recall((image.shape, x, y), t, loose=loose, boxes=_boxes_of)
                if finds[i] is None and pool is not None:
                    pending[i] = pool.submit(self._stage1, t)
            todo = [i for i, f in enumerate(finds) if f is None]
            for i, found in zip(todo, self._stage1_results(tiles, todo, pending), strict=True):
                finds[i] = found
                x, y = origins[i]
                self.tile_memory.keep((image.shape, x, y), tiles[i], found)
        boxes, classes, scores = [], [], []
        for (x, y), got in zip(origins, finds, strict=True):
            assert got is not None
            b, c, sc = got
            boxes.append(b + np.array([x, y, x, y], np.float32))
            classes.append(c)
            scores.append(sc)
        xyxy, cls, score = np.concatenate(boxes), np.concatenate(classes), np.concatenate(scores)
        keep = (
            np.concatenate(
                [
                    np.flatnonzero(cls == k)[nms(xyxy[cls == k], score[cls == k], self.iou)]
                    for k in np.unique(cls)
                ]
            )
            if len(cls)
            else np.zeros(0, np.int64)
        )
        return xyxy[keep], cls[keep], score[keep]

    def _stage1_results(
        self, tiles: list[np.ndarray], todo: list[int], pending: dict[int, Any]
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Stage 1's finds on ``tiles[i]`` for each ``i`` of ``todo``: a worker's (``pending[i]``, a
        future) where one was set to it, else read here."""
        return [pending[i].result() if i in pending else self._stage1(tiles[i]) for i in todo]

    def _stage1_many(self, tiles: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Stage 1 on each tile, on ``tile_workers`` threads when there are several (onnxruntime lets go
        of the GIL while it runs, and one session may run on several threads at once): the same finds,
        in the same order, as one after another."""
        return self._on_workers(self._stage1, tiles)

    def _on_workers(self, fn: Any, items: list[Any]) -> list[Any]:
        """``[fn(x) for x in items]``, on ``tile_workers`` threads when there are several items."""
        if self.tile_workers < 2 or len(items) < 2:
            return [fn(x) for x in items]
        return list(self._workers().map(fn, items))

    def _workers(self) -> Any:
        """The ``tile_workers`` threads (made at first use, and again in a forked process, which has
        not its parent's threads)."""
        if self._pool is None or self._pool[0] != os.getpid():
            from concurrent.futures import ThreadPoolExecutor

            self._pool = (os.getpid(), ThreadPoolExecutor(self.tile_workers, thread_name_prefix="detector"))
        return self._pool[1]

    def _read_indices(
        self,
        image: np.ndarray,
        xyxy: np.ndarray,
        cls: np.ndarray,
        score: np.ndarray,
        body_px_per_mm: float | None = None,
        whole_cards: bool = False,
    ) -> tuple[Detections, np.ndarray, Detections, Detections]:
        """Stage 2: read every index box found by stage 1; backs pass through. Also the boxes of the
        indices not read (``detect_with_unread``), the two faces of each of them the narrow look
        left contested (``_rival_reads``), and each face index's two likeliest faces
        (``_index_guesses``). ``body_px_per_mm``: the image's card scale, for the body look;
        ``whole_cards``: the cards lie whole (``detect_with_guesses``), their pips weigh every pip
        face's suit."""

        backs = Detections(
            xyxy[cls == _DET_BACK],
            np.full(int((cls == _DET_BACK).sum()), BACK_CLASS),
            score[cls == _DET_BACK],
        )
        idx = cls == _DET_INDEX
        if not idx.any():
            return backs, np.zeros((0, 4), np.float32), Detections.empty(), Detections.empty()
        boxes, det_conf = xyxy[idx], score[idx]
        inside = _contained(boxes)
        boxes, det_conf = boxes[~inside], det_conf[~inside]
        views, owner = [*boxes], list(range(len(boxes)))
        if self.regrow_short:
            for i, grown in _regrown(boxes):
                views.append(grown)
                owner.append(i)
        probs = self._class_probs(image, views)
        if len(views) > len(boxes):  # each box keeps its surest view (an index read as an index)
            best = probs[: len(boxes)].copy()
            for j in range(len(boxes), len(views)):
                i = owner[j]
                if probs[j, :_NOT_INDEX].max() > best[i, :_NOT_INDEX].max():
                    best[i] = probs[j]
            probs = best
        doubt = np.flatnonzero(probs.max(1) < self.second_look)
        if len(doubt):  # a second look: the doubtful indices cut tighter and looser, all views averaged
            again = [self._class_probs(image, [boxes[i] for i in doubt], m) for m in _SECOND_LOOK_MARGINS]
            probs[doubt] = np.mean([probs[doubt], *again], axis=0)
        contested = np.zeros(len(boxes), bool)
        narrow_top = np.full(len(boxes), -1)
        narrow_p = np.zeros(len(boxes), np.float32)  # the narrow cut's probability of its face
        doubt = np.flatnonzero(probs.max(1) < self.narrow_look)
        if len(doubt):  # a condensed font reads as an ordinary one when its crop is cut narrower
            narrow = self._class_probs(image, [boxes[i] for i in doubt], narrow=_NARROW_VIEW)
            narrow_top[doubt] = narrow.argmax(1)
            narrow_p[doubt] = narrow.max(1)
            probs[doubt], contested[doubt] = _narrow_look_reads(
                probs[doubt], narrow, self._cls_names, self.cls_conf
            )
        weighed = np.zeros(len(boxes), bool)
        pairs = corner_pairs(boxes, body_px_per_mm) if body_px_per_mm and self.pair_corners else []
        if self._body is not None and body_px_per_mm:
            look = probs.max(1) < self.body_look
            # the card body is cut below a top-left index; a bottom-right index paired with one is
            # weighed by that card's body (below itself lie felt or the next card)
            window = np.arange(len(boxes))
            for i, j in pairs:
                tl, br = (i, j) if boxes[i][0] <= boxes[j][0] else (j, i)
                window[br] = tl
                if probs[i].argmax() != probs[j].argmax():  # corners naming different faces: a look
                    look[tl] = True
            doubt = np.flatnonzero(look)
            before = probs.argmax(1)
            if len(doubt):  # the card body below a doubtful index: its pips or its picture
                self._weigh_by_body(
                    image, boxes, window[doubt], doubt, probs, narrow_top, contested, body_px_per_mm
                )
                weighed[doubt] = True
            # a corner whose card's other corner the body now reads as another face is weighed by that
            # body too (b41-0000: a bellot 3s's top-left read Js 0.56, the body made it 3s; its
            # bottom-right, read Js 0.79 and never weighed, joined the real Js beside it)
            more = np.array(
                [
                    k
                    for i, j in pairs
                    for k, o in ((i, j), (j, i))
                    if weighed[o] and not weighed[k] and before[k] == before[o] != probs[o].argmax()
                ],
                np.int64,
            )
            if len(more):
                self._weigh_by_body(
                    image, boxes, window[more], more, probs, narrow_top, contested, body_px_per_mm
                )
                weighed[more] = True
            if whole_cards:
                self._suit_by_pips(image, boxes, window, probs, weighed, body_px_per_mm)
        cap = np.ones(len(boxes), np.float32)
        joined: list[list[int]] = []  # the corners read as one card
        others = other_corners(boxes, pairs) if pairs else {}
        if body_px_per_mm and self.pair_corners:  # a four-corner deck's spread: each card's left edge
            taken = {k for pair in pairs for k in pair} | {k for more in others.values() for k in more}
            pairs = pairs + edge_pairs(boxes, body_px_per_mm, taken)
        if pairs:
            probs, cap, joined = self._pair_corners(probs, weighed, contested, narrow_top, pairs, others)
        near = spread_neighbours(boxes, body_px_per_mm) if body_px_per_mm and self.one_deck else []
        if near:  # two cards of a spread read as one face: one deck holds one of each
            partner = {k: [m for m in card if m != k] for card in joined for k in card}
            probs = _one_of_each(probs, self._cls_names, near, partner)
            contested &= ~_taken_by_neighbour(probs, narrow_top, contested, near, self.body_look)
        ink = np.ones(probs.shape, np.float32)
        if body_px_per_mm and self.index_ink:
            probs, cap, ink = _weigh_by_index_ink(image, boxes, probs, cap, self._cls_names)
        top = probs.argmax(1)
        card = self._cls_names[top]
        p = probs[np.arange(len(top)), top]
        # the body tells a rank, not a suit, and its held-out reads are surer than right: it may change
        # which card a doubtful read names, never make the read sure (a finding resting on it is a
        # review item, not an alert)
        p = np.minimum(np.where(weighed, np.minimum(p, self.body_look), p), cap)
        keep = (card != _NOT_INDEX) & (p >= self.cls_conf) & ~contested
        faces = Detections(boxes[keep], card[keep], (det_conf * p)[keep])
        weak = ((card != _NOT_INDEX) & (p < self.cls_conf)) | contested
        unread = weak & (det_conf >= _UNREAD_MIN_BOX)
        narrow_card = self._cls_names[np.maximum(narrow_top, 0)]
        rivals = _rival_reads(boxes, det_conf, card, p, narrow_card, narrow_p, contested & unread)
        # a face the index's own ink rules out is no guess (its read is as it was: ``_weigh_by_index_ink``)
        guesses = _index_guesses(boxes, det_conf, probs * ink, self._cls_names, keep | unread)
        return (
            Detections.merge([faces, backs]),
            boxes[unread].astype(np.float32).reshape(-1, 4),
            rivals,
            guesses,
        )

    def _weigh_by_body(
        self,
        image: np.ndarray,
        boxes: np.ndarray,
        cut_below: np.ndarray,
        doubt: np.ndarray,
        probs: np.ndarray,
        narrow_top: np.ndarray,
        contested: np.ndarray,
        body_px_per_mm: float,
    ) -> None:
        """The card body below each doubtful index (``doubt``; the body cut below the index
        ``cut_below`` names, the card's top-left one) read and fused with the index's read, in
        ``probs``; ``contested`` updated in place. The two cuts of the index disagreed: the body's
        read settles it where it names the narrow cut's face, where the cuts disagree on the rank and
        the body reads the rank surely (``_BODY_SETTLES``), or on spade against club and the body is
        sure of it."""
        assert self._body is not None
        cards = [boxes[i] for i in cut_below]
        body = self._body.probs(image, cards, boxes, body_px_per_mm)
        colours = ink_colours(image, cards, boxes, body_px_per_mm)
        probs[doubt] = fuse(probs[doubt], body, self._cls_names, colours)
        contested[doubt] &= ~_body_settles(probs[doubt], narrow_top[doubt], body, self._cls_names)

    def _suit_by_pips(
        self,
        image: np.ndarray,
        boxes: np.ndarray,
        cut_below: np.ndarray,
        probs: np.ndarray,
        weighed: np.ndarray,
        body_px_per_mm: float,
    ) -> None:
        """Every index read as a pip face, however surely, weighed in ``probs`` by the suit its card's
        body shows (``vision.card_body.pip_suit_weights``; the body cut below the index ``cut_below``
        names, the card's top-left one), where the cards lie whole (the i-Verify display). Its index
        there is a few pixels and its pips large: seed 81's display 2h read 2d (0.54), seed 100's 3h
        read 3d (0.77) and Ad read Ah (0.50), each beside a body sure of the truth (0.89-0.94). A read
        the body turns to the other suit is marked ``weighed``: named no surer than ``body_look``."""
        assert self._body is not None
        faces = self._cls_names[probs.argmax(1)]
        rows = np.flatnonzero(PIP_FACES[faces])  # a court's body tells no suit (``pip_suit_weights``)
        if not len(rows):
            return
        cuts, each = np.unique(cut_below[rows], return_inverse=True)  # a card's corners share its body
        body = self._body.probs(image, [boxes[i] for i in cuts], boxes, body_px_per_mm)[each.reshape(-1)]
        w = pip_suit_weights(body, faces[rows])[:, self._cls_names]
        if (w == 1).all():
            return
        fused = probs[rows] * w
        fused /= np.maximum(fused.sum(axis=1, keepdims=True), 1e-12)
        weighed[rows[fused.argmax(1) != probs[rows].argmax(1)]] = True
        probs[rows] = fused

    def _pair_corners(
        self,
        probs: np.ndarray,
        weighed: np.ndarray,
        contested: np.ndarray,
        narrow_top: np.ndarray,
        pairs: list[tuple[int, int]],
        others: dict[tuple[int, int], list[int]] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
        """Both indices of one card read as one (``pair_corners``): the two reads' class probabilities
        multiplied and renormalised, for each of the two boxes. Returns the probabilities and each
        box's cap on its read, and the corners read as one card, a list each; ``weighed`` and
        ``contested`` are updated in place for the pairs. ``others``: a pair's card's other corner
        indices (``other_corners``: a deck printing all four), which take the pair's read. They are
        not multiplied in: dondorf's top-right and bottom-left indices read its spades as clubs where
        the pair read them right (the i-Verify display's 2s, As and Js, seeds 41 and 45: three corners
        of four reading the club, so the product named it).

        The two corners are read apart, from different pixels, but in the same font and blur, so their
        errors are not independent: the pair is named no surer than its surer corner alone, or than
        ``body_look`` (a pair of doubtful corners that agree may be named, as a review item's read, not
        an alert's). A corner the body look weighed counts at most ``body_look`` towards that. A pair
        whose surest class is "not an index" at either corner is left as it was, and so is a pair whose
        class is not among the two likeliest of each corner (some decks' bottom-right 3 reads as a spread
        of other ranks, 3s at a few percent: its product would sink the top-left corner's sure 3s).
        A pair with a contested corner (the narrow look's two cuts disagreed) whose narrow cut names
        another class than the pair is left unnamed, unless a corner backs the pair's class: read so
        (uncontested), or so by its narrow cut (contested). Two contested corners whose narrow cuts
        name two different classes are no one objection, and the pair is named (b41-0009: the
        display's simplistic 6d, both corners 6d by the usual cut and the body, 6h and 5d by the
        narrow cuts, was left unread). ``pairs``: ``corner_pairs``' answer, and ``edge_pairs``'."""
        probs = probs.copy()
        cap = np.ones(len(probs), np.float32)
        sure = probs.max(1)
        own = np.where(weighed, np.minimum(sure, self.body_look), sure)
        cards: list[list[int]] = []
        for i, j in pairs:
            read = self._corners_read(probs, [i, j])
            if read is None:
                continue
            joint, top = read
            objects = [k for k in (i, j) if contested[k] and narrow_top[k] != top]
            supports = [k for k in (i, j) if (narrow_top[k] if contested[k] else probs[k].argmax()) == top]
            still = len({int(narrow_top[k]) for k in objects}) == 1 and not supports
            members = [i, j, *(others or {}).get((i, j), [])]
            for k in members:
                probs[k] = joint
                cap[k] = max(float(own[i]), float(own[j]), self.body_look)
                weighed[k] = False
                contested[k] = still
            cards.append(members)
        return probs, cap, cards

    def _corners_read(self, probs: np.ndarray, members: list[int]) -> tuple[np.ndarray, int] | None:
        """One card's corner reads (rows of ``probs``) as one: their product renormalised and its
        surest class; None where a corner's surest class is "not an index" or the class is not among
        a corner's two likeliest (``_pair_corners``)."""
        if any(self._cls_names[probs[k].argmax()] == _NOT_INDEX for k in members):
            return None
        joint = np.prod(probs[members], axis=0)
        total = float(joint.sum())
        if total <= 0.0:
            return None
        joint = joint / total
        top = int(joint.argmax())
        if not all(top in np.argsort(-probs[k])[:2] for k in members):
            return None  # a corner that does not hold the card's class among its two likeliest
        return joint, top

    def _class_probs(
        self,
        image: np.ndarray,
        boxes: Sequence[np.ndarray],
        margin: float = _CROP_MARGIN,
        narrow: float = 1.0,
    ) -> np.ndarray:
        """Class probabilities of the index in each box, cut square with ``margin`` around it (and
        averaged with the crop turned 180 degrees when ``turned_views``). ``narrow`` < 1 keeps only
        that middle share of the square across the box's shorter side (stretched back to a square)."""
        import cv2

        crops, places = [], []
        for b in boxes:
            c = crop_square(image, b, _CLS_CROP, margin)
            if narrow < 1.0:
                c = _narrowed(c, narrow, across_x=(b[2] - b[0]) <= (b[3] - b[1]))
            crops.append(cv2.resize(c, (self.cls_imgsz, self.cls_imgsz), interpolation=cv2.INTER_LINEAR))
            places.append((margin, narrow, *np.round(b).astype(int).tolist()))

        def read(todo: list[int]) -> np.ndarray:
            rgb = [cv2.cvtColor(crops[i], cv2.COLOR_BGR2RGB).transpose(2, 0, 1) for i in todo]
            batch = np.ascontiguousarray(np.stack(rgb), np.float32) / 255.0
            if not self.turned_views:
                return self._classify(batch)
            # and the same crops turned 180 degrees (an index reads either way up), the two batches at
            # once where there are two workers
            upright, turned = self._on_workers(
                self._classify, [batch, np.ascontiguousarray(batch[:, :, ::-1, ::-1])]
            )
            probs: np.ndarray = (upright + turned) / 2
            return probs

        return read_through(self.index_memory, places, crops, read)

    def _classify(self, batch: np.ndarray) -> np.ndarray:
        """Class probabilities of a float NCHW batch of index crops."""
        if self._cls_batch_fixed:
            probs = np.concatenate([self._cls.run(None, {self._cls_in.name: b[None]})[0] for b in batch])
        else:
            probs = self._cls.run(None, {self._cls_in.name: batch})[0]
        probs = np.asarray(probs, np.float32)
        if not np.allclose(probs.sum(1), 1.0, atol=1e-2):
            e = np.exp(probs - probs.max(1, keepdims=True))
            probs = e / e.sum(1, keepdims=True)
        return probs

    def detect(self, image: np.ndarray) -> Detections:
        """One detection per card (``detect_raw``, a card's indices merged)."""
        if self.rotations:
            _check_image(image)
            found = self._read_turned(image, self.rotations, merge=True)
        else:
            found = self.detect_raw(image)
        return merge_index_corners(found, self.merge_distance)

    def read_still(
        self,
        image: np.ndarray,
        *,
        scales: Sequence[float] | None = None,
        white_balance: bool = True,
        raw: bool = False,
    ) -> Detections:
        """A still read as ``paigow-monitor detect`` reads one: its colour cast taken out first
        (``white_balanced``, unless ``white_balance`` is off), at ``scales`` or its own pyramid
        (``pyramid_scales``: its card size is unknown), every card (``detect``) or every index found
        (``raw``: ``detect_raw``). The one reading of a still that ``detect``, ``eval-photos`` and
        ``benchmarks/photo_stills.py`` share."""
        _check_image(image)
        if white_balance:
            image = white_balanced(image)
        self.scales = tuple(scales or pyramid_scales(image.shape[1], image.shape[0], self.imgsz))
        return self.detect_raw(image) if raw else self.detect(image)


def _meta_float(meta: dict[str, str], key: str, default: float) -> float:
    """A positive number from an ONNX model's metadata, or ``default`` when it has none."""
    raw = meta.get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"model metadata {key!r} must be a number, but got {raw!r}") from None
    if not value > 0:
        raise ValueError(f"model metadata {key!r} must be > 0, but got {raw!r}")
    return value


def _meta_imgsz(session: Any) -> int:
    """The input size ultralytics recorded in the model's metadata (``imgsz: [32, 32]``)."""
    import ast

    raw = session.get_modelmeta().custom_metadata_map.get("imgsz")
    if not raw:
        raise ValueError("classifier ONNX has a dynamic input size and no 'imgsz' metadata")
    size = ast.literal_eval(raw)
    return int(size[0] if isinstance(size, list | tuple) else size)


def _class_names(session: Any) -> np.ndarray:
    """Map the classifier's output columns to card classes (its folder names are c00..c53)."""
    meta = session.get_modelmeta().custom_metadata_map
    names_raw = meta.get("names")
    n = int(session.get_outputs()[0].shape[1])
    if names_raw:
        import ast

        names = ast.literal_eval(names_raw)
        return np.array([int(str(names[i]).lstrip("c")) for i in range(n)], np.int64)
    return np.arange(n, dtype=np.int64)


def load_detector(models_dir: Path | None = None, **kwargs: Any) -> OnnxCardDetector:
    """The shipped detector from ``models_dir`` (default: the repository's ``models/``)."""
    return OnnxCardDetector(DetectorFiles.in_dir(models_dir or DEFAULT_MODELS_DIR), **kwargs)


def model_info(models_dir: Path | None = None) -> dict[str, Any]:
    """The recorded training recipe, if present (``models/detector_recipe.json``)."""
    p = (models_dir or DEFAULT_MODELS_DIR) / "detector_recipe.json"
    return dict(json.loads(p.read_text())) if p.exists() else {}
