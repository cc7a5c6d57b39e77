"""Evidence pictures: the zones of the seat / dealer / i-Verify concerned are marked, with a caption."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_audit_support import clip_states, write_layout

from compliance.events import CheckId, Finding
from compliance.evidence import draw_evidence, evidence_name, write_evidence
from vision.layout import TableLayout
from vision.state import TableState


def _red(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > 180) & (g < 90) & (b < 90)


def _edge_hits(lay: TableLayout, pic: np.ndarray, poly: list, bar: int) -> int:  # type: ignore[type-arg]
    pts = lay.to_image(poly).round().astype(int)
    red = _red(pic[bar:])
    hits = 0
    for x, y in pts:  # the polygon's corners are drawn in red
        y0, y1, x0, x1 = max(0, y - 2), y + 3, max(0, x - 2), x + 3
        hits += int(red[y0:y1, x0:x1].any())
    return hits


def _bar(pic: np.ndarray, lay: TableLayout) -> int:
    return pic.shape[0] - lay.image_height


def test_seat_finding_marks_that_seat_only(tmp_path: Path) -> None:
    lay = write_layout(tmp_path / "l.yaml")
    st = clip_states(pattern=(False,))[4]
    f = Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=2, t=1.0, frame=10, expected="a", observed="b")
    pic = draw_evidence(lay, f, state=st, image=np.full((160, 320, 3), 90, np.uint8), table_id="T1")
    bar = _bar(pic, lay)
    assert bar > 0  # the caption sits above the frame
    assert _edge_hits(lay, pic, lay.seat(2).high, bar) >= 3
    assert _edge_hits(lay, pic, lay.seat(1).high, bar) == 0
    assert _edge_hits(lay, pic, lay.iverify, bar) == 0


def test_iverify_finding_marks_the_display(tmp_path: Path) -> None:
    lay = write_layout(tmp_path / "l.yaml")
    f = Finding(round=1, check_id=CheckId.IVERIFY_NOT_VISIBLE, seat=None, t=1.0, frame=10)
    pic = draw_evidence(lay, f, state=None, image=np.full((160, 320, 3), 90, np.uint8))
    assert _edge_hits(lay, pic, lay.iverify, _bar(pic, lay)) >= 3


def test_written_picture_reads_back_and_names_are_stable(tmp_path: Path) -> None:
    import cv2

    lay = write_layout(tmp_path / "l.yaml")
    f = Finding(round=3, check_id=CheckId.DEAL_ORDER, seat=None, t=1.0, frame=1234)
    assert evidence_name(f) == "r0003_DEAL-ORDER_table_f0001234.jpg"
    pic = draw_evidence(lay, f, state=clip_states()[1])  # no frame: drawn from the state
    write_evidence(tmp_path / "ev" / evidence_name(f), pic)
    back = cv2.imread(str(tmp_path / "ev" / evidence_name(f)))
    assert back is not None and back.shape == pic.shape
    assert _edge_hits(lay, back, lay.lcd, _bar(back, lay)) >= 2  # its label covers the top corners
    assert [p.name for p in (tmp_path / "ev").iterdir()] == [evidence_name(f)]  # no temp file left


def test_a_zone_hidden_in_the_state_is_labelled_hidden(tmp_path: Path) -> None:
    from compliance.evidence import _zone_cards

    st = clip_states(pattern=(False,))[1].model_copy(update={"occluded": ["iverify", "seat2"]})
    assert _zone_cards(st, "iverify") == ["(hidden from the camera)"]
    assert _zone_cards(st, "seat2.deal") == ["(hidden from the camera)"]
    assert _zone_cards(st, "seat1.deal") == ["BACK"] * 7


def test_zones_are_marked_where_they_lie_on_a_picture_smaller_than_calibrated(tmp_path: Path) -> None:
    """A camera's sub-stream (the pipeline reads it through the layout scaled to it): the evidence
    marks the seat's zones on that picture, not where they lie on the calibrated one."""
    lay = write_layout(tmp_path / "l.yaml")
    st = clip_states(pattern=(False,))[4]
    f = Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=2, t=1.0, frame=10, expected="a", observed="b")
    w, h = lay.image_width // 2, lay.image_height // 2
    pic = draw_evidence(lay, f, state=st, image=np.full((h, w, 3), 90, np.uint8), table_id="T1")
    half = lay.scaled_to(w, h)
    bar = pic.shape[0] - h
    assert pic.shape[1] == w and bar > 0
    assert _edge_hits(half, pic, lay.seat(2).high, bar) >= 3
    assert _edge_hits(lay, pic, lay.seat(2).high, bar) == 0  # not at the calibrated picture's places


