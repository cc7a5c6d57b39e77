"""Scoring ``detect`` on labelled photographs (``paigow-monitor eval-photos``).

The issue asks that the detector read real photographs of real cards at any angle on any background.
No such photographs exist on the machine this was built on, so this module is the bridge: give it a
folder of photos labelled in either of two formats and it scores ``detect`` on them per card, exactly
as ``benchmarks/photo_stills.py`` scores rendered stills.

Label formats (one label file per photo, found beside it as ``NAME.txt`` or, in a YOLO dataset's
layout, at ``.../labels/.../NAME.txt`` for ``.../images/.../NAME.jpg``):

- **YOLO boxes** (how public playing-card photo sets are published): a line ``class cx cy w h``
  (normalised to the image, 0-1) per box, or ``class x1 y1 x2 y2 ...`` (a polygon, taken as its
  bounding box). The class names come from the dataset's ``data.yaml`` (``names:`` as a list or a
  dict), ``classes.txt`` or ``obj.names``, found in the label file's folder or up to four folders
  above it. A name is a card in any usual spelling: ``10c``, ``Tc``, ``AS``, ``as``, ``ace_of_spades``,
  ``Ace of Spades``, ``joker``; ``back`` (``card_back``, ``BACK``) is a card back. A box may be a
  corner index (such sets box each visible corner) or the whole card.
- **A card list**: the cards the photo shows, in the project's notation (``As Kd 7c Jk``, any number
  a line; ``#`` starts a comment), and ``back`` once for each card lying face down. What anyone can
  make with a phone and a pen: lay out known cards, take the picture, write down the cards. Such a
  label says which cards, not where; an empty one says the photo shows no card at all.

How it is scored (per photo; one deck holds each face once, so a face is one card):
- a face read is **right** where the photo's labels hold that face, not yet matched, and (with boxes)
  the read's centre lies in that face's boxes' bounding box grown by a tenth of its size each way
  (a card's two corner boxes span the card; ``vision.training._match_image``'s margin), or one of
  those boxes' centres lies in the read's box grown alike (the card read corner to corner, where one
  corner alone was labelled);
- otherwise it is **wrong** (precision), and where its centre lies on another labelled card's boxes
  it is that card **misread** (``As read Ac``);
- except that a face the dataset's class names do not name at all (a set labelling only hearts, or
  no Joker) is **set aside** where it lies on no labelled card: the labels cannot say it is wrong;
- a labelled face no read matched is **missed** (recall);
- card backs are scored apart, with card lists and where the names have a back class: a back read
  is right where it overlaps an unmatched labelled back by IoU >= 0.3 (as ``_match_image``), or with
  a card list while the list names more backs than were read.
Bad input (an unreadable image, a label file missing, a line that is neither format, a class
number the names do not have, a name that is not a card) is a ``PhotoError`` naming the file and
line; a dataset's unknown class names can be set aside by name (``ignore``).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from rules.cards import CardParseError, parse_card, parse_cards
from vision.detections import BACK_CLASS, CLASSES, Detections
from vision.sources import IMAGE_SUFFIXES

__all__ = [
    "IMAGE_SUFFIXES",
    "LabelledPhoto",
    "LabelledSet",
    "PhotoError",
    "PhotoLabel",
    "PhotoScore",
    "PhotosReport",
    "card_of_name",
    "evaluate_photos",
    "find_photos",
    "format_report",
    "marked_image",
    "missed_targets",
    "photo_line",
    "read_photos",
    "score_photo",
    "write_labelled_photo",
]

_NAMES_FILES = ("data.yaml", "data.yml", "dataset.yaml", "classes.txt", "obj.names")
_NAMES_UP = 4  # folders above a label file searched for the class names
_SPLITS = ("test", "valid", "val")  # a dataset root's split read when none is asked for, in this order
_MARGIN = 0.1  # a face's labelled boxes' bounding box is grown by this share of its size each way
_BACK_IOU = 0.3
_BACK_NAMES = {"back", "backs", "card back", "card backs", "cardback", "bk"}
_BACK_WORDS = {"back", "bk"}  # a card list's word for one card back
_RANK_WORDS = {
    "ace": "A",
    "king": "K",
    "queen": "Q",
    "jack": "J",
    "ten": "T",
    "nine": "9",
    "eight": "8",
    "seven": "7",
    "six": "6",
    "five": "5",
    "four": "4",
    "three": "3",
    "two": "2",
    "deuce": "2",
}
_SUIT_WORDS = {"spade": "s", "heart": "h", "diamond": "d", "club": "c"}


class PhotoError(ValueError):
    """A photo or label that cannot be scored; the message names the file (and line)."""


class PhotoLabel(BaseModel):
    """One labelled card of a photo: a face (``CLASSES`` index 0-52) or a back (53), and where it
    lies: boxes normalised to the image (x1 y1 x2 y2, 0-1; none from a card list)."""

    model_config = ConfigDict(extra="forbid")

    card: int = Field(ge=0, le=BACK_CLASS)
    boxes: list[tuple[float, float, float, float]] = []


class LabelledPhoto(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image: Path
    label_file: Path
    labels: list[PhotoLabel]
    boxed: bool  # YOLO boxes (where each card lies), not a card list


class LabelledSet(BaseModel):
    """The photos found and how they are labelled."""

    model_config = ConfigDict(extra="forbid")

    photos: list[LabelledPhoto]
    names_file: Path | None = None  # the YOLO class names' file, where the labels are boxes
    named: list[int] | None = None  # the cards (``CLASSES`` indices) the class names name; None: any
    ignored: list[str] = []  # class names set aside (``ignore``)


def card_of_name(name: str) -> int:
    """The ``CLASSES`` index of a card's name in any usual spelling (``10c``, ``AS``, ``ace_of_spades``,
    ``Ace of Spades``, ``joker``; ``back`` for a card back). ``PhotoError`` if it is not a card."""
    text = name.strip()
    if text.lower().replace("_", " ").replace("-", " ") in _BACK_NAMES:
        return BACK_CLASS
    try:
        card = parse_card(text)
    except CardParseError:
        words = [w for w in re.split(r"[\s_\-]+", text.lower()) if w and w != "of"]
        if len(words) == 2:
            rank = _RANK_WORDS.get(words[0], words[0].upper() if words[0] in {*"23456789", "10"} else "")
            suit = _SUIT_WORDS.get(words[1].rstrip("s"), "")
            if rank and suit:
                return parse_card(rank + suit).code
        raise PhotoError(f"{name!r} is not a card (like 10c, AS, ace_of_spades, joker or back)") from None
    return card.code


def _class_names(path: Path) -> list[str]:
    """The YOLO class names in ``path``: a data.yaml's ``names`` (a list, or a dict by class number) or
    a names file's lines."""
    if path.suffix in {".yaml", ".yml"}:
        import yaml

        try:
            data = yaml.safe_load(path.read_text())
        except yaml.YAMLError as e:
            raise PhotoError(f"{path}: not readable YAML ({e})") from None
        names = data.get("names") if isinstance(data, dict) else None
        if isinstance(names, dict):
            try:
                by_number = {int(k): str(v) for k, v in names.items()}
            except ValueError:
                raise PhotoError(f"{path}: 'names' keys must be class numbers") from None
            if sorted(by_number) != list(range(len(by_number))):
                raise PhotoError(f"{path}: 'names' must number its classes 0..{len(by_number) - 1}")
            return [by_number[k] for k in range(len(by_number))]
        if isinstance(names, list) and names:
            return [str(n) for n in names]
        raise PhotoError(f"{path}: no 'names' list or dict of class names")
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip()]


