"""Alerts: a finding made deliverable (table, time code, evidence picture), written durably first.

Every finding becomes an ``Alert`` record; its ``status`` says whether it rings ("alert") or waits
for a person in the review queue ("review": a finding built on a doubtful camera read). Both are
written, delivered and kept alike; the console and the reports show them apart.

An alert is appended to a JSONL file and flushed and fsync'ed *before* anyone is shown it, so a
crash or a Ctrl-C never loses an alert that someone saw. ``read_alerts`` tolerates a torn last line
(the record that was being written when the process died: it was never shown), and ``AlertWriter``
cuts such a torn tail off before it appends, so the file stays one record per line.

Optional delivery to a webhook runs on a background thread (``WebhookSender``): it POSTs JSON with a
timeout, retries with back-off, and appends what it could not deliver to a dead-letter JSONL file. The
pipeline only puts alerts on a bounded queue and never waits on the network. The same queue carries the
camera's own events (``compliance.live.CameraEvent``: the feed lost or back, the view moved or back),
which a surveillance room wants pushed as much as an alert; each POST says which it is in its
``X-Paigow-Record`` header (``alert`` or ``camera``), and a camera event's body has a ``kind`` and no
``check_id``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from compliance.events import CHECK_RULES, CheckId, Finding, FindingStatus

__all__ = [
    "Alert",
    "AlertFileError",
    "AlertWriter",
    "WebhookSender",
    "make_alert",
    "read_alerts",
    "timecode",
]

_log = logging.getLogger(__name__)


class AlertFileError(ValueError):
    """An alerts file is unreadable or has a corrupt record before its last line."""


class Alert(BaseModel):
    """What surveillance sees: one breach, where and when in the footage, and the picture proving it."""

    model_config = ConfigDict(extra="forbid")

    alert_id: str  # stable: source, round, check, seat and frame (a replay gives the same id)
    table_id: str
    source: str  # the footage or stream name
    round: int
    seat: int | None = None  # None: the dealer or the whole table
    check_id: CheckId
    rule: str  # the rule cited, with its source
    t: float  # seconds from the start of the footage, of the frame that shows the breach
    frame: int
    timecode: str  # t as HH:MM:SS.mmm
    detected_t: float  # footage time of the frame at which the monitor raised it
    detected_frame: int
    expected: str = ""
    observed: str = ""
    confidence: float = 1.0
    # "alert" rings; "review" (confidence below MonitorConfig.review_below: a doubtful camera read or an
    # unseen moment) is written and shown the same way, apart, for a person to look at. Records
    # written before there was a status are alerts.
    status: FindingStatus = "alert"
    evidence: str | None = None  # evidence picture, relative to the alerts file / report folder
    evidence_sha256: str | None = None  # of the picture's bytes as written (``paigow-monitor verify``)
    raised_at: float = 0.0  # wall clock (Unix seconds) when raised: for latency only, never for checks
    # wall clock when the frame showing the breach arrived (on a real-time feed: the feed's clock offset
    # plus the frame's t); for latency figures only
    frame_arrived_at: float | None = None
    # On a live feed (a camera or stream, or a file played with --realtime, as if live): the local
    # clock time the frame showing the breach was taken, ISO 8601 with its UTC offset, to the
    # millisecond (the feed's clock offset plus ``t``: what surveillance pulls the recorder's footage
    # by). None on recorded footage, whose ``timecode`` is the recording's own.
    clock: str | None = None
    # the sha256 of the line before this one in its alerts file, as written (``AlertWriter``): the
    # file is a hash chain, so a record changed or taken out before the last breaks it (``verify``).
    # None: the file's first record, or a finding in an audit's record
    prev_sha256: str | None = None


_Linked = TypeVar("_Linked", bound=BaseModel)  # a record with a ``prev_sha256`` field (``_ChainedJsonl``)


def clock_time(unix_s: float) -> str:
    """Unix seconds as local time, ISO 8601 with the UTC offset, to the millisecond."""
    from datetime import datetime

    return datetime.fromtimestamp(unix_s).astimezone().isoformat(timespec="milliseconds")


# How a card the camera named without reading its index where it lay is marked wherever a hand is
# shown (the live view, evidence pictures, the reports): by carry-over from the hand seen whole before
# (TableState.carried_faces), by a blank corner (blank_corner_faces), by the count (counted_faces);
# and a face it saw and could not name (unread_faces).
CARRIED_MARK = "~"
BLANK_CORNER_MARK = "*"
COUNTED_MARK = "#"
UNNAMED_MARK = "?"


def marked(
    card: str, carried: Sequence[str] = (), blank_corner: Sequence[str] = (), counted: Sequence[str] = ()
) -> str:
    """``card`` with the mark of the way it was named where it is among those named so."""
    for named, mark in ((carried, CARRIED_MARK), (blank_corner, BLANK_CORNER_MARK), (counted, COUNTED_MARK)):
        if card in named:
            return f"{card}{mark}"
    return card


def timecode(t: float) -> str:
    """Seconds as ``HH:MM:SS.mmm``."""
    ms = round(max(t, 0.0) * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def make_alert(
    finding: Finding,
    *,
    table_id: str,
    source: str,
    detected_t: float,
    detected_frame: int,
    evidence: str | None = None,
    frame_arrived_at: float | None = None,
) -> Alert:
    """Build the alert for a finding (its rule defaults to the check's citation)."""
    seat = "table" if finding.seat is None else f"seat{finding.seat}"
    return Alert(
        alert_id=f"{source}:r{finding.round}:{finding.check_id.value}:{seat}:f{finding.frame}",
        table_id=table_id,
        source=source,
        round=finding.round,
        seat=finding.seat,
        check_id=finding.check_id,
        rule=finding.rule or CHECK_RULES.get(finding.check_id, ""),
        t=finding.t,
        frame=finding.frame,
        timecode=timecode(finding.t),
        detected_t=detected_t,
        detected_frame=detected_frame,
        expected=finding.expected,
        observed=finding.observed,
        confidence=finding.confidence,
        status=finding.status,
        evidence=evidence,
        raised_at=time.time(),
        frame_arrived_at=frame_arrived_at,
    )


class _DurableJsonl:
    """Append-only JSONL: one record per line, flushed and fsync'ed per record."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        _cut_torn_tail(path)
        self._f = path.open("ab")
        self._lock = threading.Lock()

    def append(self, record: BaseModel | dict[str, object]) -> None:
        text = record.model_dump_json() if isinstance(record, BaseModel) else json.dumps(record, default=str)
        self.append_line(text)

    def append_line(self, text: str) -> None:
        """One record already serialised (one line, no newline), durably."""
        data = (text + "\n").encode()
        with self._lock:
            self._f.write(data)
            self._f.flush()
            os.fsync(self._f.fileno())

    def close(self) -> None:
        with self._lock:
            if not self._f.closed:
                self._f.close()


class _ChainedJsonl(_DurableJsonl):
    """A ``_DurableJsonl`` of records that each carry ``prev_sha256``, the sha256 of the line before
    them as written: a hash chain, continued across runs from the file's last line (``chain_breaks``
    checks it). ``head``: the sha256 of the last line, the chain's end."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)  # a torn last line is cut first
        last = _last_line(path)
        self.head: str | None = hashlib.sha256(last).hexdigest() if last else None

    def append_linked(self, record: _Linked) -> _Linked:
        """Append ``record`` linked to the line before it; returns it as written."""
        record = record.model_copy(update={"prev_sha256": self.head})
        line = record.model_dump_json()
        self.append_line(line)
        self.head = hashlib.sha256(line.encode()).hexdigest()
        return record


