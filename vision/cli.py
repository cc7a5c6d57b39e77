"""Commands of the vision package for ``paigow-monitor``: ``watch``, ``calibrate``, ``eval-vision``
(and the detector engineer's commands from ``vision._cli_detector``, when that module exists).

Commands are thin: they parse options and hand over to one function. Heavy imports (OpenCV, the
detector) happen inside the commands.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

if TYPE_CHECKING:
    from vision.calibrate import LensFit
    from vision.detections import CardDetector
    from vision.state import TableState

__all__ = ["describe_change", "register"]

# a calibration on more than four points with no lens: a point this far (pixels) from the straight
# view's map says the lens bends the picture (clicks are good to a pixel or two; markers to less)
_BENT_PX = 3.0


def _load_detector(spec: str | None) -> CardDetector | None:
    """``module:attr`` (a class or factory taking no arguments, or an instance); None = shipped model."""
    if not spec:
        return None
    mod, _, attr = spec.partition(":")
    if not attr:
        raise typer.BadParameter(f"--detector {spec!r}: expected 'module:name'")
    try:
        obj = getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError) as e:
        raise typer.BadParameter(f"--detector {spec!r}: {e}") from e
    det = obj() if (callable(obj) and not hasattr(obj, "detect")) or isinstance(obj, type) else obj
    return det  # type: ignore[no-any-return]


def _zones(st: TableState) -> dict[str, str]:
    z: dict[str, str] = {"lcd": "-" if st.lcd is None else str(st.lcd)}
    for s in st.seats:
        z[f"seat{s.seat}.chips"] = "chips" if s.chips else "-"
        z[f"seat{s.seat}.payout"] = "payout" if s.payout else "-"
        for k in ("dealt", "high", "low"):
            z[f"seat{s.seat}.{k}"] = " ".join(getattr(s, k)) or "-"
    for k in ("hand", "high", "low"):
        z[f"dealer.{k}"] = " ".join(getattr(st.dealer, k)) or "-"
    iv = st.iverify
    head = {"blank": "blank", "seat": f"SEAT {iv.seat}", "dealer": "DEALER"}[iv.mode]
    body = f" {' '.join(iv.high)} / {' '.join(iv.low)}" if iv.mode != "blank" else ""
    z["iverify"] = ("" if iv.visible else "NOT VISIBLE ") + head + body
    z["occluded"] = " ".join(st.occluded) or "-"
    z["feed"] = "LOST (reconnecting; the table as last seen)" if st.feed_lost else "-"
    moved = st.view_moved_px
    z["view"] = "-" if moved is None else f"MOVED {moved:g} px: put the camera back or recalibrate"
    return z


def describe_change(prev: TableState | None, st: TableState) -> str:
    """One human-readable line: the time, the frame and every zone that changed (all, the first time)."""
    now = _zones(st)
    before = _zones(prev) if prev is not None else {}
    parts = [
        f"{k}={v}"
        for k, v in now.items()
        if before.get(k) != v and (prev is not None or v not in ("-", "blank"))
    ]
    return f"{st.t:9.2f}s frame {st.frame:6d}  " + ("  ".join(parts) or "(no change)")


def register(app: typer.Typer) -> None:
    """Add this package's commands to the main app."""

    @app.command("watch")
    def watch_cmd(
        source: Annotated[
            str, typer.Argument(help="video file, folder of clips, rtsp:// or http:// URL, or camera index")
        ],
        layout: Annotated[Path, typer.Option("--layout", help="the table's layout file (YAML/JSON)")],
        json_out: Annotated[bool, typer.Option("--json", help="one TableState JSON per line")] = False,
        analyse_fps: Annotated[
            float, typer.Option(help="frames analysed per second (0 = every frame)")
        ] = 12.5,
        detector: Annotated[
            str | None, typer.Option(help="card detector 'module:name' (default: the shipped model)")
        ] = None,
        truth_boxes: Annotated[
            bool,
            typer.Option(help="detect with the rendered clip's <clip>.boxes.jsonl.gz (no model; tests)"),
        ] = False,
    ) -> None:
        """Print the table-state changes of a source."""
        from vision.evaluate import EvalError
        from vision.layout import LayoutError, load_layout
        from vision.pipeline import PipelineConfig, watch
        from vision.sources import SourceError

        try:
            lay = load_layout(layout)
            cfg = PipelineConfig(analyse_fps=analyse_fps or None)
            prev = None
            det = _load_detector(detector)
            if truth_boxes:
                from vision.evaluate import TruthDetector

                det = TruthDetector(
                    Path(source).with_suffix("").with_name(Path(source).stem + ".boxes.jsonl.gz")
                )
            for r in watch(source, lay, detector=det, config=cfg):
                print(r.state.model_dump_json() if json_out else describe_change(prev, r.state), flush=True)
                prev = r.state
        except (LayoutError, SourceError, EvalError, FileNotFoundError) as e:
            print(f"error: {e}", file=sys.stderr)
            raise typer.Exit(1) from e

    @app.command("calibrate")
    def calibrate_cmd(
        image: Annotated[Path, typer.Argument(help="an image or a video (its first frame is used)")],
        layout: Annotated[Path, typer.Option("--layout", help="the layout file to calibrate")],
        out: Annotated[Path, typer.Option("--out", help="where to write the calibrated layout")],
        aruco: Annotated[
            bool, typer.Option("--aruco", help="find ArUco markers DICT_4X4_50 (id i = reference point i)")
        ] = False,
        points: Annotated[
            str | None,
            typer.Option(
                "--points", help="the reference points' pixels, in the layout's order: 'x,y x,y x,y x,y ...'"
            ),
        ] = None,
        lens: Annotated[
            str,
            typer.Option(
                "--lens",
                help="fit a wide lens's radial distortion too: k1, or k1k2 (5 / 6 or more reference points; "
                "8 or more to the felt's corners is better); none takes the picture as straight",
            ),
        ] = "none",
    ) -> None:
        """Write the layout's reference-point image coordinates, found in a frame (and the lens's
        distortion, with --lens); print how far each point lies from where the layout now puts it."""
        import numpy as np

        from vision.calibrate import MIN_POINTS, CalibrationError, calibrate_to, residuals_px
        from vision.card_body import CARD_MM
        from vision.layout import LayoutError, load_layout
        from vision.sources import SourceError
        from vision.zones import COARSE_CAMERA_PX_PER_MM, card_resolution

        if lens not in MIN_POINTS:
            print(f"error: --lens {lens!r}: expected one of {', '.join(MIN_POINTS)}", file=sys.stderr)
            raise typer.Exit(1)
        try:
            fit = cast("LensFit", lens)
            new = calibrate_to(image, load_layout(layout), out, points=points, aruco=aruco, lens=fit)
        except (CalibrationError, LayoutError, SourceError) as e:
            print(f"error: {e}", file=sys.stderr)
            raise typer.Exit(1) from e
        off = residuals_px(new)
        for r, d in zip(new.reference_points, off, strict=True):
            print(
                f"{r.name}: table ({r.table.x:g}, {r.table.y:g}) mm -> "
                f"image ({r.image.x:.1f}, {r.image.y:.1f}) px, {d:.2f} px from the fit"
            )
        if new.lens is not None:
            corner = float(np.hypot(*new.straighten(np.zeros((1, 2)))[0]))  # how far (0, 0) moves
            print(
                f"lens: k1 {new.lens.k1:.5f}, k2 {new.lens.k2:.5f} (the picture's corner shows what a "
                f"straight lens would show {corner:.1f} px from it)"
            )
        if len(off) > 4 or new.lens is not None:
            print(f"fit: {float(np.sqrt((off**2).mean())):.2f} px rms, {float(off.max()):.2f} px at most")
        if new.lens is None and len(off) > 4 and float(off.max()) > _BENT_PX:
            print(
                f"warning: points lie up to {float(off.max()):.1f} px from a straight view's map: a wide "
                "lens bends this picture? calibrate with --lens k1k2 (or the camera's own dewarp on)"
            )
        lo, hi = card_resolution(new)
        wide = f"a card {lo * CARD_MM[0]:.0f}-{hi * CARD_MM[0]:.0f} px wide"
        print(f"cards: {lo:.2f}-{hi:.2f} px per felt mm over the card areas ({wide})")
        if lo < COARSE_CAMERA_PX_PER_MM:
            print(
                f"warning: under {COARSE_CAMERA_PX_PER_MM:g} px/mm a card's index shows its suit a few "
                "pixels across: rendered footage this coarse (1280x720, 0.80-0.83 px/mm) is read short "
                "of the 99.5 % per-card targets, spades as clubs above all (models/MODEL_CARD.md); a "
                "camera nearer the felt, or of more pixels, reads surer"
            )
        print(f"wrote {out} and the calibrated view {new.reference_view} beside it")

    @app.command("eval-vision")
    def eval_cmd(
        clips: Annotated[
            list[Path],
            typer.Argument(
                help="rendered clips with <clip>.states.jsonl and .truth.json, or folders of them"
                " (every video with a .truth.json beside it, in name order)"
            ),
        ],
        truth_boxes: Annotated[
            bool, typer.Option(help="detect with the ground-truth boxes (scores the pipeline, not the model)")
        ] = False,
        detector: Annotated[
            str | None, typer.Option(help="card detector 'module:name' (default: the shipped model)")
        ] = None,
        analyse_fps: Annotated[
            float, typer.Option(help="frames analysed per second (0 = every frame)")
        ] = 12.5,
        settle_s: Annotated[float, typer.Option(help="a true state counts once it has held this long")] = 1.0,
        min_precision: Annotated[float, typer.Option(help="per-card precision target")] = 0.995,
        min_recall: Annotated[float, typer.Option(help="per-card recall target")] = 0.995,
        min_rounds: Annotated[float, typer.Option(help="share of rounds that must be read exactly")] = 1.0,
        json_out: Annotated[
            Path | None, typer.Option("--json", help="also write the scores as JSON here")
        ] = None,
    ) -> None:
        """Score the camera pipeline against the renderer's ground truth; exit 1 when a target is missed."""
        from vision.evaluate import EvalError
        from vision.pipeline import PipelineConfig

        try:
            ok = _eval(
                _clips_in(clips),
                truth_boxes,
                _load_detector(detector),
                PipelineConfig(analyse_fps=analyse_fps or None),
                settle_s,
                min_precision,
                min_recall,
                min_rounds,
                json_out,
            )
        except (EvalError, FileNotFoundError) as e:  # (no model in models/: try --truth-boxes)
            print(f"error: {e}", file=sys.stderr)
            raise typer.Exit(2) from e
        if not ok:
            raise typer.Exit(1)

    try:
        det_cli = importlib.import_module("vision._cli_detector")
    except ModuleNotFoundError as e:
        if e.name != "vision._cli_detector":
            raise
    else:
        det_cli.register(app)


