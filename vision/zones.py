"""Zones of the layout on the image: rectified crops, and mapping crop boxes back to image and table.

A *zone* is one named area whose content the table state reports (``seat3.high``, ``dealer.hand``,
``iverify``, ``lcd``, ``seat3.bet``, ``seat3.payout``). A *region* is what the camera pipeline looks at
as one crop: a seat's card areas together (dealt, high, low), the dealer's card areas, the i-Verify
display, the LCD, one bet circle, one payout spot (read like a bet circle: chips or bare felt). Each
region is rectified to an upright crop through the layout's homography (table millimetres -> image
pixels), so a card looks the same wherever it lies on the felt; boxes found in the crop map back to
image pixels and to table millimetres, and each card goes to the zone that holds its centre.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from vision.layout import Point, TableLayout

__all__ = ["Region", "RegionKind", "Zone", "build_regions", "local_scale"]

RegionKind = Literal["cards", "iverify", "lcd", "bet"]


def _poly(points: list[Point]) -> np.ndarray:
    return np.array([[p.x, p.y] for p in points], dtype=np.float64)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ h.T
    return np.asarray(q[:, :2] / q[:, 2:3])


def local_scale(h: np.ndarray, table_xy: tuple[float, float]) -> float:
    """Image pixels per table millimetre near a table point (the larger of the two axes)."""
    x, y = table_xy
    p = _apply(h, np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
    return float(max(np.hypot(*(p[1] - p[0])), np.hypot(*(p[2] - p[0]))))


@dataclass(frozen=True)
class Zone:
    """One named area: its polygon in table millimetres and in image pixels."""

    name: str
    table_poly: np.ndarray
    image_poly: np.ndarray
    priority: int = 0  # where zones overlap, a card goes to the zone of highest priority

    def contains(self, table_xy: np.ndarray) -> np.ndarray:
        """Boolean mask: which table points (N, 2) lie inside this zone."""
        poly = self.table_poly.astype(np.float32)
        return np.array(
            [cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in table_xy], dtype=bool
        )

    def distance(self, table_xy: np.ndarray) -> np.ndarray:
        """Distance in mm from each table point to the zone (0 inside)."""
        poly = self.table_poly.astype(np.float32)
        return np.array(
            [max(0.0, -cv2.pointPolygonTest(poly, (float(x), float(y)), True)) for x, y in table_xy]
        )


@dataclass
class Region:
    """A rectified crop of one or more zones, and the maps between crop, image and table.

    The crop is upright in the region's own frame: for a seat, the frame of its high-hand box (its
    first edge runs left to right, so the cards dealt to that seat stand upright in the crop).
    """

    name: str
    kind: RegionKind
    zones: tuple[Zone, ...]
    table_to_crop: np.ndarray  # 3x3 similarity: table mm -> crop pixels
    px_per_mm: float
    size: tuple[int, int]  # crop (width, height) in pixels
    table_to_image: np.ndarray = field(repr=False, default_factory=lambda: np.eye(3))
    to_crop: np.ndarray = field(init=False)  # 3x3: image pixels -> crop pixels
    from_crop: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.to_crop = self.table_to_crop @ np.linalg.inv(self.table_to_image)
        self.from_crop = np.linalg.inv(self.to_crop)

    # --- crops ---------------------------------------------------------------------------
    def rectify(
        self, frame: np.ndarray, scale: float = 1.0, interpolation: int = cv2.INTER_LINEAR
    ) -> np.ndarray:
        """The region's upright crop; ``scale`` < 1 gives a smaller one (for cheap change tests)."""
        w, h = self.size
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        m = np.diag([size[0] / w, size[1] / h, 1.0]) @ self.to_crop
        return cv2.warpPerspective(frame, m, size, flags=interpolation, borderMode=cv2.BORDER_REPLICATE)

    def zone_mask(self, scale: float = 1.0) -> np.ndarray:
        """uint8 mask (255 inside any of the region's zones) of a crop at ``scale``."""
        w, h = self.size
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        mask = np.zeros((size[1], size[0]), np.uint8)
        for z in self.zones:
            pts = self.table_to_crop_pts(z.table_poly) * np.array([size[0] / w, size[1] / h])
            cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
        return mask

    # --- coordinates ---------------------------------------------------------------------
    def crop_to_image(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.from_crop, pts)

    def crop_to_table(self, pts: np.ndarray) -> np.ndarray:
        return _apply(np.linalg.inv(self.table_to_crop), pts)

    def table_to_crop_pts(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.table_to_crop, pts)

    def image_to_crop(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.to_crop, pts)

    def box_to_image(self, xyxy: np.ndarray) -> np.ndarray:
        """A crop box (x1, y1, x2, y2) as its 4 corners in image pixels (TL, TR, BR, BL)."""
        x1, y1, x2, y2 = (float(v) for v in xyxy)
        return self.crop_to_image(np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))

    def assign(self, crop_xy: np.ndarray, margin_mm: float = 15.0) -> list[str | None]:
        """The zone name of each crop point (card centres): the zone of highest priority holding it, else
        the nearest zone within ``margin_mm``, else None (the card lies outside the region's zones)."""
        table = self.crop_to_table(crop_xy)
        if not len(table):
            return []
        inside = np.stack([z.contains(table) for z in self.zones], axis=1)
        dist = np.stack([z.distance(table) for z in self.zones], axis=1)
        prio = np.array([z.priority for z in self.zones])
        out: list[str | None] = []
        for i in range(len(table)):
            if inside[i].any():
                cand = np.flatnonzero(inside[i])
                out.append(self.zones[int(cand[np.argmax(prio[cand])])].name)
            elif dist[i].min() <= margin_mm:
                out.append(self.zones[int(np.argmin(dist[i]))].name)
            else:
                out.append(None)
        return out


