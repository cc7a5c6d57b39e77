"""The camera pipeline on synthetic footage with a fake detector (vision.pipeline)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from test_pipeline_synth import PALETTE, ColourDetector, SynthTable, colour_mask, make_layout, write_clip
from typer.testing import CliRunner

from compliance.cli import app
from vision.detections import CLASSES, Detections
from vision.layout import Point, TableLayout, load_layout
from vision.pipeline import FrameResult, PipelineConfig, TablePipeline, watch
from vision.sources import Frame
from vision.state import TableState

CFG = PipelineConfig(analyse_fps=None)


def _run(p: TablePipeline, t: SynthTable, n: int, start: int, fps: float = 12.5) -> list[TableState]:
    out = []
    for i in range(start, start + n):
        s = p.process(i, i / fps, t.frame(i))
        if s is not None:
            out.append(s)
    return out


def test_reads_seats_dealer_displays_and_chips() -> None:
    lay = make_layout()
    t = SynthTable(lay, lcd=3, chips={1, 3})
    p = TablePipeline(lay, ColourDetector(), CFG)
    states = _run(p, t, 8, 0)
    assert states[0].lcd == 3 and [s.chips for s in states[-1].seats] == [True, False, True]
    t.cards = [
        ("Kd", 330, 620),
        ("As", 250, 620),
        ("BACK", 560, 620),
        ("Qh", 1000, 330),
        ("Jc", 700, 200),
        ("Ts", 1400, 755),
    ]
    t.header, t.iv_high, t.iv_low = "DEALER", ["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"]
    states = _run(p, t, 8, 8)
    s = states[-1]
    assert (s.seat(1).high, s.seat(1).low, s.seat(1).dealt) == (["As", "Kd"], ["BACK"], [])
    assert s.seat(3).dealt == ["Ts"]
    assert (s.dealer.hand, s.dealer.high, s.dealer.low) == (["Jc"], [], ["Qh"])
    assert (s.iverify.mode, s.iverify.high, s.iverify.low, s.iverify.visible) == (
        "dealer",
        ["As", "Kd", "Qh", "Jc", "Ts"],
        ["9h", "2c"],
        True,
    )
    assert s.occluded == []


def test_the_display_is_read_where_its_panel_lies_when_the_layout_places_it_off() -> None:
    """A lens bends the picture towards its corners, where the display stands, and four reference
    points cannot follow (the sample under a wide lens's barrel distortion: the panel 10-15 px off
    its crop, the header band took in the cards' tops, and every hand the display showed was lost).
    Here the layout puts the panel 25 mm (8 % of its height) down and right of where it lies: it is
    found by its blue and read where it is."""
    true = make_layout()
    off = true.model_copy(update={"iverify": [Point(x=p.x + 25, y=p.y + 25) for p in true.iverify]})
    t = SynthTable(true, lcd=3, header="SEAT 2", iv_high=["As", "Kd", "Qh", "Jc", "Ts"], iv_low=["9h", "2c"])
    s = _run(TablePipeline(off, ColourDetector(), CFG), t, 8, 0)[-1]
    assert (s.iverify.visible, s.iverify.mode, s.iverify.seat) == (True, "seat", 2)
    assert (s.iverify.high, s.iverify.low) == (["As", "Kd", "Qh", "Jc", "Ts"], ["9h", "2c"])
    t.towel = True  # covered: no panel found, and no reading where it is not seen
    s = _run(TablePipeline(off, ColourDetector(), CFG), t, 40, 0)[-1]
    assert s.iverify.visible is False


def test_unchanged_zones_do_not_run_the_detector() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620)])
    det = ColourDetector()
    p = TablePipeline(lay, det, CFG)
    _run(p, t, 6, 0)
    settled = det.calls
    assert settled <= 2 * 4  # 4 card/display regions, each read twice at most (read + confirm)
    _run(p, t, 30, 6)
    assert det.calls == settled
    t.cards.append(("Kd", 330, 620))  # one seat changes: only that region is read again
    _run(p, t, 6, 36)
    assert det.calls - settled == 2


def test_a_new_card_reaches_the_state_when_its_second_agreeing_read_settles_it() -> None:
    """The camera's own delay, in analysed frames: a card put down at frame 0 (moving) lies still at
    frames 1 and 2 (``stable_frames`` 2), is read at 2 and again at 3, and settles there
    (``confirm_reads`` 2). The tracker's hold (``hold_frames``, default 1) adds nothing on top: a
    settled reading already stands until two agreeing reads settle another. Each analysed frame is
    80 ms of a live alert's latency."""
    lay = make_layout()

    def seen_after(cfg: PipelineConfig) -> int:
        t = SynthTable(lay)
        p = TablePipeline(lay, ColourDetector(), cfg)
        _run(p, t, 6, 0)
        t.cards = [("As", 250, 620)]
        for i in range(6, 30):
            s = p.process(i, i / 12.5, t.frame(i))
            if s is not None and s.seat(1).high + s.seat(1).low + s.seat(1).dealt:
                return i - 6
        raise AssertionError("the card never reached the table state")

    assert CFG.hold_frames == 1
    assert seen_after(CFG) == 3
    assert seen_after(CFG.model_copy(update={"hold_frames": 2})) == 4


def test_a_noisy_cameras_card_reaches_the_state_as_soon_as_a_clean_ones() -> None:
    """Sensor noise, new in every frame (a camera in low light), is not motion: the change and motion
    tests cut their small crops from the frame's block means (``PipelineConfig.change_from_thumbnail``),
    so a card put down on a noisy picture settles as fast as on a clean one. Cut from the frame's own
    pixels, the noise kept the zone "moving" and the card was read only when forced, 2 s later
    (``benchmarks/camera_conditions.py``: the sample clips with noise read a moment late at every deal,
    0 of 16 rounds exact)."""
    lay = make_layout()
    rng = np.random.default_rng(0)

    def noisy(img: np.ndarray) -> np.ndarray:
        return np.clip(img + rng.normal(0, 12, img.shape), 0, 255).astype(np.uint8)

    def seen_after(cfg: PipelineConfig) -> int:
        t = SynthTable(lay)
        p = TablePipeline(lay, ColourDetector(), cfg)
        for i in range(6):
            p.process(i, i / 12.5, noisy(t.frame(i)))
        t.cards = [("As", 250, 620)]
        for i in range(6, 60):
            s = p.process(i, i / 12.5, noisy(t.frame(i)))
            if s is not None and s.seat(1).high + s.seat(1).low + s.seat(1).dealt:
                return i - 6
        raise AssertionError("the card never reached the table state")

    assert seen_after(CFG) == 3  # as on a clean picture (the test above)
    assert seen_after(CFG.model_copy(update={"change_from_thumbnail": False})) > 3 + 12  # forced, late


def test_a_flickering_detector_never_reaches_the_state() -> None:
    lay = make_layout()
    t = SynthTable(lay)
    det = ColourDetector()
    p = TablePipeline(lay, det, CFG)
    _run(p, t, 6, 0)
    t.cards = [("As", 250, 620), ("Kd", 330, 620)]
    det.wrong = 1  # the first read after the change says Joker
    states = _run(p, t, 10, 6)
    assert all("Jk" not in s.seat(1).high for s in states)
    assert states[-1].seat(1).high == ["As", "Kd"]


def test_a_card_seen_for_one_frame_is_ignored() -> None:
    lay = make_layout()
    t = SynthTable(lay)
    p = TablePipeline(lay, ColourDetector(), CFG)
    states = _run(p, t, 6, 0)
    t.cards = [("As", 250, 620)]
    states += _run(p, t, 1, 6)
    t.cards = []
    states += _run(p, t, 8, 7)
    assert all(s.seat(1).high == [] for s in states)


def test_arm_over_cards_keeps_them_and_lists_the_zone_occluded() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    seen = []
    for k, y in enumerate([200, 400, 600, 650, 650, 650, 650, 650, 650, 650, 650, 650, 400, 100]):
        t.arm = (300.0, float(y))
        seen += _run(p, t, 1, 8 + k)
    t.arm = None
    seen += _run(p, t, 6, 30)
    assert all(s.seat(1).high == ["As", "Kd"] for s in seen)
    assert any("seat1.high" in s.occluded for s in seen)  # while the arm rests over the cards
    assert seen[-1].occluded == []


def test_cards_moved_under_the_arm_are_read_after_it_leaves() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    t.arm = (300.0, 650.0)
    _run(p, t, 4, 8)
    t.cards = [("As", 560, 620), ("Kd", 330, 620)]  # one card slid to the low area under the arm
    _run(p, t, 4, 12)
    t.arm = None
    s = _run(p, t, 8, 16)[-1]
    assert (s.seat(1).high, s.seat(1).low) == (["Kd"], ["As"])


def test_a_card_swapped_under_the_arm_for_a_look_alike_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dealer re-sets a hand under his arm and only one card's picture changes a little (an index
    at the end of a fan): too little for the change test, so the zone is read again once the arm is
    gone. (Qs is drawn within the change test's 30 grey levels of As, outside the detector's 25.)"""
    monkeypatch.setitem(PALETTE, "Qs", (255, 0, 28))
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    assert _run(p, t, 8, 0)[-1].seat(1).high == ["As", "Kd"]
    t.arm = (300.0, 650.0)
    _run(p, t, 4, 8)
    t.cards = [("Qs", 250, 620), ("Kd", 330, 620)]
    _run(p, t, 4, 12)
    t.arm = None
    seen = _run(p, t, 8, 16)
    assert seen and seen[-1].seat(1).high == ["Qs", "Kd"] and seen[-1].occluded == []


def test_towel_over_iverify_reports_not_visible() -> None:
    lay = make_layout()
    t = SynthTable(lay, header="SEAT 2", iv_high=["As", "Kd", "Qh", "Jc", "Ts"], iv_low=["9h", "2c"])
    p = TablePipeline(lay, ColourDetector(), CFG)
    assert _run(p, t, 8, 0)[-1].iverify.mode == "seat"
    t.towel = True
    states = _run(p, t, 35, 8)  # 2.8 s: a still cover is read after edge_read_after_s
    assert states[0].occluded == ["iverify"] and states[0].iverify.visible
    s = states[-1]
    assert s.iverify.visible is False and s.iverify.seat == 2


def _clip_with_a_card_dealt(tmp_path: Path) -> tuple[TableLayout, Path]:
    """A layout and a 30-frame clip at 25 fps, the LCD showing 5, an As dealt to seat 1 at frame 10."""
    lay = make_layout()
    t = SynthTable(lay, lcd=5)
    frames = [t.frame(i) for i in range(10)]
    t.cards = [("As", 250, 620)]
    frames += [t.frame(i) for i in range(10, 30)]
    return lay, write_clip(tmp_path / "c.avi", frames, fps=25.0)


def test_watch_a_clip_file_yields_frames_and_file_times(tmp_path: Path) -> None:
    lay, clip = _clip_with_a_card_dealt(tmp_path)
    res = list(watch(clip, lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5)))
    assert all(isinstance(r, FrameResult) and r.image.shape == (720, 1280, 3) for r in res)
    assert res[0].state.lcd == 5
    last = res[-1].state
    assert last.seat(1).high == ["As"]
    assert last.t == last.frame / 25.0 and last.frame % 2 == 0 and 10 < last.frame < 30


def test_watch_with_ticks_yields_every_analysed_frame_the_changes_as_without(tmp_path: Path) -> None:
    """``ticks``: each frame analysed that changes nothing comes too, as the state last yielded stamped
    with that frame (no picture); the changes are those ``watch`` gives without them."""
    lay, clip = _clip_with_a_card_dealt(tmp_path)
    cfg = PipelineConfig(analyse_fps=12.5)
    plain = list(watch(clip, lay, detector=ColourDetector(), config=cfg))
    ticked = list(watch(clip, lay, detector=ColourDetector(), config=cfg, ticks=True))
    changes = [r for r in ticked if not r.tick]
    assert [r.state for r in changes] == [r.state for r in plain] and not any(r.tick for r in plain)
    ticks = [r for r in ticked if r.tick]
    assert ticks and all(r.image is None for r in ticks)
    frames_seen = [r.state.frame for r in ticked]
    assert frames_seen == sorted(set(frames_seen))  # one a frame, forward
    assert not ticked[0].tick  # none before the first state
    said = None
    for r in ticked:
        if r.tick:
            assert said is not None
            assert r.state.model_dump(exclude={"frame", "t"}) == said.model_dump(exclude={"frame", "t"})
            assert r.state.t == r.state.frame / 25.0
        else:
            said = r.state
    # every frame analysed from the first state on comes, a change or a tick (every other frame)
    assert frames_seen == list(range(frames_seen[0], 30, 2))


def _live_feed_that_drops(
    before: list[np.ndarray], after: list[np.ndarray], gap_s: float
) -> tuple[Callable[..., Iterator[Frame]], list[dict[str, object]]]:
    """A stand-in for ``vision.sources.iter_frames`` giving a camera's frames at 25 fps, a drop (the
    source's lost marker), then the camera back ``gap_s`` later; and the keywords it was called with."""
    url = "rtsp://cam/table7"
    frames = [Frame(i, i / 25, img, url, True) for i, img in enumerate(before)]
    n = len(before)
    frames.append(Frame(n - 1, n / 25, None, url, True, lost=True))
    frames += [Frame(n + i, n / 25 + gap_s + i / 25, img, url, True) for i, img in enumerate(after)]
    seen: list[dict[str, object]] = []

    def fake(source: object, **kw: object) -> Iterator[Frame]:
        seen.append(kw)
        yield from frames

    return fake, seen


