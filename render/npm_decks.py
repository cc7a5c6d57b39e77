"""Training decks from the npm registry: SVG playing cards, one file per card, in pinned packages.

The Debian decks give the detector 25 training decks; every further deck style is another font and
another drawing of the suits, which is what reading a deck never seen depends on (the ninth session's
probes: the errors left at 720p are held-out decks' spades read as clubs). These packages carry whole
decks of their own art under free licences:

- ``npm-aguilar``: Chris Aguilar's Vectorized Playing Cards 1.3 (LGPL-3.0), as packaged by cardsJS.
- ``npm-responsive``: Responsive Playing Cards (LGPL-3.0; Aguilar's court art with indices of its
  own, redrawn for small sizes), as packaged by @younestouati/playing-cards-standard-deck.
- ``npm-kennard``: Adrian Kennard's generated SVG cards (CC0), as packaged by react-free-playing-cards.
- ``npm-kennard-big``: the same, drawn with the big ("bf") corner indices casino decks favour.

None is a twin of a held-out deck (``render.artwork.HELD_OUT_DECKS``: bellot, dondorf, plastic,
tigullio, simplistic, kde-standard, kde-tigullio-international; compared card by card by eye). The
4-colour variants of Kennard's deck are left out (two training decks already draw four colours).

``python -m render.npm_decks`` (run by ``scripts/setup.sh`` with any extra) fetches each tarball once
from the registry, checks it against its pinned sha512, and unpacks the deck's SVG files under
``NPM_DECK_DIR/<deck>/``. Only the renderer's training exports use them; the monitor never does.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = ["NPM_DECKS", "NPM_DECK_DIR", "NpmDeck", "deck_dir", "fetch", "installed", "missing"]

NPM_DECK_DIR = Path(
    os.environ.get("PAIGOW_NPM_CARD_DECKS", Path.home() / ".cache" / "paigow-monitor" / "npm-decks")
)
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_DONE = ".complete"  # written last in a deck's folder: every file is there


@dataclass(frozen=True)
class NpmDeck:
    """One deck inside one npm package: where its files lie and how they are named."""

    package: str
    version: str
    integrity: str  # the registry's dist.integrity (sha512, base64)
    folder: str  # the deck's folder inside the tarball
    faces: str  # file name of a face: {r} rank token (A 2..9 T J Q K), {n} rank number (1..13),
    # {s} suit letter (c d h s), {S} the same in capitals
    back: str  # path inside the tarball
    joker: str | None  # path inside the tarball, or None: a deck without a Joker
    licence: str
    back_tile: bool = False  # ``back`` is a square pattern tile, not a card: tiled onto a card

    @property
    def tarball(self) -> str:
        base = self.package.rsplit("/", 1)[-1]
        return f"https://registry.npmjs.org/{self.package}/-/{base}-{self.version}.tgz"

    def face_file(self, token: str) -> str:
        """The tarball path of face ``token`` (``Ah``, ``Tc``)."""
        rank, suit = token[0], token[1]
        n = _RANKS.index(rank) + 1
        name = self.faces.format(r=rank, n=n, s=suit, S=suit.upper())
        return f"{self.folder}/{name}"

    def files(self) -> dict[str, str]:
        """Token (``Ah``.., ``BACK``, ``Jk``) to its path inside the tarball."""
        out = {f"{r}{s}": self.face_file(f"{r}{s}") for s in "cdhs" for r in _RANKS}
        out["BACK"] = self.back
        if self.joker is not None:
            out["Jk"] = self.joker
        return out


_CARDSJS = (
    "cardsJS",
    "1.1.1",
    "sha512-S8J1GsZp9Wimj1jBu6jhH8pHNuOvkA7uryP7YeeaMP8o02g86rdTkXes0rAb/y8ShdCx5JDwg116/hMEGtAuJw==",
)
_KENNARD = (
    "react-free-playing-cards",
    "0.4.2",
    "sha512-fBq/o7sfZ91Lz+EqIYofHerAbDSr4tVWkESTp3x40W2JMF/Mw/kGupoKWJA+8xthqVFyz0xV2YGwIGHDxi11YQ==",
)
_RESPONSIVE = (
    "@younestouati/playing-cards-standard-deck",
    "3.0.0",
    "sha512-w+hMe//3YLu5XR1dmq6Xi/BoMcqEMKeIlg+4QUiF7y5PymeSGeT7ozKV1fADmmuFBBVbjB2pCcR5EKKC9qIVOQ==",
)


def _kennard(variant: str) -> NpmDeck:
    """Kennard's two-colour deck in one of its index styles (a folder of the package)."""
    return NpmDeck(
        *_KENNARD,
        folder=f"package/src/images/{variant}",
        faces="{r}{S}.svg",
        back="package/src/images/back.svg",
        joker=None,
        licence="CC0-1.0 (Adrian Kennard, www.me.uk/cards)",
    )


