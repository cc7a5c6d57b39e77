"""A synthetic table for the vision tests: a felt, a layout, coloured rectangles as "cards", an arm.

``SynthTable`` draws frames through the layout's homography (so rectification is exercised), and
``ColourDetector`` is a fake card detector keyed on the rectangles' colours (no model, no GPU).
The tests at the bottom check the scene itself, so a broken fixture shows as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detections import CLASSES, Detections
from vision.layout import TableLayout

# BGR colour -> card class; far from the felt, from skin and from each other
PALETTE: dict[str, tuple[int, int, int]] = {
    "As": (255, 0, 0),
    "Kd": (0, 255, 255),
    "Qh": (255, 0, 255),
    "Jc": (255, 255, 0),
    "Ts": (0, 0, 255),
    "9h": (128, 0, 128),
    "2c": (0, 128, 255),
    "Jk": (0, 255, 0),
    "5d": (128, 128, 0),
    "BACK": (90, 40, 160),
}
FELT = (40, 100, 30)
SKIN = (120, 160, 220)
CARD_W, CARD_H = 63.0, 88.0


def _rect(x: float, y: float, w: float, h: float) -> list[dict[str, float]]:
    return [{"x": x, "y": y}, {"x": x + w, "y": y}, {"x": x + w, "y": y + h}, {"x": x, "y": y + h}]


def _circle(cx: float, cy: float, r: float, n: int = 16) -> list[dict[str, float]]:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return [{"x": float(cx + r * np.cos(t)), "y": float(cy + r * np.sin(t))} for t in a]


def make_layout(game: str = "seven-card", *, payout: bool = False) -> TableLayout:
    """Three seats along the near edge, the dealer at the far edge, displays in the far corners
    (``payout``: a payout spot beside each bet circle; layouts may have none)."""
    seats = []
    for i, n in enumerate((1, 2, 3)):
        x0 = 150 + i * 520
        seat = {
            "seat": n,
            "bet": _circle(x0 + 200, 875, 45),
            "high": _rect(x0, 560, 330, 120),
            "low": _rect(x0 + 340, 560, 140, 120),
            "deal": _rect(x0 + 120, 700, 200, 110),
        }
        if payout:
            seat["payout"] = _circle(x0 + 310, 875, 35)
        seats.append(seat)
    raw = {
        "table_id": "T1",
        "game": game,
        "image_width": 1280,
        "image_height": 720,
        "table_width_mm": 1800,
        "table_height_mm": 950,
        "reference_points": [
            {"name": "a", "table": {"x": 0, "y": 0}, "image": {"x": 90, "y": 40}},
            {"name": "b", "table": {"x": 1800, "y": 0}, "image": {"x": 1190, "y": 40}},
            {"name": "c", "table": {"x": 1800, "y": 950}, "image": {"x": 1260, "y": 700}},
            {"name": "d", "table": {"x": 0, "y": 950}, "image": {"x": 20, "y": 700}},
        ],
        "seats": seats,
        "dealer": {
            "hand": _rect(650, 150, 500, 110),
            "high": _rect(600, 280, 330, 110),
            "low": _rect(950, 280, 140, 110),
        },
        "lcd": _rect(1550, 40, 80, 110),
        "iverify": _rect(60, 40, 420, 300),
        "positions": ["seat3", "seat2", "seat1", "dealer"],
    }
    return TableLayout.model_validate(raw)


SEGMENTS = {  # a..g boxes on a 0..1 digit cell (x0, y0, x1, y1)
    "a": (0.15, 0.0, 0.85, 0.12),
    "b": (0.85, 0.06, 1.0, 0.47),
    "c": (0.85, 0.53, 1.0, 0.94),
    "d": (0.15, 0.88, 0.85, 1.0),
    "e": (0.0, 0.53, 0.15, 0.94),
    "f": (0.0, 0.06, 0.15, 0.47),
    "g": (0.15, 0.44, 0.85, 0.56),
}
DIGIT_SEGS = {1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg", 6: "acdefg", 7: "abc"}


def draw_digit(panel: np.ndarray, d: int | None) -> None:
    h, w = panel.shape[:2]
    if d is None:
        return
    dh = 0.7 * h
    dw = 0.5 * dh
    ox, oy = (w - dw) / 2, (h - dh) / 2
    for s in DIGIT_SEGS[d]:
        x0, y0, x1, y1 = SEGMENTS[s]
        cv2.rectangle(
            panel,
            (int(ox + x0 * dw), int(oy + y0 * dh)),
            (int(ox + x1 * dw), int(oy + y1 * dh)),
            (40, 40, 235),
            -1,
        )


def draw_iverify(panel: np.ndarray, header: str | None, high: list[str], low: list[str]) -> None:
    """The display as the renderer's spec draws it, with palette rectangles for the card images."""
    panel[:] = (70, 30, 10)
    h, w = panel.shape[:2]
    if header is None:
        return
    scale = 0.2 * h / 22
    cv2.putText(
        panel,
        header,
        (int(0.05 * w), int(0.22 * h)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    cw, ch = int(0.12 * w), int(0.25 * h)
    for i, c in enumerate(high):
        x = int(0.05 * w) + i * int(0.15 * w)
        cv2.rectangle(panel, (x, int(0.35 * h)), (x + cw, int(0.35 * h) + ch), PALETTE[c], -1)
    for i, c in enumerate(low):
        x = int(0.05 * w) + i * int(0.15 * w)
        cv2.rectangle(panel, (x, int(0.68 * h)), (x + cw, int(0.68 * h) + ch), PALETTE[c], -1)


@dataclass
class SynthTable:
    layout: TableLayout
    cards: list[tuple[str, float, float]] = field(default_factory=list)  # (token, table x, table y) centre
    lcd: int | None = None
    header: str | None = None
    iv_high: list[str] = field(default_factory=list)
    iv_low: list[str] = field(default_factory=list)
    chips: set[int] = field(default_factory=set)
    payouts: set[int] = field(default_factory=set)  # seats with a payout stack in the payout spot
    arm: tuple[float, float] | None = None  # table point where the arm's hand is (arm reaches from the top)
    # patches laid on the felt under the cards: (table polygon, BGR colour), e.g. an arm's shadow
    shade: list[tuple[list[tuple[float, float]], tuple[int, int, int]]] = field(default_factory=list)
    arm_colour: tuple[int, int, int] = SKIN  # a bare arm; or a sleeve
    towel: bool = False
    noise: int = 3
    light: float = 1.0  # the picture's brightness: the lights dimmed below 1

    def frame(self, seed: int = 0) -> np.ndarray:
        lay = self.layout
        hmat = lay.homography()
        img = _felt(lay.image_width, lay.image_height, hmat).copy()
        for s in lay.seats:
            bet = np.array([[p.x, p.y] for p in s.bet])
            cv2.polylines(img, [_to_img(hmat, bet)], True, (200, 200, 200), 1, cv2.LINE_AA)
            spots = [(bet, s.seat in self.chips, 30)]
            if s.payout is not None:
                spot = np.array([[p.x, p.y] for p in s.payout])
                cv2.polylines(img, [_to_img(hmat, spot)], True, (200, 200, 200), 1, cv2.LINE_AA)
                spots.append((spot, s.seat in self.payouts, 25))
            for poly, stacked, r in spots:
                if not stacked:
                    continue
                c = poly.mean(0)
                chip = np.array(
                    [[c[0] + r * np.cos(a), c[1] + r * np.sin(a)] for a in np.linspace(0, 6.28, 24)]
                )
                cv2.fillPoly(img, [_to_img(hmat, chip)], (30, 30, 200))
                cv2.polylines(img, [_to_img(hmat, chip * 0.999)], True, (255, 255, 255), 2)
        for poly_mm, colour in self.shade:
            cv2.fillPoly(img, [_to_img(hmat, np.array(poly_mm, np.float64))], colour)
        self._panel(img, hmat, [[p.x, p.y] for p in lay.lcd], (160, 220), self._lcd_panel)
        self._panel(img, hmat, [[p.x, p.y] for p in lay.iverify], (420, 300), self._iv_panel)
        for tok, x, y in self.cards:
            q = np.array(
                [
                    [x - CARD_W / 2, y - CARD_H / 2],
                    [x + CARD_W / 2, y - CARD_H / 2],
                    [x + CARD_W / 2, y + CARD_H / 2],
                    [x - CARD_W / 2, y + CARD_H / 2],
                ]
            )
            cv2.fillPoly(img, [_to_img(hmat, q)], PALETTE[tok])
        if self.towel:
            pts = np.array([[p.x, p.y] for p in lay.iverify])
            x0, y0 = pts.min(0)
            x1, y1 = pts.max(0)
            q = np.array(
                [
                    [x0 - 10, y0 - 10],
                    [x1 + 10, y0 - 10],
                    [x1 + 10, y0 + 0.8 * (y1 - y0)],
                    [x0 - 10, y0 + 0.8 * (y1 - y0)],
                ]
            )
            cv2.fillPoly(img, [_to_img(hmat, q)], (230, 230, 225))
        if self.arm is not None:
            ax, ay = self.arm
            q = np.array([[ax - 60, -50], [ax + 60, -50], [ax + 70, ay + 60], [ax - 70, ay + 60]])
            cv2.fillPoly(img, [_to_img(hmat, q)], self.arm_colour)
        if self.light != 1.0:
            img = cv2.convertScaleAbs(img, alpha=self.light)
        if self.noise:
            img = cv2.add(img, _noise(seed, self.noise, img.shape))
        return img

    def _lcd_panel(self, w: int, h: int) -> np.ndarray:
        p = np.zeros((h, w, 3), np.uint8)
        draw_digit(p, self.lcd)
        return p

    def _iv_panel(self, w: int, h: int) -> np.ndarray:
        p = np.zeros((h, w, 3), np.uint8)
        draw_iverify(p, self.header, self.iv_high, self.iv_low)
        return p

    @staticmethod
    def _panel(
        img: np.ndarray, hmat: np.ndarray, poly: list[list[float]], size: tuple[int, int], draw: object
    ) -> None:
        w, h = size
        panel = draw(w, h)  # type: ignore[operator]
        dst = _to_img(hmat, np.array(poly, np.float64)).astype(np.float32)
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        # warped into the panel's bounding box only (the same pixels as into the whole frame, a
        # fraction of the time: frames are drawn by the thousand in the pipeline tests)
        x0, y0 = np.maximum(np.floor(dst.min(0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(dst.max(0)).astype(int) + 2, [img.shape[1], img.shape[0]])
        if x1 <= x0 or y1 <= y0:
            return
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        m = shift @ cv2.getPerspectiveTransform(src, dst)
        size = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpPerspective(panel, m, size)
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size) > 127
        img[y0:y1, x0:x1][mask] = warped[mask]


# the felt on its rail, and each frame's sensor noise, drawn once and reused: the pipeline tests draw
# thousands of frames of a few layouts, with the same few seeds (a frame's index)
_FELTS: dict[tuple[int, int, bytes], np.ndarray] = {}
_NOISE: dict[tuple[int, int, tuple[int, ...]], np.ndarray] = {}
_NOISE_KEPT = 64


def _felt(w: int, h: int, hmat: np.ndarray) -> np.ndarray:
    key = (w, h, hmat.tobytes())
    if key not in _FELTS:
        img = np.full((h, w, 3), (30, 60, 90), np.uint8)  # rail around the felt
        felt = np.array([[0, 0], [1800, 0], [1800, 950], [0, 950]], np.float64)
        cv2.fillPoly(img, [_to_img(hmat, felt)], FELT)
        img.flags.writeable = False
        _FELTS[key] = img
    return _FELTS[key]


def _noise(seed: int, level: int, shape: tuple[int, ...]) -> np.ndarray:
    key = (seed, level, tuple(shape))
    got = _NOISE.get(key)
    if got is None:
        got = np.random.default_rng(seed).integers(0, level + 1, shape, dtype=np.uint8)
        got.flags.writeable = False
        if len(_NOISE) >= _NOISE_KEPT:
            _NOISE.pop(next(iter(_NOISE)))
        _NOISE[key] = got
    return got


def _to_img(hmat: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.concatenate([pts, np.ones((len(pts), 1))], 1) @ hmat.T
    return np.round(q[:, :2] / q[:, 2:3]).astype(np.int32)


def colour_mask(image: np.ndarray, colour: tuple[int, int, int], tol: int = 25) -> np.ndarray:
    """Where ``image`` is within ``tol`` of BGR ``colour`` in every channel: 1 there, else 0 (uint8).
    ``cv2.inRange`` on a uint8 picture (many times faster than numpy over int16, which any other
    picture gets; both give the same mask)."""
    if image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3:
        c = np.array(colour, np.int16)
        lo, hi = np.clip(c - tol, 0, 255), np.clip(c + tol, 0, 255)
        return (cv2.inRange(image, lo.astype(np.float64), hi.astype(np.float64)) > 0).astype(np.uint8)
    return (np.abs(image.astype(np.int16) - np.array(colour, np.int16)).max(axis=2) <= tol).astype(np.uint8)


class ColourDetector:
    """Fake detector: one detection per palette-coloured blob in the crop. ``wrong`` makes the next
    ``wrong`` calls misread every card as the Joker (a flickering detector)."""

    def __init__(self, wrong: int = 0) -> None:
        self.calls = 0
        self.wrong = wrong

    def detect(self, image: np.ndarray) -> Detections:
        self.calls += 1
        boxes, cls = [], []
        for tok, col in PALETTE.items():
            mask = colour_mask(image, col)
            if not cv2.countNonZero(mask):
                continue
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
            for i in range(1, n):
                x, y, w, h, a = stats[i]
                if a >= 80 and min(w, h) >= 6:  # no 1-px slivers where a resized crop blends colours
                    boxes.append([x, y, x + w, y + h])
                    cls.append(CLASSES.index(tok))
        if self.wrong > 0 and cls:
            self.wrong -= 1
            cls = [CLASSES.index("Jk")] * len(cls)
        return Detections(np.array(boxes, np.float32), np.array(cls), np.full(len(cls), 0.9, np.float32))


def write_clip(path: Path, frames: list[np.ndarray], fps: float = 25.0) -> Path:
    """Frames as a video file (MJPG in .avi: every OpenCV build writes it)."""
    h, w = frames[0].shape[:2]
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert vw.isOpened(), f"cannot write {path}"
    for f in frames:
        vw.write(f)
    vw.release()
    return path


# --- the fixture checks itself ------------------------------------------------------------------------


def test_colour_detector_finds_drawn_cards() -> None:
    t = SynthTable(make_layout(), cards=[("As", 300, 620), ("Kd", 400, 620)])
    dets = ColourDetector().detect(t.frame())
    assert sorted(dets.labels) == ["As", "Kd"]


def test_clip_round_trip(tmp_path: Path) -> None:
    t = SynthTable(make_layout())
    p = write_clip(tmp_path / "c.avi", [t.frame(i) for i in range(3)])
    cap = cv2.VideoCapture(str(p))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 3
