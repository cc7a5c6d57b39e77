"""Audit reports: the per-clip record (JSON), its HTML report, and the batch summary (CSV and HTML).

Layout of an audit output folder::

    OUT/clips/<clip>/result.json   ClipReport: rounds (hands, events, findings), events, findings
                                   (each as an Alert: time code, evidence picture)
    OUT/clips/<clip>/report.html   self-contained report; pictures are the relative files below
    OUT/clips/<clip>/evidence/     one JPEG per alert
    OUT/summary.csv                one row per clip (failed clips included, with their error)
    OUT/findings.csv               one row per alert across the batch (its status: alert / review)
    OUT/summary.html               the batch at a glance, linking every clip report
    OUT/summary.json               BatchSummary: the batch totals

The summary is always rebuilt from the per-clip ``result.json`` files, so it is right after a
resumed run. HTML uses inline CSS only: no external stylesheet, script or font.
"""

from __future__ import annotations

import csv
import html
import io
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance.alerts import BLANK_CORNER_MARK, CARRIED_MARK, COUNTED_MARK, Alert, timecode
from compliance.events import CheckId, Event, HandRecord, RoundRecord

__all__ = [
    "CLIPS_DIR",
    "REPORT_VERSION",
    "BatchSummary",
    "ClipReport",
    "atomic_write_text",
    "clip_html",
    "load_clip_reports",
    "summary_html",
    "write_summary",
]

REPORT_VERSION = 1
CLIPS_DIR = "clips"


class Provenance(BaseModel):
    """What a clip's audit was made of and by (``compliance._provenance``): filed beside its findings,
    it says which recording was audited, by its bytes, and lets ``paigow-monitor verify`` show that neither
    the inputs nor the evidence pictures have changed since."""

    model_config = ConfigDict(extra="forbid")

    started_at: str  # local clock time, ISO 8601 with its UTC offset
    finished_at: str
    software: str  # "paigow-monitor 0.1.0 (git <commit>)"
    inputs: dict[str, str] = Field(default_factory=dict)  # the footage, states, layout: path -> sha256
    models: dict[str, str] = Field(default_factory=dict)  # the camera's models read with: file -> sha256
    evidence: dict[str, str] = Field(default_factory=dict)  # each picture (relative to the clip) -> sha256


class ClipReport(BaseModel):
    """The audit of one clip, as written to ``clips/<clip>/result.json``."""

    model_config = ConfigDict(extra="forbid")

    version: int = REPORT_VERSION
    clip: str
    status: Literal["ok", "failed"]
    error: str = ""
    mode: Literal["vision", "states"]
    video: str | None = None
    states: str | None = None
    layout: str | None = None
    truth: str | None = None
    fingerprint: str = ""  # of the inputs (paths, sizes, times): a changed input is audited again
    table_id: str = ""
    game: str = ""
    states_seen: int = 0  # table-state changes processed
    last_frame: int | None = None
    footage_s: float = 0.0
    wall_s: float = 0.0
    rounds: list[RoundRecord] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    findings: list[Alert] = Field(default_factory=list)  # each finding as an alert, with its evidence
    # how finely the clip's picture showed the card areas: the fewest and the most pixels per felt mm
    # (vision.zones.card_resolution, the layout scaled to the picture); None: states replayed
    card_px_per_mm: tuple[float, float] | None = None
    # the camera's own trouble, in order (compliance.live.camera_changes): its view moved or back in
    # place, a live feed lost or back. Findings made while the view has moved are review items.
    camera: list[str] = Field(default_factory=list)
    # the inputs', the models' and the evidence pictures' sha256, the software, when (None: records
    # written before there was one)
    provenance: Provenance | None = None


