"""The table renderer: layout, ground truth against pixels, card sets, injected violations, determinism."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from compliance.events import CheckId, EventKind
from render.artwork import load_deck
from render.clip import plan_clip, render_frames
from render.samples import scenario_dir
from render.scenario import RoundSpec, Scenario, ScenarioError, Violation, load_scenario, random_scenario
from render.table import build_layout
from rules.cards import DECK, parse_card
from vision.layout import Point, load_layout

SCENARIOS = sorted(scenario_dir().glob("*.yaml"))
DATA = Path(__file__).parent.parent / "render" / "data"


def _small(game: str = "seven-card", **kw: object) -> Scenario:
    spec = RoundSpec.model_validate({"lcd": 2, "active_seats": [2, 3, 5], **kw})
    return Scenario.model_validate({"name": "t", "game": game, "deck": "bellot", "rounds": [spec]})


@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_committed_layouts_match_the_renderer(game: str) -> None:
    built = build_layout(game)  # type: ignore[arg-type]
    assert load_layout(DATA / f"{built.table_id}.layout.yaml") == built


def test_positions_run_counter_clockwise_seen_from_above() -> None:
    """Seed 000 rules 3-4: the deal goes counter-clockwise; positions[] is that order (dealer last)."""
    layout = build_layout("seven-card")
    centre = layout.to_image(layout.dealer.hand).mean(axis=0)
    angles = []
    for pos in layout.positions[:-1]:
        pts = layout.to_image(layout.seat(int(pos[4:])).bet).mean(axis=0)
        # The image is the view from above; with its y axis flipped up, counter-clockwise is an
        # increasing angle.
        angles.append(math.degrees(math.atan2(-(pts[1] - centre[1]), pts[0] - centre[0])) % 360)
    assert all(b > a for a, b in itertools.pairwise(angles)), angles
    assert layout.deal_order(7)[0] == "dealer" and layout.deal_order(1)[:2] == ["seat1", "seat2"]
    # Seat 1 is on the camera's left (the dealer's right), seat 6 on the camera's right.
    x1 = layout.to_image(layout.seat(1).bet).mean(axis=0)[0]
    x6 = layout.to_image(layout.seat(6).bet).mean(axis=0)[0]
    assert x1 < x6


def _rectify(img: np.ndarray, quad: np.ndarray, w: int = 48, h: int = 67) -> np.ndarray:
    m = cv2.getPerspectiveTransform(
        quad.astype(np.float32), np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    )
    return cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA).astype(np.float32)


def test_face_up_quads_lie_on_their_artwork() -> None:
    """Inside a face-up card's quad the pixels match that card's artwork, far better than felt or a back."""
    sc = _small()
    _, director = plan_clip(sc, 5)
    frame = next(e.frame for e in director.rounds[0].events if e.kind == EventKind.DEALER_SET) + 5
    deck = load_deck("bellot", 100)
    _, img, boxes, state = next(render_frames(sc, 5, frames=[frame]))
    face_up = [b for b in boxes if b.card != "BACK" and b.zone.startswith("dealer") and b.visible > 0.2]
    assert len(face_up) == 7
    for b in face_up:
        quad = np.array(b.quad)
        got = _rectify(img, quad)
        art = deck.image(b.card)
        ref = cv2.resize(art[:, :, :3], (48, 67), interpolation=cv2.INTER_AREA).astype(np.float32)
        back = cv2.resize(deck.back[:, :, :3], (48, 67), interpolation=cv2.INTER_AREA).astype(np.float32)
        felt = _rectify(img, quad + np.array([0, 330]))  # the same shape on bare felt below the dealer's area
        # Compare the uncovered left strip (a fan's later cards lie over the right part).
        strip = slice(0, 10)
        err = float(np.abs(got[:, strip] - ref[:, strip]).mean())
        assert err < 0.5 * float(np.abs(felt[:, strip] - ref[:, strip]).mean()), b.card
        assert err < 0.6 * float(np.abs(got[:, strip] - back[:, strip]).mean()), b.card
    assert sorted(state.dealer.high + state.dealer.low) == sorted(b.card for b in face_up)


def test_a_paint_that_names_no_colour_is_drawn_as_none() -> None:
    """simplistic's 3 of spades: its index glyph, a stroke-only path, says fill="#none", no colour; the
    SVG spec ignores it (the glyph is not filled, as rsvg-convert draws it), and cairosvg had filled it
    into a bold blob (the classifier's "simplistic's 3 read 5"). Drawn so, the 3s's rank glyph is the
    3c's (one path, one ink) far more than the 5s's."""
    from render.artwork import _valid_paint

    assert _valid_paint(b'<path fill="#none" stroke="#none"/><path fill="#333333"/>') == (
        b'<path fill="none" stroke="none"/><path fill="#333333"/>'
    )
    deck = load_deck("simplistic", 100)
    s3, c3, s5 = (deck.image(c)[:, :, :3].astype(np.float32) for c in ("3s", "3c", "5s"))
    h, w = s3.shape[:2]
    rank = (slice(0, int(h * 0.12)), slice(0, int(w * 0.16)))
    assert float(np.abs(s3[rank] - c3[rank]).mean()) < 0.75 * float(np.abs(s3[rank] - s5[rank]).mean())


def test_boxes_account_for_every_card_and_the_arm_occludes() -> None:
    sc = _small()
    _, director = plan_clip(sc, 1)
    seen_occluded = False
    for k, _img, boxes, state in render_frames(sc, 1, frames=list(range(60, 400, 9)), effects=False):
        scene = director.frames[k]
        table_boxes = [b for b in boxes if b.zone != "iverify"]
        assert len(table_boxes) == len(scene.cards), k
        resting = sum(len(s.dealt) + len(s.high) + len(s.low) for s in state.seats)
        resting += len(state.dealer.hand) + len(state.dealer.high) + len(state.dealer.low)
        assert resting == sum(1 for b in table_boxes if b.zone != "moving"), k
        for b in table_boxes:
            x1, y1, x2, y2 = b.xyxy
            assert 0 <= x1 <= x2 <= 1280 and 0 <= y1 <= y2 <= 720
            assert 0.0 <= b.visible <= 1.0
        if scene.arm is not None and state.occluded:
            seen_occluded = True
    assert seen_occluded


def _round_cards(sc: Scenario, seed: int) -> list[Counter[str]]:
    _, director = plan_clip(sc, seed)
    return [Counter(c for h in r.hands for c in h.cards) for r in director.rounds]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_every_card_is_one_of_53_and_unique(game: str, seed: int) -> None:
    sc = random_scenario(game, seed, rounds=2, violation_rate=0.0)  # type: ignore[arg-type]
    deck = {str(c) for c in DECK}
    n = 7 if game == "seven-card" else 6
    for counts in _round_cards(sc, seed):
        assert set(counts) <= deck
        assert max(counts.values()) == 1
        assert sum(counts.values()) == 7 * n  # six spots and the dealer, one hand each


def test_foreign_card_is_the_only_duplicate() -> None:
    sc = _small(violations=[Violation(check=CheckId.FOREIGN_CARD, seat=3)])
    (counts,) = _round_cards(sc, 4)
    dups = [c for c, k in counts.items() if k > 1]
    assert len(dups) == 1 and counts[dups[0]] == 2
    parse_card(dups[0])


@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_a_same_hand_foreign_card_copies_one_of_the_seats_own_cards(game: str) -> None:
    """The hold-out a player makes for himself: a second copy of one of his own cards in his hand (the
    only duplicate of the round, in no other position's hand), named so in the truth."""
    v = Violation(check=CheckId.FOREIGN_CARD, seat=3, variant="same-hand")
    for seed in range(3):
        sc = _small(game, violations=[v])
        _, director = plan_clip(sc, seed)
        (rec,) = director.rounds
        hands = {h.position: list(h.cards) for h in rec.hands}
        counts = Counter(c for cards in hands.values() for c in cards)
        dups = [c for c, k in counts.items() if k > 1]
        assert len(dups) == 1 and counts[dups[0]] == 2
        assert hands["seat3"].count(dups[0]) == 2
        (f,) = rec.findings
        assert f.check_id == CheckId.FOREIGN_CARD and f.seat == 3
        assert f"{dups[0]} twice: seat 3's own hand" == f.observed


def test_a_variant_must_fit_its_check() -> None:
    with pytest.raises(ValueError, match="'same-hand' does not apply to DEAL-ORDER"):
        Violation(check=CheckId.DEAL_ORDER, variant="same-hand")
    with pytest.raises(ValueError, match=r"does not apply to HOUSE-WAY \(it has none\)"):
        Violation(check=CheckId.HOUSE_WAY, variant="clockwise")
    drawn = {
        v.variant
        for seed in range(60)
        for r in random_scenario("seven-card", seed, rounds=2, violation_rate=1.0).rounds
        for v in r.violations
        if v.check is CheckId.FOREIGN_CARD
    }
    assert drawn == {"same-hand", "other-hand"}


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if "violations" in p.read_text()], ids=lambda p: p.stem
)
def test_injected_violation_is_in_the_ground_truth(path: Path) -> None:
    sc = load_scenario(path)
    _, director = plan_clip(sc, 7)
    for spec, rec in zip(sc.rounds, director.rounds, strict=True):
        assert {v.check for v in spec.violations} == {f.check_id for f in rec.findings}
        for v in spec.violations:
            f = next(f for f in rec.findings if f.check_id == v.check)
            if v.seat is not None:
                assert f.seat == v.seat
            assert rec.t_start <= f.t <= (rec.t_end or 1e9)
            assert f.frame == round(f.t * 25)


