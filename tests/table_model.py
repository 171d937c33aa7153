"""A reference model of the table services, written from docs/table.md's promises ("Table
services", "The keys", "What is saved"), and a driver that plays the same random sequence on
the device (the App on pure fakes, or the simulated board) and on the model, comparing them
after every step.

What the model promises, in its own words:
- TURN hands over to the next player still in, in the direction of play; a lap that comes
  back to the round's first player starts the next round (rounds "one lap"), or the round ends
  when everyone has passed ("all passed"). A new round: nobody is out, the first player moves
  one seat in the direction of play when it rotates, and that player starts.
- Pass: the active player is out for the rest of the round, and hands over. Skip: hands over
  past the next player still in, who loses this turn (across a round's end too); refused
  with nobody left to skip.
- Hold TURN takes back the last handover of the round (up to 6 of them): the player before
  plays again and that turn is no turn (turns, time, longest turn, bank as they were; a pass
  taken back brings the player back in); refused at the start of a round.
- Clocks: the turn clock runs from the handover; a bank loses the seconds of each turn and
  earns its bonus only when the turn ended within it; a taken-back turn (undo or hold TURN)
  goes on with the seconds it had; a redone one keeps them; the round timer runs from the
  round's start; Pause stops them all. A power cut brings them back within 15 s.
- Undo takes back the last action (up to 48), redo brings it back; both cleared as usual.
- Per mode: Diced Tomatoes has no Pass or Skip; Horticolor runs the rounds (no Pass, Skip,
  Round ±, takeback or order settings; its first TURN ends the draft); the HORTIS live count's
  rounds are the cards 2..9 (one lap each), then the count is over; a HORTIS quick count has
  no rounds and no handover when solo; Arboretum scores the end of the game: nobody takes a
  turn (no handover, Pass, Skip, Round ±, takeback, turn order nor timers; no Pause).
"""

MAX_TAKEBACK = 6
UNDO_LIMIT = 48
ITEMS = ("pass", "skip", "pause", "undo", "redo", "round+", "round-")
SETTINGS = {  # setting number: (field, choices)
    0: ("dir", (-1, 1)),
    1: ("rot", (0, 1)),
    2: ("lap", (0, 1)),
    3: ("tt", (0, 30, 60)),
    4: ("tb", (0, 60, 300)),
    5: ("inc", (0, 5, 10)),
    6: ("rt", (0, 120, 600)),
}
MODES = ("free", "diced_tomatoes", "horticolor", "hortis_live", "hortis_quick", "arboretum")
PLAYERS = {
    "free": (1, 6),
    "diced_tomatoes": (1, 6),
    "horticolor": (2, 4),
    "hortis_live": (1, 6),
    "hortis_quick": (1, 6),
    "arboretum": (2, 4),
}


class Table:
    """The table's state as docs/table.md describes it (no clock: see Model)."""

    def __init__(self, mode, n, first):
        self.mode = mode
        self.n = n
        self.act = self.first = first
        self.rnd = 2 if mode == "hortis_live" else 1
        self.out = set()
        self.dir, self.rot, self.lap = 1, 0, 0 if mode == "horticolor" else 1
        self.tt = self.tb = self.inc = self.rt = 0
        self.bk = [0] * n
        self.used = [0] * n
        self.turns = [0] * n
        self.long = [0] * n
        self.takeback = []  # (player, used, long, bank, passed) before each handover
        self.draft = mode == "horticolor"
        self.over = False  # the HORTIS live count after card 9

    def copy(self):
        other = Table.__new__(Table)
        other.__dict__ = {k: (list(v) if type(v) is list else v) for k, v in self.__dict__.items()}
        other.out = set(self.out)
        return other

    def fields(self):
        return {
            "act": self.act,
            "first": self.first,
            "rnd": self.rnd,
            "out": sum(1 << p for p in self.out),
            "dir": self.dir,
            "rot": self.rot,
            "lap": self.lap,
            "tt": self.tt,
            "tb": self.tb,
            "inc": self.inc,
            "rt": self.rt,
            "bk": self.bk,
            "used": self.used,
            "turns": self.turns,
            "long": self.long,
        }

    # -- the rules of docs/table.md
    def new_round(self):
        self.rnd += 1
        self.out = set()
        self.takeback = []
        if self.rot:
            self.first = (self.first + self.dir) % self.n
        self.act = self.first

    def end_turn(self, seconds, passed):
        p = self.act
        self.takeback.append((p, self.used[p], self.long[p], self.bk[p], passed))
        del self.takeback[:-MAX_TAKEBACK]
        self.used[p] += seconds
        self.turns[p] += 1
        self.long[p] = max(self.long[p], seconds)
        if self.tb:
            left = self.bk[p] - seconds
            self.bk[p] = left + self.inc if left > 0 else left

    def hand_over(self, hops):
        player = self.act
        while True:
            player = (player + self.dir) % self.n
            if self.lap and player == self.first:
                self.new_round()
                player = self.first
            if player not in self.out:
                hops -= 1
                if not hops:
                    break
        self.act = player

    def allowed(self, item):
        """Whether the game menu lists `item` in this mode now."""
        if self.mode == "arboretum":
            return item in ("undo", "redo")  # no turns
        if item in ("pass", "skip") and self.mode != "free":
            return False
        if self.mode == "hortis_quick" and item in ("round+", "round-"):
            return False
        if self.mode == "horticolor" and item in ("round+", "round-"):
            return False
        return not (item == "skip" and self.n - len(self.out) < 2)

    def apply(self, op, seconds=0, value=None):
        """One table action; True if done, False if refused (nothing changes)."""
        if self.over or self.mode == "arboretum":
            return False  # (Arboretum: only the seats, which the sequences do not move)
        if op == "turn" and self.draft:
            self.draft = False  # Horticolor: the draft is over, the mixes begin
            return True
        if op in ("turn", "pass", "skip"):
            if self.mode == "hortis_quick" and self.n == 1:
                return False
            if op == "skip" and self.n - len(self.out) < 2:
                return False
            if op != "turn" and self.mode in ("diced_tomatoes", "horticolor", "hortis_live"):
                return False
            self.end_turn(seconds, op == "pass")
            if op == "pass":
                self.out.add(self.act)
                if len(self.out) == self.n:
                    self.new_round()
                    return True
            self.hand_over(2 if op == "skip" else 1)
            if self.mode == "hortis_live" and self.rnd > 9:
                self.rnd = 9
                self.over = True
            return True
        if op == "back":
            if self.mode == "horticolor" or not self.takeback:
                return False
            p, self.used[p], self.long[p], self.bk[p], passed = self.takeback.pop()
            self.turns[p] -= 1
            if passed:
                self.out.discard(p)  # their pass taken back: in again
            self.act = p
            return True
        if op in ("round+", "round-"):
            rnd = self.rnd + (1 if op == "round+" else -1)
            low, high = (2, 9) if self.mode == "hortis_live" else (1, 999)
            if self.mode in ("horticolor", "hortis_quick") or not low <= rnd <= high:
                return False
            self.rnd = rnd
            return True
        if op == "set":
            setting, number = value
            field = SETTINGS[setting][0]
            if self.mode == "horticolor" and (setting in (1, 2) or (setting == 0 and number != 1)):
                return False
            if self.mode == "hortis_live" and setting == 2 and number == 0:
                return False
            setattr(self, field, number)
            if field == "tb":
                self.bk = [number] * self.n
                self.takeback = [(p, u, lg, number, ps) for p, u, lg, _, ps in self.takeback]
            return True
        raise ValueError(op)


