"""Real card artwork: the SVG decks of Debian's ``gnome-cards-data`` and ``kdegames-card-data-kf5``.

gnome: each ``/usr/share/aisleriot/cards/<deck>.svgz`` is one sheet of 13 x 5 cells: four suit rows
(clubs, diamonds, hearts, spades) of Ace..King, then a row with the black Joker, the red Joker and the
back. The whole sheet is rasterised with cairosvg and cut on that grid (``rsvg-convert -i ID`` gives
wrong boxes on these sheets), a paint that names no colour first written as the ``none`` the SVG spec
reads it as (``_valid_paint``: cairosvg had drawn simplistic's 3 of spades as a blob).

KDE: ``/usr/share/carddecks/svg-<dir>/`` holds one SVG whose elements are the cards, by id
(``{1..10,jack,queen,king}_{club,diamond,heart,spade}``, ``back``, sometimes ``joker`` or
``black_joker``/``red_joker``). Such a deck is named ``kde-<dir>`` here and each card is rasterised
alone with ``rsvg-convert --export-id`` (Debian ``librsvg2-bin``), trimmed to its opaque pixels and
checked (a card's shape, not a pip or a strip). Only the decks of ``KDE_DECKS`` are used; the others,
with the reason, are in ``KDE_REFUSED``. No accepted KDE deck has a Joker (``CardArt.has_joker``).

npm: four more training decks, one SVG file a card, from pinned npm packages (``render.npm_decks``,
fetched by ``scripts/setup.sh`` with any extra), rasterised and checked as a KDE deck's cards are.

Results are cached as PNG files so each deck is rasterised once. Only the renderer and the detector
training use this module; the runtime monitor never does. ``scripts/setup.sh`` installs the packages.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from render import npm_decks
from rules.cards import DECK, JOKER, Card

__all__ = [
    "CARD_ASPECT",
    "CLEAN_HELDOUT_DECKS",
    "DECK_DIR",
    "HELD_OUT_DECKS",
    "KDE_DECKS",
    "KDE_DECK_DIR",
    "KDE_REFUSED",
    "VALIDATION_DECKS",
    "ArtworkError",
    "CardArt",
    "available_decks",
    "deck_has_joker",
    "load_deck",
    "train_decks",
]

DECK_DIR = Path(os.environ.get("PAIGOW_CARD_DECKS", "/usr/share/aisleriot/cards"))
KDE_DECK_DIR = Path(os.environ.get("PAIGOW_KDE_CARD_DECKS", "/usr/share/carddecks"))
CACHE_DIR = Path(os.environ.get("PAIGOW_CACHE", Path.home() / ".cache" / "paigow-monitor")) / "cards"
CARD_ASPECT = 88.9 / 63.5  # poker-size card, height / width
KDE_PREFIX = "kde-"

_SHEET_SUIT_ROWS = ("c", "d", "h", "s")  # sheet rows 0..3, Ace..King left to right
_SHEET_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

# Whole decks held out of detector training, never trained on (issue 3: at least 5). Chosen to
# span styles and to have no near-twin in the training decks: classic French faces (bellot),
# German-style faces (dondorf), a cartoon deck (plastic), Italian faces (tigullio), minimal (simplistic).
VALIDATION_DECKS: tuple[str, ...] = ("bellot", "dondorf", "plastic", "tigullio", "simplistic")
# Held-out decks nobody looked at while designing the synthetic training data (bellot and simplistic
# of VALIDATION_DECKS were, so their figures are optimistic): KDE's standard deck, and KDE's
# tigullio-international (the held-out gnome tigullio's artist and faces, other pips and back).
CLEAN_HELDOUT_DECKS: tuple[str, ...] = ("kde-standard", "kde-tigullio-international")
HELD_OUT_DECKS: tuple[str, ...] = VALIDATION_DECKS + CLEAN_HELDOUT_DECKS  # never training decks
# Left out: swiss-xvii (not French suits), tarocco (a blank back), and the Cyrillic-named twin of
# atlasnye (same art, a non-ASCII file name).
_EXCLUDED = frozenset({"swiss-xvii", "tarocco", "Атласные"})

# KDE decks whose 52 faces and back all render as whole cards with a French corner index (checked by
# rendering every card and looking at them). Those not in CLEAN_HELDOUT_DECKS are training decks.
KDE_DECKS: tuple[str, ...] = (
    "kde-ancient-egyptians",
    "kde-jolly-royal",
    "kde-penguins",
    "kde-standard",
    "kde-tigullio-international",
)
# Every other deck of kdegames-card-data-kf5 22.12, and why it is not used.
KDE_REFUSED: dict[str, str] = {
    "kde-dondorf": "the held-out gnome dondorf's art (a twin must not be trained on), cards 11% too tall",
    "kde-gm-paris": "the gnome paris deck's art (a twin), cards 11% too tall",
    "kde-nicu-ornamental": "the gnome ornamental deck's art (a twin)",
    "kde-nicu-white": "the gnome ornamental deck's faces and pips on white cards (a near twin)",
    "kde-future": "not playing cards: a rank tab on a chip, no suit and no corner index",
    "kde-oxygen": "rank top-right and suit top-left, no turned index: no rank+suit corner index",
    "kde-oxygen-air": "rank top-right and suit top-left, no turned index: no rank+suit corner index",
    "kde-oxygen-white": "rank top-right and suit top-left, no turned index: no rank+suit corner index",
    "kde-konqi-modern": "72-px embedded bitmaps, which rsvg-convert --export-id cannot export",
    "kde-xskat-french": "72-px embedded bitmaps, which rsvg-convert --export-id cannot export",
    "kde-xskat-german": "German suits (hearts, bells, leaves, acorns), not French",
}

_KDE_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_KDE_SUITS = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
_KDE_ASPECT_TOL = 0.10  # a rendered card's height/width may differ this much from CARD_ASPECT
_KDE_MIN_OPAQUE = 0.9  # share of a rendered card's box that must be opaque (rounded corners lose ~2%)
_KDE_MAX_ZOOM = 40.0  # an element drawn on less than 1/40 of its box's width is a part, not a card


class ArtworkError(RuntimeError):
    """Card artwork is missing or unreadable (install it with scripts/setup.sh)."""


def available_decks() -> list[str]:
    """Names of the usable decks installed on this machine: the gnome decks, sorted, then the
    ``KDE_DECKS`` that are installed."""
    if not DECK_DIR.is_dir():
        raise ArtworkError(
            f"no card artwork at {DECK_DIR}: run scripts/setup.sh (installs Debian gnome-cards-data)"
        )
    names = sorted(p.name[: -len(".svgz")] for p in DECK_DIR.glob("*.svgz"))
    kde = [d for d in KDE_DECKS if _kde_dir(d).is_dir()]
    npm = [d for d in npm_decks.NPM_DECKS if npm_decks.installed(d)]
    return [n for n in names if n not in _EXCLUDED] + kde + npm


def train_decks() -> list[str]:
    """The decks detector training may use: every usable deck but the held-out ones.

    Every training deck of ``KDE_DECKS`` and every npm deck must be installed (the training set must
    not shrink silently on a machine without ``kdegames-card-data-kf5`` or the npm packages)."""
    missing = [d for d in KDE_DECKS if d not in HELD_OUT_DECKS and not _kde_dir(d).is_dir()]
    if missing:
        raise ArtworkError(
            f"KDE training decks {', '.join(missing)} not installed under {KDE_DECK_DIR}: run "
            "scripts/setup.sh dev (installs Debian kdegames-card-data-kf5)"
        )
    absent = npm_decks.missing()
    if absent:
        raise ArtworkError(
            f"npm training decks {', '.join(absent)} not unpacked under "
            f"{npm_decks.NPM_DECK_DIR}: run scripts/setup.sh dev (python -m render.npm_decks)"
        )
    return [d for d in available_decks() if d not in HELD_OUT_DECKS]


@dataclass(frozen=True)
class CardArt:
    """One deck's images: RGBA uint8 arrays, every card the same size (height = width * aspect).

    ``faces`` holds the 52 cards and, when the deck has one (``has_joker``), the Joker (black);
    ``red_joker`` is the red Joker, None for a deck without a Joker."""

    name: str
    faces: dict[Card, np.ndarray]
    back: np.ndarray
    red_joker: np.ndarray | None = None

    @property
    def has_joker(self) -> bool:
        return JOKER in self.faces

    def image(self, token: str | Card) -> np.ndarray:
        """The RGBA image of a card (``Card``, or ``BACK``)."""
        if token == "BACK":
            return self.back
        if not isinstance(token, Card):
            from rules.cards import parse_card

            token = parse_card(token)
        if token not in self.faces:
            raise ArtworkError(f"deck {self.name} has no {token}")
        return self.faces[token]

    @property
    def size(self) -> tuple[int, int]:
        h, w = self.back.shape[:2]
        return w, h


def _rasterise(name: str, card_width: int) -> np.ndarray:
    import cairosvg

    src = DECK_DIR / f"{name}.svgz"
    try:
        with gzip.open(src) as fh:
            svg = fh.read()
    except OSError as e:
        raise ArtworkError(f"{src}: cannot read deck: {e}") from e
    png = cairosvg.svg2png(bytestring=_valid_paint(svg), output_width=card_width * 13)
    if png is None:
        raise ArtworkError(f"{src}: cairosvg produced no image")
    arr = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if arr is None or arr.ndim != 3 or arr.shape[2] != 4:
        raise ArtworkError(f"{src}: unexpected raster from cairosvg")
    return np.asarray(arr)


# A paint attribute whose value is no colour: "#none" (simplistic's 3 of spades, its index glyph a
# stroke-only path). The SVG spec ignores an invalid presentation attribute, so the path inherits the
# fill of its <use>, "none", as rsvg-convert draws it; cairosvg filled the stroke's outline instead, a
# bold blob the classifier read as a 5 or a 6 ("simplistic's 3s", an error class since the ninth
# session: vision/card_body.py, models/HISTORY.md). Only simplistic has one (gnome-cards-data 3.x).
_NO_COLOUR = re.compile(rb'\b(fill|stroke)="#none"')


def _valid_paint(svg: bytes) -> bytes:
    """``svg`` with each paint attribute that names no colour written as the ``none`` the SVG spec
    reads it as (``_NO_COLOUR``)."""
    return _NO_COLOUR.sub(rb'\1="none"', svg)


def _cut(sheet: np.ndarray, card_width: int) -> list[list[np.ndarray]]:
    h, w = sheet.shape[:2]
    cw, ch = w / 13.0, h / 5.0
    out_h = round(card_width * CARD_ASPECT)
    rows = []
    for r in range(5):
        row = []
        for c in range(13):
            cell = sheet[round(r * ch) : round((r + 1) * ch), round(c * cw) : round((c + 1) * cw)]
            cell = _trim(cell)
            row.append(cv2.resize(cell, (card_width, out_h), interpolation=cv2.INTER_AREA))
        rows.append(row)
    return rows


def _trim(cell: np.ndarray) -> np.ndarray:
    """Crop a cell to the card drawn in it (the opaque pixels' bounding box)."""
    alpha = cell[:, :, 3]
    ys, xs = np.nonzero(alpha > 16)
    if len(xs) == 0:
        return cell
    return cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


_FACE_TOKENS = tuple(f"{r}{s}" for s in _SHEET_SUIT_ROWS for r in _SHEET_RANKS)


@lru_cache(maxsize=8)
def load_deck(name: str, card_width: int = 200) -> CardArt:
    """Load (rasterising once, then from the PNG cache) one deck at ``card_width`` pixels per card.

    ``name`` is a gnome deck (``bellot``) or a KDE one (``kde-standard``)."""
    if name.startswith(KDE_PREFIX) or name in npm_decks.NPM_DECKS:
        return _load_kde(name, card_width)
    # (".2": rasterised with _valid_paint; the PNGs of the first rasterising drew simplistic's 3s wrong)
    cache = CACHE_DIR / f"{name}@{card_width}.2"
    tokens = [*_FACE_TOKENS, "Jk", "Jk-red", "BACK"]
    paths = {t: cache / f"{t}.png" for t in tokens}
    if not all(p.exists() for p in paths.values()):
        grid = _cut(_rasterise(name, card_width), card_width)
        cache.mkdir(parents=True, exist_ok=True)
        cells = [grid[r][c] for r in range(4) for c in range(13)] + [grid[4][0], grid[4][1], grid[4][2]]
        for tok, img in zip(tokens, cells, strict=True):
            _write_png(paths[tok], img)
    imgs = _read_cached(paths, cache)
    from rules.cards import parse_card

    faces = {parse_card(t): imgs[t] for t in _FACE_TOKENS}
    faces[JOKER] = imgs["Jk"]
    assert len(faces) == len(DECK)
    return CardArt(name=name, faces=faces, back=imgs["BACK"], red_joker=imgs["Jk-red"])


def _write_png(path: Path, img: np.ndarray) -> None:
    tmp = path.with_suffix(".tmp.png")
    cv2.imwrite(str(tmp), img)
    tmp.replace(path)


def _read_cached(paths: dict[str, Path], cache: Path) -> dict[str, np.ndarray]:
    imgs: dict[str, np.ndarray] = {}
    for t, p in paths.items():
        raw = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        if raw is None or raw.ndim != 3 or raw.shape[2] != 4:
            raise ArtworkError(f"{p}: unreadable cached card image (delete {cache} to rasterise again)")
        imgs[t] = np.asarray(raw)
    return imgs


# ---------------------------------------------------------------------------------------------
# KDE decks: one SVG element per card, rasterised with rsvg-convert --export-id


def _kde_dir(name: str) -> Path:
    return KDE_DECK_DIR / f"svg-{name[len(KDE_PREFIX) :]}"


def _kde_svg_file(name: str) -> Path:
    """The deck's SVG file (``index.desktop`` names it: ``SVG=paris.svgz``)."""
    d = _kde_dir(name)
    if not d.is_dir():
        raise ArtworkError(
            f"deck {name}: no {d} (run scripts/setup.sh dev: installs Debian kdegames-card-data-kf5)"
        )
    desktop = d / "index.desktop"
    if desktop.is_file():
        for line in desktop.read_text(errors="replace").splitlines():
            if line.startswith("SVG=") and (d / line[4:].strip()).is_file():
                return d / line[4:].strip()
    found = sorted([*d.glob("*.svgz"), *d.glob("*.svg")])
    if not found:
        raise ArtworkError(f"deck {name}: no SVG file in {d}")
    return found[0]


def _kde_svg_bytes(name: str) -> bytes:
    src = _kde_svg_file(name)
    try:
        data = src.read_bytes()
        return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    except OSError as e:
        raise ArtworkError(f"{src}: cannot read deck: {e}") from e


def _kde_jokers(ids: frozenset[str]) -> tuple[str, str] | None:
    """The element ids of a KDE deck's (black, red) Joker, or None when it has none."""
    if "black_joker" in ids and "red_joker" in ids:
        return "black_joker", "red_joker"
    for one in ("joker", "black_joker", "red_joker"):
        if one in ids:
            return one, one
    return None


@lru_cache(maxsize=16)
def _kde_ids(name: str) -> frozenset[str]:
    return frozenset(m.decode() for m in re.findall(rb'\sid="([^"]+)"', _kde_svg_bytes(name)))


def deck_has_joker(name: str) -> bool:
    """Whether deck ``name`` has a Joker: every gnome deck does, a KDE deck when its SVG has one.
    A deck without one must not be dealt the Joker (nor borrow another deck's)."""
    if name in npm_decks.NPM_DECKS:
        return npm_decks.NPM_DECKS[name].joker is not None
    if not name.startswith(KDE_PREFIX):
        return True
    return _kde_jokers(_kde_ids(name)) is not None


def _kde_element(token: str) -> str:
    """A face's token (``Ah``, ``Tc``) as a KDE element id (``1_heart``, ``10_club``); the back and the
    Jokers are named in ``_rasterise_kde``."""
    rank = _KDE_RANKS[_SHEET_RANKS.index(token[0])]
    return f"{rank}_{_KDE_SUITS[token[1]]}"


def _rsvg(exe: str, svg: Path, element: str | None, width: int) -> np.ndarray:
    """``svg`` (its element ``element``; None: the whole drawing) rasterised ``width`` px wide."""
    only = [] if element is None else [f"--export-id={element}"]
    r = subprocess.run(
        [exe, *only, "-w", str(width), "-f", "png", str(svg)],
        capture_output=True,
        check=False,
    )
    arr = cv2.imdecode(np.frombuffer(r.stdout, np.uint8), cv2.IMREAD_UNCHANGED) if r.returncode == 0 else None
    if arr is not None and arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGRA)
    elif arr is not None and arr.ndim == 3 and arr.shape[2] == 3:  # rsvg writes RGB when all is opaque
        arr = cv2.cvtColor(arr, cv2.COLOR_BGR2BGRA)
    if arr is None or arr.ndim != 3 or arr.shape[2] != 4 or arr.dtype != np.uint8:
        why = r.stderr.decode(errors="replace").strip() or "no 8-bit image"
        raise ArtworkError(f"rsvg-convert {' '.join(only)} {svg.name}: {why}".replace("  ", " "))
    return np.asarray(arr)


