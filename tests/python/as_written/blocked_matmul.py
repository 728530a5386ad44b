"""A blocked matmul written as a Pallas author writes one, its imports of jax included (weft
reads them as its stand-ins: docs/python.md), with inputs from jax.random."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import random
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def block_product(a_ref, b_ref, c_ref, sum_ref):
    k = pl.program_id(2)

    @pl.when(k == 0)
    def _start():
        sum_ref[...] = jnp.zeros(sum_ref.shape, jnp.float32)

    sum_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

    @pl.when(k == pl.num_programs(2) - 1)
    def _finish():
        c_ref[...] = sum_ref[...]


def tiled_matmul(a, b, tile=128):
    rows, depth = a.shape
    cols = b.shape[1]
    return pl.pallas_call(
        block_product,
        grid=(rows // tile, cols // tile, depth // tile),
        in_specs=[pl.BlockSpec((tile, tile), lambda r, c, k: (r, k)),
                  pl.BlockSpec((tile, tile), lambda r, c, k: (k, c))],
        out_specs=pl.BlockSpec((tile, tile), lambda r, c, k: (r, c)),
        out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32),
        scratch_shapes=[pltpu.VMEM((tile, tile), jnp.float32)],
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
    )(a, b)


key_a, key_b = random.split(random.key(42))
a = random.normal(key_a, (256, 384))
b = random.uniform(key_b, (384, 256), minval=-1.0, maxval=1.0)
c = jax.block_until_ready(jax.jit(tiled_matmul)(a, b))
np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-3)
