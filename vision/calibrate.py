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

VIEW_WIDTH = 960  # pixels across the calibrated view's picture (TableLayout.reference_view)

__all__ = [
    "CalibrationError",
    "calibrate_file",
    "calibrate_to",
    "calibrated_view",
    "find_markers",
    "parse_points",
    "with_image_points",
]


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
    _one_way(points, aruco)
    return _calibrated(read_first_frame(source), source, layout, points=points, aruco=aruco)


def calibrate_to(
    source: str | Path, layout: TableLayout, out: Path, *, points: str | None = None, aruco: bool = False
) -> TableLayout:
    """``calibrate_file``, written to ``out`` with the picture of the calibrated view beside it
    (``<out stem>.view.jpg``, ``TableLayout.reference_view``). Returns the layout written."""
    _one_way(points, aruco)
    frame = read_first_frame(source)
    new = _calibrated(frame, source, layout, points=points, aruco=aruco)
    view = out.with_name(out.stem + ".view.jpg")
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(view), calibrated_view(frame), [cv2.IMWRITE_JPEG_QUALITY, 92]):
        raise CalibrationError(f"{view}: cannot write the calibrated view")
    new = new.model_copy(update={"reference_view": view.name})
    new.dump(out)
    new._path = out
    return new


def _one_way(points: str | None, aruco: bool) -> None:
    if aruco == (points is not None):
        raise CalibrationError("give exactly one of --aruco or --points")


def calibrated_view(frame: np.ndarray, width: int = VIEW_WIDTH) -> np.ndarray:
    """The picture of the camera's view a calibrated layout keeps (``TableLayout.reference_view``):
    the frame shrunk to ``width`` pixels, enough for the pipeline's view check (``vision._view_watch``
    reads 480)."""
    h, w = frame.shape[:2]
    return np.asarray(cv2.resize(frame, (width, round(h * width / w)), interpolation=cv2.INTER_AREA))


def _calibrated(
    frame: np.ndarray, source: str | Path, layout: TableLayout, *, points: str | None, aruco: bool
) -> TableLayout:
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
