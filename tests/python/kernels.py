"""Kernels in the shape of the Pallas TPU distributed guide's, written for weft's tests."""

import numpy as np

import weft
from weft.jax import jax, lax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu
from weft.jax.experimental.shard_map import shard_map
from weft.jax.sharding import PartitionSpec as P

DEVICES = 4


def right_permute_kernel(input_ref, output_ref, send_sem, recv_sem):
    my_id = lax.axis_index("x")
    right = lax.rem(my_id + 1, DEVICES)
    copy = pltpu.make_async_remote_copy(src_ref=input_ref, dst_ref=output_ref, send_sem=send_sem,
                                        recv_sem=recv_sem, device_id=(right,),
                                        device_id_type=pltpu.DeviceIdType.MESH)
    copy.start()
    copy.wait()


def permute_call():
    return pl.pallas_call(
        right_permute_kernel,
        out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
            out_specs=pl.BlockSpec(memory_space=pl.ANY),
            scratch_shapes=[pltpu.SemaphoreType.DMA] * 2))


@weft.scenario(devices=DEVICES)
def right_permute():
    mesh = jax.make_mesh((DEVICES,), ("x",))
    x = np.arange(DEVICES * 8 * 128, dtype=np.float32).reshape(DEVICES * 8, 128)
    out = jax.jit(shard_map(permute_call(), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(x)
    np.testing.assert_array_equal(out, np.roll(x, 8, axis=0))


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


@weft.scenario(devices=1)
def blocked_add():
    x = np.arange(32 * 128, dtype=np.float32).reshape(32, 128)
    call = pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(4,),
                          in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                          out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))
    np.testing.assert_array_equal(call(x), x + 1)


def forgotten_wait_kernel(input_ref, output_ref, send_sem, recv_sem):
    right = lax.rem(lax.axis_index("x") + 1, DEVICES)
    pltpu.make_async_remote_copy(input_ref, output_ref, send_sem, recv_sem, device_id=(right,)).start()


@weft.scenario(devices=DEVICES, expect="dma_in_flight")
def permute_never_waited():
    mesh = jax.make_mesh((DEVICES,), ("x",))
    x = np.zeros((DEVICES * 8, 128), np.float32)
    call = pl.pallas_call(forgotten_wait_kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)
    shard_map(call, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)


def off_by_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


@weft.scenario(devices=1, expect="wrong_result")
def doubled_not_tripled():
    x = np.ones((8, 128), np.float32)
    call = pl.pallas_call(off_by_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))
    np.testing.assert_array_equal(call(x), x * 3)


def raising_kernel(x_ref, o_ref):
    raise ValueError("a body that raises")


@weft.scenario(devices=1, expect="kernel_error")
def body_raises():
    x = np.ones((8, 128), np.float32)
    pl.pallas_call(raising_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def gather_rows_kernel(rows_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * 10


@weft.scenario(devices=1)
def gather_by_prefetch():
    """Scalar prefetch: the index map picks which block of x each grid step reads."""
    x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(32, 128)
    order = np.array([3, 0, 2, 1], np.int32)
    call = pl.pallas_call(
        gather_rows_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1, grid=(4,),
            in_specs=[pl.BlockSpec((8, 128), lambda i, rows: (rows[i], 0))],
            out_specs=pl.BlockSpec((8, 128), lambda i, rows: (i, 0))))
    want = np.concatenate([x[8 * r:8 * r + 8] for r in order]) * 10
    np.testing.assert_array_equal(call(order, x), want)


@weft.scenario(devices=1, expect="out_of_bounds")
def gather_past_the_end():
    """A prefetched block order naming a block past x's end: the pipeline's fetch of it is out of bounds."""
    x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(32, 128)
    order = np.array([3, 0, 4, 1], np.int32)
    call = pl.pallas_call(
        gather_rows_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1, grid=(4,),
            in_specs=[pl.BlockSpec((8, 128), lambda i, rows: (rows[i], 0))],  # the BlockSpec reports name
            out_specs=pl.BlockSpec((8, 128), lambda i, rows: (i, 0))))
    call(order, x)


def in_place_kernel(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref, add=True)


