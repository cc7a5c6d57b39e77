"""The per-table layout file: where every region of the felt is, and how the felt maps to the image.

Regions are polygons in *table coordinates* (millimetres on the felt, x to the right and y away
from the dealer as the camera sees it). Four reference points pair table coordinates with image
pixels (four or more: more are fitted by least squares); the homography between them places every
region on the image. A wide lens bends the picture, which no homography follows: a layout may carry
the lens's radial distortion (``Lens``), and the homography then maps the felt onto the picture as
the lens would have shown it straight. ``paigow-monitor calibrate`` writes the image side of the
reference points (and, with ``--lens``, the lens) from a frame.

The file is YAML or JSON; every bad field is named in the error (pydantic's field path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from rules.validation import format_validation_error

__all__ = [
    "DealerZones",
    "Game",
    "LayoutError",
    "Lens",
    "Point",
    "Polygon",
    "ReferencePoint",
    "SeatZones",
    "TableLayout",
    "load_layout",
]

Game = Literal["seven-card", "six-card"]

# how far a picture's aspect ratio may be from the calibrated one's and still be taken for the same view
# scaled (``TableLayout.scaled_to``): 1920x1080 -> 1280x720 or 640x360 is exact; 1 % is rounding's room
_SHAPE_SLACK = 0.01


class LayoutError(ValueError):
    """The layout file is missing, unreadable or invalid; the message names the file and field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Point(_Model):
    x: float
    y: float


Polygon = Annotated[list[Point], Field(min_length=3)]


class ReferencePoint(_Model):
    """One correspondence for the homography: a point on the felt and where the camera sees it."""

    name: str
    table: Point
    image: Point


class Lens(_Model):
    """A camera lens's radial distortion. The picture's point p shows what a straight (pinhole) view
    of the felt shows at ``c + (p - c) * (1 + k1 * rho**2 + k2 * rho**4)``, where c is the picture's
    centre and rho = |p - c| / (half the picture's diagonal): the radial model of ffmpeg's
    ``lenscorrection`` filter (and of Brown's, taken from the picture to the straight view). k1 > 0 is
    a wide lens's barrel distortion, k1 < 0 a pincushion's. Measured on the picture's own scale, so it
    holds for the camera's picture at any size (``TableLayout.scaled_to``). ``calibrate --lens`` fits
    it from five or more reference points."""

    k1: Annotated[float, Field(ge=-0.5, le=0.5)] = 0.0
    k2: Annotated[float, Field(ge=-0.5, le=0.5)] = 0.0

    @model_validator(mode="after")
    def _does_not_fold(self) -> Lens:
        # the radius's map r -> r (1 + k1 r^2 + k2 r^4) must grow across the picture (r <= 1), or two
        # points of the picture would show one point of the felt
        r = np.linspace(0.0, 1.0, 101)
        if (1.0 + 3.0 * self.k1 * r**2 + 5.0 * self.k2 * r**4).min() <= 0.05:
            raise ValueError(f"k1={self.k1:g}, k2={self.k2:g} fold the picture over itself (no lens does)")
        return self


class SeatZones(_Model):
    """A player spot: bet circle (chips mark an active seat), high-hand (5 cards) and low-hand areas.

    ``payout`` (optional: older layout files have none) is the spot beside the bet circle where the
    dealer places a winning wager's payout (seed 000 rule 7.b); without it the monitor cannot see a
    payout, only a wager taken from the bet circle.
    """

    seat: Annotated[int, Field(ge=1, le=7)]
    bet: Polygon
    high: Polygon
    low: Polygon
    deal: Polygon | None = None  # where the seat's 7 (or 6) cards land when dealt; defaults to high+low hull
    payout: Polygon | None = None  # where the dealer puts a winner's payout chips, beside the bet circle


class DealerZones(_Model):
    """The dealer's area: where his cards are dealt/exposed, and where he sets high and low hands."""

    hand: Polygon
    high: Polygon
    low: Polygon


class IVerifySlots(_Model):
    """Where the i-Verify display lays out a setting's cards (one row: the high hand, then the low
    hand after an extra gap), in mm on the panel. The defaults are the rendered display's
    (render/draw.py ``_paint_iverify``); a real display's vendor layout goes here."""

    card_width_mm: Annotated[float, Field(gt=0)] = 0.64 * 120.0 * 63.5 / 88.9  # 0.64 of a 120 mm panel
    gap_mm: Annotated[float, Field(ge=0)] = 3.0  # between neighbouring cards
    low_break_mm: Annotated[float, Field(ge=0)] = 14.0  # extra before the low hand's first card
    margin_mm: Annotated[float, Field(ge=0)] = 8.0  # slot 0's left edge from the panel's left edge

    def left_mm(self, slot: int, high: int) -> float:
        """Slot ``slot``'s left edge, in mm from the panel's left edge: slots ``0 .. high - 1`` hold the
        high hand, the rest the low hand after its break."""
        pitch = self.card_width_mm + self.gap_mm
        return self.margin_mm + slot * pitch + (self.low_break_mm if slot >= high else 0.0)


