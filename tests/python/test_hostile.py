"""Hostile Python: a verdict or a clear error, never a crash or a hang."""

import re

import weft

import hostile as h
from conftest import run_command


def test_each_hostile_kernel_gives_its_verdict():
    for scenario in (h.recurses_forever, h.waits_twice, h.swallows_the_teardown):
        result = weft.sweep(scenario, seeds="0..9")
        assert result.ok, result.report


def test_a_ref_kept_past_its_execution_is_named():
    # The first execution keeps its ref; the second uses it: a kernel_error naming the ref (and,
    # since the two executions differ, weft says the kernel is not deterministic).
    result = weft.sweep(h.keeps_a_ref, seeds="0..1", keep_going=True, expect="ok")
    assert "a ref kept past the kernel that made it" in result.report, result.report


def test_recursion_ends_in_recursion_error():
    result = weft.run(h.recurses_forever)
    assert "RecursionError" in result.report


def test_a_swallowed_teardown_is_named():
    result = weft.run(h.swallows_the_teardown)
    assert re.search(r"caught weft's teardown", result.report), result.report


def test_a_missing_primitive_in_a_kernel_is_weft_s_gap_named_not_a_verdict(weft_binary, tmp_path):
    result = weft.run(h.uses_a_missing_primitive)
    assert result.status == 2 and not result.ok, result
    lines = tmp_path / "found.jsonl"
    for verb in (["run"], ["sweep", "--seeds", "0..9", "--jobs", "2", "--keep-going", "--jsonl", str(lines)],
                 ["sweep", "--seeds", "0..9", "--jsonl", str(lines)], ["explore", "--jsonl", str(lines)]):
        status, out, err = run_command(weft_binary, verb[0], "hostile.py::uses_a_missing_primitive", *verb[1:])
        assert status == 2, (verb, out, err)
        assert "its kernel met MissingName: weft's pallas has no 'some_primitive_weft_lacks'" in err, (verb, err)
        assert "kernel_error" not in out, (verb, out)
        # Refused before it found anything: no file that reads as a killed run's output.
        assert sorted(p.name for p in tmp_path.iterdir()) == [], (verb, list(tmp_path.iterdir()))


def test_a_ref_handed_to_another_core_is_named():
    result = weft.sweep(h.hands_a_ref_to_another_core, seeds="0..19")
    assert result.ok, result.report
    assert "used by another core's kernel" in weft.run(h.hands_a_ref_to_another_core, seed=4).report


def test_ctrl_c_stops_a_python_sweep_with_its_summary(weft_binary, kernels):
    import signal
    import subprocess
    import time
    sweep = subprocess.Popen([weft_binary, "sweep", f"{kernels}::right_permute", "--seeds", "0..99999999"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    sweep.send_signal(signal.SIGINT)
    out, err = sweep.communicate(timeout=60)
    assert sweep.returncode == 4, out + err
    assert "INCOMPLETE: interrupted" in out


def test_a_spinning_body_is_ended_by_the_watchdog():
    result = weft.sweep(h.spins_forever, seeds="0..1")
    assert result.ok, result.report
    report = weft.run(h.spins_forever).report
    assert "WatchdogTimeout" in report and "spin_kernel" in report, report
