"""Scenario files: what happens in a rendered clip, round by round (YAML, validated by pydantic).

A scenario names the game, the deck and, per round, what may be left to the seed (LCD value,
active seats, cards) and what is fixed (i-Verify use, fouls, injected violations). Example::

    name: seven-iverify-seat-early
    game: seven-card
    deck: bellot
    rounds:
      - lcd: 3
        active_seats: [2, 4, 5]
        iverify_seats: [4]
        violations:
          - check: IVERIFY-SEAT-EARLY
            seat: 4

``random_scenario`` draws a whole scenario from a seed instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from compliance.events import CheckId
from rules.validation import format_validation_error
from vision.layout import Game

__all__ = [
    "RoundSpec",
    "Scenario",
    "ScenarioError",
    "Violation",
    "load_scenario",
    "random_scenario",
]

Seat = Annotated[int, Field(ge=1, le=6)]


class ScenarioError(ValueError):
    """A scenario file is missing or invalid; the message names the file and field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Violation(_Model):
    """One injected breach. ``seat`` picks the seat where the check concerns one (else chosen by seed)."""

    check: CheckId
    seat: Seat | None = None
    # DEAL-ORDER: "late-start" (start one position after the LCD's, the default) or "clockwise".
    # FOREIGN-CARD: "other-hand" (a second deck's copy of one of the dealer's cards, the default) or
    # "same-hand" (a copy of one of the seat's own cards: a player who makes himself a pair, the
    # classic hold-out; it lies where the card it replaced would, beside its twin or not).
    variant: Literal["late-start", "clockwise", "other-hand", "same-hand"] | None = None

    @model_validator(mode="after")
    def _variant_fits(self) -> Violation:
        allowed = {
            CheckId.DEAL_ORDER: ("late-start", "clockwise"),
            CheckId.FOREIGN_CARD: ("other-hand", "same-hand"),
        }.get(self.check, ())
        if self.variant is not None and self.variant not in allowed:
            raise ValueError(
                f"variant {self.variant!r} does not apply to {self.check.value}"
                + (f" (one of {', '.join(allowed)})" if allowed else " (it has none)")
            )
        return self


class RoundSpec(_Model):
    lcd: Annotated[int, Field(ge=1, le=7)] | None = None  # None: drawn from the seed
    active_seats: list[Seat] | None = None  # seats with a wager; None: 2-4 seats drawn from the seed
    hands: dict[str, str] = Field(default_factory=dict)  # fixed cards per position: {"seat2": "As Kd ..."}
    iverify_seats: list[Seat] = Field(default_factory=list)  # players who ask i-Verify to set them
    iverify_dealer: bool = True  # i-Verify shows the dealer's house way when he exposes
    fouls: list[Seat] = Field(default_factory=list)  # players who set a foul hand
    violations: list[Violation] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> RoundSpec:
        if self.active_seats is not None:
            active = set(self.active_seats)
            if len(active) != len(self.active_seats) or not active:
                raise ValueError("active_seats must be distinct and not empty")
            for name, seats in (("iverify_seats", self.iverify_seats), ("fouls", self.fouls)):
                if not set(seats) <= active:
                    raise ValueError(f"{name} {sorted(seats)} must be active seats {sorted(active)}")
        if set(self.iverify_seats) & set(self.fouls):
            raise ValueError("a seat set by i-Verify cannot foul")
        checks = [v.check for v in self.violations]
        if CheckId.SETTLEMENT in checks and CheckId.FOREIGN_CARD in checks:
            raise ValueError(
                "SETTLEMENT cannot be injected with FOREIGN-CARD: a foreign card voids the round "
                "(seed 002 rule 5.1.1), nothing is settled"
            )
        if len(set(checks)) != len(checks):
            raise ValueError("inject each check at most once per round")
        return self


class Scenario(_Model):
    name: Annotated[str, Field(min_length=1)]
    game: Game
    deck: str | None = None  # a deck of render.artwork (bellot, kde-standard); None: a validation deck
    face_up_dealing: bool = False  # seed 003: players' hands dealt face up
    rounds: Annotated[list[RoundSpec], Field(min_length=1)]
    description: str = ""


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario YAML; errors name the file and each bad field."""
    p = Path(path)
    try:
        raw = yaml.safe_load(p.read_text())
    except OSError as e:
        raise ScenarioError(f"{p}: cannot read scenario: {e.strerror or e}") from e
    except yaml.YAMLError as e:
        raise ScenarioError(f"{p}: not valid YAML: {e}") from e
    try:
        return Scenario.model_validate(raw)
    except ValidationError as e:
        raise ScenarioError(
            format_validation_error(f"{p}: invalid scenario ({e.error_count()} problem(s)):", e)
        ) from e


_INJECTABLE = list(CheckId)
# the share of drawn FOREIGN-CARD injections that copy a card of the seat's own hand
_SAME_HAND_SHARE = 0.5


def random_scenario(
    game: Game,
    seed: int,
    rounds: int = 2,
    violation_rate: float = 0.3,
    face_up_dealing: bool = False,
    inject: Violation | None = None,
) -> Scenario:
    """A scenario drawn from ``seed``: random seats, i-Verify use, fouls and (sometimes) one violation.
    ``inject``: the violation every round that draws one gets (its check, and its variant where
    given; its seat is left to the draw), in place of a check drawn among all: a batch of one kind
    (``benchmarks/compliance_batch.py --inject``)."""
    rng = np.random.default_rng(seed)
    specs: list[RoundSpec] = []
    for _ in range(rounds):
        n_active = int(rng.integers(2, 5))
        active = sorted(int(s) for s in rng.choice(np.arange(1, 7), n_active, replace=False))
        iv = [int(rng.choice(active))] if rng.random() < 0.35 else []
        foul_pool = [s for s in active if s not in iv]
        fouls = [int(rng.choice(foul_pool))] if foul_pool and rng.random() < 0.25 else []
        violations = []
        if rng.random() < violation_rate:
            check = _INJECTABLE[int(rng.integers(len(_INJECTABLE)))]
            if inject is not None:
                check = inject.check
            if check is CheckId.FOUL_MISHANDLED and not fouls and foul_pool:
                fouls = [int(rng.choice(foul_pool))]
            if check is CheckId.FOUL_MISHANDLED and not fouls:
                check = CheckId.HOUSE_WAY
            if check is CheckId.IVERIFY_SEAT_EARLY and not iv:
                cand = [s for s in active if s not in fouls]
                iv = [int(rng.choice(cand))]
            if check is CheckId.CARD_COUNT and all(s in iv or s in fouls for s in active):
                fouls = []  # the extra card goes to a seat that sets its own legal hand: leave one such
            variant = inject.variant if inject is not None else None
            if check is CheckId.FOREIGN_CARD and variant is None:
                # drawn apart, so that the scenario's own draws (and every batch rendered before the
                # same-hand variant existed) are as they were but for these rounds
                side = np.random.default_rng([seed, len(specs), 0xF0])
                variant = "same-hand" if side.random() < _SAME_HAND_SHARE else "other-hand"
            violations.append(Violation(check=check, variant=variant))
        specs.append(
            RoundSpec(
                lcd=int(rng.integers(1, 8)),
                active_seats=active,
                iverify_seats=iv,
                fouls=fouls,
                violations=violations,
            )
        )
    return Scenario(name=f"random-{game}-{seed}", game=game, rounds=specs, face_up_dealing=face_up_dealing)
