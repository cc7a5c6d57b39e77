"""The round state machine: a stream of ``TableState`` in, rounds and timestamped ``Event``s out.

How a round looks on the felt (SPEC.md "Events and checks"; seed 000 rules 3-6, seed 002 3.6-3.8):
the LCD shows the start position; hands are dealt one position at a time (every spot, occupied or
not, and the dealer); active players (chips in the bet circle) set their cards face down into their
high and low areas; the i-Verify display may show a seat's or the dealer's house way; the dealer
exposes his cards, sets them, turns each active hand face up, settles each wager (a payout stack
beside the bet circle, the wager taken, or a push left as it lies) and collects the cards.

What the tracker does with the stream:

* **Debounce.** Each of these is tracked on its own: a seat's chips, its payout spot; a position's cards (its
  dealt / high / low areas together, the dealer's hand / high / low together, so a card moving
  between two areas is one change); the i-Verify display; the LCD. A new content becomes
  *accepted* once it has lasted ``MonitorConfig.debounce_s`` seconds of footage: either a later
  state still shows it that long after it first appeared, or the next different content arrives
  that long after it with the zone seen in every state between (states may come at frame rate or
  only at changes). A flicker shorter than that never becomes an event. Accepted changes are
  applied in the order they were first seen, and every event carries the time and frame of the
  first state that showed it (the evidence frame).
* **Occlusion and missed frames.** A zone named in ``TableState.occluded`` (``"seat3.high"``, or a
  whole position ``"seat3"`` / ``"dealer"``; ``"iverify"``, ``"lcd"``), a zone the camera has not
  read again since its picture changed (``TableState.read_confidence`` ``UNREAD``), a seat missing
  from the state, an i-Verify display with ``visible=False`` and an LCD reading ``None`` are
  *unknown*, not empty: the zone keeps its accepted content, and a content glimpsed just before it was hidden
  must be seen again for the debounce time afterwards (one that had lasted the debounce time when
  the zone went out of view is accepted). Each position records whether it is hidden
  (and since when) and whether a change is still being debounced, so checks can tell "not set"
  from "not seen". Missed or late frames only delay acceptance.
* **Read confidence.** With camera input each position keeps the read confidence of the faces in
  its accepted areas (``PositionState.read_conf``) and of each card in them
  (``PositionState.card_conf``, from ``TableState.card_reads``), and each event showing faces carries
  the lowest (``Event.read_confidence``): the checks cap a finding's confidence by the reads of the
  cards it rests on (a setting: all of its cards; a duplicate: the reads of that card only). A
  hand the i-Verify display also showed, read there as the same faces, is read surer
  (``PositionState.corroborated``): two pictures of it agree.
* **No invented events.** Every event below needs an accepted change that shows it. A seat whose
  set was never seen has no SEAT_SET; checks that depend on it lower their confidence (see each
  check).

Events (each at most once per position per round unless said otherwise):

* ROUND_START: between rounds, the first accepted change that puts a card in any zone. The round
  is tentative (its events held back) until a second position holds cards or play is seen; a
  stray card that goes away before that is no round and makes no event.
* HAND_DEALT: a position's zones (seat: dealt+high+low; dealer: hand+high+low) first hold a card.
  The order of these events is the deal order.
* SEAT_SET: a seat's dealt spot is empty and both its high and its low area hold cards (face down
  or, on a face-up table, face up). ``set_by`` is "iverify" when the i-Verify display showed that
  seat while it was not set, else "player"; "player" becomes "dealer" when the hand, once turned up,
  is re-set (a face moves from one area to the other: the dealer re-setting a foul hand).
* IVERIFY_SEAT / IVERIFY_DEALER: the accepted display content changes to "SEAT n" / "DEALER" (again
  after it was blanked or showed something else).
* DEALER_EXPOSED: a face (not ``BACK``) first appears in any dealer zone.
* DEALER_SET: the dealer's hand zone is empty, his high and low areas hold face-up cards, and that
  setting differs from his last one (so a re-set is a second DEALER_SET).
* PLAYER_EXPOSED: after DEALER_EXPOSED, a set seat shows only faces in its high and low areas and
  nothing in its dealt spot (on a face-up table this is at DEALER_EXPOSED itself).
* HAND_CHANGED: a set seat's cards change other than by being turned face up in place (same
  number of cards per area, backs becoming faces) or being lifted to be turned; ``detail`` says
  "collected" (all its areas empty), "restored" (an area that was emptied after the reveal came
  back face down), "moved" otherwise.
* SEAT_PAID: during the round, chips appear in a seat's payout spot (the layout's ``payout``).
* WAGER_TAKEN: during the round, a seat's bet circle empties and the round goes on (cards still lie
  on the table after that state). Chips that leave in the very state that empties the table are the
  end of the round, not a settlement the camera saw (nothing is recorded for them).
* ROUND_END: every card zone is empty again after the round started.

A push shows no action: a seat with neither event whose wager still lies in its circle when the
round ends (``PositionState.wager_in``) was left as it was.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, cast

from pydantic import BaseModel, ConfigDict, Field

from compliance.events import Event, EventKind, Finding
from vision.layout import TableLayout
from vision.state import BACK, UNREAD, TableState

__all__ = [
    "MonitorConfig",
    "MonitorInputError",
    "PositionState",
    "RoundState",
    "RoundTracker",
    "SeenCount",
    "hidden_zones",
    "min_read",
    "position_zones",
    "seen_with_unread",
]

Tokens = tuple[str, ...]
Reads = tuple[float | None, ...]  # one confidence per card of an area (None: sure, or a back not scored)
SeatStatus = Literal["empty", "dealt", "partial", "set"]


class MonitorConfig(BaseModel):
    """Tunables of the monitor. Times are seconds of footage (``TableState.t``), never wall clock."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    debounce_s: float = Field(
        0.25, ge=0.0, description="a zone's new content counts once it has lasted this long (flicker filter)"
    )
    iverify_hidden_s: float = Field(
        5.0,
        gt=0.0,
        description="IVERIFY-NOT-VISIBLE fires when the display is hidden longer than this. 5 s: the "
        "dealer's arm settling or re-setting the hands next to the display passes over it for up to "
        "about 3 s (a passing arm is not a display surveillance cannot see), while a cover (a towel) "
        "stays for the rest of the round, many seconds",
    )
    unset_grace_s: float = Field(
        1.0,
        ge=0.0,
        description="a seat in doubt (hidden, cards off the felt) at an i-Verify use or the dealer's "
        "reveal counts as set if seen set this soon after",
    )
    face_down_counts_exact: bool = Field(
        True,
        description="True: the number of backs in a face-down pile is its card count (ground-truth "
        "states, fanned piles), so a change of count in a set hand is a change of the hand. False: a "
        "camera that sees a stacked pile as one or two backs; only a pile lifted, emptied or turned "
        "counts as a change",
    )
    checks: list[str] | None = Field(
        None, description="check ids to run (CheckId values); None runs every check the engine has"
    )
    review_below: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description="a finding less sure than this is a 'review' item (shown and recorded apart), not an "
        "alert. 0.7: a read's confidence is the stage-1 score x the classifier's p; on the five "
        "decorative held-out decks 5,976 of 5,988 index reads at >= 0.7 were right (99.80 %), 99.69 % at "
        ">= 0.6 and 99.64 % at >= 0.5 (benchmarks/read_calibration.py --data D5, the shipped detector; "
        "models/MODEL_CARD.md), so a finding resting on reads >= 0.7 rests on reads that are right. "
        "The checks' own doubts sit on the same scale: 0.5-0.6 for a breach judged on a moment the "
        "camera did not see (review), 0.7 and up for one seen (alert)",
    )