def test_compliant_scenarios_carry_no_findings_and_follow_the_procedure() -> None:
    sc = load_scenario(scenario_dir() / "s01-seven-compliant.yaml")
    _, director = plan_clip(sc, 7)
    (rec,) = director.rounds
    assert rec.findings == []
    layout = build_layout("seven-card")
    assert rec.deal_order == layout.deal_order(rec.lcd or 0)
    kinds = [e.kind for e in rec.events]
    set_times = [e.t for e in rec.events if e.kind == EventKind.SEAT_SET]
    iv_dealer = next(e.t for e in rec.events if e.kind == EventKind.IVERIFY_DEALER)
    exposed = next(e.t for e in rec.events if e.kind == EventKind.DEALER_EXPOSED)
    assert max(set_times) < iv_dealer < exposed
    assert kinds[0] == EventKind.ROUND_START and kinds[-1] == EventKind.ROUND_END
    # The foul of seat 2 was re-set by the dealer by the house way (seed 002 rule 3.7.2).
    seat2 = next(h for h in rec.hands if h.position == "seat2")
    assert seat2.set_by == "dealer"
    iv_seat = next(h for h in rec.hands if h.position == "seat5")
    assert iv_seat.set_by == "iverify"


def test_iverify_display_shows_the_house_way_it_reports() -> None:
    sc = _small(iverify_seats=[3])
    _, director = plan_clip(sc, 2)
    ev = next(e for e in director.rounds[0].events if e.kind == EventKind.IVERIFY_SEAT)
    _, _, boxes, state = next(render_frames(sc, 2, frames=[ev.frame + 5]))
    shown = [b.card for b in boxes if b.zone == "iverify"]
    assert sorted(shown) == sorted(ev.high + ev.low)
    assert state.iverify.mode == "seat" and state.iverify.seat == 3


