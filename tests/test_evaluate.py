"""evaluate: recall, false alerts and rounds rebuilt against ground truth; exit non-zero on a miss."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_audit_support import fake_factory, make_clip
from typer.testing import CliRunner, Result

import compliance.audit as audit_mod
from compliance.cli import app
from compliance.evaluate import EvalError, evaluate
from compliance.events import CheckId, ClipTruth, Finding

runner = CliRunner()


@pytest.fixture
def audited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two clips with truth, audited from their states with the fake engine."""
    monkeypatch.setattr(audit_mod, "default_monitor", fake_factory)
    src = tmp_path / "footage"
    make_clip(src, "a", pattern=(False, True), video=True, truth=True)
    make_clip(src, "b", pattern=(True, False, True), truth=True)
    out = tmp_path / "audit"
    res = audit_mod.run_audit([src], out, states=True, progress=False)
    assert not res.failed
    return src, out


def _edit_truth(path: Path, fn: object) -> None:
    ct = ClipTruth.model_validate_json(path.read_bytes())
    fn(ct)  # type: ignore[operator]
    path.write_text(ct.model_dump_json())


def _edit_result(path: Path, fn: Callable[[dict[str, Any]], object]) -> None:
    """Edit an audited clip's ``result.json`` as the audit wrote it (plain JSON, no model)."""
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


def _first_round_compliant(ct: ClipTruth) -> None:
    """Truth edit: the clip's first round has no finding (what the audit flags there is false)."""
    ct.rounds[0].findings.clear()


def _second_round_finding_on_seat_2(ct: ClipTruth) -> None:
    """Truth edit: the second round's finding is on seat 2, not on the seat the audit names."""
    ct.rounds[1].findings[0].seat = 2


def _evaluate_cli(audit: Path, truth: Path, *options: str) -> Result:
    return runner.invoke(app, ["evaluate", "--audit", str(audit), "--truth", str(truth), *options])


def test_perfect_audit_meets_every_target(audited: tuple[Path, Path]) -> None:
    src, out = audited
    r = _evaluate_cli(out, src)
    assert r.exit_code == 0, r.output
    assert "recall 100.0% (3/3)" in r.output and "false alerts 0" in r.output
    assert "rounds rebuilt 5/5" in r.output and "all targets met" in r.output


def test_truth_defaults_to_the_files_beside_the_audited_clips(audited: tuple[Path, Path]) -> None:
    _, out = audited
    rep = evaluate(out, [])
    assert rep.passed and rep.findings_true == 3 and rep.rounds_true == 5


def test_a_missed_finding_fails_with_exit_1(audited: tuple[Path, Path], tmp_path: Path) -> None:
    src, out = audited

    def add(ct: ClipTruth) -> None:
        ct.rounds[0].findings.append(Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=None, t=2.0, frame=20))

    _edit_truth(src / "a.truth.json", add)
    js = tmp_path / "scores.json"
    r = _evaluate_cli(out, src, "--json", str(js), "-v")
    assert r.exit_code == 1
    assert "recall 75.0% (3/4)" in r.output and "TARGETS MISSED" in r.output
    assert "MISSED round 1 HOUSE-WAY" in r.output
    data = json.loads(js.read_text())
    assert data["passed"] is False and data["findings_found"] == 3


def test_an_alert_on_a_compliant_round_is_a_false_alert(audited: tuple[Path, Path]) -> None:
    src, out = audited
    _edit_truth(src / "b.truth.json", _first_round_compliant)  # the audit flagged b's round 1
    rep = evaluate(out, [src])
    assert not rep.passed and rep.false_alerts == 1 and rep.recall == 1.0
    (b,) = [c for c in rep.clips if c.clip == "b.mp4"]
    assert b.false_alerts_on_compliant_rounds == 1


def test_wrong_seat_counts_as_both_a_miss_and_a_false_alert(audited: tuple[Path, Path]) -> None:
    src, out = audited
    _edit_truth(src / "a.truth.json", _second_round_finding_on_seat_2)
    rep = evaluate(out, [src])
    assert rep.findings_found == 2 and rep.false_alerts == 1


def test_a_hand_rebuilt_wrong_means_the_round_is_not_rebuilt(audited: tuple[Path, Path]) -> None:
    src, out = audited

    def swap(ct: ClipTruth) -> None:
        h = ct.rounds[1].hands[0]
        h.high, h.low = [*h.high[:4], h.low[0]], [h.high[4], h.low[1]]

    _edit_truth(src / "a.truth.json", swap)
    rep = evaluate(out, [src])
    assert rep.rounds_rebuilt == 4 and not rep.passed
    (a,) = [c for c in rep.clips if c.clip == "a.mp4"]
    assert any("round 2 seat1 high" in p for p in a.round_problems)


def test_a_round_the_audit_never_saw_is_not_rebuilt(audited: tuple[Path, Path]) -> None:
    src, out = audited

    def extra(ct: ClipTruth) -> None:
        r = ct.rounds[-1].model_copy(deep=True)
        r.round, r.t_start, r.t_end, r.findings = 9, 100.0, 105.0, []
        ct.rounds.append(r)

    _edit_truth(src / "a.truth.json", extra)
    rep = evaluate(out, [src])
    assert rep.rounds_true == 6 and rep.rounds_rebuilt == 5 and not rep.passed


