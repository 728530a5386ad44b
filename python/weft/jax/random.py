"""``jax.random`` for host code that makes a kernel's inputs (``jax.random.normal(key, shape)``):
keys, splits and the common distributions, with JAX's names, shapes and default dtypes.

The values are weft's, not JAX's threefry stream: a check that compares a kernel's output with a
reference computed from the same inputs holds either way, and a key gives the same values on
every machine and numpy version (a splitmix64 counter stream, made with numpy's integer
arithmetic only), so a reproduce line replays anywhere.
"""

import numpy as _np

_GOLDEN = _np.uint64(0x9E3779B97F4A7C15)


def _mix(z):
    """splitmix64's finaliser, elementwise on uint64 (wrapping arithmetic)."""
    z = (z ^ (z >> _np.uint64(30))) * _np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _np.uint64(27))) * _np.uint64(0x94D049BB133111EB)
    return z ^ (z >> _np.uint64(31))


class Key:
    """A PRNG key: one 64-bit state (``jax.random.key(seed)``)."""

    def __init__(self, state):
        self.state = _np.uint64(state)

    def bits(self, count):
        """`count` 64-bit words of this key's stream."""
        with _np.errstate(over="ignore"):
            counters = (_np.arange(1, count + 1, dtype=_np.uint64) * _GOLDEN) + self.state
            return _mix(counters)

    def __repr__(self):
        return f"weft.jax.random.Key({int(self.state):#018x})"


def key(seed):
    with _np.errstate(over="ignore"):
        return Key(_mix(_np.array([_np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF)]))[0])


PRNGKey = key


def split(key, num=2):
    """`num` new keys (a list: ``k1, k2 = jax.random.split(key)``, ``keys[i]``)."""
    return [Key(word) for word in _mix(key.bits(int(num)))]


def fold_in(key, data):
    with _np.errstate(over="ignore"):
        return Key(_mix(_np.array([key.state ^ _np.uint64(int(data) & 0xFFFFFFFFFFFFFFFF)]))[0])


def _shape(shape):
    return (int(shape),) if _np.ndim(shape) == 0 and shape != () else tuple(int(n) for n in shape)


def _unit(key, shape):
    """Uniform doubles in [0, 1), from the top 53 bits of each word."""
    count = int(_np.prod(shape, dtype=_np.int64))
    return ((key.bits(count) >> _np.uint64(11)).astype(_np.float64) * (1.0 / (1 << 53))).reshape(shape)


def uniform(key, shape=(), dtype=_np.float32, minval=0.0, maxval=1.0):
    shape = _shape(shape)
    return (minval + (maxval - minval) * _unit(key, shape)).astype(dtype)


def normal(key, shape=(), dtype=_np.float32):
    """Standard normal values (Box-Muller on two uniform draws per value)."""
    shape = _shape(shape)
    first, second = split(key)
    u1 = 1.0 - _unit(first, shape)  # (0, 1]: the log is finite
    u2 = _unit(second, shape)
    return (_np.sqrt(-2.0 * _np.log(u1)) * _np.cos(2.0 * _np.pi * u2)).astype(dtype)


def randint(key, shape, minval, maxval, dtype=_np.int32):
    shape = _shape(shape)
    span = int(maxval) - int(minval)
    if span <= 0:
        raise ValueError(f"jax.random.randint: maxval {maxval} must be above minval {minval}")
    count = int(_np.prod(shape, dtype=_np.int64))
    return (int(minval) + (key.bits(count) % _np.uint64(span)).astype(_np.int64)).reshape(shape).astype(dtype)


def bernoulli(key, p=0.5, shape=None):
    shape = _np.shape(p) if shape is None else _shape(shape)
    return _unit(key, shape) < p
