"""Python scenarios give their verdicts, through the Python API and both command lines."""

import os
import re

import weft

import kernels as k
from conftest import run_command


def test_a_permute_gives_ok_over_seeds():
    result = weft.sweep(k.right_permute, seeds="0..99")
    assert result.ok, result.report
    assert "100 executions" in result.report or "100" in result.report


def test_a_blocked_kernel_computes_its_output():
    result = weft.sweep(k.blocked_add, seeds="0..9")
    assert result.ok, result.report


def test_prefetch_aliases_masks_and_scopes_give_their_verdicts():
    for scenario in (k.gather_by_prefetch, k.doubled_in_place, k.masked_rows, k.scoped_copy,
                     k.scoped_copy_waited_too_late):
        result = weft.sweep(scenario, seeds="0..9")
        assert result.ok, result.report


def test_an_out_of_bounds_fetch_names_operand_grid_point_block_and_blockspec_line():
    result = weft.run(k.gather_past_the_end, seed=0)
    assert result.ok, result.report
    with open(k.__file__) as source:
        spec = next(number for number, line in enumerate(source, 1) if "# the BlockSpec reports name" in line)
    assert ("starts the fetch of in[0] 'in1' for grid point (2), block (4, 0) (BlockSpec at kernels.py:%d), a DMA reading"
            % spec) in result.report, result.report


def test_each_planted_bug_gives_its_verdict():
    for scenario, verdict in ((k.permute_never_waited, "dma_in_flight"), (k.doubled_not_tripled, "wrong_result"),
                              (k.body_raises, "kernel_error")):
        result = weft.run(scenario, seed=3)
        assert result.ok, result.report
        assert f"verdict:  {verdict}" in result.report


def test_a_body_that_raises_names_its_exception_and_line():
    result = weft.run(k.body_raises, seed=0)
    assert "ValueError: a body that raises" in result.report
    assert re.search(r"kernels\.py:\d+ in raising_kernel", result.report), result.report


def test_a_wrong_result_names_the_assertion():
    result = weft.run(k.doubled_not_tripled, seed=0)
    assert "Mismatched elements" in result.report or "not equal" in result.report, result.report


def test_a_forgotten_wait_names_the_kernel_line():
    result = weft.run(k.permute_never_waited, seed=0)
    assert re.search(r"kernels\.py:\d+", result.report), result.report


def test_the_executable_and_python_m_weft_print_the_same(weft_binary, python_weft, kernels):
    words = ["run", f"{kernels}::permute_never_waited", "--seed", "5"]
    status, out, err = run_command(weft_binary, *words)
    assert status == 0, err
    assert f"{weft_binary} replay" in out
    status_m, out_m, err_m = run_command(*python_weft, *words)
    assert status_m == 0, err_m
    assert out.replace(weft_binary, "python3 -m weft") == out_m


def test_every_printed_reproduce_line_replays(weft_binary, kernels):
    status, out, err = run_command(weft_binary, "run", f"{kernels}::permute_never_waited", "--seed", "5",
                                   "--expect", "ok")
    assert status == 1, out + err
    lines = [line.strip() for line in out.splitlines() if " replay " in line]
    assert len(lines) == 2, out
    verdict = re.search(r"verdict:\s+(\w+)", out).group(1)
    for line in lines:
        words = line.split()
        words[0] = weft_binary
        replayed_status, replayed, replay_err = run_command(*words)
        assert re.search(r"verdict:\s+(\w+)", replayed).group(1) == verdict, replayed + replay_err


def test_explore_proves_the_permute(weft_binary, kernels):
    status, out, err = run_command(weft_binary, "explore", f"{kernels}::right_permute")
    assert status == 0, out + err
    assert "exhausted" in out


