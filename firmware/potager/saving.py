"""When and what the app saves: the game (base + log), settings and history, in one record.

Saving waits until input has been quiet for QUIET_MS, or at the latest MAX_UNSAVED_MS after
the first unsaved change, and never writes twice within MIN_GAP_MS (flash wear). So a power
cut loses at most the last ~2 s of input, and a burst of presses costs one write.
"""

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

    def mark(self, now):
        if not self.unsaved:
            self.unsaved = True
            self.unsaved_since = now

    def due(self, now, last_input):
        if not self.unsaved or self.store.nvm is None:
            return False
        if self.store.writes and ticks_diff(now, self.last_write) < MIN_GAP_MS:
            return False
        quiet = ticks_diff(now, last_input) >= QUIET_MS
        return quiet or ticks_diff(now, self.unsaved_since) >= MAX_UNSAVED_MS

    def write(self, app, now):
        """One record; False when it could not be written."""
        engine = app.engine
        meta = {"lang": app.language, "set": app.power.settings, "mode": app.mode, "base": None}
        meta["hist"] = app.history
        meta["rec"] = app.records
        hx = app.hx  # [device id, session, uptime, start player, seconds of the game]
        meta["hx"] = [hx[0], hx[1], hx[2], hx[3], hx[2] - hx[4]]
        # the table clock's checkpoint (core.clock): running clocks come back after a power cut
        meta["clock"] = app.clock.save(now)
        log = []
        if engine is not None:
            meta["base"] = engine.base
            log = engine.log
        payload = persist.encode_payload(meta, log)
        while not self.store.fits(payload) and app.history:
            app.history.pop(0)  # the oldest finished game makes room
            payload = persist.encode_payload(meta, log)
        if engine is not None and not self.store.fits(payload):
            # keep the game, drop the undo history from the save
            meta["base"] = engine.state
            payload = persist.encode_payload(meta, [])
        self.unsaved = False
        self.last_write = now
        return self.store.save(payload)
