"""DEAL-ORDER (seed 000 rules 3-4): from the LCD position, counter-clockwise, a hand to every spot."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "DEAL-ORDER"


def _finish(t: Table) -> Table:
    return t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)


def test_seed000_rule3_dealing_from_the_lcd_position_counter_clockwise_is_compliant() -> None:
    for lcd in (1, 2, 3, 4):
        t = _finish(Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(lcd).deal_all())
        run = Run(t)
        assert run.findings == [], lcd
        assert run.rounds[0].deal_order == t.layout.deal_order(lcd)


def test_seed000_rule3_starting_at_the_wrong_position_is_a_breach() -> None:
    t = _finish(Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all(lcd=1))
    [f] = Run(t).of(CHECK)
    assert f.confidence == 1.0 and "LCD 2" in f.expected and f.observed.startswith("dealt seat1")
    assert f.seat == 1  # the seat that got a hand out of turn


def test_seed000_rule3_clockwise_is_a_breach() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    for pos in ("seat2", "seat1", "dealer", "seat3"):
        t.deal(pos)
    [f] = Run(_finish(t)).of(CHECK)
    assert f.observed == "dealt seat2 seat1 (seat3 dealer passed over)" and f.seat == 1


def test_seed000_rule4_an_empty_spot_skipped_is_a_breach() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(3)
    for pos in ("seat3", "dealer", "seat1"):  # seat 2 (no player) gets no hand
        t.deal(pos)
    [f] = Run(_finish(t)).of(CHECK)
    assert "no hand seen at seat2" in f.observed


def test_without_an_lcd_reading_only_the_counter_clockwise_order_is_checked_at_lower_confidence() -> None:
    ok = _finish(Table(seats=[1, 2, 3]).hold(1).chips(1, 3).deal_all(lcd=3))
    assert Run(ok).of(CHECK) == []
    bad = Table(seats=[1, 2, 3]).hold(1).chips(1, 3)
    for pos in ("seat3", "seat2", "seat1", "dealer"):
        bad.deal(pos)
    [f] = Run(_finish(bad)).of(CHECK)
    assert f.confidence == 0.6 and "LCD not seen" in f.expected


def test_hands_that_appear_in_the_same_frame_get_the_benefit_of_the_doubt() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.truth.update(seat2=t._draw(7), seat3=t._draw(7))
    t.seats[3].dealt = ["BACK"] * 7
    t.seats[2].dealt = ["BACK"] * 7
    t.hold()
    t.deal("dealer").deal("seat1")
    assert Run(_finish(t)).of(CHECK) == []


def test_a_hand_dealt_under_the_dealers_arm_is_in_turn_when_its_window_allows() -> None:
    # LCD 2: seat2, seat3, dealer, seat1. Seat 3 is hidden while it is dealt, and seen only after
    # the dealer's own hand: its delivery lies anywhere in the hidden spell, so the order holds.
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal("seat2")
    t.occlude("seat3", hold=0.1)
    t.deal("seat3").deal("dealer")
    t.occlude()
    t.deal("seat1")
    assert Run(_finish(t)).of(CHECK) == []


def test_a_spot_passed_over_in_plain_view_is_reported_when_the_next_hand_lands() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal("seat2").deal("dealer")
    at = t.frame - 5
    t.deal("seat3").deal("seat1")
    [f] = Run(_finish(t)).of(CHECK)
    assert f.frame == at and f.seat is None and "seat3 passed over" in f.observed


def test_an_lcd_value_left_from_the_last_round_is_not_this_rounds_start() -> None:
    # Round 1 with LCD 2; then the LCD goes dark and round 2's start is never read; its deal
    # starts at seat 1: only the counter-clockwise order can be judged, and it holds.
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3).expose_dealer()
    t.dealer_set().turn(1).turn(3)
    t.lcd_value = None  # the LCD goes dark as the cards are collected
    t.collect_all().hold(1).chips(1, 3).deal_all(lcd=1)
    _finish(t)
    run = Run(t)
    assert [r.lcd for r in run.rounds] == [2, None]
    assert run.findings == []


def test_a_hand_dealt_first_under_the_dealers_arm_names_the_dealer_not_the_first_hand_seen() -> None:
    # b58-0007: LCD 3 (seat3, dealer, seat1, seat2); the dealer deals himself first (a late start)
    # under his arm, then seat 1 and seat 2 in plain view, seat 3 under the arm; his own hand is
    # seen only as seat 3 is dealt. Seat 1's is the first hand *seen*, but the dealer's window
    # opens before it, and only the circuit from the dealer keeps the deal's pace (seat 1 first
    # would need seat 3's and the dealer's hands both after seat 2's, before the dealer's was seen).
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(3)
    t.occlude("dealer").deal("dealer").deal("seat1").deal("seat2")
    at = t.frame - 5  # seen when the next hand lands (test above)
    t.occlude("seat3").deal("seat3")
    t.occlude()
    [f] = Run(_finish(t)).of(CHECK)
    assert f.seat is None and "seat3 passed over" in f.observed and "first dealt likely dealer" in f.observed
    assert f.frame == at  # the picture in which the breach was first seen


def test_a_hidden_hand_whose_window_fits_either_circuit_leaves_the_first_hand_seen() -> None:
    # LCD 3 again; the deal starts at seat 1 (seat1, seat2, seat3, dealer) and the dealer's area is
    # hidden all along: his hand may have come first or last, the pace cannot tell: seat 1.
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(3)
    t.occlude("dealer").deal("seat1").deal("seat2").deal("seat3").deal("dealer")
    t.occlude()
    [f] = Run(_finish(t)).of(CHECK)
    assert f.seat == 1 and "first dealt likely" not in f.observed


def test_a_breach_waiting_for_the_whole_deal_is_reported_when_the_footage_ends_first() -> None:
    # As above, but the recording stops while the dealer's area is still hidden: the breach waits for
    # the deal, and the end of the footage reports it (on the first hand seen: nothing else fits).
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(3)
    t.occlude("dealer").deal("dealer").deal("seat1").deal("seat2")
    [f] = Run(t).of(CHECK)
    assert f.seat == 1 and "seat3 passed over" in f.observed


def test_a_late_start_after_the_lcd_position_passed_over_in_view_is_not_held_back() -> None:
    # LCD 2 (seat2, seat3, dealer, seat1); the deal starts at seat 3 with the dealer's area hidden.
    # Seat 3's counter-clockwise neighbour, seat 2, lay empty in plain view: the deal cannot have begun
    # before seat 3, so the alert comes as the breach is seen, before the deal is over.
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.occlude("dealer").deal("seat3").deal("dealer").deal("seat1")
    [f] = Run(t, finish=False).of(CHECK)
    assert f.seat == 3 and "seat2 passed over" in f.observed
    # the dealer first under his arm (the test above): that breach waits for the deal
    held = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(3)
    held.occlude("dealer").deal("dealer").deal("seat1").deal("seat2")
    assert Run(held, finish=False).of(CHECK) == []


def test_the_steadiest_pace_of_an_order_through_its_delivery_windows() -> None:
    from compliance.checks.deal_order import _steadiest_gap

    # b58-0007's windows (s): the dealer's hand anywhere from 38.08 to 42.80 (under his arm)
    w = {
        "dealer": (38.08, 42.8),
        "seat1": (39.68, 40.16),
        "seat2": (40.32, 40.8),
        "seat5": (42.16, 42.8),
        "seat6": (42.0, 43.44),
    }
    first = _steadiest_gap(["dealer", "seat1", "seat2", "seat5", "seat6"], w)
    last = _steadiest_gap(["seat1", "seat2", "seat5", "seat6", "dealer"], w)
    assert first is not None and last is not None
    assert abs(last - 0.32) < 0.01  # seat 5, seat 6 and the dealer within 42.16-42.80
    assert first > last + 0.2
    # an order no delivery times fit: seat 1's hand seen before seat 2's area was last seen empty
    assert _steadiest_gap(["seat2", "seat1"], {"seat1": (40.0, 40.5), "seat2": (41.0, 41.5)}) is None
