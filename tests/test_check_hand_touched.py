"""HAND-TOUCHED-AFTER-REVEAL (seed 004): players may not touch their cards once the dealer's are exposed."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table, changes_only

CHECK = "HAND-TOUCHED-AFTER-REVEAL"
B = "BACK"


def _revealed() -> Table:
    return Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3).expose_dealer()


def test_seed004_moving_a_card_from_high_to_low_after_the_reveal_is_a_breach() -> None:
    t = _revealed().place(1, [B] * 4, [B] * 3)
    touched_at = t.states[-1].frame - 4
    t.place(1, [B] * 5, [B] * 2).dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert f.seat == 1 and f.frame == touched_at and f.confidence == 1.0
    assert run.checks() == [CHECK]


def test_turning_hands_over_to_settle_is_not_a_touch() -> None:
    t = _revealed().dealer_set()
    # The dealer turns seat 1's high hand first, then its low hand.
    real = t.truth["seat1:set"]
    cut = real.index("|")
    t.place(1, real[:cut], [B] * 2).turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_a_face_showing_mid_move_is_a_hand_being_turned_over_and_only_for_review() -> None:
    # b41-0007 from the camera: as the dealer turns seat 1's hand up, its low hand is lifted and a
    # card of it shows face up in the deal spot before the whole hand lies face up
    from compliance.checks.hand_touched import TURNED_UP_CONFIDENCE

    t = _revealed().dealer_set()
    first = t.truth["seat1:set"][0]
    t.seats[1].high, t.seats[1].low, t.seats[1].dealt = [B] * 5, [], [first]
    t._step(None)
    t.turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.confidence == TURNED_UP_CONFIDENCE < 0.7 and f"deal spot {first}" in f.observed


def test_dealer_lifting_one_area_to_turn_it_is_not_a_touch() -> None:
    t = _revealed().dealer_set()
    t.place(1, [B] * 5, [])  # low lifted
    t.turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_hand_lifted_and_put_back_face_down_after_the_reveal_is_a_touch_with_lower_confidence() -> None:
    t = _revealed().place(1, [], [], hold=1.0).place(1, [B] * 5, [B] * 2)
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t).of(CHECK)
    assert f.confidence == 0.7 and "put back" in f.observed


def test_a_hand_lifted_whole_and_one_area_put_back_face_down_is_a_touch() -> None:
    """b56-0007 (seed 56, 720p): seat 1's hand lifted after the reveal and put back face down, its low
    hand under the dealer's hand for the 1.3 s it lay back (read empty), then turned up to settle. The
    high hand back face down alone is the hand put back, not one area lifted to be turned."""
    for exact in (True, False):
        t = _revealed().place(1, [], [], hold=1.0).place(1, [B] * 5, [], hold=1.0)
        t.dealer_set().turn(1).turn(3).collect_all().hold(1)
        [f] = Run(t, face_down_counts_exact=exact).of(CHECK)
        assert f.seat == 1 and f.confidence == 0.7 and "put back" in f.observed
    # the whole hand lifted and turned up, its high hand first: no touch
    t = _revealed().dealer_set().place(1, [], [], hold=1.0)
    real = t.truth["seat1:set"]
    cut = real.index("|")
    t.place(1, real[:cut], [], hold=1.0).turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_rearranging_before_the_reveal_is_allowed() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3)
    t.place(1, [B] * 4, [B] * 3).set(1)  # re-set before the dealer's cards are exposed
    t.expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.of(CHECK) == []
    assert "hand_changed" in run.kinds("seat1")


def test_a_seat_that_first_sets_after_the_reveal_is_the_reveals_breach_not_a_touch() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).expose_dealer().set(3)
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    run = Run(t)
    assert run.checks() == ["DEALER-REVEAL-EARLY"]


def test_arm_passing_over_a_set_hand_is_not_a_touch() -> None:
    t = _revealed()
    t.seats[1].high, t.seats[1].low = [], []
    t.occlude("seat1.high", "seat1.low", hold=1.0)
    t.seats[1].high, t.seats[1].low = [B] * 5, [B] * 2
    t.occlude()
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    assert Run(t).findings == []


def test_a_change_in_the_number_of_backs_counts_only_where_backs_are_counted_exactly() -> None:
    t = _revealed().place(1, [B] * 3, [B] * 2)  # seen as fewer backs after the reveal
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    assert [f.seat for f in Run(t).of(CHECK)] == [1]
    # A camera that cannot count a stacked pile: the same footage shows no touch.
    assert Run(t, face_down_counts_exact=False).findings == []


def test_a_lifted_and_restored_pile_is_a_touch_even_where_backs_are_not_counted() -> None:
    t = _revealed().place(1, [], [], hold=1.0).place(1, [B], [B])
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    [f] = Run(t, face_down_counts_exact=False).of(CHECK)
    assert f.seat == 1 and f.confidence == 0.7


def test_a_hand_lifted_then_put_back_under_the_dealers_arm_is_a_touch_in_a_changes_only_stream() -> None:
    # s07 from the camera: the seat's areas lie empty for 2 s (no state is sent while nothing
    # changes), then the next state has them hidden by the arm that puts the hand back. The empty
    # spell had lasted the debounce time when it went out of view, so it counts.
    t = _revealed().place(1, [], [], hold=2.0)
    t.occlude("seat1.dealt", "seat1.high", "seat1.low", hold=0.4)
    t.seats[1].high, t.seats[1].low = [B], [B]
    t.occlude()
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    t.states = changes_only(t.states)
    [f] = Run(t, face_down_counts_exact=False).of(CHECK)
    assert f.seat == 1 and f.confidence == 0.7
    # an empty glimpse shorter than the debounce time before the arm is still nothing
    t = _revealed().place(1, [], [], hold=0.04)
    t.occlude("seat1.dealt", "seat1.high", "seat1.low", hold=0.4)
    t.occlude()
    t.dealer_set().turn(1).turn(3).collect_all().hold(1)
    t.states = changes_only(t.states)
    assert Run(t, face_down_counts_exact=False).of(CHECK) == []
