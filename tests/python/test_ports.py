"""Each Python port gives its C++ port's verdict, and under explore the same number of
interleaving classes: the same kernel, the same visible operations."""

import os
import re

import pytest

from conftest import HERE, run_command

SOURCE = os.path.dirname(os.path.dirname(HERE))
PORTS = os.path.join(HERE, "pallas_ports.py")

# (C++ scenario file, Python scenario, its --set values, explore's extra --set values)
PAIRS = [
    ("pallas_right_permute.toml", "right_permute", [], []),
    ("pallas_right_permute_no_wait_send.toml", "right_permute", ["params.wait_send=0"], []),
    ("pallas_all_reduce.toml", "all_reduce", [], ["topology.devices=3"]),
    ("pallas_all_reduce_capacity_late.toml", "all_reduce", ["params.bug=1"], ["topology.devices=3"]),
    ("pallas_all_reduce_capacity_early_race.toml", "all_reduce", ["params.bug=3"], ["topology.devices=3"]),
    ("pallas_matmul.toml", "matmul", [], []),
    ("pallas_matmul_shared_output_race.toml", "matmul", ["params.bug=1"], []),
    ("pallas_matmul_revisit.toml", "matmul", ["params.bug=2"], []),
    ("pallas_matmul_revisit_jax.toml", "matmul", ["params.bug=2", "compat.profile=jax"], []),
    ("pallas_paged_gather.toml", "paged_gather", [], []),
    ("pallas_paged_gather_shared_semaphore_race.toml", "paged_gather", ["params.bug=1"], []),
    ("pallas_paged_gather_block_table.toml", "paged_gather",
     ["topology.cores_per_device=2", "params.sequences=3", "params.pages=5", "params.block_table=[[4, 0], [2, 2], [1, 3]]"], []),
    ("pallas_all_reduce_two_launches.toml", "all_reduce", ["program.launches=2"], ["topology.devices=2"]),
    ("rare/pallas_all_reduce_no_handshake.toml", "all_reduce", ["params.bug=2"], ["topology.devices=3"]),
    ("pallas_paged_gather_over_wait_deadlock.toml", "paged_gather", ["params.bug=2"], []),
    ("pallas_paged_blocks.toml", "paged_blocks", [], []),
    ("pallas_paged_blocks_bad_table.toml", "paged_blocks",
     ["params.sequences=3", "params.block_table=[[4, 0], [2, 6], [1, 3]]"], []),
    ("pallas_reduce_scatter_two_launches.toml", "reduce_scatter", ["program.launches=2"], ["topology.devices=2"]),
    ("rare/pallas_reduce_scatter_two_launches_no_handshake.toml", "reduce_scatter",
     ["program.launches=2", "params.handshake=0"], ["topology.devices=2"]),
    ("pallas_reduce_scatter.toml", "reduce_scatter", [], ["topology.devices=3"]),
    ("pallas_reduce_scatter_capacity_late.toml", "reduce_scatter", ["params.capacity_late=1"], ["topology.devices=3"]),
    ("pallas_inner_pipeline.toml", "inner_pipeline", [], []),
    ("pallas_inner_pipeline_overlap_race.toml", "inner_pipeline", ["params.bug=1"], []),
    ("pallas_ragged_matmul.toml", "ragged_matmul", [], []),
    ("pallas_ragged_matmul_padding_read.toml", "ragged_matmul", ["params.mask=0"], []),
    ("pallas_ragged_reduction.toml", "ragged_reduction", [], []),
    ("pallas_ragged_reduction_padding_read.toml", "ragged_reduction", ["params.mask=0"], []),
    ("pallas_buffered_stream.toml", "buffered_stream", [], []),
    ("pallas_flash_attention.toml", "flash_attention", [], []),
    ("pallas_flash_attention_kv_parallel_race.toml", "flash_attention", ["params.seq_q=8", "params.bug=1"], []),
]


def _sets(values):
    words = []
    for value in values:
        words += ["--set", value]
    return words


def _verdicts(out):
    """The verdicts a sweep or exploration expecting `ok` saw: each report's, and ok if some
    execution was as expected."""
    verdicts = set(re.findall(r"^verdict:\s+(\w+)", out, re.M))
    verdicts |= set(re.findall(r"^  (\w+): [\d,]+ runs", out, re.M))
    counts = re.search(r"([\d,]+) executions, ([\d,]+) not as expected", out)
    if counts and counts.group(1) != counts.group(2):
        verdicts.add("ok")
    return sorted(verdicts)


@pytest.mark.parametrize("toml, name, sets, explore_sets", PAIRS, ids=[pair[0] for pair in PAIRS])
@pytest.mark.parametrize("mode", ["async", "on_wait", "eager"])
def test_a_port_sweeps_to_the_cpp_verdicts(weft_binary, toml, name, sets, explore_sets, mode):
    words = ["sweep", "--seeds", "0..199", "--set", f"dma.execution={mode}", "--keep-going", "--expect", "ok"]
    _, cpp, cpp_err = run_command(weft_binary, words[0], os.path.join(SOURCE, "scenarios", toml), *words[1:], cwd=SOURCE)
    _, python, python_err = run_command(weft_binary, words[0], f"{PORTS}::{name}", *words[1:], *_sets(sets), cwd=SOURCE)
    assert _verdicts(cpp), cpp + cpp_err
    assert _verdicts(python) == _verdicts(cpp), python + python_err + "\n---\n" + cpp


@pytest.mark.parametrize("toml, name, sets, explore_sets", PAIRS, ids=[pair[0] for pair in PAIRS])
def test_a_port_explores_to_the_cpp_classes(weft_binary, toml, name, sets, explore_sets):
    words = ["explore", "--keep-going", "--expect", "ok", *_sets(explore_sets)]
    _, cpp, cpp_err = run_command(weft_binary, words[0], os.path.join(SOURCE, "scenarios", toml), *words[1:], cwd=SOURCE)
    _, python, python_err = run_command(weft_binary, words[0], f"{PORTS}::{name}", *words[1:], *_sets(sets), cwd=SOURCE)
    runs = re.search(r"runs:\s+([\d,]+)", cpp)
    assert runs, cpp + cpp_err
    assert re.search(r"runs:\s+([\d,]+)", python).group(1) == runs.group(1), python + python_err + "\n---\n" + cpp
    assert _verdicts(python) == _verdicts(cpp)
