"""Board scripts: what they mean, and the one-line refusal of a bad one."""

import pytest

from host_tools.sim import Command, ScriptError, parse_script
from host_tools.sim.cli import main


def test_commands_and_comments():
    script = """
    # a comment line
    press OK        # press is a hold of 60 ms (each hold is followed by 20 ms up)
    hold TURN 600
    wait 0
    power-cut
    tear-next-write 3
    boot
    reload
    """
    assert parse_script(script) == [
        Command("hold", 4, 60, 3),
        Command("hold", 6, 600, 4),
        Command("wait", None, 0, 5),
        Command("power-cut", None, 0, 6),
        Command("tear-next-write", None, 3, 7),
        Command("boot", None, 0, 8),
        Command("reload", None, 0, 9),
    ]


@pytest.mark.parametrize(
    ("script", "line", "fault"),
    [
        ("press OK\njump UP", 2, "unknown command 'jump'"),
        ("press ok", 1, "unknown key 'ok'"),
        ("press", 1, "'press' takes 1 argument(s): press KEY"),
        ("hold UP", 1, "'hold' takes 2 argument(s): hold KEY MS"),
        ("wait 1.5", 1, "MS (milliseconds) must be a whole number, not '1.5'"),
        ("wait -3", 1, "must be a whole number, not '-3'"),
        ("\n\ntear-next-write x", 3, "N (a byte count) must be a whole number"),
        ("hold BACK 0", 1, "'hold' needs MS of at least 1"),
        ("boot now", 1, "'boot' takes 0 argument(s)"),
        ("reload 1", 1, "'reload' takes 0 argument(s)"),
    ],
)
def test_bad_lines_are_named(script, line, fault):
    with pytest.raises(ScriptError) as error:
        parse_script(script)
    assert error.value.line == line
    assert fault in error.value.message


def test_cli_refuses_a_bad_script_in_one_line_and_runs_nothing(tmp_path, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("press OK\nwait soon\n")
    state = tmp_path / "state.json"
    code = main(["--headless", "--script", str(script), "--state", str(state)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        f"sim: {script}:2: MS (milliseconds) must be a whole number, not 'soon'"
    ]
    assert not state.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--headless"], "sim: --headless needs --script FILE"),
        (["--script", "x.txt"], "sim: --script runs only with --headless"),
        (["--headless", "--script", "/nonexistent.txt"], "sim: cannot read the script"),
    ],
)
def test_cli_usage_errors(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(message)
