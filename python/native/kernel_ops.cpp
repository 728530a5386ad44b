// The raw functions a Python kernel calls (weft/jax/experimental/pallas): the semaphore verbs,
// DMAs, sync copies, the barrier semaphore, the core's identity and the inner pipeline. Each is
// a CPython entry point (kernel_objects.hpp says why), runs its C++ in `guarded`
// (carried_exceptions.hpp) and names the kernel's line (file_names.hpp).

#include "python/native/kernel_objects.hpp"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL weft_numpy_api
#include <numpy/arrayobject.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "python/native/carried_exceptions.hpp"
#include "python/native/index_maps.hpp"
#include "python/native/python_values.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::python {
namespace {

std::optional<int> optional_int(PyObject* object) {
  if (object == Py_None) return std::nullopt;
  const auto value = index_value(object);
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

// signal(semaphore, amount, device, core)
PyObject* signal(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 4) return PyErr_SetString(PyExc_TypeError, "signal(semaphore, amount, device, core)"), nullptr;
  SemaphoreObject* semaphore = as_semaphore(args[0], "semaphore_signal");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const auto amount = index_value(args[1]);
  if (!amount) return nullptr;
  sim::Where where{optional_int(args[2]), optional_int(args[3])};
  if (PyErr_Occurred()) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* {
    core->signal(semaphore->semaphore, *amount, where, at);
    Py_RETURN_NONE;
  });
}

// wait(semaphore, amount)
PyObject* wait(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 2) return PyErr_SetString(PyExc_TypeError, "wait(semaphore, amount)"), nullptr;
  SemaphoreObject* semaphore = as_semaphore(args[0], "semaphore_wait");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const auto amount = index_value(args[1]);
  if (!amount) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* {
    core->wait(semaphore->semaphore, *amount, at);
    Py_RETURN_NONE;
  });
}

// read(semaphore)
PyObject* read(PyObject*, PyObject* semaphore_object) {
  SemaphoreObject* semaphore = as_semaphore(semaphore_object, "semaphore_read");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* { return PyLong_FromLongLong(core->read(semaphore->semaphore, at)); });
}

// copy(source, target, recv, send, device, core, add, started): a started DMA, or one described
PyObject* copy(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 8)
    return PyErr_SetString(PyExc_TypeError, "copy(source, target, recv, send, device, core, add, start)"), nullptr;
  RefObject* source = as_ref(args[0], "a copy");
  RefObject* target = source == nullptr ? nullptr : as_ref(args[1], "a copy");
  SemaphoreObject* recv = target == nullptr ? nullptr : as_semaphore(args[2], "a copy");
  if (recv == nullptr) return nullptr;
  std::optional<sim::Semaphore> send;
  if (args[3] != Py_None) {
    SemaphoreObject* send_object = as_semaphore(args[3], "a copy");
    if (send_object == nullptr) return nullptr;
    send = send_object->semaphore;
  }
  sim::Core* core = live(recv->core, "a semaphore");
  if (core == nullptr || live(source->core, "a ref") == nullptr || live(target->core, "a ref") == nullptr)
    return nullptr;
  sim::DmaOptions options{optional_int(args[4]), optional_int(args[5]), PyObject_IsTrue(args[6]) == 1};
  if (PyErr_Occurred()) return nullptr;
  const bool start = PyObject_IsTrue(args[7]) == 1;
  const sim::Location at = files_of(recv->core).caller();
  return guarded([&]() -> PyObject* {
    core->check_slice(source->slice, source->launch, start ? "starts a DMA from" : "describes a DMA from", at);
    core->check_slice(target->slice, target->launch, start ? "starts a DMA to" : "describes a DMA to", at);
    sim::Dma dma = start ? core->start(source->slice, target->slice, recv->semaphore, send, options, at)
                         : core->describe(source->slice, target->slice, recv->semaphore, send, options, at);
    return new_copy(recv->core, dma);
  });
}

// sync_copy(source, target, add): a local copy started and waited in one call
PyObject* sync_copy(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 3) return PyErr_SetString(PyExc_TypeError, "sync_copy(source, target, add)"), nullptr;
  RefObject* source = as_ref(args[0], "sync_copy");
  RefObject* target = source == nullptr ? nullptr : as_ref(args[1], "sync_copy");
  if (target == nullptr) return nullptr;
  sim::Core* core = live(source->core, "a ref");
  if (core == nullptr || live(target->core, "a ref") == nullptr) return nullptr;
  const sim::CopyOptions options{PyObject_IsTrue(args[2]) == 1};
  const sim::Location at = files_of(source->core).caller();
  return guarded([&]() -> PyObject* {
    core->check_slice(source->slice, source->launch, "copies from", at);
    core->check_slice(target->slice, target->launch, "copies to", at);
    core->copy(source->slice, target->slice, options, at);
    Py_RETURN_NONE;
  });
}

