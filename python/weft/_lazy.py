"""What a program's launches computed, before it has run (docs/python.md, "Programs").

A launch made by host code does not run at once: the host code goes on, and its launches form
the execution's program, which the engine runs when the host code first reads a result (or
ends). A result is lazy until then. Passed to a later launch as it is, a result is the same HBM
buffer on every device, as an XLA program passes one launch's output to the next, so nothing
orders the devices' launches but the kernels' own synchronisation. Read by the host (numpy, an
assertion, ``np.asarray``), it runs the program first and is then an ordinary numpy array.

- ``DeviceResult``: one device's contents of one buffer (an output, or a ``jax.new_ref``), as
  the program left it; an index narrows it.
- ``ReplicatedResult``: what a launch outside ``shard_map`` returns, every device's result;
  the host sees device 0's.
- ``ShardedResult``: what a ``shard_map`` returns, every device's part joined as its
  ``out_specs`` say.
"""

import numpy as np

from ._frames import caller as _caller


class Lazy:
    """A value the program computes: shape and dtype known now, contents once it has run."""

    shape = ()
    dtype = None

    def value(self):
        raise NotImplementedError

    def per_device(self):
        """Every device's part, for a later launch (None: it has none of its own per device)."""
        return None

    def __array__(self, dtype=None, copy=None):
        array = self.value()
        return array.astype(dtype) if dtype is not None else array

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape))

    def __len__(self):
        return self.shape[0]

    def __repr__(self):  # as JAX shows an Array: Array([0., 2.], dtype=float32)
        text = repr(np.asarray(self.value()))
        return "Array" + text[len("array"):] if text.startswith("array") else text

    def __str__(self):  # numpy's, as JAX's str of an Array: [0. 2.]
        return str(np.asarray(self.value()))

    def __getattr__(self, name):  # numpy's attributes only: a probe for anything else reads nothing
        if name.startswith("_") or not hasattr(np.ndarray, name):
            raise AttributeError(name)
        return getattr(self.value(), name)


def _delegate(name):
    def method(self, *args):
        return getattr(self.value(), name)(*args)
    method.__name__ = name
    return method


for _name in ("__getitem__", "__iter__", "__bool__", "__float__", "__int__", "__index__", "__neg__", "__pos__",
              "__abs__", "__invert__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
              "__rpow__", "__matmul__", "__rmatmul__", "__and__", "__rand__", "__or__", "__ror__", "__xor__",
              "__rxor__", "__lshift__", "__rshift__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(Lazy, _name, _delegate(_name))
Lazy.__hash__ = None


class DeviceResult(Lazy):
    """Device `device`'s contents of buffer `buffer` when the program has run (`index`: a part;
    `made_by`: the number and line of the launch whose output it is, None for a ref)."""

    def __init__(self, execution, buffer, device, shape, dtype, index=None, made_by=None):
        self.execution = execution
        self.made_by = made_by
        self.buffer = buffer
        self.device = device
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.index = index

    def value(self):
        whole = self.execution.result(self.buffer, self.device, _caller(), self.made_by)
        return whole if self.index is None else whole[self.index]


class ReplicatedResult(Lazy):
    """A launch's output on every device, as a launch outside shard_map returns it: the host
    sees device 0's; a later launch takes each device's own."""

    def __init__(self, parts):
        self.parts = list(parts)
        self.shape = self.parts[0].shape
        self.dtype = self.parts[0].dtype

    def value(self):
        return self.parts[0].value()

    def per_device(self):
        return self.parts


class ShardedResult(Lazy):
    """The devices' parts joined as a shard_map's out_specs say (`join` makes the array)."""

    def __init__(self, parts, spec, mesh, join, shape):
        self.parts = list(parts)
        self.spec = spec
        self.mesh = mesh
        self._join = join
        self.shape = tuple(shape)
        self.dtype = self.parts[0].dtype

    def value(self):
        return self._join([part.value() for part in self.parts])

    def split_as(self, spec, mesh):
        """The parts, when a shard_map splits this result over the same mesh as it was joined."""
        same = mesh.axis_names == self.mesh.axis_names and mesh.shape_tuple == self.mesh.shape_tuple
        return self.parts if same and tuple(spec or ()) == tuple(self.spec or ()) else None