class TableLayout(_Model):
    """Everything the monitor needs to know about one table and its camera."""

    table_id: Annotated[str, Field(min_length=1)]
    game: Game
    image_width: Annotated[int, Field(gt=0)]
    image_height: Annotated[int, Field(gt=0)]
    table_width_mm: Annotated[float, Field(gt=0)]
    table_height_mm: Annotated[float, Field(gt=0)]
    # four map the felt's plane onto the picture exactly; more are fitted by least squares (with a lens,
    # five or more: calibrate --lens)
    reference_points: Annotated[list[ReferencePoint], Field(min_length=4)]
    seats: Annotated[list[SeatZones], Field(min_length=1, max_length=7)]
    dealer: DealerZones
    lcd: Polygon
    iverify: Polygon
    iverify_slots: IVerifySlots = Field(default_factory=IVerifySlots)
    # Positions as the shuffler counts them, counter-clockwise; LCD value n names positions[n-1].
    # Each entry is "dealer" or "seat<N>". Seed 000 rules 3-4: every position, occupied or not,
    # gets a hand, starting at the LCD position and working counter-clockwise.
    positions: Annotated[list[str], Field(min_length=2)]
    face_up_dealing: bool = False  # seed 003: permitted face-up dealing
    foul_policy: Literal["house-way-reset", "loses"] = "house-way-reset"
    # A picture of the camera's view as it was calibrated (written by ``calibrate``), a file beside
    # this one: the pipeline checks the view against it (TableState.view_moved_px), so a camera already
    # off when a watch begins is noticed too. None: the check compares with the watch's first frame.
    reference_view: str | None = None
    # the camera lens's radial distortion (calibrate --lens); None: the picture is taken as straight
    lens: Lens | None = None
    _path: Path | None = PrivateAttr(None)  # the file this layout was read from (load_layout)

    def __eq__(self, other: object) -> bool:
        """Two layouts are equal when their fields are, wherever each was read from (``_path``)."""
        if not isinstance(other, TableLayout):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    def reference_view_path(self) -> Path | None:
        """``reference_view`` as a path (beside the layout file it was read from); None without one."""
        if self.reference_view is None:
            return None
        base = self._path.parent if self._path is not None else Path.cwd()
        return base / self.reference_view

    @field_validator("positions")
    @classmethod
    def _positions_named(cls, v: list[str]) -> list[str]:
        for p in v:
            if p != "dealer" and not (p.startswith("seat") and p[4:].isdigit()):
                raise ValueError(f"position {p!r} must be 'dealer' or 'seat<N>'")
        if len(set(v)) != len(v):
            raise ValueError("positions must not repeat")
        if "dealer" not in v:
            raise ValueError("positions must include 'dealer'")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> TableLayout:
        nums = [s.seat for s in self.seats]
        if len(set(nums)) != len(nums):
            raise ValueError(f"seats: seat numbers repeat: {sorted(nums)}")
        named = {int(p[4:]) for p in self.positions if p != "dealer"}
        if named != set(nums):
            raise ValueError(f"positions name seats {sorted(named)} but seats defines {sorted(nums)}")
        names = [p.name for p in self.reference_points]
        if len(set(names)) != len(names):
            raise ValueError(f"reference_points: names repeat: {names}")
        return self

    # --- geometry -------------------------------------------------------------------------
    def scaled_to(
        self, width: int, height: int, *, strict: bool = True, seen: str = "the picture"
    ) -> TableLayout:
        """The layout for a picture ``width`` x ``height`` of the same view: itself where that is the
        size it was calibrated on, else a copy whose reference points' image side is scaled to it (a
        camera's sub-stream, or a recorder's copy at another resolution, shows the same view smaller).

        A picture of another shape (aspect ratios more than 1 % apart) may be a cropped view, on which
        every zone would fall in the wrong place: ``strict`` raises a ``LayoutError`` naming the layout
        file, both sizes and ``seen`` (which source and frame); without ``strict`` (drawing evidence on
        a picture, where a drawing is better than none) it is scaled all the same."""
        if (width, height) == (self.image_width, self.image_height):
            return self
        sx, sy = width / self.image_width, height / self.image_height
        if strict and abs(sx / sy - 1.0) > _SHAPE_SLACK:
            where = self._path if self._path is not None else f"layout {self.table_id!r}"
            raise LayoutError(
                f"{where}: calibrated on a {self.image_width}x{self.image_height} picture, but {seen} is "
                f"{width}x{height}, another shape (a cropped or different view?): calibrate the layout on "
                "this camera's picture (paigow-monitor calibrate)"
            )
        points = [
            p.model_copy(update={"image": Point(x=p.image.x * sx, y=p.image.y * sy)})
            for p in self.reference_points
        ]
        out = self.model_copy(
            update={"image_width": width, "image_height": height, "reference_points": points}
        )
        out._path = self._path  # the reference view is found beside the file all the same
        return out

    def homography(self) -> np.ndarray:
        """3x3 matrix mapping table millimetres to image pixels: from four reference points exactly, from
        more by least squares. With a ``lens``, to the picture as it would be straight (``straighten``:
        the reference points' image side is taken there first); ``to_image`` bends it back."""
        import cv2

        src = np.array([[p.table.x, p.table.y] for p in self.reference_points], dtype=np.float64)
        dst = self.straighten(np.array([[p.image.x, p.image.y] for p in self.reference_points]))
        if len(src) == 4:
            m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        else:
            m, _ = cv2.findHomography(src, dst, 0)
            if m is None:
                raise LayoutError(f"layout {self.table_id!r}: reference_points: no homography fits them")
        return np.asarray(m, dtype=np.float64)

    def to_image(self, polygon: list[Point]) -> np.ndarray:
        """A table-coordinate polygon as an (N, 2) float array of image pixels (where the camera shows
        its corners, through the ``lens`` if there is one)."""
        h = self.homography()
        pts = np.array([[p.x, p.y, 1.0] for p in polygon], dtype=np.float64) @ h.T
        return self.bend(np.asarray(pts[:, :2] / pts[:, 2:3], dtype=np.float64))

    def _lens_frame(self) -> tuple[np.ndarray, float]:
        """The lens model's centre (the picture's) and unit radius (half its diagonal), in pixels."""
        w, h = self.image_width, self.image_height
        return np.array([w / 2.0, h / 2.0]), float(np.hypot(w, h) / 2.0)

    def straighten(self, pts: np.ndarray) -> np.ndarray:
        """Picture points (N, 2) where a straight view would show them (the ``Lens``'s model); the same
        points without a lens."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if self.lens is None:
            return pts
        c, r0 = self._lens_frame()
        rho2 = ((pts - c) ** 2).sum(axis=1, keepdims=True) / r0**2
        return np.asarray(c + (pts - c) * (1.0 + self.lens.k1 * rho2 + self.lens.k2 * rho2**2))

    def bend(self, pts: np.ndarray) -> np.ndarray:
        """``straighten``'s inverse: where the camera's picture shows points (N, 2) of the straight
        view (Newton's method on the radius; the lens model does not fold, so it has one answer)."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if self.lens is None:
            return pts
        k1, k2 = self.lens.k1, self.lens.k2
        c, r0 = self._lens_frame()
        want = np.hypot(*(pts - c).T) / r0  # the straight radius, in units of r0
        r = want.copy()
        for _ in range(30):
            f = r * (1.0 + k1 * r**2 + k2 * r**4) - want
            r = r - f / (1.0 + 3.0 * k1 * r**2 + 5.0 * k2 * r**4)
            if np.abs(f).max(initial=0.0) < 1e-12:
                break
        scale = np.divide(r, want, out=np.ones_like(r), where=want > 0)
        return np.asarray(c + (pts - c) * scale[:, None])

    def seat(self, n: int) -> SeatZones:
        for s in self.seats:
            if s.seat == n:
                return s
        raise KeyError(f"table {self.table_id} has no seat {n}")

    @property
    def seat_numbers(self) -> list[int]:
        return sorted(s.seat for s in self.seats)

    def deal_order(self, lcd: int) -> list[str]:
        """Positions in dealing order for an LCD start value (1-based), counter-clockwise."""
        n = len(self.positions)
        if not 1 <= lcd <= n:
            raise ValueError(f"LCD value {lcd} is outside 1..{n}")
        return [self.positions[(lcd - 1 + i) % n] for i in range(n)]

    def dump(self, path: Path) -> None:
        data = self.model_dump(mode="json")
        text = json.dumps(data, indent=1) if path.suffix == ".json" else yaml.safe_dump(data, sort_keys=False)
        path.write_text(text)


def load_layout(path: str | Path) -> TableLayout:
    """Read and validate a layout file; errors name the file and each bad field."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as e:
        raise LayoutError(f"{p}: cannot read layout file: {e.strerror or e}") from e
    try:
        raw = json.loads(text) if p.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as e:
        raise LayoutError(f"{p}: not valid {'JSON' if p.suffix == '.json' else 'YAML'}: {e}") from e
    try:
        layout = TableLayout.model_validate(raw)
    except ValidationError as e:
        raise LayoutError(
            format_validation_error(f"{p}: invalid layout ({e.error_count()} problem(s)):", e)
        ) from e
    layout._path = p
    view = layout.reference_view_path()
    if view is not None and not view.is_file():
        raise LayoutError(
            f"{p}: reference_view: no such file {view} (written by calibrate beside the layout)"
        )
    return layout
