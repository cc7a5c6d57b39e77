"""Video sources: a file, a folder of files, a stream URL or a camera, each yielding timestamped frames.

Timestamps come from the source, never the wall clock: a file's own, each frame's presentation time
(a recording with frames dropped or a variable rate keeps the times its player shows; frame number /
fps where the file gives none).
Live sources (streams, cameras) have no position, so there ``t`` is seconds since the source opened
(a monotonic clock, injectable for tests). A live source that drops reconnects with back-off and logs
each attempt, and says so in the stream too: the first failed read of each drop yields a ``lost``
marker (no image), so that what reads the frames knows the camera saw nothing from then until the
next frame, rather than taking the last picture for the table as it still is; one not there at the
start (a camera still booting) is waited for the same way. An unreadable file is
a ``SourceError`` naming the file and the frame.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

__all__ = [
    "IMAGE_SUFFIXES",
    "VIDEO_SUFFIXES",
    "Frame",
    "SourceError",
    "check_source",
    "iter_frames",
    "read_first_frame",
    "redacted",
]

_log = logging.getLogger("vision.sources")

VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".mov", ".m4v", ".webm", ".ts")
# every still format OpenCV reads here: one list for a folder source, ``detect FOLDER`` and the
# photograph readers (``vision.photos``), so a folder one of them takes the others take too
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A source cannot be opened or read; the message names the file/URL (and the frame)."""


class Frame(NamedTuple):
    frame: int  # frame number within its clip (0-based)
    t: float  # seconds from the start of the clip (file) or since the stream opened (live)
    image: np.ndarray | None  # BGR; None for a frame that was skipped (grabbed, not decoded) or lost
    clip: str  # the file or URL the frame comes from
    live: bool = False
    # a live source stopped giving frames at ``t`` (a marker, ``image`` None; ``frame`` the last frame
    # it gave): it is reconnecting, and nothing was seen until its next frame
    lost: bool = False
    # what ``iter_frames``' ``prepare`` made of ``image`` (a file's decoded frames only), else None
    prepared: Any = None


def _is_url(s: str) -> bool:
    return "://" in s


# a stream URL's query parameters that carry a secret (cameras' CGI streams: ...?user=u&pwd=p)
_SECRET_PARAMS = frozenset(
    {"password", "passwd", "pass", "pwd", "token", "key", "secret", "auth", "signature"}
)


