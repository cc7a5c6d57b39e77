"""A live camera feed that drops and comes back: what the alerts make of the table seen again.

    .venv/bin/python benchmarks/feed_drops.py [--drop CLIP:START:END ...]

Each drop plays a sample clip as a live camera would give it (``vision.sources.Frame`` marked live,
analysed at the pipeline's rate) through ``vision.pipeline.watch`` with ticks and the live
``StreamProcessor`` with the camera's default monitor, as ``paigow-monitor live`` runs them; from
START to END seconds of footage no frame comes (the source's lost marker at START, the feed back at
END with the footage where it would be had it never stopped, as ``scripts/flaky_stream.py`` serves
it), so the table goes on unseen. The same clip is played without the drop as the yardstick. Prints,
per drop, the alerts (status ``alert``) the drop adds and the ones it loses against the yardstick, by
check id and seat; IVERIFY-NOT-VISIBLE, which a round unseen for over 5 s must raise, is listed apart.

Without ``--drop`` it runs the drops the fifty-first session checked: s03 19.56-26.0 (the dealer sets
his hand unseen), s14 30-34 (the LCD turns and a deal begins unseen), s10 2.5-3.5 (just before a deal
out of order) and s06 10-14. Each run reads a whole 1080p clip: about a minute a drop here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DROPS = (
    "s03-seven-iverify-seat-early:19.56:26.0",
    "s14-seven-two-rounds:30:34",
    "s10-six-deal-order:2.5:3.5",
    "s06-six-dealer-reveal-early:10:14",
)
_URL = "http://camera/"


def _frames(clip: Path, drop: tuple[float, float] | None) -> Iterator[Any]:
    """The clip's frames as a live source gives them, with no frame from ``drop[0]`` to ``drop[1]``
    (seconds of footage) but the lost marker."""
    import cv2

    from vision.sources import Frame

    cap = cv2.VideoCapture(str(clip))
    fps = float(cap.get(cv2.CAP_PROP_FPS)) or 25.0
    k = n = 0
    said = False
    try:
        while True:
            ok, img = cap.read()
            if not ok:
                return
            t = k / fps
            k += 1
            if drop is not None and drop[0] <= t < drop[1]:
                if not said:
                    said = True
                    yield Frame(max(n - 1, 0), t, None, _URL, True, lost=True)
                continue
            yield Frame(n, t, img, _URL, True)
            n += 1
    finally:
        cap.release()


def alerts_of(clip: Path, drop: tuple[float, float] | None) -> list[tuple[str, str, float]]:
    """(check id, seat or "table", breach time) of each alert a live watch of ``clip`` raises."""
    import vision.pipeline as vp
    from compliance.live import StreamFrame, StreamProcessor, default_monitor
    from vision.layout import load_layout

    truth = json.loads(clip.with_suffix(".truth.json").read_text())
    layout = load_layout(clip.parent / truth["layout"])
    # the pipeline's frame source, as ``watch`` calls it, stood in for by the clip with its drop
    real = vp.__dict__["iter_frames"]
    vp.__dict__["iter_frames"] = lambda *_a, **_k: _frames(clip, drop)
    try:
        proc = StreamProcessor(
            layout,
            default_monitor(layout, camera=True),
            source_name=_URL,
            evidence_dir=None,
            realtime_source=True,
        )
        got = []
        for r in vp.watch(_URL, layout, ticks=True):
            got += proc.feed(StreamFrame(r.state, r.image, 0.0, heartbeat=r.tick))
        got += proc.finish() or []
    finally:
        vp.__dict__["iter_frames"] = real
    return [(a.check_id.value, str(a.seat or "table"), a.t) for a in got if a.status == "alert"]


def _parse(spec: str) -> tuple[str, float, float]:
    name, start, end = spec.rsplit(":", 2)
    a, b = float(start), float(end)
    if not 0 <= a < b:
        raise SystemExit(f"--drop {spec}: START must be under END")
    return name, a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--drop", action="append", help="CLIP:START:END (a sample clip's name, seconds)")
    ap.add_argument("--footage", type=Path, default=ROOT / "sample_footage")
    args = ap.parse_args(argv)
    drops = [_parse(d) for d in (args.drop or DEFAULT_DROPS)]
    for name, _a, _b in drops:
        if not (args.footage / f"{name}.mp4").is_file():
            print(f"{args.footage / name}.mp4: no such clip", file=sys.stderr)
            return 2
    yardstick: dict[str, list[tuple[str, str, float]]] = {}
    added = lost = 0
    for name, start, end in drops:
        clip = args.footage / f"{name}.mp4"
        if name not in yardstick:
            yardstick[name] = alerts_of(clip, None)
        base = {(c, s) for c, s, _ in yardstick[name]}
        got = alerts_of(clip, (start, end))
        seen = {(c, s) for c, s, _ in got}
        new = sorted(k for k in seen - base if k[0] != "IVERIFY-NOT-VISIBLE")
        gone = sorted(base - seen)
        unseen = [
            t
            for c, _s, t in got
            if c == "IVERIFY-NOT-VISIBLE" and ("IVERIFY-NOT-VISIBLE", "table") not in base
        ]
        added, lost = added + len(new), lost + len(gone)
        print(
            f"{name} feed lost {start:g}-{end:g} s: alerts {len(got)} "
            f"(without the drop {len(yardstick[name])}); added {new or 'none'}; lost {gone or 'none'}"
            + (f"; IVERIFY-NOT-VISIBLE for the outage at {unseen[0]:.2f} s" if unseen else "")
        )
    print(f"{len(drops)} drops: {added} alert(s) added by a drop, {lost} lost (IVERIFY-NOT-VISIBLE apart)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
