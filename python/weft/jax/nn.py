"""``jax.nn``'s activations, for kernel bodies and the references host code computes, on numpy
with JAX's 32-bit types (numpy.py)."""

from . import numpy as _jnp
from .._missing_name import MissingName as _MissingName


def relu(x):
    return _jnp.maximum(x, 0)


def relu6(x):
    return _jnp.minimum(_jnp.maximum(x, 0), 6)


def sigmoid(x):
    return 1 / (1 + _jnp.exp(-_jnp.asarray(x)))


def silu(x):
    return x * sigmoid(x)


swish = silu


def gelu(x, approximate=True):
    x = _jnp.asarray(x)
    if approximate:
        return 0.5 * x * (1 + _jnp.tanh(_jnp.sqrt(2 / _jnp.pi) * (x + 0.044715 * x ** 3)))
    from math import erf
    return 0.5 * x * (1 + _jnp.vectorize(erf)(x / _jnp.sqrt(2)))


def softmax(x, axis=-1):
    shifted = _jnp.exp(x - _jnp.max(x, axis=axis, keepdims=True))
    return shifted / _jnp.sum(shifted, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    shifted = x - _jnp.max(x, axis=axis, keepdims=True)
    return shifted - _jnp.log(_jnp.sum(_jnp.exp(shifted), axis=axis, keepdims=True))


def one_hot(x, num_classes, dtype=_jnp.float32, axis=-1):
    x = _jnp.asarray(x)
    hot = (x[..., None] == _jnp.arange(num_classes)).astype(dtype)
    return _jnp.moveaxis(hot, -1, axis)


def __getattr__(name):
    raise _MissingName("jax.nn", name)
