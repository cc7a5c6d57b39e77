"""Synthetic Joker faces (render/synth_joker.py) and their labels in the table-cut training data."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from render.artwork import load_deck
from render.clip import _ART_SOURCE_WIDTH
from render.synth_index import index_fonts
from render.synth_joker import synthetic_joker, with_synthetic_joker
from render.training import index_box
from render.zone_data import export_zone_training
from rules.cards import DECK, JOKER

_DECK = "anglo"


@pytest.fixture(scope="module")
def fonts() -> list[Path]:
    found = index_fonts()
    assert len(found) >= 20, f"only {len(found)} fonts: run scripts/setup.sh dev"
    return found


def _boxes(deck: str) -> dict[int, tuple[float, float, float, float]]:
    return {c: index_box(deck, c) for c in range(53)}


def test_the_box_holds_the_new_ink_and_the_bottom_corner_is_the_top_one_turned(fonts: list[Path]) -> None:
    art = load_deck(_DECK, _ART_SOURCE_WIDTH)
    for seed in range(12):
        rng = random.Random(seed)
        face, (x0, y0, x1, y1) = synthetic_joker(art, _boxes(_DECK), rng, rng.choice(fonts))
        h, w = face.shape[:2]
        assert face.shape == art.faces[JOKER].shape and face.dtype == np.uint8
        assert 0 <= x0 < x1 <= 0.45 and 0 <= y0 < y1 <= 0.45, (seed, (x0, y0, x1, y1))
        grey = cv2.cvtColor(np.ascontiguousarray(face[:, :, :3]), cv2.COLOR_BGR2GRAY).astype(np.float32)
        inside = grey[round(y0 * h) : round(y1 * h), round(x0 * w) : round(x1 * w)]
        assert inside.min() < grey.max() - 80, seed  # ink in the box
        # just outside the box, towards the card's middle, the corner was painted over (paper)
        ring = grey[round(y0 * h) : round(y1 * h), round(x1 * w) + 1 : round(x1 * w) + 3]
        assert ring.size and np.median(ring) > grey.max() - 60, seed
        turned = grey[::-1, ::-1][round(y0 * h) : round(y1 * h), round(x0 * w) : round(x1 * w)]
        assert np.abs(turned - inside).mean() < 12, seed  # the same index, turned, bottom-right


def test_same_seed_same_face_and_the_card_outline_is_kept(fonts: list[Path]) -> None:
    art = load_deck(_DECK, _ART_SOURCE_WIDTH)
    a, ba = synthetic_joker(art, _boxes(_DECK), random.Random(5), fonts[0])
    b, bb = synthetic_joker(art, _boxes(_DECK), random.Random(5), fonts[0])
    assert ba == bb and np.array_equal(a, b)
    # the card's shape is that of the deck's face it was drawn on
    assert any(np.array_equal(a[:, :, 3], f[:, :, 3]) for f in art.faces.values())


def test_with_synthetic_joker_changes_only_the_joker(fonts: list[Path]) -> None:
    art = load_deck(_DECK, _ART_SOURCE_WIDTH)
    new, _ = with_synthetic_joker(art, _boxes(_DECK), random.Random(1), fonts[0])
    assert new.red_joker is new.faces[JOKER]
    assert all(new.faces[c] is art.faces[c] for c in DECK if c != JOKER)
    assert not np.array_equal(new.faces[JOKER], art.faces[JOKER])


def test_export_labels_a_synthetic_joker_by_its_own_box(tmp_path: Path) -> None:
    """Every training round with a synthetic Joker: its classifier crops (cut around the labels)
    show ink; and an export without the option draws what it always drew (same files, same seed)."""
    kw = dict(clips=2, val_clips=0, seed=5, frames_per_clip=6, workers=1, empty_keep_pct=0)
    export_zone_training(tmp_path / "j", synthetic_jokers=1.0, **kw)  # type: ignore[arg-type]
    crops = sorted((tmp_path / "j/cls/train/c52").glob("*.png"))
    assert crops, "no Joker labelled in two rounds of the seed (a Joker is dealt in most rounds)"
    for c in crops:
        g = cv2.imread(str(c), cv2.IMREAD_GRAYSCALE).astype(np.float32)
        assert g.max() - g.min() > 60, c.name
    export_zone_training(tmp_path / "a", **kw)  # type: ignore[arg-type]
    export_zone_training(tmp_path / "b", synthetic_jokers=0.0, **kw)  # type: ignore[arg-type]
    fa = sorted(p.name for p in (tmp_path / "a/det/labels/train").glob("*.txt"))
    assert fa == sorted(p.name for p in (tmp_path / "b/det/labels/train").glob("*.txt"))
    for name in fa:
        assert (tmp_path / "a/det/labels/train" / name).read_text() == (
            tmp_path / "b/det/labels/train" / name
        ).read_text()


def test_a_share_outside_0_1_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synthetic_jokers"):
        export_zone_training(tmp_path, clips=1, val_clips=0, seed=1, synthetic_jokers=1.5)
