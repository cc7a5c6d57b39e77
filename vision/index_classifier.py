"""Experimental stage-2 card-index classifier: a small plain-PyTorch CNN trained on CPU.

Same task as the ultralytics classifier behind ``models/card_cls.onnx``: a square crop around one
card index (rank + suit in a card's corner) -> one of 54 classes, folder names ``c00``..``c53``
(``c00``..``c51`` card codes as in ``rules/cards.py``, ``c52`` the Joker, ``c53`` "not an index").

The data is an ImageFolder export (``<dir>/cNN/*.png``, 40x40 crops made like
``vision.detector.crop_square`` makes them). All crops are loaded once into one uint8 tensor;
augmentation runs batched in torch on the fly (rotation +-15 deg and 180 deg turns, scale and
shift jitter, colour jitter, blur, noise, down-up resampling, random erasing, grey now and then).

The exported ONNX (input ``images``: float32 RGB in [0, 1], NCHW, dynamic batch, fixed HxW;
output: softmax probabilities, one row per crop) carries ultralytics-style ``names`` and ``imgsz``
metadata, so ``vision.detector.OnnxCardDetector`` loads it unchanged.

Run: ``python -m vision.index_classifier --train /tmp/det/data2/cls/train --val /tmp/det/data2/cls/val
--out /tmp/cnn/index_cls.onnx``. torch is imported inside functions: importing this module is cheap.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["NUM_CLASSES", "evaluate_onnx", "load_crops", "train_index_classifier"]

NUM_CLASSES = 54
_NOT_INDEX = 53
_CLASS_NAMES = [f"c{i:02d}" for i in range(NUM_CLASSES)]


def load_crops(dirs: Sequence[Path], imgsz: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All crops under ``dirs`` (ImageFolder layout, folders ``c00``..``c53``) as
    ``(uint8 RGB NCHW, int64 labels)``. With ``imgsz`` each crop is resized to it the way the
    detector does (``cv2.INTER_LINEAR``); without, crops keep their size (all must match)."""
    import cv2

    images: list[np.ndarray] = []
    labels: list[int] = []
    for root in dirs:
        if not root.is_dir():
            raise FileNotFoundError(f"{root}: crop folder missing")
        for sub in sorted(p for p in root.iterdir() if p.is_dir()):
            if sub.name not in _CLASS_NAMES:
                raise ValueError(f"{sub}: folder name must be one of c00..c53")
            label = int(sub.name[1:])
            for f in sorted(sub.glob("*.png")):
                bgr = cv2.imread(str(f), cv2.IMREAD_COLOR)
                if bgr is None:
                    raise ValueError(f"{f}: not a readable image")
                if imgsz is not None and bgr.shape[:2] != (imgsz, imgsz):
                    bgr = cv2.resize(bgr, (imgsz, imgsz), interpolation=cv2.INTER_LINEAR)
                images.append(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB).transpose(2, 0, 1))
                labels.append(label)
    if not images:
        raise ValueError(f"no crops found under {[str(d) for d in dirs]}")
    shapes = {im.shape for im in images}
    if len(shapes) != 1:
        raise ValueError(f"crops under {[str(d) for d in dirs]} differ in size: {sorted(shapes)}")
    return np.stack(images), np.asarray(labels, np.int64)


HEADS = ("joint", "factored")


