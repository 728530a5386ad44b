"""What host code and kernel bodies use of jax besides Pallas: jax.random, jnp's JAX types,
jax.block_until_ready / device_put, pl.loop and pl.multiple_of (docs/python.md)."""

import os

import numpy as np

import weft
from weft.jax import jax, jnp
from weft.jax.experimental import pallas as pl

from conftest import HERE, run_command


def test_a_key_gives_the_same_values_and_its_splits_differ():
    key = jax.random.key(7)
    first = jax.random.normal(key, (4, 128))
    assert np.array_equal(first, jax.random.normal(jax.random.key(7), (4, 128)))
    k1, k2 = jax.random.split(key)
    assert not np.array_equal(jax.random.normal(k1, (64,)), jax.random.normal(k2, (64,)))
    assert not np.array_equal(jax.random.normal(jax.random.fold_in(key, 1), (64,)), first.ravel()[:64])
    assert len(jax.random.split(key, 5)) == 5
    assert repr(jax.random.key(0)) == repr(jax.random.PRNGKey(0))


def test_the_distributions_have_jax_shapes_dtypes_and_ranges():
    key = jax.random.key(0)
    normal = jax.random.normal(key, (200_000,))
    assert normal.dtype == np.float32 and normal.shape == (200_000,)
    assert abs(float(normal.mean())) < 0.01 and abs(float(normal.std()) - 1) < 0.01
    uniform = jax.random.uniform(key, (1000, 2), minval=-2.0, maxval=3.0)
    assert uniform.dtype == np.float32 and uniform.shape == (1000, 2)
    assert uniform.min() >= -2.0 and uniform.max() < 3.0 and uniform.max() > 2.9
    ints = jax.random.randint(key, (10_000,), 3, 9)
    assert ints.dtype == np.int32 and set(np.unique(ints)) == set(range(3, 9))
    assert abs(float(jax.random.bernoulli(key, 0.25, (100_000,)).mean()) - 0.25) < 0.01


def test_jnp_computes_in_jax_default_types():
    assert jnp.arange(8).dtype == np.int32
    assert jnp.ones((2, 3)).dtype == np.float32 and jnp.zeros(4).dtype == np.float32
    assert jnp.array([1.5, 2.5]).dtype == np.float32 and jnp.array([1, 2]).dtype == np.int32
    assert jnp.sum(np.arange(4, dtype=np.int32)).dtype == np.int32
    assert jnp.linspace(0, 1, 5).dtype == np.float32
    assert jnp.exp(np.ones(3, np.float32)).dtype == np.float32
    assert jnp.ones((2,), dtype=jnp.int32).dtype == np.int32


def test_block_until_ready_and_device_put_give_the_value():
    x = np.arange(6, dtype=np.float32)
    assert jax.block_until_ready(x) is x and jax.device_put(x) is x


def test_shape_dtype_struct_like_takes_an_arrays_shape_and_type():
    like = jax.ShapeDtypeStruct.like(np.zeros((3, 128), np.int32))
    assert like.shape == (3, 128) and like.dtype == np.int32


def _loop_kernel(x_ref, o_ref):
    @pl.loop(0, x_ref.shape[0], step=8)
    def _(row):
        start = pl.multiple_of(row, 8)
        o_ref[pl.ds(start, 8), :] = x_ref[pl.ds(start, 8), :] + 1


