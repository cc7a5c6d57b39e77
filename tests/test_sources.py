"""Video sources: files, folders, live streams with reconnect (vision.sources)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_pipeline_synth import write_clip

from vision.sources import SourceError, iter_frames, read_first_frame


def _frames(n: int, w: int = 64, h: int = 48) -> list[np.ndarray]:
    out = []
    for i in range(n):
        f = np.zeros((h, w, 3), np.uint8)
        cv2.putText(f, str(i), (5, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2)
        out.append(f)
    return out


def test_file_timestamps_come_from_the_position(tmp_path: Path) -> None:
    p = write_clip(tmp_path / "a.avi", _frames(10), fps=20.0)
    fr = list(iter_frames(p))
    assert [f.frame for f in fr] == list(range(10))
    assert [f.t for f in fr] == pytest.approx([i / 20.0 for i in range(10)])
    assert all(f.clip == str(p) and not f.live for f in fr)


class _TimedCap:
    """A file whose frames carry the given presentation times (ms; OpenCV's position after each read)."""

    def __init__(self, times_ms: list[float], fps: float = 25.0) -> None:
        self.times, self.fps, self.at = times_ms, fps, -1

    def isOpened(self) -> bool:
        return True

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_POS_MSEC:
            return self.times[self.at] if self.at >= 0 else 0.0
        return {cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FRAME_COUNT: float(len(self.times))}.get(prop, 0.0)

    def grab(self) -> bool:
        self.at += 1
        return self.at < len(self.times)

    def read(self) -> tuple[bool, np.ndarray | None]:
        ok = self.grab()
        return ok, np.zeros((4, 4, 3), np.uint8) if ok else None

    def release(self) -> None:
        pass


def test_a_recording_with_frames_dropped_keeps_its_own_times(tmp_path: Path) -> None:
    """A recorder's export with a gap (frames dropped, or motion-triggered recording): each frame is
    stamped with its own time, as the player shows it, not frame / fps (which put every frame after a
    4-s gap 4 s early: an alert's time pointed at another moment of the footage). From the first
    frame's time; the nominal rate where a file gives no times, or one out of order."""
    clip = tmp_path / "nvr.mp4"
    clip.write_bytes(b"x")

    def times(ms: list[float], **kw: object) -> list[float]:
        return [f.t for f in iter_frames(clip, opener=lambda _: _TimedCap(ms), **kw)]  # type: ignore[arg-type]

    gap = [40.0 * i for i in range(5)] + [4000.0 + 40.0 * i for i in range(5)]
    assert times(gap) == [0.0, 0.04, 0.08, 0.12, 0.16, 4.0, 4.04, 4.08, 4.12, 4.16]
    assert times(gap, analyse_fps=12.5) == [0.0, 0.08, 0.16, 4.04, 4.12]  # grabbed frames keep time too
    assert times([120.0 + 40.0 * i for i in range(3)]) == [0.0, 0.04, 0.08]  # from the first frame's
    assert times([0.0] * 4) == [0.0, 0.04, 0.08, 0.12]  # no times of its own: frame / fps
    assert times([0.0, 40.0, 40.0, 120.0, 80.0]) == pytest.approx([0.0, 0.04, 0.08, 0.12, 0.16])


def test_an_mp4_with_a_gap_is_read_at_the_times_its_player_shows(tmp_path: Path) -> None:
    """The same through OpenCV on a real H.264 file (ffmpeg, installed by scripts/setup.sh), frames
    10-19 of 30 dropped with their times kept."""
    import shutil
    import subprocess

    ffmpeg = shutil.which("ffmpeg")
    assert ffmpeg, "ffmpeg is installed by scripts/setup.sh with any extra"
    src = write_clip(tmp_path / "a.avi", _frames(30), fps=25.0)
    out = tmp_path / "gap.mp4"
    cmd = [ffmpeg, "-loglevel", "error", "-y", "-i", str(src), "-vf", r"select=not(between(n\,10\,19))"]
    cmd += ["-fps_mode", "passthrough", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(out)]
    subprocess.run(cmd, check=True)
    fr = list(iter_frames(out))
    assert [f.frame for f in fr] == list(range(20))
    kept = [*range(10), *range(20, 30)]
    assert [f.t for f in fr] == pytest.approx([i / 25 for i in kept])


def test_analyse_fps_decodes_every_nth_frame_and_grabs_the_rest(tmp_path: Path) -> None:
    p = write_clip(tmp_path / "a.avi", _frames(10), fps=20.0)
    fr = list(iter_frames(p, analyse_fps=5.0))
    assert [f.frame for f in fr] == [0, 4, 8]
    all_ = list(iter_frames(p, analyse_fps=5.0, skipped=True))
    assert [f.image is None for f in all_] == [i % 4 != 0 for i in range(10)]
    # the decoded frames are the right ones (not the next in the file)
    assert np.abs(fr[1].image.astype(int) - _frames(10)[4].astype(int)).mean() < 8


def test_a_file_is_decoded_on_one_thread_to_the_same_frames(tmp_path: Path) -> None:
    """FFmpeg's own decoding threads cost more CPU than they save beside the pipeline: a file is opened
    for one (``vision.sources._open_file``), and decodes to what the default opening gives."""
    from vision.sources import _open_file

    p = write_clip(tmp_path / "a.mp4", _frames(12), fps=20.0)
    cap = _open_file(str(p))
    assert cap.isOpened() and cap.get(cv2.CAP_PROP_N_THREADS) == 1
    cap.release()
    default = list(iter_frames(p, opener=cv2.VideoCapture))
    ours = list(iter_frames(p))
    assert len(ours) == len(default) == 12
    assert all(np.array_equal(a.image, b.image) for a, b in zip(ours, default, strict=True))


def test_folder_in_name_order_each_clip_its_own_time(tmp_path: Path) -> None:
    write_clip(tmp_path / "b.avi", _frames(3), fps=10.0)
    write_clip(tmp_path / "a.avi", _frames(2), fps=10.0)
    (tmp_path / "notes.txt").write_text("x")
    fr = list(iter_frames(tmp_path))
    assert [(Path(f.clip).name, f.frame, f.t) for f in fr] == [
        ("a.avi", 0, 0.0),
        ("a.avi", 1, 0.1),
        ("b.avi", 0, 0.0),
        ("b.avi", 1, 0.1),
        ("b.avi", 2, 0.2),
    ]


def test_image_file_is_one_frame(tmp_path: Path) -> None:
    p = tmp_path / "x.png"
    cv2.imwrite(str(p), _frames(1)[0])
    assert read_first_frame(p).shape == (48, 64, 3)


def test_missing_and_unreadable_inputs_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"nope\.mp4: no such file"):
        list(iter_frames(tmp_path / "nope.mp4"))
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video" * 100)
    with pytest.raises(SourceError, match=r"bad\.mp4"):
        list(iter_frames(bad))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="folder holds no video"):
        list(iter_frames(empty))


