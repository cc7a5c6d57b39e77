"""The audit job: per-clip outputs, batch summary, failures that do not stop the batch, resume."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest
from test_audit_support import clip_states, fake_factory, make_clip, write_layout
from typer.testing import CliRunner

import compliance.audit as audit_mod
from compliance.cli import app
from compliance.reports import ClipReport, load_clip_reports
from vision.layout import TableLayout, load_layout
from vision.zones import COARSE_CAMERA_PX_PER_MM, card_resolution

runner = CliRunner()


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_mod, "default_monitor", fake_factory)


def _rows(p: Path) -> list[dict[str, str]]:
    with p.open() as f:
        return list(csv.DictReader(f))


def test_audit_command_writes_clip_reports_and_summary(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    make_clip(src, "a", pattern=(False, True), video=True)
    make_clip(src, "b", pattern=(True, True, False))
    out = tmp_path / "report"
    r = runner.invoke(app, ["audit", str(src), "--out", str(out), "--states", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "2 clip(s): 2 audited now" in r.output and "0 skipped" in r.output
    rep = ClipReport.model_validate_json((out / "clips" / "a" / "result.json").read_bytes())
    assert rep.status == "ok" and len(rep.rounds) == 2 and rep.table_id == "T1"
    assert [a.round for a in rep.findings] == [2]
    assert rep.events and rep.footage_s == pytest.approx(12.0)
    for a in rep.findings:
        assert a.evidence is not None and (out / "clips" / "a" / a.evidence).is_file()
    html = (out / "clips" / "a" / "report.html").read_text()
    assert "DEALER-REVEAL-EARLY" in html and "Timeline" in html and 'src="evidence/' in html
    rows = {r["clip"]: r for r in _rows(out / "summary.csv")}
    assert rows["a"]["findings"] == "1" and rows["b"]["findings"] == "2"
    assert rows["b"]["DEALER-REVEAL-EARLY"] == "2" and rows["b"]["rounds"] == "3"
    assert len(_rows(out / "findings.csv")) == 3
    summary = json.loads((out / "summary.json").read_text())
    assert summary["findings_by_check"] == {"DEALER-REVEAL-EARLY": 3} and summary["rounds"] == 5
    assert "clips/b/report.html" in (out / "summary.html").read_text()


def test_bad_clip_is_marked_failed_and_the_batch_goes_on(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    make_clip(src, "good")
    bad = make_clip(src, "bad")
    lines = bad.read_text().splitlines()
    lines[5] = lines[5][:40]  # a cut line in the middle of the file
    bad.write_text("\n".join(lines) + "\n")
    out = tmp_path / "report"
    r = runner.invoke(app, ["audit", str(src), "--out", str(out), "--states", "--no-progress"])
    assert r.exit_code == 1
    assert "2 clip(s): 1 audited now" in r.output and "1 failed" in r.output  # the failed one not audited
    rows = {r["clip"]: r for r in _rows(out / "summary.csv")}
    assert rows["good"]["status"] == "ok"
    assert rows["bad"]["status"] == "failed"
    assert "bad.states.jsonl:6" in rows["bad"]["error"] and "frame" in rows["bad"]["error"]
    assert "failed" in (out / "summary.html").read_text()


def test_layout_from_truth_file_then_layout_yaml_else_clear_error(tmp_path: Path, fake_engine: None) -> None:
    a = tmp_path / "one"
    make_clip(a, "t", truth=True, layout_name="table7.yaml")  # only the truth names this layout
    b = tmp_path / "two"
    make_clip(b, "n")
    (b / "layout.yaml").unlink()
    out = tmp_path / "report"
    res = audit_mod.run_audit([a, b], out, states=True, progress=False)
    reps = {r.clip: r for r in load_clip_reports(out)[0]}
    assert (
        reps["t"].status == "ok" and reps["t"].layout is not None and reps["t"].layout.endswith("table7.yaml")
    )
    assert (
        reps["n"].status == "failed"
        and "no layout" in reps["n"].error
        and "n.states.jsonl" in reps["n"].error
    )
    assert res.failed == ["n"]


def test_resume_after_a_crash_loses_and_doubles_nothing(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    for name in ("c1", "c2", "c3"):
        make_clip(src, name, pattern=(True, False))
    out = tmp_path / "report"

    class Killed(Exception):
        pass

    def die_after_first(_: object) -> None:
        raise Killed  # the batch process dies once the first clip is published

    with pytest.raises(Killed):
        audit_mod.run_audit([src], out, states=True, progress=False, on_clip_done=die_after_first)
    # a clip that was half-written when the process died
    half = out / "clips" / ".c2.tmp-99999"
    (half / "evidence").mkdir(parents=True)
    (half / "result.json").write_text("{trunc")
    assert [r.clip for r in load_clip_reports(out)[0]] == ["c1"]
    first = (out / "clips" / "c1" / "result.json").stat().st_mtime_ns

    res = audit_mod.run_audit([src], out, states=True, progress=False)
    assert res.skipped == 1 and res.audited == 2 and not res.failed
    assert not half.exists()
    assert (out / "clips" / "c1" / "result.json").stat().st_mtime_ns == first  # not redone
    rows = _rows(out / "summary.csv")
    assert sorted(r["clip"] for r in rows) == ["c1", "c2", "c3"]
    assert len(_rows(out / "findings.csv")) == 3  # one per clip, none doubled
    for name in ("c1", "c2", "c3"):
        assert len(list((out / "clips" / name / "evidence").iterdir())) == 1

    # a changed input is audited again; --force redoes all
    make_clip(src, "c3", pattern=(True, True))
    res = audit_mod.run_audit([src], out, states=True, progress=False)
    assert res.audited == 1 and res.skipped == 2
    assert len(_rows(out / "findings.csv")) == 4
    res = audit_mod.run_audit([src], out, states=True, progress=False, force=True)
    assert res.audited == 3 and len(_rows(out / "findings.csv")) == 4


def test_failed_clip_is_retried_on_the_next_run(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    make_clip(src, "c")
    (src / "layout.yaml").rename(tmp_path / "layout.yaml")
    out = tmp_path / "report"
    assert audit_mod.run_audit([src], out, states=True, progress=False).failed == ["c"]
    (tmp_path / "layout.yaml").rename(src / "layout.yaml")
    res = audit_mod.run_audit([src], out, states=True, progress=False)
    assert res.audited == 1 and not res.failed


def test_parallel_workers_give_the_same_results(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    for i in range(4):
        make_clip(src, f"c{i}", pattern=(i % 2 == 0, True))
    res = audit_mod.run_audit([src], tmp_path / "par", states=True, workers=2, progress=False)
    assert res.audited == 4 and not res.failed
    par = {
        r.clip: [(a.round, a.check_id) for a in r.findings] for r in load_clip_reports(tmp_path / "par")[0]
    }
    audit_mod.run_audit([src], tmp_path / "seq", states=True, workers=1, progress=False)
    seq = {
        r.clip: [(a.round, a.check_id) for a in r.findings] for r in load_clip_reports(tmp_path / "seq")[0]
    }
    assert par == seq and len(par) == 4


def test_states_flag_without_states_file_fails_that_clip(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    make_clip(src, "c", video=True)
    (src / "c.states.jsonl").unlink()
    res = audit_mod.run_audit([src], tmp_path / "o", states=True, progress=False)
    (rep,) = load_clip_reports(tmp_path / "o")[0]
    assert res.failed == ["c"] and "c.states.jsonl" in rep.error


def test_vision_mode_runs_the_pipeline_on_each_video(
    tmp_path: Path, fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "footage"
    make_clip(src, "v", pattern=(True,), video=True)
    seen: list[object] = []

    def watch(
        source: object,
        layout: TableLayout,
        *,
        detector: object = None,
        pace: float | None = None,
        ticks: bool = False,
    ) -> Iterator[SimpleNamespace]:
        seen.append(source)
        for st in clip_states(pattern=(True,)):
            yield SimpleNamespace(state=st, image=np.zeros((160, 320, 3), np.uint8), tick=False)

    mod = ModuleType("vision.pipeline")
    mod.watch = watch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vision.pipeline", mod)
    res = audit_mod.run_audit([src], tmp_path / "o", progress=False)
    assert not res.failed and seen == [str(src / "v.mp4")]
    (rep,) = load_clip_reports(tmp_path / "o")[0]
    assert rep.mode == "vision" and len(rep.findings) == 1
    # how finely the picture showed the cards: the layout scaled to this 320x160 picture, far too coarse
    lay = load_layout(rep.layout)
    assert rep.card_px_per_mm == pytest.approx(card_resolution(lay.scaled_to(320, 160, strict=False)))
    assert rep.card_px_per_mm[1] < COARSE_CAMERA_PX_PER_MM and res.coarse == ["v"]
    page = (tmp_path / "o" / "clips" / "v" / "report.html").read_text()
    assert "px per felt mm" in page and "too coarse for the per-card targets" in page
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert (
        summary["coarse"] == ["v"]
        and "under 1 px per felt mm" in (tmp_path / "o" / "summary.html").read_text()
    )
    # states replayed tell nothing of the camera
    audit_mod.run_audit([src], tmp_path / "s", states=True, progress=False)
    (rep,) = load_clip_reports(tmp_path / "s")[0]
    assert (
        rep.card_px_per_mm is None
        and json.loads((tmp_path / "s" / "summary.json").read_text())["coarse"] == []
    )


def test_no_clips_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    r = runner.invoke(app, ["audit", str(tmp_path / "empty"), "--out", str(tmp_path / "o"), "--no-progress"])
    assert r.exit_code == 2 and "no clips" in r.output
    # and nothing written: no empty report, no digest of nothing for an auditor to file
    assert not (tmp_path / "o").exists() and "digest" not in r.output


def test_output_folder_inside_the_input_is_not_audited(tmp_path: Path, fake_engine: None) -> None:
    make_clip(tmp_path, "c")
    write_layout(tmp_path / "layout.yaml")
    out = tmp_path / "report"
    audit_mod.run_audit([tmp_path], out, states=True, progress=False)
    (out / "clips" / "c" / "copy.states.jsonl").write_text((tmp_path / "c.states.jsonl").read_text())
    res = audit_mod.run_audit([tmp_path], out, states=True, progress=False)
    assert res.clips == 1
    assert json.loads((out / "clips" / "c" / "result.json").read_text())["clip"] == "c"


def test_audit_with_the_real_engine_flags_the_early_reveal(tmp_path: Path) -> None:
    """The runner with compliance.engine.Monitor (no fake): the early-reveal round is flagged."""
    src = tmp_path / "footage"
    make_clip(src, "real", pattern=(False, True))
    res = audit_mod.run_audit([src], tmp_path / "o", states=True, progress=False)
    assert not res.failed
    (rep,) = load_clip_reports(tmp_path / "o")[0]
    assert len(rep.rounds) == 2
    flagged = {(a.round, a.check_id.value) for a in rep.findings}
    assert (2, "DEALER-REVEAL-EARLY") in flagged
    assert not [a for a in rep.findings if a.round == 1]  # the compliant round


def test_a_camera_knocked_in_a_clip_is_in_its_report_and_its_later_findings_are_for_review(
    tmp_path: Path,
) -> None:
    """The real engine: the early reveal of round 2 happens after the camera's view moved."""
    from test_audit_support import write_states

    src = tmp_path / "footage"
    make_clip(src, "knocked", pattern=(False, True))
    states = clip_states(pattern=(False, True))
    cut = len(states) // 2
    knocked = [
        st.model_copy(update={"view_moved_px": 16.5}) if i >= cut else st for i, st in enumerate(states)
    ]
    write_states(src / "knocked.states.jsonl", knocked)
    audit_mod.run_audit([src], tmp_path / "o", states=True, progress=False)
    (rep,) = load_clip_reports(tmp_path / "o")[0]
    at = knocked[cut]
    assert rep.camera == [
        f"the camera's view has moved 16.5 px at t={at.t:.2f}s (frame {at.frame}) (knocked or turned?): the "
        "layout's zones are off until it is put back or recalibrated; findings meanwhile are for review"
    ]
    [reveal] = [a for a in rep.findings if a.check_id.value == "DEALER-REVEAL-EARLY"]
    assert reveal.status == "review" and "view had moved 16.5 px" in reveal.observed
    html = (tmp_path / "o" / "clips" / "knocked" / "report.html").read_text()
    assert "<h2>Camera</h2>" in html and "has moved 16.5 px" in html


