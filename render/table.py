"""The rendered table: its geometry in table millimetres, its layout file, and the printed felt.

Table coordinates (``vision.layout``): millimetres, x to the right, y away from the dealer. The
dealer stands at the top edge (y = 0) and faces the players, who sit on an arc below him.

Seat numbering (documented in render/README.md and in the layout's ``positions``): six player
spots numbered 1 to 6 counter-clockwise as seen from above, starting at the dealer's right (the
camera's left); the dealer is the seventh position. The shuffler's LCD value n names
``positions[n-1]``: 1-6 are seats 1-6, 7 is the dealer (seed 000 rules 3-4: the hand is dealt from
that position counter-clockwise, to every spot, occupied or not, and the dealer).

Every seat has, from the dealer outwards, a high-hand box ("H"), a low-hand box ("L") and a bet
circle, with a smaller payout circle beside the bet circle (where the dealer puts a winner's payout);
its dealt hand lands on the line between the two boxes (the ``deal`` zone covers both).
The 7-card and the 6-card table share this geometry; only ``game`` and ``table_id`` differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.layout import DealerZones, Game, Point, ReferencePoint, SeatZones, TableLayout

__all__ = [
    "CARD_H_MM",
    "CARD_W_MM",
    "FAN_STEP_MM",
    "Pose",
    "TableGeometry",
    "build_layout",
    "draw_felt",
    "parse_image_size",
    "write_layout",
]

CARD_W_MM = 63.5
CARD_H_MM = 88.9
FAN_STEP_MM = 16.0  # offset between overlapping face-up cards: each card's index corner stays visible

TABLE_W_MM = 1520.0
TABLE_H_MM = 860.0
IMAGE_W = 1280
IMAGE_H = 720


def parse_image_size(text: str) -> tuple[int, int]:
    """A camera resolution ``1920x1080`` -> (1920, 1080); ValueError naming the text otherwise."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must be WIDTHxHEIGHT (like 1920x1080), but got {text!r}") from None
    if not (160 <= w <= 7680 and 90 <= h <= 4320):
        raise ValueError(f"--size {text!r} is outside 160x90 .. 7680x4320")
    return w, h


_DEALER_CENTRE = (760.0, 140.0)  # centre of the seat arc
_SEAT_ANGLES = tuple(162.0 - 28.8 * k for k in range(6))  # seat 1..6, degrees from +x towards +y
_R_HIGH = 430.0
_R_LOW = 540.0
_R_BET = 640.0
_R_DEAL = 485.0
_BET_RADIUS = 42.0
_PAYOUT_RADIUS = 34.0  # the payout circle: a chip stack (19.5 mm radius) fills its inner disc
_PAYOUT_OFFSET = 92.0  # its centre, from the bet circle's along the arc (towards the next seat)
_HIGH_BOX = (140.0, 100.0)  # tangential x radial size
_LOW_BOX = (95.0, 100.0)
_DEAL_BOX = (175.0, 210.0)

# Fixed furniture (table mm): the dealer's zones, the shuffler with its LCD, the discard rack, i-Verify.
_DEALER_HAND = (512.0, 14.0, 1008.0, 122.0)  # x0, y0, x1, y1
_DEALER_HIGH = (585.0, 138.0, 735.0, 246.0)
_DEALER_LOW = (785.0, 138.0, 890.0, 246.0)
_SHUFFLER = (1170.0, 6.0, 1490.0, 150.0)
_LCD = (1190.0, 30.0, 1290.0, 110.0)
_DISCARD = (1030.0, 10.0, 1150.0, 122.0)
_IVERIFY = (20.0, 12.0, 440.0, 132.0)

# The camera: table corners (TL, TR, BR, BL) -> image pixels; a slightly tilted overhead view.
_IMAGE_CORNERS = ((40.0, 18.0), (1245.0, 10.0), (1275.0, 712.0), (2.0, 706.0))


