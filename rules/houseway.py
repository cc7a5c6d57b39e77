"""House ways as plug-ins: data-driven rule tables (YAML) and Python classes.

A house way is the mandatory way the dealer sets his hand (seed 002 rule 1.1.6 and Appendix A;
seed 000 rule 6). Casinos write their own, so the engine takes any object that follows the
``HouseWay`` protocol (``name``, ``game``, ``set(cards) -> HouseWayResult``). Two are shipped as
data in ``rules/data/houseways/``: ``mbs-7card`` (seed 002 Appendix A) and ``wsgc-6card`` (seed
000 rule 6 a-h). A casino copies one of those files, edits it and loads it by path; no engine
code changes. A Python class can be loaded as ``"package.module:ClassName"``, passed in
``extra=``, or published under the ``paigow_monitor.house_ways`` entry-point group.

The YAML rule language (see the shipped files for full examples)::

    name: mbs-7card
    game: seven-card            # or six-card
    title: ...
    source: seed 002 Appendix A
    rows:                       # ordered; the first row whose `when` holds decides
      - id: A.2-low-low-with-king
        text: Low + Low or Low + Medium pairs with a King, Ace or Joker: both pairs high
        cite: seed 002 Appendix A.2
        when:                   # all conditions must hold; omitted ones are free
          shape: two_pair       # or a list; see SHAPES
          pair_rank: 2-T        # highest pair (ranks 2-9, T, J, Q, K, A; "lo-hi" or one rank)
          second_pair_rank: 2-6
          top_single: K-A       # the highest single card
        action:
          low: [highest single, 2nd single]
        examples:               # the seed's printed example(s) for this row
          - name: mbs_app_a_two_pair_low_low_with_king
            cards: 4c 4h 2s 2h Kc Qd 7s
            low: Kc Qd
            high: 4c 4h 2s 2h 7s

Conditions: ``shape``; ``quads_rank``, ``trips_rank`` (highest trips), ``pair_rank`` (highest
pair), ``second_pair_rank``, ``top_single`` (rank ranges); ``singles_include`` (ranks all held as
singles); ``can_make`` / ``can_make_all`` (categories some five-card high hand can be: any of /
each of); ``whole_hand`` (``straight`` / ``flush``: all the cards make one); ``has_joker``.
For grouping, an unpaired Joker counts as an Ace (seed 002 rule 1.1.7); ``can_make`` and
``whole_hand`` see the Joker completing straights and flushes.

Actions (what goes low; the rest goes high):

* ``low: [...]``: named cards: ``"[N of] [highest|2nd|3rd|lowest] single|pair|trips|quads|five
  aces"`` (a pair is 2 cards; say how many of trips/quads/five Aces). Which of two equal cards
  (or of an Ace and the Joker) goes low is chosen to leave the best high hand.
* ``keep_in_high: [straight, flush, ...]``: keep one of these categories high and play the
  highest low hand that allows it (then the best high hand).
* ``keep_in_high: best_category``: the best category the cards can make stays high; then the
  highest low hand; then the best high hand.

No setting chosen by an action may foul: a row whose named low hand would foul raises
``HouseWayError`` naming the row and the hand (``benchmarks/houseway_throughput.py`` checks the
shipped files over every six-card hand and millions of seven-card hands).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

import numpy as np
import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from rules import _hw_kernel as _hk
from rules.cards import Card, CardParseError, format_cards, parse_cards
from rules.games import GameSpec, get_game
from rules.ranking import HandCategory
from rules.settings import Setting, setting_from_low, setting_key
from rules.validation import format_validation_error

__all__ = [
    "ENTRY_POINT_GROUP",
    "HouseWay",
    "HouseWayError",
    "HouseWayFile",
    "HouseWayResult",
    "RuleRow",
    "TableHouseWay",
    "available_house_ways",
    "house_way_from_yaml",
    "load_house_way",
]

ENTRY_POINT_GROUP = "paigow_monitor.house_ways"
_DATA = "data/houseways"


class HouseWayError(ValueError):
    """A house-way file or plug-in that cannot be used, or a hand it cannot set."""


# --------------------------------------------------------------------------------------------
# Results and the plug-in protocol
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HouseWayResult:
    """The house-way setting of one hand and the rule row that decided it."""

    house_way: str
    setting: Setting
    rule_id: str
    rule_text: str
    cite: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "house_way": self.house_way,
            "high": [str(c) for c in self.setting.high],
            "low": [str(c) for c in self.setting.low],
            "rule_id": self.rule_id,
            "rule_text": self.rule_text,
            "cite": self.cite,
        }


@runtime_checkable
class HouseWay(Protocol):
    """What the engine needs from a house way (data-driven or a casino's Python class)."""

    @property
    def name(self) -> str: ...

    @property
    def game(self) -> GameSpec: ...

    def set(self, cards: Sequence[Card]) -> HouseWayResult:
        """The mandatory setting of ``cards`` (6 or 7 cards, per ``game``)."""
        ...


# --------------------------------------------------------------------------------------------
# The YAML schema
# --------------------------------------------------------------------------------------------

_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "10": 10}
_RANKS.update({"J": 11, "Q": 12, "K": 13, "A": 14})
_CATEGORIES = {c.name.lower(): c for c in HandCategory}
_GROUPS = {"single": 1, "pair": 2, "trips": 3, "quads": 4, "five aces": 5}
_WHICH = {"highest": 0, "2nd": 1, "second": 1, "3rd": 2, "third": 2, "lowest": -1}
_PICK = re.compile(
    r"^(?:(?P<count>[1-5]) of )?(?:(?P<which>highest|2nd|second|3rd|third|lowest) )?"
    r"(?P<group>single|pair|trips|quads|five aces)$"
)


