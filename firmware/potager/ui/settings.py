"""Device settings (from home): language, ring, night mode, beep, dim and sleep; the history
export. Kept across power cycles, not undone: they are not part of a game."""

from potager.ui.screens import LanguageScreen
from potager.ui.table_settings import SettingsScreen


class DeviceScreen(SettingsScreen):
    """Language, ring brightness, night mode, beep, dim and sleep delays: kept, not undone."""

    KEYS = ("bri", "night", "beep", "dim", "sleep")

    def title(self, app):
        return app.tr("settings")

    def entries(self, app):
        s = app.power.settings
        on_off = ("off", "on")
        return [
            (app.tr("language"), app.tr("lang.name")),
            (app.tr("s.bri"), str(s["bri"]) + "/4"),
            (app.tr("s.night"), app.tr(on_off[s["night"]])),
            (app.tr("s.beep"), app.tr(on_off[s["beep"]])),
            (app.tr("s.dim"), str(s["dim"]) + " min" if s["dim"] else app.tr("never")),
            (app.tr("s.sleep"), str(s["sleep"]) + " min" if s["sleep"] else app.tr("never")),
        ]

    def items(self, app):
        return SettingsScreen.items(self, app) + [app.tr("export")]

    def change(self, app, index, delta):
        if index == 0:
            app.push(LanguageScreen())
        elif index <= len(self.KEYS):
            app.change_setting(self.KEYS[index - 1], delta)

    def choose(self, app, index):
        if index == 0:
            app.push(LanguageScreen())
        elif index == len(self.KEYS) + 1:
            export(app)


def export(app):
    """The history as checksummed lines on the USB serial console."""
    from potager.core.history_lines import export_lines  # only now: RAM

    for line in export_lines(app.history, app.hx):
        print(line)
    app.say("exported")
