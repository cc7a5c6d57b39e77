"""Training of the card body model (``models/card_body.onnx``, read by ``vision.card_body``).

Data: zone exports of ``paigow-monitor export-table-training`` (``zones/*.jpg`` with their cards in
``zones/*.json``): the training decks' rounds with ``--train-zones``, a held-out deck export for
validation. Every index of a card region's zone gives one window (``vision.card_body.body_window``,
cut from the index boxes of its zone, as the detector cuts it from the boxes stage 1 found; the
training boxes jittered by ~1 px): a top-left index is labelled with its card, a bottom-right one
"no card body" (its window looks off the card). The i-Verify panel's zones are left out: the
detector reads the panel's drawn cards with this model too (at their drawn width), but it was
trained on the felt's cards only.

Model: a small plain CNN (four conv stages, 24-128 channels, then a 256-unit layer) on 48x64 RGB
windows, 54 classes (``vision.card_body.NO_BODY`` = "no card body"); label smoothing 0.1, AdamW,
cosine schedule, augmented batches (brightness and colour cast, a narrower strip, a shift of up to
3 px, noise, blur). Trained for ``minutes`` of wall time on the CPU; the last epoch is exported
(ONNX, softmax included; input ``images`` float RGB in [0, 1], NCHW).

Run: ``python -m vision.body_classifier --train TZ --val D5 --out models/card_body.onnx --minutes 25``
(the model card records the run). torch is imported inside functions: importing this is cheap.
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

from vision.card_body import NO_BODY, WINDOW_H, WINDOW_W, body_window

__all__ = ["train_body_classifier", "zone_windows"]

_PX_PER_MM = 1.6  # the zone exports' card scale (vision.pipeline.CARD_PX_PER_MM)


def zone_windows(
    data: Path, jitter: float = 0.0, seed: int = 0, px_per_mm: float = _PX_PER_MM
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every body window of an export's card-region zones: ``(uint8 RGB NCHW, labels, decks)``."""
    import cv2

    from render.training import Scene

    zones = data / "zones"
    if not zones.is_dir():
        raise FileNotFoundError(
            f"{zones}: no zone crops (export-table-training; --train-zones for the training decks)"
        )
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    decks: list[str] = []
    for jf in sorted(zones.glob("*.json")):
        if jf.stem.endswith("_iverify"):
            continue
        scene = Scene.model_validate_json(jf.read_text())
        idx = [o for o in scene.objects if o.kind == "index"]
        if not idx:
            continue
        img = cv2.imread(str(jf.with_suffix(".jpg")), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"{jf.with_suffix('.jpg')}: zone crop missing or unreadable")
        boxes = np.array([o.xyxy for o in idx], np.float64)
        if jitter:
            boxes = boxes + rng.normal(0.0, jitter, boxes.shape)
        for o, b in zip(idx, boxes, strict=True):
            cx, cy = (o.xyxy[0] + o.xyxy[2]) / 2, (o.xyxy[1] + o.xyxy[3]) / 2
            cb = o.card_xyxy
            top_left = cx < (cb[0] + cb[2]) / 2 and cy < (cb[1] + cb[3]) / 2
            win = body_window(img, b, boxes, px_per_mm)
            xs.append(cv2.cvtColor(win, cv2.COLOR_BGR2RGB).transpose(2, 0, 1))
            ys.append(o.card if top_left else NO_BODY)
            decks.append(scene.deck)
    if not xs:
        raise ValueError(f"{zones}: no card index in any card-region zone")
    return np.stack(xs), np.array(ys, np.int64), decks


