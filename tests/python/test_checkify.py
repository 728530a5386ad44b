"""jax.experimental.checkify and lax.dynamic_slice as host code and kernel bodies use them
(weft/jax/experimental/checkify.py, docs/python.md)."""

import numpy as np
import pytest

import weft
from weft.jax import jnp, lax
from weft.jax.experimental import checkify
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu


@checkify.checkify
def halve(x, divisor):
    checkify.check(divisor != 0, "divisor {} must not be 0", divisor)
    checkify.check(x.sum() >= 0, "x must not sum below 0")
    return x / max(divisor, 1)


def test_a_wrapped_function_returns_its_first_failed_check_and_throws_it():
    error, result = halve(np.ones(4), 2)
    assert error.get() is None and np.array_equal(result, np.full(4, 0.5))
    error.throw()  # nothing failed: nothing raised
    error, _ = halve(-np.ones(4), 0)
    assert error.get() == "divisor 0 must not be 0"
    with pytest.raises(checkify.JaxRuntimeError, match="divisor 0"):
        error.throw()


def test_a_check_outside_a_wrapped_function_raises_at_once():
    with pytest.raises(checkify.JaxRuntimeError, match="too small"):
        checkify.check(np.array([1, 0]) > 0, "too small")


def test_dynamic_slice_clamps_its_starts_as_xla_does():
    x = np.arange(16).reshape(4, 4)
    assert np.array_equal(lax.dynamic_slice(x, (1, 2), (2, 2)), x[1:3, 2:4])
    assert np.array_equal(lax.dynamic_slice(x, (3, -1), (2, 2)), x[2:4, 0:2])
    updated = lax.dynamic_update_slice(x, np.zeros((2, 2), int), (3, 3))
    assert np.array_equal(updated[2:, 2:], np.zeros((2, 2))) and np.array_equal(x, np.arange(16).reshape(4, 4))


def _checked_copy_kernel(x_ref, o_ref):
    x = x_ref[...]
    checkify.check(x.min() >= 0, "negative input {}", x.min())
    o_ref[...] = x


def _checked_copy(x):
    return pl.pallas_call(_checked_copy_kernel, out_shape=jnp.zeros_like(x))(x)


@weft.scenario(devices=1)
def checked_copy_of_positives():
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(_checked_copy(x), x)


@weft.scenario(devices=1)
def checked_copy_of_negatives():
    _checked_copy(np.arange(8, dtype=np.float32) - 4).block_until_ready()


def test_a_failed_check_in_a_kernel_body_is_a_kernel_error_naming_it():
    assert weft.run(checked_copy_of_positives).ok
    result = weft.run(checked_copy_of_negatives)
    assert "verdict:  kernel_error" in result.report and "negative input -4.0" in result.report, result.report