def _clips_in(paths: list[Path]) -> list[Path]:
    """``eval-vision``'s clips: each path as given, a folder as its videos that have a ground truth
    beside them (``<clip>.truth.json``), in name order; a folder of none is an error naming it."""
    from vision.evaluate import EvalError
    from vision.sources import VIDEO_SUFFIXES

    clips: list[Path] = []
    for path in paths:
        if not path.is_dir():
            clips.append(path)
            continue
        inside = sorted(
            p
            for p in path.iterdir()
            if p.suffix.lower() in VIDEO_SUFFIXES and p.with_suffix(".truth.json").is_file()
        )
        if not inside:
            raise EvalError(
                f"{path}: folder holds no rendered clip (a video with a <clip>.truth.json beside it)"
            )
        clips += inside
    return clips


def _eval(
    clips: list[Path],
    truth_boxes: bool,
    detector: Any,
    cfg: Any,
    settle_s: float,
    min_p: float,
    min_r: float,
    min_rounds: float,
    json_out: Path | None,
) -> bool:
    import json

    from vision.evaluate import ZoneScore, evaluate_clip

    scores = []
    total: dict[str, ZoneScore] = {}
    rounds = exact = 0
    for c in clips:
        s = evaluate_clip(c, detector=detector, truth_boxes=truth_boxes, config=cfg, settle_s=settle_s)
        scores.append(s)
        t = s.total
        print(
            f"{c.name}: {s.moments} moments, cards P={t.precision:.4f} R={t.recall:.4f} "
            f"(tp {t.tp} fp {t.fp} fn {t.fn}), rounds exact {s.rounds_exact}/{s.rounds}, "
            f"lcd {s.lcd_ok}/{s.moments}, i-Verify {s.iverify_ok}/{s.moments}, "
            f"chips {s.chips_ok}/{s.chips_total}, "
            f"detector calls {s.detector_calls} over {s.frames_analysed} frames"
        )
        for e in s.round_errors:
            print(f"    {e}")
        for k, z in s.zones.items():
            total.setdefault(k, ZoneScore()).add(z)
        rounds += s.rounds
        exact += s.rounds_exact
    print("per zone (face-up cards):")
    all_ = ZoneScore()
    for k in sorted(total):
        z = total[k]
        all_.add(z)
        print(
            f"  {k:12s} precision {z.precision:.4f} recall {z.recall:.4f}  (tp {z.tp} fp {z.fp} fn {z.fn}"
            f"{f', {z.unnamed} of them seen but not named' if z.unnamed else ''})"
        )
    share = exact / rounds if rounds else 1.0
    print(
        f"ALL: precision {all_.precision:.4f} (target {min_p}) recall {all_.recall:.4f} (target {min_r}) "
        f"rounds exact {exact}/{rounds} = {share:.4f} (target {min_rounds})"
    )
    print(
        f"cards missed: {all_.fn}, of which {all_.unnamed} seen as a card but not named "
        "(TableState.unread_faces: the count is right, the face unknown)"
    )
    if json_out is not None:
        json_out.write_text(json.dumps([s.model_dump() for s in scores], indent=1))
    ok = all_.precision >= min_p and all_.recall >= min_r and share >= min_rounds
    print("PASS" if ok else "FAIL: target missed")
    return ok
