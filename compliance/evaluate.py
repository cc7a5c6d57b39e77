"""Scoring an audit against the ground truth of rendered clips (``paigow-monitor evaluate``).

For every ``<clip>.truth.json`` (a ``ClipTruth``) the audit's ``clips/<clip>/result.json`` is read.
Rounds are matched one-to-one by time overlap (largest overlap first). Then:

- recall: every true finding is matched by an alert with the same check id and seat in the matched
  round (target 100%);
- false alerts: alerts that match no true finding (target 0); a second alert for a finding already
  found counts as a duplicate, reported apart;
- review items (findings with status "review": doubtful, for a person to look at) are scored
  apart, never in the two targets above: how many true findings were found *only* as review items,
  and how many review items match no true finding, on compliant rounds (or no true round) or in a
  round with findings (a wrong seat or check). Records without a status are alerts.
- rounds rebuilt: every true round is matched, and each active seat's hand and the dealer's has the
  same cards, high hand and low hand as the truth lists (order within a pile ignored) (target: all).
A clip the audit failed or never reached counts as all its rounds missed and all its findings missed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance.alerts import Alert
from compliance.events import ClipTruth, HandRecord, RoundRecord
from compliance.reports import CLIPS_DIR, ClipReport, load_clip_reports

__all__ = ["ClipScore", "EvalError", "EvalReport", "evaluate", "find_truth_files"]

TRUTH_SUFFIX = ".truth.json"


class EvalError(ValueError):
    """The audit folder or a truth file cannot be used; the message names it."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClipScore(_Model):
    clip: str
    truth: str
    audited: bool
    error: str = ""
    rounds_true: int = 0
    rounds_matched: int = 0
    rounds_rebuilt: int = 0
    phantom_rounds: int = 0  # audit rounds matching no true round
    findings_true: int = 0
    findings_found: int = 0
    false_alerts: int = 0
    false_alerts_on_compliant_rounds: int = 0
    duplicates: int = 0
    without_evidence: int = 0  # alerts whose evidence picture is missing (reported, not a target)
    review_items: int = 0  # findings with status "review" (none of the counts above include them)
    found_only_in_review: int = 0  # true findings no alert found but a review item did
    review_true: int = 0  # review items that match a true finding (found by an alert or not)
    review_false: int = 0  # review items that match no true finding
    review_false_on_compliant_rounds: int = 0  # of which on a compliant round (or no true round)
    missed: list[str] = Field(default_factory=list)  # no alert found it ("(found for review)" if one did)
    false: list[str] = Field(default_factory=list)
    review_false_items: list[str] = Field(default_factory=list)
    round_problems: list[str] = Field(default_factory=list)


class EvalReport(_Model):
    clips: list[ClipScore]
    findings_true: int
    findings_found: int
    recall: float  # 1.0 when there is nothing to find
    false_alerts: int
    duplicates: int
    without_evidence: int
    review_items: int = 0
    found_only_in_review: int = 0
    review_true: int = 0
    review_false: int = 0
    review_false_on_compliant_rounds: int = 0
    rounds_true: int
    rounds_rebuilt: int
    passed: bool
    failures: list[str]


