"""What Pallas kernels and their host code use of ``jax``, on numpy, for weft.

    from weft.jax import jax, lax, jnp
    from weft.jax.experimental import pallas as pl
    from weft.jax.experimental.pallas import tpu as pltpu

``jax.jit``, ``block_until_ready`` and ``device_put`` are the identity (weft runs the function as
it is written); ``random`` makes inputs (weft's own stream, JAX's names); ``ShapeDtypeStruct``,
``make_mesh``, ``sharding``, ``shard_map`` (also ``experimental.shard_map``) and ``P`` launch a
kernel SPMD over weft's simulated devices; ``new_ref`` makes the HBM refs a ``pl.core_map``
kernel closes over; ``vmap`` batches a ``pallas_call`` as one launch (_vmap.py). Anything else of JAX
fails at once, naming what is missing.
"""

import sys

from . import numpy, lax, nn, random, sharding  # noqa: F401
from ._host_api import (Array, ShapeDtypeStruct, block_until_ready, device_count, device_put,  # noqa: F401
                        devices, jit, local_device_count, make_mesh)
from .sharding import Mesh, PartitionSpec as P  # noqa: F401
from .experimental.shard_map import shard_map  # noqa: F401
from .._host_refs import new_ref  # noqa: F401
from ._vmap import vmap  # noqa: F401
from .._missing_name import MissingName as _MissingName

jax = sys.modules[__name__]
jnp = numpy


def __getattr__(name):
    raise _MissingName("jax", name, "weft models what Pallas kernels and their launch use of jax: docs/python.md "
                                    "lists it")
