"""The compliance engine: table states in, events and findings out, rounds rebuilt.

``Monitor`` wires the round state machine (``compliance.rounds``) to the checks
(``compliance.checks``): every event goes through every check at the moment it happens, every
state goes through the checks that watch durations and raw content, and a closing round goes
through each check's ``on_close``. The runners (live, audit, evaluate) only call ``feed``,
``finish`` and read ``rounds``.

A FOREIGN-CARD finding marks its round void; the checks keep running and their later findings say
the round is void (seed 002 rule 5.1); SETTLEMENT does not judge a void round (nothing in it stands).
A finding less sure than ``MonitorConfig.review_below`` (0.7) gets the status "review" instead of
"alert": it is written and shown like an alert, apart from them, for a person to look at (a finding
built on a doubtful camera read; see each check's docstring for its confidence). A FOREIGN-CARD
for review does not void the round. Every finding made while the camera's view has moved since the
watch began (``TableState.view_moved_px``: the zones may show what lies beside them) is for review
too, and says so.
The wagers' settlement is read from the chips: a payout spot filled, a bet circle emptied
(``TableState`` seats' ``payout`` and ``chips``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from compliance.checks import Check, CheckContext, build_checks
from compliance.events import CheckId, Event, EventKind, Finding, HandRecord, RoundRecord
from compliance.rounds import MonitorConfig, MonitorInputError, PositionState, RoundState, RoundTracker
from rules.cards import parse_cards
from rules.houseway import HouseWay, load_house_way
from vision.layout import TableLayout
from vision.state import BACK, TableState

__all__ = ["DEFAULT_HOUSE_WAYS", "Monitor", "MonitorConfig", "MonitorInputError", "Update"]

# The house way a table uses when none is given (SPEC.md "House way").
DEFAULT_HOUSE_WAYS = {"seven-card": "mbs-7card", "six-card": "wsgc-6card"}


class Update(BaseModel):
    """What one ``feed`` / ``finish`` call added: new events and new findings, in order."""

    model_config = ConfigDict(extra="forbid")

    events: list[Event] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)


def _default_house_way(layout: TableLayout) -> HouseWay:
    return load_house_way(DEFAULT_HOUSE_WAYS[layout.game])


def _warm_up(house_way: HouseWay, layout: TableLayout) -> None:
    """Set one hand now, so the first dealer setting of a live session is not slowed by the house
    way's first call (the shipped ones compile their kernel then: most of a second)."""
    cards = parse_cards("As Kd 9c 7h 5s 3d 2c" if layout.game == "seven-card" else "As Kd 9c 7h 5s 3d")
    house_way.set(cards)


