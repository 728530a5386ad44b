#include "python/native/python_scenario.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "model/machine_spec.hpp"
#include "python/native/index_maps.hpp"
#include "python/native/python_fiber.hpp"
#include "python/native/carried_exceptions.hpp"
#include "python/native/kernel_objects.hpp"
#include "python/native/python_values.hpp"
#include "sim/config/config_error.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace py = pybind11;

namespace weft::python {
namespace {

// A Python object released under the GIL, whoever drops the last copy.
struct Held {
  explicit Held(py::object held) : object(std::move(held)) {}
  ~Held() {
    py::gil_scoped_acquire gil;
    object = py::object();
  }
  py::object object;
};

// A weft element type by weft's name ("f32"), as the Python side gives it.
model::ElementType element_type(const py::handle& name) {
  const auto type = element_type_of(name.ptr());
  if (!type) throw std::invalid_argument("no weft element type " + py::str(name).cast<std::string>());
  return *type;
}

model::Shape shape_of(const py::handle& dims) {
  model::Shape shape;
  for (const auto& extent : dims) {
    if (shape.rank == model::max_rank) throw std::invalid_argument("more than four dimensions");
    shape.dims[shape.rank++] = extent.cast<std::int64_t>();
  }
  shape.asked_rank = shape.rank;
  return shape;
}

// A parameter's default as weft holds it (sim/config/params.hpp): an int, a bool, a str, or a
// list (or tuple) of those, nested; anything else is refused naming `where`.
sim::ParamValue param_of(const py::handle& value, const std::string& where) {
  if (py::isinstance<py::bool_>(value)) return sim::ParamValue::boolean(value.cast<bool>());
  if (py::isinstance<py::int_>(value)) return sim::ParamValue(value.cast<std::int64_t>());
  if (py::isinstance<py::str>(value)) return sim::ParamValue::string(value.cast<std::string>());
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::vector<sim::ParamValue> items;
    for (const auto& item : value) items.push_back(param_of(item, where));
    return sim::ParamValue::list(std::move(items));
  }
  throw std::invalid_argument(where + " is a " + py::str(value.get_type().attr("__name__")).cast<std::string>() +
                              "; a parameter is an int, a bool, a str or a list of them");
}

// A parameter's value as the host function takes it: int, bool, str, or a list of them.
py::object python_param(const sim::ParamValue& value) {
  switch (value.kind()) {
    case sim::ParamValue::Kind::boolean:
      return py::bool_(value.as_boolean());
    case sim::ParamValue::Kind::string:
      return py::str(value.as_string());
    case sim::ParamValue::Kind::list: {
      py::list items;
      for (const auto& item : value.as_list()) items.append(python_param(item));
      return items;
    }
    case sim::ParamValue::Kind::integer:
      break;
  }
  return py::int_(value.as_integer());
}

// The launch's index map in Python (index_maps.hpp), kept alive by the IndexMap.
sim::pallas::IndexMap index_map_of(std::shared_ptr<Held> map, int prefetch_count, std::shared_ptr<FileNames> files) {
  return [map = std::move(map), prefetch_count, files = std::move(files)](const sim::pallas::GridIndex& point,
                                                                          const sim::pallas::ScalarPrefetch& prefetch) {
    return call_index_map(map->object.ptr(), point, prefetch, prefetch_count, *files);
  };
}

sim::pallas::Operand operand_of(const py::handle& operand, int prefetch_count,
                                const std::shared_ptr<FileNames>& files) {
  sim::pallas::Operand result;
  result.buffer = operand.attr("buffer").cast<std::string>();
  result.type = element_type(operand.attr("dtype"));
  if (operand.attr("memory").cast<std::string>() == "any") {
    result.spec.memory = sim::pallas::Memory::any;
    return result;
  }
  for (const auto& extent : operand.attr("block_shape")) result.spec.block.push_back(extent.cast<std::int64_t>());
  for (const auto& by_element : operand.attr("element")) result.spec.element.push_back(by_element.cast<bool>());
  result.spec.buffer_count = operand.attr("buffer_count").cast<int>();
  result.spec.index_map = index_map_of(
      std::make_shared<Held>(py::reinterpret_borrow<py::object>(operand.attr("index_map"))), prefetch_count, files);
  if (const py::object where = operand.attr("where"); !where.is_none()) {  // the BlockSpec's line, for reports
    const py::tuple at = where;
    result.spec.line = {files->intern(at[0].cast<std::string>()), at[1].cast<int>()};
  }
  return result;
}

// The C++ launch of a Python one (weft/_host.py's Launch).
sim::pallas::CallSpec call_spec_of(const py::handle& launch, const std::shared_ptr<FileNames>& files) {
  sim::pallas::CallSpec spec;
  for (const auto& size : launch.attr("grid")) spec.grid.push_back(size.cast<std::int64_t>());
  for (const auto& semantics : launch.attr("semantics"))
    spec.semantics.push_back(semantics.cast<std::string>() == "parallel" ? sim::pallas::Semantics::parallel
                                                                         : sim::pallas::Semantics::arbitrary);
  const auto prefetch = launch.attr("scalar_prefetch");
  for (const auto& name : prefetch) spec.scalar_prefetch.push_back(name.cast<std::string>());
  const int prefetch_count = static_cast<int>(spec.scalar_prefetch.size());
  for (const auto& operand : launch.attr("in_operands")) spec.in.push_back(operand_of(operand, prefetch_count, files));
  for (const auto& operand : launch.attr("out_operands"))
    spec.out.push_back(operand_of(operand, prefetch_count, files));
  for (const auto& scratch : launch.attr("scratch")) {
    sim::pallas::Scratch entry;
    const auto kind = scratch.attr("kind").cast<std::string>();
    entry.kind = kind == "vmem"         ? sim::pallas::Scratch::Kind::vmem
                 : kind == "smem"       ? sim::pallas::Scratch::Kind::smem
                 : kind == "semaphores" ? sim::pallas::Scratch::Kind::semaphores
                                        : sim::pallas::Scratch::Kind::dma_semaphores;
    if (entry.kind == sim::pallas::Scratch::Kind::vmem || entry.kind == sim::pallas::Scratch::Kind::smem) {
      entry.type = element_type(scratch.attr("dtype"));
      entry.shape = shape_of(scratch.attr("shape"));
    }
    entry.count = scratch.attr("count").cast<int>();
    spec.scratch.push_back(entry);
  }
  return spec;
}

// One Python scenario: its spec, and per thread the execution under way.
class PythonScenario {
 public:
  PythonScenario(py::object spec, std::shared_ptr<FileNames> files)
      : spec_(std::move(spec)), files_(std::move(files)) {}
  ~PythonScenario() {
    py::gil_scoped_acquire gil;
    watchdog_.reset();
    executions_.clear();
    calls_.clear();
    spec_ = py::object();
  }

