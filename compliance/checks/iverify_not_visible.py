"""IVERIFY-NOT-VISIBLE: the i-Verify display cannot be seen by the camera for too long in a round.

Seed 000 rule 5.a.iii and WAC 230-15-280: the display must be viewable by surveillance. A state
hides the display when ``iverify.visible`` is False or ``"iverify"`` is in ``occluded`` (an arm
passing over it). Trigger: while a round is open, the display stays hidden for longer than
``MonitorConfig.iverify_hidden_s`` seconds of footage, measured from the first hidden state (or the
round's start) to the latest state that still shows it hidden, or to the first state that shows
it again (states may come only at changes). The finding carries the first hidden state's time and
frame (the evidence that it was hidden) and is made once per hidden spell, as soon as the spell
passes the threshold. A spell still open when the footage ends is judged on the footage seen.
"""

from __future__ import annotations

from compliance.checks._base import Check, CheckContext
from compliance.events import CheckId, Finding
from compliance.rounds import RoundState
from vision.state import TableState

__all__ = ["IVerifyNotVisible"]


def _hidden(state: TableState) -> bool:
    return not state.iverify.visible or any(z.strip().lower() == "iverify" for z in state.occluded)


class IVerifyNotVisible(Check):
    check_id = CheckId.IVERIFY_NOT_VISIBLE

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._since: tuple[float, int] | None = None  # first hidden (t, frame) of the open spell
        self._round: int | None = None
        self._reported = False

    def on_state(self, state: TableState, rnd: RoundState | None) -> list[Finding]:
        out: list[Finding] = []
        if rnd is None:
            self._since, self._round = None, None
            return out
        if self._round != rnd.number:
            self._since, self._round, self._reported = None, rnd.number, False
        if self._since is not None and not self._reported:
            # The spell lasted at least until this state, whatever this state shows.
            out += self._judge(rnd, state.t)
        if _hidden(state):
            if self._since is None:
                start_t = max(state.t, rnd.t_start)
                self._since, self._reported = (start_t, state.frame), False
        else:
            self._since, self._reported = None, False
        return out

    def on_close(self, rnd: RoundState) -> list[Finding]:
        out: list[Finding] = []
        last = rnd.last_state
        if self._round == rnd.number and self._since is not None and not self._reported and last is not None:
            out += self._judge(rnd, last.t)
        self._since, self._round = None, None
        return out

    def _judge(self, rnd: RoundState, until: float) -> list[Finding]:
        assert self._since is not None
        t0, frame0 = self._since
        limit = self.ctx.config.iverify_hidden_s
        if until - t0 <= limit:
            return []
        self._reported = True
        return [
            self.finding(
                rnd,
                seat=None,
                t=t0,
                frame=frame0,
                expected=f"i-Verify display visible to the camera (hidden at most {limit:g} s)",
                observed=f"display hidden from t={t0:.2f}s (frame {frame0}) for at least {until - t0:.2f} s",
            )
        ]