def _names_near(label_file: Path) -> Path | None:
    """The class names' file nearest above ``label_file``: in its folder, or up to ``_NAMES_UP`` above."""
    folder = label_file.parent
    for _ in range(_NAMES_UP + 1):
        for name in _NAMES_FILES:
            if (folder / name).is_file():
                return folder / name
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _label_file(image: Path) -> Path | None:
    """``NAME.txt`` for ``.../images/.../NAME.jpg`` in a YOLO layout's ``labels/`` folder, or beside it."""
    parts = image.parts
    if "images" in parts:
        i = len(parts) - 1 - parts[::-1].index("images")
        yolo = Path(*parts[:i], "labels", *parts[i + 1 :]).with_suffix(".txt")
        if yolo.is_file():
            return yolo
    beside = image.with_suffix(".txt")
    return beside if beside.is_file() else None


def _split_images(root: Path, spec: Path, split: str | None) -> list[Path]:
    """A dataset root's photos (``spec``: its data.yaml): ``split``'s, or where none is asked for the
    first of test, valid, val it has; each found where the data.yaml says (its ``path`` and the split's
    folder) or where the usual layouts put it (``ROOT/SPLIT/images``, ``ROOT/images/SPLIT``)."""
    import yaml

    try:
        data = yaml.safe_load(spec.read_text())
    except yaml.YAMLError as e:
        raise PhotoError(f"{spec}: not readable YAML ({e})") from None
    data = data if isinstance(data, dict) else {}
    base = root / str(data.get("path") or ".")
    for name in (split,) if split else _SPLITS:
        declared = data.get(name)
        folders = [base / declared, root / declared] if isinstance(declared, str) else []
        folders += [root / name / "images", root / "images" / name, root / name]
        for folder in folders:
            if folder.is_dir():
                return _images_under(folder)
    have = sorted(p.name for p in root.iterdir() if p.is_dir())
    asked = f"split {split!r}" if split else f"any of the splits {', '.join(_SPLITS)}"
    raise PhotoError(f"{spec}: a dataset without {asked} (folders here: {', '.join(have) or 'none'})")


