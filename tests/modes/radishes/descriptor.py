"""What the mode adds to files every mode shares (docs/adding-a-mode.md § 0, § 3): its
descriptor in MODES of potager/core/registry.py, its names in potager/lang/en.py and fr.py."""

DESCRIPTOR = """    _mode(
        "radishes", 1, 4, ("radishes",),
        "potager.core.games.radishes", "potager.ui.radishes", "radishes", (),
        "potager.core.games.radishes_records",
    ),
"""

SHARED_TEXTS = {
    "en": "m.radishes=Radish race\nres.mode_short_radishes=Radishes\n",
    "fr": "m.radishes=Course de radis\nres.mode_short_radishes=Radis\n",
}
