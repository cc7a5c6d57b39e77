"""KDE card decks (Debian kdegames-card-data-kf5): loading, the allow-list, the held-out split, jokerless
dealing and ``--val-decks``. scripts/setup.sh dev installs the package; these tests need it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from render import artwork
from render.artwork import (
    CARD_ASPECT,
    CLEAN_HELDOUT_DECKS,
    HELD_OUT_DECKS,
    KDE_DECK_DIR,
    KDE_DECKS,
    KDE_REFUSED,
    VALIDATION_DECKS,
    ArtworkError,
    available_decks,
    deck_has_joker,
    load_deck,
    train_decks,
)
from render.clip import plan_clip
from render.scenario import random_scenario
from render.training import render_scene
from render.zone_data import export_zone_training, parse_val_decks
from rules.cards import DECK, JOKER


def test_kde_standard_loads_52_faces_and_a_back_at_the_gnome_size() -> None:
    art = load_deck("kde-standard", 200)
    assert art.size == load_deck("anglo", 200).size == (200, round(200 * CARD_ASPECT))
    assert len(art.faces) == 52 and set(art.faces) == set(DECK[:52])
    assert not art.has_joker and art.red_joker is None and not deck_has_joker("kde-standard")
    for img in [*art.faces.values(), art.back]:
        assert img.shape == (280, 200, 4) and img.dtype == np.uint8
        assert (img[:, :, 3] > 128).mean() > 0.9  # a whole card, not a pip
    with pytest.raises(ArtworkError, match="kde-standard has no Jk"):
        art.image("Jk")


def test_every_installed_kde_deck_is_accepted_or_refused_with_a_reason() -> None:
    installed = {f"kde-{p.name[len('svg-') :]}" for p in KDE_DECK_DIR.glob("svg-*")}
    assert installed, f"no KDE decks under {KDE_DECK_DIR}: run scripts/setup.sh dev"
    assert not set(KDE_DECKS) & set(KDE_REFUSED)
    assert installed == set(KDE_DECKS) | set(KDE_REFUSED)
    assert all(len(why) > 10 for why in KDE_REFUSED.values())
    assert set(CLEAN_HELDOUT_DECKS) <= set(KDE_DECKS)
    assert not set(KDE_REFUSED) & set(available_decks())


def test_training_and_held_out_decks_are_disjoint() -> None:
    train = set(train_decks())
    assert HELD_OUT_DECKS == VALIDATION_DECKS + CLEAN_HELDOUT_DECKS
    assert "kde-standard" in CLEAN_HELDOUT_DECKS
    assert not train & set(HELD_OUT_DECKS)
    # the KDE decks not held out are training decks; KDE's twins of held-out gnome decks are not
    assert {d for d in KDE_DECKS if d not in HELD_OUT_DECKS} <= train
    assert "kde-tigullio-international" not in train and "kde-dondorf" not in train


def test_a_refused_deck_fails_the_card_check_naming_deck_card_and_why() -> None:
    with pytest.raises(ArtworkError, match=r"deck kde-future, card \w+: height/width 0\.\d+, not a card's"):
        load_deck("kde-future", 120)


def _tiny_deck(folder: Path, pip: str | None, joker: bool) -> None:
    """A KDE-style deck of plain rectangles (``pip``: one card drawn as a small square instead)."""
    els = []
    names = [f"{r}_{s}" for s in ("club", "diamond", "heart", "spade") for r in artwork._KDE_RANKS]
    names += ["back"] + (["black_joker", "red_joker"] if joker else [])
    for i, name in enumerate(names):
        x, y = (i % 13) * 70, (i // 13) * 100
        w, h = (20, 20) if name == pip else (63.5, 88.9)
        grey = 40 + 3 * i
        els.append(
            f'<g id="{name}"><rect x="{x}" y="{y}" width="{w}" height="{h}" fill="rgb({grey},{grey},200)"/>'
            f'<rect x="{x + 4}" y="{y + 4}" width="10" height="14" fill="black"/></g>'
        )
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="920" height="500">{"".join(els)}</svg>'
    folder.mkdir(parents=True)
    (folder / "index.desktop").write_text("[KDE Backdeck]\nName=Tiny\nSVG=tiny.svgz\n")
    (folder / "tiny.svgz").write_bytes(gzip.compress(svg.encode()))


def test_a_kde_deck_with_a_joker_or_a_pip_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(artwork, "KDE_DECK_DIR", tmp_path / "decks")
    monkeypatch.setattr(artwork, "CACHE_DIR", tmp_path / "cache")
    _tiny_deck(tmp_path / "decks/svg-tiny", None, joker=True)
    _tiny_deck(tmp_path / "decks/svg-pips", "7_heart", joker=False)
    art = artwork._load_kde("kde-tiny", 60)
    assert art.has_joker and art.red_joker is not None and len(art.faces) == 53
    assert art.back.shape == (84, 60, 4) and deck_has_joker("kde-tiny")
    assert not np.array_equal(art.faces[JOKER], art.red_joker)
    again = artwork._load_kde("kde-tiny", 60)  # from the cache
    assert np.array_equal(again.faces[JOKER], art.faces[JOKER]) and again.red_joker is not None
    with pytest.raises(ArtworkError, match=r"deck kde-pips, card 7_heart: height/width 1\.00"):
        artwork._load_kde("kde-pips", 60)


def test_a_jokerless_deck_is_never_dealt_the_joker() -> None:
    """Scenes of render.training and table rounds of render.zone_data: no Joker from kde-standard
    (the same seeds deal one from a gnome deck, so the check can fail)."""
    jokers = {"kde-standard": 0, "anglo": 0}
    for deck in jokers:
        for seed in range(40):
            _, scene = render_scene(np.random.default_rng(seed), deck, 240, 240, [deck])
            jokers[deck] += JOKER.code in scene.present or any(o.card == JOKER.code for o in scene.objects)
    assert jokers["kde-standard"] == 0 and jokers["anglo"] > 0
    dealt = {"kde-standard": 0, "anglo": 0}
    for deck in dealt:
        for seed in range(8):
            sc = random_scenario("seven-card", seed, rounds=1).model_copy(update={"deck": deck})
            _, director = plan_clip(sc, seed)
            dealt[deck] += any(cv.token == "Jk" for f in director.frames for cv in f.cards)
    assert dealt["kde-standard"] == 0 and dealt["anglo"] > 0


def test_a_jokerless_deck_refuses_a_scenario_hand_with_the_joker() -> None:
    sc = random_scenario("six-card", 1, rounds=1)
    spec = sc.rounds[0].model_copy(update={"hands": {"dealer": "Jk As Kd Qh 9c 2s"}})
    sc = sc.model_copy(update={"deck": "kde-standard", "rounds": [spec]})
    with pytest.raises(ValueError, match="a Joker, but deck 'kde-standard' has none"):
        plan_clip(sc, 1)


def test_val_decks_parsing() -> None:
    assert parse_val_decks("kde-standard") == ("kde-standard",)
    assert parse_val_decks(" bellot , kde-standard ") == ("bellot", "kde-standard")
    with pytest.raises(ValueError, match="'anglo' is a training deck"):
        parse_val_decks("kde-standard,anglo")
    with pytest.raises(ValueError, match="'kde-nosuch' is not a usable deck"):
        parse_val_decks("kde-nosuch")
    with pytest.raises(ValueError, match="name one or more decks"):
        parse_val_decks(" , ")
    with pytest.raises(ValueError, match="named twice"):
        parse_val_decks("bellot,bellot")


def test_export_table_training_val_decks_option(tmp_path: Path) -> None:
    from compliance.cli import app

    base = ["export-table-training", "--clips", "0", "--val-clips", "0", "--workers", "1"]
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "a"), "--val-decks", "kde-nosuch"])
    assert res.exit_code == 2 and "kde-nosuch" in res.output
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b"), "--val-decks", "kde-standard"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "b/export.json").read_text())["val_decks"] == ["kde-standard"]
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "c/export.json").read_text())["val_decks"] == list(VALIDATION_DECKS)


def test_export_table_training_image_size_option(tmp_path: Path) -> None:
    from compliance.cli import app

    base = ["export-table-training", "--clips", "0", "--val-clips", "0", "--workers", "1"]
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "a"), "--image-size", "1280by720"])
    assert res.exit_code == 2 and "1280by720" in res.output and "--image-size" in res.output
    res = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b"), "--image-size", "1280x720"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "b/export.json").read_text())["image_size"] == [1280, 720]


def test_a_clean_held_out_export_uses_only_that_deck(tmp_path: Path) -> None:
    export_zone_training(
        tmp_path, clips=0, val_clips=1, seed=4, frames_per_clip=3, workers=1, val_decks=("kde-standard",)
    )
    s = json.loads((tmp_path / "export.json").read_text())
    assert s["val"]["decks"] == ["kde-standard"] and s["val"]["index_boxes"] > 0
    scenes = [json.loads(p.read_text()) for p in (tmp_path / "zones").glob("*.json")]
    assert scenes and all(sc["deck"] == "kde-standard" for sc in scenes)
    assert not list((tmp_path / "cls/val/c52").glob("*.png"))
