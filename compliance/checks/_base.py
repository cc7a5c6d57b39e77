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

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from compliance.events import CHECK_RULES, CheckId, Event, EventKind, Finding
from compliance.rounds import MonitorConfig, PositionState, RoundState
from rules.cards import JOKER_CODE, Card, CardParseError, format_cards, parse_cards
from rules.houseway import HouseWay
from rules.settings import Setting, SettingError
from vision.layout import TableLayout
from vision.state import BACK, TableState

__all__ = [
    "Check",
    "CheckContext",
    "UnsetSeatsCheck",
    "fmt",
    "house_way_setting",
    "setting_of",
    "show",
]

# cards a finding rests on that the camera named without reading their index where they lay, by the
# PositionState field that holds them, with what the finding says of them
_NAMED_WITHOUT_READ = (
    (
        "carried",
        "not read where it lay: {}, named as the one card missing from the hand the camera saw whole before",
    ),
    (
        "blank_corner",
        "named by a blank corner: {}, card-white paper where an index would print, so a Joker printing none",
    ),
    (
        "counted",
        "named by the count: {}, the one card of the hand not read surely, of the faces its read left open "
        "the one the table did not already show",
    ),
)


@dataclass(frozen=True)
class CheckContext:
    layout: TableLayout
    config: MonitorConfig
    house_way: HouseWay | None


class Check:
    """Base of every check: no-op hooks and the one way to make a finding."""

    check_id: ClassVar[CheckId]
    # the attributes that hold notes per round: dicts and sets keyed by the round's number, or by a
    # tuple that begins with it (``forget_before`` lets go of a closed round's); every other dict or
    # set a check keeps must be bounded of itself (tests/test_live_memory.py holds each check to this)
    per_round: ClassVar[tuple[str, ...]] = ("_done",)

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self._done: set[tuple[int, str]] = set()  # (round, key): a breach is reported once

    def forget_before(self, number: int) -> None:
        """Let go of the notes on every round numbered under ``number`` (closed rounds a live watch
        no longer keeps: ``Monitor.forget_rounds``)."""
        for name in self.per_round:
            kept: dict[Any, Any] | set[Any] = getattr(self, name)
            gone = [k for k in kept if (k[0] if isinstance(k, tuple) else k) < number]
            if isinstance(kept, set):
                kept.difference_update(gone)
            else:
                for key in gone:
                    del kept[key]

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        return []

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        return []

    def on_close(self, rnd: RoundState) -> list[Finding]:
        return []

    def reported(self, round_number: int, key: str) -> bool:
        """Whether ``key`` was reported in that round already (``once``), without marking it."""
        return (round_number, key) in self._done

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
        read: float | None = None,
        rests_on: Sequence[PositionState] = (),
        review: str | None = None,
    ) -> Finding:
        """``read``: the lowest camera read confidence of the face cards the finding rests on (None:
        sure, e.g. ground truth). A finding is no surer than its reads: its confidence is capped by it.
        ``rests_on``: the positions whose cards it rests on; a card of theirs the camera named from the
        hand seen whole before rather than read where it lay (``PositionState.carried``), by a blank
        corner (``PositionState.blank_corner``) or by the count (``PositionState.counted``), is said.
        ``review``: why the finding is a review item whatever its confidence (said in ``observed``)."""
        if read is not None and read < confidence:
            confidence = read
            observed = f"{observed} (camera read confidence {read:.2f}{_read_of(rests_on, read)})"
        for attr, says in _NAMED_WITHOUT_READ:
            named = [f"{c} at {p.name}" for p in rests_on for c in sorted(getattr(p, attr))]
            if named:
                observed += f" [{says.format(', '.join(named))}]"
        if rnd.void_reason is not None and self.check_id is not CheckId.FOREIGN_CARD:
            observed = f"{observed} [round void: {rnd.void_reason}]"
        if review is not None:
            observed = f"{observed} [for review: {review}]"
        return Finding(
            status="alert" if review is None else "review",
            round=rnd.number,
            check_id=self.check_id,
            seat=seat,
            t=t,
            frame=frame,
            rule=CHECK_RULES[self.check_id],
            expected=expected,
            observed=observed,
            confidence=_kept_to_3(confidence),
        )


def _read_of(positions: Sequence[PositionState], read: float) -> str:
    """Which cards of ``positions`` were read at ``read`` (``PositionState.kept_reads``), as ": Js at
    seat4" (at most three), for the reviewer to look at first; "" where no card's own read is it (a
    read combined from two pictures, an event's, or positions not given)."""
    named = list(
        dict.fromkeys(
            f"{c} at {p.name}"
            for p in positions
            for c, r in p.kept_reads()
            if c != BACK and abs(r - read) < 1e-9
        )
    )
    if not named:
        return ""
    more = f" and {len(named) - 3} more" if len(named) > 3 else ""
    return ": " + ", ".join(named[:3]) + more