  void setup(sim::Host& host, const sim::Params& declared) {
    keep_thread_state();
    py::gil_scoped_acquire gil;
    if (!watchdog_ && spec_.attr("watchdog_seconds").cast<double>() > 0)
      watchdog_ = std::make_unique<PythonWatchdog>(spec_.attr("watchdog_seconds").cast<double>());
    py::dict values;
    for (const auto& entry : declared) values[py::str(entry.first)] = python_param(host.param_value(entry.first));
    py::object execution;
    try {
      execution = spec_.attr("begin")(values, host.num_devices(), host.num_cores());
    } catch (py::error_already_set& error) {  // the host code failed before launching: the scenario's fault
      throw std::invalid_argument(
          spec_.attr("name").cast<std::string>() + ": " +
          describe_exception(error.type().ptr(), error.value().ptr(), error.trace().ptr(), files_->package_folder()));
    }
    executions_[std::this_thread::get_id()] = execution;
    calls_[std::this_thread::get_id()].clear();             // the last execution's launches
    for (const auto& buffer : execution.attr("buffers")) {  // every buffer of the program, made by the host
      const auto name = buffer.attr("buffer").cast<std::string>();
      const model::ElementType type = element_type(buffer.attr("dtype"));
      host.hbm(name, type, shape_of(buffer.attr("shape")));
      const py::object contents = buffer.attr("per_device");
      if (contents.is_none()) continue;  // uninitialized, as the memory policy says
      int device = 0;
      for (const auto& array : contents) {
        auto bytes = host.bytes(name, device++);
        array_to_bytes(type, reinterpret_cast<PyArrayObject*>(array.ptr()), bytes.data());
      }
    }
    const auto launches = static_cast<int>(py::len(execution.attr("program")));
    if (launches > 1) host.set_program_launches(launches);
  }

