"""A wide lens's bend: the layout's lens model, its fit by ``calibrate --lens``, and the pipeline reading
the camera's bent picture straightened (vision.layout.Lens, vision.calibrate, vision._lens)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from test_calibrate import cli_calibrate
from test_pipeline_synth import ColourDetector, SynthTable, make_layout

from vision.calibrate import CalibrationError, residuals_px, with_image_points
from vision.layout import LayoutError, Lens, Point, TableLayout, load_layout
from vision.pipeline import PipelineConfig, TablePipeline
from vision.state import TableState

CFG = PipelineConfig(analyse_fps=None)
BARREL = Lens(k1=0.15, k2=0.0)  # a strong wide lens: a synthetic table's corners 1-2 cards' width in


def _with_lens(lay: TableLayout, lens: Lens | None) -> TableLayout:
    return lay.model_copy(update={"lens": lens})


def _bent_layout(lay: TableLayout, grid: bool = False) -> TableLayout:
    """``lay`` as ``calibrate`` would write it on the picture seen through ``BARREL`` (its reference
    points where the bent picture shows them; with ``grid``, 15 points over the felt), with no lens."""
    true = _with_lens(lay, BARREL)
    data = lay.model_dump()
    if grid:
        tw, th = lay.table_width_mm, lay.table_height_mm
        pts = [(fx * tw, fy * th) for fx in (0.0, 0.25, 0.5, 0.75, 1.0) for fy in (0.0, 0.5, 1.0)]
        data["reference_points"] = [
            {"name": f"g{i}", "table": {"x": x, "y": y}, "image": {"x": 0.0, "y": 0.0}}
            for i, (x, y) in enumerate(pts)
        ]
    refs = data["reference_points"]
    at = true.bend(lay.to_image([Point(**r["table"]) for r in refs]))  # the straight picture's, bent
    for r, (x, y) in zip(refs, at.tolist(), strict=True):
        r["image"] = {"x": x, "y": y}
    return TableLayout.model_validate(data)


def _bend_picture(straight: np.ndarray, lens_layout: TableLayout) -> np.ndarray:
    """The straight picture as the lens shows it: each pixel p of the bent picture shows the straight
    picture's point ``straighten(p)``."""
    h, w = straight.shape[:2]
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    src = lens_layout.straighten(np.stack([gx.ravel(), gy.ravel()], 1))
    mx = src[:, 0].reshape(h, w).astype(np.float32)
    my = src[:, 1].reshape(h, w).astype(np.float32)
    return np.asarray(cv2.remap(straight, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))


# --- the model --------------------------------------------------------------------------------------


def test_straighten_and_bend_undo_each_other_and_scale_with_the_picture() -> None:
    lay = _with_lens(make_layout(), Lens(k1=0.08, k2=-0.02))
    pts = np.array([[0.0, 0.0], [640.0, 360.0], [1279.0, 719.0], [100.0, 650.0], [1000.0, 20.0]])
    straight = lay.straighten(pts)
    assert np.allclose(lay.bend(straight), pts, atol=1e-6)
    assert np.allclose(straight[1], [640.0, 360.0])  # the centre does not move
    assert np.hypot(*(straight[0] - [640.0, 360.0])) > np.hypot(640.0, 360.0)  # barrel: corners drawn in
    # the model is on the picture's own scale: a sub-stream's picture, half the size, bends the same
    half = lay.scaled_to(640, 360)
    assert half.lens == lay.lens
    poly = lay.seats[0].high
    assert np.allclose(half.to_image(poly), lay.to_image(poly) / 2, atol=1e-6)
    assert np.allclose(_with_lens(lay, None).straighten(pts), pts)


def test_a_lens_that_would_fold_the_picture_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="fold the picture"):
        Lens(k1=-0.4, k2=0.0)
    p = tmp_path / "lay.yaml"
    data = make_layout().model_dump(mode="json")
    data["lens"] = {"k1": 0.9}
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(
        LayoutError, match=r"(?s)lay\.yaml.*lens\.k1: Input should be less than or equal to 0\.5"
    ):
        load_layout(p)
    data["lens"] = {"k1": -0.4}
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(LayoutError, match=r"(?s)lay\.yaml.*lens: .*fold the picture"):
        load_layout(p)


def test_more_than_four_points_are_fitted_by_least_squares() -> None:
    lay = make_layout()
    data = lay.model_dump()
    # a fifth point where the four points' map puts it, a pixel off: the map barely moves
    h = lay.homography()
    q = h @ [900.0, 475.0, 1.0]
    data["reference_points"].append(
        {"name": "e", "table": {"x": 900.0, "y": 475.0}, "image": {"x": q[0] / q[2] + 1.0, "y": q[1] / q[2]}}
    )
    five = TableLayout.model_validate(data)
    off = residuals_px(five)
    assert len(off) == 5 and 0.0 < off.max() < 1.0
    assert np.allclose(five.to_image(lay.seats[0].high), lay.to_image(lay.seats[0].high), atol=1.0)
    data["reference_points"][4]["name"] = "a"
    with pytest.raises(ValueError, match="names repeat"):
        TableLayout.model_validate(data)


