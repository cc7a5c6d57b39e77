"""Render one clip: the director's frames through the camera into H.264, with all its ground truth.

Files written for a clip ``<name>`` (display_spec.md): ``<name>.mp4``, ``<name>.truth.json``
(``ClipTruth``), ``<name>.states.jsonl`` (true ``TableState`` at every change),
``<name>.boxes.jsonl.gz`` (card quads and boxes per frame), and the table's layout YAML beside them.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from compliance.events import ClipTruth
from render.artwork import VALIDATION_DECKS, ArtworkError, available_decks, deck_has_joker, load_deck
from render.director import FPS, Director, FrameScene
from render.draw import CardBox, FrameRenderer
from render.scenario import Scenario
from render.table import build_layout, write_layout
from vision.layout import Point, TableLayout
from vision.state import DealerState, IVerifyState, SeatState, TableState

__all__ = [
    "ClipStats",
    "RenderError",
    "layout_file_name",
    "plan_clip",
    "render_clip",
    "render_frames",
    "true_state",
]

_ART_SOURCE_WIDTH = 100  # card_width passed to load_deck (then resized for the frame)


class RenderError(RuntimeError):
    """Rendering failed (ffmpeg missing or failing, bad scenario content)."""


@dataclass
class ClipStats:
    frames: int
    seconds_rendering: float
    ms_per_frame: float
    bytes_video: int


def layout_file_name(layout: TableLayout) -> str:
    return f"{layout.table_id}.layout.yaml"


def _deck_for(scenario: Scenario, seed: int) -> str:
    deck = scenario.deck or VALIDATION_DECKS[seed % len(VALIDATION_DECKS)]
    try:
        known = available_decks()
    except ArtworkError as e:
        raise RenderError(str(e)) from e
    if deck not in known:
        raise RenderError(
            f"scenario {scenario.name!r}: deck {deck!r} is not installed; decks: {', '.join(known)}"
        )
    return deck


def plan_clip(
    scenario: Scenario, seed: int, image_size: tuple[int, int] | None = None
) -> tuple[TableLayout, Director]:
    """The layout and the played director (frames and truth), without drawing anything.

    ``image_size`` (width, height) is the camera's resolution; None: ``render.table``'s default."""
    layout = (
        build_layout(scenario.game)
        if image_size is None
        else build_layout(scenario.game, image_size=image_size)
    )
    if scenario.face_up_dealing:
        layout = layout.model_copy(update={"face_up_dealing": True})
    # a deck without a Joker (most KDE decks) is dealt from its 52 cards; None: a gnome validation deck
    try:
        joker = scenario.deck is None or deck_has_joker(scenario.deck)
    except ArtworkError as e:
        raise RenderError(f"scenario {scenario.name!r}: {e}") from e
    director = Director(scenario, layout, seed, joker=joker)
    director.run()
    return layout, director


class _Zones:
    """Image masks of the layout's zones, to say which ones the arm (or a cover) hides."""

    def __init__(self, layout: TableLayout) -> None:
        import cv2

        self.items: list[tuple[str, int, int, np.ndarray, int]] = []
        polys: list[tuple[str, list[Point]]] = []
        for s in layout.seats:
            polys += [
                (f"seat{s.seat}.bet", s.bet),
                (f"seat{s.seat}.high", s.high),
                (f"seat{s.seat}.low", s.low),
            ]
            if s.deal is not None:
                polys.append((f"seat{s.seat}.dealt", s.deal))
            if s.payout is not None:
                polys.append((f"seat{s.seat}.payout", s.payout))
        polys += [
            ("dealer.hand", layout.dealer.hand),
            ("dealer.high", layout.dealer.high),
            ("dealer.low", layout.dealer.low),
            ("lcd", layout.lcd),
            ("iverify", layout.iverify),
        ]
        for name, poly in polys:
            q = layout.to_image(poly)
            x0, y0 = max(int(q[:, 0].min()), 0), max(int(q[:, 1].min()), 0)
            x1 = min(int(np.ceil(q[:, 0].max())) + 1, layout.image_width)
            y1 = min(int(np.ceil(q[:, 1].max())) + 1, layout.image_height)
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(m, [np.round(q - [x0, y0]).astype(np.int32)], 255)
            self.items.append((name, x0, y0, m, max(1, cv2.countNonZero(m))))

    def occluded(self, mask: np.ndarray | None, threshold: float = 0.2) -> list[str]:
        if mask is None:
            return []
        import cv2

        out = []
        for name, x0, y0, m, area in self.items:
            roi = mask[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]]
            if cv2.countNonZero(cv2.bitwise_and(roi, m)) >= threshold * area:
                out.append(name)
        return out


def _true_state(layout: TableLayout, scene: FrameScene, k: int, occluded: list[str]) -> TableState:
    hmat = layout.homography()
    zones: dict[str, list[tuple[float, str]]] = {}
    for cv in scene.cards:
        if cv.zone == "moving":
            continue
        p = hmat @ np.array([cv.pose.x, cv.pose.y, 1.0])
        zones.setdefault(cv.zone, []).append((float(p[0] / p[2]), cv.face if cv.face_up else "BACK"))

    def toks(zone: str) -> list[str]:
        return [t for _, t in sorted(zones.get(zone, []), key=lambda x: x[0])]

    seats = [
        SeatState(
            seat=n,
            chips=n in scene.chips,
            payout=n in scene.payouts,
            dealt=toks(f"seat{n}.dealt"),
            high=toks(f"seat{n}.high"),
            low=toks(f"seat{n}.low"),
        )
        for n in layout.seat_numbers
    ]
    iv = scene.iverify
    return TableState(
        table_id=layout.table_id,
        frame=k,
        t=round(k / FPS, 3),
        lcd=scene.lcd,
        seats=seats,
        dealer=DealerState(hand=toks("dealer.hand"), high=toks("dealer.high"), low=toks("dealer.low")),
        iverify=IVerifyState(
            visible=not scene.covered,
            mode=iv.mode,
            seat=iv.seat,
            high=list(iv.high),
            low=list(iv.low),
        ),
        occluded=occluded,
    )


