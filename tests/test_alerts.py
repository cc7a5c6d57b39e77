"""Alerts: durable append-only JSONL (fsync per alert, torn last line), time codes, webhook delivery."""

from __future__ import annotations

import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from compliance.alerts import (
    Alert,
    AlertFileError,
    AlertWriter,
    WebhookSender,
    make_alert,
    read_alerts,
    timecode,
)
from compliance.events import CHECK_RULES, CheckId, Finding


def _alert(i: int, seat: int | None = 2) -> Alert:
    f = Finding(
        round=i,
        check_id=CheckId.HOUSE_WAY,
        seat=seat,
        t=61.5 + i,
        frame=615 + 10 * i,
        expected="high As Kd Qc Jh 9s low 7d 2c",
        observed="high As Kd Qc Jh 7d low 9s 2c",
    )
    return make_alert(
        f,
        table_id="T1",
        source="clip.mp4",
        detected_t=62.0 + i,
        detected_frame=620 + 10 * i,
        evidence="ev/x.jpg",
    )


def test_timecode_is_hh_mm_ss_mmm() -> None:
    assert timecode(0) == "00:00:00.000"
    assert timecode(3723.4567) == "01:02:03.457"
    assert timecode(59.9996) == "00:01:00.000"


def test_make_alert_cites_the_check_rule_and_names_the_finding() -> None:
    a = _alert(3)
    assert a.rule == CHECK_RULES[CheckId.HOUSE_WAY]
    assert a.timecode == "00:01:04.500" and a.frame == 645 and a.detected_frame == 650
    assert a.alert_id == "clip.mp4:r3:HOUSE-WAY:seat2:f645"
    assert _alert(3, seat=None).alert_id.endswith(":table:f645")


def test_writer_fsyncs_every_alert_and_reads_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    p = tmp_path / "sub" / "alerts.jsonl"
    seen: list[str] = []
    with AlertWriter(p, on_written=lambda a, at: seen.append(a.alert_id)) as w:
        for i in range(3):
            w.write(_alert(i))
            # on disk (and fsync'ed) by the time write returns
            assert len(read_alerts(p)) == i + 1
            assert len(synced) == i + 1
    assert [a.round for a in read_alerts(p)] == [0, 1, 2]
    assert seen == [a.alert_id for a in read_alerts(p)]


def test_torn_last_line_is_skipped_and_cut_before_the_next_append(tmp_path: Path) -> None:
    p = tmp_path / "alerts.jsonl"
    with AlertWriter(p) as w:
        w.write(_alert(1))
        w.write(_alert(2))
    whole = _alert(3).model_dump_json().encode()
    with p.open("ab") as f:  # the process died half-way through the third record
        f.write(whole[: len(whole) // 2])
    assert [a.round for a in read_alerts(p)] == [1, 2]
    with AlertWriter(p) as w:  # a restarted writer drops the torn tail, then appends cleanly
        w.write(_alert(4))
    assert [a.round for a in read_alerts(p)] == [1, 2, 4]
    assert p.read_bytes().count(b"\n") == 3


def test_torn_first_and_only_line(tmp_path: Path) -> None:
    p = tmp_path / "alerts.jsonl"
    p.write_bytes(b'{"alert_id": "x", "tab')
    assert read_alerts(p) == []
    with AlertWriter(p) as w:
        w.write(_alert(7))
    assert [a.round for a in read_alerts(p)] == [7]


def test_corrupt_record_before_the_last_line_is_an_error_naming_the_line(tmp_path: Path) -> None:
    p = tmp_path / "alerts.jsonl"
    p.write_text(_alert(1).model_dump_json() + "\n" + "{not json}\n" + _alert(2).model_dump_json() + "\n")
    with pytest.raises(AlertFileError, match=r"alerts.jsonl:2:"):
        read_alerts(p)


class _Hook(http.server.BaseHTTPRequestHandler):
    status = 200
    bodies: ClassVar[list[dict[str, object]]] = []
    headers_seen: ClassVar[list[str]] = []

    auth_seen: ClassVar[list[str | None]] = []
    signed: ClassVar[list[tuple[str | None, str | None, bytes]]] = []  # timestamp, signature, raw body

    def do_POST(self) -> None:
        n = int(self.headers["Content-Length"])
        type(self).headers_seen.append(str(self.headers.get("X-Paigow-Record")))
        type(self).auth_seen.append(self.headers.get("Authorization"))
        raw = self.rfile.read(n)
        sig = (self.headers.get("X-Paigow-Timestamp"), self.headers.get("X-Paigow-Signature"), raw)
        type(self).signed.append(sig)
        type(self).bodies.append(json.loads(raw))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hook_server() -> Iterator[tuple[str, type[_Hook]]]:
    handler = type(
        "H", (_Hook,), {"bodies": [], "headers_seen": [], "auth_seen": [], "signed": [], "status": 200}
    )
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/alerts", handler
    finally:
        srv.shutdown()
        srv.server_close()


def test_webhook_delivers_alerts_as_json(tmp_path: Path, hook_server: tuple[str, type[_Hook]]) -> None:
    url, handler = hook_server
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=1, backoff=0.01)
    s.send(_alert(1))
    s.send(_alert(2))
    s.close(drain_timeout=5)
    assert s.delivered == 2 and s.failed == 0
    assert [b["round"] for b in handler.bodies] == [1, 2]
    assert not (tmp_path / "dead.jsonl").read_text().strip()


def test_webhook_failures_are_retried_then_dead_lettered(
    tmp_path: Path, hook_server: tuple[str, type[_Hook]]
) -> None:
    url, handler = hook_server
    handler.status = 500
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=2, backoff=0.01)
    s.send(_alert(1))
    s.close(drain_timeout=5)
    assert len(handler.bodies) == 3  # first try + 2 retries
    dead = [json.loads(x) for x in (tmp_path / "dead.jsonl").read_text().splitlines()]
    assert len(dead) == 1 and dead[0]["alert"]["round"] == 1 and "500" in dead[0]["error"]


