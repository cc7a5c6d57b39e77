"""Evidence pictures: the frame that shows a breach, with the zones concerned and their cards marked.

The zones come from the table layout (``TableLayout.to_image``); the cards are those of the table
state at that frame. Above the frame, each card area concerned (and the i-Verify display) is shown
again enlarged, cut from the frame as the camera saw it before anything was drawn on it, with the
cards the camera named there and how sure it was of each (``TableState.card_reads``): what a
reviewer checks a doubtful read against without zooming into the frame (at 1280x720 a card's index
is a dozen pixels tall). When no camera frame is at hand (a ground-truth states stream with no
video), the picture is drawn from the layout and the state alone, and its caption says so.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import numpy as np

from compliance.events import CheckId, Finding
from vision.layout import Point, SeatZones, TableLayout
from vision.state import BACK, UNREAD, TableState

__all__ = ["draw_camera_evidence", "draw_evidence", "evidence_name", "write_evidence"]

_RED = (40, 40, 230)
_YELLOW = (0, 215, 255)
_GREY = (150, 150, 150)
_WHITE = (255, 255, 255)
_DEALER_CHECKS = {
    CheckId.IVERIFY_DEALER_EARLY,
    CheckId.DEALER_REVEAL_EARLY,
}
_EARLY_CHECKS = {CheckId.IVERIFY_SEAT_EARLY, CheckId.IVERIFY_DEALER_EARLY, CheckId.DEALER_REVEAL_EARLY}
_IVERIFY_CHECKS = {CheckId.IVERIFY_SEAT_EARLY, CheckId.IVERIFY_DEALER_EARLY, CheckId.IVERIFY_NOT_VISIBLE}


def _outline(layout: TableLayout, poly: list[Point]) -> np.ndarray:
    """A zone's outline in the picture's pixels (int32, for ``cv2.polylines``): its corners, and with a
    lens (``TableLayout.lens``) points every 10 mm along its edges too, which the lens bends."""
    if layout.lens is not None:
        dense: list[Point] = []
        for a, b in zip(poly, [*poly[1:], poly[0]], strict=True):
            n = max(1, int(np.hypot(b.x - a.x, b.y - a.y) // 10.0))
            dense += [Point(x=a.x + (b.x - a.x) * i / n, y=a.y + (b.y - a.y) * i / n) for i in range(n)]
        poly = dense
    return np.asarray(layout.to_image(poly).round().astype(np.int32))


def evidence_name(finding: Finding) -> str:
    """A file name that is unique per finding and stable across replays."""
    who = "table" if finding.seat is None else f"seat{finding.seat}"
    return f"r{finding.round:04d}_{finding.check_id.value}_{who}_f{finding.frame:07d}.jpg"


def _deal_zone(z: SeatZones) -> list[Point]:
    """A seat's deal spot; by default the rectangle around its high and low areas (layout contract)."""
    if z.deal is not None:
        return z.deal
    pts = z.high + z.low
    x0, x1 = min(p.x for p in pts), max(p.x for p in pts)
    y0, y1 = min(p.y for p in pts), max(p.y for p in pts)
    return [Point(x=x0, y=y0), Point(x=x1, y=y0), Point(x=x1, y=y1), Point(x=x0, y=y1)]


def _seat_zones(z: SeatZones, dealt: bool) -> list[tuple[str, list[Point]]]:
    out = [(f"seat{z.seat}.bet", z.bet)]
    if z.payout is not None:
        out.append((f"seat{z.seat}.payout", z.payout))
    if dealt:
        return [*out, (f"seat{z.seat}.deal", _deal_zone(z))]
    return [*out, (f"seat{z.seat}.high", z.high), (f"seat{z.seat}.low", z.low)]


def _has_dealt(state: TableState | None, seat: int) -> bool:
    if state is None:
        return False
    try:
        return bool(state.seat(seat).dealt)
    except KeyError:
        return False


def _zones(layout: TableLayout, finding: Finding, state: TableState | None) -> list[tuple[str, list[Point]]]:
    """The layout zones a finding concerns, named as TableState.occluded names them."""
    out: list[tuple[str, list[Point]]] = []
    if finding.check_id in _IVERIFY_CHECKS:
        out.append(("iverify", layout.iverify))
    if finding.check_id is CheckId.DEAL_ORDER:
        out.append(("lcd", layout.lcd))
    if finding.seat is not None and finding.seat in layout.seat_numbers:
        out += _seat_zones(layout.seat(finding.seat), _has_dealt(state, finding.seat))
        if finding.check_id is CheckId.SETTLEMENT:  # the hands compared: the dealer's setting too
            out += [("dealer.high", layout.dealer.high), ("dealer.low", layout.dealer.low)]
    elif finding.check_id in _DEALER_CHECKS or finding.seat is None:
        d = layout.dealer
        out += [("dealer.hand", d.hand), ("dealer.high", d.high), ("dealer.low", d.low)]
    if finding.check_id in _EARLY_CHECKS and state is not None:
        # the seats not yet set (cards still in the deal spot) are the proof of "too early"
        for s in state.seats:
            if s.chips and s.dealt and s.seat != finding.seat and s.seat in layout.seat_numbers:
                out.append((f"seat{s.seat}.deal", _deal_zone(layout.seat(s.seat))))
    return out


