"""Calibration: the image side of a layout's reference points, from one frame.

Two ways: printed ArUco markers (``cv2.aruco``, dictionary DICT_4X4_50; marker id i stands on
reference point i, its centre is the point), or the points given by hand (``"x,y x,y ..."``, in the
order of the layout's ``reference_points``). The result is the same layout with new image coordinates
(and the frame's size), ready for ``TableLayout.dump``.

Four points map the felt's plane onto the picture exactly, if the lens is straight. A wide lens bends
the picture towards its corners (barrel distortion), which no homography follows: with more points
over the felt (five at least, eight or more spread to its corners is better), ``lens`` fits the lens's
radial distortion (``TableLayout.lens``: k1, or k1 and k2) together with the homography, by least
squares on the points' pixels. ``residuals_px`` says how far each point lies from where the fitted
layout puts it: the calibration's own check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.layout import Lens, Point, ReferencePoint, TableLayout
from vision.sources import read_first_frame

VIEW_WIDTH = 960  # pixels across the calibrated view's picture (TableLayout.reference_view)

LensFit = Literal["none", "k1", "k1k2"]
# the fewest reference points each fit needs: a homography has 8 unknowns, each point gives 2 equations,
# and each lens term is one more unknown (with no point to spare, any points fit: nothing is checked)
MIN_POINTS: dict[str, int] = {"none": 4, "k1": 5, "k1k2": 6}

__all__ = [
    "MIN_POINTS",
    "CalibrationError",
    "LensFit",
    "calibrate_file",
    "calibrate_to",
    "calibrated_view",
    "find_markers",
    "parse_points",
    "residuals_px",
    "with_image_points",
]


class CalibrationError(ValueError):
    """Calibration failed; the message says what was missing."""


def parse_points(text: str, n: int = 4) -> list[tuple[float, float]]:
    """``"x,y x,y ..."`` -> ``n`` (x, y) pairs (one for each of the layout's reference points)."""
    out: list[tuple[float, float]] = []
    for tok in text.replace(";", " ").split():
        parts = tok.split(",")
        if len(parts) != 2:
            raise CalibrationError(f"--points: {tok!r} is not 'x,y'")
        try:
            out.append((float(parts[0]), float(parts[1])))
        except ValueError as e:
            raise CalibrationError(f"--points: {tok!r} is not two numbers 'x,y'") from e
    if len(out) != n:
        raise CalibrationError(
            f"--points: expected {n} points 'x,y x,y ...' (one for each of the layout's reference points), "
            f"but got {len(out)}"
        )
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
    layout: TableLayout,
    points: list[tuple[float, float]],
    size: tuple[int, int],
    lens: LensFit = "none",
) -> TableLayout:
    """The layout with its reference points' image coordinates replaced (and the image size), and with
    ``lens`` the lens's radial distortion fitted to them (``"none"``: the picture taken as straight)."""
    n = len(layout.reference_points)
    if len(points) != n:
        raise CalibrationError(f"need {n} points, but got {len(points)}")
    if n < MIN_POINTS[lens]:
        raise CalibrationError(
            f"--lens {lens} needs {MIN_POINTS[lens]} or more reference points (eight or more, spread to the "
            f"felt's corners, is better), but the layout has {n}: add points to its reference_points"
        )
    pts = np.array(points, np.float32)
    area = cv2.contourArea(pts) if n == 4 else cv2.contourArea(cv2.convexHull(pts))
    if abs(area) < 1.0 or len({(round(x), round(y)) for x, y in points}) < 4:
        raise CalibrationError(f"the {n} image points {points} are degenerate (repeated or on one line)")
    refs = [
        ReferencePoint(name=r.name, table=r.table, image=Point(x=float(x), y=float(y)))
        for r, (x, y) in zip(layout.reference_points, points, strict=True)
    ]
    data = layout.model_dump()
    data["reference_points"] = [r.model_dump() for r in refs]
    data["image_width"], data["image_height"] = int(size[0]), int(size[1])
    data["lens"] = None
    out = TableLayout.model_validate(data)
    if lens == "none":
        return out
    k = _fit_lens(out, 1 if lens == "k1" else 2)
    return out.model_copy(update={"lens": Lens(k1=k[0], k2=k[1] if len(k) > 1 else 0.0)})


