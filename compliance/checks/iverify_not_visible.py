"""IVERIFY-NOT-VISIBLE: the i-Verify display cannot be seen by the camera for too long in a round.

Seed 000 rule 5.a.iii and WAC 230-15-280: the display must be viewable by surveillance. A state
hides the display when ``iverify.visible`` is False, ``"iverify"`` is in ``occluded`` (an arm
passing over it), or the live camera feed is lost (``feed_lost``: while the source reconnects the
camera sees nothing, the display included, though the state still shows it as last seen). A hidden
spell starts at the first hidden state (or the round's start) and ends only when the display has
been seen again for ``MonitorConfig.debounce_s`` (a one-frame "visible" glitch does not cut a spell
in two). Trigger: a spell inside one round lasts longer than ``MonitorConfig.iverify_hidden_s``
seconds of footage, measured to the latest state that still belongs to it (states may come only at
changes: a state that shows the display again closes the spell at its own time; a live feed's
heartbeats repeat a lost feed's state, so a feed that stays down is judged while it is down). The
finding carries the spell's first hidden state (time and frame, the evidence), says when the feed
was lost if it was, and comes as soon as the spell passes the threshold. Once per round (the first
spell); a spell still open when the footage ends is judged on the footage seen.
"""

from __future__ import annotations

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Finding
from compliance.rounds import RoundState
from vision.state import TableState

__all__ = ["IVerifyNotVisible"]


def _hidden(state: TableState) -> bool:
    return (
        state.feed_lost
        or not state.iverify.visible
        or any(z.strip().lower() == "iverify" for z in state.occluded)
    )


class IVerifyNotVisible(Check):
    check_id = CheckId.IVERIFY_NOT_VISIBLE

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._since: tuple[float, int] | None = None  # first hidden (t, frame) of the open spell
        self._visible_since: float | None = None  # display seen again since (inside a spell)
        self._round: int | None = None
        self._feed_lost: float | None = None  # when the camera feed was first lost in the open spell

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        if rnd is None:
            self._since, self._visible_since, self._round, self._feed_lost = None, None, None, None
            return []
        if self._round != rnd.number:
            self._since, self._visible_since, self._round, self._feed_lost = None, None, rnd.number, None
        out: list[Finding] = []
        if self._since is not None:
            # The spell lasted at least until this state (or until the display came back).
            until = state.t if self._visible_since is None else self._visible_since
            out += self._judge(rnd, until)
        if _hidden(state):
            self._visible_since = None
            if self._since is None:
                self._since = (max(state.t, rnd.t_start), state.frame)
            if state.feed_lost and self._feed_lost is None:
                self._feed_lost = state.t
        elif self._since is not None:
            if self._visible_since is None:
                self._visible_since = state.t
            if state.t - self._visible_since >= self.ctx.config.debounce_s:
                self._since, self._visible_since, self._feed_lost = None, None, None
        return out

    def on_close(self, rnd: RoundState) -> list[Finding]:
        out: list[Finding] = []
        last = rnd.last_state
        if self._round == rnd.number and self._since is not None and last is not None:
            out += self._judge(rnd, last.t if self._visible_since is None else self._visible_since)
        self._since, self._visible_since, self._round, self._feed_lost = None, None, None, None
        return out

    def _judge(self, rnd: RoundState, until: float) -> list[Finding]:
        assert self._since is not None
        t0, frame0 = self._since
        limit = self.ctx.config.iverify_hidden_s
        if until - t0 <= limit or not self.once(rnd, "hidden"):
            return []
        return [
            self.finding(
                rnd,
                seat=None,
                t=t0,
                frame=frame0,
                expected=f"i-Verify display visible to the camera (hidden at most {limit:g} s)",
                observed=f"display hidden from t={t0:.2f}s (frame {frame0}) for at least {until - t0:.2f} s"
                + (
                    ""
                    if self._feed_lost is None
                    else f"; the camera feed was lost at t={self._feed_lost:.2f}s (no picture after it)"
                ),
            )
        ]
