"""Processing a stream as it comes: table states in, monitor, durable alerts out (live and replay).

``stream_frames`` yields the table states of a source, from the vision pipeline (the default) or
from a ground-truth ``.states.jsonl`` stream; ``StreamProcessor`` feeds them to the compliance
``Monitor`` and turns each finding into an alert with its evidence picture, written durably before
anyone is shown it. ``run_live`` is the ``paigow-monitor live`` command: the same with a console
view, a webhook, and a clean stop on Ctrl-C. The audit job replays files through the same processor.
"""

from __future__ import annotations

import bisect
import collections
import functools
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from compliance.alerts import (
    BLANK_CORNER_MARK,
    CARRIED_MARK,
    COUNTED_MARK,
    UNNAMED_MARK,
    WEBHOOK_SECRET_ENV,
    Alert,
    AlertWriter,
    WebhookSender,
    _ChainedJsonl,
    clock_time,
    make_alert,
    marked,
    timecode,
)
from compliance.events import Event, EventKind, Finding, RoundRecord
from vision.layout import TableLayout
from vision.sources import redacted
from vision.state import TableState

if TYPE_CHECKING:
    import numpy as np
    from rich.console import Console, RenderableType

__all__ = [
    "CameraChange",
    "CameraEvent",
    "LiveSummary",
    "MonitorFactory",
    "MonitorLike",
    "StreamError",
    "StreamFrame",
    "StreamProcessor",
    "camera_changes",
    "default_monitor",
    "monitor_for",
    "read_states",
    "run_live",
    "stream_frames",
    "warm_up",
    "with_heartbeats",
]


_VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".m4v")
# the closed rounds a live watch keeps in memory (``StreamProcessor.keep_rounds``), the last of them:
# a round is judged while it is open and as it closes, and the live watch writes each alert as it is
# raised, never a report of the rounds; kept whole, they grew its memory about 65 kB a round, 7 MB an
# hour of the sample's rounds (``benchmarks/live_memory.py``), past the 2 GB target in about a week
LIVE_KEEP_ROUNDS = 100
# ... and with them about this many rounds' latest events and alerts (the sample's rounds: 23 events,
# 0.6 alerts a round), and the ids of as many alerts raised (one finding raised twice is one alert)
_EVENTS_A_ROUND = 64
_ALERTS_A_ROUND = 16


class StreamError(ValueError):
    """Bad input in a stream: the message names the file and the line or frame."""


class UpdateLike(Protocol):
    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def findings(self) -> Sequence[Finding]: ...


class MonitorLike(Protocol):
    """The compliance engine's ``Monitor`` as the runners use it."""

    def feed(self, state: TableState) -> UpdateLike: ...
    def finish(self) -> UpdateLike: ...
    @property
    def rounds(self) -> list[RoundRecord]: ...


MonitorFactory = Callable[[TableLayout], MonitorLike]


def default_monitor(layout: TableLayout, *, camera: bool = True) -> MonitorLike:
    """The compliance engine's Monitor with the table's default house way and settings.

    ``camera``: the states come from the camera pipeline, which sees a stacked face-down pile as
    one or two backs, so pile sizes are not taken as counts. Ground-truth states list every card.
    """
    try:
        from compliance.engine import Monitor, MonitorConfig
    except ImportError as e:
        raise StreamError(f"the compliance engine (compliance/engine.py) is not available: {e}") from e
    monitor: MonitorLike = Monitor(layout, config=MonitorConfig(face_down_counts_exact=not camera))
    return monitor


def monitor_for(states: bool) -> MonitorFactory:
    """The default monitor for ground-truth ``states`` or for camera input."""
    return functools.partial(default_monitor, camera=not states)


@dataclass
class StreamFrame:
    """One change of the table: its state, the camera frame if there is one, and when it arrived."""

    state: TableState
    image: np.ndarray | None = None
    arrived: float = field(default_factory=time.time)  # wall clock, for latency figures only
    heartbeat: bool = False  # no change: the last state again, later (lets the monitor's clock run)


def read_states(path: str | Path) -> Iterator[TableState]:
    """Table states from a ``.states.jsonl`` file; a bad line is an error naming file, line and frame."""
    p = Path(path)
    try:
        f = p.open("rb")
    except OSError as e:
        raise StreamError(f"{p}: cannot read states file: {e.strerror or e}") from e
    prev: TableState | None = None
    with f:
        for i, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                state = TableState.model_validate_json(line)
            except ValidationError as e:
                after = f" (after frame {prev.frame})" if prev is not None else ""
                err = e.errors()[0]
                loc = ".".join(str(x) for x in err["loc"]) or "<record>"
                raise StreamError(f"{p}:{i}{after}: invalid table state: {loc}: {err['msg']}") from e
            if prev is not None and (state.frame <= prev.frame or state.t < prev.t):
                raise StreamError(
                    f"{p}:{i}: frame {state.frame} (t={state.t}) does not follow frame {prev.frame} "
                    f"(t={prev.t}): states must go forward in time"
                )
            prev = state
            yield state


