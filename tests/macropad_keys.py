"""A script's keys as a player presses them on the MacroPad: the firmware's key names (UP, OK,
TURN...) become the MacroPad's own keys and encoder (pins.MACROPAD's "keymap"), so a game
played with them goes through the MacroPad's key map, not the simulator's name for it."""

# the keys of the top half (pins.MACROPAD "keymap": BACK UP OK / LEFT DOWN RIGHT)
OWN = {"BACK": "KEY1", "UP": "KEY2", "OK": "KEY3", "LEFT": "KEY4", "DOWN": "KEY5", "RIGHT": "KEY6"}
TURN_KEYS = tuple("KEY%d" % n for n in range(7, 13))  # the whole lower half is TURN
DETENT_GAP_MS = 60  # after a turn of the encoder, as a hand leaves it


def own_keys(script: str) -> str:
    """`script` with every press and hold on the MacroPad's own keys. Presses of UP and DOWN
    alternate between a detent of the encoder (anticlockwise UP, clockwise DOWN) and the key;
    presses of OK between KEY3 and the encoder's switch; TURN goes round the six lower keys.
    Holds keep their key: the encoder's switch is OK too, a hold of OK stays on KEY3."""
    lines = []
    count = {"UP": 0, "DOWN": 0, "OK": 0, "TURN": 0}
    for line in script.splitlines():
        words = line.partition("#")[0].split()
        if words[:1] not in (["press"], ["hold"]) or len(words) < 2:
            lines.append(line)
            continue
        verb, key, rest = words[0], words[1], words[2:]
        n = count.get(key, 0)
        if key in count:
            count[key] = n + 1
        if verb == "press" and key in ("UP", "DOWN") and n % 2 == 0:
            lines += ["turn " + ("-1" if key == "UP" else "+1"), "wait %d" % DETENT_GAP_MS]
            continue
        if key == "TURN":
            own = TURN_KEYS[n % len(TURN_KEYS)]
        elif verb == "press" and key == "OK" and n % 2:
            own = "ENCODER"
        else:
            own = OWN.get(key, key)
        lines.append(" ".join([verb, own] + rest))
    return "\n".join(lines) + "\n"
