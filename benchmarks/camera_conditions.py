"""The camera pipeline's accuracy under camera conditions the renderer does not make: rendered clips
re-encoded through an ffmpeg filter each, then scored by ``paigow-monitor eval-vision``.

    .venv/bin/python benchmarks/camera_conditions.py sample_footage/*.mp4 --out /tmp/cc \
        [--conditions dim,lights,cctv,...] [--jobs 2] [--alerts] [--reuse]

A real surveillance camera is not the renderer's: its lights dim or its auto-exposure steps, its
sensor is noisy in low light, its recorder compresses hard, its lens is a little soft, its white
balance warm. Each condition below is one ffmpeg filter chain (and bitrate) applied to every clip;
the clip's ground truth is copied beside it unchanged (the cards did not move), and the pipeline
is scored as ``eval-vision`` scores it: per-card precision and recall of face-up cards, rounds read
exactly; with ``--alerts``, the clips are audited too and the alerts scored as ``evaluate`` scores
them (found, false, rounds rebuilt, review items). ``as-is`` re-encodes with no filter at about the
renderer's quality: the yardstick, what one more encode alone does. ``--reuse`` scores the clips
already re-encoded under ``--out`` (and their ``eval-vision`` scores, where written). Prints one
line per condition. ``lens`` moves the picture's pixels: its layout's reference points are moved
where the lens puts them, as ``calibrate`` would place them on that picture; ``lens-fit`` is the same
picture with its layout calibrated as a wide lens asks, ``calibrate --lens k1k2`` on 15 points.
``fps10`` and ``fps5`` change the frame rate (``eval-vision`` scores by time, so at any rate).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> (what it stands for, ffmpeg -vf chain or None, extra encoder arguments)
CONDITIONS: dict[str, tuple[str, str | None, list[str]]] = {
    "as-is": ("re-encoded only (crf 18)", None, ["-crf", "18"]),
    "dim": ("lights down: darker, flatter", "eq=brightness=-0.10:contrast=0.80", ["-crf", "18"]),
    "bright": ("over-exposed", "eq=brightness=0.10:contrast=1.10", ["-crf", "18"]),
    "lights": (
        "the lights dim a third of the way in and stay so (an exposure step mid-round)",
        "eq=brightness=-0.10:contrast=0.85:enable='gte(t,{step})'",
        ["-crf", "18"],
    ),
    "warm": ("white balance off: a warm cast", "colorbalance=rs=0.12:gs=0.02:bs=-0.12", ["-crf", "18"]),
    "soft": ("a soft lens (Gaussian blur, sigma 1.0 px)", "gblur=sigma=1.0", ["-crf", "18"]),
    "noise": ("sensor noise, changing every frame", "noise=alls=10:allf=t", ["-crf", "18"]),
    "clock": (
        "a recorder's burnt-in date, time and camera name (OSD) at the top left, ticking every second",
        "drawtext=fontfile={font}:fontsize=h/30:fontcolor=white:borderw=2:bordercolor=black:x=h/60:y=h/60:"
        "text='%{{pts\\:gmtime\\:1795600800\\:%Y-%m-%d %H\\\\\\:%M\\\\\\:%S}}  CAM 07'",
        ["-crf", "18"],
    ),
    "lens": (
        "a wide lens's barrel distortion (ffmpeg lenscorrection k1 0.05: the frame's corners drawn 3 % "
        "in), the layout calibrated on the distorted picture",
        "lenscorrection=k1=0.05:k2=0",
        ["-crf", "18"],
    ),
    "lens-fit": (
        "the lens condition's picture, its layout calibrated with --lens k1k2 on 15 points over the felt",
        "lenscorrection=k1=0.05:k2=0",
        ["-crf", "18"],
    ),
    "turned": (
        "a camera mounted the other way round (the picture turned 180 degrees), the layout calibrated on it",
        "hflip,vflip",
        ["-crf", "18"],
    ),
    "mirrored": (
        "a camera set to mirror its picture (flipped left to right), the layout calibrated on it",
        "hflip",
        ["-crf", "18"],
    ),
    "fps10": ("a sub-stream at 10 frames a second", "fps=10", ["-crf", "18"]),
    "flicker": (
        "lights flickering against the shutter (a 25 fps camera under 60 Hz lights: a 5 Hz beat, +-3 %)",
        "eq=brightness='0.03*sin(2*PI*5*t)':eval=frame",
        ["-crf", "18"],
    ),
    "interlaced": (
        "an analogue camera's interlaced picture (two fields 40 ms apart woven into each frame, 12.5 fps)",
        "tinterlace=mode=interleave_top",
        ["-crf", "18"],
    ),
    "fps5": ("a sub-stream at 5 frames a second", "fps=5", ["-crf", "18"]),
    "cctv": (
        "a recorder's hard compression (2 Mb/s at 1080p, 1 Mb/s at 720p; GOP 50)",
        None,
        ["-b:v", "{rate}", "-maxrate", "{rate}", "-bufsize", "{rate2}", "-g", "50"],
    ),
}


def _probe(clip: Path) -> tuple[float, float]:
    """The clip's length (seconds) and height (pixels)."""
    import cv2

    cap = cv2.VideoCapture(str(clip))
    n, fps = cap.get(cv2.CAP_PROP_FRAME_COUNT), cap.get(cv2.CAP_PROP_FPS) or 25.0
    h = cap.get(cv2.CAP_PROP_FRAME_HEIGHT)
    cap.release()
    return (n / fps if n > 0 else 0.0), h


