"""``paigow-monitor house-way``: the surveillance officer's "what should the dealer have done?"."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from rules import cli as rules_cli


def _app() -> typer.Typer:
    app = typer.Typer()
    rules_cli.register(app)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps typer's sub-command form
        pass

    return app


runner = CliRunner()


def test_house_way_seven_card_text() -> None:
    result = runner.invoke(_app(), ["house-way", "--game", "seven-card", "4c 4h 2s 2h Kc Qd 7s"])
    assert result.exit_code == 0, result.output
    assert "Low hand:  Kc Qd" in result.output
    assert "A.2-low-low-or-low-medium-with-king" in result.output
    assert "seed 002 Appendix A.2" in result.output


def test_house_way_six_card_json_default_house_way() -> None:
    result = runner.invoke(_app(), ["house-way", "--game", "six-card", "--json", "Ac 2d 3h 4s 5c 6d"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["house_way"] == "wsgc-6card"
    assert out["low"] == ["Ac"]
    assert sorted(out["high"]) == sorted(["2d", "3h", "4s", "5c", "6d"])
    assert out["rule_id"] == "6e-six-card-straight-or-flush"
    assert out["high_hand"] == "Straight, 6-5-4-3-2"


def test_house_way_game_from_card_count_and_named_house_way() -> None:
    result = runner.invoke(_app(), ["house-way", "--house-way", "mbs-7card", "Kc Kd Kh Jk As Jd 10s"])
    assert result.exit_code == 0, result.output
    assert "Straight, A-K-Q-J-T" in result.output


def test_bad_card_is_named_exit_2() -> None:
    result = runner.invoke(_app(), ["house-way", "--game", "seven-card", "Kc Qh 9s 6h 4c 3d 1x"])
    assert result.exit_code == 2
    assert "'1x'" in result.output


def test_wrong_count_and_wrong_game_house_way_exit_2() -> None:
    result = runner.invoke(_app(), ["house-way", "--game", "six-card", "Kc Qh 9s 6h 4c 3d 2s"])
    assert result.exit_code == 2
    assert "deals 6 cards" in result.output
    result = runner.invoke(_app(), ["house-way", "--house-way", "wsgc-6card", "Kc Qh 9s 6h 4c 3d 2s"])
    assert result.exit_code == 2
    assert "six-card game" in result.output
    result = runner.invoke(_app(), ["house-way", "--house-way", "nope", "Kc Qh 9s 6h 4c 3d 2s"])
    assert result.exit_code == 2
    assert "unknown house way 'nope'" in result.output


def test_registered_on_the_main_app() -> None:
    from compliance.cli import app

    result = runner.invoke(app, ["house-way", "Kc Qh 9s 6h 4c 3d 2s"])
    assert result.exit_code == 0, result.output
    assert "A.1-no-pair" in result.output
