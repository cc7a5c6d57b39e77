"""The card detector's commands: ``detect``, ``eval-photos``, ``export-training``, ``export-table-training``,
``export-synthetic-indices``, ``train-detector``, ``eval-detector``.

Thin typer commands; each hands over to one function. Heavy imports stay inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from vision.detector import OnnxCardDetector

__all__ = ["register"]


# the options of reading a still, shared by ``detect`` and ``eval-photos``
_Conf = Annotated[float, typer.Option(help="minimum confidence of a detection")]
_Models = Annotated[
    Path | None,
    typer.Option(
        help="folder with card_det.onnx and card_cls.onnx (and card_det_still.onnx, the stills' stage 1, "
        "read in card_det.onnx's place where there)"
    ),
]
_Scales = Annotated[
    str,
    typer.Option(
        help="'auto': an image pyramid, since a still's card size is unknown (smallest scale first, "
        "none larger than its cards' indices can be read at); or the scales to read the image at, "
        "like '1' or '0.5,1,2' (1 = as it is)"
    ),
]
_Rotations = Annotated[
    str,
    typer.Option(
        help="degrees to read each image turned by, for cards lying at any angle: 'auto' = every "
        "45 degrees at every scale, then the 8 turns between at the scale those chose (a median 1.4 s "
        "for a 640x480 photo on this 2-core machine); '0' = only as it lies (cards near upright or "
        "upside down); or a list like '0,90,180,270' (each at every scale)"
    ),
]
_WhiteBalance = Annotated[
    bool,
    typer.Option(
        help="take a photo's colour cast out first (its brightest pixels, the cards' paper, made grey)"
    ),
]
_Workers = Annotated[
    int,
    typer.Option(min=0, help="threads the detector reads a still's tiles on (0: one per CPU core)"),
]


def _still_detector(
    models: Path | None, conf: float, scales: str, rotations: str, workers: int
) -> tuple[OnnxCardDetector, list[float] | None]:
    """The detector as ``detect`` reads stills with these options, and the fixed scales (None: each
    still's own pyramid). A bad option is a ``typer.BadParameter``; no model, exit 1."""
    from vision.detector import load_detector, still_workers

    turns = _rotations(rotations)
    fixed: list[float] | None = None
    if scales != "auto":
        try:
            fixed = [float(v) for v in scales.split(",")]
        except ValueError:
            raise typer.BadParameter(
                f"--scales must be 'auto' or numbers like '0.5,1,2', not {scales!r}"
            ) from None
        if not fixed or min(fixed) <= 0:
            raise typer.BadParameter(f"--scales must be positive, not {scales!r}")
    try:
        det = load_detector(
            models,
            conf=conf,
            tile=True,
            rotations=turns,
            fine_rotations=_fine_rotations(rotations),
            stills=True,
            tile_workers=workers or still_workers(),
        )
    except FileNotFoundError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    return det, fixed


def detect(
    images: Annotated[
        list[Path], typer.Argument(help="still images (any format OpenCV reads), or folders of them")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object per image")] = False,
    conf: _Conf = 0.3,
    models: _Models = None,
    raw: Annotated[bool, typer.Option(help="list every index found, without merging a card's two")] = False,
    scales: _Scales = "auto",
    rotations: _Rotations = "auto",
    white_balance: _WhiteBalance = True,
    workers: _Workers = 0,
) -> None:
    """Print the cards found in still images: card, confidence, box (x1 y1 x2 y2, pixels)."""
    import cv2

    from vision.sources import IMAGE_SUFFIXES

    det, fixed = _still_detector(models, conf, scales, rotations, workers)
    failed = False
    listed: list[Path] = []
    for path in images:  # a folder: its images, in name order
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
            if not inside:
                typer.echo(f"error: {path}: folder holds no images ({', '.join(IMAGE_SUFFIXES)})", err=True)
                failed = True
            listed += inside
        else:
            listed.append(path)
    for path in listed:
        if not path.is_file():  # (OpenCV would only warn, and say nothing of why)
            typer.echo(f"error: {path}: no such file", err=True)
            failed = True
            continue
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            typer.echo(f"error: {path}: not a readable image", err=True)
            failed = True
            continue
        found = det.read_still(img, scales=fixed, white_balance=white_balance, raw=raw)
        order = sorted(range(len(found)), key=lambda i: (float(found.xyxy[i, 0]), float(found.xyxy[i, 1])))
        rows = [
            {
                "card": found.labels[i],
                "confidence": round(float(found.confidence[i]), 3),
                "xyxy": [round(float(v), 1) for v in found.xyxy[i]],
            }
            for i in order
        ]
        if as_json:
            typer.echo(json.dumps({"image": str(path), "cards": rows}))
        else:
            typer.echo(f"{path}: {len(rows)} card(s)")
            for r in rows:
                x = list(r["xyxy"])  # type: ignore[call-overload]
                typer.echo(
                    f"  {r['card']!s:<5} {r['confidence']:.2f}  [{x[0]:.0f} {x[1]:.0f} {x[2]:.0f} {x[3]:.0f}]"
                )
    if failed:
        raise typer.Exit(1)


def _fine_rotations(text: str) -> tuple[float, ...] | None:
    """``detect --rotations auto``: also the turns between every 45 degrees, read at one scale."""
    if text != "auto":
        return None
    from vision.detector import STILL_FINE_ROTATIONS

    return STILL_FINE_ROTATIONS


def _rotations(text: str) -> tuple[float, ...] | None:
    """``detect --rotations``: None (read only as the image lies) for '0'."""
    if text == "auto":
        from vision.detector import STILL_ROTATIONS

        return STILL_ROTATIONS
    try:
        turns = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise typer.BadParameter(
            f"--rotations must be 'auto' or degrees like '0' or '0,90,180,270', not {text!r}"
        ) from None
    return None if turns == (0.0,) else turns


def eval_photos(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="labelled photos: image files, folders of them, or a YOLO dataset's root (its data.yaml "
            "beside the split folders); each photo's labels in NAME.txt beside it or in the layout's labels/"
        ),
    ],
    split: Annotated[
        str | None,
        typer.Option(help="a YOLO dataset root's split to read (default: the first of test, valid, val)"),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(help="a class name of the dataset's that is no card, its labels set aside (repeat it)"),
    ] = None,
    target: Annotated[float, typer.Option(help="per-card precision and recall target")] = 0.995,
    out: Annotated[
        Path | None, typer.Option(help="write the whole report (every photo's reads) as JSON")
    ] = None,
    marked: Annotated[
        Path | None,
        typer.Option(
            help="write each photo here, its reads drawn (right green, wrong red, backs cyan, missed orange)"
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="print only the photos with an error, and the totals")] = False,
    conf: _Conf = 0.3,
    models: _Models = None,
    scales: _Scales = "auto",
    rotations: _Rotations = "auto",
    white_balance: _WhiteBalance = True,
    workers: _Workers = 0,
) -> None:
    """Score `detect` on labelled photographs, per card; exit 1 when a target is missed (faces' or card
    backs' precision or recall: a back read on a photo of no card misses it), 2 on bad input.

    Labels: YOLO boxes (`class cx cy w h`, the class names in the dataset's data.yaml, classes.txt or
    obj.names; a name is a card in any usual spelling: 10c, AS, ace_of_spades, joker, back), or a card
    list (`As Kd 7c`, and `back` for each card face down; an empty list: no card in the photo). Real
    photographs of real cards, labelled either way, are how the detector is checked on more than
    renders (models/MODEL_CARD.md, "Real photographs")."""
    import cv2

    from vision.photos import (
        PhotoError,
        evaluate_photos,
        find_photos,
        format_report,
        marked_image,
        missed_targets,
        photo_line,
    )

    try:
        labelled = find_photos(paths, split=split, ignore=ignore or ())
    except PhotoError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    det, fixed = _still_detector(models, conf, scales, rotations, workers)
    if marked is not None:
        marked.mkdir(parents=True, exist_ok=True)
    by_image = {str(p.image): p for p in labelled.photos}

    def told(score: Any, image: Any, found: Any) -> None:
        if not (quiet and score.ok):
            typer.echo(photo_line(score))
        if marked is not None:
            name = marked / (Path(score.image).stem + ".png")
            cv2.imwrite(str(name), marked_image(image, score, by_image[score.image], found))

    try:
        report = evaluate_photos(
            labelled,
            lambda img: det.read_still(img, scales=fixed, white_balance=white_balance),
            progress=told,
        )
    except PhotoError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    typer.echo(format_report(report, target=target))
    if out is not None:
        out.write_text(report.model_dump_json(indent=1))
    missed = missed_targets(report, target=target)
    typer.echo(f"FAIL: target {target} missed by {', '.join(missed)}" if missed else "PASS")
    if missed:
        raise typer.Exit(1)


