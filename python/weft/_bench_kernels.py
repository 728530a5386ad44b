"""The workloads of `weft bench`'s Python figures: the ring all-gather of the C++ scenario
`ring_all_gather` (scenarios/kernels/ring_all_gather.cpp), written as a Pallas kernel."""

import numpy as np

import weft
from weft.jax import jax, lax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu
from weft.jax.experimental.shard_map import shard_map
from weft.jax.sharding import PartitionSpec as P


def ring_all_gather_kernel(x_ref, out_ref, local_sem, send_sem, recv_sems):
    devices = lax.psum(1, "x")
    me = lax.axis_index("x")
    right = lax.rem(me + 1, devices)
    pltpu.async_copy(x_ref, out_ref.at[me], local_sem).wait()
    for step in range(devices - 1):
        slot = lax.rem(me - step + devices, devices)
        copy = pltpu.make_async_remote_copy(out_ref.at[slot], out_ref.at[slot], send_sem, recv_sems.at[step],
                                            device_id=(right,))
        copy.start()
        copy.wait()


@weft.scenario(devices=8, params={"rows": 8, "cols": 128})
def ring_all_gather(rows, cols):
    devices = len(jax.devices())
    x = np.arange(devices * rows * cols, dtype=np.float32).reshape(devices * rows, cols)
    call = pl.pallas_call(ring_all_gather_kernel, out_shape=jax.ShapeDtypeStruct((devices, rows, cols), jnp.float32),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA,
                                          pltpu.SemaphoreType.DMA((devices - 1,))])
    out = shard_map(call, mesh=jax.make_mesh((devices,), ("x",)), in_specs=P("x"), out_specs=P("x"))(x)
    np.testing.assert_array_equal(out.reshape(devices, devices * rows, cols)[0], x)