def test_truncated_file_names_the_frame(tmp_path: Path) -> None:
    p = write_clip(tmp_path / "t.avi", _frames(40), fps=25.0)
    data = p.read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError, match=r"cut.avi: frame \d+: cannot decode"):
        list(iter_frames(cut))


class _FakeCap:
    """A stream that gives ``good`` frames per connection, then drops."""

    opened = 0

    def __init__(self, target: object, plan: list[int | None]) -> None:
        step = plan[_FakeCap.opened] if _FakeCap.opened < len(plan) else None
        self.left = step or 0
        self.ok = step is not None  # None: cannot be opened
        _FakeCap.opened += 1

    def isOpened(self) -> bool:
        return self.ok

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self) -> None:
        pass


def test_stream_reconnects_with_backoff_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    _FakeCap.opened = 0
    plan = [3, 2]
    clock = iter(np.arange(0, 100, 0.04).tolist())
    sleeps: list[float] = []
    with (
        caplog.at_level(logging.WARNING, logger="vision.sources"),
        pytest.raises(SourceError, match="gave up after 3"),
    ):
        got = []
        for f in iter_frames(
            "rtsp://cam/1",
            opener=lambda t: _FakeCap(t, plan),
            reconnect_tries=3,
            backoff_s=0.5,
            clock=lambda: next(clock),
            sleep=sleeps.append,
        ):
            got.append(f)
    assert all(f.live for f in got)
    # each drop says so in the stream: a marker with no picture, numbered as the last frame given
    assert [(f.frame, f.lost, f.image is None) for f in got] == [
        (0, False, False),
        (1, False, False),
        (2, False, False),
        (2, True, True),
        (3, False, False),
        (4, False, False),
        (4, True, True),
    ]
    assert got[0].t < got[3].t < got[4].t < got[-1].t
    assert sleeps == [0.5, 0.5, 1.0, 2.0]  # back-off restarts after the stream came back
    text = caplog.text
    assert "rtsp://cam/1: no frame after frame 2; reconnecting in 0.5 s" in text
    assert "stream back after 1 reconnect attempt" in text


