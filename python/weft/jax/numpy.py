"""``jax.numpy`` for kernel bodies and host code: numpy's functions with JAX's default types, with
``bfloat16`` as weft holds it and the few names whose JAX spelling differs.

JAX computes in 32 bits unless x64 is enabled (and a TPU kernel has no 64-bit types): every
array or scalar a ``jnp`` function returns is canonicalized as JAX does it, float64 to float32,
int64 to int32, uint64 to uint32, complex128 to complex64, so that ``jnp.arange(8)`` and
``jnp.ones((8, 128))`` are the int32 and float32 arrays a Pallas author expects.
"""

import functools

import numpy as _np

from .._dtypes import bfloat16  # noqa: F401
from .._missing_name import MissingName as _MissingName

_CANONICAL = {_np.dtype(_np.float64): _np.float32, _np.dtype(_np.int64): _np.int32,
              _np.dtype(_np.uint64): _np.uint32, _np.dtype(_np.complex128): _np.complex64}


def _canonical(value):
    if isinstance(value, (_np.ndarray, _np.generic)):
        narrower = _CANONICAL.get(value.dtype)
        return value.astype(narrower) if narrower is not None else value
    if isinstance(value, tuple):
        return tuple(_canonical(part) for part in value)
    return value


def _jax_typed(function):
    @functools.wraps(function)
    def typed(*args, **kwargs):
        return _canonical(function(*args, **kwargs))
    return typed


def __getattr__(name):
    try:
        value = getattr(_np, name)
    except AttributeError:
        raise _MissingName("jax.numpy", name, "it is numpy's namespace") from None
    if callable(value) and not isinstance(value, type):
        value = _jax_typed(value)
        globals()[name] = value  # made once
    return value


@_jax_typed
def dot(a, b, preferred_element_type=None, precision=None):
    result = _np.dot(a, b)
    return result.astype(preferred_element_type) if preferred_element_type is not None else result


def astype(x, dtype):
    from .._dtypes import round_bf16, weft_name
    if weft_name(dtype) == "bf16":
        return round_bf16(x)
    return _canonical(_np.asarray(x).astype(dtype))


def _like(function):
    def like(a, *args, dtype=None, shape=None, **kwargs):
        if hasattr(a, "at") and hasattr(a, "shape"):  # a ref: its shape and element type, as JAX takes it
            return _canonical(function(a.shape if shape is None else shape, *args, dtype=dtype or a.dtype, **kwargs))
        return _canonical(getattr(_np, function.__name__ + "_like")(a, *args, dtype=dtype, shape=shape, **kwargs))
    return like


zeros_like = _like(_np.zeros)
ones_like = _like(_np.ones)
full_like = _like(_np.full)
empty_like = _like(_np.zeros)
float32 = _np.float32
int32 = _np.int32