@dataclass(frozen=True)
class Pose:
    """Where a card lies: centre in table mm, and the direction its artwork's top points (unit vector)."""

    x: float
    y: float
    ux: float  # artwork "up" (from the card's centre towards its top edge), table coordinates
    uy: float
    sx: float = 1.0  # width scale (a card being turned over shrinks to 0 and grows back)

    def corners(self) -> np.ndarray:
        """Artwork TL, TR, BR, BL corners in table mm, shape (4, 2)."""
        u = np.array([self.ux, self.uy])
        r = np.array([-self.uy, self.ux])
        c = np.array([self.x, self.y])
        hw, hh = CARD_W_MM / 2 * self.sx, CARD_H_MM / 2
        return np.array([c - hw * r + hh * u, c + hw * r + hh * u, c + hw * r - hh * u, c - hw * r - hh * u])


def _rect(box: tuple[float, float, float, float]) -> list[Point]:
    x0, y0, x1, y1 = box
    return [Point(x=x0, y=y0), Point(x=x1, y=y0), Point(x=x1, y=y1), Point(x=x0, y=y1)]


def _oriented_box(cx: float, cy: float, theta: float, size: tuple[float, float]) -> list[Point]:
    """A box centred on (cx, cy), its width along the arc's tangent and its depth along the radius."""
    rad = math.radians(theta)
    radial = np.array([math.cos(rad), math.sin(rad)])
    tangent = np.array([math.sin(rad), -math.cos(rad)])
    w, d = size[0] / 2, size[1] / 2
    c = np.array([cx, cy])
    pts = [
        c - w * tangent - d * radial,
        c + w * tangent - d * radial,
        c + w * tangent + d * radial,
        c - w * tangent + d * radial,
    ]
    return [Point(x=round(float(p[0]), 2), y=round(float(p[1]), 2)) for p in pts]


def _circle(cx: float, cy: float, r: float, n: int = 24) -> list[Point]:
    return [
        Point(
            x=round(cx + r * math.cos(2 * math.pi * k / n), 2),
            y=round(cy + r * math.sin(2 * math.pi * k / n), 2),
        )
        for k in range(n)
    ]