def _hull(*polys: np.ndarray) -> np.ndarray:
    pts = np.concatenate(polys).astype(np.float32)
    return np.asarray(cv2.convexHull(pts).reshape(-1, 2), dtype=np.float64)


def _frame_of(poly: np.ndarray) -> np.ndarray:
    """Unit x axis of a polygon's own frame: its first edge, or its last when listed the other way."""
    e1, e3 = poly[1] - poly[0], poly[-1] - poly[0]
    ax = e1 if e1[0] * e3[1] - e1[1] * e3[0] >= 0 else e3
    return np.asarray(ax / max(float(np.linalg.norm(ax)), 1e-9))


def _region(
    name: str,
    kind: RegionKind,
    zones: list[tuple[str, np.ndarray, int]],
    h: np.ndarray,
    margin_mm: float,
    px_per_mm: float | None,
    max_side: int,
    axis: np.ndarray | None = None,
) -> Region:
    e1 = np.array([1.0, 0.0]) if axis is None else axis
    e2 = np.array([-e1[1], e1[0]])
    rot = np.array([[e1[0], e1[1], 0.0], [e2[0], e2[1], 0.0], [0.0, 0.0, 1.0]])  # table -> local mm
    allp = _apply(rot, np.concatenate([p for _, p, _ in zones]))
    u0, v0 = allp.min(0) - margin_mm
    u1, v1 = allp.max(0) + margin_mm
    centre = _apply(np.linalg.inv(rot), np.array([[(u0 + u1) / 2, (v0 + v1) / 2]]))[0]
    scale = px_per_mm if px_per_mm else local_scale(h, (float(centre[0]), float(centre[1])))
    scale = min(scale, max_side / max(u1 - u0, v1 - v0))
    size = (max(8, round((u1 - u0) * scale)), max(8, round((v1 - v0) * scale)))
    t_crop = np.array([[scale, 0, -u0 * scale], [0, scale, -v0 * scale], [0, 0, 1.0]]) @ rot
    zs = tuple(Zone(n, p, _apply(h, p), pr) for n, p, pr in zones)
    return Region(name, kind, zs, t_crop, float(scale), size, table_to_image=h)


def build_regions(
    layout: TableLayout,
    *,
    margin_mm: float = 12.0,
    px_per_mm: float | None = None,
    card_px_per_mm: float | None = None,
    max_side: int = 1024,
) -> list[Region]:
    """Every region of a layout, in a fixed order: seats (by number), dealer, i-Verify, LCD, bet circles,
    then the payout spots of the seats whose layout has one (both are ``bet`` regions: chips or felt).

    ``px_per_mm`` None keeps each crop near the camera's own resolution there (no detail lost, none
    invented); ``card_px_per_mm`` (if given) overrides it for the seat and dealer regions, so the card
    detector sees cards at one scale whatever the camera; ``max_side`` bounds a crop's longest side.
    """
    card_scale = card_px_per_mm or px_per_mm
    h = layout.homography()
    out: list[Region] = []
    for s in sorted(layout.seats, key=lambda s: s.seat):
        high, low = _poly(s.high), _poly(s.low)
        deal = _poly(s.deal) if s.deal is not None else _hull(high, low)
        zones = [
            (f"seat{s.seat}.dealt", deal, 0),
            (f"seat{s.seat}.high", high, 1),
            (f"seat{s.seat}.low", low, 1),
        ]
        out.append(
            _region(f"seat{s.seat}", "cards", zones, h, margin_mm, card_scale, max_side, axis=_frame_of(high))
        )
    d = layout.dealer
    dz = [
        ("dealer.hand", _poly(d.hand), 0),
        ("dealer.high", _poly(d.high), 1),
        ("dealer.low", _poly(d.low), 1),
    ]
    out.append(_region("dealer", "cards", dz, h, margin_mm, card_scale, max_side))
    out.append(
        _region("iverify", "iverify", [("iverify", _poly(layout.iverify), 0)], h, 0.0, px_per_mm, max_side)
    )
    out.append(_region("lcd", "lcd", [("lcd", _poly(layout.lcd), 0)], h, 0.0, px_per_mm, max_side))
    for s in sorted(layout.seats, key=lambda s: s.seat):
        out.append(
            _region(
                f"seat{s.seat}.bet",
                "bet",
                [(f"seat{s.seat}.bet", _poly(s.bet), 0)],
                h,
                0.0,
                px_per_mm,
                max_side,
            )
        )
    for s in sorted(layout.seats, key=lambda s: s.seat):
        if s.payout is not None:
            name = f"seat{s.seat}.payout"
            out.append(_region(name, "bet", [(name, _poly(s.payout), 0)], h, 0.0, px_per_mm, max_side))
    return out