class BatchSummary(BaseModel):
    """``summary.json``: the batch totals (rebuilt, like the CSV and HTML, from the clip records)."""

    model_config = ConfigDict(extra="forbid")

    version: int = REPORT_VERSION
    clips: int
    audited: int
    failed: list[str]
    footage_s: float
    rounds: int
    findings: int  # alerts and review items
    findings_by_check: dict[str, int]
    unreadable: list[str]
    alerts: int = 0  # findings with status "alert"
    review: int = 0  # findings with status "review" (doubtful: to look at)
    # clips whose picture showed the card areas under vision.zones.COARSE_CAMERA_PX_PER_MM: cards read
    # short of the per-card targets there, so more findings are review items (``coarse_note``)
    coarse: list[str] = Field(default_factory=list)
    # the software each clip was audited by (``Provenance.software``), each once: one line where a
    # batch was audited in one go; more where clips were added or audited again by another version
    software: list[str] = Field(default_factory=list)
    # each clip's result.json by the sha256 of its bytes, and the batch's digest over them
    # (``records_digest``): printed at the end of the run, for the auditor to file with the report;
    # ``paigow-monitor verify`` computes it again from the records as they are then
    records: dict[str, str] = Field(default_factory=dict)
    digest: str = ""


def record_hashes(out: Path) -> dict[str, str]:
    """Each published clip's ``result.json`` under an audit folder, by clip, with the sha256 of its bytes."""
    import hashlib

    base = out / CLIPS_DIR
    if not base.is_dir():
        return {}
    return {
        d.name: hashlib.sha256((d / "result.json").read_bytes()).hexdigest()
        for d in sorted(base.iterdir())
        if not d.name.startswith(".") and (d / "result.json").is_file()
    }


def records_digest(records: dict[str, str]) -> str:
    """The batch's digest: the sha256 of ``<clip> <sha256>`` lines, in clip order. One changed, added
    or removed clip record changes it."""
    import hashlib

    return hashlib.sha256("".join(f"{c} {h}\n" for c, h in sorted(records.items())).encode()).hexdigest()


def batch_software(reports: Sequence[ClipReport]) -> list[str]:
    """The distinct ``Provenance.software`` of the clips, in the order first met."""
    return list(dict.fromkeys(r.provenance.software for r in reports if r.provenance is not None))


def coarse_clips(reports: Sequence[ClipReport]) -> list[str]:
    """The clips audited whose picture showed the card areas coarser than ``COARSE_CAMERA_PX_PER_MM``."""
    from vision.zones import COARSE_CAMERA_PX_PER_MM

    return [
        r.clip
        for r in reports
        if r.status == "ok" and r.card_px_per_mm is not None and r.card_px_per_mm[0] < COARSE_CAMERA_PX_PER_MM
    ]


def coarse_note(n: int) -> str:
    """What an auditor is told of ``n`` clips filmed too coarsely for the per-card targets."""
    from vision.zones import COARSE_CAMERA_PX_PER_MM

    return (
        f"{n} clip(s) show the card areas under {COARSE_CAMERA_PX_PER_MM:g} px per felt mm: their cards "
        "are read short of the 99.5 % per-card targets (spades as clubs above all: models/MODEL_CARD.md), "
        "so more of their findings are review items"
    )


