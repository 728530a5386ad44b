# A kernel file that prints, as authors debug with it: pl.debug_print in the body, print in the
# host code. Both cores write the whole output (its index map gives every grid point block 0),
# so with race detection off the result is the core that wrote back last: 0s or 1s, depending
# on the schedule.
import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    pl.debug_print("grid point {} sums {}", pl.program_id(0), x_ref[...].sum())
    o_ref[...] = jnp.full(o_ref.shape, pl.program_id(0), jnp.float32)


x = jnp.arange(16, dtype=jnp.float32)
out = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32), grid=(2,),
                     in_specs=[pl.BlockSpec((8,), lambda i: (i,))], out_specs=pl.BlockSpec((8,), lambda i: (0,)),
                     compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))(x)
print("the output holds", out[0])
print("the output holds", out[0])
