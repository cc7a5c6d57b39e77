"""Chips in a bet circle: an active seat (conventions: the renderer's display spec, "Chips").

A chip stack is saturated or varied colour inside the circle; an empty circle is bare felt. The felt's
colour statistics (median and spread in Lab) come from the frame itself (``FeltModel.learn``); a bet
circle holds chips when enough of its inner disc differs from the felt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["FeltModel", "around_mask", "chips_present", "inner_mask"]


@dataclass(frozen=True)
class FeltModel:
    median_lab: np.ndarray  # (3,)
    spread: float  # robust spread of felt pixels' Lab distance to the median

    @property
    def median_bgr(self) -> np.ndarray:
        """The felt's median colour in BGR (float32, (3,))."""
        lab = np.clip(np.round(self.median_lab), 0, 255).astype(np.uint8).reshape(1, 1, 3)
        return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR).reshape(3).astype(np.float32)

    @classmethod
    def learn(cls, crops: list[np.ndarray]) -> FeltModel:
        """Felt statistics from crops that are mostly felt (the card and bet regions of a frame)."""
        px = np.concatenate([cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3) for c in crops]).astype(
            np.float32
        )
        med = np.median(px, axis=0)
        d = np.linalg.norm(px - med, axis=1)
        felt = d <= np.percentile(d, 50)  # the closer half: felt, whatever else lies there
        med = np.median(px[felt], axis=0)
        d = np.linalg.norm(px[felt] - med, axis=1)
        return cls(med, float(np.percentile(d, 90)))


# a channel at or below this level in a shade is taken to the camera's black floor
_BLACK = 8.0


def _local_felt(
    lab: np.ndarray, disc: np.ndarray, felt: FeltModel, thr: float, around: np.ndarray | None = None
) -> np.ndarray:
    """The felt's Lab colour around a bet circle: the median of the felt-coloured part of the crop
    ``around`` the ``disc`` (default: all outside it) when that is most of it: the felt under other
    light (a light or a shadow over this part of the table: its chroma (a, b) within ``thr`` of the
    felt's, as glare adds white; or the felt's hue, within 20 degrees, at half to twice its chroma, as
    a brighter or dimmer light scales it); else the whole felt's (an arm, a card or a stack lying
    around the circle).

    The circle's printed outline is no felt: in a pool of light it had brightened the median past
    the felt inside it (b49-0007, seed 49 at 720p: seat 2's empty bet circle under a light, felt L
    108-129 inside the ring, the median around it with the yellow ring 131: 31 % of the disc "off",
    chips seen for 25 s after the wager was taken, three review items on an inactive seat; b48-0006:
    seat 2's empty payout spot, its white ring blended into the lit felt, read as a payout all clip
    long). The caller leaves it out of ``around`` (``around_mask``), and only felt-coloured pixels
    are taken."""
    out = lab[~disc if around is None else around > 0]
    if not len(out):
        return np.asarray(felt.median_lab)
    ab, felt_ab = out[:, 1:] - 128.0, felt.median_lab[1:] - 128.0
    c, fc = np.linalg.norm(ab, axis=1), float(np.linalg.norm(felt_ab))
    alike = np.linalg.norm(ab - felt_ab, axis=1) <= thr
    if fc > 0:
        cos = (ab @ felt_ab) / np.maximum(c * fc, 1e-9)
        alike |= (c >= 0.5 * fc) & (c <= 2.0 * fc) & (cos >= np.cos(np.radians(20)))
    if np.count_nonzero(alike) * 2 < len(out):
        return np.asarray(felt.median_lab)
    med: np.ndarray = np.median(out[alike], axis=0)
    return med


def inner_mask(size: tuple[int, int], polygon: np.ndarray, shrink: float = 0.7) -> np.ndarray:
    """uint8 mask of the polygon shrunk about its centroid (leave out the circle's printed edge)."""
    w, h = size
    c = polygon.mean(axis=0)
    pts = c + (polygon - c) * shrink
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
    return mask


def around_mask(
    size: tuple[int, int], polygon: np.ndarray, band: tuple[float, float] = (0.85, 1.15)
) -> np.ndarray:
    """uint8 mask of a bet circle's crop outside its disc (``inner_mask``) and off its printed outline
    (the polygon scaled by ``band`` about its centroid): the felt around it (``chips_present``)."""
    outline = inner_mask(size, polygon, band[1]) & ~inner_mask(size, polygon, band[0])
    around: np.ndarray = ~inner_mask(size, polygon) & ~outline
    return around


def chips_present(
    crop: np.ndarray,
    mask: np.ndarray,
    felt: FeltModel,
    *,
    min_fraction: float = 0.2,
    shade_outside: float = 0.1,
    around: np.ndarray | None = None,
) -> bool:
    """Whether the masked part of a bet-circle crop holds chips (differs from the felt). ``around``:
    the felt around the disc to hold it against (``around_mask``; default all the crop outside it).

    Felt in a shadow (the dealer's arm between the light and a payout spot) is the felt's colour
    darkened, its hue kept: the felt's BGR colour scaled by 0.35-0.95, within the felt's spread (s10:
    an arm's shadow over seat 3's empty payout spot read as a payout). A chip of the felt's own hue,
    darker, looks the same pixel by pixel; but a shadow is cast by an arm and reaches beyond the
    circle, while a stack lies inside it. So scaled felt in the disc counts as felt only when the
    crop around the disc is shaded too (``shade_outside`` of it).

    Felt under a spotlight is the felt's colour lit brighter (b41-0011, a rendered batch: a pool of
    light over seat 5 read as chips and a payout all clip long): where the crop around the disc is the
    felt's colour at another lightness, the disc is held against that (``_local_felt``).

    A shade that takes a channel to the camera's black floor (a warm cast's shadow loses its blue:
    s13 under ``benchmarks/camera_conditions.py``, felt BGR 59/113/54, the arm's shadow 1/59/27) is
    the felt darkened in the other two: the scale and the residual leave the crushed channel out."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    sel = mask > 0
    if not sel.any():
        return False
    thr = max(20.0, 2.5 * felt.spread)
    d = np.linalg.norm(lab - _local_felt(lab, sel, felt, thr, around), axis=2)
    off_all = d > thr
    off = off_all[sel]
    if off.any() and (~sel).any():
        f = felt.median_bgr
        px = crop.reshape(-1, 3).astype(np.float32)
        k = px @ f / float(f @ f)
        # a channel the shade took to the black floor (a warm cast's shadow loses its blue) says
        # nothing of the shade's hue: the scale and the residual come from the other two
        crushed = (px <= _BLACK) & (px < k[:, None] * f)
        use = np.where((np.count_nonzero(~crushed, axis=1) >= 2)[:, None], ~crushed, True)
        k = (px * f * use).sum(1) / np.maximum((f * f * use).sum(1), 1e-6)
        resid = np.linalg.norm((px - k[:, None] * f) * use, axis=1)
        shade = (off_all.reshape(-1) & (k >= 0.35) & (k <= 0.95) & (resid <= thr)).reshape(d.shape)
        if shade[~sel].mean() >= shade_outside:
            off = off & ~shade[sel]
    return bool(off.mean() >= min_fraction)
