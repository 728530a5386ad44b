"""``jax.experimental.pallas`` (``pl``) on weft: ``pallas_call`` with its grid, BlockSpecs and
scratch, and the primitives a kernel body calls. Loads and stores are a ref's own indexing
(``x_ref[...]``, ``o_ref[pl.ds(i, 8), :] = v``)."""

import copy
import operator
import sys

import numpy as _np

from ... import _host_api, _vmap
from ... import sharding as _sharding
from .... import _dtypes, _host, _kernel, _lazy, _output, _weft
from ...._missing_name import MissingName as _MissingName


class _Any:
    """``pl.ANY``: the operand stays in HBM, handed to the body whole for its own DMAs."""

    def __repr__(self):
        return "ANY"


ANY = _Any()


class Buffered:
    """``pl.Buffered(buffer_count)``: the pipeline gives the operand `buffer_count` VMEM slots
    instead of 2; an input's fetches run up to buffer_count - 1 grid steps ahead (one slot: each
    block fetched at its own step), an output has 1 or 2 (sim/pallas/pipeline.hpp)."""

    def __init__(self, buffer_count, *, use_lookahead=False, revisit=None, prefetched_count=0):
        if isinstance(buffer_count, bool):
            raise TypeError(f"pl.Buffered({buffer_count!r}): buffer_count is an integer")
        count = operator.index(buffer_count)
        if count < 1:
            raise ValueError(f"pl.Buffered({count}): buffer_count must be at least 1")
        if use_lookahead:
            raise NotImplementedError("pl.Buffered(use_lookahead=True): not yet in weft (docs/python.md)")
        if revisit is not None:
            raise NotImplementedError("pl.Buffered(revisit=...): not yet in weft (docs/python.md)")
        if prefetched_count:
            raise NotImplementedError("pl.Buffered(prefetched_count=...): not yet in weft (docs/python.md)")
        self.buffer_count = count


class BlockSpec:
    """How an operand is blocked: the block's shape (None or Squeezed: one element, dropped),
    the index map from grid point (and scalar prefetch) to block indices, where it lives, and
    its pipeline's buffer count (``pipeline_mode=pl.Buffered(n)``; 2 by default). A block may
    overhang the array: the pipeline pads it (docs/semantics.md §10)."""

    def __init__(self, block_shape=None, index_map=None, *, memory_space=None, pipeline_mode=None):
        caller = sys._getframe(1)  # the BlockSpec's line, which reports of its pipeline's DMAs name
        self.where = (caller.f_code.co_filename, caller.f_lineno)
        self.block_shape = block_shape
        self.index_map = index_map
        self.memory_space = memory_space
        if pipeline_mode is not None and not isinstance(pipeline_mode, Buffered):
            raise TypeError(f"a pipeline_mode weft does not model: {pipeline_mode!r} (pl.Buffered)")
        self.buffer_count = 2 if pipeline_mode is None else pipeline_mode.buffer_count


class Squeezed:
    """A block dimension of one element, dropped from the block the kernel sees (also ``None``)."""

    def __eq__(self, other):
        return isinstance(other, Squeezed)

    def __hash__(self):
        return hash(Squeezed)


squeezed = Squeezed()


class Blocked:
    """A block dimension of `block_size` elements, indexed by block (the default: a plain int)."""

    def __init__(self, block_size):
        self.block_size = int(block_size)


class Element:
    """A block dimension of `block_size` elements whose index map gives the block's first element,
    not its block index: windows that may overlap (``pl.Element(n)``)."""

    def __init__(self, block_size, padding=(0, 0)):
        if tuple(padding) != (0, 0):
            raise NotImplementedError(f"pl.Element({block_size}, padding={tuple(padding)}): weft models element "
                                      f"indexing without padding (docs/python.md)")
        self.block_size = int(block_size)


def _block_extent(extent):
    """A block_shape entry as sim/pallas takes it: an extent, or -1 for a squeezed dimension."""
    if extent is None or isinstance(extent, Squeezed) or extent is Squeezed:
        return -1
    if isinstance(extent, (Blocked, Element)):
        return extent.block_size
    if not isinstance(extent, (int, _np.integer)):
        raise NotImplementedError(f"a block dimension weft does not model: {extent!r} (an int, None, pl.Squeezed(), "
                                  f"pl.Blocked(n) or pl.Element(n); docs/python.md)")
    return int(extent)


