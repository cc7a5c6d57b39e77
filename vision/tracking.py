"""From per-zone readings to table states: debounce flicker, hold occluded zones, stamp the time.

Every zone (``seat3.high``, ``seat3.chips``, ``seat3.payout``, ``dealer.hand``, ``iverify``, ``lcd``...) has a
``Debouncer``: a new reading replaces the zone's content only after it has held for ``hold_frames``
analysed frames and ``hold_s`` seconds, so a reading that flickers for a frame never reaches the state.
A zone that is occluded (the dealer's arm) gets no reading at all: it keeps its last known content and
is listed in the state's ``occluded``. ``TableTracker.update`` returns a new ``TableState`` only when
the debounced content changes.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from vision.layout import TableLayout
from vision.state import DealerState, IVerifyState, SeatState, TableState

__all__ = ["Debouncer", "IVerifyReading", "TableTracker", "zone_keys"]

T = TypeVar("T", bound=Hashable)


@dataclass
class Debouncer(Generic[T]):
    """Accepts a new value once it has been seen ``hold_frames`` times in a row over ``hold_s`` seconds."""

    value: T
    hold_frames: int = 2
    hold_s: float = 0.0
    _cand: T | None = None
    _has_cand: bool = False  # (None is a value too: a blank LCD)
    _count: int = 0
    _since: float = 0.0

    def __post_init__(self) -> None:
        if self.hold_frames < 1:
            raise ValueError(f"hold_frames must be at least 1, but got {self.hold_frames}")
        if self.hold_s < 0:
            raise ValueError(f"hold_s must not be negative, but got {self.hold_s}")

    @property
    def pending(self) -> bool:
        return self._has_cand

    def update(self, value: T, t: float) -> bool:
        """Feed one reading at time ``t``; True when the accepted value changed."""
        if value == self.value:
            self._cand, self._has_cand, self._count = None, False, 0
            return False
        if self._has_cand and value == self._cand:
            self._count += 1
        else:
            self._cand, self._has_cand, self._count, self._since = value, True, 1, t
        if self._count >= self.hold_frames and t - self._since >= self.hold_s - 1e-9:
            self.value, self._cand, self._has_cand, self._count = value, None, False, 0
            return True
        return False


@dataclass(frozen=True)
class IVerifyReading:
    visible: bool = True
    mode: str = "blank"
    seat: int | None = None
    high: tuple[str, ...] = ()
    low: tuple[str, ...] = ()


def zone_keys(layout: TableLayout) -> list[str]:
    """Every key a reading can have, in state order."""
    keys: list[str] = []
    for n in layout.seat_numbers:
        keys += [f"seat{n}.chips", f"seat{n}.payout", f"seat{n}.dealt", f"seat{n}.high", f"seat{n}.low"]
    keys += ["dealer.hand", "dealer.high", "dealer.low", "iverify", "lcd", "occluded"]
    return keys


def _initial(key: str) -> Hashable:
    if key.endswith((".chips", ".payout")):
        return False
    if key == "iverify":
        return IVerifyReading()
    if key == "lcd":
        return None
    if key == "occluded":
        return frozenset()
    return ()


@dataclass
class TableTracker:
    """Debounced table content; ``update`` with each analysed frame's readings."""

    layout: TableLayout
    hold_frames: int = 2
    hold_s: float = 0.0
    _zones: dict[str, Debouncer[Hashable]] = field(default_factory=dict)
    _last: dict[str, Hashable] = field(default_factory=dict)
    _emitted: bool = False

    def __post_init__(self) -> None:
        for k in zone_keys(self.layout):
            self._zones[k] = Debouncer(_initial(k), self.hold_frames, self.hold_s)
            self._last[k] = _initial(k)

    def update(
        self, readings: Mapping[str, Hashable], frame: int, t: float, *, force: bool = False
    ) -> TableState | None:
        """Feed the readings of one analysed frame (zones not named keep their last reading; an
        occluded zone is simply not read). Returns the new state when the debounced content changed
        (or on the first call, or with ``force``), else None."""
        for k, v in readings.items():
            if k not in self._zones:
                raise KeyError(f"frame {frame}: reading for unknown zone {k!r}")
            self._last[k] = v
        changed = False
        for k, deb in self._zones.items():
            changed |= deb.update(self._last[k], t)
        if changed or force or not self._emitted:
            self._emitted = True
            return self.state(frame, t)
        return None

    def pending(self) -> bool:
        """Whether some zone has a new reading that has not held long enough yet."""
        return any(d.pending for d in self._zones.values())

    def value(self, key: str) -> Hashable:
        return self._zones[key].value

    def reading(self, key: str) -> Hashable:
        """The zone's latest reading, whether or not it has held long enough (``value``: the one
        accepted)."""
        return self._last[key]

    def state(self, frame: int, t: float) -> TableState:
        z = {k: d.value for k, d in self._zones.items()}
        seats = [
            SeatState(
                seat=n,
                chips=bool(z[f"seat{n}.chips"]),
                payout=bool(z[f"seat{n}.payout"]),
                dealt=list(z[f"seat{n}.dealt"]),  # type: ignore[call-overload]
                high=list(z[f"seat{n}.high"]),  # type: ignore[call-overload]
                low=list(z[f"seat{n}.low"]),  # type: ignore[call-overload]
            )
            for n in self.layout.seat_numbers
        ]
        iv = z["iverify"]
        assert isinstance(iv, IVerifyReading)
        lcd = z["lcd"]
        return TableState(
            table_id=self.layout.table_id,
            frame=frame,
            t=round(t, 4),
            lcd=lcd if isinstance(lcd, int) else None,
            seats=seats,
            dealer=DealerState(
                hand=list(z["dealer.hand"]),  # type: ignore[call-overload]
                high=list(z["dealer.high"]),  # type: ignore[call-overload]
                low=list(z["dealer.low"]),  # type: ignore[call-overload]
            ),
            iverify=IVerifyState(
                visible=iv.visible,
                mode=iv.mode,
                seat=iv.seat,
                high=list(iv.high),
                low=list(iv.low),
            ),
            occluded=sorted(z["occluded"]),  # type: ignore[call-overload]
        )
