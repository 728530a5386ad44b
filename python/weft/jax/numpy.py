"""``jax.numpy`` for kernel bodies: numpy itself, with ``bfloat16`` as weft holds it and the few
names whose JAX spelling differs."""

import numpy as _np

from .._dtypes import bfloat16  # noqa: F401


def __getattr__(name):
    try:
        return getattr(_np, name)
    except AttributeError:
        raise AttributeError(f"weft.jax.numpy has no '{name}' (it is numpy's namespace)") from None


def dot(a, b, preferred_element_type=None, precision=None):
    result = _np.dot(a, b)
    return result.astype(preferred_element_type) if preferred_element_type is not None else result


def astype(x, dtype):
    from .._dtypes import round_bf16, weft_name
    if weft_name(dtype) == "bf16":
        return round_bf16(x)
    return _np.asarray(x).astype(dtype)


def _like(function):
    def like(a, *args, dtype=None, shape=None, **kwargs):
        if hasattr(a, "at") and hasattr(a, "shape"):  # a ref: its shape and element type, as JAX takes it
            return function(a.shape if shape is None else shape, *args, dtype=dtype or a.dtype, **kwargs)
        return getattr(_np, function.__name__ + "_like")(a, *args, dtype=dtype, shape=shape, **kwargs)
    return like


zeros_like = _like(_np.zeros)
ones_like = _like(_np.ones)
full_like = _like(_np.full)
empty_like = _like(_np.zeros)
float32 = _np.float32
int32 = _np.int32
