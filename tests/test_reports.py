"""Reports: self-contained HTML, the summary rebuilt from the per-clip records, escaping."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_audit_support import fake_factory, make_clip

import compliance.audit as audit_mod
from compliance.alerts import make_alert
from compliance.events import CheckId, Finding
from compliance.reports import ClipReport, clip_html, load_clip_reports, summary_html, write_summary


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(audit_mod, "default_monitor", fake_factory)
    make_clip(tmp_path / "f", "a", pattern=(True, False), video=True)
    make_clip(tmp_path / "f", "b", pattern=(True, True))
    o = tmp_path / "o"
    audit_mod.run_audit([tmp_path / "f"], o, states=True, progress=False)
    return o


def test_html_is_self_contained_and_its_pictures_exist(out: Path) -> None:
    for page in [out / "summary.html", *sorted((out / "clips").glob("*/report.html"))]:
        text = page.read_text()
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), page  # nothing fetched from outside
        assert "<link" not in text and "<script" not in text
        for ref in re.findall(r'src="([^"]+)"', text):
            assert (page.parent / ref).is_file(), (page, ref)
        for ref in re.findall(r'href="([^"#]+)"', text):
            assert (page.parent / ref).is_file(), (page, ref)


def test_clip_report_has_timeline_hands_and_findings_per_round(out: Path) -> None:
    text = (out / "clips" / "b" / "report.html").read_text()
    assert text.count('<h2 id="round') == 2
    assert text.count("Timeline") == 2 and "dealer_exposed" in text and "round_end" in text
    assert "As Kd Qc Jh 9s" in text  # seat 1's high hand, rebuilt
    assert text.count("Findings in this round") == 2


def test_summary_is_rebuilt_from_the_clip_records(out: Path) -> None:
    before = (out / "summary.csv").read_text()
    (out / "summary.csv").unlink()
    (out / "findings.csv").write_text("garbage")
    reports, errors, _ = write_summary(out)
    assert not errors and [r.clip for r in reports] == ["a", "b"]
    assert (out / "summary.csv").read_text() == before
    assert len((out / "findings.csv").read_text().splitlines()) == 1 + 3


def test_unreadable_clip_record_is_reported_not_fatal(out: Path) -> None:
    (out / "clips" / "a" / "result.json").write_text("{")
    reports, errors = load_clip_reports(out)
    assert [r.clip for r in reports] == ["b"] and len(errors) == 1 and "clips/a/result.json" in errors[0]
    assert "Unreadable records" in summary_html(reports, errors)


def test_text_from_the_footage_is_escaped() -> None:
    f = Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=1, t=1.0, frame=10, observed="<script>x</script>")
    a = make_alert(f, table_id="T<1>", source="s", detected_t=1.0, detected_frame=10)
    rep = ClipReport(clip="c", status="ok", mode="states", findings=[a])
    text = clip_html(rep)
    assert "<script>x" not in text and "&lt;script&gt;x" in text


def test_review_items_are_shown_and_counted_apart_from_alerts(out: Path) -> None:
    import json

    p = out / "clips" / "b" / "result.json"
    data = json.loads(p.read_text())
    data["findings"][0]["status"] = "review"  # one finding built on a doubtful read
    p.write_text(json.dumps(data))
    reports, _, _ = write_summary(out)
    (b,) = [r for r in reports if r.clip == "b"]
    text = clip_html(b)
    assert "Alerts (1)" in text and "Review items (1)" in text
    assert text.index("Alerts (1)") < text.index("Review items (1)")
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["findings"], summary["alerts"], summary["review"]) == (3, 2, 1)
    rows = (out / "findings.csv").read_text().splitlines()
    head = rows[0].split(",")
    statuses = sorted(r.split(",")[head.index("status")] for r in rows[1:])
    assert statuses == ["alert", "alert", "review"]
    page = (out / "summary.html").read_text()
    assert "review items (doubtful: to look at)</td><td>1" in page


def test_an_alert_record_without_a_status_is_an_alert() -> None:
    f = Finding(round=1, check_id=CheckId.HOUSE_WAY, seat=1, t=1.0, frame=10)
    a = make_alert(f, table_id="T1", source="s", detected_t=1.0, detected_frame=10)
    old = a.model_dump(mode="json")
    del old["status"]
    assert type(a).model_validate(old).status == "alert"
    doubt = make_alert(
        f.model_copy(update={"status": "review", "confidence": 0.6}),
        table_id="T1",
        source="s",
        detected_t=1.0,
        detected_frame=10,
    )
    assert doubt.status == "review" and doubt.alert_id == a.alert_id
