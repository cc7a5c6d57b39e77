"""The audit job: replay batches of recorded footage in parallel, one report per clip, one summary.

Every clip is audited by one worker process (``audit_clip``): table states from the vision pipeline
(or a ground-truth ``<clip>.states.jsonl`` with ``--states``), fed through the same
``StreamProcessor`` as the live job. Its outputs are written under a temporary folder and renamed
into ``clips/<clip>/`` in one step, so a crash leaves either the whole clip or nothing; a re-run skips
every clip already done with the same inputs, and the summary is rebuilt from the per-clip records,
so nothing is lost or counted twice. A clip that fails (bad input, missing layout) is recorded as
failed, with an error naming the file and frame, and the batch goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing as mp
import os
import queue
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance._provenance import clip_provenance
from compliance.events import ClipTruth
from compliance.live import (
    MonitorFactory,
    StreamError,
    StreamFrame,
    StreamProcessor,
    camera_changes,
    default_monitor,
    monitor_for,
    stream_frames,
    warm_up,
)
from compliance.reports import (
    CLIPS_DIR,
    ClipReport,
    atomic_write_text,
    clip_html,
    write_summary,
)
from vision.layout import LayoutError, TableLayout, load_layout
from vision.state import TableState
from vision.zones import card_resolution

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["AuditResult", "ClipJob", "audit_clip", "discover", "run_audit"]

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".m4v")
STATES_SUFFIX = ".states.jsonl"
TRUTH_SUFFIX = ".truth.json"
_LAYOUT_NAMES = ("layout.yaml", "layout.yml", "layout.json")


class ClipJob(BaseModel):
    """One clip to audit: where its footage and (optionally) its ground-truth states are."""

    model_config = ConfigDict(extra="forbid")

    clip: str  # unique name in the batch (the output folder name)
    mode: Literal["vision", "states"]
    video: str | None = None
    states: str | None = None
    layout: str | None = None  # given on the command line; else found beside the clip
    problem: str = ""  # found while discovering (e.g. no states file): the clip fails with this


class AuditResult(BaseModel):
    """What a batch run did."""

    model_config = ConfigDict(extra="forbid")

    out: str
    clips: int
    audited: int  # clips finished in this run (failed ones included); an interrupted run's, only those
    skipped: int
    failed: list[str]
    footage_s: float
    wall_s: float
    findings: int  # alerts and review items
    review: int = 0  # of which review items (status "review")
    interrupted: bool = False  # Ctrl-C: what was finished is kept; a re-run resumes
    coarse: list[str] = Field(default_factory=list)  # BatchSummary.coarse: filmed too coarsely
    digest: str = ""  # BatchSummary.digest: the clip records' digest, to file with the report


def _clip_stem(p: Path) -> str:
    if p.name.endswith(STATES_SUFFIX):
        return p.name[: -len(STATES_SUFFIX)]
    return p.stem


def discover(
    paths: Sequence[Path], *, states: bool, out: Path | None = None, layout: Path | None = None
) -> list[ClipJob]:
    """The clips named by files and folders (folders searched recursively, the output folder excluded)."""
    found: dict[tuple[Path, str], dict[str, Path]] = {}
    explicit_missing: list[Path] = []
    unusable: list[Path] = []
    out_r = out.resolve() if out is not None else None

    def add(f: Path) -> None:
        key = (f.parent.resolve(), _clip_stem(f))
        kind = "states" if f.name.endswith(STATES_SUFFIX) else "video"
        found.setdefault(key, {})[kind] = f

    for p in paths:
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if out_r is not None and out_r in f.resolve().parents:
                    continue
                if f.is_file() and (
                    f.suffix.lower() in VIDEO_SUFFIXES or (states and f.name.endswith(STATES_SUFFIX))
                ):
                    add(f)
        elif p.is_file() and (p.suffix.lower() in VIDEO_SUFFIXES or p.name.endswith(STATES_SUFFIX)):
            add(p)
        elif p.is_file():
            unusable.append(p)
        else:
            explicit_missing.append(p)
    jobs: list[ClipJob] = []
    names: set[str] = set()
    for (parent, stem), files in sorted(found.items()):
        name = stem
        if name in names:
            name = f"{parent.name}__{stem}"
        i = 2
        while name in names:
            name = f"{parent.name}__{stem}_{i}"
            i += 1
        names.add(name)
        video = files.get("video")
        st = files.get("states")
        problem = ""
        if states and st is None:
            guess = parent / f"{stem}{STATES_SUFFIX}"
            if guess.is_file():
                st = guess
            else:
                problem = f"{video}: --states given but there is no {guess.name} beside it"
        if not states and video is None:
            problem = f"{st}: a states file needs --states (no video to run the vision pipeline on)"
        jobs.append(
            ClipJob(
                clip=name,
                mode="states" if states else "vision",
                video=str(video) if video else None,
                states=str(st) if st else None,
                layout=str(layout) if layout else None,
                problem=problem,
            )
        )
    for p in unusable:
        jobs.append(
            ClipJob(
                clip=p.name,
                mode="states" if states else "vision",
                video=str(p),
                problem=f"{p}: not a video ({', '.join(VIDEO_SUFFIXES)}) nor a {STATES_SUFFIX} file",
            )
        )
    for p in explicit_missing:
        jobs.append(
            ClipJob(
                clip=p.name or str(p),
                mode="states" if states else "vision",
                video=str(p),
                problem=f"{p}: no such file or folder",
            )
        )
    return jobs


def _clip_dir(job: ClipJob) -> Path:
    return Path(job.states or job.video or ".").parent


def _find_truth(job: ClipJob) -> Path | None:
    src = Path(job.states or job.video or "")
    stem = _clip_stem(src)
    t = src.parent / f"{stem}{TRUTH_SUFFIX}"
    return t if t.is_file() else None


def _resolve_layout(job: ClipJob) -> Path:
    """--layout, else the layout named by <clip>.truth.json, else layout.yaml beside the clip."""
    if job.layout:
        return Path(job.layout)
    truth = _find_truth(job)
    if truth is not None:
        try:
            ct = ClipTruth.model_validate_json(truth.read_bytes())
        except (OSError, ValidationError) as e:
            raise StreamError(f"{truth}: cannot read the layout name from this truth file: {e}") from e
        cand = truth.parent / ct.layout
        if not cand.is_file():
            raise StreamError(f"{truth}: names layout {ct.layout!r} but {cand} does not exist")
        return cand
    for n in _LAYOUT_NAMES:
        cand = _clip_dir(job) / n
        if cand.is_file():
            return cand
    src = job.states or job.video
    raise StreamError(
        f"{src}: no layout: give --layout, or put {Path(str(src)).name.split('.')[0]}"
        f"{TRUTH_SUFFIX} or layout.yaml beside it"
    )


def _fingerprint(job: ClipJob, layout: Path | None) -> str:
    h = hashlib.sha256(job.mode.encode())
    for p in (job.video, job.states, layout):
        if p is None:
            h.update(b"-")
            continue
        try:
            s = Path(p).stat()
            h.update(f"{Path(p).resolve()}|{s.st_size}|{s.st_mtime_ns}".encode())
        except OSError:
            h.update(f"{p}|missing".encode())
    return h.hexdigest()[:20]


def _publish(tmp: Path, final: Path) -> None:
    """Put a finished clip folder in place in one rename (an older one is moved aside first)."""
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, final)


def _is_done(out: Path, job: ClipJob) -> bool:
    p = out / CLIPS_DIR / job.clip / "result.json"
    if not p.is_file():
        return False
    try:
        rep = ClipReport.model_validate_json(p.read_bytes())
    except (OSError, ValidationError):
        return False
    try:
        layout = _resolve_layout(job)
    except StreamError:
        return False
    return rep.status == "ok" and rep.fingerprint == _fingerprint(job, layout)


# --- one clip (runs in a worker process) ---------------------------------------------------------

_progress_q: Any = None


def _init_worker(q: Any) -> None:
    global _progress_q
    _progress_q = q


def _report_progress(clip: str, footage_s: float) -> None:
    if _progress_q is not None:
        with contextlib.suppress(queue.Full, OSError, ValueError):
            _progress_q.put_nowait((clip, footage_s))


def audit_clip(job: ClipJob, out: Path, monitor_factory: MonitorFactory | None = None) -> ClipReport:
    """Audit one clip; write ``clips/<clip>/`` (result.json, report.html, evidence/) atomically."""
    start = time.perf_counter()
    began = time.time()
    clips = out / CLIPS_DIR
    clips.mkdir(parents=True, exist_ok=True)
    tmp = clips / f".{job.clip}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    rep = ClipReport(clip=job.clip, status="failed", mode=job.mode, video=job.video, states=job.states)
    proc: StreamProcessor | None = None
    last_frame: int | None = None
    try:
        if job.problem:
            raise StreamError(job.problem)
        layout_path = _resolve_layout(job)
        rep.layout = str(layout_path)
        truth = _find_truth(job)
        rep.truth = str(truth) if truth else None
        rep.fingerprint = _fingerprint(job, layout_path)
        layout: TableLayout = load_layout(layout_path)
        rep.table_id, rep.game = layout.table_id, layout.game
        source = job.video or job.states or job.clip
        proc = StreamProcessor(
            layout,
            (monitor_factory or monitor_for(job.mode == "states"))(layout),
            source_name=Path(source).name,
            evidence_dir=tmp / "evidence",
            evidence_base=tmp,
            video=Path(job.video) if job.video else None,  # evidence frames the cache no longer holds
        )
        next_tick = 0.0
        fr: StreamFrame
        before: TableState | None = None
        for fr in stream_frames(source, layout, states=job.states if job.mode == "states" else None):
            last_frame = fr.state.frame
            if rep.card_px_per_mm is None and fr.image is not None:
                h, w = fr.image.shape[:2]
                rep.card_px_per_mm = card_resolution(layout.scaled_to(w, h, strict=False))
            rep.camera += [c.note for c in camera_changes(before, fr.state)]
            before = fr.state
            proc.feed(fr)
            if fr.state.t >= next_tick:
                _report_progress(job.clip, fr.state.t)
                next_tick = fr.state.t + 5.0
        proc.finish()
        rep.status = "ok"
        rep.rounds = proc.rounds
        rep.events = list(proc.events)
        rep.findings = list(proc.alerts)
        rep.states_seen = proc.frames
        rep.last_frame = last_frame
        last_t = proc.last.state.t if proc.last else 0.0
        video_s = _video_seconds(job.video) if job.video else None
        rep.footage_s = max(last_t, video_s or 0.0)  # states change only now and then; the video runs on
    except (StreamError, LayoutError) as e:
        rep.error = str(e)
    except Exception as e:  # the batch goes on; the clip is marked failed with file and frame
        where = job.states if job.mode == "states" else job.video
        at = f" at frame {last_frame}" if last_frame is not None else " before the first frame"
        rep.error = f"{where}{at}: {type(e).__name__}: {e}"
    finally:
        if proc is not None:
            proc.close()
    if rep.status == "failed":
        rep.states_seen = proc.frames if proc else 0
        rep.last_frame = last_frame
        shutil.rmtree(tmp / "evidence", ignore_errors=True)
    rep.wall_s = time.perf_counter() - start
    try:
        rep.provenance = clip_provenance(
            inputs=[job.video, job.states if job.mode == "states" else None, rep.layout],
            vision=job.mode == "vision" and rep.status == "ok",
            evidence={
                a.evidence: a.evidence_sha256 for a in rep.findings if a.evidence and a.evidence_sha256
            },
            started=began,
        )
    except OSError as e:  # an input gone mid-audit: the record says so rather than lose the clip
        rep.error = rep.error or f"provenance: {e}"
    if rep.status == "ok":
        atomic_write_text(tmp / "report.html", clip_html(rep))
    atomic_write_text(tmp / "result.json", rep.model_dump_json(indent=1))
    _publish(tmp, clips / job.clip)
    return rep


def _audit_in_worker(job_json: str, out: str, factory: MonitorFactory | None) -> str:
    rep = audit_clip(ClipJob.model_validate_json(job_json), Path(out), factory)
    return rep.model_dump_json(include={"clip", "status", "error", "footage_s", "wall_s"})


def _clean_leftovers(out: Path) -> None:
    """Folders left half-written by a crashed run (never published) are removed."""
    base = out / CLIPS_DIR
    if not base.is_dir():
        return
    for d in base.iterdir():
        if d.name.startswith(".") and (".tmp-" in d.name or ".old-" in d.name):
            shutil.rmtree(d, ignore_errors=True)


def _duration(job: ClipJob) -> float | None:
    """Footage length for the progress bar (states file: last line's t; video: frames / fps)."""
    try:
        if job.mode == "states" and job.states:
            with open(job.states, "rb") as f:
                size = f.seek(0, os.SEEK_END)
                f.seek(max(0, size - 65536))
                tail = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
            return float(json.loads(tail)["t"])
        if job.video:
            return _video_seconds(job.video)
    except (OSError, ValueError, KeyError, IndexError):
        return None
    return None


def _video_seconds(path: str) -> float | None:
    """Length of a video file from its frame count and rate (None when unknown)."""
    import cv2

    cap = cv2.VideoCapture(path)
    try:
        n, fps = cap.get(cv2.CAP_PROP_FRAME_COUNT), cap.get(cv2.CAP_PROP_FPS)
    finally:
        cap.release()
    return float(n / fps) if n > 0 and fps > 0 else None


def _run_pool(
    todo: list[ClipJob],
    out: Path,
    workers: int,
    monitor_factory: MonitorFactory | None,
    prog: Any,
    running: dict[str, Any],
    started: Callable[[ClipJob], None],
    finished: Callable[[str, str, str, float], None],
    on_clip_done: Callable[[ClipReport | str], None] | None,
) -> None:
    """Clips in worker processes; each result is taken as it comes (a dead worker fails its clip)."""
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    if ctx.get_start_method() == "fork":  # forked workers inherit what the warm-up loaded
        for job in todo:
            try:
                warm_up(load_layout(_resolve_layout(job)), monitor_factory or default_monitor)
                break
            except (StreamError, LayoutError):
                continue
    q = ctx.Queue()
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(q,))
    try:
        futs: dict[Future[str], ClipJob] = {}
        for job in todo:
            futs[ex.submit(_audit_in_worker, job.model_dump_json(), str(out), monitor_factory)] = job
            started(job)
        pending = set(futs)
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            while True:
                try:
                    clip, t = q.get_nowait()
                except (queue.Empty, OSError, ValueError):
                    break
                if clip in running:
                    prog.update(running[clip], completed=t)
            for fut in done:
                job = futs[fut]
                try:
                    d = json.loads(fut.result())
                    finished(d["clip"], d["status"], d["error"], float(d["footage_s"]))
                except Exception as e:  # the worker died: the clip is failed, the batch goes on
                    rep = ClipReport(
                        clip=job.clip,
                        status="failed",
                        mode=job.mode,
                        video=job.video,
                        states=job.states,
                        error=f"{job.video or job.states}: worker crashed: {type(e).__name__}: {e}",
                    )
                    tmp = out / CLIPS_DIR / f".{job.clip}.tmp-{os.getpid()}"
                    tmp.mkdir(parents=True, exist_ok=True)
                    atomic_write_text(tmp / "result.json", rep.model_dump_json(indent=1))
                    _publish(tmp, out / CLIPS_DIR / job.clip)
                    finished(job.clip, "failed", rep.error, 0.0)
                if on_clip_done is not None:
                    on_clip_done(job.clip)
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def run_audit(
    paths: Sequence[Path],
    out: Path,
    *,
    layout: Path | None = None,
    workers: int = 1,
    states: bool = False,
    force: bool = False,
    console: Console | None = None,
    progress: bool = True,
    monitor_factory: MonitorFactory | None = None,
    on_clip_done: Callable[[ClipReport | str], None] | None = None,
) -> AuditResult:
    """Audit every clip under ``paths`` into ``out`` (resumable), then rebuild the batch summary."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = console or Console(stderr=True)
    t0 = time.perf_counter()
    jobs = discover(paths, states=states, out=out, layout=layout)
    if not jobs:  # nothing to audit: nothing written (no empty report, no digest of nothing to file)
        return AuditResult(
            out=str(out), clips=0, audited=0, skipped=0, failed=[], footage_s=0.0, wall_s=0.0, findings=0
        )
    out.mkdir(parents=True, exist_ok=True)
    _clean_leftovers(out)
    todo = [j for j in jobs if force or not _is_done(out, j)]
    skipped = len(jobs) - len(todo)
    if skipped:
        console.print(f"{skipped} clip(s) already audited with the same inputs: skipped")
    failed: list[str] = []
    done_footage = 0.0
    done_clips = 0  # finished, published or failed: an interrupted run audited only these
    interrupted = False
    prog = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not progress,
    )
    with prog:
        overall = prog.add_task("clips", total=len(todo))
        running: dict[str, Any] = {}

        def started(job: ClipJob) -> None:
            dur = _duration(job)
            running[job.clip] = prog.add_task(f"  {job.clip}", total=dur if dur else None)

        def finished(rep_clip: str, status: str, error: str, footage: float) -> None:
            nonlocal done_footage, done_clips
            done_clips += 1
            tid = running.pop(rep_clip, None)
            if tid is not None:
                prog.remove_task(tid)
            prog.advance(overall)
            if status != "ok":
                failed.append(rep_clip)
                prog.console.print(f"[red]failed[/] {rep_clip}: {error}")
            else:
                done_footage += footage

        try:
            if workers <= 1 or len(todo) <= 1:
                _init_worker(None)
                for job in todo:
                    started(job)
                    rep = audit_clip(job, out, monitor_factory)
                    finished(rep.clip, rep.status, rep.error, rep.footage_s)
                    if on_clip_done is not None:
                        on_clip_done(rep)
            else:
                _run_pool(todo, out, workers, monitor_factory, prog, running, started, finished, on_clip_done)
        except KeyboardInterrupt:  # Ctrl-C: clips published so far stay; the rest is done on a re-run
            interrupted = True
            prog.console.print(
                "[yellow]interrupted: the clips finished so far are kept; run again to resume[/]"
            )
    reports, errors, totals = write_summary(out)
    for line in errors:
        console.print(f"[red]{line}[/]")
    return AuditResult(
        out=str(out),
        clips=len(jobs),
        audited=done_clips,
        skipped=skipped,
        failed=failed,
        footage_s=done_footage,
        wall_s=time.perf_counter() - t0,
        findings=sum(len(r.findings) for r in reports if r.status == "ok"),
        review=sum(a.status == "review" for r in reports if r.status == "ok" for a in r.findings),
        interrupted=interrupted,
        coarse=totals.coarse,
        digest=totals.digest,
    )
