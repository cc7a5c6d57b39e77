"""CARD-COUNT: a hand with the wrong number of cards.

Seed 002 rules 5.2-5.3 (and 3.7.1): every position gets 7 cards (6 in the 6-card game, seed 000
rule 4), set as a high hand of 5 and a low hand of 2 (1 in the 6-card game).

Face-down cards are not counted for a shortage: a stacked face-down pile shows the camera fewer
backs than it holds (``vision.evaluate``), so a short count is only judged on faces. Triggers,
once per position per round:

* too many: at any state, a position's areas together held more cards than a hand has (the most
  seen at once, ``PositionState.max_total``; backs count here, since a camera does not see backs
  that are not there); evidence is the frame that first showed that many. On camera reads a view
  whose faces are doubted (below) waits for a surer view of the same excess while the round lasts:
  an alert as soon as one is sure enough, else the surest view as a review item at the round's end;
* wrong split or count, on faces: at DEALER_SET the dealer's high/low (5 and 2/1), at
  PLAYER_EXPOSED a seat's high/low as the dealer turns them face up (on a face-up table: at the
  reveal, cards as set).

A position never seen face up (an empty spot's dead hand, a hand collected face down) is not
judged for a shortage. Confidence 1.0, or 0.5 when the position was hidden in the latest state.

Camera reads (faces with a read confidence, ``TableState.read_confidence``):

* A short count rests on the detection of every card, not on what each face was read as: a face
  that is there but misread is still one card, so a shortage is not capped by the faces' read
  confidence (their identity). An *excess* of faces is: two reads of one card that disagree (a
  four-corner deck's top index read Ts, its bottom one Tc) are two faces until the pipeline joins
  them (``vision.pipeline``). Such a pair shares the rank (the larger glyph, the surer part of a
  read) and differs in suit, so an excess seen in a view with two faces of one rank is capped by
  those faces' reads (``_twin_read``; s02 with classifier cls 10: a false 7-card hand, Ts and Tc at
  0.50; with reads kept down to 0.4, a dondorf Ace's third corner index read Ac at 0.42 beside As),
  at any state and when the dealer turns a hand up, unless the camera found the faces of that rank
  lying apart in one area as two cards do (``TableState.apart_faces``: side by side in a spread,
  another card between them, or further apart than one card; b66-0003, a natural pair, 9h and 9s,
  the 9s read at 0.67). Faces of distinct ranks are distinct cards
  however doubtful each read is (s11: seat 5's eight faces, one bellot pip card read at 0.41, is a
  true excess). A wrong split of the right number of faces is capped by the reads of the over-full
  area (``_overfull_read``): a face read twice (or read where no index is) beside a face missed in
  the other area gives the same counts, and decorative decks miss faces often. Measured on the sample
  footage's camera states with cls 9 (322 zone views in plain view, each against the true state of
  its frame): no zone showed more cards than it held, 17 of 61 face zones showed fewer (faces missed
  in a pile), and the 60 faces read below 0.7 were all cards that lay there.
  What makes a count doubtful is what the camera did not see - a zone hidden or not read again (an
  excess then: 0.5), or a face it missed, which has no confidence at all (a shortage: below).
* A *shortage* seen only in faces (no area too full) rests on every face having been found, and
  the detector misses faces (README: face recall 0.77-0.89; a 7-card hand shows all its faces
  in one view only about 0.8^7 = 21 % of the time). It is not judged at the exposure but when
  the round closes, on the most reliable view the footage has of the hand: the most cards seen at
  once (``max_total``: e.g. a fanned deal of 7 backs) and the distinct faces seen at the position
  over the round (a face missed when the hand was turned over is often read when it is moved or
  collected), and the most cards seen at once counting the faces the camera found but could not
  name (``TableState.unread_faces``: an index boxed, its face read too weakly to list; counted only
  in a state that shows the whole position in view and read). Any one showing a full hand: the short
  view lost a read, not a card, and there is no finding. Else the finding says which views it rests
  on, with confidence 0.5 (a review item: a face missed in every view is still more likely than a
  missing card).
* An *excess* seen only counting faces found and not named (the faces named and the backs never more
  than a hand) is a review item at ``UNREAD_EXCESS`` when the round closes, where every view of the
  position whole showed it for ``compliance.rounds.UNREAD_HOLD_S`` (``PositionState.held_unread``;
  b71-0006: a low hand's third index glimpsed for 0.24 s as the dealer's hand passed), on the state that
  began it: an unread index may still be a named card's other corner or a picture boxed as an index
  (``vision.pipeline._unread_cards`` drops the ones it can tell), so it is never an alert. b68-0006
  (seed 68, 720p): seat 6 held eight cards (the injected CARD-COUNT), the eighth's two indices read Qs
  0.45 and Qc 0.42 and not named: it was missed outright.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import PositionState, RoundState
from rules.cards import JOKER
from vision.state import BACK, TableState

__all__ = ["CardCount"]

# Confidence of a shortage seen only in camera face reads, in every view the footage gave: a face the
# detector missed in each is still likelier than a missing card (see the docstring), so a review item.
SHORT_ON_CAMERA = 0.5
# Confidence of an excess seen only counting faces the camera found and could not name: a review item.
UNREAD_EXCESS = 0.5
_UNREAD_WHY = (
    " counting faces the camera found there and could not name (fewer named or backs at once: the "
    "excess rests on each unread index being a card of its own)"
)


def _rank(card: str) -> str:
    """A face's rank for ``_twin_read``: "T" of "Ts"; the Joker ("Jk") is a rank of its own, not a Jack."""
    return card if card == str(JOKER) else card[0]