class _EveryOperandInHbm:
    """pl.kernel's operand specs: as many ``BlockSpec(memory_space=ANY)`` as there are operands."""

    def __len__(self):
        return 0

    def __iter__(self):
        return iter(())


ANY_SPEC = _EveryOperandInHbm()  # every operand whole, in HBM (pl.kernel's operands)


class GridSpec:
    def __init__(self, grid=(), in_specs=None, out_specs=None, scratch_shapes=()):
        self.grid = grid
        self.in_specs = in_specs
        self.out_specs = out_specs
        self.scratch_shapes = scratch_shapes
        self.num_scalar_prefetch = 0


class _Scratch:
    def __init__(self, kind, shape=(), dtype=None, count=1, scalar=True):
        self.kind = kind
        self.shape = tuple(int(n) for n in shape)
        self.dtype = _dtypes.weft_name(dtype) if dtype is not None else None
        self.count = count
        self.scalar = scalar


def _scratch_entry(shape):
    if isinstance(shape, _Scratch):
        return shape
    raise TypeError(f"a scratch shape weft does not model: {shape!r} (pltpu.VMEM, pltpu.SMEM, "
                    f"pltpu.SemaphoreType.DMA/REGULAR)")


def _tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class PallasCall:
    """What pl.pallas_call returns: call it (inside shard_map, or from host code) to launch."""

    def __init__(self, kernel, out_shape, grid_spec, grid, in_specs, out_specs, scratch_shapes,
                 compiler_params, input_output_aliases, where):
        self.aliases = {int(into): int(out) for into, out in (input_output_aliases or {}).items()}
        if grid_spec is not None:
            grid, in_specs, out_specs = grid_spec.grid, grid_spec.in_specs, grid_spec.out_specs
            scratch_shapes = grid_spec.scratch_shapes
        self.num_scalar_prefetch = getattr(grid_spec, "num_scalar_prefetch", 0) if grid_spec is not None else 0
        self.kernel = kernel
        self.single_output = not isinstance(out_shape, (tuple, list))
        self.out_shapes = list(_tuple(out_shape))
        self.grid = tuple(int(n) for n in _tuple(grid)) if grid != () else ()
        self.in_specs = in_specs
        self.out_specs = out_specs
        # A dict (newer JAX's scratch_types=dict(name=...)): the body takes them by name.
        self.scratch_names = list(scratch_shapes) if isinstance(scratch_shapes, dict) else None
        if self.scratch_names is not None:
            scratch_shapes = list(scratch_shapes.values())
        self.scratch = [_scratch_entry(s) for s in _tuple(scratch_shapes or ())]
        semantics = getattr(compiler_params, "dimension_semantics", None)
        self.semantics = tuple(_semantics_name(s) for s in semantics) if semantics else ("arbitrary",) * len(self.grid)
        self.where = where
        self.kind = "pallas_call"
        self.core_axis = None
        self.closes_over_refs = False  # a pl.core_map body: its operands are the host code's refs
        self.vmapped = 0  # leading grid dimensions over a jax.vmap's batch, which the kernel does not see

    def specs(self, kind, count):
        """The BlockSpec (or None: the whole array) of each of `count` inputs or outputs."""
        specs = self.in_specs if kind == "in" else self.out_specs
        if isinstance(specs, _EveryOperandInHbm):
            specs = [BlockSpec(memory_space=ANY)] * count
        if specs is None:
            specs = [None] * count
        elif isinstance(specs, BlockSpec):
            specs = [specs] if count == 1 or kind == "out" and self.single_output else [specs] * count
        specs = list(specs)
        if len(specs) != count:
            raise ValueError(f"{len(specs)} {kind}_specs for {count} {kind}puts")
        return specs

    def operands(self, buffers, kind):
        return [_operand(buffer, spec, len(self.grid)) for buffer, spec in zip(buffers, self.specs(kind, len(buffers)))]

    def batched(self, axes, example_shapes, size):
        """This call over a batch of `size` (jax.vmap, as JAX's batching rule makes it): input i
        batched on axis axes[i] (None: not batched), outputs on axis 0, a leading parallel grid
        dimension over the batch."""
        if self.kind != "pallas_call" or self.num_scalar_prefetch or self.aliases:
            raise NotImplementedError(f"jax.vmap of the launch at {self.where[0]}:{self.where[1]}: weft batches a "
                                      f"pallas_call without scalar prefetch or input_output_aliases (docs/python.md)")
        call = copy.copy(self)
        call.grid = (size,) + self.grid
        call.semantics = ("parallel",) + self.semantics
        call.vmapped = self.vmapped + 1
        call.in_specs = [_batched_spec(spec, axis, shape, self.where)
                         for spec, axis, shape in zip(self.specs("in", len(axes)), axes, example_shapes)]
        call.out_specs = [_batched_spec(spec, 0, tuple(out.shape), self.where)
                          for spec, out in zip(self.specs("out", len(self.out_shapes)), self.out_shapes)]
        call.out_shapes = [_host_api.ShapeDtypeStruct((size,) + tuple(out.shape), out.dtype) for out in self.out_shapes]
        return call

    def launch_per_device(self, per_device_inputs, context):
        """Adds a launch on every device, each with its own inputs, to the program; returns the
        outputs per output, per device (lazy results)."""
        return _host.launch(self, per_device_inputs, dict(context, core_axis=self.core_axis), self.where)

    def __call__(self, *arrays):
        from ...experimental import shard_map as _shard_map
        if any(isinstance(a, _shard_map.Shard) for a in arrays):  # inside a shard_map body
            return _shard_map.launch_in_body(self, arrays)
        if any(isinstance(a, _vmap.Batched) for a in arrays):  # inside a jax.vmap
            return _vmap.launch(self, arrays)
        execution = _host.current_execution()
        devices = execution.devices if execution is not None else 1
        per_device = [a.per_device() if isinstance(a, _lazy.ReplicatedResult) else [a] * devices for a in arrays]
        outputs = self.launch_per_device(per_device, {"axis_names": (), "mesh_shape": (devices,)})
        results = [_lazy.ReplicatedResult(parts) for parts in outputs]
        return results[0] if self.single_output else tuple(results)