def export_training(
    out: Annotated[Path, typer.Option(help="output folder (created)")],
    images: Annotated[int, typer.Option(help="number of scenes (train + val)")] = 2700,
    seed: Annotated[int, typer.Option(help="random seed; the same seed gives the same files")] = 1,
    size: Annotated[int, typer.Option(help="nominal scene size in pixels")] = 320,
    zones: Annotated[int, typer.Option(help="zone-like evaluation crops from the held-out decks")] = 40,
    backdrops: Annotated[
        Path | None,
        typer.Option(
            help="a folder of photographs (or its images/) to lay a share of the scenes' cards on, a tenth "
            "of those the photo alone (python -m render.real_photos: its train/ half)"
        ),
    ] = None,
    backdrop_share: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="share of the scenes laid on a photograph")
    ] = 0.5,
    backdrop_smallest: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=1.0,
            help="the smallest part of a photograph a scene shows, a share of its sides (0.5: half to all; "
            "smaller parts show its details magnified, as detect reads a still up to 4x)",
        ),
    ] = 0.5,
) -> None:
    """Write synthetic detector training data (YOLO format), split by deck."""
    from render.training import export_training as run
    from vision.photos import PhotoError, read_photos

    try:
        photos = read_photos(backdrops) if backdrops is not None else []
    except PhotoError as e:
        raise typer.BadParameter(str(e), param_hint="--backdrops") from None
    summary = run(
        out,
        images=images,
        seed=seed,
        size=size,
        zones=zones,
        backdrops=photos,
        backdrop_share=backdrop_share,
        backdrop_smallest=backdrop_smallest,
    )
    typer.echo(summary.model_dump_json(indent=2))


