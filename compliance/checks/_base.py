"""What every check shares: the check interface, the context it is built with, and small helpers.

A check is a small object with three hooks, each returning the findings it makes:

* ``on_event(event, round)``: called by the tracker for every event, with the round as it stands
  right after that event (so "is every active seat set?" is answered at the event's moment);
* ``on_state(state, round)``: called once per table state after its events (``round`` is the open
  round or None between rounds), for checks that watch durations or raw content;
* ``on_close(round)``: when a round closes, by ROUND_END (``round.ended``) or by the end of the
  footage (not ended: a check must not judge what the footage did not show).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from compliance.events import CHECK_RULES, CheckId, Event, Finding
from compliance.rounds import MonitorConfig, PositionState, RoundState
from rules.cards import Card, CardParseError, format_cards, parse_cards
from rules.houseway import HouseWay
from rules.settings import Setting, SettingError
from vision.layout import TableLayout
from vision.state import BACK, TableState

__all__ = [
    "Check",
    "CheckContext",
    "describe_unset",
    "fmt",
    "house_way_setting",
    "setting_of",
    "show",
    "unset_active_seats",
]


@dataclass(frozen=True)
class CheckContext:
    layout: TableLayout
    config: MonitorConfig
    house_way: HouseWay | None


class Check:
    """Base of every check: no-op hooks and the one way to make a finding."""

    check_id: ClassVar[CheckId]

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self._done: set[tuple[int, str]] = set()  # (round, key): a breach is reported once

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        return []

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        return []

    def on_close(self, rnd: RoundState) -> list[Finding]:
        return []

    def once(self, rnd: RoundState, key: str) -> bool:
        """True the first time ``key`` is seen in this round (then False)."""
        k = (rnd.number, key)
        if k in self._done:
            return False
        self._done.add(k)
        return True

    def finding(
        self,
        rnd: RoundState,
        *,
        seat: int | None,
        t: float,
        frame: int,
        expected: str,
        observed: str,
        confidence: float = 1.0,
    ) -> Finding:
        if rnd.void_reason is not None and self.check_id is not CheckId.FOREIGN_CARD:
            observed = f"{observed} [round void: {rnd.void_reason}]"
        return Finding(
            round=rnd.number,
            check_id=self.check_id,
            seat=seat,
            t=t,
            frame=frame,
            rule=CHECK_RULES[self.check_id],
            expected=expected,
            observed=observed,
            confidence=round(confidence, 3),
        )


def fmt(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def _unset_confidence(p: PositionState) -> float:
    """How sure "this seat is not set" is, from what its zones showed.

    1.0: its cards lie unset in the deal spot; 0.9: cards in only one of high/low (half set);
    0.6: no card seen at the seat (held in the player's hand, or missed by the camera);
    0.5: its zones were hidden (occluded) in the latest state, so its content is unknown.
    """
    if p.hidden:
        return 0.5
    return {"dealt": 1.0, "partial": 0.9, "empty": 0.6, "set": 0.0}[p.status]


def unset_active_seats(rnd: RoundState, *, besides: int | None = None) -> list[tuple[PositionState, float]]:
    """Active seats (chips in the bet circle) whose hand is not set now, with the confidence of that.

    A seat without chips holds a dead hand (an empty spot, seed 000 rule 4): never a player, so it
    never blocks the i-Verify or the dealer's reveal.
    """
    out = []
    for p in rnd.active_seats():
        if p.seat == besides or p.is_set:
            continue
        out.append((p, _unset_confidence(p)))
    return out


def describe_unset(items: list[tuple[PositionState, float]]) -> str:
    parts = []
    for p, _ in items:
        what = "hidden" if p.hidden else {
            "dealt": f"{len(p.dealt)} cards unset in the deal spot",
            "partial": f"half set (high {len(p.high)}, low {len(p.low)})",
            "empty": "no cards seen at the seat",
            "set": "set",
        }[p.status]
        parts.append(f"seat {p.seat}: {what}")
    return "; ".join(parts)


def setting_of(high: Sequence[str], low: Sequence[str]) -> Setting | None:
    """The setting shown by two piles of face-up cards, or None when it cannot be read (a back, a
    token that is no card, a wrong count: CARD-COUNT and FOREIGN-CARD report those)."""
    if BACK in high or BACK in low:
        return None
    try:
        return Setting(high=parse_cards(list(high)), low=parse_cards(list(low)))
    except (CardParseError, SettingError):
        return None


def house_way_setting(house_way: HouseWay, setting: Setting) -> Setting:
    """The house way's setting of the same cards."""
    return house_way.set(tuple(setting.high) + tuple(setting.low)).setting


def _display_order(card: Card) -> tuple[int, int]:
    return (-15 if card.is_joker else -card.pip, card.code % 4)


def show(setting: Setting) -> str:
    """``high Kc Kd 5c 3d 2s / low 9s 7h``: each hand highest card first (the Joker first)."""
    high = sorted(setting.high, key=_display_order)
    low = sorted(setting.low, key=_display_order)
    return f"high {format_cards(high)} / low {format_cards(low)}"
