"""FOUL-MISHANDLED: a fouled hand handled per the table's foul policy (seed 002 rule 3.7.2: re-set
by the house way; seed 000 rule 5: the foul hand loses)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "FOUL-MISHANDLED"
KINGS = "Kc Kd 9s 7h 5c 3d 2s"  # low Kc Kd over a no-pair high fouls; house way: low 9s 7h


def _foul_exposed(game: str = "seven-card", policy: str | None = None) -> Table:
    cards = KINGS if game == "seven-card" else "Kc 9s 7h 5c 3d 2s"
    low = "Kc Kd" if game == "seven-card" else "Kc"  # 6-card: a K low over a 9-high high fouls
    t = Table(game, seats=[1, 2, 3], foul_policy=policy).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": cards})
    return t.set(1, low).set(3).expose_dealer().dealer_set().turn(1)


def test_mbs_3_7_2_foul_hand_re_set_by_the_house_way_is_compliant() -> None:
    t = _foul_exposed().place(1, "Kc Kd 5c 3d 2s", "9s 7h").turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.findings == []
    seat1 = next(h for h in run.rounds[0].hands if h.position == "seat1")
    assert seat1.low == ["9s", "7h"]


def test_mbs_3_7_2_foul_hand_settled_without_re_set_is_a_breach_reported_at_round_end() -> None:
    t = _foul_exposed()
    exposed_at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert f.seat == 1 and f.frame == exposed_at and "never re-set" in f.observed
    assert "re-set to high Kd Kc 5c 3d 2s / low 9s 7h" in f.expected
    end = next(e for e in run.events if e.kind.value == "round_end")
    assert end.frame > f.frame  # judged when the round ended, evidence the exposure frame


def test_mbs_3_7_2_foul_hand_re_set_another_way_is_a_breach() -> None:
    t = _foul_exposed().place(1, "Kc Kd 7h 3d 2s", "9s 5c")
    at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.frame == at and "not the house way" in f.observed


def test_footage_ending_before_the_round_ends_is_not_judged() -> None:
    t = _foul_exposed().turn(3)
    assert Run(t).of(CHECK) == []


def test_wsgc_rule5_foul_hand_that_loses_as_dealt_is_compliant() -> None:
    t = _foul_exposed("six-card").turn(3).collect("seat1").collect_all().hold(1)
    assert Run(t).findings == []


def test_wsgc_rule5_foul_hand_re_set_and_played_is_a_breach_at_once() -> None:
    t = _foul_exposed("six-card").place(1, "Kc 7h 5c 3d 2s", "9s")
    at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.frame == at and "re-set to high Kc 7h 5c 3d 2s / low 9s" in f.observed


def test_a_hand_that_is_not_foul_is_not_judged() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all({"seat1": KINGS})
    t.set(1, "9s 5c").set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def _turned_a_card_short(game: str, high: str, low: str, policy: str | None = None) -> Table:
    """Seat 1's foul hand (``_foul_exposed``'s) turned up with one face the camera could not name:
    ``high`` / ``low`` as read, a card short."""
    cards = KINGS if game == "seven-card" else "Kc 9s 7h 5c 3d 2s"
    t = Table(game, seats=[1, 2, 3], foul_policy=policy).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": cards})
    t.set(1, "Kc Kd" if game == "seven-card" else "Kc").set(3).expose_dealer().dealer_set()
    return t.place(1, high, low)


def test_wsgc_rule5_a_foul_hand_read_a_card_short_is_judged_once_the_re_set_names_that_card() -> None:
    """b42-0017: the 6c of a foul hand not read when it was turned up; the dealer's house-way re-set
    shows the same cards and names it: the foul, re-set and played, is found."""
    t = _turned_a_card_short("six-card", "7h 5c 3d 2s", "Kc")  # its 9s not read
    t.place(1, "Kc 7h 5c 3d 2s", "9s")
    at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.frame == at and "re-set to high Kc 7h 5c 3d 2s / low 9s" in f.observed
    assert "foul hand high 9s 7h 5c 3d 2s / low Kc" in f.expected
    assert "9s not read when the hand was turned up" in f.observed


def test_a_hand_read_a_card_short_that_the_named_card_makes_valid_is_not_a_foul() -> None:
    t = Table("six-card", seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": "Kc Kd 7h 5c 3d 2s"})
    t.set(1, "2s").set(3).expose_dealer().dealer_set()
    t.place(1, "Kd 7h 5c 3d", "2s")  # the Kc not read: K-7 high under a 2 low would look foul
    t.place(1, "Kc Kd 7h 5c 2s", "3d").turn(3).collect_all().hold(1)
    assert Run(t).of(CHECK) == []
    # nor when the later setting is not the same cards but one (a card swapped in)
    t = _turned_a_card_short("six-card", "7h 5c 3d 2s", "Kc")
    t.place(1, "Kc 7h 5c 3d 4h", "9s").turn(3).collect_all().hold(1)
    assert Run(t).of(CHECK) == []


def test_mbs_3_7_2_a_foul_hand_re_set_with_one_card_read_two_ways_is_still_its_re_set() -> None:
    """b68-0000 (seed 68, 720p): a foul hand's 3s read Js when it was turned up and 3s in the dealer's
    house-way re-set. The re-set holds the foul's cards but one, the two odd reads sharing a suit,
    set otherwise: the dealer's re-set, not another hand (it had been "settled as dealt, never
    re-set", a false review item)."""
    t = _turned_a_card_short("seven-card", "Js 7h 5c 3d 2s", "Kc Kd")  # its 9s read Js
    t.place(1, "Kc Kd 5c 3d 2s", "9s 7h").turn(3).collect_all().hold(1)  # the house way
    assert Run(t).of(CHECK) == []
    # re-set otherwise than the house way: judged, saying which card was read two ways
    t = _turned_a_card_short("seven-card", "Js 7h 5c 3d 2s", "Kc Kd")
    t.place(1, "Kc Kd 7h 3d 2s", "9s 5c").turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert "not the house way" in f.observed and "Js of the foul hand read 9s in the re-set" in f.observed
    # the same setting read again, its one card read otherwise, is no re-set: settled as dealt
    t = _turned_a_card_short("seven-card", "Js 7h 5c 3d 2s", "Kc Kd")
    t.place(1, "9s 7h 5c 3d 2s", "Kc Kd").turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert "never re-set" in f.observed
    # nor is a setting whose odd card shares neither rank nor suit (another card, not a misread)
    t = _turned_a_card_short("seven-card", "Jh 7h 5c 3d 2s", "Kc Kd")
    t.place(1, "Kc Kd 5c 3d 2s", "9s 7h").turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert "never re-set" in f.observed