# --- calibrate --lens ----------------------------------------------------------------------------------


def test_calibrate_fits_the_lens_from_points_over_the_felt() -> None:
    bent = _bent_layout(make_layout(), grid=True)
    seen = [(r.image.x, r.image.y) for r in bent.reference_points]
    straight = with_image_points(bent, seen, (1280, 720))
    assert straight.lens is None and residuals_px(straight).max() > 5.0  # no plane's map fits them
    for terms in ("k1", "k1k2"):
        fit = with_image_points(bent, seen, (1280, 720), terms)  # type: ignore[arg-type]
        assert fit.lens is not None and fit.lens.k1 == pytest.approx(0.15, abs=0.005)
        assert residuals_px(fit).max() < 0.05
        lay = make_layout()  # where the lens shows the zones: the straight picture's, bent
        shown = _with_lens(lay, BARREL).bend(lay.to_image(lay.seats[0].high))
        assert np.allclose(fit.to_image(fit.seats[0].high), shown, atol=0.1)


def test_a_lens_fit_needs_more_than_four_points() -> None:
    bent = _bent_layout(make_layout())
    seen = [(r.image.x, r.image.y) for r in bent.reference_points]
    with pytest.raises(CalibrationError, match=r"--lens k1 needs 5 or more reference points.*has 4"):
        with_image_points(bent, seen, (1280, 720), "k1")


def test_cli_calibrate_with_lens_writes_it_and_says_how_well_the_points_fit(tmp_path: Path) -> None:
    bent = _bent_layout(make_layout(), grid=True)
    lay_in = tmp_path / "in.yaml"
    bent.dump(lay_in)
    img = tmp_path / "f.png"
    cv2.imwrite(str(img), np.zeros((720, 1280, 3), np.uint8))
    pts = " ".join(f"{r.image.x:.3f},{r.image.y:.3f}" for r in bent.reference_points)
    out = tmp_path / "out.yaml"
    res = cli_calibrate(img, lay_in, out, "--points", pts)
    assert res.exit_code == 0, res.output
    assert "warning: points lie up to" in res.output and "--lens k1k2" in res.output
    res = cli_calibrate(img, lay_in, out, "--points", pts, "--lens", "k1k2")
    assert res.exit_code == 0, res.output
    assert "lens: k1 0.15" in res.output and "warning: points lie" not in res.output
    assert "px from the fit" in res.output and "fit: 0.0" in res.output
    new = load_layout(out)
    assert new.lens is not None and new.lens.k1 == pytest.approx(0.15, abs=0.005)
    res = cli_calibrate(img, lay_in, out, "--points", pts, "--lens", "k3")
    assert res.exit_code == 1 and "--lens 'k3': expected one of none, k1, k1k2" in res.output


# --- the pipeline ----------------------------------------------------------------------------------


def test_the_crops_of_the_bent_picture_are_the_straight_pictures() -> None:
    """Each region's crop (and its small crop, and its smooth twin from the thumbnail) is sampled where
    the lens shows it: the crops of the bent picture are those of the straight one."""
    lay = make_layout()
    table = SynthTable(lay, lcd=3, cards=[("As", 250, 620), ("Kd", 1400, 755)], noise=0)
    straight = table.frame(0)
    lens_layout = _with_lens(_bent_layout(lay), BARREL)
    bent = _bend_picture(straight, lens_layout)
    seen = TablePipeline(lens_layout, ColourDetector(), CFG).regions
    for a, b in zip(seen, TablePipeline(lay, ColourDetector(), CFG).regions, strict=True):
        assert a.bend is not None and a.size == b.size
        for scale in (1.0, 0.25):
            diff = cv2.absdiff(a.rectify(bent, scale), b.rectify(straight, scale)).astype(np.float64)
            assert diff.mean() < 3.0, (a.name, scale, diff.mean())
        # the crop's border on the picture: bent, it bulges past the corners' box
        lo, hi = a.image_bounds()
        corners = a.crop_to_image(np.array([[0, 0], [a.size[0], 0], [a.size[0], a.size[1]], [0, a.size[1]]]))
        assert (lo <= corners.min(0) + 1e-9).all() and (hi >= corners.max(0) - 1e-9).all()
        assert np.allclose(a.image_to_crop(a.crop_to_image(np.array([[5.0, 7.0]]))), [[5.0, 7.0]], atol=1e-3)
    # without the lens, the bent picture's corner seats are not the straight picture's
    plain = TablePipeline(_bent_layout(lay), ColourDetector(), CFG).regions
    diff = cv2.absdiff(plain[0].rectify(bent), seen[0].rectify(bent)).astype(np.float64)
    assert diff.mean() > 3.0


