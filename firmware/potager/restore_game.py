"""Boot: the journal's newest chain, checked before anything uses it, salvaged where it fails.

Every field is checked for its type and range (settings, language, history records, records),
the base snapshot by the table's shapes and the mode's invariant checks, and each action as
it is replayed: the reducer must accept it and the state must keep every invariant. The first
action that fails ends the game's replay there (the game resumes before it, and the player is
told how many actions were dropped); a field that fails is dropped alone. A record that does
not decode leaves the state of the records before it; the replay's work is bounded (a hang at
boot would be a watchdog boot loop). Imported only when there is a save, then forgotten.
"""

from potager import lang
from potager.core import persist, registry
from potager.core.engine import LOG_LIMIT, Engine, clone
from potager.power import DEFAULTS, RANGES
from potager.restore_check import check_table, fit, record, records, settings, state

PLENTY = 3000  # reductions at most at boot (a full sector holds ~800 actions)


class Replay:
    """The chain applied record by record into the fields the app takes at the end."""

    def __init__(self):
        self.names = registry.names()
        self.lang = "en"
        self.settings = dict(DEFAULTS)
        self.hist = []
        self.rec = clone({})
        self.clock = None  # the device's clock at the save (app.hx), or None
        self.checkpoint = None  # the table clocks at the save (core.clock), or None
        self.view = None  # the game screen's selection at the save (its selection()), or None
        self.mode = self.rules = self.base = self.state = clone(None)  # (typed loosely)
        self.log = []  # the undo log; its first action is number `start` of the chain
        self.start = 0
        self.used = 0  # reductions so far
        self.gone = 0  # actions dropped
        self.lines = []  # what could not be kept: texts save7 to save11 (ints: no interned names)
        self.dirty = False  # the app's state is not exactly what the journal says

    def say(self, key):
        self.dirty = True
        if key not in self.lines:
            self.lines.append(key)

    def meta(self, meta, new):
        """Take the fields of a snapshot's meta (new) or of a delta's patch."""
        if type(meta) is not dict:
            if new or meta is not None:
                self.say(2)
            return True
        if "lang" in meta:
            if meta["lang"] in lang.CODES:
                self.lang = meta["lang"]
            else:
                self.say(2)
        if "set" in meta or new:
            s = meta.get("set")
            if not settings(s):
                self.say(2)
            if type(s) is dict:  # the good ones stay
                for k in DEFAULTS:
                    v = s.get(k)
                    if type(v) is int and RANGES[k][0] <= v <= RANGES[k][1]:
                        self.settings[k] = v
        v = meta.get("hx")
        if v is not None:
            if type(v) is list and len(v) == 5 and type(v[0]) is str and fit(v[1:], 0, 1 << 30):
                self.clock = v
            else:
                self.say(2)
        if "rec" in meta or new:
            v = meta.get("rec")
            if not records(v):  # (what it could not keep dropped, the rest kept)
                self.say(3)
            if type(v) is dict:
                self.rec = v
        if new:
            self.hist = []
            self.games(meta.get("hist"))
        k = meta.get("gone", 0)  # games dropped, oldest first
        if type(k) is int and 0 <= k <= len(self.hist):
            self.hist = self.hist[k:]
        else:
            self.say(4)
        self.games(meta.get("games", []))
        ok = True
        if "mode" in meta or new:
            ok = self.new_game(meta.get("mode"), meta.get("base"))
            self.checkpoint = self.view = None  # a new game's clocks start again
        if "view" in meta:
            self.view = meta["view"]  # checked by the screen that takes it (its select())
        v = meta.get("clock")  # [turn s, round s, paused]
        if v is not None:
            if fit(v, 0, 1 << 30, 3):
                self.checkpoint = v
            else:
                self.say(2)
        return ok

    def games(self, rows):
        if type(rows) is not list:
            rows = []
            self.say(4)
        for r in rows:
            if record(r):
                self.hist.append(r)
            else:
                self.say(4)

    def new_game(self, mode, base):
        """A new game (or none); False when it cannot be trusted."""
        self.mode = self.rules = self.base = self.state = None
        self.log = []
        self.start = 0
        if mode is None:
            return True
        if mode in self.names and type(base) is dict and state(base) and check_table(base):
            try:
                rules = registry.rules(mode)
                rules.check(clone(base))
                self.mode, self.rules, self.base, self.state = mode, rules, base, clone(base)
                return True
            except Exception:
                pass
        self.say(5)
        return False

    def redo(self):
        """The state again from the base and the log (after undo, or a refused action)."""
        self.state = clone(self.base)
        for op, a, b in self.log:
            self.rules.reduce(self.state, (op & 127, a, b))
        self.used += len(self.log)

    def act(self, action):
        """Apply one action of the journal; False (state as before) if it breaks a rule. As in
        the engine: op + 128 (JOINED) is part of the step before it, the reducer never sees the
        flag, and a step goes into the base whole."""
        self.used += 1
        kept = False
        op, a, b = action
        if self.used <= PLENTY:
            try:
                kept = self.rules.reduce(self.state, (op & 127, a, b)) is None
                if kept:
                    self.rules.check(self.state)
            except Exception:
                kept = False
        if not kept:
            self.redo()
            return False
        self.log.append(action)
        while self.log and (len(self.log) > LOG_LIMIT or self.log[0][0] & 128):
            op, a, b = self.log.pop(0)
            self.rules.reduce(self.base, (op & 127, a, b))
            self.start += 1
        return True

    def apply(self, first, log):
        """Cut the log back to `first` actions of the chain (undo), then append `log`; False
        from the first bad action on (bounded: past PLENTY, what is left is dropped)."""
        end = self.start + len(self.log)
        if self.rules is None or self.used > PLENTY or not self.start <= first <= end:
            if log:
                self.gone += len(log)
                self.dirty = True
            return not log
        if first < end:
            del self.log[first - self.start :]
            self.redo()
        for i in range(len(log)):
            if not self.act(log[i]):
                self.gone += len(log) - i
                self.dirty = True
                return False
        return True

    def replay(self, store, i):
        """Apply the records from snapshot `i`; False if the snapshot itself is unreadable."""
        for k in range(i, len(store.records)):
            try:
                first, meta, log = persist.decode_payload(store.payload(k))
            except Exception:  # on the board struct raises RuntimeError; json ValueError
                if k == i:
                    return False
                self.say(6)  # the records before it stand
                return True
            if k == i:
                if type(meta) is not dict:
                    return False
                first = 0
            if not (self.meta(meta, k == i) and self.apply(first, log)):
                for i in range(k + 1, len(store.records)):  # the later ones are dropped too
                    try:  # noqa: SIM105 (no contextlib on the board)
                        self.gone += len(persist.decode_payload(store.payload(i))[2])
                    except Exception:
                        pass
                return True
        return True