class MonitorInputError(ValueError):
    """A table state the monitor cannot take (wrong table, time going backwards, unknown seat)."""


# ----------------------------------------------------------------------------------------------
# Debounce
# ----------------------------------------------------------------------------------------------


@dataclass
class _Accepted:
    zone: str
    t: float
    frame: int
    old: object
    new: object


@dataclass
class _Zone:
    """One zone's accepted content and its pending candidate.

    A candidate is accepted once it is known to have lasted ``debounce`` seconds: seen again that
    long after it appeared, or replaced by another content that long after it appeared with the
    zone seen in every state between (a changes-only stream sends no state while nothing changes).
    A state in which the zone cannot be seen drops a pending candidate that has not yet lasted
    ``debounce``: what was glimpsed before an occlusion must be seen for ``debounce`` again
    afterwards (a one-frame glitch next to an occlusion never becomes an event); one that had
    lasted it is accepted.
    """

    name: str
    accepted: object = None
    cand: object = None
    cand_t: float = 0.0
    cand_frame: int = 0
    has_cand: bool = False

    def observe(self, value: object, t: float, frame: int, debounce: float) -> list[_Accepted]:
        out: list[_Accepted] = []
        if self.has_cand and value == self.cand:
            if t - self.cand_t >= debounce and self.cand != self.accepted:
                out.append(self._accept())
            return out
        # A different content: the old candidate lasted from cand_t until now, unless unseen between.
        if self.has_cand and self.cand != self.accepted and t - self.cand_t >= debounce:
            out.append(self._accept())
        self.cand, self.cand_t, self.cand_frame, self.has_cand = value, t, frame, True
        if debounce <= 0.0 and value != self.accepted:
            out.append(self._accept())
        return out

    def unseen(self, t: float, debounce: float) -> list[_Accepted]:
        """A state in which this zone could not be seen (occluded, display hidden, seat missing).

        A candidate that had already lasted ``debounce`` up to this state is accepted (the zone was
        seen showing it all that while: a changes-only stream sends nothing while nothing changes,
        and a hand lifted and put back under the dealer's arm is first hidden again when it returns);
        a shorter one is dropped."""
        if self.has_cand and self.cand != self.accepted:
            if t - self.cand_t >= debounce:
                return [self._accept()]
            self.has_cand = False
        return []

    @property
    def pending(self) -> object:
        """The content waiting to be accepted, or None."""
        return self.cand if self.has_cand and self.cand != self.accepted else None

    def settle(self, t: float, debounce: float) -> list[_Accepted]:
        """End of footage: a candidate that lasted ``debounce`` up to the last state counts."""
        if self.has_cand and self.cand != self.accepted and t - self.cand_t >= debounce:
            return [self._accept()]
        return []

    def _accept(self) -> _Accepted:
        acc = _Accepted(self.name, self.cand_t, self.cand_frame, self.accepted, self.cand)
        self.accepted = self.cand
        return acc


# ----------------------------------------------------------------------------------------------
# Round state (what the checks read)
# ----------------------------------------------------------------------------------------------


def _is_face(tok: str) -> bool:
    return tok != BACK


def min_read(*conf: float | None) -> float | None:
    """The lowest of some read confidences, None (sure) ignored; None when all are sure."""
    known = [c for c in conf if c is not None]
    return min(known) if known else None


def agreeing_reads(*conf: float | None) -> float | None:
    """The read confidence of cards that independent pictures of the same cards all read the same.

    A misread passes only if every picture was misread, and misread into the same cards, so the
    reads are combined as independent chances of being wrong: 1 - (1 - a)(1 - b)... (a conservative
    combination: it gives no credit for the misreads having to agree). None (sure) when any is sure.
    """
    known = [c for c in conf if c is not None]
    if not known or len(known) < len(conf):
        return None
    return 1.0 - math.prod(1.0 - c for c in known)


class SeenCount(NamedTuple):
    """A number of cards seen at a position, from the state at ``t`` (``frame``)."""

    n: int
    t: float
    frame: int


