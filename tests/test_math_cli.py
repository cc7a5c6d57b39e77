"""``paigow-monitor math``: counts, hit frequency, house edge beside the published figures."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from rules import _cli_money

app = typer.Typer()
_cli_money.register(app)
runner = CliRunner()


def test_unknown_paytable_is_an_error_naming_it() -> None:
    result = runner.invoke(app, ["math", "--paytable", "7card-paytable-5"])
    assert result.exit_code == 2
    assert "7card-paytable-5" in result.output


def test_pai_gowd_says_why_it_is_not_enumerated() -> None:
    result = runner.invoke(app, ["math", "--paytable", "seed004-pai-gowd", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"] == {}  # nothing was enumerated for it
    assert "dealer" in report["skipped"][0]["reason"]


@pytest.mark.slow
def test_six_card_math_prints_figures_and_marks() -> None:
    result = runner.invoke(
        app, ["math", "--game", "six-card", "--paytable", "6card-insurance", "--paytable", "6card-paytable-2"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "22,957,480" in out
    assert "house edge 7.6314%" in out and "published house_edge 7.63%" in out
    assert "hit frequency 15.3218%" in out
    assert "✓ match" in out
    assert "house edge 4.0079%" in out and "not a target" in out  # seed 000's 4.10% (SPEC.md)


@pytest.mark.slow
def test_six_card_math_json_and_progressive_edge() -> None:
    result = runner.invoke(app, ["math", "--paytable", "6card-progressive-paytable-5", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (table,) = report["paytables"]
    assert table["house_edge_percent"] is None and "meter" in table["house_edge_note"]
    assert round(table["hit_frequency_percent"], 4) == 5.3893
    assert [f["matches"] for f in table["figures"] if f["name"] == "hit_frequency"] == [True]
    with_meter = runner.invoke(
        app, ["math", "--paytable", "6card-progressive-paytable-5", "--meter", "1000", "--json"]
    )
    assert json.loads(with_meter.stdout)["paytables"][0]["house_edge_percent"] is not None
