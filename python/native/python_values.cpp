#include "python/native/python_values.hpp"

#include <vector>

#include <Eigen/Core>

namespace weft::python {

std::optional<std::int64_t> index_value(PyObject* object) {
  if (PyLong_Check(object)) {
    const long long value = PyLong_AsLongLong(object);
    if (value == -1 && PyErr_Occurred()) return std::nullopt;
    return value;
  }
  PyObject* integer = PyNumber_Index(object);
  if (integer == nullptr) return std::nullopt;
  const long long value = PyLong_AsLongLong(integer);
  Py_DECREF(integer);
  if (value == -1 && PyErr_Occurred()) return std::nullopt;
  return value;
}

int numpy_type(model::ElementType type) {
  switch (type) {
    case model::ElementType::f32:
    case model::ElementType::bf16:
      return NPY_FLOAT32;
    case model::ElementType::f16:
      return NPY_FLOAT16;
    case model::ElementType::i32:
      return NPY_INT32;
    case model::ElementType::i16:
      return NPY_INT16;
    case model::ElementType::i8:
      return NPY_INT8;
    case model::ElementType::u8:
      return NPY_UINT8;
    case model::ElementType::u32:
      return NPY_UINT32;
    case model::ElementType::boolean:
      return NPY_BOOL;
  }
  return NPY_FLOAT32;
}

std::optional<model::ElementType> element_type_of(PyObject* dtype) {
  if (PyUnicode_Check(dtype)) {  // weft's own names: "f32", "bf16", ...
    const char* name = PyUnicode_AsUTF8(dtype);
    for (model::ElementType type : model::all_element_types)
      if (name != nullptr && model::to_string(type) == name) return type;
  }
  if (PyObject* name = PyObject_GetAttrString(dtype, "weft_element_type");
      name != nullptr) {  // weft.jax.numpy.bfloat16
    const std::string text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "";
    Py_DECREF(name);
    if (text == "bf16") return model::ElementType::bf16;
  }
  PyErr_Clear();
  PyArray_Descr* descr = nullptr;
  if (PyArray_DescrConverter2(dtype, &descr) == 0 || descr == nullptr) {
    PyErr_Clear();
    return std::nullopt;
  }
  const int number = descr->type_num;
  Py_DECREF(descr);
  for (model::ElementType type : model::all_element_types)
    if (type != model::ElementType::bf16 && numpy_type(type) == number) return type;
  return std::nullopt;
}

PyObject* dtype_object(model::ElementType type) {
  return reinterpret_cast<PyObject*>(PyArray_DescrFromType(numpy_type(type)));
}

PyObject* new_array(model::ElementType type, const model::Shape& shape) {
  npy_intp dims[model::max_rank];
  for (int d = 0; d < shape.rank; ++d) dims[d] = static_cast<npy_intp>(shape.dims[d]);
  return PyArray_SimpleNew(shape.rank, dims, numpy_type(type));
}

PyObject* array_for_store(PyObject* value, model::ElementType type, const model::Shape& shape) {
  PyObject* source = PyArray_FromAny(value, PyArray_DescrFromType(numpy_type(type)), 0, 0,
                                     NPY_ARRAY_FORCECAST | NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED, nullptr);
  if (source == nullptr) return nullptr;
  auto* array = reinterpret_cast<PyArrayObject*>(source);
  bool same = PyArray_NDIM(array) == shape.rank;
  for (int d = 0; same && d < shape.rank; ++d) same = PyArray_DIM(array, d) == shape.dims[d];
  if (same) return source;
  PyObject* target = new_array(type, shape);
  if (target == nullptr || PyArray_CopyInto(reinterpret_cast<PyArrayObject*>(target), array) < 0) {
    Py_XDECREF(target);
    PyObject* shape_text = PyObject_Repr(PyObject_GetAttrString(source, "shape"));
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "a value of shape %s does not fit a ref of shape %s",
                 shape_text == nullptr ? "?" : PyUnicode_AsUTF8(shape_text), model::to_string(shape).c_str());
    Py_XDECREF(shape_text);
    Py_DECREF(source);
    return nullptr;
  }
  Py_DECREF(source);
  return target;
}