@dataclass
class PositionState:
    """One position's hand in the open round, as far as the accepted footage shows it."""

    name: str  # "dealer" or "seat<N>"
    seat: int | None
    active: bool = False  # chips seen in the bet circle during the round (never for the dealer)
    dealt: Tokens = ()  # seat: cards in the deal spot; dealer: his hand zone
    high: Tokens = ()
    low: Tokens = ()
    hidden: bool = False  # one of its zones was occluded in the latest state
    pending_since: float | None = None  # first seen holding cards not yet accepted (debounce)
    hidden_since: float | None = None  # hidden since then (None: in view in the latest state)
    visible_since: float = 0.0  # when it last came out of hiding (footage start if never hidden)
    max_total: int = 0  # most cards seen at once at this position
    max_total_event_t: float = 0.0
    max_total_frame: int = 0
    # most cards seen at once counting the faces the camera found and could not name, in one state
    # (seen_with_unread), and held so for UNREAD_HOLD_S (RoundTracker._note_unread), each with when
    # it was first seen (None: never)
    seen_unread: SeenCount | None = None
    held_unread: SeenCount | None = None
    unread_run: SeenCount | None = None  # the count every whole view has shown since its t
    # camera read confidence of the faces in dealt / high / low as accepted (None: sure, or no faces)
    read_conf: tuple[float | None, float | None, float | None] = (None, None, None)
    # each card's confidence in dealt / high / low as accepted, parallel to those (TableState.card_reads)
    card_conf: tuple[Reads, Reads, Reads] = ((), (), ())
    set_read: float | None = None  # read confidence of the faces of set_high / set_low when last seen
    set_card_conf: tuple[Reads, Reads] = ((), ())  # each card's of set_high / set_low then (card_conf)
    exposed_card_conf: tuple[Reads, Reads] = ((), ())  # each card's of exposed_event's high / low
    faces_seen: set[str] = field(default_factory=set)  # every face accepted at this position this round
    # faces some state named as the one card missing from the hand seen whole before rather than by
    # reading them where they lay (TableState.carried_faces), while this round was open
    carried: set[str] = field(default_factory=set)
    # ... of them, those named from the hand the i-Verify display showed (TableState.carried_from_display)
    carried_display: set[str] = field(default_factory=set)
    # faces some state named by a blank corner (a Joker printing no index; TableState.blank_corner_faces)
    blank_corner: set[str] = field(default_factory=set)
    # faces some state named by the count: the one card of the hand its reads left open that the table
    # did not already show (TableState.counted_faces)
    counted: set[str] = field(default_factory=set)
    # faces of dealt / high / low as accepted that a state showing them found lying apart as cards of
    # their own (TableState.apart_faces): not one card's two indices read in two suits (CARD-COUNT)
    apart: tuple[frozenset[str], frozenset[str], frozenset[str]] = (frozenset(), frozenset(), frozenset())
    dealt_event: Event | None = None
    dealt_earliest: float | None = None  # last time seen without cards before HAND_DEALT (None: never)
    seen_empty_at: float | None = None  # last time seen without cards, every area in view (this round)
    set_event: Event | None = None  # first SEAT_SET (seats) / DEALER_SET (dealer)
    set_by: Literal["player", "iverify", "dealer", "unknown"] = "unknown"
    set_high: Tokens = ()  # the setting last seen (face down or up)
    set_low: Tokens = ()
    iverify_events: list[Event] = field(default_factory=list)  # IVERIFY_SEAT / IVERIFY_DEALER for it
    iverify_before_set: bool = False
    exposed_event: Event | None = None  # PLAYER_EXPOSED (seats) / DEALER_EXPOSED (dealer)
    lifted_after_reveal: bool = False
    collected: bool = False
    wager_in: bool = False  # chips in the bet circle now (accepted content; never for the dealer)
    paid_event: Event | None = None  # SEAT_PAID: chips put in the payout spot
    taken_event: Event | None = None  # WAGER_TAKEN: the wager left the bet circle mid-round

    @property
    def total(self) -> int:
        return len(self.dealt) + len(self.high) + len(self.low)

    @property
    def read_confidence(self) -> float | None:
        """The lowest read confidence of the faces it shows now (None: every read sure)."""
        return min_read(*self.read_conf)

    def area_read(self, area: str) -> float | None:
        """Read confidence of one area: "dealt" (the dealer's "hand"), "high" or "low"."""
        return self.read_conf[{"dealt": 0, "hand": 0, "high": 1, "low": 2}[area]]

    def card_reads(self) -> list[tuple[str, float | None]]:
        """Each card it shows (dealt, high, low) with its own read confidence (None: sure)."""
        out: list[tuple[str, float | None]] = []
        for area, conf in zip((self.dealt, self.high, self.low), self.card_conf, strict=True):
            out += zip(area, conf if len(conf) == len(area) else (None,) * len(area), strict=True)
        return out

    def corroborated(self, read: float | None, cards: Sequence[str]) -> float | None:
        """``read``, the camera's read of ``cards`` on the felt, made surer by the i-Verify display.

        The display draws its own picture of this hand (``iverify_events``: the system's record of
        the cards, shown apart from the felt, every card whole and side by side). When a display of it
        was read as exactly these faces, both pictures would have to be misread into the same cards:
        the two reads combine (``agreeing_reads``) with the surest such display. Otherwise ``read``.
        A face of them named on the felt from the display's picture (``carried_display``) was read in
        one picture only: then no surer than ``read`` nor than that face's own reads
        (``_card_reads_of``).
        (The renderer draws the display with the deck's own art, a harder case than a real display's
        own graphics. ``benchmarks/display_agreement.py``, through the camera on the sample footage
        and a fresh 30-round batch (seed 41): of
        35 hands whose felt and display reads agreed, 30 were right and 5 were the same hand with one
        card missed in both pictures, a hand of the wrong size that no setting check judges; no card
        was misread into the same other card in both.)
        """
        want = Counter(cards)
        if read is None or read <= UNREAD or not want or BACK in want:  # unread: nothing to corroborate
            return read
        shown = [ev.read_confidence for ev in self.iverify_events if Counter([*ev.high, *ev.low]) == want]
        if not shown:
            return read
        carried = set(want) & self.carried_display
        if carried:
            # a face named from the display's own picture of the hand, not read where it lay
            # (``carried_display``) was read in one picture, not two: the hand is no surer than that
            # read. b95-0005 (seed 95, 720p): the dealer's Td, read 9d 0.63
            # on the display, was carried so onto the felt; the two "agreeing" reads made 0.86, and a
            # HOUSE-WAY alert on his compliant setting of a hand he did not hold.
            once = self._card_reads_of(carried)
            return min([read, *once]) if once else read
        if any(c is None for c in shown):
            return None
        return agreeing_reads(read, max(c for c in shown if c is not None))

    def _card_reads_of(self, cards: set[str]) -> list[float]:
        """Every read this position keeps of ``cards``: in its areas now, as last set, as turned up."""
        return [c for tok, c in self.kept_reads() if tok in cards]

    def kept_reads(self) -> list[tuple[str, float]]:
        """Every card read this position keeps, each with its read: in its areas now, as last set, as
        turned up (a card once for each; cards with no read, sure or backs, left out)."""
        out: list[tuple[str, float]] = []
        exposed = self.exposed_event
        for areas, confs in (
            ((self.dealt, self.high, self.low), self.card_conf),
            ((self.set_high, self.set_low), self.set_card_conf),
            ((tuple(exposed.high), tuple(exposed.low)) if exposed else ((), ()), self.exposed_card_conf),
        ):
            for area, conf in zip(areas, confs, strict=False):
                if len(conf) == len(area):
                    out += [(tok, c) for tok, c in zip(area, conf, strict=True) if c is not None]
        return out

    def note_set(self) -> None:
        """Keep the setting it shows now as the one last seen set (``set_high``, ``set_low``), with
        its reads."""
        self.set_high, self.set_low = self.high, self.low
        self.set_read = min_read(self.read_conf[1], self.read_conf[2])
        self.set_card_conf = (self.card_conf[1], self.card_conf[2])

    @property
    def cards(self) -> Tokens:
        return self.dealt + self.high + self.low

    @property
    def is_set(self) -> bool:
        return not self.dealt and bool(self.high) and bool(self.low)

    @property
    def status(self) -> SeatStatus:
        if self.is_set:
            return "set"
        if self.dealt:
            return "dealt"
        if self.high or self.low:
            return "partial"
        return "empty"


@dataclass
class RoundState:
    """The open (or a closed) round as the tracker rebuilt it; checks read it, never write it."""

    number: int
    layout: TableLayout
    config: MonitorConfig
    t_start: float
    frame_start: int
    lcd: int | None = None
    lcd_seen: bool = False
    partial_start: bool = False  # footage began mid-round: deal checks cannot judge it
    positions: dict[str, PositionState] = field(default_factory=dict)
    deal_sequence: list[Event] = field(default_factory=list)
    dealer_exposed: Event | None = None
    dealer_settings: list[Event] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    t_end: float | None = None
    ended: bool = False  # ROUND_END seen (False when the footage stopped first)
    last_state: TableState | None = None
    void_reason: str | None = None  # set by FOREIGN-CARD: later findings say the round is void
    findings: list[Finding] = field(default_factory=list)  # made so far (the engine appends)
    version: int = 0  # counts accepted changes applied to this round
    confirmed: bool = False  # a second hand dealt, or play seen: not a stray card (see RoundTracker)

    @property
    def hand_size(self) -> int:
        return 7 if self.layout.game == "seven-card" else 6

    @property
    def low_size(self) -> int:
        return self.hand_size - 5

    @property
    def dealer(self) -> PositionState:
        return self.positions["dealer"]

    def seat(self, n: int) -> PositionState:
        return self.positions[f"seat{n}"]

    def seats(self) -> list[PositionState]:
        return [p for p in self.positions.values() if p.seat is not None]

    def active_seats(self) -> list[PositionState]:
        return [p for p in self.seats() if p.active]


# ----------------------------------------------------------------------------------------------
# The tracker
# ----------------------------------------------------------------------------------------------

_SEAT_ZONES = ("dealt", "high", "low")
_DEALER_ZONES = ("hand", "high", "low")
# each area's (dealt / hand, high, low) faces found lying apart as cards of their own
_Apart = tuple[frozenset[str], frozenset[str], frozenset[str]]
_NONE_APART: _Apart = (frozenset(), frozenset(), frozenset())


def _observed_apart(pos: str, zones: tuple[str, str, str], hidden: set[str], state: TableState) -> _Apart:
    """A position's faces a state found lying apart (``TableState.apart_faces``), per area in view."""
    a, b, c = (
        frozenset() if f"{pos}.{z}" in hidden else frozenset(state.apart_faces.get(f"{pos}.{z}", ()))
        for z in zones
    )
    return a, b, c


# How long every whole view of a position must show a count, faces found and not named counted,
# before the checks doubt a hand by it (PositionState.held_unread; RoundTracker._note_unread).
UNREAD_HOLD_S = 1.0

_OCCLUSION_ALIASES = {"bet": "chips", "chips": "chips", "deal": "dealt", "dealt": "dealt", "payout": "payout"}