def test_a_camera_event_goes_to_the_webhook_marked_as_one(
    tmp_path: Path, hook_server: tuple[str, type[_Hook]]
) -> None:
    from compliance.live import CameraEvent

    url, handler = hook_server
    ev = CameraEvent(
        table_id="T1",
        source="cam",
        kind="feed_lost",
        trouble=True,
        t=12.5,
        timecode="00:00:12.500",
        frame=312,
        note="camera feed lost at t=12.50s",
        logged_at=0.0,
    )
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01)
    s.send(ev)
    s.send(_alert(1))
    s.close(drain_timeout=5)
    assert s.delivered == 2
    assert [CameraEvent.model_validate(handler.bodies[0]), handler.bodies[1]["round"]] == [ev, 1]
    assert handler.headers_seen == ["camera", "alert"]
    handler.status = 500  # undelivered, it is kept in the dead letter under its own key
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01)
    s.send(ev)
    s.close(drain_timeout=5)
    dead = [json.loads(x) for x in (tmp_path / "dead.jsonl").read_text().splitlines()]
    assert [CameraEvent.model_validate(d["camera"]) for d in dead] == [ev] and s.failed == 1


def test_webhook_unreachable_never_blocks_send(tmp_path: Path) -> None:
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    s = WebhookSender(
        f"http://127.0.0.1:{port}/",
        tmp_path / "dead.jsonl",
        timeout=0.5,
        retries=1,
        backoff=0.01,
        max_queue=1,
    )
    for i in range(5):  # a queue of one: the overflow goes straight to the dead letter
        s.send(_alert(i))
    s.close(drain_timeout=2)
    dead = [json.loads(x) for x in (tmp_path / "dead.jsonl").read_text().splitlines()]
    assert sorted(d["alert"]["round"] for d in dead) == [0, 1, 2, 3, 4]
    assert s.delivered == 0


def test_webhook_url_must_be_http(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="http"):
        WebhookSender("ftp://x", tmp_path / "d.jsonl")


def test_torn_tail_longer_than_the_read_chunk_is_cut_exactly(tmp_path: Path) -> None:
    p = tmp_path / "alerts.jsonl"
    with AlertWriter(p) as w:
        w.write(_alert(1))
    good = p.read_bytes()
    with p.open("ab") as f:
        f.write(b'{"alert_id": "' + b"x" * 10_000)  # a long record cut off mid-write
    with AlertWriter(p) as w:
        assert p.read_bytes() == good
        w.write(_alert(2))
    assert [a.round for a in read_alerts(p)] == [1, 2]


