"""Calibration: the image side of a layout's four reference points, from one frame.

Two ways: printed ArUco markers (``cv2.aruco``, dictionary DICT_4X4_50; marker id i stands on
reference point i, its centre is the point), or the four points given by hand (``"x,y x,y x,y x,y"``,
in the order of the layout's ``reference_points``). The result is the same layout with new image
coordinates (and the frame's size), ready for ``TableLayout.dump``.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.layout import Point, ReferencePoint, TableLayout
from vision.sources import read_first_frame

__all__ = ["CalibrationError", "calibrate_file", "find_markers", "parse_points", "with_image_points"]


class CalibrationError(ValueError):
    """Calibration failed; the message says what was missing."""


def parse_points(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` -> four (x, y) pairs."""
    out: list[tuple[float, float]] = []
    for tok in text.replace(";", " ").split():
        parts = tok.split(",")
        if len(parts) != 2:
            raise CalibrationError(f"--points: {tok!r} is not 'x,y'")
        try:
            out.append((float(parts[0]), float(parts[1])))
        except ValueError as e:
            raise CalibrationError(f"--points: {tok!r} is not two numbers 'x,y'") from e
    if len(out) != 4:
        raise CalibrationError(f"--points: expected 4 points 'x,y x,y x,y x,y', but got {len(out)}")
    return out


def find_markers(image: np.ndarray, ids: range = range(4)) -> dict[int, tuple[float, float]]:
    """Centres of the DICT_4X4_50 markers found in the image, by marker id (only ``ids``)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, found, _ = detector.detectMarkers(grey)
    out: dict[int, tuple[float, float]] = {}
    if found is None:
        return out
    for c, i in zip(corners, found.reshape(-1).tolist(), strict=True):
        if int(i) in ids:
            ctr = np.asarray(c).reshape(4, 2).mean(axis=0)
            out[int(i)] = (float(ctr[0]), float(ctr[1]))
    return out


def with_image_points(
    layout: TableLayout, points: list[tuple[float, float]], size: tuple[int, int]
) -> TableLayout:
    """The layout with its reference points' image coordinates replaced (and the image size)."""
    if len(points) != len(layout.reference_points):
        raise CalibrationError(f"need {len(layout.reference_points)} points, but got {len(points)}")
    pts = np.array(points, np.float32)
    area = cv2.contourArea(pts)
    if abs(area) < 1.0 or len({(round(x), round(y)) for x, y in points}) < 4:
        raise CalibrationError(f"the 4 image points {points} are degenerate (repeated or on one line)")
    refs = [
        ReferencePoint(name=r.name, table=r.table, image=Point(x=float(x), y=float(y)))
        for r, (x, y) in zip(layout.reference_points, points, strict=True)
    ]
    data = layout.model_dump()
    data["reference_points"] = [r.model_dump() for r in refs]
    data["image_width"], data["image_height"] = int(size[0]), int(size[1])
    return TableLayout.model_validate(data)


def calibrate_file(
    source: str | Path, layout: TableLayout, *, points: str | None = None, aruco: bool = False
) -> TableLayout:
    """Calibrate ``layout`` from the first frame of an image or video file."""
    if aruco == (points is not None):
        raise CalibrationError("give exactly one of --aruco or --points")
    frame = read_first_frame(source)
    size = (frame.shape[1], frame.shape[0])
    if points is not None:
        return with_image_points(layout, parse_points(points), size)
    n = len(layout.reference_points)
    found = find_markers(frame, range(n))
    missing = [i for i in range(n) if i not in found]
    if missing:
        raise CalibrationError(
            f"{source}: ArUco markers (DICT_4X4_50) not found for reference point(s) "
            f"{', '.join(f'{i} ({layout.reference_points[i].name})' for i in missing)}"
        )
    return with_image_points(layout, [found[i] for i in range(n)], size)
