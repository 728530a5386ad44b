"""Programs of several launches made by Python host code (docs/python.md, "Programs")."""

import re

import weft

import programs as p
from conftest import run_command


def test_two_different_kernels_pass_their_results_along():
    result = weft.sweep(p.two_kernels_in_a_row, seeds="0..19")
    assert result.ok, result.report


def test_the_second_launch_runs_after_the_first_on_its_device(weft_binary, tmp_path):
    trace = tmp_path / "trace.txt"
    status, out, err = run_command(weft_binary, "run", f"{p.__file__}::two_kernels_in_a_row", "--seed", "3",
                                   "--trace", str(trace))
    assert status == 0, out + err
    text = trace.read_text()
    assert "end launch 1" in text, text[-2000:]
    assert "launch2.out0" in text, text[-2000:]


def test_a_second_kernel_with_its_handshake_is_ok_under_explore():
    result = weft.explore(p.right_then_left)
    assert result.ok, result.report
    assert re.search(r"\d+ complete", result.report), result.report


def test_a_second_kernel_without_its_handshake_is_a_crossed_launch():
    swept = weft.sweep(p.right_then_left, seeds="0..199", config={"params.handshake": 0}, keep_going=True)
    assert not swept.ok
    assert "crossed_launch" in swept.report, swept.report
    explored = weft.explore(p.right_then_left, config={"params.handshake": 0})
    assert "crossed_launch" in explored.report, explored.report
    assert "launch 2" in explored.report and "launch 1" in explored.report, explored.report


def test_core_map_as_the_guide_writes_it():
    result = weft.sweep(p.swap_cores, seeds="0..49")
    assert result.ok, result.report
    explored = weft.explore(p.swap_cores)
    assert explored.ok, explored.report


def test_a_launch_after_reading_a_result_is_refused_naming_both_lines():
    result = weft.run(p.launch_after_read)
    assert not result.ok
    assert "after reading a result at" in result.report and "programs.py:" in result.report, result.report


def test_an_update_in_place_is_read_through_the_later_result_and_the_earlier_one_is_refused():
    result = weft.sweep(p.update_in_place, seeds="0..9")
    assert result.ok, result.report
    refused = weft.run(p.update_in_place, config={"params.read_earlier": 1})
    assert not refused.ok
    assert "overwrote in place (input_output_aliases)" in refused.report, refused.report
    assert re.search(r"reads at \S*programs.py:\d+ the result of the launch at \S*programs.py:\d+, which the launch "
                     r"at \S*programs.py:\d+ overwrote", refused.report), refused.report


def test_an_error_of_the_host_code_after_launching_is_reported_once_the_program_ran():
    result = weft.run(p.raises_before_reading)
    assert not result.ok
    assert "the host code raised ValueError: the host gave up" in result.report, result.report
    assert "programs.py:" in result.report, result.report
