"""The host side of an execution: the scenario's host code runs on a greenlet of its own. Its
launches do not run at once: they form the execution's program (docs/python.md, "Programs"),
and their results are lazy (weft/_lazy.py). When the host code first reads a result, or ends,
it is suspended; the engine (python/native/python_scenario.cpp) writes the program's buffers
into every device's hbm, runs the launches in order on the simulated cores (launch k + 1 of a
device after its launch k, devices unordered: docs/semantics.md §12), reads the buffers back
and resumes the host code with them. An execution runs one program: a launch made after the
host code has read a result is refused.
"""

import greenlet
import numpy as np

from . import _dtypes, _frames
from ._missing_name import MissingName
from ._lazy import DeviceResult


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
        self.printed = set()  # what its executions printed, to show each print once (_output.py)

    def named(self, name):
        """The same scenario under another name (a script's scenarios are named STEM::NAME)."""
        return ScenarioSpec(self.host, name, self.expect, self.settings, self.params, self.summary,
                            self.watchdog_seconds)

    def begin(self, params, devices, cores):
        """Runs the host code up to its first read of a result (or its end); returns the
        Execution holding it, its program made."""
        return Execution(self, params, devices, cores)


class ScriptLaunch(BaseException):
    """Raised by a launch made while a script is being read: the script itself is the scenario.
    `spmd`: the launch is a shard_map's, on every device of its mesh; else it is a plain call,
    which JAX runs on one device."""

    def __init__(self, spmd=False):
        super().__init__()
        self.spmd = spmd


class LaunchAfterRead(Exception):
    """A launch made after the host code read a result: weft runs one program per execution."""