def _last_line(path: Path) -> bytes:
    """The last complete line of a file, without its newline (b"" for none)."""
    if not path.exists():
        return b""
    with path.open("rb") as f:
        size = f.seek(0, os.SEEK_END)
        pos, buf = size, b""
        while pos > 0 and buf.count(b"\n") < 2:
            start = max(0, pos - 65536)
            f.seek(start)
            buf = f.read(pos - start) + buf
            pos = start
    lines = [x for x in buf.split(b"\n") if x.strip()]
    return lines[-1] if lines else b""


def chain_breaks(path: str | Path) -> tuple[int, list[str], str | None]:
    """An alerts file's hash chain checked: the records linked, a line for each whose
    ``prev_sha256`` is not the sha256 of the line before it (a record changed or taken out there),
    and the chain's end (the last line's sha256, to file). Records written before the chain (no
    ``prev_sha256`` past the first line) are named once."""
    p = Path(path)
    lines = [x for x in p.read_bytes().split(b"\n") if x.strip()]
    problems: list[str] = []
    linked = 0
    unchained = 0
    for i, line in enumerate(lines):
        try:
            prev = json.loads(line).get("prev_sha256")
        except ValueError:
            problems.append(f"{p}:{i + 1}: not a record")
            continue
        want = hashlib.sha256(lines[i - 1]).hexdigest() if i else None
        if prev is None and i:
            unchained += 1
        elif prev != want:
            problems.append(
                f"{p}:{i + 1}: the chain breaks here: the line before it is not the one it followed"
            )
        else:
            linked += 1
    if unchained:
        problems.append(f"{p}: {unchained} record(s) carry no link (written before the chain, or edited)")
    return linked, problems, hashlib.sha256(lines[-1]).hexdigest() if lines else None


