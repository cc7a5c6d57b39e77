"""Stage 1 with its box branch run only where a class scores over the floor.

A YOLO (v8/11) detect head has two branches per feature level: the class branch (``cv3``: a score
per class at every grid cell) and the box branch (``cv2``: two 3x3 convolutions and a 1x1 one giving
4 x 16 distance logits, turned into box sides by a softmax, the DFL). In stage 1's tiny network the
box branch and its softmax are most of the work (at the finest level it is 64 channels wide where the
rest of the network is 8-32: about 40 % of a 256-px tile's time, measured with onnxruntime's
profiler), yet a tile shows a handful of indices, and ``decode_yolo`` keeps only the cells whose class
score reaches the detector's floor.

``SparseHead`` runs the shipped ONNX model cut before the box branch (``onnx.utils.Extractor``: the
class scores and the three feature maps the box branch reads), then computes the box branch in numpy
for the cells over the floor only, with the model's own (batch-norm-folded) weights. The output has
the full model's shape: class scores everywhere, box values where a class reaches the floor (zero
elsewhere, where ``decode_yolo`` looks at none). Same boxes, to float rounding: checked on every load
against the full model on a test input (every cell computed), falling back to the full model if a
graph is not laid out this way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

_BOX_CONV = re.compile(r"^(/model\.\d+)/cv2\.(\d+)/cv2\.\2\.(\d+)/(?:conv/)?Conv$")
_CHECK_TOLERANCE = 1e-3  # box values in input pixels, class scores
_NO_TERM = np.empty((0, 0), np.float32)  # gemm's added matrix, none (beta 0)


@dataclass(frozen=True)
class _Level:
    feature: str  # name of the feature map the box branch reads
    # (weight as (out, in * kh * kw), bias) of the 3x3, 3x3 and 1x1 convolutions
    convs: tuple[tuple[np.ndarray, np.ndarray], ...]


def _silu(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / (1.0 + np.exp(-x))
    return out


def _matmul(a: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``a @ weight.T`` (``weight`` stored (out, in)). OpenCV's gemm, which keeps to
    ``cv2.setNumThreads``: numpy's BLAS starts threads of its own on these sizes, which spin on the
    core the frame decoder uses (measured: 0.36 CPU-s per video second against 0.25)."""
    import cv2

    a = np.ascontiguousarray(a, np.float32)
    out: np.ndarray = cv2.gemm(a, weight, 1.0, _NO_TERM, 0.0, flags=cv2.GEMM_2_T)
    return out


