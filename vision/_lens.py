"""A lens's bend (``TableLayout.lens``) for the pipeline's crops: where the camera's picture shows each
point of the straight view, fast enough for every pixel of every region's crop.

A homography maps the felt's plane onto a straight (pinhole) view only; a wide lens bends the picture
towards its corners, and four (or more) reference points then place the zones a card's width off
there. With a lens in the layout, each region's crop is sampled through the bend (``zones.Region``:
a table of where each crop pixel lies in the picture, made once), so the crops are the straight
view's; the frame itself is not remapped (a whole 720p frame straightened cost 6.6 ms on one core,
more than the rest of an analysed frame's reading of unchanged zones).
"""

from __future__ import annotations

import numpy as np

from vision.layout import TableLayout

_RADII = 8192  # straight radii the bend is solved for; others are interpolated between them


class Bender:
    """``TableLayout.bend`` and ``straighten`` for a layout with a lens, the bend by interpolation in a
    table of radii (to well under 0.01 px) rather than Newton's method for each point."""

    def __init__(self, layout: TableLayout) -> None:
        if layout.lens is None:
            raise ValueError("Bender: the layout has no lens")
        self._layout = layout
        w, h = layout.image_width, layout.image_height
        self._c = np.array([w / 2.0, h / 2.0])
        # the straight view of the picture's corner is the farthest any point of the picture lies (the
        # lens model holds, and does not fold, up to there: ``Lens``)
        far = float(np.hypot(*(layout.straighten(np.zeros((1, 2)))[0] - self._c)))
        self._known = np.linspace(0.0, far, _RADII)
        pts = np.stack([self._known + self._c[0], np.full_like(self._known, self._c[1])], 1)
        self._bent = np.hypot(*(layout.bend(pts) - self._c).T)
        self._slope = (self._bent[-1] - self._bent[-2]) / (self._known[-1] - self._known[-2])

    def __call__(self, pts: np.ndarray) -> np.ndarray:
        """Where the picture shows straight-view points (N, 2) (beyond the picture's corner: along the
        bend's last slope, outside the picture)."""
        d = np.asarray(pts, dtype=np.float64).reshape(-1, 2) - self._c
        r = np.hypot(d[:, 0], d[:, 1])
        out = np.interp(r, self._known, self._bent)
        beyond = r > self._known[-1]
        out[beyond] = self._bent[-1] + (r[beyond] - self._known[-1]) * self._slope
        scale = np.divide(out, r, out=np.ones_like(r), where=r > 0)
        return np.asarray(self._c + d * scale[:, None])

    def straighten(self, pts: np.ndarray) -> np.ndarray:
        """Where the straight view shows picture points (N, 2) (``TableLayout.straighten``)."""
        return self._layout.straighten(pts)