def test_a_live_feed_that_drops_gives_a_lost_state_then_the_table_seen_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The camera drops: the table as last seen, marked ``feed_lost`` at the drop's time, with the last
    analysed picture as its evidence; the first frame after it gives the table again although nothing
    changed (else the watch would go on saying the feed is lost). A surveillance feed is waited for."""
    import vision.pipeline

    lay = make_layout()
    t = SynthTable(lay, lcd=5)
    before = [t.frame(i) for i in range(30)]
    after = [t.frame(i) for i in range(30, 40)]
    fake, calls = _live_feed_that_drops(before, after, gap_s=20.0)
    monkeypatch.setattr(vision.pipeline, "iter_frames", fake)
    res = list(
        watch("rtsp://cam/table7", lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5))
    )
    assert calls[0]["reconnect_tries"] is None
    lost = [i for i, r in enumerate(res) if r.state.feed_lost]
    assert len(lost) == 1 and 0 < lost[0] < len(res) - 1
    gone, back = res[lost[0]], res[lost[0] + 1]
    assert gone.state.t == pytest.approx(30 / 25) and gone.state.lcd == 5
    # its frame is the last one analysed (every other frame at 12.5 fps), its picture that frame's
    assert gone.state.frame == 28 and gone.image is before[28]
    assert not back.state.feed_lost and back.state.t >= 30 / 25 + 20.0 and back.state.lcd == 5
    assert back.image is after[back.state.frame - 30]
    assert [r.state.feed_lost for r in res[lost[0] + 1 :]] == [False] * (len(res) - lost[0] - 1)


def test_a_card_put_down_while_the_feed_was_lost_is_in_the_state_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.pipeline

    lay = make_layout()
    t = SynthTable(lay, lcd=5)
    before = [t.frame(i) for i in range(30)]
    t.cards = [("As", 250, 620)]
    after = [t.frame(i) for i in range(30, 60)]
    fake, _ = _live_feed_that_drops(before, after, gap_s=5.0)
    monkeypatch.setattr(vision.pipeline, "iter_frames", fake)
    res = list(
        watch("rtsp://cam/table7", lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5))
    )
    i = next(i for i, r in enumerate(res) if r.state.feed_lost)
    assert res[i].state.seat(1).high == []
    assert not res[-1].state.feed_lost and res[-1].state.seat(1).high == ["As"]


def test_a_camera_giving_a_smaller_picture_is_read_with_the_layout_scaled_to_it(tmp_path: Path) -> None:
    """A table calibrated on the camera's main stream and watched on its sub-stream (or a recorder's
    copy at another resolution): the same view, smaller. It had crashed (AttributeError in the quiet
    test); the layout's zones are now scaled to the picture."""
    import cv2

    lay = make_layout()  # calibrated on 1280x720
    t = SynthTable(lay, lcd=5)
    frames = [t.frame(i) for i in range(10)]
    t.cards = [("As", 250, 620)]
    frames += [t.frame(i) for i in range(10, 30)]
    small = [cv2.resize(f, (960, 540), interpolation=cv2.INTER_AREA) for f in frames]
    clip = write_clip(tmp_path / "sub.avi", small, fps=25.0)
    res = list(watch(clip, lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5)))
    assert all(r.image.shape == (540, 960, 3) for r in res)
    assert res[0].state.lcd == 5 and res[0].state.seat(1).high == []
    assert res[-1].state.seat(1).high == ["As"] and res[-1].state.lcd == 5