def test_a_stream_given_no_limit_is_reconnected_for_as_long_as_it_takes() -> None:
    """``reconnect_tries=None`` (the pipeline's default: a camera that reboots is waited for): 20 failed
    reconnects in a row, the wait capped, and the frames go on with one lost marker for the drop."""
    _FakeCap.opened = 0
    plan = [2] + [-1] * 20 + [3]  # -1: opens, gives nothing
    clock = iter(np.arange(0, 100, 0.04).tolist())
    sleeps: list[float] = []
    frames = iter_frames(
        "rtsp://cam/1",
        opener=lambda t: _FakeCap(t, plan),
        reconnect_tries=None,
        backoff_s=0.5,
        max_backoff_s=4.0,
        clock=lambda: next(clock),
        sleep=sleeps.append,
    )
    got = [f for _, f in zip(range(6), frames, strict=False)]
    assert [(f.frame, f.lost) for f in got] == [
        (0, False),
        (1, False),
        (1, True),
        (2, False),
        (3, False),
        (4, False),
    ]
    assert len(sleeps) == 21 and max(sleeps) == 4.0


def test_stream_that_never_opens_is_tried_again_then_given_up() -> None:
    _FakeCap.opened = 0
    sleeps: list[float] = []
    with pytest.raises(
        SourceError, match=r"camera 0: cannot open stream or camera \(gave up after 4 attempts\)"
    ):
        list(iter_frames(0, opener=lambda t: _FakeCap(t, []), reconnect_tries=3, sleep=sleeps.append))
    assert sleeps == [0.5, 1.0, 2.0] and _FakeCap.opened == 4
    _FakeCap.opened = 0
    with pytest.raises(SourceError, match=r"camera 0: cannot open stream or camera$"):
        list(iter_frames(0, opener=lambda t: _FakeCap(t, []), reconnect_tries=0, sleep=sleeps.append))
    assert _FakeCap.opened == 1


def test_a_camera_not_there_at_the_start_is_waited_for_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    """A camera still booting when the watch starts (a surveillance service started before it): tried
    with back-off, each attempt logged; its frames then are timed from when it opened."""
    _FakeCap.opened = 0
    plan: list[int | None] = [None, None, None, 3]
    clock = iter(np.arange(10, 100, 0.04).tolist())
    sleeps: list[float] = []
    with caplog.at_level(logging.WARNING, logger="vision.sources"):
        got = [
            f
            for _, f in zip(
                range(3),
                iter_frames(
                    "rtsp://cam/1",
                    opener=lambda t: _FakeCap(t, plan),
                    reconnect_tries=None,
                    clock=lambda: next(clock),
                    sleep=sleeps.append,
                ),
                strict=False,
            )
        ]
    assert [(f.frame, f.lost, f.image is not None) for f in got] == [
        (0, False, True),
        (1, False, True),
        (2, False, True),
    ]
    assert got[0].t == pytest.approx(0.04)
    assert sleeps == [0.5, 1.0, 2.0]
    assert (
        "rtsp://cam/1: cannot open stream or camera; trying again in 0.5 s (attempt 1 of unlimited)"
        in caplog.text
    )
    assert "rtsp://cam/1: opened after 4 attempt(s)" in caplog.text


def test_reading_ahead_holds_no_more_than_its_byte_budget_and_one_frame_at_least() -> None:
    """``max_bytes``: images decoded ahead and not yet taken stay within the budget (one frame is
    always allowed, however large), while the caller is slow."""
    import threading
    import time

    from vision.sources import Frame, _read_ahead

    made = [0]
    lock = threading.Lock()

    def frames(n: int, h: int) -> Iterator[Frame]:
        for i in range(n):
            with lock:
                made[0] += 1
            yield Frame(i, i / 25, np.zeros((h, 100, 3), np.uint8), "x")

    for h, budget_frames in ((100, 3), (1000, 0)):  # 30 kB frames in 90 kB; 300 kB frames in 90 kB
        made[0] = 0
        most_ahead = 0
        for taken, fr in enumerate(_read_ahead(frames(20, h), 16, 90_000), start=1):
            time.sleep(0.01)  # the reader catches up
            with lock:
                most_ahead = max(most_ahead, made[0] - taken)
            assert fr.frame == taken - 1
        # queued within the budget, plus the one the reader holds while it waits for room
        assert most_ahead <= max(budget_frames, 1) + 1