  void kernel(sim::Core& core) {
    // On the core's fiber, whose thread state holds the GIL (python_fiber.hpp). A program of one
    // launch runs it as many times as the configuration's program.launches says.
    const py::list launches = executions_.at(std::this_thread::get_id()).attr("program");
    const py::object launch = launches[launches.size() == 1 ? 0 : static_cast<std::size_t>(core.launch_index())];
    const sim::pallas::CallSpec& spec = call_spec(launch);
    PyObject* core_object = new_core(core, *files_);
    struct Retire {
      PyObject* core;
      ~Retire() {
        retire_core(core);
        Py_DECREF(core);
      }
    } retire{core_object};
    const py::object body = launch.attr("body");
    const sim::pallas::Body run = [&](sim::pallas::Program& program) {
      const int operands = static_cast<int>(spec.in.size() + spec.out.size());
      PyObject* refs = PyList_New(0);
      for (int i = 0; i < operands; ++i) {
        PyObject* ref = new_ref(core_object, program.operand(i));
        PyList_Append(refs, ref);
        Py_DECREF(ref);
      }
      const auto& scratch = program.scratch_set();
      for (std::size_t i = 0; i < spec.scratch.size(); ++i) {
        PyObject* entry = nullptr;
        if (scratch.buffers[i] != nullptr) {
          entry = new_ref(core_object,
                          model::Slice{scratch.buffers[i], model::Rect::whole(scratch.buffers[i]->info().shape),
                                       scratch.buffers[i]->info().shape});
        } else {
          entry = PyList_New(0);
          for (const auto& semaphore : scratch.semaphores[i]) {
            PyObject* handle = new_semaphore(core_object, semaphore);
            PyList_Append(entry, handle);
            Py_DECREF(handle);
          }
        }
        PyList_Append(refs, entry);
        Py_DECREF(entry);
      }
      const auto& point = program.point();
      PyObject* at = PyTuple_New(point.rank);
      for (int axis = 0; axis < point.rank; ++axis) PyTuple_SET_ITEM(at, axis, PyLong_FromLongLong(point[axis]));
      PyObject* prefetch = PyList_New(0);  // the scalar prefetch arrays, as the core read them
      for (std::size_t array = 0; array < spec.scalar_prefetch.size(); ++array) {
        const std::int64_t size = program.prefetch().size(static_cast<int>(array));
        npy_intp dims[1] = {static_cast<npy_intp>(size)};
        PyObject* values = PyArray_SimpleNew(1, dims, NPY_INT32);
        auto* data = static_cast<std::int32_t*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(values)));
        for (std::int64_t i = 0; i < size; ++i) data[i] = program.prefetch()(static_cast<int>(array), i);
        PyList_Append(prefetch, values);
        Py_DECREF(values);
      }
      PyObject* result = PyObject_CallFunctionObjArgs(body.ptr(), core_object, at, refs, prefetch, nullptr);
      Py_DECREF(prefetch);
      Py_DECREF(at);
      Py_DECREF(refs);
      if (result == nullptr) rethrow_python_error(*files_);
      Py_DECREF(result);
    };
    if (launch.attr("kind").cast<std::string>() == "core_map") {
      sim::pallas::core_map(spec, run, launch_location(launch))(core);
    } else {
      sim::pallas::launch(core, spec, run, launch_location(launch));
    }
  }

  PythonWatchdog* watchdog() const { return watchdog_.get(); }

  std::string check(const sim::Host& host) {
    py::gil_scoped_acquire gil;
    const auto found = executions_.find(std::this_thread::get_id());
    if (found == executions_.end()) throw std::logic_error("a Python scenario's check without its setup");
    const py::object execution = found->second;
    executions_.erase(found);
    py::dict values;  // what the host code may read: the outputs and refs, per device
    for (const auto& buffer : execution.attr("buffers")) {
      if (!buffer.attr("readable").cast<bool>()) continue;
      const auto name = buffer.attr("buffer").cast<std::string>();
      const model::ElementType type = element_type(buffer.attr("dtype"));
      const model::Shape shape = shape_of(buffer.attr("shape"));
      py::list per_device;
      for (int device = 0; device < host.num_devices(); ++device) {
        PyObject* array = new_array(type, shape);
        bytes_to_array(type, host.bytes(name, device).data(), reinterpret_cast<PyArrayObject*>(array));
        per_device.append(py::reinterpret_steal<py::object>(array));
      }
      values[py::str(name)] = per_device;
    }
    py::object wrong;
    try {
      wrong = execution.attr("finish")(values);
    } catch (py::error_already_set& error) {  // finish lets through only weft's gaps (MissingName)
      if (!is_missing_name(error.type().ptr())) throw;
      throw sim::NotModelled(
          spec_.attr("name").cast<std::string>() + ": its host code, resumed with the program's results, met " +
          describe_exception(error.type().ptr(), error.value().ptr(), error.trace().ptr(), files_->package_folder()));
    }
    return wrong.is_none() ? std::string() : wrong.cast<std::string>();
  }

 private:
  // A launch's C++ spec, made once an execution per call and operands (a call's identity with its
  // buffers' names: Launch.key), for a lookup only, never an order.
  const sim::pallas::CallSpec& call_spec(const py::object& launch) {
    auto& calls = calls_[std::this_thread::get_id()];
    const auto key = py::repr(launch.attr("key")).cast<std::string>();
    auto found = calls.find(key);
    if (found == calls.end())
      found = calls.emplace(key, CachedCall{launch.attr("call"), call_spec_of(launch, files_)}).first;
    return found->second.spec;
  }
  sim::Location launch_location(const py::object& launch) {
    const py::tuple where = launch.attr("where");
    return {files_->intern(where[0].cast<std::string>()), where[1].cast<std::uint_least32_t>()};
  }

  struct CachedCall {
    py::object call;  // kept, so its identity (in the key) is not reused while cached
    sim::pallas::CallSpec spec;
  };
  py::object spec_;
  std::shared_ptr<FileNames> files_;
  std::unique_ptr<PythonWatchdog> watchdog_;  // made at the first setup, when the scenario has a budget
  std::map<std::thread::id, py::object> executions_;
  std::map<std::thread::id, std::map<std::string, CachedCall>> calls_;  // per thread, its execution's
};