def stream_frames(
    source: str,
    layout: TableLayout,
    *,
    states: str | Path | None = None,
    realtime: bool = False,
    speed: float = 1.0,
    detector: Any = None,
    ticks: bool = False,
) -> Iterator[StreamFrame]:
    """The table states of a source: from the vision pipeline, or from a ground-truth states file.

    ``realtime`` paces a states file by its timestamps, or a video file's frames by theirs (to replay
    it as a live feed: a camera), ``speed`` times faster than real time. ``ticks``: the pipeline's
    frames that change nothing come too, as heartbeats (``vision.pipeline.watch``): the monitor's
    clock then runs with what the camera has been read up to.
    """
    if states is not None:
        start = time.monotonic()
        for st in read_states(states):
            if realtime:
                wait = start + st.t / speed - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            yield StreamFrame(st)
        return
    try:
        from vision.pipeline import watch  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:
        raise StreamError(
            f"{source}: the vision pipeline (vision/pipeline.py) is not available ({e}); "
            "use --states FILE.states.jsonl to run on ground-truth table states"
        ) from e
    src: str | int = int(source) if source.isdigit() else source
    paced = realtime and not (isinstance(src, int) or "://" in source)
    for r in watch(src, layout, detector=detector, pace=speed if paced else None, ticks=ticks):
        yield StreamFrame(r.state, r.image, time.time(), heartbeat=r.tick)


class CameraChange(NamedTuple):
    """A change in the camera's own state (``camera_changes``)."""

    kind: Literal["feed_lost", "feed_back", "view_moved", "view_back"]
    trouble: bool  # lost or moved (False: back)
    note: str  # a line for the operator or the auditor


def camera_changes(before: TableState | None, now: TableState) -> list[CameraChange]:
    """What changed in the camera's own state from ``before`` to ``now``: the live feed lost or back
    (``TableState.feed_lost``), the view moved or back in place (``TableState.view_moved_px``).
    Nothing for the first state in place."""
    out: list[CameraChange] = []
    lost = before.feed_lost if before is not None else False
    moved = before.view_moved_px if before is not None else None
    at = f"t={now.t:.2f}s (frame {now.frame})"
    if now.feed_lost != lost:
        out.append(
            CameraChange(
                "feed_lost",
                True,
                f"camera feed lost at {at}; reconnecting (nothing is seen until it is back)",
            )
            if now.feed_lost
            else CameraChange("feed_back", False, f"camera feed back at {at}")
        )
    if now.view_moved_px != moved:
        out.append(
            CameraChange("view_back", False, f"the camera's view is back in place at {at}")
            if now.view_moved_px is None
            else CameraChange(
                "view_moved",
                True,
                f"the camera's view has moved {now.view_moved_px:g} px at {at} (knocked or turned?): the "
                "layout's zones are off until it is put back or recalibrated; findings meanwhile are for "
                "review",
            )
        )
    return out


class CameraEvent(BaseModel):
    """A change in the camera's own state in a live run, one line of ``<alerts stem>.camera.jsonl``
    written durably when it is seen: the shift's record of when the table went unwatched or was
    watched askew, each with the picture it was seen in (for a lost feed, the last one before)."""

    model_config = ConfigDict(extra="forbid")

    table_id: str
    source: str
    kind: Literal["feed_lost", "feed_back", "view_moved", "view_back"]
    trouble: bool
    t: float  # footage seconds (a live source: since it opened)
    timecode: str
    frame: int
    moved_px: float | None = None  # view_moved: how far (TableState.view_moved_px)
    note: str
    logged_at: float  # wall clock (seconds since the epoch) when it was written
    evidence: str | None = None  # the picture, relative to the camera log's folder
    clock: str | None = None  # logged_at as local time, ISO 8601 with its UTC offset (``clock_time``)
    evidence_sha256: str | None = None  # of the picture's bytes as written (``paigow-monitor verify``)
    # the sha256 of the line before this one in the camera log (a hash chain, as the alerts file is:
    # ``compliance.alerts.chain_breaks``); None: the log's first line
    prev_sha256: str | None = None


# a live watch that has had no picture this many wall seconds after it asked the camera for one says
# so, durably (``_FirstPicture``): a camera not there at the start leaves the table unwatched as a
# dropped feed does
FIRST_PICTURE_S = 10.0


class _FirstPicture:
    """A live watch's wait for the camera's first picture: where none comes within
    ``FIRST_PICTURE_S``, a ``feed_lost`` camera event (t 0, frame 0, no picture: there is none), and
    a ``feed_back`` one with the first picture when it comes, each written before it is shown."""

    def __init__(
        self, table_id: str, record: Callable[[CameraChange, TableState, np.ndarray | None], None]
    ) -> None:
        self.table_id, self._record = table_id, record  # record: written, sent, then shown
        self.started = time.monotonic()
        self.since: float | None = None  # when it was said that no picture had come
        self.waited: float | None = None  # wall seconds from the start to the first picture

    def silent(self, waited: float) -> None:
        self.since = time.monotonic()
        state = TableState(table_id=self.table_id, frame=0, t=0.0, feed_lost=True)
        note = (
            f"no picture from the camera {waited:.0f} s after the watch started; still trying (nothing at "
            "the table is seen until it comes)"
        )
        self._record(CameraChange("feed_lost", True, note), state, None)

    def came(self, state: TableState, image: np.ndarray | None) -> None:
        self.waited = time.monotonic() - self.started
        self.since = None
        note = (
            f"the camera's first picture came {self.waited:.1f} s after the watch started, at "
            f"t={state.t:.2f}s (frame {state.frame})"
        )
        self._record(CameraChange("feed_back", False, note), state, image)

    def unseen_s(self) -> float | None:
        """Wall seconds without a picture at the start, where it was said (to now, if none came)."""
        if self.since is not None:
            return round(time.monotonic() - self.started, 3)
        return None if self.waited is None else round(self.waited, 3)


