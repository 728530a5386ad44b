"""``jax.vmap``: a function mapped over a batch axis of its arguments.

The function runs once, on ``Batched`` stand-ins: each looks like one example (its shape leaves
out the batch axis) and holds the whole batch. What it does with them:

- a ``pallas_call`` launched on one becomes one launch over the whole batch, as JAX's batching
  rule makes it: the grid gets a leading dimension over the batch, ``parallel``; each batched
  operand's block gets a squeezed dimension at its batch axis, indexed by that grid dimension;
  outputs are batched on axis 0; ``pl.program_id`` and ``pl.num_programs`` in the kernel see the
  grid without it (pallas/__init__.py, ``PallasCall.batched``);
- numpy on it (operators, ``jnp`` functions, methods, indexing) is computed example by example
  and stacked on axis 0.

The result's batched parts come back with their batch on ``out_axes`` (0 by default).
"""

import numpy as _np
from numpy.lib.mixins import NDArrayOperatorsMixin


class Batched(NDArrayOperatorsMixin):
    """One example of a batch as a vmapped function sees it; `value` holds them all on `axis`."""

    def __init__(self, value, axis):
        full = tuple(value.shape)
        self.value = value
        self.axis = axis
        self.size = full[axis]
        self.shape = full[:axis] + full[axis + 1:]
        self.dtype = value.dtype

    @property
    def ndim(self):
        return len(self.shape)

    def example(self, index):
        return _np.take(_np.asarray(self.value), index, axis=self.axis)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return per_example(getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return per_example(func, args, kwargs)

    def __getitem__(self, index):
        return per_example(lambda example: example[index], (self,), {})

    def __len__(self):
        return self.shape[0]

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        probe = getattr(self.example(0), name)
        if callable(probe):
            return lambda *args, **kwargs: per_example(
                lambda example, *rest, **named: getattr(example, name)(*rest, **named), (self, *args), kwargs)
        return per_example(lambda example: getattr(example, name), (self,), {})

    def __repr__(self):
        return f"Batched(size={self.size}, example shape={self.shape}, dtype={self.dtype})"


def per_example(function, args, kwargs):
    """`function` on each example of the Batched among `args` and `kwargs`, stacked on axis 0."""
    size = batch_size([*args, *kwargs.values()])
    results = [function(*_example_of(args, i), **_example_of(kwargs, i)) for i in range(size)]
    return _stacked(results)


def batch_size(values):
    sizes = {value.size for value in _batched_in(values)}
    if len(sizes) != 1:
        raise ValueError(f"jax.vmap: batched arguments of different sizes {sorted(sizes)}")
    return sizes.pop()


def _batched_in(values):
    for value in values:
        if isinstance(value, Batched):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _batched_in(value)
        elif isinstance(value, dict):
            yield from _batched_in(value.values())


def _example_of(value, index):
    if isinstance(value, Batched):
        return value.example(index)
    if isinstance(value, (list, tuple)):
        return type(value)(_example_of(part, index) for part in value)
    if isinstance(value, dict):
        return {key: _example_of(part, index) for key, part in value.items()}
    return value


def _stacked(results):
    first = results[0]
    if isinstance(first, tuple):
        return tuple(_stacked([result[i] for result in results]) for i in range(len(first)))
    if isinstance(first, (_np.ndarray, _np.generic, int, float, bool, complex)):
        return Batched(_np.stack([_np.asarray(result) for result in results]), 0)
    if all(result == first for result in results):  # the same for every example (a shape, a dtype)
        return first
    raise NotImplementedError(f"jax.vmap: a function whose examples give {type(first).__name__} values weft "
                              f"cannot stack (docs/python.md)")


def _leaves_to_batched(value, axis):
    if axis is None:
        return value
    if isinstance(value, (list, tuple)):
        axes = axis if isinstance(axis, (list, tuple)) else [axis] * len(value)
        return type(value)(_leaves_to_batched(part, part_axis) for part, part_axis in zip(value, axes))
    if not hasattr(value, "shape"):
        value = _np.asarray(value)
    return Batched(value, axis % len(value.shape))


def _unbatched(value, axis):
    if isinstance(value, tuple):
        return tuple(_unbatched(part, axis) for part in value)
    if isinstance(value, list):
        return [_unbatched(part, axis) for part in value]
    if not isinstance(value, Batched):
        return value
    if axis == value.axis:
        return value.value
    return _np.moveaxis(_np.asarray(value.value), value.axis, axis)


def launch(call, arrays):
    """A pallas_call launched on Batched arguments: one launch over the whole batch, its outputs
    batched on axis 0."""
    size = batch_size(arrays)
    axes = [array.axis if isinstance(array, Batched) else None for array in arrays]
    values = [array.value if isinstance(array, Batched) else array for array in arrays]
    examples = [array.shape if isinstance(array, Batched) else _np.shape(array) for array in arrays]
    outputs = call.batched(axes, examples, size)(*values)
    if isinstance(outputs, tuple):
        return tuple(Batched(output, 0) for output in outputs)
    return Batched(outputs, 0)


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """``jax.vmap``: `fun` mapped over axis `in_axes` of its arguments (an int, None: not mapped,
    or one per argument), its results' batch put on `out_axes`."""
    if axis_name is not None or spmd_axis_name is not None:
        raise NotImplementedError("jax.vmap(axis_name=...): collectives over a vmapped axis are not in weft "
                                  "(docs/python.md)")

    def mapped(*args):
        axes = in_axes if isinstance(in_axes, (list, tuple)) else [in_axes] * len(args)
        if len(axes) != len(args):
            raise ValueError(f"jax.vmap: {len(axes)} in_axes for {len(args)} arguments")
        batched = [_leaves_to_batched(arg, axis) for arg, axis in zip(args, axes)]
        if not list(_batched_in(batched)):
            raise ValueError("jax.vmap: no argument is mapped (every in_axes is None)")
        return _unbatched(fun(*batched), out_axes)

    return mapped