def _kde_card(exe: str, svg: Path, deck: str, element: str | None, card_width: int) -> np.ndarray:
    """One card, rasterised, trimmed to its opaque pixels, checked and resized to the deck size.
    ``element``: the card's id in a KDE deck's SVG; None: ``svg`` is the card (an npm deck).

    ``-w`` sets the width of the element's box, which can be wider than what it draws (clip paths,
    hidden parts): the element is rasterised again, larger, until the card itself is ``card_width``
    wide."""
    what = element or svg.name
    width = card_width
    for _ in range(4):
        try:
            raw = _rsvg(exe, svg, element, width)
        except ArtworkError as e:
            raise ArtworkError(f"deck {deck}, card {what}: {e}") from e
        if not (raw[:, :, 3] > 16).any():
            raise ArtworkError(f"deck {deck}, card {what}: draws nothing")
        card = _trim(raw)
        drawn = card.shape[1]
        if drawn >= 0.98 * card_width:
            break
        width = math.ceil(width * card_width / drawn * 1.02)
        if width > _KDE_MAX_ZOOM * card_width:
            raise ArtworkError(
                f"deck {deck}, card {what}: draws only {drawn / raw.shape[1]:.0%} of its box's "
                "width (a pip or a strip, not a whole card)"
            )
    h, w = card.shape[:2]
    if abs(h / w / CARD_ASPECT - 1) > _KDE_ASPECT_TOL:
        raise ArtworkError(
            f"deck {deck}, card {what}: height/width {h / w:.2f}, not a card's {CARD_ASPECT:.2f} "
            f"(+-{_KDE_ASPECT_TOL:.0%})"
        )
    opaque = float((card[:, :, 3] > 128).mean())
    if opaque < _KDE_MIN_OPAQUE:
        raise ArtworkError(
            f"deck {deck}, card {what}: only {opaque:.0%} of its box is opaque (not a whole card)"
        )
    if w < 0.9 * card_width:
        raise ArtworkError(f"deck {deck}, card {what}: drawn {w} px wide, not {card_width} (tiny)")
    out_h = round(card_width * CARD_ASPECT)
    return np.asarray(cv2.resize(card, (card_width, out_h), interpolation=cv2.INTER_AREA))