def _magenta(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > 200) & (g < 60) & (b > 200)


def _with_reads(**update: object) -> TableState:
    st = clip_states(pattern=(False,))[4]
    seats = [
        s.model_copy(update={"high": ["Ah", "Kd", "8c", "6s", "4d"], "low": ["Js", "9h"]}) for s in st.seats
    ]
    return TableState.model_validate({**st.model_dump(), "seats": [s.model_dump() for s in seats], **update})


def test_the_card_areas_concerned_are_shown_again_enlarged_from_the_camera_frame(tmp_path: Path) -> None:
    """Above the frame, a close-up of each card area the finding concerns, cut from the frame as the
    camera saw it (before anything was drawn on it) and enlarged, so a reviewer reads the indices
    without zooming; a picture drawn from the state has none (there is no camera picture)."""
    lay = write_layout(tmp_path / "l.yaml")
    st = _with_reads()
    image = np.full((lay.image_height, lay.image_width, 3), 90, np.uint8)
    for seat, colour in (
        (2, (255, 0, 255)),
        (1, (255, 255, 0)),
    ):  # magenta: seat 2's high hand, cyan: seat 1's
        (x0, y0), (x1, y1) = (f(lay.to_image(lay.seat(seat).high), axis=0) for f in (np.min, np.max))
        image[int(y0) + 2 : int(y1) - 2, int(x0) + 2 : int(x1) - 2] = colour
    f = Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=2, t=1.0, frame=10, expected="a", observed="b")
    pic = draw_evidence(lay, f, state=st, image=image, table_id="T1")
    frame, above = pic[-lay.image_height :], pic[: -lay.image_height]
    assert _magenta(frame).sum() > 0 and _magenta(image).sum() > 0
    assert _magenta(above).sum() >= 2 * _magenta(image).sum()  # seat 2's high hand, enlarged
    cyan = (above[..., 0] > 200) & (above[..., 1] > 200) & (above[..., 2] < 60)
    assert not cyan.any()  # only the areas the finding concerns
    drawn = draw_evidence(lay, f, state=st, table_id="T1")
    assert pic.shape[0] - drawn.shape[0] > 30  # the close-ups' row, not one more caption line


def test_a_close_up_says_each_cards_read_and_how_it_was_named() -> None:
    from compliance.evidence import _read_cards

    st = _with_reads(
        card_confidence={"seat2.high": [0.91, 0.62, 0.4, 0.85, 0.75]},
        counted_faces={"seat2.high": ["8c"]},
        carried_faces={"seat2.low": ["Js"]},
        read_confidence={"seat2.high": 0.4, "seat2.low": 0.66},
        unread_faces={"seat2.low": 1},
    )
    assert _read_cards(st, "seat2.high") == "Ah 0.91  Kd 0.62  8c# 0.40  6s 0.85  4d 0.75"
    assert _read_cards(st, "seat2.low") == "Js~ 0.66  9h 0.66  ?"  # the zone's read for each face
    assert _read_cards(st, "seat1.high") == "Ah  Kd  8c  6s  4d"  # ground truth: no reads
    changing = _with_reads(read_confidence={"seat2.high": 0.0})
    assert _read_cards(changing, "seat2.high").endswith("(not read since it changed)")
    hidden = _with_reads(occluded=["seat2.high"])
    assert _read_cards(hidden, "seat2.high") == "(hidden from the camera)"
