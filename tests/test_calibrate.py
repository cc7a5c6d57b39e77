"""Calibration from ArUco markers or given points (vision.calibrate, `paigow-monitor calibrate`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_pipeline_synth import make_layout
from typer.testing import CliRunner, Result

from compliance.cli import app
from vision.calibrate import CalibrationError, calibrate_file, find_markers, parse_points, with_image_points
from vision.layout import LayoutError, load_layout


def _marker_scene(h_true: np.ndarray, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    """Markers 0..3 printed on a flat felt at the layout's reference points, seen through h_true."""
    lay = make_layout()
    # the felt as a flat picture, 1 px per mm, with each marker centred on its reference point
    felt = np.full((950, 1800), 90, np.uint8)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for i, r in enumerate(lay.reference_points):
        m = cv2.aruco.generateImageMarker(d, i, 80)
        m = cv2.copyMakeBorder(m, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        cx = int(np.clip(r.table.x, 60, 1740))
        cy = int(np.clip(r.table.y, 60, 890))
        felt[cy - 50 : cy + 50, cx - 50 : cx + 50] = m
    img = cv2.warpPerspective(felt, h_true, size, borderValue=40)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def test_aruco_recovers_the_homography(tmp_path: Path) -> None:
    lay = make_layout()
    # a camera that differs from the layout's current calibration
    src = np.array([[0, 0], [1800, 0], [1800, 950], [0, 950]], np.float32)
    dst = np.array([[130, 70], [1150, 55], [1230, 690], [60, 670]], np.float32)
    h_true = cv2.getPerspectiveTransform(src, dst)
    img = _marker_scene(h_true)
    p = tmp_path / "frame.png"
    cv2.imwrite(str(p), img)
    # the markers sit at the reference points clipped into the felt: move the table points there
    data = lay.model_dump()
    for r in data["reference_points"]:
        r["table"]["x"] = float(np.clip(r["table"]["x"], 60, 1740))
        r["table"]["y"] = float(np.clip(r["table"]["y"], 60, 890))
    lay = type(lay).model_validate(data)
    new = calibrate_file(p, lay, aruco=True)
    got = new.homography()
    for x, y in [(300, 300), (900, 500), (1500, 800)]:
        a = got @ [x, y, 1]
        b = h_true @ [x, y, 1]
        assert np.allclose(a[:2] / a[2], b[:2] / b[2], atol=1.5)


def test_missing_marker_is_named(tmp_path: Path) -> None:
    img = np.full((200, 200, 3), 90, np.uint8)
    p = tmp_path / "f.png"
    cv2.imwrite(str(p), img)
    with pytest.raises(CalibrationError, match=r"not found for reference point\(s\) 0 \(a\), 1 \(b\)"):
        calibrate_file(p, make_layout(), aruco=True)
    assert find_markers(img) == {}


def test_points_parse_and_validate() -> None:
    assert parse_points("1,2 3,4 5,6 7,8") == [(1, 2), (3, 4), (5, 6), (7, 8)]
    with pytest.raises(CalibrationError, match="expected 4 points"):
        parse_points("1,2 3,4")
    with pytest.raises(CalibrationError, match=r"'1' is not 'x,y'"):
        parse_points("1 2 3,4 5,6 7,8")
    with pytest.raises(CalibrationError, match="degenerate"):
        with_image_points(make_layout(), [(0, 0), (10, 10), (20, 20), (30, 30)], (100, 100))


def cli_calibrate(img: Path, lay_in: Path, out: Path, *more: str) -> Result:
    """``paigow-monitor calibrate IMG --layout LAY_IN --out OUT MORE...``, run in-process."""
    return CliRunner().invoke(app, ["calibrate", str(img), "--layout", str(lay_in), "--out", str(out), *more])


def test_cli_calibrate_with_points_writes_the_layout(tmp_path: Path) -> None:
    lay_in = tmp_path / "in.yaml"
    make_layout().dump(lay_in)
    img = tmp_path / "f.png"
    cv2.imwrite(str(img), np.zeros((600, 800, 3), np.uint8))
    out = tmp_path / "out.yaml"
    res = cli_calibrate(img, lay_in, out, "--points", "10,20 790,25 780,590 15,580")
    assert res.exit_code == 0, res.output
    new = load_layout(out)
    assert [(r.image.x, r.image.y) for r in new.reference_points] == [
        (10, 20),
        (790, 25),
        (780, 590),
        (15, 580),
    ]
    assert (new.image_width, new.image_height) == (800, 600)
    # the calibrated view kept beside it, for the pipeline's check that the camera has not moved
    assert new.reference_view == "out.view.jpg" and new.reference_view_path() == tmp_path / "out.view.jpg"
    view = cv2.imread(str(tmp_path / "out.view.jpg"))
    assert view is not None and view.shape == (720, 960, 3)
    res = cli_calibrate(img, lay_in, out)
    assert res.exit_code == 1 and "exactly one of --aruco or --points" in res.output


def test_calibrate_says_how_finely_the_camera_shows_the_cards() -> None:
    """The sample footage's 1920x1080 camera shows the card regions at 1.20-1.24 px per felt mm (a card
    76-79 px wide: every rendered batch read at 99.5 %); the same view at 1280x720, two thirds of it,
    under ``COARSE_CAMERA_PX_PER_MM`` (most 720p batches read short, spades as clubs)."""
    from vision.zones import COARSE_CAMERA_PX_PER_MM, card_resolution

    root = Path(__file__).resolve().parent.parent
    lay = load_layout(root / "sample_footage" / "render-7card.layout.yaml")
    lo, hi = card_resolution(lay)
    assert COARSE_CAMERA_PX_PER_MM < 1.19 < lo <= hi < 1.25
    lo720, hi720 = card_resolution(lay.scaled_to(1280, 720))
    assert (lo720, hi720) == pytest.approx((lo * 2 / 3, hi * 2 / 3)) and hi720 < COARSE_CAMERA_PX_PER_MM


def test_cli_calibrate_warns_of_a_camera_too_coarse_for_the_cards(tmp_path: Path) -> None:
    lay_in = tmp_path / "in.yaml"
    make_layout().dump(lay_in)
    img = tmp_path / "f.png"
    cv2.imwrite(str(img), np.zeros((600, 800, 3), np.uint8))
    # the whole 1800 mm felt across 780 px: 0.43 px/mm
    res = cli_calibrate(img, lay_in, tmp_path / "out.yaml", "--points", "10,20 790,25 780,590 15,580")
    assert res.exit_code == 0, res.output
    assert "px per felt mm over the card areas" in res.output and "warning: under 1 px/mm" in res.output


def test_a_layout_naming_a_calibrated_view_that_is_not_there_is_a_clear_error(tmp_path: Path) -> None:
    lay = make_layout().model_copy(update={"reference_view": "gone.view.jpg"})
    lay.dump(tmp_path / "t.yaml")
    with pytest.raises(LayoutError, match=r"t.yaml: reference_view: no such file .*gone.view.jpg"):
        load_layout(tmp_path / "t.yaml")
