"""The detector's training-data export: labels inside the image, classes right, decks split."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from render.artwork import VALIDATION_DECKS, train_decks
from render.training import (
    CLS_CLASS_NAMES,
    CLS_IMGSZ,
    Scene,
    export_training,
    index_box,
    render_scene,
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export")
    export_training(out, images=5, seed=7, zones=1)
    return out


def test_deck_split_is_disjoint_and_covers_the_validation_decks() -> None:
    assert not set(train_decks()) & set(VALIDATION_DECKS)
    assert len(VALIDATION_DECKS) >= 5
    assert len(train_decks()) >= 10


def test_summary_counts_match_the_files(exported: Path) -> None:
    s = json.loads((exported / "export.json").read_text())
    assert s["images_train"] == len(list((exported / "det/images/train").glob("*.jpg")))
    assert s["images_val"] == len(list((exported / "det/images/val").glob("*.jpg")))
    assert s["images_train"] + s["images_val"] == 5
    assert not set(s["train_decks"]) & set(s["val_decks"])


@pytest.mark.parametrize("split", ["train", "val"])
def test_labels_lie_inside_the_image_and_match_the_truth(exported: Path, split: str) -> None:
    allowed = set(VALIDATION_DECKS) if split == "val" else set(train_decks())
    images = sorted((exported / "det/images" / split).glob("*.jpg"))
    assert images
    n_labels = 0
    for img_path in images:
        img = cv2.imread(str(img_path))
        assert img is not None
        h, w = img.shape[:2]
        scene = Scene.model_validate_json(
            (exported / "det/truth" / split / f"{img_path.stem}.json").read_text()
        )
        assert scene.deck in allowed, f"{img_path.name}: deck {scene.deck} leaks into the {split} split"
        assert (scene.width, scene.height) == (w, h)
        lines = (exported / "det/labels" / split / f"{img_path.stem}.txt").read_text().split()
        rows = np.array(lines, np.float64).reshape(-1, 5)
        assert len(rows) == len(scene.objects)
        for row, obj in zip(rows, scene.objects, strict=True):
            cls, cx, cy, bw, bh = row
            assert cls == (0 if obj.kind == "index" else 1)
            assert (obj.card == 53) == (obj.kind == "back")
            assert 0 <= obj.card <= 53
            assert 0 < bw <= 1 and 0 < bh <= 1
            assert cx - bw / 2 + 1e-6 >= 0 and cx + bw / 2 <= 1 + 1e-6
            assert cy - bh / 2 + 1e-6 >= 0 and cy + bh / 2 <= 1 + 1e-6
            x0, y0, x1, y1 = obj.xyxy
            assert cx * w == pytest.approx((x0 + x1) / 2, abs=0.01)
            cx0, cy0, cx1, cy1 = obj.card_xyxy  # an index lies on its card
            assert cx0 - 1 <= x0 and x1 <= cx1 + 1 and cy0 - 1 <= y0 and y1 <= cy1 + 1
            assert obj.card in scene.present
        n_labels += len(rows)
    assert n_labels > 0


def test_classifier_crops_are_square_and_in_known_classes(exported: Path) -> None:
    crops = list((exported / "cls/train").glob("*/*.png"))
    assert crops
    assert {p.parent.name for p in crops} <= set(CLS_CLASS_NAMES)
    for p in crops[:20]:
        img = cv2.imread(str(p))
        assert img is not None and img.shape == (CLS_IMGSZ, CLS_IMGSZ, 3)
    # every crop of a face comes from a labelled index of that card in the same scene
    for p in crops[:20]:
        if p.parent.name == "c53":
            continue
        stem = p.name.split("_")[0] + "_" + p.name.split("_")[1]
        scene = Scene.model_validate_json((exported / "det/truth/train" / f"{stem}.json").read_text())
        assert int(p.parent.name[1:]) in {o.card for o in scene.objects if o.kind == "index"}


def test_scenes_are_deterministic_in_the_seed() -> None:
    deck = train_decks()[0]
    a_img, a = render_scene(np.random.default_rng([3, 1]), deck, 200, 160, [deck])
    b_img, b = render_scene(np.random.default_rng([3, 1]), deck, 200, 160, [deck])
    c_img, _ = render_scene(np.random.default_rng([3, 2]), deck, 200, 160, [deck])
    assert a == b
    assert np.array_equal(a_img, b_img)
    assert not np.array_equal(a_img, c_img)


@pytest.mark.parametrize("deck", [*VALIDATION_DECKS[:2], "anglo"])
def test_index_box_sits_in_the_top_left_corner(deck: str) -> None:
    for code in (0, 35, 51, 52):
        x0, y0, x1, y1 = index_box(deck, code)
        assert 0 <= x0 < x1 <= 0.45 and 0 <= y0 < y1 <= 0.5
        assert (x1 - x0) * (y1 - y0) > 0.005


@pytest.mark.parametrize("deck", ["bellot", "simplistic"])
def test_index_box_leaves_out_a_pip_printed_beside_the_index(deck: str) -> None:
    # bellot and simplistic print the first pip of a number card right beside the index; the box
    # once took it in (0.40 of the card wide), so the classifier's crops were centred on the pip
    for code in range(52):
        x0, _, x1, _ = index_box(deck, code)
        assert x1 - x0 < (0.2 if code // 4 != 8 else 0.25), (deck, code)


def test_index_box_keeps_a_rank_that_touches_the_card_edge() -> None:
    # bellot's ranks start at the card's top edge; they are the index, not the card's outline
    _, y0, x1, y1 = index_box("bellot", 20)
    assert y0 < 0.01 and y1 > 0.2 and x1 < 0.2


def test_an_export_with_backdrops_lays_cards_on_photos_and_shows_some_photos_alone(tmp_path: Path) -> None:
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[:] = (30, 190, 60)  # a green photograph: where it shows, the scene is green
    plain = tmp_path / "plain"
    export_training(plain, images=12, seed=5, size=96, zones=0)  # the same scenes on drawn backgrounds
    laid = tmp_path / "laid"
    export_training(laid, images=12, seed=5, size=96, zones=0, backdrops=[photo], backdrop_share=1.0)
    empty = 0
    for split in ("train", "val"):
        for label in sorted((laid / "det" / "labels" / split).glob("*.txt")):
            img = cv2.imread(str(label.parent.parent.parent / "images" / split / f"{label.stem}.jpg"))
            truth = Scene.model_validate_json(
                (laid / "det" / "truth" / split / f"{label.stem}.json").read_text()
            )
            corner = img[:8, :8].reshape(-1, 3).mean(0)  # scenes' corners show the background
            if not truth.objects:
                empty += 1
                assert not label.read_text().strip()
                assert corner[1] > 1.5 * max(corner[0], corner[2]), corner  # the photo alone
    assert empty >= 1  # a tenth of the scenes on photos, drawn per scene: at least one of 12 here (seed 5)
    greens = [
        cv2.imread(str(p))[:8, :8].reshape(-1, 3).mean(0)
        for p in sorted((plain / "det" / "images").rglob("*.jpg"))
    ]
    assert not all(c[1] > 1.5 * max(c[0], c[2]) for c in greens)  # drawn backgrounds: not all green


def test_a_backdrop_is_cut_from_as_small_a_part_of_the_photo_as_asked() -> None:
    """``_backdrop`` shows a part of the photo from ``smallest`` of its sides to all of it, resized to
    the scene: with 0.125 a part can show the photo's details magnified 4x and up, as ``detect`` reads a
    still; the default (0.5) draws the same parts as before the option (the same random draws)."""
    from render.training import _backdrop

    # a photo whose pixel columns count from 0 to 799: the part's width shows as the span it covers
    photo = np.repeat(np.repeat(np.arange(800, dtype=np.float32)[None, :, None] / 800 * 255, 600, 0), 3, 2)
    photo = photo.astype(np.uint8)

    def spans(smallest: float) -> list[float]:
        out = []
        for k in range(40):
            part = _backdrop(np.random.default_rng(k), photo, 80, 60, smallest)
            out.append(float(np.ptp(part[30, :, 0])) / 255)  # the share of the photo's width shown
        return out

    half, eighth = spans(0.5), spans(0.125)
    assert min(half) >= 0.45 and max(half) <= 1.0
    assert min(eighth) < 0.25 and min(eighth) >= 0.1  # some parts magnified 4x (and never under 1/8)
    default = _backdrop(np.random.default_rng(3), photo, 80, 60)
    assert np.array_equal(default, _backdrop(np.random.default_rng(3), photo, 80, 60, 0.5))
    with pytest.raises(ValueError, match="smallest"):
        _backdrop(np.random.default_rng(0), photo, 80, 60, 0.0)