def load(store):
    """The newest save of the loaded journal (status OK) that can be trusted, as plain data
    for the app to take once this module is gone: (status, (message key, count) or None,
    Replay). A snapshot that does not decode falls back to the one before."""
    order = [i for i in range(len(store.records)) if store.records[i][0] == 0]  # snapshots
    replay = None
    for i in reversed(order):
        replay = Replay()
        if replay.replay(store, i):
            break
        replay = None
    store.records = []  # RAM: the journal is read again only at the next boot
    if replay is None:
        return persist.CORRUPT, None, None
    # the fields, plain; dirty: a snapshot then replaces what was not kept
    dirty = replay.dirty or i != order[-1]
    data = (
        replay.lang,
        replay.settings,
        replay.hist,
        replay.rec,
        replay.mode,
        replay.rules,
        replay.base,
        replay.log,
        replay.start,
        dirty,
        replay.clock,
        replay.checkpoint,
        replay.view,
    )
    if replay.gone:
        return persist.OK, ("save6", replay.gone), data  # "# actions dropped"
    for k in (5, 4, 2, 3, 6):  # game, history, settings, records, older record
        if k in replay.lines:  # the one line says what matters most: texts save7..save11
            return persist.OK, ("save" + str(k + 5), len(replay.hist)), data
    return persist.OK, None, data


def boot(app, now):
    """App.boot's reading of a loaded journal: (message key, count) or None; (None, 0) when
    nothing could be trusted."""
    status, problem, data = load(app.store)
    if status != persist.OK:
        return None, 0
    code, power, hist, rec, mode, rules, base, log, start, dirty, clock, checkpoint, view = data
    if clock:  # [device id, session, uptime, start player, seconds of the game]
        hx = app.hx
        hx[0] = clock[0] or hx[0]
        hx[1] = clock[1] + 1
        hx[3] = clock[3]
        hx[4] = -clock[4]  # the game's seconds so far count on from this boot
    app.set_language(code, save=False)
    app.power.load(power)
    app.history, app.records = hist, rec
    if rules is not None:
        app.engine, app.mode = Engine(rules, base, log), mode
        app.load_texts(mode)
        if checkpoint:  # the clocks where the save left them
            app.clock.load(checkpoint, app.engine.state, now)
        app.saving.view = view  # the game screen takes it back (App.boot)
    if dirty:
        app.mark_unsaved()  # a snapshot of what was kept replaces the rest
    else:
        app.saving.saved(app, start)
    return problem
