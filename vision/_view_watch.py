"""Has the camera's view moved since it was calibrated? (a camera bumped, or turned on its mount)

The layout maps the table onto the image by reference points found once (``calibrate``). A fixed
camera that is knocked or turned puts every zone somewhere else: the pipeline would read the felt
beside a hand, or half of one, and say the cards are gone. Surveillance must know at once, and must
recalibrate.

Every ``every_s`` seconds of footage the frame, grey and shrunk to ``width`` pixels, is matched
against the reference view by ORB features: the picture ``calibrate`` kept of the calibrated view
(``TableLayout.reference_view``, given to ``set_reference``), else the watch's first frame. The
similarity transform (shift, turn, zoom) that most matches agree on (RANSAC) is the view's move, so
hands, arms and cards moving over part of the table are outliers. The view has moved by how far
that transform carries the frame's corners and centre, the farthest. ``moved_share`` of the frame's
width or more, seen ``confirm`` checks running, is a moved view; in place ``confirm`` checks
running, it is back. A check with fewer than ``min_inliers`` agreeing matches (the picture unlike
the reference: the lights out, the lens covered) counts neither way.

With ``lag_s`` > 0 each check is measured on a thread of its own while the caller goes on, and taken
``lag_s`` of footage later (at the first frame at or past that time, waiting for it if need be): the
same checks, the same conclusions, each that much later in the footage, whatever the machine's speed.
The camera pipeline's main thread is what a replay waits on, and a check (ORB on the frame shrunk,
matched against the reference's) cost it about 25 ms every 4 s of footage, 6 % of a 720p replay.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import cv2
import numpy as np


class ViewWatch:
    def __init__(
        self,
        *,
        width: int = 480,
        every_s: float = 4.0,
        moved_share: float = 0.004,
        confirm: int = 3,
        min_inliers: int = 40,
        lag_s: float = 0.0,
    ) -> None:
        self.width, self.every_s, self.moved_share = width, every_s, moved_share
        self.confirm, self.min_inliers, self.lag_s = confirm, min_inliers, lag_s
        self._pending: _Measuring | None = None  # a check measured on its own thread (``lag_s``)
        self._orb = cv2.ORB.create(nfeatures=1500)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True)
        self._ref: tuple[tuple[cv2.KeyPoint, ...], np.ndarray] | None = None
        self._probe = np.zeros((5, 2), np.float32)  # the analysed frame's corners and centre
        self._aspect = 0.0  # the reference's height / width
        self._scale = 1.0  # full-resolution pixels per analysed pixel
        self._next_t = -math.inf
        self._run: list[float | None] = []  # the latest conclusive checks' shifts (None: in place)
        self.shift_px: float | None = None  # the confirmed shift, full-resolution pixels; None: in place

    def _features(self, image: np.ndarray) -> tuple[tuple[cv2.KeyPoint, ...], np.ndarray | None]:
        h, w = image.shape[:2]
        small = cv2.resize(
            image, (self.width, max(8, round(h * self.width / w))), interpolation=cv2.INTER_AREA
        )
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        kp, des = self._orb.detectAndCompute(grey, None)
        return tuple(kp), des

    def set_reference(self, image: np.ndarray) -> bool:
        """Match later frames against ``image`` (any size of the same shape as the frames: only its
        proportions must agree). False when it has too few features to serve."""
        kp, des = self._features(image)
        if des is None or len(kp) < self.min_inliers:
            return False
        h, w = image.shape[:2]
        sw, sh = self.width, h * self.width / w
        self._ref, self._aspect = (kp, des), h / w
        self._probe = np.array([[0, 0], [sw, 0], [0, sh], [sw, sh], [sw / 2, sh / 2]], np.float32)
        return True

    def measure(self, image: np.ndarray) -> float | None:
        """How far the view has moved from the reference, in ``image``'s pixels; None when the check
        is inconclusive (or ``image`` becomes the reference: the first, or one of other proportions)."""
        h, w = image.shape[:2]
        if self._ref is None or abs(h / w - self._aspect) > 0.01 * self._aspect:
            self.set_reference(image)
            return None
        self._scale = w / self.width
        kp, des = self._features(image)
        if des is None or len(kp) < self.min_inliers:
            return None
        ref_kp, ref_des = self._ref
        matches = self._matcher.match(ref_des, des)
        if len(matches) < self.min_inliers:
            return None
        src = np.array([ref_kp[m.queryIdx].pt for m in matches], np.float32)
        dst = np.array([kp[m.trainIdx].pt for m in matches], np.float32)
        a, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=2.0)
        if a is None or inliers is None or int(inliers.sum()) < self.min_inliers:
            return None
        moved = self._probe @ a[:, :2].T + a[:, 2] - self._probe
        return float(np.hypot(moved[:, 0], moved[:, 1]).max() * self._scale)

    def update(self, image: np.ndarray, t: float) -> bool:
        """Look at ``image`` (footage time ``t``) if a check is due; True when ``shift_px`` changed
        (with ``lag_s``: by the check taken now, the one measured ``lag_s`` of footage before)."""
        changed = False
        due = t >= self._next_t
        if self._pending is not None and (due or t >= self._pending.take_at):
            pending, self._pending = self._pending, None
            changed = self._conclude(pending.result(), pending.width)
        if not due:
            return changed
        self._next_t = t + self.every_s
        if self.lag_s <= 0:
            return self._conclude(self.measure(image), image.shape[1]) or changed
        self._pending = _Measuring(self.measure, image.copy(), t + self.lag_s)
        return changed

    def _conclude(self, shift: float | None, width: int) -> bool:
        """A check's measured shift (None: inconclusive) taken into the run of checks; True when
        ``shift_px`` changed."""
        if shift is None:
            return False
        moved = shift >= self.moved_share * width
        self._run = [*self._run, shift if moved else None][-self.confirm :]
        if len(self._run) < self.confirm:
            return False
        if all(s is not None for s in self._run) and self.shift_px is None:
            self.shift_px = round(float(self._run[-1] or 0.0), 1)
            return True
        if all(s is None for s in self._run) and self.shift_px is not None:
            self.shift_px = None
            return True
        return False


class _Measuring:
    """``measure(image)`` run on a thread of its own; ``result()`` waits for it (an error it met is
    raised there). Not a daemon: a program that ends while a check is being measured waits for it
    (tens of milliseconds). A daemon thread still inside OpenCV's matcher when the interpreter shut
    down aborted the whole process (``terminate called without an active exception``, exit status
    134 after every figure was printed): ``eval-vision`` on b67-0014, whose last check began 0.5 s
    before the clip's end."""

    def __init__(self, measure: Any, image: np.ndarray, take_at: float) -> None:
        self.take_at, self.width = take_at, int(image.shape[1])
        self._out: list[Any] = []
        self._thread = threading.Thread(
            target=self._run, args=(measure, image), name="view-check", daemon=False
        )
        self._thread.start()

    def _run(self, measure: Any, image: np.ndarray) -> None:
        try:
            self._out.append(measure(image))
        except BaseException as e:  # raised in the caller's thread, by result()
            self._out.append(e)

    def result(self) -> float | None:
        self._thread.join()
        (out,) = self._out
        if isinstance(out, BaseException):
            raise out
        return None if out is None else float(out)