sim::ScenarioDefinition definition_of(const py::handle& spec, const std::shared_ptr<FileNames>& files) {
  sim::ScenarioDefinition definition;
  definition.name = spec.attr("name").cast<std::string>();
  definition.summary = spec.attr("summary").cast<std::string>();
  const auto expect = model::parse_verdict(spec.attr("expect").cast<std::string>());
  if (!expect) throw std::invalid_argument("unknown verdict '" + spec.attr("expect").cast<std::string>() + "'");
  definition.expect = *expect;
  for (const auto& setting : spec.attr("settings")) definition.settings.push_back(setting.cast<std::string>());
  for (const auto& [name, value] : spec.attr("params").cast<py::dict>()) {
    const std::string param = name.cast<std::string>();
    definition.params[param] = param_of(value, definition.name + ": params['" + param + "']");
  }
  auto scenario = std::make_shared<PythonScenario>(py::reinterpret_borrow<py::object>(spec), files);
  definition.setup = [scenario, params = definition.params](sim::Host& host) { scenario->setup(host, params); };
  definition.kernel = [scenario](sim::Core& core) { scenario->kernel(core); };
  definition.check = [scenario](const sim::Host& host) { return scenario->check(host); };
  definition.setup_every_execution = true;
  definition.make_fiber = [scenario](scheduler::StackPool& pool, std::function<void()> body) {
    return make_python_fiber(pool, std::move(body), scenario->watchdog());
  };
  return definition;
}

}  // namespace

sim::ScenarioRegistry load_script(const std::filesystem::path& path, const std::string& package_folder) {
  py::gil_scoped_acquire gil;
  auto files = std::make_shared<FileNames>(package_folder);
  sim::ScenarioRegistry registry;
  try {
    // The script's module code runs once to be read, seeing the default configuration's devices.
    const py::object specs =
        py::module_::import("weft._script").attr("load")(path.string(), model::MachineSpec{}.devices());
    for (const auto& spec : specs) registry.push_back(definition_of(spec, files));
  } catch (py::error_already_set& error) {
    throw sim::ConfigError(
        path.string(), 0, 0, "",
        describe_exception(error.type().ptr(), error.value().ptr(), error.trace().ptr(), package_folder));
  } catch (const std::invalid_argument& error) {
    throw sim::ConfigError(path.string(), 0, 0, "", error.what());
  }
  return registry;
}

}  // namespace weft::python
