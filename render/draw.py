"""Drawing one frame: the warped felt, the LCD, the i-Verify display, chips, cards, the arm, the camera.

Everything is placed in table millimetres and mapped with the layout's homography, so a card's
ground-truth quad is exactly where its artwork is warped. The felt (with the wagers' and payouts'
chips) is warped once per chip pattern; a card at rest is warped once and reused (its pose does not change).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from render.artwork import CardArt
from render.director import ArmPose, CardView, FrameScene, IVerifyView
from render.table import CARD_H_MM, CARD_W_MM, TableGeometry, draw_felt, felt_to_canvas
from vision.layout import TableLayout

__all__ = ["CardBox", "FrameRenderer"]

_ART_WIDTH = 64  # artwork pixels across a card before warping (about 1.2x its size in the frame)
_SKIN_TONES = ((150, 175, 225), (120, 150, 200), (95, 125, 175), (70, 95, 140), (165, 190, 235))
_SLEEVES = ((35, 30, 30), (200, 205, 210), (40, 30, 95), (70, 45, 30))
_PLAYER_SLEEVES = ((45, 45, 45), (30, 60, 150), (150, 150, 150), (90, 40, 110), (20, 90, 170), (110, 80, 20))
_CHIP_COLOURS = ((40, 40, 210), (190, 90, 30), (35, 35, 35), (160, 70, 170), (20, 150, 230))
_IV_BG = (70, 30, 10)  # display_spec.md: the i-Verify panel, BGR
_LCD_ON = (40, 40, 235)  # display_spec.md: lit segments, BGR


@dataclass(frozen=True)
class CardBox:
    card: str  # "As" | "Jk" | "BACK"
    quad: tuple[tuple[float, float], ...]
    xyxy: tuple[float, float, float, float]
    zone: str
    visible: float
    cid: int


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3])


class FrameRenderer:
    """Renders ``FrameScene`` objects of one clip into BGR frames and their card boxes."""

    def __init__(self, layout: TableLayout, deck: CardArt, seed: int, effects: bool = True) -> None:
        self.layout = layout
        self.w, self.h = layout.image_width, layout.image_height
        self.hmat = layout.homography()
        self.geo = TableGeometry()
        self.rng = np.random.default_rng(seed)
        self._seed = seed
        self.effects = effects
        self._felt = draw_felt(layout, self.rng)
        self._canvas_to_img = self.hmat @ np.linalg.inv(felt_to_canvas())
        self._bg_cache: dict[tuple[frozenset[int], frozenset[int]], np.ndarray] = {}
        self._art: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for tok in [*[str(c) for c in deck.faces], "BACK"]:
            img = deck.image(tok)
            h = round(_ART_WIDTH * img.shape[0] / img.shape[1])
            small = cv2.resize(img, (_ART_WIDTH, h), interpolation=cv2.INTER_AREA)
            self._art[tok] = (small, small)
        self._warp_cache: OrderedDict[tuple[object, ...], tuple[int, int, np.ndarray, np.ndarray]] = (
            OrderedDict()
        )
        self._panel_cache: dict[
            tuple[object, ...], tuple[int, int, np.ndarray, np.ndarray, list[CardBox]]
        ] = {}
        self.skin = _SKIN_TONES[int(self.rng.integers(len(_SKIN_TONES)))]
        self.sleeve = _SLEEVES[int(self.rng.integers(len(_SLEEVES)))]
        self._camera_maps()
        self._quad_cache: dict[object, np.ndarray] = {}
        self._static_key: object = None
        self._static_val: tuple[np.ndarray, np.ndarray | None, list[CardBox]] | None = None
        self._vis_key: object = None
        self._vis_val: list[CardBox] | None = None

    # --- camera ---------------------------------------------------------------------------
    def _camera_maps(self) -> None:
        rng = self.rng
        yy, xx = np.mgrid[0 : self.h, 0 : self.w].astype(np.float32)
        cx, cy = self.w * rng.uniform(0.35, 0.65), self.h * rng.uniform(0.3, 0.6)
        r2 = ((xx - cx) / self.w) ** 2 + ((yy - cy) / self.h) ** 2
        direction = rng.uniform(-0.08, 0.08) * (xx / self.w - 0.5) + rng.uniform(-0.06, 0.06) * (
            yy / self.h - 0.5
        )
        gain = np.clip(1.05 - 0.55 * r2 + direction, 0.6, 1.2)
        self._gain = np.repeat((gain * 128).astype(np.uint8)[:, :, None], 3, axis=2)
        gx, gy = self.w * rng.uniform(0.2, 0.8), self.h * rng.uniform(0.25, 0.75)
        sig = rng.uniform(60, 110)
        glare = 70 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig**2))
        self._glare = np.repeat(glare.astype(np.uint8)[:, :, None], 3, axis=2)
        self._noise = []
        for _ in range(6):
            n = rng.normal(0, 2.2, (self.h, self.w, 3))
            self._noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))

    def _camera(self, frame: np.ndarray, k: int) -> np.ndarray:
        if not self.effects:
            return frame
        frame = cv2.multiply(frame, self._gain, scale=1 / 128)
        frame = cv2.add(frame, self._glare)
        frame = cv2.GaussianBlur(frame, (3, 3), 0.7)
        pos, neg = self._noise[int(self.rng.integers(len(self._noise)))]
        frame = cv2.add(frame, pos)
        return cv2.subtract(frame, neg)

    # --- static parts -----------------------------------------------------------------------
    def _background(self, chips: frozenset[int], payouts: frozenset[int] = frozenset()) -> np.ndarray:
        """The felt with the chip stacks: wagers in the bet circles, payouts in the payout circles.

        Each stack's look (height, colour) is fixed per seat and spot within a clip, so a stack that
        is taken or placed leaves every other stack as it was."""
        key = (chips, payouts)
        bg = self._bg_cache.get(key)
        if bg is None:
            canvas = self._felt.copy()
            m = felt_to_canvas()
            stacks = [(seat, self.geo.bet_centre(seat), 0) for seat in sorted(chips)]
            stacks += [(seat, self.geo.payout_centre(seat), 1) for seat in sorted(payouts)]
            for seat, (bx, by), spot in stacks:
                crng = np.random.default_rng([self._seed, seat, spot])
                n = int(crng.integers(2, 6))
                colour = _CHIP_COLOURS[int(crng.integers(len(_CHIP_COLOURS)))]
                for j in range(n):  # a stack seen from above, slightly offset chip by chip
                    cx = (bx + 1.2 * j + crng.normal(0, 0.8)) * m[0, 0] + m[0, 2]
                    cy = (by - 1.5 * j + crng.normal(0, 0.8)) * m[1, 1] + m[1, 2]
                    r = 19.5 * m[0, 0]
                    c = (round(cx * 16), round(cy * 16))
                    cv2.circle(canvas, c, round(r * 16), (20, 20, 20), 2, cv2.LINE_AA, 4)
                    cv2.circle(canvas, c, round(r * 16), colour, -1, cv2.LINE_AA, 4)
                    for e in range(6):  # white edge marks
                        a = e * math.pi / 3 + j * 0.4
                        p0 = (
                            round((cx + 0.78 * r * math.cos(a)) * 16),
                            round((cy + 0.78 * r * math.sin(a)) * 16),
                        )
                        p1 = (
                            round((cx + 0.98 * r * math.cos(a)) * 16),
                            round((cy + 0.98 * r * math.sin(a)) * 16),
                        )
                        cv2.line(canvas, p0, p1, (235, 235, 235), 4, cv2.LINE_AA, 4)
                    cv2.circle(canvas, c, round(0.55 * r * 16), (230, 230, 230), 2, cv2.LINE_AA, 4)
            bg = cv2.warpPerspective(
                canvas,
                self._canvas_to_img,
                (self.w, self.h),
                flags=cv2.INTER_AREA,
                borderMode=cv2.BORDER_REPLICATE,
            )
            self._bg_cache[key] = bg
        return bg

    def _quad(self, corners_mm: np.ndarray) -> np.ndarray:
        return _apply(self.hmat, corners_mm)

    def _warp(
        self, key: tuple[object, ...], src: np.ndarray, quad: np.ndarray, cache: bool
    ) -> tuple[int, int, np.ndarray, np.ndarray] | None:
        """Warp an RGBA/BGR image onto ``quad``: (x0, y0, premultiplied BGR float, 1-alpha float)."""
        if cache and key in self._warp_cache:
            self._warp_cache.move_to_end(key)
            return self._warp_cache[key]
        x0 = max(math.floor(quad[:, 0].min()), 0)
        y0 = max(math.floor(quad[:, 1].min()), 0)
        x1 = min(math.ceil(quad[:, 0].max()) + 1, self.w)
        y1 = min(math.ceil(quad[:, 1].max()) + 1, self.h)
        if x1 <= x0 or y1 <= y0:
            return None
        h, w = src.shape[:2]
        srcq = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        dst = (quad - [x0 - 0.5, y0 - 0.5]).astype(np.float32)
        m = cv2.getPerspectiveTransform(srcq - 0.5, dst - 0.5)
        img = src if src.shape[2] == 4 else np.dstack([src, np.full((h, w), 255, np.uint8)])
        out = cv2.warpPerspective(
            img,
            m,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        a = out[:, :, 3:4].astype(np.float32) / 255.0
        res = (x0, y0, out[:, :, :3].astype(np.float32) * a, 1.0 - a)
        if cache:
            self._warp_cache[key] = res
            if len(self._warp_cache) > 600:
                self._warp_cache.popitem(last=False)
        return res

    @staticmethod
    def _blend(frame: np.ndarray, w: tuple[int, int, np.ndarray, np.ndarray]) -> None:
        x0, y0, pre, inv = w
        roi = frame[y0 : y0 + pre.shape[0], x0 : x0 + pre.shape[1]]
        roi[:] = (roi * inv + pre).astype(np.uint8)

    def _panel(
        self, box: tuple[float, float, float, float], key: tuple[object, ...], paint: object
    ) -> tuple[int, int, np.ndarray, np.ndarray, list[CardBox]]:
        """A flat panel (LCD, i-Verify) painted at 4 px/mm and warped to its place on the table."""
        hit = self._panel_cache.get(key)
        if hit is not None:
            return hit
        x0, y0, x1, y1 = box
        s = 2.0
        img = np.zeros((round((y1 - y0) * s), round((x1 - x0) * s), 3), np.uint8)
        boxes: list[tuple[str, np.ndarray]] = []
        paint(img, s, boxes)  # type: ignore[operator]
        quad = self._quad(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        w = self._warp(key, img, quad, cache=False)
        assert w is not None
        card_boxes = []
        for tok, q_mm in boxes:
            q = self._quad(q_mm)
            card_boxes.append(
                CardBox(tok, tuple((float(a), float(b)) for a, b in q), self._xyxy(q), "iverify", 1.0, -1)
            )
        res = (w[0], w[1], w[2], w[3], card_boxes)
        self._panel_cache[key] = res
        return res

    def _paint_lcd(self, value: int | None) -> object:
        def paint(img: np.ndarray, s: float, boxes: list[tuple[str, np.ndarray]]) -> None:
            img[:] = (8, 8, 8)
            if value is not None:
                _seven_segment(img, value, _LCD_ON)

        return paint

    def _paint_iverify(self, iv: IVerifyView) -> object:
        bx0, by0, _, by1 = self.geo.iverify_box

        def paint(img: np.ndarray, s: float, boxes: list[tuple[str, np.ndarray]]) -> None:
            img[:] = _IV_BG
            if iv.mode == "blank":
                return
            ph = by1 - by0
            header = "DEALER" if iv.mode == "dealer" else f"SEAT {iv.seat}"
            cv2.putText(
                img,
                header,
                (round(8 * s), round(0.24 * ph * s)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.8 * s,
                (255, 255, 255),
                2,
                cv2.LINE_AA,
            )
            ch = 0.64 * ph
            cw = ch / (CARD_H_MM / CARD_W_MM)
            top = by0 + 0.32 * ph
            x = bx0 + 8
            for group in (iv.high, iv.low):
                for tok in group:
                    art = self._art[tok][0]
                    q_mm = np.array([[x, top], [x + cw, top], [x + cw, top + ch], [x, top + ch]])
                    local = np.array([[(px - bx0) * s, (py - by0) * s] for px, py in q_mm], dtype=np.float32)
                    h, w = art.shape[:2]
                    m = cv2.getPerspectiveTransform(
                        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32), local
                    )
                    warped = cv2.warpPerspective(
                        art, m, (img.shape[1], img.shape[0]), flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0)
                    )
                    a = warped[:, :, 3:4].astype(np.float32) / 255
                    img[:] = (img * (1 - a) + warped[:, :, :3] * a).astype(np.uint8)
                    boxes.append((tok, q_mm))
                    x += cw + 3
                x += 14

        return paint

    def _cover(self, frame: np.ndarray, mask: np.ndarray) -> None:
        """A folded towel lying over most of the i-Verify display."""
        x0, y0, x1, y1 = self.geo.iverify_box
        pts = np.array(
            [
                [x0 - 14, y0 - 10],
                [x1 - 30, y0 - 16],
                [x1 + 12, y1 - 20],
                [x1 - 40, y1 + 14],
                [x0 + 10, y1 + 10],
                [x0 - 18, y0 + 40],
            ]
        )
        q = np.round(self._quad(pts) * 16).astype(np.int32)
        cv2.fillPoly(frame, [q], (190, 215, 225), cv2.LINE_AA, 4)
        cv2.fillPoly(mask, [q], 255, cv2.LINE_8, 4)
        for k in range(1, 5):  # folds
            a = self._quad(
                np.array([[x0 + k * (x1 - x0) / 5, y0 - 8], [x0 + k * (x1 - x0) / 5 - 25, y1 + 8]])
            )
            cv2.line(
                frame,
                tuple(np.round(a[0]).astype(int)),
                tuple(np.round(a[1]).astype(int)),
                (160, 185, 195),
                2,
                cv2.LINE_AA,
            )

    # --- the arm --------------------------------------------------------------------------
    def _arm(self, frame: np.ndarray, mask: np.ndarray, arm: ArmPose) -> None:
        sh = np.array([arm.shoulder_x, arm.shoulder_y])
        skin, sleeve = (self.skin, self.sleeve) if arm.who == "dealer" else self._player_look(arm.who)
        hand = np.array([arm.x, arm.y])
        d = hand - sh
        d /= max(np.linalg.norm(d), 1e-6)
        n = np.array([-d[1], d[0]])
        wrist = hand - 75 * d
        sleeve_poly = np.array([sh + 62 * n, wrist + 44 * n, wrist - 44 * n, sh - 62 * n])
        cuff = np.array(
            [wrist + 46 * n - 22 * d, wrist + 46 * n + 4 * d, wrist - 46 * n + 4 * d, wrist - 46 * n - 22 * d]
        )
        t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        palm_c = hand - 10 * d
        palm = np.array([palm_c + 60 * math.cos(a) * d + 42 * math.sin(a) * n for a in t])
        fingers = []
        for off in (-27, -9, 9, 27):
            base = hand + 35 * d + off * n
            fingers.append(np.array([base + 38 * math.cos(a) * d + 9 * math.sin(a) * n for a in t]))
        thumb_b = hand - 5 * d + 48 * n
        thumb = np.array([thumb_b + 30 * math.cos(a) * (0.6 * d + 0.8 * n) + 10 * math.sin(a) * n for a in t])
        shadow_off = np.array([28.0, 36.0])
        parts = [
            (sleeve_poly, sleeve),
            (cuff, tuple(min(255, c + 40) for c in sleeve)),
            (palm, skin),
            *[(f, skin) for f in fingers],
            (thumb, skin),
        ]
        # Soft shadow first.
        shadow = np.zeros_like(mask)
        for poly, _ in parts:
            cv2.fillPoly(
                shadow, [np.round(self._quad(poly + shadow_off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4
            )
        x0, y0, bw, bh = cv2.boundingRect(shadow)
        if bw > 0 and bh > 0:
            x1, y1 = x0 + bw, y0 + bh
            roi = frame[y0:y1, x0:x1]
            f = 1.0 - 0.35 * (shadow[y0:y1, x0:x1, None].astype(np.float32) / 255)
            roi[:] = (roi * f).astype(np.uint8)
        for poly, colour in parts:
            q = np.round(self._quad(poly) * 16).astype(np.int32)
            cv2.fillPoly(frame, [q], colour, cv2.LINE_AA, 4)
            cv2.fillPoly(mask, [q], 255, cv2.LINE_8, 4)
        for f in fingers:  # knuckle lines
            q = self._quad(f)
            cv2.polylines(
                frame,
                [np.round(q * 16).astype(np.int32)],
                True,
                tuple(int(c * 0.8) for c in skin),
                1,
                cv2.LINE_AA,
                4,
            )

    def _player_look(self, who: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """A player's skin tone and sleeve colour, fixed per seat within a clip."""
        r = np.random.default_rng([self._seed, int(who[4:])])
        skin = _SKIN_TONES[int(r.integers(len(_SKIN_TONES)))]
        sleeve = _PLAYER_SLEEVES[int(r.integers(len(_PLAYER_SLEEVES)))]
        return skin, sleeve

    def _xyxy(self, q: np.ndarray) -> tuple[float, float, float, float]:
        return (
            float(np.clip(q[:, 0].min(), 0, self.w)),
            float(np.clip(q[:, 1].min(), 0, self.h)),
            float(np.clip(q[:, 0].max(), 0, self.w)),
            float(np.clip(q[:, 1].max(), 0, self.h)),
        )

    # --- a frame --------------------------------------------------------------------------
    def _card_quad(self, pose: object) -> np.ndarray:
        q = self._quad_cache.get(pose)
        if q is None:
            q = self._quad(pose.corners())  # type: ignore[attr-defined]
            if len(self._quad_cache) > 5000:
                self._quad_cache.clear()
            self._quad_cache[pose] = q
        return q

    def _static(
        self, scene: FrameScene, resting: list[CardView]
    ) -> tuple[np.ndarray, np.ndarray | None, list[CardBox]]:
        """Felt, chips, panels, cover and resting cards, composited once per arrangement."""
        key = (
            scene.chips,
            scene.payouts,
            scene.lcd,
            scene.iverify,
            scene.covered,
            tuple((cv.cid, cv.face, cv.face_up, cv.pose, cv.zone) for cv in resting),
        )
        if self._static_key == key and self._static_val is not None:
            return self._static_val
        frame = self._background(scene.chips, scene.payouts).copy()
        lcd = self._panel(self.geo.lcd_box, ("lcd", scene.lcd), self._paint_lcd(scene.lcd))
        self._blend(frame, lcd[:4])
        ivp = self._panel(self.geo.iverify_box, ("iv", scene.iverify), self._paint_iverify(scene.iverify))
        self._blend(frame, ivp[:4])
        cover = None
        if scene.covered:
            cover = np.zeros((self.h, self.w), np.uint8)
            self._cover(frame, cover)
        for cv in resting:
            tok = cv.face if cv.face_up else "BACK"
            w = self._warp((tok, cv.pose), self._art[tok][0], self._card_quad(cv.pose), cache=True)
            if w is not None:
                self._blend(frame, w)
        self._static_key = key
        self._static_val = (frame, cover, ivp[4])
        return self._static_val

    def _visibility(self, cards: list[CardView], occl: np.ndarray | None) -> list[CardBox]:
        """Card boxes; ``visible`` counts each card's pixels not under a card above it, the arm or a cover."""
        boxes: list[CardBox] = []
        cover = occl.copy() if occl is not None else np.zeros((self.h, self.w), np.uint8)
        for cv in reversed(cards):
            tok = cv.face if cv.face_up else "BACK"
            q = self._card_quad(cv.pose)
            area = 0.5 * abs(
                float(np.dot(q[:, 0], np.roll(q[:, 1], 1)) - np.dot(q[:, 1], np.roll(q[:, 0], 1)))
            )
            x0 = max(math.floor(q[:, 0].min()), 0)
            y0 = max(math.floor(q[:, 1].min()), 0)
            x1 = min(math.ceil(q[:, 0].max()) + 1, self.w)
            y1 = min(math.ceil(q[:, 1].max()) + 1, self.h)
            if x1 <= x0 or y1 <= y0:
                continue
            vis = 0.0
            if area > 1:
                m = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillConvexPoly(m, np.round((q - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_8, 4)
                roi = cover[y0:y1, x0:x1]
                free = cv2.countNonZero(cv2.bitwise_and(m, cv2.bitwise_not(roi)))
                vis = min(1.0, free / area)
                cv2.bitwise_or(roi, m, dst=roi)
            boxes.append(
                CardBox(
                    tok,
                    tuple((float(a), float(b)) for a, b in q),
                    self._xyxy(q),
                    cv.zone,
                    round(vis, 3),
                    cv.cid,
                )
            )
        boxes.reverse()
        return boxes

    def render(self, scene: FrameScene, k: int) -> tuple[np.ndarray, list[CardBox], np.ndarray | None]:
        """BGR frame, the card boxes, and the arm/cover mask (None when nothing occludes)."""
        resting = [cv for cv in scene.cards if cv.zone != "moving"]
        moving = [cv for cv in scene.cards if cv.zone == "moving"]
        base, cover, iv_boxes = self._static(scene, resting)
        frame = base.copy()
        for cv in moving:
            w = self._warp(
                (), self._art[cv.face if cv.face_up else "BACK"][0], self._card_quad(cv.pose), cache=False
            )
            if w is not None:
                self._blend(frame, w)
        occl = cover
        if scene.arm is not None:
            occl = cover.copy() if cover is not None else np.zeros((self.h, self.w), np.uint8)
            self._arm(frame, occl, scene.arm)
        vkey = (self._static_key, tuple((cv.cid, cv.pose, cv.face_up) for cv in moving), scene.arm)
        if vkey == self._vis_key and self._vis_val is not None:
            boxes = self._vis_val
        else:
            boxes = self._visibility(list(scene.cards), occl)
            for b in iv_boxes:  # the display's card images: hidden only by the arm or the towel
                vis = 1.0
                if occl is not None:
                    q = np.array(b.quad)
                    x0, y0 = max(math.floor(q[:, 0].min()), 0), max(math.floor(q[:, 1].min()), 0)
                    x1, y1 = (
                        min(math.ceil(q[:, 0].max()) + 1, self.w),
                        min(math.ceil(q[:, 1].max()) + 1, self.h),
                    )
                    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
                    cv2.fillConvexPoly(m, np.round((q - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_8, 4)
                    tot = max(1, cv2.countNonZero(m))
                    free = cv2.bitwise_and(m, cv2.bitwise_not(occl[y0:y1, x0:x1]))
                    vis = round(cv2.countNonZero(free) / tot, 3)
                boxes.append(CardBox(b.card, b.quad, b.xyxy, "iverify", vis, -1))
            self._vis_key, self._vis_val = vkey, boxes
        return self._camera(frame, k), boxes, occl


_SEGMENTS = {  # a, b, c, d, e, f, g
    1: "bc",
    2: "abdeg",
    3: "abcdg",
    4: "bcfg",
    5: "acdfg",
    6: "acdefg",
    7: "abc",
    8: "abcdefg",
    9: "abcdfg",
    0: "abcdef",
}


def _seven_segment(img: np.ndarray, digit: int, colour: tuple[int, int, int]) -> None:
    """One seven-segment digit, centred, about 70% of the panel's height (display_spec.md)."""
    h, w = img.shape[:2]
    dh = 0.7 * h
    dw = 0.5 * dh
    x0, y0 = (w - dw) / 2, (h - dh) / 2
    t = 0.12 * dw
    half = dh / 2
    seg = {
        "a": ((x0 + t, y0), (x0 + dw - t, y0 + t)),
        "d": ((x0 + t, y0 + dh - t), (x0 + dw - t, y0 + dh)),
        "g": ((x0 + t, y0 + half - t / 2), (x0 + dw - t, y0 + half + t / 2)),
        "f": ((x0, y0 + t), (x0 + t, y0 + half - t / 2)),
        "b": ((x0 + dw - t, y0 + t), (x0 + dw, y0 + half - t / 2)),
        "e": ((x0, y0 + half + t / 2), (x0 + t, y0 + dh - t)),
        "c": ((x0 + dw - t, y0 + half + t / 2), (x0 + dw, y0 + dh - t)),
    }
    for name in _SEGMENTS[digit]:
        (a, b), (c, d) = seg[name]
        cv2.rectangle(img, (round(a), round(b)), (round(c), round(d)), colour, -1, cv2.LINE_AA)
