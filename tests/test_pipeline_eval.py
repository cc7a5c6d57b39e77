"""Scoring the pipeline against ground truth (vision.evaluate, `paigow-monitor eval-vision`)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from test_pipeline_synth import CARD_H, CARD_W, SynthTable, _to_img, make_layout, write_clip
from typer.testing import CliRunner

from compliance.cli import app
from compliance.events import ClipTruth, RoundRecord
from vision.evaluate import score_states
from vision.state import DealerState, IVerifyState, SeatState, TableState

FPS = 25.0
# (frames, cards as (token, x, y, zone))
SCENES: list[tuple[int, list[tuple[str, float, float, str]]]] = [
    (30, []),
    (
        40,
        [("BACK", 220, 755, "seat1.dealt"), ("Jc", 700, 200, "dealer.hand"), ("Qh", 790, 200, "dealer.hand")],
    ),
    (
        40,
        [
            ("BACK", 250, 620, "seat1.high"),
            ("BACK", 560, 620, "seat1.low"),
            ("Jc", 700, 200, "dealer.hand"),
            ("Qh", 790, 200, "dealer.hand"),
        ],
    ),
    (
        40,
        [
            ("As", 250, 620, "seat1.high"),
            ("Kd", 330, 620, "seat1.high"),
            ("9h", 560, 620, "seat1.low"),
            ("Jc", 650, 330, "dealer.high"),
            ("Qh", 1000, 330, "dealer.low"),
        ],
    ),
]


def _truth_state(frame: int, cards: list[tuple[str, float, float, str]]) -> TableState:
    seats = {n: SeatState(seat=n) for n in (1, 2, 3)}
    dealer = DealerState()
    for tok, _x, _y, zone in sorted(cards, key=lambda c: c[1]):
        area, part = zone.split(".")
        tgt = dealer if area == "dealer" else seats[int(area[4:])]
        getattr(tgt, part).append(tok)
    return TableState(table_id="T1", frame=frame, t=frame / FPS, seats=list(seats.values()), dealer=dealer)


def _make_clip(tmp: Path) -> Path:
    lay = make_layout()
    lay.dump(tmp / "table.yaml")
    h = lay.homography()
    frames, states, boxes = [], [], []
    n = 0
    for count, cards in SCENES:
        states.append(_truth_state(n, cards).model_dump_json())
        img = SynthTable(lay, cards=[(c, x, y) for c, x, y, _ in cards]).frame(n)
        for _ in range(count):
            frames.append(img)
            recs = []
            for tok, x, y, zone in cards:
                q = np.array(
                    [
                        [x - CARD_W / 2, y - CARD_H / 2],
                        [x + CARD_W / 2, y - CARD_H / 2],
                        [x + CARD_W / 2, y + CARD_H / 2],
                        [x - CARD_W / 2, y + CARD_H / 2],
                    ]
                )
                qi = _to_img(h, q).astype(float)
                recs.append(
                    {
                        "card": tok,
                        "quad": qi.tolist(),
                        "xyxy": [*qi.min(0), *qi.max(0)],
                        "zone": zone,
                        "visible": 1.0,
                    }
                )
            if recs:
                boxes.append(json.dumps({"frame": n, "t": n / FPS, "cards": recs}))
            n += 1
    clip = write_clip(tmp / "c.avi", frames, FPS)
    (tmp / "c.states.jsonl").write_text("\n".join(states) + "\n")
    with gzip.open(tmp / "c.boxes.jsonl.gz", "wt") as f:
        f.write("\n".join(boxes) + "\n")
    truth = ClipTruth(
        clip="c.avi",
        table_id="T1",
        game="seven-card",
        fps=FPS,
        frames=n,
        layout="table.yaml",
        seed=0,
        scenario="test",
        rounds=[RoundRecord(round=1, game="seven-card", t_start=0.0, t_end=n / FPS)],
    )
    (tmp / "c.truth.json").write_text(truth.model_dump_json())
    return clip


@pytest.mark.slow
def test_eval_vision_with_truth_boxes_and_with_a_detector(tmp_path: Path) -> None:
    clip = _make_clip(tmp_path)
    out = tmp_path / "score.json"
    r = CliRunner().invoke(app, ["eval-vision", str(clip), "--truth-boxes", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "rounds exact 1/1" in r.output and "PASS" in r.output
    score = json.loads(out.read_text())[0]
    assert score["zones"]["seat.high"]["tp"] == 2 and score["zones"]["dealer.hand"]["tp"] == 4
    r = CliRunner().invoke(
        app, ["eval-vision", str(clip), "--detector", "test_pipeline_synth:ColourDetector"]
    )
    assert r.exit_code == 0, r.output
    # a folder: its videos with a ground truth beside them (a video without one is passed over)
    write_clip(tmp_path / "a-untruthed.avi", [np.zeros((8, 8, 3), np.uint8)] * 2, FPS)
    r = CliRunner().invoke(app, ["eval-vision", str(tmp_path), "--truth-boxes"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("c.avi: ") and "untruthed" not in r.output
    (tmp_path / "none").mkdir()
    r = CliRunner().invoke(app, ["eval-vision", str(tmp_path / "none")])
    assert r.exit_code == 2 and "none: folder holds no rendered clip" in r.output
    lay = str(tmp_path / "table.yaml")
    r = CliRunner().invoke(app, ["watch", str(clip), "--layout", lay, "--truth-boxes", "--json"])
    assert r.exit_code == 0, r.output
    last = TableState.model_validate_json(r.output.splitlines()[-1])
    assert (last.seat(1).high, last.seat(1).low, last.dealer.low) == (["As", "Kd"], ["9h"], ["Qh"])


@pytest.mark.slow
def test_eval_vision_fails_on_a_missed_target(tmp_path: Path) -> None:
    clip = _make_clip(tmp_path)
    # a detector that never sees the dealer's cards
    r = CliRunner().invoke(app, ["eval-vision", str(clip), "--detector", "test_pipeline_eval:BlindDealer"])
    assert r.exit_code == 1, r.output
    assert "FAIL" in r.output and "rounds exact 0/1" in r.output and "dealer" in r.output


class BlindDealer:
    def __init__(self) -> None:
        from test_pipeline_synth import ColourDetector

        self.inner = ColourDetector()

    def detect(self, image: np.ndarray):  # type: ignore[no-untyped-def]
        d = self.inner.detect(image)
        keep = np.array([lab not in ("Jc", "Qh") for lab in d.labels], bool)
        return d[keep]


def test_score_counts_misplaced_cards_both_ways_and_skips_occluded() -> None:
    truth = [
        _truth_state(0, [("As", 250, 620, "seat1.high")]),
        _truth_state(50, [("As", 250, 620, "seat1.high"), ("Kd", 560, 620, "seat1.low")]),
    ]
    pred = [
        _truth_state(10, [("As", 250, 620, "seat1.high"), ("Kd", 560, 620, "seat1.high")]),
        _truth_state(55, [("As", 250, 620, "seat1.high"), ("Kd", 560, 620, "seat1.low")]),
    ]
    s = score_states("x", truth, pred, fps=25, n_frames=100, rounds=[(1, 0.0, 2.0), (2, 2.0, 4.0)])
    assert (s.zones["seat.high"].tp, s.zones["seat.high"].fp, s.zones["seat.low"].tp) == (2, 1, 1)
    assert (s.rounds, s.rounds_exact) == (2, 1) and s.round_errors[0].startswith(
        "round 1: t=1.96s seat1.high"
    )
    pred = pred[:1]
    for st in truth:
        st.occluded.extend(["seat1.low", "seat1.high"])
    s = score_states("x", truth, pred, fps=25, n_frames=100)
    assert s.total.fp == 0 and s.total.fn == 0 and s.moments == 2


def test_an_iverify_misread_is_listed_apart_and_leaves_the_round_exact() -> None:
    truth, pred = _truth_state(0, []), _truth_state(10, [])
    truth.iverify = IVerifyState(mode="dealer", high=["As", "Kd"], low=["2c"])
    pred.iverify = IVerifyState(mode="dealer", high=["As", "Kh"], low=["2c"])
    s = score_states("x", [truth], [pred], fps=25, n_frames=50, rounds=[(1, 0.0, 2.0)])
    assert (s.zones["iverify.high"].tp, s.zones["iverify.high"].fp) == (1, 1)
    assert s.iverify_errors == ["t=1.96s iverify.high: true ['As', 'Kd'] read ['As', 'Kh']"]
    assert s.rounds_exact == 1 and s.card_errors == []


def test_a_missed_face_the_camera_counted_unnamed_is_reported_as_such() -> None:
    truth = [_truth_state(0, [("As", 250, 620, "seat1.high"), ("Kd", 330, 620, "seat1.high")])]
    read = _truth_state(10, [("As", 250, 620, "seat1.high")])
    pred = [read.model_copy(update={"unread_faces": {"seat1.high": 1}})]
    s = score_states("x", truth, pred, fps=25, n_frames=100)
    z = s.zones["seat.high"]
    assert (z.tp, z.fn, z.unnamed) == (1, 1, 1) and s.total.unnamed == 1
    # an unnamed face beyond the cards missed (a phantom) is not counted
    pred = [read.model_copy(update={"unread_faces": {"seat1.high": 3}})]
    assert score_states("x", truth, pred, fps=25, n_frames=100).zones["seat.high"].unnamed == 1
    assert score_states("x", truth, [read], fps=25, n_frames=100).zones["seat.high"].unnamed == 0


def test_a_covered_lcd_read_as_nothing_is_right_and_read_as_another_number_is_not() -> None:
    """b44-0003: the dealer's arm over the shuffler at the clip's end; the LCD, still showing 6 beneath,
    was read as nothing shown (None)."""
    truth = _truth_state(0, [])
    truth.lcd = 6
    shown, covered = truth.model_copy(), truth.model_copy(update={"occluded": ["lcd"]})
    cases = [(shown, 6, 1), (shown, None, 0), (covered, None, 1), (covered, 6, 1), (covered, 3, 0)]
    for t, read, ok in cases:
        pred = _truth_state(10, [])
        pred.lcd = read
        assert score_states("x", [t], [pred], fps=25, n_frames=50).lcd_ok == ok, (t.occluded, read)


def test_states_are_scored_by_their_time_so_a_clip_at_another_frame_rate_scores_too() -> None:
    """A camera's 10 fps sub-stream numbers its frames otherwise than the 25 fps truth: the pipeline's
    state at a moment is the one stamped at or before the moment's time, whatever its frame number."""
    truth = [
        _truth_state(0, [("As", 250, 620, "seat1.high")]),
        _truth_state(50, [("As", 250, 620, "seat1.high"), ("Kd", 560, 620, "seat1.low")]),
    ]

    def at_10fps(st: TableState, frame10: int) -> TableState:
        return st.model_copy(update={"frame": frame10, "t": frame10 / 10.0})

    # read at 0.4 s and 2.2 s (frames 4 and 22 at 10 fps; 10 and 55 at 25 fps)
    pred = [at_10fps(truth[0], 4), at_10fps(truth[1], 22)]
    s = score_states("x", truth, pred, fps=25, n_frames=100, rounds=[(1, 0.0, 4.0)])
    assert (s.total.tp, s.total.fp, s.total.fn, s.rounds_exact) == (3, 0, 0, 1)
    # the second read came late, at 4.2 s (frame 42 at 10 fps: by frame number it would be "before"
    # the moment ending at frame 99 and counted; by time it is after the clip's 3.96 s)
    pred = [at_10fps(truth[0], 4), at_10fps(truth[1], 42)]
    s = score_states("x", truth, pred, fps=25, n_frames=100, rounds=[(1, 0.0, 4.0)])
    assert (s.total.tp, s.total.fn, s.rounds_exact) == (2, 1, 0)
