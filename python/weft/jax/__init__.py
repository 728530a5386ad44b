"""What Pallas kernels and their host code use of ``jax``, on numpy, for weft.

    from weft.jax import jax, lax, jnp
    from weft.jax.experimental import pallas as pl
    from weft.jax.experimental.pallas import tpu as pltpu

``jax.jit`` is the identity (weft runs the function as it is written); ``ShapeDtypeStruct``,
``make_mesh``, ``sharding`` and ``experimental.shard_map`` launch a kernel SPMD over weft's
simulated devices. Anything else of JAX fails at once, naming what is missing.
"""

import sys

from . import numpy, lax, sharding  # noqa: F401
from ._host_api import ShapeDtypeStruct, jit, make_mesh, devices, device_count  # noqa: F401
from .sharding import Mesh  # noqa: F401

jax = sys.modules[__name__]
jnp = numpy


def __getattr__(name):
    raise AttributeError(f"weft.jax has no '{name}': weft models what Pallas kernels and their launch use of "
                         f"jax (docs/python.md lists it)")
