"""The shipped ONNX detector (models/): it loads, and it reads the cards of a rendered image of a
held-out deck (one it was never trained on). The weights ship with the repository, so a missing
file is a failure, not a skip."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from render.artwork import HELD_OUT_DECKS, VALIDATION_DECKS, load_deck
from rules.cards import parse_cards
from vision.detections import CLASSES, Detections
from vision.detector import DEFAULT_MODELS_DIR, DetectorFiles, load_detector, tile_origins
from vision.pipeline import CARD_PX_PER_MM

_HAND = parse_cards("As Kd 7h Tc 4s")


def test_shipped_weights_exist() -> None:
    files = DetectorFiles.in_dir(DEFAULT_MODELS_DIR)
    files.check()
    assert files.det.stat().st_size > 100_000 and files.cls.stat().st_size > 100_000


def _row_of_cards(deck: str) -> tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]:
    """Five cards of ``deck`` in a row on green felt, slightly turned, at the scale the camera
    pipeline reads cards (``CARD_PX_PER_MM``: a card ~102 px wide): a crop like a dealer's exposed
    hand. Returns the image and each card's label and box."""
    art = load_deck(deck, 200)
    rng = np.random.default_rng(5)
    cw = round(63.5 * CARD_PX_PER_MM)
    pitch, width, height = cw + 16, 5 * (cw + 16) + 24, round(1.9 * cw)
    img = np.zeros((height, width, 3), np.float32)
    img[:] = (40, 110, 30)
    img += rng.normal(0, 6, img.shape)
    truth = []
    for i, card in enumerate(_HAND):
        src = art.faces[card]
        h, w = src.shape[:2]
        s = cw / w
        ang = math.radians(float(rng.uniform(-6, 6)))
        cx, cy = 12 + cw / 2 + 8 + i * pitch, height / 2
        c, si = math.cos(ang) * s, math.sin(ang) * s
        m = np.array([[c, -si, cx - (c * w / 2 - si * h / 2)], [si, c, cy - (si * w / 2 + c * h / 2)]])
        warped = cv2.warpAffine(src, m, (width, height), flags=cv2.INTER_AREA)
        a = warped[:, :, 3:4].astype(np.float32) / 255
        img = img * (1 - a) + warped[:, :, :3] * a
        ys, xs = np.nonzero(warped[:, :, 3] > 127)
        truth.append((str(card), (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))))
    return np.clip(img, 0, 255).astype(np.uint8), truth


def _score(deck: str) -> tuple[int, int, list[str]]:
    """(cards read right, detections of cards not in the image, labels found) for one deck's row."""
    det = load_detector(tile=True)  # as the pipeline sets it up
    img, truth = _row_of_cards(deck)
    found = det.detect(img)
    assert found.xyxy.shape == (len(found), 4)
    assert (found.xyxy[:, 0] >= 0).all() and (found.xyxy[:, 2] <= img.shape[1]).all()
    right = 0
    for label, (x0, _y0, x1, _y1) in truth:
        right += any(
            found.labels[i] == label and x0 - 5 <= (box[0] + box[2]) / 2 <= x1 + 5
            for i, (box, _, _) in enumerate(found)
        )
    wrong = sum(1 for lab in found.labels if lab not in {t[0] for t in truth})
    return right, wrong, found.labels


# The committed model's baseline on these 5 rows (25 cards, at the pipeline's card scale): 25 read
# right, 0 detections of cards not in the image (table-trained stage 1 + CNN stage 2 trained with
# synthetic font crops, turned-view average). A retrained model must not do worse (a margin of 1
# for numeric noise).
_BASELINE_RIGHT = 24
_BASELINE_WRONG = 1


def test_reads_held_out_rows_at_least_as_well_as_the_committed_baseline() -> None:
    results = {deck: _score(deck) for deck in VALIDATION_DECKS}
    right = sum(r for r, _, _ in results.values())
    wrong = sum(w for _, w, _ in results.values())
    assert right >= _BASELINE_RIGHT, f"{right} of 25 cards read right (baseline {_BASELINE_RIGHT}): {results}"
    assert wrong <= _BASELINE_WRONG, f"{wrong} wrong cards (baseline {_BASELINE_WRONG}): {results}"