def _images_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def find_photos(
    paths: Sequence[Path], *, split: str | None = None, ignore: Sequence[str] = ()
) -> LabelledSet:
    """The labelled photos at ``paths`` (image files, folders of them searched down, or YOLO dataset
    roots holding a data.yaml, read at ``split``), each with its labels read. Every photo must have a
    label file (an empty one: a photo of no card); the names of every YOLO set must agree."""
    images: list[Path] = []
    for p in paths:
        if p.is_file():
            images.append(p)
        elif p.is_dir():
            spec = next((p / n for n in _NAMES_FILES[:3] if (p / n).is_file()), None)
            images += _split_images(p, spec, split) if spec is not None else _images_under(p)
        else:
            raise PhotoError(f"{p}: no such file or folder")
    if not images:
        raise PhotoError(f"no photos ({', '.join(IMAGE_SUFFIXES)}) under {', '.join(map(str, paths))}")
    label_files = {im: _label_file(im) for im in images}  # a photo named twice is read once
    unlabelled = [im for im, f in label_files.items() if f is None]
    if unlabelled:
        shown = ", ".join(str(p) for p in unlabelled[:3]) + (" ..." if len(unlabelled) > 3 else "")
        raise PhotoError(
            f"{len(unlabelled)} photo(s) without a label file (NAME.txt beside it, or in labels/ of a YOLO "
            f"layout): {shown}"
        )
    ignored = {n.strip().lower() for n in ignore}
    names_file: Path | None = None
    named: list[int] | None = None
    by_class: list[int | None] = []
    photos: list[LabelledPhoto] = []
    for image, label_file in label_files.items():
        assert label_file is not None
        lines = _label_lines(label_file)
        boxed = bool(lines) and _is_box_line(lines[0][1])  # its first line says which format
        if boxed:
            here = _names_near(label_file)
            if here is None:
                raise PhotoError(
                    f"{label_file}: YOLO boxes need their class names: no {', '.join(_NAMES_FILES)} in "
                    f"{label_file.parent} or up to {_NAMES_UP} folders above"
                )
            if names_file is None:
                names_file = here
                by_class = _classes_of(here, ignored)
                named = sorted({c for c in by_class if c is not None})
            elif here != names_file and _classes_of(here, ignored) != by_class:
                raise PhotoError(f"{here}: class names unlike {names_file}'s (score the two sets apart)")
        photos.append(
            LabelledPhoto(
                image=image,
                label_file=label_file,
                labels=_labels(label_file, lines, boxed, by_class),
                boxed=boxed,
            )
        )
    if any(p.boxed for p in photos) and not all(p.boxed or not p.labels for p in photos):
        raise PhotoError("some photos are labelled with boxes and some with card lists: score them apart")
    return LabelledSet(photos=photos, names_file=names_file, named=named, ignored=sorted(ignored))


