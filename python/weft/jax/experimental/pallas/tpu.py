"""``jax.experimental.pallas.tpu`` (``pltpu``) on weft: memory spaces and scratch shapes,
semaphore types, DMAs (local and remote) and the launch's barrier semaphore."""

from . import (ANY, DeviceIdType, Element, GridSpec, _block_extent, _Scratch, _semantics_name,  # noqa: F401
                _target, semaphore_read, semaphore_signal, semaphore_wait)
from .... import _host, _kernel, _weft
from ...._missing_name import MissingName as _MissingName


class _MemorySpace:
    def __init__(self, kind):
        self.kind = kind

    def __call__(self, shape, dtype):
        return _Scratch(self.kind, shape, dtype)


VMEM = _MemorySpace("vmem")
SMEM = _MemorySpace("smem")


class MemorySpace:
    VMEM = VMEM
    SMEM = SMEM
    ANY = ANY


TPUMemorySpace = MemorySpace  # the name older guides and kernels use


class _SemaphoreKind(_Scratch):
    def __init__(self, kind):
        super().__init__(kind)

    def __call__(self, shape):
        count = 1
        for extent in shape:
            count *= int(extent)
        return _Scratch(self.kind, count=count, scalar=False)


class SemaphoreType:
    REGULAR = _SemaphoreKind("semaphores")
    DMA = _SemaphoreKind("dma_semaphores")


class PrefetchScalarGridSpec(GridSpec):
    def __init__(self, num_scalar_prefetch, grid=(), in_specs=None, out_specs=None, scratch_shapes=()):
        super().__init__(grid, in_specs, out_specs, scratch_shapes)
        self.num_scalar_prefetch = num_scalar_prefetch


class CompilerParams:
    def __init__(self, dimension_semantics=None, collective_id=None, vmem_limit_bytes=None, **_options):
        self.dimension_semantics = dimension_semantics
        self.collective_id = collective_id
        self.vmem_limit_bytes = vmem_limit_bytes


TPUCompilerParams = CompilerParams
PARALLEL = "parallel"
ARBITRARY = "arbitrary"


class AsyncCopyDescriptor:
    """A DMA as the kernel holds it: start it, or (as a receiver does with its neighbour's copy)
    only describe it and wait for its bytes."""

    def __init__(self, src_ref, dst_ref, recv_sem, send_sem=None, device_id=None,
                 device_id_type=DeviceIdType.MESH, add=False):
        device, core = _target(device_id, device_id_type)
        self._args = (_kernel.bound(src_ref), _kernel.bound(dst_ref), recv_sem, send_sem, device, core, add)
        self._copy = None

    def start(self):
        self._copy = _weft.copy(*self._args, True)
        return self

    def _handle(self):
        if self._copy is None:
            self._copy = _weft.copy(*self._args, False)
        return self._copy

    def wait(self):
        self._handle().wait()

    def wait_send(self):
        self._handle().wait_send()

    def wait_recv(self):
        self._handle().wait_recv()


def make_async_copy(src_ref, dst_ref, sem, *, add=False):
    return AsyncCopyDescriptor(src_ref, dst_ref, sem, add=add)


def make_async_remote_copy(src_ref, dst_ref, send_sem, recv_sem, device_id, device_id_type=DeviceIdType.MESH):
    return AsyncCopyDescriptor(src_ref, dst_ref, recv_sem, send_sem, device_id, device_id_type)


def async_copy(src_ref, dst_ref, sem, *, add=False):
    return make_async_copy(src_ref, dst_ref, sem, add=add).start()


def sync_copy(src_ref, dst_ref, *, add=False):
    """A local copy started and waited in one call."""
    _weft.sync_copy(_kernel.bound(src_ref), _kernel.bound(dst_ref), add)


class TensorCoreMesh:
    """The cores of a device along one named axis (``pltpu.create_tensorcore_mesh``)."""

    def __init__(self, axis_name, num_cores=None):
        self.axis_name = axis_name
        self.num_cores = num_cores


def create_tensorcore_mesh(axis_name, devices=None, num_cores=None):
    return TensorCoreMesh(axis_name, num_cores)


def emit_pipeline(body, *, grid, in_specs=None, out_specs=None, should_accumulate_out=False,
                  dimension_semantics=None, core_axis=None, core_axis_name=None, **_options):
    """An inner pipeline over HBM refs: ``emit_pipeline(body, grid=..., in_specs=..., out_specs=...)(*refs)``
    fetches each step's blocks into VMEM, runs ``body(*block_refs)`` and writes the outputs'
    blocks back, its DMAs visible (named "inner pipeline fetch of in[N]" in reports). With a core
    axis (``core_axis_name``, or ``core_axis``), its ``dimension_semantics``' parallel dimensions
    split across the device's cores, each core running its share; without, every step runs on
    this core."""
    if should_accumulate_out:
        raise NotImplementedError("emit_pipeline(should_accumulate_out=True): not yet in weft (docs/python.md)")
    grid = tuple(int(n) for n in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    parallel = [_semantics_name(s) == "parallel" for s in dimension_semantics] if dimension_semantics else []
    across_cores = (core_axis_name if core_axis_name is not None else core_axis) is not None

    def specs(given):
        return list(given) if isinstance(given, (tuple, list)) else [] if given is None else [given]

    ins, outs = specs(in_specs), specs(out_specs)

    def pipeline(*refs):
        if len(refs) != len(ins) + len(outs):
            raise TypeError(f"this pipeline takes {len(ins)} input and {len(outs)} output refs, not {len(refs)}")
        if any(isinstance(extent, Element) for spec in ins + outs for extent in spec.block_shape):
            raise NotImplementedError("pl.Element in an emit_pipeline BlockSpec: not yet in weft (docs/python.md)")
        blocks = [tuple(_block_extent(extent) for extent in spec.block_shape) for spec in ins + outs]
        maps = [spec.index_map for spec in ins + outs]
        counts = [spec.buffer_count for spec in ins + outs]
        _weft.emit_pipeline(grid, [_kernel.bound(ref) for ref in refs], blocks, maps, len(ins), body, counts,
                            parallel, across_cores)

    return pipeline


class TpuInfo:
    """What ``pltpu.get_tpu_info()`` tells of the simulated chip: its TensorCores."""

    def __init__(self, num_cores):
        self.num_cores = num_cores
        self.chip_version = "weft (simulated)"


def get_tpu_info():
    """The simulated chip: ``num_cores`` is the configuration's cores per device (1 while weft
    reads a script)."""
    execution = _host.current_execution()
    if execution is not None:
        return TpuInfo(execution.cores)
    return TpuInfo(_kernel.current().cores if _kernel.running() else 1)


def get_barrier_semaphore():
    return _weft.barrier_semaphore(_kernel.current().core)


def __getattr__(name):
    raise _MissingName("pallas.tpu", name)