def _twin_read(p: PositionState) -> float | None:
    """How sure the camera is that a position's faces are as many cards as it shows: the lowest read
    among faces that share a rank (None: no rank twice, or no reads). One card read twice - its two
    ends, or a third corner index - gives the same rank with another suit (Ts and Tc, As and Ac: the
    rank is the larger glyph and the surer part of a read), so only such a pair can be one card. A
    face read with doubt but of a rank seen once is a card all the same (misread or not), and so are
    faces of one rank in one area that the camera found lying apart as cards of their own
    (``PositionState.apart``, ``TableState.apart_faces``: side by side as a spread's neighbours,
    another card's index between them, or further apart than one card). b66-0003 (seed 66, 720p):
    seat 2's seven cards in the six-card game, 9h 9s 7c 7d 6c / Qh 2h, the 9s read at 0.67 beside the
    9h, had made the true excess a review item."""
    reads = [(_rank(c), r) for c, r in p.card_reads() if c != BACK]
    ranks = [rank for rank, _ in reads]
    areas = (p.dealt, p.high, p.low)

    def apart(rank: str) -> bool:
        faces = [(k, c) for k, area in enumerate(areas) for c in area if c != BACK and _rank(c) == rank]
        return len({k for k, _ in faces}) == 1 and all(c in p.apart[k] for k, c in faces)

    twins = [r for rank, r in reads if ranks.count(rank) > 1 and not apart(rank)]
    if not twins:
        return None
    known = [r for r in twins if r is not None]
    if known:
        return min(known)
    return p.read_confidence  # no card-by-card reads: the zones' lowest


def _overfull_read(p: PositionState, high: bool, low: bool) -> float | None:
    """The lowest read among the faces of a position's over-full areas (``high``, ``low``: which are),
    as accepted now (None: no reads). A wrong split of the right number of faces rests on each face of
    the fuller area being a card of its own: one read twice, or a phantom read, beside a face missed
    in the other area gives the same counts (b41-0000, classifier cls 13: 4 / 3 from a 3h read at 0.41
    beside the 5h and Qd of a low hand of two, and the 6d of the high hand missed)."""
    reads: list[float | None] = []
    for area, over, conf in (("high", high, p.card_conf[1]), ("low", low, p.card_conf[2])):
        if over:
            cards = p.high if area == "high" else p.low
            reads += list(conf) if len(conf) == len(cards) else [p.area_read(area)]
    known = [r for r in reads if r is not None]
    return min(known) if known else None


@dataclass
class _Excess:
    """The surest view so far of a position holding more cards than a hand (a doubted one waits)."""

    n: int
    t: float
    frame: int
    confidence: float


@dataclass
class _Short:
    """A shortage seen in camera reads at an exposure, judged when the round closes."""

    position: str
    event: Event
    high: int
    low: int