def position_zones(position: str) -> tuple[str, ...]:
    """A position's card zone keys in a ``TableState`` ("dealer.hand", "dealer.high", "dealer.low";
    "seat3.dealt", "seat3.high", "seat3.low")."""
    return tuple(f"{position}.{z}" for z in (_DEALER_ZONES if position == "dealer" else _SEAT_ZONES))


def hidden_zones(state: TableState) -> set[str]:
    """Zones whose content is unknown in this state: occluded, or (camera) changed and not read again
    (``TableState.read_confidence`` ``UNREAD``: cards being put down or moved show their old content)."""
    out: set[str] = {z.strip().lower() for z, c in state.read_confidence.items() if c <= UNREAD}
    for raw in state.occluded:
        name = raw.strip().lower()
        if "." in name:
            pos, zone = name.split(".", 1)
            out.add(f"{pos}.{_OCCLUSION_ALIASES.get(zone, zone)}")
        else:
            out.add(name)
    return out


def seen_with_unread(state: TableState, position: str, hidden: set[str] | None = None) -> int | None:
    """The cards a state shows at a position counting the faces the camera found there but could not
    read (``TableState.unread_faces``), when it shows the position whole: every area in view and read
    (None otherwise, or when it found no such face there: ``max_total`` counts the rest). ``hidden``:
    the state's ``hidden_zones``, when the caller has them already."""
    if not any(state.unread_faces.get(k, 0) for k in position_zones(position)):
        return None
    return _whole_count(state, position, hidden)


def _whole_count(state: TableState, position: str, hidden: set[str] | None = None) -> int | None:
    """The cards a state shows at a position, faces not named counted, when it shows it whole (every
    area in view and read); None otherwise."""
    keys = position_zones(position)
    hidden = hidden_zones(state) if hidden is None else hidden
    if position in hidden or any(k in hidden for k in keys):
        return None
    try:
        return sum(state.unread_faces.get(k, 0) + len(state.zone_cards(k)) for k in keys)
    except ValueError:  # a seat the state does not list
        return None


EventSink = Callable[[Event, RoundState], None]


