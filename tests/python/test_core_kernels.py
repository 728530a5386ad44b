"""Kernels over a TensorCore mesh with newer JAX's names (core_kernels.py): scratch by name,
the chip's core count, and an inner pipeline split across the cores by its core axis."""

import os
import re

from conftest import HERE, run_command

KERNELS = os.path.join(HERE, "core_kernels.py")


def test_scratch_by_name_and_the_core_count(weft_binary):
    for cores in ("1", "2", "4"):
        status, out, err = run_command(weft_binary, "sweep", f"{KERNELS}::ramp_by_core", "--seeds", "0..19",
                                       "--set", f"topology.cores_per_device={cores}")
        assert status == 0 and "0 not as expected (ok)" in out, out + err


def test_an_inner_pipeline_split_by_its_core_axis_runs_each_cores_share(weft_binary):
    status, out, err = run_command(weft_binary, "explore", f"{KERNELS}::pipelined_scale")
    assert status == 0 and re.search(r"ok: \d+ runs", out), out + err


def test_without_a_core_axis_every_core_runs_the_whole_pipeline_and_their_write_backs_race(weft_binary):
    status, out, err = run_command(weft_binary, "run", f"{KERNELS}::pipelined_scale", "--set", "params.split=0")
    assert status == 1 and "verdict:  data_race" in out, out + err
    assert "inner pipeline write-back of out[0]" in out, out