def redacted(source: str | Path | int) -> str:
    """``source`` as it may be shown and recorded: a stream URL's password (``rtsp://user:pw@host``)
    and any secret query parameter (``?pwd=...``, ``&token=...``) replaced by ``***``. IP cameras are
    commonly opened with their credentials in the URL; they must not reach the console, the logs or
    the records. Anything not a URL is as given."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    text = str(source)
    if not _is_url(text):
        return text
    try:
        parts = urlsplit(text)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, host = netloc.rsplit("@", 1)
            user = userinfo.split(":", 1)[0]
            netloc = f"{user}:***@{host}" if ":" in userinfo else f"{user}@{host}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(k.lower() in _SECRET_PARAMS for k, _ in pairs):
                query = urlencode(
                    [(k, "***" if k.lower() in _SECRET_PARAMS else v) for k, v in pairs], safe="*"
                )
        return urlunsplit(parts._replace(netloc=netloc, query=query))
    except ValueError:  # not a URL urllib can split: shown as a URL, its secrets unknown
        scheme = text.split("://", 1)[0]
        return f"{scheme}://***"


def check_source(source: str | Path | int) -> None:
    """Raise ``SourceError`` where ``source`` is none of what ``iter_frames`` takes: a camera index, a
    stream URL, or a file or folder that exists (checked before anything is opened or written)."""
    if isinstance(source, int) or (isinstance(source, str) and (source.isdigit() or _is_url(source))):
        return
    if not Path(source).exists():
        raise SourceError(f"{source}: no such file, folder, stream URL or camera index")


def iter_frames(
    source: str | Path | int,
    *,
    analyse_fps: float | None = None,
    skipped: bool = False,
    reconnect_tries: int | None = 8,
    backoff_s: float = 0.5,
    max_backoff_s: float = 2.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    opener: Callable[[Any], Any] | None = None,
    read_ahead: int = 0,
    read_ahead_mb: float = 0.0,
    prepare: Callable[[np.ndarray], Any] | None = None,
) -> Iterator[Frame]:
    """Frames of ``source``: a video file, an image file, a folder (files in name order, each with its
    own timestamps), a stream URL (``rtsp://``, ``http://``) or a camera index.

    ``analyse_fps`` decodes a file's frames at about that rate (every n-th frame; the others are
    grabbed without being retrieved, and yielded with ``image=None`` only when ``skipped`` is true).
    Live sources yield every frame (the pipeline skips by time); one that drops yields a ``lost``
    marker and reconnects up to ``reconnect_tries`` times in a row (None: for as long as it takes),
    and one that cannot be opened at the start is tried again as often, saying so each time,
    waiting ``backoff_s`` and doubling up to ``max_backoff_s`` (kept short: a camera back after an
    outage is blind to the table for up to that wait more; with 10 s a 8-s outage of a test camera
    (``scripts/flaky_stream.py``) went unseen for 15.5 s, with 2 s for 9.5). ``opener`` replaces
    ``cv2.VideoCapture`` (tests). ``read_ahead`` > 0 decodes a file's frames up to that many ahead in a
    thread of their own (``_read_ahead``), and no more than ``read_ahead_mb`` MB of images ahead where
    that is given (one frame at least); what is yielded, and any error, is the same.
    ``prepare``: a function of a picture, run on each decoded frame of a file as it is read (in the
    read-ahead thread with ``read_ahead``: work taken off the caller's core), its result the frame's
    ``prepared``; a live source's frames are not prepared (the caller drops some of them by time).
    """
    open_cap = opener or cv2.VideoCapture
    open_file = opener or _open_file
    if isinstance(source, int) or (isinstance(source, str) and source.isdigit()):
        yield from _live(
            int(source),
            f"camera {int(source)}",
            open_cap,
            reconnect_tries,
            backoff_s,
            max_backoff_s,
            clock,
            sleep,
        )
        return
    if isinstance(source, str) and _is_url(source):
        name = redacted(source)  # what the log and the frames say: no credentials
        yield from _live(source, name, open_cap, reconnect_tries, backoff_s, max_backoff_s, clock, sleep)
        return
    path = Path(source)
    check_source(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in VIDEO_SUFFIXES + IMAGE_SUFFIXES)
        if not files:
            raise SourceError(
                f"{path}: folder holds no video or image files ({', '.join(VIDEO_SUFFIXES + IMAGE_SUFFIXES)})"
            )
    else:
        files = [path]
    frames = (fr for f in files for fr in _file(f, analyse_fps, skipped, open_file))
    if prepare is not None:
        frames = (fr if fr.image is None else fr._replace(prepared=prepare(fr.image)) for fr in frames)
    yield from _read_ahead(frames, read_ahead, round(read_ahead_mb * 2**20)) if read_ahead > 0 else frames


_END: Any = object()


def _open_file(path: str) -> Any:
    """A video file opened for decoding on one thread: FFmpeg's own threads (one a core by default)
    cost more CPU than they save once the pipeline keeps the other core busy (the 720p benchmark
    clip: 1.48 CPU-s to decode against 1.72 on FFmpeg's own threads, as ``benchmarks/vision_fps.py``
    prints both; 1.9-2.0 against 2.3-2.7 in a slower hour of this shared machine)."""
    return cv2.VideoCapture(path, cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, 1])


def _read_ahead(frames: Iterator[Frame], depth: int, max_bytes: int = 0) -> Iterator[Frame]:
    """``frames``, decoded up to ``depth`` ahead (and, with ``max_bytes``, no more than that many bytes
    of images ahead, one frame at least) in a thread of their own: OpenCV lets go of the interpreter
    while it decodes, so a file's next frames are decoded on another core while the caller analyses
    this one. An error the reading meets is raised here, after the frames before it; a caller that
    stops early stops the reading (and the file is released)."""
    ready: queue.Queue[Any] = queue.Queue(depth)
    stop = threading.Event()
    room = threading.Condition()
    held = [0]  # bytes of images queued and not yet taken

    def size(item: Any) -> int:
        image = getattr(item, "image", None)
        return int(image.nbytes) if max_bytes and image is not None else 0

    def put(item: Any) -> bool:
        n = size(item)
        if n:
            with room:
                while held[0] and held[0] + n > max_bytes and not stop.is_set():
                    room.wait(0.05)
                held[0] += n
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for fr in frames:
                if not put(fr):
                    return
            put(_END)
        except BaseException as e:  # handed to the caller, raised there
            put(e)
        finally:
            close = getattr(frames, "close", None)
            if close is not None:
                close()

    reader = threading.Thread(target=read, name="read-ahead", daemon=True)
    reader.start()
    try:
        while True:
            item = ready.get()
            n = size(item)
            if n:
                with room:
                    held[0] -= n
                    room.notify()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        reader.join()


class _FileTimes:
    """Each frame's time in a file: its own presentation time, from the file's first frame (OpenCV's
    position after the frame was read), so that a recording with frames dropped or a variable frame
    rate (a recorder's export, motion-triggered recording) keeps the times its player shows; the
    nominal ``frame / fps`` where the file gives none (the position stays at 0), and the nominal step
    after the last time for one out of order. A constant-rate file's times are ``frame / fps``."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self._first: float | None = None
        self._last = -float("inf")
        self._timed = False  # the file has given a time of its own past its first frame's

    def __call__(self, i: int, position_ms: object) -> float:
        ms = float(position_ms) if isinstance(position_ms, (int, float)) else 0.0
        if self._first is None:
            self._first = ms
        own = round((ms - self._first) / 1000.0, 6)  # to the microsecond: 8.040000000000001 is 8.04
        if own > self._last:
            t = own
        elif not self._timed:
            t = i / self.fps
        else:
            t = self._last + 1.0 / self.fps
        self._timed = self._timed or own > 0
        self._last = t
        return t


def _file(
    path: Path, analyse_fps: float | None, skipped: bool, open_cap: Callable[[Any], Any]
) -> Iterator[Frame]:
    if path.suffix.lower() in IMAGE_SUFFIXES:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise SourceError(f"{path}: cannot read image file")
        yield Frame(0, 0.0, img, str(path))
        return
    cap = open_cap(str(path))
    if not cap.isOpened():
        raise SourceError(f"{path}: cannot open video file (not a video, or a codec OpenCV lacks)")
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS)) or 0.0
        if not 1.0 <= fps <= 1000.0:
            fps = 25.0
            _log.warning("%s: no frame rate in the file; assuming %.0f fps", path, fps)
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        step = max(1, round(fps / analyse_fps)) if analyse_fps else 1
        stamp = _FileTimes(fps)
        i = 0
        next_decode = 0
        while True:
            if i >= next_decode:
                ok, img = cap.read()
                if not ok or img is None:
                    break
                yield Frame(i, stamp(i, cap.get(cv2.CAP_PROP_POS_MSEC)), img, str(path))
                next_decode = i + step
            else:
                if not cap.grab():
                    break
                t = stamp(i, cap.get(cv2.CAP_PROP_POS_MSEC))
                if skipped:
                    yield Frame(i, t, None, str(path))
            i += 1
        if i == 0:
            raise SourceError(f"{path}: frame 0: cannot decode any frame")
        if count > 0 and i < count - 2:
            raise SourceError(
                f"{path}: frame {i}: cannot decode (the file claims {count} frames; truncated?)"
            )
    finally:
        cap.release()