def test_a_picture_of_another_shape_than_calibrated_is_an_error_naming_layout_source_and_frame(
    tmp_path: Path,
) -> None:
    """A 4:3 picture of a table calibrated on 16:9 may be a cropped view: every zone would be off."""
    import cv2

    from vision.layout import LayoutError

    path = tmp_path / "table.layout.yaml"
    make_layout().dump(path)
    lay = load_layout(path)
    t = SynthTable(lay, lcd=5)
    clip = write_clip(tmp_path / "cam.avi", [cv2.resize(t.frame(i), (640, 480)) for i in range(6)])
    with pytest.raises(LayoutError) as e:
        list(watch(clip, lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5)))
    msg = str(e.value)
    assert str(path) in msg and "1280x720" in msg and "640x480" in msg and f"{clip} frame 0" in msg
    with pytest.raises(LayoutError, match="frame 3: the picture is 640x480"):
        TablePipeline(lay, ColourDetector(), CFG).process(3, 0.1, cv2.resize(t.frame(3), (640, 480)))


def test_a_stream_whose_picture_changes_size_is_read_afresh_at_the_new_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The camera set up again mid-stream (main stream to sub-stream): the table is read again at the
    new size, not through the old zones."""
    import cv2

    import vision.pipeline

    lay = make_layout()
    t = SynthTable(lay, lcd=5)
    before = [t.frame(i) for i in range(20)]
    t.cards = [("As", 250, 620)]
    after = [cv2.resize(t.frame(i), (640, 360), interpolation=cv2.INTER_AREA) for i in range(20, 50)]
    url = "rtsp://cam/table7"
    frames = [Frame(i, i / 25, img, url, True) for i, img in enumerate(before + after)]
    monkeypatch.setattr(vision.pipeline, "iter_frames", lambda source, **kw: iter(frames))
    res = list(watch(url, lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5)))
    assert res[0].state.seat(1).high == [] and res[0].image.shape == (720, 1280, 3)
    assert res[-1].state.seat(1).high == ["As"] and res[-1].image.shape == (360, 640, 3)
    assert res[-1].state.lcd == 5


def test_watch_paced_delivers_a_file_no_faster_than_a_camera(tmp_path: Path) -> None:
    import time

    lay = make_layout()
    t = SynthTable(lay, lcd=5)
    frames = [t.frame(i) for i in range(5)]
    t.cards = [("As", 250, 620)]
    frames += [t.frame(i) for i in range(5, 25)]  # 1 s of footage at 25 fps
    clip = write_clip(tmp_path / "c.avi", frames, fps=25.0)
    cfg = PipelineConfig(analyse_fps=12.5)
    t0 = time.monotonic()
    res = []
    for r in watch(clip, lay, detector=ColourDetector(), config=cfg, pace=2.0):  # twice real time
        res.append((r.state.t, time.monotonic() - t0))
    # each state comes no earlier than its footage time / 2 after the clip began
    assert res and all(wall >= ft / 2.0 - 0.02 for ft, wall in res)
    assert res[-1][0] > 0.2  # the card's state, a few frames in


def test_cli_watch_prints_json_and_text(tmp_path: Path) -> None:
    lay = make_layout()
    lp = tmp_path / "lay.yaml"
    lay.dump(lp)
    t = SynthTable(lay, lcd=2)
    frames = [t.frame(i) for i in range(8)]
    t.cards = [("Qh", 250, 620)]
    frames += [t.frame(i) for i in range(8, 20)]
    clip = write_clip(tmp_path / "c.avi", frames, fps=25.0)
    det = "test_pipeline_synth:ColourDetector"
    r = CliRunner().invoke(app, ["watch", str(clip), "--layout", str(lp), "--json", "--detector", det])
    assert r.exit_code == 0, r.output
    states = [TableState.model_validate_json(line) for line in r.output.splitlines()]
    assert states[-1].seat(1).high == ["Qh"] and states[0].lcd == 2
    r = CliRunner().invoke(app, ["watch", str(clip), "--layout", str(lp), "--detector", det])
    assert r.exit_code == 0 and "seat1.high=Qh" in r.output and "lcd=2" in r.output
    r = CliRunner().invoke(app, ["watch", str(tmp_path / "none.mp4"), "--layout", str(lp), "--detector", det])
    assert r.exit_code == 1 and "none.mp4: no such file" in r.output


def test_config_is_validated() -> None:
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="stable_frames"):
        PipelineConfig(stable_frames=0)
    assert json.loads(PipelineConfig().model_dump_json())["analyse_fps"] == 12.5
    assert np.isfinite(CFG.zone_occlusion_fraction)


def test_arm_over_the_high_hand_leaves_the_low_hand_readable() -> None:
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 250, 620), ("Kd", 330, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    t.arm = (300.0, 640.0)  # the hand rests on seat 1's high hand (x 150-480); the low area is clear
    _run(p, t, 3, 8)
    t.cards.append(("Qh", 560, 620))  # a card put in the low area meanwhile
    states = _run(p, t, 8, 11)
    s = states[-1]
    assert "seat1.high" in s.occluded and "seat1.low" not in s.occluded
    assert (s.seat(1).high, s.seat(1).low) == (["As", "Kd"], ["Qh"])


def test_a_sleeve_resting_over_part_of_a_zone_is_not_read_as_a_card() -> None:
    """A sleeve the detector takes for a card back rests still over a quarter of the dealer's hand zone
    (too little to hide it): what is found lying on the arm is not on the felt, so the zone counts as
    hidden and keeps what it held; once the arm has gone it is read again."""
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 700, 335)])  # in the dealer's high area
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    t.arm, t.arm_colour = (700.0, 200.0), PALETTE["BACK"]  # over the hand zone (x 650-1150), not the high
    seen = _run(p, t, 12, 8)
    t.arm = None
    seen += _run(p, t, 8, 20)
    assert seen and all(s.dealer.hand == [] and s.dealer.high == ["As"] for s in seen)
    assert any("dealer.hand" in s.occluded for s in seen) and seen[-1].occluded == []
    # a card the dealer then lays in that zone is read once his arm has gone
    t.cards.append(("Kd", 1000, 205))
    t.arm = (700.0, 200.0)
    _run(p, t, 6, 28)
    t.arm = None
    assert _run(p, t, 8, 34)[-1].dealer.hand == ["Kd"]


def test_a_sleeve_in_the_crops_corner_too_small_for_an_arm_is_not_a_card_until_it_has_lain_long() -> None:
    """b44-0000: the dealer's dark sleeve reached into the corner of the dealer's crop, a changed blob
    of 2 % of it (an arm is 3 %), and was boxed as a back the crop's edge cuts: a back on a changed blob
    from the edge is what reaches in, and the zone counts as hidden. A back that lies there still for
    ``edge_read_after_s`` is a card pushed half out of the area, and is read."""
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 700, 335)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    start = 8
    for arm in [(1190.0, 150.0), (1195.0, 140.0)]:  # the dealer crop's top-right corner is (1162, 138)
        t.arm, t.arm_colour = arm, PALETTE["BACK"]
        seen = _run(p, t, 12, start)
        assert seen and all(s.dealer.hand == [] for s in seen), arm
        assert any("dealer.hand" in s.occluded for s in seen)
        t.arm = None
        assert _run(p, t, 8, start + 12)[-1].occluded == []
        start += 20
    # a back pushed half across the crop's edge (44 of 63 mm in it) lies still: after 2 s it is read;
    # one mostly beyond the crop's edge (13.5 mm in it, by the high area) is never read: its card's
    # centre lies outside the crop (card_centres)
    t.cards += [("BACK", 1150, 205), ("BACK", 570, 335)]
    seen = _run(p, t, 40, start)
    early = [s for s in seen if s.t < start / 12.5 + CFG.edge_read_after_s]
    assert early and all(s.dealer.hand == [] for s in early)
    assert seen[-1].dealer.hand == ["BACK"] and all(s.dealer.high == ["As"] for s in seen)


def test_watch_a_folder_starts_each_clip_afresh(tmp_path: Path) -> None:
    lay = make_layout()
    a = SynthTable(lay, lcd=3, cards=[("As", 250, 620)])
    b = SynthTable(lay, lcd=6)
    write_clip(tmp_path / "a.avi", [a.frame(i) for i in range(12)], fps=25.0)
    write_clip(tmp_path / "b.avi", [b.frame(i) for i in range(12)], fps=25.0)
    res = [
        r.state
        for r in watch(tmp_path, lay, detector=ColourDetector(), config=PipelineConfig(analyse_fps=12.5))
    ]
    lcds = [s.lcd for s in res]
    assert lcds[0] == 3 and lcds[-1] == 6
    first_b = next(s for s in res if s.lcd == 6)
    assert first_b.seat(1).high == [] and first_b.frame < 12 and first_b.t < 0.5  # b's own time


def test_reads_a_payout_beside_the_bet_and_a_wager_taken() -> None:
    """The payout spot is read by the chips reader like a bet circle (``SeatState.payout``)."""
    lay = make_layout(payout=True)
    t = SynthTable(lay, chips={1, 2, 3})
    p = TablePipeline(lay, ColourDetector(), CFG)
    s = _run(p, t, 8, 0)[-1]
    assert [(x.chips, x.payout) for x in s.seats] == [(True, False)] * 3
    t.payouts, t.chips = {1}, {1, 3}  # seat 1 paid, seat 2's wager taken, seat 3 left
    s = _run(p, t, 8, 8)[-1]
    assert [(x.chips, x.payout) for x in s.seats] == [(True, True), (False, False), (True, False)]


def test_an_arms_shadow_reaching_into_a_payout_spot_is_no_payout() -> None:
    """s13 under a warm cast (benchmarks/camera_conditions.py): the dealer's arm, dealing beside seat 2,
    cast its shadow over the seat's empty payout spot from the spot's edge for 0.7 s: its dark part was
    too little of the spot to hide it, its warm half-shade (not the felt darkened) lay over the spot's
    middle, and the spot was read as a payout. A bet circle or payout spot that something reaches into
    from outside is read once it has gone; a payout put down meanwhile is read then."""
    lay = make_layout(payout=True)
    t = SynthTable(lay, chips={1})
    p = TablePipeline(lay, ColourDetector(), CFG)

    def seat1(n: int, start: int) -> list[tuple[bool, bool] | None]:  # None: warming up
        out: list[tuple[bool, bool] | None] = []
        for i in range(start, start + n):
            p.process(i, i / 12.5, t.frame(i))
            s = p.state_now(i, i / 12.5)
            out.append(None if s is None else (s.seat(1).chips, s.seat(1).payout))
        return out

    assert seat1(8, 0)[-1] == (True, False)
    # seat 1's payout spot: centre (460, 875), radius 35; the shadow reaches in from its left
    dark = [(400.0, 830.0), (438.0, 830.0), (438.0, 920.0), (400.0, 920.0)]
    half = [(438.0, 830.0), (462.0, 830.0), (462.0, 920.0), (438.0, 920.0)]
    t.shade = [(dark, (20, 55, 45)), (half, (35, 80, 48))]
    assert seat1(12, 8) == [(True, False)] * 12  # lying still for 1 s
    t.shade = []
    assert seat1(8, 20) == [(True, False)] * 8
    # a payout put down while the shadow still reaches in is read once it has gone
    t.shade, t.payouts = [(dark, (20, 55, 45))], {1}
    assert seat1(6, 28) == [(True, False)] * 6
    t.shade = []
    assert seat1(8, 34)[-1] == (True, True)


def test_an_arms_shadow_soon_after_the_lights_dimmed_is_no_payout() -> None:
    """s10 with the lights dimmed (benchmarks/camera_conditions.py): every spot changed when the lights
    dimmed, and the dealer's arm came over seat 3's empty payout spot 1.6 s later: lying still for 0.4 s
    it was taken for something lying there since the lights changed, over 2 s, and read as a payout.
    What reaches in is read through once it has lain still for ``edge_read_after_s`` since it last
    moved."""
    lay = make_layout(payout=True)
    t = SynthTable(lay, chips={1})
    p = TablePipeline(lay, ColourDetector(), CFG)
    paid: list[bool] = []
    for i in range(70):
        t.light = 1.0 if i < 8 else 0.65  # the lights dim at frame 8 (0.64 s)
        if i == 28:  # 1.6 s later a sleeve and its shadow come over the payout spot, still for 2.5 s
            sleeve = [(438.0, 830.0), (462.0, 830.0), (462.0, 920.0), (438.0, 920.0)]
            t.shade = [([(400.0, 830.0), (438.0, 830.0), (438.0, 920.0), (400.0, 920.0)], (20, 55, 45))]
            t.shade.append((sleeve, (90, 60, 40)))
        if i == 60:
            t.shade = []
        p.process(i, i / 12.5, t.frame(i))
        s = p.state_now(i, i / 12.5)
        if s is not None:
            paid.append(s.seat(1).payout)
    # the shadow still for 2 s (frame 53 on) may be read through: something lying there
    assert len(paid) >= 53 and not any(paid[: 53 - (70 - len(paid))])


def test_a_layout_without_payout_spots_reads_no_payout() -> None:
    lay = make_layout()
    t = SynthTable(lay, chips={1})
    p = TablePipeline(lay, ColourDetector(), CFG)
    s = _run(p, t, 8, 0)[-1]
    assert [(x.chips, x.payout) for x in s.seats] == [(True, False), (False, False), (False, False)]


class _Flickering(SynthTable):
    """The table under lights beating against the shutter: every frame lighter or darker by up to 8
    levels (a 5 Hz beat at 12.5 fps), as the flicker condition of ``benchmarks/camera_conditions.py``."""

    def frame(self, seed: int = 0) -> np.ndarray:
        shift = round(8 * np.sin(2 * np.pi * 5 * seed / 12.5 + 0.3))
        return np.clip(super().frame(seed).astype(np.int16) + shift, 0, 255).astype(np.uint8)


def _states_and_steps(
    quiet: bool, monkeypatch: pytest.MonkeyPatch, flicker: bool = False
) -> tuple[list[dict[str, object]], int]:
    """A round's worth of changes (cards dealt, an arm over them, a card slid, a chip placed) through
    the pipeline: its states, and how many region steps it ran. ``quiet=False``: every region stepped
    every frame (the shortcut off); ``flicker``: under flickering lights."""
    lay = make_layout()
    t = (_Flickering if flicker else SynthTable)(lay, lcd=2, chips={1})
    p = TablePipeline(lay, ColourDetector(), CFG)
    if not quiet:
        monkeypatch.setattr(p, "_quiet", lambda w, thumb: False)
    steps = 0
    step = p._step

    def counted(*a: object) -> object:
        nonlocal steps
        steps += 1
        return step(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(p, "_step", counted)
    states = _run(p, t, 10, 0)
    t.cards = [("As", 250, 620), ("Kd", 330, 620)]
    states += _run(p, t, 10, 10)
    t.arm = (300.0, 650.0)
    states += _run(p, t, 4, 20)
    t.cards = [("As", 560, 620), ("Kd", 330, 620)]
    states += _run(p, t, 4, 24)
    t.arm = None
    states += _run(p, t, 10, 28)
    t.chips = {1, 2}
    states += _run(p, t, 10, 38)
    return [s.model_dump() for s in states], steps


def test_a_region_as_still_as_at_its_last_quiet_step_is_not_stepped_and_the_states_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``TablePipeline._quiet``: a region whose thumbnail has not changed since a step found nothing
    changed in it is not rectified and tested again; the states are those of stepping every region
    every frame."""
    with_shortcut, steps = _states_and_steps(True, monkeypatch)
    every, all_steps = _states_and_steps(False, monkeypatch)
    assert with_shortcut == every
    assert with_shortcut[-1]["seats"][1]["chips"] is True  # the chip placed at the end was seen
    assert steps < 0.5 * all_steps


