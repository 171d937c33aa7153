"""When and what the app saves: the game (base + log), settings, history and records.

Saving waits until input has been quiet for QUIET_MS, or at the latest MAX_UNSAVED_MS after
the first unsaved change, and never writes twice within MIN_GAP_MS. So a power cut loses at
most the last ~2 s of input, and a burst of presses costs one write.

A write is a delta record (core.persist) of what changed since the last record: the actions
added (and how far undo went back), a setting, a new game, a finished one. Only when the
sector is full does a write erase it and start again from a snapshot of everything.
"""

import json

from potager.core import persist
from potager.core.compat import const
from potager.core.gestures import ticks_diff

QUIET_MS = const(1000)
MIN_GAP_MS = const(2000)
MAX_UNSAVED_MS = const(2000)


class Saving:
    def __init__(self, nvm, now):
        self.store = persist.Store(nvm)
        self.unsaved = False
        self.unsaved_since = now
        self.last_write = now
        self.dirty = True  # what the journal holds is unknown: the next record is a snapshot
        self.settings = self.since = 0
        self.view = None  # the game screen's selection the journal holds (GameScreen.selection)
        self.urgent = False  # a confirmed discard, end or wipe: written at the next step

    def mark(self, now):
        if not self.unsaved:
            self.unsaved = True
            self.unsaved_since = now

    def due(self, now, last_input):
        if not self.unsaved or self.store.nvm is None:
            return False
        if self.urgent:  # rare (once a game): the flash wear of the gap is not worth a loss
            return True
        if self.store.writes and ticks_diff(now, self.last_write) < MIN_GAP_MS:
            return False
        quiet = ticks_diff(now, last_input) >= QUIET_MS
        return quiet or ticks_diff(now, self.unsaved_since) >= MAX_UNSAVED_MS

    def saved(self, app, start):
        """The journal now holds the app's state; its log begins at chain position `start`."""
        engine = app.engine
        self.settings = 0  # set to 1 by the app when a setting or the language changes
        self.games = len(app.history)  # the games the journal holds
        self.seq = app.history[-1][0] if app.history else 0  # the newest game's seq
        self.engine = engine
        if engine:
            engine.lo = engine.gone + len(engine.log)
            self.start = start - engine.gone  # the chain position of the base's action 0
            self.end = engine.lo
        self.dirty = False

    def delta(self, app, now):
        """(patch, first, actions, start) since the last record, or None: write a snapshot."""
        if self.dirty or not self.store.end:
            return None  # a chain starts with a snapshot (first save, after a wipe)
        patch = {}
        if self.settings:
            patch["lang"] = app.language
            patch["set"] = app.power.settings
        if app.hx[2] - self.since >= 60 or app.engine is not self.engine:
            patch["hx"] = self.clock(app)  # a game's duration: a power cut loses 1 min at most
            self.since = app.hx[2]  # the uptime the journal's clock was written at
        if app.engine is not None:  # the table clocks [turn s, round s, paused]: every clock,
            patch["clock"] = app.clock.save(now)  # statistics' too, comes back after a cut
            view = selection(app)  # the cursor, written when it moved
            if view != self.view:
                patch["view"] = self.view = view
        history = app.history  # the oldest went (how many: "gone"), new ones came ("games")
        k = 0
        while k < len(history) and history[k][0] <= self.seq:
            k += 1
        if self.games > k:
            patch["gone"] = self.games - k
        if k < len(history):
            patch["games"] = history[k:]
        engine = app.engine
        if engine is not self.engine:  # a game started or ended (records change only then)
            patch["rec"] = app.records
            patch["mode"] = app.mode
            patch["base"] = engine.base if engine else None
            return patch, 0, engine.log if engine else [], 0
        if engine is None:
            return patch, 0, [], 0
        k = min(engine.lo, self.end)  # written and not undone since: stays on flash
        if k < engine.gone:
            return None  # actions never written went into the base
        return patch, self.start + k, engine.log[k - engine.gone :], self.start + engine.gone

    def write(self, app, now):
        """One record; False when it could not be written."""
        self.unsaved = self.urgent = False
        self.last_write = now
        store = self.store
        delta = self.delta(app, now)
        if delta is not None:
            payload = persist.encode_payload(delta[0], delta[2], delta[1])
            if store.room(payload):
                if not store.save(payload, 1):  # a delta
                    return False
                self.saved(app, delta[3])
                return True
        engine = app.engine
        meta = {"lang": app.language, "set": app.power.settings, "mode": app.mode, "base": None}
        meta["hist"] = app.history
        meta["rec"] = app.records
        meta["hx"] = self.clock(app)
        self.since = app.hx[2]
        # the table clock's checkpoint (core.clock): running clocks come back after a power cut
        meta["clock"] = app.clock.save(now)
        log = []
        if engine is not None:
            meta["base"] = engine.base
            meta["view"] = self.view = selection(app)
            log = engine.log
        payload = persist.encode_payload(meta, log)
        while not store.fits(payload) and app.history:
            app.history.pop(0)  # the oldest finished game makes room (End game warns first)
            payload = persist.encode_payload(meta, log)
        if not store.save(payload):
            self.dirty = True
            return False
        self.saved(app, 0)
        return True

    def clock(self, app):
        hx = app.hx  # [device id, session, uptime, start player, seconds of the game]
        return [hx[0], hx[1], hx[2], hx[3], hx[2] - hx[4]]

    def room(self, history):
        """Drop the oldest games until the history fits its share of the sector: how many."""
        i = 0
        while len(history) > 1 and len(json.dumps(history)) > 1024:  # its share: room for deltas
            history.pop(0)
            i += 1
        return i


def selection(app):
    # The game screen's cursor (GameScreen.selection), None while it is not at the bottom of
    # the screens (a new game's setup opened over a game in progress).
    cursor_of = getattr(app.stack[0], "selection", None)
    return cursor_of(app) if cursor_of is not None else None