def _rasterise_kde(name: str, card_width: int) -> dict[str, np.ndarray]:
    """Every card of a KDE deck: tokens (``Ah`` .. ``Ks``, ``BACK``, ``Jk`` and ``Jk-red`` when the
    deck has a Joker) to RGBA images."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtworkError("rsvg-convert not found: install Debian librsvg2-bin (scripts/setup.sh dev)")
    data = _kde_svg_bytes(name)
    ids = _kde_ids(name)
    elements = {t: _kde_element(t) for t in _FACE_TOKENS}
    elements["BACK"] = "back"
    jokers = _kde_jokers(ids)
    if jokers is not None:
        elements["Jk"], elements["Jk-red"] = jokers
    missing = [e for e in elements.values() if e not in ids]
    if missing:
        raise ArtworkError(f"deck {name}: {_kde_svg_file(name)} has no element {', '.join(missing)}")
    with tempfile.TemporaryDirectory(prefix="paigow-kde-") as tmp:
        svg = Path(tmp) / "deck.svg"  # rsvg-convert reads .svgz too, but not every deck is gzipped
        svg.write_bytes(data)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            futures = [pool.submit(_kde_card, exe, svg, name, e, card_width) for e in elements.values()]
            try:
                imgs = [f.result() for f in futures]
            except ArtworkError:
                for f in futures:  # the first bad card is the answer: do not render the rest
                    f.cancel()
                raise
    return dict(zip(elements, imgs, strict=True))


def _rasterise_npm(name: str, card_width: int) -> dict[str, np.ndarray]:
    """Every card of an npm deck (``render.npm_decks``: one SVG file a card, ``<token>.svg``), as
    ``_rasterise_kde`` gives them. A deck with one Joker has it as both Jokers."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtworkError("rsvg-convert not found: install Debian librsvg2-bin (scripts/setup.sh dev)")
    folder = npm_decks.deck_dir(name)
    if not npm_decks.installed(name):
        raise ArtworkError(f"deck {name}: not unpacked under {folder} (run scripts/setup.sh dev)")
    tiled = npm_decks.NPM_DECKS[name].back_tile
    tokens = [t for t in [*_FACE_TOKENS, "BACK", "Jk"] if (folder / f"{t}.svg").is_file()]
    cards = [t for t in tokens if not (tiled and t == "BACK")]

    def one(token: str) -> np.ndarray:
        return _kde_card(exe, folder / f"{token}.svg", name, None, card_width)

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        out = dict(zip(cards, pool.map(one, cards), strict=True))
    if tiled:
        out["BACK"] = _tiled_back(_rsvg(exe, folder / "BACK.svg", None, card_width // 5), card_width)
    if "Jk" in out:
        out["Jk-red"] = out["Jk"]
    return out


def _tiled_back(tile: np.ndarray, card_width: int) -> np.ndarray:
    """A card back from a square pattern tile: the pattern repeated inside a white margin (a 5 %
    border, as printed backs have)."""
    out_h = round(card_width * CARD_ASPECT)
    reps = (out_h // tile.shape[0] + 1, card_width // tile.shape[1] + 1, 1)
    back = np.full((out_h, card_width, 4), 255, np.uint8)
    m = max(2, round(0.05 * card_width))
    back[m:-m, m:-m] = np.tile(tile, reps)[: out_h - 2 * m, : card_width - 2 * m]
    back[:, :, 3] = 255
    return back


def _load_kde(name: str, card_width: int) -> CardArt:
    """A KDE or an npm deck, rasterised card by card once, then read from the PNG cache."""
    cache = CACHE_DIR / f"{name}@{card_width}"
    meta = cache / "deck.json"  # written last: the cache is complete; says whether there is a Joker
    tokens: list[str] | None = None
    if meta.is_file():
        try:
            tokens = [str(t) for t in json.loads(meta.read_text())["tokens"]]
        except (ValueError, KeyError, TypeError):
            tokens = None
    if tokens is None or not all((cache / f"{t}.png").exists() for t in tokens):
        imgs = (
            _rasterise_npm(name, card_width)
            if name in npm_decks.NPM_DECKS
            else _rasterise_kde(name, card_width)
        )
        cache.mkdir(parents=True, exist_ok=True)
        for tok, img in imgs.items():
            _write_png(cache / f"{tok}.png", img)
        tokens = list(imgs)
        tmp = meta.with_suffix(".tmp")
        tmp.write_text(json.dumps({"deck": name, "tokens": tokens}))
        tmp.replace(meta)
    imgs = _read_cached({t: cache / f"{t}.png" for t in tokens}, cache)
    from rules.cards import parse_card

    faces = {parse_card(t): imgs[t] for t in _FACE_TOKENS}
    if "Jk" in imgs:
        faces[JOKER] = imgs["Jk"]
    return CardArt(name=name, faces=faces, back=imgs["BACK"], red_joker=imgs.get("Jk-red"))