def test_under_flickering_lights_a_still_region_stays_quiet_and_the_states_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lights beating against the shutter move every level of the picture alike, frame to frame: the
    quiet test takes that move out (``_quiet_but_recoded``), so a still region is not stepped again at
    every frame (the flicker condition: 233 of 10,710 quiet tests passed, 9,289 on the clean clip), and
    the states are still those of stepping every region every frame."""
    with_shortcut, steps = _states_and_steps(True, monkeypatch, flicker=True)
    every, all_steps = _states_and_steps(False, monkeypatch, flicker=True)
    assert with_shortcut == every
    assert with_shortcut[-1]["seats"][1]["chips"] is True
    assert steps < 0.5 * all_steps


def test_the_quiet_test_forgives_a_change_of_light_and_sparse_recoding_noise_not_a_change() -> None:
    from vision.pipeline import _quiet_but_recoded

    rng = np.random.default_rng(1)
    quiet = rng.integers(60, 200, (40, 60, 3)).astype(np.uint8)

    def shifted(by: int) -> np.ndarray:
        return np.clip(quiet.astype(np.int16) + by, 0, 255).astype(np.int16)

    lit = shifted(7)
    noisy = lit.copy()
    noisy[rng.integers(0, 40, 10), rng.integers(0, 60, 10), 1] += 11  # a few blocks at edges, re-coded
    assert _quiet_but_recoded(noisy.clip(0, 255).astype(np.uint8), quiet)
    card = lit.copy()
    card[10:16, 20:25] += 40  # a card's corner coming in: a few blocks by tens of levels
    assert not _quiet_but_recoded(card.clip(0, 255).astype(np.uint8), quiet)
    assert not _quiet_but_recoded(shifted(20).clip(0, 255).astype(np.uint8), quiet)  # more than a flicker
    dense = lit + rng.integers(-9, 10, lit.shape)  # every block moved: not sparse noise
    assert not _quiet_but_recoded(dense.clip(0, 255).astype(np.uint8), quiet)


def test_the_quiet_test_in_opencv_decides_as_its_rule_says_in_numpy() -> None:
    """``_quiet_but_recoded`` works in OpenCV (each channel's shift a Scalar taken from a signed 16-bit
    difference): the same answers as the rule written out in numpy, shifts of half a level included
    (rounded to even either way), on patches near each of its limits."""
    from vision.pipeline import _QUIET_HARD, _QUIET_LEVEL, _QUIET_SHIFT, _QUIET_SPARSE, _quiet_but_recoded

    def rule(patch: np.ndarray, quiet: np.ndarray) -> bool:
        shift = patch.reshape(-1, 3).mean(axis=0) - quiet.reshape(-1, 3).mean(axis=0)
        if np.abs(shift).max() > _QUIET_SHIFT:
            return False
        diff = np.abs(patch.astype(np.int16) - (quiet.astype(np.int16) + np.round(shift).astype(np.int16)))
        if diff.max() >= _QUIET_HARD:
            return False
        return bool(np.count_nonzero(diff >= _QUIET_LEVEL) <= _QUIET_SPARSE * diff.size)

    rng = np.random.default_rng(3)
    answers = []
    for i in range(400):
        if i % 5 == 0:  # two pixels, one channel of one of them 1 or 3 levels up: a shift of 0.5 or 1.5
            quiet = rng.integers(0, 250, (1, 2, 3)).astype(np.uint8)
            patch = quiet.copy()
            patch[0, 0, i % 3] += 1 + 2 * (i % 2)
        else:
            h, w = int(rng.integers(2, 30)), int(rng.integers(2, 40))
            quiet = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
            spread = int(rng.integers(0, 22))
            moved = quiet.astype(np.int64) + rng.integers(-17, 18, 3)
            patch = (moved + rng.integers(-spread, spread + 1, (h, w, 3))).clip(0, 255).astype(np.uint8)
        got = _quiet_but_recoded(patch, quiet)
        assert got == rule(patch, quiet), i
        answers.append(got)
    assert 40 < sum(answers) < 360  # both answers given, often


def test_a_change_in_one_colour_only_wakes_a_quiet_region() -> None:
    """The thumbnail is in colour: a chip as light as the felt (a blue chip on green felt) changes no
    grey level but still wakes the bet circle's region."""
    import cv2

    from vision.pipeline import _THUMB, shrunk_frame

    lay = make_layout()
    t = SynthTable(lay)
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 12, 0)
    img = t.frame(12)
    w = next(w for w in p._watch if w.region.name == "seat2.bet")
    thumb = shrunk_frame(img)[_THUMB]
    assert p._quiet(w, thumb)  # nothing changed
    x0, y0, x1, y1 = w.box  # type: ignore[misc]
    cx, cy = _THUMB * (x0 + x1) // 2, _THUMB * (y0 + y1) // 2
    chip = img.astype(np.int16)
    chip[cy - 12 : cy + 12, cx - 12 : cx + 12] += np.array([40, -8, 0], np.int16)  # bluer, as light
    chip8 = np.clip(chip, 0, 255).astype(np.uint8)
    grey = [cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(int) for x in (img, chip8)]
    assert np.abs(grey[0] - grey[1]).max() <= 1  # no grey level moved
    assert not p._quiet(w, shrunk_frame(chip8)[_THUMB])


