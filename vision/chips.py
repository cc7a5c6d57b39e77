"""Chips in a bet circle: an active seat (conventions: the renderer's display spec, "Chips").

A chip stack is saturated or varied colour inside the circle; an empty circle is bare felt. The felt's
colour statistics (median and spread in Lab) come from the frame itself (``FeltModel.learn``); a bet
circle holds chips when enough of its inner disc differs from the felt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["FeltModel", "chips_present", "inner_mask"]


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


def _local_felt(lab: np.ndarray, disc: np.ndarray, felt: FeltModel, thr: float) -> np.ndarray:
    """The felt's Lab colour around a bet circle: the median of the crop outside the ``disc`` when it is
    the felt's colour under other light (a light or a shadow over this part of the table: its chroma
    (a, b) within ``thr`` of the felt's, as glare adds white; or the felt's hue, within 20 degrees, at
    half to twice its chroma, as a brighter or dimmer light scales it); else the whole felt's (an arm,
    a card or a stack lying around the circle)."""
    if disc.all():
        return np.asarray(felt.median_lab)
    around: np.ndarray = np.median(lab[~disc], axis=0)
    ab, felt_ab = around[1:] - 128.0, felt.median_lab[1:] - 128.0
    if float(np.linalg.norm(ab - felt_ab)) <= thr:
        return around
    c, fc = float(np.linalg.norm(ab)), float(np.linalg.norm(felt_ab))
    if c > 0 and fc > 0 and 0.5 <= c / fc <= 2.0 and float(ab @ felt_ab) / (c * fc) >= np.cos(np.radians(20)):
        return around
    return np.asarray(felt.median_lab)


def inner_mask(size: tuple[int, int], polygon: np.ndarray, shrink: float = 0.7) -> np.ndarray:
    """uint8 mask of the polygon shrunk about its centroid (leave out the circle's printed edge)."""
    w, h = size
    c = polygon.mean(axis=0)
    pts = c + (polygon - c) * shrink
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
    return mask


def chips_present(
    crop: np.ndarray,
    mask: np.ndarray,
    felt: FeltModel,
    *,
    min_fraction: float = 0.2,
    shade_outside: float = 0.1,
) -> bool:
    """Whether the masked part of a bet-circle crop holds chips (differs from the felt).

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
    d = np.linalg.norm(lab - _local_felt(lab, sel, felt, thr), axis=2)
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