@weft.scenario(devices=1)
def doubled_in_place():
    """input_output_aliases: the output is the input's buffer, doubled by a sync copy that adds."""
    x = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    call = pl.pallas_call(in_place_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          input_output_aliases={0: 0})
    np.testing.assert_array_equal(call(x), 2 * x)


def masked_tail_kernel(x_ref, o_ref):
    rows = lax.broadcasted_iota(jnp.int32, o_ref.shape, 0)
    o_ref[...] = jnp.zeros(o_ref.shape, jnp.float32)
    kept = rows < 5
    pl.store(o_ref, ..., pl.load(x_ref, ..., mask=kept, other=-1.0), mask=kept)


@weft.scenario(devices=1)
def masked_rows():
    """Masked loads and stores: only the first five rows are copied."""
    x = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    out = pl.pallas_call(masked_tail_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
    want = np.where(np.arange(8)[:, None] < 5, x, 0)
    np.testing.assert_array_equal(out, want)


def scoped_kernel(x_ref, o_ref):
    def body(buffer, sem):
        copy = pltpu.make_async_copy(x_ref, buffer, sem)
        copy.start()
        copy.wait()
        o_ref[...] = buffer[...] + 1

    pl.run_scoped(body, pltpu.VMEM((8, 128), jnp.float32), pltpu.SemaphoreType.DMA)


@weft.scenario(devices=1)
def scoped_copy():
    """pl.run_scoped: a VMEM buffer and a DMA semaphore that live for one call."""
    x = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    out = pl.pallas_call(scoped_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                         in_specs=[pl.BlockSpec(memory_space=pl.ANY)])(x)
    np.testing.assert_array_equal(out, x + 1)


def scoped_late_wait_kernel(x_ref, o_ref):
    kept = []

    def body(buffer, sem):
        copy = pltpu.make_async_copy(x_ref, buffer, sem)
        copy.start()
        kept.append(copy)

    pl.run_scoped(body, pltpu.VMEM((8, 128), jnp.float32), pltpu.SemaphoreType.DMA)
    kept[0].wait()


@weft.scenario(devices=1, expect="dma_in_flight", dma="on_wait")
def scoped_copy_waited_too_late():
    """The copy into a scoped buffer is waited after the scope ended."""
    x = np.zeros((8, 128), np.float32)
    pl.pallas_call(scoped_late_wait_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                   in_specs=[pl.BlockSpec(memory_space=pl.ANY)])(x)


# Output revisits as a TPU does them (docs/semantics.md §10): the grid (2, 3) maps both values of
# its first axis to one output block, so each block is written back after (0, j) and visited
# again at (1, j) without being read back in; its slot then holds another block's values.
def revisit_call(kernel):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((24, 128), jnp.float32), grid=(2, 3),
                          in_specs=[pl.BlockSpec((8, 128), lambda i, j: (j, 0))],
                          out_specs=pl.BlockSpec((8, 128), lambda i, j: (j, 0)))


def overwrite_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def accumulate_kernel(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = jnp.zeros((8, 128), jnp.float32)

    o_ref[...] += x_ref[...]


@weft.scenario(devices=1)
def revisit_overwriting():
    x = np.arange(24 * 128, dtype=np.float32).reshape(24, 128)
    np.testing.assert_array_equal(revisit_call(overwrite_kernel)(x), x * 2)


@weft.scenario(devices=1, expect="wrong_result")
def revisit_accumulating():
    x = np.arange(24 * 128, dtype=np.float32).reshape(24, 128)
    np.testing.assert_array_equal(revisit_call(accumulate_kernel)(x), x * 2)


@weft.scenario(devices=1, params={"rows": 8, "double": False, "label": "ones", "scales": [1, 2]})
def scaled_by_params(rows, double, label, scales):
    """Parameters of every kind reach the host code as Python values of their kind."""
    assert isinstance(double, bool) and isinstance(label, str) and isinstance(scales, list), (double, label, scales)
    factor = (2 if double else 1) * int(np.prod(scales))
    x = np.ones((rows, 128), np.float32) if label == "ones" else np.arange(rows * 128, dtype=np.float32).reshape(rows, 128)
    call = pl.pallas_call(lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] * factor),
                          out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))
    np.testing.assert_array_equal(call(x), x * 6)  # the tests give double and scales a product of 6