def train_detector(
    data: Annotated[Path, typer.Option(help="an export-training output folder")],
    out: Annotated[Path | None, typer.Option(help="where weights go (default: models/)")] = None,
    stages: Annotated[str, typer.Option(help="comma-separated: det, cls")] = "det,cls",
    det_epochs: Annotated[int, typer.Option(help="detector epochs")] = 12,
    det_imgsz: Annotated[int, typer.Option(help="detector input size")] = 256,
    det_fraction: Annotated[float, typer.Option(help="share of training images per epoch")] = 1.0,
    cls_epochs: Annotated[int, typer.Option(help="classifier epochs")] = 8,
    cls_imgsz: Annotated[int, typer.Option(help="classifier input size")] = 32,
    det_hours: Annotated[
        float, typer.Option(help="detector wall-time budget in hours (0 = by epochs)")
    ] = 0.0,
    cls_hours: Annotated[
        float, typer.Option(help="classifier wall-time budget in hours (0 = by epochs)")
    ] = 0.0,
    det_init: Annotated[
        Path | None, typer.Option(help="continue the detector from these .pt weights")
    ] = None,
    det_crop_scale: Annotated[
        float | None,
        typer.Option(
            help="the share of a picture the detector is shown, stamped in its ONNX as crop_scale "
            "(default: --det-imgsz over the median longer side of its training images)"
        ),
    ] = None,
    cls_init: Annotated[
        Path | None, typer.Option(help="continue the classifier from these .pt weights")
    ] = None,
    threads: Annotated[int, typer.Option(help="torch threads")] = 2,
    seed: Annotated[int, typer.Option(help="training seed")] = 0,
) -> None:
    """Train the two-stage card detector (CPU) and export ONNX into models/."""
    from vision.training import TrainConfig, train

    kw: dict[str, object] = dict(
        data=data,
        stages=[s.strip() for s in stages.split(",") if s.strip()],
        det_epochs=det_epochs,
        det_imgsz=det_imgsz,
        det_fraction=det_fraction,
        cls_epochs=cls_epochs,
        cls_imgsz=cls_imgsz,
        det_hours=det_hours,
        cls_hours=cls_hours,
        threads=threads,
        seed=seed,
        det_init=det_init,
        det_crop_scale=det_crop_scale,
        cls_init=cls_init,
    )
    if out is not None:
        kw["out"] = out
    result = train(TrainConfig.model_validate(kw))
    typer.echo(result.model_dump_json(indent=2))