@weft.scenario(devices=1)
def rows_in_a_loop():
    """pl.loop over row blocks, each start hinted with pl.multiple_of."""
    x = jnp.arange(32 * 128).reshape(32, 128).astype(jnp.float32)
    out = pl.pallas_call(_loop_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
    np.testing.assert_array_equal(out, x + 1)


def test_a_kernel_loops_with_pl_loop():
    result = weft.sweep(rows_in_a_loop, seeds="0..4")
    assert result.ok, result.report


def test_a_blocked_matmul_runs_as_written(weft_binary):
    script = os.path.join(HERE, "as_written", "blocked_matmul.py")
    status, out, err = run_command(weft_binary, "sweep", script, "--seeds", "0..4")
    assert status == 0, out + err
    assert "5 executions, 0 not as expected" in out, out


def test_a_script_of_plain_calls_runs_on_one_device_as_jax_runs_it(weft_binary):
    script = os.path.join(HERE, "as_written", "blocked_matmul.py")
    status, out, err = run_command(weft_binary, "run", script)
    assert status == 0 and "machine:  1 device (mesh 1)" in out, out + err
    status, out, err = run_command(weft_binary, "run", script, "--set", "topology.devices=2")  # --set still wins
    assert status == 0 and "machine:  2 devices (mesh 2)" in out, out + err


def _double_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


@weft.scenario(mesh=[2, 2])
def collectives_in_a_body():
    """A shard_map body that reshapes its part before a launch, and references computed with XLA's
    collectives, over a 2x2 mesh (axes 'a' and 'b')."""
    mesh = jax.make_mesh((2, 2), ("a", "b"))
    P = jax.sharding.PartitionSpec
    x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(4 * 8, 128)

    def doubled(part):
        flat = part.reshape(4, 256)  # each device's (8, 128) part, reshaped before the launch
        out = pl.pallas_call(_double_kernel, out_shape=jax.ShapeDtypeStruct(flat.shape, flat.dtype))(flat)
        return out

    y = jax.shard_map(doubled, mesh=mesh, in_specs=P(("a", "b")), out_specs=P(("a", "b")), check_vma=False)(x)
    np.testing.assert_array_equal(y, (2 * x).reshape(16, 256))

    def reference(part):
        me = jax.lax.axis_index("b")
        return (jax.lax.psum(part, "b"), jax.lax.pmax(part, ("a", "b")), jax.lax.all_gather(part, "a"),
                jax.lax.ppermute(part, "b", perm=[(0, 1), (1, 0)]), jax.lax.psum_scatter(part, "a", tiled=True),
                part[:1, :1] * 0 + me)

    specs = (P(("a", "b")),) * 6
    summed, biggest, gathered, swapped, scattered, index = jax.shard_map(
        reference, mesh=mesh, in_specs=P(("a", "b")), out_specs=specs, check_vma=False)(x)
    parts = np.split(x, 4)  # device d = 2a + b holds parts[d]
    np.testing.assert_array_equal(summed, np.concatenate([parts[0] + parts[1]] * 2 + [parts[2] + parts[3]] * 2))
    np.testing.assert_array_equal(biggest, np.concatenate([parts[3]] * 4))
    column = [np.stack([parts[0], parts[2]]), np.stack([parts[1], parts[3]])]  # each 'a' column, gathered
    np.testing.assert_array_equal(gathered, np.concatenate(column * 2))
    np.testing.assert_array_equal(swapped, np.concatenate([parts[1], parts[0], parts[3], parts[2]]))
    halves = [np.split(parts[0] + parts[2], 2), np.split(parts[1] + parts[3], 2)]
    np.testing.assert_array_equal(scattered, np.concatenate([halves[0][0], halves[1][0], halves[0][1], halves[1][1]]))
    np.testing.assert_array_equal(index, [[0], [1], [0], [1]])


def test_a_shard_map_body_computes_on_each_part_and_with_collectives():
    result = weft.run(collectives_in_a_body)
    assert result.ok, result.report


@weft.scenario(devices=2)
def computes_on_a_result_in_a_body():
    """A shard_map body that computes on its launch's result (which has no value until the
    program runs): refused, naming the body."""
    mesh = jax.make_mesh((2,), ("x",))
    P = jax.sharding.PartitionSpec

    def doubled_plus_one(part):
        out = pl.pallas_call(_double_kernel, out_shape=jax.ShapeDtypeStruct(part.shape, part.dtype))(part)
        return out + 1

    jax.shard_map(doubled_plus_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(np.ones((16, 128), np.float32))


def test_computing_on_a_launch_result_in_a_body_is_refused_naming_it():
    result = weft.run(computes_on_a_result_in_a_body)
    assert not result.ok
    assert "the shard_map body doubled_plus_one computes on a launch's result" in result.report, result.report


def test_jax_nn_activations_in_jax_types():
    x = np.array([[-2.0, -0.5, 0.0, 0.5, 7.0]], np.float32)
    np.testing.assert_array_equal(jax.nn.relu(x), [[0, 0, 0, 0.5, 7]])
    np.testing.assert_array_equal(jax.nn.relu6(x), [[0, 0, 0, 0.5, 6]])
    np.testing.assert_allclose(jax.nn.sigmoid(x), 1 / (1 + np.exp(-x)), rtol=1e-6)
    np.testing.assert_allclose(jax.nn.silu(x), x / (1 + np.exp(-x)), rtol=1e-6)
    np.testing.assert_allclose(jax.nn.gelu(np.float32(1.0)), 0.8411920, rtol=1e-5)
    np.testing.assert_allclose(jax.nn.gelu(np.float32(1.0), approximate=False), 0.8413447, rtol=1e-5)
    soft = jax.nn.softmax(x)
    assert soft.dtype == np.float32
    np.testing.assert_allclose(soft.sum(axis=-1), [1.0], rtol=1e-6)
    np.testing.assert_allclose(np.exp(jax.nn.log_softmax(x)), soft, rtol=1e-5)
    np.testing.assert_array_equal(jax.nn.one_hot(np.array([2, 0]), 3), [[0, 0, 1], [1, 0, 0]])


def _row_sum_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


@weft.scenario(devices=1)
def squeezed_and_blocked():
    """Block shapes written with pl.Squeezed() and pl.Blocked(n), as newer Pallas spells them."""
    x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(4, 8, 128)
    spec = pl.BlockSpec((pl.Squeezed(), pl.Blocked(8), 128), lambda i: (i, 0, 0))
    out = pl.pallas_call(_row_sum_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(4,),
                         in_specs=[spec], out_specs=spec)(x)
    np.testing.assert_array_equal(out, x + 1)


def test_block_shapes_take_squeezed_and_blocked():
    result = weft.sweep(squeezed_and_blocked, seeds="0..2")
    assert result.ok, result.report


def _window_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[0:8, :] + x_ref[8:16, :]


@weft.scenario(devices=1)
def overlapping_windows():
    """pl.Element(16) rows: block i is the window of rows [8i, 8i + 16), overlapping the next."""
    x = np.arange(40 * 128, dtype=np.float32).reshape(40, 128)
    out = pl.pallas_call(_window_kernel, out_shape=jax.ShapeDtypeStruct((32, 128), x.dtype), grid=(4,),
                         in_specs=[pl.BlockSpec((pl.Element(16), 128), lambda i: (8 * i, 0))],
                         out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x)
    np.testing.assert_array_equal(out, x[0:32] + x[8:40])


def test_an_element_indexed_block_is_a_window_at_that_element():
    result = weft.sweep(overlapping_windows, seeds="0..4")
    assert result.ok, result.report


@weft.scenario(mesh=[2, 2])
def mean_over_an_axis():
    """lax.pmean over one axis of a 2x2 mesh: each device gets the mean of its row's parts."""
    mesh = jax.make_mesh((2, 2), ("a", "b"))
    P = jax.sharding.PartitionSpec
    x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(32, 128)
    means = jax.shard_map(lambda part: jax.lax.pmean(part, "b"), mesh=mesh, in_specs=P(("a", "b")),
                          out_specs=P(("a", "b")), check_vma=False)(x)
    doubled = pl.pallas_call(_double_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # a scenario launches
    np.testing.assert_array_equal(doubled, 2 * x)
    parts = np.split(x, 4)
    assert means.dtype == np.float32
    rows = [(parts[0] + parts[1]) / 2, (parts[2] + parts[3]) / 2]  # the mean of each 'a' row's two parts
    np.testing.assert_array_equal(means, np.concatenate([rows[0]] * 2 + [rows[1]] * 2))


def test_pmean_averages_the_parts_of_a_group():
    result = weft.run(mean_over_an_axis)
    assert result.ok, result.report


MISSING_AFTER_THE_PROGRAM = '''\
import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
assert not hasattr(jax.lax, "another_name_weft_lacks")  # hasattr still answers
np.testing.assert_array_equal(jax.lax.some_name_weft_lacks(out), x * 2)
'''


def test_a_name_weft_lacks_in_host_code_after_the_program_is_weft_s_gap_not_a_verdict(weft_binary, tmp_path):
    script = tmp_path / "uses_a_missing_name.py"
    script.write_text(MISSING_AFTER_THE_PROGRAM)
    for verb in (["run"], ["sweep", "--seeds", "0..9", "--jobs", "2", "--keep-going"], ["explore"]):
        status, out, err = run_command(weft_binary, verb[0], str(script), *verb[1:])
        assert status == 2, (verb, out, err)
        assert "weft's jax.lax has no 'some_name_weft_lacks'" in err, (verb, err)
        assert "uses_a_missing_name.py:14" in err, (verb, err)
        assert "wrong_result" not in out + err, (verb, out)


def test_a_vmapped_tiled_matmul_runs_as_one_launch_over_the_batch(weft_binary):
    script = os.path.join(HERE, "as_written", "batched_matmul.py")
    for verb in (["sweep", "--seeds", "0..4"], ["explore", "--max-executions", "40"]):
        status, out, err = run_command(weft_binary, verb[0], script, *verb[1:], "--set", "topology.cores_per_device=2")
        assert status == 0, (verb, out, err)
    status, out, err = run_command(weft_binary, "run", script, "--trace-text", "-")
    assert status == 0, out + err
    # One launch whose grid leads with the batch (3 examples x a 1 x 2 x 2 grid): the last example's
    # last point fetches its block of the batched operand from its own example, whole batch in one
    # buffer, and the shared operand's block as the unbatched kernel would.
    assert "fetch of in[0] 'in0' for grid point (2, 0, 1, 1), block (2, 0, 1)" in out, out
    assert "'in0' f32[3, 128, 256] on device 0 [2:3, 0:128, 128:256]" in out, out
    assert "fetch of in[1] 'in1' for grid point (2, 0, 1, 1), block (1, 1)" in out, out


def test_vmap_maps_host_functions_example_by_example():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    summed = jax.vmap(lambda e: e.sum(axis=1))(x)
    np.testing.assert_array_equal(summed, x.sum(axis=2))
    moved = jax.vmap(lambda e, s: e.reshape(12) * s, in_axes=(0, None), out_axes=1)(x, 2.0)
    np.testing.assert_array_equal(moved, (x.reshape(2, 12) * 2.0).T)
    np.testing.assert_array_equal(jax.vmap(jnp.matmul, in_axes=(2, 0))(x, np.ones((4, 3, 5), np.float32)),
                                  np.stack([x[:, :, i] @ np.ones((3, 5)) for i in range(4)]))


def test_vmap_refuses_what_it_does_not_batch():
    import pytest
    with pytest.raises(ValueError, match="different sizes"):
        jax.vmap(jnp.add)(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="no argument is mapped"):
        jax.vmap(jnp.add, in_axes=None)(np.zeros(2), np.zeros(2))
    with pytest.raises(NotImplementedError, match="axis_name"):
        jax.vmap(jnp.add, axis_name="batch")
