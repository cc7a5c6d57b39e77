"""Training data cut from rendered table frames the way the camera pipeline cuts zones."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from render.artwork import VALIDATION_DECKS
from render.zone_data import export_zone_training


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("zones")
    export_zone_training(out, clips=1, val_clips=1, seed=3, frames_per_clip=6, workers=1, empty_keep_pct=0)
    return out


def test_summary_matches_files_and_decks_are_split(exported: Path) -> None:
    s = json.loads((exported / "export.json").read_text())
    for split in ("train", "val"):
        tiles = list((exported / "det/images" / split).glob("*.jpg"))
        assert s[split]["tiles"] == len(tiles) > 0
        assert s[split]["cls_crops"] == len(list((exported / "cls" / split).rglob("*.png")))
    assert set(s["val"]["decks"]) <= set(VALIDATION_DECKS)
    assert not set(s["train"]["decks"]) & set(VALIDATION_DECKS)


def test_labels_lie_inside_their_tiles(exported: Path) -> None:
    n_index = 0
    for lab in (exported / "det/labels/train").glob("*.txt"):
        img = cv2.imread(str(lab.parent.parent.parent / "images/train" / f"{lab.stem}.jpg"))
        assert img is not None and max(img.shape[:2]) <= 256
        for row in [r.split() for r in lab.read_text().splitlines() if r]:
            c, x, y, w, h = int(row[0]), *map(float, row[1:])
            assert c in (0, 1)
            assert (
                x - w / 2 + 1e-6 >= 0
                and x + w / 2 <= 1 + 1e-6
                and y - h / 2 + 1e-6 >= 0
                and y + h / 2 <= 1 + 1e-6
            )
            n_index += c == 0
    assert n_index > 0  # a round always shows some face at some point (dealer's hand at least)


def test_index_labels_sit_on_ink(exported: Path) -> None:
    """An index box lies on a light card face and holds the rank's ink (contrast): a box
    slid onto the felt would be dark, one on a blank part of a card flat."""
    good = total = 0
    for lab in (exported / "det/labels/train").glob("*.txt"):
        img = cv2.imread(
            str(lab.parent.parent.parent / "images/train" / f"{lab.stem}.jpg"), cv2.IMREAD_GRAYSCALE
        )
        hh, ww = img.shape[:2]
        for row in [r.split() for r in lab.read_text().splitlines() if r and r[0] == "0"]:
            x, y, w, h = map(float, row[1:])
            roi = img[
                int((y - h / 2) * hh) : int((y + h / 2) * hh) + 1,
                int((x - w / 2) * ww) : int((x + w / 2) * ww) + 1,
            ]
            hi, lo = np.percentile(roi, 90), np.percentile(roi, 10)
            total += 1
            good += hi > 140 and hi - lo > 20  # a card in the arm's shadow is greyer
    assert total > 0 and good / total > 0.95


def test_classifier_crops_are_40px_and_include_negatives(exported: Path) -> None:
    crops = list((exported / "cls/train").rglob("*.png"))
    assert crops and all(cv2.imread(str(p)).shape[:2] == (40, 40) for p in crops[:50])
    assert list((exported / "cls/train/c53").glob("*.png"))


def test_a_card_in_the_dealers_hand_is_present_but_not_labelled() -> None:
    # a face being carried or turned gets no index label (its index may be blurred or bent), but it
    # lies in the picture: eval-detector must not count a right read of it as a false detection
    from render.draw import CardBox
    from render.zone_data import _labels

    quad = ((100.0, 100.0), (200.0, 100.0), (200.0, 240.0), (100.0, 240.0))
    moving = CardBox("Ac", quad, (100.0, 100.0, 200.0, 240.0), "moving", 1.0, 1)
    lying = CardBox("Kd", quad, (100.0, 100.0, 200.0, 240.0), "seat1.high", 1.0, 2)
    kinds = [(kind, code) for kind, code, *_ in _labels([moving], None, "anglo", (480, 640))]
    assert kinds == [("moving", 51)]
    kinds = [kind for kind, *_ in _labels([lying], None, "anglo", (480, 640))]
    assert kinds == ["index", "index"]
