"""The exhaustive math of the paytables: count every hand, then apply each paytable to the counts.

``count_bonus_hands`` enumerates every hand of a deck (all C(53,7) = 154,143,080 seven-card
hands, or C(53,6) = 22,957,480 six-card hands; a smaller deck for tests) with the numba kernel
in ``rules._enum_kernel`` and returns how many hands make each (special, best-five) pair of
``BonusHand``s. ``paytable_math`` applies one paytable to those counts: the count and probability
of each paying line, the hit frequency and the house edge, beside the figures the seed
published (SPEC.md "Published figures").

Both are pure functions returning pydantic models; numba is imported only when counting.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import combinations

from pydantic import BaseModel, ConfigDict, Field

from rules.paytables import BetKind, BonusHand, Game, PayKind, Paytable, PublishedFigure

__all__ = [
    "FigureCheck",
    "HandCounts",
    "LineMath",
    "MathReport",
    "PaytableMath",
    "SkippedPaytable",
    "count_bonus_hands",
    "hand_size",
    "paid_hand",
    "paytable_math",
    "run_math",
]

_SPECIALS: tuple[BonusHand | None, ...] = (
    None,
    BonusHand.THREE_PAIR,
    BonusHand.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER,
    BonusHand.ROYAL_FLUSH_ROYAL_MATCH,
    BonusHand.SEVEN_CARD_STRAIGHT_FLUSH,
)


def hand_size(game: Game) -> int:
    """Cards in one hand: 7, or 6 in the 6-card game (seed 000)."""
    return 7 if game is Game.SEVEN_CARD else 6


class HandCounts(BaseModel):
    """How many ``hand_size``-card hands of ``deck`` make each (special, best five) pair."""

    model_config = ConfigDict(frozen=True)

    hand_size: int
    deck: tuple[int, ...]
    total: int
    # the hands made, highest first, joined by "+" (e.g. "ROYAL_FLUSH",
    # "ROYAL_FLUSH_ROYAL_MATCH+ROYAL_FLUSH", "STRAIGHT+THREE_OF_A_KIND") -> count
    cells: dict[str, int]
    seconds: float = 0.0

    def made(self) -> list[tuple[tuple[BonusHand, ...], int]]:
        """Each cell as (the hands it makes, best first; count)."""
        out = []
        for key, n in self.cells.items():
            hands = tuple(BonusHand[p] for p in key.split("+"))
            out.append((hands, n))
        return out

    def count_of(self, hand: BonusHand) -> int:
        """Hands that make ``hand`` (as the special or as the best five cards)."""
        return sum(n for hands, n in self.made() if hand in hands)


def _key(hands: tuple[BonusHand, ...] | set[BonusHand]) -> str:
    return "+".join(h.name for h in sorted(set(hands), reverse=True))


def count_bonus_hands(
    game: Game | None = None,
    *,
    deck: list[int] | None = None,
    k: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> HandCounts:
    """Enumerate every hand and count its bonus hands (numba kernel, parallel over the first card).

    ``game`` picks the hand size (7 or 6) and the full 53-card deck; tests pass a smaller
    ``deck`` (card codes) and ``k``. ``progress(hands_done)`` is called as the work advances.
    """
    import time

    import numpy as np

    from rules import _enum_kernel

    size = k if k is not None else hand_size(game or Game.SEVEN_CARD)
    if size not in (6, 7):
        raise ValueError(f"hand size must be 6 or 7, but got {size}")
    codes = sorted(set(deck)) if deck is not None else list(range(53))
    if any(not 0 <= c <= 52 for c in codes):
        raise ValueError(f"deck: card codes must be in 0..52, but got {codes}")
    start = time.perf_counter()
    table = _enum_kernel.count_hands(np.asarray(codes, dtype=np.int64), size, progress)
    seconds = time.perf_counter() - start
    cells: dict[str, int] = {}
    for s in range(table.shape[0]):
        for f in range(table.shape[1]):
            n = int(table[s, f])
            if n:
                hands = {BonusHand(f)} if s == 0 else {BonusHand(_enum_kernel.SPECIAL_CODES[s]), BonusHand(f)}
                cells[_key(hands)] = n
    total = sum(cells.values())
    expected = _comb(len(codes), size)
    if total != expected:  # a kernel bug, not bad input
        raise RuntimeError(f"counted {total} hands, but C({len(codes)},{size}) = {expected}")
    return HandCounts(hand_size=size, deck=tuple(codes), total=total, cells=cells, seconds=seconds)


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def paid_hand(table: Paytable, made: tuple[BonusHand, ...] | set[BonusHand]) -> BonusHand | None:
    """The hand a paytable pays for a hand that makes ``made``: the best-paying line, or None.

    The bet "considers the best hand possible among the player's cards" (seed 003 Fortune rule 2,
    seed 000 Progressive rule 2): a seven-card hand also makes its best five-card hand, so a
    paytable without a seven-card line pays that (FPGPP-WA07 pays an 8-to-Ace seven-card straight
    flush as a Royal Flush); three of a kind beside a straight is paid as three of a kind where it
    pays more (this is what reproduces seed 003's house edges); Paytable 1's "Three Pair Push"
    stands only when no line pays. A share of the meter counts above any fixed pay.
    """
    listed = [h for h in made if table.row_for(h) is not None]
    if not listed:
        return None

    def worth(h: BonusHand) -> tuple[int, Fraction, int]:
        row = table.row_for(h)
        assert row is not None
        unit = row.pays.net_units()
        return (1, Fraction(0), int(h)) if unit is None else (0, unit, int(h))

    return max(listed, key=worth)


class LineMath(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    pays: str
    count: int
    probability: float
    # net return per unit bet contributed by this line; None for a share of the meter
    contribution: float | None


class FigureCheck(BaseModel):
    """A published figure beside what the enumeration gives."""

    model_config = ConfigDict(frozen=True)

    name: str
    published_percent: Decimal
    rounding: str
    computed_percent: float | None
    target: bool
    matches: bool | None  # None: not comparable (not a target or not computed)
    note: str = ""


class PaytableMath(BaseModel):
    model_config = ConfigDict(frozen=True)

    paytable: str
    title: str
    game: Game
    bet: BetKind
    source: str
    total_hands: int
    lines: list[LineMath]
    losing_hands: int
    pushing_hands: int
    hit_frequency_percent: float
    house_edge_percent: float | None
    house_edge_exact: str | None = Field(default=None, description="the house edge as a fraction")
    house_edge_note: str = ""
    figures: list[FigureCheck]


def _round_like(value: Fraction, fig: PublishedFigure) -> Decimal:
    exponent = fig.percent.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) else 2
    q = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(q, rounding=ROUND_DOWN if fig.rounding == "truncate" else ROUND_HALF_UP)


def paytable_math(
    table: Paytable, counts: HandCounts, *, meters: dict[str, Fraction] | None = None
) -> PaytableMath:
    """Apply ``table`` to ``counts``: line counts, hit frequency, house edge, published checks.

    ``meters`` gives the progressive meter(s) in units of the wager (key "" for the only meter,
    or the meter's name, e.g. ML2's "Mega"); without it a paytable with a percentage-of-meter pay
    has no defined house edge.
    """
    if table.bet not in (BetKind.FORTUNE, BetKind.INSURANCE, BetKind.PROGRESSIVE):
        raise ValueError(
            f"paytable {table.name}: a {table.bet.value} bet depends on the dealer's hand and both settings,"
            " not on the player's hand alone; it has no paytable enumeration"
        )
    want = 7 if table.game is Game.SEVEN_CARD else 6
    if counts.hand_size != want:
        raise ValueError(
            f"paytable {table.name} is for {want}-card hands, the counts are of {counts.hand_size}"
        )
    total = counts.total
    per_line: dict[str, int] = {row.label: 0 for row in table.rows}
    for made, n in counts.made():
        hand = paid_hand(table, made)
        if hand is not None:
            row = table.row_for(hand)
            assert row is not None
            per_line[row.label] += n
    ev = Fraction(0)
    defined = True
    lines = []
    hits = 0
    pushes = 0
    for row in table.rows:
        n = per_line[row.label]
        unit = row.pays.net_units()
        if unit is None and meters is not None:
            meter = meters.get(row.meter or "", meters.get("")) if row.meter else meters.get("")
            if meter is not None:
                unit = meter * Fraction(row.pays.amount) / 100 - 1
        if unit is None:
            defined = False
            contribution = None
        else:
            contribution = Fraction(n, total) * unit
            ev += contribution
        if row.pays.kind is PayKind.PUSH:
            pushes += n
        else:
            hits += n
        lines.append(
            LineMath(
                label=row.label,
                pays=row.pays.text,
                count=n,
                probability=n / total,
                contribution=None if contribution is None else float(contribution),
            )
        )
    losing = total - hits - pushes
    ev -= Fraction(losing, total)
    edge = -ev * 100 if defined else None
    hit = Fraction(hits, total) * 100
    note = ""
    if not defined:
        note = (
            "not defined: a line pays a share of the progressive meter, whose amount (reseed, contribution,"
            " growth) the paytable does not fix; give --meter to compute it at one meter amount"
        )
    figures = []
    for name, fig in table.published.items():
        value: Fraction | None = hit if "hit" in name else edge
        if "envy" in name and "no_envy" not in name:
            value = None  # the enumeration of one hand has no Envy Bonus
        computed = None if value is None else float(value)
        matches = None
        if value is not None and fig.target:
            matches = _round_like(value, fig) == fig.percent
        figures.append(
            FigureCheck(
                name=name,
                published_percent=fig.percent,
                rounding=fig.rounding,
                computed_percent=computed,
                target=fig.target,
                matches=matches,
                note=fig.note,
            )
        )
    return PaytableMath(
        paytable=table.name,
        title=table.title,
        game=table.game,
        bet=table.bet,
        source=table.source,
        total_hands=total,
        lines=lines,
        losing_hands=losing,
        pushing_hands=pushes,
        hit_frequency_percent=float(hit),
        house_edge_percent=None if edge is None else float(edge),
        house_edge_exact=None if edge is None else f"{edge.numerator}/{edge.denominator} %",
        house_edge_note=note,
        figures=figures,
    )


def _brute_force_counts(deck: list[int], k: int) -> dict[str, int]:  # pragma: no cover - test helper
    """Counts by the slow Python classifier (``rules.sidebets.bonus_hands``), for tests."""
    from rules.cards import Card
    from rules.sidebets import bonus_hands

    cells: dict[str, int] = {}
    for combo in combinations(sorted(deck), k):
        key = _key(bonus_hands([Card.from_code(c) for c in combo]))
        cells[key] = cells.get(key, 0) + 1
    return cells


class SkippedPaytable(BaseModel):
    model_config = ConfigDict(frozen=True)

    paytable: str
    reason: str


class MathReport(BaseModel):
    """What ``paigow-monitor math`` prints: the counts per game and each paytable's math."""

    model_config = ConfigDict(frozen=True)

    counts: dict[str, HandCounts]
    paytables: list[PaytableMath]
    skipped: list[SkippedPaytable]


def run_math(
    games: list[Game],
    names: list[str] | None = None,
    *,
    meters: dict[str, Fraction] | None = None,
    progress: Callable[[Game, int, int], None] | None = None,
) -> MathReport:
    """Enumerate the hands of each game once and apply every chosen paytable to the counts.

    ``names`` picks paytables (default: every shipped paytable of ``games``); their games are
    added to ``games``. ``progress(game, hands_done, hands_total)`` reports the enumeration.
    """
    from math import comb

    from rules.paytables import load_paytable, paytable_names

    chosen = [load_paytable(n) for n in names] if names else []
    if not names:
        chosen = [load_paytable(n) for g in games for n in paytable_names(game=g)]
    enumerable = (BetKind.FORTUNE, BetKind.INSURANCE, BetKind.PROGRESSIVE)
    want = list(dict.fromkeys([*games, *(t.game for t in chosen if t.bet in enumerable)]))
    counts: dict[str, HandCounts] = {}
    for g in want:
        k = hand_size(g)
        total = comb(53, k)
        done = 0

        def tick(n: int, g: Game = g, total: int = total) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(g, done, total)

        counts[g.value] = count_bonus_hands(g, progress=tick)
    results = []
    skipped = []
    for t in chosen:
        try:
            if t.game.value not in counts:
                paytable_math(t, HandCounts(hand_size=0, deck=(), total=0, cells={}))  # raises why
            results.append(paytable_math(t, counts[t.game.value], meters=meters))
        except ValueError as exc:
            skipped.append(SkippedPaytable(paytable=t.name, reason=str(exc)))
    return MathReport(counts=counts, paytables=results, skipped=skipped)