class Monitor:
    """Watches one table: ``feed`` each state in time order, ``finish`` at the end of the footage.

    ``house_way``: the house way plug-in (``rules.houseway.load_house_way(name)``); by default the
    game's shipped one (``DEFAULT_HOUSE_WAYS``). A state the monitor cannot take (another table,
    time going backwards, an unknown seat) raises ``MonitorInputError`` naming the frame; what was
    recorded before it is kept and the monitor can go on with the next state.
    """

    def __init__(
        self,
        layout: TableLayout,
        *,
        house_way: HouseWay | None = None,
        config: MonitorConfig | None = None,
    ) -> None:
        self.layout = layout
        self.config = config or MonitorConfig()
        hw = house_way if house_way is not None else _default_house_way(layout)
        _warm_up(hw, layout)
        self._checks: list[Check] = build_checks(CheckContext(layout, self.config, hw), self.config.checks)
        self._tracker = RoundTracker(layout, self.config, sink=self._on_event)
        self._findings: dict[int, list[Finding]] = {}
        self._new: list[Finding] = []
        # the camera's view moved since the watch began (TableState.view_moved_px, latest state): the
        # layout's zones no longer lie where calibrated, so what they show may be another zone's
        self._view_moved: float | None = None

    # --- the runners' interface --------------------------------------------------------------
    def feed(self, state: TableState) -> Update:
        self._new = []
        self._view_moved = state.view_moved_px
        events = self._tracker.feed(state)
        rnd = self._open_round()
        for check in self._checks:
            self._record(rnd, check.on_state(state, rnd))
        return self._update(events)

    def finish(self) -> Update:
        """End of footage: the open round closes without a ROUND_END (none was seen)."""
        self._new = []
        open_round = self._open_round()
        events = self._tracker.finish()
        if open_round is not None and not open_round.ended:
            for check in self._checks:
                self._record(open_round, check.on_close(open_round))
        return self._update(events)

    @property
    def rounds(self) -> list[RoundRecord]:
        out = [self._record_of(r) for r in self._tracker.closed]
        rnd = self._open_round()
        if rnd is not None:
            out.append(self._record_of(rnd))
        return out

    def forget_rounds(self, keep: int) -> int:
        """Let go of every closed round but the last ``keep``: its record, its findings and the
        checks' notes on it; returns how many went. A live watch runs for days, and kept them all
        (about 65 kB a round: ``benchmarks/live_memory.py``); a round is judged while it is open and
        at its close, so the ones before the last few are only its report's, which the live watch
        does not write (an audit, which reports every round, never calls this). The round in play
        is never let go of."""
        if keep < 0:
            raise ValueError(f"keep must be >= 0, but got {keep}")
        closed = self._tracker.closed
        gone = len(closed) - keep
        if gone <= 0:
            return 0
        after = closed[gone - 1].number + 1  # rounds are numbered in the order they open
        for rnd in closed[:gone]:
            self._findings.pop(rnd.number, None)
        del closed[:gone]
        for check in self._checks:
            check.forget_before(after)
        return gone

    # --- internals ---------------------------------------------------------------------------
    def _open_round(self) -> RoundState | None:
        """The round in play, once it is confirmed (a tentative one may be a stray card)."""
        rnd = self._tracker.current
        return rnd if rnd is not None and rnd.confirmed else None

    def _update(self, events: list[Event]) -> Update:
        new, self._new = self._new, []
        return Update(events=events, findings=new)

    def _on_event(self, event: Event, rnd: RoundState) -> None:
        for check in self._checks:
            self._record(rnd, check.on_event(event, rnd))
        if event.kind is EventKind.ROUND_END:
            for check in self._checks:
                self._record(rnd, check.on_close(rnd))

    def _record(self, rnd: RoundState | None, findings: list[Finding]) -> None:
        if rnd is None or not findings:
            return
        for f in findings:
            if f.confidence < self.config.review_below:
                f = f.model_copy(update={"status": "review"})
            if self._view_moved is not None:  # found through zones that may be misplaced: for review
                note = f"; the camera's view had moved {self._view_moved:g} px (zones may be misplaced)"
                f = f.model_copy(update={"status": "review", "observed": f.observed + note})
            # a duplicate only suspected (a doubtful read) is for review and does not void the round
            if f.check_id is CheckId.FOREIGN_CARD and f.status == "alert" and rnd.void_reason is None:
                rnd.void_reason = f"FOREIGN-CARD at t={f.t:.2f}s, frame {f.frame}"
            self._findings.setdefault(rnd.number, []).append(f)
            rnd.findings.append(f)  # later checks may read what earlier ones found
            self._new.append(f)

    def _record_of(self, rnd: RoundState) -> RoundRecord:
        return RoundRecord(
            round=rnd.number,
            game=self.layout.game,
            t_start=rnd.t_start,
            t_end=rnd.t_end,
            lcd=rnd.lcd,
            hands=[_hand(p) for p in rnd.positions.values() if p.max_total > 0 or p.active],
            deal_order=[e.position or "" for e in rnd.deal_sequence],
            events=list(rnd.events),
            findings=list(self._findings.get(rnd.number, [])),
        )


def _faces(cards: tuple[str, ...]) -> bool:
    return bool(cards) and BACK not in cards


def _hand(p: PositionState) -> HandRecord:
    """A position's hand as far as it was seen: the setting once it showed faces, else backs."""
    high, low = p.set_high, p.set_low
    if p.seat is None and not (high or low):
        high, low = p.high, p.low
    cards: list[str] = []
    if _faces(high) and _faces(low):
        cards = list(high + low)
    elif p.seat is None and p.exposed_event is not None:
        cards = list(p.exposed_event.cards)
    set_by = p.set_by if (p.set_event is not None or p.seat is None) else "unknown"
    re_set = p.seat is not None and set_by == "dealer" and p.exposed_event is not None
    turned_up = p.exposed_event if re_set else None
    return HandRecord(
        position=p.name,
        seat=p.seat,
        active=p.active,
        cards=cards,
        high=list(high),
        low=list(low),
        set_by=set_by,
        carried=sorted(set(cards or [*high, *low]) & p.carried),
        blank_corner=sorted(set(cards or [*high, *low]) & p.blank_corner),
        counted=sorted(set(cards or [*high, *low]) & p.counted),
        turned_up_high=list(turned_up.high) if turned_up else [],
        turned_up_low=list(turned_up.low) if turned_up else [],
    )