def eval_detector(
    data: Annotated[Path, typer.Option(help="an export-training output folder (its val split is used)")],
    models: Annotated[Path | None, typer.Option(help="folder with the ONNX weights")] = None,
    conf: Annotated[float, typer.Option(help="minimum confidence")] = 0.3,
    cls_conf: Annotated[float, typer.Option(help="minimum classifier probability of a face")] = 0.3,
    out: Annotated[Path | None, typer.Option(help="write the metrics JSON here")] = None,
    limit: Annotated[int, typer.Option(help="at most this many images per set (0 = all)")] = 0,
    tile: Annotated[
        bool, typer.Option(help="read images larger than the model in tiles, as the pipeline does")
    ] = True,
    second_look: Annotated[
        float, typer.Option(help="read indices less sure than this again, cut tighter and looser (0 = off)")
    ] = 0.0,
    narrow_look: Annotated[
        float,
        typer.Option(help="read indices less sure than this again, cut narrower across the index (0 = off)"),
    ] = 0.6,
    body_look: Annotated[
        float,
        typer.Option(
            help="weigh indices less sure than this by the card body below them (card zones; 0 = off)"
        ),
    ] = 0.7,
    pair_corners: Annotated[
        bool,
        typer.Option(help="read a card's two index corners as one where both are in view (card zones)"),
    ] = True,
    one_deck: Annotated[
        bool,
        typer.Option(help="read two cards of a spread named as one face knowing one deck holds it once"),
    ] = True,
    floor: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=1.0,
            help="count only reads at least this sure (0: every read; the camera pipeline names a card "
            "from 0.4 up: PipelineConfig.min_confidence)",
        ),
    ] = 0.0,
) -> None:
    """Per-card precision and recall on the held-out decks (validation images never trained on)."""
    from vision.detector import load_detector
    from vision.training import evaluate, format_report

    det = load_detector(
        models,
        conf=conf,
        tile=tile,
        cls_conf=cls_conf,
        second_look=second_look,
        narrow_look=narrow_look,
        body_look=body_look,
        pair_corners=pair_corners,
        one_deck=one_deck,
    )
    report = evaluate(det, data, limit=limit, floor=floor)
    typer.echo(format_report(report))
    if out is not None:
        out.write_text(report.model_dump_json(indent=2))