def _classes_of(names_file: Path, ignored: set[str]) -> list[int | None]:
    """Each YOLO class number's card (None: a name set aside by ``ignore``)."""
    out: list[int | None] = []
    for i, name in enumerate(_class_names(names_file)):
        if name.strip().lower() in ignored:
            out.append(None)
            continue
        try:
            out.append(card_of_name(name))
        except PhotoError as e:
            raise PhotoError(f"{names_file}: class {i}: {e} (set it aside with --ignore {name!r})") from None
    return out


def _label_lines(path: Path) -> list[tuple[int, list[str]]]:
    """(line number, tokens) of a label file's lines that hold something (``#`` comments dropped)."""
    out = []
    for n, raw in enumerate(path.read_text(errors="replace").splitlines(), 1):
        tokens = raw.split("#", 1)[0].split()
        if tokens:
            out.append((n, tokens))
    return out


def _is_box_line(tokens: list[str]) -> bool:
    if len(tokens) < 5:
        return False
    try:
        [float(t) for t in tokens]
    except ValueError:
        return False
    return True


def _labels(
    path: Path, lines: list[tuple[int, list[str]]], boxed: bool, by_class: list[int | None]
) -> list[PhotoLabel]:
    """A label file's cards: YOLO boxes by class (a face's boxes gathered: its corners), or a card list."""
    faces: dict[int, list[tuple[float, float, float, float]]] = {}
    backs: list[PhotoLabel] = []
    for n, tokens in lines:
        where = f"{path}:{n}"
        if boxed != _is_box_line(tokens):
            raise PhotoError(
                f"{where}: a {'card list' if boxed else 'YOLO box'} line among "
                f"{'YOLO box' if boxed else 'card list'} lines ({' '.join(tokens)!r})"
            )
        if not boxed:
            listed = [t for t in tokens if t.lower() not in _BACK_WORDS]
            backs += [PhotoLabel(card=BACK_CLASS)] * (len(tokens) - len(listed))
            try:
                cards = parse_cards(" ".join(listed))
            except CardParseError as e:
                raise PhotoError(f"{where}: {e}") from None
            for c in cards:
                if c.code in faces:
                    raise PhotoError(f"{where}: {c} listed twice (one deck holds each card once)")
                faces[c.code] = []
            continue
        box = _yolo_box(where, tokens)
        k = float(tokens[0])
        if k != int(k) or not 0 <= int(k) < len(by_class):
            raise PhotoError(f"{where}: class {tokens[0]} is not one of the {len(by_class)} classes named")
        card = by_class[int(k)]
        if card is None:
            continue
        if card == BACK_CLASS:
            backs.append(PhotoLabel(card=card, boxes=[box]))
        else:
            faces.setdefault(card, []).append(box)
    return [PhotoLabel(card=c, boxes=b) for c, b in sorted(faces.items())] + backs


