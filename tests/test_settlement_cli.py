"""``paigow-monitor settle``: a whole round from the command line."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from rules import _cli_money

app = typer.Typer()
_cli_money.register(app)
runner = CliRunner()

ROUND = [
    "settle",
    "--dealer", "Kc Qh 9s 6h 4c 3d 2s",
    "--player", "1:As Ks Qs Js Ts Kd Qd:As Ks Qs Js Ts|Kd Qd",
    "--player", "2:2h 2d 5c 5d 8s 8c Jk",
    "--bet", "1:fortune=5",
    "--bet", "2:main=20,fortune=1,pai_gowd=5",
]  # fmt: skip


def test_settle_prints_every_bet() -> None:
    result = runner.invoke(app, [*ROUND, "--commission-waiver", "5"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Royal Match", "Envy of seat 1", "pai-gowd", "commission waived", "+5010"):
        assert text in out, text


def test_settle_json_has_every_result() -> None:
    result = runner.invoke(app, [*ROUND, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    seats = {s["seat"]: s for s in data["seats"]}
    assert seats[2]["set_by"] == "house-way"
    main2 = seats[2]["bets"][0]
    assert (main2["outcome"], main2["net"], main2["commission"]) == ("win", "19", "1")  # 5% of $20
    assert {b["bet"] for b in seats[2]["bets"]} == {"main", "fortune", "pai-gowd", "envy"}
    assert data["dealer_follows_house_way"] is True


def test_six_card_round_with_insurance_and_double_down() -> None:
    result = runner.invoke(
        app,
        [
            "settle", "--game", "six-card", "--dealer", "8c 8d Ah 5s 3c Kd:8c 8d 5s 3c Kd|Ah",
            "--player", "3:2h 3h 4d 5c 7s 8h:3h 4d 5c 7s 8h|2h",
            "--bet", "3:main=10,double_down=10,insurance=2", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    bets = {b["bet"]: b for b in json.loads(result.stdout)["seats"][0]["bets"]}
    assert bets["insurance"]["net"] == "200" and bets["double-down"]["net"] == "-10"


def test_bad_input_is_a_clear_error() -> None:
    dup = runner.invoke(
        app, ["settle", "--dealer", "Kc Qh 9s 6h 4c 3d 2s", "--player", "1:Kc Ad 8s 7h 5c Th Td"]
    )
    assert dup.exit_code == 2 and "Kc is also in dealer" in dup.output
    bad = runner.invoke(
        app, ["settle", "--dealer", "Kc Qh 9s 6h 4c 3d 2s", "--player", "Ac Ad 8s 7h 5c Th Td"]
    )
    assert bad.exit_code == 2 and "SEAT:CARDS" in bad.output
    card = runner.invoke(
        app, ["settle", "--dealer", "Kc Qh 9s 6h 4c 3d 2x", "--player", "1:Ac Ad 8s 7h 5c Th Td"]
    )
    assert card.exit_code == 2 and "2x" in card.output
    orphan = runner.invoke(app, [*ROUND[:5], "--bet", "4:main=5"])
    assert orphan.exit_code == 2 and "no --player" in orphan.output
