"""Compliance acceptance on a fresh random batch: recall 100 %, no false alerts, every round rebuilt.

Generates ``--rounds N`` (at least 200 for the acceptance target) random rounds, half of the clips in
each game, from ``--seed``: ``render.scenario.random_scenario`` draws each round's seats, i-Verify
use, player fouls and, with probability ``--violation-rate`` (0.5), one injected violation of a check
drawn at random among every check id (SETTLEMENT included: a seat's wager settled the wrong way on
the felt). For every clip it writes
the ground truth only (``render.batch.write_truth``: layout, ``.states.jsonl``, ``.truth.json``; no
drawing), or with ``--video`` the whole rendered clip (``render.clip.render_clip``, H.264 and boxes,
20-60 ms a frame: use a small batch) and then checks that the no-video truth is byte-identical.
Then it runs the audit on the ground-truth states (``paigow-monitor audit --states``), or with
``--camera`` on the rendered videos through the camera pipeline and the shipped detector (as the
README's main job runs), and the evaluation (``paigow-monitor evaluate``) and prints: rounds,
violations injected per check id, recall per check id, false alerts, review items, rounds rebuilt,
wall time. Exit status 1 when a target is missed. ``--reuse-clips`` audits the clips an earlier run
left in ``--out`` again (same seed; nothing is rendered): to measure a change of the monitor on the
same footage. ``--inject CHECK[:VARIANT]`` makes every drawn violation that check (with
``--violation-rate 1``, every round): a batch measuring one kind of breach, e.g. the hold-out a
player makes with a copy of one of his own cards (``FOREIGN-CARD:same-hand``).

    nice -n 10 .venv/bin/python benchmarks/compliance_batch.py --rounds 200 --seed 1 --out /tmp/batch
    .venv/bin/python benchmarks/compliance_batch.py --rounds 30 --seed 41 --video --camera --out /tmp/vb41
    .venv/bin/python benchmarks/compliance_batch.py --rounds 10 --seed 70 --violation-rate 1 \
        --inject FOREIGN-CARD:same-hand --video --camera --out /tmp/vb70
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from compliance.evaluate import EvalReport, evaluate  # noqa: E402
from compliance.events import CheckId, ClipTruth  # noqa: E402
from render.scenario import Violation  # noqa: E402

__all__ = ["BatchClip", "BatchReport", "CheckScore", "generate_batch", "main", "run_batch", "score_batch"]

Game = Literal["seven-card", "six-card"]
_GAMES: tuple[Game, Game] = ("seven-card", "six-card")
CLIPS_DIR = "clips"
AUDIT_DIR = "audit"
_CHECK_DIR = "novideo-check"
MANIFEST = "batch_clips.json"  # the clips rendered, written before the audit starts
_MISSED = re.compile(r"^round (\d+) (\S+) seat (\S+)( \(found for review\))?$")  # compliance.evaluate


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BatchClip(_Model):
    """One generated clip: what was asked of the renderer."""

    name: str
    game: Game
    seed: int
    rounds: int
    face_up_dealing: bool
    injected: list[str]  # check ids injected, one entry per injected violation
    video: bool
    identical_without_video: bool | None = None  # --video only: write_truth gave the same files


class BatchManifest(_Model):
    """What a run rendered, written as soon as it is: ``--reuse-clips`` finds the clips even when the
    run stopped before its report (a crash in the audit)."""

    seed: int
    clips: list[BatchClip]


class CheckScore(_Model):
    check: str
    injected: int  # violations the scenarios asked for
    true_findings: int  # findings in the ground truth
    found: int
    false_alerts: int


class BatchReport(_Model):
    seed: int
    clips: list[BatchClip]
    rounds: int
    rounds_by_game: dict[str, int]
    rounds_with_violation: int
    checks: list[CheckScore]
    evaluation: EvalReport
    false_alert_lines: list[str] = Field(default_factory=list)
    missed_lines: list[str] = Field(default_factory=list)
    round_problem_lines: list[str] = Field(default_factory=list)
    video_mismatches: list[str] = Field(default_factory=list)
    camera: bool = False  # audited through the camera pipeline (else on the ground-truth states)
    generate_s: float = 0.0
    audit_s: float = 0.0
    evaluate_s: float = 0.0
    wall_s: float = 0.0
    passed: bool = False
    failures: list[str] = Field(default_factory=list)


def _same_files(a: Path, b: Path, names: list[str]) -> list[str]:
    return [n for n in names if not filecmp.cmp(a / n, b / n, shallow=False)]


def generate_batch(
    out: Path,
    rounds: int,
    seed: int,
    *,
    video: bool = False,
    violation_rate: float = 0.5,
    rounds_per_clip: int = 2,
    face_up_share: float = 0.0,
    image_size: tuple[int, int] | None = None,
    deck: str | None = None,
    inject: Violation | None = None,
    log: Callable[[str], None] = print,
) -> list[BatchClip]:
    """Write the clips of a fresh batch into ``out/clips/`` (ground truth; videos with ``video``), seen
    by a camera of ``image_size`` (width, height; None: the renderer's default, 1280x720), dealt from
    ``deck`` (None: the held-out validation decks in turn; a deck without a Joker deals 52 cards)."""
    import numpy as np

    from render.batch import write_truth
    from render.clip import layout_file_name, plan_clip, render_clip
    from render.scenario import random_scenario

    clips_dir = out / CLIPS_DIR
    clips_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 7])  # face-up dealing draws, apart from the scenarios' seeds
    made: list[BatchClip] = []
    left = rounds
    i = 0
    while left > 0:
        n = min(rounds_per_clip, left)
        game = _GAMES[i % 2]
        clip_seed = seed * 100_000 + i
        face_up = bool(rng.random() < face_up_share)
        sc = random_scenario(
            game, clip_seed, rounds=n, violation_rate=violation_rate, face_up_dealing=face_up, inject=inject
        )
        if deck is not None:
            sc = sc.model_copy(update={"deck": deck})
        name = f"b{seed}-{i:04d}-{'seven' if game == 'seven-card' else 'six'}{'-faceup' if face_up else ''}"
        injected = [v.check.value for r in sc.rounds for v in r.violations]
        clip = BatchClip(
            name=name,
            game=game,
            seed=clip_seed,
            rounds=n,
            face_up_dealing=face_up,
            injected=injected,
            video=video,
        )
        if video:
            render_clip(sc, clip_seed, clips_dir, name=name, image_size=image_size)
            check = out / _CHECK_DIR
            write_truth(sc, clip_seed, check, name=name, image_size=image_size)
            layout_name = layout_file_name(plan_clip(sc, clip_seed, image_size)[0])
            diff = _same_files(clips_dir, check, [f"{name}.states.jsonl", f"{name}.truth.json", layout_name])
            clip.identical_without_video = not diff
            if diff:
                log(f"  {name}: the no-video ground truth differs from the rendered clip's: {diff}")
        else:
            write_truth(sc, clip_seed, clips_dir, name=name, image_size=image_size)
        made.append(clip)
        log(f"  {name}: {n} round(s), injected: {', '.join(injected) or '-'}")
        left -= n
        i += 1
    return made


def _check_of(line: str) -> str | None:
    for c in CheckId:
        if f" {c.value} " in f" {line} ":
            return c.value
    return None


def score_batch(out: Path, clips: list[BatchClip], seed: int) -> BatchReport:
    """Evaluate ``out/audit/`` against the truth files in ``out/clips/`` and break the figures down."""
    t0 = time.perf_counter()
    ev = evaluate(out / AUDIT_DIR, [out / CLIPS_DIR])
    eval_s = time.perf_counter() - t0
    truths = {
        c.name: ClipTruth.model_validate_json((out / CLIPS_DIR / f"{c.name}.truth.json").read_bytes())
        for c in clips
    }
    true_by_check: Counter[str] = Counter(
        f.check_id.value for t in truths.values() for r in t.rounds for f in r.findings
    )
    injected: Counter[str] = Counter(x for c in clips for x in c.injected)
    missed: Counter[str] = Counter()
    false: Counter[str] = Counter()
    false_lines: list[str] = []
    missed_lines: list[str] = []
    problems: list[str] = []
    for s in ev.clips:
        for m in s.missed:
            hit = _MISSED.match(m)
            if hit is None:
                raise ValueError(f"{s.clip}: unexpected miss description {m!r} from compliance.evaluate")
            missed[hit.group(2)] += 1
            missed_lines.append(f"{s.clip}: MISSED {m}")
        for f in s.false:
            false[_check_of(f) or "?"] += 1
            false_lines.append(f"{s.clip}: FALSE ALERT {f}")
        problems += [f"{s.clip}: {p}" for p in s.round_problems]
    names = [c.value for c in CheckId if c.value in injected or c.value in true_by_check or c.value in false]
    names += [k for k in false if k not in names]
    checks = [
        CheckScore(
            check=k,
            injected=injected[k],
            true_findings=true_by_check[k],
            found=true_by_check[k] - missed[k],
            false_alerts=false[k],
        )
        for k in names
    ]
    by_game: Counter[str] = Counter()
    for c in clips:
        by_game[c.game] += c.rounds
    mismatches = [c.name for c in clips if c.identical_without_video is False]
    failures = list(ev.failures)
    if mismatches:
        failures.append(f"{len(mismatches)} clip(s) whose no-video ground truth differs from the video's")
    if sum(c.found for c in checks) != ev.findings_found:
        failures.append("per-check figures disagree with the evaluation's total (parsing of its lines)")
    rep = BatchReport(
        seed=seed,
        clips=clips,
        rounds=sum(c.rounds for c in clips),
        rounds_by_game=dict(by_game),
        rounds_with_violation=sum(1 for t in truths.values() for r in t.rounds if r.findings),
        checks=checks,
        evaluation=ev,
        false_alert_lines=false_lines,
        missed_lines=missed_lines,
        round_problem_lines=problems,
        video_mismatches=mismatches,
        evaluate_s=eval_s,
        failures=failures,
        passed=not failures,
    )
    return rep


def run_batch(
    out: Path,
    rounds: int,
    seed: int,
    *,
    video: bool = False,
    violation_rate: float = 0.5,
    rounds_per_clip: int = 2,
    face_up_share: float = 0.0,
    workers: int = 1,
    camera: bool = False,
    reuse_clips: bool = False,
    image_size: tuple[int, int] | None = None,
    deck: str | None = None,
    inject: Violation | None = None,
    log: Callable[[str], None] = print,
) -> BatchReport:
    """Generate a fresh batch into ``out`` (emptied first), audit it (its states, or with ``camera``
    its videos), evaluate it. ``reuse_clips``: audit the clips of the earlier run in ``out`` again."""
    from rich.console import Console

    from compliance.audit import run_audit

    t0 = time.perf_counter()
    if reuse_clips:
        clips = reused_clips(out, seed, video=camera)
        shutil.rmtree(out / AUDIT_DIR, ignore_errors=True)
    else:
        for sub in (CLIPS_DIR, AUDIT_DIR, _CHECK_DIR):
            shutil.rmtree(out / sub, ignore_errors=True)
        for name in (MANIFEST, "batch_report.json"):  # an earlier run's: not these clips
            (out / name).unlink(missing_ok=True)
        clips = generate_batch(
            out,
            rounds,
            seed,
            video=video or camera,
            violation_rate=violation_rate,
            rounds_per_clip=rounds_per_clip,
            face_up_share=face_up_share,
            image_size=image_size,
            deck=deck,
            inject=inject,
            log=log,
        )
        (out / MANIFEST).write_text(BatchManifest(seed=seed, clips=clips).model_dump_json(indent=1))
    t1 = time.perf_counter()
    with open(os.devnull, "w") as devnull:
        res = run_audit(
            [out / CLIPS_DIR],
            out / AUDIT_DIR,
            workers=workers,
            states=not camera,
            force=True,
            progress=False,
            console=Console(file=devnull),
        )
    t2 = time.perf_counter()
    rep = score_batch(out, clips, seed)
    rep.camera = camera
    if res.failed:
        rep.failures.append(f"audit failed on {len(res.failed)} clip(s): {', '.join(res.failed)}")
        rep.passed = False
    rep.generate_s, rep.audit_s = t1 - t0, t2 - t1
    rep.wall_s = time.perf_counter() - t0
    (out / "batch_report.json").write_text(rep.model_dump_json(indent=1))
    return rep


def reused_clips(out: Path, seed: int, *, video: bool) -> list[BatchClip]:
    """The clips an earlier run wrote into ``out`` (its ``MANIFEST``, or for a run made before there was
    one its ``batch_report.json``), checked to be there."""
    path = out / MANIFEST
    model: type[BatchManifest] | type[BatchReport] = BatchManifest
    if not path.exists():
        path, model = out / "batch_report.json", BatchReport
    try:
        earlier = model.model_validate_json(path.read_bytes())
    except (OSError, ValueError) as e:
        raise SystemExit(f"--reuse-clips: {path}: no earlier batch to reuse ({e})") from e
    if earlier.seed != seed:
        raise SystemExit(f"--reuse-clips: {path} is the batch of seed {earlier.seed}, not {seed}")
    need = [".truth.json", ".states.jsonl", *([".mp4"] if video else [])]
    names = [f"{c.name}{x}" for c in earlier.clips for x in need]
    gone = [n for n in names if not (out / CLIPS_DIR / n).is_file()]
    if gone:
        raise SystemExit(f"--reuse-clips: {out / CLIPS_DIR} lacks {', '.join(gone[:5])}")
    return earlier.clips


def _print(rep: BatchReport, out: Path) -> None:
    ev = rep.evaluation
    games = ", ".join(f"{g} {n}" for g, n in sorted(rep.rounds_by_game.items()))
    print(
        f"\nbatch seed {rep.seed}: {rep.rounds} rounds in {len(rep.clips)} clips ({games}); "
        f"{rep.rounds_with_violation} rounds with a violation in the truth, "
        f"{rep.rounds - rep.rounds_with_violation} compliant"
    )
    w = max([len(c.check) for c in rep.checks] + [8])
    print(f"{'check':<{w}}  injected  true findings  found  recall   false alerts")
    for c in rep.checks:
        rec = f"{100 * c.found / c.true_findings:.1f}%" if c.true_findings else "-"
        print(
            f"{c.check:<{w}}  {c.injected:>8}  {c.true_findings:>13}  {c.found:>5}  {rec:>6}   "
            f"{c.false_alerts:>12}"
        )
    print(
        f"{'total':<{w}}  {sum(c.injected for c in rep.checks):>8}  {ev.findings_true:>13}  "
        f"{ev.findings_found:>5}  {100 * ev.recall:>5.1f}%   {ev.false_alerts:>12}"
    )
    print(
        f"recall {100 * ev.recall:.1f}% ({ev.findings_found}/{ev.findings_true}); false alerts "
        f"{ev.false_alerts}; duplicates {ev.duplicates}; rounds rebuilt {ev.rounds_rebuilt}/{ev.rounds_true}"
        f" ({'through the camera' if rep.camera else 'on the ground-truth states'})"
    )
    print(
        f"review items {ev.review_items}: {ev.review_true} on true findings ({ev.found_only_in_review} "
        f"found only for review), {ev.review_false} on no true finding "
        f"({ev.review_false_on_compliant_rounds} on compliant rounds)"
    )
    if any(c.video for c in rep.clips):
        same = sum(1 for c in rep.clips if c.identical_without_video)
        print(f"no-video ground truth identical to the rendered clips' for {same}/{len(rep.clips)} clips")
    for line in rep.missed_lines + rep.false_alert_lines:
        print(f"  {line}")
    for line in rep.round_problem_lines[:40]:
        print(f"  ROUND {line}")
    if len(rep.round_problem_lines) > 40:
        print(
            f"  ... {len(rep.round_problem_lines) - 40} more round problem(s) in {out / 'batch_report.json'}"
        )
    print(
        f"wall time {rep.wall_s:.1f} s (generate {rep.generate_s:.1f} s, audit {rep.audit_s:.1f} s, "
        f"evaluate {rep.evaluate_s:.1f} s); report: {out / 'batch_report.json'}"
    )
    print("ALL TARGETS MET" if rep.passed else "TARGETS MISSED: " + "; ".join(rep.failures))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=200, help="rounds in the batch (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed: same seed, same batch")
    ap.add_argument(
        "--out", type=Path, required=True, help="output folder (its clips/ and audit/ are replaced)"
    )
    ap.add_argument("--video", action="store_true", help="also render the H.264 clips (slow: small batches)")
    ap.add_argument("--violation-rate", type=float, default=0.5, help="share of rounds with one violation")
    ap.add_argument("--rounds-per-clip", type=int, default=2)
    ap.add_argument(
        "--face-up-share", type=float, default=0.0, help="share of clips dealt face up (seed 003)"
    )
    ap.add_argument("--workers", type=int, default=1, help="audit worker processes")
    ap.add_argument(
        "--camera", action="store_true", help="audit the rendered videos through the camera (implies --video)"
    )
    ap.add_argument(
        "--reuse-clips", action="store_true", help="audit the clips of the earlier run in --out again"
    )
    ap.add_argument("--size", default=None, help="camera resolution WIDTHxHEIGHT (default 1280x720)")
    ap.add_argument(
        "--deck", default=None, help="deal every clip from this deck (default: the held-out decks in turn)"
    )
    ap.add_argument(
        "--inject",
        default=None,
        metavar="CHECK[:VARIANT]",
        help="every violation drawn is this check (e.g. FOREIGN-CARD:same-hand); with --violation-rate 1, "
        "every round",
    )
    args = ap.parse_args(argv)
    inject = None
    if args.inject is not None:
        from pydantic import ValidationError

        check, _, variant = args.inject.partition(":")
        try:
            inject = Violation(check=check, variant=variant or None)  # type: ignore[arg-type]
        except ValidationError as e:
            ap.error(f"--inject {args.inject}: {e.errors()[0]['msg']}")
    size: tuple[int, int] | None = None
    if args.size is not None:
        from render.table import parse_image_size

        try:
            size = parse_image_size(args.size)
        except ValueError as e:
            ap.error(str(e))
    if args.rounds < 1 or args.rounds_per_clip < 1 or not 0 <= args.violation_rate <= 1:
        ap.error("--rounds and --rounds-per-clip must be >= 1, --violation-rate within 0..1")
    video = args.video or args.camera
    if args.reuse_clips:
        print(f"auditing the clips of seed {args.seed} in {args.out / CLIPS_DIR} again")
    else:
        print(
            f"generating {args.rounds} rounds (seed {args.seed}, {'with' if video else 'without'} video) "
            f"into {args.out / CLIPS_DIR}"
        )
    rep = run_batch(
        args.out,
        args.rounds,
        args.seed,
        video=args.video,
        violation_rate=args.violation_rate,
        rounds_per_clip=args.rounds_per_clip,
        face_up_share=args.face_up_share,
        workers=args.workers,
        camera=args.camera,
        reuse_clips=args.reuse_clips,
        image_size=size,
        deck=args.deck,
        inject=inject,
    )
    _print(rep, args.out)
    return 0 if rep.passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
