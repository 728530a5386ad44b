"""weft's element types and numpy's. bf16, which numpy lacks, is held as float32 arrays of
values a bfloat16 holds exactly (``weft.jax.numpy.bfloat16`` names it)."""

import numpy as np


class bfloat16:
    """The bfloat16 element type: values are float32 arrays rounded to bfloat16 where stored."""
    weft_element_type = "bf16"
    dtype = np.dtype(np.float32)

    def __init__(self):
        raise TypeError("weft holds bfloat16 values as float32 arrays (docs/python.md); use jnp.bfloat16 as a dtype")


_NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.int32): "i32",
          np.dtype(np.int16): "i16", np.dtype(np.int8): "i8", np.dtype(np.uint8): "u8",
          np.dtype(np.uint32): "u32", np.dtype(np.bool_): "bool"}


def weft_name(dtype):
    """weft's name of a dtype ("f32", "bf16", ...); TypeError naming it if weft has none."""
    if dtype is bfloat16 or getattr(dtype, "weft_element_type", None) == "bf16":
        return "bf16"
    try:
        return _NAMES[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"weft has no element type for {dtype!r} (it has f32, bf16, f16, i32, i16, i8, u8, "
                        f"u32 and bool)") from None


_BY_NAME = {name: dtype for dtype, name in _NAMES.items()}


def numpy_dtype_of(name):
    """The numpy dtype that holds weft type `name` (float32 for bf16)."""
    return np.dtype(np.float32) if name == "bf16" else _BY_NAME[name]


def numpy_dtype(dtype):
    return np.dtype(np.float32) if weft_name(dtype) == "bf16" else np.dtype(dtype)


def round_bf16(values):
    """float32 values rounded to the nearest bfloat16 (ties to even), still as float32."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


def values(array, name):
    """An array's values in the numpy type that holds weft type `name`."""
    if name == "bf16":
        return np.asarray(array, dtype=np.float32)
    return np.asarray(array, dtype=numpy_dtype(array.dtype))
