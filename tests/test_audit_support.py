"""Small fixtures for the alerts / live / audit / evaluate tests: a tiny layout, table states that
play whole rounds, a fake Monitor with the engine's API, and a short synthetic video.

The fake Monitor is deliberately simple (it is not the engine): it raises DEALER-REVEAL-EARLY when
the dealer's cards are face up while an active seat still has cards unset, and rebuilds rounds from
what the table shows. The runners are tested against it so they do not depend on the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from compliance.events import (
    CHECK_RULES,
    CheckId,
    ClipTruth,
    Event,
    EventKind,
    Finding,
    HandRecord,
    RoundRecord,
)
from vision.layout import TableLayout
from vision.state import BACK, DealerState, SeatState, TableState

FPS = 10.0
SEAT_CARDS = {
    1: (["As", "Kd", "Qc", "Jh", "9s"], ["7d", "2c"]),
    2: (["Th", "Tc", "5s", "5d", "3h"], ["Kc", "Qd"]),
}
DEALER = (["Ah", "Ad", "8c", "6s", "4d"], ["Js", "9h"])


def _rect(x: float, y: float, w: float, h: float) -> list[dict[str, float]]:
    return [{"x": x, "y": y}, {"x": x + w, "y": y}, {"x": x + w, "y": y + h}, {"x": x, "y": y + h}]


def layout_dict(table_id: str = "T1") -> dict[str, object]:
    return {
        "table_id": table_id,
        "game": "seven-card",
        "image_width": 320,
        "image_height": 160,
        "table_width_mm": 1000,
        "table_height_mm": 500,
        "reference_points": [
            {"name": "a", "table": {"x": 0, "y": 0}, "image": {"x": 0, "y": 0}},
            {"name": "b", "table": {"x": 1000, "y": 0}, "image": {"x": 320, "y": 0}},
            {"name": "c", "table": {"x": 1000, "y": 500}, "image": {"x": 320, "y": 160}},
            {"name": "d", "table": {"x": 0, "y": 500}, "image": {"x": 0, "y": 160}},
        ],
        "seats": [
            {
                "seat": 1,
                "bet": _rect(100, 400, 80, 60),
                "high": _rect(50, 300, 150, 60),
                "low": _rect(220, 300, 80, 60),
            },
            {
                "seat": 2,
                "bet": _rect(600, 400, 80, 60),
                "high": _rect(550, 300, 150, 60),
                "low": _rect(720, 300, 80, 60),
            },
        ],
        "dealer": {
            "hand": _rect(350, 20, 300, 60),
            "high": _rect(350, 100, 180, 60),
            "low": _rect(550, 100, 100, 60),
        },
        "lcd": _rect(900, 20, 60, 40),
        "iverify": _rect(800, 20, 80, 40),
        "positions": ["seat1", "seat2", "dealer"],
    }


def write_layout(path: Path, table_id: str = "T1") -> TableLayout:
    lay = TableLayout.model_validate(layout_dict(table_id))
    lay.dump(path)
    return lay


def _state(table_id: str, t: float, **kw: object) -> TableState:
    return TableState(table_id=table_id, frame=round(t * FPS), t=t, **kw)  # type: ignore[arg-type]


def round_states(table_id: str, t0: float, *, early_reveal: bool) -> list[TableState]:
    """One round, 6 state changes 1 s apart; ``early_reveal``: dealer shows before seat 2 set."""
    backs7 = [BACK] * 7
    s = [SeatState(seat=n, chips=True, dealt=list(backs7)) for n in (1, 2)]
    out = [_state(table_id, t0, lcd=1, seats=s, dealer=DealerState(hand=list(backs7)))]
    set1 = SeatState(seat=1, chips=True, high=[BACK] * 5, low=[BACK] * 2)
    set2 = SeatState(seat=2, chips=True, high=[BACK] * 5, low=[BACK] * 2)
    faces = DEALER[0] + DEALER[1]
    if early_reveal:
        out.append(_state(table_id, t0 + 1, lcd=1, seats=[set1, s[1]], dealer=DealerState(hand=faces)))
        out.append(_state(table_id, t0 + 2, lcd=1, seats=[set1, set2], dealer=DealerState(hand=faces)))
    else:
        out.append(_state(table_id, t0 + 1, lcd=1, seats=[set1, set2], dealer=DealerState(hand=list(backs7))))
        out.append(_state(table_id, t0 + 2, lcd=1, seats=[set1, set2], dealer=DealerState(hand=faces)))
    dset = DealerState(high=DEALER[0], low=DEALER[1])
    out.append(_state(table_id, t0 + 3, lcd=1, seats=[set1, set2], dealer=dset))
    shown = [SeatState(seat=n, chips=True, high=SEAT_CARDS[n][0], low=SEAT_CARDS[n][1]) for n in (1, 2)]
    out.append(_state(table_id, t0 + 4, lcd=1, seats=shown, dealer=dset))
    out.append(_state(table_id, t0 + 5, seats=[SeatState(seat=n) for n in (1, 2)]))
    return out


def clip_states(table_id: str = "T1", pattern: tuple[bool, ...] = (False, True)) -> list[TableState]:
    """Rounds back to back, 6 s each, starting at t=0.5 (pattern: early reveal per round)."""
    out: list[TableState] = [_state(table_id, 0.0, seats=[SeatState(seat=n) for n in (1, 2)])]
    for i, bad in enumerate(pattern):
        out += round_states(table_id, 0.5 + 6 * i, early_reveal=bad)
    return out


def write_states(path: Path, states: list[TableState]) -> None:
    path.write_text("".join(s.model_dump_json() + "\n" for s in states))


def write_video(path: Path, seconds: float, size: tuple[int, int] = (320, 160)) -> None:
    """A tiny synthetic video: the frame number drawn on grey."""
    import cv2

    w, h = size
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (w, h))
    for i in range(int(seconds * FPS)):
        img = np.full((h, w, 3), 90, np.uint8)
        cv2.putText(img, str(i), (10, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
        vw.write(img)
    vw.release()


def truth_for(clip: str, layout_name: str, pattern: tuple[bool, ...] = (False, True)) -> ClipTruth:
    """The ground truth the fake monitor should reproduce for ``clip_states(pattern=...)``."""
    rounds = []
    for i, bad in enumerate(pattern):
        t0 = 0.5 + 6 * i
        hands = [
            HandRecord(
                position=f"seat{n}",
                seat=n,
                active=True,
                cards=SEAT_CARDS[n][0] + SEAT_CARDS[n][1],
                high=SEAT_CARDS[n][0],
                low=SEAT_CARDS[n][1],
                set_by="player",
            )
            for n in (1, 2)
        ]
        hands.append(
            HandRecord(
                position="dealer",
                active=True,
                cards=DEALER[0] + DEALER[1],
                high=DEALER[0],
                low=DEALER[1],
                set_by="dealer",
            )
        )
        findings = (
            [
                Finding(
                    round=i + 1,
                    check_id=CheckId.DEALER_REVEAL_EARLY,
                    seat=None,
                    t=t0 + 1,
                    frame=round((t0 + 1) * FPS),
                )
            ]
            if bad
            else []
        )
        rounds.append(
            RoundRecord(
                round=i + 1,
                game="seven-card",
                t_start=t0,
                t_end=t0 + 5,
                lcd=1,
                hands=hands,
                findings=findings,
            )
        )
    return ClipTruth(
        clip=clip,
        table_id="T1",
        game="seven-card",
        fps=FPS,
        frames=int((0.5 + 6 * len(pattern)) * FPS),
        layout=layout_name,
        seed=0,
        scenario="test",
        rounds=rounds,
    )


@dataclass
class FakeUpdate:
    events: list[Event] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


class FakeMonitor:
    """Stands in for compliance.engine.Monitor (same API), with one simple check."""

    def __init__(self, layout: TableLayout, house_way: object = None, config: object = None) -> None:
        self.layout = layout
        self._rounds: list[RoundRecord] = []
        self._cur: RoundRecord | None = None
        self._flagged = False

    @property
    def rounds(self) -> list[RoundRecord]:
        return list(self._rounds)

    def feed(self, st: TableState) -> FakeUpdate:
        up = FakeUpdate()
        busy = any(s.dealt or s.high or s.low for s in st.seats) or bool(st.dealer.hand or st.dealer.high)
        if busy and self._cur is None:
            self._cur = RoundRecord(
                round=len(self._rounds) + 1, game=self.layout.game, t_start=st.t, lcd=st.lcd
            )
            self._rounds.append(self._cur)
            self._flagged = False
            up.events.append(Event(round=self._cur.round, kind=EventKind.ROUND_START, t=st.t, frame=st.frame))
        cur = self._cur
        if cur is None:
            return up
        faces = [c for c in st.dealer.hand if c != BACK]
        unset = [s.seat for s in st.seats if s.chips and s.dealt]
        if faces and unset and not self._flagged:
            self._flagged = True
            f = Finding(
                round=cur.round,
                check_id=CheckId.DEALER_REVEAL_EARLY,
                seat=None,
                t=st.t,
                frame=st.frame,
                rule=CHECK_RULES[CheckId.DEALER_REVEAL_EARLY],
                expected="every active seat set first",
                observed=f"dealer cards {' '.join(faces)} exposed; seat(s) {unset} not set",
            )
            cur.findings.append(f)
            up.findings.append(f)
        if faces:
            up.events.append(
                Event(
                    round=cur.round,
                    kind=EventKind.DEALER_EXPOSED,
                    t=st.t,
                    frame=st.frame,
                    position="dealer",
                    cards=faces,
                )
            )
        if st.dealer.high:
            self._hand(cur, "dealer", None, st.dealer.high, st.dealer.low)
        for s in st.seats:
            if s.high and BACK not in s.high:
                self._hand(cur, f"seat{s.seat}", s.seat, s.high, s.low)
        if not busy:
            cur.t_end = st.t
            up.events.append(Event(round=cur.round, kind=EventKind.ROUND_END, t=st.t, frame=st.frame))
            self._cur = None
        cur.events.extend(up.events)
        return up

    @staticmethod
    def _hand(cur: RoundRecord, pos: str, seat: int | None, high: list[str], low: list[str]) -> None:
        cur.hands = [h for h in cur.hands if h.position != pos]
        cur.hands.append(
            HandRecord(
                position=pos,
                seat=seat,
                active=True,
                cards=high + low,
                high=high,
                low=low,
                set_by="dealer" if seat is None else "player",
            )
        )

    def finish(self) -> FakeUpdate:
        return FakeUpdate()


def fake_factory(layout: TableLayout, *, camera: bool = True) -> FakeMonitor:
    """Stands in for ``default_monitor`` (which takes ``camera``: the fake counts nothing)."""
    return FakeMonitor(layout)


def make_clip(
    folder: Path,
    name: str,
    *,
    pattern: tuple[bool, ...] = (False, True),
    video: bool = False,
    truth: bool = False,
    layout_name: str = "layout.yaml",
) -> Path:
    """A clip in ``folder``: states (+ video, + truth naming the layout); the layout file is written too."""
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / layout_name).exists():
        write_layout(folder / layout_name)
    states = clip_states(pattern=pattern)
    write_states(folder / f"{name}.states.jsonl", states)
    if video:
        write_video(folder / f"{name}.mp4", states[-1].t + 0.5)
    if truth:
        t = truth_for(f"{name}.mp4", layout_name, pattern)
        (folder / f"{name}.truth.json").write_text(t.model_dump_json(indent=1))
    return folder / f"{name}.states.jsonl"


def test_fake_monitor_flags_only_the_early_reveal_round(tmp_path: Path) -> None:
    lay = write_layout(tmp_path / "layout.yaml")
    mon = FakeMonitor(lay)
    found = [f for st in clip_states(pattern=(False, True, False)) for f in mon.feed(st).findings]
    assert [(f.round, f.check_id) for f in found] == [(2, CheckId.DEALER_REVEAL_EARLY)]
    assert len(mon.rounds) == 3 and all(r.t_end is not None for r in mon.rounds)
    assert json.loads(truth_for("x.mp4", "layout.yaml").model_dump_json())["rounds"][1]["findings"]