def _zone_cards(state: TableState | None, name: str) -> list[str]:
    if state is None:
        return []
    if name in state.occluded or name.partition(".")[0] in state.occluded:
        return ["(hidden from the camera)"]
    if name == "iverify":
        iv = state.iverify
        if not iv.visible:
            return ["(not visible)"]
        who = f"seat{iv.seat}" if iv.mode == "seat" else iv.mode
        return [who, *iv.high, "|", *iv.low] if iv.mode != "blank" else ["blank"]
    if name == "lcd":
        return [f"LCD {state.lcd}"] if state.lcd is not None else []
    who, _, part = name.partition(".")
    if who == "dealer":
        return list(getattr(state.dealer, part, []))
    try:
        seat = state.seat(int(who[4:]))
    except (KeyError, ValueError):
        return []
    if part == "bet":
        return ["chips"] if seat.chips else []
    if part == "payout":
        return ["chips"] if seat.payout else []
    if part == "deal":
        return list(seat.dealt)
    return list(getattr(seat, part, []))


def _all_zones(layout: TableLayout) -> list[tuple[str, list[Point]]]:
    out: list[tuple[str, list[Point]]] = []
    for z in layout.seats:
        out += [(f"seat{z.seat}.bet", z.bet), (f"seat{z.seat}.high", z.high), (f"seat{z.seat}.low", z.low)]
        if z.payout is not None:
            out.append((f"seat{z.seat}.payout", z.payout))
        out.append((f"seat{z.seat}.deal", _deal_zone(z)))
    d = layout.dealer
    out += [("dealer.hand", d.hand), ("dealer.high", d.high), ("dealer.low", d.low)]
    out += [("iverify", layout.iverify), ("lcd", layout.lcd)]
    return out


def draw_evidence(
    layout: TableLayout,
    finding: Finding,
    *,
    state: TableState | None = None,
    image: np.ndarray | None = None,
    table_id: str = "",
    clock: str | None = None,
) -> np.ndarray:
    """The evidence picture: the frame (or a drawing of the state) with the zones concerned marked;
    ``clock`` (``Alert.clock``, a live feed's): the frame's clock time, in the header beside its
    footage time."""
    import cv2

    from compliance.alerts import timecode

    drawn = image is None
    if image is None:
        canvas = np.zeros((layout.image_height, layout.image_width, 3), dtype=np.uint8)
        canvas[:] = (60, 110, 40)  # felt green
    else:
        canvas = image.copy()
    h, w = canvas.shape[:2]
    layout = layout.scaled_to(w, h, strict=False)  # a camera giving another size than calibrated on
    scale = max(0.5, w / 1280.0)
    thick = max(1, round(2 * scale))
    font = cv2.FONT_HERSHEY_SIMPLEX

    def label(text: str, org: tuple[int, int], color: tuple[int, int, int], fs: float) -> None:
        (tw, th), base = cv2.getTextSize(text, font, fs, thick)
        x, y = org
        x = min(max(0, x), max(0, w - tw - 2))
        y = min(max(th + 2, y), h - base - 2)
        cv2.rectangle(canvas, (x - 2, y - th - 2), (x + tw + 2, y + base + 2), (0, 0, 0), -1)
        cv2.putText(canvas, text, (x, y), font, fs, color, thick, cv2.LINE_AA)

    if drawn:  # no camera frame: draw every zone faintly and every card the state lists
        for name, poly in _all_zones(layout):
            pts = _outline(layout, poly)
            cards = _zone_cards(state, name)
            if name.endswith(".deal"):  # drawn only when cards lie there (it covers high and low)
                if cards:
                    label(
                        "dealt: " + " ".join(cards),
                        (int(pts[:, 0].min()), int(pts[:, 1].max()) + 14),
                        _WHITE,
                        0.4 * scale,
                    )
                continue
            cv2.polylines(canvas, [pts], True, _GREY, 1, cv2.LINE_AA)
            if cards:
                x, y = pts.min(axis=0)
                label(" ".join(cards), (int(x), int(y) + 14), _WHITE, 0.4 * scale)
    marked = _zones(layout, finding, state)
    close = None if image is None else _close_ups(image, layout, marked, state, scale, thick)
    for name, poly in marked:
        pts = _outline(layout, poly)
        cv2.polylines(canvas, [pts], True, _RED, thick + 1, cv2.LINE_AA)
        x0, y0 = pts.min(axis=0)
        cards = _zone_cards(state, name)
        # one label above the zone: its name and the cards the state shows there
        label(f"{name}: {' '.join(cards)}" if cards else name, (int(x0), int(y0) - 4), _YELLOW, 0.5 * scale)

    who = "dealer/table" if finding.seat is None else f"seat {finding.seat}"
    lines = [
        f"{table_id} round {finding.round} {who}  {finding.check_id.value}  "
        f"{timecode(finding.t)} (frame {finding.frame})" + (f"  at {clock[:23]}" if clock else ""),
    ]
    if finding.expected:
        lines += textwrap.wrap("expected: " + finding.expected, 110)
    if finding.observed:
        lines += textwrap.wrap("observed: " + finding.observed, 110)
    if drawn:
        lines.append("(drawn from the table state: no camera frame available)")
    return _under_bar(canvas, lines, scale, thick, close)


