"""The camera's view moved since the watch began (vision._view_watch, TableState.view_moved_px)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision._view_watch import ViewWatch
from vision.cli import describe_change
from vision.layout import load_layout
from vision.pipeline import PipelineConfig, TablePipeline
from vision.sources import read_first_frame

SAMPLE = Path(__file__).resolve().parent.parent / "sample_footage"


@cache
def _table() -> np.ndarray:
    """s01's first frame: the real rendered table, 1920x1080."""
    return read_first_frame(SAMPLE / "s01-seven-compliant.mp4")


def _moved(img: np.ndarray, dx: float = 0.0, dy: float = 0.0, deg: float = 0.0) -> np.ndarray:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    m[:, 2] += (dx, dy)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _arm(img: np.ndarray, x: int) -> np.ndarray:
    """A dealer's arm (a skin-coloured band a fifth of the frame wide) reaching in from the bottom."""
    out = img.copy()
    w = img.shape[1] // 5
    cv2.rectangle(out, (x, img.shape[0] // 3), (x + w, img.shape[0]), (120, 160, 215), -1)
    return out


def test_a_table_in_place_with_arms_moving_over_it_has_not_moved() -> None:
    img = _table()
    vw = ViewWatch(every_s=1.0)
    changed = [vw.update(_arm(img, x) if k else img, float(k)) for k, x in enumerate(range(0, 1500, 150))]
    assert not any(changed) and vw.shift_px is None
    assert (vw.measure(_arm(img, 700)) or 0.0) < 1.0


def test_a_knocked_camera_is_reported_after_three_checks_and_back_in_place_after_three() -> None:
    img = _table()
    vw = ViewWatch(every_s=1.0)
    assert not vw.update(img, 0.0)
    knocked = _moved(img, dx=14.0, dy=-5.0)
    seen = [vw.update(knocked, float(t)) for t in (1, 2, 3)]
    assert seen == [False, False, True]
    assert vw.shift_px == pytest.approx(math.hypot(14, 5), abs=4.0)  # one analysed pixel: 4 here
    assert not vw.update(knocked, 3.5)  # not a check yet: one every second
    assert [vw.update(img, float(t)) for t in (4, 5, 6)] == [False, False, True] and vw.shift_px is None


def test_checks_measured_on_their_own_thread_conclude_the_same_that_much_later() -> None:
    """``lag_s``: each check is measured on a thread of its own (off the pipeline's main thread) and
    taken ``lag_s`` of footage later; the same conclusions, each that much later."""
    import threading

    img = _table()
    knocked = _moved(img, dx=14.0, dy=-5.0)
    frames = [(k / 4, img if k < 6 else knocked if k < 22 else img) for k in range(40)]

    def run(lag: float) -> tuple[list[tuple[float, float | None]], set[str]]:
        vw = ViewWatch(every_s=1.0, lag_s=lag)
        threads: set[str] = set()
        measure = vw.measure

        def noted(image: np.ndarray) -> float | None:
            threads.add(threading.current_thread().name)
            return measure(image)

        vw.measure = noted  # type: ignore[method-assign]
        return [(t, vw.shift_px) for t, f in frames if vw.update(f, t)], threads

    now, on = run(0.0)
    later, off = run(0.5)
    assert [s for _, s in now] == [s for _, s in later] and len(now) == 2  # moved, then back
    assert [t + 0.5 for t, _ in now] == [t for t, _ in later]
    assert on == {threading.current_thread().name} and off == {"view-check"}


def test_a_program_ending_while_a_check_is_measured_exits_cleanly(tmp_path: Path) -> None:
    """A check still being measured on its own thread when the program ends is waited for: as a
    daemon it was inside OpenCV's matcher at the interpreter's shutdown and the process aborted
    (status 134, every figure already printed: ``eval-vision`` on b67-0014)."""
    import subprocess
    import sys

    script = tmp_path / "ends.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})\n"
        "import numpy as np, cv2\n"
        "from vision._view_watch import ViewWatch\n"
        "noise = np.random.default_rng(0).integers(0, 255, (720, 1280, 3), np.uint8)\n"
        "ref = cv2.GaussianBlur(noise, (5, 5), 0)\n"
        "w = ViewWatch(lag_s=1.0)\n"
        "assert w.set_reference(ref)\n"
        "w.update(np.roll(ref, 3, axis=1), 0.0)\n"
        "print('ended')\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "ended"), done.stderr


def test_a_camera_turned_on_its_mount_is_measured_at_the_frame_corners() -> None:
    img = _table()
    vw = ViewWatch()
    vw.measure(img)
    h, w = img.shape[:2]
    got = vw.measure(_moved(img, deg=0.5))
    assert got == pytest.approx(math.hypot(w, h) / 2 * math.radians(0.5), rel=0.1)


def test_a_covered_lens_is_no_evidence_either_way() -> None:
    img = _table()
    vw = ViewWatch(every_s=1.0)
    vw.update(img, 0.0)
    dark = np.zeros_like(img)
    assert vw.measure(dark) is None
    assert not any(vw.update(dark, float(t)) for t in (1, 2, 3, 4)) and vw.shift_px is None


def test_the_pipeline_says_the_view_moved_in_its_table_state() -> None:
    lay = load_layout(SAMPLE / "render-7card.layout.yaml")
    img = _table()
    pipe = TablePipeline(lay, _NoCards(), PipelineConfig(view_check_s=1.0, analyse_fps=None))
    states = [pipe.process(k, k / 2, img) for k in range(12)]
    assert any(s is not None for s in states) and all(s is None or s.view_moved_px is None for s in states)
    knocked = _moved(img, dx=-20.0)
    later = [s for k in range(12, 30) if (s := pipe.process(k, k / 2, knocked)) is not None]
    assert later and later[-1].view_moved_px == pytest.approx(20.0, abs=4.0)
    first = next(s for s in states if s is not None)
    assert "view=MOVED " in describe_change(first, later[-1])


class _NoCards:
    """A detector that finds nothing (the view check needs no cards)."""

    def detect(self, image: np.ndarray, **kw: object) -> object:
        from vision.detections import Detections

        return Detections()


def test_a_camera_already_off_when_the_watch_begins_is_seen_against_its_calibrated_view(
    tmp_path: Path,
) -> None:
    """``calibrate`` keeps a picture of the calibrated view; a watch of a camera knocked before it
    began compares with that, not with its first frame (which would make the knock the norm)."""
    from vision.calibrate import calibrated_view

    img = _table()
    lay = load_layout(SAMPLE / "render-7card.layout.yaml")
    cv2.imwrite(str(tmp_path / "t.view.jpg"), calibrated_view(img))
    lay.model_copy(update={"reference_view": "t.view.jpg"}).dump(tmp_path / "t.yaml")
    knocked = _moved(img, dx=-20.0)
    for layout, expect in ((lay, None), (load_layout(tmp_path / "t.yaml"), 20.0)):
        pipe = TablePipeline(layout, _NoCards(), PipelineConfig(view_check_s=1.0, analyse_fps=None))
        got = [s for k in range(16) if (s := pipe.process(k, k / 2, knocked)) is not None]
        moved = got[-1].view_moved_px
        assert moved is None if expect is None else moved == pytest.approx(expect, abs=4.0)


def test_a_sub_stream_is_checked_against_the_calibrated_view_scaled_to_it(tmp_path: Path) -> None:
    """The view calibrated on the 1080p main stream, watched on a half-size sub-stream: the picture
    kept by ``calibrate`` is matched at the stream's size, so the view in place is not "moved" and a
    knock is measured in the stream's pixels."""
    from vision.calibrate import calibrated_view

    img = _table()
    lay = load_layout(SAMPLE / "render-7card.layout.yaml")
    cv2.imwrite(str(tmp_path / "t.view.jpg"), calibrated_view(img))
    lay.model_copy(update={"reference_view": "t.view.jpg"}).dump(tmp_path / "t.yaml")
    half = load_layout(tmp_path / "t.yaml").scaled_to(img.shape[1] // 2, img.shape[0] // 2)
    size = (half.image_width, half.image_height)
    for frame, expect in ((img, None), (_moved(img, dx=-24.0), 12.0)):
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        pipe = TablePipeline(half, _NoCards(), PipelineConfig(view_check_s=1.0, analyse_fps=None))
        got = [s for k in range(16) if (s := pipe.process(k, k / 2, small)) is not None]
        moved = got[-1].view_moved_px
        assert moved is None if expect is None else moved == pytest.approx(expect, abs=3.0)