def export_table_training(
    out: Annotated[Path, typer.Option(help="output folder (created)")],
    clips: Annotated[int, typer.Option(help="rendered rounds from the training decks")] = 160,
    val_clips: Annotated[int, typer.Option(help="rendered rounds from the held-out decks")] = 20,
    frames: Annotated[int, typer.Option(help="frames drawn per round")] = 24,
    seed: Annotated[int, typer.Option(help="random seed; the same seed gives the same files")] = 12,
    workers: Annotated[int, typer.Option(help="rendering processes")] = 2,
    val_decks: Annotated[
        str | None,
        typer.Option(help="held-out decks of the val rounds, NAME[,NAME] (default: VALIDATION_DECKS)"),
    ] = None,
    synthetic_jokers: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=1.0,
            help="share of training rounds whose Joker is a synthetic face (render/synth_joker.py)",
        ),
    ] = 0.0,
    train_zones: Annotated[
        bool,
        typer.Option(help="also write the training rounds' whole zone crops (the card body model's data)"),
    ] = False,
    image_size: Annotated[
        str | None,
        typer.Option(help="camera resolution WIDTHxHEIGHT of every round (default: drawn per round)"),
    ] = None,
) -> None:
    """Write detector training data cut from rendered table frames exactly as the pipeline cuts zones."""
    from render.zone_data import export_zone_training, parse_val_decks

    try:
        val = parse_val_decks(val_decks)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--val-decks") from None
    size: tuple[int, int] | None = None
    if image_size is not None:
        w, _, h = image_size.lower().partition("x")
        if not (w.isdigit() and h.isdigit() and int(w) >= 64 and int(h) >= 64):
            raise typer.BadParameter(
                f"{image_size!r}: expected WIDTHxHEIGHT in pixels, e.g. 1280x720", param_hint="--image-size"
            )
        size = (int(w), int(h))
    totals = export_zone_training(
        out,
        clips,
        val_clips,
        seed,
        frames,
        workers,
        val_decks=val,
        synthetic_jokers=synthetic_jokers,
        train_zones=train_zones,
        image_size=size,
    )
    for split, t in totals.items():
        typer.echo(f"{split}: {vars(t)}")


def export_synthetic_indices(
    out: Annotated[Path, typer.Option(help="output folder (created): an ImageFolder c00..c51")],
    per_class: Annotated[int, typer.Option(help="crops drawn per card")] = 600,
    seed: Annotated[int, typer.Option(help="random seed; the same seed and fonts give the same files")] = 1,
    style: Annotated[
        int,
        typer.Option(
            min=1,
            max=2,
            help="1: the index on a plain corner; 2: also ranks at the card's edge, pips or pictures "
            "beside the index, tighter 10s",
        ),
    ] = 1,
    camera: Annotated[
        str,
        typer.Option(
            help="the camera the crops look as if from: fine (a 1080p view of the table, the index "
            "24-42 px across) or coarse (a 720p view: 16-26 px, blurred as such a camera's crops are)"
        ),
    ] = "fine",
) -> None:
    """Write classifier crops of card indices drawn in every installed font (fonts no deck has)."""
    from render.synth_index import index_fonts, write_synthetic_indices

    fonts = index_fonts()
    try:
        counts = write_synthetic_indices(
            out, per_class=per_class, seed=seed, fonts=fonts, style=style, camera=camera
        )
    except (FileNotFoundError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    typer.echo(f"{out}: {sum(counts.values())} crops, {len(counts)} classes, {len(fonts)} fonts")


def register(app: typer.Typer) -> None:
    """Add the detector's commands to the main app."""
    app.command("detect")(detect)
    app.command("eval-photos")(eval_photos)
    app.command("export-training")(export_training)
    app.command("export-table-training")(export_table_training)
    app.command("export-synthetic-indices")(export_synthetic_indices)
    app.command("train-detector")(train_detector)
    app.command("eval-detector")(eval_detector)


if __name__ == "__main__":  # python -m vision._cli_detector ... (the same commands, standalone)
    _app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(_app)
    _app()