class TableGeometry:
    """Where things go on the rendered table (all table mm): seat piles, fans, dealer rows, furniture."""

    def __init__(self) -> None:
        self.dealer_centre = _DEALER_CENTRE
        self.shuffler_out = (1160.0, 78.0)  # where hands leave the shuffler
        self.discard = ((_DISCARD[0] + _DISCARD[2]) / 2, (_DISCARD[1] + _DISCARD[3]) / 2)
        self.lcd_box = _LCD
        self.iverify_box = _IVERIFY
        self.shuffler_box = _SHUFFLER
        self.discard_box = _DISCARD
        self.dealer_hand_box = _DEALER_HAND
        self.dealer_high_box = _DEALER_HIGH
        self.dealer_low_box = _DEALER_LOW
        self.seats = list(range(1, 7))
        self.bet_radius = _BET_RADIUS
        self.payout_radius = _PAYOUT_RADIUS

    def seat_angle(self, seat: int) -> float:
        return _SEAT_ANGLES[seat - 1]

    def _at(self, seat: int, radius: float) -> tuple[float, float]:
        rad = math.radians(self.seat_angle(seat))
        return self.dealer_centre[0] + radius * math.cos(rad), self.dealer_centre[1] + radius * math.sin(rad)

    def seat_up(self, seat: int) -> tuple[float, float]:
        """Card 'up' direction at a seat: the artwork's top points at the dealer."""
        rad = math.radians(self.seat_angle(seat))
        return -math.cos(rad), -math.sin(rad)

    def bet_centre(self, seat: int) -> tuple[float, float]:
        return self._at(seat, _R_BET)

    def payout_centre(self, seat: int) -> tuple[float, float]:
        """The payout circle's centre: beside the bet circle, along the arc's tangent."""
        rad = math.radians(self.seat_angle(seat))
        bx, by = self.bet_centre(seat)
        return bx + _PAYOUT_OFFSET * math.sin(rad), by - _PAYOUT_OFFSET * math.cos(rad)

    def zone_centre(self, seat: int, zone: str) -> tuple[float, float]:
        return self._at(seat, {"high": _R_HIGH, "low": _R_LOW, "dealt": _R_DEAL}[zone])

    def pile(
        self, seat: int | None, zone: str, n: int, rng: np.random.Generator, messy: float = 1.0
    ) -> list[Pose]:
        """Poses of ``n`` stacked cards (bottom first), each slightly off square (``messy`` scales it)."""
        if seat is None:
            cx, cy = self.dealer_zone_centre(zone)
            ux, uy = 0.0, -1.0
        else:
            cx, cy = self.zone_centre(seat, zone)
            ux, uy = self.seat_up(seat)
        out = []
        for _ in range(n):
            a = math.radians(float(rng.normal(0, 2.0 * messy)))
            dx, dy = rng.normal(0, 1.2 * messy, 2)
            out.append(
                Pose(
                    cx + float(dx),
                    cy + float(dy),
                    ux * math.cos(a) - uy * math.sin(a),
                    ux * math.sin(a) + uy * math.cos(a),
                )
            )
        return out

    def fan(self, seat: int | None, zone: str, n: int, step: float = FAN_STEP_MM) -> list[Pose]:
        """Poses of ``n`` face-up cards overlapping left to right (as the camera reads the seat)."""
        if seat is None:
            cx, cy = self.dealer_zone_centre(zone)
            ux, uy = 0.0, -1.0
            if zone == "hand":
                step = CARD_W_MM + 5.0  # the dealer exposes his hand side by side
        else:
            cx, cy = self.zone_centre(seat, zone)
            ux, uy = self.seat_up(seat)
        rx, ry = -uy, ux
        off0 = -(n - 1) * step / 2
        return [Pose(cx + (off0 + k * step) * rx, cy + (off0 + k * step) * ry, ux, uy) for k in range(n)]

    def dealer_zone_centre(self, zone: str) -> tuple[float, float]:
        box = {"hand": _DEALER_HAND, "high": _DEALER_HIGH, "low": _DEALER_LOW}[zone]
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    def seat_zones(self, seat: int) -> SeatZones:
        theta = self.seat_angle(seat)
        return SeatZones(
            seat=seat,
            bet=_circle(*self.bet_centre(seat), _BET_RADIUS),
            high=_oriented_box(*self.zone_centre(seat, "high"), theta, _HIGH_BOX),
            low=_oriented_box(*self.zone_centre(seat, "low"), theta, _LOW_BOX),
            deal=_oriented_box(*self.zone_centre(seat, "dealt"), theta, _DEAL_BOX),
            payout=_circle(*self.payout_centre(seat), _PAYOUT_RADIUS),
        )


def build_layout(
    game: Game, table_id: str | None = None, image_size: tuple[int, int] = (IMAGE_W, IMAGE_H)
) -> TableLayout:
    """The layout file of the rendered table for ``game`` (the monitor reads this same file).

    ``image_size`` is the camera's resolution: the same view (the felt fills the frame), more or
    fewer pixels per card."""
    g = TableGeometry()
    sx, sy = image_size[0] / IMAGE_W, image_size[1] / IMAGE_H
    table_corners = ((0.0, 0.0), (TABLE_W_MM, 0.0), (TABLE_W_MM, TABLE_H_MM), (0.0, TABLE_H_MM))
    names = ("felt-top-left", "felt-top-right", "felt-bottom-right", "felt-bottom-left")
    refs = [
        ReferencePoint(name=n, table=Point(x=t[0], y=t[1]), image=Point(x=i[0] * sx, y=i[1] * sy))
        for n, t, i in zip(names, table_corners, _IMAGE_CORNERS, strict=True)
    ]
    return TableLayout(
        table_id=table_id or ("render-7card" if game == "seven-card" else "render-6card"),
        game=game,
        image_width=int(image_size[0]),
        image_height=int(image_size[1]),
        table_width_mm=TABLE_W_MM,
        table_height_mm=TABLE_H_MM,
        reference_points=refs,
        seats=[g.seat_zones(s) for s in g.seats],
        dealer=DealerZones(hand=_rect(_DEALER_HAND), high=_rect(_DEALER_HIGH), low=_rect(_DEALER_LOW)),
        lcd=_rect(_LCD),
        iverify=_rect(_IVERIFY),
        positions=[*(f"seat{s}" for s in g.seats), "dealer"],
        foul_policy="house-way-reset" if game == "seven-card" else "loses",
    )