void bytes_to_array(model::ElementType type, const std::byte* bytes, PyArrayObject* out) {
  const auto count = static_cast<std::size_t>(PyArray_SIZE(out));
  if (type == model::ElementType::bf16) {
    const auto* from = reinterpret_cast<const Eigen::bfloat16*>(bytes);
    auto* to = static_cast<float*>(PyArray_DATA(out));
    for (std::size_t i = 0; i < count; ++i) to[i] = static_cast<float>(from[i]);
    return;
  }
  std::memcpy(PyArray_DATA(out), bytes, count * static_cast<std::size_t>(model::element_bytes(type)));
}

void array_to_bytes(model::ElementType type, PyArrayObject* in, std::byte* bytes) {
  const auto count = static_cast<std::size_t>(PyArray_SIZE(in));
  if (type == model::ElementType::bf16) {
    const auto* from = static_cast<const float*>(PyArray_DATA(in));
    auto* to = reinterpret_cast<Eigen::bfloat16*>(bytes);
    for (std::size_t i = 0; i < count; ++i) to[i] = Eigen::bfloat16(from[i]);
    return;
  }
  std::memcpy(bytes, PyArray_DATA(in), count * static_cast<std::size_t>(model::element_bytes(type)));
}

void load_into(sim::Core& core, const model::Slice& slice, PyArrayObject* out, sim::Location at) {
  const model::ElementType type = slice.buffer->info().type;
  if (type != model::ElementType::bf16) {
    core.load_bytes(slice, static_cast<std::byte*>(PyArray_DATA(out)), at);
    return;
  }
  std::vector<std::byte> bytes(static_cast<std::size_t>(PyArray_SIZE(out)) * 2);
  core.load_bytes(slice, bytes.data(), at);
  bytes_to_array(type, bytes.data(), out);
}

void store_from(sim::Core& core, const model::Slice& slice, PyArrayObject* in, sim::Location at) {
  const model::ElementType type = slice.buffer->info().type;
  if (type != model::ElementType::bf16) {
    core.store_bytes(slice, static_cast<const std::byte*>(PyArray_DATA(in)), at);
    return;
  }
  std::vector<std::byte> bytes(static_cast<std::size_t>(PyArray_SIZE(in)) * 2);
  array_to_bytes(type, in, bytes.data());
  core.store_bytes(slice, bytes.data(), at);
}

std::string describe_exception(PyObject* type, PyObject* value, PyObject* traceback, std::string_view hidden) {
  std::string text = type == nullptr ? "an exception" : reinterpret_cast<PyTypeObject*>(type)->tp_name;
  bool said = false;
  if (value != nullptr) {
    if (PyObject* message = PyObject_Str(value); message != nullptr) {
      if (const char* utf8 = PyUnicode_AsUTF8(message); utf8 != nullptr && *utf8 != '\0') {
        text += std::string(": ") + utf8;
        said = true;
      }
      Py_DECREF(message);
    }
  }
  // weft's own exceptions raised without a message (the watchdog's) say what they are.
  if (!said && type != nullptr) {
    PyObject* module = PyObject_GetAttrString(type, "__module__");
    const bool ours =
        module != nullptr && PyUnicode_Check(module) && PyUnicode_CompareWithASCIIString(module, "weft._weft") == 0;
    Py_XDECREF(module);
    PyErr_Clear();
    const char* doc = reinterpret_cast<PyTypeObject*>(type)->tp_doc;
    if (ours && doc != nullptr) text += std::string(": ") + doc;
  }
  std::vector<std::string> frames;
  for (PyObject* at = traceback; at != nullptr && at != Py_None;) {
    auto* entry = reinterpret_cast<PyTracebackObject*>(at);
    PyCodeObject* code = PyFrame_GetCode(entry->tb_frame);
    const char* file = PyUnicode_AsUTF8(code->co_filename);
    std::string name = file == nullptr ? "?" : file;
    if (!hidden.empty() && name.starts_with(hidden)) {
      Py_DECREF(code);
      at = reinterpret_cast<PyObject*>(entry->tb_next);
      continue;
    }
    if (const auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
    frames.push_back(name + ":" + std::to_string(entry->tb_lineno) + " in " + PyUnicode_AsUTF8(code->co_name));
    Py_DECREF(code);
    at = reinterpret_cast<PyObject*>(entry->tb_next);
  }
  PyErr_Clear();
  if (!frames.empty()) {
    text += " (at " + frames.back();
    for (auto frame = frames.rbegin() + 1; frame != frames.rend(); ++frame) text += "; called from " + *frame;
    text += ")";
  }
  return text;
}

}  // namespace weft::python
