"""How far the random walks go (the fuzz sessions, the screens walked in both languages, the
save fuzz, the explorer): `make test` runs a share that keeps a CI run under 30 minutes,
`make soak` (POTAGER_SOAK=4) four times as far."""

import os

SCALE = int(os.environ.get("POTAGER_SOAK", "1"))
