"""Programs of several launches in Python (docs/python.md, "Programs"): host code whose
pallas_calls, pl.kernel and pl.core_map launches pass results to each other, and the
crossed-launch bug a second kernel without an entry handshake has."""

import functools

import numpy as np

import weft
from weft.jax import jax, lax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu

ROWS, COLS = 8, 128


def _ring(devices):
    return jax.make_mesh((devices,), ("x",))


def scale_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def shift_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def _blocked(kernel, shape):
    spec = pl.BlockSpec((ROWS, COLS), lambda i: (i, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(shape, jnp.float32), grid=(shape[0] // ROWS,),
                          in_specs=[spec], out_specs=spec)


@weft.scenario(devices=2, cores_per_device=1)
def two_kernels_in_a_row():
    """Two different pallas_calls, the second on the first's result, as a jitted program runs them."""
    x = np.arange(4 * ROWS * COLS, dtype=np.float32).reshape(4 * ROWS, COLS)
    y = _blocked(scale_kernel, x.shape)(x)
    z = _blocked(shift_kernel, x.shape)(y)
    np.testing.assert_array_equal(z, 2 * x + 1)
    np.testing.assert_array_equal(y, 2 * x)


def permute_kernel(x_ref, out_ref, send_sem, recv_sem, *, step, handshake):
    """Sends this device's block `step` devices to the right around the ring."""
    devices = lax.psum(1, "x")
    me = lax.axis_index("x")
    if handshake:  # both neighbours have entered this kernel: nothing of ours lands in their last one
        barrier = pltpu.get_barrier_semaphore()
        pl.semaphore_signal(barrier, 1, device_id=(lax.rem(me + 1, devices),))
        pl.semaphore_signal(barrier, 1, device_id=(lax.rem(me + devices - 1, devices),))
        pl.semaphore_wait(barrier, 2)
    copy = pltpu.make_async_remote_copy(x_ref, out_ref, send_sem, recv_sem, device_id=(lax.rem(me + step, devices),))
    copy.start()
    copy.wait_send()
    copy.wait_recv()


def _permute(step, handshake):
    kernel = functools.partial(permute_kernel, step=step, handshake=handshake)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((ROWS, COLS), jnp.float32),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          scratch_shapes=[pltpu.SemaphoreType.DMA] * 2,
                          compiler_params=pltpu.CompilerParams(collective_id=0))


@weft.scenario(devices=3, params={"handshake": 1})
def right_then_left(handshake):
    """A right permute, then a left one on its result: the left permute's handshake keeps a device
    that enters it early from sending into a neighbour still in the right permute."""
    devices = len(jax.devices())
    x = np.arange(devices * ROWS * COLS, dtype=np.float32).reshape(devices * ROWS, COLS)

    def both(block):
        moved = _permute(1, True)(block)
        return _permute(devices - 1, handshake == 1)(moved)

    out = jax.shard_map(both, mesh=_ring(devices), in_specs=jax.P("x"), out_specs=jax.P("x"), check_vma=False)(x)
    np.testing.assert_array_equal(out, x)


def swap_cores_kernel(in_hbm, out_hbm, in_vmem, scratch_vmem, out_vmem, sem, send_sem, recv_sem):
    """The core_map guide's shape: each core takes its half of the columns, swaps it with the
    other core and writes it back doubled."""
    core = lax.axis_index("core")
    cores = lax.axis_size("core")
    width = in_hbm.shape[-1] // cores
    columns = pl.ds(core * width, width)
    pltpu.async_copy(in_hbm.at[:, columns], in_vmem, sem).wait()
    other = lax.rem(core + 1, cores)
    barrier = pltpu.get_barrier_semaphore()
    pl.semaphore_signal(barrier, 1, device_id={"core": other})
    pl.semaphore_wait(barrier, 1)
    copy = pltpu.make_async_remote_copy(in_vmem, scratch_vmem, send_sem, recv_sem, device_id={"core": other})
    copy.start()
    copy.wait()
    out_vmem[...] = scratch_vmem[...] * 2
    pltpu.async_copy(out_vmem, out_hbm.at[:, columns], sem).wait()


@weft.scenario(devices=2, cores_per_device=2)
def swap_cores():
    """pl.core_map over a TensorCore mesh, its HBM refs made by jax.new_ref inside shard_map."""
    devices = len(jax.devices())
    mesh = jax.make_mesh((devices,), ("device",))
    tc_mesh = pltpu.create_tensorcore_mesh("core")
    x = np.arange(devices * 8 * 256, dtype=np.float32).reshape(devices * 8, 256)

    def swap(block):
        x_hbm_ref = jax.new_ref(block)
        o_hbm_ref = jax.new_ref(lax.empty(block.shape, block.dtype))

        @pl.core_map(tc_mesh, compiler_params=pltpu.CompilerParams(collective_id=0))
        def _():
            pl.run_scoped(functools.partial(swap_cores_kernel, x_hbm_ref, o_hbm_ref),
                          *([pltpu.VMEM((8, 128), jnp.float32)] * 3), *([pltpu.SemaphoreType.DMA] * 3))
        return o_hbm_ref[...]

    y = jax.shard_map(swap, mesh=mesh, in_specs=jax.P("device", None), out_specs=jax.P("device", None),
                      check_vma=False)(x)
    np.testing.assert_array_equal(y[:, 128:], x[:, :128] * 2)
    np.testing.assert_array_equal(y[:, :128], x[:, 128:] * 2)


@weft.scenario(devices=1)
def launch_after_read():
    """Host code that reads a result and then launches again (one program per execution)."""
    x = np.ones((ROWS, COLS), dtype=np.float32)
    y = _blocked(scale_kernel, x.shape)(x)
    assert float(y[0, 0]) == 2.0
    _blocked(shift_kernel, x.shape)(y)


def _in_place(kernel, shape):
    spec = pl.BlockSpec((ROWS, COLS), lambda i: (i, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(shape, jnp.float32), grid=(shape[0] // ROWS,),
                          in_specs=[spec], out_specs=spec, input_output_aliases={0: 0})


@weft.scenario(devices=1, params={"read_earlier": 0})
def update_in_place(read_earlier):
    """A second launch that updates the first's result in place; reading the earlier value after
    it is refused (weft keeps a buffer's last contents only)."""
    x = np.ones((ROWS, COLS), dtype=np.float32)
    y = _blocked(scale_kernel, x.shape)(x)
    z = _in_place(shift_kernel, x.shape)(y)
    np.testing.assert_array_equal(z, 3 * x)
    if read_earlier:
        np.testing.assert_array_equal(y, 2 * x)


@weft.scenario(devices=1)
def raises_before_reading():
    """Host code that fails after launching, before reading: reported once the program has run."""
    x = np.ones((ROWS, COLS), dtype=np.float32)
    _blocked(scale_kernel, x.shape)(x)
    raise ValueError("the host gave up")
