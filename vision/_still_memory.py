"""What the detector found on pixels it read before, answered again while those pixels hold still.

The camera pipeline reads a zone's crop when something in the zone changed and settled: a card
dealt, a hand set down. Most of the crop is then as it was at the last read (measured on a 720p
round: 605 of 992 of stage 1's 256-px tiles). Two memories use this:

- stage 1's finds per tile (where indices and backs lie; never which card);
- the classifier's read of an index crop, per box, and the body model's of a card's body window: the
  picture a model would see, cut at the same place, with the same pixels, reads the same
  (``read_through``).

"Still" is strict and local: every ``block`` x ``block`` block's mean difference, in each colour
channel, under ``still`` grey levels. A card's index appearing, going or turning changes a block by
tens of levels; a compressed video's noise by 1-3. What is kept is the picture that was read, not the
latest that matched it, so a slow drift adds up until it is read again.

A noisy camera (``noise_tolerant``, stage 1's tiles only) moves every block's mean difference past
``still``: sensor noise differs from frame to frame at every pixel (the sample with per-frame noise
added, ``benchmarks/camera_conditions.py``: a still tile's blocks differ by 8 levels at the median,
and no tile was ever answered). Noise is no change where it averages out within a block: the
blocks' *signed* mean differences stay small (2 levels at the median) while their mean absolute
differences do not (8). Where the pair looks so (mean absolute difference of 3 levels or more at the
median, the signed one at most 0.4 of it, and a quarter of the blocks' means moved by a level or
more), the blocks are held to the signed mean difference, at nine times its median (six noise
deviations; at most 36 levels, a heavier noise is read again): an index appearing, going or
turning moves a block's mean by tens of levels, and a light or a card moving over most of the tile
moves the signed means as much as the absolute ones, so it is never taken for noise. Stage 1 says
only where indices and backs lie (which card is read by the classifier, whose memory stays strict),
so a tile answered so can cost no more than a box a pixel or two off.

A caller that knows where its finds lie may tolerate a few changed blocks away from them
(``recall(..., loose=n, boxes=...)``): stage 1 says where indices lie, and an index appearing, going,
moving or turning changes more blocks than that (one at least 17 x 28 px at the scale it is read:
6 blocks and more), while a tile's change of 1-3 blocks clear of every box found on it is a shadow's
edge or a chip's, a card's corner at the tile's edge (the 720p benchmark round: 46 of the 400 tiles
read again were such, every one read again to the same finds).

Kept by place (for a tile, the image's size and the tile's origin; for an index, its box and cut):
the seats' crops share a size, so a place keeps the last ``per_place`` pictures read there, most
recently used first, and a picture is matched by its pixels, never by which zone it came from. At
most ``places`` places are kept (the least recently used forgotten), so a long live session's memory
stays bounded.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import cv2
import numpy as np

_NONE = np.zeros((0, 0), bool)  # no grid of changed blocks (none counted)
# the highest level a noisy pair's blocks are held to (nine times a median signed difference of 4)
_NOISE_LEVEL_MAX = 36.0


class StillMemory:
    """The last ``per_place`` pictures read at each of up to ``places`` places, with what was found."""

    def __init__(
        self,
        per_place: int = 8,
        *,
        places: int = 256,
        block: int = 8,
        still: float = 6.0,
        noise_tolerant: bool = False,
    ) -> None:
        if per_place < 1:
            raise ValueError(f"per_place must be >= 1, but got {per_place}")
        if places < 1:
            raise ValueError(f"places must be >= 1, but got {places}")
        if block < 1:
            raise ValueError(f"block must be >= 1, but got {block}")
        if still <= 0:
            raise ValueError(f"still must be > 0, but got {still}")
        self.per_place, self.places, self.block, self.still = per_place, places, block, still
        self.noise_tolerant = noise_tolerant
        self._kept: OrderedDict[Hashable, list[tuple[np.ndarray, np.ndarray, Any]]] = OrderedDict()
        self.asked = self.answered = 0
        self.answered_loose = 0  # of ``answered``: with a few changed blocks clear of the finds
        self.answered_noisy = 0  # of ``answered``: a noisy pair held to its blocks' signed means

    def _blocks(self, img: np.ndarray) -> np.ndarray:
        h, w = img.shape[:2]
        size = (max(w // self.block, 1), max(h // self.block, 1))
        return cv2.resize(img, size, interpolation=cv2.INTER_AREA)

    def recall(
        self,
        place: Hashable,
        picture: np.ndarray,
        *,
        loose: int = 0,
        boxes: Callable[[Any], np.ndarray] | None = None,
    ) -> Any | None:
        """What was found on a picture read at ``place`` that ``picture`` still shows; None if none.
        With ``loose`` > 0 and ``boxes`` (the boxes, xyxy in the picture's pixels, of what was found),
        a picture with up to ``loose`` changed blocks, none of them touching a box's blocks or their
        neighbours, still shows it."""
        self.asked += 1
        kept = self._kept.get(place)
        if not kept:
            return None
        self._kept.move_to_end(place)
        thumb = self._blocks(picture).astype(np.float32)
        for i, (old, old_thumb, found) in enumerate(kept):
            if old.shape != picture.shape:
                continue
            # a block's mean difference is at least the difference of its means: a cheap first test
            means = cv2.absdiff(thumb, old_thumb)
            n, grid = self._changed(means, loose)
            noisy = False
            if n <= loose:
                n, grid = self._changed(self._blocks(cv2.absdiff(picture, old)), loose)
            # a noisy camera's pair (module docstring): a cheap gate first, as most kept pictures are
            # unlike the one asked about and fail even at the highest level noise is held to; only a
            # pair that passes it is asked whether it differs as noise does (the costly test)
            if (
                n > loose
                and self.noise_tolerant
                and np.count_nonzero(means >= 1.0) >= 0.25 * means.size  # noise moves most blocks
                and self._changed(means, loose, _NOISE_LEVEL_MAX)[0] <= loose
                and (level := self._noise_level(picture, old, means)) is not None
            ):
                n, grid = self._changed(means, loose, level)
                noisy = True
            if n > loose or (n and (boxes is None or _touches(grid, boxes(found), picture.shape))):
                continue
            kept.insert(0, kept.pop(i))
            self.answered += 1
            self.answered_loose += n > 0
            self.answered_noisy += noisy
            return found
        return None

    def _noise_level(self, picture: np.ndarray, old: np.ndarray, means: np.ndarray) -> float | None:
        """The level the pair's blocks' signed mean differences are held to where it differs as a
        noisy camera's frames do (module docstring: its blocks' mean absolute difference 3 levels or
        more at the median, their signed one at most 0.4 of it); None where it does not."""
        spread = float(np.median(self._blocks(cv2.absdiff(picture, old))))
        signed = float(np.median(means))
        if spread < 3.0 or signed > 0.4 * spread:
            return None
        return min(max(self.still, 9.0 * max(signed, 1.0)), _NOISE_LEVEL_MAX)

    def _changed(
        self, block_diff: np.ndarray, loose: int, level: float | None = None
    ) -> tuple[int, np.ndarray]:
        """How many blocks' mean difference reaches ``level`` (``still``) in some channel, and which
        (a grid, when the count is within ``loose``); past ``loose``, or with ``loose`` 0, any count
        past it will do (most kept pictures are unlike the one asked about: two numpy operations
        decide)."""
        over = block_diff >= (self.still if level is None else level)
        n = int(np.count_nonzero(over))  # changed (block, channel) pairs: a block counts 1 to 3
        channels = over.shape[2] if over.ndim == 3 else 1
        if n == 0 or n > channels * loose:
            return n, _NONE
        grid = np.asarray(over.any(axis=2) if over.ndim == 3 else over)
        return int(np.count_nonzero(grid)), grid

    def keep(self, place: Hashable, picture: np.ndarray, found: Any) -> None:
        """Remember what was found on ``picture`` at ``place`` (the oldest there is forgotten)."""
        kept = self._kept.setdefault(place, [])
        self._kept.move_to_end(place)
        kept.insert(0, (picture.copy(), self._blocks(picture).astype(np.float32), found))
        del kept[self.per_place :]
        while len(self._kept) > self.places:
            self._kept.popitem(last=False)


def _touches(changed: np.ndarray, boxes: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a changed block (a grid laid evenly over a picture of ``shape``) lies on a box's blocks
    or next to them."""
    gh, gw = changed.shape
    h, w = shape[:2]
    ys, xs = np.nonzero(changed)
    for x0, y0, x1, y1 in np.asarray(boxes, np.float64).reshape(-1, 4):
        c0, c1 = int(x0 * gw / w) - 1, int(np.ceil(x1 * gw / w))  # the box's blocks, one more each way
        r0, r1 = int(y0 * gh / h) - 1, int(np.ceil(y1 * gh / h))
        if np.any((xs >= c0) & (xs <= c1) & (ys >= r0) & (ys <= r1)):
            return True
    return False


def read_through(
    memory: StillMemory | None,
    places: Sequence[Hashable],
    pictures: Sequence[np.ndarray],
    read: Callable[[list[int]], np.ndarray],
) -> np.ndarray:
    """One row of ``read``'s output per picture (at its place): answered from ``memory`` where the
    picture is still what was read there, ``read`` (given the indices of the others, it returns their
    rows) for the rest, which are then remembered. Without a memory, everything is read."""
    known = [None if memory is None else memory.recall(p, c) for p, c in zip(places, pictures, strict=True)]
    todo = [i for i, k in enumerate(known) if k is None]
    fresh = read(todo) if todo else None
    rows: list[np.ndarray] = [np.empty(0)] * len(pictures)
    for j, i in enumerate(todo):
        assert fresh is not None
        rows[i] = fresh[j].copy()
        if memory is not None:
            memory.keep(places[i], pictures[i], rows[i])
    for i, k in enumerate(known):
        if k is not None:
            rows[i] = k
    return np.stack(rows) if rows else np.zeros((0, 0), np.float32)
