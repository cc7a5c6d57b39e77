"""An audit's provenance: the inputs', models' and evidence pictures' sha256 in each clip's record, and
``paigow-monitor verify`` naming whatever has changed since."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from test_audit_support import fake_factory, make_clip
from typer.testing import CliRunner

import compliance.audit as audit_mod
from compliance._provenance import camera_models, software
from compliance.cli import app
from compliance.reports import BatchSummary, ClipReport

runner = CliRunner()


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture
def audited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, str]:
    """Two clips of ground-truth states audited (the fake engine flags round 2's early reveal): the
    footage folder, the audit folder, and what the run printed."""
    monkeypatch.setattr(audit_mod, "default_monitor", fake_factory)
    src = tmp_path / "footage"
    make_clip(src, "a", pattern=(False, True))
    make_clip(src, "b", pattern=(False,))
    out = tmp_path / "report"
    r = runner.invoke(app, ["audit", str(src), "--out", str(out), "--states", "--no-progress"])
    assert r.exit_code == 0, r.output
    return src, out, r.output


def test_each_clip_records_what_it_was_audited_from_by_its_bytes(audited: tuple[Path, Path, str]) -> None:
    src, out, _ = audited
    rep = ClipReport.model_validate_json((out / "clips/a/result.json").read_bytes())
    prov = rep.provenance
    assert prov is not None and prov.software == software() and "paigow-monitor" in prov.software
    assert {Path(k).name: v for k, v in prov.inputs.items()} == {
        "a.states.jsonl": _sha(src / "a.states.jsonl"),
        "layout.yaml": _sha(src / "layout.yaml"),
    }
    assert prov.models == {}  # states replayed: no camera model read a card
    (ev,) = [a.evidence for a in rep.findings]
    assert prov.evidence == {ev: _sha(out / "clips/a" / ev)}
    assert [a.evidence_sha256 for a in rep.findings] == [prov.evidence[ev]]  # said in the finding too
    import csv

    with (out / "findings.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["clip"] == "a"]
    assert [r["evidence_sha256"] for r in rows] == [prov.evidence[ev]]
    from datetime import datetime

    began, ended = datetime.fromisoformat(prov.started_at), datetime.fromisoformat(prov.finished_at)
    assert began.tzinfo is not None and began <= ended  # clock times with their UTC offset
    html = (out / "clips/a/report.html").read_text()
    assert "Provenance" in html and prov.inputs[next(iter(prov.inputs))] in html
    summary = BatchSummary.model_validate_json((out / "summary.json").read_text())
    assert summary.software == [software()] and "paigow-monitor verify" in (out / "summary.html").read_text()


def test_verify_passes_an_untouched_audit_and_names_each_change(audited: tuple[Path, Path, str]) -> None:
    src, out, _ = audited
    r = runner.invoke(app, ["verify", str(out)])
    assert r.exit_code == 0, r.output
    assert "2 clip(s): 2 as audited, 0 changed, 0 not checked" in r.output
    (src / "a.states.jsonl").write_text((src / "a.states.jsonl").read_text().replace('"t":', '"t": ', 1))
    (ev,) = (out / "clips/a/evidence").iterdir()
    ev.unlink()
    r = runner.invoke(app, ["verify", str(out)])
    assert r.exit_code == 1
    assert "a: CHANGED since the audit" in r.output and "b: as audited" in r.output
    assert "a.states.jsonl: changed (sha256" in r.output and f"evidence/{ev.name}: missing" in r.output
    # a record from before provenance is said, not passed as checked
    p = out / "clips/b/result.json"
    p.write_text(
        ClipReport.model_validate_json(p.read_bytes())
        .model_copy(update={"provenance": None})
        .model_dump_json()
    )
    r = runner.invoke(app, ["verify", str(out)])
    assert "b: no provenance recorded (audited before it was): not checked" in r.output
    assert "2 clip(s): 0 as audited, 1 changed, 1 not checked" in r.output


def test_verify_of_a_folder_with_no_audit_is_an_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["verify", str(tmp_path)])
    assert r.exit_code == 2 and "no clip records" in r.output


def test_the_camera_models_are_the_shipped_files_by_their_bytes() -> None:
    from vision.detector import DEFAULT_MODELS_DIR

    got = camera_models()
    assert set(got) == {"card_det.onnx", "card_cls.onnx", "card_cls_coarse.onnx", "card_body.onnx"}
    assert all(v == _sha(DEFAULT_MODELS_DIR / k) for k, v in got.items())


def test_a_live_watchs_pictures_are_checked_against_the_sha256_each_record_says(tmp_path: Path) -> None:
    from rich.console import Console
    from test_audit_support import clip_states, write_layout, write_states

    from compliance.alerts import read_alerts
    from compliance.live import run_live

    lay = write_layout(tmp_path / "layout.yaml")
    write_states(tmp_path / "c.states.jsonl", clip_states(pattern=(True, True)))
    alerts = tmp_path / "a.jsonl"
    summary = run_live(
        "c",
        lay,
        alerts_path=alerts,
        states=tmp_path / "c.states.jsonl",
        view=False,
        console=Console(record=True),
        monitor_factory=fake_factory,
    )
    got = read_alerts(alerts)
    assert len(got) == 2
    for a in got:
        assert a.evidence is not None and a.evidence_sha256 == _sha(tmp_path / a.evidence)
    r = runner.invoke(app, ["verify", str(alerts)])
    assert r.exit_code == 0, r.output
    assert "2 picture(s) checked, 0 changed or gone" in r.output
    assert summary.chain_head is not None  # what the watch printed at its end, matched
    assert (
        f"2 record(s) linked in its hash chain, 0 break(s); the chain ends at sha256 {summary.chain_head}"
        in r.output
    )
    pic = tmp_path / str(got[1].evidence)
    pic.write_bytes(pic.read_bytes()[:-10])  # a picture cut short after the record was written
    r = runner.invoke(app, ["verify", str(alerts)])
    assert r.exit_code == 1 and f"alert {got[1].alert_id}: picture {got[1].evidence}: changed" in r.output
    assert "2 picture(s) checked, 1 changed or gone" in r.output


def test_the_records_digest_is_printed_to_file_and_a_record_edited_after_is_named(
    audited: tuple[Path, Path, str],
) -> None:
    """The evidence and inputs are hashed in the records; the records are hashed in summary.json and
    in one digest printed at the end of the run, for the auditor to file. A finding taken out of a
    clip's result.json afterwards is named by ``verify``, and the digest it prints no longer matches."""
    import re

    _, out, printed = audited
    filed = re.search(r"records digest: sha256 ([0-9a-f]{64})", printed)
    assert filed is not None
    summary = BatchSummary.model_validate_json((out / "summary.json").read_text())
    assert summary.digest == filed.group(1) and set(summary.records) == {"a", "b"}
    assert summary.records["a"] == _sha(out / "clips/a/result.json")
    r = runner.invoke(app, ["verify", str(out)])
    assert r.exit_code == 0 and f"records digest: sha256 {filed.group(1)}" in r.output, r.output
    p = out / "clips/a/result.json"  # the alert struck out of the record
    p.write_text(
        ClipReport.model_validate_json(p.read_bytes()).model_copy(update={"findings": []}).model_dump_json()
    )
    r = runner.invoke(app, ["verify", str(out)])
    assert r.exit_code == 1 and "a: its result.json changed since the summary was written" in r.output
    assert filed.group(1) not in r.output