def _yolo_box(where: str, tokens: list[str]) -> tuple[float, float, float, float]:
    """A YOLO line's box, normalised xyxy: ``class cx cy w h``, or a polygon's bounding box."""
    v = [float(t) for t in tokens[1:]]
    if len(v) == 4:
        cx, cy, w, h = v
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if w <= 0 or h <= 0:
            raise PhotoError(f"{where}: a box of width {w} and height {h}")
    elif len(v) >= 6 and len(v) % 2 == 0:
        xs, ys = v[0::2], v[1::2]
        box = (min(xs), min(ys), max(xs), max(ys))
    else:
        raise PhotoError(f"{where}: expected 'class cx cy w h' or 'class x1 y1 x2 y2 x3 y3 ...'")
    if min(box) < -0.01 or max(box) > 1.01:
        raise PhotoError(f"{where}: coordinates must be normalised to the image (0-1), got {tokens[1:]}")
    return box


def read_photos(folder: Path) -> list[np.ndarray]:
    """Every photograph in ``folder`` (or its ``images/``), read (BGR): backdrops for rendered cards
    (``render.training``'s scenes, ``benchmarks/photo_stills.py --backdrops``)."""
    import cv2

    where = folder / "images" if (folder / "images").is_dir() else folder
    if not where.is_dir():
        raise PhotoError(f"{folder}: no such folder")
    photos = []
    for p in sorted(where.iterdir()):
        if p.suffix.lower() in IMAGE_SUFFIXES:
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                raise PhotoError(f"{p}: not a readable image")
            photos.append(img)
    if not photos:
        raise PhotoError(
            f"{where}: no photographs ({', '.join(IMAGE_SUFFIXES)}); python -m render.real_photos writes some"
        )
    return photos


def write_labelled_photo(
    folder: Path, stem: str, image: np.ndarray, labels: Sequence[PhotoLabel], *, suffix: str = ".png"
) -> Path:
    """Write ``image`` and its YOLO label file as a dataset's ``images/STEM`` and ``labels/STEM.txt``
    under ``folder``, with a ``data.yaml`` naming the classes in ``CLASSES`` order (the project's card
    notation) if none is there: the format ``find_photos`` reads. Returns the image's path."""
    import cv2

    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    spec = folder / "data.yaml"
    if not spec.exists():
        names = ", ".join(f"'{n}'" for n in CLASSES)
        spec.write_text(
            f"# class numbers: vision.detections.CLASSES\npath: .\ntest: images\nnames: [{names}]\n"
        )
    out = folder / "images" / f"{stem}{suffix}"
    if not cv2.imwrite(str(out), image):
        raise PhotoError(f"{out}: could not be written")
    rows = []
    for lab in labels:
        for x1, y1, x2, y2 in lab.boxes:
            rows.append(f"{lab.card} {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} {y2 - y1:.6f}")
    (folder / "labels" / f"{stem}.txt").write_text("".join(r + "\n" for r in rows))
    return out


class ReadMark(BaseModel):
    """A read that was not right: its card, confidence and box (pixels), and the labelled card its
    centre lies on (a misread), if any."""

    model_config = ConfigDict(extra="forbid")

    card: str
    confidence: float
    xyxy: tuple[float, float, float, float]
    on: str | None = None


