"""benchmarks/compliance_batch.py end to end on a tiny batch: ground truth without video, the audit on
its states, the evaluation and the per-check figures; a finding the monitor did not raise fails it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "compliance_batch", ROOT / "benchmarks" / "compliance_batch.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compliance_batch"] = mod  # pydantic resolves the models' annotations through it
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path, object]:
    mod = _load()
    out = tmp_path_factory.mktemp("batch")
    # 4 rounds, 2 clips (one per game), every round with one injected violation
    rep = mod.run_batch(out, 4, 11, violation_rate=1.0, log=lambda _: None)
    return mod, out, rep


def test_batch_meets_targets_on_states(batch: tuple[ModuleType, Path, object]) -> None:
    _, out, rep = batch
    ev = rep.evaluation  # type: ignore[attr-defined]
    assert rep.rounds == 4 and rep.rounds_by_game == {"seven-card": 2, "six-card": 2}  # type: ignore[attr-defined]
    assert [c.game for c in rep.clips] == ["seven-card", "six-card"]  # type: ignore[attr-defined]
    injected = sum(c.injected for c in rep.checks)  # type: ignore[attr-defined]
    assert injected == 4 and ev.findings_true >= 4
    assert rep.rounds_with_violation == 4  # type: ignore[attr-defined]
    assert ev.rounds_true == 4 and ev.rounds_rebuilt == 4
    assert ev.recall == 1.0 and ev.findings_found == ev.findings_true
    assert ev.false_alerts == 0 and rep.passed, rep.failures  # type: ignore[attr-defined]
    assert sum(c.found for c in rep.checks) == ev.findings_found  # type: ignore[attr-defined]
    # ground truth only: states, truth and layout, no video or boxes
    names = sorted(p.name for p in (out / "clips").iterdir())
    assert not [n for n in names if n.endswith((".mp4", ".boxes.jsonl.gz"))]
    assert sum(n.endswith(".states.jsonl") for n in names) == 2
    assert sum(n.endswith(".truth.json") for n in names) == 2
    saved = json.loads((out / "batch_report.json").read_text())
    assert saved["evaluation"]["findings_found"] == ev.findings_found


def test_a_finding_the_monitor_missed_fails_the_batch(batch: tuple[ModuleType, Path, object]) -> None:
    mod, out, rep = batch
    clip = rep.clips[0]  # type: ignore[attr-defined]
    path = out / "clips" / f"{clip.name}.truth.json"
    truth = json.loads(path.read_text())
    compliant = [r for r in truth["rounds"] if not r["findings"]]
    rnd = compliant[0] if compliant else truth["rounds"][0]
    planted = {
        "round": rnd["round"],
        "check_id": "DEAL-ORDER"
        if not any(f["check_id"] == "DEAL-ORDER" for f in rnd["findings"])
        else "CARD-COUNT",
        "seat": 6,
        "t": rnd["t_start"] + 1.0,
        "frame": int((rnd["t_start"] + 1.0) * truth["fps"]),
        "rule": "planted",
        "expected": "planted",
        "observed": "planted",
    }
    rnd["findings"].append(planted)
    path.write_text(json.dumps(truth))
    again = mod.score_batch(out, rep.clips, 11)  # type: ignore[attr-defined]
    assert not again.passed
    assert again.evaluation.findings_true == rep.evaluation.findings_true + 1  # type: ignore[attr-defined]
    assert again.evaluation.findings_found == rep.evaluation.findings_found  # type: ignore[attr-defined]
    row = next(c for c in again.checks if c.check == planted["check_id"])
    assert row.true_findings == row.found + 1
    assert any(f"{planted['check_id']} seat 6" in line for line in again.missed_lines)