def _read(lay: TableLayout, t: SynthTable, lens_layout: TableLayout) -> TableState:
    p = TablePipeline(lay, ColourDetector(), CFG)
    states = [p.process(i, i / 12.5, _bend_picture(t.frame(i), lens_layout)) for i in range(10)]
    return [s for s in states if s is not None][-1]


def test_cards_near_a_zones_edge_under_a_wide_lens_are_read_in_their_zone() -> None:
    """Four reference points on a bent picture give a plane's map that is right at the four points only:
    between them the zones lie off where the lens shows them. Calibrated with the lens, the picture is
    read straightened and every card falls in its own zone."""
    lay = make_layout()
    cards = [("As", 445, 600), ("Kd", 520, 600), ("Qh", 1375, 650), ("Jc", 1500, 760), ("Ts", 700, 330)]
    t = SynthTable(
        lay, lcd=3, cards=cards, header="SEAT 2", iv_high=["9h", "2c", "5d", "Qh", "Jc"], iv_low=["Ts", "As"]
    )
    truth = TablePipeline(lay, ColourDetector(), CFG)
    want = [s for s in (truth.process(i, i / 12.5, t.frame(i)) for i in range(10)) if s is not None][-1]
    assert want.seat(1).high == ["As"] and want.seat(1).low == ["Kd"]
    lens_layout = _with_lens(_bent_layout(lay, grid=True), BARREL)
    plain = _bent_layout(lay)  # four points, no lens
    got_plain = _read(plain, t, lens_layout)
    got = _read(
        with_image_points(
            lens_layout, [(r.image.x, r.image.y) for r in lens_layout.reference_points], (1280, 720), "k1"
        ),
        t,
        lens_layout,
    )
    zones = ("seats", "dealer", "iverify", "lcd")
    assert got.model_dump(include=set(zones)) == want.model_dump(include=set(zones))
    assert got_plain.model_dump(include=set(zones)) != want.model_dump(include=set(zones))


def test_evidence_outlines_follow_the_lens() -> None:
    """Evidence marks a zone where the picture shows it: with a lens, along its bent edges (points every
    10 mm), not only at its corners; with none, its corners as before."""
    from compliance.evidence import _outline

    lay = make_layout()
    zone = lay.seats[0].high
    assert np.array_equal(_outline(lay, zone), lay.to_image(zone).round().astype(np.int32))
    bent = _with_lens(_bent_layout(lay), BARREL)
    drawn = _outline(bent, zone).astype(np.float64)
    a, b = zone[0], zone[1]
    mid = bent.to_image([Point(x=(a.x + b.x) / 2, y=(a.y + b.y) / 2)])[0]
    chord = bent.to_image([a, b]).mean(axis=0)
    assert np.hypot(*(mid - chord)) > 2.0  # the edge bulges off the straight line between its corners
    off = abs(cv2.pointPolygonTest(drawn.astype(np.float32), (float(mid[0]), float(mid[1])), True))
    assert off <= 1.0  # and the outline drawn follows it


def test_calibrate_finds_the_lens_from_printed_markers_over_the_felt(tmp_path: Path) -> None:
    """The whole of a wide-lens calibration: ArUco markers 0-14 printed on the felt at the layout's 15
    reference points, seen through the lens; ``calibrate --aruco --lens k1`` finds them and the lens."""
    from vision.calibrate import calibrate_file

    lay = make_layout()
    grid = _bent_layout(lay, grid=True)  # its table points: 15 over the felt, at its edges too
    felt = np.full((950, 1800), 90, np.uint8)  # the felt, 1 px per mm, each marker on its point
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    data = grid.model_dump()
    for i, r in enumerate(data["reference_points"]):
        x = int(np.clip(r["table"]["x"], 60, 1740))
        y = int(np.clip(r["table"]["y"], 60, 890))
        r["table"] = {"x": float(x), "y": float(y)}  # (a marker at the felt's edge is printed inside it)
        m = cv2.copyMakeBorder(
            cv2.aruco.generateImageMarker(d, i, 80), 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255
        )
        felt[y - 50 : y + 50, x - 50 : x + 50] = m
    markers = TableLayout.model_validate(data)
    straight = cv2.cvtColor(
        cv2.warpPerspective(felt, lay.homography(), (1280, 720), borderValue=40), cv2.COLOR_GRAY2BGR
    )
    picture = _bend_picture(straight, _with_lens(lay, BARREL))
    p = tmp_path / "frame.png"
    cv2.imwrite(str(p), picture)
    fit = calibrate_file(p, markers, aruco=True, lens="k1")
    assert fit.lens is not None and fit.lens.k1 == pytest.approx(0.15, abs=0.01)
    assert residuals_px(fit).max() < 1.0
    plain = calibrate_file(p, markers, aruco=True)
    assert plain.lens is None and residuals_px(plain).max() > 5.0