@dataclass
class _Backoff:
    first: float
    most: float
    now: float = 0.0

    def next(self) -> float:
        self.now = self.first if self.now == 0.0 else min(self.most, self.now * 2)
        return self.now


def _try_again(
    cap: Any,
    target: str | int,
    open_cap: Callable[[Any], Any],
    what: str,
    wait: _Backoff,
    attempt: int,
    tries: int | None,
    sleep: Callable[[float], None],
) -> Any:
    """Wait the next back-off (saying so: ``what`` ... "in S s (attempt N of M)"), then open again."""
    delay = wait.next()
    _log.warning(
        "%s in %.1f s (attempt %d of %s)", what, delay, attempt, "unlimited" if tries is None else tries
    )
    cap.release()
    sleep(delay)
    return open_cap(target)


def _live(
    target: str | int,
    name: str,
    open_cap: Callable[[Any], Any],
    tries: int | None,
    backoff_s: float,
    max_backoff_s: float,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> Iterator[Frame]:
    wait = _Backoff(backoff_s, max_backoff_s)
    cap = open_cap(target)
    failures = 0
    while not cap.isOpened():
        # not there at the start (a camera still booting, a network down): tried like a dropped feed
        failures += 1
        if tries is not None and failures > tries:
            tried = f" (gave up after {tries + 1} attempts)" if tries else ""
            raise SourceError(f"{name}: cannot open stream or camera{tried}")
        cap = _try_again(
            cap,
            target,
            open_cap,
            f"{name}: cannot open stream or camera; trying again",
            wait,
            failures,
            tries,
            sleep,
        )
    if failures:
        _log.warning("%s: opened after %d attempt(s)", name, failures + 1)
    t0 = clock()
    i = 0
    failures = 0
    wait.now = 0.0
    try:
        while True:
            ok, img = cap.read()
            if ok and img is not None:
                if failures:
                    _log.warning("%s: stream back after %d reconnect attempt(s)", name, failures)
                failures = 0
                wait.now = 0.0
                yield Frame(i, clock() - t0, img, name, True)
                i += 1
                continue
            # dropped: reconnect with back-off
            failures += 1
            if tries is not None and failures > tries:
                raise SourceError(
                    f"{name}: stream lost after frame {i - 1}; gave up after {tries} reconnect attempts"
                )
            if failures == 1:
                yield Frame(max(i - 1, 0), clock() - t0, None, name, True, lost=True)
            cap = _try_again(
                cap,
                target,
                open_cap,
                f"{name}: no frame after frame {i - 1}; reconnecting",
                wait,
                failures,
                tries,
                sleep,
            )
            if not cap.isOpened():
                _log.warning("%s: reconnect attempt %d failed to open", name, failures)
    finally:
        cap.release()


def read_first_frame(source: str | Path) -> np.ndarray:
    """The first frame of an image or video file (for calibration)."""
    for f in iter_frames(source):
        if f.image is not None:
            return f.image
    raise SourceError(f"{redacted(source)}: no frame")