def test_a_script_without_scenarios_is_one(weft_binary, tmp_path):
    script = tmp_path / "add_script.py"
    script.write_text(
        "import numpy as np\n"
        "from weft.jax import jax, jnp\n"
        "from weft.jax.experimental import pallas as pl\n"
        "def kernel(x_ref, o_ref):\n"
        "    o_ref[...] = x_ref[...] * 2\n"
        "x = np.ones((8, 128), np.float32)\n"
        "out = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n"
        "assert (out == 2).all()\n")
    status, out, err = run_command(weft_binary, "sweep", str(script), "--seeds", "0..4")
    assert status == 0, out + err


AS_WRITTEN = (
    "import functools\n"
    "import numpy as np\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "from jax import lax\n"
    "from jax.experimental import pallas as pl\n"
    "from jax.experimental.pallas import tpu as pltpu\n"
    "from jax.sharding import PartitionSpec as P\n"
    "assert jax.local_device_count() == 4 and 'TPU' in jax.devices()[0].device_kind\n"
    "def kernel(x_ref, o_ref, send_sem, recv_sem):\n"
    "    me = lax.axis_index('x')\n"
    "    right = lax.rem(me + 1, 4)\n"
    "    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=(right,),\n"
    "                                        device_id_type=pltpu.DeviceIdType.MESH)\n"
    "    copy.start()\n"
    "    {wait}\n"
    "def permute(x):\n"
    "    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, jnp.float32),\n"
    "                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)],\n"
    "                          out_specs=pl.BlockSpec(memory_space=pl.ANY),\n"
    "                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)\n"
    "mesh = jax.make_mesh((4,), ('x',))\n"
    "x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(32, 128)\n"
    "out = jax.jit(jax.shard_map(permute, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False))(x)\n"
    "np.testing.assert_array_equal(out, np.roll(x, 8, axis=0))\n")


def test_a_pallas_file_runs_with_its_own_jax_imports(weft_binary, tmp_path):
    script = tmp_path / "as_written.py"
    script.write_text(AS_WRITTEN.format(wait="copy.wait()"))
    status, out, err = run_command(weft_binary, "sweep", str(script), "--seeds", "0..19")
    assert status == 0, out + err
    status, out, err = run_command(weft_binary, "run", str(script))  # a shard_map's: the configuration's devices
    assert status == 0 and "machine:  4 devices (mesh 4)" in out, out + err
    status, out, err = run_command(weft_binary, "explore", str(script))
    assert status == 0 and "exhausted" in out, out + err
    unwaited = tmp_path / "as_written_unwaited.py"
    unwaited.write_text(AS_WRITTEN.format(wait="pass"))
    status, out, err = run_command(weft_binary, "run", str(unwaited), "--seed", "1")
    assert status == 1 and "as_written_unwaited.py:" in out, out + err


def test_a_script_prints_once_per_execution_not_when_weft_reads_it(weft_binary, tmp_path):
    script = tmp_path / "printing.py"
    script.write_text("print('before the launch')\n" + AS_WRITTEN.format(wait="copy.wait()") + "print('after it')\n")
    status, out, err = run_command(weft_binary, "run", str(script))
    assert status == 0, out + err
    assert out.count("before the launch") == 1 and out.count("after it") == 1, out


def test_a_jax_module_weft_does_not_stand_in_for_is_named(weft_binary, tmp_path):
    script = tmp_path / "special.py"
    script.write_text("import jax.scipy.special\n")
    status, out, err = run_command(weft_binary, "run", str(script))
    assert status == 2, out + err
    assert "'jax.scipy.special' is not one of the jax modules weft stands in for" in err, err