def test_reading_ahead_yields_the_same_frames_and_errors(tmp_path: Path) -> None:
    """``read_ahead`` decodes in a thread of its own: the same frames in the same order, a folder's
    clips one after another, and a truncated file's error after the frames before it."""
    write_clip(tmp_path / "b.avi", _frames(7), fps=10.0)
    write_clip(tmp_path / "a.avi", _frames(5), fps=10.0)

    def seen(**kw: object) -> list[tuple[str, int, float, float]]:
        return [
            (Path(f.clip).name, f.frame, f.t, -1.0 if f.image is None else float(f.image.mean()))
            for f in iter_frames(tmp_path, analyse_fps=5.0, skipped=True, **kw)  # type: ignore[arg-type]
        ]

    assert seen(read_ahead=2) == seen()
    assert seen(read_ahead=8, read_ahead_mb=0.01) == seen()  # a budget of one or two small frames
    p = write_clip(tmp_path / "t.avi", _frames(40), fps=25.0)
    cut = tmp_path / "cut.avi"
    data = p.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    got = []
    with pytest.raises(SourceError, match=r"cut.avi: frame \d+: cannot decode"):
        for f in iter_frames(cut, read_ahead=3):
            got.append(f.frame)
    assert got == list(range(len(got))) and len(got) > 5


class _CountingCap:
    """A file of ``n`` blank frames that counts the frames read and whether it was released."""

    def __init__(self, n: int) -> None:
        self.n, self.read_count, self.released = n, 0, False

    def isOpened(self) -> bool:
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: 25.0, cv2.CAP_PROP_FRAME_COUNT: float(self.n)}.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.read_count >= self.n:
            return False, None
        self.read_count += 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_caller_that_stops_early_stops_the_reading_and_the_file_is_released(tmp_path: Path) -> None:
    clip = tmp_path / "long.mp4"
    clip.write_bytes(b"x")
    cap = _CountingCap(10_000)
    frames = iter_frames(clip, opener=lambda _: cap, read_ahead=4)
    assert [next(frames).frame for _ in range(3)] == [0, 1, 2]
    frames.close()  # the caller is done (a watch stopped)
    assert cap.released
    assert cap.read_count <= 3 + 4 + 2  # read no further than the frames waiting, not the whole file


def test_prepare_runs_on_each_decoded_frame_of_a_file_in_the_reading_thread(tmp_path: Path) -> None:
    """``prepare``: a decoded frame carries what it made of its picture, made on the read-ahead
    thread when reading ahead (work off the caller's core); skipped frames carry nothing."""
    import threading

    write_clip(tmp_path / "a.avi", _frames(9), fps=10.0)
    threads: set[str] = set()

    def mean(image: np.ndarray) -> float:
        threads.add(threading.current_thread().name)
        return float(image.mean())

    for ahead in (0, 3):
        threads.clear()
        got = list(iter_frames(tmp_path, analyse_fps=5.0, skipped=True, read_ahead=ahead, prepare=mean))
        assert [f.prepared is None for f in got] == [f.image is None for f in got]
        assert any(f.image is None for f in got) and any(f.image is not None for f in got)
        assert all(f.prepared == float(f.image.mean()) for f in got if f.image is not None)
        assert threads == ({"read-ahead"} if ahead else {threading.current_thread().name})


def test_a_stream_urls_credentials_are_never_shown() -> None:
    """IP cameras are opened with their credentials in the URL: the log, the frames' clip name and the
    records say the URL with the password and any secret query parameter replaced by ***."""
    from vision.sources import redacted

    assert (
        redacted("rtsp://admin:s3cret@10.0.0.5:554/Streaming/101")
        == "rtsp://admin:***@10.0.0.5:554/Streaming/101"
    )
    assert redacted("rtsp://admin@cam/live") == "rtsp://admin@cam/live"  # no password: nothing hidden
    assert (
        redacted("http://cam/video.cgi?user=admin&pwd=s3cret&res=hd")
        == "http://cam/video.cgi?user=admin&pwd=***&res=hd"
    )
    assert redacted("http://u:p%40ss@cam:8080/mjpg?token=abc") == "http://u:***@cam:8080/mjpg?token=***"
    assert redacted("rtsp://cam/live") == "rtsp://cam/live"
    assert redacted("rtsp://[bad") == "rtsp://***"  # not splittable: nothing of it shown
    assert redacted("footage/s01.mp4") == "footage/s01.mp4" and redacted(0) == "0"


def test_a_stream_that_will_not_open_says_so_without_its_password(caplog: pytest.LogCaptureFixture) -> None:
    url = "rtsp://admin:s3cret@10.0.0.5/live"
    _FakeCap.opened = 0
    with caplog.at_level(logging.WARNING, logger="vision.sources"), pytest.raises(SourceError) as err:
        list(iter_frames(url, reconnect_tries=1, opener=lambda t: _FakeCap(t, []), sleep=lambda _s: None))
    assert "s3cret" not in str(err.value) and "rtsp://admin:***@10.0.0.5/live" in str(err.value)
    assert caplog.records and not any("s3cret" in r.getMessage() for r in caplog.records)