class Model:
    """The table plus its clocks (absolute ms), its undo history and its pause."""

    def __init__(self, mode, n, first, now):
        self.table = Table(mode, n, first)
        # (action, table before) of every action of the current line, oldest first; undo
        # reaches the last `depth` of them (at most UNDO_LIMIT). The older ones stay known:
        # after a power cut the saves bring back an undo log of up to UNDO_LIMIT actions,
        # which may reach further back than undo did before the cut.
        self.history = []
        self.depth = 0
        self.redo = []  # actions
        self.paused = False
        self.paused_at = now
        self.turn_start = now
        self.round_start = now
        self.round_before = now  # undo of a new round resumes the round before (one level)

    def eff(self, now):
        return self.paused_at if self.paused else now

    def turn_seconds(self, now):
        return max(0, (self.eff(now) - self.turn_start) // 1000)

    def round_seconds(self, now):
        return max(0, (self.eff(now) - self.round_start) // 1000)

    def follow(self, before, now, fresh):
        """The clocks after the table went from `before` to now (an action, undo, redo)."""
        after = self.table
        now = self.eff(now)
        if sum(after.turns) != sum(before.turns) or (before.draft and not after.draft and fresh):
            start = self.turn_start + (sum(after.used) - sum(before.used)) * 1000
            if before.draft and not after.draft and fresh:
                start = now  # the first turn starts after the draft
            elif sum(after.turns) > sum(before.turns) and (fresh or now - start < 1000):
                start = now
            self.turn_start = start
        if after.rnd > before.rnd:
            self.round_before = self.round_start
            self.round_start = now
        elif after.rnd < before.rnd:
            self.round_start = self.round_before

    def act(self, op, now, value=None):
        seconds = self.turn_seconds(now)
        before = self.table.copy()
        if not self.table.apply(op, seconds, value):
            return False
        self.history.append(((op, seconds, value), before))
        self.depth = min(self.depth + 1, UNDO_LIMIT)
        self.redo = []
        self.follow(before, now, True)
        return True

    def undo(self, now):
        if not self.depth:
            return False
        action, before = self.history.pop()
        self.depth -= 1
        now_table = self.table
        self.table = before
        self.redo.append(action)
        self.follow(now_table, now, False)
        return True

    def redo_(self, now):
        if not self.redo:
            return False
        op, seconds, value = self.redo.pop()
        before = self.table.copy()
        assert self.table.apply(op, seconds, value)
        self.history.append(((op, seconds, value), before))
        self.depth = min(self.depth + 1, UNDO_LIMIT)
        self.follow(before, now, False)
        return True

    def pause(self, now):
        if self.paused:
            gone = now - self.paused_at
            self.turn_start += gone
            self.round_start += gone
            self.round_before += gone
        else:
            self.paused_at = now
        self.paused = not self.paused


# ---------------------------------------------------------------- random sequences
def random_step(rng, model):
    """One step: TURN, hold TURN, a menu item, undo/redo keys, a setting, a wait, a power cut."""
    roll = rng.random()
    if roll < 0.30:
        return ("turn",)
    if roll < 0.40:
        return ("back",)
    if roll < 0.62:
        return ("menu", rng.choice(ITEMS))
    if roll < 0.70:
        return ("key_undo",) if rng.random() < 0.6 else ("key_redo",)
    if roll < 0.78:
        setting = rng.choice(sorted(SETTINGS))
        return ("set", setting, rng.choice(SETTINGS[setting][1]))
    if roll < 0.96:
        return ("wait", rng.choice((10, 250, 999, 1000, 3000, 12_000, 40_000)))
    return ("power", rng.choice((200, 5000)))


def new_game(rng):
    mode = rng.choice(MODES)
    low, high = PLAYERS[mode]
    n = rng.randint(low, high)
    return mode, n, rng.randrange(n)