def test_ctrl_c_keeps_finished_clips_and_writes_the_summary(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    for name in ("c1", "c2"):
        make_clip(src, name)
    out = tmp_path / "report"

    def ctrl_c(_: object) -> None:
        raise KeyboardInterrupt

    res = audit_mod.run_audit([src], out, states=True, progress=False, on_clip_done=ctrl_c)
    assert res.interrupted and res.audited == 1  # c1 finished; c2 never audited, and not counted so
    assert [r["clip"] for r in _rows(out / "summary.csv")] == ["c1"]
    res = audit_mod.run_audit([src], out, states=True, progress=False)
    assert not res.interrupted and res.skipped == 1 and res.audited == 1


def test_a_file_that_is_no_footage_is_a_failed_clip_naming_it(tmp_path: Path, fake_engine: None) -> None:
    src = tmp_path / "footage"
    make_clip(src, "c", truth=True)
    res = audit_mod.run_audit(
        [src / "c.truth.json", src / "c.states.jsonl", tmp_path / "nope.mp4"],
        tmp_path / "o",
        states=True,
        progress=False,
    )
    reps = {r.clip: r for r in load_clip_reports(tmp_path / "o")[0]}
    assert reps["c"].status == "ok"
    assert "not a video" in reps["c.truth.json"].error and "no such file" in reps["nope.mp4"].error
    assert sorted(res.failed) == ["c.truth.json", "nope.mp4"]
