"""The host side of ``jax`` that a Pallas launch uses: shapes, ``jit`` and devices."""

import numpy as np

from .. import _dtypes

# ``jax.Array``, for the annotations host code writes (``def f(x: jax.Array) -> jax.Array``):
# weft's host values are numpy arrays, and a launch's results read as them.
Array = np.ndarray


class ShapeDtypeStruct:
    """The shape and element type of an output (``jax.ShapeDtypeStruct``)."""

    def __init__(self, shape, dtype, sharding=None):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = dtype
        _dtypes.weft_name(dtype)  # an element type weft has, or a TypeError naming it

    @classmethod
    def like(cls, x):
        """The shape and element type of `x` (an array, a ref or another ShapeDtypeStruct)."""
        return cls(x.shape, x.dtype)

    def __repr__(self):
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype})"


def jit(function=None, **_options):
    """weft runs the function as written: jit is the identity (also as a decorator)."""
    return function if function is not None else (lambda f: f)


def block_until_ready(x):
    """weft's results are read when the host reads them: nothing to wait for."""
    return x


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    """The value as it is: a launch places its inputs on weft's devices (device by device under
    shard_map)."""
    return x


def devices():
    """The simulated devices of the running execution (while weft reads a script, those of the
    default configuration)."""
    import greenlet
    from .. import _host
    execution = _host.current_execution()
    count = execution.devices if execution is not None else getattr(greenlet.getcurrent(), "weft_script_devices", 1)
    return [Device(i) for i in range(count)]


def device_count():
    return len(devices())


local_device_count = device_count  # one host holds every simulated device


class Device:
    """A simulated device; its kind says what weft models (a TPU's cores, memories, DMAs and
    semaphores), as host code that checks for a TPU reads it."""

    device_kind = "TPU (weft, simulated)"
    platform = "tpu"

    def __init__(self, id):
        self.id = id

    def __repr__(self):
        return f"weft device {self.id}"


def make_mesh(axis_shapes, axis_names, **_options):
    from .sharding import Mesh
    return Mesh(tuple(int(n) for n in axis_shapes), tuple(axis_names))
