"""What a kernel file prints (print in host code, pl.debug_print in a body) is shown by weft run
as it runs, and by a sweep once per distinct print, not once per execution (weft/_output.py)."""

import os

from conftest import HERE, run_command

SCRIPT = os.path.join(HERE, "as_written", "printing.py")
RACES_OFF = ["--set", "topology.devices=1", "--set", "topology.cores_per_device=2", "--set",
             "race_detection.enabled=false"]


def _printed(out):
    return [line for line in out.splitlines() if line.startswith(("grid point", "the output holds"))]


def test_a_run_shows_every_print(weft_binary):
    status, out, err = run_command(weft_binary, "run", SCRIPT, *RACES_OFF)
    assert status == 0, out + err
    printed = _printed(out)
    assert sorted(printed[:2]) == ["grid point 0 sums 28.0", "grid point 1 sums 92.0"], out
    assert printed[2] == printed[3] and printed[2] in ("the output holds 0.0", "the output holds 1.0"), out
    assert len(printed) == 4, out


def test_a_sweep_shows_each_print_once_and_what_differs_again(weft_binary):
    status, out, err = run_command(weft_binary, "sweep", SCRIPT, "--seeds", "0..49", *RACES_OFF)
    assert status == 0, out + err
    printed = _printed(out)
    # Each core's debug print once, though 50 executions made them in both orders.
    assert printed.count("grid point 0 sums 28.0") == 1 and printed.count("grid point 1 sums 92.0") == 1, out
    # The host's prints: each result the schedules gave, as often as one execution printed it.
    assert printed.count("the output holds 0.0") == 2 and printed.count("the output holds 1.0") == 2, out
    assert len(printed) == 6, out
