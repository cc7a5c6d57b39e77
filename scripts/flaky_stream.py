"""Serve a video file as a live MJPEG-over-HTTP camera that drops out (and may be knocked): to try
`watch` and `live` on a feed that is lost and comes back, as a surveillance camera that reboots
does, and on a camera whose view moves (``--knock-at``, ``--knock-px``).

    .venv/bin/python scripts/flaky_stream.py sample_footage/s01-seven-compliant.mp4 --port 8765 \\
        --drop-at 20 --drop-for 12
    .venv/bin/paigow-monitor watch http://127.0.0.1:8765/ --layout sample_footage/render-7card.layout.yaml

The clip is played at its own frame rate from the moment the server starts (``--scale`` shrinks
the pictures first). At ``--drop-at`` seconds of footage the server cuts every connection and
refuses new ones for ``--drop-for`` seconds (what the reader sees of a camera that went away), then
goes on with the footage from where it would be had it never stopped: the frames of the outage are
never shown, as with a real camera. From ``--knock-at`` seconds on every picture is shifted
``--knock-px`` pixels to the right (a camera knocked on its mount). It stops at the clip's end.
"""

from __future__ import annotations

import argparse
import socket
import threading
import time
from pathlib import Path

import cv2
import numpy as np


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("video", type=Path)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--drop-at", type=float, default=20.0, help="footage seconds at which the feed drops")
    ap.add_argument("--drop-for", type=float, default=12.0, help="seconds the feed stays down")
    ap.add_argument("--scale", type=float, default=1.0, help="shrink the pictures (1 = as they are)")
    ap.add_argument("--knock-at", type=float, default=None, help="footage seconds at which the view moves")
    ap.add_argument("--knock-px", type=float, default=20.0, help="how far it moves, pixels to the right")
    a = ap.parse_args()
    cap = cv2.VideoCapture(str(a.video))
    if not cap.isOpened():
        raise SystemExit(f"error: {a.video}: cannot open")
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    frames: list[bytes] = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        if a.scale != 1.0:
            img = cv2.resize(img, None, fx=a.scale, fy=a.scale, interpolation=cv2.INTER_AREA)
        if a.knock_at is not None and len(frames) >= a.knock_at * fps:
            m = np.float32([[1, 0, a.knock_px], [0, 1, 0]])
            img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        frames.append(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    url = f"http://127.0.0.1:{a.port}/"
    print(f"{a.video}: {len(frames)} frames at {fps:g} fps; serving on {url}", flush=True)

    start = time.monotonic()
    down = (a.drop_at, a.drop_at + a.drop_for)  # seconds since the server started

    def now() -> float:
        return time.monotonic() - start

    def serve(conn: socket.socket) -> None:
        try:
            conn.recv(4096)
            conn.sendall(
                b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n"
            )
            while True:
                t = now()
                if down[0] <= t < down[1]:
                    return  # the camera went away: cut the connection
                i = int(t * fps)
                if i >= len(frames):
                    return
                jpg = frames[i]
                conn.sendall(
                    b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                    + str(len(jpg)).encode()
                    + b"\r\n\r\n"
                    + jpg
                    + b"\r\n"
                )
                time.sleep(max(0.0, (i + 1) / fps - now()))
        except OSError:
            pass
        finally:
            conn.close()

    srv = socket.create_server(("127.0.0.1", a.port))
    srv.settimeout(0.2)
    while now() < len(frames) / fps:
        try:
            conn, _ = srv.accept()
        except TimeoutError:
            continue
        if down[0] <= now() < down[1]:
            print(f"t={now():.1f}s: refused a connection (feed down)", flush=True)
            conn.close()
            continue
        print(f"t={now():.1f}s: a client connected", flush=True)
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
    print("end of footage", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
