"""What an audit was made of and by: the inputs' and the models' content hashes, the software, the time.

An auditor files a clip's findings as proof. The proof holds only if the record says which recording
was audited (its bytes, not its name: a file can be renamed or replaced), with which layout, by which
software and which trained models, and which pictures were written as evidence. ``clip_provenance``
gives that record (``reports.Provenance``); ``verify_clip`` checks a published clip folder against
it (``paigow-monitor verify``): an input or a picture changed since is named. A live watch's records
say each picture's sha256 as written (``Alert.evidence_sha256``, ``CameraEvent.evidence_sha256``):
``verify_records`` checks an alerts file and the camera log beside it.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
import time
from pathlib import Path

from compliance.reports import Provenance

_CHUNK = 1 << 20
_REPO = Path(__file__).resolve().parent.parent


def sha256_file(path: str | Path) -> str:
    """The sha256 of a file's bytes (hex), remembered while its size and time stay the same."""
    p = Path(path).resolve()
    s = p.stat()
    return _sha256(str(p), s.st_size, s.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    return _read_sha256(Path(path))


def _read_sha256(path: Path) -> str:
    """The sha256 of a file's bytes, read now."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def software() -> str:
    """``paigow-monitor <version>``, with the git commit where it runs from a checkout (``+changes``:
    files tracked there differ from that commit)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        name = f"paigow-monitor {version('paigow-monitor')}"
    except PackageNotFoundError:
        name = "paigow-monitor (not installed)"
    try:
        run = functools.partial(subprocess.run, capture_output=True, text=True, timeout=5, cwd=_REPO)
        top = run(["git", "rev-parse", "--show-toplevel"])
        if top.returncode != 0 or Path(top.stdout.strip()).resolve() != _REPO:
            return name  # not run from its own checkout (an installed copy inside another repository)
        head = run(["git", "rev-parse", "HEAD"])
        if head.returncode != 0:
            return name
        dirty = run(["git", "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
        return f"{name} (git {head.stdout.strip()}{'+changes' if dirty else ''})"
    except (OSError, subprocess.SubprocessError):
        return name


def camera_models() -> dict[str, str]:
    """The shipped models the camera pipeline reads cards with (``vision.detector.DetectorFiles``:
    stage 1, the index classifiers for a fine and a coarse camera, the card body model), by file name,
    with their sha256."""
    from vision.detector import DEFAULT_MODELS_DIR, DetectorFiles

    files = DetectorFiles.in_dir(DEFAULT_MODELS_DIR)
    out: dict[str, str] = {}
    for p in (files.det, files.cls, files.cls_coarse, files.body):
        if p is not None and p.is_file():
            out[p.name] = sha256_file(p)
    return out


def _evidence_files(clip_dir: Path) -> set[str]:
    """Each picture under ``clip_dir/evidence``, by its path relative to ``clip_dir``."""
    base = clip_dir / "evidence"
    if not base.is_dir():
        return set()
    return {p.relative_to(clip_dir).as_posix() for p in base.rglob("*") if p.is_file()}


def clip_provenance(
    *, inputs: list[str | Path | None], vision: bool, evidence: dict[str, str], started: float
) -> Provenance:
    """The provenance of an audited clip: ``inputs`` (the footage, the states, the layout; None
    skipped) hashed as they are now, the camera's models where the table states came from the camera
    (``vision``), and ``evidence``, each picture written (relative to the clip's folder) with the
    sha256 its writing gave (``Alert.evidence_sha256``)."""
    from compliance.alerts import clock_time

    return Provenance(
        started_at=clock_time(started),
        finished_at=clock_time(time.time()),
        software=software(),
        inputs={str(p): sha256_file(p) for p in inputs if p is not None and Path(p).is_file()},
        models=camera_models() if vision else {},
        evidence=evidence,
    )


def verify_clip(clip_dir: Path, prov: Provenance) -> list[str]:
    """What no longer matches ``prov`` in a published clip folder: each input or evidence picture
    changed or gone, one line each (empty: all as audited). Inputs are found by the paths recorded;
    a relative path is taken from the working directory, as the audit took it."""
    problems: list[str] = []
    for name, digest in prov.inputs.items():
        problems += _mismatch(Path(name), digest, f"input {name}")
    for rel, digest in prov.evidence.items():
        problems += _mismatch(clip_dir / rel, digest, f"evidence {rel}")
    on_disk = _evidence_files(clip_dir)
    problems += [
        f"evidence {rel}: not in the record (added after the audit)"
        for rel in sorted(on_disk - set(prov.evidence))
    ]
    return problems


def _mismatch(path: Path, digest: str, what: str) -> list[str]:
    if not path.is_file():
        return [f"{what}: missing"]
    got = _read_sha256(path)  # read afresh: a check trusts no memory
    return [] if got == digest else [f"{what}: changed (sha256 {got[:16]}..., recorded {digest[:16]}...)"]


def verify_records(alerts: Path) -> tuple[int, int, list[str]]:
    """A live watch's alerts file, and its camera log beside it (``<stem>.camera.jsonl``) where there is
    one: each record's evidence picture (relative to the file's folder) hashed again against the sha256
    it recorded. Returns the pictures checked, those with no sha256 recorded (written before there was
    one), and a line for each changed or gone."""
    from compliance.alerts import read_alerts
    from compliance.live import CameraEvent

    records: list[tuple[str, str | None, str | None]] = [
        (f"alert {a.alert_id}", a.evidence, a.evidence_sha256) for a in read_alerts(alerts)
    ]
    camera = alerts.with_name(alerts.stem + ".camera.jsonl")
    if camera.is_file():
        for i, line in enumerate(camera.read_text().splitlines(), start=1):
            if line.strip():
                ev = CameraEvent.model_validate_json(line)
                records.append(
                    (f"camera event {camera.name}:{i} ({ev.kind})", ev.evidence, ev.evidence_sha256)
                )
    checked = unrecorded = 0
    problems: list[str] = []
    for what, rel, digest in records:
        if rel is None:
            continue
        if digest is None:
            unrecorded += 1
            continue
        checked += 1
        problems += _mismatch(alerts.parent / rel, digest, f"{what}: picture {rel}")
    return checked, unrecorded, problems
