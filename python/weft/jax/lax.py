"""``jax.lax`` as kernel bodies use it (the device's index along a mesh axis, integer arithmetic
and structured control flow, run eagerly), and the collectives host code computes a reference
with in a shard_map body (experimental/shard.py)."""

import numpy as _np

from .experimental import shard as _shard
from .._missing_name import MissingName as _MissingName


def axis_index(axis_name):
    """This device's coordinate along `axis_name` of the shard_map mesh (or the core's index
    along a core_map's core axis); in a shard_map body, every device's."""
    from .. import _kernel
    if not _kernel.running():
        return _shard.axis_index(axis_name)
    context = _kernel.current()
    names = context.launch.context.get("axis_names", ())
    if axis_name in names:
        axis = names.index(axis_name)
        coordinate = context.device
        mesh = context.launch.context["mesh_shape"]
        for later in range(len(mesh) - 1, axis, -1):
            coordinate //= mesh[later]
        return coordinate % mesh[axis]
    if axis_name == context.launch.context.get("core_axis"):
        return context.core_index
    raise NameError(f"unbound axis name: {axis_name} (the mesh's axes are {tuple(names)})")


def axis_size(axis_name):
    """The number of devices along `axis_name` of the shard_map mesh (or of cores along a
    core_map's core axis)."""
    from .. import _kernel
    context = _kernel.current()
    names = context.launch.context.get("axis_names", ())
    if axis_name in names:
        return context.launch.context["mesh_shape"][names.index(axis_name)]
    if axis_name == context.launch.context.get("core_axis"):
        return context.cores
    raise NameError(f"unbound axis name: {axis_name}")


def empty(shape, dtype, *, out_sharding=None):
    """``lax.empty``: an array nobody wrote, for ``jax.new_ref`` (uninitialized in hbm)."""
    from .._host_refs import Empty
    return Empty(shape, dtype)


def psum(x, axis_name):
    """In a shard_map body, the sum over the axis of every device's part. In a kernel body, of a
    value every device holds alike: `lax.psum(1, "x")` is the axis' size (the one use of a
    collective in a kernel body weft models)."""
    from .. import _kernel
    if not _kernel.running():
        return _shard.reduce(x, axis_name, _np.add)
    if isinstance(x, (int, float)):
        context = _kernel.current()
        if axis_name == context.launch.context.get("core_axis"):
            return x * context.cores
        return x * axis_size(axis_name)
    raise NotImplementedError("lax.psum of a value that differs between devices, in a kernel body")


def pmax(x, axis_name):
    return _shard.reduce(x, axis_name, _np.maximum)


def pmin(x, axis_name):
    return _shard.reduce(x, axis_name, _np.minimum)


pmean = _shard.mean
all_gather = _shard.all_gather
psum_scatter = _shard.psum_scatter
ppermute = _shard.ppermute


def rem(x, y):
    """The remainder with the sign of `x`, as C's (and lax.rem)."""
    return _np.fmod(x, y)


def div(x, y):
    return int(x / y)


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value


def while_loop(cond_fun, body_fun, init_val):
    value = init_val
    while cond_fun(value):
        value = body_fun(value)
    return value


def cond(pred, true_fun, false_fun, *operands):
    return true_fun(*operands) if pred else false_fun(*operands)


def select(pred, on_true, on_false):
    return _np.where(pred, on_true, on_false)


def broadcasted_iota(dtype, shape, dimension):
    shape = tuple(shape)
    index = _np.arange(shape[dimension], dtype=dtype)
    view = [1] * len(shape)
    view[dimension] = shape[dimension]
    return _np.broadcast_to(index.reshape(view), shape).copy()


def _starts(operand, start_indices, sizes):
    # As XLA does: each start clamped so that the slice stays inside the operand.
    return [min(max(int(start), 0), extent - size) for start, extent, size in zip(start_indices, operand.shape, sizes)]


def dynamic_slice(operand, start_indices, slice_sizes):
    """The block of `slice_sizes` at `start_indices`, starts clamped into the operand."""
    operand = _np.asarray(operand)
    starts = _starts(operand, start_indices, slice_sizes)
    return operand[tuple(slice(start, start + size) for start, size in zip(starts, slice_sizes))].copy()


def dynamic_update_slice(operand, update, start_indices):
    """A copy of `operand` with `update` written at `start_indices`, starts clamped."""
    operand, update = _np.array(operand), _np.asarray(update)
    starts = _starts(operand, start_indices, update.shape)
    operand[tuple(slice(start, start + size) for start, size in zip(starts, update.shape))] = update
    return operand


def __getattr__(name):
    raise _MissingName("jax.lax", name)