class RoundTracker:
    """Turns table states into events and ``RoundState``s; hands every event to ``sink`` at once.

    ``sink(event, round)`` is called with the round as it stands right after the event (the engine
    runs the checks there), so a check sees exactly what was known at that moment.
    """

    def __init__(self, layout: TableLayout, config: MonitorConfig, sink: EventSink | None = None) -> None:
        self.layout = layout
        self.config = config
        self._sink = sink
        self._zones: dict[str, _Zone] = {}
        # A position's cards (its three areas together) are one zone: a card moving between two
        # areas in one frame, or seen in both for a frame, is one change, never an 8-card moment.
        for n in layout.seat_numbers:
            self._zones[f"seat{n}.chips"] = _Zone(f"seat{n}.chips")
            self._zones[f"seat{n}.payout"] = _Zone(f"seat{n}.payout")
            self._zones[f"seat{n}.cards"] = _Zone(f"seat{n}.cards")
        self._zones["dealer.cards"] = _Zone("dealer.cards")
        self._zones["iverify"] = _Zone("iverify")
        self._zones["lcd"] = _Zone("lcd")
        self._view: dict[str, object] = {}
        self.current: RoundState | None = None
        self.closed: list[RoundState] = []
        self._next_round = 1
        self._lcd: int | None = None
        self._lcd_read_t: float | None = None  # last state that showed an LCD value
        self._last_end_t: float | None = None  # when the last round ended
        self._last: TableState | None = None
        self._first: TableState | None = None
        self._out: list[Event] = []  # events delivered while applying one state's changes
        self._raw_empty_t: dict[str, float] = {}
        self._raw_has_cards: dict[str, bool] = {}
        self._windows: dict[str, list[tuple[float, float | None]]] = {}  # (cards seen, empty before)
        self._off: list[tuple[RoundState, PositionState, _Accepted]] = []  # wagers gone, judged per state
        # zone -> content -> read confidences of the latest state that showed it (camera input): of each
        # area's faces, and of each area's cards
        self._read: dict[str, dict[object, tuple[tuple[float | None, ...], tuple[Reads, ...]]]] = {}
        # zone -> content -> each area's faces that some state showing it found lying apart as cards
        # of their own (TableState.apart_faces; a geometric fact about the cards, kept over the views)
        self._apart: dict[str, dict[object, _Apart]] = {}
        # positions not seen whole since the camera's feed was lost (TableState.feed_lost): the table
        # went on unseen, so their accepted cards are from before; a hidden area of theirs does not stand
        # in for its cards with them (``_stale_hidden``)
        self._stale: set[str] = set()
        self._lcd_stale = False  # the LCD's accepted value is from before a lost feed (``_stale_hidden``)

    # --- input -------------------------------------------------------------------------------
    def feed(self, state: TableState) -> list[Event]:
        self._validate(state)
        self._last = state
        if self._first is None:
            self._first = state
        hidden = hidden_zones(state)
        hidden |= self._stale_hidden(state, hidden)
        present = {s.seat: s for s in state.seats}
        debounce = self.config.debounce_s
        changes: list[_Accepted] = []
        seen: set[str] = set()
        for n in self.layout.seat_numbers:
            s = present.get(n)
            pos = f"seat{n}"
            if s is None or pos in hidden:
                continue
            if f"{pos}.chips" not in hidden:
                seen.add(f"{pos}.chips")
                changes += self._zones[f"{pos}.chips"].observe(s.chips, state.t, state.frame, debounce)
            if f"{pos}.payout" not in hidden:
                seen.add(f"{pos}.payout")
                changes += self._zones[f"{pos}.payout"].observe(s.payout, state.t, state.frame, debounce)
            unsure = hidden | self._unread_as_kept(pos, s, _SEAT_ZONES, state)
            cards = self._observed_cards(pos, s, _SEAT_ZONES, unsure, state.t)
            if cards is not None:
                self._note_read(f"{pos}.cards", cards, self._observed_read(pos, _SEAT_ZONES, unsure, state))
                self._note_apart(f"{pos}.cards", cards, _observed_apart(pos, _SEAT_ZONES, unsure, state))
                seen.add(f"{pos}.cards")
                self._raw_cards(pos, cards, state.t, any(f"{pos}.{z}" in unsure for z in _SEAT_ZONES))
                changes += self._zones[f"{pos}.cards"].observe(cards, state.t, state.frame, debounce)
        if "dealer" not in hidden:
            unsure = hidden | self._unread_as_kept("dealer", state.dealer, _DEALER_ZONES, state)
            cards = self._observed_cards("dealer", state.dealer, _DEALER_ZONES, unsure, state.t)
            if cards is not None:
                self._note_read(
                    "dealer.cards", cards, self._observed_read("dealer", _DEALER_ZONES, unsure, state)
                )
                apart = _observed_apart("dealer", _DEALER_ZONES, unsure, state)
                self._note_apart("dealer.cards", cards, apart)
                seen.add("dealer.cards")
                self._raw_cards("dealer", cards, state.t, any(f"dealer.{z}" in unsure for z in _DEALER_ZONES))
                changes += self._zones["dealer.cards"].observe(cards, state.t, state.frame, debounce)
        iv = state.iverify
        if iv.visible and "iverify" not in hidden:
            shown = (iv.mode, iv.seat if iv.mode == "seat" else None, tuple(iv.high), tuple(iv.low))
            if iv.mode == "blank":
                shown = ("blank", None, (), ())
            seen.add("iverify")
            self._note_read("iverify", shown, ((state.read_confidence.get("iverify"),), ()))
            changes += self._zones["iverify"].observe(shown, state.t, state.frame, debounce)
        if state.lcd is not None and "lcd" not in hidden:
            seen.add("lcd")
            if not self._lcd_stale:
                self._lcd_read_t = state.t
            changes += self._zones["lcd"].observe(state.lcd, state.t, state.frame, debounce)
        for name, zone in self._zones.items():
            if name not in seen:
                changes += zone.unseen(state.t, debounce)
        if self.current is not None:
            self.current.last_state = state
        self._mark_hidden(state, hidden)
        events = self._apply(changes, state)
        self._note_carried(state)  # a change is accepted states after it is first shown: noted by then
        self._note_unread(state, hidden)
        self._mark_hidden(state, hidden)
        self._refresh_reads(seen)
        if (self._stale or self._lcd_stale) and not state.feed_lost:
            self._confirm_stale(state, hidden)
        return events

    def _stale_hidden(self, state: TableState, hidden: set[str]) -> set[str]:
        """The positions to count as hidden in ``state`` because the camera's feed was lost since their
        cards were last confirmed: a hidden area keeps its accepted content (``_observed_cards``), and
        across an outage that content is from before it, while the dealer may have turned, set or
        collected the cards unseen. Such a position is seen only whole (every area in view and read)
        until a whole view of it shows what is accepted for it, the content from before the outage or
        a new one accepted since (``_confirm_stale``). A live feed lost over s03's dealer setting his
        hand (``benchmarks/feed_drops.py``, the feed back 6.4 s later): the dealer's face-down pile,
        kept for his hand area each time his arm lay over it again, stood beside the high and low hands
        read anew, an 8-card dealer and a false CARD-COUNT alert. The LCD likewise: in the state that
        says the feed is lost it is not read (returned hidden), and its value is no evidence of where a
        deal starts until a read after the outage shows what is accepted for it."""
        if state.feed_lost:  # the table as last seen: every position's cards are from before the outage
            self._stale = {f"seat{n}" for n in self.layout.seat_numbers} | {"dealer"}
            # and the LCD read before it is no evidence of where a deal begun unseen starts (as a value
            # left from the last round is none, ``_new_round``): a 4-s drop over s14's LCD going 6 -> 2
            # (``benchmarks/feed_drops.py``) started the next round on the 6 and made seat 1 "passed
            # over", a false DEAL-ORDER alert
            self._lcd_read_t, self._lcd_stale = None, True
            return {"lcd"}
        return {p for p in self._stale if p in hidden or any(k in hidden for k in position_zones(p))}

    def _confirm_stale(self, state: TableState, hidden: set[str]) -> None:
        """A position stale since an outage (``_stale_hidden``) seen whole showing its accepted content
        is itself again; so is the LCD read showing its accepted value (a read of another value is a
        change pending, and the accepted one stays no evidence until that is accepted)."""
        lcd_confirmed = state.lcd is not None and state.lcd == self._zones["lcd"].accepted
        if self._lcd_stale and "lcd" not in hidden and lcd_confirmed:
            self._lcd_stale, self._lcd_read_t = False, state.t
        present = {"dealer"} | {f"seat{s.seat}" for s in state.seats}
        for pos in list(self._stale):
            if pos in hidden or pos not in present:
                continue
            shown = tuple(tuple(state.zone_cards(k)) for k in position_zones(pos))
            if shown == self._zones[f"{pos}.cards"].accepted:
                self._stale.discard(pos)

    def _note_carried(self, state: TableState) -> None:
        """The faces the camera named without reading their index surely, on their positions: by
        carry-over (``TableState.carried_faces``), by a blank corner (``TableState.blank_corner_faces``)
        and by the count (``TableState.counted_faces``)."""
        if self.current is not None:
            for faces, attr in (
                (state.carried_faces, "carried"),
                (state.carried_from_display, "carried_display"),
                (state.blank_corner_faces, "blank_corner"),
                (state.counted_faces, "counted"),
            ):
                for key, named in faces.items():
                    at = self.current.positions.get(key.partition(".")[0])
                    if at is not None:
                        getattr(at, attr).update(named)

    def _note_unread(self, state: TableState, hidden: set[str]) -> None:
        """The most cards each position of the open round was seen holding counting the faces found
        there and not named (``seen_with_unread``), for the checks that doubt a hand by it: in one
        state (``seen_unread``), and as every view of the position whole showed it for
        ``UNREAD_HOLD_S`` (``held_unread``; views not whole tell nothing, one naming every face ends
        it). An unread index is often a passing glimpse (b71-0006: a low hand's third index for
        0.24 s as the dealer's hand passed)."""
        if self.current is None:
            return
        for p in self.current.positions.values():
            unread = any(state.unread_faces.get(k, 0) for k in position_zones(p.name))
            if not unread and p.unread_run is None:
                continue  # nothing to count and no count to end (most states: no whole count taken)
            n = _whole_count(state, p.name, hidden)
            if n is None:
                continue  # not seen whole: the count held so far stands
            if not unread:
                p.unread_run = None
                continue
            if p.seen_unread is None or n > p.seen_unread.n:
                p.seen_unread = SeenCount(n, state.t, state.frame)
            run = p.unread_run
            p.unread_run = run = (
                SeenCount(n, state.t, state.frame) if run is None else run._replace(n=min(run.n, n))
            )
            if state.t - run.t >= UNREAD_HOLD_S and (p.held_unread is None or run.n > p.held_unread.n):
                p.held_unread = run

    def _kept(self, pos: str, t: float) -> tuple[Tokens, Tokens, Tokens]:
        """What a hidden area of a position shows: its accepted content, or the content that this very
        state accepts (a candidate that has lasted the debounce time is accepted whatever it is followed
        by): a card set moved while the old content was still accepted is not mixed with it (the
        dealer's stale face-down hand beside his set hand would read as one card too many)."""
        z = self._zones[f"{pos}.cards"]
        if z.has_cand and z.cand != z.accepted and t - z.cand_t >= self.config.debounce_s:
            return cast(tuple[Tokens, Tokens, Tokens], z.cand)
        return self._cards(pos)

    def _unread_as_kept(
        self, pos: str, src: object, zones: tuple[str, str, str], state: TableState
    ) -> set[str]:
        """A position's areas whose faces found and not named (``TableState.unread_faces``) make up
        their accepted content: every face named there is one it holds, and the faces not named fill
        the count. Such a view does not contradict the accepted content and is not news of a change;
        the area counts as hidden for the cards (its accepted content and reads are kept), as an area
        changed and not read again does (``hidden_zones``). b81-0009 (seed 81, 720p): seat 2's high
        hand, turned up and settled, read one face short with one face not named for 0.8 s before it
        was collected; the round had taken that read as the hand moved, and rebuilt it a card short."""
        out: set[str] = set()
        if not state.unread_faces:
            return out
        accepted = self._kept(pos, state.t)
        for i, z in enumerate(zones):
            key = f"{pos}.{z}"
            n = state.unread_faces.get(key, 0)
            was = accepted[i]
            if not n or not was or not all(_is_face(c) for c in was):
                continue
            now = tuple(getattr(src, z))
            if len(now) + n == len(was) and not Counter(now) - Counter(was):
                out.add(key)
        return out

    def _observed_cards(
        self, pos: str, src: object, zones: tuple[str, str, str], hidden: set[str], t: float
    ) -> tuple[Tokens, Tokens, Tokens] | None:
        """A position's three areas as seen; a hidden area keeps its accepted content (None: all hidden)."""
        accepted = self._kept(pos, t)
        parts: list[Tokens] = []
        seen = False
        for i, z in enumerate(zones):
            if f"{pos}.{z}" in hidden:
                parts.append(accepted[i])
            else:
                parts.append(tuple(getattr(src, z)))
                seen = True
        return (parts[0], parts[1], parts[2]) if seen else None

    def _observed_read(
        self, pos: str, zones: tuple[str, str, str], hidden: set[str], state: TableState
    ) -> tuple[tuple[float | None, ...], tuple[Reads, ...]]:
        """Read confidence of a position's three areas as seen, of their faces and of each card (a
        hidden area keeps the reads of the content it keeps, ``_kept``)."""
        kept_cards = self._kept(pos, state.t)
        kept = self._read_of(f"{pos}.cards", kept_cards) or ((None, None, None), ((), (), ()))
        zone: list[float | None] = []
        cards: list[Reads] = []
        for i, z in enumerate(zones):
            key = f"{pos}.{z}"
            if key in hidden:
                zone.append(kept[0][i])
                cards.append(kept[1][i] if len(kept[1]) > i else (None,) * len(kept_cards[i]))
            else:
                zone.append(state.read_confidence.get(key))
                cards.append(tuple(state.card_reads(key)))
        return tuple(zone), tuple(cards)

    def _note_read(
        self, zone: str, content: object, conf: tuple[tuple[float | None, ...], tuple[Reads, ...]]
    ) -> None:
        known = any(c is not None for c in conf[0]) or any(c is not None for a in conf[1] for c in a)
        if known or content in self._read.get(zone, {}):
            self._read.setdefault(zone, {})[content] = conf

    def _note_apart(self, zone: str, content: object, apart: _Apart) -> None:
        if any(apart):
            kept = self._apart.setdefault(zone, {}).get(content, _NONE_APART)
            self._apart[zone][content] = (kept[0] | apart[0], kept[1] | apart[1], kept[2] | apart[2])

    def _read_of(
        self, zone: str, content: object
    ) -> tuple[tuple[float | None, ...], tuple[Reads, ...]] | None:
        return self._read.get(zone, {}).get(content)

    def _raw_cards(
        self, pos: str, cards: tuple[Tokens, Tokens, Tokens], t: float, partly_hidden: bool
    ) -> None:
        """Raw sightings, for deal windows: when a position last showed no card before it held some
        (with every area in view: a hidden or unread area may hold cards already)."""
        if not any(cards):
            if partly_hidden:
                return
            self._raw_empty_t[pos] = t
            self._raw_has_cards[pos] = False
            if self.current is not None and pos in self.current.positions:
                self.current.positions[pos].seen_empty_at = t
        elif not self._raw_has_cards.get(pos, False):
            self._raw_has_cards[pos] = True
            self._windows.setdefault(pos, []).append((t, self._raw_empty_t.get(pos)))

    def finish(self) -> list[Event]:
        """End of footage: accept what lasted long enough; the open round closes without ROUND_END."""
        if self._last is None:
            return []
        changes: list[_Accepted] = []
        for zone in self._zones.values():
            changes += zone.settle(self._last.t, self.config.debounce_s)
        events = self._apply(changes, self._last)
        if self.current is not None and self.current.confirmed:
            self.closed.append(self.current)
        self.current = None
        return events

    @property
    def last_state(self) -> TableState | None:
        return self._last

    # --- internals ---------------------------------------------------------------------------
    def _validate(self, state: TableState) -> None:
        if state.table_id != self.layout.table_id:
            raise MonitorInputError(
                f"frame {state.frame}: table_id {state.table_id!r} but the monitor watches "
                f"{self.layout.table_id!r}"
            )
        if self._last is not None and state.t < self._last.t:
            raise MonitorInputError(
                f"frame {state.frame}: t={state.t:.3f}s goes back before frame {self._last.frame} "
                f"(t={self._last.t:.3f}s); states must come in time order"
            )
        known = set(self.layout.seat_numbers)
        for s in state.seats:
            if s.seat not in known:
                raise MonitorInputError(
                    f"frame {state.frame}: seat {s.seat} is not on table {self.layout.table_id} "
                    f"(seats {sorted(known)})"
                )

    def _mark_hidden(self, state: TableState, hidden: set[str]) -> None:
        rnd = self.current
        if rnd is None:
            return
        present = {s.seat for s in state.seats}
        for p in rnd.positions.values():
            zone = self._zones[f"{p.name}.cards"]
            pend = zone.pending
            p.pending_since = zone.cand_t if isinstance(pend, tuple) and any(pend) else None
            was_hidden = p.hidden
            if p.seat is not None and p.seat not in present:
                p.hidden = True
            else:
                p.hidden = p.name in hidden or any(h.startswith(p.name + ".") for h in hidden)
            if p.hidden and not was_hidden:
                p.hidden_since = state.t
            elif was_hidden and not p.hidden:
                p.hidden_since = None
                p.visible_since = state.t

    def _emit(self, rnd: RoundState, ev: Event) -> Event:
        rnd.events.append(ev)
        if rnd.confirmed:
            self._deliver(rnd, ev)
        return ev

    def _deliver(self, rnd: RoundState, ev: Event) -> None:
        self._out.append(ev)
        if self._sink is not None:
            self._sink(ev, rnd)

    def _confirm(self, rnd: RoundState) -> None:
        """A round is real once a second hand is dealt or play is seen; until then its events wait.

        One card lying in one zone for a moment (a stray or misread card between rounds) is not a
        round: if it goes away before that, the tentative round is dropped without a trace.
        """
        if rnd.confirmed:
            return
        played = any(e.kind not in (EventKind.ROUND_START, EventKind.HAND_DEALT) for e in rnd.events)
        if played or len(rnd.deal_sequence) >= 2 or rnd.partial_start:
            rnd.confirmed = True
            for ev in rnd.events:
                self._deliver(rnd, ev)

    def _apply(self, changes: list[_Accepted], state: TableState) -> list[Event]:
        self._out = []
        order = list(self._zones)
        changes.sort(key=lambda c: (c.t, c.frame, order.index(c.zone)))
        for ch in changes:
            if self._off and (self._off[0][2].t, self._off[0][2].frame) != (ch.t, ch.frame):
                self._wagers_taken()
            self._view[ch.zone] = ch.new
            self._on_change(ch, state)
        self._wagers_taken()
        out, self._out = self._out, []
        return out

    def _wagers_taken(self) -> None:
        """Wagers that left their bet circle, once every change first seen with them is applied: taken
        if the round goes on (a WAGER_TAKEN), nothing if that same state emptied the table."""
        for rnd, p, ch in self._off:
            if rnd is self.current and not p.wager_in and p.taken_event is None:
                p.taken_event = _event(rnd, EventKind.WAGER_TAKEN, ch, p, detail=_settle_detail(p))
                self._emit(rnd, p.taken_event)
        self._off = []

    def _cards(self, pos: str) -> tuple[Tokens, Tokens, Tokens]:
        got = self._view.get(f"{pos}.cards")
        if got is None:
            return (), (), ()
        return cast(tuple[Tokens, Tokens, Tokens], got)

    def _any_cards(self) -> bool:
        return any(any(self._cards(k[:-6])) for k in self._view if k.endswith(".cards"))

    def _new_round(self, ch: _Accepted, state: TableState) -> RoundState:
        # The LCD value counts for this round only if the LCD was read since the last round ended
        # (a value left from the last round is no evidence of this round's start position).
        fresh = self._lcd_read_t is not None and (
            self._last_end_t is None or self._lcd_read_t > self._last_end_t
        )
        lcd = self._lcd if fresh else None
        rnd = RoundState(
            number=self._next_round,
            layout=self.layout,
            config=self.config,
            t_start=ch.t,
            frame_start=ch.frame,
            lcd=lcd,
            lcd_seen=lcd is not None,
            last_state=state,
        )
        self._next_round += 1
        rnd.positions["dealer"] = PositionState("dealer", None, set_by="dealer")
        for n in self.layout.seat_numbers:
            ps = PositionState(f"seat{n}", n)
            ps.active = ps.wager_in = self._view.get(f"seat{n}.chips") is True
            rnd.positions[ps.name] = ps
        self.current = rnd
        detail = f"LCD {rnd.lcd}" if rnd.lcd is not None else "LCD not seen"
        self._emit(rnd, _event(rnd, EventKind.ROUND_START, ch, detail=detail))
        return rnd

    def _on_change(self, ch: _Accepted, state: TableState) -> None:
        if ch.zone == "lcd":
            self._on_lcd(ch)
            return
        rnd = self.current
        if rnd is None:
            if ch.zone == "iverify" or ch.zone.endswith((".chips", ".payout")) or not self._any_cards():
                return  # between rounds: chips and the display are kept in the view only
            rnd = self._new_round(ch, state)
            self._detect_partial_start(rnd)
        rnd.version += 1
        if ch.zone == "iverify":
            self._on_iverify(rnd, ch)
        else:
            pos, zone = ch.zone.split(".", 1)
            if zone == "chips":
                p = rnd.positions[pos]
                p.wager_in = ch.new is True
                if p.wager_in:
                    p.active = True
                else:
                    self._off.append((rnd, p, ch))
            elif zone == "payout":
                self._on_payout(rnd, rnd.positions[pos], ch)
            elif pos == "dealer":
                self._on_dealer(rnd, ch)
            else:
                self._on_seat(rnd, rnd.positions[pos], ch)
        self._confirm(rnd)
        if not self._any_cards():
            self.current = None
            self._windows = {}
            self._read = {}
            self._apart = {}
            if not rnd.confirmed:
                self._next_round -= 1  # a stray card, not a round
                return
            rnd.t_end = ch.t
            rnd.ended = True
            self._last_end_t = state.t
            self._emit(rnd, _event(rnd, EventKind.ROUND_END, ch))
            self.closed.append(rnd)

    def _on_payout(self, rnd: RoundState, p: PositionState, ch: _Accepted) -> None:
        if ch.new is True and p.paid_event is None:
            p.paid_event = _event(rnd, EventKind.SEAT_PAID, ch, p, detail=_settle_detail(p))
            self._emit(rnd, p.paid_event)

    def _on_lcd(self, ch: _Accepted) -> None:
        value = ch.new if isinstance(ch.new, int) else None
        self._lcd = value
        rnd = self.current
        # A new LCD value belongs to the open round while its deal has barely begun.
        if rnd is not None and len(rnd.deal_sequence) <= 1 and value is not None:
            rnd.lcd = value
            rnd.lcd_seen = True

    def _detect_partial_start(self, rnd: RoundState) -> None:
        """Footage that begins mid-round: its first state already shows cards at several positions."""
        first = self._first
        if first is None or rnd.frame_start != first.frame:
            return
        holders = sum(1 for s in first.seats if s.dealt or s.high or s.low)
        holders += 1 if (first.dealer.hand or first.dealer.high or first.dealer.low) else 0
        rnd.partial_start = holders > 1

    def _sync(self, p: PositionState, ch: _Accepted, rnd: RoundState) -> None:
        p.dealt, p.high, p.low = self._cards(p.name)
        self._set_reads(p, self._read_of(ch.zone, ch.new))
        p.apart = self._apart.get(ch.zone, {}).get(ch.new, _NONE_APART)
        p.faces_seen |= {c for c in p.cards if _is_face(c)}
        if p.total > p.max_total:
            p.max_total, p.max_total_event_t, p.max_total_frame = p.total, ch.t, ch.frame
        self._sync_rest(p, ch, rnd)

    def _refresh_reads(self, seen: set[str]) -> None:
        """A later state showing a position's accepted cards again gives their reads afresh (the
        reads of the latest state that showed them: a hand first read with doubt may be read surely
        in a later view, CARD-COUNT)."""
        rnd = self.current
        if rnd is None:
            return
        for p in rnd.positions.values():
            zone = f"{p.name}.cards"
            if zone in seen and self._cards(p.name) == (p.dealt, p.high, p.low):
                got = self._read_of(zone, (p.dealt, p.high, p.low))
                if got is not None:
                    self._set_reads(p, got)
                p.apart = self._apart.get(zone, {}).get((p.dealt, p.high, p.low), _NONE_APART)

    @staticmethod
    def _set_reads(p: PositionState, got: tuple[tuple[float | None, ...], tuple[Reads, ...]] | None) -> None:
        conf = got[0] if got is not None else (None, None, None)
        p.read_conf = (conf[0], conf[1], conf[2])
        per_card = got[1] if got is not None else ()
        p.card_conf = cast(
            tuple[Reads, Reads, Reads],
            tuple(
                per_card[i] if len(per_card) > i and len(per_card[i]) == len(area) else (None,) * len(area)
                for i, area in enumerate((p.dealt, p.high, p.low))
            ),
        )

    def _sync_rest(self, p: PositionState, ch: _Accepted, rnd: RoundState) -> None:
        if p.dealt_event is None and p.total > 0:
            p.dealt_earliest = None
            for cards_t, empty_t in reversed(self._windows.get(p.name, [])):
                if cards_t <= ch.t:
                    p.dealt_earliest = min(empty_t, ch.t) if empty_t is not None else None
                    break
            ev = _event(
                rnd,
                EventKind.HAND_DEALT,
                ch,
                p,
                cards=list(p.cards),
                detail=f"#{len(rnd.deal_sequence) + 1} in deal order",
            )
            p.dealt_event = ev
            rnd.deal_sequence.append(ev)
            self._emit(rnd, ev)

    def _on_seat(self, rnd: RoundState, p: PositionState, ch: _Accepted) -> None:
        prev = (p.dealt, p.high, p.low)
        self._sync(p, ch, rnd)
        if p.set_event is None:
            if p.is_set:
                p.set_by = "iverify" if p.iverify_before_set else "player"
                p.note_set()
                p.set_event = _event(
                    rnd,
                    EventKind.SEAT_SET,
                    ch,
                    p,
                    high=list(p.high),
                    low=list(p.low),
                    detail=f"set by {p.set_by}",
                )
                self._emit(rnd, p.set_event)
                self._maybe_player_exposed(rnd, p, ch)
            return
        if (p.dealt, p.high, p.low) == prev:
            return
        revealed = rnd.dealer_exposed is not None
        if p.total == 0:
            # (a) every area empty: collected after exposure; before it, lifted or collected.
            if p.exposed_event is not None:
                p.collected = True
                self._hand_changed(rnd, p, ch, "collected")
            elif revealed:
                p.lifted_after_reveal = True
            return
        p.collected = False
        if (
            revealed
            and p.lifted_after_reveal
            and p.exposed_event is None
            and not any(prev)
            and not p.dealt
            and all(
                not now or self._face_down_as_set(now, was)
                for now, was in ((p.high, p.set_high), (p.low, p.set_low))
            )
        ):
            # (c') the whole hand lifted after the reveal, and back face down where it lay, one area
            # at least: put back, whether or not the camera sees the other area yet. b56-0007 (seed 56,
            # 720p): seat 1's hand lifted and put back after the reveal; its low hand lay under the
            # dealer's hand for the 1.3 s it was back, and the high hand alone had read as "one area
            # lifted" (c), no touch at all
            p.lifted_after_reveal = False
            self._hand_changed(rnd, p, ch, "restored")
            return
        if (
            not p.dealt
            and (not p.high or not p.low)
            and all(not now or now == was for now, was in ((p.high, p.set_high), (p.low, p.set_low)))
        ):
            # (c) one area lifted, the other untouched: the dealer turning or collecting it.
            if revealed and p.exposed_event is None:
                p.lifted_after_reveal = True
            return
        if self._turning_over(p):
            # (b) backs becoming faces in place: the dealer turning the hand over to settle.
            self._maybe_player_exposed(rnd, p, ch)
            return
        as_set = (p.high, p.low) == (p.set_high, p.set_low)
        if not as_set and not self.config.face_down_counts_exact:
            # A camera that cannot count a stacked pile: two face-down piles are "as set" whatever
            # number of backs each shows.
            as_set = all(
                self._face_down_as_set(now, was) for now, was in ((p.high, p.set_high), (p.low, p.set_low))
            )
        if not p.dealt and as_set:
            # Back as it was set: only news when it had been lifted after the reveal, face down.
            if p.lifted_after_reveal and p.exposed_event is None:
                p.lifted_after_reveal = False
                self._hand_changed(rnd, p, ch, "restored")
            return
        # (d) anything else is a change of the set hand.
        if p.is_set:
            p.note_set()
            if (
                p.set_by == "player"
                and p.exposed_event is not None
                and _moved_across(p.exposed_event, p.high, p.low)
            ):
                p.set_by = "dealer"  # turned up, then re-set by the dealer (a foul hand by the house way)
        self._hand_changed(rnd, p, ch, "moved")
        self._maybe_player_exposed(rnd, p, ch)

    def _face_down_as_set(self, now: Sequence[str], was: Sequence[str]) -> bool:
        """Whether an area shows backs only, as it was set: the same backs, or any number of them
        where a stacked pile's backs are not counted (``MonitorConfig.face_down_counts_exact``)."""
        if not now or not was or any(c != BACK for c in (*now, *was)):
            return False
        return not self.config.face_down_counts_exact or list(now) == list(was)

    def _turning_over(self, p: PositionState) -> bool:
        """Backs becoming faces in place: each area keeps the faces it showed and shows more faces.

        A face-down area is a pile whose count the camera may not know (a stacked pile shows fewer
        backs than it holds), so an area of backs may turn into any number of faces; an area that
        already showed faces must keep its count.
        """
        if p.exposed_event is not None or p.dealt:
            return False
        more = False
        for now, was in ((p.high, p.set_high), (p.low, p.set_low)):
            if not now:
                continue
            faces_now = sorted(c for c in now if _is_face(c))
            faces_was = sorted(c for c in was if _is_face(c))
            if faces_was and len(now) != len(was):
                return False
            if any(faces_now.count(c) < faces_was.count(c) for c in faces_was):
                return False
            more = more or len(faces_now) > len(faces_was)
        return more

    def _hand_changed(self, rnd: RoundState, p: PositionState, ch: _Accepted, detail: str) -> None:
        when = (
            "after exposure"
            if p.exposed_event
            else ("after dealer reveal" if rnd.dealer_exposed else "before dealer reveal")
        )
        self._emit(
            rnd,
            _event(
                rnd,
                EventKind.HAND_CHANGED,
                ch,
                p,
                cards=list(p.dealt),
                high=list(p.high),
                low=list(p.low),
                detail=f"{detail}; {when}",
                read_confidence=p.read_confidence,
            ),
        )

    def _maybe_player_exposed(self, rnd: RoundState, p: PositionState, ch: _Accepted) -> None:
        if p.exposed_event is not None or rnd.dealer_exposed is None or p.set_event is None:
            return
        if not p.is_set or not all(_is_face(c) for c in p.high + p.low):
            return
        p.note_set()
        p.exposed_card_conf = p.set_card_conf
        p.lifted_after_reveal = False
        p.exposed_event = _event(
            rnd,
            EventKind.PLAYER_EXPOSED,
            ch,
            p,
            cards=list(p.high + p.low),
            high=list(p.high),
            low=list(p.low),
            read_confidence=p.read_confidence,
        )
        self._emit(rnd, p.exposed_event)

    def _on_dealer(self, rnd: RoundState, ch: _Accepted) -> None:
        d = rnd.dealer
        self._sync(d, ch, rnd)
        if rnd.dealer_exposed is None and any(_is_face(c) for c in d.cards):
            rnd.dealer_exposed = _event(
                rnd,
                EventKind.DEALER_EXPOSED,
                ch,
                d,
                cards=[c for c in d.cards if _is_face(c)],
                read_confidence=d.read_confidence,
            )
            d.exposed_event = rnd.dealer_exposed
            self._emit(rnd, rnd.dealer_exposed)
            for p in rnd.seats():
                self._maybe_player_exposed(rnd, p, ch)
        if (
            d.is_set
            and all(_is_face(c) for c in d.high + d.low)
            and (d.high, d.low) != (d.set_high, d.set_low)
        ):
            d.note_set()
            ev = _event(
                rnd,
                EventKind.DEALER_SET,
                ch,
                d,
                high=list(d.high),
                low=list(d.low),
                detail="set" if d.set_event is None else "re-set",
                read_confidence=min_read(d.read_conf[1], d.read_conf[2]),
            )
            if d.set_event is None:
                d.set_event = ev
            rnd.dealer_settings.append(ev)
            self._emit(rnd, ev)

    def _on_iverify(self, rnd: RoundState, ch: _Accepted) -> None:
        shown: tuple[str, int | None, Tokens, Tokens] = ch.new  # type: ignore[assignment]
        mode, seat, high, low = shown
        got = self._read_of("iverify", ch.new)
        read = got[0][0] if got is not None else None
        if mode == "seat":
            p = rnd.positions.get(f"seat{seat}")
            ev = _event(
                rnd,
                EventKind.IVERIFY_SEAT,
                ch,
                position=f"seat{seat}",
                seat=seat,
                high=list(high),
                low=list(low),
                detail="" if p is not None else f"seat {seat} is not on this table",
                read_confidence=read,
            )
            if p is not None:
                p.iverify_events.append(ev)
                if p.set_event is None:
                    p.iverify_before_set = True
            self._emit(rnd, ev)
        elif mode == "dealer":
            ev = _event(
                rnd,
                EventKind.IVERIFY_DEALER,
                ch,
                rnd.dealer,
                high=list(high),
                low=list(low),
                read_confidence=read,
            )
            rnd.dealer.iverify_events.append(ev)
            self._emit(rnd, ev)


def _event(
    rnd: RoundState, kind: EventKind, ch: _Accepted, p: PositionState | None = None, **fields: Any
) -> Event:
    """An event of ``rnd`` stamped with the time and frame of the change that shows it (its evidence
    frame, module docstring "Debounce"), about position ``p`` when given."""
    where: dict[str, Any] = {} if p is None else {"position": p.name, "seat": p.seat}
    return Event(round=rnd.number, kind=kind, t=ch.t, frame=ch.frame, **where, **fields)


def _settle_detail(p: PositionState) -> str:
    """Where a settlement action stands: after the seat's hand was turned face up, or before."""
    if p.exposed_event is not None:
        return f"after the hand was turned face up (t={p.exposed_event.t:.2f}s)"
    return "before the hand was seen face up"


def _moved_across(exposed: Event, high: Tokens, low: Tokens) -> bool:
    """Whether a face shown in one area when the hand was turned up now lies in the other: the hand
    was re-set (a later, fuller read of the same areas is not)."""
    faces = {c for c in (*high, *low) if _is_face(c)}
    return bool((set(exposed.high) & set(low) | set(exposed.low) & set(high)) & faces)