def _cut_torn_tail(path: Path) -> None:
    """Drop a partial last line (a record cut off mid-write) so appends start on a fresh line."""
    if not path.exists():
        return
    with path.open("r+b") as f:
        size = f.seek(0, os.SEEK_END)
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        # find the last newline; everything after it is the torn record
        pos = size
        chunk = 4096
        while pos > 0:
            start = max(0, pos - chunk)
            f.seek(start)
            buf = f.read(pos - start)
            i = buf.rfind(b"\n")
            if i >= 0:
                f.truncate(start + i + 1)
                break
            pos = start
        else:
            f.truncate(0)
        f.flush()
        os.fsync(f.fileno())
    _log.warning("%s: dropped a torn last record (cut off mid-write)", path)


class AlertWriter:
    """Writes alerts durably (flush + fsync per alert) to an append-only JSONL file.

    ``write`` returns only once the alert is on disk; show it after that. ``on_written`` (optional)
    is called with each alert and the wall-clock time its write completed (for latency figures).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        on_written: Callable[[Alert, float], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self._out = _ChainedJsonl(self.path)
        self._on_written = on_written
        self.count = 0

    @property
    def head(self) -> str | None:
        """The sha256 of the file's last line: its hash chain's end."""
        return self._out.head

    def write(self, alert: Alert) -> Alert:
        """Append ``alert`` linked to the line before it (``Alert.prev_sha256``); returns it as written."""
        alert = self._out.append_linked(alert)
        self.count += 1
        if self._on_written is not None:
            self._on_written(alert, time.time())
        return alert

    def close(self) -> None:
        self._out.close()

    def __enter__(self) -> AlertWriter:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def read_alerts(path: str | Path) -> list[Alert]:
    """Read an alerts file. A torn last line is skipped; a bad record before it is an error (file:line)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise AlertFileError(f"{p}: cannot read alerts file: {e.strerror or e}") from e
    lines = raw.split(b"\n")
    complete = raw.endswith(b"\n") or raw == b""
    out: list[Alert] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = i == len(lines)
        try:
            out.append(Alert.model_validate_json(line))
        except ValidationError as e:
            if last and not complete:
                _log.warning("%s:%d: skipped a torn last record", p, i)
                continue
            raise AlertFileError(f"{p}:{i}: not a valid alert record: {e.errors()[0]['msg']}") from e
    return out


def _record_kind(record: BaseModel) -> str:
    """What a webhook POST carries (its ``X-Paigow-Record`` header): ``alert``, or ``camera`` for the
    camera's own events."""
    return "alert" if isinstance(record, Alert) else "camera"


WEBHOOK_SECRET_ENV = "PAIGOW_WEBHOOK_SECRET"


def sign(secret: bytes, timestamp: str, body: bytes) -> str:
    """A webhook POST's ``X-Paigow-Signature``: ``sha256=`` and the hex HMAC-SHA256 of
    ``<timestamp>.<body>`` under ``secret``. A receiver computes the same from the headers and the raw
    body, compares with ``hmac.compare_digest``, and refuses a timestamp too old (a replay)."""
    import hmac

    return "sha256=" + hmac.new(secret, timestamp.encode() + b"." + body, "sha256").hexdigest()


def _basic_auth(url: str) -> tuple[str, str | None]:
    """``url`` without its userinfo, and the HTTP basic ``Authorization`` value it gave (None: none)."""
    import base64
    from urllib.parse import unquote, urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    return urlunsplit(parts._replace(netloc=host)), f"Basic {token}"