def _semantics_name(value):
    name = getattr(value, "name", value)
    name = str(name).lower()
    return "parallel" if "parallel" in name else "arbitrary"


def _operand(buffer, spec, grid_rank):
    if spec is not None and spec.memory_space is ANY:
        return _host.Operand(buffer.buffer, buffer.dtype, (), None, "any")
    block = spec.block_shape if spec is not None and spec.block_shape is not None else buffer.shape
    element = tuple(isinstance(extent, Element) for extent in block)
    block = tuple(_block_extent(extent) for extent in block)
    index_map = spec.index_map if spec is not None and spec.index_map is not None else None
    if index_map is None:
        zeros = (0,) * len(block)
        index_map = lambda *_: zeros  # noqa: E731
    buffer_count = spec.buffer_count if spec is not None else 2
    where = spec.where if spec is not None else None
    return _host.Operand(buffer.buffer, buffer.dtype, block, index_map, "vmem", buffer_count, where,
                         element if any(element) else ())


def _batched_spec(spec, axis, example_shape, where):
    """`spec` of an operand batched on `axis` (None: not batched): a squeezed block dimension there,
    indexed by the leading grid dimension, which the index map of an unbatched operand ignores."""
    if spec is not None and spec.memory_space is ANY:
        raise NotImplementedError(f"jax.vmap of the launch at {where[0]}:{where[1]}: an operand in "
                                  f"memory_space=ANY is not batched by weft (docs/python.md)")
    block = tuple(spec.block_shape) if spec is not None and spec.block_shape is not None else tuple(example_shape)
    index_map = spec.index_map if spec is not None and spec.index_map is not None else None
    batched = copy.copy(spec) if spec is not None else BlockSpec.__new__(BlockSpec)
    if spec is None:
        batched.where, batched.memory_space, batched.buffer_count = None, None, 2

    def user_indices(*grid):
        return tuple(_tuple(index_map(*grid))) if index_map is not None else (0,) * len(block)

    if axis is None:
        batched.block_shape = block
        batched.index_map = lambda batch, *grid: user_indices(*grid)
    else:
        batched.block_shape = block[:axis] + (None,) + block[axis:]

        def batched_indices(batch, *grid):
            indices = user_indices(*grid)  # once a grid point: the index map is the author's code
            return indices[:axis] + (batch,) + indices[axis:]

        batched.index_map = batched_indices
    return batched


