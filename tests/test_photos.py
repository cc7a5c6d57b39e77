"""`paigow-monitor eval-photos`: labelled photographs found and read (YOLO boxes and card lists), scored
per card as `benchmarks/photo_stills.py` scores rendered stills, and every bad input named."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_detector_model import _row_of_cards

from rules.cards import parse_card
from vision.detections import BACK_CLASS, CLASSES, JOKER_CLASS, Detections
from vision.photos import (
    LabelledPhoto,
    PhotoError,
    PhotoLabel,
    card_of_name,
    evaluate_photos,
    find_photos,
    missed_targets,
    score_photo,
    write_labelled_photo,
)


def _code(text: str) -> int:
    return parse_card(text).code


@pytest.mark.parametrize(
    ("name", "card"),
    [
        ("10c", "Tc"),
        ("Tc", "Tc"),
        ("AS", "As"),
        ("as", "As"),
        ("ace_of_spades", "As"),
        ("Ace of Spades", "As"),
        ("queen-hearts", "Qh"),
        ("10_of_diamonds", "Td"),
        ("two of clubs", "2c"),
    ],
)
def test_a_class_name_is_a_card_in_any_usual_spelling(name: str, card: str) -> None:
    assert card_of_name(name) == _code(card)


def test_jokers_and_backs_are_named_and_anything_else_is_refused() -> None:
    assert card_of_name("joker") == card_of_name("JOKER") == card_of_name("Jk") == JOKER_CLASS
    assert card_of_name("back") == card_of_name("card_back") == card_of_name("BACK") == BACK_CLASS
    for bad in ("chip", "ace of cups", "11h", ""):
        with pytest.raises(PhotoError, match="is not a card"):
            card_of_name(bad)


def _image(path: Path, w: int = 200, h: int = 100) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.full((h, w, 3), 90, np.uint8))
    return path


def test_a_written_photo_set_reads_back_as_it_was_written(tmp_path: Path) -> None:
    labels = [
        PhotoLabel(card=_code("As"), boxes=[(0.1, 0.1, 0.2, 0.3), (0.6, 0.6, 0.7, 0.8)]),
        PhotoLabel(card=JOKER_CLASS, boxes=[(0.3, 0.2, 0.4, 0.5)]),
        PhotoLabel(card=BACK_CLASS, boxes=[(0.5, 0.0, 1.0, 0.9)]),
    ]
    write_labelled_photo(tmp_path / "set", "one", np.zeros((100, 200, 3), np.uint8), labels)
    found = find_photos([tmp_path / "set"])
    assert found.names_file == tmp_path / "set" / "data.yaml"
    assert found.named == list(range(len(CLASSES)))
    (photo,) = found.photos
    assert photo.boxed and photo.image == tmp_path / "set" / "images" / "one.png"
    got = {lab.card: lab.boxes for lab in photo.labels}
    assert set(got) == {_code("As"), JOKER_CLASS, BACK_CLASS}
    for lab in labels:
        assert np.allclose(got[lab.card], lab.boxes, atol=1e-6)


def _yolo_set(root: Path, names: str, split: str = "test") -> Path:
    """A dataset laid out as public playing-card photo sets are (Roboflow's YOLOv8 export)."""
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(f"train: ../train/images\nval: ../valid/images\nnames: {names}\n")
    _image(root / split / "images" / "a.jpg")
    (root / split / "labels").mkdir(parents=True)
    return root / split / "labels" / "a.txt"


def test_a_yolo_dataset_root_is_read_at_its_test_split_with_its_own_class_names(tmp_path: Path) -> None:
    label = _yolo_set(tmp_path / "cards", "['10c', 'Ac', 'Kh']")
    label.write_text("0 0.5 0.5 0.1 0.2\n1 0.2 0.2 0.1 0.1\n1 0.8 0.8 0.1 0.1\n2 0.1 0.1 0.3 0.1 0.3 0.3\n")
    found = find_photos([tmp_path / "cards"])
    assert found.named == sorted([_code("Tc"), _code("Ac"), _code("Kh")])
    (photo,) = found.photos
    by_card = {CLASSES[lab.card]: lab.boxes for lab in photo.labels}
    assert by_card["Tc"] == [pytest.approx((0.45, 0.4, 0.55, 0.6))]
    assert len(by_card["Ac"]) == 2  # a card's two corners
    assert by_card["Kh"] == [pytest.approx((0.1, 0.1, 0.3, 0.3))]  # a polygon's bounding box
    with pytest.raises(
        PhotoError, match=r"data.yaml: a dataset without split 'valid' \(folders here: test\)"
    ):
        find_photos([tmp_path / "cards"], split="valid")


def test_names_given_as_a_dict_and_a_name_set_aside_by_ignore(tmp_path: Path) -> None:
    label = _yolo_set(tmp_path / "d", "{0: Qs, 1: dealer button}")
    label.write_text("0 0.5 0.5 0.1 0.2\n1 0.2 0.2 0.1 0.1\n")
    with pytest.raises(PhotoError, match=r"class 1: 'dealer button' is not a card.*--ignore 'dealer button'"):
        find_photos([tmp_path / "d"])
    found = find_photos([tmp_path / "d"], ignore=["dealer button"])
    assert [lab.card for lab in found.photos[0].labels] == [_code("Qs")]
    assert found.named == [_code("Qs")] and found.ignored == ["dealer button"]


def test_a_card_list_beside_a_photo_says_which_cards_not_where(tmp_path: Path) -> None:
    _image(tmp_path / "p" / "IMG_1.jpg")
    (tmp_path / "p" / "IMG_1.txt").write_text("As Kd  # the dealer's\n7c Jk\n")
    found = find_photos([tmp_path / "p"])
    (photo,) = found.photos
    assert not photo.boxed and found.names_file is None and found.named is None
    assert sorted(lab.card for lab in photo.labels) == [
        *sorted(_code(c) for c in ("As", "Kd", "7c")),
        JOKER_CLASS,
    ]
    assert all(not lab.boxes for lab in photo.labels)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd\n0 0.5 0.5 0.1 0.1\n", r"IMG_1.txt:2: a YOLO box line among card list lines"),
        ("As Xx\n", r"IMG_1.txt:1: bad card 'Xx'"),
        ("As Kd As\n", r"IMG_1.txt:1: .*As.*"),
    ],
)
def test_a_bad_card_list_line_is_named_by_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    _image(tmp_path / "IMG_1.jpg")
    (tmp_path / "IMG_1.txt").write_text(text)
    with pytest.raises(PhotoError, match=message):
        find_photos([tmp_path / "IMG_1.jpg"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5 0.5 0.5 0.1 0.1\n", r"a.txt:1: class 5 is not one of the 2 classes named"),
        ("0 0.5 0.5 0.1 0.1\n1 1.5 0.5 0.2 0.2\n", r"a.txt:2: coordinates must be normalised"),
        ("0 0.5 0.5 0 0.1\n", r"a.txt:1: a box of width 0.0"),
        ("0 0.5 0.5 0.1 0.1 0.2\n", r"a.txt:1: expected 'class cx cy w h'"),
        ("0 0.5 0.5 0.1 0.1\nAs\n", r"a.txt:2: a card list line among YOLO box lines"),
    ],
)
def test_a_bad_yolo_line_is_named_by_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    _yolo_set(tmp_path / "d", "[As, Ks]").write_text(text)
    with pytest.raises(PhotoError, match=message):
        find_photos([tmp_path / "d"])


