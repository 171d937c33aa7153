# The table clock: how long the current turn and round have run, with pauses.
#
# Kept in RAM (ticks in ms, wrapping at 2**29): only the seconds a turn used reach the rule
# core, inside the action that ends the turn. The saver keeps a checkpoint of it (seconds of
# the turn and of the round, paused or not) in every save, and a running clock asks for a
# save every CHECKPOINT_MS, so after a power cut the clocks come back within that much.

from potager.core.compat import const
from potager.core.gestures import ticks_diff
from potager.core.table import MAX_SECONDS

CHECKPOINT_MS = const(15000)
_WRAP = const(1 << 29)  # ticks_ms wraps here (as in core.gestures)


class Clock:
    def __init__(self, now):
        self.turn_start = now
        self.round_start = now
        self.before = now  # the round before's start: undo of a new round
        self.paused = False
        self.paused_at = now
        self.turn_mark = -1  # total turns taken when the current turn began
        self.used = 0  # and the seconds played by then
        self.round_mark = -1

    def follow(self, state, now):
        # Follow the state to a new turn (round), or back to one taken back (undo, hold TURN):
        # a turn taken back goes on counting from where it started, a redone handover keeps the
        # time it used, a new one starts now (the paused moment while paused).
        now = self.paused_at if self.paused else now
        turns = sum(state["turns"])
        used = sum(state["used"])
        if turns != self.turn_mark:
            start = (self.turn_start + (used - self.used) * 1000) % _WRAP
            if self.turn_mark < 0 or (turns > self.turn_mark and ticks_diff(now, start) < 1000):
                start = now
            self.turn_start = start
            self.turn_mark = turns
            self.used = used
        if state["rnd"] != self.round_mark:
            if self.round_mark < 0:
                self.round_start = now
            elif state["rnd"] > self.round_mark:
                self.before = self.round_start
                self.round_start = now
            else:
                self.round_start = self.before
            self.round_mark = state["rnd"]

    def save(self, now):
        # What a save keeps: seconds of the turn and of the round, paused.
        return [self.turn_ms(now) // 1000, self.round_ms(now) // 1000, int(self.paused)]

    def load(self, value, state, now):
        # Back from a save's checkpoint [turn s, round s, paused], saved with this state.
        self.turn_start = (now - value[0] * 1000) % _WRAP
        self.round_start = (now - value[1] * 1000) % _WRAP
        self.paused = value[2] == 1
        self.paused_at = now
        self.turn_mark = sum(state["turns"])
        self.used = sum(state["used"])
        self.round_mark = state["rnd"]

    def _run(self, now, start):
        end = self.paused_at if self.paused else now
        return ticks_diff(end, start)

    def turn_ms(self, now):
        return self._run(now, self.turn_start)

    def round_ms(self, now):
        return self._run(now, self.round_start)

    def turn_seconds(self, now):
        # what an action may carry: a turn left running overnight still hands over
        return min(max(0, self.turn_ms(now) // 1000), MAX_SECONDS)

    def turn_left(self, now, state):
        # Seconds left of the turn countdown (negative: overtime).
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
            self.turn_start = (self.turn_start + gone) % _WRAP
            self.round_start = (self.round_start + gone) % _WRAP
            self.before = (self.before + gone) % _WRAP


PLENTY = 0
HALF_GONE = 1
LAST_FIFTH = 2
OVERTIME = 3


def warning_stage(left, total):
    # Warning stage of a countdown: seconds `left` of `total`.
    if left <= 0:
        return OVERTIME
    return PLENTY if left * 2 > total else HALF_GONE if left * 5 > total else LAST_FIFTH