def residuals_px(layout: TableLayout) -> np.ndarray:
    """How far (pixels) each reference point's image side lies from where the layout puts its table
    side: 0 for four points and no lens (they define the map); with more, the calibration's error."""
    return np.asarray(np.hypot(*_offsets(layout).T))


def _offsets(layout: TableLayout) -> np.ndarray:
    """(N, 2): where the layout puts each reference point's table side, less its image side."""
    at = layout.to_image([r.table for r in layout.reference_points])
    return np.asarray(at - np.array([[r.image.x, r.image.y] for r in layout.reference_points]))


def _fit_lens(layout: TableLayout, terms: int) -> list[float]:
    """k1 (and k2) that put the reference points' table sides nearest their image sides (least squares
    on the pixel offsets; the homography refitted for each lens tried), by Levenberg-Marquardt from a
    straight lens, with the Jacobian by finite differences (two unknowns: cheap)."""

    def offsets(k: np.ndarray) -> np.ndarray:
        try:
            lens = Lens(k1=float(k[0]), k2=float(k[1]) if terms > 1 else 0.0)
        except ValueError:  # out of bounds, or folding the picture: far worse than any lens
            return np.full(2 * len(layout.reference_points), 1e6)
        return _offsets(layout.model_copy(update={"lens": lens})).ravel()

    k = np.zeros(terms)
    r = offsets(k)
    cost, damp = float(r @ r), 1e-3
    for _ in range(100):
        jac = np.stack([(offsets(k + e) - r) / 1e-5 for e in np.eye(terms) * 1e-5], axis=1)
        a, g = jac.T @ jac, jac.T @ r
        step = np.linalg.solve(a + damp * np.diag(np.diag(a)) + 1e-12 * np.eye(terms), -g)
        r_new = offsets(k + step)
        cost_new = float(r_new @ r_new)
        if cost_new < cost:
            k, r, done = k + step, r_new, cost - cost_new < 1e-12 * max(cost, 1.0)
            cost, damp = cost_new, damp / 3.0
            if done or np.abs(step).max() < 1e-10:
                break
        else:
            damp *= 4.0
            if damp > 1e8:
                break
    return [float(v) for v in k]


def calibrate_file(
    source: str | Path,
    layout: TableLayout,
    *,
    points: str | None = None,
    aruco: bool = False,
    lens: LensFit = "none",
) -> TableLayout:
    """Calibrate ``layout`` from the first frame of an image or video file."""
    _one_way(points, aruco)
    return _calibrated(read_first_frame(source), source, layout, points=points, aruco=aruco, lens=lens)


def calibrate_to(
    source: str | Path,
    layout: TableLayout,
    out: Path,
    *,
    points: str | None = None,
    aruco: bool = False,
    lens: LensFit = "none",
) -> TableLayout:
    """``calibrate_file``, written to ``out`` with the picture of the calibrated view beside it
    (``<out stem>.view.jpg``, ``TableLayout.reference_view``). Returns the layout written."""
    _one_way(points, aruco)
    frame = read_first_frame(source)
    new = _calibrated(frame, source, layout, points=points, aruco=aruco, lens=lens)
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
    frame: np.ndarray,
    source: str | Path,
    layout: TableLayout,
    *,
    points: str | None,
    aruco: bool,
    lens: LensFit,
) -> TableLayout:
    size = (frame.shape[1], frame.shape[0])
    if points is not None:
        return with_image_points(layout, parse_points(points, len(layout.reference_points)), size, lens)
    n = len(layout.reference_points)
    found = find_markers(frame, range(n))
    missing = [i for i in range(n) if i not in found]
    if missing:
        raise CalibrationError(
            f"{source}: ArUco markers (DICT_4X4_50) not found for reference point(s) "
            f"{', '.join(f'{i} ({layout.reference_points[i].name})' for i in missing)}"
        )
    return with_image_points(layout, [found[i] for i in range(n)], size, lens)