class PhotoScore(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image: str
    reads: list[ReadMark] = []  # everything read in it, surest first (``on``: unset)
    labelled: list[str]
    right: list[str]
    missed: list[str]
    wrong: list[ReadMark]
    aside: list[ReadMark] = []  # faces the class names do not name, on no labelled card: not counted
    backs_tp: int = 0
    backs_fp: int = 0
    backs_fn: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Read exactly: every labelled card read right, nothing read that is not there."""
        return not self.missed and not self.wrong and not self.backs_fp and not self.backs_fn


def _grown(boxes: list[tuple[float, float, float, float]], w: int, h: int) -> np.ndarray | None:
    """The bounding box (pixels) of a label's boxes, grown by ``_MARGIN`` of its size each way."""
    if not boxes:
        return None
    b = np.asarray(boxes, np.float64)
    x1, y1, x2, y2 = b[:, 0].min() * w, b[:, 1].min() * h, b[:, 2].max() * w, b[:, 3].max() * h
    mx, my = _MARGIN * (x2 - x1), _MARGIN * (y2 - y1)
    return np.array([x1 - mx, y1 - my, x2 + mx, y2 + my])


def _on_label(read: np.ndarray, place: np.ndarray | None, centres: list[tuple[float, float]]) -> bool:
    """Whether a read (xyxy, pixels) lies on a labelled card: its centre in the label's boxes' grown
    bounding box (``place``), or one of those boxes' centres in the read's box grown alike (a card read
    corner to corner where one corner alone was labelled, the other too covered)."""
    x, y = float(read[0] + read[2]) / 2, float(read[1] + read[3]) / 2
    if _inside(place, x, y):
        return True
    mx, my = _MARGIN * float(read[2] - read[0]), _MARGIN * float(read[3] - read[1])
    grown = np.array([read[0] - mx, read[1] - my, read[2] + mx, read[3] + my])
    return any(_inside(grown, cx, cy) for cx, cy in centres)


def _inside(box: np.ndarray | None, x: float, y: float) -> bool:
    return box is not None and bool(box[0] <= x <= box[2] and box[1] <= y <= box[3])


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


def _mark(found: Detections, i: int) -> ReadMark:
    b = found.xyxy[i]
    return ReadMark(
        card=CLASSES[int(found.class_id[i])],
        confidence=round(float(found.confidence[i]), 3),
        xyxy=(float(b[0]), float(b[1]), float(b[2]), float(b[3])),
    )


def score_photo(
    found: Detections, photo: LabelledPhoto, size: tuple[int, int], named: Sequence[int] | None = None
) -> PhotoScore:
    """Score one photo's reads against its labels (the module's rules). ``size``: the image's (w, h);
    ``named``: the cards the dataset's class names name (None: every card)."""
    w, h = size
    faces = {lab.card: lab for lab in photo.labels if lab.card != BACK_CLASS}
    places = {c: _grown(lab.boxes, w, h) for c, lab in faces.items()}
    centres = {
        c: [((x1 + x2) * w / 2, (y1 + y2) * h / 2) for x1, y1, x2, y2 in lab.boxes]
        for c, lab in faces.items()
    }
    back_boxes = [_grown(lab.boxes, w, h) for lab in photo.labels if lab.card == BACK_CLASS]
    back_used = [False] * len(back_boxes)
    score_backs = named is None or BACK_CLASS in named  # card lists always say how many backs
    named_set = set(named) if named is not None else None
    matched: set[int] = set()
    wrong: list[ReadMark] = []
    aside: list[ReadMark] = []
    btp = bfp = 0
    for i in np.argsort(-found.confidence, kind="stable"):
        c = int(found.class_id[i])
        box = found.xyxy[i].astype(np.float64)
        if c == BACK_CLASS:
            if not score_backs:
                continue
            ious = [  # a back a card list names lies anywhere
                0.0 if used else 1.0 if g is None else _iou(box, g)
                for g, used in zip(back_boxes, back_used, strict=True)
            ]
            j = int(np.argmax(ious)) if ious else -1
            if j >= 0 and ious[j] >= _BACK_IOU:
                back_used[j] = True
                btp += 1
            else:
                bfp += 1
            continue
        x, y = float(box[0] + box[2]) / 2, float(box[1] + box[3]) / 2
        if c in faces and c not in matched and (not photo.boxed or _on_label(box, places[c], centres[c])):
            matched.add(c)
            continue
        mark = _mark(found, int(i))
        on = [k for k, g in places.items() if k != c and _inside(g, x, y)]
        if on:  # the smallest labelled card under the read: the one it was read on
            areas = [float((places[k][2] - places[k][0]) * (places[k][3] - places[k][1])) for k in on]  # type: ignore[index]
            mark.on = CLASSES[on[int(np.argmin(areas))]]
            wrong.append(mark)
        elif named_set is not None and c not in named_set:
            aside.append(mark)
        else:
            wrong.append(mark)
    return PhotoScore(
        image=str(photo.image),
        reads=[_mark(found, int(i)) for i in np.argsort(-found.confidence, kind="stable")],
        labelled=[CLASSES[c] for c in sorted(faces)],
        right=[CLASSES[c] for c in sorted(matched)],
        missed=[CLASSES[c] for c in sorted(set(faces) - matched)],
        wrong=wrong,
        aside=aside,
        backs_tp=btp,
        backs_fp=bfp,
        backs_fn=back_used.count(False) if score_backs else 0,
    )


class PhotosReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    photos: list[PhotoScore]
    labels: str  # "YOLO boxes (names from FILE)" or "card lists"
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    misreads: dict[str, int]  # "As read Ac" -> how often
    set_aside: int  # reads of faces the class names do not name, on no labelled card
    backs: tuple[int, int, int] | None  # (tp, fp, fn) where the names have a back class
    seconds_median: float
    seconds_max: float


def evaluate_photos(
    labelled: LabelledSet,
    read: Callable[[np.ndarray], Detections],
    *,
    progress: Callable[[PhotoScore, np.ndarray, Detections], Any] | None = None,
) -> PhotosReport:
    """Read each photo with ``read`` (the image, BGR, to its detections: ``detect`` as a still is read)
    and score it. ``progress`` is told each photo's score, with the image and what was read."""
    import cv2

    scores: list[PhotoScore] = []
    for photo in labelled.photos:
        img = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        if img is None:
            raise PhotoError(f"{photo.image}: not a readable image")
        t0 = time.perf_counter()
        found = read(img)
        spent = time.perf_counter() - t0
        s = score_photo(found, photo, (img.shape[1], img.shape[0]), labelled.named)
        s.seconds = round(spent, 3)
        scores.append(s)
        if progress is not None:
            progress(s, img, found)
    tp = sum(len(s.right) for s in scores)
    fp = sum(len(s.wrong) for s in scores)
    fn = sum(len(s.missed) for s in scores)
    misreads = Counter(f"{m.on} read {m.card}" for s in scores for m in s.wrong if m.on)
    backs = None
    if labelled.named is None or BACK_CLASS in labelled.named:
        backs = (
            sum(s.backs_tp for s in scores),
            sum(s.backs_fp for s in scores),
            sum(s.backs_fn for s in scores),
        )
    times = [s.seconds for s in scores]
    return PhotosReport(
        photos=scores,
        labels=f"YOLO boxes (names from {labelled.names_file})" if labelled.names_file else "card lists",
        tp=tp,
        fp=fp,
        fn=fn,
        precision=tp / (tp + fp) if tp + fp else 1.0,
        recall=tp / (tp + fn) if tp + fn else 1.0,
        misreads=dict(misreads.most_common()),
        set_aside=sum(len(s.aside) for s in scores),
        backs=backs,
        seconds_median=float(np.median(times)) if times else 0.0,
        seconds_max=max(times, default=0.0),
    )


def missed_targets(report: PhotosReport, *, target: float) -> list[str]:
    """Each figure short of ``target``, with its value (``faces recall 0.9800``): faces' precision and
    recall, and card backs' where the set scores them. A card back is one of the detector's classes
    (the issue: "52 faces, the Joker and card backs"), so a back read on a photo of no card misses
    the precision target as a false face does. A figure with nothing to count (no read, no label)
    misses nothing."""
    counted = [("faces", (report.tp, report.fp, report.fn))]
    if report.backs is not None:
        counted.append(("card backs", report.backs))
    missed = []
    for what, (tp, fp, fn) in counted:
        for name, of in (("precision", tp + fp), ("recall", tp + fn)):
            if of and tp / of < target:
                missed.append(f"{what} {name} {tp / of:.4f}")
    return missed


def photo_line(s: PhotoScore) -> str:
    """One photo's line: its cards labelled and read right, and what was missed or wrong."""
    parts = [f"{Path(s.image).name}: {len(s.labelled)} labelled, {len(s.right)} right"]
    if s.missed:
        parts.append(f"missed {' '.join(s.missed)}")
    if s.wrong:
        parts.append(
            "wrong "
            + ", ".join(f"{m.card} {m.confidence:.2f}" + (f" (on {m.on})" if m.on else "") for m in s.wrong)
        )
    if s.aside:
        parts.append(
            f"{len(s.aside)} set aside ({' '.join(m.card for m in s.aside)}: not a class of the set)"
        )
    if s.backs_fp:
        parts.append(f"{s.backs_fp} card back(s) read where none lies")
    if s.backs_fn:
        parts.append(f"{s.backs_fn} card back(s) missed")
    return "; ".join(parts) + f" [{s.seconds:.2f} s]"


def _share(n: int, of: int) -> str:
    return f"{n / of:.4f}" if of else "-"


def format_report(report: PhotosReport, *, target: float) -> str:
    exact = sum(s.ok for s in report.photos)
    lines = [
        f"{len(report.photos)} photo(s), labelled by {report.labels}; read exactly (every card right, "
        f"nothing false): {exact}/{len(report.photos)}",
        f"faces: precision {_share(report.tp, report.tp + report.fp)} recall "
        f"{_share(report.tp, report.tp + report.fn)} (tp {report.tp} fp {report.fp} fn {report.fn}; "
        f"target {target})",
    ]
    if report.misreads:
        lines.append(
            "misread (labelled card read as another): "
            + ", ".join(f"{k} x{v}" for k, v in report.misreads.items())
        )
    if report.set_aside:
        lines.append(
            f"set aside: {report.set_aside} read(s) of faces the class names do not name, on no labelled card"
        )
    if report.backs == (0, 0, 0):
        lines.append("card backs: none labelled, none read")
    elif report.backs is not None:
        tp, fp, fn = report.backs
        lines.append(
            f"card backs: precision {_share(tp, tp + fp)} recall {_share(tp, tp + fn)} "
            f"(tp {tp} fp {fp} fn {fn})"
        )
    else:
        lines.append("card backs: not scored (the labels name no card back)")
    lines.append(f"time per photo: median {report.seconds_median:.2f} s, max {report.seconds_max:.2f} s")
    return "\n".join(lines)


def marked_image(image: np.ndarray, score: PhotoScore, photo: LabelledPhoto, found: Detections) -> np.ndarray:
    """``image`` with what was read drawn on it, for a person to check the figures: right face reads
    green, wrong ones red, card backs cyan, missed labelled cards' boxes orange."""
    import cv2

    out = image.copy()
    h, w = out.shape[:2]
    thick = max(1, round(max(w, h) / 640))
    missed = set(score.missed)
    for lab in photo.labels:
        if lab.card != BACK_CLASS and CLASSES[lab.card] in missed:
            for x1, y1, x2, y2 in lab.boxes:
                cv2.rectangle(
                    out, (int(x1 * w), int(y1 * h)), (int(x2 * w), int(y2 * h)), (0, 140, 255), thick
                )
    wrong = {(m.card, m.xyxy) for m in score.wrong}
    for box, c, p in found:
        key = (CLASSES[c], (float(box[0]), float(box[1]), float(box[2]), float(box[3])))
        colour = (255, 255, 0) if c == BACK_CLASS else (0, 0, 255) if key in wrong else (0, 200, 0)
        x1, y1, x2, y2 = (int(v) for v in box)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        cv2.putText(
            out,
            f"{CLASSES[c]} {p:.2f}",
            (x1, max(12, y1 - 3)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4 * thick,
            colour,
            thick,
        )
    return out