def _rank(token: object) -> int:
    text = str(token).strip().upper()
    if text not in _RANKS:
        raise ValueError(f"unknown rank {token!r} (use 2-9, T or 10, J, Q, K, A)")
    return _RANKS[text]


def _rank_range(value: object) -> tuple[int, int]:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        lo, hi = _rank(value[0]), _rank(value[1])
    else:
        text = str(value).strip()
        parts = [p for p in re.split(r"\s*-\s*|\s+to\s+", text) if p]
        if len(parts) == 1:
            lo = hi = _rank(parts[0])
        elif len(parts) == 2:
            lo, hi = _rank(parts[0]), _rank(parts[1])
        else:
            raise ValueError(f"bad rank range {value!r}: write one rank (A) or 'low-high' (7-T)")
    if lo > hi:
        raise ValueError(f"bad rank range {value!r}: the low end is above the high end")
    return lo, hi


def _as_list(value: object) -> object:
    return [value] if isinstance(value, str) else value


def _shape(value: object) -> str:
    if value not in _hk.SHAPES:
        raise ValueError(f"unknown shape {value!r} (one of {', '.join(_hk.SHAPES)})")
    return str(value)


def _category(value: object) -> HandCategory:
    key = str(value).strip().lower().replace(" ", "_")
    if key not in _CATEGORIES:
        raise ValueError(f"unknown hand category {value!r} (one of {', '.join(_CATEGORIES)})")
    return _CATEGORIES[key]


_RankRange = Annotated[tuple[int, int], BeforeValidator(_rank_range)]
_Rank = Annotated[int, BeforeValidator(_rank)]
_Category = Annotated[HandCategory, BeforeValidator(_category)]
_Shape = Annotated[str, BeforeValidator(_shape)]  # one of the kernel's SHAPES


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RuleCondition(_Model):
    """``when:`` of a row; every given condition must hold."""

    shape: Annotated[list[_Shape], BeforeValidator(_as_list)] | None = None
    quads_rank: _RankRange | None = None
    trips_rank: _RankRange | None = None
    pair_rank: _RankRange | None = None
    second_pair_rank: _RankRange | None = None
    top_single: _RankRange | None = None
    singles_include: Annotated[list[_Rank], BeforeValidator(_as_list)] = Field(default_factory=list)
    can_make: Annotated[list[_Category], BeforeValidator(_as_list)] = Field(default_factory=list)
    can_make_all: Annotated[list[_Category], BeforeValidator(_as_list)] = Field(default_factory=list)
    whole_hand: Annotated[list[Literal["straight", "flush"]], BeforeValidator(_as_list)] = Field(
        default_factory=list
    )
    has_joker: bool | None = None


