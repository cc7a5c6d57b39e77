"""Camera pipeline speed on 1280x720 footage: replay fps, detector time, peak memory, live CPU use.

    .venv/bin/python benchmarks/vision_fps.py [CLIP.mp4] [--detector module:name | --truth-boxes] [--runs N]

Without CLIP it renders the first sample scenario at 1280x720 (the issue's reference resolution;
the bundled samples are 1920x1080) into .cache/bench/ once, and measures that; pass a sample clip
to measure 1080p.

Prints:
- decode only: frames per second, and CPU seconds, of reading the clip with OpenCV (every frame
  decoded, the frames not analysed grabbed without colour conversion), the floor under everything
  else: as the pipeline opens a file (one FFmpeg thread) and as OpenCV does by default (FFmpeg's own
  threads, for comparison);
- replay: frames per second of ``watch()`` over the clip (decode at full rate, analyse at
  ``--analyse-fps``), and the ratio to real time (target: 10x real time for 25 fps = 250 fps);
- detector: calls, ms per call, ms per analysed frame (the detector only runs on zones that changed);
- other threads: the replay's CPU seconds in threads Python did not start (a library's pool:
  numpy's OpenBLAS spun 3 of 8.8 CPU-s here before ``vision._blas``; Linux only);
- peak memory (max RSS; target < 2 GB);
- live CPU: CPU seconds spent per second of video in replay (below 1.0 means a live 25 fps feed is
  kept up with on at most one core), with ``cv2.setNumThreads(1)``.

``--runs N`` replays the clip N times, each with a fresh detector and pipeline (no memory of the run
before), and prints each run's ratio to real time and their median: on a shared host one run can be
10 % and more off the next (the figures above are the first run's); and each run's main-thread CPU
seconds (the thread every analysed frame waits on: its own work, not its waits for the workers and
the decoder), where a change to that work shows; on a busy host it moves with the neighbours too.

``--breakdown`` also prints where the replay's wall time went, part by part (each part's own time,
the parts it calls taken out; timed on the main thread only, so stage 1's tiles read on other threads
count as the wait for them). The timers add about a microsecond a call.

Without the trained model in models/ it uses the ground-truth boxes as the detector (``--truth-boxes``,
the default then), which measures the pipeline and not the model; say which in any report.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _detector(args: argparse.Namespace, clip: Path, layout: Any) -> tuple[Any, str]:
    if args.detector:
        mod, _, attr = args.detector.partition(":")
        obj = getattr(importlib.import_module(mod), attr)
        return (obj() if callable(obj) else obj), args.detector
    models = ROOT / "models"
    if not args.truth_boxes and (models / "card_det.onnx").exists() and (models / "card_cls.onnx").exists():
        from vision.pipeline import coarse_camera, load_shipped_detector

        # as the pipeline loads it (zone crops read at their own scale, the classifier for the camera);
        # plain load_detector() would letterbox each crop down to 256 px, faster and not what
        # watch()/audit run
        coarse = coarse_camera(layout)
        det = load_shipped_detector(coarse)
        return (
            det,
            "shipped model as the pipeline loads it (models/, onnxruntime, 1 thread a call, stage-1 tiles "
            + f"{getattr(det, 'tile_workers', 1)} at a time"
            + (", the coarse camera's classifier)" if coarse else ")"),
        )
    from vision.evaluate import TruthDetector

    return TruthDetector(Path(f"{clip.with_suffix('')}.boxes.jsonl.gz")), "ground-truth boxes (no model)"


def _unnamed_thread_cpu() -> dict[str, float]:
    """CPU seconds of each of this process's threads that Python did not start (a BLAS or OpenMP
    library's pool, FFmpeg's own), by thread id; {} where the system does not list them (not Linux).
    A pool that spins between calls shows here: numpy's OpenBLAS worker took 3.0 of a 720p replay's
    8.8 CPU-s before ``vision._blas`` kept it to one thread (models/HISTORY.md, thirty-fifth session)."""
    import threading

    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        return {}
    ours = {t.native_id for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for task in tasks.iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # (the thread ended)
            continue
        if int(task.name) not in ours:
            out[task.name] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return out


def _machine() -> str:
    """The CPU's model name and the cores this process may use: the hosts this runs on differ (the
    same code measured 8.6-9.0x on one 2-core host and 15-16x on another), so a figure names its host;
    the decode-only line is a yardstick of the host's speed beside it."""
    name = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{name}, {cores} cores"


