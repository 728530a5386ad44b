#pragma once
// Between numpy arrays and weft's buffers: the numpy dtype of each element type, arrays of a
// ref's shape, and the copies of a load and a store. bf16 (which numpy lacks) is held as
// float32 holding bfloat16 values: a load widens exactly, a store rounds to nearest even.
// Also the integers of Python indices and the text of a Python exception.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL weft_numpy_api
#include <numpy/arrayobject.h>

#include <cstdint>
#include <optional>
#include <string>

#include "sim/api/core.hpp"

namespace weft::python {

// An integer from an int, a numpy integer or a 0-d integer array; null with TypeError set else.
std::optional<std::int64_t> index_value(PyObject* object);
// The numpy type number that holds `type`'s values (float32 for bf16).
int numpy_type(model::ElementType type);
// The element type of a numpy dtype, of jnp.bfloat16, or of weft's name of one ("f32"), if any.
std::optional<model::ElementType> element_type_of(PyObject* dtype);
// The numpy dtype of `type`'s values (a new reference).
PyObject* dtype_object(model::ElementType type);
// An uninitialized array of `shape` holding `type`'s values (a new reference).
PyObject* new_array(model::ElementType type, const model::Shape& shape);
// `value` as a C-contiguous array of `shape` in `type`'s numpy type, broadcast as numpy does;
// null with ValueError naming both shapes when it cannot be.
PyObject* array_for_store(PyObject* value, model::ElementType type, const model::Shape& shape);
// The visible load and store of `slice` through `core`, converting bf16.
void load_into(sim::Core& core, const model::Slice& slice, PyArrayObject* out, sim::Location at);
void store_from(sim::Core& core, const model::Slice& slice, PyArrayObject* in, sim::Location at);
// Copies between a buffer's bytes and an array of its values (bf16 converted).
void bytes_to_array(model::ElementType type, const std::byte* bytes, PyArrayObject* out);
void array_to_bytes(model::ElementType type, PyArrayObject* in, std::byte* bytes);
// "ValueError: message (at kernels.py:12 in body; called from kernels.py:30 in helper)", leaving
// out the frames of files under `hidden` (the weft package's own).
std::string describe_exception(PyObject* type, PyObject* value, PyObject* traceback, std::string_view hidden = {});

}  // namespace weft::python
