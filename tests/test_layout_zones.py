"""The layout file as the camera pipeline uses it: errors that name the field, deal order, geometry."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from test_pipeline_synth import make_layout

from vision.layout import LayoutError, load_layout


def test_round_trip_yaml_and_json(tmp_path: Path) -> None:
    lay = make_layout()
    for name in ("l.yaml", "l.json"):
        lay.dump(tmp_path / name)
        assert load_layout(tmp_path / name) == lay


def test_bad_field_is_named(tmp_path: Path) -> None:
    data = make_layout().model_dump(mode="json")
    data["seats"][1]["high"] = data["seats"][1]["high"][:2]
    data["image_width"] = 0
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(LayoutError) as e:
        load_layout(p)
    msg = str(e.value)
    assert "bad.yaml" in msg and "seats.1.high" in msg and "image_width" in msg


def test_deal_order_counter_clockwise_from_the_lcd() -> None:
    lay = make_layout()
    assert lay.deal_order(2) == ["seat2", "seat1", "dealer", "seat3"]
    with pytest.raises(ValueError, match=r"outside 1\.\.4"):
        lay.deal_order(5)


def test_homography_maps_reference_points() -> None:
    lay = make_layout()
    for r in lay.reference_points:
        got = lay.to_image([r.table])[0]
        assert np.allclose(got, [r.image.x, r.image.y], atol=1e-6)


def test_payout_spots_are_optional(tmp_path: Path) -> None:
    """Older layout files have no ``payout`` spots and still load; a new one round-trips with them."""
    old = make_layout().model_dump(mode="json")
    assert all("payout" not in {k for k, v in s.items() if v is not None} for s in old["seats"])
    for s in old["seats"]:
        s.pop("payout", None)
    p = tmp_path / "old.yaml"
    p.write_text(yaml.safe_dump(old))
    assert all(s.payout is None for s in load_layout(p).seats)
    new = make_layout(payout=True)
    new.dump(tmp_path / "new.yaml")
    loaded = load_layout(tmp_path / "new.yaml")
    assert loaded == new and all(s.payout is not None for s in loaded.seats)


def test_scaled_to_a_smaller_picture_of_the_same_view(tmp_path: Path) -> None:
    """A 1280x720 layout on a 960x540 picture: every zone lands three quarters as far from the
    corner; the copy still finds its calibrated view beside the file; the same size is itself."""
    path = tmp_path / "t.yaml"
    make_layout().model_copy(update={"reference_view": "t.view.jpg"}).dump(path)
    (tmp_path / "t.view.jpg").write_bytes(b"")
    lay = load_layout(path)
    assert lay.scaled_to(1280, 720) is lay
    small = lay.scaled_to(960, 540)
    assert (small.image_width, small.image_height) == (960, 540)
    assert np.allclose(small.to_image(lay.seat(2).high), 0.75 * lay.to_image(lay.seat(2).high), atol=1e-6)
    assert small.reference_view_path() == tmp_path / "t.view.jpg"
    assert lay.image_width == 1280  # the original is untouched


def test_scaled_to_a_picture_of_another_shape_names_file_sizes_and_source(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    make_layout().dump(path)
    lay = load_layout(path)
    with pytest.raises(LayoutError) as e:
        lay.scaled_to(640, 480, seen="cam.mp4 frame 12")
    msg = str(e.value)
    assert "t.yaml" in msg and "1280x720" in msg and "cam.mp4 frame 12 is 640x480" in msg
    assert "calibrate" in msg
    assert lay.scaled_to(1280, 721) is not lay  # within rounding's 1 %: the same view
    loose = lay.scaled_to(640, 480, strict=False)  # for a drawing: scaled all the same
    assert np.allclose(loose.to_image(lay.lcd), lay.to_image(lay.lcd) * [0.5, 480 / 720], atol=1e-6)