def atomic_write_text(path: Path, text: str) -> None:
    """Write to a temp name, fsync, then rename over the target: readers see old or new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_clip_reports(out: Path) -> tuple[list[ClipReport], list[str]]:
    """Every ``clips/*/result.json`` under an audit folder, and an error line for each unreadable one."""
    reports: list[ClipReport] = []
    errors: list[str] = []
    base = out / CLIPS_DIR
    if not base.is_dir():
        return reports, errors
    for d in sorted(base.iterdir()):
        if d.name.startswith(".") or not d.is_dir():
            continue
        p = d / "result.json"
        if not p.is_file():
            continue
        try:
            reports.append(ClipReport.model_validate_json(p.read_bytes()))
        except (OSError, ValidationError) as e:
            errors.append(f"{p}: unreadable clip record: {e}")
    return reports, errors


# --- HTML ------------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
h3{font-size:1em;margin-bottom:.3em}
table{border-collapse:collapse;margin:.4em 0 1em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f0f0f0}.bad{background:#fde2e1}.ok{color:#1a7f37}.fail{color:#b42318;font-weight:bold}
.review{background:#fef7dc}.doubt{color:#8a6100;font-weight:bold}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace}.small{font-size:.85em;color:#555}
img.ev{max-width:420px;border:1px solid #999}
"""


def _e(x: object) -> str:
    return html.escape("" if x is None else str(x))


# a hand's cards named without their index read where they lay: (HandRecord field, mark, what it means)
_NAMED_WITHOUT_INDEX = (
    ("carried", CARRIED_MARK, "not read where it lay: the one card missing from the hand seen whole before"),
    (
        "blank_corner",
        BLANK_CORNER_MARK,
        "named by a blank corner: card-white paper where an index would print, so a Joker printing none",
    ),
    (
        "counted",
        COUNTED_MARK,
        "named by the count: the one card of the hand not read surely, of the faces its read left open "
        "the one the table did not already show",
    ),
)


def _set_by(hand: HandRecord) -> str:
    """Who set the hand; for a hand the dealer re-set after it was turned up, the setting it was
    turned up in (``HandRecord.turned_up_high`` / ``turned_up_low``), with the cards not read then."""
    if not (hand.turned_up_high or hand.turned_up_low):
        return _e(hand.set_by)
    missing = len(hand.cards) - len(hand.turned_up_high) - len(hand.turned_up_low)
    note = " and a card not read" if missing == 1 else f" and {missing} cards not read" if missing > 1 else ""
    high = _cards(hand.turned_up_high, hand) + (note if len(hand.turned_up_high) < 5 else "")
    low = _cards(hand.turned_up_low, hand) + (note if len(hand.turned_up_high) >= 5 else "")
    return f"{_e(hand.set_by)} (re-set after it was turned up as high {high} / low {low})"


def _cards(cards: Sequence[str], hand: HandRecord | None = None) -> str:
    """Cards as text; those ``hand`` names without their index (``_NAMED_WITHOUT_INDEX``) marked, with
    a tooltip."""
    if not cards:
        return "&ndash;"

    def one(c: str) -> str:
        for field, mark, tip in _NAMED_WITHOUT_INDEX:
            if hand is not None and c in getattr(hand, field):
                return f'<span class=doubt title="{tip}">{_e(c)}{mark}</span>'
        return _e(c)

    return " ".join(one(c) for c in cards)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def _table(head: Sequence[str], rows: Iterable[tuple[Sequence[str], str]]) -> str:
    out = ["<table><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr>"]
    for cells, cls in rows:
        out.append(f'<tr class="{cls}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _alert_rows(alerts: Sequence[Alert], link_prefix: str = "") -> str:
    rows = []
    for a in alerts:
        pic = (
            f'<a href="{_e(link_prefix + a.evidence)}"><img class="ev" src="{_e(link_prefix + a.evidence)}" '
            f'alt="evidence {_e(a.alert_id)}"></a>'
            if a.evidence
            else "no picture"
        )
        rows.append(
            (
                [
                    f"<span class=mono>{_e(a.timecode)}</span><br><span class=small>frame {a.frame}</span>",
                    _e(a.round),
                    "dealer/table" if a.seat is None else _e(a.seat),
                    f"<b>{_e(a.check_id.value)}</b><br><span class=small>{_e(a.rule)}</span>",
                    _e(a.expected),
                    _e(a.observed),
                    f"{a.confidence:.2f}",
                    pic,
                ],
                "bad" if a.status == "alert" else "review",
            )
        )
    return _table(
        ["time", "round", "seat", "check and rule", "expected", "observed", "conf.", "evidence"], rows
    )


def _findings_html(alerts: Sequence[Alert], link_prefix: str = "", heading: str = "h2") -> str:
    """Alerts, then review items apart (findings built on a doubtful camera read: to look at)."""
    rings = [a for a in alerts if a.status == "alert"]
    review = [a for a in alerts if a.status == "review"]
    parts = [
        f"<{heading}>Alerts ({len(rings)})</{heading}>",
        _alert_rows(rings, link_prefix) if rings else "<p class=ok>No alerts.</p>",
    ]
    if review:
        parts += [
            f"<{heading}>Review items ({len(review)})</{heading}>",
            "<p class=small>Findings less sure than the review threshold (a doubtful camera read, an "
            "unseen moment): recorded with their picture for a person to look at, not alerts.</p>",
            _alert_rows(review, link_prefix),
        ]
    return "".join(parts)


def _counts(alerts: Sequence[Alert]) -> str:
    n_rev = sum(a.status == "review" for a in alerts)
    return f"{len(alerts) - n_rev} alert(s), {n_rev} review item(s)"


def _resolution_row(rep: ClipReport) -> list[tuple[list[str], str]]:
    """The clip report's row saying how finely the picture showed the card areas (none for states)."""
    if rep.card_px_per_mm is None:
        return []
    lo, hi = rep.card_px_per_mm
    text = f"{lo:.2f}-{hi:.2f} px per felt mm"
    if coarse_clips([rep]):
        text += " (too coarse for the per-card targets: more findings are review items)"
    return [(["card areas", _e(text)], "")]


def _provenance_html(prov: Provenance) -> str:
    rows = [
        (["audited", _e(f"{prov.started_at} to {prov.finished_at}")], ""),
        (["software", _e(prov.software)], ""),
        *(
            (["input " + _e(name), f"<span class=mono>sha256 {digest}</span>"], "")
            for name, digest in prov.inputs.items()
        ),
        *(
            (["model " + _e(name), f"<span class=mono>sha256 {digest}</span>"], "")
            for name, digest in prov.models.items()
        ),
        (["evidence pictures", f"{len(prov.evidence)}, each hashed in result.json"], ""),
    ]
    note = "<p>Check that nothing has changed since: <span class=mono>paigow-monitor verify REPORT</span></p>"
    return "<h2>Provenance</h2>" + _table(["what", "sha256 / value"], rows) + note


def clip_html(rep: ClipReport) -> str:
    """The self-contained HTML report of one clip (its pictures are relative files under evidence/)."""
    parts = [f"<h1>Audit of {_e(rep.clip)}</h1>"]
    status = "<span class=ok>ok</span>" if rep.status == "ok" else "<span class=fail>FAILED</span>"
    parts.append(
        _table(
            ["field", "value"],
            [
                (["status", status], ""),
                (["table", _e(rep.table_id)], ""),
                (["game", _e(rep.game)], ""),
                (["source", _e(rep.video or rep.states)], ""),
                (["table states from", _e(rep.mode)], ""),
                (["layout", _e(rep.layout)], ""),
                (["footage", f"{timecode(rep.footage_s)} ({rep.states_seen} state changes)"], ""),
                (["rounds", str(len(rep.rounds))], ""),
                (["findings", f"{len(rep.findings)}: {_counts(rep.findings)}"], ""),
                *_resolution_row(rep),
            ],
        )
    )
    if rep.error:
        parts.append(f"<p class=fail>Error: <span class=mono>{_e(rep.error)}</span></p>")
    if rep.camera:
        notes = "".join(f"<li>{_e(n)}</li>" for n in rep.camera)
        parts.append(f"<h2>Camera</h2><ul class=fail>{notes}</ul>")
    parts.append(_findings_html(rep.findings))
    if rep.provenance is not None:
        parts.append(_provenance_html(rep.provenance))
    by_round: dict[int, list[Alert]] = {}
    for a in rep.findings:
        by_round.setdefault(a.round, []).append(a)
    events_by_round: dict[int, list[Event]] = {}
    for ev in rep.events:
        events_by_round.setdefault(ev.round, []).append(ev)
    for r in rep.rounds:
        end = timecode(r.t_end) if r.t_end is not None else "(not ended)"
        got = by_round.get(r.round, [])
        n = sum(a.status == "alert" for a in got)
        flag = f" <span class=fail>{n} alert(s)</span>" if n else " <span class=ok>no alert</span>"
        if len(got) > n:
            flag += f" <span class=doubt>{len(got) - n} to review</span>"
        parts.append(
            f'<h2 id="round{r.round}">Round {r.round}: {timecode(r.t_start)} &ndash; {end}{flag}</h2>'
        )
        parts.append(f"<p class=small>LCD {_e(r.lcd)}; deal order: {_e(', '.join(r.deal_order) or '-')}</p>")
        parts.append("<h3>Hands</h3>")
        parts.append(
            _table(
                ["position", "active", "cards", "high", "low", "set by"],
                [
                    (
                        [
                            _e(h.position),
                            "yes" if h.active else "",
                            _cards(h.cards, h),
                            _cards(h.high, h),
                            _cards(h.low, h),
                            _set_by(h),
                        ],
                        "",
                    )
                    for h in r.hands
                ],
            )
        )
        marks = [
            f"{mark} {tip}"
            for field, mark, tip in _NAMED_WITHOUT_INDEX
            if any(getattr(h, field) for h in r.hands)
        ]
        if marks:  # the marks explained on the page too (a tooltip does not print)
            parts.append(f"<p class=small>{_e('; '.join(marks))}</p>")
        evs = r.events or events_by_round.get(r.round, [])
        flagged = {(a.frame, a.seat) for a in by_round.get(r.round, [])}
        parts.append("<h3>Timeline</h3>")
        parts.append(
            _table(
                ["time", "frame", "event", "position", "cards", "high", "low", "detail"],
                [
                    (
                        [
                            f"<span class=mono>{_e(timecode(ev.t))}</span>",
                            _e(ev.frame),
                            _e(ev.kind.value),
                            _e(ev.position or ("" if ev.seat is None else f"seat{ev.seat}")),
                            _cards(ev.cards),
                            _cards(ev.high),
                            _cards(ev.low),
                            _e(ev.detail),
                        ],
                        "bad" if (ev.frame, ev.seat) in flagged else "",
                    )
                    for ev in evs
                ],
            )
        )
        if by_round.get(r.round):
            parts.append("<h3>Findings in this round</h3>" + _findings_html(by_round[r.round], heading="h4"))
    return _page(f"Audit {rep.clip}", "\n".join(parts))


def summary_html(reports: Sequence[ClipReport], errors: Sequence[str] = ()) -> str:
    """The batch summary page (links each clip's report and evidence, relative to the audit folder)."""
    ok = [r for r in reports if r.status == "ok"]
    failed = [r for r in reports if r.status == "failed"]
    n_alerts = sum(a.status == "alert" for r in ok for a in r.findings)
    n_review = sum(a.status == "review" for r in ok for a in r.findings)
    footage = sum(r.footage_s for r in ok)
    checks: Counter[str] = Counter(a.check_id.value for r in ok for a in r.findings if a.status == "alert")
    doubts: Counter[str] = Counter(a.check_id.value for r in ok for a in r.findings if a.status == "review")
    parts = [
        "<h1>Audit summary</h1>",
        _table(
            ["", ""],
            [
                (["clips", str(len(reports))], ""),
                (["audited", str(len(ok))], ""),
                (["failed", f"<span class={'fail' if failed else 'ok'}>{len(failed)}</span>"], ""),
                (["footage audited", timecode(footage)], ""),
                (["rounds rebuilt", str(sum(len(r.rounds) for r in ok))], ""),
                (["alerts", str(n_alerts)], ""),
                (["review items (doubtful: to look at)", str(n_review)], ""),
            ],
        ),
    ]
    coarse = coarse_clips(reports)
    if coarse:
        parts.append(f"<p class=fail>{_e(coarse_note(len(coarse)))}: {_e(', '.join(coarse))}</p>")
    made_by = batch_software(reports)
    if made_by:
        parts.append(
            f"<p>Audited by {_e('; '.join(made_by))}. Each clip's record holds the sha256 of its footage, "
            "layout, models and evidence pictures: check that none has changed since with "
            "<span class=mono>paigow-monitor verify AUDIT_FOLDER</span>.</p>"
        )
    if checks or doubts:
        parts.append(
            "<h2>Findings by check</h2>"
            + _table(
                ["check", "alerts", "review items"],
                [([_e(c), str(checks[c]), str(doubts[c])], "") for c in sorted(set(checks) | set(doubts))],
            )
        )
    parts.append("<h2>Clips</h2>")
    rows = []
    for r in reports:
        link = f"{CLIPS_DIR}/{r.clip}/report.html"
        name = f'<a href="{_e(link)}">{_e(r.clip)}</a>' if r.status == "ok" else _e(r.clip)
        st = "<span class=ok>ok</span>" if r.status == "ok" else "<span class=fail>failed</span>"
        rows.append(
            (
                [
                    name,
                    st,
                    _e(r.table_id),
                    _e(r.game),
                    _e(r.mode),
                    timecode(r.footage_s),
                    str(len(r.rounds)),
                    str(sum(a.status == "alert" for a in r.findings)),
                    str(sum(a.status == "review" for a in r.findings)),
                    f"<span class=mono>{_e(r.error)}</span>",
                ],
                "bad" if r.status == "failed" or any(a.status == "alert" for a in r.findings) else "",
            )
        )
    parts.append(
        _table(
            [
                "clip",
                "status",
                "table",
                "game",
                "states from",
                "footage",
                "rounds",
                "alerts",
                "review",
                "error",
            ],
            rows,
        )
    )
    all_alerts = [(r, a) for r in ok for a in r.findings]
    if all_alerts:
        parts.append("<h2>All findings</h2>")
        for r in ok:
            if r.findings:
                parts.append(
                    f"<h3>{_e(r.clip)}</h3>"
                    + _findings_html(r.findings, f"{CLIPS_DIR}/{r.clip}/", heading="h4")
                )
    if errors:
        parts.append(
            "<h2>Unreadable records</h2><ul>" + "".join(f"<li>{_e(e)}</li>" for e in errors) + "</ul>"
        )
    return _page("Audit summary", "\n".join(parts))


_SUMMARY_COLUMNS = [
    "clip",
    "status",
    "table_id",
    "game",
    "mode",
    "footage_s",
    "states_seen",
    "rounds",
    "findings",
    "alerts",
    "review",
    *[c.value for c in CheckId],
    "source",
    "layout",
    "error",
]
_FINDING_COLUMNS = [
    "clip",
    "table_id",
    "round",
    "seat",
    "check_id",
    "t",
    "timecode",
    "frame",
    "expected",
    "observed",
    "confidence",
    "status",
    "evidence",
    "rule",
    "evidence_sha256",
]


def write_summary(out: Path) -> tuple[list[ClipReport], list[str], BatchSummary]:
    """Rebuild summary.csv, findings.csv, summary.html and summary.json from the per-clip records;
    returns the records, the unreadable ones' error lines, and the totals written."""
    reports, errors = load_clip_reports(out)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(_SUMMARY_COLUMNS)
    for r in reports:
        counts = Counter(a.check_id.value for a in r.findings)
        w.writerow(
            [
                r.clip,
                r.status,
                r.table_id,
                r.game,
                r.mode,
                f"{r.footage_s:.3f}",
                r.states_seen,
                len(r.rounds),
                len(r.findings),
                sum(a.status == "alert" for a in r.findings),
                sum(a.status == "review" for a in r.findings),
                *[counts.get(c.value, 0) for c in CheckId],
                r.video or r.states or "",
                r.layout or "",
                r.error,
            ]
        )
    atomic_write_text(out / "summary.csv", buf.getvalue())
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(_FINDING_COLUMNS)
    for r in reports:
        for a in r.findings:
            ev = f"{CLIPS_DIR}/{r.clip}/{a.evidence}" if a.evidence else ""
            w.writerow(
                [
                    r.clip,
                    a.table_id,
                    a.round,
                    "" if a.seat is None else a.seat,
                    a.check_id.value,
                    f"{a.t:.3f}",
                    a.timecode,
                    a.frame,
                    a.expected,
                    a.observed,
                    f"{a.confidence:.3f}",
                    a.status,
                    ev,
                    a.rule,
                    a.evidence_sha256 or "",
                ]
            )
    atomic_write_text(out / "findings.csv", buf.getvalue())
    atomic_write_text(out / "summary.html", summary_html(reports, errors))
    ok = [r for r in reports if r.status == "ok"]
    totals = BatchSummary(
        clips=len(reports),
        audited=len(ok),
        failed=[r.clip for r in reports if r.status != "ok"],
        footage_s=sum(r.footage_s for r in ok),
        rounds=sum(len(r.rounds) for r in ok),
        findings=sum(len(r.findings) for r in ok),
        findings_by_check=dict(sorted(Counter(a.check_id.value for r in ok for a in r.findings).items())),
        unreadable=list(errors),
        alerts=sum(a.status == "alert" for r in ok for a in r.findings),
        review=sum(a.status == "review" for r in ok for a in r.findings),
        coarse=coarse_clips(reports),
        software=batch_software(reports),
        records=(records := record_hashes(out)),
        digest=records_digest(records),
    )
    atomic_write_text(out / "summary.json", totals.model_dump_json(indent=1))
    return reports, errors, totals