def _kept_to_3(confidence: float) -> float:
    """A finding's confidence as recorded: three decimals, cut down, never rounded up. Rounded, a read
    of 0.6997 became 0.700, no longer under ``MonitorConfig.review_below`` (0.7): b56-0001 (seed 56,
    720p), a phantom 9c read 0.6997 at seat 6 as the dealer turned its hand up beside seat 2's 9c made
    a FOREIGN-CARD alert, and voided the round, instead of a review item."""
    return math.floor(confidence * 1000 + 1e-9) / 1000


def fmt(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


@dataclass
class _Wait:
    """A moment that needed every (other) active seat set, with seats whose state was in doubt."""

    event: Event
    doubtful: dict[str, str]  # position -> why it was in doubt ("hidden", "no cards seen", ...)
    read: float | None = None  # the camera's read of what made the moment (``trigger_read``)


class UnsetSeatsCheck(Check):
    """Base of the checks that need every active seat set at one moment (the ``trigger`` event).

    A seat without chips holds a dead hand (an empty spot, seed 000 rule 4): never a player, so it
    never blocks the i-Verify or the dealer's reveal. For each active seat not set at the trigger:

    * its cards lie unset in plain view (deal spot: confidence 1.0; only one of high/low: 0.9):
      reported at once;
    * in doubt - hidden by the arm, its cards off the felt ("no cards seen": picked up, or being
      moved into high/low), or a set not yet accepted by the debounce: judged later, never
      invented. Compliant when the seat is seen set within ``MonitorConfig.unset_grace_s`` of the
      trigger (or of coming out of hiding); a breach when it is then seen unset in plain view
      (confidence 0.9), is first seen set later than that (0.6), or never sets before the round
      closes (0.6; 0.5 if it was hidden all along).

    The finding carries the trigger's time and frame (the evidence of the breach), once per
    ``finding_key`` per round, and is no surer than the camera's read of what made the trigger
    (``trigger_read``, taken as the trigger comes).
    """

    trigger: ClassVar[EventKind]
    per_round = (*Check.per_round, "_waits")

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._waits: dict[int, list[_Wait]] = {}

    # what each check says
    def finding_seat(self, event: Event) -> int | None:
        return None

    def finding_key(self, event: Event) -> str:
        return "table"

    def texts(self, event: Event, unset: str) -> tuple[str, str]:
        raise NotImplementedError

    def trigger_read(self, event: Event, rnd: RoundState) -> float | None:
        """How sure the camera is that the trigger happened (None: sure, or not a camera's read)."""
        return None

    # the judgement
    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is not self.trigger:
            return []
        besides = self.finding_seat(event) if self.trigger is EventKind.IVERIFY_SEAT else None
        read = self.trigger_read(event, rnd)
        clear: list[tuple[PositionState, float]] = []
        doubtful: dict[str, str] = {}
        for p in rnd.active_seats():
            if p.seat == besides or p.is_set:
                continue
            # What was known at the event: a hiding or a pending change that began after it is news.
            if (p.hidden_since is not None and p.hidden_since <= event.t) or p.visible_since > event.t:
                doubtful[p.name] = "hidden"  # hidden at the event (in view again only since)
            elif p.pending_since is not None and p.pending_since <= event.t:
                doubtful[p.name] = "cards moving"
            elif p.status == "empty":
                doubtful[p.name] = "no cards seen at the seat"
            else:
                clear.append((p, 1.0 if p.status == "dealt" else 0.9))
        if clear:
            words = [_describe(p) for p, _ in clear] + [f"seat {n[4:]}: {why}" for n, why in doubtful.items()]
            return self._report(rnd, event, "; ".join(words), max(c for _, c in clear), read)
        if doubtful:
            self._waits.setdefault(rnd.number, []).append(_Wait(event, doubtful, read))
        return []

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            return []
        out: list[Finding] = []
        grace = self.ctx.config.unset_grace_s
        waits = self._waits.get(rnd.number, [])
        for w in list(waits):
            breach: tuple[str, float] | None = None
            for name in list(w.doubtful):
                p = rnd.positions[name]
                if p.set_event is not None:
                    if p.set_event.t <= max(w.event.t, p.visible_since) + grace:
                        del w.doubtful[name]  # set in time: the doubt resolves as compliant
                    else:
                        breach = (
                            f"seat {p.seat}: {w.doubtful[name]}, first seen set at "
                            f"t={p.set_event.t:.2f}s (frame {p.set_event.frame})",
                            0.6,
                        )
                elif not p.hidden and p.pending_since is None and p.status in ("dealt", "partial"):
                    breach = (
                        f"seat {p.seat}: {w.doubtful[name]} then, seen unset at t={state.t:.2f}s "
                        f"(frame {state.frame})",
                        0.9,
                    )
                if breach is not None:
                    break
            if breach is not None:
                waits.remove(w)
                out += self._report(rnd, w.event, breach[0], breach[1], w.read)
            elif not w.doubtful:
                waits.remove(w)
        return out

    def on_close(self, rnd: RoundState) -> list[Finding]:
        out: list[Finding] = []
        for w in self._waits.pop(rnd.number, []):
            never = [rnd.positions[n] for n in w.doubtful if rnd.positions[n].set_event is None]
            if never and (
                rnd.ended
                or rnd.last_state is None
                or rnd.last_state.t - w.event.t > self.ctx.config.unset_grace_s
            ):
                words = "; ".join(f"seat {p.seat}: {w.doubtful[p.name]}, never seen set" for p in never)
                conf = 0.5 if all(w.doubtful[p.name] == "hidden" for p in never) else 0.6
                out += self._report(rnd, w.event, words, conf, w.read)
        return out

    def _report(
        self, rnd: RoundState, event: Event, unset: str, confidence: float, read: float | None = None
    ) -> list[Finding]:
        if not self.once(rnd, self.finding_key(event)):
            return []
        expected, observed = self.texts(event, unset)
        return [
            self.finding(
                rnd,
                seat=self.finding_seat(event),
                t=event.t,
                frame=event.frame,
                expected=expected,
                observed=observed,
                confidence=confidence,
                read=read,
            )
        ]


def _describe(p: PositionState) -> str:
    what = {
        "dealt": f"{len(p.dealt)} cards unset in the deal spot",
        "partial": f"half set (high {len(p.high)}, low {len(p.low)})",
        "empty": "no cards seen at the seat",
        "set": "set",
    }[p.status]
    return f"seat {p.seat}: {what}"


def setting_of(high: Sequence[str], low: Sequence[str]) -> Setting | None:
    """The setting shown by two piles of face-up cards, or None when it cannot be read (a back, a
    token that is no card, a wrong count: CARD-COUNT and FOREIGN-CARD report those)."""
    if BACK in high or BACK in low:
        return None
    try:
        return Setting(high=parse_cards(list(high)), low=parse_cards(list(low)))
    except (CardParseError, SettingError):
        return None


def house_way_setting(house_way: HouseWay, setting: Setting) -> Setting | None:
    """The house way's setting of the same cards, or None when it cannot set them (a hand of the
    wrong size: CARD-COUNT reports that; a plug-in that refuses the hand)."""
    try:
        return house_way.set(tuple(setting.high) + tuple(setting.low)).setting
    except ValueError:  # HouseWayError, SettingError
        return None


def _display_order(card: Card) -> tuple[int, int]:
    return (-15 if card.is_joker else -card.pip, card.code % 4)


def show(setting: Setting) -> str:
    """``high Kc Kd 5c 3d 2s / low 9s 7h``: each hand highest card first (the Joker first)."""
    high = sorted(setting.high, key=_display_order)
    low = sorted(setting.low, key=_display_order)
    return f"high {format_cards(high)} / low {format_cards(low)}"


# the deck's 53 faces by name (one deck of 52 cards and the Joker: seed 002 rule 2.1)
DECK = tuple(str(Card.from_code(c)) for c in range(JOKER_CODE + 1))


def holds_whatever(
    parts: Sequence[Sequence[str]],
    places: Sequence[tuple[int, int]],
    holds: Callable[[list[list[str]]], bool],
) -> bool:
    """Whether ``holds`` is true of the cards ``parts`` (a setting's high and low hands, or two
    settings' four) whatever the cards at ``places`` are: each ``(part, index)`` filled with every card
    of the deck the other cards do not show (two places: every pair of them), an index one past its
    part's end a card added there. What a finding rests on when one or two cards are read under the
    review level, or one is not read at all: a card read 7s that is the 7c, or any other card the table
    does not show, changes nothing if ``holds`` stays true for every one (one deck holds each face
    once). ``holds`` raising ``ValueError`` (no setting: ``SettingError``, ``CardParseError``;
    ``SettlementError``) is not holding. At most two places: 53 x 52 tries."""
    if not 1 <= len(places) <= 2 or len(set(places)) != len(places):
        raise ValueError(f"one or two places to fill, each once, not {list(places)}")
    at = set(places)
    kept = {c for p, part in enumerate(parts) for i, c in enumerate(part) if (p, i) not in at}
    free = [c for c in DECK if c not in kept]
    for combo in itertools.permutations(free, len(places)):
        filled = [list(part) for part in parts]
        for (p, i), card in sorted(zip(places, combo, strict=True)):  # an added card after one replaced
            if i == len(filled[p]):
                filled[p].append(card)
            else:
                filled[p][i] = card
        try:
            if not holds(filled):
                return False
        except ValueError:
            return False
    return True