class _CameraLog:
    """Writes ``CameraEvent`` lines durably, each picture first (as alerts are written)."""

    def __init__(self, path: Path, evidence_dir: Path, layout: TableLayout, source: str) -> None:
        self.path, self.evidence_dir, self.layout, self.source = path, evidence_dir, layout, source
        self._out: _ChainedJsonl | None = None
        self.events: list[CameraEvent] = []

    def add(self, change: CameraChange, state: TableState, image: np.ndarray | None) -> CameraEvent:
        from compliance.evidence import draw_camera_evidence, write_evidence

        ev: str | None = None
        digest: str | None = None
        now = time.time()
        if image is not None:
            header = (
                f"{self.layout.table_id}  camera: {change.kind}  {clock_time(now)[:23]}  "
                f"{timecode(state.t)} (frame {state.frame})"
            )
            pic = draw_camera_evidence(
                self.layout, image, header, change.note, zones=change.kind.startswith("view")
            )
            path = self.evidence_dir / f"camera-{change.kind}-f{state.frame:07d}.jpg"
            digest = write_evidence(path, pic)
            try:
                ev = path.resolve().relative_to(self.path.parent.resolve()).as_posix()
            except ValueError:
                ev = str(path)
        rec = CameraEvent(
            table_id=self.layout.table_id,
            source=self.source,
            kind=change.kind,
            trouble=change.trouble,
            t=state.t,
            timecode=timecode(state.t),
            frame=state.frame,
            moved_px=state.view_moved_px if change.kind == "view_moved" else None,
            note=change.note,
            logged_at=now,
            evidence=ev,
            evidence_sha256=digest,
            clock=clock_time(now),
        )
        if self._out is None:
            self._out = _ChainedJsonl(self.path)  # the file exists only once there is something to say
        rec = self._out.append_linked(rec)
        self.events.append(rec)
        return rec

    def close(self) -> None:
        if self._out is not None:
            self._out.close()


def with_heartbeats(
    frames: Iterator[StreamFrame],
    *,
    every: float = 0.1,
    lag: float = 0.0,
    speed: float = 1.0,
    on_silence: Callable[[float], None] | None = None,
    silence_s: float = 10.0,
) -> Iterator[StreamFrame]:
    """A live stream with heartbeats: when no change comes for ``every`` wall seconds, the last
    state again with its time moved on (by the wall time since it arrived, less ``lag``).

    A source of changes only, and the monitor accepts a change once it has lasted its debounce
    time: without heartbeats a breach would wait for the *next* change to be confirmed. A camera's
    pipeline also yields a tick for each frame it reads that changes nothing (``stream_frames(ticks=
    True)``), exact where these are guesses: then these fill in only while it gives nothing (a feed
    lost, a stalled read), a heartbeat never going back before what was fed. The source is read on a
    background thread so that waiting for it never stops the heartbeat.

    Before the first state there is nothing to repeat: where none has come ``silence_s`` wall seconds
    after the stream was asked for (a camera not there at the start, or one that gives no picture),
    ``on_silence`` is called once with the seconds waited, on the caller's thread.
    """
    q: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=256)
    stop = threading.Event()

    def pump() -> None:
        try:
            for fr in frames:
                while not stop.is_set():
                    try:
                        q.put(("frame", fr), timeout=0.2)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(("end", None))
        except BaseException as e:  # handed to the consumer, raised there
            q.put(("error", e))

    th = threading.Thread(target=pump, name="source", daemon=True)
    asked = time.monotonic()
    th.start()
    last: StreamFrame | None = None
    fed_t = float("-inf")
    try:
        while True:
            try:
                kind, item = q.get(timeout=every)
            except queue.Empty:
                if last is None:
                    waited = time.monotonic() - asked
                    if on_silence is not None and waited >= silence_s:
                        on_silence(waited)
                        on_silence = None
                    continue
                now = time.time()
                st = last.state
                t = st.t + (now - last.arrived) * speed - lag
                if t > fed_t:
                    fps = st.frame / st.t if st.t > 0 and st.frame > 0 else 25.0
                    n = st.frame + max(0, round((t - st.t) * fps))
                    fed_t = t
                    yield StreamFrame(st.model_copy(update={"t": t, "frame": n}), None, now, heartbeat=True)
                continue
            if kind == "end":
                return
            if kind == "error":
                raise item
            last = item
            fed_t = max(fed_t, item.state.t)
            yield item
    finally:
        stop.set()