class RuleAction(_Model):
    """``action:`` of a row: exactly one of ``low`` or ``keep_in_high``."""

    low: Annotated[list[str], BeforeValidator(_as_list)] | None = None
    keep_in_high: Literal["best_category"] | Annotated[list[_Category], BeforeValidator(_as_list)] | None = (
        None
    )

    @model_validator(mode="after")
    def _one_action(self) -> RuleAction:
        if (self.low is None) == (self.keep_in_high is None):
            raise ValueError("give exactly one of 'low' (named cards) or 'keep_in_high'")
        for pick in self.low or []:
            _parse_pick(pick)
        return self


class RuleExample(_Model):
    """A printed example: the dealt cards and the seed's setting."""

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    cards: str
    low: str
    high: str | None = None
    cite: str | None = None
    note: str | None = None


class RuleRow(_Model):
    """One row of a house way: first matching row wins."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    cite: str = Field(min_length=1)
    when: RuleCondition = Field(default_factory=RuleCondition)
    action: RuleAction
    examples: list[RuleExample] = Field(default_factory=list)


class HouseWayFile(_Model):
    """A data-driven house way (one YAML file)."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    game: Literal["seven-card", "six-card"]
    title: str
    source: str
    notes: list[str] = Field(default_factory=list)
    rows: list[RuleRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> HouseWayFile:
        game = get_game(self.game)
        seen: set[str] = set()
        for i, row in enumerate(self.rows):
            where = f"rows.{i} (id {row.id!r})"
            if row.id in seen:
                raise ValueError(f"{where}: the id is used twice")
            seen.add(row.id)
            if row.action.low is not None:
                _check_picks(row, game, where)
            for ex in row.examples:
                try:
                    cards = parse_cards(ex.cards)
                    low = parse_cards(ex.low)
                    high = parse_cards(ex.high) if ex.high else None
                except CardParseError as err:
                    raise ValueError(f"{where}: example {ex.name!r}: {err}") from None
                if len(cards) != game.cards or len(low) != game.low_size:
                    raise ValueError(
                        f"{where}: example {ex.name!r} needs {game.cards} cards and a "
                        f"{game.low_size}-card low hand"
                    )
                if not set(low) <= set(cards) or (high is not None and set(high) | set(low) != set(cards)):
                    raise ValueError(f"{where}: example {ex.name!r}: high + low are not the dealt cards")
        return self


def _parse_pick(text: str) -> tuple[int, int, int]:
    """``"2 of quads"`` -> (group size 4, index 0, count 2)."""
    m = _PICK.match(text.strip().lower())
    if not m:
        raise ValueError(
            f"cannot read the pick {text!r}: write '[N of] [highest|2nd|3rd|lowest] "
            f"single|pair|trips|quads|five aces', e.g. '2nd single', 'lowest pair', '2 of quads'"
        )
    size = _GROUPS[m["group"]]
    count = int(m["count"]) if m["count"] else {1: 1, 2: 2}.get(size, 0)
    if count == 0:
        raise ValueError(f"pick {text!r}: say how many cards of the {m['group']} go low ('2 of ...')")
    if count > size:
        raise ValueError(f"pick {text!r}: a {m['group']} has only {size} cards")
    return size, _WHICH[m["which"] or "highest"], count


def _check_picks(row: RuleRow, game: GameSpec, where: str) -> None:
    picks = [_parse_pick(p) for p in row.action.low or []]
    total = sum(c for _, _, c in picks)
    if total != game.low_size:
        raise ValueError(
            f"{where}: action.low names {total} cards, but the {game.name} low hand has {game.low_size}"
        )
    shapes: Sequence[str] = row.when.shape or _hk.SHAPES
    for shape in shapes:
        n5, n4, n3, n2 = _hk.SHAPE_SIGNATURES[_hk.SHAPES.index(shape)]
        n1 = game.cards - 5 * n5 - 4 * n4 - 3 * n3 - 2 * n2
        have = {1: n1, 2: n2, 3: n3, 4: n4, 5: n5}
        for pick_text, (size, index, _count) in zip(row.action.low or [], picks, strict=True):
            need = 1 if index < 0 else index + 1
            if have[size] < need:
                raise ValueError(
                    f"{where}: action.low {pick_text!r} is not there in a {shape!r} hand; "
                    f"limit the row with 'when: shape: ...'"
                )


# --------------------------------------------------------------------------------------------
# Compilation to the kernel's table, and the data-driven house way
# --------------------------------------------------------------------------------------------


def _mask(cats: Sequence[HandCategory]) -> int:
    out = 0
    for c in cats:
        out |= 1 << int(c)
    return out


def _compile_row(row: RuleRow) -> np.ndarray:
    out = np.zeros(_hk.NCOLS, dtype=np.int64)
    w = row.when
    if w.shape:
        for s in w.shape:
            out[_hk.C_SHAPES] |= 1 << _hk.SHAPES.index(s)
    for rng, col in (
        (w.quads_rank, _hk.C_QUADS_LO),
        (w.trips_rank, _hk.C_TRIPS_LO),
        (w.pair_rank, _hk.C_PAIR_LO),
        (w.second_pair_rank, _hk.C_PAIR2_LO),
        (w.top_single, _hk.C_TOP1_LO),
    ):
        if rng is not None:
            out[col], out[col + 1] = rng
    for r in w.singles_include:
        out[_hk.C_SINGLES_ALL] |= 1 << r
    out[_hk.C_CAN_ANY] = _mask(w.can_make)
    out[_hk.C_CAN_ALL] = _mask(w.can_make_all)
    out[_hk.C_WHOLE] = (1 if "straight" in w.whole_hand else 0) | (2 if "flush" in w.whole_hand else 0)
    out[_hk.C_JOKER] = -1 if w.has_joker is None else int(w.has_joker)
    a = row.action
    if a.low is not None:
        out[_hk.C_ACTION] = _hk.PICKS
        out[_hk.C_NPICKS] = len(a.low)
        for i, pick in enumerate(a.low):
            out[_hk.C_PICKS + 3 * i : _hk.C_PICKS + 3 * i + 3] = _parse_pick(pick)
    elif a.keep_in_high == "best_category":
        out[_hk.C_ACTION] = _hk.BEST_CATEGORY
    else:
        assert isinstance(a.keep_in_high, list)
        out[_hk.C_ACTION] = _hk.KEEP
        out[_hk.C_KEEP] = _mask(a.keep_in_high)
    return out


class TableHouseWay:
    """A house way read from a rule table (``HouseWayFile``), run by the numba interpreter.

    ``set(cards)`` for one hand; ``set_many(codes)`` for an (N, 6|7) array of card codes.
    """

    def __init__(self, spec: HouseWayFile, origin: str = "<memory>") -> None:
        self.spec = spec
        self.origin = origin
        self._game = get_game(spec.game)
        self._table = np.stack([_compile_row(r) for r in spec.rows])
        self._shapes = _hk.shape_table()

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def game(self) -> GameSpec:
        return self._game

    @property
    def rows(self) -> list[RuleRow]:
        return list(self.spec.rows)

    def set_many(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(low-position bitmask, deciding row index) of each hand of an (N, cards) code array."""
        arr = np.ascontiguousarray(codes, dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != self._game.cards:
            raise HouseWayError(
                f"{self.name}: hands must be an (N, {self._game.cards}) array of card codes, "
                f"but got shape {arr.shape}"
            )
        masks, rows = _hk.set_many(arr, self._table, self._shapes)
        bad = np.flatnonzero(rows < 0)
        if bad.size:
            k = int(bad[0])
            raise HouseWayError(self._failure(arr[k], int(rows[k]), int(masks[k])))
        return masks, rows

    def _failure(self, codes: np.ndarray, code: int, row: int) -> str:
        hand = format_cards(Card.from_code(int(c)) for c in codes)
        if code == _hk.NO_ROW:
            return f"house way {self.name!r} ({self.origin}): no row matches the hand {hand}"
        rid = self.spec.rows[row].id if 0 <= row < len(self.spec.rows) else "?"
        if code == _hk.MISSING_GROUP:
            return f"house way {self.name!r} ({self.origin}): row {rid!r} names cards that {hand} lacks"
        if code == _hk.FOULS:
            where = f"house way {self.name!r} ({self.origin})"
            return f"{where}: row {rid!r} fouls the hand {hand} (low outranks high)"
        return f"house way {self.name!r} ({self.origin}): row {rid!r} finds no fair setting of {hand}"

    def set(self, cards: Sequence[Card]) -> HouseWayResult:
        cards = tuple(cards)
        if len(cards) != self._game.cards:
            raise HouseWayError(
                f"{self.name}: the {self._game.name} game deals {self._game.cards} cards, "
                f"but got {len(cards)}"
            )
        if len({c.code for c in cards}) != len(cards):
            raise HouseWayError(f"{self.name}: a card appears twice in {format_cards(cards)}")
        masks, rows = self.set_many(np.asarray([[c.code for c in cards]], dtype=np.int64))
        mask, ri = int(masks[0]), int(rows[0])
        low = tuple(c for i, c in enumerate(cards) if (mask >> i) & 1)
        row = self.spec.rows[ri]
        return HouseWayResult(
            house_way=self.name,
            setting=setting_from_low(cards, low),
            rule_id=row.id,
            rule_text=row.text,
            cite=row.cite,
        )

    def check_examples(self) -> list[str]:
        """Replay every example in the file; a list of what went wrong (empty: all good).

        An example passes when the setting is equal in rank to the printed one (seed 002 rule
        3.15: equal hands are copies) and the row it is listed under decided it.
        """
        problems = []
        for row in self.spec.rows:
            for ex in row.examples:
                cards = parse_cards(ex.cards)
                want = setting_from_low(cards, parse_cards(ex.low))
                got = self.set(cards)
                if setting_key(got.setting) != setting_key(want):
                    problems.append(f"{ex.name}: expected {want}, got {got.setting} (row {got.rule_id})")
                elif got.rule_id != row.id:
                    problems.append(f"{ex.name}: setting right but decided by {got.rule_id}, not {row.id}")
        return problems


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def house_way_from_yaml(text: str, origin: str = "<text>") -> TableHouseWay:
    """Read a house way from YAML text; errors name ``origin`` and the bad field."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise HouseWayError(f"house way file {origin}: not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise HouseWayError(f"house way file {origin}: expected a mapping with name, game, rows")
    try:
        spec = HouseWayFile.model_validate(data)
    except ValidationError as err:
        header = f"house way file {origin}: {err.error_count()} bad field(s)"
        message = format_validation_error(header, err, root="(top level)", show_input=True)
        raise HouseWayError(message) from None
    return TableHouseWay(spec, origin)


def _shipped() -> dict[str, Any]:
    folder = resources.files("rules").joinpath(_DATA)
    return {p.name.rsplit(".", 1)[0]: p for p in folder.iterdir() if p.name.endswith((".yaml", ".yml"))}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def available_house_ways() -> list[str]:
    """Names ``load_house_way`` accepts without a path: shipped files and entry-point plug-ins."""
    return sorted({*_shipped(), *_entry_points()})


HouseWayFactory = Callable[[], object]  # checked against HouseWay when called


def _checked(obj: object, origin: str) -> HouseWay:
    if not isinstance(obj, HouseWay):
        raise HouseWayError(f"{origin} is not a house way (needs name, game and set(cards))")
    return obj


def load_house_way(
    name_or_path: str | Path, *, extra: Mapping[str, HouseWayFactory] | None = None
) -> HouseWay:
    """A house way by name (``mbs-7card``, ``wsgc-6card``, a plug-in), YAML path, or ``module:Class``.

    ``extra`` maps further names to factories (a casino's Python house ways).
    """
    key = str(name_or_path)
    if extra and key in extra:
        return _checked(extra[key](), f"house way {key!r}")
    shipped = _shipped()
    if key in shipped:
        return house_way_from_yaml(shipped[key].read_text(encoding="utf-8"), f"rules/{_DATA}/{key}.yaml")
    path = Path(key)
    if path.suffix in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise HouseWayError(f"house way file {path}: cannot read it ({err.strerror})") from None
        return house_way_from_yaml(text, str(path))
    if ":" in key:
        module, _, attr = key.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as err:
            raise HouseWayError(f"house way {key!r}: cannot import it ({err})") from None
        return _checked(factory(), f"house way {key!r}")
    eps = _entry_points()
    if key in eps:
        return _checked(eps[key].load()(), f"house way plug-in {key!r}")
    known = ", ".join([*available_house_ways(), *(extra or {})])
    raise HouseWayError(f"unknown house way {key!r}: use one of {known}, a .yaml path, or 'module:ClassName'")
