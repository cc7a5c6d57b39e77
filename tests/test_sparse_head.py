"""Stage 1 with its box branch computed only where a class reaches the floor (``vision._sparse_head``),
and stage 1's tiles read on two threads: both give what the whole model, one tile after another, gives."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest
from test_detector_model import _row_of_cards

from render.artwork import VALIDATION_DECKS
from vision._sparse_head import SparseHead
from vision._still_memory import StillMemory
from vision.detections import Detections
from vision.detector import DEFAULT_MODELS_DIR, _letterbox, decode_yolo, load_detector

_DET = DEFAULT_MODELS_DIR / "card_det.onnx"


def _options() -> ort.SessionOptions:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    return opts


def _tile(deck: str) -> np.ndarray:
    """A model-sized tile of a held-out deck's row, as stage 1 takes it."""
    img, _ = _row_of_cards(deck)
    lb, _, _ = _letterbox(img[:, :256], 256)
    out: np.ndarray = (lb[:, :, ::-1].transpose(2, 0, 1)[None] / 255.0).astype(np.float32)
    return out


def test_the_shipped_stage_1_is_cut_before_its_box_branch() -> None:
    head = SparseHead(_DET, _options())
    assert head.sparse


@pytest.mark.parametrize("deck", VALIDATION_DECKS[:2])
def test_sparse_output_gives_the_whole_models_boxes(deck: str) -> None:
    head = SparseHead(_DET, _options())
    x = _tile(deck)
    whole = head._full.run(None, {head.input.name: x})[0]
    for floor in (0.3, 0.05):
        sparse = head.run(x, floor)
        assert sparse.shape == whole.shape
        # class scores everywhere; box values where a class reaches the floor, and nowhere else
        assert np.allclose(sparse[0, 4:], whole[0, 4:], atol=1e-5)
        over = whole[0, 4:].max(0) >= floor
        assert over.sum() >= 4  # indices found on the tile
        assert np.allclose(sparse[0, :4, over], whole[0, :4, over], atol=1e-3)
        assert not sparse[0, :4, ~over].any()
        a, b = decode_yolo(whole, floor, 0.5), decode_yolo(sparse, floor, 0.5)
        assert len(a[0]) == len(b[0]) > 0
        assert np.allclose(a[0], b[0], atol=1e-3) and (a[1] == b[1]).all() and np.allclose(a[2], b[2])


def test_a_model_not_laid_out_as_a_yolo_head_runs_whole(tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    # a one-node model with the detect output's shape: nothing to cut
    graph = helper.make_graph(
        [helper.make_node("AveragePool", ["images"], ["output0"], kernel_shape=[2, 2], strides=[2, 2])],
        "plain",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 6, 8, 8])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 6, 4, 4])],
    )
    path = tmp_path / "plain.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    head = SparseHead(path, _options())
    assert not head.sparse
    x = np.arange(6 * 64, dtype=np.float32).reshape(1, 6, 8, 8)
    assert np.array_equal(head.run(x, 0.3), head._full.run(None, {"images": x})[0])


def test_tiles_read_on_two_threads_give_the_same_finds() -> None:
    img, _ = _row_of_cards(VALIDATION_DECKS[0])
    one = load_detector(tile=True)
    two = load_detector(tile=True, tile_workers=2)
    assert img.shape[1] > 2 * one.imgsz  # several tiles to share
    a, b = one.detect(img), two.detect(img)

    def listed(found: Detections) -> list[tuple[str, tuple[float, ...], float]]:
        return [
            (lab, tuple(np.round(box, 3)), round(float(c), 5))
            for lab, box, c in zip(found.labels, found.xyxy.tolist(), found.confidence, strict=True)
        ]

    assert listed(a) == listed(b) and len(a) == 5  # the row's five cards
    with pytest.raises(ValueError, match="tile_workers"):
        load_detector(tile=True, tile_workers=0)


