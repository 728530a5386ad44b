#include "python/native/index_maps.hpp"

#include <stdexcept>

#include "python/native/carried_exceptions.hpp"
#include "python/native/python_values.hpp"

namespace weft::python {

sim::pallas::Block call_index_map(PyObject* map, const sim::pallas::GridIndex& point,
                                  const sim::pallas::ScalarPrefetch& prefetch, int prefetch_count,
                                  const FileNames& files) {
  PyObject* args = PyTuple_New(point.rank + prefetch_count);
  for (int axis = 0; axis < point.rank; ++axis) PyTuple_SET_ITEM(args, axis, PyLong_FromLongLong(point[axis]));
  for (int array = 0; array < prefetch_count; ++array) {
    const auto size = prefetch.size(array);
    PyObject* values = PyList_New(size);
    for (std::int64_t i = 0; i < size; ++i) PyList_SET_ITEM(values, i, PyLong_FromLong(prefetch(array, i)));
    PyTuple_SET_ITEM(args, point.rank + array, values);
  }
  PyObject* result = PyObject_Call(map, args, nullptr);
  Py_DECREF(args);
  if (result == nullptr) rethrow_python_error(files);
  sim::pallas::Block block;
  PyObject* items = PySequence_Check(result) ? PySequence_Fast(result, "") : PyTuple_Pack(1, result);
  Py_DECREF(result);
  if (items == nullptr) rethrow_python_error(files);
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
  if (count > sim::pallas::max_grid_rank) {
    Py_DECREF(items);
    throw std::invalid_argument("an index map gave more than four block indices");
  }
  block.rank = static_cast<int>(count);
  for (Py_ssize_t i = 0; i < count; ++i) {
    const auto value = index_value(PySequence_Fast_GET_ITEM(items, i));
    if (!value) {
      Py_DECREF(items);
      rethrow_python_error(files);
    }
    block.at[static_cast<std::size_t>(i)] = *value;
  }
  Py_DECREF(items);
  return block;
}

}  // namespace weft::python