// barrier_semaphore(core)
PyObject* barrier_semaphore(PyObject*, PyObject* core_object) {
  if (as_core(core_object) == nullptr) return nullptr;
  sim::Core* core = live(core_object, "a core");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(core_object).caller();
  return guarded([&]() -> PyObject* { return new_semaphore(core_object, core->barrier_semaphore(at)); });
}

// identity(core) -> (device, core index, devices, cores per device, mesh)
PyObject* identity(PyObject*, PyObject* core_object) {
  if (as_core(core_object) == nullptr) return nullptr;
  sim::Core* core = live(core_object, "a core");
  if (core == nullptr) return nullptr;
  PyObject* mesh = PyTuple_New(static_cast<Py_ssize_t>(core->mesh().size()));
  for (std::size_t d = 0; d < core->mesh().size(); ++d) PyTuple_SET_ITEM(mesh, d, PyLong_FromLong(core->mesh()[d]));
  return Py_BuildValue("(iiiiN)", core->device_id(), core->core_id(), core->num_devices(), core->num_cores(), mesh);
}

// The integers of a sequence (None as sim::pallas::squeezed), or nullopt with TypeError set.
std::optional<std::vector<std::int64_t>> extents(PyObject* sequence) {
  PyObject* items = PySequence_Fast(sequence, "a shape is a sequence of integers");
  if (items == nullptr) return std::nullopt;
  std::vector<std::int64_t> result;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(items); ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(items, i);
    const auto value = item == Py_None ? std::optional<std::int64_t>(sim::pallas::squeezed) : index_value(item);
    if (!value) {
      Py_DECREF(items);
      return std::nullopt;
    }
    result.push_back(*value);
  }
  Py_DECREF(items);
  return result;
}

// The mask of a masked access to `ref`: a bool array of the ref's shape (numpy broadcasting),
// as the tile-shaped Mask the core takes; null with an error set.
PyObject* mask_array(PyObject* mask, const RefObject* ref) {
  return array_for_store(mask, model::ElementType::boolean, ref->slice.view);
}
sim::Mask mask_of(PyObject* array, const model::Shape& view) {
  const auto [rows, cols] = sim::tile_shape(view);
  return Eigen::Map<const sim::Mask>(static_cast<const bool*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array))),
                                     rows, cols);
}

// A masked access (pl.load / pl.store with mask=) of `ref`: the mask and the values (the `other` a
// load starts from, the value a store writes) made arrays of the ref's shape, then one visible
// load or store of the kept elements; a load returns the values.
PyObject* masked_access(PyObject* ref_object, PyObject* mask_object, PyObject* values_object, const char* call,
                        bool load) {
  RefObject* ref = as_ref(ref_object, call);
  sim::Core* core = ref == nullptr ? nullptr : live(ref->core, "a ref");
  if (core == nullptr) return nullptr;
  const model::ElementType type = ref->slice.buffer->info().type;
  PyObject* values = array_for_store(values_object, type, ref->slice.view);
  PyObject* mask = values == nullptr ? nullptr : mask_array(mask_object, ref);
  if (mask == nullptr) return Py_XDECREF(values), nullptr;
  const sim::Location at = files_of(ref->core).caller();
  PyObject* done = guarded([&]() -> PyObject* {
    const char* verb = load ? "loads" : "stores";
    core->check_slice(ref->slice, ref->launch, verb, at);
    const auto parts = core->kept(ref->slice, mask_of(mask, ref->slice.view), verb, at);
    auto* array = reinterpret_cast<PyArrayObject*>(values);
    std::vector<std::byte> bytes(static_cast<std::size_t>(PyArray_SIZE(array) * model::element_bytes(type)));
    array_to_bytes(type, array, bytes.data());
    if (!load) {
      core->store_bytes(ref->slice, parts, bytes.data(), at);
      Py_RETURN_NONE;
    }
    core->load_bytes(ref->slice, parts, bytes.data(), at);
    bytes_to_array(type, bytes.data(), array);
    Py_INCREF(values);
    return values;
  });
  Py_DECREF(mask);
  Py_DECREF(values);
  return done;
}

