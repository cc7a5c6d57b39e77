"""The live job: states in, alerts written durably before shown, console view, clean Ctrl-C."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest
from test_audit_support import (
    FakeMonitor,
    clip_states,
    fake_factory,
    write_layout,
    write_states,
    write_video,
)
from typer.testing import CliRunner

import compliance.live as live_mod
from compliance.alerts import Alert, clock_time, read_alerts, timecode
from compliance.cli import app
from compliance.events import CheckId
from compliance.live import (
    CameraEvent,
    LiveSummary,
    MonitorFactory,
    StreamError,
    StreamFrame,
    StreamProcessor,
    read_states,
    run_live,
)
from vision.layout import TableLayout
from vision.state import IVerifyState, SeatState, TableState

runner = CliRunner()


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_mod, "default_monitor", fake_factory)


def test_live_command_on_ground_truth_states(tmp_path: Path, fake_engine: None) -> None:
    write_layout(tmp_path / "layout.yaml")
    write_states(tmp_path / "c.states.jsonl", clip_states(pattern=(False, True, True)))
    alerts = tmp_path / "out" / "alerts.jsonl"
    r = runner.invoke(
        app,
        [
            "live",
            "cam1",
            "--layout",
            str(tmp_path / "layout.yaml"),
            "--alerts",
            str(alerts),
            "--states",
            str(tmp_path / "c.states.jsonl"),
        ],
    )
    assert r.exit_code == 0, r.output
    got = read_alerts(alerts)
    assert [(a.round, a.check_id) for a in got] == [
        (2, CheckId.DEALER_REVEAL_EARLY),
        (3, CheckId.DEALER_REVEAL_EARLY),
    ]
    assert "ALERT" in r.output and "2 alert(s)" in r.output
    for a in got:
        assert a.evidence is not None and (alerts.parent / a.evidence).is_file()
        assert a.clock is None  # a recording's states: its timecode is the recording's own
        assert a.table_id == "T1" and a.timecode.startswith("00:00:")
        assert a.frame_arrived_at is not None and a.raised_at >= a.frame_arrived_at


def test_alert_is_on_disk_before_it_is_shown(tmp_path: Path) -> None:
    lay = write_layout(tmp_path / "layout.yaml")
    alerts = tmp_path / "a.jsonl"
    on_disk_when_shown: list[bool] = []

    def shown(a: Alert) -> None:
        on_disk_when_shown.append(a.alert_id in {x.alert_id for x in read_alerts(alerts)})

    from compliance.alerts import AlertWriter

    with AlertWriter(alerts) as w:
        proc = StreamProcessor(
            lay, FakeMonitor(lay), source_name="s", evidence_dir=tmp_path / "ev", writer=w, on_alert=shown
        )
        for st in clip_states(pattern=(True, True)):
            proc.feed(StreamFrame(st))
    assert on_disk_when_shown == [True, True]


def test_evidence_uses_the_video_frame_when_states_come_with_a_video(tmp_path: Path) -> None:
    import cv2

    lay = write_layout(tmp_path / "layout.yaml")
    states = clip_states(pattern=(True,))
    write_video(tmp_path / "c.mp4", states[-1].t + 0.5)
    proc = StreamProcessor(
        lay, FakeMonitor(lay), source_name="c.mp4", evidence_dir=tmp_path / "ev", video=tmp_path / "c.mp4"
    )
    for st in states:
        proc.feed(StreamFrame(st))
    proc.close()
    (a,) = proc.alerts
    assert a.evidence is not None
    pic = cv2.imread(str(tmp_path / "ev" / a.evidence))
    # the synthetic video is grey (90); a drawn picture would be felt green
    h = pic.shape[0]
    body = pic[h - 40 :, :40]
    assert abs(float(body.mean()) - 90) < 15


def test_states_played_at_their_pace_read_the_video_forward_as_they_come(tmp_path: Path) -> None:
    """``live FILE --states S --realtime``: each state's frame is read from the video as the state
    comes (the same pixels as reading the file anew), so a finding's picture is at hand, not decoded
    from the file's start when the alert is raised; a replay as fast as it goes reads only the
    frames a finding names."""
    import cv2

    lay = write_layout(tmp_path / "layout.yaml")
    states = clip_states(pattern=(True,))
    write_video(tmp_path / "c.mp4", states[-1].t + 0.5)
    for realtime in (True, False):
        proc = StreamProcessor(
            lay,
            FakeMonitor(lay),
            source_name="c.mp4",
            evidence_dir=tmp_path / f"ev{realtime}",
            video=tmp_path / "c.mp4",
            realtime_source=realtime,
        )
        for st in states:
            proc.feed(StreamFrame(st))
        assert len(proc.alerts) == 1
        kept = dict(proc._images)
        proc.close()
        if not realtime:
            assert kept == {}
            continue
        assert sorted(kept) == [st.frame for st in states][-len(kept) :] and len(kept) == min(16, len(states))
        cap = cv2.VideoCapture(str(tmp_path / "c.mp4"))
        for n, img in kept.items():
            cap.set(cv2.CAP_PROP_POS_FRAMES, n)
            ok, want = cap.read()
            assert ok and np.array_equal(img, want), n
        cap.release()


class _LateMonitor(FakeMonitor):
    """FakeMonitor whose findings come ``late`` states after the state they name (a check that
    judges a breach at the round's end, on the frame that showed it)."""

    def __init__(self, layout: TableLayout, late: int) -> None:
        super().__init__(layout)
        self._late = late
        self._held: list[tuple[int, Any]] = []
        self._fed = 0

    def feed(self, st: TableState) -> Any:
        up = super().feed(st)
        self._fed += 1
        self._held += [(self._fed + self._late, f) for f in up.findings]
        up.findings = [f for due, f in self._held if due <= self._fed]
        self._held = [(due, f) for due, f in self._held if due > self._fed]
        return up


@pytest.mark.parametrize("kept_bytes", [64 * 2**20, 0])
def test_a_camera_finding_judged_late_keeps_its_camera_picture(tmp_path: Path, kept_bytes: int) -> None:
    # A camera (no video file to read back): the breach's frame left the last ``keep_images`` frames
    # 30 states before its finding came; it was kept compressed, and the evidence is that frame
    # (each frame a grey of its own), not a picture drawn from the state. Nothing kept: drawn.
    import cv2

    lay = write_layout(tmp_path / "layout.yaml")
    proc = StreamProcessor(
        lay,
        _LateMonitor(lay, late=30),
        source_name="cam1",
        evidence_dir=tmp_path / "ev",
        keep_images=4,
        keep_picture_bytes=kept_bytes,
    )
    states = clip_states(pattern=(True,))
    last = states[-1]
    states += [
        last.model_copy(update={"frame": last.frame + 1 + i, "t": last.t + 0.1 * (i + 1)}) for i in range(40)
    ]
    size = (lay.image_height, lay.image_width, 3)
    for st in states:
        proc.feed(StreamFrame(st, np.full(size, 40 + st.frame % 150, np.uint8)))
    proc.close()
    (a,) = proc.alerts
    assert a.evidence is not None
    pic = cv2.imread(str(tmp_path / "ev" / a.evidence))
    body = pic[pic.shape[0] - 40 :, :40]
    grey = 40 + a.frame % 150
    if kept_bytes:
        assert abs(float(body.mean()) - grey) < 6 and float(body.std()) < 6
    else:  # drawn from the state: the felt, not the frame's grey
        assert abs(float(body.mean()) - grey) >= 6 or float(body.std()) >= 6


def test_ctrl_c_keeps_everything_recorded(
    tmp_path: Path, fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    lay = write_layout(tmp_path / "layout.yaml")
    states = clip_states(pattern=(True, False, True))
    real = live_mod.stream_frames

    def interrupted(*a: object, **k: object) -> Iterator[StreamFrame]:
        for i, fr in enumerate(real(*a, **k)):  # type: ignore[arg-type]
            if i == 10:  # after the first round's alert, before the third round's
                raise KeyboardInterrupt
            yield fr

    monkeypatch.setattr(live_mod, "stream_frames", interrupted)
    write_states(tmp_path / "c.states.jsonl", states)
    alerts = tmp_path / "alerts.jsonl"
    r = runner.invoke(
        app,
        [
            "live",
            "x.mp4",
            "--layout",
            str(tmp_path / "layout.yaml"),
            "--alerts",
            str(alerts),
            "--states",
            str(tmp_path / "c.states.jsonl"),
            "--no-view",
        ],
    )
    assert r.exit_code == 130, r.output
    assert "stopped" in r.output and "1 alert(s)" in r.output
    assert [a.round for a in read_alerts(alerts)] == [1]
    assert lay.table_id == "T1"


def test_more_signals_while_the_watch_stops_still_end_with_the_summary(
    tmp_path: Path, fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``timeout -s INT`` signals the process and then its group, at once, and an impatient operator
    presses Ctrl-C again: the signals after the first wait while ``live`` closes its records, and the
    summary line is printed (before, a second one ended the process without it, or any line of
    output buffered: 1 of 4 runs of ``timeout -s INT`` on s01 played at camera pace)."""
    import os
    import signal

    write_layout(tmp_path / "layout.yaml")
    write_states(tmp_path / "c.states.jsonl", clip_states(pattern=(True, False, True)))
    real, close = live_mod.stream_frames, live_mod._CameraLog.close

    def interrupted(*a: object, **k: object) -> Iterator[StreamFrame]:
        for i, fr in enumerate(real(*a, **k)):  # type: ignore[arg-type]
            if i == 10:  # after the first round's alert, before the third round's
                try:
                    os.kill(os.getpid(), signal.SIGINT)  # handled here, on this (the main) thread
                finally:
                    os.kill(os.getpid(), signal.SIGINT)  # the group's, as the first unwinds
            yield fr

    def close_signalled(self: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # and one more while the records close
        close(self)  # type: ignore[arg-type]

    monkeypatch.setattr(live_mod, "stream_frames", interrupted)
    monkeypatch.setattr(live_mod._CameraLog, "close", close_signalled)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    args = ["live", "x.mp4", "--layout", str(tmp_path / "layout.yaml"), "--alerts", str(tmp_path / "a.jsonl")]
    r = runner.invoke(app, [*args, "--states", str(tmp_path / "c.states.jsonl"), "--no-view"])
    assert r.exit_code == 130, r.output
    assert "stopped" in r.output and "1 alert(s)" in r.output
    assert [a.round for a in read_alerts(tmp_path / "a.jsonl")] == [1]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before  # put back


def _live_on_states(
    tmp_path: Path, states: list[TableState], factory: MonitorFactory, *, view: bool = True
) -> tuple[LiveSummary, str]:
    """``run_live`` on ``states`` written as clip "c" (alerts to ``a.jsonl``): its summary and what it
    printed (a recording console, no terminal; the live view too unless ``view`` is False)."""
    from rich.console import Console

    lay = write_layout(tmp_path / "layout.yaml")
    write_states(tmp_path / "c.states.jsonl", states)
    con = Console(record=True, width=150, force_terminal=False)
    s = run_live(
        "c",
        lay,
        alerts_path=tmp_path / "a.jsonl",
        states=tmp_path / "c.states.jsonl",
        view=view,
        console=con,
        monitor_factory=factory,
    )
    return s, con.export_text()


def test_run_live_view_renders_without_a_terminal(tmp_path: Path) -> None:
    s, text = _live_on_states(tmp_path, clip_states(pattern=(True,)), fake_factory)
    assert s.alerts == 1 and not s.interrupted
    assert "DEALER-REVEAL-EARLY" in text and "i-Verify" in text and "seat2" in text


def test_the_console_says_when_the_camera_feed_is_lost_and_when_it_is_back(tmp_path: Path) -> None:
    states = clip_states(pattern=(False,))
    lost = {3, 4}  # the pipeline's lost state, then a heartbeat-like repeat of it
    marked = [st.model_copy(update={"feed_lost": True}) if i in lost else st for i, st in enumerate(states)]
    s, text = _live_on_states(tmp_path, marked, fake_factory, view=False)
    assert s.feed_lost == 1 and s.feed_lost_s == pytest.approx(states[5].t - states[3].t, abs=1e-3)
    assert text.count("camera feed lost") == 1 and text.count("camera feed back") == 1
    assert f"camera feed lost at t={states[3].t:.2f}s" in text
    assert f"camera feed back at t={states[5].t:.2f}s" in text
    # and on disk, for the shift's record (ground-truth states carry no picture)
    assert s.camera_file == str(tmp_path / "a.camera.jsonl")
    log = [CameraEvent.model_validate_json(line) for line in Path(s.camera_file).read_text().splitlines()]
    assert [(e.kind, e.trouble, e.frame, e.evidence) for e in log] == [
        ("feed_lost", True, states[3].frame, None),
        ("feed_back", False, states[5].frame, None),
    ]
    assert log[0].timecode == timecode(states[3].t) and log[0].table_id == "T1"


def test_the_console_says_when_the_cameras_view_moved_and_when_it_is_back(tmp_path: Path) -> None:
    states = clip_states(pattern=(False,))
    moved = [
        st.model_copy(update={"view_moved_px": 21.5}) if i in (3, 4) else st for i, st in enumerate(states)
    ]
    s, text = _live_on_states(tmp_path, moved, fake_factory, view=False)
    assert f"the camera's view has moved 21.5 px at t={states[3].t:.2f}s" in text
    assert s.view_moved == 1 and s.camera_file is not None
    kinds = [CameraEvent.model_validate_json(x).kind for x in Path(s.camera_file).read_text().splitlines()]
    assert kinds == ["view_moved", "view_back"]
    assert text.count("has moved") == 1
    assert f"view is back in place at t={states[5].t:.2f}s" in text


def test_bad_states_line_names_file_line_and_frame(tmp_path: Path) -> None:
    p = tmp_path / "c.states.jsonl"
    states = clip_states(pattern=(False,))
    write_states(p, states)
    lines = p.read_text().splitlines()
    lines[3] = lines[3].replace('"frame"', '"frmae"')
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(StreamError, match=rf"c.states.jsonl:4 \(after frame {states[2].frame}\)"):
        list(read_states(p))


def test_states_going_back_in_time_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "c.states.jsonl"
    s = clip_states(pattern=(False,))
    write_states(p, [s[0], s[2], s[1]])
    with pytest.raises(StreamError, match="does not follow frame"):
        list(read_states(p))


def test_live_bad_layout_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("table_id: T1\ngame: nine-card\n")
    r = runner.invoke(app, ["live", "0", "--layout", str(tmp_path / "bad.yaml"), "--states", "x"])
    assert r.exit_code == 2
    assert "bad.yaml" in r.output and "game" in r.output


def test_live_on_a_missing_file_says_so_and_records_nothing(tmp_path: Path) -> None:
    write_layout(tmp_path / "layout.yaml")
    alerts = tmp_path / "alerts.jsonl"
    r = runner.invoke(
        app,
        [
            "live",
            str(tmp_path / "gone.mp4"),
            "--layout",
            str(tmp_path / "layout.yaml"),
            "--alerts",
            str(alerts),
        ],
    )
    assert r.exit_code == 2
    assert "gone.mp4: no such file, folder, stream URL or camera index" in r.output
    assert not alerts.exists() and "SourceError" not in r.output


def test_vision_pipeline_frames_feed_the_same_monitor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --states the states come from vision.pipeline.watch (a stand-in module here)."""
    lay = write_layout(tmp_path / "layout.yaml")
    calls: list[object] = []

    def watch(
        source: object,
        layout: TableLayout,
        *,
        detector: object = None,
        pace: float | None = None,
        ticks: bool = False,
    ) -> Iterator[SimpleNamespace]:
        calls.append(source)
        for st in clip_states(pattern=(True,)):
            yield SimpleNamespace(state=st, image=np.full((160, 320, 3), 200, np.uint8), tick=False)

    mod = ModuleType("vision.pipeline")
    mod.watch = watch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.pipeline", mod)
    s = run_live("3", lay, alerts_path=tmp_path / "a.jsonl", view=False, monitor_factory=fake_factory)
    assert calls == [3]  # a camera index
    assert s.alerts == 1
    (a,) = read_alerts(tmp_path / "a.jsonl")
    assert a.evidence is not None and (tmp_path / a.evidence).is_file()


def test_a_state_the_monitor_refuses_is_named_and_skipped(tmp_path: Path) -> None:
    states = clip_states(pattern=(False, True))
    bad_frame = states[3].frame

    class Picky(FakeMonitor):
        def feed(self, st: object) -> object:  # type: ignore[override]
            if getattr(st, "frame", None) == bad_frame:
                raise ValueError(f"frame {bad_frame}: unknown seat 9")
            return super().feed(st)  # type: ignore[arg-type]

    s, text = _live_on_states(tmp_path, states, Picky, view=False)
    assert s.states_skipped == 1 and s.alerts == 1 and s.frames == len(states)
    assert f"skipped the state at frame {bad_frame}" in text


def test_heartbeats_move_time_on_between_changes_and_never_pass_the_next_state() -> None:
    import time as _time

    from compliance.live import with_heartbeats

    s = clip_states(pattern=(False,))

    def slow() -> Iterator[StreamFrame]:
        yield StreamFrame(s[1])
        _time.sleep(0.35)
        yield StreamFrame(s[2])

    got = list(with_heartbeats(slow(), every=0.05, lag=0.0))
    beats = [f for f in got if f.heartbeat]
    assert [f.state.frame for f in got if not f.heartbeat] == [s[1].frame, s[2].frame]
    assert len(beats) >= 3
    ts = [f.state.t for f in got]
    assert ts == sorted(ts) and all(s[1].t < b.state.t < s[2].t for b in beats)
    assert all(b.state.seats == s[1].seats for b in beats)  # the same content, later


def test_live_realtime_alert_comes_before_the_next_change(tmp_path: Path) -> None:
    """With the real engine: a breach is confirmed by heartbeats, not by the next state change."""
    lay = write_layout(tmp_path / "layout.yaml")
    states = clip_states(pattern=(True,))
    write_states(tmp_path / "c.states.jsonl", states)
    s = run_live(
        "c",
        lay,
        alerts_path=tmp_path / "a.jsonl",
        states=tmp_path / "c.states.jsonl",
        view=False,
        realtime=True,
        speed=4.0,
        heartbeat=0.01,
    )
    early = [a for a in read_alerts(tmp_path / "a.jsonl") if a.check_id is CheckId.DEALER_REVEAL_EARLY]
    assert s.alerts >= 1 and len(early) == 1
    (a,) = early
    nxt = min(st.t for st in states if st.t > a.t)
    assert a.detected_t < nxt
    assert a.frame_arrived_at is not None and a.raised_at - a.frame_arrived_at < 1.0
    # a live feed's alert says the clock time its breach frame was taken, for pulling the recorder's
    # footage: local, with its UTC offset, within the pipeline's delay of when the frame came
    from datetime import datetime

    assert a.clock is not None and a.clock == clock_time(a.frame_arrived_at)
    taken = datetime.fromisoformat(a.clock)
    assert taken.tzinfo is not None and abs(taken.timestamp() - a.frame_arrived_at) < 0.001
    assert abs(taken.timestamp() - a.raised_at) < 1.0


def test_a_folder_source_starts_a_fresh_monitor_for_each_clip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vision.pipeline.watch on a folder restarts time for each clip: each gets its own monitor."""
    lay = write_layout(tmp_path / "layout.yaml")
    made: list[FakeMonitor] = []

    def factory(layout: TableLayout) -> FakeMonitor:
        made.append(FakeMonitor(layout))
        return made[-1]

    def watch(
        source: object,
        layout: TableLayout,
        *,
        detector: object = None,
        pace: float | None = None,
        ticks: bool = False,
    ) -> Iterator[SimpleNamespace]:
        for _clip in range(2):
            for st in clip_states(pattern=(True,)):
                yield SimpleNamespace(state=st, image=np.zeros((160, 320, 3), np.uint8), tick=False)

    mod = ModuleType("vision.pipeline")
    mod.watch = watch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.pipeline", mod)
    s = run_live(str(tmp_path), lay, alerts_path=tmp_path / "a.jsonl", view=False, monitor_factory=factory)
    got = read_alerts(tmp_path / "a.jsonl")
    assert len(made) == 3 and s.alerts == 2 and s.states_skipped == 0  # a throwaway warm-up + one per clip
    assert len({a.alert_id for a in got}) == 2 and got[1].source.endswith("#2")


def test_live_command_posts_to_the_webhook(
    tmp_path: Path, fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import http.server
    import json as _json
    import threading

    from compliance.alerts import sign

    got: list[dict[str, object]] = []
    kinds: list[str] = []
    signed: list[bool] = []
    monkeypatch.setenv("PAIGOW_WEBHOOK_SECRET", "sh4red")  # the secret from the environment

    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            kinds.append(str(self.headers["X-Paigow-Record"]))
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            stamp = str(self.headers["X-Paigow-Timestamp"])
            signed.append(self.headers["X-Paigow-Signature"] == sign(b"sh4red", stamp, raw))
            got.append(_json.loads(raw))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        write_layout(tmp_path / "layout.yaml")
        states = clip_states(pattern=(True, True))
        # the camera's feed drops for two states: its loss and return go to the webhook too
        states = [st.model_copy(update={"feed_lost": i in (3, 4)}) for i, st in enumerate(states)]
        write_states(tmp_path / "c.states.jsonl", states)
        alerts = tmp_path / "alerts.jsonl"
        url = f"http://127.0.0.1:{srv.server_address[1]}/hook"
        r = runner.invoke(
            app,
            [
                "live",
                "cam",
                "--layout",
                str(tmp_path / "layout.yaml"),
                "--alerts",
                str(alerts),
                "--states",
                str(tmp_path / "c.states.jsonl"),
                "--webhook",
                url,
                "--no-view",
            ],
        )
    finally:
        srv.shutdown()
        srv.server_close()
    assert r.exit_code == 0, r.output
    assert "webhook delivered 4, failed 0" in r.output
    posted = [g for g, k in zip(got, kinds, strict=True) if k == "alert"]
    assert sorted(str(g["alert_id"]) for g in posted) == sorted(a.alert_id for a in read_alerts(alerts))
    camera = [CameraEvent.model_validate(g) for g, k in zip(got, kinds, strict=True) if k == "camera"]
    assert [(e.kind, e.frame) for e in camera] == [
        ("feed_lost", states[3].frame),
        ("feed_back", states[5].frame),
    ]
    assert sorted(kinds) == ["alert", "alert", "camera", "camera"]
    assert signed == [True] * 4 and "sh4red" not in r.output


@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_warm_up_plays_a_whole_round_through_a_throwaway_monitor(game: str) -> None:
    from test_audit_support import layout_dict

    from compliance.engine import Monitor
    from compliance.live import warm_up

    lay = TableLayout.model_validate({**layout_dict(), "game": game})
    made: list[Monitor] = []

    def factory(layout: TableLayout) -> Monitor:
        made.append(Monitor(layout))
        return made[-1]

    assert warm_up(lay, factory) >= 0
    (mon,) = made
    (rnd,) = mon.rounds
    dealer = next(h for h in rnd.hands if h.position == "dealer")
    assert len(dealer.high) == 5 and len(dealer.low) == (2 if game == "seven-card" else 1)
    assert rnd.t_end is not None


def test_heartbeat_stream_passes_the_source_error_on() -> None:
    from compliance.live import with_heartbeats

    s = clip_states(pattern=(False,))

    def broken() -> Iterator[StreamFrame]:
        yield StreamFrame(s[1])
        raise StreamError("x.states.jsonl:3: invalid table state")

    frames = with_heartbeats(broken(), every=0.05)
    assert next(frames).state.frame == s[1].frame
    with pytest.raises(StreamError, match=r"x\.states\.jsonl:3"):
        list(frames)


def test_pipeline_failure_mid_stream_is_named_and_keeps_the_alerts(
    tmp_path: Path, fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_layout(tmp_path / "layout.yaml")

    def watch(
        source: object,
        layout: TableLayout,
        *,
        detector: object = None,
        pace: float | None = None,
        ticks: bool = False,
    ) -> Iterator[SimpleNamespace]:
        for st in clip_states(pattern=(True,))[:4]:
            yield SimpleNamespace(state=st, image=np.zeros((160, 320, 3), np.uint8), tick=False)
        raise RuntimeError("camera 0: stream lost after 8 reconnect tries")

    mod = ModuleType("vision.pipeline")
    mod.watch = watch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.pipeline", mod)
    alerts = tmp_path / "alerts.jsonl"
    r = runner.invoke(
        app, ["live", "0", "--layout", str(tmp_path / "layout.yaml"), "--alerts", str(alerts), "--no-view"]
    )
    assert r.exit_code == 1
    assert "error: 0: RuntimeError: camera 0: stream lost" in r.output
    assert len(read_alerts(alerts)) == 1


def test_review_items_are_recorded_and_shown_apart_from_alerts(tmp_path: Path) -> None:
    class Doubtful(FakeMonitor):  # its finding rests on a doubtful camera read
        def feed(self, st: TableState) -> Any:
            up = super().feed(st)
            up.findings = [f.model_copy(update={"confidence": 0.55, "status": "review"}) for f in up.findings]
            return up

    s, text = _live_on_states(tmp_path, clip_states(pattern=(True,)), Doubtful)
    assert s.alerts == 1 and s.review == 1  # recorded (durably) like an alert ...
    [a] = read_alerts(tmp_path / "a.jsonl")
    assert a.status == "review" and a.confidence == 0.55 and a.evidence is not None
    assert "REVIEW" in text and "ALERT " not in text  # ... shown apart, never rung as an alert
    assert "review items: doubtful" in text and "review 1" in text


def _live_view_text(st: TableState) -> str:
    """What the live console view shows for the table state ``st``."""
    from rich.console import Console

    proc = SimpleNamespace(
        last=SimpleNamespace(state=st),
        layout=SimpleNamespace(table_id="T1", game="seven-card"),
        current_round=1,
        raised=Counter(),
    )
    con = Console(record=True, width=150, force_terminal=False)
    con.print(live_mod._view(proc, [], "cam"))  # type: ignore[arg-type]
    return con.export_text()


def test_the_live_view_marks_faces_seen_but_not_named() -> None:
    from vision.state import DealerState

    st = TableState(
        table_id="T1",
        frame=3,
        t=0.12,
        seats=[SeatState(seat=2, chips=True, high=["As", "Kd"], low=["2c"])],
        dealer=DealerState(hand=["5h"]),
        unread_faces={"seat2.high": 1, "dealer.hand": 2},
    )
    text = _live_view_text(st)
    assert "As Kd ?" in text and "5h ? ?" in text and "2c ?" not in text
    assert "a face the camera saw but could not name" in text
    text = _live_view_text(st.model_copy(update={"unread_faces": {}}))
    assert "?" not in text.split("table state")[1].split("alerts")[0]


def test_the_live_view_marks_faces_named_from_the_hand_seen_whole_before() -> None:
    from vision.state import DealerState

    st = TableState(
        table_id="T1",
        frame=3,
        t=0.12,
        dealer=DealerState(high=["Kd", "Ts", "5h", "3c", "2c"], low=["As", "Ah"]),
        carried_faces={"dealer.high": ["3c"]},
    )
    text = _live_view_text(st)
    assert "Kd Ts 5h 3c~ 2c" in text and "As Ah" in text and "As~" not in text
    assert "not read here" in text and "could not name" not in text


def test_the_live_view_marks_a_joker_named_by_its_blank_corner() -> None:
    st = TableState(
        table_id="T1",
        frame=3,
        t=0.12,
        seats=[SeatState(seat=2, high=["Jk", "Kd", "Ts", "5h", "3c"], low=["As", "Ah"])],
        blank_corner_faces={"seat2.high": ["Jk"]},
    )
    text = _live_view_text(st)
    assert "Jk* Kd Ts 5h 3c" in text and "Kd*" not in text
    assert "named by a blank corner" in text and "not read here" not in text
    # on the i-Verify display too (the Joker of a setting it shows)
    iv = IVerifyState(
        visible=True, mode="seat", seat=2, high=["Kd", "Ts", "5h", "3c", "As"], low=["Jk", "2h"]
    )
    text = _live_view_text(st.model_copy(update={"iverify": iv, "blank_corner_faces": {"iverify": ["Jk"]}}))
    assert "Jk* 2h" in text and "named by a blank corner" in text


def test_the_live_view_marks_a_card_named_by_the_count() -> None:
    st = TableState(
        table_id="T1",
        frame=3,
        t=0.12,
        seats=[SeatState(seat=2, high=["Kd", "Th", "5h", "3c", "2c"], low=["As", "Ah"])],
        counted_faces={"seat2.high": ["Th"]},
    )
    text = _live_view_text(st)
    assert "Kd Th# 5h 3c 2c" in text and "Kd#" not in text and "As Ah" in text
    assert "named by the count" in text and "not read here" not in text and "blank corner" not in text
    # on the i-Verify display too, and a card the display's read carried from the hand seen whole
    iv = IVerifyState(
        visible=True, mode="seat", seat=2, high=["Kd", "Th", "5h", "3c", "2c"], low=["As", "Ah"]
    )
    for field, mark in (("counted_faces", "#"), ("carried_faces", "~")):
        shown = st.model_copy(update={"iverify": iv, "counted_faces": {}, field: {"iverify": ["Th"]}})
        text = _live_view_text(shown)
        assert f"Kd Th{mark} 5h 3c 2c" in text.split("i-Verify")[-1]


def test_a_camera_event_is_written_with_its_picture_before_it_is_shown(tmp_path: Path) -> None:
    """The camera log's picture: the frame the change was seen in under a bar naming the table, the
    change and its time, with the layout's card areas drawn where they were calibrated (a moved view
    shows them off the cards), named beside the log as alerts name theirs."""
    import cv2

    lay = write_layout(tmp_path / "layout.yaml")
    st = clip_states(pattern=(False,))[4].model_copy(update={"view_moved_px": 17.0})
    image = np.full((lay.image_height, lay.image_width, 3), 90, np.uint8)
    log = live_mod._CameraLog(tmp_path / "a.camera.jsonl", tmp_path / "a-evidence", lay, "cam")
    (change,) = live_mod.camera_changes(None, st)
    rec = log.add(change, st, image)
    log.close()
    assert rec.kind == "view_moved" and rec.moved_px == 17.0 and rec.trouble and rec.table_id == lay.table_id
    assert rec.evidence == f"a-evidence/camera-view_moved-f{st.frame:07d}.jpg"
    pic = cv2.imread(str(tmp_path / rec.evidence))
    assert pic is not None and pic.shape[1] == image.shape[1] and pic.shape[0] > image.shape[0]
    bar = pic.shape[0] - image.shape[0]
    assert pic[:bar].mean() < 40  # the dark bar with its text
    frame = pic[bar:].astype(int)
    high = lay.to_image(lay.seats[0].high).round().astype(int)  # a card area's outline, drawn in yellow
    x, y = high[0]
    near = frame[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4]
    assert (near[..., 2] - near[..., 0]).max() > 60  # red minus blue: yellow, not the grey frame
    assert np.abs(frame[5:15, 5:15] - 90).max() < 12  # elsewhere the frame as it was
    on_disk = CameraEvent.model_validate_json((tmp_path / "a.camera.jsonl").read_text())
    assert on_disk == rec
    # the picture's sha256 as written, checked by ``verify`` from the alerts file the log sits beside
    import hashlib

    from compliance._provenance import verify_records

    assert rec.evidence_sha256 == hashlib.sha256((tmp_path / rec.evidence).read_bytes()).hexdigest()
    (tmp_path / "a.jsonl").write_text("")
    assert verify_records(tmp_path / "a.jsonl") == (1, 0, [])
    (tmp_path / rec.evidence).unlink()
    assert verify_records(tmp_path / "a.jsonl") == (
        1,
        0,
        [f"camera event a.camera.jsonl:1 (view_moved): picture {rec.evidence}: missing"],
    )


def test_live_says_when_the_picture_shows_the_cards_too_coarsely() -> None:
    """The sample's layout on its own 1920x1080 picture: nothing said; on a 1280x720 copy of that view
    (a sub-stream), the card areas at 0.80-0.83 px per felt mm: said once, at the first frame."""
    from vision.layout import load_layout

    lay = load_layout(Path(__file__).resolve().parent.parent / "sample_footage" / "render-7card.layout.yaml")
    assert live_mod._coarse_camera_note(lay, (1920, 1080)) == ""
    note = live_mod._coarse_camera_note(lay, (1280, 720))
    assert "1280x720 picture shows the card areas at 0.80-0.83 px per felt mm, under 1" in note


def test_heartbeats_say_once_when_no_first_picture_comes_in_time() -> None:
    import time as _time

    from compliance.live import with_heartbeats

    s = clip_states(pattern=(False,))

    def late(delay: float) -> Iterator[StreamFrame]:
        _time.sleep(delay)
        yield StreamFrame(s[1])
        _time.sleep(0.3)  # a quiet spell after the first picture is no silence to say
        yield StreamFrame(s[2])

    said: list[float] = []
    got = list(with_heartbeats(late(0.4), every=0.02, on_silence=said.append, silence_s=0.15))
    assert len(said) == 1 and 0.15 <= said[0] < 0.4
    assert [f.state.frame for f in got if not f.heartbeat] == [s[1].frame, s[2].frame]
    said.clear()
    list(with_heartbeats(late(0.0), every=0.02, on_silence=said.append, silence_s=0.15))
    assert said == []


def _live_on_a_late_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, states: list[TableState], delay: float
) -> tuple[LiveSummary, str, list[CameraEvent]]:
    """``run_live`` on a camera whose first state comes ``delay`` s after the watch asks for it."""
    import time as _time

    from rich.console import Console

    def late_camera(*_a: Any, **_k: Any) -> Iterator[StreamFrame]:
        _time.sleep(delay)
        for st in states:
            yield StreamFrame(st, None, _time.time())

    monkeypatch.setattr(live_mod, "stream_frames", late_camera)
    monkeypatch.setattr(live_mod, "FIRST_PICTURE_S", 0.2)
    con = Console(record=True, width=200, force_terminal=False)
    tmp_path.mkdir(parents=True, exist_ok=True)
    lay = write_layout(tmp_path / "layout.yaml")
    s = run_live(
        "rtsp://admin:s3cret@cam1/table",
        lay,
        alerts_path=tmp_path / "a.jsonl",
        view=False,
        console=con,
        monitor_factory=fake_factory,
        heartbeat=0.02,
    )
    path = tmp_path / "a.camera.jsonl"
    log = [CameraEvent.model_validate_json(x) for x in path.read_text().splitlines()] if path.exists() else []
    return s, con.export_text(), log


@pytest.mark.parametrize(
    ("source", "realtime", "ticked"),
    [("rtsp://cam1/table", False, True), ("clip.mp4", True, True), ("clip.mp4", False, False)],
)
def test_a_camera_runs_the_monitors_clock_on_the_pipelines_ticks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, realtime: bool, ticked: bool
) -> None:
    """A camera, or a file played as one, is asked for the pipeline's ticks (each frame analysed that
    changes nothing: ``vision.pipeline.watch(ticks=True)``), which reach the monitor as heartbeats, not
    as states; a file replayed as fast as it reads is not."""
    import time as _time

    from rich.console import Console

    states = clip_states(pattern=(False,))
    asked: list[dict[str, Any]] = []
    fed: list[tuple[int, bool]] = []

    def camera(*_a: Any, **kw: Any) -> Iterator[StreamFrame]:
        asked.append(kw)
        for st in states:
            yield StreamFrame(st, None, _time.time())
            tick = st.model_copy(update={"frame": st.frame + 1, "t": st.t + 0.04})
            yield StreamFrame(tick, None, _time.time(), heartbeat=True)

    real_feed = live_mod.StreamProcessor.feed

    def feed(self: Any, frame: StreamFrame) -> list[Alert]:
        fed.append((frame.state.frame, frame.heartbeat))
        return real_feed(self, frame)

    monkeypatch.setattr(live_mod, "stream_frames", camera)
    monkeypatch.setattr(live_mod.StreamProcessor, "feed", feed)
    lay = write_layout(tmp_path / "layout.yaml")
    s = run_live(
        source,
        lay,
        alerts_path=tmp_path / "a.jsonl",
        view=False,
        console=Console(record=True, width=200, force_terminal=False),
        monitor_factory=fake_factory,
        realtime=realtime,
        heartbeat=0.5,
    )
    assert [kw.get("ticks") for kw in asked] == [ticked]
    assert s.frames == len(states)  # ticks are no states
    ticks = [f for f, beat in fed if beat and f in {st.frame + 1 for st in states}]
    assert len(ticks) == len(states)


def test_a_camera_not_there_at_the_start_is_recorded_as_the_table_unwatched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live watch whose camera gives no picture for its first seconds (booting, the network down)
    leaves the table unwatched as a dropped feed does: the camera log says so when the wait passes
    ``FIRST_PICTURE_S`` (t 0, frame 0, no picture), and again with the first picture."""
    states = clip_states(pattern=(False,))
    s, text, log = _live_on_a_late_camera(tmp_path, monkeypatch, states, 0.6)
    assert [(e.kind, e.trouble, e.frame, e.t) for e in log] == [
        ("feed_lost", True, 0, 0.0),
        ("feed_back", False, states[0].frame, states[0].t),
    ]
    assert log[0].evidence is None and log[0].logged_at < log[1].logged_at
    assert log[0].clock == clock_time(log[0].logged_at)  # the shift's record, readable
    # and a hash chain, as the alerts file is: each line links the one before
    import hashlib

    from compliance.alerts import chain_breaks

    lines = (tmp_path / "a.camera.jsonl").read_bytes().splitlines()
    assert log[0].prev_sha256 is None and log[1].prev_sha256 == hashlib.sha256(lines[0]).hexdigest()
    assert chain_breaks(tmp_path / "a.camera.jsonl") == (2, [], hashlib.sha256(lines[1]).hexdigest())
    r = runner.invoke(app, ["verify", str(tmp_path / "a.jsonl")])  # the alerts file names its camera log
    assert r.exit_code == 0, r.output
    (tmp_path / "a.camera.jsonl").write_bytes(
        lines[0].replace(b"no picture", b"a picture") + b"\n" + lines[1] + b"\n"
    )
    r = runner.invoke(app, ["verify", str(tmp_path / "a.jsonl")])
    assert r.exit_code == 1 and "a.camera.jsonl:2: the chain breaks here" in r.output
    assert re.search(r"no picture from the camera \d+ s after the watch started", log[0].note)
    assert "first picture came" in log[1].note and "no picture from the camera" in text
    assert s.no_picture_at_start_s is not None and 0.6 <= s.no_picture_at_start_s < 5.0
    assert s.camera_file == str(tmp_path / "a.camera.jsonl") and s.frames == len(states)
    # the camera's credentials (in its URL) are in no line shown or written
    assert "s3cret" not in text and "s3cret" not in (tmp_path / "a.camera.jsonl").read_text()
    assert s.source == "rtsp://admin:***@cam1/table" and log[0].source == s.source
    # a camera there at once: nothing said
    s, _, log = _live_on_a_late_camera(tmp_path / "b", monkeypatch, states, 0.0)
    assert log == [] and s.no_picture_at_start_s is None


def test_a_camera_that_never_gives_a_picture_is_recorded_to_the_end_of_the_watch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s, _, log = _live_on_a_late_camera(tmp_path, monkeypatch, [], 0.5)
    assert [e.kind for e in log] == ["feed_lost"] and s.frames == 0
    assert s.no_picture_at_start_s is not None and s.no_picture_at_start_s >= 0.5


def test_a_live_alert_is_shown_at_its_clock_time_then_its_footage_time() -> None:
    a = Alert(
        alert_id="x",
        table_id="T1",
        source="cam",
        round=3,
        check_id=CheckId.DEALER_REVEAL_EARLY,
        rule="r",
        t=12.5,
        frame=312,
        timecode=timecode(12.5),
        detected_t=13.0,
        detected_frame=325,
    )
    assert live_mod._when(a) == "00:00:12.500"
    a = a.model_copy(update={"clock": "2026-12-03T14:32:05.120+01:00"})
    assert live_mod._when(a) == "14:32:05.120 (00:00:12.500)"