class Execution:
    """One execution's host code and the program its launches make."""

    def __init__(self, spec, params, devices, cores):
        self.devices = devices
        self.cores = cores
        self.program = []  # Launch, in order
        self.buffers = []  # Buffer, every hbm buffer the program uses, in the order they were made
        self.refs = []  # HostRef, in the order they were made
        self.mesh_context = {"axis_names": (), "mesh_shape": (devices,)}  # a shard_map body's mesh while it runs
        self.read_at = None  # where the host code first read a result
        self._lazy_reads = {}  # buffer name -> where the host code took a lazy result of it
        self._writers = {}  # buffer name -> (number, where) of the last launch with it as an output
        self._values = None  # buffer name -> per device, once the program has run
        self._held = None  # an exception the host code raised after launching, before its program ran
        self._printed = spec.printed  # (origin, k, text): an earlier execution's k-th print from origin
        self._prints = {}  # origin -> prints so far (_output.py)
        self._host = greenlet.greenlet(lambda *_: self._run_host(spec, params))
        self._host.weft_execution = self
        self._host.switch()
        if not self.program:
            raise RuntimeError(f"scenario {spec.name} returned without launching a kernel")

    def printed_before(self, text, origin):
        """Counts a print of `text` by `origin` (the host code, or a core): whether an earlier
        execution of the scenario printed the same text as that origin's print of that rank
        (_output.py)."""
        rank = self._prints.get(origin, 0)
        self._prints[origin] = rank + 1
        key = (origin, rank, text)
        if key in self._printed:
            return True
        self._printed.add(key)
        return False

    def _run_host(self, spec, params):
        try:
            spec.host(**params)
        except Exception as error:  # noqa: BLE001: reported once the program has run (finish)
            if not self.program or self._values is not None:
                raise
            self._held = error

    # ---- the program ----

    def add_launch(self, call, arrays, context, where):
        """Adds a launch of `call` on `arrays` (per input, per device: host values, or an earlier
        launch's lazy results) to the program; returns its outputs, per output, per device
        (lazy results)."""
        if self._values is not None:
            raise LaunchAfterRead(f"the host code launches the kernel at {where[0]}:{where[1]} after reading a "
                                  f"result at {self.read_at[0]}:{self.read_at[1]}: weft runs an execution's "
                                  f"launches as one program; read their results after the last launch "
                                  f"(docs/python.md)")
        number = len(self.program) + 1
        prefix = "" if number == 1 else f"launch{number}."
        inputs = [self._input(prefix + f"in{index}", per_device, where) for index, per_device in enumerate(arrays)]
        aliases = {out: into for into, out in call.aliases.items()}
        outputs = []
        for index, shape in enumerate(call.out_shapes):
            if index in aliases:
                given = inputs[aliases[index]]
                given.readable = True  # the host reads the output it became
                outputs.append(Buffer(given.buffer, given.dtype, given.shape, alias=True))
            else:
                outputs.append(self._made(Buffer(prefix + f"out{index}", _dtypes.weft_name(shape.dtype), shape.shape)))
        launch = Launch(call, inputs, outputs, where, context, list(self.refs), self)
        for name in [buffer.buffer for buffer in outputs] + [ref.name for ref in launch.refs]:
            if name in self._lazy_reads:
                read = self._lazy_reads[name]
                raise LaunchAfterRead(f"the host code took '{name}' at {read[0]}:{read[1]} and then launches a "
                                      f"kernel that may write it, at {where[0]}:{where[1]}: weft reads results "
                                      f"when the program has run; take them after the last launch "
                                      f"(docs/python.md)")
        self.program.append(launch)
        for buffer in outputs:
            self._writers[buffer.buffer] = (number, where)
        return [[self._lazy(buffer.buffer, device, buffer.shape, buffer.dtype, made_by=(number, where))
                 for device in range(self.devices)] for buffer in outputs]

    def add_ref(self, ref, parts):
        """Adds `ref`'s buffer to the program: every device's `parts` (None: uninitialized)."""
        self._made(Buffer(ref.name, ref.weft_dtype, ref.shape,
                          None if parts is None else [_host_values(part, ref.weft_dtype, ref.name) for part in parts]))
        self.refs.append(ref)

    def read_ref(self, ref, index, where):
        """``ref[index]`` taken by host code: each device's contents when the program has run."""
        self._lazy_reads.setdefault(ref.name, where)
        part = np.empty(ref.shape, dtype=np.bool_)[index]
        return [self._lazy(ref.name, device, part.shape, ref.weft_dtype, index) for device in range(self.devices)]

    def _lazy(self, name, device, shape, weft_dtype, index=None, made_by=None):
        return DeviceResult(self, name, device, shape, _dtypes.numpy_dtype_of(weft_dtype), index, made_by)

    def _input(self, name, per_device, where):
        earlier = [part for part in per_device if isinstance(part, DeviceResult)]
        if earlier:
            first = earlier[0]
            if first.index is not None or len(earlier) != len(per_device) or any(
                    part.buffer != first.buffer or part.device != device for device, part in enumerate(per_device)):
                raise NotImplementedError(f"an input of the launch at {where[0]}:{where[1]} is part of an earlier "
                                          f"launch's result, or moves it between devices; weft passes a result to "
                                          f"a later launch whole and device by device (docs/python.md)")
            return next(buffer for buffer in self.buffers if buffer.buffer == first.buffer)
        first = per_device[0]
        dtype = _dtypes.weft_name(first.dtype if not hasattr(first, "weft_dtype") else first.weft_dtype)
        return self._made(Buffer(name, dtype, np.shape(first), [_host_values(array, dtype, name) for array in per_device],
                                 readable=False))

    def _made(self, buffer):
        self.buffers.append(buffer)
        return buffer

    # ---- results ----

    def result(self, name, device, where, made_by=None):
        """The contents of buffer `name` on `device`, for host code reading a result (of launch
        `made_by`: its number and line): the program runs first if it has not. A result that a
        later launch overwrote in place (input_output_aliases) is refused: weft keeps a buffer's
        last contents only, where JAX would have kept the earlier value by copying it."""
        if self._values is None:
            if greenlet.getcurrent() is not self._host:
                raise RuntimeError("a launch's result read outside the host code that made it")
            self.read_at = where
            self._host.parent.switch()
        later = self._writers.get(name)
        if made_by is not None and later is not None and later[0] != made_by[0]:
            raise LaunchAfterRead(f"the host code reads at {where[0]}:{where[1]} the result of the launch at "
                                  f"{made_by[1][0]}:{made_by[1][1]}, which the launch at {later[1][0]}:"
                                  f"{later[1][1]} overwrote in place (input_output_aliases): weft keeps a buffer's "
                                  f"last contents only; read the later launch's result, or give that launch the "
                                  f"input without aliasing it (docs/python.md)")
        return self._values[name][device]

    def finish(self, values):
        """Resumes the host code with the program's buffers (name -> per device); returns None
        when it ended well, else what the check found wrong."""
        self._values = values
        if self.read_at is None:
            self.read_at = ("<the end of the host code>", 0)
        try:
            if not self._host.dead:
                self._host.switch()
            if self._held is not None:
                raise self._held
        except AssertionError as failed:
            return _describe_failure(failed)
        except LaunchAfterRead as failed:
            return str(failed)
        except MissingName:  # weft's gap, not a verdict: the command stops naming it
            raise
        except Exception as failed:  # noqa: BLE001: the host code's own error, reported as its check's
            return "the host code raised " + type(failed).__name__ + ": " + _describe_failure(failed)
        return None


