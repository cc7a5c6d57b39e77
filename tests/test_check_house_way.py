"""HOUSE-WAY (seed 002 Appendix A, seed 000 rule 6): the dealer's setting, or an i-Verify set, is not
the house way. Settings equal in rank to the house way's are compliant."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "HOUSE-WAY"
PAIR_OF_KINGS = "Kc Kd 9s 7h 5c 3d 2s"  # MBS App. A one pair: the pair high, 9s 7h low
THREE_ACES = "As Ah Ad Kh 9d 6s 4h"  # MBS App. A three Aces: a pair of Aces high, an Ace and the K low


def _to_reveal(dealer: str, **hands: str) -> Table:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"dealer": dealer, **hands})
    return t


def test_mbs_app_a_dealer_setting_by_the_house_way_is_compliant() -> None:
    t = _to_reveal(PAIR_OF_KINGS).set(1).set(3).expose_dealer().dealer_set()
    t.turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.findings == []
    dealer = next(h for h in run.rounds[0].hands if h.position == "dealer")
    assert dealer.low == ["9s", "7h"]


def test_mbs_app_a_dealer_setting_off_the_house_way_is_a_breach() -> None:
    t = _to_reveal(PAIR_OF_KINGS).set(1).set(3).expose_dealer().dealer_set("9s 5c")
    at = t.frame - 5
    t.turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat is None and f.frame == at
    assert f.expected == "high Kd Kc 5c 3d 2s / low 9s 7h (house way)"
    assert f.observed == "dealer set high Kd Kc 7h 3d 2s / low 9s 5c"


def test_mbs_app_a_a_setting_equal_in_rank_to_the_house_way_is_compliant() -> None:
    # The house way plays As Kh low; playing Ad Kh low instead is the same hand in rank.
    t = _to_reveal(THREE_ACES).set(1).set(3).expose_dealer().dealer_set("Ad Kh")
    t.turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_a_player_setting_his_own_way_is_not_judged() -> None:
    t = _to_reveal(PAIR_OF_KINGS, seat1=THREE_ACES).set(1, "9d 6s").set(3).expose_dealer().dealer_set()
    t.turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_seed000_5a_iverify_set_by_the_house_way_shown_is_compliant() -> None:
    t = _to_reveal(PAIR_OF_KINGS, seat3=THREE_ACES).set(1)
    t.iverify_seat(3, "Ah Ad 9d 6s 4h", "As Kh").set(3, "As Kh").iverify_blank()
    t.expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.findings == []
    assert {h.position: h.set_by for h in run.rounds[0].hands}["seat3"] == "iverify"


def test_seed000_5a_iverify_set_that_differs_from_the_display_is_a_breach() -> None:
    t = _to_reveal(PAIR_OF_KINGS, seat3=THREE_ACES).set(1)
    t.iverify_seat(3, "Ah Ad 9d 6s 4h", "As Kh").set(3, "9d 6s").iverify_blank()
    t.expose_dealer().dealer_set().turn(1).turn(3)
    at = t.frame - 5
    t.collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat == 3 and f.frame == at and "i-Verify display" in f.expected
    assert f.observed == "seat 3 (set through i-Verify) set high As Ah Ad Kh 4h / low 9d 6s"


def test_iverify_set_whose_display_was_not_read_is_judged_against_the_house_way() -> None:
    t = _to_reveal(PAIR_OF_KINGS, seat3=THREE_ACES).set(1)
    t.iverify_seat(3).set(3, "9d 6s").iverify_blank()  # the display's cards were not read
    t.expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat == 3 and f.expected == "high Ah Ad 9d 6s 4h / low As Kh (house way)"


def test_wsgc_6card_rule6_dealer_off_the_house_way_is_a_breach() -> None:
    t = Table("six-card", seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal_all({"dealer": "Ac Kd Qh 9s 7c 4d"})
    good = t.house_way_low("dealer")
    wrong = next(c for c in ("4d", "7c") if [c] != good)
    t.set(1).set(3).expose_dealer().dealer_set(wrong).turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.seat is None and f"low {good[0]}" in f.expected


def _iverify_seat_touched_after_reveal() -> Table:
    # Seat 3 is set through i-Verify by the house way, then picks his hand up after the dealer's
    # reveal and lays it down again with Kh and 9d swapped: the exposed hand differs from the display.
    t = _to_reveal(PAIR_OF_KINGS, seat3=THREE_ACES).set(1)
    t.iverify_seat(3, "Ah Ad 9d 6s 4h", "As Kh").set(3, "As Kh").iverify_blank()
    t.expose_dealer().place(3, [], [], hold=1.5).place(3, ["BACK"] * 5, ["BACK"] * 2)
    t.dealer_set().turn(1).place(3, "Ah Ad Kh 6s 4h", "As 9d").collect_all().hold(1)
    return t


def test_an_iverify_hand_touched_after_the_reveal_is_that_breach_not_a_house_way_one() -> None:
    # Random batch seed 2, b2-0008: the touch was reported, then again as HOUSE-WAY for the same seat.
    run = Run(_iverify_seat_touched_after_reveal())
    assert [(f.check_id.value, f.seat) for f in run.findings] == [("HAND-TOUCHED-AFTER-REVEAL", 3)]


def test_without_the_touch_check_the_changed_iverify_hand_is_still_judged() -> None:
    # The skip rests on the touch finding itself, not on the hand having been lifted.
    run = Run(_iverify_seat_touched_after_reveal(), checks=[CHECK])
    [f] = run.of(CHECK)
    assert f.seat == 3 and f.observed == "seat 3 (set through i-Verify) set high Ah Ad Kh 6s 4h / low As 9d"