_LAYOUT_HEADER = """\
# Layout of the rendered {game} table (render/table.py; the monitor reads this file).
# Seats 1-6 are numbered counter-clockwise as seen from above, starting at the dealer's right
# (the camera's left). `positions` lists the shuffler's positions in that counter-clockwise order:
# LCD value n names positions[n-1] (1-6 = seats 1-6, 7 = the dealer); seed 000 rules 3-4.
# Table coordinates are millimetres, x to the right, y away from the dealer (top of the image).
"""


def write_layout(layout: TableLayout, path: Path) -> None:
    """Write the layout YAML with a header that documents the seat numbering."""
    import yaml

    body = yaml.safe_dump(layout.model_dump(mode="json"), sort_keys=False)
    path.write_text(_LAYOUT_HEADER.format(game=layout.game) + body)


# --- the printed felt ---------------------------------------------------------------------------

_PX_PER_MM = 1.5  # resolution of the felt canvas before it is warped into the camera image
_MARGIN_MM = 80.0  # canvas reaches past the felt edge (the padded rail)


def felt_to_canvas() -> np.ndarray:
    """3x3 matrix mapping table mm to felt-canvas pixels."""
    s = _PX_PER_MM
    return np.array([[s, 0, s * _MARGIN_MM], [0, s, s * _MARGIN_MM], [0, 0, 1.0]])


def _cv_pts(points: list[Point] | np.ndarray) -> np.ndarray:
    m = felt_to_canvas()
    arr = np.array([[p.x, p.y] for p in points]) if isinstance(points, list) else np.asarray(points)
    out = arr * m[0, 0] + m[0, 2]
    return np.asarray(np.round(out * 16), dtype=np.int32)  # 4 fractional bits for cv2 shift=4


