"""pl.Buffered(n) on a BlockSpec (the pipeline's buffer count per operand) and blocks that
overhang their array, as the C++ pipeline runs them (sim/pallas/pipeline.hpp)."""

import numpy as np
import pytest

import weft
from weft.jax import jax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu


def test_a_block_spec_carries_its_buffer_count():
    assert pl.BlockSpec((8, 8), lambda i: (i, 0)).buffer_count == 2
    assert pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode=pl.Buffered(3)).buffer_count == 3
    assert pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode=pl.Buffered(np.int64(1))).buffer_count == 1


def test_a_bad_buffer_count_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"pl.Buffered\(0\): buffer_count must be at least 1"):
        pl.Buffered(0)
    with pytest.raises(TypeError):
        pl.Buffered(2.5)
    with pytest.raises(TypeError, match="buffer_count is an integer"):
        pl.Buffered(True)
    with pytest.raises(NotImplementedError, match="use_lookahead"):
        pl.Buffered(2, use_lookahead=True)
    with pytest.raises(TypeError, match="pipeline_mode weft does not model"):
        pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode="double")


def _copy(buffers_in, buffers_out, rows):
    x = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
    call = pl.pallas_call(
        lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1),
        out_shape=jax.ShapeDtypeStruct((rows, 8), jnp.float32), grid=(pl.cdiv(rows, 8),),
        in_specs=[pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode=pl.Buffered(buffers_in))],
        out_specs=pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode=pl.Buffered(buffers_out)))
    np.testing.assert_array_equal(call(x), x + 1)


@weft.scenario(devices=1, params={"buffers_in": 3, "buffers_out": 2, "rows": 20})
def ragged_copy(buffers_in, buffers_out, rows):
    _copy(buffers_in, buffers_out, rows)


def test_ragged_blocks_and_every_input_buffer_count_copy_right():
    for buffers_in in (1, 2, 3, 4):
        result = weft.sweep(ragged_copy, seeds="0..4", config={"params.buffers_in": buffers_in})
        assert result.ok, result.report


def test_three_buffers_on_an_output_is_a_kernel_error_naming_it():
    result = weft.run(ragged_copy, config={"params.buffers_out": 3}, expect="kernel_error")
    assert result.ok, result.report
    assert "out[0] 'out0' has Buffered(3): an output has 1 or 2 buffers" in result.report, result.report


@weft.scenario(devices=1, params={"buffers": 3, "rows": 20})
def inner_ragged_copy(buffers, rows):
    x = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)

    def kernel(x_hbm, o_hbm):
        def body(x_block, o_block):
            o_block[...] = x_block[...] + 1

        pltpu.emit_pipeline(
            body, grid=(pl.cdiv(rows, 8),),
            in_specs=[pl.BlockSpec((8, 8), lambda i: (i, 0), pipeline_mode=pl.Buffered(buffers))],
            out_specs=[pl.BlockSpec((8, 8), lambda i: (i, 0))])(x_hbm, o_hbm)

    run = pl.kernel(kernel, out_shape=jax.ShapeDtypeStruct((rows, 8), jnp.float32),
                    mesh=pltpu.create_tensorcore_mesh("core"))
    np.testing.assert_array_equal(run(x), x + 1)


def test_an_inner_pipeline_takes_buffer_counts_and_ragged_blocks():
    for buffers in (1, 3):
        result = weft.sweep(inner_ragged_copy, seeds="0..4", config={"params.buffers": buffers})
        assert result.ok, result.report
    result = weft.run(inner_ragged_copy, config={"params.buffers": 0}, expect="kernel_error")
    assert result.ok, result.report
    assert "ValueError: pl.Buffered(0): buffer_count must be at least 1" in result.report, result.report
