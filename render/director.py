"""The director: plays scenario rounds on the table, frame by frame, and records the truth.

It moves cards (poses in table mm), the dealer's arm, the LCD, the i-Verify display, chips and the
display cover, and appends one ``FrameScene`` per video frame. It writes the round records
(``compliance.events``) as it goes: hands, events and the findings of the violations it injects.
The true findings come from the injection, never from compliance code.

Procedure of a round (seed 000 rules 3-7, seed 002 rules 3.6-3.8, SPEC.md "Events and checks"):
LCD shows the start position; hands (7 cards, 6 in the 6-card game) go from the shuffler to every
position counter-clockwise from the LCD's (empty spots included) and the dealer; the empty spots'
hands are collected unplayed; players set face down as two piles in H and L (i-Verify seats last,
with the display showing "SEAT n" and the house way); the i-Verify display shows "DEALER" with
his house way; the dealer exposes his hand, sets it by the house way; he turns each active hand
face up (re-setting a 7-card foul by the house way); he settles each active seat's wager by the
rules' result (``rules.settlement.settle_round``; seed 000 rule 7, seed 002 3.11-3.15): a win is paid
with a stack in the seat's payout circle, a loss is taken from the bet circle, a push is left as it
lies; everything is collected, and the players take their chips back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from compliance.events import CHECK_RULES, CheckId, Event, EventKind, Finding, HandRecord, RoundRecord
from render.houseway import (
    foul_setting_exists,
    house_way,
    is_foul_cards,
    other_setting,
    random_fair_setting,
    wager_result,
)
from render.scenario import RoundSpec, Scenario, Violation
from render.table import Pose, TableGeometry
from rules.cards import DECK, JOKER, Card, format_cards, parse_card, parse_cards
from rules.sidebets import Outcome
from vision.layout import TableLayout

__all__ = ["ArmPose", "CardView", "Director", "FrameScene", "IVerifyView"]

FPS = 25.0
# A foul the dealer is about to re-set lies face up, his arm withdrawn, this long first (seconds).
_FOUL_SHOWN_S = 1.2
# A chip spot is out from under the dealer's withdrawing hand once the hand's centre is this far beyond
# the spot's edge (his fingers reach about 75 mm past the centre of his hand, the palm 60 mm).
_HAND_REACH_MM = 100.0
# The standard wager's result -> what the dealer does with the seat's chips (seed 000 rule 7).
_ACTION = {Outcome.WIN: "pay", Outcome.LOSE: "take", Outcome.PUSH: None}


@dataclass(frozen=True)
class CardView:
    cid: int
    token: str  # the card's true identity ("As", "Jk")
    face_up: bool
    pose: Pose
    zone: str  # "seat3.high", "dealer.hand", "moving", ...
    owner: str  # position whose hand the card belongs to
    # the face printed on it where that is not ``token``: a same-hand FOREIGN-CARD copy, which the
    # director deals and sets as the card whose place it took (the rules refuse a hand holding one
    # card twice), while the camera, the events and the truth see the copy
    shown: str | None = None

    @property
    def face(self) -> str:
        """The face the card shows when face up."""
        return self.shown or self.token


@dataclass(frozen=True)
class ArmPose:
    """An arm over the table: the dealer's, or a player's reaching in from his seat."""

    x: float  # the hand's centre, table mm
    y: float
    shoulder_x: float
    shoulder_y: float
    who: str = "dealer"  # "dealer" or "seat<N>"


@dataclass(frozen=True)
class IVerifyView:
    mode: Literal["blank", "seat", "dealer"] = "blank"
    seat: int | None = None
    high: tuple[str, ...] = ()
    low: tuple[str, ...] = ()


@dataclass(frozen=True)
class FrameScene:
    cards: tuple[CardView, ...]  # bottom to top
    arm: ArmPose | None
    lcd: int | None
    iverify: IVerifyView
    covered: bool  # something opaque lies over the i-Verify display
    chips: frozenset[int]  # seats with a wager in the bet circle
    round: int | None
    payouts: frozenset[int] = frozenset()  # seats with a payout stack in the payout circle


@dataclass
class _Hand:
    position: str
    cards: list[str]
    active: bool
    high: list[str] = field(default_factory=list)
    low: list[str] = field(default_factory=list)
    set_by: SetBy = "unknown"


SetBy = Literal["player", "iverify", "dealer", "unknown"]


def _ease(p: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * min(max(p, 0.0), 1.0))


def _lerp_pose(a: Pose, b: Pose, p: float) -> Pose:
    e = _ease(p)
    ang_a, ang_b = math.atan2(a.uy, a.ux), math.atan2(b.uy, b.ux)
    d = (ang_b - ang_a + math.pi) % (2 * math.pi) - math.pi
    ang = ang_a + d * e
    return Pose(a.x + (b.x - a.x) * e, a.y + (b.y - a.y) * e, math.cos(ang), math.sin(ang))


def _seat_of(position: str) -> int | None:
    return None if position == "dealer" else int(position[4:])


class Director:
    """Builds the frames and the truth of one clip."""

    def __init__(self, scenario: Scenario, layout: TableLayout, seed: int, joker: bool = True) -> None:
        self.scenario = scenario
        self.joker = joker  # False: the deck's artwork has no Joker, deal from the 52 other cards
        self.layout = layout
        self.game = scenario.game
        self.n_cards = 7 if self.game == "seven-card" else 6
        self.rng = np.random.default_rng(seed)
        self.geo = TableGeometry()
        self.frames: list[FrameScene] = []
        self.rounds: list[RoundRecord] = []
        self._cards: dict[int, CardView] = {}
        self._order: list[int] = []  # z order, bottom first
        self._next_id = 0
        self._arm: ArmPose | None = None
        self._lcd: int | None = None
        self._iv = IVerifyView()
        self._covered = False
        self._chips: frozenset[int] = frozenset()
        self._payouts: frozenset[int] = frozenset()
        self._round: int | None = None
        self._record: RoundRecord | None = None
        self.pending_observable: list[tuple[int, Finding, str, tuple[str, ...]]] = []
        # this round's same-hand FOREIGN-CARD copy: (position, the card it stands in for, its face)
        self._copy: tuple[str, str, str] | None = None

    # --- timeline primitives -----------------------------------------------------------------
    @property
    def frame(self) -> int:
        return len(self.frames)

    @property
    def t(self) -> float:
        return round(self.frame / FPS, 3)

    def _snap(self) -> None:
        self.frames.append(
            FrameScene(
                cards=tuple(self._cards[c] for c in self._order),
                arm=self._arm,
                lcd=self._lcd,
                iverify=self._iv,
                covered=self._covered,
                chips=self._chips,
                round=self._round,
                payouts=self._payouts,
            )
        )

    def hold(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * FPS))):
            self._snap()

    def _add(self, token: str, pose: Pose, face_up: bool, zone: str, owner: str) -> int:
        cid = self._next_id
        self._next_id += 1
        shown = self._copy[2] if self._copy and self._copy[:2] == (owner, token) else None
        self._cards[cid] = CardView(cid, token, face_up, pose, zone, owner, shown)
        self._order.append(cid)
        return cid

    def _remove(self, cids: Sequence[int]) -> None:
        for c in cids:
            del self._cards[c]
            self._order.remove(c)

    def _raise(self, cids: Sequence[int]) -> None:
        for c in cids:
            self._order.remove(c)
        self._order.extend(cids)

    def _home(self, who: str, x: float) -> tuple[tuple[float, float], tuple[float, float]]:
        """(shoulder, resting hand point) of an arm: off the felt, behind the dealer or the seat."""
        if who == "dealer":
            sx = 600.0 if x < self.geo.dealer_centre[0] else 920.0
            return (sx, -420.0), (sx, -160.0)
        rad = math.radians(self.geo.seat_angle(int(who[4:])))
        cx, cy = self.geo.dealer_centre
        c, s = math.cos(rad), math.sin(rad)
        return (cx + 1350 * c, cy + 1350 * s), (cx + 1000 * c, cy + 1000 * s)

    def _arm_to(self, x: float, y: float, seconds: float, who: str = "dealer") -> None:
        """Move a hand to (x, y) (from off the table if that arm is not out)."""
        if self._arm is not None and self._arm.who != who:
            self._arm_away()
        (shx, shy), (hx, hy) = self._home(who, x)
        start = self._arm or ArmPose(hx, hy, shx, shy, who)
        n = max(1, round(seconds * FPS))
        for k in range(1, n + 1):
            e = _ease(k / n)
            self._arm = replace(start, x=start.x + (x - start.x) * e, y=start.y + (y - start.y) * e)
            self._snap()

    def _arm_away(self, seconds: float = 0.3) -> None:
        if self._arm is None:
            return
        start = self._arm
        _, (hx, hy) = self._home(start.who, start.shoulder_x)
        n = max(1, round(seconds * FPS))
        for k in range(1, n + 1):
            e = _ease(k / n)
            self._arm = replace(start, x=start.x + (hx - start.x) * e, y=start.y + (hy - start.y) * e)
            self._snap()
        self._arm = None

    def move(
        self,
        moves: Sequence[tuple[int, Pose, str, bool]],
        seconds: float,
        arm: bool | str = True,
        remove_at_end: bool = False,
        reach: float = 0.3,
    ) -> None:
        """Move cards to new poses (``(cid, target, zone, face_up)``), turning them over on the way.

        ``arm``: True for the dealer's hand, ``"seat<N>"`` for that player's, False for none.
        """
        cids = [m[0] for m in moves]
        if arm:
            src = self._centroid([self._cards[c].pose for c in cids])
            self._arm_to(src[0], src[1], reach, "dealer" if arm is True else str(arm))
        self._raise(cids)
        starts = {c: self._cards[c] for c in cids}
        for c in cids:
            self._cards[c] = replace(self._cards[c], zone="moving")
        n = max(2, round(seconds * FPS))
        for k in range(1, n + 1):
            p = k / n
            for cid, target, zone, face_up in moves:
                s = starts[cid]
                pose = _lerp_pose(s.pose, target, p)
                up = s.face_up
                if face_up != s.face_up:
                    pose = replace(pose, sx=max(0.04, abs(1 - 2 * p)))
                    up = face_up if p >= 0.5 else s.face_up
                self._cards[cid] = replace(
                    self._cards[cid], pose=pose, face_up=up, zone=zone if k == n else "moving"
                )
            if arm and self._arm is not None:
                cx, cy = self._centroid([self._cards[c].pose for c in cids])
                self._arm = replace(self._arm, x=cx, y=cy)
            if remove_at_end and k == n:
                self._remove(cids)
            self._snap()

    @staticmethod
    def _centroid(poses: Sequence[Pose]) -> tuple[float, float]:
        return (sum(p.x for p in poses) / len(poses), sum(p.y for p in poses) / len(poses))

    # --- truth ----------------------------------------------------------------------------
    def _event(
        self,
        kind: EventKind,
        position: str | None = None,
        cards: Sequence[str] = (),
        high: Sequence[str] = (),
        low: Sequence[str] = (),
        detail: str = "",
        frame: int | None = None,
    ) -> None:
        assert self._record is not None and self._round is not None
        f = self.frame if frame is None else frame
        if position is not None:
            cards, high, low = (self._as_shown(position, x) for x in (cards, high, low))
        self._record.events.append(
            Event(
                round=self._round,
                kind=kind,
                t=round(f / FPS, 3),
                frame=f,
                position=position,
                seat=_seat_of(position) if position else None,
                cards=list(cards),
                high=list(high),
                low=list(low),
                detail=detail,
            )
        )

    def _as_shown(self, position: str, tokens: Sequence[str]) -> list[str]:
        """``position``'s cards ``tokens`` as the table shows them: a same-hand copy's face for the card
        it stands in for."""
        if self._copy is None or self._copy[0] != position:
            return list(tokens)
        return [self._copy[2] if t == self._copy[1] else t for t in tokens]

    def _finding(
        self, check: CheckId, seat: int | None, expected: str, observed: str, frame: int | None = None
    ) -> Finding:
        assert self._record is not None and self._round is not None
        f = self.frame if frame is None else frame
        finding = Finding(
            round=self._round,
            check_id=check,
            seat=seat,
            t=round(f / FPS, 3),
            frame=f,
            rule=CHECK_RULES[check],
            expected=expected,
            observed=observed,
        )
        self._record.findings.append(finding)
        return finding

    # --- a clip ---------------------------------------------------------------------------
    def run(self) -> list[RoundRecord]:
        self.hold(0.6)
        for k, spec in enumerate(self.scenario.rounds, start=1):
            self._play_round(k, spec)
            self.hold(0.8)
        self._resolve_observable()
        return self.rounds

    def _deal_cards(
        self, spec: RoundSpec, order: list[str], active: set[int], extra: dict[str, int], foul_seats: set[int]
    ) -> dict[str, list[str]]:
        """Cards per position: fixed ones from the scenario, the rest from a shuffled 53-card deck
        (52 cards when the deck has no Joker)."""
        fixed = {pos: [c.code for c in parse_cards(text)] for pos, text in spec.hands.items()}
        for pos, codes in fixed.items():
            if pos not in self.layout.positions:
                raise ValueError(f"hands: unknown position {pos!r} (positions: {self.layout.positions})")
            if not self.joker and JOKER.code in codes:
                raise ValueError(f"hands.{pos}: a Joker, but deck {self.scenario.deck!r} has none")
            if len(codes) != self.n_cards + extra.get(pos, 0):
                raise ValueError(f"hands.{pos}: {len(codes)} cards, the game deals {self.n_cards}")
        for _attempt in range(200):
            used = {c for codes in fixed.values() for c in codes}
            rest = [c.code for c in DECK if c.code not in used and (self.joker or c != JOKER)]
            self.rng.shuffle(rest)
            out: dict[str, list[int]] = {}
            for pos in order:
                if pos in fixed:
                    out[pos] = fixed[pos]
                else:
                    k = self.n_cards + extra.get(pos, 0)
                    out[pos], rest = rest[:k], rest[k:]
            # A seat that fouls needs a hand where a foul setting exists.
            if all(foul_setting_exists(self._as_cards(out[f"seat{s}"])) for s in foul_seats):
                return {pos: [str(Card.from_code(c)) for c in codes] for pos, codes in out.items()}
        raise ValueError("could not deal hands that allow the requested fouls")

    @staticmethod
    def _as_cards(tokens: Sequence[int] | Sequence[str]) -> tuple[Card, ...]:
        return tuple(Card.from_code(t) if isinstance(t, int) else parse_card(t) for t in tokens)

    def _play_round(self, k: int, spec: RoundSpec) -> None:
        rng = self.rng
        geo = self.geo
        self._round = k
        v: dict[CheckId, Violation] = {x.check: x for x in spec.violations}
        lcd = spec.lcd if spec.lcd is not None else int(rng.integers(1, len(self.layout.positions) + 1))
        if spec.active_seats is not None:
            active_list = sorted(spec.active_seats)
        else:
            n_act = int(rng.integers(2, 5))
            active_list = sorted(int(s) for s in rng.choice(np.arange(1, 7), n_act, replace=False))
        active = set(active_list)
        iv_seats = [s for s in spec.iverify_seats if s in active]
        fouls = set(spec.fouls)
        if CheckId.FOUL_MISHANDLED in v and not fouls:
            pool = [s for s in active_list if s not in iv_seats]
            want = v[CheckId.FOUL_MISHANDLED].seat
            fouls = {want if want in pool else int(rng.choice(pool))}
        if CheckId.IVERIFY_SEAT_EARLY in v and not iv_seats:
            want = v[CheckId.IVERIFY_SEAT_EARLY].seat
            pool = [s for s in active_list if s not in fouls]
            iv_seats = [want if want in pool else int(rng.choice(pool))]
        needs_two = (CheckId.IVERIFY_SEAT_EARLY, CheckId.IVERIFY_DEALER_EARLY, CheckId.DEALER_REVEAL_EARLY)
        if any(c in v for c in needs_two) and len(active) < 2:
            raise ValueError(
                f"round {k}: {[c.value for c in needs_two if c in v]} needs two or more active seats"
            )

        def pick_seat(check: CheckId, pool: Sequence[int]) -> int:
            want = v[check].seat
            if want is not None:
                if want not in pool:
                    raise ValueError(f"round {k}: {check.value} seat {want} must be one of {sorted(pool)}")
                return want
            return int(rng.choice(list(pool)))

        # Who breaks what.
        plain = [s for s in active_list if s not in iv_seats and s not in fouls]  # sets his own, legal hand
        if CheckId.CARD_COUNT in v and not plain:
            raise ValueError(
                f"round {k}: CARD-COUNT needs an active seat that is not i-Verify-set and does not foul"
            )
        count_seat = pick_seat(CheckId.CARD_COUNT, plain) if CheckId.CARD_COUNT in v else None
        extra = {f"seat{count_seat}": 1} if count_seat else {}
        expected_order = self.layout.deal_order(lcd)
        order = list(expected_order)
        if CheckId.DEAL_ORDER in v:
            if v[CheckId.DEAL_ORDER].variant == "clockwise":
                order = [order[0], *reversed(order[1:])]
            else:
                order = order[1:] + order[:1]
        hands_tok = self._deal_cards(spec, order, active, extra, fouls)
        foreign_seat = None
        if CheckId.FOREIGN_CARD in v:
            pool = [s for s in active_list if s != count_seat] or active_list
            foreign_seat = pick_seat(CheckId.FOREIGN_CARD, pool)
            victim = hands_tok[f"seat{foreign_seat}"]
            if v[CheckId.FOREIGN_CARD].variant == "same-hand":
                # a copy of one of the seat's own cards in place of another: dealt and set as that
                # other card (``CardView.shown``), so the seat's setting (a foul included) is as dealt
                src, at = (int(x) for x in rng.choice(len(victim), 2, replace=False))
                self._copy = (f"seat{foreign_seat}", victim[at], victim[src])
            else:
                dealer_toks = hands_tok["dealer"]
                for _attempt in range(200):  # a second deck's copy of a dealer's card
                    dup = dealer_toks[int(rng.integers(len(dealer_toks)))]
                    at = int(rng.integers(len(victim)))
                    trial = [*victim[:at], dup, *victim[at + 1 :]]
                    # a seat that fouls keeps a hand where a foul setting exists
                    if foreign_seat not in fouls or foul_setting_exists(self._as_cards(trial)):
                        break
                victim[at] = dup
        hands = {pos: _Hand(pos, hands_tok[pos], pos == "dealer" or _seat_of(pos) in active) for pos in order}

        record = RoundRecord(round=k, game=self.game, t_start=self.t, lcd=lcd, deal_order=list(order))
        self._record = record
        self.rounds.append(record)

        # --- round start: chips down, LCD shows the start position ---
        self._chips = frozenset(active)
        self.hold(0.6)
        self._lcd = lcd
        record.t_start = self.t
        self._event(EventKind.ROUND_START, detail=f"LCD shows {lcd}")
        self.hold(0.8)

        # --- the deal ---
        face_up = self.scenario.face_up_dealing
        pile_ids: dict[str, list[int]] = {}
        deal_order_finding_done = False
        for i, pos in enumerate(order):
            seat = _seat_of(pos)
            toks = hands[pos].cards
            start = Pose(geo.shuffler_out[0], geo.shuffler_out[1], 0.0, -1.0)
            ids = [self._add(t, start, False, "moving", pos) for t in toks]
            show_up = face_up and pos != "dealer"
            if seat is None:
                targets = geo.pile(None, "hand", len(ids), rng, 0.6)
                zone = "dealer.hand"
            elif show_up:
                targets = geo.fan(seat, "dealt", len(ids), step=14.0)
                zone = f"seat{seat}.dealt"
            else:
                targets = geo.pile(seat, "dealt", len(ids), rng, 0.6)
                zone = f"seat{seat}.dealt"
            self.move([(c, tp, zone, show_up) for c, tp in zip(ids, targets, strict=True)], 0.45, reach=0.2)
            pile_ids[pos] = ids
            self._event(EventKind.HAND_DEALT, pos, cards=toks, detail=f"{len(toks)} cards, deal #{i + 1}")
            if pos != expected_order[i] and not deal_order_finding_done:
                deal_order_finding_done = True
                self._finding(
                    CheckId.DEAL_ORDER,
                    seat,
                    f"LCD {lcd}: {', '.join(expected_order)}",
                    f"dealt {', '.join(order)}",
                )
        self._arm_away()
        self.hold(0.3)

        # --- empty spots: their hands are collected unplayed ---
        for pos in order:
            if pos != "dealer" and not hands[pos].active:
                ids = pile_ids.pop(pos)
                d = Pose(geo.discard[0], geo.discard[1], 0.0, -1.0)
                self.move([(c, d, "moving", False) for c in ids], 0.35, remove_at_end=True, reach=0.25)
        self._arm_away()
        self.hold(0.4)

        # --- players set ---
        n_low = 2 if self.game == "seven-card" else 1
        self_setters = [s for s in active_list if s not in iv_seats]
        rng.shuffle(self_setters)
        for s in fouls:
            assert s in self_setters, "a fouling seat sets its own hand"
        late_seat: int | None = None  # a seat that sets only after an early i-Verify / dealer reveal
        early = [
            c
            for c in (CheckId.IVERIFY_SEAT_EARLY, CheckId.IVERIFY_DEALER_EARLY, CheckId.DEALER_REVEAL_EARLY)
            if c in v
        ]
        if early:
            pool = [s for s in self_setters if s not in iv_seats]
            late_seat = pool[-1] if pool else None
            if late_seat is None:
                raise ValueError(f"round {k}: {early[0].value} needs an active seat that sets by itself")
            self_setters.remove(late_seat)

        def player_setting(s: int) -> tuple[list[str], list[str]]:
            toks = hands[f"seat{s}"].cards
            cards = self._as_cards(toks)
            if s == count_seat:
                hw = house_way(self.game, cards[: self.n_cards])
                return [str(c) for c in hw[0]], [str(c) for c in hw[1]] + [str(cards[-1])]
            if s in fouls:
                hi, lo = random_fair_setting(cards, rng, foul=True)
            elif rng.random() < 0.6:
                hi, lo = house_way(self.game, cards)
            else:
                hi, lo = random_fair_setting(cards, rng, foul=False)
            return [str(c) for c in hi], [str(c) for c in lo]

        def set_seat(s: int, high: list[str], low: list[str], by: SetBy) -> None:
            pos = f"seat{s}"
            ids = pile_ids[pos]
            by_tok: dict[str, list[int]] = {}
            for c in ids:
                by_tok.setdefault(self._cards[c].token, []).append(c)
            hi_ids = [by_tok[t].pop() for t in high]
            lo_ids = [by_tok[t].pop() for t in low]
            if face_up:
                hp, lp = geo.fan(s, "high", len(hi_ids)), geo.fan(s, "low", len(lo_ids))
            else:
                hp, lp = geo.pile(s, "high", len(hi_ids), rng), geo.pile(s, "low", len(lo_ids), rng)
            moves = [(c, p, f"{pos}.high", face_up) for c, p in zip(hi_ids, hp, strict=True)]
            moves += [(c, p, f"{pos}.low", face_up) for c, p in zip(lo_ids, lp, strict=True)]
            self.move(moves, 0.5, arm=pos, reach=0.35)
            pile_ids[pos] = hi_ids + lo_ids
            h = hands[pos]
            h.high, h.low, h.set_by = list(high), list(low), by
            self._event(EventKind.SEAT_SET, pos, high=high, low=low, detail=f"set by {by}")
            if face_up:
                self._event(EventKind.PLAYER_EXPOSED, pos, high=high, low=low, detail="dealt face up")
            self._arm_away(0.35)
            set_done.add(s)

        set_done: set[int] = set()

        def unset_seats() -> list[int]:
            return [s for s in active_list if s not in set_done]

        def iverify_seat(s: int) -> None:
            cards = self._as_cards(hands[f"seat{s}"].cards)
            hi, lo = house_way(self.game, cards)
            high, low = [str(c) for c in hi], [str(c) for c in lo]
            shown_high, shown_low = (self._as_shown(f"seat{s}", x) for x in (high, low))
            self._iv = IVerifyView(
                "seat", s, tuple(_display_order(shown_high)), tuple(_display_order(shown_low))
            )
            waiting = [x for x in unset_seats() if x != s]
            self._event(EventKind.IVERIFY_SEAT, f"seat{s}", high=high, low=low)
            if waiting:  # what was staged, whichever injection staged it (seed 000 rule 5.a)
                self._finding(
                    CheckId.IVERIFY_SEAT_EARLY,
                    s,
                    "every other active seat set first",
                    f"i-Verify shows seat {s} while seat(s) {waiting} have not set",
                )
            self.hold(2.0)
            set_seat(s, high, low, "iverify")
            self.hold(0.6)
            self._iv = IVerifyView()

        # IVERIFY-NOT-VISIBLE: the dealer drops a towel over the display before anyone uses it.
        if CheckId.IVERIFY_NOT_VISIBLE in v:
            bx = self.geo.iverify_box
            self._arm_to((bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2, 0.45)
            self._covered = True
            self._finding(
                CheckId.IVERIFY_NOT_VISIBLE,
                None,
                "i-Verify display visible to surveillance",
                "display covered by a towel",
            )
            self.hold(0.3)
            self._arm_away()

        for s in self_setters:
            self.hold(float(rng.uniform(0.3, 0.9)))
            hi, lo = player_setting(s)
            set_seat(s, hi, lo, "player")

        dealer_cards = self._as_cards(hands["dealer"].cards)
        d_hi, d_lo = house_way(self.game, dealer_cards)
        d_high, d_low = [str(c) for c in d_hi], [str(c) for c in d_lo]
        self.hold(0.5)

        def show_dealer_iverify() -> None:
            self._iv = IVerifyView(
                "dealer", None, tuple(_display_order(d_high)), tuple(_display_order(d_low))
            )
            self._event(EventKind.IVERIFY_DEALER, "dealer", high=d_high, low=d_low)
            waiting = unset_seats()
            if waiting:  # what was staged, whichever injection staged it (seed 000 rule 5.a)
                self._finding(
                    CheckId.IVERIFY_DEALER_EARLY,
                    None,
                    "every active seat set first",
                    f"i-Verify shows the dealer's house way while seat(s) {waiting} have not set",
                )

        def expose_dealer() -> None:
            ids = pile_ids["dealer"]
            rng.shuffle(ids)
            fan = geo.fan(None, "hand", len(ids))
            self.move([(c, p, "dealer.hand", True) for c, p in zip(ids, fan, strict=True)], 0.8)
            self._event(EventKind.DEALER_EXPOSED, "dealer", cards=[self._cards[c].token for c in ids])
            waiting = unset_seats()
            if waiting:  # what was staged, whichever injection staged it (seed 000 rule 5.a)
                self._finding(
                    CheckId.DEALER_REVEAL_EARLY,
                    None,
                    "every active seat set first",
                    f"dealer exposed his cards while seat(s) {waiting} have not set",
                )
            self._arm_away()
            exposed["dealer"] = True

        exposed: dict[str, bool] = {}
        # i-Verify seats: last, after every self-setting seat (unless injected early).
        if CheckId.IVERIFY_SEAT_EARLY in v:
            assert late_seat is not None
            for s in iv_seats:
                iverify_seat(s)
            self.hold(0.5)
            set_seat(late_seat, *player_setting(late_seat), "player")
        elif CheckId.IVERIFY_DEALER_EARLY in v:
            for s in iv_seats:
                iverify_seat(s)
            show_dealer_iverify()
            self.hold(1.5)
            assert late_seat is not None
            set_seat(late_seat, *player_setting(late_seat), "player")
            self.hold(0.6)
            expose_dealer()
        elif CheckId.DEALER_REVEAL_EARLY in v:
            for s in iv_seats:
                iverify_seat(s)
            expose_dealer()
            self.hold(0.8)
            assert late_seat is not None
            set_seat(late_seat, *player_setting(late_seat), "player")
            self.hold(0.5)
            if spec.iverify_dealer:
                show_dealer_iverify()
        else:
            for s in iv_seats:
                iverify_seat(s)
        if not exposed.get("dealer"):
            if spec.iverify_dealer:
                show_dealer_iverify()
                self.hold(1.0)
            expose_dealer()
        self.hold(0.8)

        # --- the dealer sets his hand (by the house way unless HOUSE-WAY is injected) ---
        set_high, set_low = d_high, d_low
        if CheckId.HOUSE_WAY in v:
            alt_hi, alt_lo = other_setting(self.game, dealer_cards, rng)
            set_high, set_low = [str(c) for c in alt_hi], [str(c) for c in alt_lo]
        ids = pile_ids["dealer"]
        by_tok = {self._cards[c].token: c for c in ids}
        hp, lp = geo.fan(None, "high", len(set_high)), geo.fan(None, "low", len(set_low))
        moves = [
            (by_tok[t], p, "dealer.high", True) for t, p in zip(_display_order(set_high), hp, strict=True)
        ]
        moves += [
            (by_tok[t], p, "dealer.low", True) for t, p in zip(_display_order(set_low), lp, strict=True)
        ]
        self.move(moves, 0.8)
        self._arm_away()
        hands["dealer"].high, hands["dealer"].low, hands["dealer"].set_by = set_high, set_low, "dealer"
        self._event(EventKind.DEALER_SET, "dealer", high=set_high, low=set_low)
        if CheckId.HOUSE_WAY in v:
            self._finding(
                CheckId.HOUSE_WAY,
                None,
                f"{format_cards(d_hi)} / {format_cards(d_lo)}",
                f"{' '.join(set_high)} / {' '.join(set_low)}",
            )
        self.hold(0.8)
        self._iv = IVerifyView()

        # --- HAND-TOUCHED-AFTER-REVEAL: a player picks his set hand up again and re-sets it otherwise ---
        if CheckId.HAND_TOUCHED_AFTER_REVEAL in v:
            s = pick_seat(CheckId.HAND_TOUCHED_AFTER_REVEAL, active_list)
            pos = f"seat{s}"
            h = hands[pos]
            ids = list(pile_ids[pos])
            hi_ids = [c for c in ids if self._cards[c].zone.endswith(".high")]
            lo_ids = [c for c in ids if self._cards[c].zone.endswith(".low")]
            self._finding(
                CheckId.HAND_TOUCHED_AFTER_REVEAL,
                s,
                "set hand untouched after the dealer's reveal",
                f"seat {s} picked the set hand up and set it again, swapping a card between high and low",
                frame=self.frame
                + max(1, round(0.3 * FPS)),  # the cards leave the felt once his hand is there
            )
            (lx, ly), _ = self._home(pos, 0.0)  # into the player's hands, off the felt
            lap = [Pose(lx, ly, *geo.seat_up(s)) for _ in ids]
            self.move([(c, p, "moving", face_up) for c, p in zip(ids, lap, strict=True)], 0.6, arm=pos)
            self._arm = None
            self.hold(1.2)
            # Swap one high card with one low card, then lay the piles down again.
            hi_ids[0], lo_ids[0] = lo_ids[0], hi_ids[0]
            if face_up:
                hp, lp = geo.fan(s, "high", len(hi_ids)), geo.fan(s, "low", len(lo_ids))
            else:
                hp, lp = geo.pile(s, "high", len(hi_ids), rng), geo.pile(s, "low", len(lo_ids), rng)
            moves = [(c, p, f"{pos}.high", face_up) for c, p in zip(hi_ids, hp, strict=True)]
            moves += [(c, p, f"{pos}.low", face_up) for c, p in zip(lo_ids, lp, strict=True)]
            (shx, shy), _ = self._home(pos, 0.0)
            self._arm = ArmPose(lx, ly, shx, shy, pos)
            self.move(moves, 0.6, arm=pos, reach=0.1)
            h.high = [self._cards[c].token for c in hi_ids]
            h.low = [self._cards[c].token for c in lo_ids]
            pile_ids[pos] = hi_ids + lo_ids
            self._event(EventKind.HAND_CHANGED, pos, high=h.high, low=h.low, detail="player re-set his hand")
            self._arm_away(0.35)
            self.hold(0.6)

        # --- settle: turn each active hand face up (re-set a 7-card foul by the house way) ---
        mishandled_at: dict[int, int] = {}
        shown: dict[int, tuple[list[str], list[str]]] = {}  # each seat's setting as turned face up
        for s in active_list:
            pos = f"seat{s}"
            h = hands[pos]
            ids = pile_ids[pos]
            shown[s] = (list(h.high), list(h.low))
            by_tok2: dict[str, list[int]] = {}
            for c in ids:
                by_tok2.setdefault(self._cards[c].token, []).append(c)
            if not face_up:
                hi_ord, lo_ord = _display_order(h.high), _display_order(h.low)
                moves = [
                    (by_tok2[t].pop(), p, f"{pos}.high", True)
                    for t, p in zip(hi_ord, geo.fan(s, "high", len(hi_ord)), strict=True)
                ]
                moves += [
                    (by_tok2[t].pop(), p, f"{pos}.low", True)
                    for t, p in zip(lo_ord, geo.fan(s, "low", len(lo_ord)), strict=True)
                ]
                self.move(moves, 0.6)
                self._event(EventKind.PLAYER_EXPOSED, pos, high=h.high, low=h.low)
            else:
                cx, cy = geo.zone_centre(s, "high")
                self._arm_to(cx, cy, 0.4)
            foul = (
                s != count_seat
                and len(h.low) == n_low
                and is_foul_cards(self._as_cards(h.high), self._as_cards(h.low))
            )
            policy_reset = self.layout.foul_policy == "house-way-reset"
            mishandle = CheckId.FOUL_MISHANDLED in v and s in fouls
            if foul and policy_reset != mishandle:
                # Re-set by the house way (7-card policy; or, mishandled, a 6-card foul that should lose).
                # The dealer first shows the foul: his arm withdraws and the hand lies face up, in
                # plain view, for _FOUL_SHOWN_S before he touches it again (a camera, like a
                # surveillance officer, must see the setting that was fouled).
                self._arm_away()
                self.hold(_FOUL_SHOWN_S)
                r_hi, r_lo = house_way(self.game, self._as_cards(h.cards))
                new_high, new_low = [str(c) for c in r_hi], [str(c) for c in r_lo]
                cur = {self._cards[c].token: c for c in ids}
                fh, fl = _display_order(new_high), _display_order(new_low)
                moves = [
                    (cur[t], p, f"{pos}.high", True) for t, p in zip(fh, geo.fan(s, "high", 5), strict=True)
                ]
                moves += [
                    (cur[t], p, f"{pos}.low", True)
                    for t, p in zip(fl, geo.fan(s, "low", len(fl)), strict=True)
                ]
                if mishandle:
                    self._finding(
                        CheckId.FOUL_MISHANDLED,
                        s,
                        "foul hand loses (6-card, seed 000 rule 5)",
                        "dealer re-set the foul hand by the house way",
                    )
                self.move(moves, 0.7)
                h.high, h.low, h.set_by = new_high, new_low, "dealer"
                self._event(
                    EventKind.HAND_CHANGED,
                    pos,
                    high=new_high,
                    low=new_low,
                    detail="dealer re-set a foul hand by the house way",
                )
                self._arm_away()  # and withdraws at once: no arm lingering over the table (or the display)
            elif foul and mishandle:
                mishandled_at[s] = -1  # finding when the dealer collects the hand instead
            self.hold(0.7)
        self._arm_away()
        self.hold(0.5)

        # --- settle the wagers (the rules' result: pay a win, take a loss, leave a push) ---
        self._settle(k, active_list, hands, shown, foreign_seat is not None, v, rng, pick_seat)

        # --- collect ---
        d = Pose(geo.discard[0], geo.discard[1], 0.0, -1.0)
        for pos in [*(f"seat{s}" for s in active_list), "dealer"]:
            ids = pile_ids.pop(pos)
            s_ = _seat_of(pos)
            if s_ in mishandled_at:
                h = hands[pos]
                self._finding(
                    CheckId.FOUL_MISHANDLED,
                    s_,
                    "foul hand re-set by the house way (seed 002 3.7.2)",
                    f"foul {' '.join(h.high)} / {' '.join(h.low)} settled as set",
                )
            self.move([(c, d, "moving", True) for c in ids], 0.45, remove_at_end=True, reach=0.3)
        self._arm_away()
        self._lcd = None
        self._covered = False
        self._event(EventKind.ROUND_END)
        record.t_end = self.t
        self.hold(0.4)
        self._chips = self._payouts = frozenset()  # the players take their chips (and winnings) back

        # --- the truth of the round's hands, and findings only visible later ---
        for pos in self.layout.positions:
            h = hands[pos]
            record.hands.append(
                HandRecord(
                    position=pos,
                    seat=_seat_of(pos),
                    active=h.active,
                    cards=self._as_shown(pos, h.cards),
                    high=self._as_shown(pos, h.high),
                    low=self._as_shown(pos, h.low),
                    set_by=h.set_by,
                )
            )
        first = round(record.t_start * FPS)
        if count_seat is not None:
            pos = f"seat{count_seat}"
            f = self._finding(
                CheckId.CARD_COUNT,
                count_seat,
                f"{self.n_cards} cards",
                f"{len(hands[pos].cards)} cards: {' '.join(hands[pos].cards)}",
                frame=first,
            )
            self.pending_observable.append((first, f, "count", (pos,)))
        if foreign_seat is not None:
            if self._copy is not None:
                dup = self._copy[2]
                where = f"seat {foreign_seat}'s own hand"
            else:
                toks = hands[f"seat{foreign_seat}"].cards
                dup = next(t for t in toks if t in hands["dealer"].cards)
                where = f"seat {foreign_seat} and the dealer"
            f = self._finding(
                CheckId.FOREIGN_CARD,
                foreign_seat,
                "53 distinct cards",
                f"{dup} twice: {where}",
                frame=first,
            )
            self.pending_observable.append((first, f, "dup", (dup,)))
        self._copy = None
        self._round = None
        self._record = None

    def _settle(
        self,
        k: int,
        active_list: list[int],
        hands: dict[str, _Hand],
        shown: dict[int, tuple[list[str], list[str]]],
        void: bool,
        v: dict[CheckId, Violation],
        rng: np.random.Generator,
        pick_seat: Callable[[CheckId, Sequence[int]], int],
    ) -> None:
        """The dealer settles each active seat's standard wager, seat by seat, in plain view.

        The result is ``rules.settlement.settle_round`` on the dealer's played setting and the seat's
        setting as turned face up, with the table's foul policy (a foul re-set by the house way under
        seed 002 3.7.2, lost under seed 000 rule 5). Win: the dealer puts a payout stack in the seat's
        payout circle (seed 000 rule 7.b; seed 002 3.12); loss: he takes the wager from the bet circle
        (7.c; 3.13); push: the wager stays, no payout (seed 002 3.14). A seat the rules cannot settle
        (a hand of the wrong size) keeps its wager, and a round voided by a foreign card (seed 002
        5.1.1) settles nothing. An injected SETTLEMENT settles one seat the wrong way: a winner's
        wager taken, a loser (or a push) paid, or a push's wager taken.
        """
        d = hands["dealer"]
        results = {}
        if not void:
            for s in active_list:
                r = wager_result(self.game, self.layout.foul_policy, (d.high, d.low), shown[s])
                if r is not None:
                    results[s] = r
        wrong: int | None = None
        if CheckId.SETTLEMENT in v:
            if not results:
                raise ValueError(
                    f"round {k}: SETTLEMENT needs an active seat whose wager the rules can settle"
                    + (" (a FOREIGN-CARD round is void)" if void else "")
                )
            wrong = pick_seat(CheckId.SETTLEMENT, sorted(results))
        for s, r in results.items():
            action = _ACTION[r.outcome]
            if s == wrong:
                action = {Outcome.WIN: "take", Outcome.LOSE: "pay"}.get(
                    r.outcome, "pay" if rng.random() < 0.5 else "take"
                )
            if action is None:
                continue
            cx, cy = self.geo.payout_centre(s) if action == "pay" else self.geo.bet_centre(s)
            self._arm_to(cx, cy, 0.45)
            self.hold(0.15)
            if action == "pay":
                self._payouts = self._payouts | {s}
            else:
                self._chips = self._chips - {s}
            placed = self.frame  # the first frame that holds the new chips (under his hand)
            self.hold(0.2)
            self._arm_away()
            self.hold(0.3)
            radius = self.geo.payout_radius if action == "pay" else self.geo.bet_radius
            seen = self._first_clear(placed, cx, cy, radius)
            pos = f"seat{s}"
            if action == "pay":
                self._event(EventKind.SEAT_PAID, pos, frame=seen, detail="payout placed beside the bet")
            else:
                self._event(EventKind.WAGER_TAKEN, pos, frame=seen, detail="wager taken from the bet circle")
            if s == wrong:
                h = hands[pos]
                self._finding(
                    CheckId.SETTLEMENT,
                    s,
                    f"{r.outcome.value}: {r.detail} ({r.cite}); "
                    + {
                        Outcome.WIN: "the dealer pays the wager",
                        Outcome.LOSE: "the dealer takes the wager",
                        Outcome.PUSH: "the wager stays, no payout",
                    }[r.outcome],
                    f"the dealer {'paid' if action == 'pay' else 'took'} the wager of "
                    f"{' '.join(h.high)} / {' '.join(h.low)} against the dealer's "
                    f"{' '.join(d.high)} / {' '.join(d.low)}",
                    frame=seen,
                )

    def _first_clear(self, start: int, x: float, y: float, radius: float) -> int:
        """The first frame from ``start`` on in which a chip spot at (x, y) is out from under the arm."""
        for fi in range(start, len(self.frames)):
            arm = self.frames[fi].arm
            if arm is None or math.hypot(arm.x - x, arm.y - y) > radius + _HAND_REACH_MM:
                return fi
        return len(self.frames) - 1

    def _resolve_observable(self) -> None:
        """Time CARD-COUNT / FOREIGN-CARD findings at the first frame the camera shows them."""
        for first, finding, kind, args in self.pending_observable:
            for fi in range(first, len(self.frames)):
                sc = self.frames[fi]
                if kind == "count":
                    (pos,) = args
                    n = sum(1 for c in sc.cards if c.owner == pos and c.face_up and c.zone != "moving")
                    hit = n > self.n_cards
                else:
                    (tok,) = args
                    hit = sum(1 for c in sc.cards if c.face == tok and c.face_up and c.zone != "moving") >= 2
                if hit:
                    finding.frame = fi
                    finding.t = round(fi / FPS, 3)
                    break


def _display_order(tokens: Sequence[str]) -> list[str]:
    """Cards in rank order, highest first (as the i-Verify display and a set fan show them)."""
    cards = parse_cards(list(tokens), allow_duplicates=True)
    return [str(c) for c in sorted(cards, key=lambda c: -c.code)]
