"""Zones: rectifying layout regions to upright crops and mapping crop points back."""

from __future__ import annotations

import numpy as np
import pytest
from test_pipeline_synth import ColourDetector, SynthTable, make_layout

from vision.zones import build_regions, local_scale


def _regions() -> dict[str, object]:
    return {r.name: r for r in build_regions(make_layout())}


def test_every_layout_area_has_a_region_in_fixed_order() -> None:
    names = [r.name for r in build_regions(make_layout())]
    assert names == [
        "seat1",
        "seat2",
        "seat3",
        "dealer",
        "iverify",
        "lcd",
        "seat1.bet",
        "seat2.bet",
        "seat3.bet",
    ]
    with_payout = [r.name for r in build_regions(make_layout(payout=True))]
    assert with_payout == [*names, "seat1.payout", "seat2.payout", "seat3.payout"]
    assert {r.kind for r in build_regions(make_layout(payout=True)) if r.name.endswith(".payout")} == {"bet"}


def test_crop_table_image_round_trip() -> None:
    lay = make_layout()
    r = next(r for r in build_regions(lay) if r.name == "seat2")
    crop_pts = np.array([[10.0, 20.0], [100.0, 50.0]])
    img = r.crop_to_image(crop_pts)
    assert np.allclose(r.image_to_crop(img), crop_pts, atol=1e-6)
    # crop -> table -> image agrees with crop -> image
    table = r.crop_to_table(crop_pts)
    h = lay.homography()
    q = np.concatenate([table, np.ones((2, 1))], 1) @ h.T
    assert np.allclose(q[:, :2] / q[:, 2:3], img, atol=1e-6)


def test_rectified_card_lies_where_the_table_says() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 300.0, 620.0)], noise=0)
    r = next(r for r in build_regions(lay) if r.name == "seat1")
    crop = r.rectify(t.frame())
    dets = ColourDetector().detect(crop)
    assert dets.labels == ["As"]
    centre_mm = r.crop_to_table(dets.centers)[0]
    assert np.allclose(centre_mm, [300.0, 620.0], atol=4.0)
    # upright: a 63 x 88 mm card stays taller than wide after rectification despite the keystone
    x1, y1, x2, y2 = dets.xyxy[0]
    assert abs((x2 - x1) / r.px_per_mm - 63) < 5 and abs((y2 - y1) / r.px_per_mm - 88) < 5


def test_assign_prefers_high_and_low_over_the_deal_spot() -> None:
    lay = make_layout()
    r = next(r for r in build_regions(lay) if r.name == "seat1")

    def crop_of(x: float, y: float) -> np.ndarray:
        return r.table_to_crop_pts(np.array([[x, y]]))

    pts = np.concatenate(
        [crop_of(300, 620), crop_of(560, 620), crop_of(370, 760), crop_of(300, 686), crop_of(1200, 100)]
    )
    assert r.assign(pts) == ["seat1.high", "seat1.low", "seat1.dealt", "seat1.high", None]


def test_local_scale_follows_the_keystone() -> None:
    h = make_layout().homography()
    # the near edge (y = 950) is wider in the image than the far edge (y = 0)
    assert local_scale(h, (900, 900)) > local_scale(h, (900, 50))


def test_small_crop_and_mask_sizes() -> None:
    r = next(r for r in build_regions(make_layout()) if r.name == "dealer")
    small = r.rectify(SynthTable(make_layout()).frame(), 0.25)
    assert small.shape[:2] == r.zone_mask(0.25).shape
    assert 0 < (r.zone_mask() > 0).mean() < 1


def test_a_turned_seat_is_rectified_upright_in_its_own_frame() -> None:
    """A seat whose boxes are turned 30 degrees (towards the dealer): its crop turns with them, so a
    card lying along the seat's boxes is upright in the crop (taller than wide)."""
    lay = make_layout()
    a = np.radians(30)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    c = np.array([400.0, 650.0])

    def turn(poly: list[dict[str, float]]) -> list[dict[str, float]]:
        return [
            dict(zip("xy", (c + rot @ (np.array([p["x"], p["y"]]) - c)).tolist(), strict=True)) for p in poly
        ]

    data = lay.model_dump(mode="json")
    for k in ("high", "low", "deal"):
        data["seats"][0][k] = turn(data["seats"][0][k])
    turned = type(lay).model_validate(data)
    r = next(r for r in build_regions(turned) if r.name == "seat1")
    # draw a card turned by 30 degrees at the high box's centre
    import cv2

    img = np.zeros((720, 1280, 3), np.uint8)
    ctr = c + rot @ (np.array([315.0, 620.0]) - c)
    q = np.array([[-31.5, -44.0], [31.5, -44.0], [31.5, 44.0], [-31.5, 44.0]]) @ rot.T + ctr
    h = turned.homography()
    qi = np.concatenate([q, np.ones((4, 1))], 1) @ h.T
    cv2.fillPoly(img, [np.round(qi[:, :2] / qi[:, 2:3]).astype(np.int32)], (255, 0, 0))
    dets = ColourDetector().detect(r.rectify(img))
    x1, y1, x2, y2 = dets.xyxy[0]
    assert (y2 - y1) / (x2 - x1) == pytest.approx(88 / 63, rel=0.08)
    assert r.assign(dets.centers) == ["seat1.high"]