def find_truth_files(paths: Sequence[Path]) -> list[Path]:
    """``*.truth.json`` files named directly or found (recursively) in folders."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(p.rglob(f"*{TRUTH_SUFFIX}"))
        elif p.is_file():
            out.append(p)
        else:
            raise EvalError(f"{p}: no such truth file or folder")
    seen: set[Path] = set()
    uniq = []
    for p in out:
        r = p.resolve()
        if r not in seen:
            seen.add(r)
            uniq.append(p)
    return uniq


def _norm(cards: Sequence[str]) -> list[str]:
    def one(c: str) -> str:
        c = c.strip()
        if c.upper() in ("JK", "JOKER", "@"):
            return "Jk"
        if c.upper() == "BACK":
            return "BACK"
        if c.startswith("10"):
            c = "T" + c[2:]
        return c[:1].upper() + c[1:].lower()

    return sorted(one(c) for c in cards)


def _interval(r: RoundRecord, end: float) -> tuple[float, float]:
    return r.t_start, r.t_end if r.t_end is not None else end


def _match_rounds(
    truth: list[RoundRecord], audit: list[RoundRecord], t_end_truth: float, t_end_audit: float
) -> dict[int, int]:
    """truth round number -> audit round number, one-to-one, largest time overlap first."""
    pairs = []
    for tr in truth:
        a0, a1 = _interval(tr, t_end_truth)
        for ar in audit:
            b0, b1 = _interval(ar, t_end_audit)
            ov = min(a1, b1) - max(a0, b0)
            if ov > 0 or (ov == 0 and a0 == b0):
                pairs.append((ov, -abs(a0 - b0), tr.round, ar.round))
    pairs.sort(reverse=True)
    out: dict[int, int] = {}
    used: set[int] = set()
    for _, _, t, a in pairs:
        if t not in out and a not in used:
            out[t] = a
            used.add(a)
    return out


def _hand_problems(tr: HandRecord, ar: HandRecord | None, rnd: int) -> list[str]:
    # an unoccupied spot's hand is dealt (seed 000 rules 3-4) but never set or shown: nothing to rebuild
    if not (tr.active or tr.position == "dealer") or not (tr.cards or tr.high or tr.low):
        return []
    if ar is None:
        return [f"round {rnd} {tr.position}: hand not rebuilt"]
    out = []
    for part in ("cards", "high", "low"):
        want = _norm(getattr(tr, part))
        got = _norm(getattr(ar, part))
        if want and want != got:
            out.append(
                f"round {rnd} {tr.position} {part}: expected {' '.join(want)}, got {' '.join(got) or '-'}"
            )
    return out


def _unmatched(al: Alert, t_round: int | None) -> str:
    """A finding that matches no true finding, as the report lists it (false alerts, false review items)."""
    where = f"true round {t_round}" if t_round is not None else "no matching true round"
    return f"{al.timecode} audit round {al.round} ({where}) {al.check_id.value} seat {al.seat}"


def _score_clip(truth_path: Path, ct: ClipTruth, rep: ClipReport | None, clip_dir: Path) -> ClipScore:
    truth_findings = [(r.round, f) for r in ct.rounds for f in r.findings]
    sc = ClipScore(
        clip=ct.clip,
        truth=str(truth_path),
        audited=rep is not None and rep.status == "ok",
        rounds_true=len(ct.rounds),
        findings_true=len(truth_findings),
    )
    if rep is None or rep.status != "ok":
        sc.error = "not audited" if rep is None else f"audit failed: {rep.error}"
        sc.missed = [f"round {r} {f.check_id.value} seat {f.seat}" for r, f in truth_findings]
        sc.round_problems = [f"round {r.round}: not rebuilt ({sc.error})" for r in ct.rounds]
        return sc
    clip_end = ct.frames / ct.fps if ct.fps > 0 else float("inf")
    match = _match_rounds(ct.rounds, rep.rounds, clip_end, max(rep.footage_s, clip_end))
    sc.rounds_matched = len(match)
    sc.phantom_rounds = len(rep.rounds) - len(match)
    audit_by_no = {r.round: r for r in rep.rounds}
    for tr in ct.rounds:
        if tr.round not in match:
            sc.round_problems.append(f"round {tr.round} ({tr.t_start:.2f}s): no audit round overlaps it")
            continue
        ar = audit_by_no[match[tr.round]]
        hands = {h.position: h for h in ar.hands}
        probs = [p for h in tr.hands for p in _hand_problems(h, hands.get(h.position), tr.round)]
        sc.round_problems += probs
        if not probs:
            sc.rounds_rebuilt += 1
    back = {a: t for t, a in match.items()}
    compliant = {r.round for r in ct.rounds if not r.findings}
    wanted = {(r, f.check_id, f.seat) for r, f in truth_findings}
    found: set[tuple[int, str, int | None]] = set()
    in_review: set[tuple[int, str, int | None]] = set()
    for al in rep.findings:
        t_round = back.get(al.round)
        key = (t_round, al.check_id, al.seat) if t_round is not None else None
        on_compliant = t_round is None or t_round in compliant
        if al.status == "review":
            sc.review_items += 1
            if key is not None and key in wanted:
                sc.review_true += 1
                in_review.add(key)
                continue
            sc.review_false += 1
            sc.review_false_on_compliant_rounds += int(on_compliant)
            sc.review_false_items.append(f"{_unmatched(al, t_round)} (conf. {al.confidence:.2f})")
            continue
        if key is not None and key in wanted and key not in found:
            found.add(key)
        elif key is not None and key in found:
            sc.duplicates += 1
        else:
            sc.false_alerts += 1
            sc.false_alerts_on_compliant_rounds += int(on_compliant)
            sc.false.append(_unmatched(al, t_round))
    sc.findings_found = len(found)
    sc.without_evidence = sum(
        1 for al in rep.findings if not al.evidence or not (clip_dir / al.evidence).is_file()
    )
    sc.found_only_in_review = len(in_review - found)
    sc.missed = [
        f"round {r} {c.value} seat {s}" + (" (found for review)" if (r, c, s) in in_review else "")
        for (r, c, s) in sorted(wanted - found, key=str)
    ]
    return sc


def evaluate(audit_dir: Path, truth_paths: Sequence[Path]) -> EvalReport:
    """Score an audit folder against ground truth (truth files, or those recorded by the audit)."""
    if not (audit_dir / CLIPS_DIR).is_dir():
        raise EvalError(f"{audit_dir}: not an audit output folder (no {CLIPS_DIR}/ inside)")
    reports, errors = load_clip_reports(audit_dir)
    if errors:
        raise EvalError("; ".join(errors))
    files = find_truth_files(truth_paths) if truth_paths else [Path(r.truth) for r in reports if r.truth]
    if not files:
        raise EvalError("no *.truth.json files found (give --truth FILE_OR_FOLDER)")
    by_truth = {Path(r.truth).resolve(): r for r in reports if r.truth}
    by_name = {r.clip: r for r in reports}
    by_video = {Path(r.video).name: r for r in reports if r.video}
    scores = []
    for f in files:
        try:
            ct = ClipTruth.model_validate_json(f.read_bytes())
        except OSError as e:
            raise EvalError(f"{f}: cannot read truth file: {e.strerror or e}") from e
        except ValidationError as e:
            err = e.errors()[0]
            raise EvalError(f"{f}: invalid truth file: {'.'.join(map(str, err['loc']))}: {err['msg']}") from e
        stem = f.name[: -len(TRUTH_SUFFIX)] if f.name.endswith(TRUTH_SUFFIX) else f.stem
        rep = by_truth.get(f.resolve()) or by_name.get(stem) or by_video.get(ct.clip)
        scores.append(_score_clip(f, ct, rep, audit_dir / CLIPS_DIR / (rep.clip if rep else "-")))
    n_true = sum(s.findings_true for s in scores)
    n_found = sum(s.findings_found for s in scores)
    recall = n_found / n_true if n_true else 1.0
    false = sum(s.false_alerts for s in scores)
    r_true = sum(s.rounds_true for s in scores)
    r_ok = sum(s.rounds_rebuilt for s in scores)
    failures = []
    if n_found < n_true:
        failures.append(f"recall {recall:.1%} < 100% ({n_true - n_found} finding(s) missed)")
    if false:
        failures.append(f"{false} false alert(s) (target 0)")
    if r_ok < r_true:
        failures.append(f"{r_true - r_ok} of {r_true} round(s) not rebuilt")
    return EvalReport(
        clips=scores,
        findings_true=n_true,
        findings_found=n_found,
        recall=recall,
        false_alerts=false,
        duplicates=sum(s.duplicates for s in scores),
        without_evidence=sum(s.without_evidence for s in scores),
        review_items=sum(s.review_items for s in scores),
        found_only_in_review=sum(s.found_only_in_review for s in scores),
        review_true=sum(s.review_true for s in scores),
        review_false=sum(s.review_false for s in scores),
        review_false_on_compliant_rounds=sum(s.review_false_on_compliant_rounds for s in scores),
        rounds_true=r_true,
        rounds_rebuilt=r_ok,
        passed=not failures,
        failures=failures,
    )
