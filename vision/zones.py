"""Zones of the layout on the image: rectified crops, and mapping crop boxes back to image and table.

A *zone* is one named area whose content the table state reports (``seat3.high``, ``dealer.hand``,
``iverify``, ``lcd``, ``seat3.bet``, ``seat3.payout``). A *region* is what the camera pipeline looks at
as one crop: a seat's card areas together (dealt, high, low), the dealer's card areas, the i-Verify
display, the LCD, one bet circle, one payout spot (read like a bet circle: chips or bare felt). Each
region is rectified to an upright crop through the layout's homography (table millimetres -> image
pixels), so a card looks the same wherever it lies on the felt; boxes found in the crop map back to
image pixels and to table millimetres, and each card goes to the zone that holds its centre. With a
lens in the layout (``TableLayout.lens``) the homography maps the felt onto the straight view, and
each crop is sampled where the bent picture shows it (``Region.warp``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from vision._lens import Bender
from vision.layout import Point, TableLayout

__all__ = [
    "COARSE_CAMERA_PX_PER_MM",
    "Region",
    "RegionKind",
    "Zone",
    "build_regions",
    "card_resolution",
    "card_scales",
    "local_scale",
]

RegionKind = Literal["cards", "iverify", "lcd", "bet"]

# A camera showing the card regions at fewer image pixels per felt millimetre than this is coarse
# (``card_resolution``): the pipeline reads it with the coarse camera's classifier
# (``vision.pipeline.coarse_camera``), and ``calibrate`` and ``audit`` warn of it. A 1280x720 view of
# the felt shows 0.80-0.83 px/mm there (a card about 52 px wide, an index's suit a few pixels across)
# and most rendered batches at it read short of the 99.5 % per-card targets, spades as clubs above all;
# the sample's 1920x1080 view 1.20-1.24, where every batch meets them (models/MODEL_CARD.md).
COARSE_CAMERA_PX_PER_MM = 1.0

_MAPS_KEPT = 12  # a region's sampling tables kept (``Region.warp``): its crop, small crop, twin, ...


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
    # with a lens: straight-view pixels -> picture pixels (``_lens.Bender``); the maps above then take
    # the straight view for the image, and ``crop_to_image`` / ``image_to_crop`` / ``warp`` bend
    bend: Bender | None = field(default=None, repr=False)
    to_crop: np.ndarray = field(init=False)  # 3x3: image pixels -> crop pixels
    from_crop: np.ndarray = field(init=False)
    _maps: dict[bytes, tuple[np.ndarray, np.ndarray]] = field(init=False, repr=False, default_factory=dict)

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
        return self.warp(frame, size, np.diag([size[0] / w, size[1] / h, 1.0]), interpolation=interpolation)

    def warp(
        self,
        source: np.ndarray,
        size: tuple[int, int],
        post: np.ndarray | None = None,
        source_to_image: np.ndarray | None = None,
        interpolation: int = cv2.INTER_LINEAR,
    ) -> np.ndarray:
        """A picture of ``size`` whose pixel q shows the crop's point ``post``^-1 q (``post``: 3x3 on the
        crop's side, e.g. a scale; None = none) in ``source``, a picture whose pixels map to the
        image's by ``source_to_image`` (e.g. a thumbnail's; None = the image itself). Without a lens
        one perspective warp; with one, a table of where each pixel lies in ``source`` (made at the
        first call for these arguments, then one remap each time)."""
        m = self.to_crop if post is None else post @ self.to_crop
        if source_to_image is not None:
            m = m @ source_to_image
        if self.bend is None:
            return np.asarray(
                cv2.warpPerspective(source, m, size, flags=interpolation, borderMode=cv2.BORDER_REPLICATE)
            )
        key = np.concatenate([m.ravel(), np.asarray(size, np.float64)]).tobytes()
        maps = self._maps.get(key)
        if maps is None:
            maps = self._maps[key] = self._sampling(size, post, source_to_image)
            if len(self._maps) > _MAPS_KEPT:
                del self._maps[next(iter(self._maps))]
        return np.asarray(cv2.remap(source, maps[0], maps[1], interpolation, borderMode=cv2.BORDER_REPLICATE))

    def _sampling(
        self, size: tuple[int, int], post: np.ndarray | None, source_to_image: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        assert self.bend is not None
        gx, gy = np.meshgrid(np.arange(size[0], dtype=np.float64), np.arange(size[1], dtype=np.float64))
        q = np.stack([gx.ravel(), gy.ravel()], 1)
        if post is not None:
            q = _apply(np.linalg.inv(post), q)
        p = self.bend(_apply(self.from_crop, q))
        if source_to_image is not None:
            p = _apply(np.linalg.inv(source_to_image), p)
        mx = p[:, 0].reshape(gx.shape).astype(np.float32)
        my = p[:, 1].reshape(gx.shape).astype(np.float32)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return np.asarray(m1), np.asarray(m2)

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
        straight = _apply(self.from_crop, pts)
        return straight if self.bend is None else self.bend(straight)

    def crop_to_table(self, pts: np.ndarray) -> np.ndarray:
        return _apply(np.linalg.inv(self.table_to_crop), pts)

    def table_to_crop_pts(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.table_to_crop, pts)

    def image_to_crop(self, pts: np.ndarray) -> np.ndarray:
        if self.bend is not None:
            pts = self.bend.straighten(pts)
        return _apply(self.to_crop, pts)

    def image_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The smallest and largest image x, y of the crop's picture (its border's: bent by a lens, the
        border bulges between the corners)."""
        w, h = self.size
        n = 2 if self.bend is None else 17
        t = np.linspace(0.0, 1.0, n)
        border = np.concatenate(
            [
                np.stack([t * w, 0 * t], 1),
                np.stack([w + 0 * t, t * h], 1),
                np.stack([t * w, h + 0 * t], 1),
                np.stack([0 * t, t * h], 1),
            ]
        )
        pts = self.crop_to_image(border)
        return pts.min(0), pts.max(0)

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
    bend: Bender | None = None,
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
    place: Callable[[np.ndarray], np.ndarray] = (lambda q: q) if bend is None else bend
    zs = tuple(Zone(n, p, place(_apply(h, p)), pr) for n, p, pr in zones)
    return Region(name, kind, zs, t_crop, float(scale), size, table_to_image=h, bend=bend)


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
    bend = Bender(layout) if layout.lens is not None else None

    def region(
        name: str,
        kind: RegionKind,
        zones: list[tuple[str, np.ndarray, int]],
        margin: float,
        scale: float | None,
        axis: np.ndarray | None = None,
    ) -> Region:
        return _region(name, kind, zones, h, margin, scale, max_side, axis=axis, bend=bend)

    out: list[Region] = []
    for s in sorted(layout.seats, key=lambda s: s.seat):
        high, low = _poly(s.high), _poly(s.low)
        deal = _poly(s.deal) if s.deal is not None else _hull(high, low)
        zones = [
            (f"seat{s.seat}.dealt", deal, 0),
            (f"seat{s.seat}.high", high, 1),
            (f"seat{s.seat}.low", low, 1),
        ]
        out.append(region(f"seat{s.seat}", "cards", zones, margin_mm, card_scale, axis=_frame_of(high)))
    d = layout.dealer
    dz = [
        ("dealer.hand", _poly(d.hand), 0),
        ("dealer.high", _poly(d.high), 1),
        ("dealer.low", _poly(d.low), 1),
    ]
    out.append(region("dealer", "cards", dz, margin_mm, card_scale))
    out.append(region("iverify", "iverify", [("iverify", _poly(layout.iverify), 0)], 0.0, px_per_mm))
    out.append(region("lcd", "lcd", [("lcd", _poly(layout.lcd), 0)], 0.0, px_per_mm))
    for s in sorted(layout.seats, key=lambda s: s.seat):
        name = f"seat{s.seat}.bet"
        out.append(region(name, "bet", [(name, _poly(s.bet), 0)], 0.0, px_per_mm))
    for s in sorted(layout.seats, key=lambda s: s.seat):
        if s.payout is not None:
            name = f"seat{s.seat}.payout"
            out.append(region(name, "bet", [(name, _poly(s.payout), 0)], 0.0, px_per_mm))
    return out


def card_scales(layout: TableLayout) -> list[float]:
    """Image pixels per felt millimetre over each card region (each seat's hands, the dealer's): the
    camera's own resolution there (``Region.px_per_mm``)."""
    return [r.px_per_mm for r in build_regions(layout) if r.kind == "cards"]


def card_resolution(layout: TableLayout) -> tuple[float, float]:
    """The fewest and the most of ``card_scales``: how finely the camera shows the card areas."""
    own = card_scales(layout)
    return min(own), max(own)