// masked_load(ref, mask, other): the elements `mask` keeps (one visible load), `other` elsewhere
PyObject* masked_load(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 3) return PyErr_SetString(PyExc_TypeError, "masked_load(ref, mask, other)"), nullptr;
  return masked_access(args[0], args[1], args[2], "pl.load", true);
}

// masked_store(ref, value, mask): the elements `mask` keeps (one visible store)
PyObject* masked_store(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 3) return PyErr_SetString(PyExc_TypeError, "masked_store(ref, value, mask)"), nullptr;
  return masked_access(args[0], args[2], args[1], "pl.store", false);
}

// scope(core, open): pl.run_scoped's bounds (the close is visible: sim/ops/scope_end.hpp)
PyObject* scope(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 2 || as_core(args[0]) == nullptr) return nullptr;
  sim::Core* core = live(args[0], "a core");
  if (core == nullptr) return nullptr;
  const bool open = PyObject_IsTrue(args[1]) == 1;
  const sim::Location at = files_of(args[0]).caller();
  return guarded([&]() -> PyObject* {
    if (open) {
      core->open_scope(at);
    } else {
      core->close_scope(at);
    }
    Py_RETURN_NONE;
  });
}

// allocate(core, kind, dtype, shape, count): scratch of kind "vmem" or "smem" (a Ref), or a
// list of `count` semaphores of kind "semaphores" or "dma_semaphores" (visible)
PyObject* allocate(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 5 || as_core(args[0]) == nullptr) return nullptr;
  sim::Core* core = live(args[0], "a core");
  const char* kind = core == nullptr ? nullptr : PyUnicode_AsUTF8(args[1]);
  if (kind == nullptr) return nullptr;
  const std::string_view what = kind;
  const sim::Location at = files_of(args[0]).caller();
  if (what == "vmem" || what == "smem") {
    const auto type = element_type_of(args[2]);
    const auto dims = extents(args[3]);
    if (!type || !dims)
      return PyErr_Occurred() ? nullptr : (PyErr_SetString(PyExc_TypeError, "no such element type"), nullptr);
    model::Shape shape;
    for (std::int64_t extent : *dims) shape.dims[shape.rank++] = extent;
    shape.asked_rank = shape.rank;
    return guarded([&]() -> PyObject* {
      model::Buffer* buffer =
          core->allocate(what == "vmem" ? model::Space::vmem : model::Space::smem, *type, shape, at);
      return new_ref(args[0], model::Slice{buffer, model::Rect::whole(buffer->info().shape), buffer->info().shape});
    });
  }
  const auto number = index_value(args[4]);
  if (!number) return nullptr;
  return guarded([&]() -> PyObject* {
    const sim::SemaphoreArray semaphores =
        core->new_semaphores(what == "semaphores" ? model::SemaphoreKind::regular : model::SemaphoreKind::dma,
                             static_cast<int>(*number), at);
    PyObject* list = PyList_New(semaphores.size());
    for (int i = 0; i < semaphores.size(); ++i) PyList_SET_ITEM(list, i, new_semaphore(args[0], semaphores[i]));
    return list;
  });
}

