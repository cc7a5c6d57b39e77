"""FOREIGN-CARD (seed 002 rules 5.1, 5.5): a duplicate or foreign card voids the round."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "states"))
from tablescript import Run, Table

CHECK = "FOREIGN-CARD"


def test_seed002_5_5_the_same_face_in_two_hands_voids_the_round() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1)
    at = t.frame - 5  # seat 1's As is seen when its hand is turned face up
    t.turn(3).collect_all().hold(1)
    run = Run(t)
    [dup] = run.of(CHECK)
    assert dup.observed == "As seen 2 times: at dealer, seat1" and dup.seat == 1 and dup.frame == at


def _duplicate_as(named: str | None) -> Run:
    """seed002_5_5's duplicate As, the dealer's named by the camera without its index read where it lay
    (``named``: the TableState field; None: read there)."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    if named is not None:
        for i, s in enumerate(t.states):
            key = next((f"dealer.{a}" for a in ("high", "low", "hand") if "As" in getattr(s.dealer, a)), None)
            if key is not None:
                t.states[i] = s.model_copy(update={named: {key: ["As"]}})
    return Run(t)


def test_a_duplicate_resting_on_a_face_named_without_its_index_read_is_for_review_and_voids_nothing() -> None:
    [plain] = _duplicate_as(None).of(CHECK)
    assert plain.status == "alert"
    for named in ("carried_faces", "blank_corner_faces", "counted_faces"):
        run = _duplicate_as(named)
        [dup] = run.of(CHECK)
        assert dup.status == "review", named
        assert "the As at dealer was named without its index read where it lay" in dup.observed
        assert not any("round void" in f.observed for f in run.findings)


def test_only_the_duplicated_cards_own_naming_makes_it_a_review_item() -> None:
    # b42-0016: the dealer's Joker named by a blank corner beside a duplicate 7c read at both places
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s Jk").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    for i, s in enumerate(t.states):
        key = next((f"dealer.{a}" for a in ("high", "low", "hand") if "Jk" in getattr(s.dealer, a)), None)
        if key is not None:
            t.states[i] = s.model_copy(update={"blank_corner_faces": {key: ["Jk"]}})
    [dup] = Run(t).of(CHECK)
    assert dup.status == "alert" and "named by a blank corner: Jk at dealer" in dup.observed


def _count_set_aside(aside: dict[str, float]) -> Run:
    """b53-0012: seat 1's card, read 6s and (weaker) 6c beside the dealer's 6c, named 6s by the count;
    ``aside``: what the camera says the count set aside."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3", "Th Kh 9h 7d 5c 3c 2h").deal("dealer", "6c Kd 9c 7c 5h 3s 2c")
    t.deal("seat1", "6s Qh Jc 8d Ah 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    for i, st in enumerate(t.states):
        key = next((f"seat1.{a}" for a in ("high", "low") if "6s" in getattr(st.seat(1), a)), None)
        if key is not None:
            t.states[i] = st.model_copy(
                update={"counted_faces": {key: ["6s"]}, "counted_aside": {key: aside}}
            )
    return Run(t)


def test_a_face_the_count_set_aside_as_shown_elsewhere_is_a_possible_duplicate_for_review() -> None:
    [f] = _count_set_aside({"6c": 0.33}).of(CHECK)
    assert f.status == "review" and f.confidence == 0.33 and f.seat == 1
    assert f.observed.startswith(
        "6c seen at dealer; at seat1, a card the count named 6s was read 6c too (read 0.33)"
    )
    assert "a second deck's 6c would read so" in f.observed
    assert _count_set_aside({}).of(CHECK) == []  # nothing set aside: no duplicate


def test_a_face_the_count_set_aside_as_read_surer_in_the_same_hand_is_a_possible_copy_for_review() -> None:
    """b78-0010: seat 1's high 8d read Td beside his low hand's Td, read surer; the pipeline names the
    doubtful one by the count and sets the Td aside. A copy of his own card in the same hand would read
    so: the same review item, the face standing at his own position."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3", "Th Kh 9h 7d 5c 3c 2h").deal("dealer", "6c Kd 9c 7c 5h 3s 2c")
    t.deal("seat1", "8d Qh Jc 6s Ah Td 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
    for i, st in enumerate(t.states):
        key = next((f"seat1.{a}" for a in ("high", "low") if "8d" in getattr(st.seat(1), a)), None)
        if key is not None:
            t.states[i] = st.model_copy(
                update={"counted_faces": {key: ["8d"]}, "counted_aside": {key: {"Td": 0.45}}}
            )
    [f] = Run(t).of(CHECK)
    assert f.status == "review" and f.confidence == 0.45 and f.seat == 1
    assert f.observed.startswith(
        "Td seen at seat1; at seat1, a card the count named 8d was read Td too (read 0.45)"
    )
    assert "the count set the Td aside because the table shows it, read surer" in f.observed


def test_a_face_down_copy_is_not_a_duplicate_until_it_is_seen() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c").deal("seat1", "As Qh Jc 8d 6c 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().collect_all().hold(1)
    assert Run(t).of(CHECK) == []


def test_seed002_5_1_a_token_that_is_no_card_is_foreign() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1).set(3)
    t.deal("dealer", "As Kd 9c 7h 5s 3d Zz")
    t.expose_dealer().collect_all().hold(1)
    run = Run(t)
    [f] = run.of(CHECK)
    assert "foreign card 'Zz' at dealer" in f.observed


