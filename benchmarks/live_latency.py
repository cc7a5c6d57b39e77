"""Live alert latency: from the arrival of the frame that shows a breach to the alert on disk.

Runs ``compliance.live.run_live`` (the code of ``paigow-monitor live``) and, for every alert, takes
two figures:

- latency (the target, 1 s): wall time from the arrival of the frame that shows the breach
  (``alert.frame_arrived_at``: on a real-time feed, the feed's wall-clock offset plus the frame's
  footage time, the offset being the smallest seen between a state's arrival and its time) to the
  end of the alert's durable write (evidence picture written, record fsync'ed). It includes the
  monitor's confirmation (a change counts once it has lasted its debounce time; heartbeats keep the
  monitor's clock running between changes);
- of which confirmation: footage time from the breach frame (``alert.t``) to the (heartbeat) frame at
  which the monitor raised it (``alert.detected_t``).

A rule that takes time to break (IVERIFY-NOT-VISIBLE: display hidden longer than the engine's
``iverify_hidden_s``) is timed from the moment it is broken: its evidence frame is the first hidden
one, and the allowance is taken off both figures.

Modes:
- ``states``: a ground-truth ``.states.jsonl`` replayed at the pace of its timestamps (a live feed
  with a perfect camera): the compliance side alone.
- ``vision``: a video played as a camera delivers it (``live FILE --realtime``: no frame is
  analysed before its footage time has passed, heartbeats on, as for a camera): "arrival" is the
  moment the camera would have delivered the breach frame, so the figure includes the pipeline's
  own time, the debounce and the heartbeat.

Footage: the first clip of ``sample_footage/`` with a states file (or ``--clip``); where there is
none, a synthetic clip of the test fixtures' rounds, and the output says so.

    .venv/bin/python benchmarks/live_latency.py [--clip FILE.states.jsonl] [--speed 1] [--modes states,vision]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pick_clip(args: argparse.Namespace, tmp: Path) -> tuple[Path, Path | None, Path, str]:
    """(states file, video or None, layout, description)."""
    from compliance.audit import _resolve_layout, discover

    if args.clip is not None:
        jobs = discover([args.clip], states=True)
    else:
        jobs = discover([ROOT / "sample_footage"], states=True) if (ROOT / "sample_footage").is_dir() else []
    jobs = [j for j in jobs if not j.problem and j.states]
    if jobs:
        j = jobs[0]
        assert j.states is not None
        video = Path(j.video) if j.video else None
        beside = Path(str(j.states).removesuffix(".states.jsonl") + ".mp4")
        if video is None and beside.is_file():  # --clip names the states file: its video lies beside it
            video = beside
        return Path(j.states), video, _resolve_layout(j), j.states
    sys.path.insert(0, str(ROOT / "tests"))
    from test_audit_support import make_clip

    st = make_clip(tmp, "synthetic", pattern=(True, False, True, True), video=True)
    return st, tmp / "synthetic.mp4", tmp / "layout.yaml", "SYNTHETIC clip (test fixture rounds, 4 rounds)"


def _grace(check: str) -> float:
    """Footage seconds a check's rule allows before it is broken (the engine's own setting)."""
    if check != "IVERIFY-NOT-VISIBLE":
        return 0.0
    try:
        from compliance.rounds import MonitorConfig

        return float(MonitorConfig().iverify_hidden_s)
    except (ImportError, AttributeError):
        return 0.0


def _figures(name: str, timed: list[tuple[str, float | None, float]]) -> None:
    """Latency figures, alerts and review items apart (a review item is a finding on doubtful camera
    reads: the 1-second target is the alerts'; a short hand's review item waits for the round's end)."""
    if not timed:
        print(f"[{name}] no alerts raised: nothing to time")
        return
    for status in ("alert", "review"):
        lat = [x for s, x, _ in timed if s == status and x is not None]
        delays = [d for s, _, d in timed if s == status]
        if not delays:
            continue
        what = "alert(s)" if status == "alert" else "review item(s)"
        if lat:
            print(f"[{name}] {len(delays)} {what}; breach frame arrival -> on disk, ms: {_ms(lat)}")
        print(
            f"[{name}]   of which the monitor's confirmation (footage s from breach frame to the frame it "
            f"was raised at): median {statistics.median(delays):.3f}, max {max(delays):.3f}"
        )


def _ms(lat: list[float]) -> str:
    """Latencies (seconds) as "median M, max X; within 1 s: n/N", in ms."""
    ms = sorted(x * 1000 for x in lat)
    within = sum(x <= 1000 for x in ms)
    return f"median {statistics.median(ms):.1f}, max {ms[-1]:.1f}; within 1 s: {within}/{len(ms)}"


def _truth_figures(name: str, lat: list[float]) -> None:
    if lat:
        what = "alerts timed from the truth's breach frame (the first frame that shows it)"
        print(f"[{name}] {what}: ms {_ms(lat)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--clip", type=Path, default=None, help="a .states.jsonl (its video and layout beside it)"
    )
    ap.add_argument(
        "--speed", type=float, default=1.0, help="replay speed for the states mode (1 = real time)"
    )
    ap.add_argument("--modes", default="states,vision")
    ap.add_argument(
        "--evidence",
        choices=["drawn", "video"],
        default="drawn",
        help="states mode: draw evidence from the state (as cheap as a frame in memory, the live case) "
        "or cut it from the video file (adds a seek and decode per alert)",
    )
    args = ap.parse_args()
    from rich.console import Console

    from compliance.alerts import Alert
    from compliance.live import run_live
    from vision.layout import load_layout

    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        states, video, layout_path, what = _pick_clip(args, tmp)
        layout = load_layout(layout_path)
        print(f"clip: {what}")
        truth_file = Path(str(states).removesuffix(".states.jsonl") + ".truth.json")
        truth_t: dict[tuple[str, int | None], float] = {}
        if truth_file.is_file():
            for rnd in json.loads(truth_file.read_text())["rounds"]:
                for f in rnd["findings"]:
                    truth_t.setdefault((f["check_id"], f["seat"]), float(f["t"]))
        for mode in args.modes.split(","):
            timed: list[tuple[str, float | None, float]] = []
            from_truth: list[float] = []

            def written(
                a: Alert,
                at: float,
                timed: list[tuple[str, float | None, float]] = timed,
                from_truth: list[float] = from_truth,
            ) -> None:
                # a rule that needs time to be broken (display hidden > N s) is broken N s after its
                # first frame: the clock starts there (footage seconds, paced at --speed)
                grace = _grace(a.check_id.value)
                lat = at - a.frame_arrived_at - grace / args.speed if a.frame_arrived_at is not None else None
                timed.append((a.status, lat, max(0.0, a.detected_t - a.t - grace)))
                # the same, from the truth's breach frame (the first frame that shows it), where the
                # monitor's evidence frame is a later one (the camera's debounce, its analysed fps)
                tt = truth_t.get((a.check_id.value, a.seat))
                if a.status == "alert" and tt is not None and a.frame_arrived_at is not None:
                    shown_at = a.frame_arrived_at - (a.t - tt) / args.speed  # the truth frame's arrival
                    from_truth.append(at - shown_at - grace / args.speed)

            quiet = Console(file=open("/dev/null", "w"))  # noqa: SIM115
            if mode == "states":
                t0 = time.perf_counter()
                s = run_live(
                    str(video if args.evidence == "video" and video else states),
                    layout,
                    alerts_path=tmp / f"{mode}.jsonl",
                    states=states,
                    realtime=True,
                    speed=args.speed,
                    view=False,
                    console=quiet,
                    on_written=written,
                )
                wall = time.perf_counter() - t0
                print(f"[states] evidence pictures: {args.evidence}")
                print(
                    f"[states] replayed {s.frames} state changes at {args.speed:g}x real time in {wall:.1f} s"
                )
                _figures("states", timed)
                _truth_figures("states", from_truth)
            elif mode == "vision":
                if video is None:
                    print("[vision] skipped: no video for this clip")
                    continue
                try:
                    import vision.pipeline  # noqa: F401
                except ImportError as e:
                    print(f"[vision] skipped: the vision pipeline is not available ({e})")
                    continue
                from compliance.audit import _video_seconds

                t0 = time.perf_counter()
                try:
                    s = run_live(
                        str(video),
                        layout,
                        alerts_path=tmp / f"{mode}.jsonl",
                        view=False,
                        console=quiet,
                        on_written=written,
                        realtime=True,
                    )
                except Exception as e:  # the pipeline cannot run here (e.g. no detector weights)
                    print(f"[vision] could not run: {type(e).__name__}: {e}")
                    continue
                wall = time.perf_counter() - t0
                secs = _video_seconds(str(video)) or 0.0
                print(
                    f"[vision] {secs:.1f} s of video played at camera pace in {wall:.1f} s wall "
                    f"(a pipeline that keeps up finishes with the video)"
                )
                _figures("vision", timed)
                _truth_figures("vision", from_truth)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