def test_webhook_credentials_in_the_url_are_sent_as_basic_auth_and_never_written(
    tmp_path: Path, hook_server: tuple[str, type[_Hook]], caplog: pytest.LogCaptureFixture
) -> None:
    import base64

    url, handler = hook_server
    with_auth = url.replace("http://", "http://surv:pa%3Ass@") + "?token=t0k3n"
    s = WebhookSender(with_auth, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01)
    s.send(_alert(1))
    s.close(drain_timeout=5)
    assert s.delivered == 1 and handler.bodies[0]["round"] == 1
    assert handler.auth_seen == ["Basic " + base64.b64encode(b"surv:pa:ss").decode()]
    handler.status = 500  # undelivered: the log line and the dead letter name the URL, not its secrets
    s = WebhookSender(with_auth, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01)
    with caplog.at_level("WARNING"):
        s.send(_alert(2))
        s.close(drain_timeout=5)
    dead = (tmp_path / "dead.jsonl").read_text()
    assert (
        json.loads(dead.splitlines()[0])["url"] == url.replace("http://", "http://surv:***@") + "?token=***"
    )
    for text in (dead, caplog.text):
        assert "pa%3Ass" not in text and "pa:ss" not in text and "t0k3n" not in text


def test_webhook_posts_are_signed_with_the_shared_secret(
    tmp_path: Path, hook_server: tuple[str, type[_Hook]]
) -> None:
    """A receiver tells the monitor's posts from anyone's: HMAC-SHA256 of "<timestamp>.<body>"."""
    import hashlib
    import hmac
    import time as _time

    url, handler = hook_server
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01, secret="k3y")
    s.send(_alert(1))
    s.close(drain_timeout=5)
    ((stamp, sig, raw),) = handler.signed
    assert stamp is not None and abs(int(stamp) - _time.time()) < 60
    expected = "sha256=" + hmac.new(b"k3y", stamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    assert sig is not None and hmac.compare_digest(sig, expected)
    forged = "sha256=" + hmac.new(b"other", stamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    assert not hmac.compare_digest(sig, forged)
    handler.signed.clear()  # no secret: no signature headers
    s = WebhookSender(url, tmp_path / "dead.jsonl", timeout=2, retries=0, backoff=0.01)
    s.send(_alert(2))
    s.close(drain_timeout=5)
    assert handler.signed[0][:2] == (None, None)


def test_an_alerts_file_is_a_hash_chain_that_a_change_or_a_removal_breaks(tmp_path: Path) -> None:
    """Each alert records the sha256 of the line before it (one run or the next appending): a record
    changed or taken out anywhere but at the end breaks the chain where it was, and the chain's end
    (the last line's sha256, printed by ``live``) is what covers the last record."""
    import hashlib

    from compliance.alerts import chain_breaks

    p = tmp_path / "alerts.jsonl"
    with AlertWriter(p) as w:
        written = [w.write(_alert(i)) for i in (1, 2)]
    assert written[0].prev_sha256 is None
    with AlertWriter(p) as w:  # the next run appends, linked to the last line on disk
        written.append(w.write(_alert(3)))
        head = w.head
    lines = p.read_bytes().splitlines()
    assert [a.prev_sha256 for a in written[1:]] == [hashlib.sha256(x).hexdigest() for x in lines[:2]]
    assert read_alerts(p) == written  # what was written is what is read
    assert chain_breaks(p) == (3, [], head) and head == hashlib.sha256(lines[2]).hexdigest()
    p.write_bytes(b"\n".join([lines[0], lines[2]]) + b"\n")  # the second alert taken out
    linked, problems, _ = chain_breaks(p)
    assert linked == 1 and problems == [
        f"{p}:2: the chain breaks here: the line before it is not the one it followed"
    ]
    edited = lines[0].replace(b"As Kd Qc Jh 9s", b"As Kd Qc Jh 9d")
    p.write_bytes(b"\n".join([edited, *lines[1:]]) + b"\n")  # the first alert's words changed
    assert [x.split(": ")[0] for x in chain_breaks(p)[1]] == [f"{p}:2"]
    # records from before the chain (no link past the first line) are said, not passed
    p.write_text("".join(_alert(i).model_dump_json() + "\n" for i in (1, 2)))
    assert chain_breaks(p)[1] == [f"{p}: 1 record(s) carry no link (written before the chain, or edited)"]