def draw_felt(layout: TableLayout, rng: np.random.Generator) -> np.ndarray:
    """The printed felt with its furniture, in table mm at ``_PX_PER_MM`` (BGR uint8 canvas)."""
    s = _PX_PER_MM
    w = round((TABLE_W_MM + 2 * _MARGIN_MM) * s)
    h = round((TABLE_H_MM + 2 * _MARGIN_MM) * s)
    base = np.array([38, 104, 30], dtype=np.float32) + rng.normal(0, 4, 3).astype(np.float32)
    # Felt texture: smooth mottling plus a fine fibre noise.
    coarse = cv2.resize(
        rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
    tex = 5.0 * coarse + 6.0 * fine
    img = np.clip(base[None, None, :] + tex[:, :, None] * np.array([0.8, 1.0, 0.8], np.float32), 0, 255)
    canvas: np.ndarray = np.asarray(img, dtype=np.uint8)
    # Rail: everything outside the felt rectangle.
    rail = np.zeros((h, w), np.uint8)
    rail[:] = 255
    cv2.rectangle(
        rail,
        (round(_MARGIN_MM * s), round(_MARGIN_MM * s)),
        (round((TABLE_W_MM + _MARGIN_MM) * s), round((TABLE_H_MM + _MARGIN_MM) * s)),
        0,
        -1,
    )
    canvas[rail > 0] = (30, 38, 60)

    gold = (90, 190, 225)
    white = (225, 235, 230)
    lw = max(1, round(2.5 * s))
    g = TableGeometry()
    shift = 4
    for seat in layout.seats:
        cv2.polylines(canvas, [_cv_pts(seat.bet)], True, gold, lw, cv2.LINE_AA, shift)
        if seat.payout is not None:
            cv2.polylines(canvas, [_cv_pts(seat.payout)], True, white, max(1, lw // 2), cv2.LINE_AA, shift)
        cv2.polylines(canvas, [_cv_pts(seat.high)], True, white, lw, cv2.LINE_AA, shift)
        cv2.polylines(canvas, [_cv_pts(seat.low)], True, white, lw, cv2.LINE_AA, shift)
        for label, zone, scale in (("H", "high", 1.6), ("L", "low", 1.6)):
            cx, cy = g.zone_centre(seat.seat, zone)
            _text_centred(canvas, label, (cx, cy), scale * s / 1.5, (70, 140, 60), round(4 * s))
        bx, by = g.bet_centre(seat.seat)
        ux, uy = g.seat_up(seat.seat)
        _text_centred(
            canvas, str(seat.seat), (bx - ux * 62, by - uy * 62), 1.1 * s / 1.5, white, round(2 * s)
        )
    # Dealer's area.
    for box, label in ((_DEALER_HAND, "DEALER"), (_DEALER_HIGH, "HIGH"), (_DEALER_LOW, "LOW")):
        cv2.polylines(canvas, [_cv_pts(_rect(box))], True, white, lw, cv2.LINE_AA, shift)
        _text_centred(
            canvas,
            label,
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            0.9 * s / 1.5,
            (70, 140, 60),
            round(2 * s),
        )
    # Arc and title printed on the felt.
    cx, cy = _DEALER_CENTRE
    for r in (_R_HIGH - 75, _R_BET + 70):
        cv2.ellipse(
            canvas,
            (round((cx + _MARGIN_MM) * s), round((cy + _MARGIN_MM) * s)),
            (round(r * s), round(r * s)),
            0,
            12,
            168,
            gold,
            lw,
            cv2.LINE_AA,
        )
    _text_centred(canvas, "FORTUNE PAI GOW POKER", (cx, cy + 230), 1.3 * s / 1.5, gold, round(3 * s))
    _text_centred(canvas, "DEALER MUST SET BY HOUSE WAY", (cx, cy + 280), 0.8 * s / 1.5, white, round(2 * s))
    # Shuffler body and the discard rack (the LCD and i-Verify panels are drawn per frame).
    _box(canvas, _SHUFFLER, (72, 74, 78), (40, 40, 44))
    _box(
        canvas,
        (_SHUFFLER[0] + 140, _SHUFFLER[1] + 20, _SHUFFLER[2] - 20, _SHUFFLER[3] - 20),
        (56, 58, 62),
        (30, 30, 34),
    )
    _box(canvas, _DISCARD, (25, 25, 30), (60, 60, 70))
    _box(
        canvas,
        (_IVERIFY[0] - 6, _IVERIFY[1] - 6, _IVERIFY[2] + 6, _IVERIFY[3] + 6),
        (30, 30, 32),
        (20, 20, 20),
    )
    return canvas


def _box(
    canvas: np.ndarray,
    box: tuple[float, float, float, float],
    fill: tuple[int, int, int],
    edge: tuple[int, int, int],
) -> None:
    pts = _cv_pts(_rect(box))
    cv2.fillPoly(canvas, [pts], fill, cv2.LINE_AA, 4)
    cv2.polylines(canvas, [pts], True, edge, 3, cv2.LINE_AA, 4)


def _text_centred(
    canvas: np.ndarray,
    text: str,
    centre: tuple[float, float],
    scale: float,
    colour: tuple[int, int, int],
    thick: int,
) -> None:
    s = _PX_PER_MM
    font = cv2.FONT_HERSHEY_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale * 1.5, thick)
    x = round((centre[0] + _MARGIN_MM) * s - tw / 2)
    y = round((centre[1] + _MARGIN_MM) * s + th / 2)
    cv2.putText(canvas, text, (x, y), font, scale * 1.5, colour, thick, cv2.LINE_AA)