def _font() -> str:
    """An outline font for the ``clock`` condition's text (Debian's; ``scripts/setup.sh`` installs
    Liberation with any extra)."""
    for f in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    ):
        if Path(f).is_file():
            return f
    return ""


def _make(clip: Path, out_dir: Path, name: str) -> Path:
    """``clip`` under condition ``name`` in ``out_dir``, its ground truth and layout copied beside it."""
    _, chain, extra = CONDITIONS[name]
    dur, height = _probe(clip)
    rate = 2_000_000 if height >= 1000 else 1_000_000
    args = [a.format(rate=rate, rate2=2 * rate) for a in extra]
    dst = out_dir / clip.name
    cmd = ["ffmpeg", "-v", "error", "-y", "-i", str(clip)]
    if chain:
        cmd += ["-vf", chain.format(step=round(dur / 3, 2), font=_font())]
    cmd += [
        "-c:v",
        "libx264",
        "-preset",
        "faster" if "-b:v" in args else "ultrafast",
        "-pix_fmt",
        "yuv420p",
        *args,
        "-an",
        str(dst),
    ]
    subprocess.run(cmd, check=True)
    stem = clip.name[: -len(clip.suffix)]
    for f in clip.parent.glob(stem + ".*"):
        if f != clip:
            shutil.copy2(f, out_dir / f.name)
    _layout_beside(clip, out_dir, name)
    return dst


# conditions that move the picture's pixels: the layout is calibrated again on the picture they give
_GEOMETRIC = {"lens", "lens-fit", "turned", "mirrored"}
# of them, those calibrated as a wide lens asks (``calibrate --lens k1k2``): with more reference
# points than the four felt corners, spread over the felt as printed markers would be
_LENS_FITTED = {"lens-fit"}
_GRID = [(fx, fy) for fx in (0.0, 0.25, 0.5, 0.75, 1.0) for fy in (0.0, 0.5, 1.0)]


def _layout_beside(clip: Path, out_dir: Path, name: str) -> None:
    """The clip's layout copied into ``out_dir`` (once); under a condition that moves the picture's
    pixels (``_GEOMETRIC``), with its reference points where the condition puts them, as ``calibrate``
    would place them on that picture (each point drawn as a dot, passed through the filter, found)."""
    stem = clip.name[: -len(clip.suffix)]
    truth = json.loads((clip.parent / f"{stem}.truth.json").read_text())
    src = clip.parent / truth["layout"]
    dst = out_dir / src.name
    if dst.exists():
        return
    if name not in _GEOMETRIC:
        shutil.copy2(src, dst)
        return
    import cv2
    import numpy as np
    import yaml

    data = yaml.safe_load(src.read_text())
    w, h = int(data["image_width"]), int(data["image_height"])
    chain = CONDITIONS[name][1]
    assert chain is not None
    if name in _LENS_FITTED:
        from vision.layout import Point, TableLayout

        lay = TableLayout.model_validate(data)
        tw, th = lay.table_width_mm, lay.table_height_mm
        known = {(r.table.x, r.table.y) for r in lay.reference_points}
        grid = [(fx * tw, fy * th) for fx, fy in _GRID if (fx * tw, fy * th) not in known]
        at = lay.to_image([Point(x=x, y=y) for x, y in grid])  # where the straight picture shows them
        data["reference_points"] += [
            {"name": f"grid-{round(x)}-{round(y)}", "table": {"x": x, "y": y}, "image": {"x": ix, "y": iy}}
            for (x, y), (ix, iy) in zip(grid, at.tolist(), strict=True)
        ]
    for ref in data["reference_points"]:
        dot = np.zeros((h, w, 3), np.uint8)
        cv2.circle(dot, (round(ref["image"]["x"]), round(ref["image"]["y"])), 6, (255, 255, 255), -1)
        cv2.imwrite(str(out_dir / ".dot.png"), dot)
        subprocess.run(
            [
                "ffmpeg",
                "-v",
                "error",
                "-y",
                "-i",
                str(out_dir / ".dot.png"),
                "-vf",
                chain,
                str(out_dir / ".moved.png"),
            ],
            check=True,
        )
        moved = cv2.imread(str(out_dir / ".moved.png"), cv2.IMREAD_GRAYSCALE).astype(np.float64)
        ys, xs = np.nonzero(moved > 40)
        wt = moved[ys, xs]
        ref["image"] = {"x": float((xs * wt).sum() / wt.sum()), "y": float((ys * wt).sum() / wt.sum())}
    (out_dir / ".dot.png").unlink()
    (out_dir / ".moved.png").unlink()
    if name in _LENS_FITTED:
        from vision.calibrate import residuals_px, with_image_points
        from vision.layout import TableLayout

        lay = TableLayout.model_validate(data)
        seen = [(r.image.x, r.image.y) for r in lay.reference_points]
        fitted = with_image_points(lay, seen, (w, h), "k1k2")
        off = residuals_px(fitted)
        print(f"{name}: {dst.name}: {fitted.lens} fitted on {len(off)} points, {off.max():.2f} px at most")
        data = fitted.model_dump(mode="json")
    dst.write_text(yaml.safe_dump(data, sort_keys=False))