def test_findings_after_a_void_say_the_round_is_void() -> None:
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2).deal_all().set(1)
    t.deal("dealer", "As Kd 9c 7h 5s 3d Zz").expose_dealer().set(3).collect_all().hold(1)
    run = Run(t)
    assert run.checks() == ["DEALER-REVEAL-EARLY", CHECK]
    assert all("[round void: FOREIGN-CARD" in f.observed for f in run.findings if f.check_id.value != CHECK)


def _counted_then_read_elsewhere(withdrawn: bool) -> Run:
    """b48-0005: seat 1's 8d named Td by the count (the Td shown nowhere), then seat 3 turns up its
    Td. ``withdrawn``: the camera withdraws seat 1's Td in that very state and names the 8d 0.2 s later
    (``TablePipeline._doubt_counted``), under the monitor's debounce; else it keeps showing it."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3", "Td Kd 9h 7d 5h 3s 2c").deal("dealer", "As Ks 9c 7c 5d 3h 2h")
    t.deal("seat1", "8d Qh Jc 8s 6c 4d 2d").set(1, "Qh Jc").set(3, "Kd 9h").expose_dealer().dealer_set()
    t.place(1, "Td 8s 6c 4d 2d", "Qh Jc", hold=1.0)
    first = len(t.states)
    t.seats[3].high, t.seats[3].low = ["Td", "7d", "5h", "3s", "2c"], ["Kd", "9h"]
    if withdrawn:
        t.seats[1].high = ["8s", "6c", "4d", "2d"]
        t.hold(0.2)
        t.seats[1].high = ["8d", "8s", "6c", "4d", "2d"]
    t.hold(1.0).collect_all().hold(1)
    for i, s in enumerate(t.states[:first]):
        if "Td" in s.seat(1).high:
            t.states[i] = s.model_copy(update={"counted_faces": {"seat1.high": ["Td"]}})
    for i, s in enumerate(t.states[first:], first):
        for face in ("Td", "8d"):
            if face in s.seat(1).high:
                t.states[i] = s.model_copy(update={"counted_faces": {"seat1.high": [face]}})
    return Run(t)


def test_a_face_named_by_the_count_and_withdrawn_when_read_elsewhere_is_no_duplicate() -> None:
    # the monitor's accepted content of seat 1 keeps the Td for its debounce after the camera withdrew
    # it: no duplicate for that
    assert _counted_then_read_elsewhere(withdrawn=True).of(CHECK) == []
    # the camera keeps showing the counted Td beside seat 3's: a duplicate as any, said to rest on the count
    [dup] = _counted_then_read_elsewhere(withdrawn=False).of(CHECK)
    assert dup.observed.startswith("Td seen 2 times: at seat1, seat3")
    assert "named by the count: Td at seat1" in dup.observed
    assert dup.status == "review" and "the Td at seat1 was named without its index read" in dup.observed


def test_a_duplicate_read_just_under_the_review_level_is_not_rounded_up_into_an_alert() -> None:
    """b56-0001 (seed 56, 720p): a phantom 9c read 0.6997 beside a 9c read 0.77 was recorded at 0.700
    (rounded to three decimals) and so made an alert that voided the round; a finding's confidence is
    cut down to three decimals, never rounded up, and stays under ``review_below`` (0.7)."""
    for read, status in ((0.6997, "review"), (0.7004, "alert")):
        t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
        t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c")
        t.deal("seat1", "As Qh Jc 8d 6c 4s 2d")
        t.set(1).set(3).expose_dealer().dealer_set().turn(1).turn(3).collect_all().hold(1)
        for i, s in enumerate(t.states):
            for a in ("high", "low"):
                cards = getattr(s.seat(1), a)
                if "As" in cards:
                    key = f"seat1.{a}"
                    conf = [read if c == "As" else 0.95 for c in cards]
                    t.states[i] = s.model_copy(
                        update={"card_confidence": {key: conf}, "read_confidence": {key: min(conf)}}
                    )
        run = Run(t)
        [dup] = run.of(CHECK)
        assert dup.status == status and dup.confidence == (0.699 if status == "review" else 0.7), read


def test_a_duplicate_resting_on_a_card_read_two_ways_at_its_position_is_for_review() -> None:
    """b57-0005 (seed 57, 720p): seat 3's Ac, read Ac a moment before, then As beside seat 4's As: a
    position's cards do not change faces within a round, so one of its two reads is wrong."""
    for earlier, status in (("Ac", "review"), ("Ah", "review"), ("Ks", "review"), ("9d", "alert")):
        t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
        t.deal("seat2").deal("seat3").deal("dealer", "As Kd 9c 7c 5h 3s 2c")
        t.deal("seat1", "As Qh Jc 8d 6c 4s 2d")
        t.set(1).set(3).expose_dealer().dealer_set().turn(1).hold(1).turn(3).collect_all().hold(1)
        shown = [i for i, s in enumerate(t.states) if "As" in s.seat(1).high + s.seat(1).low]
        for i in shown[: len(shown) // 3]:  # seat 1's As first read as another face, for a while
            s = t.states[i]
            seat = s.seat(1)
            swap = {"high": [earlier if c == "As" else c for c in seat.high]}
            swap["low"] = [earlier if c == "As" else c for c in seat.low]
            seats = [x.model_copy(update=swap) if x.seat == 1 else x for x in s.seats]
            t.states[i] = s.model_copy(update={"seats": seats})
        dup = [f for f in Run(t).of(CHECK) if "As seen" in f.observed]
        assert [f.status for f in dup] == [status], earlier
        if status == "review":
            assert f"was accepted there as {earlier} earlier this round" in dup[0].observed


def _seat_aces_read(felt: str, display: str) -> list:
    """b90-0006 (seed 90, 720p): seat 1's As and Ac, drawn on the i-Verify display as ``display``
    (the house way: high, low), read ``felt`` on the felt once its hand is turned up."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3").deal("dealer", "Kd 9c 7c 5h 3s 2c 4h").deal("seat1", "As Ac Qh Jc 8d 6c 4s")
    t.set(2).set(3)
    high, low = display.split("|")
    t.iverify_seat(1, high, low).set(1, "Qh Jc").iverify_blank()
    t.expose_dealer().dealer_set().turn(1)
    for i, s in enumerate(t.states):
        seat = s.seat(1)
        if "As" in seat.high:
            swap = {"high": felt.split()}
            seats = [x.model_copy(update=swap) if x.seat == 1 else x for x in s.seats]
            t.states[i] = s.model_copy(update={"seats": seats})
    t.hold(1).turn(2).turn(3).collect_all().hold(1)
    return Run(t).of(CHECK)


def test_a_duplicate_where_the_display_drew_another_face_of_its_rank_is_for_review() -> None:
    """The display's picture of the hand and the felt's part on one card: one is a misread (or a card
    switched after the display, which the reviewer sees); the round is not void on it."""
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac As 8d 6c 4s|Qh Jc")
    assert dup.status == "review" and dup.observed.startswith("Ac seen 2 times: at seat1, seat1")
    shown = "the i-Verify display showed seat1's hand this round as the felt shows it but with As for"
    assert shown in dup.observed
    # b90-0006: the display misread another card of the hand too (its Qh drawn Qd)
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac As 8d 6c 4s|Qd Jc")
    assert dup.status == "review" and "but with As for one Ac" in dup.observed
    # the other card (4s) drawn 4c: the two pair either way round, so either may stand for the Ac
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac As 8d 6c 4c|Qh Jc")
    assert dup.status == "review" and "but with As or 4c for one Ac" in dup.observed


def test_a_duplicate_the_display_drew_too_or_a_display_unlike_the_felt_leaves_the_alert() -> None:
    # the display drew the duplicate as the felt shows it (a copy dealt with the hand)
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac Ac 8d 6c 4s|Qh Jc")
    assert dup.status == "alert"
    # the display's hand differs from the felt's by a card no misread explains, or by three cards
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac As 8d 6c 9h|Qh Jc")
    assert dup.status == "alert"
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac As 8d 6c 4d|Qd Jc")
    assert dup.status == "alert"
    # the face drawn in the duplicate's place shares neither its rank nor its suit
    [dup] = _seat_aces_read("Ac Ac 8d 6c 4s", "Ac 9h 8d 6c 4s|Qh Jc")
    assert dup.status == "alert"


def _twin_unread(face: str, seconds: float) -> Run:
    """b86-0013: seat 1's hand turned up with one face found and not named, read likeliest as ``face``
    (``TableState.unread_twins``) for ``seconds`` from the turn-up."""
    t = Table(seats=[1, 2, 3]).hold(1).chips(1, 3).lcd(2)
    t.deal("seat2").deal("seat3", "Th Kh 9h 7d 5c 3c 2h").deal("dealer", "6c Kd 9c 7c 5h 3s 2c")
    t.deal("seat1", "Js Qh Jc 8d Ah 4s 2d")
    t.set(1).set(3).expose_dealer().dealer_set().turn(1, hold=2.0).turn(3).collect_all().hold(1)
    up = [i for i, st in enumerate(t.states) if "Js" in st.seat(1).high]
    for i in up:
        st = t.states[i]
        if st.t - t.states[up[0]].t < seconds:
            extra = {"unread_faces": {"seat1.high": 1}, "unread_twins": {"seat1.high": {face: 0.28}}}
            t.states[i] = st.model_copy(update=extra)
    return Run(t)


def test_a_face_not_named_read_as_one_its_own_hand_shows_is_a_possible_copy_for_review() -> None:
    """b86-0013 / b94-0003 (seeds 86, 94, 720p): a player's copy of his own card, read weakly as that
    card and left unnamed by the count, was missed outright. Held 1 s (UNREAD_HOLD_S): a review item
    on the state that began it, the round not void; a glimpse, or a face the hand does not show, none."""
    run = _twin_unread("Js", 1.5)
    [f] = run.of(CHECK)
    first = next(e for e in run.events if e.kind.value == "player_exposed" and e.seat == 1)
    assert f.status == "review" and f.seat == 1 and f.confidence == 0.28 and f.t == first.t
    assert f.observed.startswith(
        "Js at seat1, and a card beside it there the camera found and could not name"
    )
    assert "a second Js in the same hand reads so" in f.observed
    assert run.rounds[0].findings and not any("round void" in g.observed for g in run.findings)
    assert _twin_unread("Js", 0.5).of(CHECK) == []
    assert _twin_unread("Ks", 1.5).of(CHECK) == []