def pallas_call(kernel, out_shape, *, grid_spec=None, grid=(), in_specs=None, out_specs=None, scratch_shapes=(),
                input_output_aliases=None, compiler_params=None, interpret=False, debug=False, name=None,
                cost_estimate=None, backend=None, **_options):
    """A launch of `kernel` over `grid` (``jax.experimental.pallas.pallas_call``)."""
    caller = sys._getframe(1)
    return PallasCall(kernel, out_shape, grid_spec, grid, in_specs, out_specs, scratch_shapes, compiler_params,
                      input_output_aliases, (caller.f_code.co_filename, caller.f_lineno))


def kernel(body=None, out_shape=None, *, mesh, scratch_shapes=(), compiler_params=None, name=None,
           out_type=None, scratch_types=None, **_options):
    """``pl.kernel``: `body` once on every core of `mesh` (a TensorCore mesh), its operands whole
    HBM refs, its scratch the core's own; ``lax.axis_index`` of the mesh's axis is the core.
    ``out_type`` and ``scratch_types`` are newer JAX's names for ``out_shape`` and
    ``scratch_shapes``; without `body` it is a decorator."""
    out_shape = out_type if out_shape is None else out_shape
    scratch_shapes = scratch_types if scratch_types is not None else scratch_shapes
    if out_shape is None:
        raise ValueError("pl.kernel needs out_shape (or out_type)")
    caller = sys._getframe(1)
    where = (caller.f_code.co_filename, caller.f_lineno)

    def made(function):
        call = PallasCall(function, out_shape, None, (), ANY_SPEC, ANY_SPEC, scratch_shapes, compiler_params, None,
                          where)
        call.kind = "core_map"
        call.core_axis = getattr(mesh, "axis_name", None)
        return call
    return made if body is None else made(body)


def core_map(mesh, *, compiler_params=None, interpret=False, debug=False, cost_estimate=None, name=None,
             metadata=None, scratch_shapes=()):
    """``@pl.core_map(mesh)``: the decorated function runs once on every core of `mesh` (a
    TensorCore mesh), now, as a launch of the program; it takes no arguments (or the scratch of
    `scratch_shapes`: a sequence, or a dict whose names it takes them by) and reaches HBM through
    the refs host code made with ``jax.new_ref``. Returns None, as Pallas' does."""
    caller = sys._getframe(1)
    where = (caller.f_code.co_filename, caller.f_lineno)

    def run(function):
        call = PallasCall(function, (), None, (), ANY_SPEC, ANY_SPEC, scratch_shapes, compiler_params, None, where)
        call.kind = "core_map"
        call.core_axis = getattr(mesh, "axis_name", None)
        call.closes_over_refs = True
        execution = _host.current_execution()
        if execution is None:
            raise _host.ScriptLaunch()
        execution.add_launch(call, [], dict(execution.mesh_context, core_axis=call.core_axis), where)
        return None
    return run


def program_id(axis):
    context = _kernel.current()  # a jax.vmap's leading grid dimensions are not the kernel's to see
    return context.point[context.launch.call.vmapped + axis]


def num_programs(axis):
    context = _kernel.current()
    return context.launch.grid[context.launch.call.vmapped + axis]


def ds(start, size, stride=1):
    """``pl.ds``: `size` elements from `start` (a slice)."""
    if stride != 1:
        raise NotImplementedError("pl.ds with a stride: weft's refs take steps of 1")
    start = int(start)
    return slice(start, start + int(size))


dslice = ds


