"""The host side of an execution: the scenario's host code runs on a greenlet of its own until
it launches a kernel; the engine (python/native/python_scenario.cpp) then writes the launch's
inputs into every device's hbm, runs the kernel on the simulated cores, reads the outputs back
and resumes the host code with them (weft runs one launch per execution).
"""

import greenlet
import numpy as np

from . import _dtypes


class ScenarioSpec:
    """A scenario as the engine reads it: name, expected verdict, configuration, parameters."""

    def __init__(self, host, name, expect, settings, params, summary, watchdog_seconds=10.0):
        self.host = host
        self.watchdog_seconds = watchdog_seconds  # python/native/python_watchdog.hpp; 0: none
        self.name = name
        self.expect = expect
        self.settings = settings
        self.params = params
        self.summary = summary or f"Python scenario {name}"

    def named(self, name):
        """The same scenario under another name (a script's scenarios are named STEM::NAME)."""
        return ScenarioSpec(self.host, name, self.expect, self.settings, self.params, self.summary,
                            self.watchdog_seconds)

    def begin(self, params, devices, cores):
        """Runs the host code up to its launch; returns the Execution holding it."""
        return Execution(self, params, devices, cores)


class ScriptLaunch(BaseException):
    """Raised by a launch made while a script is being read: the script itself is the scenario."""


class Execution:
    """One execution's host code, suspended at its launch between the engine's setup and check."""

    def __init__(self, spec, params, devices, cores):
        self.devices = devices
        self.cores = cores
        self.launch = None
        self._host = greenlet.greenlet(lambda *_: spec.host(**params))
        self._host.weft_execution = self
        request = self._host.switch()
        if not isinstance(request, Launch):
            raise RuntimeError(f"scenario {spec.name} returned without launching a kernel")
        self.launch = request

    def finish(self, outputs):
        """Resumes the host code with the outputs (per output, per device); returns None when it
        ended well, else what the check found wrong."""
        try:
            request = self._host.switch(outputs)
        except AssertionError as failed:
            return _describe_failure(failed)
        except Exception as failed:  # noqa: BLE001: the host code's own error, reported as its check's
            return "the host code raised " + type(failed).__name__ + ": " + _describe_failure(failed)
        if isinstance(request, Launch):
            return ("the host code launched a second kernel at %s:%d; weft runs one launch per execution "
                    "(docs/python.md)" % request.where)
        return None


def _describe_failure(error):
    import traceback
    frames = traceback.extract_tb(error.__traceback__)
    where = next((f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" for frame in reversed(frames)
                  if "/weft/" not in frame.filename), None)
    text = str(error).strip() or "an assertion failed"
    return text + (f" (at {where})" if where else "")


class Operand:
    """An input or output as the engine reads it: its hbm buffer, element type and blocking
    (block shape, index map, memory, the pipeline's buffer count), and where its BlockSpec was
    written ((file, line), or None)."""

    def __init__(self, buffer, dtype, block_shape, index_map, memory, buffer_count=2, where=None):
        self.buffer = buffer
        self.dtype = dtype
        self.block_shape = block_shape
        self.index_map = index_map
        self.memory = memory
        self.buffer_count = buffer_count
        self.where = where


class Buffer:
    """A host buffer of every device: name, element type, per-device shape and contents."""

    def __init__(self, buffer, dtype, shape, per_device=None, alias=False):
        self.buffer = buffer
        self.dtype = dtype
        self.shape = tuple(int(n) for n in shape)
        self.per_device = per_device
        self.alias = alias  # an output that is an input's buffer (input_output_aliases)


class Launch:
    """One launch of a pallas_call on every device, as the engine runs it."""

    def __init__(self, call, inputs, outputs, where, context):
        self.call = call
        self.kind = call.kind  # "pallas_call", or "core_map" (pl.kernel)
        self.grid = call.grid
        self.semantics = call.semantics
        self.scalar_prefetch = [buffer.buffer for buffer in inputs[:call.num_scalar_prefetch]]
        self.in_operands = call.operands(inputs[call.num_scalar_prefetch:], "in")
        self.out_operands = call.operands(outputs, "out")
        self.scratch = call.scratch
        self.inputs = inputs
        self.outputs = outputs
        self.where = where
        self.context = context

    def body(self, core, point, refs, prefetch):
        """The kernel at one grid point of one core (called by the engine)."""
        from . import _kernel
        _kernel.run_body(self, core, point, refs, prefetch)


def current_execution():
    """The execution whose host code is running, or None."""
    return getattr(greenlet.getcurrent(), "weft_execution", None)


def launch(call, arrays, context, where):
    """Launches `call` on `arrays` (per device, after shard_map's split) from host code; returns
    its outputs per device."""
    execution = current_execution()
    if execution is None:
        raise ScriptLaunch()
    inputs = []
    for index, per_device in enumerate(arrays):
        first = per_device[0]
        dtype = _dtypes.weft_name(first.dtype if not hasattr(first, "weft_dtype") else first.weft_dtype)
        inputs.append(Buffer(f"in{index}", dtype, first.shape,
                             [np.ascontiguousarray(_dtypes.values(a, dtype)) for a in per_device]))
    aliases = {out: into for into, out in call.aliases.items()}
    outputs = [Buffer(inputs[aliases[index]].buffer, inputs[aliases[index]].dtype, inputs[aliases[index]].shape,
                      alias=True) if index in aliases else
               Buffer(f"out{index}", _dtypes.weft_name(shape.dtype), shape.shape)
               for index, shape in enumerate(call.out_shapes)]
    request = Launch(call, inputs, outputs, where, context)
    parent = greenlet.getcurrent().parent
    return parent.switch(request)