def test_a_script_that_fails_to_import_is_a_clear_error(weft_binary, tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import nonexistent_module_for_weft\n")
    status, out, err = run_command(weft_binary, "run", str(script))
    assert status == 2
    assert "broken.py" in err and "nonexistent_module_for_weft" in err


def test_traces_and_findings_files_name_the_python_lines(weft_binary, kernels, tmp_path):
    html, trace, text = tmp_path / "t.html", tmp_path / "t.json", tmp_path / "t.txt"
    status, out, err = run_command(weft_binary, "run", f"{kernels}::permute_never_waited", "--seed", "2",
                                   "--html", str(html), "--trace", str(trace), "--trace-text", str(text))
    assert status == 0, out + err
    for written in (html, trace, text):
        assert "kernels.py" in written.read_text(), written
    jsonl, junit = tmp_path / "f.jsonl", tmp_path / "f.xml"
    status, out, err = run_command(weft_binary, "sweep", f"{kernels}::permute_never_waited", "--seeds", "0..19",
                                   "--expect", "ok", "--keep-going", "--jsonl", str(jsonl), "--junit", str(junit))
    assert status == 1, out + err
    assert "kernels.py" in jsonl.read_text() and "failure" in junit.read_text()
    status, out, err = run_command(weft_binary, "merge", str(jsonl))
    assert '"failures":20' in out, out + err


def test_shards_merge_to_the_whole_sweep(weft_binary, kernels, tmp_path):
    scenario = f"{kernels}::permute_never_waited"
    for shard in (0, 1):
        status, out, err = run_command(weft_binary, "sweep", scenario, "--seeds", "0..39", "--shard", f"{shard}/2",
                                       "--expect", "ok", "--keep-going", "--jsonl", str(tmp_path / f"s{shard}.jsonl"))
        assert status == 1, out + err
    status, out, err = run_command(weft_binary, "merge", str(tmp_path / "s0.jsonl"), str(tmp_path / "s1.jsonl"))
    assert '"executions":40' in out and '"failures":40' in out and '"complete":true' in out, out + err


def test_explore_with_two_jobs_and_python_m_weft_agree(weft_binary, python_weft, kernels):
    ports = kernels.replace("kernels.py", "pallas_ports.py")
    words = ["explore", f"{ports}::all_reduce", "--set", "topology.devices=3"]
    _, one, _ = run_command(weft_binary, *words)
    _, two, _ = run_command(*python_weft, *words, "--jobs", "2")
    assert re.search(r"runs:\s+343 complete", one), one
    assert re.search(r"ok: 343 runs", two), two


def test_an_output_revisit_is_what_a_tpu_does_with_it():
    # A body that overwrites the whole block is correct; one that accumulates loses the first
    # visit's part, and the report names the revisit.
    assert weft.sweep(k.revisit_overwriting, seeds="0..9").ok
    result = weft.run(k.revisit_accumulating, seed=0)
    assert result.ok, result.report
    assert "verdict:  wrong_result" in result.report
    assert "out[0] 'out0' comes back to block (0, 0) at grid point (1, 0) after writing it back at grid point (0, 0)" in result.report
    assert "on a TPU the block is not read back in" in result.report


def test_parameters_of_every_kind_are_set_from_python_and_the_command_line(weft_binary, kernels):
    assert not weft.run(k.scaled_by_params).ok  # defaults: 1 * 1 * 2, not 6
    result = weft.run(k.scaled_by_params, config={"params.double": False, "params.scales": [3, 2], "params.label": "ramp"})
    assert result.ok, result.report
    status, out, err = run_command(weft_binary, "run", f"{kernels}::scaled_by_params", "--set", "params.double=true",
                                   "--set", "params.scales=[3]")
    assert status == 0, out + err
    status, out, err = run_command(weft_binary, "run", f"{kernels}::scaled_by_params", "--set", "params.scales=3")
    assert status == 2 and "params.scales" in err and "expected a list" in err, err


def test_a_parameter_of_another_kind_is_refused_naming_it(tmp_path, weft_binary):
    script = tmp_path / "floats.py"
    script.write_text("import weft\n\n@weft.scenario(params={'scale': 0.5})\ndef scaled(scale):\n    pass\n")
    status, out, err = run_command(weft_binary, "run", f"{script}::scaled")
    assert status == 2, out + err
    assert "params['scale'] is a float" in err, err