// emit_pipeline(grid, refs, blocks, maps, inputs, body, buffer_counts, parallel, across_cores):
// sim/pallas's inner pipeline over `refs` (HBM refs; the first `inputs` are inputs, the rest
// outputs), each blocked by its block shape and index map, with its buffer count;
// `body(*block_refs)` at each step; the dimensions whose `parallel` flag is true split across the
// device's cores when `across_cores`, else every step on this core.
PyObject* emit_pipeline(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 9)
    return PyErr_SetString(PyExc_TypeError,
                           "emit_pipeline(grid, refs, blocks, maps, inputs, body, buffer_counts, "
                           "parallel, across_cores)"),
           nullptr;
  sim::pallas::InnerSplit split;
  const Py_ssize_t flags = PySequence_Size(args[7]);
  if (flags < 0) return nullptr;
  for (Py_ssize_t i = 0; i < flags; ++i) {
    PyObject* flag = PySequence_GetItem(args[7], i);
    const int parallel = flag == nullptr ? -1 : PyObject_IsTrue(flag);
    Py_XDECREF(flag);
    if (parallel < 0) return nullptr;
    split.semantics.push_back(parallel ? sim::pallas::Semantics::parallel : sim::pallas::Semantics::arbitrary);
  }
  const int across = PyObject_IsTrue(args[8]);
  if (across < 0) return nullptr;
  split.across_cores = across != 0;
  const auto grid = extents(args[0]);
  const auto inputs = grid ? index_value(args[4]) : std::nullopt;
  if (!inputs) return nullptr;
  PyObject* refs = args[1];
  const Py_ssize_t operands = PySequence_Size(refs);
  if (operands <= 0 || PySequence_Size(args[2]) != operands || PySequence_Size(args[3]) != operands ||
      PySequence_Size(args[6]) != operands)
    return PyErr_SetString(PyExc_TypeError, "emit_pipeline: one block shape, index map and buffer count per ref"),
           nullptr;
  std::vector<RefObject*> blocked;
  std::vector<sim::pallas::InnerOperand> in, out;
  for (Py_ssize_t i = 0; i < operands; ++i) {
    PyObject* item = PySequence_GetItem(refs, i);  // the sequence keeps it alive for the call
    Py_XDECREF(item);
    RefObject* ref = item == nullptr ? nullptr : as_ref(item, "emit_pipeline");
    PyObject* block_object = ref == nullptr ? nullptr : PySequence_GetItem(args[2], i);
    const auto block = block_object == nullptr ? std::nullopt : extents(block_object);
    Py_XDECREF(block_object);
    if (!block) return nullptr;
    PyObject* count_object = PySequence_GetItem(args[6], i);
    const auto buffer_count = count_object == nullptr ? std::nullopt : index_value(count_object);
    Py_XDECREF(count_object);
    if (!buffer_count) return nullptr;
    PyObject* map = PySequence_GetItem(args[3], i);
    Py_XDECREF(map);  // the sequence keeps it alive for the call
    const FileNames& files = files_of(ref->core);
    sim::pallas::BlockSpec spec{
        *block, [map, &files](const sim::pallas::GridIndex& point, const sim::pallas::ScalarPrefetch& prefetch) {
          return call_index_map(map, point, prefetch, 0, files);
        }};
    spec.buffer_count = static_cast<int>(std::clamp<std::int64_t>(*buffer_count, 0, 1 << 30));
    (i < *inputs ? in : out).push_back({ref->slice, std::move(spec)});
    blocked.push_back(ref);
  }
  PyObject* core_object = blocked.front()->core;
  sim::Core* core = live(core_object, "a ref");
  if (core == nullptr) return nullptr;
  FileNames& files = files_of(core_object);
  const sim::Location at = files.caller();
  PyObject* body = args[5];
  return guarded([&]() -> PyObject* {
    for (RefObject* ref : blocked) core->check_slice(ref->slice, ref->launch, "runs emit_pipeline on", at);
    sim::pallas::emit_pipeline(
        *core, *grid, std::move(in), std::move(out),
        [&](sim::pallas::Program& inner) {
          PyObject* block_refs = PyTuple_New(operands);
          for (Py_ssize_t i = 0; i < operands; ++i)
            PyTuple_SET_ITEM(block_refs, i, new_ref(core_object, inner.operand(static_cast<int>(i))));
          PyObject* result = PyObject_Call(body, block_refs, nullptr);
          Py_DECREF(block_refs);
          if (result == nullptr) rethrow_python_error(files);
          Py_DECREF(result);
        },
        split, at);
    Py_RETURN_NONE;
  });
}

PyMethodDef functions[] = {
    {"signal", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(signal)), METH_FASTCALL,
     "signal(semaphore, amount, device, core)"},
    {"wait", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(wait)), METH_FASTCALL,
     "wait(semaphore, amount)"},
    {"read", read, METH_O, "read(semaphore)"},
    {"copy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(copy)), METH_FASTCALL,
     "copy(source, target, recv, send, device, core, add, start)"},
    {"sync_copy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(sync_copy)), METH_FASTCALL,
     "sync_copy(source, target, add)"},
    {"barrier_semaphore", barrier_semaphore, METH_O, "barrier_semaphore(core)"},
    {"masked_load", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(masked_load)), METH_FASTCALL,
     "masked_load(ref, mask, other)"},
    {"masked_store", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(masked_store)), METH_FASTCALL,
     "masked_store(ref, value, mask)"},
    {"scope", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(scope)), METH_FASTCALL, "scope(core, open)"},
    {"allocate", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(allocate)), METH_FASTCALL,
     "allocate(core, kind, dtype, shape, count)"},
    {"emit_pipeline", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(emit_pipeline)), METH_FASTCALL,
     "emit_pipeline(grid, refs, blocks, maps, inputs, body, buffer_counts, parallel, across_cores)"},
    {"identity", identity, METH_O, "identity(core) -> (device, core, devices, cores, mesh)"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

bool add_kernel_ops(PyObject* module) { return PyModule_AddFunctions(module, functions) == 0; }

}  // namespace weft::python