NPM_DECKS: dict[str, NpmDeck] = {
    "npm-aguilar": NpmDeck(
        *_CARDSJS,
        folder="package/cards",
        faces="{r}{S}.svg",
        back="package/cards/Blue_Back.svg",
        joker=None,
        licence="LGPL-3.0 (Chris Aguilar, Vectorized Playing Cards 1.3)",
    ),
    "npm-responsive": NpmDeck(
        *_RESPONSIVE,
        folder="package/cards",
        faces="{n}{s}.svg",
        back="package/cards/back.svg",
        joker="package/cards/joker.svg",
        licence="LGPL-3.0 (Responsive Playing Cards, after Chris Aguilar)",
        back_tile=True,
    ),
    # its Joker (2J.svg) has no corner mark: a blank corner would be trained as one
    "npm-kennard": _kennard("2color"),
    "npm-kennard-big": _kennard("2color-bf"),  # the big ("bf") corner indices
}


def deck_dir(name: str, root: Path | None = None) -> Path:
    return (root or NPM_DECK_DIR) / name


def installed(name: str, root: Path | None = None) -> bool:
    return (deck_dir(name, root) / _DONE).is_file()


def missing(root: Path | None = None) -> list[str]:
    """The npm decks not (completely) unpacked under ``root``."""
    return [d for d in NPM_DECKS if not installed(d, root)]


def _download(url: str, integrity: str) -> bytes:
    algo, _, want = integrity.partition("-")
    if algo != "sha512":
        raise ValueError(f"{url}: unsupported integrity {algo!r}")
    with urllib.request.urlopen(url, timeout=120) as resp:
        data: bytes = resp.read()
    got = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got != want:
        raise ValueError(f"{url}: sha512 {got} is not the pinned {want} (tampered or re-published?)")
    return data


def fetch(names: list[str] | None = None, root: Path | None = None) -> list[str]:
    """Fetch and unpack the decks ``names`` (default: all) that are not yet there; returns the ones
    unpacked now. A package shared by two decks is downloaded once."""
    todo = [n for n in (names or list(NPM_DECKS)) if not installed(n, root)]
    tarballs: dict[str, bytes] = {}
    for name in todo:
        deck = NPM_DECKS[name]
        if deck.tarball not in tarballs:
            tarballs[deck.tarball] = _download(deck.tarball, deck.integrity)
        out = deck_dir(name, root)
        out.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(tarballs[deck.tarball]), mode="r:gz") as tar:
            for token, member in deck.files().items():
                try:
                    fh = tar.extractfile(member)
                except KeyError:
                    fh = None
                if fh is None:
                    raise ValueError(f"{deck.tarball}: no file {member} (deck {name}, card {token})")
                (out / f"{token}.svg").write_bytes(fh.read())
        (out / _DONE).write_text(f"{deck.package}@{deck.version} {deck.licence}\n")
    return todo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fetch the npm training decks (render.npm_decks).")
    ap.add_argument("--root", type=Path, default=None, help=f"where to unpack (default {NPM_DECK_DIR})")
    args = ap.parse_args(argv)
    try:
        done = fetch(root=args.root)
    except (OSError, ValueError) as e:
        print(f"npm decks: {e}", file=sys.stderr)
        return 1
    root = args.root or NPM_DECK_DIR
    print(f"npm decks: {len(NPM_DECKS)} under {root}" + (f" ({', '.join(done)} fetched now)" if done else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