class WebhookSender:
    """POSTs alerts as JSON to a URL from a background thread; undeliverable ones go to a dead letter.

    ``send`` never blocks: the alert joins a bounded queue (a full queue sends it straight to the
    dead-letter file). Each POST has ``timeout`` seconds; failures are retried ``retries`` times with
    exponential back-off from ``backoff`` seconds. ``close`` waits at most ``drain_timeout`` seconds.

    With a ``secret`` (``live`` takes it from the environment, ``PAIGOW_WEBHOOK_SECRET``: never on a
    command line), each POST is signed so the receiver can tell it came from the monitor and was not
    replayed: ``X-Paigow-Timestamp`` (Unix seconds) and ``X-Paigow-Signature: sha256=<hex>``, the
    HMAC-SHA256 of ``<timestamp>.<body>`` under the secret (``sign``).
    """

    def __init__(
        self,
        url: str,
        dead_letter: str | Path,
        *,
        timeout: float = 2.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_queue: int = 1000,
        secret: str | None = None,
    ) -> None:
        from vision.sources import redacted

        self._secret = secret.encode() if secret else None

        if not url.startswith(("http://", "https://")):
            raise ValueError(f"webhook URL must start with http:// or https://, got {redacted(url)!r}")
        # credentials in the URL (https://user:pw@host/...) are sent as HTTP basic auth, as curl
        # does (urllib would take them for the host), and are never logged nor dead-lettered
        self.url, self._auth = _basic_auth(url)
        self.shown_url = redacted(url)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.delivered = 0
        self.failed = 0
        self._dead = _DurableJsonl(Path(dead_letter))
        self._q: queue.Queue[BaseModel | None] = queue.Queue(maxsize=max_queue)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webhook", daemon=True)
        self._thread.start()

    def send(self, record: BaseModel) -> None:
        """Queue an ``Alert``, or another record (a camera event), for delivery."""
        try:
            self._q.put_nowait(record)
        except queue.Full:
            self._dead_letter(record, "webhook queue full")

    def _dead_letter(self, record: BaseModel, error: str) -> None:
        self.failed += 1
        kind = _record_kind(record)
        what = f"alert {record.alert_id}" if isinstance(record, Alert) else f"{kind} record"
        _log.warning("webhook %s: %s not delivered: %s", self.shown_url, what, error)
        self._dead.append(
            {
                "url": self.shown_url,
                "error": error,
                "failed_at": time.time(),
                kind: record.model_dump(mode="json"),
            }
        )

    def _post(self, record: BaseModel) -> None:
        body = record.model_dump_json().encode()
        req = urllib.request.Request(
            self.url,
            data=body,
            headers={"Content-Type": "application/json", "X-Paigow-Record": _record_kind(record)},
            method="POST",
        )
        if self._auth is not None:
            req.add_header("Authorization", self._auth)
        if self._secret is not None:
            stamp = str(int(time.time()))
            req.add_header("X-Paigow-Timestamp", stamp)
            req.add_header("X-Paigow-Signature", sign(self._secret, stamp, body))
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            status = int(resp.status)
            if status >= 300:
                raise urllib.error.HTTPError(self.shown_url, status, "unexpected status", resp.headers, None)

    def _run(self) -> None:
        while True:
            item = self._q.get()
            try:
                if item is None:
                    return
                self._deliver(item)
            finally:
                self._q.task_done()

    def _deliver(self, item: BaseModel) -> None:
        error = ""
        for attempt in range(self.retries + 1):
            try:
                self._post(item)
                self.delivered += 1
                return
            except (OSError, urllib.error.URLError, ValueError) as e:
                error = f"{type(e).__name__}: {e}"
            if attempt < self.retries and self._stop.wait(self.backoff * 2**attempt):
                break  # shutting down: no more back-off
        self._dead_letter(item, error)

    def close(self, drain_timeout: float = 5.0) -> None:
        """Deliver what is queued within ``drain_timeout`` seconds; dead-letter the rest."""
        deadline = time.monotonic() + drain_timeout
        while self._q.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.02)
        self._stop.set()  # cut back-off waits short
        left: list[BaseModel] = []
        while True:
            try:
                item = self._q.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                left.append(item)
        self._q.put(None)
        self._thread.join(timeout=max(0.1, deadline - time.monotonic()) + self.timeout)
        for a in left:
            self._dead_letter(a, "not delivered before shutdown")
        self._dead.close()
