"""Training decks from the npm registry (render.npm_decks): fetching with a pinned checksum, loading
each deck card by card, and the training split. scripts/setup.sh dev fetches them; the loading tests
need them (the fetch tests use a tarball made here)."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
from pathlib import Path

import numpy as np
import pytest

from render import artwork, npm_decks
from render.artwork import CARD_ASPECT, HELD_OUT_DECKS, ArtworkError, deck_has_joker, load_deck, train_decks
from render.npm_decks import NPM_DECKS, NpmDeck
from rules.cards import DECK, JOKER


@pytest.mark.parametrize("name", list(NPM_DECKS))
def test_every_npm_deck_loads_whole_cards_at_the_gnome_size(name: str) -> None:
    art = load_deck(name, 200)
    assert art.size == load_deck("anglo", 200).size == (200, round(200 * CARD_ASPECT))
    assert set(art.faces) == set(DECK[:52]) | ({JOKER} if NPM_DECKS[name].joker else set())
    assert deck_has_joker(name) == art.has_joker == (NPM_DECKS[name].joker is not None)
    for img in [*art.faces.values(), art.back]:
        assert img.shape == (280, 200, 4) and img.dtype == np.uint8
        assert (img[:, :, 3] > 128).mean() > 0.9  # a whole card, not a pip or a pattern tile
    # faces differ from each other (a wrong file name pattern would load one card 52 times)
    assert len({img.tobytes() for img in art.faces.values()}) == len(art.faces)


def test_npm_decks_are_training_decks_and_no_held_out_deck() -> None:
    train = train_decks()
    assert set(NPM_DECKS) <= set(train)
    assert not set(NPM_DECKS) & set(HELD_OUT_DECKS)


def test_training_refuses_to_start_without_the_npm_decks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(npm_decks, "NPM_DECK_DIR", tmp_path / "none")
    with pytest.raises(ArtworkError, match=r"npm training decks npm-aguilar, .* run scripts/setup.sh dev"):
        train_decks()
    assert not set(NPM_DECKS) & set(artwork.available_decks())


def _tarball(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path, data in files.items():
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _card_svg(i: int) -> bytes:
    rect = f'<rect width="63.5" height="88.9" fill="rgb({i},0,0)"/>'
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="63.5" height="88.9">{rect}</svg>'.encode()


def _fake(monkeypatch: pytest.MonkeyPatch, files: dict[str, bytes]) -> tuple[NpmDeck, list[str]]:
    data = _tarball(files)
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    deck = NpmDeck(
        package="fake-cards",
        version="1.0.0",
        integrity=integrity,
        folder="package/c",
        faces="{n}{s}.svg",
        back="package/back.svg",
        joker=None,
        licence="CC0",
    )
    monkeypatch.setattr(npm_decks, "NPM_DECKS", {"npm-fake": deck})
    calls: list[str] = []

    def download(url: str, want: str) -> bytes:
        calls.append(url)
        assert want == integrity
        return data

    monkeypatch.setattr(npm_decks, "_download", download)
    return deck, calls


def test_fetch_unpacks_each_card_once_and_marks_the_deck_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"package/c/{n}{s}.svg": _card_svg(n * 4 + k) for k, s in enumerate("cdhs") for n in range(1, 14)
    }
    files["package/back.svg"] = _card_svg(255)
    deck, calls = _fake(monkeypatch, files)
    assert deck.tarball == "https://registry.npmjs.org/fake-cards/-/fake-cards-1.0.0.tgz"
    assert npm_decks.missing(tmp_path) == ["npm-fake"]
    assert npm_decks.fetch(root=tmp_path) == ["npm-fake"]
    assert (tmp_path / "npm-fake/Ah.svg").read_bytes() == files["package/c/1h.svg"]
    assert (tmp_path / "npm-fake/Tc.svg").read_bytes() == files["package/c/10c.svg"]
    assert (tmp_path / "npm-fake/BACK.svg").is_file() and npm_decks.missing(tmp_path) == []
    assert npm_decks.fetch(root=tmp_path) == [] and len(calls) == 1  # already there: not fetched again


def test_a_package_without_a_card_is_refused_naming_the_file_and_left_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"package/c/{n}{s}.svg": _card_svg(1) for s in "cdhs" for n in range(1, 14) if (n, s) != (12, "s")
    }
    files["package/back.svg"] = _card_svg(2)
    _fake(monkeypatch, files)
    with pytest.raises(ValueError, match=r"no file package/c/12s\.svg \(deck npm-fake, card Qs\)"):
        npm_decks.fetch(root=tmp_path)
    assert npm_decks.missing(tmp_path) == ["npm-fake"]


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "x.tgz"
    f.write_bytes(_tarball({"package/a.svg": b"<svg/>"}))
    good = "sha512-" + base64.b64encode(hashlib.sha512(f.read_bytes()).digest()).decode()
    assert npm_decks._download(f.as_uri(), good) == f.read_bytes()
    bad = "sha512-" + base64.b64encode(hashlib.sha512(b"other").digest()).decode()
    with pytest.raises(ValueError, match=r"x\.tgz: sha512 .* is not the pinned"):
        npm_decks._download(f.as_uri(), bad)