def _factored_head(cin: int) -> Any:
    """Rank and suit read apart, their log-probabilities added into the 54 classes (``heads
    "factored"``): a face's log p is log p(rank) + log p(suit); the Joker and "not an index" are two
    more outcomes of the rank head. The output is a log-probability row (its softmax is itself), so
    the training loss and the exported softmax wrapper are unchanged. The idea: a held-out deck's
    rank glyph and suit pip are drawn apart, so a rank learnt under four suits and a suit learnt
    under thirteen ranks may carry to a new font better than 52 joint classes."""
    import torch
    from torch import nn

    class FactoredHead(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rank = nn.Linear(cin, 13 + 2)  # 2..A, then the Joker and "not an index"
            self.suit = nn.Linear(cin, 4)  # in card-code order: s, h, d, c (rules/cards.py)

        def forward(self, f: Any) -> Any:
            lr = torch.log_softmax(self.rank(f), dim=1)
            ls = torch.log_softmax(self.suit(f), dim=1)
            # card code = (rank - 2) * 4 + suit (rules.cards.Card.of)
            faces = (lr[:, :13, None] + ls[:, None, :]).reshape(-1, 52)
            return torch.cat([faces, lr[:, 13:]], dim=1)

    return FactoredHead()


def _build_model(width: int = 32, heads: str = "joint") -> Any:
    """conv-bn-relu blocks at widths w, 2w, 4w, 8w (max-pool between), global average pool,
    dropout, linear to 54 classes (``heads="joint"``) or rank and suit heads (``"factored"``)."""
    from torch import nn

    if heads not in HEADS:
        raise ValueError(f"heads must be one of {HEADS}, not {heads!r}")

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    w = width
    layers: list[nn.Module] = [
        *block(3, w),
        nn.MaxPool2d(2),
        *block(w, 2 * w),
        *block(2 * w, 2 * w),
        nn.MaxPool2d(2),
        *block(2 * w, 4 * w),
        *block(4 * w, 4 * w),
        nn.MaxPool2d(2),
        *block(4 * w, 8 * w),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(8 * w, NUM_CLASSES) if heads == "joint" else _factored_head(8 * w),
    ]
    return nn.Sequential(*layers)


def _init_from_onnx(model: Any, onnx_path: Path) -> None:
    """Start ``model`` from a classifier this module exported (``--init``): a fine-tune, not a run
    from scratch. The export folds each batch norm into its convolution (weight and bias), so each
    conv takes the folded weight and its batch norm starts as the identity plus the folded bias
    (mean 0, variance 1 - eps, scale 1): the same function as the ONNX until training moves it.
    The heads (joint or factored) keep their parameter names in the export (``m.<name>``), and
    must be the ones ``model`` has."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    inits = [(t.name, numpy_helper.to_array(t)) for t in onnx.load(str(onnx_path)).graph.initializer]
    named = {n.removeprefix("m."): a for n, a in inits if n.startswith("m.")}
    folded = [a for n, a in inits if not n.startswith("m.")]
    convs = [m for m in model if isinstance(m, nn.Conv2d)]
    norms = [m for m in model if isinstance(m, nn.BatchNorm2d)]
    head = {
        f"{name}.{kind}": getattr(linear, kind)
        for name, linear in model.named_modules()
        if isinstance(linear, nn.Linear)
        for kind in ("weight", "bias")
    }
    weights = [a for a in folded if a.ndim == 4]
    biases = [a for a in folded if a.ndim == 1]
    shapes = [tuple(c.weight.shape) for c in convs]
    if (
        [a.shape for a in weights] != shapes
        or len(biases) != len(convs)
        or {k: tuple(v.shape) for k, v in head.items()} != {k: a.shape for k, a in named.items()}
    ):
        raise ValueError(
            f"{onnx_path}: not a classifier of this shape (convolutions {shapes}, heads "
            f"{sorted(head)}; the file has heads {sorted(named)})"
        )
    with torch.no_grad():
        for conv, bn, w, b in zip(convs, norms, weights, biases, strict=True):
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(np.array(b)))
            bn.reset_running_stats()  # mean 0, variance 1
            if bn.running_var is not None:
                bn.running_var.fill_(1.0 - bn.eps)  # so that variance + eps is exactly 1
        for k, v in head.items():
            v.copy_(torch.from_numpy(np.array(named[k])))


def _augment(x_u8: Any, imgsz: int, gen: Any, aspect: float = 0.0) -> Any:
    """One augmented float batch in [0, 1], shape (B, 3, imgsz, imgsz), from uint8 crops.

    ``aspect`` > 0 also squeezes or stretches each crop across by a factor up to ``1 + aspect`` either
    way (log-uniform): fonts differ in width as well as in size (a condensed serif "3" is the width of
    a "J")."""
    import torch
    import torch.nn.functional as F

    b = x_u8.shape[0]
    x = x_u8.float() / 255.0

    def u(lo: float, hi: float, n: int = b) -> Any:
        return torch.rand(n, generator=gen) * (hi - lo) + lo

    # geometry: rotation (+-15 deg, half the time turned 180 deg), scale, shift; one resample
    ang = u(-15.0, 15.0) * math.pi / 180 + (torch.rand(b, generator=gen) < 0.5).float() * math.pi
    scale = torch.exp(u(math.log(0.85), math.log(1.18)))  # > 1 zooms out
    tx, ty = u(-0.12, 0.12), u(-0.12, 0.12)
    cos, sin = torch.cos(ang) * scale, torch.sin(ang) * scale
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    if aspect > 0:  # > 1 samples wider: the glyph comes out narrower
        theta[:, :, 0] *= torch.exp(u(-math.log1p(aspect), math.log1p(aspect))).view(b, 1)
    grid = F.affine_grid(theta, [b, 3, imgsz, imgsz], align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)

    # down-up resampling (a low-resolution / compressed look)
    m = torch.rand(b, generator=gen) < 0.3
    if m.any():
        s = int(torch.randint(max(8, imgsz // 3), imgsz - 4, (1,), generator=gen))
        small = F.interpolate(x[m], size=(s, s), mode="bilinear", align_corners=False, antialias=True)
        x[m] = F.interpolate(small, size=(imgsz, imgsz), mode="bilinear", align_corners=False)

    # blur: 3x3 gaussian of random strength
    m = torch.rand(b, generator=gen) < 0.25
    if m.any():
        sig = float(u(0.5, 1.1, 1))
        k1 = torch.exp(-(torch.tensor([-1.0, 0.0, 1.0]) ** 2) / (2 * sig * sig))
        k1 = k1 / k1.sum()
        k = (k1[:, None] * k1[None, :]).expand(3, 1, 3, 3).contiguous()
        x[m] = F.conv2d(F.pad(x[m], (1, 1, 1, 1), mode="replicate"), k, groups=3)

    # colour: brightness, contrast, saturation, per-channel gain; grey now and then
    grey = (0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2]).unsqueeze(1)
    sat = u(0.6, 1.4).view(b, 1, 1, 1)
    x = grey + (x - grey) * sat
    x = x * u(0.85, 1.15, b * 3).view(b, 3, 1, 1)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * u(0.6, 1.4).view(b, 1, 1, 1) + mean
    x = x * u(0.6, 1.35).view(b, 1, 1, 1) + u(-0.1, 0.1).view(b, 1, 1, 1)
    g = torch.rand(b, generator=gen) < 0.05
    if g.any():
        x[g] = (0.299 * x[g, 0] + 0.587 * x[g, 1] + 0.114 * x[g, 2]).unsqueeze(1).expand(-1, 3, -1, -1)

    # noise
    x = x + torch.randn(x.shape, generator=gen) * u(0.0, 0.05).view(b, 1, 1, 1)

    # random erasing: one rectangle of up to ~1/4 of the side, grey-ish fill
    m = torch.rand(b, generator=gen) < 0.25
    if m.any():
        idx = torch.nonzero(m).flatten()
        eh = torch.randint(2, max(3, imgsz // 4), (len(idx),), generator=gen)
        ew = torch.randint(2, max(3, imgsz // 4), (len(idx),), generator=gen)
        ys = torch.randint(0, imgsz, (len(idx),), generator=gen)
        xs = torch.randint(0, imgsz, (len(idx),), generator=gen)
        fill = torch.rand(len(idx), generator=gen)
        for n, i in enumerate(idx.tolist()):
            y0, x0 = int(ys[n]), int(xs[n])
            x[i, :, y0 : y0 + int(eh[n]), x0 : x0 + int(ew[n])] = fill[n]
    return x.clamp_(0.0, 1.0)


def _one_cycle(progress: float, peak: float, warm: float = 0.2) -> float:
    """Learning rate at ``progress`` in [0, 1]: cosine warm-up from peak/25 to peak over the first
    ``warm``, then cosine annealing to peak/1000."""
    if progress < warm:
        return peak / 25 + (peak - peak / 25) * (1 - math.cos(math.pi * progress / warm)) / 2
    q = (progress - warm) / (1 - warm)
    return peak / 1000 + (peak - peak / 1000) * (1 + math.cos(math.pi * min(q, 1.0))) / 2


def _predict(model: Any, x_u8: Any, batch: int = 1024) -> np.ndarray:
    import torch

    model.eval()
    out: list[np.ndarray] = []
    with torch.inference_mode():
        for i in range(0, len(x_u8), batch):
            out.append(model(x_u8[i : i + batch].float() / 255.0).argmax(1).numpy())
    return np.concatenate(out)


def _scores(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    idx = y != _NOT_INDEX
    return {
        "top1": float((pred == y).mean()),
        "top1_excl_not_index": float((pred[idx] == y[idx]).mean()) if idx.any() else float("nan"),
    }


class _WithSoftmax:
    """Factory for the exported wrapper (torch imported lazily)."""

    @staticmethod
    def wrap(model: Any) -> Any:
        import torch

        class Wrapped(torch.nn.Module):
            def __init__(self, m: Any) -> None:
                super().__init__()
                self.m = m

            def forward(self, x: Any) -> Any:
                return torch.softmax(self.m(x), dim=1)

        return Wrapped(model).eval()


def _export_onnx(model: Any, imgsz: int, out_onnx: Path, extra_meta: dict[str, str]) -> None:
    import onnx
    import torch

    out_onnx.parent.mkdir(parents=True, exist_ok=True)
    wrapped = _WithSoftmax.wrap(model)
    dummy = torch.zeros(1, 3, imgsz, imgsz)
    torch.onnx.export(
        wrapped,
        (dummy,),
        str(out_onnx),
        input_names=["images"],
        output_names=["output0"],
        dynamic_axes={"images": {0: "batch"}, "output0": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    m = onnx.load(str(out_onnx))
    meta = {
        "names": str(dict(enumerate(_CLASS_NAMES))),
        "imgsz": str([imgsz, imgsz]),
        "task": "classify",
        "description": "vision.index_classifier small CNN (card-index crop classifier)",
        **extra_meta,
    }
    del m.metadata_props[:]
    for k, v in meta.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.checker.check_model(m)
    onnx.save(m, str(out_onnx))


def evaluate_onnx(onnx_path: Path, val_dir: Path, *, threads: int = 1) -> dict[str, float]:
    """Held-out top-1 of a classifier ONNX on ``val_dir`` crops, fed as ``OnnxCardDetector`` feeds
    it (crop resized to the model's size with INTER_LINEAR, RGB, /255, NCHW), plus ms per crop
    on ``threads`` threads (batch 1)."""
    import onnxruntime as ort

    from vision.detector import _class_names, _meta_imgsz

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    sess = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    inp = sess.get_inputs()[0]
    size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else _meta_imgsz(sess)
    names = _class_names(sess)
    x_u8, y = load_crops([val_dir], imgsz=size)
    x = x_u8.astype(np.float32) / 255.0
    if isinstance(inp.shape[0], int):
        probs = np.concatenate([sess.run(None, {inp.name: x[i : i + 1]})[0] for i in range(len(x))])
    else:
        probs = np.concatenate([sess.run(None, {inp.name: x[i : i + 256]})[0] for i in range(0, len(x), 256)])
    pred = names[np.asarray(probs).argmax(1)]
    n_time = min(300, len(x))
    sess.run(None, {inp.name: x[:1]})
    t0 = time.perf_counter()
    for i in range(n_time):
        sess.run(None, {inp.name: x[i : i + 1]})
    ms = (time.perf_counter() - t0) / n_time * 1000
    return {**_scores(pred, y), "ms_per_crop_batch1": ms, "imgsz": float(size), "n": float(len(y))}


def _checkpoint(model: Any, imgsz: int, out_onnx: Path, extra_meta: dict[str, str]) -> None:
    """Export ``model`` as it is now to ``out_onnx`` by way of a temporary file, so the file on
    disk is always a whole export (the previous best or this one), never half of one."""
    tmp = out_onnx.with_name(out_onnx.name + ".part")
    _export_onnx(model, imgsz, tmp, {**extra_meta, "checkpoint": "best epoch so far"})
    os.replace(tmp, out_onnx)


def train_index_classifier(
    train_dirs: Sequence[Path],
    val_dir: Path,
    out_onnx: Path,
    *,
    epochs: int = 12,
    imgsz: int = 32,
    seed: int = 0,
    minutes: float = 10.0,
    width: int = 32,
    batch: int = 256,
    lr: float = 3e-3,
    threads: int = 1,
    aspect: float = 0.0,
    init: Path | None = None,
    heads: str = "joint",
) -> dict[str, Any]:
    """Train the CNN on ``train_dirs`` crops, score held-out top-1 on ``val_dir`` each epoch,
    export the best epoch to ``out_onnx`` (softmax included). The one-cycle learning-rate schedule
    runs on ``epochs`` or ``minutes`` of training, whichever is used up first.
    ``init``: start from this exported classifier (a fine-tune; give it a lower ``lr``). Its batch
    norms then stay frozen (running statistics, not the batch's): they start as the identity that
    the export folded them into, and normalising by each batch's statistics instead would change
    the function the first step (a first try lost 3 points of held-out top-1 in its first epoch).
    Returns the metrics (also written next to the ONNX)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    t_load = time.perf_counter()
    xtr_np, ytr_np = load_crops(list(train_dirs))
    xva_np, yva_np = load_crops([val_dir], imgsz=imgsz)
    xtr, ytr = torch.from_numpy(xtr_np), torch.from_numpy(ytr_np)
    xva = torch.from_numpy(xva_np)
    load_s = time.perf_counter() - t_load
    print(f"loaded {len(ytr)} train / {len(yva_np)} val crops in {load_s:.1f}s", flush=True)

    model = _build_model(width, heads)
    if init is not None:
        _init_from_onnx(model, init)
        start = _scores(_predict(model, xva), yva_np)["top1"]
        print(f"started from {init}: held-out top-1 {start:.4f}", flush=True)
    n_params = sum(p.numel() for p in model.parameters())
    steps_per_epoch = math.ceil(len(ytr) / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    # class balance: "not an index" is about a third of the crops; weight faces up a little
    counts = torch.bincount(ytr, minlength=NUM_CLASSES).float().clamp(min=1)
    cw = (counts.mean() / counts).clamp(0.5, 3.0).sqrt()
    history: list[dict[str, float]] = []
    best: dict[str, Any] = {"top1": -1.0}
    best_state: dict[str, Any] = {}
    total_steps, budget_s, step = epochs * steps_per_epoch, minutes * 60.0, 0
    t_train = time.perf_counter()
    for ep in range(epochs):
        t0 = time.perf_counter()
        model.train()
        if init is not None:
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        perm = torch.randperm(len(ytr), generator=gen)
        tot_loss, n_seen = 0.0, 0
        for s in range(steps_per_epoch):
            # one-cycle driven by whichever runs out first, the steps or the time budget, so the
            # rate is annealed at the end even on a busy CPU
            progress = max(step / total_steps, (time.perf_counter() - t_train) / budget_s)
            if progress >= 1.0:
                break
            for group in opt.param_groups:
                group["lr"] = _one_cycle(progress, lr)
            step += 1
            idx = perm[s * batch : (s + 1) * batch]
            xb = _augment(xtr[idx], imgsz, gen, aspect)
            yb = ytr[idx]
            loss = F.cross_entropy(model(xb), yb, weight=cw, label_smoothing=0.1)
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            tot_loss += float(loss.detach()) * len(idx)
            n_seen += len(idx)
        train_s = time.perf_counter() - t0
        sc = _scores(_predict(model, xva), yva_np)
        rec = {
            "epoch": float(ep + 1),
            "steps": float(step),
            "loss": tot_loss / max(n_seen, 1),
            "epoch_s": train_s,
            **sc,
        }
        history.append(rec)
        print(json.dumps({k: round(v, 4) for k, v in rec.items()}), flush=True)
        if sc["top1"] > best["top1"]:
            best = {**rec}
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            # keep the best epoch so far on disk: a run cut short (a machine restarted cut the
            # tenth session's 42-minute run after 9 epochs, nothing saved) still leaves a model
            # (the next epoch puts the model back in training mode)
            _checkpoint(
                model, imgsz, out_onnx, {"best_epoch": str(ep + 1), "seed": str(seed), "heads": heads}
            )
        if step >= total_steps or time.perf_counter() - t_train >= budget_s:
            print(f"schedule done after {step} steps, epoch {ep + 1}", flush=True)
            break
    wall = time.perf_counter() - t_train
    model.load_state_dict(best_state)
    model.eval()
    torch_pred = _predict(model, xva)
    _export_onnx(
        model, imgsz, out_onnx, {"best_epoch": str(int(best["epoch"])), "seed": str(seed), "heads": heads}
    )
    onnx_scores = evaluate_onnx(out_onnx, val_dir)
    metrics: dict[str, Any] = {
        "train_dirs": [str(d) for d in train_dirs],
        "val_dir": str(val_dir),
        "onnx": str(out_onnx),
        "onnx_bytes": out_onnx.stat().st_size,
        "imgsz": imgsz,
        "width": width,
        "heads": heads,
        "aspect_jitter": aspect,
        "init": str(init) if init is not None else None,
        "params": n_params,
        "seed": seed,
        "epochs_planned": epochs,
        "epochs_run": len(history),
        "train_crops": len(ytr),
        "val_crops": len(yva_np),
        "load_s": load_s,
        "train_wall_s": wall,
        "best": best,
        "torch_best": _scores(torch_pred, yva_np),
        "onnx_eval": onnx_scores,
        "history": history,
    }
    out_onnx.with_suffix(".json").write_text(json.dumps(metrics, indent=2))
    return metrics


def _main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Train the small CNN card-index classifier (CPU).")
    ap.add_argument("--train", type=Path, nargs="+", required=True, help="ImageFolder crop dirs")
    ap.add_argument("--val", type=Path, required=True, help="held-out ImageFolder crop dir")
    ap.add_argument("--out", type=Path, required=True, help="output ONNX path")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--imgsz", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=10.0, help="training time budget")
    ap.add_argument("--width", type=int, default=32, help="channels of the first block")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--aspect-jitter", type=float, default=0.0, help="squeeze/stretch crops across by up to 1+this"
    )
    ap.add_argument("--init", type=Path, help="fine-tune from this exported classifier ONNX")
    ap.add_argument(
        "--heads", choices=HEADS, default="joint", help="54 joint classes, or rank and suit read apart"
    )
    ap.add_argument("--eval-only", action="store_true", help="only score --out on --val")
    a = ap.parse_args(argv)
    if a.eval_only:
        print(json.dumps(evaluate_onnx(a.out, a.val, threads=a.threads), indent=2))
        return
    m = train_index_classifier(
        a.train,
        a.val,
        a.out,
        epochs=a.epochs,
        imgsz=a.imgsz,
        seed=a.seed,
        minutes=a.minutes,
        width=a.width,
        batch=a.batch,
        lr=a.lr,
        threads=a.threads,
        aspect=a.aspect_jitter,
        init=a.init,
        heads=a.heads,
    )
    print(json.dumps({k: v for k, v in m.items() if k != "history"}, indent=2))


if __name__ == "__main__":
    _main()
