"""Kernels over a TensorCore mesh in the shape of the Pallas TPU quickstart's (newer JAX's names:
``pl.kernel(out_type=, mesh=pltpu.TensorCoreMesh(...), scratch_types=dict(...))``,
``pltpu.get_tpu_info()``, ``emit_pipeline(core_axis_name=, dimension_semantics=)``), written
for weft's tests."""

import numpy as np

import weft
from weft.jax import jax, lax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu


@weft.scenario(devices=1, cores_per_device=2, params={"width": 16})
def ramp_by_core(width):
    cores = pltpu.get_tpu_info().num_cores

    @pl.kernel(out_type=jax.ShapeDtypeStruct((width * cores,), jnp.float32),
               mesh=pltpu.TensorCoreMesh(axis_name="core"),
               scratch_types=dict(part=pltpu.VMEM((width,), jnp.float32)))
    def ramp(o_ref, part):
        core = lax.axis_index("core")
        part[...] = jnp.arange(width, dtype=jnp.float32) + core * width
        pltpu.sync_copy(part, o_ref.at[pl.ds(core * width, width)])

    np.testing.assert_array_equal(ramp(), np.arange(width * cores, dtype=np.float32))


@weft.scenario(devices=1, cores_per_device=2, params={"rows": 32, "block": 8, "split": 1})
def pipelined_scale(rows, block, split):
    x = jnp.arange(rows * 8, dtype=jnp.float32).reshape(rows, 8)

    @pl.kernel(out_type=jax.ShapeDtypeStruct.like(x), mesh=pltpu.TensorCoreMesh(axis_name="core"))
    def scale(x_hbm, o_hbm):
        def body(x_vmem, o_vmem):
            o_vmem[...] = x_vmem[...] * 3

        spec = pl.BlockSpec((block, 8), lambda i, j: (i, j))
        across = dict(core_axis_name="core", dimension_semantics=(pltpu.PARALLEL, pltpu.ARBITRARY)) if split else {}
        pltpu.emit_pipeline(body, grid=(rows // block, 1), in_specs=[spec], out_specs=spec, **across)(x_hbm, o_hbm)

    np.testing.assert_array_equal(scale(x), x * 3)