def _build_model() -> Any:
    from torch import nn

    def block(cin: int, cout: int) -> list[Any]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 24),
        nn.MaxPool2d(2),
        *block(24, 48),
        *block(48, 48),
        nn.MaxPool2d(2),
        *block(48, 64),
        *block(64, 64),
        nn.MaxPool2d(2),
        *block(64, 128),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(128 * (WINDOW_H // 8) * (WINDOW_W // 8), 256),
        nn.ReLU(inplace=True),
        nn.Dropout(0.3),
        nn.Linear(256, NO_BODY + 1),
    )


def _augment(x_u8: Any, gen: Any) -> Any:
    import torch
    import torch.nn.functional as F

    b = x_u8.shape[0]
    x = x_u8.float() / 255.0
    x = x * torch.empty(b, 1, 1, 1).uniform_(0.6, 1.3, generator=gen)
    x = x + torch.empty(b, 3, 1, 1).uniform_(-0.08, 0.08, generator=gen)
    # a narrower strip now and then: grey from a random column on
    cut = torch.randint(8, WINDOW_W + 1, (b,), generator=gen)
    narrower = torch.rand(b, generator=gen) < 0.3
    cols = torch.arange(WINDOW_W)[None, :] >= cut[:, None]
    x = torch.where((narrower[:, None] & cols)[:, None, None, :], torch.tensor(0.5), x)
    dx, dy = (int(v) for v in torch.randint(-3, 4, (2,), generator=gen))
    x = torch.roll(x, (dy, dx), (2, 3))
    x = x + torch.randn(x.shape, generator=gen) * 0.03
    if float(torch.rand(1, generator=gen)) < 0.5:
        x = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
    return x.clamp(0.0, 1.0)


def _probs(model: Any, x_u8: Any, batch: int = 512) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.inference_mode():
        for i in range(0, len(x_u8), batch):
            out.append(torch.softmax(model(x_u8[i : i + batch].float() / 255.0), 1).numpy())
    model.train()
    return np.concatenate(out)


def _scores(probs: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Top-1 over the top-left windows (card and rank) and "no card body" on the others."""
    face = y != NO_BODY
    pred = probs.argmax(1)
    rank_true = np.where(y[face] == 52, 13, y[face] // 4)
    rank_pred = np.where(pred[face] == 52, 13, np.where(pred[face] == NO_BODY, -1, pred[face] // 4))
    return {
        "card_top1": float((pred[face] == y[face]).mean()),
        "rank_top1": float((rank_pred == rank_true).mean()),
        "no_body_top1": float((pred[~face] == NO_BODY).mean()) if (~face).any() else float("nan"),
        "windows": float(len(y)),
    }


def _export(model: Any, out_onnx: Path, meta: dict[str, str]) -> None:
    import onnx
    import torch

    out_onnx.parent.mkdir(parents=True, exist_ok=True)
    wrapped = torch.nn.Sequential(model, torch.nn.Softmax(dim=1)).eval()
    torch.onnx.export(
        wrapped,
        (torch.zeros(1, 3, WINDOW_H, WINDOW_W),),
        str(out_onnx),
        input_names=["images"],
        output_names=["output0"],
        dynamic_axes={"images": {0: "batch"}, "output0": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    m = onnx.load(str(out_onnx))
    about = "vision.body_classifier: card body windows -> 53 faces + no card body"
    for k, v in {"description": about, **meta}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.checker.check_model(m)
    onnx.save(m, str(out_onnx))


def train_body_classifier(
    train: Sequence[Path],
    val: Path,
    out_onnx: Path,
    *,
    minutes: float = 25.0,
    threads: int = 2,
    seed: int = 0,
    batch: int = 128,
    lr: float = 2e-3,
) -> dict[str, Any]:
    """Train on ``train``'s zone windows for ``minutes``, score ``val``'s each epoch and export it to
    ``out_onnx`` (the last epoch is what stays); returns the run's record (also written beside it as
    JSON)."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    t_load = time.perf_counter()
    parts = [zone_windows(d, jitter=1.0, seed=seed) for d in train]
    x_tr = torch.from_numpy(np.concatenate([p[0] for p in parts]))
    y_tr = torch.from_numpy(np.concatenate([p[1] for p in parts]))
    x_va_np, y_va, _ = zone_windows(val)
    x_va = torch.from_numpy(x_va_np)
    load_s = time.perf_counter() - t_load
    model = _build_model()
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(seed)
    budget, t0, n = minutes * 60.0, time.perf_counter(), len(y_tr)
    history: list[dict[str, float]] = []
    epoch = 0
    while time.perf_counter() - t0 < budget:
        perm = torch.randperm(n, generator=gen)
        total, steps = 0.0, 0
        for i in range(0, n - batch + 1, batch):
            frac = min((time.perf_counter() - t0) / budget, 1.0)
            rate = lr * (frac / 0.1 if frac < 0.1 else 0.5 * (1 + math.cos(math.pi * (frac - 0.1) / 0.9)))
            for g in opt.param_groups:
                g["lr"] = rate
            j = perm[i : i + batch]
            loss = F.cross_entropy(model(_augment(x_tr[j], gen)), y_tr[j], label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total, steps = total + loss.item(), steps + 1
            if time.perf_counter() - t0 > budget:
                break
        epoch += 1
        row = {"epoch": float(epoch), "loss": total / max(steps, 1), "wall_s": time.perf_counter() - t0}
        row.update(_scores(_probs(model, x_va), y_va))
        history.append(row)
        print(json.dumps(row), flush=True)
        # the epoch on disk as it ends (by way of a .part file: always a whole export), so a run cut
        # short leaves its last epoch (a machine restart cut an index classifier's 42-minute run once)
        part = out_onnx.with_name(out_onnx.name + ".part")
        _export(model, part, {"epochs": str(epoch), "train": ",".join(str(d) for d in train)})
        os.replace(part, out_onnx)
        model.train()  # the export's wrapper put it in eval mode
    if not history:  # no epoch in the budget: the untrained model, as before
        _export(model, out_onnx, {"epochs": "0", "train": ",".join(str(d) for d in train)})
    record: dict[str, Any] = {
        "train": [str(d) for d in train],
        "val": str(val),
        "onnx": str(out_onnx),
        "train_windows": n,
        "val_windows": len(y_va),
        "minutes": minutes,
        "threads": threads,
        "seed": seed,
        "batch": batch,
        "lr": lr,
        "load_s": load_s,
        "epochs_run": epoch,
        "last": history[-1] if history else {},
        "history": history,
    }
    out_onnx.with_name(out_onnx.stem + "_training.json").write_text(json.dumps(record, indent=2))
    return record


def _main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Train the card body model (vision.card_body) on zone exports.")
    ap.add_argument("--train", type=Path, nargs="+", required=True, help="zone exports of the training decks")
    ap.add_argument("--val", type=Path, required=True, help="a zone export of held-out decks")
    ap.add_argument("--out", type=Path, required=True, help="ONNX to write (card_body.onnx)")
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    rec = train_body_classifier(a.train, a.val, a.out, minutes=a.minutes, threads=a.threads, seed=a.seed)
    print(json.dumps(rec["last"]))


if __name__ == "__main__":
    _main()
