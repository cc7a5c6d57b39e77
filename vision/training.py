"""The card detector's training recipe, exactly as it was run (``paigow-monitor train-detector``).

Two stages, both ultralytics YOLO11 models built from the yaml files in ``models/`` (no pretrained
weights exist here; nothing is downloaded):

1. ``models/card_det.yaml``: a narrowed YOLO11 detector with 2 classes (card index, card back),
   trained on the scenes of ``render.training.export_training`` (``det/``);
2. ``models/card_cls.yaml``: a YOLO11 classifier with 54 classes (52 faces, Joker, not-an-index),
   trained on the index crops of the same export (``cls/``).

Both are exported to ONNX for ``vision.detector.OnnxCardDetector``; the recipe and wall times are
written to ``models/detector_recipe.json``. Torch and ultralytics are imported only inside
:func:`train`, so the runtime never needs them.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ClassScore", "EvalReport", "TrainConfig", "TrainResult", "evaluate", "format_report", "train"]

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


class TrainConfig(BaseModel):
    """Everything that decides the trained weights (besides the exported data itself)."""

    model_config = ConfigDict(extra="forbid")

    data: Path = Field(description="an export-training output folder (has det/ and cls/)")
    out: Path = Field(default=MODELS_DIR, description="where the weights and the recipe go")
    stages: list[str] = Field(default_factory=lambda: ["det", "cls"])
    det_model: str = "card_det.yaml"
    det_init: Path | None = None  # continue from these weights (an earlier run of this recipe)
    det_epochs: int = 12
    det_imgsz: int = 256
    det_batch: int = 16
    det_fraction: float = 1.0  # share of the training images used per epoch (ultralytics fraction)
    det_hours: float = 0.0  # > 0: a wall-time budget; ultralytics then fits the epochs to it
    # the share of a picture stage 1 is shown (its ONNX's ``crop_scale``); None: ``det_imgsz`` over the
    # size its training images show (``_tile_size``)
    det_crop_scale: float | None = Field(default=None, gt=0)
    cls_model: str = "card_cls.yaml"
    cls_init: Path | None = None
    cls_epochs: int = 8
    cls_imgsz: int = 32
    cls_batch: int = 64
    cls_hours: float = 0.0
    cls_lr0: float = 0.002  # AdamW; ultralytics' "auto" would pick 0.00017 for 54 classes: far too slow here
    seed: int = 0
    threads: int = 2
    workers: int = 0
    runs_dir: Path = Path("/tmp/paigow-detector-runs")


class TrainResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    config: dict[str, Any]
    stage_seconds: dict[str, float]
    metrics: dict[str, dict[str, float]]
    files: list[str]


def _quiet_ultralytics(runs_dir: Path) -> None:
    cfg_dir = runs_dir / "ultralytics-config"
    cfg_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg_dir)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics.utils import SETTINGS as settings

    wanted = {
        "sync": False,
        "wandb": False,
        "mlflow": False,
        "tensorboard": False,
        "clearml": False,
        "comet": False,
        "dvc": False,
        "raytune": False,
        "vscode_msg": False,
        "openvino_msg": False,
        "runs_dir": str(runs_dir),
        "weights_dir": str(runs_dir / "weights"),
        "datasets_dir": str(runs_dir / "datasets"),
    }
    settings.update({k: v for k, v in wanted.items() if k in settings})  # type: ignore[no-untyped-call]


def _yaml(out: Path, name: str) -> str:
    p = Path(name)
    if p.exists():
        return str(p)
    q = out / name
    if q.exists():
        return str(q)
    q = MODELS_DIR / name
    if not q.exists():
        raise FileNotFoundError(f"model yaml {name!r} not found in {out} or {MODELS_DIR}")
    return str(q)


def _metrics(results: Any) -> dict[str, float]:
    rd = getattr(results, "results_dict", None)
    if not isinstance(rd, dict):
        return {}
    return {str(k): float(v) for k, v in rd.items()}


_TASKS = {"det": "detect", "cls": "classify"}


def _train_stage(
    yolo: Any,
    cfg: TrainConfig,
    stage: str,
    data: Path,
    model: str,
    init: Path | None,
    epochs: int,
    imgsz: int,
    batch: int,
    hours: float,
    recipe: dict[str, Any],
) -> tuple[float, dict[str, float]]:
    """One stage ("det" or "cls"): train, copy ``best.pt`` to ``cfg.out/card_<stage>.pt`` and its ONNX
    export to ``card_<stage>.onnx``; its training seconds and final metrics.

    ``recipe`` is the stage's whole ultralytics keyword set (the shared one plus the stage's own). The
    classifier's ONNX takes any batch (``dynamic``); the detector's runs one image at a time.
    """
    t0 = time.monotonic()
    net = yolo(_yaml(cfg.out, model), task=_TASKS[stage])
    res = net.train(
        data=str(data),
        epochs=epochs,
        imgsz=imgsz,
        batch=batch,
        name=stage,
        # weights to start from: none (pretrained=False), or our own earlier run's (never downloaded ones)
        pretrained=str(init) if init else False,
        **({"time": hours} if hours > 0 else {}),
        **recipe,
    )
    seconds = time.monotonic() - t0
    best = cfg.runs_dir / stage / "weights" / "best.pt"
    shutil.copy(best, cfg.out / f"card_{stage}.pt")
    onnx = yolo(str(best)).export(
        format="onnx", imgsz=imgsz, dynamic=stage == "cls", simplify=True, opset=17, device="cpu"
    )
    shutil.copy(onnx, cfg.out / f"card_{stage}.onnx")
    if stage == "det":
        if cfg.det_crop_scale is not None:
            stamp_crop_scale(cfg.out / "card_det.onnx", cfg.det_crop_scale)
        elif (tile := _tile_size(data)) is not None and tile != imgsz:  # shrunk to the model's input
            stamp_crop_scale(cfg.out / "card_det.onnx", imgsz / tile)
    return seconds, _metrics(res)


def _tile_size(data_yaml: Path) -> int | None:
    """The size the detector data's training images show cards at: the median of their longer sides
    (``export-table-training`` cuts square tiles at the scale the pipeline reads cards, all of one
    size; ``export-training``'s scenes are drawn 0.75-1.25 times ``--size`` on each side, so the
    first one alone says little: the first file's size, read before the thirty-first session, gave
    det 11 ``crop_scale`` 0.889 and det 12 0.76 from two exports of ``--size 288``, whose longer
    sides' median is 320, so 0.8); None when there is none to look at. The images' headers alone
    are read."""
    import yaml
    from PIL import Image

    spec = yaml.safe_load(data_yaml.read_text())
    root = Path(spec.get("path") or data_yaml.parent)
    train = spec.get("train")
    sides = []
    for folder in [train] if isinstance(train, str) else list(train or []):
        d = Path(folder) if Path(folder).is_absolute() else root / folder
        for img in sorted(d.glob("*.jpg")) + sorted(d.glob("*.png")):
            try:
                with Image.open(img) as picture:
                    sides.append(max(picture.size))
            except OSError:
                continue  # not a picture: ultralytics skips it too
    return sorted(sides)[len(sides) // 2] if sides else None


def stamp_crop_scale(onnx_path: Path, scale: float) -> None:
    """Record in a stage-1 ONNX the share of the classifier's picture it looks at (``crop_scale``):
    trained at ``--det-imgsz 128`` on 256-px tiles, it finds indices in crops shrunk by half, and
    ``vision.detector.OnnxCardDetector`` shrinks them so before running it."""
    import onnx

    if not scale > 0:
        raise ValueError(f"crop scale must be > 0, but got {scale}")
    model = onnx.load(str(onnx_path))
    kept = [p for p in model.metadata_props if p.key != "crop_scale"]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    entry = model.metadata_props.add()
    entry.key, entry.value = "crop_scale", f"{scale:g}"
    onnx.save(model, str(onnx_path))


def train(cfg: TrainConfig) -> TrainResult:
    """Train the requested stages, export ONNX, copy weights into ``cfg.out``."""
    det_data = cfg.data / "det" / "data.yaml"
    cls_data = cfg.data / "cls"
    if "det" in cfg.stages and not det_data.exists():
        raise FileNotFoundError(f"{det_data}: not an export-training folder (run export-training first)")
    if "cls" in cfg.stages and not (cls_data / "train").is_dir():
        raise FileNotFoundError(f"{cls_data / 'train'}: not an export-training folder")
    _quiet_ultralytics(cfg.runs_dir)
    import torch
    from ultralytics.models import YOLO

    torch.set_num_threads(cfg.threads)
    cfg.out.mkdir(parents=True, exist_ok=True)
    common: dict[str, Any] = dict(
        device="cpu",
        amp=False,
        plots=False,
        workers=cfg.workers,
        seed=cfg.seed,
        deterministic=True,
        project=str(cfg.runs_dir),
        exist_ok=True,
        verbose=False,
        val=False,
        hsv_h=0.02,
        hsv_s=0.5,
        hsv_v=0.3,
        patience=100,
    )
    seconds: dict[str, float] = {}
    metrics: dict[str, dict[str, float]] = {}
    files: list[str] = []
    if "det" in cfg.stages:
        seconds["det_train"], metrics["det"] = _train_stage(
            YOLO,
            cfg,
            "det",
            det_data,
            cfg.det_model,
            cfg.det_init,
            cfg.det_epochs,
            cfg.det_imgsz,
            cfg.det_batch,
            cfg.det_hours,
            dict(
                common,
                fraction=cfg.det_fraction,
                mosaic=0.0,
                close_mosaic=0,
                degrees=0.0,
                fliplr=0.5,
                scale=0.3,
                translate=0.1,
                warmup_epochs=1.0,
                cos_lr=False,
            ),
        )
        files += ["card_det.pt", "card_det.onnx"]
    if "cls" in cfg.stages:
        seconds["cls_train"], metrics["cls"] = _train_stage(
            YOLO,
            cfg,
            "cls",
            cls_data,
            cfg.cls_model,
            cfg.cls_init,
            cfg.cls_epochs,
            cfg.cls_imgsz,
            cfg.cls_batch,
            cfg.cls_hours,
            dict(
                common,
                optimizer="AdamW",
                lr0=cfg.cls_lr0,
                fliplr=0.0,
                auto_augment=None,  # the export already varies light, blur, noise and angle
                cache="ram",
                scale=0.1,
                erasing=0.1,
                warmup_epochs=0.5,
            ),
        )
        files += ["card_cls.pt", "card_cls.onnx"]
    result = TrainResult(
        config=json.loads(cfg.model_dump_json()), stage_seconds=seconds, metrics=metrics, files=files
    )
    recipe = cfg.out / "detector_recipe.json"
    previous: dict[str, Any] = json.loads(recipe.read_text()) if recipe.exists() else {}
    previous.update({f"stage_{s}": json.loads(result.model_dump_json()) for s in cfg.stages})
    recipe.write_text(json.dumps(previous, indent=2))
    return result


# ---------------------------------------------------------------------------------------------
# Evaluation on the held-out decks (no torch: runs the shipped ONNX detector)


class ClassScore(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: str
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float


class EvalReport(BaseModel):
    """``eval-detector``'s result: per-card precision/recall over held-out-deck images."""

    model_config = ConfigDict(extra="forbid")

    data: str
    decks: list[str]
    images: int
    conf: float
    floor: float = 0.0  # reads counted from this confidence up (``evaluate``)
    faces_precision: float
    faces_recall: float
    backs_precision: float
    backs_recall: float
    per_set: dict[str, dict[str, float]]
    per_card: list[ClassScore]
    ms_per_call: float


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else float("nan")


def _match_image(found: Any, scene: Any) -> dict[str, Any]:
    """Count TP/FP/FN per class for one image. A face detection is right when the card is in the
    image, labelled, and the detection's centre lies on that card; a back when it overlaps a
    labelled back's visible box (IoU >= 0.3). Detections of a card that lies in the image but is
    too covered to be labelled are neither right nor wrong."""
    import numpy as np

    tp: dict[int, int] = {}
    fp: dict[int, int] = {}
    fn: dict[int, int] = {}
    gt_faces: dict[int, tuple[float, float, float, float]] = {}
    for o in scene.objects:
        if o.kind == "index":
            gt_faces[o.card] = o.card_xyxy
    matched: set[int] = set()
    backs_gt = [o.xyxy for o in scene.objects if o.kind == "back"]
    back_used = [False] * len(backs_gt)
    order = np.argsort(-found.confidence, kind="stable")
    for i in order:
        c = int(found.class_id[i])
        box = found.xyxy[i]
        if c == 53:
            best, bj = 0.0, -1
            for j, g in enumerate(backs_gt):
                if back_used[j]:
                    continue
                v = _iou(box, g)
                if v > best:
                    best, bj = v, j
            if bj >= 0 and best >= 0.3:
                back_used[bj] = True
                tp[c] = tp.get(c, 0) + 1
            else:
                fp[c] = fp.get(c, 0) + 1
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        g = gt_faces.get(c)
        if g is not None and c not in matched:
            mx, my = 0.1 * (g[2] - g[0]), 0.1 * (g[3] - g[1])
            if g[0] - mx <= cx <= g[2] + mx and g[1] - my <= cy <= g[3] + my:
                matched.add(c)
                tp[c] = tp.get(c, 0) + 1
                continue
        if c in scene.present and c not in gt_faces:
            continue  # a card too covered to be labelled: not counted
        fp[c] = fp.get(c, 0) + 1
    for c in gt_faces:
        if c not in matched:
            fn[c] = fn.get(c, 0) + 1
    nb = sum(1 for u in back_used if not u)
    if nb:
        fn[53] = fn.get(53, 0) + nb
    return {"tp": tp, "fp": fp, "fn": fn}


def _iou(a: Any, b: Any) -> float:
    ix = max(0.0, min(float(a[2]), float(b[2])) - max(float(a[0]), float(b[0])))
    iy = max(0.0, min(float(a[3]), float(b[3])) - max(float(a[1]), float(b[1])))
    inter = ix * iy
    ua = (
        (float(a[2]) - float(a[0])) * (float(a[3]) - float(a[1]))
        + (float(b[2]) - float(b[0])) * (float(b[3]) - float(b[1]))
        - inter
    )
    return inter / ua if ua > 0 else 0.0


def _zone_card_scale(stem: str) -> float | None:
    """The scale a zone export's crop shows real cards at (``render.zone_data``): a card region is cut
    at the pipeline's card scale, and the i-Verify panel enlarged to it (at most ~5 % finer on the
    1440p views), as ``vision.pipeline.zone_card_scale`` reads them."""
    from vision.layout import IVerifySlots
    from vision.pipeline import CARD_PX_PER_MM, zone_card_scale

    kind = "iverify" if stem.endswith("_iverify") else "cards"
    return zone_card_scale(kind, CARD_PX_PER_MM, IVerifySlots())


def evaluate(detector: Any, data: Path, limit: int = 0, floor: float = 0.0) -> EvalReport:
    """Run ``detector`` over the held-out-deck images of an export (``det/images/val`` and
    ``zones/``) and score it per card. ``floor``: only reads at least this sure count (the camera
    pipeline names a card from 0.4 up, ``PipelineConfig.min_confidence``); 0 counts every read."""
    import cv2

    from render.training import Scene
    from vision.detections import CLASSES

    sets = {  # a table export (render.zone_data) has no per-tile truth: its zones/ are the test
        "val": sorted((data / "det" / "images" / "val").glob("*.jpg"))
        if (data / "det" / "truth" / "val").is_dir()
        else [],
        "zones": sorted((data / "zones").glob("*.jpg")),
    }
    if not any(sets.values()):
        raise FileNotFoundError(
            f"{data}: no det/images/val/*.jpg with det/truth/val/ nor zones/*.jpg (run export-training)"
        )
    totals: dict[str, dict[int, int]] = {"tp": {}, "fp": {}, "fn": {}}
    per_set: dict[str, dict[str, float]] = {}
    decks: set[str] = set()
    n_img = 0
    elapsed = 0.0
    for name, paths in sets.items():
        if limit:
            paths = paths[:limit]
        st: dict[str, dict[int, int]] = {"tp": {}, "fp": {}, "fn": {}}
        for p in paths:
            truth = (
                (p.parent.parent.parent / "truth" / "val" / f"{p.stem}.json")
                if name == "val"
                else (p.with_suffix(".json"))
            )
            scene = Scene.model_validate_json(truth.read_text())
            decks.add(scene.deck)
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                raise FileNotFoundError(f"{p}: not a readable image")
            t0 = time.perf_counter()
            if name == "zones" and getattr(detector, "reads_card_bodies", False):
                # a zone cut as the pipeline cuts it, read as the pipeline reads it (the card bodies too)
                found = detector.detect_with_unread(img, card_px_per_mm=_zone_card_scale(p.stem))[0]
            else:
                found = detector.detect(img)
            elapsed += time.perf_counter() - t0
            if floor > 0.0:
                found = found[found.confidence >= floor]
            n_img += 1
            m = _match_image(found, scene)
            for k in ("tp", "fp", "fn"):
                for c, v in m[k].items():
                    st[k][c] = st[k].get(c, 0) + v
                    totals[k][c] = totals[k].get(c, 0) + v

        def _sums(d: dict[str, dict[int, int]], faces: bool) -> tuple[int, int, int]:
            def part(key: str) -> int:
                return sum(v for c, v in d[key].items() if (c != 53) == faces)

            return part("tp"), part("fp"), part("fn")

        ftp, ffp, ffn = _sums(st, True)
        btp, bfp, bfn = _sums(st, False)
        per_set[name] = {
            "images": float(len(paths)),
            "faces_precision": _ratio(ftp, ftp + ffp),
            "faces_recall": _ratio(ftp, ftp + ffn),
            "backs_precision": _ratio(btp, btp + bfp),
            "backs_recall": _ratio(btp, btp + bfn),
            "faces_tp": float(ftp),
            "faces_fp": float(ffp),
            "faces_fn": float(ffn),
        }
    per_card = []
    for c, label in enumerate(CLASSES):
        tp, fp, fn = totals["tp"].get(c, 0), totals["fp"].get(c, 0), totals["fn"].get(c, 0)
        per_card.append(
            ClassScore(
                card=label, tp=tp, fp=fp, fn=fn, precision=_ratio(tp, tp + fp), recall=_ratio(tp, tp + fn)
            )
        )
    ftp = sum(s.tp for s in per_card[:53])
    ffp = sum(s.fp for s in per_card[:53])
    ffn = sum(s.fn for s in per_card[:53])
    b = per_card[53]
    return EvalReport(
        data=str(data),
        decks=sorted(decks),
        images=n_img,
        conf=float(getattr(detector, "conf", 0)),
        floor=floor,
        faces_precision=_ratio(ftp, ftp + ffp),
        faces_recall=_ratio(ftp, ftp + ffn),
        backs_precision=b.precision,
        backs_recall=b.recall,
        per_set=per_set,
        per_card=per_card,
        ms_per_call=round(1000 * elapsed / max(n_img, 1), 2),
    )


def format_report(r: EvalReport) -> str:
    lines = [
        f"held-out decks: {', '.join(r.decks)}; {r.images} images; conf >= {r.conf}"
        + (f"; reads counted from {r.floor}" if r.floor else ""),
        f"faces: precision {r.faces_precision:.3f}  recall {r.faces_recall:.3f}",
        f"backs: precision {r.backs_precision:.3f}  recall {r.backs_recall:.3f}",
        f"ms per detect() call (this machine, as configured): {r.ms_per_call:.1f}",
    ]
    for name, ps in r.per_set.items():
        lines.append(
            f"  {name}: {int(ps['images'])} images, faces P {ps['faces_precision']:.3f} "
            f"R {ps['faces_recall']:.3f}, backs P {ps['backs_precision']:.3f} R {ps['backs_recall']:.3f}"
        )
    lines.append("card   tp   fp   fn  precision recall")
    for cs in r.per_card:
        lines.append(f"{cs.card:<5} {cs.tp:4d} {cs.fp:4d} {cs.fn:4d}  {cs.precision:9.3f} {cs.recall:6.3f}")
    return "\n".join(lines)
