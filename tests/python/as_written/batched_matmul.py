"""A tiled matmul batched with jax.vmap, as a Pallas author batches one: the first operand mapped
on its leading axis, the second shared by every example (in_axes=(0, None)); the kernel counts
its reduction steps with pl.program_id(2) and pl.num_programs(2), which under vmap are the
kernel's own grid dimensions, not the batch's. Its reference is computed with jax.vmap too."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import random
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def accumulate_product(a_ref, b_ref, c_ref, sum_ref, *, bias):
    step = pl.program_id(2)

    @pl.when(step == 0)
    def _start():
        sum_ref[...] = jnp.zeros(sum_ref.shape, jnp.float32)

    sum_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

    @pl.when(step == pl.num_programs(2) - 1)
    def _finish():
        c_ref[...] = sum_ref[...] + bias


def tiled_matmul(a, b, *, bias, tile=128):
    rows, depth = a.shape
    cols = b.shape[1]
    return pl.pallas_call(
        functools.partial(accumulate_product, bias=bias),
        grid=(rows // tile, cols // tile, depth // tile),
        in_specs=[pl.BlockSpec((tile, tile), lambda r, c, k: (r, k)),
                  pl.BlockSpec((tile, tile), lambda r, c, k: (k, c))],
        out_specs=pl.BlockSpec((tile, tile), lambda r, c, k: (r, c)),
        out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32),
        scratch_shapes=[pltpu.VMEM((tile, tile), jnp.float32)],
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
    )(a, b)


key_a, key_b = random.split(random.key(7))
a = random.normal(key_a, (3, 128, 256))
b = random.uniform(key_b, (256, 256), minval=-1.0, maxval=1.0)
c = jax.vmap(functools.partial(tiled_matmul, bias=0.5), in_axes=(0, None))(a, b)
assert c.shape == (3, 128, 256)
reference = jax.vmap(lambda x: x @ b + 0.5)(a)
np.testing.assert_allclose(c, reference, rtol=1e-4, atol=1e-3)
