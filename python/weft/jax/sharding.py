"""``jax.sharding`` as a shard_map launch uses it: a mesh of the simulated devices, and how an
array's dimensions are split over its axes."""

import numpy as _np


def coordinates(device, shape):
    """Device `device`'s coordinates in a mesh of `shape`: row-major, as weft's topology numbers
    devices (the last axis varies fastest)."""
    coords = []
    for size in reversed(shape):
        coords.append(device % size)
        device //= size
    return tuple(reversed(coords))


class Mesh:
    """Devices laid out along named axes; device ids are row-major over the axes, as weft's
    topology numbers them."""

    def __init__(self, devices, axis_names):
        if isinstance(devices, tuple) and all(isinstance(n, int) for n in devices):
            self.shape_tuple = devices
        else:
            self.shape_tuple = tuple(_np.asarray(devices, dtype=object).shape)
        self.axis_names = tuple(axis_names)
        if len(self.shape_tuple) != len(self.axis_names):
            raise ValueError(f"a mesh of shape {self.shape_tuple} with axis names {self.axis_names}")

    @property
    def shape(self):
        return dict(zip(self.axis_names, self.shape_tuple))

    @property
    def size(self):
        return int(_np.prod(self.shape_tuple))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class PartitionSpec(tuple):
    """Per array dimension, the mesh axis (or axes, or None) it is split over."""

    def __new__(cls, *entries):
        return super().__new__(cls, entries)


P = PartitionSpec


class NamedSharding:
    def __init__(self, mesh, spec):
        self.mesh = mesh
        self.spec = spec
