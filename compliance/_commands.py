"""The compliance commands of ``paigow-monitor``: live, audit, evaluate.

Each command is thin: it checks its arguments and hands over to one function (``run_live``,
``run_audit``, ``evaluate``). Heavy imports happen inside the commands.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from vision.layout import TableLayout

__all__ = ["register"]


def _load_layout_or_exit(path: Path) -> TableLayout:
    from vision.layout import LayoutError, load_layout

    try:
        return load_layout(path)
    except LayoutError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e


def live(
    source: Annotated[
        str, typer.Argument(help="Video file, folder, stream URL or camera index (0, 1, ...).")
    ],
    layout: Annotated[Path, typer.Option("--layout", help="The table's layout file (YAML or JSON).")],
    alerts: Annotated[Path, typer.Option("--alerts", help="Append-only alerts file (JSONL).")] = Path(
        "alerts.jsonl"
    ),
    webhook: Annotated[
        str | None,
        typer.Option(
            "--webhook",
            help="POST each alert, and each camera event (feed lost or back, view moved or back), as "
            "JSON to this URL (header X-Paigow-Record: alert or camera; undelivered ones go to "
            "<alerts>.deadletter.jsonl).",
        ),
    ] = None,
    states: Annotated[
        Path | None,
        typer.Option(
            "--states",
            help="Take table states from this ground-truth "
            ".states.jsonl instead of the vision pipeline "
            "(SOURCE, if a video, still gives evidence frames).",
        ),
    ] = None,
    evidence_dir: Annotated[
        Path | None,
        typer.Option(
            "--evidence-dir",
            help="Where evidence pictures go (default: <alerts>-evidence/ beside the alerts).",
        ),
    ] = None,
    realtime: Annotated[
        bool,
        typer.Option(
            "--realtime/--no-realtime",
            help="Replay a file at the pace of its timestamps, as a live feed: the states of --states, or "
            "a video's frames (as a camera would deliver them; alerts timed as from a camera).",
        ),
    ] = False,
    view: Annotated[bool, typer.Option("--view/--no-view", help="Show the live console view.")] = True,
) -> None:
    """Watch a table as it plays: alert on every breach, durably, within a second of the frame."""
    from rich.console import Console

    from compliance.live import StreamError, run_live
    from vision.sources import SourceError, check_source, redacted

    lay = _load_layout_or_exit(layout)
    # the camera's source, checked before the alerts file is opened; with --states SOURCE only names
    # the records and, if a video, gives the evidence pictures
    try:
        if states is None:
            check_source(source)
    except SourceError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    console = Console()
    try:
        s = run_live(
            source,
            lay,
            alerts_path=alerts,
            states=states,
            webhook=webhook,
            evidence_dir=evidence_dir,
            realtime=realtime,
            view=view,
            console=console,
        )
    except (StreamError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        typer.echo(f"(alerts recorded before it stay in {alerts})", err=True)
        raise typer.Exit(2) from e
    except Exception as e:  # the camera pipeline or the engine failed: say where, keep what is recorded
        typer.echo(f"error: {redacted(source)}: {type(e).__name__}: {e}", err=True)
        typer.echo(f"(alerts recorded before it stay in {alerts})", err=True)
        raise typer.Exit(1) from e
    lat = f"; worst latency {s.max_latency_s * 1000:.1f} ms" if s.max_latency_s is not None else ""
    hook = f"; webhook delivered {s.webhook_delivered}, failed {s.webhook_failed}" if webhook else ""
    feed = (
        f"; camera feed lost {s.feed_lost} time(s), {s.feed_lost_s:.1f} s without a picture"
        if s.feed_lost
        else ""
    )
    moved = f"; the camera's view moved {s.view_moved} time(s)" if s.view_moved else ""
    if s.no_picture_at_start_s is not None:
        moved += (
            f"; no picture from the camera in the whole watch ({s.no_picture_at_start_s:.1f} s)"
            if s.frames == 0
            else f"; no picture for the first {s.no_picture_at_start_s:.1f} s of the watch"
        )
    cam = f" (each in {s.camera_file})" if s.camera_file else ""
    console.print(
        f"{'stopped' if s.interrupted else 'done'}: {s.frames} state changes, {s.alerts - s.review} alert(s) "
        f"and {s.review} review item(s) recorded in {s.alerts_file}{lat}{hook}{feed}{moved}{cam}"
    )
    if s.chain_head:
        console.print(f"alerts file's chain ends at sha256 {s.chain_head} (paigow-monitor verify {alerts})")
    if s.interrupted:
        raise typer.Exit(130)


def audit(
    paths: Annotated[list[Path], typer.Argument(help="Video files, .states.jsonl files and folders.")],
    out: Annotated[
        Path, typer.Option("--out", help="Output folder (clips/<clip>/, summary.csv, summary.html).")
    ],
    layout: Annotated[
        Path | None,
        typer.Option(
            "--layout",
            help="Layout for every clip (default: the one "
            "named by <clip>.truth.json, or layout.yaml beside it).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option("--workers", min=0, help="Clips audited in parallel (processes); 0: one per CPU core."),
    ] = 0,
    states: Annotated[
        bool,
        typer.Option(
            "--states",
            help="Take table states from each clip's ground-truth "
            "<clip>.states.jsonl instead of the vision pipeline.",
        ),
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Audit again clips already done.")] = False,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show the progress bar.")] = True,
) -> None:
    """Replay recorded footage: every round rebuilt, every finding with evidence, a batch summary."""
    from rich.console import Console

    from compliance.audit import run_audit
    from compliance.reports import coarse_note

    console = Console(stderr=True)
    res = run_audit(
        paths,
        out,
        layout=layout,
        workers=workers or os.cpu_count() or 1,
        states=states,
        force=force,
        console=console,
        progress=progress,
    )
    if res.clips == 0:
        typer.echo("error: no clips found in " + ", ".join(map(str, paths)), err=True)
        raise typer.Exit(2)
    typer.echo(  # a failed clip is finished (res.audited) but not audited: said apart
        f"{res.clips} clip(s): {res.audited - len(res.failed)} audited now "
        f"({res.footage_s:.1f} s of footage in {res.wall_s:.1f} s), "
        f"{res.skipped} skipped (already done), {len(res.failed)} failed; {res.findings} finding(s) in the "
        f"batch ({res.findings - res.review} alert(s), {res.review} review item(s)); "
        f"summary: {out / 'summary.html'}"
    )
    if res.coarse:
        typer.echo(f"note: {coarse_note(len(res.coarse))}: {', '.join(res.coarse)}")
    if res.digest:
        typer.echo(
            f"records digest: sha256 {res.digest} (file it with the report: paigow-monitor verify "
            f"{out} computes it again)"
        )
    if res.interrupted:
        left = res.clips - res.skipped - res.audited
        typer.echo(f"interrupted: {left} clip(s) not audited; run the same command again to audit them")
        raise typer.Exit(130)
    if res.failed:
        raise typer.Exit(1)


def evaluate(
    audit_dir: Annotated[
        Path, typer.Option("--audit", help="An audit output folder (from paigow-monitor audit).")
    ],
    truth: Annotated[
        list[Path] | None,
        typer.Option(
            "--truth",
            help="Truth files or folders of *.truth.json "
            "(repeatable; default: those beside the audited clips).",
        ),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the scores as JSON here.")
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every miss and false alert.")
    ] = False,
) -> None:
    """Score an audit against ground truth (recall, false alerts, rounds rebuilt); exit 1 on a miss."""
    from rich.console import Console
    from rich.table import Table

    from compliance.evaluate import EvalError
    from compliance.evaluate import evaluate as run_eval

    try:
        rep = run_eval(audit_dir, truth or [])
    except EvalError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    console = Console(width=140)
    t = Table(title=f"evaluation of {audit_dir}")
    for c in (
        "clip",
        "audited",
        "rounds rebuilt",
        "findings found",
        "false alerts",
        "duplicates",
        "review: true / false",
    ):
        t.add_column(c)
    for s in rep.clips:
        t.add_row(
            s.clip,
            "yes" if s.audited else f"[red]no[/] {s.error}",
            f"{s.rounds_rebuilt}/{s.rounds_true}",
            f"{s.findings_found}/{s.findings_true}",
            str(s.false_alerts),
            str(s.duplicates),
            f"{s.review_true} / {s.review_false}",
        )
    console.print(t)
    if verbose:
        for s in rep.clips:
            for m in s.missed:
                console.print(f"  {s.clip}: MISSED {m}")
            for f in s.false:
                console.print(f"  {s.clip}: FALSE ALERT {f}")
            for f in s.review_false_items:
                console.print(f"  {s.clip}: FALSE REVIEW ITEM {f}")
            for p in s.round_problems:
                console.print(f"  {s.clip}: ROUND {p}")
    console.print(
        f"alerts: recall {rep.recall * 100:.1f}% ({rep.findings_found}/{rep.findings_true}); "
        f"false alerts {rep.false_alerts}; duplicates {rep.duplicates}; "
        f"findings without evidence picture {rep.without_evidence}; "
        f"rounds rebuilt {rep.rounds_rebuilt}/{rep.rounds_true}"
    )
    console.print(
        f"review items (not alerts; outside the targets) {rep.review_items}: "
        f"{rep.review_true} on true findings, of which {rep.found_only_in_review} found only for review"
    )
    console.print(
        f"review items on no true finding {rep.review_false}: {rep.review_false_on_compliant_rounds} on "
        f"compliant rounds, {rep.review_false - rep.review_false_on_compliant_rounds} in rounds with a true "
        "finding (a wrong seat or check)"
    )
    if json_out is not None:
        json_out.write_text(rep.model_dump_json(indent=1))
    if not rep.passed:
        console.print("[red]TARGETS MISSED:[/] " + "; ".join(rep.failures))
        raise typer.Exit(1)
    console.print("[green]all targets met[/]")


def verify(
    audit_dir: Annotated[
        Path,
        typer.Argument(
            help="An audit output folder (from paigow-monitor audit), or a live watch's alerts file "
            "(its camera log beside it is checked too)."
        ),
    ],
) -> None:
    """Check an audit's records against what they were made of: each clip's footage, states and layout,
    and each evidence picture, hashed again and matched to the sha256 its result.json recorded, and the
    records against the digest the run printed (a live watch's alerts file: each alert's and camera
    event's picture, and both files' hash chains); exit 1 on any change, 2 when there is nothing to
    check."""
    ok = _verify_watch(audit_dir) if audit_dir.is_file() else _verify_audit(audit_dir)
    if not ok:
        raise typer.Exit(1)


def _verify_watch(alerts: Path) -> bool:
    """``verify ALERTS.jsonl``: the pictures, and the alerts file's and camera log's hash chains."""
    from compliance._provenance import verify_records
    from compliance.alerts import AlertFileError, chain_breaks

    try:
        checked, unrecorded, problems = verify_records(alerts)
        linked, breaks, head = chain_breaks(alerts)
        camera = alerts.with_name(alerts.stem + ".camera.jsonl")
        if camera.is_file():  # the camera log beside it is a chain of its own
            breaks += chain_breaks(camera)[1]
    except (AlertFileError, ValueError, OSError) as e:
        typer.echo(f"error: {alerts}: {e}", err=True)
        raise typer.Exit(2) from e
    for line in [*problems, *breaks]:
        typer.echo(line)
    typer.echo(
        f"{alerts}: {checked} picture(s) checked, {len(problems)} changed or gone, "
        f"{unrecorded} with no sha256 recorded (written before there was one); {linked} record(s) "
        f"linked in its hash chain, {len(breaks)} break(s); the chain ends at sha256 {head or '-'} "
        "(match it with the one the watch printed)"
    )
    return not (problems or breaks)


def _verify_audit(audit_dir: Path) -> bool:
    """``verify AUDIT_FOLDER``: each clip's inputs and pictures, then the records against the summary."""
    from compliance._provenance import verify_clip
    from compliance.reports import CLIPS_DIR, BatchSummary, load_clip_reports, record_hashes, records_digest

    reports, errors = load_clip_reports(audit_dir)
    for line in errors:
        typer.echo(f"error: {line}", err=True)
    if not reports:
        typer.echo(f"error: {audit_dir}: no clip records to check (clips/*/result.json)", err=True)
        raise typer.Exit(2)
    changed = unrecorded = 0
    for rep in reports:
        if rep.provenance is None or rep.status != "ok":
            unrecorded += 1
            why = (
                "no provenance recorded (audited before it was)"
                if rep.status == "ok"
                else "failed in the audit"
            )
            typer.echo(f"{rep.clip}: {why}: not checked")
            continue
        problems = verify_clip(audit_dir / CLIPS_DIR / rep.clip, rep.provenance)
        if problems:
            changed += 1
            typer.echo(f"{rep.clip}: CHANGED since the audit of {rep.provenance.finished_at}")
            for line in problems:
                typer.echo(f"  {line}")
        else:
            n = len(rep.provenance.inputs) + len(rep.provenance.evidence)
            typer.echo(f"{rep.clip}: as audited ({n} files match, {rep.provenance.software})")
    checked = len(reports) - unrecorded
    typer.echo(
        f"{len(reports)} clip(s): {checked - changed} as audited, {changed} changed, {unrecorded} not checked"
    )
    # the clip records themselves, against the summary the run wrote, and the digest to match the filed one
    now = record_hashes(audit_dir)
    try:
        written = BatchSummary.model_validate_json((audit_dir / "summary.json").read_bytes()).records
    except (OSError, ValueError):
        written = {}
    moved = sorted(c for c in set(now) | set(written) if written and now.get(c) != written.get(c))
    for clip in moved:
        was = "not in summary.json" if clip not in written else "gone" if clip not in now else "changed"
        typer.echo(f"{clip}: its result.json {was} since the summary was written")
    typer.echo(
        f"records digest: sha256 {records_digest(now)} (match it with the one filed when the audit ran)"
        + ("" if written else "; summary.json lists no records to check them against")
    )
    return not (changed or errors or moved)


def register(app: typer.Typer) -> None:
    """Add the compliance commands to the main app."""
    app.command("live")(live)
    app.command("audit")(audit)
    app.command("evaluate")(evaluate)
    app.command("verify")(verify)
