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


def test_eval_detector_counts_only_reads_as_sure_as_its_floor(exported: Path) -> None:
    """``evaluate``'s ``floor``: a read under it is not counted, right or wrong (the camera pipeline
    names a card from 0.4 up); with no floor every read counts."""
    from vision.detections import Detections
    from vision.training import evaluate

    class OneStrayRead:
        """Reads one Ac at the top-left of every image, 0.3 sure, and nothing else."""

        def detect(self, image: np.ndarray) -> Detections:
            return Detections(
                np.array([[0, 0, 10, 20]], np.float32), np.array([51]), np.array([0.3], np.float32)
            )

    every = evaluate(OneStrayRead(), exported)
    floored = evaluate(OneStrayRead(), exported, floor=0.4)
    assert every.images == floored.images > 0 and floored.floor == 0.4
    ace = {s.card: s for s in every.per_card}["Ac"]
    assert ace.fp + ace.tp == every.images  # one read an image, each counted
    assert sum(s.tp + s.fp for s in floored.per_card) == 0  # none as sure as the floor
    assert floored.faces_recall <= every.faces_recall
