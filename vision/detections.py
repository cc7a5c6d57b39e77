"""One frame's (or one crop's) detections: the object every vision stage passes along.

Parallel arrays, in the manner of ``supervision.Detections``: boxes ``xyxy`` (N, 4) in pixels of
the image they were found in, ``class_id`` (N,), ``confidence`` (N,). Class ids index ``CLASSES``:
the 52 faces in card-code order (``rules.cards``), then the Joker (52), then a card back (53).
Filter with a boolean mask: ``dets[dets.confidence > 0.5]``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from rules.cards import DECK
from vision.state import BACK

__all__ = ["BACK_CLASS", "CLASSES", "JOKER_CLASS", "CardDetector", "Detections"]

CLASSES: tuple[str, ...] = (*(str(c) for c in DECK), BACK)  # 0..51 faces, 52 "Jk", 53 "BACK"
JOKER_CLASS = 52
BACK_CLASS = 53


def union_box(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest xyxy box holding boxes ``a`` and ``b`` (float32)."""
    return np.concatenate([np.minimum(a[:2], b[:2]), np.maximum(a[2:], b[2:])]).astype(np.float32)


def intersection_area(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area xyxy ``box`` shares with each of the xyxy ``boxes`` (0 where they do not meet)."""
    ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    return np.asarray(ix * iy)


_CORNERS = {"tl": (0, 1), "tr": (2, 1), "bl": (0, 3), "br": (2, 3)}


def centres_between(
    a: np.ndarray, b: np.ndarray, centres: np.ndarray, reach: float = 0.0, corners: Sequence[str] = ()
) -> np.ndarray:
    """Which of the points ``centres`` (N x 2) lie strictly inside the union of boxes ``a`` and ``b``
    (xyxy) and further than ``reach`` from each of its ``corners`` ("tl", "tr", "bl", "br"): the
    one test behind ``card_between`` and the detector's corner pairs, which exempt a card's own
    other corners by naming them."""
    u = union_box(np.asarray(a, np.float64), np.asarray(b, np.float64)).astype(np.float64)
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    inside: np.ndarray = (c[:, 0] > u[0]) & (c[:, 0] < u[2]) & (c[:, 1] > u[1]) & (c[:, 1] < u[3])
    for corner in corners:
        ix, iy = _CORNERS[corner]
        inside &= np.hypot(c[:, 0] - u[ix], c[:, 1] - u[iy]) > reach
    return inside


def box_centres(boxes: np.ndarray) -> np.ndarray:
    """The centres (N x 2, float64) of xyxy ``boxes``."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    return (b[:, :2] + b[:, 2:]) / 2


def card_between(a: np.ndarray, b: np.ndarray, others: np.ndarray) -> bool:
    """Whether another card's index lies between ``a`` and ``b``, two boxes (xyxy) read as one face:
    the centre of one of ``others`` (N x 4: other cards' index or card boxes) strictly inside their
    union. A card's own indices enclose nothing else, so two such boxes are two cards: in a spread the
    cards between two of one face show their indices between them. Where the union spans both ways
    (more than twice the smaller box's longer side each way: a card's corner to corner, not a row or
    column of indices), centres within that side of the union's corners do not count: a deck
    printing all four corners has the card's own other two indices there, and one may be read as
    another face (dondorf's spades as clubs)."""
    if not len(others):
        return False
    u = union_box(a, b)
    reach = min(float(max(a[2] - a[0], a[3] - a[1])), float(max(b[2] - b[0], b[3] - b[1])))
    corner_to_corner = min(float(u[2] - u[0]), float(u[3] - u[1])) > 2 * reach
    corners = tuple(_CORNERS) if corner_to_corner else ()
    return bool(centres_between(a, b, box_centres(others), reach, corners).any())


@dataclass
class Detections:
    xyxy: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    class_id: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))
    confidence: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))

    def __post_init__(self) -> None:
        self.xyxy = (
            np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
            if np.size(self.xyxy)
            else (np.zeros((0, 4), np.float32))
        )
        self.class_id = np.asarray(self.class_id, dtype=np.int64).reshape(-1)
        self.confidence = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        n = len(self.xyxy)
        if self.class_id.shape != (n,) or self.confidence.shape != (n,):
            raise ValueError(
                f"xyxy has {n} rows but class_id has shape {self.class_id.shape} and confidence "
                f"{self.confidence.shape}; all must have {n} entries"
            )
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(CLASSES)):
            raise ValueError(f"class_id must be in 0..{len(CLASSES) - 1}, but got {self.class_id.tolist()}")

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: np.ndarray | slice | int) -> Detections:
        if isinstance(index, int):
            index = slice(index, index + 1)
        return Detections(self.xyxy[index], self.class_id[index], self.confidence[index])

    def __iter__(self) -> Iterator[tuple[np.ndarray, int, float]]:
        for i in range(len(self)):
            yield self.xyxy[i], int(self.class_id[i]), float(self.confidence[i])

    @property
    def labels(self) -> list[str]:
        return [CLASSES[i] for i in self.class_id.tolist()]

    @property
    def centers(self) -> np.ndarray:
        return np.stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2, (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2], 1)

    @classmethod
    def empty(cls) -> Detections:
        return cls()

    @classmethod
    def merge(cls, parts: list[Detections]) -> Detections:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls()
        return cls(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate([p.confidence for p in parts]),
        )


class CardDetector(Protocol):
    """Anything that finds cards in a BGR image (the trained model, or a fake in tests)."""

    def detect(self, image: np.ndarray) -> Detections: ...