class CardCount(Check):
    check_id = CheckId.CARD_COUNT
    per_round = (*Check.per_round, "_short", "_excess")

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._short: dict[int, list[_Short]] = {}
        self._excess: dict[tuple[int, str], _Excess] = {}

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            return []
        out = []
        for p in rnd.positions.values():
            key = (rnd.number, p.name)
            if p.max_total <= rnd.hand_size or self.reported(*key) or p.total <= rnd.hand_size:
                continue
            # an excess of faces rests on each being another card: two reads of one card that
            # disagree are two faces of one rank (their reads cap it; module docstring). A view
            # that doubts it is kept while a surer one may come (the same hand in a later state)
            sure = 0.5 if p.hidden else 1.0
            read = _twin_read(p)
            first = p.total == p.max_total and key not in self._excess
            view = _Excess(
                n=p.total,
                t=p.max_total_event_t if first else state.t,
                frame=p.max_total_frame if first else state.frame,
                confidence=sure if read is None else min(sure, read),
            )
            best = self._excess.get(key)
            if best is None or view.confidence > best.confidence:
                self._excess[key] = best = view
            if best.confidence >= self.ctx.config.review_below:
                out.append(self._excess_finding(rnd, p, self._excess.pop(key)))
        return out

    def _excess_finding(self, rnd: RoundState, p: PositionState, view: _Excess) -> Finding:
        self.once(rnd, p.name)
        return self.finding(
            rnd,
            seat=p.seat,
            t=view.t,
            frame=view.frame,
            expected=f"{rnd.hand_size} cards at {p.name}",
            observed=f"{view.n} cards at {p.name}",
            confidence=view.confidence,
        )

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        if event.kind is EventKind.DEALER_SET or event.kind is EventKind.PLAYER_EXPOSED:
            if BACK in event.high or BACK in event.low:
                return []
            p = rnd.positions[event.position or "dealer"]
            high, low = len(event.high), len(event.low)
            if (high, low) == (5, rnd.low_size):
                return []
            if event.read_confidence is not None and high <= 5 and low <= rnd.low_size:
                # short on camera faces only: judged on the best view when the round closes
                if not any(s.position == p.name for s in self._short.get(rnd.number, [])):
                    self._short.setdefault(rnd.number, []).append(_Short(p.name, event, high, low))
                return []
            read = None
            if event.read_confidence is not None:
                read = (
                    _twin_read(p)
                    if high + low > rnd.hand_size
                    else _overfull_read(p, high > 5, low > rnd.low_size)
                )
            if read is not None:
                # a face too many in camera reads, with two faces of one rank: capped by their reads,
                # as an excess in on_state is (two reads of one card are two faces; module docstring)
                f = self._split(
                    rnd,
                    p,
                    event,
                    high,
                    low,
                    confidence=min(0.5 if p.hidden else 1.0, read),
                    why=f" (camera read confidence {read:.2f})",
                )
            else:
                f = self._split(rnd, p, event, high, low)
            return [f] if f is not None else []
        return []

    def on_close(self, rnd: RoundState) -> list[Finding]:
        out = []
        for (number, name), view in list(self._excess.items()):
            if number == rnd.number:
                del self._excess[(number, name)]
                if not self.reported(number, name):  # the best view of a doubted excess: for review
                    out.append(self._excess_finding(rnd, rnd.positions[name], view))
        for p in rnd.positions.values():
            held = p.held_unread
            if held is not None and held.n > rnd.hand_size and not self.reported(rnd.number, p.name):
                # an excess only with faces found and not named: for review (module docstring)
                view = _Excess(held.n, held.t, held.frame, UNREAD_EXCESS)
                found = self._excess_finding(rnd, p, view)
                out.append(found.model_copy(update={"observed": found.observed + _UNREAD_WHY}))
        for s in self._short.pop(rnd.number, []):
            p = rnd.positions[s.position]
            n = s.high + s.low
            if (
                p.max_total >= rnd.hand_size
                or len(p.faces_seen) >= rnd.hand_size
                or (p.seen_unread is not None and p.seen_unread.n >= rnd.hand_size)
            ):
                continue  # the hand was seen whole: the short view lost a face read, not a card
            f = self._split(
                rnd,
                p,
                s.event,
                s.high,
                s.low,
                confidence=SHORT_ON_CAMERA,
                why=(
                    f"; faces only, read by the camera: at most {p.max_total} cards seen at once and "
                    f"{len(p.faces_seen)} distinct faces over the round (a missed face read is likelier "
                    f"than a missing card)"
                ),
                total=n,
            )
            if f is not None:
                out.append(f)
        return out

    def _split(
        self,
        rnd: RoundState,
        p: PositionState,
        event: Event,
        high: int,
        low: int,
        *,
        confidence: float | None = None,
        why: str = "",
        total: int | None = None,
    ) -> Finding | None:
        if (high, low) == (5, rnd.low_size) or not self.once(rnd, p.name):
            return None
        n = high + low if total is None else total
        # a count does not rest on what the faces were read as, only on their being distinct cards
        # (module docstring: the caller caps an excess with two faces of one rank, or a wrong split's
        # over-full area, by their reads); a shortage seen only in camera faces by SHORT_ON_CAMERA
        return self.finding(
            rnd,
            seat=p.seat,
            t=event.t,
            frame=event.frame,
            expected=f"{p.name} set as high 5 / low {rnd.low_size} ({rnd.hand_size} cards)",
            observed=f"{p.name} set as high {high} / low {low} ({n} cards){why}",
            confidence=confidence if confidence is not None else (0.5 if p.hidden else 1.0),
        )