_UNDER_TARGET: set[str] = set()  # rows the shipped model does not yet read to target (none now)


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(
            d,
            marks=pytest.mark.xfail(
                strict=True, reason="the target; the shipped model is under-trained (see MODEL_CARD.md)"
            ),
        )
        if d in _UNDER_TARGET
        else d
        for d in HELD_OUT_DECKS  # the five gnome decks and the clean ones (kde-standard, ...)
    ],
)
def test_reads_a_row_of_held_out_deck_cards(deck: str) -> None:
    right, wrong, labels = _score(deck)
    expected = [str(c) for c in _HAND]
    assert right >= 4, f"{deck}: found {labels}, expected {expected}"
    assert wrong <= 1, f"{deck}: found {labels}, expected {expected}"
    assert len(labels) == len(set(labels)), f"{deck}: a card reported twice: {labels}"


def test_detect_command_prints_json_per_image_and_fails_on_unreadable(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from compliance.cli import app

    img, _ = _row_of_cards("simplistic")
    good = tmp_path / "row.png"
    cv2.imwrite(str(good), img)
    res = CliRunner().invoke(app, ["detect", str(good), "--json", "--conf", "0.1"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output.strip().splitlines()[0])
    assert rec["image"] == str(good)
    for c in rec["cards"]:
        assert c["card"] in CLASSES and len(c["xyxy"]) == 4 and 0 < c["confidence"] <= 1
    bad = tmp_path / "not_an_image.png"
    bad.write_text("no")
    res = CliRunner().invoke(app, ["detect", str(bad)])
    assert res.exit_code == 1
    assert "not_an_image.png: not a readable image" in res.output
    res = CliRunner().invoke(app, ["detect", str(tmp_path / "gone.jpg"), str(good)])
    assert res.exit_code == 1  # the image after it is still read
    assert "gone.jpg: no such file" in res.output and "row.png" in res.output
    res = CliRunner().invoke(app, ["detect", str(good), "--rotations", "sideways"])
    assert res.exit_code == 2 and "--rotations" in res.output and "sideways" in res.output
    # a folder: its images in name order (other files passed over); a folder of none is an error
    shots = tmp_path / "shots"
    shots.mkdir()
    # (a .webp or .tif too: the formats ``detect FILE`` and eval-photos take, which it once passed over)
    for name in ("b.png", "a.jpg", "c.webp", "d.tif"):
        cv2.imwrite(str(shots / name), img)
    (shots / "notes.txt").write_text("not an image")
    res = CliRunner().invoke(app, ["detect", str(shots), "--json", "--rotations", "0"])
    assert res.exit_code == 0, res.output
    assert [json.loads(x)["image"] for x in res.output.strip().splitlines()] == [
        str(shots / n) for n in ("a.jpg", "b.png", "c.webp", "d.tif")
    ]
    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(app, ["detect", str(tmp_path / "empty")])
    assert res.exit_code == 1 and "folder holds no images" in res.output


def test_image_pyramid_reads_cards_far_from_the_trained_size() -> None:
    """A still's card size is unknown: at 4x the trained size one scale reads few cards right; the
    pyramid ``detect`` uses reads the row (and still reads it at a quarter of the size). Cases
    measured when the pyramid was added: each gave 5 right, 0 wrong (one scale at 4x: 0-2 right)."""
    from vision.detector import pyramid_scales

    for deck, f in (("tigullio", 4.0), ("plastic", 4.0), ("plastic", 0.25)):
        img, truth = _row_of_cards(deck)
        want = {t[0] for t in truth}
        small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)
        one = load_detector(tile=True)
        pyr = load_detector(tile=True, scales=pyramid_scales(small.shape[1], small.shape[0], one.imgsz))
        at_all = set(pyr.detect(small).labels)
        assert len(at_all & want) >= 4, f"{deck} x{f}: pyramid read {sorted(at_all)}, expected {sorted(want)}"
        assert len(at_all - want) <= 1, f"{deck} x{f}: pyramid read {sorted(at_all)}, expected {sorted(want)}"
        if f > 1:
            at_one = set(one.detect(small).labels) & want
            assert len(at_one) < len(at_all & want), f"{deck} x{f}: one scale read {sorted(at_one)} already"


def test_turned_boxes_come_back_to_the_image() -> None:
    """A box found in a turned still is carried back to the still's own pixels (90 degrees: exactly;
    45: the bounds of the turned box, which hold the original)."""
    from vision.detector import boxes_through, turned

    img = np.zeros((100, 200, 3), np.uint8)
    img[20:40, 150:160] = 255  # a small white box
    for deg in (90.0, 180.0, 270.0, 45.0):
        shown, back = turned(img, deg)
        ys, xs = np.nonzero(shown[:, :, 0] > 127)
        got = boxes_through(np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32), back)[0]
        if deg % 90 == 0:
            assert np.allclose(got, [150, 20, 160, 40], atol=1.5), (deg, got)
        else:
            assert got[0] <= 151 and got[1] <= 21 and got[2] >= 159 and got[3] >= 39, (deg, got)
    assert boxes_through(np.zeros((0, 4), np.float32), np.eye(2, 3)).shape == (0, 4)