true_state = _true_state  # public name: the true TableState of a director frame (occluded zones given)


def _box_json(b: CardBox) -> dict[str, object]:
    return {
        "card": b.card,
        "quad": [[round(x, 2), round(y, 2)] for x, y in b.quad],
        "xyxy": [round(v, 2) for v in b.xyxy],
        "zone": b.zone,
        "visible": b.visible,
    }


def render_frames(
    scenario: Scenario, seed: int, frames: list[int] | None = None, effects: bool = True
) -> Iterator[tuple[int, np.ndarray, list[CardBox], TableState]]:
    """Frames of a clip without encoding: ``(index, BGR image, card boxes, true state)`` (tests, previews)."""
    layout, director = plan_clip(scenario, seed)
    renderer = FrameRenderer(layout, load_deck(_deck_for(scenario, seed), _ART_SOURCE_WIDTH), seed, effects)
    zones = _Zones(layout)
    wanted = range(len(director.frames)) if frames is None else frames
    for k in wanted:
        img, boxes, occl = renderer.render(director.frames[k], k)
        yield k, img, boxes, _true_state(layout, director.frames[k], k, zones.occluded(occl))


def _ffmpeg(path: Path, w: int, h: int, crf: int) -> subprocess.Popen[bytes]:
    exe = shutil.which("ffmpeg")
    if exe is None:
        raise RenderError("ffmpeg not found: install Debian's ffmpeg (apt-get install ffmpeg)")
    cmd = [
        exe,
        "-y",
        "-loglevel",
        "error",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "bgr24",
        "-s",
        f"{w}x{h}",
        "-r",
        str(int(FPS)),
        "-i",
        "-",
        "-an",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        str(crf),
        "-pix_fmt",
        "yuv420p",
        "-threads",
        "1",
        "-movflags",
        "+faststart",
        str(path),
    ]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)


def write_clip_truth(
    out: Path, clip: str, scenario: Scenario, seed: int, layout: TableLayout, director: Director
) -> ClipTruth:
    """Write ``<clip>.truth.json`` (the clip's video is ``<clip>.mp4``, its layout written beside it)."""
    truth = ClipTruth(
        clip=f"{clip}.mp4",
        table_id=layout.table_id,
        game=scenario.game,
        fps=FPS,
        frames=len(director.frames),
        layout=layout_file_name(layout),
        seed=seed,
        scenario=scenario.name,
        rounds=director.rounds,
    )
    (out / f"{clip}.truth.json").write_text(truth.model_dump_json(indent=1))
    return truth


def render_clip(
    scenario: Scenario,
    seed: int,
    out_dir: str | Path,
    name: str | None = None,
    crf: int = 23,
    stats: list[ClipStats] | None = None,
    image_size: tuple[int, int] | None = None,
) -> ClipTruth:
    """Render ``scenario`` with ``seed`` into ``out_dir``; returns (and writes) its ground truth."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    clip = name or scenario.name
    layout, director = plan_clip(scenario, seed, image_size)
    deck = _deck_for(scenario, seed)
    renderer = FrameRenderer(layout, load_deck(deck, _ART_SOURCE_WIDTH), seed)
    zones = _Zones(layout)
    layout_name = layout_file_name(layout)
    write_layout(layout, out / layout_name)
    video = out / f"{clip}.mp4"
    proc = _ffmpeg(video, layout.image_width, layout.image_height, crf)
    assert proc.stdin is not None
    t0 = time.perf_counter()
    prev: dict[str, object] | None = None
    try:
        with (
            open(out / f"{clip}.boxes.jsonl.gz", "wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as gz,  # same seed, same bytes
            io.TextIOWrapper(gz, encoding="utf-8") as fb,
            open(out / f"{clip}.states.jsonl", "w") as fs,
        ):
            for k, scene in enumerate(director.frames):
                img, boxes, occl = renderer.render(scene, k)
                try:
                    proc.stdin.write(np.ascontiguousarray(img).tobytes())
                except BrokenPipeError as e:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RenderError(f"ffmpeg stopped at frame {k}: {err.strip()}") from e
                if boxes:
                    fb.write(
                        json.dumps(
                            {"frame": k, "t": round(k / FPS, 3), "cards": [_box_json(b) for b in boxes]}
                        )
                        + "\n"
                    )
                state = _true_state(layout, scene, k, zones.occluded(occl))
                key = state.model_dump(exclude={"frame", "t"})
                if key != prev:
                    fs.write(state.model_dump_json() + "\n")
                    prev = key
    finally:
        proc.stdin.close()
        rc = proc.wait()
    if rc != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise RenderError(f"ffmpeg failed for {video}: {err.strip()}")
    elapsed = time.perf_counter() - t0
    truth = write_clip_truth(out, clip, scenario, seed, layout, director)
    if stats is not None:
        n = len(director.frames)
        stats.append(ClipStats(n, elapsed, 1000 * elapsed / max(n, 1), video.stat().st_size))
    return truth