def test_wsgc_rule5_a_foul_hand_re_set_with_one_card_read_two_ways_is_found() -> None:
    t = _turned_a_card_short("six-card", "Js 7h 5c 3d 2s", "Kc", policy="loses")  # its 9s read Js
    t.place(1, "Kc 7h 5c 3d 2s", "9s")
    at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.frame == at and "re-set to high Kc 7h 5c 3d 2s / low 9s" in f.observed
    assert "Js of the foul hand read 9s in the re-set" in f.observed


def test_mbs_3_7_2_a_foul_hand_read_a_card_short_then_whole_and_never_re_set_is_a_breach() -> None:
    t = _turned_a_card_short("seven-card", "9s 7h 5c 3d", "Kc Kd")  # its 2s not read at first
    t.place(1, "9s 7h 5c 3d 2s", "Kc Kd")  # then read where it lies: the same setting
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert "never re-set" in f.observed and "2s not read when the hand was turned up" in f.observed


def test_mbs_3_7_2_a_hand_read_a_card_short_that_is_foul_whatever_that_card_is_settled_is_a_breach() -> None:
    """b41-0000: high 9d 8c 4d 2d and a card not read, low Jk Ac: one more card makes at best a pair of
    nines, under the low's pair of aces; collected as shown, never re-set."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": "9d 8c 8s 4d 2d Jk Ac"})
    t.set(1, "Jk Ac").set(3).expose_dealer().dealer_set()
    t.place(1, "9d 8c 4d 2d", "Jk Ac")  # its 8s not read
    at = t.frame - 5
    t.turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.frame == at and "never re-set" in f.observed
    assert "foul whatever the card not read is" in f.observed
    assert "high 9d 8c 4d 2d and a card not read / low Jk Ac" in f.observed


def test_a_hand_read_a_card_short_that_one_card_could_make_valid_is_not_judged_blind() -> None:
    # high 9d 8c 4d 2d and a card, low Jk 7c: a 9, 8, 4 or 2 would pair the high over the low's A-7
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": "9d 8c 8s 4d 2d Jk 7c"})
    t.set(1, "Jk 7c").set(3).expose_dealer().dealer_set()
    t.place(1, "9d 8c 4d 2d", "Jk 7c").turn(3).collect_all().hold(1)
    assert Run(t).of(CHECK) == []
    # foul whatever the card, but the faces moved after (re-set, read short again): not judged blind
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"seat1": "9d 8c 8s 4d 2d Jk Ac"})
    t.set(1, "Jk Ac").set(3).expose_dealer().dealer_set()
    t.place(1, "9d 8c 4d 2d", "Jk Ac").place(1, "Jk Ac 9d 8c", "4d 2d").turn(3).collect_all().hold(1)
    assert Run(t).of(CHECK) == []


def test_the_round_records_a_foul_hand_re_set_after_it_was_turned_up_as_set_by_the_dealer() -> None:
    """The dealer's re-set is the hand's last setting, and the dealer's: a face moved between its areas
    after it was turned up (the renderer's truth says so too). A later, fuller read of the same areas
    is no re-set."""
    t = _foul_exposed("six-card").place(1, "Kc 7h 5c 3d 2s", "9s").turn(3).collect_all().hold(1)
    seat1 = next(h for h in Run(t).rounds[0].hands if h.position == "seat1")
    assert seat1.set_by == "dealer" and seat1.low == ["9s"]
    assert (seat1.turned_up_high, seat1.turned_up_low) == (["9s", "7h", "5c", "3d", "2s"], ["Kc"])
    from compliance.reports import ClipReport, clip_html

    page = clip_html(ClipReport(clip="c", status="ok", mode="states", rounds=Run(t).rounds))
    assert "dealer (re-set after it was turned up as high 9s 7h 5c 3d 2s / low Kc)" in page
    t = _turned_a_card_short("six-card", "7h 5c 3d 2s", "Kc").place(1, "9s 7h 5c 3d 2s", "Kc")
    t.turn(3).collect_all().hold(1)
    seat1 = next(h for h in Run(t).rounds[0].hands if h.position == "seat1")
    assert seat1.set_by == "player" and seat1.turned_up_high == [] and seat1.turned_up_low == []
    # turned up a card short, then re-set: the record says a card was not read
    t = _turned_a_card_short("six-card", "7h 5c 3d 2s", "Kc").place(1, "Kc 7h 5c 3d 2s", "9s")
    t.turn(3).collect_all().hold(1)
    page = clip_html(ClipReport(clip="c", status="ok", mode="states", rounds=Run(t).rounds))
    assert "turned up as high 7h 5c 3d 2s and a card not read / low Kc)" in page


def test_holds_whatever_fills_each_place_with_every_card_the_others_do_not_show() -> None:
    """``compliance.checks._base.holds_whatever``, what FOUL-MISHANDLED and SETTLEMENT rest a finding
    on when a card is read in doubt or not read: true only if the predicate holds for every card (one
    place) or every pair (two) of the deck (53) that the other cards do not show; an added card goes
    at its part's end; a predicate that raises ValueError does not hold."""
    import pytest

    from compliance.checks._base import DECK, holds_whatever

    tried: list[list[list[str]]] = []

    def note(parts: list[list[str]]) -> bool:
        tried.append(parts)
        return True

    parts = [["Kc", "Kd", "9s"], ["7h"]]
    assert holds_whatever(parts, [(0, 1)], note)
    assert len(tried) == 53 - 3  # Kc, 9s, 7h stay: every other card of the deck, Kd among them
    assert {p[0][1] for p in tried} == set(DECK) - {"Kc", "9s", "7h"}
    assert all(p[0][0] == "Kc" and p[0][2] == "9s" and p[1] == ["7h"] for p in tried)
    tried.clear()
    assert holds_whatever(parts, [(1, 1)], note)  # a card added to the low hand
    assert len(tried) == 53 - 4 and all(len(p[1]) == 2 and p[1][0] == "7h" for p in tried)
    tried.clear()
    assert holds_whatever(parts, [(0, 0), (1, 0)], note)
    assert len(tried) == 51 * 50 and all(p[0][0] != p[1][0] for p in tried)
    assert not holds_whatever(parts, [(0, 0)], lambda p: p[0][0] != "As")  # one card breaks it
    assert not holds_whatever(parts, [(0, 0)], lambda p: int("x") > 0)  # raises: no result
    with pytest.raises(ValueError, match="one or two places"):
        holds_whatever(parts, [(0, 0), (0, 1), (1, 0)], note)