class _VideoFrames:
    """Frames of a video file by number, read forward (seeking back only when asked to); opened on
    first use, so a run that needs no picture from the file never opens it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cap: Any = None
        self._next = 0
        self.ok = True

    def get(self, frame: int) -> np.ndarray | None:
        import cv2

        if self._cap is None and self.ok:
            self._cap = cv2.VideoCapture(str(self.path))
            self.ok = bool(self._cap.isOpened())
        if not self.ok:
            return None
        if frame < self._next or frame - self._next > 300:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
            self._next = frame
        while self._next < frame:
            if not self._cap.grab():
                return None
            self._next += 1
        ok, img = self._cap.read()
        self._next += 1
        return img if ok else None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()


class StreamProcessor:
    """Feeds table states to a monitor; each finding becomes an alert with an evidence picture.

    The evidence picture is written first, then the alert (durably, when a writer is given), then
    ``on_alert`` is called: whatever shows or sends the alert comes after it is on disk.
    ``evidence_dir`` holds the pictures; alerts name them relative to ``evidence_base``.

    The picture of a breach is the camera frame of the state it names. The last ``keep_images``
    states' frames are kept as they came; with no video file to read an older one from (a camera or
    a stream), each frame that leaves them is kept JPEG-compressed (quality 90, as the evidence is
    written at 85) until ``keep_picture_bytes`` of them are held, oldest dropped first. A finding
    judged well after its moment needs it: a foul settled as dealt is judged at the round's end on the
    frame that last showed the setting, a deal out of turn with a hidden hand once the deal is over
    (measured on b58-0007 and b59-0010 fed as a camera: both pictures had been drawn from the table
    state, their frames 22 and dozens of states back). 128 MB holds about 500 states at 1280x720,
    two minutes of play or more.

    ``keep_rounds``: None keeps every round, event and alert (an audit reports them all: ``rounds``,
    ``events``, ``alerts``); a live watch, which runs for days, keeps the last ``keep_rounds`` closed
    rounds (``Monitor.forget_rounds``) and the latest events and alerts, about as many rounds' worth,
    so its memory does not grow with the rounds it has watched (``benchmarks/live_memory.py``);
    ``raised`` counts every alert by its status either way.
    """

    def __init__(
        self,
        layout: TableLayout,
        monitor: MonitorLike,
        *,
        source_name: str,
        evidence_dir: Path | None,
        evidence_base: Path | None = None,
        writer: AlertWriter | None = None,
        video: Path | None = None,
        on_alert: Callable[[Alert], None] | None = None,
        keep_states: int = 4096,
        keep_images: int = 16,
        keep_picture_bytes: int = 128 * 2**20,
        realtime_source: bool = False,
        keep_rounds: int | None = None,
    ) -> None:
        if keep_rounds is not None and keep_rounds < 1:
            raise ValueError(f"keep_rounds must be >= 1 (or None: every round), but got {keep_rounds}")
        self.keep_rounds = keep_rounds
        self.layout = layout
        self.monitor = monitor
        self.source_name = source_name
        self.evidence_dir = evidence_dir
        self.evidence_base = evidence_base or evidence_dir
        self.writer = writer
        self.on_alert = on_alert
        self.events: MutableSequence[Event] = (
            [] if keep_rounds is None else collections.deque(maxlen=keep_rounds * _EVENTS_A_ROUND)
        )
        self.alerts: MutableSequence[Alert] = (
            [] if keep_rounds is None else collections.deque(maxlen=keep_rounds * _ALERTS_A_ROUND)
        )
        self.raised: collections.Counter[str] = collections.Counter()  # every alert, by its status
        self.frames = 0
        self.last: StreamFrame | None = None
        self.current_round: int | None = None
        self._video = _VideoFrames(video) if video is not None and video.is_file() else None
        self._states: collections.deque[TableState] = collections.deque(maxlen=keep_states)
        self._frames_seen: collections.deque[int] = collections.deque(maxlen=keep_states)
        self._arrived: collections.deque[float] = collections.deque(maxlen=keep_states)
        self._last_t = float("-inf")
        self._images: collections.OrderedDict[int, np.ndarray] = collections.OrderedDict()
        self._keep_images = keep_images
        self._pictures: collections.OrderedDict[int, bytes] = collections.OrderedDict()  # JPEG, older
        self._picture_bytes = 0
        self._keep_picture_bytes = keep_picture_bytes
        self._seen: dict[str, None] = {}  # alert ids raised (in order: a live watch keeps the latest)
        self._past_rounds: list[RoundRecord] = []
        # A real-time source (camera, stream, paced replay): footage time runs with the wall clock, so
        # a frame's capture time is (wall - footage) offset + its t; the smallest offset seen is the
        # one least delayed by processing. It dates the breach frame even when the pipeline yields
        # its state only once it has settled.
        self._realtime = realtime_source
        self._offset = float("inf")
        self._base_name = source_name
        self.segment = 1

    @property
    def rounds(self) -> list[RoundRecord]:
        return [*self._past_rounds, *self.monitor.rounds]

    def restart(self, monitor: MonitorLike) -> list[Alert]:
        """A new clip begins (a folder source: time starts again): close the old monitor, go on."""
        out = self.finish()
        self._past_rounds += self.monitor.rounds
        if self.keep_rounds is not None:
            self._past_rounds = self._past_rounds[-self.keep_rounds :]
        self.monitor = monitor
        self.segment += 1
        self.source_name = f"{self._base_name}#{self.segment}"
        self._states.clear()
        self._frames_seen.clear()
        self._arrived.clear()
        self._images.clear()
        self._pictures.clear()
        self._picture_bytes = 0
        self._last_t = float("-inf")
        self._offset = float("inf")
        self.last = None
        return out

    def feed(self, frame: StreamFrame) -> list[Alert]:
        st = frame.state
        if st.t < self._last_t:  # a real state a heartbeat ran ahead of (by less than its lag)
            st = st.model_copy(update={"t": self._last_t})
        self._last_t = st.t
        if frame.heartbeat:
            return self._take(self.monitor.feed(st), st.t, st.frame)
        self.frames += 1
        self.last = frame
        self._states.append(st)
        self._frames_seen.append(st.frame)
        self._arrived.append(frame.arrived)
        self._offset = min(self._offset, frame.arrived - st.t)
        image = frame.image
        if image is None and self._realtime and self._video is not None:
            # states played at their pace with the video beside them for pictures (``live FILE
            # --states S --realtime``): the video is read forward as they come, so the picture of a
            # breach is at hand when a finding names its frame; read from the file's start then, the
            # alert waited on decoding (s03: 0.88 s from the breach frame, 1.17 s on a slower host)
            image = self._video.get(st.frame)
        if image is not None:
            self._images[st.frame] = image
            while len(self._images) > self._keep_images:
                self._keep_picture(*self._images.popitem(last=False))
        update = self.monitor.feed(st)
        return self._take(update, st.t, st.frame)

    def finish(self) -> list[Alert]:
        last = self.last
        t = last.state.t if last else 0.0
        fr = last.state.frame if last else 0
        return self._take(self.monitor.finish(), t, fr)

    def close(self) -> None:
        if self._video is not None:
            self._video.close()

    def _take(self, update: UpdateLike, t: float, frame: int) -> list[Alert]:
        for ev in update.events:
            self.events.append(ev)
            if ev.kind is EventKind.ROUND_START or self.current_round is None:
                self.current_round = ev.round
        out = []
        for f in update.findings:
            a = self._alert(f, t, frame)
            if a is not None:
                out.append(a)
        if self.keep_rounds is not None:
            forget = getattr(self.monitor, "forget_rounds", None)  # (a test's fake monitor may not)
            if callable(forget):
                forget(self.keep_rounds)
        return out

    def _index_at(self, frame: int) -> int | None:
        """Index of the state shown at a frame (a state holds until the next change)."""
        if not self._states:
            return None
        return max(0, bisect.bisect_right(list(self._frames_seen), frame) - 1)

    def _breach_arrival(self, f: Finding, i: int | None) -> float | None:
        if self._realtime and self._offset != float("inf"):
            return self._offset + f.t
        return None if i is None else self._arrived[i]

    def _state_at(self, frame: int) -> TableState | None:
        i = self._index_at(frame)
        return None if i is None else self._states[i]

    def _keep_picture(self, frame: int, image: np.ndarray) -> None:
        """A frame leaving the last ``keep_images``, kept compressed where no video file holds it."""
        if self._video is not None or self._keep_picture_bytes <= 0:
            return
        import cv2

        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            return
        data = jpeg.tobytes()
        self._pictures[frame] = data
        self._picture_bytes += len(data)
        while self._picture_bytes > self._keep_picture_bytes and self._pictures:
            self._picture_bytes -= len(self._pictures.popitem(last=False)[1])

    def _image_at(self, frame: int) -> np.ndarray | None:
        if frame in self._images:
            return self._images[frame]
        if frame in self._pictures:
            import cv2
            import numpy as np

            img: np.ndarray | None = cv2.imdecode(
                np.frombuffer(self._pictures[frame], np.uint8), cv2.IMREAD_COLOR
            )
            return img
        if self._video is not None:
            return self._video.get(frame)
        return None

    def _alert(self, f: Finding, t: float, frame: int) -> Alert | None:
        from compliance.evidence import draw_evidence, evidence_name, write_evidence

        i = self._index_at(f.frame)
        alert = make_alert(
            f,
            table_id=self.layout.table_id,
            source=self.source_name,
            detected_t=t,
            detected_frame=frame,
            frame_arrived_at=self._breach_arrival(f, i),
        )
        if self._realtime and self._offset != float("inf"):  # a live feed: the breach frame's clock time
            alert = alert.model_copy(update={"clock": clock_time(self._offset + f.t)})
        if alert.alert_id in self._seen:  # the same finding raised twice: one alert
            return None
        self._seen[alert.alert_id] = None
        if self.keep_rounds is not None and len(self._seen) > self.keep_rounds * _ALERTS_A_ROUND:
            del self._seen[next(iter(self._seen))]  # a finding is raised again within its round
        ev_rel: str | None = None
        if self.evidence_dir is not None:
            name = evidence_name(f)
            pic = draw_evidence(
                self.layout,
                f,
                state=self._state_at(f.frame),
                image=self._image_at(f.frame),
                table_id=self.layout.table_id,
                clock=alert.clock,
            )
            path = self.evidence_dir / name
            digest = write_evidence(path, pic)
            base = self.evidence_base or self.evidence_dir
            try:
                ev_rel = path.resolve().relative_to(base.resolve()).as_posix()
            except ValueError:
                ev_rel = str(path)
            alert = alert.model_copy(
                update={"evidence": ev_rel, "evidence_sha256": digest, "raised_at": time.time()}
            )
        if self.writer is not None:
            alert = self.writer.write(alert)  # durable before it is shown, linked to the line before
        self.alerts.append(alert)
        self.raised[alert.status] += 1
        if self.on_alert is not None:
            self.on_alert(alert)
        return alert


# --- the live command ----------------------------------------------------------------------------


def _warm_up_states(layout: TableLayout) -> list[TableState]:
    """A plain compliant-looking round on this table (distinct cards, 1 s per step)."""
    from vision.state import BACK, DealerState, SeatState

    n = 7 if layout.game == "seven-card" else 6
    deck = [r + s for s in "shdc" for r in "23456789TJQKA"]
    seats = layout.seat_numbers[: max(1, min(len(layout.seat_numbers), len(deck) // n - 1))]
    hands = {seat: deck[i * n : (i + 1) * n] for i, seat in enumerate(seats)}
    dealer = deck[len(seats) * n : (len(seats) + 1) * n]
    backs = [BACK] * n

    def st(i: int, seat_f: Callable[[int], SeatState], d: DealerState, lcd: int | None = 1) -> TableState:
        return TableState(
            table_id=layout.table_id,
            frame=i * 25,
            t=float(i),
            lcd=lcd,
            seats=[seat_f(k) for k in seats],
            dealer=d,
        )

    return [
        st(0, lambda k: SeatState(seat=k), DealerState(), None),
        st(1, lambda k: SeatState(seat=k, chips=True, dealt=list(backs)), DealerState(hand=list(backs))),
        st(
            2,
            lambda k: SeatState(seat=k, chips=True, high=backs[:5], low=backs[5:]),
            DealerState(hand=list(backs)),
        ),
        st(
            3,
            lambda k: SeatState(seat=k, chips=True, high=backs[:5], low=backs[5:]),
            DealerState(hand=dealer),
        ),
        st(
            4,
            lambda k: SeatState(seat=k, chips=True, high=backs[:5], low=backs[5:]),
            DealerState(high=dealer[:5], low=dealer[5:]),
        ),
        st(
            5,
            lambda k: SeatState(seat=k, chips=True, high=hands[k][:5], low=hands[k][5:]),
            DealerState(high=dealer[:5], low=dealer[5:]),
        ),
        st(6, lambda k: SeatState(seat=k), DealerState()),
        st(7, lambda k: SeatState(seat=k), DealerState()),
    ]


def warm_up(layout: TableLayout, factory: MonitorFactory) -> float:
    """Run one made-up round through a throwaway monitor, so that one-off costs (loading compiled
    rules kernels, imports) are paid before the feed starts, not on the first real alert. Returns
    the seconds it took; it never raises (a failure here shows up again, named, on the real feed)."""
    t0 = time.perf_counter()
    try:
        mon = factory(layout)
        for st in _warm_up_states(layout):
            mon.feed(st)
        mon.finish()
    except Exception:
        pass
    return time.perf_counter() - t0


class LiveSummary(BaseModel):
    """What a live run did (printed at the end, returned to callers)."""

    model_config = ConfigDict(extra="forbid")

    source: str
    frames: int
    alerts: int  # every record written: alerts and review items
    review: int = 0  # of which review items (status "review")
    alerts_file: str
    interrupted: bool
    webhook_delivered: int = 0
    webhook_failed: int = 0
    max_latency_s: float | None = None  # frame arrival -> alert durably written, worst seen
    states_skipped: int = 0  # states the monitor refused (each named on the console)
    feed_lost: int = 0  # times the camera feed dropped (TableState.feed_lost; each said on the console)
    feed_lost_s: float = 0.0  # footage seconds without a picture over those drops (to the last state)
    # wall seconds the watch waited for the camera's first picture, where none came within
    # ``FIRST_PICTURE_S`` (a camera not there at the start; to the end, if it never came); else None
    no_picture_at_start_s: float | None = None
    # the alerts file's hash chain's end (``AlertWriter.head``): the sha256 of its last line, to file
    chain_head: str | None = None
    view_moved: int = 0  # times the camera's view was seen moved (TableState.view_moved_px)
    camera_file: str | None = None  # the camera's own events (CameraEvent lines), where there were any


def _cards(
    cards: Sequence[str],
    unnamed: int = 0,
    carried: Sequence[str] = (),
    blank_corner: Sequence[str] = (),
    counted: Sequence[str] = (),
) -> str:
    shown = [marked(c, carried, blank_corner, counted) for c in cards] + [UNNAMED_MARK] * unnamed
    return " ".join(shown) if shown else "-"


def _view(proc: StreamProcessor, recent: Sequence[Alert], source: str) -> RenderableType:
    from rich.console import Group
    from rich.table import Table

    st = proc.last.state if proc.last else None
    head = Table.grid(padding=(0, 2))
    head.add_row(
        f"[bold]{proc.layout.table_id}[/] ({proc.layout.game})",
        f"source {source}",
        f"frame {st.frame if st else '-'}  {timecode(st.t) if st else ''}",
        f"round {proc.current_round if proc.current_round is not None else '-'}",
        f"LCD {st.lcd if st and st.lcd is not None else '-'}",
        f"alerts [bold red]{proc.raised['alert']}[/]",
        f"review [bold yellow]{proc.raised['review']}[/]",
    )
    grid = Table(title="table state", expand=False)
    for c in ("position", "chips", "dealt", "high", "low"):
        grid.add_column(c)
    if st is not None:
        u, k, b, n = st.unread_faces, st.carried_faces, st.blank_corner_faces, st.counted_faces
        notes = [f"{UNNAMED_MARK}: a face the camera saw but could not name"] if u else []
        if k:
            notes.append(
                f"{CARRIED_MARK}: not read here; the one card missing from the hand seen whole before"
            )
        if b:
            notes.append(f"{BLANK_CORNER_MARK}: named by a blank corner (no index printed: a Joker)")
        if n:
            notes.append(
                f"{COUNTED_MARK}: named by the count (the one card of the hand the table did not show)"
            )
        grid.caption = "; ".join(notes) or None

        def zone(key: str, cards: Sequence[str]) -> str:  # a zone's cards, each marked as it was named
            return _cards(cards, u.get(key, 0), k.get(key, ()), b.get(key, ()), n.get(key, ()))

        for s in sorted(st.seats, key=lambda s: s.seat):
            chips = ("yes" if s.chips else "") + (" +payout" if s.payout else "")
            areas = [zone(f"seat{s.seat}.{a}", getattr(s, a)) for a in ("dealt", "high", "low")]
            grid.add_row(f"seat{s.seat}", chips.strip(), *areas)
        d = st.dealer
        grid.add_row("dealer", "", *(zone(f"dealer.{a}", getattr(d, a)) for a in ("hand", "high", "low")))
        iv = st.iverify
        shown = "NOT VISIBLE" if not iv.visible else (iv.mode if iv.mode != "seat" else f"seat {iv.seat}")
        grid.add_row("i-Verify", "", shown, zone("iverify", iv.high), zone("iverify", iv.low))
    tables = []
    for status, title, colour in (
        ("alert", "alerts", "red"),
        ("review", "review items: doubtful, to look at", "yellow"),
    ):
        rows = [a for a in recent if a.status == status]
        if status == "review" and not rows:
            continue
        al = Table(title=f"{title} (latest last)")
        for c in ("time", "round", "seat", "check", "conf.", "expected", "observed"):
            al.add_column(c, overflow="fold")
        for a in rows:
            al.add_row(
                _when(a),
                str(a.round),
                "-" if a.seat is None else str(a.seat),
                f"[{colour}]{a.check_id.value}[/]",
                f"{a.confidence:.2f}",
                a.expected,
                a.observed,
            )
        tables.append(al)
    return Group(head, grid, *tables)


def _when(a: Alert) -> str:
    """An alert's time as surveillance is shown it: on a live feed the clock time of the breach frame
    (local, to the millisecond) with the footage time after it, else the footage time."""
    if a.clock is None:
        return a.timecode
    return f"{a.clock[11:23]} ({a.timecode})"


def _coarse_camera_note(layout: TableLayout, size: tuple[int, int]) -> str:
    """What the watch says of a picture of ``size`` (width, height) that shows the card areas too
    coarsely for the per-card targets (``vision.zones.COARSE_CAMERA_PX_PER_MM``); empty otherwise."""
    from vision.zones import COARSE_CAMERA_PX_PER_MM, card_resolution

    lo, hi = card_resolution(layout.scaled_to(*size, strict=False))
    if lo >= COARSE_CAMERA_PX_PER_MM:
        return ""
    return (
        f"the {size[0]}x{size[1]} picture shows the card areas at {lo:.2f}-{hi:.2f} px per felt mm, under "
        f"{COARSE_CAMERA_PX_PER_MM:g}: cards are read short of the per-card targets (spades as clubs above "
        "all), so more findings are review items"
    )


def run_live(
    source: str,
    layout: TableLayout,
    *,
    alerts_path: Path,
    states: Path | None = None,
    webhook: str | None = None,
    evidence_dir: Path | None = None,
    realtime: bool = False,
    speed: float = 1.0,
    heartbeat: float | None = 0.1,
    view: bool = True,
    console: Console | None = None,
    monitor_factory: MonitorFactory | None = None,
    on_written: Callable[[Alert, float], None] | None = None,
) -> LiveSummary:
    """Process a stream as it comes, writing alerts durably and showing them; stop cleanly on Ctrl-C."""
    from rich.console import Console
    from rich.live import Live

    console = console or Console()
    latencies: list[float] = []

    def written(a: Alert, at: float) -> None:
        if a.frame_arrived_at is not None:
            latencies.append(at - a.frame_arrived_at)
        if on_written is not None:
            on_written(a, at)

    import cv2  # noqa: F401  (loaded now, not when the first alert is being drawn)

    factory = monitor_factory or monitor_for(states is not None)
    monitor = factory(layout)  # a missing engine is an error before anything is opened
    warm_up(layout, factory)
    writer = AlertWriter(alerts_path, on_written=written)
    sender = (
        WebhookSender(
            webhook,
            alerts_path.with_name(alerts_path.stem + ".deadletter.jsonl"),
            secret=os.environ.get(WEBHOOK_SECRET_ENV) or None,
        )
        if webhook
        else None
    )
    recent: collections.deque[Alert] = collections.deque(maxlen=8)
    recent_review: collections.deque[Alert] = collections.deque(maxlen=8)

    def shown(a: Alert) -> None:
        (recent if a.status == "alert" else recent_review).append(a)
        if sender is not None:
            sender.send(a)  # both go out; the receiver files a "review" status in its review queue
        who = "dealer/table" if a.seat is None else f"seat {a.seat}"
        tag = (
            "[bold red]ALERT[/]"
            if a.status == "alert"
            else f"[yellow]REVIEW[/] [dim](conf. {a.confidence:.2f})[/]"
        )
        console.print(
            f"{tag} {_when(a)} {a.table_id} round {a.round} {who} "
            f"{a.check_id.value}: expected {a.expected or '-'}; observed {a.observed or '-'}"
            f" [dim]({a.evidence or 'no picture'})[/]"
        )

    ev_dir = evidence_dir or alerts_path.parent / (alerts_path.stem + "-evidence")
    # a video SOURCE gives the evidence pictures with --states, and any the frame cache no longer holds
    video = Path(source) if Path(source).suffix.lower() in _VIDEO_SUFFIXES else None
    said_as = redacted(source)  # a stream URL's credentials never shown nor recorded
    name = said_as if "://" in source else (Path(source).name or source)  # the records' source
    live_source = states is None and (source.isdigit() or "://" in source)
    realtime_source = live_source or realtime  # a camera, or a file played at its pace
    proc = StreamProcessor(
        layout,
        monitor,
        source_name=name,
        evidence_dir=ev_dir,
        evidence_base=alerts_path.parent,
        writer=writer,
        video=video,
        on_alert=shown,
        realtime_source=realtime_source,
        keep_rounds=LIVE_KEEP_ROUNDS,
    )
    camera_log = _CameraLog(
        alerts_path.with_name(alerts_path.stem + ".camera.jsonl"),
        ev_dir,
        layout,
        name,
    )

    def camera_event(change: CameraChange, state: TableState, image: np.ndarray | None) -> None:
        rec = camera_log.add(change, state, image)  # on disk before it is shown
        if sender is not None:
            sender.send(rec)
        pic = f" [dim]({rec.evidence})[/]" if rec.evidence else ""
        console.print(f"[{'red' if change.trouble else 'green'}]{said_as}: {change.note}[/]{pic}")

    waiting = _FirstPicture(layout.table_id, camera_event)
    interrupted = False
    skipped = 0
    drops: list[list[float]] = []  # [lost at, back at (or the latest time seen)] of each drop of the feed
    # Ctrl-C and SIGTERM stop the watch once; any more (``timeout`` signals the process, then its
    # group, at once) wait while the records close: the summary line and the files' last lines are
    # written (bounded: the webhook's drain is 3 s at most)
    stopping = [False]

    def _stop(signum: int, frame: FrameType | None) -> None:
        if not stopping[0]:
            stopping[0] = True
            raise KeyboardInterrupt

    old: dict[int, Any] = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.getsignal(sig)
            signal.signal(sig, _stop)
    except ValueError:  # not the main thread: Python's own handling
        for was, h in old.items():
            signal.signal(was, h)
        old = {}
    live = Live(console=console, auto_refresh=False, transient=False) if view else None
    try:
        if live is not None:
            live.start()
        last_draw = 0.0
        # a camera's (or a file played as one): the pipeline's frames that change nothing run the
        # monitor's clock as they are read, the heartbeats below while none come (a feed lost)
        paced = bool(heartbeat and realtime_source)
        frames = stream_frames(source, layout, states=states, realtime=realtime, speed=speed, ticks=paced)
        if heartbeat and paced:
            # a pipeline reading a camera lags the wall clock a little: heartbeats stay behind it
            frames = with_heartbeats(
                frames,
                every=heartbeat,
                lag=0.3 if states is None else 0.02,
                speed=speed,
                on_silence=waiting.silent,
                silence_s=FIRST_PICTURE_S,
            )
        feed_lost = False
        last_camera: TableState | None = None
        size: tuple[int, int] | None = None
        for fr in frames:
            if waiting.since is not None and not fr.heartbeat:
                waiting.came(fr.state, fr.image)
            if fr.image is not None and fr.image.shape[1::-1] != size:
                size = fr.image.shape[1::-1]
                note = _coarse_camera_note(layout, size)
                if note:
                    console.print(f"[yellow]{said_as}: {note}[/]")
            if not fr.heartbeat:
                for change in camera_changes(last_camera, fr.state):
                    camera_event(change, fr.state, fr.image)
                if fr.state.feed_lost and not feed_lost:
                    drops.append([fr.state.t, fr.state.t])
                elif feed_lost and not fr.state.feed_lost:
                    drops[-1][1] = fr.state.t
                feed_lost, last_camera = fr.state.feed_lost, fr.state
            if feed_lost:
                drops[-1][1] = max(drops[-1][1], fr.state.t)  # heartbeats: time unseen goes on
            if (
                proc.last is not None
                and not fr.heartbeat
                and fr.state.t < proc.last.state.t
                and states is None
            ):
                console.print(f"[dim]{said_as}: a new clip starts (time went back to {fr.state.t:.3f} s)[/]")
                proc.restart(factory(layout))
            try:
                proc.feed(fr)
            except ValueError as e:  # a state the monitor cannot take: named and skipped, the watch goes on
                skipped += 1
                console.print(
                    f"[yellow]skipped the state at frame {fr.state.frame} (t={fr.state.t:.3f}): {e}[/]"
                )
            now = time.monotonic()
            if live is not None and now - last_draw > 0.1:
                live.update(_view(proc, [*recent, *recent_review], source), refresh=True)
                last_draw = now
        proc.finish()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        stopping[0] = True  # from here on a signal waits for the records
        try:
            if live is not None:
                live.update(_view(proc, [*recent, *recent_review], source), refresh=True)
                live.stop()
            proc.close()
            writer.close()
            camera_log.close()
            if sender is not None:
                sender.close(drain_timeout=3.0)
        finally:
            for was, h in old.items():
                signal.signal(was, h)
    return LiveSummary(
        source=said_as,
        frames=proc.frames,
        alerts=proc.raised.total(),
        review=proc.raised["review"],
        alerts_file=str(alerts_path),
        interrupted=interrupted,
        webhook_delivered=sender.delivered if sender else 0,
        webhook_failed=sender.failed if sender else 0,
        max_latency_s=max(latencies) if latencies else None,
        states_skipped=skipped,
        feed_lost=len(drops),
        feed_lost_s=round(sum(b - a for a, b in drops), 3),
        view_moved=sum(e.kind == "view_moved" for e in camera_log.events),
        no_picture_at_start_s=waiting.unseen_s(),
        chain_head=writer.head,
        camera_file=str(camera_log.path) if camera_log.events else None,
    )