_CLOSE_UP_AREAS = (".high", ".low", ".hand", ".deal")  # the card areas shown again enlarged, and "iverify"
_CLOSE_UP_MAX = 4.0  # enlarged at most this much
_CAPTION_CHARS = 34  # a close-up's caption is given at least this many characters a line
_SEP = "  "  # between the cards of a caption (a card and its read stay on one line)


def _close_ups(
    image: np.ndarray,
    layout: TableLayout,
    zones: list[tuple[str, list[Point]]],
    state: TableState | None,
    scale: float,
    thick: int,
) -> np.ndarray | None:
    """A row of close-ups of the card areas among ``zones`` (and the i-Verify display), each cut
    from ``image`` around its outline and enlarged (to half the frame's height, at most
    ``_CLOSE_UP_MAX`` times; where the row would be wider than the frame, the most enlarged less
    first, down to a common factor), each over a caption: the area, how much it is enlarged, and its
    cards with their read confidences (``_read_cards``). None where no card area is concerned."""
    import cv2

    h, w = image.shape[:2]
    cuts: list[tuple[str, str, np.ndarray]] = []
    for name, poly in zones:
        if not (name.endswith(_CLOSE_UP_AREAS) or name == "iverify"):
            continue
        pts = _outline(layout, poly)
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        pad = round(0.05 * max(x1 - x0, y1 - y0))
        x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        if x1 - x0 >= 4 and y1 - y0 >= 4:
            cuts.append((name, _read_cards(state, name), image[y0:y1, x0:x1]))
    if not cuts:
        return None
    fs = 0.45 * scale
    (cw, lh), base = cv2.getTextSize("M", cv2.FONT_HERSHEY_SIMPLEX, fs, thick)
    lh += base + 4
    gap = max(4, round(8 * scale))
    text_w = max(1, min(_CAPTION_CHARS * cw, w // len(cuts) - 2 * gap))
    first = [min(_CLOSE_UP_MAX, 0.5 * h / c.shape[0]) for _, _, c in cuts]
    ks, cap = first, max(first)
    while (
        cap > 0.25
        and sum(max(c.shape[1] * k, text_w) for (_, _, c), k in zip(cuts, ks, strict=True))
        + gap * (len(cuts) + 1)
        > w
    ):
        cap *= 0.9  # the row fits the frame's width: the most enlarged made smaller first
        ks = [min(k, cap) for k in first]
    slots = [
        (round(c.shape[1] * k), round(c.shape[0] * k), max(round(c.shape[1] * k), text_w))
        for (_, _, c), k in zip(cuts, ks, strict=True)
    ]
    captions = [
        [f"{who} (x{k:.1f})", *_lines(said.split(_SEP), max(8, sw // cw))]
        for (who, said, _), (_, _, sw), k in zip(cuts, slots, ks, strict=True)
    ]
    tall = max(sh for _, sh, _ in slots)
    row = np.zeros((gap + tall + max(len(c) for c in captions) * lh + gap, w, 3), np.uint8)
    x = gap
    for (_, _, cut), (cw_, ch_, sw), caption in zip(cuts, slots, captions, strict=True):
        if cw_ >= 1 and ch_ >= 1 and x + cw_ <= w:
            row[gap : gap + ch_, x : x + cw_] = cv2.resize(cut, (cw_, ch_), interpolation=cv2.INTER_CUBIC)
        for i, text in enumerate(caption):
            y = gap + tall + (i + 1) * lh - base - 2
            color = _YELLOW if i == 0 else _WHITE
            cv2.putText(row, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, fs, color, thick, cv2.LINE_AA)
        x += sw + gap
    return row


def _read_cards(state: TableState | None, name: str) -> str:
    """The cards a state lists in a card area (``_zone_cards``), each face with its read confidence
    where the camera gave one, marked as the reports and the live view mark a card named without its
    index read there (``compliance.alerts.marked``: ``~`` carried over, ``*`` a blank corner, ``#`` by
    the count), and a ``?`` for each face found there and not named; "not read since it changed" for
    an area whose picture changed and was not read again (``UNREAD``)."""
    cards = _zone_cards(state, name)
    if state is None or not cards or cards[0].startswith("("):
        return _SEP.join(cards) if cards else "(no card)"
    if name == "iverify":
        read = state.read_confidence.get(name)
        return _SEP.join([*cards, f"(read {read:.2f})"] if read else cards)
    key = f"{name[: -len('.deal')]}.dealt" if name.endswith(".deal") else name
    if state.read_confidence.get(key) == UNREAD:
        return _SEP.join([*cards, "(not read since it changed)"])
    from compliance.alerts import UNNAMED_MARK, marked

    try:
        reads = state.card_reads(key)
    except ValueError:  # no such zone in this state: its cards as listed
        return _SEP.join(cards)
    named = (
        state.carried_faces.get(key, ()),
        state.blank_corner_faces.get(key, ()),
        state.counted_faces.get(key, ()),
    )
    out = []
    for card, read in zip(cards, reads, strict=True):
        shown = marked(card, *named)
        out.append(shown if read is None or card == BACK else f"{shown} {read:.2f}")
    out += [UNNAMED_MARK] * state.unread_faces.get(key, 0)
    return _SEP.join(out)


def _lines(items: list[str], width: int) -> list[str]:
    """``items`` joined by ``_SEP`` into lines of at most ``width`` characters, an item never split
    (one longer than ``width`` has a line of its own)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(_SEP) + len(item) <= width:
            lines[-1] += _SEP + item
        else:
            lines.append(item)
    return lines


def _under_bar(
    canvas: np.ndarray, lines: list[str], scale: float, thick: int, between: np.ndarray | None = None
) -> np.ndarray:
    """``canvas`` below a dark bar holding ``lines`` (the first in yellow: the heading), and
    ``between`` (as wide as ``canvas``) between the two where given: one picture made once."""
    import cv2

    h, w = canvas.shape[:2]
    lh = int(22 * scale)
    bar = lh * len(lines) + 8
    mid = 0 if between is None else between.shape[0]
    out = np.empty((h + bar + mid, w, 3), dtype=np.uint8)
    out[:bar] = 0
    if between is not None:
        out[bar : bar + mid] = between
    out[bar + mid :] = canvas
    for i, text in enumerate(lines):
        cv2.putText(
            out,
            text,
            (6, lh * (i + 1) - 4),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5 * scale,
            _YELLOW if i == 0 else _WHITE,
            thick,
            cv2.LINE_AA,
        )
    return out


def draw_camera_evidence(
    layout: TableLayout, image: np.ndarray, header: str, note: str, *, zones: bool = False
) -> np.ndarray:
    """The picture of a change in the camera's own state (``compliance.live.CameraEvent``): the frame
    under a bar with ``header`` and ``note``; with ``zones``, the layout's card areas drawn where they
    were calibrated, so a moved view shows them off the cards."""
    import cv2

    canvas = image.copy()
    layout = layout.scaled_to(canvas.shape[1], canvas.shape[0], strict=False)
    scale = max(0.5, canvas.shape[1] / 1280.0)
    thick = max(1, round(2 * scale))
    if zones:
        for name, poly in _all_zones(layout):
            if name.endswith((".high", ".low", ".hand")) or name in ("iverify", "lcd"):
                pts = _outline(layout, poly)
                cv2.polylines(canvas, [pts], True, _YELLOW, thick, cv2.LINE_AA)
    return _under_bar(canvas, [header, *textwrap.wrap(note, 110)], scale, thick)


def write_evidence(path: str | Path, picture: np.ndarray) -> str:
    """Write a JPEG atomically (temp name, then rename): a reader never sees half a picture. Returns
    the sha256 of the bytes written (the record says it: the picture can be shown untouched)."""
    import hashlib

    import cv2

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.stem}.{os.getpid()}.tmp{p.suffix}")
    ok, jpeg = cv2.imencode(p.suffix or ".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise OSError(f"{p}: could not write evidence picture")
    data = jpeg.tobytes()
    tmp.write_bytes(data)
    os.replace(tmp, p)
    return hashlib.sha256(data).hexdigest()