class _Timers:
    """Each wrapped callable's own wall time on the main thread: a wrapped call made inside another
    counts for itself, not for its caller."""

    def __init__(self) -> None:
        self.own: defaultdict[str, float] = defaultdict(float)
        self.calls: defaultdict[str, int] = defaultdict(int)
        self._stack: list[list[float]] = []  # per open call: time spent in wrapped callees
        self._main = threading.main_thread()

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if threading.current_thread() is not self._main:
                return fn(*args, **kwargs)
            t0 = time.perf_counter()
            self._stack.append([0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.perf_counter() - t0
                inner = self._stack.pop()[0]
                self.own[name] += spent - inner
                self.calls[name] += 1
                if self._stack:
                    self._stack[-1][0] += spent

        return timed

    def frames(self, it: Iterator[Any]) -> Iterator[Any]:
        """``it`` with the time spent waiting for each item counted as "waiting for frames"."""
        while True:
            try:
                item = self.wrap("waiting for decoded frames", lambda: next(it))()
            except StopIteration:
                return
            yield item


def _install_timers(timers: _Timers, pipe: Any, det: Any) -> Callable[[], None]:
    """Wrap the pipeline's and the detector's parts in ``timers``; returns the undo."""
    import vision.pipeline as vp
    from vision.zones import Region

    undo: list[Callable[[], None]] = []

    def patch(owner: Any, attr: str, name: str) -> None:
        if not hasattr(owner, attr):
            return
        old = getattr(owner, attr)
        setattr(owner, attr, timers.wrap(name, old))
        if isinstance(owner, type) or owner is vp:
            undo.append(lambda: setattr(owner, attr, old))

    patch(vp, "shrunk_frame", "frame halved and quartered (block means, where not made as decoded)")
    patch(pipe, "_quiet", "quiet tests (thumbnail patches)")
    patch(pipe, "_step", "change tests of regions not quiet")
    patch(Region, "rectify", "rectifying regions")
    patch(pipe, "_read", "reading a region (pipeline's own work)")
    patch(vp, "blank_corner_cards", "blank-corner search")
    patch(vp, "card_centres", "card centres (card-white test)")
    patch(pipe.tracker, "update", "tracking")
    patch(det, "detect_with_guesses", "detector: the rest of a call")
    patch(det, "_stage1_tiled", "detector: stage 1 tiles asked (memory, NMS)")
    patch(det, "_stage1_many", "detector: stage 1 tiles read")
    patch(det, "_stage1_results", "detector: stage 1 tiles read")
    patch(det, "_read_indices", "detector: index and body reads")

    def restore() -> None:
        for u in undo:
            u()

    return restore


def _clip_720p() -> Path | None:
    """The first sample scenario rendered at 1280x720 (cached in .cache/bench/)."""
    from render.clip import render_clip
    from render.samples import SAMPLE_SEED, scenario_dir
    from render.scenario import load_scenario

    scen = next(iter(sorted(scenario_dir().glob("*.yaml"))), None)
    if scen is None:
        return None
    out = ROOT / ".cache" / "bench"
    clip = out / f"{scen.stem}-720p.mp4"
    if not clip.exists():
        print(f"rendering {clip.relative_to(ROOT)} (once) ...", file=sys.stderr)
        render_clip(load_scenario(scen), SAMPLE_SEED, out, name=clip.stem, image_size=(1280, 720))
    return clip


def _replay(
    args: argparse.Namespace, clip: Path, layout: Any, det: Any, timers: _Timers | None = None
) -> tuple[int, int, int, float, float, float, Any]:
    """One replay of ``clip`` through a fresh pipeline on ``det``, as ``watch()`` reads a file (decode
    at full rate, analyse at ``--analyse-fps``), its parts timed into ``timers`` where given: frames,
    frames analysed, state changes, wall seconds, CPU seconds (every thread's), the main thread's CPU
    seconds and the pipeline."""
    from vision.pipeline import READ_AHEAD, READ_AHEAD_MB, PipelineConfig, TablePipeline, shrunk_frame
    from vision.sources import iter_frames

    pipe = TablePipeline(layout, det, PipelineConfig(analyse_fps=args.analyse_fps))
    undo = _install_timers(timers, pipe, det) if timers is not None else (lambda: None)
    c0, m0 = time.process_time(), time.thread_time()
    t0 = time.perf_counter()
    frames = analysed = states = 0
    source = iter_frames(
        clip,
        analyse_fps=args.analyse_fps,
        skipped=True,
        read_ahead=READ_AHEAD,
        read_ahead_mb=READ_AHEAD_MB,
        prepare=shrunk_frame,  # as watch() reads a file
    )
    for fr in timers.frames(source) if timers is not None else source:
        frames += 1
        if fr.image is None:
            continue
        analysed += 1
        if pipe.process(fr.frame, fr.t, fr.image, fr.prepared) is not None:
            states += 1
    wall = time.perf_counter() - t0
    cpu, main_cpu = time.process_time() - c0, time.thread_time() - m0
    undo()
    return frames, analysed, states, wall, cpu, main_cpu, pipe


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clip", nargs="?", type=Path, help="a rendered clip (default: the first sample clip)")
    ap.add_argument("--detector", help="card detector 'module:name' (default: the shipped model if present)")
    ap.add_argument(
        "--truth-boxes", action="store_true", help="use the clip's ground-truth boxes as detector"
    )
    ap.add_argument("--analyse-fps", type=float, default=12.5)
    ap.add_argument("--threads", type=int, default=1, help="cv2.setNumThreads")
    ap.add_argument("--breakdown", action="store_true", help="also print where the replay's time went")
    ap.add_argument(
        "--runs", type=int, default=1, help="replays, each with a fresh detector and pipeline (the median)"
    )
    args = ap.parse_args()
    if args.runs < 1:
        print("--runs must be 1 or more", file=sys.stderr)
        return 2
    cv2.setNumThreads(args.threads)

    from vision.layout import load_layout
    from vision.sources import iter_frames

    clip = args.clip or _clip_720p()
    if clip is None or not clip.exists():
        print("no clip: pass one, or render sample_footage/ first", file=sys.stderr)
        return 2
    import json

    truth = json.loads(Path(f"{clip.with_suffix('')}.truth.json").read_text())
    layout = load_layout(clip.parent / truth["layout"])
    det, det_name = _detector(args, clip, layout)

    cap = cv2.VideoCapture(str(clip))
    fps = float(cap.get(cv2.CAP_PROP_FPS)) or 25.0
    w, h = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    cap.release()

    # decode only, the same way the pipeline reads (decode every n-th, grab the rest); and with OpenCV's
    # default opening (FFmpeg's own threads), which the pipeline does not use
    decoding = []
    for opener in (None, cv2.VideoCapture):
        t0, c0 = time.perf_counter(), time.process_time()
        n = sum(1 for _ in iter_frames(clip, analyse_fps=args.analyse_fps, skipped=True, opener=opener))
        decoding.append((n / (time.perf_counter() - t0), time.process_time() - c0))

    unnamed0 = _unnamed_thread_cpu()
    timers = _Timers()
    frames, analysed, states, wall, cpu, main_cpu, pipe = _replay(
        args, clip, layout, det, timers if args.breakdown else None
    )
    unnamed = _unnamed_thread_cpu()
    unnamed_cpu = sum(v - unnamed0.get(k, 0.0) for k, v in unnamed.items())
    video_s = frames / fps
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"machine: {_machine()}")
    print(
        f"clip: {clip.name} ({w}x{h}, {fps:g} fps, {frames} frames = {video_s:.1f} s); detector: {det_name}"
    )
    (own_fps, own_cpu), (ff_fps, ff_cpu) = decoding
    print(
        f"decode only:  {own_fps:7.1f} fps, {own_cpu:.2f} CPU-s (one FFmpeg thread, as the pipeline); "
        f"{ff_fps:.1f} fps, {ff_cpu:.2f} CPU-s with FFmpeg's own threads"
    )
    print(
        f"replay:       {frames / wall:7.1f} fps = {video_s / wall:5.1f}x real time "
        f"(target 10x = {10 * fps:g} fps); {analysed} frames analysed at {args.analyse_fps:g}/s, "
        f"{states} state changes"
    )
    per_call = 1000 * pipe.detector_seconds / max(1, pipe.detector_calls)
    print(
        f"detector:     {pipe.detector_calls} calls, {per_call:.1f} ms/call, "
        f"{1000 * pipe.detector_seconds / max(1, analysed):.2f} ms per analysed frame, "
        f"{100 * pipe.detector_seconds / wall:.0f}% of replay time"
    )
    memory = getattr(det, "tile_memory", None)
    if memory is not None and memory.asked:
        print(
            f"tile memory:  {memory.answered} of {memory.asked} stage-1 tiles answered from memory "
            f"({100 * memory.answered / memory.asked:.0f}%; {memory.answered_noisy} of them as a noisy "
            "camera's, by their blocks' signed means)"
        )
    print(
        f"pipeline:     {1000 * (wall - pipe.detector_seconds) / max(1, frames):.2f} ms per frame "
        "without detector"
    )
    print(
        f"CPU-bound:    {frames / cpu:7.1f} fps by CPU time "
        f"(the machine is shared: wall time overstates cost); main thread {main_cpu:.2f} of {cpu:.2f} CPU-s"
    )
    if unnamed:
        print(
            f"other threads: {unnamed_cpu:.2f} of the replay's {cpu:.2f} CPU-s in the {len(unnamed)} "
            "thread(s) Python did not start (a library's pool; a spinning one shows here)"
        )
    print(f"peak memory:  {peak_mb:.0f} MB (target < 2048 MB)")
    print(
        f"live CPU:     {cpu / video_s:.2f} CPU-seconds per video second "
        f"({'keeps up' if cpu / video_s < 1 else 'does NOT keep up'} with {fps:g} fps on one core; "
        f"cv2 threads {args.threads})"
    )
    if args.runs > 1:  # a shared host's neighbours move a replay by 10 % and more from run to run
        more = [_replay(args, clip, layout, _detector(args, clip, layout)[0]) for _ in range(args.runs - 1)]
        ratios = [video_s / wall, *(r[0] / fps / r[3] for r in more)]
        calls = [pipe.detector_calls, *(r[6].detector_calls for r in more)]
        mains = [main_cpu, *(r[5] for r in more)]
        print(
            f"replays:      {', '.join(f'{x:.1f}' for x in ratios)}x real time; median "
            f"{statistics.median(ratios):.1f}x ({args.runs} runs, each with a fresh detector and pipeline; "
            f"detector calls {', '.join(map(str, calls))})"
        )
        print(
            f"main thread:  {', '.join(f'{x:.2f}' for x in mains)} CPU-s; median "
            f"{statistics.median(mains):.2f} (the thread every analysed frame waits on)"
        )
    if args.breakdown:
        print(f"where the first replay's {wall:.2f} s went (each part's own time, main thread):")
        for name, spent in sorted(timers.own.items(), key=lambda kv: -kv[1]):
            print(f"  {spent:6.2f} s  {name} ({timers.calls[name]} calls)")
        rest = wall - sum(timers.own.values())
        print(f"  {rest:6.2f} s  the rest (the replay loop, state changes, debounce)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
