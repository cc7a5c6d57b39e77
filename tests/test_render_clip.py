"""The renderer end to end: a whole clip through ffmpeg, its files, and the CLI."""

from __future__ import annotations

import gzip
import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compliance.cli import app
from compliance.events import ClipTruth, EventKind
from vision.layout import load_layout
from vision.state import TableState


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs Debian's ffmpeg")
def test_render_command_writes_a_clip_and_its_ground_truth(tmp_path: Path) -> None:
    scenario = tmp_path / "one.yaml"
    scenario.write_text(
        "name: one\ngame: six-card\ndeck: tigullio\nrounds:\n  - lcd: 4\n    active_seats: [2]\n"
        "    violations:\n      - check: HOUSE-WAY\n"
    )
    res = CliRunner().invoke(
        app, ["render", str(scenario), "--seed", "3", "--out", str(tmp_path), "--size", "1280x720"]
    )
    assert res.exit_code == 0, res.output
    truth = ClipTruth.model_validate_json((tmp_path / "one.truth.json").read_text())
    layout = load_layout(tmp_path / truth.layout)
    assert layout.game == "six-card" and truth.game == "six-card"
    assert (layout.image_width, layout.image_height) == (1280, 720)
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
         "stream=nb_read_frames,width,height,r_frame_rate", "-of", "json", str(tmp_path / truth.clip)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    stream = json.loads(probe.stdout)["streams"][0]
    assert (stream["width"], stream["height"], stream["r_frame_rate"]) == (1280, 720, "25/1")
    assert int(stream["nb_read_frames"]) == truth.frames
    (rnd,) = truth.rounds
    assert [f.check_id.value for f in rnd.findings] == ["HOUSE-WAY"]
    dealer = next(h for h in rnd.hands if h.position == "dealer")
    assert len(dealer.high) == 5 and len(dealer.low) == 1
    states = [TableState.model_validate_json(line) for line in (tmp_path / "one.states.jsonl").open()]
    assert states[0].frame == 0 and all(a.frame < b.frame for a, b in itertools.pairwise(states))
    # The dealer's set hand as the truth says, at the dealer_set event.
    t_set = next(e.frame for e in rnd.events if e.kind == EventKind.DEALER_SET)
    at = [s for s in states if s.frame <= t_set][-1]
    assert sorted(at.dealer.high) == sorted(dealer.high) and at.dealer.low == dealer.low
    with gzip.open(tmp_path / "one.boxes.jsonl.gz", "rt") as fh:
        lines = [json.loads(line) for line in fh]
    assert lines and all(0 <= ln["frame"] < truth.frames for ln in lines)
    card = lines[len(lines) // 2]["cards"][0]
    assert set(card) == {"card", "quad", "xyxy", "zone", "visible"} and len(card["quad"]) == 4


def test_render_command_names_the_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ngame: nine-card\nrounds: []\n")
    res = CliRunner().invoke(app, ["render", str(bad), "--out", str(tmp_path)])
    assert res.exit_code == 1
    assert "bad.yaml" in res.output and "game" in res.output
    assert not list(tmp_path.glob("*.mp4"))


def test_render_command_refuses_a_bad_size(tmp_path: Path) -> None:
    sc = tmp_path / "d.yaml"
    sc.write_text("name: d\ngame: seven-card\nrounds:\n  - lcd: 1\n")
    res = CliRunner().invoke(app, ["render", str(sc), "--out", str(tmp_path), "--size", "1920by1080"])
    assert res.exit_code == 2 and "WIDTHxHEIGHT" in res.output
    assert not list(tmp_path.glob("*.mp4"))


def test_render_command_names_an_unknown_deck(tmp_path: Path) -> None:
    sc = tmp_path / "d.yaml"
    sc.write_text("name: d\ngame: seven-card\ndeck: no-such-deck\nrounds:\n  - lcd: 1\n")
    res = CliRunner().invoke(app, ["render", str(sc), "--out", str(tmp_path)])
    assert res.exit_code == 1 and "no-such-deck" in res.output