def test_rounds_are_matched_by_time_overlap_not_number(audited: tuple[Path, Path]) -> None:
    src, out = audited

    def renumber(ct: ClipTruth) -> None:
        for r in ct.rounds:
            r.round += 40
            for f in r.findings:
                f.round += 40

    _edit_truth(src / "b.truth.json", renumber)
    assert evaluate(out, [src]).passed


def test_a_failed_clip_misses_all_its_truth(audited: tuple[Path, Path]) -> None:
    src, out = audited
    _edit_result(
        out / "clips" / "b" / "result.json",
        lambda r: r.update(status="failed", error="boom", findings=[], rounds=[]),
    )
    rep = evaluate(out, [src])
    assert rep.findings_found == 1 and rep.rounds_rebuilt == 2 and not rep.passed


def test_bad_inputs_are_clear_errors(tmp_path: Path, audited: tuple[Path, Path]) -> None:
    src, out = audited
    r = _evaluate_cli(tmp_path / "nope", src)
    assert r.exit_code == 2 and "not an audit output folder" in r.output
    (src / "a.truth.json").write_text('{"clip": "a.mp4"}')
    with pytest.raises(EvalError, match=r"a.truth.json: invalid truth file"):
        evaluate(out, [src])


def test_unoccupied_spots_hands_are_not_required(audited: tuple[Path, Path]) -> None:
    from compliance.events import HandRecord

    src, out = audited

    def add_empty_spot(ct: ClipTruth) -> None:
        for r in ct.rounds:  # dealt to an empty spot (seed 000 rules 3-4), never set nor shown
            r.hands.append(HandRecord(position="seat3", seat=3, active=False, cards=["2c", "3c", "4c"]))

    _edit_truth(src / "a.truth.json", add_empty_spot)
    assert evaluate(out, [src]).passed


def test_missing_evidence_pictures_are_counted(audited: tuple[Path, Path]) -> None:
    src, out = audited
    assert evaluate(out, [src]).without_evidence == 0
    for p in (out / "clips" / "b" / "evidence").iterdir():
        p.unlink()
    assert evaluate(out, [src]).without_evidence == 2


def _mark_review(out: Path, clip: str, index: int) -> None:
    """Make one of a clip's audited findings a review item (as a doubtful camera read would)."""
    _edit_result(out / "clips" / clip / "result.json", lambda r: r["findings"][index].update(status="review"))


def test_a_true_finding_found_only_for_review_is_not_recall_but_is_reported(
    audited: tuple[Path, Path],
) -> None:
    src, out = audited
    _mark_review(out, "b", 0)
    rep = evaluate(out, [src])
    assert rep.findings_found == 2 and rep.recall == pytest.approx(2 / 3) and not rep.passed
    assert rep.review_items == 1 and rep.review_true == 1 and rep.found_only_in_review == 1
    assert rep.review_false == 0 and rep.false_alerts == 0
    (b,) = [c for c in rep.clips if c.clip == "b.mp4"]
    assert any(m.endswith("(found for review)") for m in b.missed)
    r = _evaluate_cli(out, src)
    assert r.exit_code == 1
    assert "recall 66.7% (2/3)" in r.output
    assert "review items (not alerts; outside the targets) 1: 1 on true findings" in r.output
    assert "of which 1 found only for review" in r.output


def test_review_items_on_compliant_rounds_are_counted_apart_from_false_alerts(
    audited: tuple[Path, Path],
) -> None:
    src, out = audited
    _edit_truth(src / "b.truth.json", _first_round_compliant)
    _mark_review(out, "b", 0)  # the finding on the now compliant round is only a review item
    rep = evaluate(out, [src])
    assert rep.false_alerts == 0 and rep.recall == 1.0 and rep.passed  # targets: alerts only
    assert rep.review_false == 1 and rep.review_false_on_compliant_rounds == 1
    r = _evaluate_cli(out, src, "-v")
    assert r.exit_code == 0
    assert "review items on no true finding 1: 1 on compliant rounds, 0 in rounds with a true" in r.output
    assert "FALSE REVIEW ITEM" in r.output


def test_a_review_item_on_the_wrong_seat_is_neither_recall_nor_a_false_alert(
    audited: tuple[Path, Path],
) -> None:
    src, out = audited
    _edit_truth(src / "a.truth.json", _second_round_finding_on_seat_2)

    def all_review(result: dict[str, Any]) -> None:
        for f in result["findings"]:
            f["status"] = "review"

    _edit_result(out / "clips" / "a" / "result.json", all_review)
    rep = evaluate(out, [src])
    (a,) = [c for c in rep.clips if c.clip == "a.mp4"]
    assert a.false_alerts == 0 and a.review_false == 1 and a.review_false_on_compliant_rounds == 0


def test_records_written_before_the_status_existed_are_alerts(audited: tuple[Path, Path]) -> None:
    src, out = audited

    def no_status(result: dict[str, Any]) -> None:
        for f in result["findings"]:
            f.pop("status", None)

    for p in (out / "clips").glob("*/result.json"):
        _edit_result(p, no_status)
    rep = evaluate(out, [src])
    assert rep.passed and rep.findings_found == 3 and rep.review_items == 0