def _hash_frames(sc: Scenario, seed: int, frames: list[int]) -> list[str]:
    return [
        hashlib.sha256(img.tobytes()).hexdigest() for _, img, _, _ in render_frames(sc, seed, frames=frames)
    ]


def test_same_seed_same_frames() -> None:
    sc = random_scenario("six-card", 11, rounds=1)
    frames = [0, 90, 200, 333]
    a = _hash_frames(sc, 3, frames)
    assert a == _hash_frames(sc, 3, frames)
    assert a != _hash_frames(sc, 4, frames)


def test_bad_scenario_file_names_file_and_field(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("name: x\ngame: seven-card\nrounds:\n  - lcd: 9\n")
    with pytest.raises(ScenarioError, match=r"bad\.yaml.*\n.*rounds\.0\.lcd"):
        load_scenario(p)


@pytest.mark.parametrize("seed", [0, 21, 33])
@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_random_scenarios_with_violations_play_and_report_them(game: str, seed: int) -> None:
    sc = random_scenario(game, seed, rounds=2, violation_rate=1.0, face_up_dealing=seed == 0)  # type: ignore[arg-type]
    _, director = plan_clip(sc, seed)
    for spec, rec in zip(sc.rounds, director.rounds, strict=True):
        injected = {v.check for v in spec.violations}
        found = {f.check_id for f in rec.findings}
        assert injected <= found
        # Anything beyond the injection is an ordering breach its staging really showed.
        for check in found - injected:
            assert check is CheckId.IVERIFY_SEAT_EARLY
            assert injected & {CheckId.IVERIFY_DEALER_EARLY, CheckId.DEALER_REVEAL_EARLY}
        assert rec.t_end is not None and rec.t_start < rec.t_end


def test_random_card_count_round_leaves_a_seat_to_deal_the_extra_card_to() -> None:
    """Seed 179675048 draws two active seats, one set by i-Verify and the other fouling, then
    CARD-COUNT: no seat set its own legal hand to take the extra card, and the director refused the
    round (export-table-training crashed on it). The foul is dropped instead; the round plays."""
    sc = random_scenario("six-card", 179675048, rounds=1)
    spec = sc.rounds[0]
    assert [v.check for v in spec.violations] == [CheckId.CARD_COUNT]
    assert [s for s in spec.active_seats if s not in spec.iverify_seats and s not in spec.fouls]
    _, director = plan_clip(sc, 5)
    assert CheckId.CARD_COUNT in {f.check_id for f in director.rounds[0].findings}
    # every random round with CARD-COUNT has such a seat
    for seed in range(3000):
        for r in random_scenario("seven-card", seed, rounds=2, violation_rate=1.0).rounds:
            if any(v.check is CheckId.CARD_COUNT for v in r.violations):
                assert any(s not in r.iverify_seats and s not in r.fouls for s in r.active_seats), seed


def test_towel_over_iverify_hides_its_cards_in_boxes_and_state() -> None:
    """IVERIFY-NOT-VISIBLE: the display's card images are boxed but not visible; the state says so."""
    sc = _small(iverify_seats=[3], violations=[Violation(check=CheckId.IVERIFY_NOT_VISIBLE)])
    _, director = plan_clip(sc, 6)
    ev = next(e for e in director.rounds[0].events if e.kind == EventKind.IVERIFY_SEAT)
    _, _, boxes, state = next(render_frames(sc, 6, frames=[ev.frame + 5]))
    shown = [b for b in boxes if b.zone == "iverify"]
    assert sorted(b.card for b in shown) == sorted(ev.high + ev.low)
    assert max(b.visible for b in shown) < 0.5
    assert not state.iverify.visible and state.iverify.mode == "seat" and "iverify" in state.occluded


def test_a_player_sets_with_his_own_arm_over_his_seat() -> None:
    sc = _small()
    _, director = plan_clip(sc, 8)
    ev = next(e for e in director.rounds[0].events if e.kind == EventKind.SEAT_SET)
    k = ev.frame - 5
    arm = director.frames[k].arm
    assert arm is not None and arm.who == ev.position
    _, _, boxes, state = next(render_frames(sc, 8, frames=[k]))
    assert any(z.startswith(f"{ev.position}.") for z in state.occluded)
    assert any(b.zone == "moving" and b.visible < 1.0 for b in boxes)


@pytest.mark.parametrize(
    ("game", "violations"),
    [("seven-card", []), ("six-card", [Violation(check=CheckId.FOUL_MISHANDLED, seat=3)])],
)
def test_a_foul_lies_face_up_in_plain_view_for_1s_before_the_dealer_re_sets_it(
    tmp_path: Path, game: str, violations: list[Violation]
) -> None:
    """7-card re-set (seed 002 3.7.2) or a mishandled 6-card re-set: the camera must see the foul."""
    from render.batch import write_truth
    from vision.state import BACK, TableState

    sc = _small(game, fouls=[3], violations=violations)
    truth = write_truth(sc, 5, tmp_path)
    events = truth.rounds[0].events
    shown = next(e for e in events if e.kind == EventKind.PLAYER_EXPOSED and e.seat == 3)
    reset = next(e for e in events if e.kind == EventKind.HAND_CHANGED and e.seat == 3)
    states = [
        TableState.model_validate_json(line)
        for line in (tmp_path / "t.states.jsonl").read_text().splitlines()
    ]
    longest, since = 0.0, None
    for st in states:
        if not shown.t <= st.t <= reset.t:
            continue
        seat = next(x for x in st.seats if x.seat == 3)
        clear = not {"seat3.high", "seat3.low"} & set(st.occluded)
        plain = clear and len(seat.high) == 5 and seat.low and BACK not in seat.high + seat.low
        if plain and since is None:
            since = st.t
        elif not plain and since is not None:
            longest, since = max(longest, st.t - since), None
    if since is not None:
        longest = max(longest, reset.t - since)
    assert longest >= 1.0, f"foul in plain view for {longest:.2f} s only"


@pytest.mark.parametrize("check", [CheckId.IVERIFY_DEALER_EARLY, CheckId.DEALER_REVEAL_EARLY])
def test_an_iverify_seat_shown_before_a_held_back_seat_sets_is_in_the_truth(check: CheckId) -> None:
    """Seed 000 rule 5.a.i: the truth says what the staging showed, not only what was injected."""
    sc = _small(iverify_seats=[5], violations=[Violation(check=check)])
    _, director = plan_clip(sc, 4)
    (rec,) = director.rounds
    iv = next(e for e in rec.events if e.kind == EventKind.IVERIFY_SEAT)
    late = [e.seat for e in rec.events if e.kind == EventKind.SEAT_SET and e.t > iv.t and e.seat != 5]
    assert late  # the held-back seat set after the i-Verify seat was shown
    [f] = [f for f in rec.findings if f.check_id is CheckId.IVERIFY_SEAT_EARLY]
    assert f.seat == 5 and f.frame == iv.frame and str(late) in f.observed
    assert check in {f.check_id for f in rec.findings}


def test_no_ordering_finding_when_the_iverify_seat_comes_last() -> None:
    sc = _small(iverify_seats=[5], violations=[Violation(check=CheckId.HOUSE_WAY)])
    _, director = plan_clip(sc, 4)
    assert {f.check_id for f in director.rounds[0].findings} == {CheckId.HOUSE_WAY}


def test_settlement_can_be_injected_but_not_in_a_void_round() -> None:
    """SETTLEMENT is injectable (and drawn by random_scenario); with FOREIGN-CARD the round is void
    (seed 002 rule 5.1.1) and nothing is settled, so the pair is refused, naming the field."""
    assert _small(violations=[Violation(check=CheckId.SETTLEMENT, seat=3)]).rounds[0].violations
    with pytest.raises(ValueError, match="SETTLEMENT cannot be injected with FOREIGN-CARD"):
        _small(violations=[Violation(check=CheckId.SETTLEMENT), Violation(check=CheckId.FOREIGN_CARD)])
    drawn = {
        v.check
        for seed in range(40)
        for r in random_scenario("seven-card", seed, rounds=2, violation_rate=1.0).rounds
        for v in r.violations
    }
    assert CheckId.SETTLEMENT in drawn


@pytest.mark.parametrize("game", ["seven-card", "six-card"])
def test_every_wager_is_settled_as_the_rules_say(game: str) -> None:
    """Seed 000 rule 7 / seed 002 3.11-3.15: paid (payout placed), taken, or left (a push), per seat,
    from rules.settlement on the truth's hands (a 6-card foul as set: it loses, seed 000 rule 5)."""
    from rules.paytables import Game
    from rules.settlement import FoulPolicy, TableOptions, settle_main_wager
    from rules.sidebets import Outcome

    policy = FoulPolicy.HOUSE_WAY if game == "seven-card" else FoulPolicy.LOSE
    options = TableOptions(game=Game(game), foul_policy=policy)
    seen = set()
    for seed in range(4):
        sc = random_scenario(game, seed, rounds=2, violation_rate=0.0)  # type: ignore[arg-type]
        first = sc.rounds[0]  # a foul in every first round: its settlement follows the foul policy
        if not first.fouls:
            own = [s for s in first.active_seats or [] if s not in first.iverify_seats]
            sc.rounds[0] = first.model_copy(update={"fouls": own[:1]})
        _, director = plan_clip(sc, seed)
        for rec in director.rounds:
            dealer = next(h for h in rec.hands if h.position == "dealer")
            actions = {
                e.seat: e.kind for e in rec.events if e.kind in (EventKind.SEAT_PAID, EventKind.WAGER_TAKEN)
            }
            for h in rec.hands:
                if not h.active or h.seat is None:
                    continue
                want = settle_main_wager(options, (dealer.high, dealer.low), (h.high, h.low)).outcome
                kind = actions.get(h.seat)
                got = (
                    Outcome.WIN
                    if kind is EventKind.SEAT_PAID
                    else Outcome.LOSE
                    if kind is EventKind.WAGER_TAKEN
                    else Outcome.PUSH
                )
                assert got is want, (seed, rec.round, h.position)
                seen.add(want)
            end = next(e for e in rec.events if e.kind == EventKind.ROUND_END)
            assert all(
                e.t < end.t
                for e in rec.events
                if e.seat in actions and e.kind in (EventKind.SEAT_PAID, EventKind.WAGER_TAKEN)
            )
    assert seen == {Outcome.WIN, Outcome.LOSE, Outcome.PUSH}


@pytest.mark.parametrize(("game", "seat"), [("seven-card", 3), ("six-card", 5)])
def test_an_injected_settlement_renders_the_wrong_action_at_the_finding_time(game: str, seat: int) -> None:
    """The truth's SETTLEMENT finding: the seat settled the wrong way, at the first frame the camera
    shows it (the dealer's hand off the spot); the chip reader sees that spot as the truth has it."""
    from rules.sidebets import Outcome
    from vision.chips import FeltModel, chips_present, inner_mask
    from vision.zones import build_regions

    sc = _small(game, violations=[Violation(check=CheckId.SETTLEMENT, seat=seat)])
    _, director = plan_clip(sc, 3)
    (rec,) = director.rounds
    [f] = rec.findings
    assert f.check_id is CheckId.SETTLEMENT and f.seat == seat
    outcome = Outcome(f.expected.split(":")[0])
    action = next(
        e for e in rec.events if e.seat == seat and e.kind in (EventKind.SEAT_PAID, EventKind.WAGER_TAKEN)
    )
    assert action.frame == f.frame
    assert (outcome, action.kind) not in {
        (Outcome.WIN, EventKind.SEAT_PAID),
        (Outcome.LOSE, EventKind.WAGER_TAKEN),
    }
    assert ("paid" if action.kind is EventKind.SEAT_PAID else "took") in f.observed
    spot = f"seat{seat}.{'payout' if action.kind is EventKind.SEAT_PAID else 'bet'}"
    layout = build_layout(game)  # type: ignore[arg-type]
    regions = {r.name: r for r in build_regions(layout) if r.kind == "bet"}
    frames = list(render_frames(sc, 3, frames=[f.frame - 25, f.frame]))
    (_, _, _, st0), (_, img, _, st1) = frames
    assert spot not in st1.occluded
    after = (st1.seat(seat).payout, st1.seat(seat).chips)
    assert after == ((True, True) if action.kind is EventKind.SEAT_PAID else (False, False))
    assert (st0.seat(seat).payout, st0.seat(seat).chips) == (False, True)
    felt = FeltModel.learn([r.rectify(img) for r in regions.values()])
    for name, r in regions.items():
        n = int(name[4 : name.index(".")])
        want = st1.seat(n).payout if name.endswith(".payout") else st1.seat(n).chips
        crop = r.rectify(img)
        assert (
            chips_present(crop, inner_mask(r.size, r.table_to_crop_pts(r.zones[0].table_poly)), felt) == want
        ), name


def test_a_foreign_card_given_to_a_fouling_seat_leaves_it_a_foul_to_set() -> None:
    """The foreign copy replaces a card of a seat that fouls only where a foul setting remains (this
    round of the seed-1 batch once replaced a card so that seat 6 had no foul setting left)."""
    from rules.settings import Setting, is_foul

    sc = random_scenario("six-card", 100039, rounds=2, violation_rate=0.5)
    spec = sc.rounds[1]
    assert spec.fouls == [6] and [v.check for v in spec.violations] == [CheckId.FOREIGN_CARD]
    # the batch's copy was the dealer's card (drawn "same-hand" since that variant exists)
    spec.violations = [Violation(check=CheckId.FOREIGN_CARD, variant="other-hand")]
    _, director = plan_clip(sc, 100039)
    rec = director.rounds[1]
    assert [(f.check_id, f.seat) for f in rec.findings] == [(CheckId.FOREIGN_CARD, 6)]
    shown = next(e for e in rec.events if e.kind == EventKind.PLAYER_EXPOSED and e.seat == 6)
    assert is_foul(Setting(high=tuple(map(parse_card, shown.high)), low=tuple(map(parse_card, shown.low))))


def test_layout_scales_with_the_camera_resolution() -> None:
    """The same view at 1920x1080: every reference point 1.5x further out, cards 1.5x larger."""
    small, big = build_layout("seven-card"), build_layout("seven-card", image_size=(1920, 1080))
    assert (big.image_width, big.image_height) == (1920, 1080)
    for a, b in zip(small.reference_points, big.reference_points, strict=True):
        assert b.image.x == pytest.approx(1.5 * a.image.x) and b.image.y == pytest.approx(1.5 * a.image.y)
        assert b.table == a.table
    pts = [Point(x=500.0, y=400.0), Point(x=563.5, y=400.0)]
    ws, wb = (float(np.ptp(lay.to_image(pts)[:, 0])) for lay in (small, big))
    assert wb == pytest.approx(1.5 * ws, rel=1e-6)


def test_a_batch_of_one_kind_injects_that_check_and_variant_in_every_round_drawn() -> None:
    """``random_scenario(inject=...)`` (``compliance_batch.py --inject FOREIGN-CARD:same-hand``): every
    round that draws a violation gets that one."""
    inject = Violation(check=CheckId.FOREIGN_CARD, variant="same-hand")
    for seed in range(6):
        sc = random_scenario("six-card", seed, rounds=3, violation_rate=1.0, inject=inject)
        assert [[(v.check, v.variant) for v in r.violations] for r in sc.rounds] == [
            [(CheckId.FOREIGN_CARD, "same-hand")]
        ] * 3
