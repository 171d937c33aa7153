"""The table clock: how long the current turn and round have run, with pauses.

Kept in RAM (ticks in ms, wrapping at 2**29): only the seconds a turn used reach the rule
core, inside the action that ends the turn. After a power cut the turn clock starts again.
"""

from potager.core.gestures import ticks_diff


class Clock:
    def __init__(self, now):
        self.turn_start = now
        self.round_start = now
        self.paused = False
        self.paused_at = now
        self.turn_mark = -1  # total turns taken when the current turn began
        self.round_mark = -1

    def follow(self, state, now):
        """Restart the turn (round) clock when the state shows a new turn (round)."""
        turns = sum(state["turns"])
        if turns != self.turn_mark:
            self.turn_mark = turns
            self.turn_start = now
        if state["rnd"] != self.round_mark:
            self.round_mark = state["rnd"]
            self.round_start = now

    def _run(self, now, start):
        end = self.paused_at if self.paused else now
        return ticks_diff(end, start)

    def turn_ms(self, now):
        return self._run(now, self.turn_start)

    def round_ms(self, now):
        return self._run(now, self.round_start)

    def turn_seconds(self, now):
        return max(0, self.turn_ms(now) // 1000)

    def turn_left(self, now, state):
        """Seconds left of the turn countdown (negative: overtime)."""
        return state["tt"] - self.turn_ms(now) // 1000

    def bank_left(self, now, state):
        return state["bk"][state["act"]] - self.turn_ms(now) // 1000

    def round_left(self, now, state):
        return state["rt"] - self.round_ms(now) // 1000

    def pause(self, now):
        if not self.paused:
            self.paused = True
            self.paused_at = now

    def resume(self, now):
        if self.paused:
            self.paused = False
            gone = ticks_diff(now, self.paused_at)
            self.turn_start += gone
            self.round_start += gone


PLENTY = 0
HALF_GONE = 1
LAST_FIFTH = 2
OVERTIME = 3


def warning_stage(left, total):
    """Warning stage of a countdown: seconds `left` of `total`."""
    if left <= 0:
        return OVERTIME
    return PLENTY if left * 2 > total else HALF_GONE if left * 5 > total else LAST_FIFTH