def test_the_thumbnail_is_the_frames_block_means() -> None:
    """Halved twice, the thumbnail gives each 4x4 block's mean (to a level of rounding), on any size."""
    import cv2

    from vision.pipeline import _THUMB, shrunk_frame

    rng = np.random.default_rng(3)
    for h, w in ((720, 1280), (363, 641)):
        img = rng.integers(0, 256, (h, w, 3), np.uint8)
        if h % 4:  # a picture (smooth), not noise: a block shifted by a pixel is then about the same
            yy, xx = np.mgrid[0:h, 0:w]
            img = np.stack([xx * 255 // w, yy * 255 // h, (xx + yy) * 127 // (w + h)], 2).astype(np.uint8)
        thumb = shrunk_frame(img)[_THUMB]
        assert thumb.shape == (h // _THUMB, w // _THUMB, 3)
        means = img[: h // 4 * 4, : w // 4 * 4].reshape(h // 4, 4, w // 4, 4, 3).mean((1, 3))
        if h % 4 == 0 and w % 4 == 0:
            assert np.abs(thumb - means).max() <= 1.0
            area = cv2.resize(img, (w // _THUMB, h // _THUMB), interpolation=cv2.INTER_AREA)
            assert np.abs(thumb.astype(int) - area).max() <= 1
        else:  # an odd size's second halving weighs blocks a little differently: close all the same
            assert np.abs(thumb - means).max() <= 2.0


class _PhantomBySleeve(ColourDetector):
    """``ColourDetector``, and a phantom index read (a 5d at 0.4) on the right edge of a sleeve lying over
    the 9h's top-left corner: the detector's read of a sleeve's edge on a card's corner."""

    def detect(self, image: np.ndarray) -> Detections:
        d = super().detect(image)
        sleeve = colour_mask(image, SLEEVE) > 0
        nine = colour_mask(image, PALETTE["9h"]) > 0
        if sleeve.sum() < 200 or not nine.any():
            return d
        y0 = int(np.flatnonzero(nine.any(axis=1))[0])
        x1 = int(np.flatnonzero(sleeve[y0 + 5])[-1]) if sleeve[y0 + 5].any() else None
        if x1 is None:
            return d
        box = np.array([[x1 - 12, y0, x1 + 10, y0 + 34]], np.float32)  # the card's corner, on the sleeve
        return Detections.merge([d, Detections(box, np.array([CLASSES.index("5d")]), np.array([0.4]))])


SLEEVE = (235, 235, 235)


def test_a_face_read_on_a_sleeve_passing_beside_a_zone_is_not_a_card_there() -> None:
    """b52-0009 (seed 52, 720p): the dealer's white sleeve passed beside his low hand (a 6s) reaching
    for seat 4, not over the zone itself; a 5s read at 0.40 on the sleeve's edge beside the card was
    taken for a second card there, and CARD-COUNT alerted on the dealer's 6-card hand set with 7. A
    zone read while an arm moves in its crop counts as hidden when a face it holds read with doubt
    lies on the arm."""
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 700, 335), ("9h", 965, 335)])  # the 9h overhangs the low area
    p = TablePipeline(lay, _PhantomBySleeve(), CFG)
    _run(p, t, 8, 0)
    t.arm, t.arm_colour = (875.0, 420.0), SLEEVE  # from the far edge, over the 9h's edge, not the area
    seen = _run(p, t, 12, 8)
    t.arm = None
    seen += _run(p, t, 8, 20)
    assert seen and all(s.dealer.low == ["9h"] for s in seen)


def test_a_frame_shrunk_as_it_was_decoded_gives_the_same_states_and_a_misfit_one_is_made_again() -> None:
    """``process(..., shrunk)``: ``watch`` has the frame's block means made as it is decoded
    (``iter_frames``' ``prepare``); the states are those of making them in ``process``, and means of
    another picture's size are not used."""
    from vision.pipeline import shrunk_frame

    lay = make_layout()

    def states(shrink: str) -> list[dict[str, object]]:
        t = SynthTable(lay, lcd=2, chips={1})
        p = TablePipeline(lay, ColourDetector(), CFG)
        out = []
        for i in range(30):
            if i == 10:
                t.cards = [("As", 250, 620), ("Kd", 330, 620)]
            if i == 20:
                t.chips = {1, 2}
            img = t.frame(i)
            given = {
                "none": None,
                "made": shrunk_frame(img),
                "misfit": shrunk_frame(img[: img.shape[0] // 2]),
            }[shrink]
            s = p.process(i, i / 12.5, img, given)
            if s is not None:
                out.append(s.model_dump())
        return out

    plain = states("none")
    assert plain[-1]["seats"][1]["chips"] is True  # type: ignore[index]
    assert states("made") == plain
    assert states("misfit") == plain


def test_the_pipeline_keeps_numpys_blas_to_one_thread() -> None:
    """numpy's OpenBLAS spins a worker per core after each product it shares out, on the cores the
    decoder and stage 1 use (a third of a 720p replay's CPU: vision._blas). Building the pipeline
    limits it, in a fresh process; and does so to the same bits (one thread computes the products
    the pipeline makes exactly as the pool does)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from threadpoolctl import threadpool_info\n"
        "from test_pipeline_synth import ColourDetector, make_layout\n"
        "from vision.pipeline import TablePipeline\n"
        "import vision._blas as b\n"
        "assert not b._limited\n"
        "TablePipeline(make_layout(), ColourDetector())\n"
        "blas = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "print(b._limited, blas)\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    limited, blas = out.stdout.strip().split(" ", 1)
    assert limited == "True" and json.loads(blas) and set(json.loads(blas)) == {1}, out.stdout


@pytest.mark.parametrize("arm_x", [290.0, 330.0, 390.0])
def test_a_sleeve_resting_on_a_spread_does_not_lose_the_card_under_it(arm_x: float) -> None:
    """A still arm on a zone is read through where, the cards found taken away, it covers too little
    of the zone to hide it; a read there finding fewer cards than the zone held is not taken: the
    arm hides a card whose neighbours' bodies it lies across. b87-0000 (seed 87, 720p): seat 3's
    high hand read 5d 3d for 2 s, its three other cards under the dealer's arm. Here a dark sleeve
    rests on one card of four (before the forty-first session: the hand read three cards)."""
    lay = make_layout()
    t = SynthTable(lay, cards=[("As", 200, 620), ("Kd", 270, 620), ("Qh", 340, 620), ("Jc", 410, 620)])
    p = TablePipeline(lay, ColourDetector(), CFG)
    _run(p, t, 8, 0)
    t.arm, t.arm_colour = (arm_x, 600.0), (90, 60, 40)
    seen = _run(p, t, 12, 8)
    t.arm = None
    seen += _run(p, t, 8, 20)
    assert seen and all(s.seat(1).high == ["As", "Kd", "Qh", "Jc"] for s in seen)


def test_a_small_crop_with_its_smooth_twin_has_changed_only_where_both_have() -> None:
    """The change test on a region's small crop and its smooth twin (block means: a camera's noise
    averaged away), each given as its own array: a pixel changed where both differ by more than the
    level in some channel; a reference of another kind (no twin) counts everything changed."""
    from vision.pipeline import _changed

    sharp = np.zeros((4, 5, 3), np.uint8)
    smooth = np.zeros((4, 5, 3), np.uint8)
    sharp2, smooth2 = sharp.copy(), smooth.copy()
    sharp2[0, 0, 2] = sharp2[1, 1, 0] = sharp2[2, 2, 1] = 200  # noise in the sharp crop alone at (1, 1)...
    smooth2[0, 0, 1] = smooth2[2, 2, 2] = 90  # ...the smooth one agrees at (0, 0) and (2, 2)
    smooth2[3, 4] = 255  # and changed alone here
    got = _changed((sharp2, smooth2), (sharp, smooth), 30)
    assert got.shape == (4, 5) and sorted(zip(*np.nonzero(got), strict=True)) == [(0, 0), (2, 2)]
    alone = _changed((sharp2,), (sharp,), 30)  # the sharp crop alone: its noise is change too
    assert sorted(zip(*np.nonzero(alone), strict=True)) == [(0, 0), (1, 1), (2, 2)]
    assert _changed((sharp2, smooth2), (sharp,), 30).all()  # a reference without its twin: all changed
    assert not _changed((sharp, smooth), (sharp, smooth), 0).any()