def test_stills_read_turned_find_cards_at_any_angle() -> None:
    """Cards lying across the image (60, 90, 135 degrees off upright): read only as they lie, stage 1
    boxes few of them; read turned every 45 degrees (``detect``'s default), the row is read, and a
    deck printing an index in all four corners (dondorf) still gives one read per card. Measured
    when added: as they lie 0, 0 and 1 right; turned 5 right, 0 wrong, in each case here."""
    from vision.detector import turned

    for deck, deg in (("plastic", 90.0), ("kde-standard", 60.0), ("dondorf", 135.0)):
        img, truth = _row_of_cards(deck)
        want = {t[0] for t in truth}
        shown, _ = turned(img, deg)
        as_it_lies = set(load_detector(tile=True).detect(shown).labels) & want
        found = load_detector(tile=True, rotations=[45.0 * k for k in range(8)]).detect(shown).labels
        assert len(set(found) & want) >= 4, f"{deck} at {deg}: read {sorted(found)}, expected {sorted(want)}"
        assert len(set(found) - want) <= 1, f"{deck} at {deg}: read {sorted(found)}, expected {sorted(want)}"
        assert len(found) == len(set(found)), f"{deck} at {deg}: a card reported twice: {found}"
        assert len(as_it_lies) < len(set(found) & want), f"{deck} at {deg}: read as it lies {as_it_lies}"


def test_pyramid_scales_span_the_image() -> None:
    from vision.detector import pyramid_scales

    s = pyramid_scales(4000, 3000, 256)
    assert s == [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0]  # longer side 250 .. 4000 px
    assert pyramid_scales(100, 50, 256) == [1.0, 2.0, 4.0]  # small: enlarged, at most 4x
    assert pyramid_scales(1500, 1000, 256) == [1 / 8, 1 / 4, 1 / 2, 1.0, 2.0]
    with pytest.raises(ValueError, match="positive"):
        pyramid_scales(0, 0, 256)