def _patches(padded: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The 3x3 neighbourhoods of the cells ``(ys, xs)`` of a map (C, H, W) given with a border of
    zeros (``padded``: (C, H + 2, W + 2)), flattened as a 3x3 convolution's weight is: (n, C * 9),
    channel-major."""
    c = padded.shape[0]
    dy, dx = np.meshgrid(np.arange(3), np.arange(3), indexing="ij")
    rows = ys[:, None] + dy.ravel()[None]  # (n, 9), in padded coordinates
    cols = xs[:, None] + dx.ravel()[None]
    out: np.ndarray = padded[:, rows, cols].transpose(1, 0, 2).reshape(len(ys), c * 9)
    return out


def _graph_parts(model: Any) -> tuple[list[_Level], str, np.ndarray] | None:
    """The box branch's levels (in output order), the class-logit tensor's name and the DFL's
    weights, or None when the graph is not a YOLO detect head laid out as ultralytics exports it."""
    from onnx import numpy_helper

    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}
    convs: dict[int, dict[int, Any]] = {}
    for n in model.graph.node:
        m = _BOX_CONV.match(n.name)
        if m and n.op_type == "Conv":
            convs.setdefault(int(m.group(2)), {})[int(m.group(3))] = n
    if not convs or any(sorted(v) != [0, 1, 2] for v in convs.values()):
        return None
    levels = []
    for i in sorted(convs):
        nodes = [convs[i][j] for j in range(3)]
        if any(len(n.input) < 3 or n.input[1] not in inits or n.input[2] not in inits for n in nodes):
            return None
        convs_i = tuple(
            (
                np.ascontiguousarray(inits[n.input[1]].reshape(len(inits[n.input[1]]), -1), np.float32),
                inits[n.input[2]].astype(np.float32),
            )
            for n in nodes
        )
        levels.append(_Level(nodes[0].input[0], convs_i))
    out = model.graph.output[0].name
    concat = producer.get(out)
    if concat is None or concat.op_type != "Concat" or len(concat.input) != 2:
        return None
    sig = producer.get(concat.input[1])
    if sig is None or sig.op_type != "Sigmoid":
        return None
    dfl = [t for name, t in inits.items() if name.endswith("dfl.conv.weight")]
    if len(dfl) != 1:
        return None
    return levels, sig.input[0], dfl[0].reshape(-1).astype(np.float32)


class SparseHead:
    """Runs a YOLO detect ONNX model as ``session.run`` would, with the box branch computed only
    where a class score reaches the floor asked for (see the module's doc). ``sparse`` is False when
    the model could not be cut this way (then it runs whole)."""

    def __init__(self, onnx_path: Path, options: Any) -> None:
        import onnxruntime as ort

        self._full = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        self.input = self._full.get_inputs()[0]
        self.meta: dict[str, str] = dict(self._full.get_modelmeta().custom_metadata_map)
        self._trunk: Any = None
        self._levels: list[_Level] = []
        self._dfl = np.zeros(0, np.float32)
        import onnx
        import onnx.utils

        model = onnx.load(str(onnx_path))
        parts = _graph_parts(model)
        if parts is None:
            return
        levels, logits, dfl = parts
        trunk = onnx.utils.Extractor(model).extract_model(
            [self.input.name], [logits, *(lv.feature for lv in levels)]
        )
        self._trunk = ort.InferenceSession(
            trunk.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        self._levels, self._dfl = levels, dfl
        if not self._agrees():
            self._trunk = None

    @property
    def sparse(self) -> bool:
        return self._trunk is not None

    def run(self, x: np.ndarray, floor: float) -> np.ndarray:
        """The detect output ``(1, 4 + nc, N)`` for one input ``(1, 3, H, W)``; its box values are
        right (not zero) wherever a class scores ``floor`` or more."""
        if self._trunk is None:
            out: np.ndarray = self._full.run(None, {self.input.name: x})[0]
            return out
        return self._sparse(x, floor)

    def _sparse(self, x: np.ndarray, floor: float) -> np.ndarray:
        logits, *feats = self._trunk.run(None, {self.input.name: x})
        scores = 1.0 / (1.0 + np.exp(-np.clip(logits[0], -60.0, 60.0)))  # (nc, N); no overflow
        keep = scores.max(0) >= floor
        boxes = np.zeros((4, scores.shape[1]), np.float32)
        start = 0
        in_h = x.shape[2]
        for level, fmap in zip(self._levels, feats, strict=True):
            _, _, h, w = fmap.shape
            cells = np.flatnonzero(keep[start : start + h * w])
            if len(cells):
                ys, xs = np.divmod(cells, w)
                boxes[:, start + cells] = self._boxes(level, fmap[0], ys, xs, in_h / h)
            start += h * w
        return np.concatenate([boxes, scores.astype(np.float32)])[None]

    def _boxes(
        self, level: _Level, fmap: np.ndarray, ys: np.ndarray, xs: np.ndarray, stride: float
    ) -> np.ndarray:
        """Centre-xywh (4, n), in input pixels, of the cells ``(ys, xs)`` of one level."""
        (w0, b0), (w1, b1), (w2, b2) = level.convs
        h, w = fmap.shape[1:]
        # the first convolution's outputs over the cells' 3x3 neighbourhoods, inside the map (the second
        # convolution pads with zeros, so cells outside stay zero)
        near = np.zeros((h + 2, w + 2), bool)
        for dy in range(3):
            for dx in range(3):
                near[ys + dy, xs + dx] = True
        near[0, :] = near[-1, :] = near[:, 0] = near[:, -1] = False
        ny, nx = np.nonzero(near)
        hidden = np.zeros((len(b0), h + 2, w + 2), np.float32)  # with its border of zeros
        padded = np.pad(fmap, ((0, 0), (1, 1), (1, 1)))
        hidden[:, ny, nx] = _silu(_matmul(_patches(padded, ny - 1, nx - 1), w0) + b0).T
        second = _silu(_matmul(_patches(hidden, ys, xs), w1) + b1)
        d = (_matmul(second, w2) + b2).reshape(len(ys), 4, -1)  # distance logits per side
        d = np.exp(d - d.max(2, keepdims=True))
        d /= d.sum(2, keepdims=True)
        left, top, right, bottom = (d @ self._dfl).T  # (n,) each, in cells
        ax, ay = xs + 0.5, ys + 0.5
        x1, y1, x2, y2 = ax - left, ay - top, ax + right, ay + bottom
        return np.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1]).astype(np.float32) * stride

    def _agrees(self) -> bool:
        """The cut model gives the full model's output on a test input, every cell computed."""
        shape = [d if isinstance(d, int) and d > 0 else 256 for d in self.input.shape]
        shape[0] = 1
        rng = np.random.default_rng(0)
        x = rng.random(shape, dtype=np.float32)
        full = self._full.run(None, {self.input.name: x})[0]
        try:
            cut = self._sparse(x, -1.0)
        except (ValueError, IndexError):
            return False
        return full.shape == cut.shape and float(np.abs(full - cut).max()) < _CHECK_TOLERANCE