def test_a_detector_forked_after_reading_on_threads_reads_in_the_child() -> None:
    """A forked process (audit workers) has none of its parent's threads: the detector starts its own
    (with the parent's pool it would wait for ever)."""
    import multiprocessing as mp

    if "fork" not in mp.get_all_start_methods():
        pytest.fail("this test needs fork, which every Linux has")
    img, _ = _row_of_cards(VALIDATION_DECKS[0])
    det = load_detector(tile=True, tile_workers=2)
    here = len(det.detect(img))  # the parent's threads exist now
    ctx = mp.get_context("fork")
    got = ctx.Queue()
    child = ctx.Process(target=lambda: got.put(len(det.detect(img))))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the forked detector did not finish reading in 60 s")
    assert got.get(timeout=5) == here == 5


def test_a_stage_1_stamped_with_a_crop_scale_looks_at_the_shrunk_crop_and_boxes_come_back(
    tmp_path: Path,
) -> None:
    """``crop_scale`` in the stage-1 ONNX (written by training when the tiles were shrunk to the model's
    input): stage 1 gets the crop shrunk by it, and its boxes are carried back to the crop the
    classifier reads."""
    import shutil

    from vision.training import stamp_crop_scale

    for name in ("card_det.onnx", "card_cls.onnx"):
        shutil.copy(DEFAULT_MODELS_DIR / name, tmp_path / name)
    assert load_detector(tmp_path).stage1_scale == 1.0  # none stamped: as it was trained
    stamp_crop_scale(tmp_path / "card_det.onnx", 0.5)
    det = load_detector(tmp_path, tile=True)
    assert det.stage1_scale == 0.5
    seen: list[tuple[int, ...]] = []
    handed: list[np.ndarray] = []

    def stage1(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        seen.append(image.shape)
        return np.array([[10.0, 20.0, 16.0, 35.0]], np.float32), np.array([0]), np.array([0.9], np.float32)

    def read(
        image: np.ndarray, xyxy: np.ndarray, *rest: object
    ) -> tuple[Detections, np.ndarray, Detections, Detections]:
        handed.append(xyxy.copy())
        assert image.shape == (300, 700, 3)  # the classifier reads the crop itself
        return Detections.empty(), np.zeros((0, 4), np.float32), Detections.empty(), Detections.empty()

    det._stage1 = stage1  # type: ignore[method-assign]
    det._read_indices = read  # type: ignore[method-assign]
    det.detect(np.zeros((300, 700, 3), np.uint8))
    assert seen and all(s[0] <= 256 and s[1] <= 256 for s in seen)
    assert len(seen) == 2  # 350 x 150 shrunk: two 256-px tiles, where the crop itself needs six
    assert np.allclose(handed[0][0], [20.0, 40.0, 32.0, 70.0])  # the first tile's box, back at full size
    with pytest.raises(ValueError, match="crop scale"):
        stamp_crop_scale(tmp_path / "card_det.onnx", 0.0)


def test_training_knows_the_tile_size_its_data_was_cut_at(tmp_path: Path) -> None:
    """Training stamps ``crop_scale`` = input size / tile size; the tile size is read from the data."""
    import cv2

    from vision.training import _tile_size

    (tmp_path / "a" / "images").mkdir(parents=True)
    (tmp_path / "b" / "images").mkdir(parents=True)
    spec = tmp_path / "data.yaml"
    spec.write_text(f"path: {tmp_path}\ntrain:\n  - a/images\n  - b/images\nval: b/images\n")
    assert _tile_size(spec) is None  # no picture to look at
    cv2.imwrite(str(tmp_path / "b" / "images" / "t.jpg"), np.zeros((256, 256, 3), np.uint8))
    assert _tile_size(spec) == 256
    # scenes of many sizes (export-training draws each 0.75-1.25 times --size): their median, not the
    # first file's size
    for i, (h, w) in enumerate([(337, 300), (250, 288), (288, 200), (300, 310)]):
        cv2.imwrite(str(tmp_path / "a" / "images" / f"s{i}.png"), np.zeros((h, w, 3), np.uint8))
    (tmp_path / "a" / "images" / "notes.png").write_text("not a picture")
    assert _tile_size(spec) == 288  # longer sides 337, 288, 288, 310 and the tile's 256


def test_training_stamps_the_crop_scale_asked_for_or_the_datas(tmp_path: Path) -> None:
    """A detector stage (a fake ultralytics: it trains nothing and exports the shipped stage 1) stamps
    ``--det-crop-scale`` where given, else ``det_imgsz`` over its training images' size, and nothing
    where they are of the model's size."""
    import shutil

    import cv2

    from vision.training import TrainConfig, _train_stage

    images = tmp_path / "data" / "images"
    images.mkdir(parents=True)
    spec = tmp_path / "data" / "data.yaml"
    spec.write_text(f"path: {tmp_path / 'data'}\ntrain: images\nval: images\n")

    class FakeYolo:
        def __init__(self, weights: str, task: str | None = None) -> None:
            self.weights = weights

        def train(self, **kw: Any) -> Any:
            best = Path(kw["project"]) / kw["name"] / "weights" / "best.pt"
            best.parent.mkdir(parents=True, exist_ok=True)
            best.write_bytes(b"weights")
            return None

        def export(self, **kw: Any) -> str:
            onnx = tmp_path / "export.onnx"
            shutil.copy(DEFAULT_MODELS_DIR / "card_det.onnx", onnx)
            return str(onnx)

    def stamped(side: int, crop_scale: float | None) -> str | None:
        for old in images.iterdir():
            old.unlink()
        cv2.imwrite(str(images / "s.png"), np.zeros((side, side, 3), np.uint8))
        out = tmp_path / f"out{side}_{crop_scale}"
        out.mkdir()
        cfg = TrainConfig(
            data=tmp_path / "data", out=out, runs_dir=tmp_path / "runs", det_crop_scale=crop_scale
        )
        _train_stage(
            FakeYolo, cfg, "det", spec, "card_det.yaml", None, 1, 256, 2, 0.0, {"project": str(cfg.runs_dir)}
        )
        meta = ort.InferenceSession(str(out / "card_det.onnx"), _options()).get_modelmeta()
        return meta.custom_metadata_map.get("crop_scale")

    assert stamped(256, None) is None  # tiles of the model's size: stage 1 reads them as they are
    assert stamped(320, None) == "0.8"  # scenes of 320 px shrunk to 256
    assert stamped(320, 0.889) == "0.889"  # as asked, whatever the data's size
    assert stamped(256, 0.5) == "0.5"
    with pytest.raises(ValueError, match="det_crop_scale"):
        TrainConfig(data=tmp_path, det_crop_scale=0.0)


def _loose_asked(det: Any) -> list[int]:
    """The ``loose`` the detector's tile memory is asked with, reading one crop."""
    memory, asked = det.tile_memory, []

    def spy(place: Hashable, picture: np.ndarray, *, loose: int = 0, boxes: Any = None) -> Any:
        asked.append(loose)
        return StillMemory.recall(memory, place, picture, loose=loose, boxes=boxes)

    memory.recall = spy
    det.detect(np.full((300, 700, 3), 90, np.uint8))
    return asked


def test_a_shrunk_stage_1_tolerates_no_changed_block_in_its_tiles(tmp_path: Path) -> None:
    """The tile memory's few tolerated blocks rest on an index covering 6 blocks or more at det 6's
    scale; a stage 1 reading the crop shrunk (``crop_scale``) sees an index in fewer, and tolerates none."""
    import shutil

    from vision.training import stamp_crop_scale

    for name in ("card_det.onnx", "card_cls.onnx"):
        shutil.copy(DEFAULT_MODELS_DIR / name, tmp_path / name)
    assert set(_loose_asked(load_detector(tmp_path, tile=True, memory=8))) == {3}
    stamp_crop_scale(tmp_path / "card_det.onnx", 0.5)
    assert set(_loose_asked(load_detector(tmp_path, tile=True, memory=8))) == {0}