def _host_values(array, dtype, name):
    if isinstance(array, DeviceResult):
        raise NotImplementedError(f"'{name}' is made from a launch's result: weft makes buffers from host values "
                                  f"(docs/python.md)")
    return np.ascontiguousarray(_dtypes.values(np.asarray(array), dtype))


def _describe_failure(error):
    import traceback
    frames = traceback.extract_tb(error.__traceback__)
    where = next((f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" for frame in reversed(frames)
                  if not _frames.in_library(frame.filename)), None)
    text = str(error).strip() or "an assertion failed"
    return text + (f" (at {where})" if where else "")


class Operand:
    """An input or output as the engine reads it: its hbm buffer, element type and blocking
    (block shape, index map, memory, the pipeline's buffer count, the dimensions indexed by
    element), and where its BlockSpec was written ((file, line), or None)."""

    def __init__(self, buffer, dtype, block_shape, index_map, memory, buffer_count=2, where=None, element=()):
        self.buffer = buffer
        self.dtype = dtype
        self.block_shape = block_shape
        self.index_map = index_map
        self.memory = memory
        self.buffer_count = buffer_count
        self.where = where
        self.element = element


class Buffer:
    """An hbm buffer of every device: name, element type, per-device shape, and the contents the
    host writes into it before the program (per device; None: uninitialized)."""

    def __init__(self, buffer, dtype, shape, per_device=None, alias=False, readable=True):
        self.buffer = buffer
        self.dtype = dtype
        self.shape = tuple(int(n) for n in shape)
        self.per_device = per_device
        self.alias = alias  # an output that is an input's buffer (input_output_aliases)
        self.readable = readable  # read back when the program has run (outputs and refs)


class Launch:
    """One launch of the program, on every device, as the engine runs it. A core_map body's
    operands are the refs made before it (`refs`), whole, in HBM. Its bodies' prints are its
    `execution`'s (_output.py)."""

    def __init__(self, call, inputs, outputs, where, context, refs, execution):
        self.call = call
        self.execution = execution
        self.kind = call.kind  # "pallas_call", or "core_map" (pl.kernel, pl.core_map)
        self.grid = call.grid
        self.semantics = call.semantics
        self.scalar_prefetch = [buffer.buffer for buffer in inputs[:call.num_scalar_prefetch]]
        self.refs = refs if call.closes_over_refs else []
        self.in_operands = call.operands(inputs[call.num_scalar_prefetch:], "in") + [
            Operand(ref.name, ref.weft_dtype, (), None, "any") for ref in self.refs]
        self.out_operands = call.operands(outputs, "out")
        self.scratch = call.scratch
        self.inputs = inputs
        self.outputs = outputs
        self.where = where
        self.context = context
        self.key = (id(call),) + tuple(operand.buffer for operand in self.in_operands + self.out_operands)

    def body(self, core, point, refs, prefetch):
        """The kernel at one grid point of one core (called by the engine)."""
        from . import _kernel
        _kernel.run_body(self, core, point, refs, prefetch)


def current_execution():
    """The execution whose host code is running, or None."""
    return getattr(greenlet.getcurrent(), "weft_execution", None)


def launch(call, arrays, context, where):
    """Adds a launch of `call` on `arrays` (per input, per device) to the running execution's
    program; returns its outputs, per output, per device (lazy results)."""
    execution = current_execution()
    if execution is None:
        raise ScriptLaunch()
    return execution.add_launch(call, arrays, context, where)
