"""A live watch runs for days: what it keeps must not grow with the rounds it has watched.

The sample footage's seven-card ground-truth states, fed twice over as one stream with its times
running on (``benchmarks/live_memory.py`` measures the same over hours), to the real engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from compliance.checks import ALL_CHECKS
from compliance.engine import Monitor
from compliance.live import StreamFrame, StreamProcessor, default_monitor, read_states
from vision.layout import TableLayout, load_layout
from vision.state import TableState

SAMPLE = Path(__file__).resolve().parent.parent / "sample_footage"
# what a check keeps that is bounded of itself, not per round (the settlement's memo of results,
# at most 4096 hands)
BOUNDED = {("Settlement", "_cache")}


@pytest.fixture(scope="module")
def layout() -> TableLayout:
    return load_layout(SAMPLE / "render-7card.layout.yaml")


@pytest.fixture(scope="module")
def clips() -> list[list[TableState]]:
    paths = sorted(SAMPLE.glob("s*-seven-*.states.jsonl"))
    assert len(paths) >= 5, "the sample's seven-card states files"
    return [list(read_states(p)) for p in paths]


def stream(clips: list[list[TableState]], passes: int) -> Iterator[TableState]:
    """The clips one after another, ``passes`` times, as one stream (each 2 s after the last)."""
    t_off, f_off = 0.0, 0
    for _ in range(passes):
        for seq in clips:
            for st in seq:
                s = st.model_copy(update={"t": st.t + t_off, "frame": st.frame + f_off})
                yield s
            t_off, f_off = s.t + 2.0, s.frame + 50


def run(layout: TableLayout, clips: list[list[TableState]], keep: int | None) -> StreamProcessor:
    proc = StreamProcessor(
        layout,
        default_monitor(layout, camera=False),
        source_name="long",
        evidence_dir=None,
        keep_rounds=keep,
    )
    for st in stream(clips, 2):
        proc.feed(StreamFrame(st))
    proc.finish()
    return proc


def test_a_bounded_watch_raises_every_alert_the_unbounded_one_does(
    layout: TableLayout, clips: list[list[TableState]]
) -> None:
    whole = run(layout, clips, None)
    kept = run(layout, clips, 3)
    rounds = len(whole.rounds)
    assert rounds >= 2 * len(clips) and whole.raised.total() >= 4
    # the same alerts, id for id, and the same counts by status
    assert [a.alert_id for a in kept.alerts] == [a.alert_id for a in whole.alerts][-len(kept.alerts) :]
    assert kept.raised == whole.raised
    # ... while only the last three closed rounds (and the one in play) are held
    assert len(kept.rounds) <= 4 < rounds
    assert [r.round for r in kept.rounds] == [r.round for r in whole.rounds][-len(kept.rounds) :]
    assert kept.rounds[-1] == whole.rounds[-1]  # the rounds kept are as whole as before
    assert len(kept.events) <= 3 * 64 < len(whole.events)
    assert list(kept.events) == list(whole.events)[-len(kept.events) :]


def test_forget_rounds_lets_go_of_each_checks_notes_on_the_rounds_gone(
    layout: TableLayout, clips: list[list[TableState]]
) -> None:
    monitor = default_monitor(layout, camera=False)
    assert isinstance(monitor, Monitor)
    for st in stream(clips, 1):
        monitor.feed(st)
    monitor.finish()
    before = [r.round for r in monitor.rounds]
    notes = sum(len(getattr(c, n)) for c in monitor._checks for n in c.per_round)
    assert len(before) > 3 and notes > 0
    assert monitor.forget_rounds(len(before)) == 0  # nothing to let go of
    assert monitor.forget_rounds(2) == len(before) - 2
    assert [r.round for r in monitor.rounds] == before[-2:]
    oldest = before[-2]
    for check in monitor._checks:
        for name in check.per_round:
            for key in getattr(check, name):
                assert (key[0] if isinstance(key, tuple) else key) >= oldest, (type(check).__name__, name)
    with pytest.raises(ValueError, match="keep must be >= 0"):
        monitor.forget_rounds(-1)


def test_every_check_keeps_its_notes_per_round_or_bounded(layout: TableLayout) -> None:
    """A dict or set a check keeps is either named in ``per_round`` (let go of with its round) or
    known to be bounded: a new check that keeps notes must say which."""
    monitor = default_monitor(layout, camera=False)
    assert isinstance(monitor, Monitor)
    assert {type(c) for c in monitor._checks} == set(ALL_CHECKS)
    for check in monitor._checks:
        name = type(check).__name__
        kept = {a for a, v in vars(check).items() if isinstance(v, dict | set)}
        assert kept - set(check.per_round) - {a for c, a in BOUNDED if c == name} == set(), name
        assert set(check.per_round) <= kept, name


def test_keep_rounds_must_keep_one(layout: TableLayout) -> None:
    with pytest.raises(ValueError, match="keep_rounds must be >= 1"):
        StreamProcessor(
            layout, default_monitor(layout, camera=False), source_name="x", evidence_dir=None, keep_rounds=0
        )