def cdiv(a, b):
    return -(-a // b)


def when(condition):
    """``@pl.when(cond)``: runs the function now if the condition holds."""
    def run(function):
        if condition:
            function()
        return function
    return run


def loop(lower, upper, *, init_carry=None, step=1, unroll=None):
    """``@pl.loop(lower, upper, step=)``: runs the function now for each index (and carry)."""
    def run(body):
        carry = init_carry
        for index in range(int(lower), int(upper), int(step)):
            carry = body(index) if init_carry is None else body(index, carry)
        return carry
    return run


def multiple_of(x, values):
    """A hint to Mosaic's compiler that `x` is a multiple of `values`: the value itself."""
    return x


class DeviceIdType:
    MESH = "mesh"
    LOGICAL = "logical"


def _target(device_id, device_id_type, core_index=None):
    """(device, core) a signal or a remote copy goes to. A dict names mesh axes and the core axis
    of a core_map (``{'core': 1}``: core 1 of this device); the axes it leaves out keep this
    device's coordinates, as Pallas holds them constant."""
    if device_id is None:
        return None, core_index
    context = _kernel.current()
    if device_id_type == DeviceIdType.LOGICAL:
        return int(device_id), core_index
    names = context.launch.context.get("axis_names", ())
    mesh = context.launch.context.get("mesh_shape", context.mesh)
    if isinstance(device_id, dict):
        core_axis = context.launch.context.get("core_axis")
        unknown = [name for name in device_id if name not in names and name != core_axis]
        if unknown:
            raise NameError(f"device_id names axes {unknown} that are not the mesh's {tuple(names)} "
                            f"nor the core axis {core_axis!r}")
        if core_axis in device_id:
            core_index = int(device_id[core_axis])
        here = _sharding.coordinates(context.device, mesh)
        coords = [device_id.get(name, here[axis]) for axis, name in enumerate(names)] if names else here
    else:
        coords = device_id if isinstance(device_id, (tuple, list)) else (device_id,)
    device = 0
    for size, coordinate in zip(mesh, coords):
        device = device * size + int(coordinate)
    return device, core_index


def load(x_ref, idx=..., *, mask=None, other=None):
    """``pl.load``: `x_ref[idx]`, or with `mask` only the elements it keeps (`other` elsewhere)."""
    ref = x_ref.at[idx]
    if mask is None:
        return ref[...]
    return _weft.masked_load(ref, mask, 0 if other is None else other)


def store(x_ref, idx, val, *, mask=None):
    """``pl.store``: `x_ref[idx] = val`, or with `mask` only the elements it keeps."""
    ref = x_ref.at[idx]
    if mask is None:
        ref[...] = val
    else:
        _weft.masked_store(ref, val, mask)


def run_scoped(f, *types, **named_types):
    """``pl.run_scoped``: `f` with scratch that lives for the call (its VMEM and SMEM freed at its
    end, a visible operation: a DMA still in flight into it then is dma_in_flight)."""
    core = _kernel.current().core
    _weft.scope(core, True)

    def made(entry):
        entry = _scratch_entry(entry)
        if entry.kind in ("vmem", "smem"):
            return _weft.allocate(core, entry.kind, entry.dtype, entry.shape, 1)
        semaphores = _weft.allocate(core, entry.kind, None, (), entry.count)
        return semaphores[0] if entry.scalar else _kernel.SemaphoreArray(semaphores)

    refs = [made(entry) for entry in types]
    named = {name: made(entry) for name, entry in named_types.items()}
    result = f(*refs, **named)
    _weft.scope(core, False)
    return result


def semaphore_signal(sem, inc=1, *, device_id=None, device_id_type=DeviceIdType.MESH, core_index=None):
    device, core = _target(device_id, device_id_type, core_index)
    _weft.signal(sem, inc, device, core)


def semaphore_wait(sem, value=1):
    _weft.wait(sem, value)


def semaphore_read(sem):
    return _weft.read(sem)


def debug_print(fmt, *args):
    """Prints `fmt` formatted with `args` (``{}`` placeholders, values as numpy shows them) from a
    kernel body, a line each time the body runs; over a sweep's executions each line is shown
    once (weft/_output.py)."""
    context = _kernel.current()
    values = [_np.asarray(value) if isinstance(value, _lazy.Lazy) else value for value in args]
    _output.show(context.launch.execution, _output.kernel_origin(context), fmt.format(*values) + "\n")


def __getattr__(name):
    raise _MissingName("pallas", name)