def test_photos_without_labels_or_yolo_boxes_without_names_are_refused(tmp_path: Path) -> None:
    _image(tmp_path / "a" / "one.jpg")
    _image(tmp_path / "a" / "two.png")
    (tmp_path / "a" / "two.txt").write_text("")  # labelled: no card in it
    with pytest.raises(PhotoError, match=r"1 photo\(s\) without a label file .*one.jpg"):
        find_photos([tmp_path / "a"])
    (tmp_path / "a" / "one.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    with pytest.raises(PhotoError, match=r"one.txt: YOLO boxes need their class names"):
        find_photos([tmp_path / "a"])
    with pytest.raises(PhotoError, match="no such file or folder"):
        find_photos([tmp_path / "nowhere"])
    (tmp_path / "e").mkdir()
    with pytest.raises(PhotoError, match="no photos"):
        find_photos([tmp_path / "e"])


def _boxed(labels: dict[str, list[tuple[float, float, float, float]]]) -> LabelledPhoto:
    """A 1000 x 500 photo's labels, boxes given in pixels."""
    return LabelledPhoto(
        image=Path("p.jpg"),
        label_file=Path("p.txt"),
        labels=[
            PhotoLabel(
                card=card_of_name(c),
                boxes=[(x1 / 1000, y1 / 500, x2 / 1000, y2 / 500) for x1, y1, x2, y2 in b],
            )
            for c, b in labels.items()
        ],
        boxed=True,
    )


def _reads(*rows: tuple[str, float, tuple[float, float, float, float]]) -> Detections:
    return Detections(
        np.array([r[2] for r in rows], np.float32).reshape(-1, 4),
        np.array([card_of_name(r[0]) for r in rows], np.int64),
        np.array([r[1] for r in rows], np.float32),
    )


def test_a_read_is_right_on_its_labelled_card_and_a_misread_names_the_card_it_lay_on() -> None:
    photo = _boxed(
        {
            "As": [(100, 100, 120, 130), (160, 200, 180, 230)],  # two corners: the card spans them
            "Kd": [(400, 100, 420, 130)],
            "7c": [(700, 100, 720, 130)],
        }
    )
    found = _reads(
        ("As", 0.9, (100, 100, 180, 230)),  # the card's corners merged: its centre is mid-card
        ("Ac", 0.8, (402, 102, 418, 128)),  # on the Kd
        ("7c", 0.7, (300, 300, 320, 330)),  # its face, far from where the 7c lies
        ("As", 0.5, (100, 100, 120, 130)),  # the As read a second time
    )
    s = score_photo(found, photo, (1000, 500))
    assert s.right == ["As"]
    assert sorted(s.missed) == ["7c", "Kd"]
    assert [(m.card, m.on) for m in s.wrong] == [("Ac", "Kd"), ("7c", None), ("As", None)]
    assert not s.aside and not s.ok


def test_a_read_at_a_labelled_box_edge_counts_within_a_tenth_of_its_size() -> None:
    photo = _boxed({"Qh": [(100, 100, 200, 200)]})
    assert score_photo(_reads(("Qh", 0.9, (195, 195, 215, 215))), photo, (1000, 500)).right == ["Qh"]
    assert score_photo(_reads(("Qh", 0.9, (205, 205, 225, 225))), photo, (1000, 500)).missed == ["Qh"]


def test_a_face_the_set_does_not_name_is_set_aside_unless_it_lies_on_a_labelled_card() -> None:
    photo = _boxed({"Ah": [(100, 100, 120, 130)]})
    hearts = [card_of_name(f"{r}h") for r in "23456789TJQKA"]
    s = score_photo(
        _reads(
            ("Ad", 0.9, (102, 102, 118, 128)),
            ("Ks", 0.8, (600, 300, 620, 330)),
            ("Kh", 0.7, (800, 50, 820, 80)),
        ),
        photo,
        (1000, 500),
        named=hearts,
    )
    assert [(m.card, m.on) for m in s.wrong] == [("Ad", "Ah"), ("Kh", None)]  # a misread; a heart not there
    assert [m.card for m in s.aside] == ["Ks"]  # the set labels no spade: it cannot say this is wrong
    assert s.missed == ["Ah"]


def test_card_backs_are_scored_only_where_the_names_have_a_back_class() -> None:
    photo = _boxed({"BACK": [(500, 100, 700, 400)], "2c": [(100, 100, 120, 130)]})
    found = _reads(
        ("BACK", 0.9, (510, 110, 690, 390)),
        ("BACK", 0.6, (50, 300, 150, 450)),
        ("2c", 0.9, (100, 100, 120, 130)),
    )
    s = score_photo(found, photo, (1000, 500), named=list(range(len(CLASSES))))
    assert (s.backs_tp, s.backs_fp, s.backs_fn) == (1, 1, 0) and s.right == ["2c"]
    assert not s.ok  # a back read where none lies: not read exactly
    s = score_photo(found, photo, (1000, 500), named=[card_of_name("2c")])
    assert (s.backs_tp, s.backs_fp, s.backs_fn) == (0, 0, 0) and s.ok


def test_a_card_list_names_its_face_down_cards_and_an_empty_one_says_there_is_no_card(tmp_path: Path) -> None:
    _image(tmp_path / "p" / "pile.jpg")
    (tmp_path / "p" / "pile.txt").write_text("back BACK  # two face down\nKs\n")
    _image(tmp_path / "p" / "wall.jpg")
    (tmp_path / "p" / "wall.txt").write_text("")
    pile, wall = find_photos([tmp_path / "p"]).photos
    assert (
        sorted(lab.card for lab in pile.labels) == [_code("Ks"), BACK_CLASS, BACK_CLASS] and not wall.labels
    )
    three_backs = _reads(*[("BACK", 0.9 - 0.1 * i, (100 * i, 0, 100 * i + 80, 110)) for i in range(3)])
    s = score_photo(three_backs, pile, (1000, 500))
    assert (s.backs_tp, s.backs_fp, s.backs_fn) == (2, 1, 0) and s.missed == ["Ks"]
    s = score_photo(three_backs[:1], wall, (1000, 500))
    assert (s.backs_tp, s.backs_fp, s.backs_fn) == (0, 1, 0) and not s.wrong


def test_a_card_list_scores_by_the_cards_alone() -> None:
    photo = LabelledPhoto(
        image=Path("p.jpg"),
        label_file=Path("p.txt"),
        labels=[PhotoLabel(card=card_of_name(c)) for c in ("As", "Kd", "Jk")],
        boxed=False,
    )
    s = score_photo(
        _reads(("Kd", 0.9, (0, 0, 10, 10)), ("Jk", 0.8, (900, 0, 910, 10)), ("3h", 0.7, (5, 5, 9, 9))),
        photo,
        (1000, 500),
    )
    assert s.right == ["Kd", "Jk"] and s.missed == ["As"] and [m.card for m in s.wrong] == ["3h"]


def test_evaluate_totals_every_photo_and_names_an_unreadable_one(tmp_path: Path) -> None:
    for stem, cards in (("a", ["As", "Kd"]), ("b", ["7c"])):
        write_labelled_photo(
            tmp_path / "s",
            stem,
            np.zeros((100, 100, 3), np.uint8),
            [
                PhotoLabel(card=card_of_name(c), boxes=[(0.1 + 0.4 * i, 0.1, 0.3 + 0.4 * i, 0.3)])
                for i, c in enumerate(cards)
            ],
        )
    labelled = find_photos([tmp_path / "s"])
    answers = {  # a fake detector: the As right, the Kd read Kh, the 7c not found
        "a": _reads(("As", 0.9, (10, 10, 30, 30)), ("Kh", 0.8, (50, 10, 70, 30))),
        "b": Detections.empty(),
    }
    order = iter(sorted(answers))
    seen: list[str] = []
    report = evaluate_photos(
        labelled, lambda img: answers[next(order)], progress=lambda s, img, f: seen.append(s.image)
    )
    assert (report.tp, report.fp, report.fn) == (1, 1, 2)
    assert report.precision == 0.5 and report.recall == pytest.approx(1 / 3)
    assert report.misreads == {"Kd read Kh": 1}
    assert report.backs == (0, 0, 0)  # the written set names a back class; none labelled or read
    assert missed_targets(report, target=0.995) == ["faces precision 0.5000", "faces recall 0.3333"]
    assert missed_targets(report, target=0.3) == []
    assert [Path(p).name for p in seen] == ["a.png", "b.png"]
    (tmp_path / "s" / "images" / "b.png").write_text("not a picture")
    with pytest.raises(PhotoError, match=r"b.png: not a readable image"):
        evaluate_photos(labelled, lambda img: Detections.empty())


def test_a_card_back_read_on_a_photo_of_no_card_misses_the_target() -> None:
    """A back is one of the detector's classes: a photo of no card with a back read on it is not a
    pass (eval-photos once printed PASS on a set whose only reads were four false backs)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for stem in ("a", "b"):
            write_labelled_photo(Path(tmp), stem, np.zeros((100, 100, 3), np.uint8), [])
        labelled = find_photos([Path(tmp)])
        answers = iter([_reads(("BACK", 0.6, (10, 10, 60, 80))), Detections.empty()])
        report = evaluate_photos(labelled, lambda img: next(answers))
    assert (report.tp, report.fp, report.fn, report.backs) == (0, 0, 0, (0, 1, 0))
    assert missed_targets(report, target=0.995) == ["card backs precision 0.0000"]
    assert report.precision == 1.0  # faces alone: nothing read, nothing missed


def test_eval_photos_scores_the_shipped_detector_on_a_labelled_photo(tmp_path: Path) -> None:
    """End to end, as a user with photos would run it: a row of a held-out deck's cards, labelled once
    by its cards' boxes (YOLO) and once by a card list; the shipped model reads at least four of the
    five (`test_reads_a_row_of_held_out_deck_cards`)."""
    from typer.testing import CliRunner

    from compliance.cli import app

    img, truth = _row_of_cards("simplistic")
    h, w = img.shape[:2]
    labels = [
        PhotoLabel(card=card_of_name(c), boxes=[(x1 / w, y1 / h, x2 / w, y2 / h)])
        for c, (x1, y1, x2, y2) in truth
    ]
    write_labelled_photo(tmp_path / "yolo", "row", img, labels)
    (tmp_path / "list").mkdir()
    cv2.imwrite(str(tmp_path / "list" / "row.png"), img)
    (tmp_path / "list" / "row.txt").write_text(" ".join(c for c, _ in truth) + "\n")
    fast = ["--rotations", "0", "--scales", "1", "--workers", "1"]
    for folder in ("yolo", "list"):
        out = tmp_path / f"{folder}.json"
        res = CliRunner().invoke(
            app,
            [
                "eval-photos",
                str(tmp_path / folder),
                "--out",
                str(out),
                "--marked",
                str(tmp_path / f"m-{folder}"),
                *fast,
            ],
        )
        report = json.loads(out.read_text())
        assert report["tp"] >= 4 and report["fp"] <= 1, res.output
        _, bfp, bfn = report["backs"] or (0, 0, 0)
        met = report["precision"] >= 0.995 and report["recall"] >= 0.995 and not bfp and not bfn
        assert res.exit_code == (0 if met else 1), res.output
        assert ("PASS" if met else "FAIL: target 0.995 missed by") in res.output
        assert "faces: precision" in res.output and "row.png:" in res.output
        assert (tmp_path / f"m-{folder}" / "row.png").is_file()
        res = CliRunner().invoke(app, ["eval-photos", str(tmp_path / folder), "--target", "0.5", *fast])
        assert res.exit_code == 0 and "PASS" in res.output
    res = CliRunner().invoke(app, ["eval-photos", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "nowhere: no such file or folder" in res.output


def _encoded(suffix: str, image: np.ndarray) -> bytes:
    """``image`` encoded as a file of that suffix would hold it."""
    ok, data = cv2.imencode(suffix, image)
    assert ok
    return bytes(data.tobytes())


def test_real_photos_are_taken_from_their_wheel_checked_and_labelled_as_showing_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib
    import zipfile

    from render import real_photos

    data = _encoded(".png", np.full((40, 60, 3), 120, np.uint8))
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pkg/data/desk.png", data)
    shipped = real_photos.REAL_PHOTOS
    pinned = {real_photos.Source("pkg", "1.0", "pkg/data"): {"desk.png": hashlib.sha256(data).hexdigest()}}
    monkeypatch.setattr(real_photos, "REAL_PHOTOS", pinned)
    fetched: list[str] = []
    monkeypatch.setattr(real_photos, "_wheel", lambda p, v, into: fetched.append(p) or wheel)
    out = tmp_path / "photos"
    assert real_photos.missing(out) == ["desk.png"]
    assert real_photos.fetch(out) == [out / "train" / "images" / "desk.png"]  # not one held out
    assert (out / "train" / "images" / "desk.png").read_bytes() == data
    assert real_photos.missing(out) == [] and real_photos.fetch(out) == [] and fetched == ["pkg"]
    found = find_photos(
        [out / "train"]
    )  # a labelled set: a photo of no card, so any card read in it is false
    assert [p.labels for p in found.photos] == [[]]
    assert real_photos.part_of("brick.png") == "held-out" and len(real_photos.HELD_OUT_PHOTOS) == 24
    assert real_photos.part_of("stuff.jpg") == "train"
    assert all(real_photos.part_of(n) == "held-out" for n in real_photos.HELD_OUT_PHOTOS)
    # each photo written under a name of its own (Pillow's flower beside scikit-learn's), every held-out one
    names = [real_photos.written_name(s, m) for s, files in shipped.items() for m in files]
    assert len(names) == len(set(names)) == 63 and set(names) >= real_photos.HELD_OUT_PHOTOS
    assert "flower.jpg" in names and "pillow_flower.jpg" in names
    assert len(real_photos.HELD_OUT_2_PHOTOS) == 16 and set(names) >= real_photos.HELD_OUT_2_PHOTOS
    assert not real_photos.HELD_OUT_2_PHOTOS & real_photos.HELD_OUT_PHOTOS
    assert {real_photos.part_of(n) for n in real_photos.HELD_OUT_2_PHOTOS} == {"held-out-2"}
    assert sum(real_photos.part_of(n) == "train" for n in names) == 23  # det 11's training half, unchanged
    monkeypatch.setattr(
        real_photos, "REAL_PHOTOS", {real_photos.Source("pkg", "1.0", "pkg/data"): {"desk.png": "0" * 64}}
    )
    with pytest.raises(RuntimeError, match=r"pkg/data/desk.png has sha256 .*, expected 0000"):
        real_photos.fetch(tmp_path / "other")


def test_real_photos_kept_as_arrays_are_written_as_png_with_their_pixels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bz2
    import hashlib
    import io
    import zipfile

    from render import real_photos

    rng = np.random.default_rng(3)
    grey = rng.integers(0, 256, (30, 40), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez(buf, data=grey)
    npz = buf.getvalue()
    rgb = rng.integers(0, 256, (768, 1024, 3), dtype=np.uint8)
    face = bz2.compress(rgb.tobytes())
    mpo = _encoded(".jpg", np.full((20, 30, 3), 90, np.uint8)) + b"second picture"
    wheels = {}
    for package, member, data in (
        ("PyWavelets", "ascent.npz", npz),
        ("scipy", "face.dat", face),
        ("Pillow", "sugarshack.mpo", mpo),
    ):
        wheels[package] = tmp_path / f"{package}.whl"
        with zipfile.ZipFile(wheels[package], "w") as z:
            z.writestr(f"d/{member}", data)
    sha = hashlib.sha256
    pinned = {
        real_photos.Source("PyWavelets", "1", "d"): {"ascent.npz": sha(npz).hexdigest()},
        real_photos.Source("scipy", "1", "d"): {"face.dat": sha(face).hexdigest()},
        real_photos.Source("Pillow", "1", "d"): {"sugarshack.mpo": sha(mpo).hexdigest()},
    }
    monkeypatch.setattr(real_photos, "REAL_PHOTOS", pinned)
    monkeypatch.setattr(real_photos, "_wheel", lambda p, v, into: wheels[p])
    out = tmp_path / "photos"
    got = real_photos.fetch(out)
    folder = out / "held-out-2" / "images"
    assert got == [folder / "ascent.png", folder / "face.png", folder / "sugarshack.jpg"]
    read = {
        n: cv2.imread(str(folder / n), cv2.IMREAD_UNCHANGED)
        for n in ("ascent.png", "face.png", "sugarshack.jpg")
    }
    assert np.array_equal(read["ascent.png"], grey)
    assert np.array_equal(read["face.png"], rgb[:, :, ::-1])  # RGB pixels, written as a BGR PNG
    assert np.shape(read["sugarshack.jpg"]) == (20, 30, 3)  # the MPO's first picture
    assert (out / "held-out-2" / "labels" / "face.txt").read_text() == ""
    assert real_photos.missing(out) == []
    bad = io.BytesIO()
    np.savez(bad, data=grey.astype(np.float32))
    pinned = {real_photos.Source("PyWavelets", "1", "d"): {"aero.npz": sha(bad.getvalue()).hexdigest()}}
    with zipfile.ZipFile(wheels["PyWavelets"], "w") as z:
        z.writestr("d/aero.npz", bad.getvalue())
    monkeypatch.setattr(real_photos, "REAL_PHOTOS", pinned)
    with pytest.raises(RuntimeError, match=r"PyWavelets 1: d/aero.npz: expected an 8-bit grey image"):
        real_photos.fetch(tmp_path / "other")


def test_real_photos_from_a_source_archive_are_taken_only_from_the_pinned_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib
    import io
    import tarfile

    from render import real_photos

    data = _encoded(".jpg", np.full((30, 50, 3), 90, np.uint8))
    sdist = tmp_path / "dl" / "lib-2.0.tar.gz"
    sdist.parent.mkdir()
    with tarfile.open(sdist, "w:gz") as tar:
        info = tarfile.TarInfo("lib-2.0/samples/data/street.jpg")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    archive_sha = hashlib.sha256(sdist.read_bytes()).hexdigest()
    source = real_photos.Source(
        "lib", "2.0", "lib-2.0/samples/data", "https://files.example/lib-2.0.tar.gz", archive_sha
    )
    monkeypatch.setattr(
        real_photos, "REAL_PHOTOS", {source: {"street.jpg": hashlib.sha256(data).hexdigest()}}
    )
    urls: list[str] = []
    monkeypatch.setattr(real_photos, "_download", lambda url, into: urls.append(url) or sdist)
    out = tmp_path / "photos"
    assert real_photos.fetch(out) == [out / "train" / "images" / "street.jpg"]
    assert (out / "train" / "images" / "street.jpg").read_bytes() == data
    assert (out / "train" / "labels" / "street.txt").read_text() == ""
    assert urls == ["https://files.example/lib-2.0.tar.gz"]
    # an archive that is not the pinned one is refused before anything is taken from it
    bad = source._replace(sha256="f" * 64)
    monkeypatch.setattr(real_photos, "REAL_PHOTOS", {bad: {"street.jpg": hashlib.sha256(data).hexdigest()}})
    with pytest.raises(RuntimeError, match=r"lib-2.0.tar.gz: sha256 .*, expected ffff"):
        real_photos.fetch(tmp_path / "other")
    assert not list((tmp_path / "other").rglob("*.jpg"))


def test_a_scene_s_cards_can_lie_on_a_photograph() -> None:
    import math

    from render.training import render_scene

    photo = np.zeros((300, 500, 3), np.uint8)
    photo[:] = (20, 200, 40)  # a green photograph
    img, scene = render_scene(
        np.random.default_rng(3),
        "kde-standard",
        320,
        240,
        ["kde-standard"],
        angle=math.radians(30),
        backdrop=photo,
    )
    drawn, _ = render_scene(
        np.random.default_rng(3), "kde-standard", 320, 240, ["kde-standard"], angle=math.radians(30)
    )
    assert img.shape == drawn.shape == (240, 320, 3) and scene.objects
    cards = np.zeros(img.shape[:2], bool)
    for o in scene.objects:
        x1, y1, x2, y2 = (int(v) for v in o.card_xyxy)
        cards[y1:y2, x1:x2] = True
    ground = img[~cards].astype(np.float32).mean(0)
    assert ground[1] > 120 and ground[1] > 2 * ground[0] and ground[1] > 2 * ground[2], (
        ground
    )  # the photo shows


def test_a_card_read_corner_to_corner_is_right_where_one_corner_alone_was_labelled() -> None:
    photo = _boxed({"8s": [(100, 100, 120, 130)]})  # its other corner too covered to be labelled
    s = score_photo(_reads(("8s", 0.9, (100, 100, 190, 240))), photo, (1000, 500))
    assert s.right == ["8s"] and [r.card for r in s.reads] == ["8s"]
    s = score_photo(_reads(("8s", 0.9, (150, 150, 190, 240))), photo, (1000, 500))  # not on it at all
    assert s.missed == ["8s"] and [m.card for m in s.wrong] == ["8s"]