def test_shipped_detector_reads_card_bodies_and_they_name_bellot_pip_cards_its_index_font_hides() -> None:
    """s01 (bellot, a held-out deck) at 27.12 s: seat 2's high hand lies spread face up. Its 5c's
    condensed index reads J (p 0.39) and 5 (0.23); the narrow cut reads 5, so the two cuts contest
    it and it went unnamed. The body look sees the strip of pips the spread leaves (two in the left
    column: a 4 or a 5) and names it. Nothing read is a card not in the hand."""
    from vision.layout import load_layout
    from vision.pipeline import PipelineConfig
    from vision.zones import build_regions

    files = DetectorFiles.in_dir(DEFAULT_MODELS_DIR)
    assert files.body is not None and files.body.stat().st_size > 100_000
    det = load_detector(tile=True)
    assert det.reads_card_bodies
    root = Path(__file__).resolve().parent.parent / "sample_footage"
    layout = load_layout(root / "render-7card.layout.yaml")
    cap = cv2.VideoCapture(str(root / "s01-seven-compliant.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, round(27.12 * 25))
    ok, frame = cap.read()
    cap.release()
    assert ok
    cfg = PipelineConfig()  # the camera pipeline's own crops
    regions = build_regions(
        layout, margin_mm=cfg.crop_margin_mm, px_per_mm=cfg.px_per_mm, card_px_per_mm=cfg.card_px_per_mm
    )
    region = next(r for r in regions if r.name == "seat2")
    crop = region.rectify(frame)
    hand = {"4s", "3c", "5c", "9d", "9h", "Kh", "Th"}  # truth.json: seat 2 after the dealer re-set it
    plain = set(det.detect_with_unread(crop)[0].labels) - {"BACK"}
    looked = set(det.detect_with_unread(crop, card_px_per_mm=region.px_per_mm)[0].labels) - {"BACK"}
    assert "5c" not in plain and "5c" in looked
    assert looked <= hand and plain <= hand
    assert len(looked) > len(plain)


def test_a_coarse_camera_gets_its_own_index_classifier_and_the_sample_camera_the_default() -> None:
    """A 1280x720 view of the felt shows the card regions at ~0.8 px/mm (enlarged twice for the
    detector): the pipeline reads them with the classifier fine-tuned on such crops; the sample's
    1920x1080 (~1.2 px/mm) with the default one (models/MODEL_CARD.md, `card_cls_coarse.onnx`)."""
    from render.table import build_layout
    from vision.pipeline import coarse_camera, load_shipped_detector

    files = DetectorFiles.in_dir(DEFAULT_MODELS_DIR)
    assert files.cls_coarse is not None and files.cls_coarse != files.cls
    coarse = build_layout("seven-card", image_size=(1280, 720))
    fine = build_layout("seven-card", image_size=(1920, 1080))
    assert coarse_camera(coarse) and not coarse_camera(fine)
    assert load_shipped_detector(coarse=True).cls_file == files.cls_coarse  # type: ignore[attr-defined]
    assert load_shipped_detector(coarse=False).cls_file == files.cls  # type: ignore[attr-defined]


def test_without_a_coarse_classifier_every_camera_gets_the_default_one(tmp_path: Path) -> None:
    import shutil

    for name in ("card_det.onnx", "card_cls.onnx"):
        shutil.copy(DEFAULT_MODELS_DIR / name, tmp_path / name)
    files = DetectorFiles.in_dir(tmp_path)
    assert files.cls_coarse is None and files.body is None and files.det_still is None
    assert load_detector(tmp_path, coarse_camera=True).cls_file == tmp_path / "card_cls.onnx"
    assert load_detector(tmp_path, stills=True).det_file == tmp_path / "card_det.onnx"


def test_stills_are_read_by_the_stills_stage_1_and_the_camera_by_its_own() -> None:
    files = DetectorFiles.in_dir(DEFAULT_MODELS_DIR)
    assert files.det_still == DEFAULT_MODELS_DIR / "card_det_still.onnx"
    assert load_detector(stills=True).det_file == files.det_still
    assert load_detector().det_file == files.det


def test_memory_answers_a_still_crop_and_reads_a_changed_tile_afresh() -> None:
    """The pipeline's detector remembers stage 1's finds per tile and the classifier's reads per index
    box (``memory``): a crop read again unchanged is answered from memory with the same cards and
    confidences; a card swapped in one tile is read anew, as a detector without memory reads it."""
    plain = load_detector(tile=True)
    remembering = load_detector(tile=True, memory=8)
    img, truth = _row_of_cards(VALIDATION_DECKS[0])
    assert img.shape[1] > plain.imgsz  # several tiles

    def cards(found: Detections) -> list[tuple[str, int]]:
        return sorted((lab, round(float(b[0]) / 10)) for lab, b in zip(found.labels, found.xyxy, strict=True))

    first = remembering.detect(img)
    assert cards(first) == cards(plain.detect(img))
    memory = remembering.tile_memory
    assert memory is not None and memory.answered == 0
    again = remembering.detect(img.copy())
    assert memory.answered == memory.asked // 2 > 0  # every tile of the second read
    reads = remembering.index_memory
    assert reads is not None and reads.answered == reads.asked // 2 > 0  # and every index read
    assert cards(again) == cards(first)
    assert np.allclose(np.sort(again.confidence), np.sort(first.confidence))

    # the last card drawn from another deck (the same card, other artwork): its tile changes, the
    # others do not
    other, _ = _row_of_cards(VALIDATION_DECKS[1])
    x0 = int(truth[-1][1][0]) - 4
    swapped = img.copy()
    swapped[:, x0:] = other[:, x0:]
    answered = memory.answered
    got, fresh = remembering.detect(swapped), plain.detect(swapped)
    assert cards(got) == cards(fresh)
    # the 10's index crop reaches a few pixels into the swapped card: within the memory's tolerance,
    # so its earlier read stands (0.811 against 0.817 read afresh)
    assert np.allclose(np.sort(got.confidence), np.sort(fresh.confidence), atol=0.02)
    assert 0 < memory.answered - answered < len(tile_origins(img.shape[1], img.shape[0], plain.imgsz))


def test_a_photos_colour_cast_is_taken_out_before_reading() -> None:
    """A pink cast (green at 0.75: warm light on a photo) makes the detector box stray cards; the
    still white-balanced on its brightest pixels (the cards' paper) reads the row as it was."""
    from vision.detector import white_balanced

    img, truth = _row_of_cards("kde-standard")
    cast = np.clip(img.astype(np.float32) * np.array([1.0, 0.75, 1.0]), 0, 255).astype(np.uint8)
    det = load_detector(tile=True)
    raw = det.detect(cast)
    assert len(raw) > len(truth)  # strays read in the cast (9 of 5 with the committed model)
    found = det.detect(white_balanced(cast))
    assert sorted(found.labels) == sorted(label for label, _ in truth)


def test_white_balance_greys_the_brightest_pixels_and_only_raises_channels() -> None:
    from vision.detector import white_balanced

    rng = np.random.default_rng(3)
    img = rng.integers(20, 120, (60, 80, 3)).astype(np.uint8)
    img[10:30, 10:40] = (235, 180, 240)  # a pink-lit card: green low (BGR)
    out = white_balanced(img)
    card = out[10:30, 10:40].reshape(-1, 3).astype(int)
    assert (card.max(1) - card.min(1) <= 1).all() and card[:, 1].mean() > 238
    assert (out.astype(int) >= img.astype(int)).all()  # no channel lowered
    neutral = img.copy()
    neutral[10:30, 10:40] = 240
    assert np.array_equal(white_balanced(neutral), neutral)
    mild = img.copy()
    mild[10:30, 10:40] = (235, 250, 254)  # cream paper: no channel would rise 10 %
    assert np.array_equal(white_balanced(mild), mild)
    # brightest pixels strongly coloured (no cards): no channel raised more than 1.5x
    red = np.zeros((40, 40, 3), np.uint8)
    red[:] = (60, 60, 200)
    assert white_balanced(red)[0, 0].tolist() == [90, 90, 200]


class _BodySays:
    """A body reader that reads every window as one made-up row of body probabilities."""

    def __init__(self, row: np.ndarray) -> None:
        self.row = row
        self.windows: list[np.ndarray] = []

    def probs(
        self, image: np.ndarray, boxes: list[np.ndarray], all_boxes: np.ndarray, px: float
    ) -> np.ndarray:
        self.windows += [np.asarray(b) for b in boxes]
        return np.repeat(self.row[None], len(boxes), axis=0)


def test_on_whole_cards_a_sure_index_is_turned_to_the_suit_its_card_s_pips_show() -> None:
    """``_suit_by_pips``: both corners of a display's 3h read 3d at 0.77 are weighed by the body cut
    below the top-left one, sure of hearts: each turns to 3h and is marked weighed (named no surer
    than the body look); a court read is left as it was."""
    det = load_detector(tile=True)
    code = {c: i for i, c in enumerate(CLASSES)}
    body_row = np.full(54, 1e-3, np.float32)
    body_row[code["3h"]], body_row[code["3d"]] = 0.9, 0.03
    det._body = _BodySays(body_row / body_row.sum())  # type: ignore[assignment]
    col = {int(c): j for j, c in enumerate(det._cls_names)}
    probs = np.full((3, len(det._cls_names)), 1e-3, np.float32)
    for i, (read, second) in enumerate((("3d", "3h"), ("3d", "3h"), ("Qc", "Qs"))):
        probs[i, col[code[read]]], probs[i, col[code[second]]] = 0.77, 0.15
    boxes = np.array([[5, 5, 15, 30], [60, 90, 70, 115], [80, 5, 90, 30]], np.float32)
    cut_below = np.array([0, 0, 2])  # the bottom-right corner is weighed by its card's top-left window
    weighed = np.zeros(3, bool)
    det._suit_by_pips(np.zeros((120, 100, 3), np.uint8), boxes, cut_below, probs, weighed, 0.8)
    names = [CLASSES[int(det._cls_names[j])] for j in probs.argmax(1)]
    assert names == ["3h", "3h", "Qc"] and weighed.tolist() == [True, True, False]
    assert [b.tolist() for b in det._body.windows] == [boxes[0].tolist()]  # one a pip card; no court's
