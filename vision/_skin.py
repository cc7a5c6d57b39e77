"""Skin: the colour test shared by the occluder finder (``vision.pipeline``) and the paper finder
(``vision._blank_corner``). A hand's light skin is as light as card paper and nearly as grey by the
paper's own test (the renderer's two lightest tones, L* 192-205, chroma 19-20 against the paper's 1-5),
so paper is card-white and not a hand (``vision._blank_corner._hand``: a picture's face stays paper)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["skin_mask"]


def skin_mask(bgr: np.ndarray) -> np.ndarray:
    """The pixels of a BGR picture whose colour is skin's (YCrCb: Cr 138-175, Cb 80-130, Y over 50)."""
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = ycc[..., 0], ycc[..., 1], ycc[..., 2]
    return np.asarray((y > 50) & (cr >= 138) & (cr <= 175) & (cb >= 80) & (cb <= 130))
