#pragma once
// A BlockSpec's index map written in Python, as sim/pallas calls it: with the grid point's
// indices (and the scalar prefetch arrays, as lists), returning one block index per dimension
// (an int, or a tuple of them). An exception in it, or a result that is not integers, is
// rethrown as carried_exceptions.hpp says (the pipeline reports it as the index map's).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "python/native/file_names.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::python {

// Calls `map` (borrowed) at `point`; needs the GIL (a core holds it).
sim::pallas::Block call_index_map(PyObject* map, const sim::pallas::GridIndex& point,
                                  const sim::pallas::ScalarPrefetch& prefetch, int prefetch_count,
                                  const FileNames& files);

}  // namespace weft::python