def _alerts(d: Path) -> dict[str, object]:
    """``paigow-monitor audit`` of the condition's clips, scored by ``paigow-monitor evaluate``."""
    cli = str(ROOT / ".venv/bin/paigow-monitor")
    audit = d / "audit"
    subprocess.run(
        [cli, "audit", str(d), "--out", str(audit), "--no-progress", "--workers", "1"], capture_output=True
    )
    js = d / "alerts.json"
    r = subprocess.run(
        [cli, "evaluate", "--audit", str(audit), "--truth", str(d), "--json", str(js)],
        capture_output=True,
        text=True,
    )
    if not js.exists():
        raise SystemExit(f"error: {d}: evaluate failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    clips = json.loads(js.read_text())["clips"]
    return {
        "findings": sum(c["findings_true"] for c in clips),
        "found": sum(c["findings_found"] for c in clips),
        "false_alerts": sum(c["false_alerts"] for c in clips),
        "rebuilt": sum(c["rounds_rebuilt"] for c in clips),
        "rounds_true": sum(c["rounds_true"] for c in clips),
        "review_false": sum(c["review_false"] for c in clips),
        "review_items": sum(c["review_items"] for c in clips),
    }


def _score(name: str, clips: list[Path], out: Path, alerts: bool, reuse: bool) -> dict[str, object]:
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    made = []
    for c in clips:
        made.append(d / c.name if reuse and (d / c.name).is_file() else _make(c, d, name))
        _layout_beside(c, d, name)
    t1 = time.monotonic()
    js = d / "eval.json"
    if not (reuse and js.is_file()):
        js.unlink(missing_ok=True)
        r = subprocess.run(
            [str(ROOT / ".venv/bin/paigow-monitor"), "eval-vision", *map(str, made), "--json", str(js)],
            capture_output=True,
            text=True,
        )
    if not js.exists():
        raise SystemExit(f"error: {name}: eval-vision failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    scores = json.loads(js.read_text())
    tp = fp = fn = unnamed = rounds = exact = 0
    for s in scores:
        for z in s["zones"].values():
            tp, fp, fn, unnamed = tp + z["tp"], fp + z["fp"], fn + z["fn"], unnamed + z.get("unnamed", 0)
        rounds += s["rounds"]
        exact += s["rounds_exact"]
    t2 = time.monotonic()
    extra = _alerts(d) if alerts else {}
    if alerts:
        extra["audit_s"] = round(time.monotonic() - t2, 1)
    return {
        **extra,
        "condition": name,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "fp": fp,
        "fn": fn,
        "unnamed": unnamed,
        "rounds": rounds,
        "exact": exact,
        "encode_s": round(t1 - t0, 1),
        "eval_s": round(t2 - t1, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clips", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True, help="folder for the re-encoded clips and scores")
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help=f"of {', '.join(CONDITIONS)}")
    ap.add_argument("--jobs", type=int, default=2, help="conditions scored at once (one core each)")
    ap.add_argument(
        "--alerts",
        action="store_true",
        help="also audit each condition's clips and score the alerts (paigow-monitor audit, evaluate)",
    )
    ap.add_argument(
        "--reuse", action="store_true", help="use the clips (and eval-vision scores) already under --out"
    )
    a = ap.parse_args()
    names = [n.strip() for n in a.conditions.split(",") if n.strip()]
    bad = [n for n in names if n not in CONDITIONS]
    if bad:
        raise SystemExit(f"error: --conditions: unknown {', '.join(bad)} (known: {', '.join(CONDITIONS)})")
    if shutil.which("ffmpeg") is None:
        raise SystemExit("error: ffmpeg not found (scripts/setup.sh dev installs it)")
    clips = sorted(a.clips)
    print(f"{len(clips)} clip(s), conditions: {', '.join(names)}")
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results = list(pool.map(lambda n: _score(n, clips, a.out, a.alerts, a.reuse), names))
    for r in results:
        print(
            f"{r['condition']:7s} P {r['precision']:.4f} R {r['recall']:.4f} "
            f"(fp {r['fp']}, fn {r['fn']}, of them unnamed {r['unnamed']}), rounds exact "
            f"{r['exact']}/{r['rounds']}  [{CONDITIONS[str(r['condition'])][0]}; "
            f"encode {r['encode_s']} s, eval {r['eval_s']} s]"
        )
        if "findings" in r:
            print(
                f"        alerts: found {r['found']}/{r['findings']}, false alerts {r['false_alerts']}, "
                f"rounds rebuilt {r['rebuilt']}/{r['rounds_true']}, review items {r['review_items']} "
                f"({r['review_false']} on no true finding)  [audit {r['audit_s']} s]"
            )
    (a.out / "conditions.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
