"""HOUSE-WAY: the dealer's setting (or a hand set for a player through i-Verify) is not the house way.

Seed 002 Appendix A (7-card, MBS) and seed 000 rule 6 (6-card): the dealer sets his hand by the
house way; a hand the dealer sets for a player through i-Verify is set by the house way too (seed
000 rule 5.a). The house way is a plug-in (``rules.houseway.load_house_way``). A setting equal in
rank to the house way's (``rules.settings.setting_key`` equal: e.g. which of two Aces goes low) is
compliant. Triggers:

* dealer: every DEALER_SET whose piles read as a full setting (5 and 2/1 faces) and whose key
  differs from the house way's setting of the same cards. One finding per round (the first wrong
  setting; a re-set does not clear it, it was shown). Seat None.
* player set through i-Verify (``set_by == "iverify"``): at its PLAYER_EXPOSED, the exposed setting
  against what the i-Verify display showed for that seat (the last display of that seat whose cards
  are the same cards); when the display's cards were never read, against the house way's setting of
  the exposed cards. One finding per seat per round. Not judged when that seat already has a
  HAND-TOUCHED-AFTER-REVEAL finding in the round (that check runs first): a hand the player picked
  up and re-set after the reveal no longer shows how the i-Verify set it, and the breach is the
  touch, already reported, not a second one.

Piles that do not read as a setting (backs, wrong counts, unknown tokens) are not judged here.

Camera reads: the judgement rests on every card of the setting being read right - one misread card
makes another hand, with another house way - so the finding is no surer than the least sure of
those reads: the event's ``read_confidence``, the lowest per-card read (``TableState.card_confidence``)
of the faces of its high and low hands. Where the i-Verify display showed the same cards (the
dealer's hand as "DEALER", a seat's as "SEAT n", read there as the same faces), the felt's read and
the display's agree, and combine (``compliance.rounds.agreeing_reads``): a misread would have to
happen in both pictures, and into the same cards. What is left is how the cards were split, which
rests on the area each pile lies in, not on a card's face.
"""

from __future__ import annotations

from compliance.checks._base import Check, house_way_setting, setting_of, show
from compliance.events import CheckId, Event, EventKind, Finding
from compliance.rounds import RoundState, agreeing_reads
from rules.settings import setting_key

__all__ = ["HouseWay"]


class HouseWay(Check):
    check_id = CheckId.HOUSE_WAY

    def on_event(self, event: Event, rnd: RoundState) -> list[Finding]:
        hw = self.ctx.house_way
        if hw is None:
            return []
        read = event.read_confidence
        if event.kind is EventKind.DEALER_SET:
            observed = setting_of(event.high, event.low)
            if observed is None:
                return []
            expected = house_way_setting(hw, observed)
            basis = "house way"
            seat = None
            key = "dealer"
            rests_on = rnd.dealer
            read = rnd.dealer.corroborated(read, [*event.high, *event.low])
            if expected is None:
                return []
        elif event.kind is EventKind.PLAYER_EXPOSED and event.position is not None:
            p = rnd.positions[event.position]
            if p.set_by != "iverify" or _touched_after_reveal(rnd, p.seat):
                return []
            observed = setting_of(event.high, event.low)
            if observed is None:
                return []
            expected = house_way_setting(hw, observed)
            basis = "house way"
            for shown in reversed(p.iverify_events):
                s = setting_of(shown.high, shown.low)
                if s is not None and s.cards == observed.cards:
                    expected, basis = s, f"i-Verify display (t={shown.t:.2f}s, frame {shown.frame})"
                    read = agreeing_reads(read, shown.read_confidence)  # the same cards, twice
                    break
            seat = p.seat
            key = p.name
            rests_on = p
            if expected is None:
                return []
        else:
            return []
        if setting_key(observed) == setting_key(expected) or not self.once(rnd, key):
            return []
        who = "dealer" if seat is None else f"seat {seat} (set through i-Verify)"
        return [
            self.finding(
                rnd,
                seat=seat,
                t=event.t,
                frame=event.frame,
                expected=f"{show(expected)} ({basis})",
                observed=f"{who} set {show(observed)}",
                read=read,
                rests_on=[rests_on],
            )
        ]


def _touched_after_reveal(rnd: RoundState, seat: int | None) -> bool:
    return any(f.check_id is CheckId.HAND_TOUCHED_AFTER_REVEAL and f.seat == seat for f in rnd.findings)
