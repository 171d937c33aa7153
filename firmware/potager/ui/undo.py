# What an action did, in a few words ("●P2 +5"): the undo and redo messages. Imported when a
# step is undone or redone and forgotten at once (RAM: the board compiles .py; comments, not
# docstrings, which it would read into RAM). The mode's texts hold a template per op,
# "u.undo_op_<op>" (table ops in the shared texts), where %p is the active player, %a player
# a, %q player a % 4, %n the number a, %b the number b and %d b with its sign; a mode with
# more to say has describe(app, action) in its screens' module.

from potager.core import registry
from potager.ui import view


def step(app, redo):
    # Undo (or redo) the last step, with its message; False if there is none. An undone step
    # is described on the state it comes back to, a redone one on the state before it.
    engine = app.engine
    if engine is None or not (engine.redo_log if redo else engine.log):
        return False
    frame = app.tr("redone" if redo else "undone")  # "Undone: {}": the names get the rest
    width = view.COLS - len(frame) + 2
    if redo:
        op, a, b = engine.redo_log[-1][0]
        text = describe(app, (op & 127, a, b), width)
        if not engine.redo():
            return False
    else:
        engine.undo()
        text = describe(app, engine.step, width)
    app.say(frame.replace("{}", text))
    return True


def describe(app, action, width=view.COLS):
    # The action in words, its players' names as long as `width` holds.
    op, a, b = action
    own = getattr(registry.screens(app.mode), "describe", None)
    text = own(app, action, width) if own is not None else None
    if text is not None:
        return text
    key = "u.undo_op_" + str(op)
    text = app.tr(key)
    if text == key:
        return app.tr("u.undo_other")
    state = app.engine.state
    n = state["n"]
    for mark, value in (("%n", str(a)), ("%b", str(b)), ("%d", ("+" if b > 0 else "") + str(b))):
        if mark in text:
            text = text.replace(mark, value)
    marks = [("%p", state["act"])]
    for mark, player in (("%a", a), ("%q", a % 4)):
        if mark in text:
            if 0 <= player < n:
                marks.append((mark, player))
            else:
                text = text.replace(mark, "")
    return view.names_in(state, text, marks, width)
