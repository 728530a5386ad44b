"""The kernel side: what a Pallas kernel body sees while it runs on a simulated core (its
program ids, its device's place in the mesh), and the semaphore arrays of its scratch. Each core
runs with a Python thread state of its own (python/native/python_fiber.hpp), so the running
body's context is thread-local."""

import threading

from . import _weft

_running = threading.local()


class Context:
    """The running body's core, grid point and launch."""

    def __init__(self, launch, core, point):
        self.host_refs = None  # a core_map body's refs (weft/_host_refs.py): name -> this core's ref
        self.launch = launch
        self.core = core
        self.point = point
        self.device, self.core_index, self.devices, self.cores, self.mesh = _weft.identity(core)


def current():
    """The context of the kernel body running now; a clear error outside one."""
    context = getattr(_running, "context", None)
    if context is None:
        raise RuntimeError("a Pallas kernel primitive was called outside a kernel body running under weft")
    return context


class SemaphoreArray:
    """Semaphores of one kind allocated together (``pltpu.SemaphoreType.DMA((n,))``)."""

    def __init__(self, semaphores):
        self._semaphores = list(semaphores)
        self.shape = (len(self._semaphores),)

    def __getitem__(self, index):
        index = int(index)
        if not 0 <= index < len(self._semaphores):
            raise _weft.KernelMisuse(f"index {index} of an array of {len(self._semaphores)} semaphores")
        return self._semaphores[index]

    @property
    def at(self):
        return self


def bound(ref):
    """The running core's ref for `ref`: itself, or a core_map body's view of a host ref."""
    return ref.bound() if hasattr(ref, "bound") else ref


def running():
    """Whether a kernel body is running on this thread state (a core's)."""
    return getattr(_running, "context", None) is not None


def run_body(launch, core, point, refs, prefetch):
    context = Context(launch, core, point)
    call = launch.call
    operands = len(launch.in_operands) + len(launch.out_operands)
    arguments = list(refs[:operands])
    if launch.refs:  # a core_map body: the refs it closes over are the last inputs, and it takes no arguments
        bound = arguments[len(launch.in_operands) - len(launch.refs):len(launch.in_operands)]
        context.host_refs = {ref.name: value for ref, value in zip(launch.refs, bound)}
        arguments = []
    for entry, value in zip(call.scratch, refs[operands:]):
        if entry.kind in ("semaphores", "dma_semaphores"):
            arguments.append(value[0] if entry.scalar else SemaphoreArray(value))
        else:
            arguments.append(value)
    named = {}
    if call.scratch_names is not None:  # scratch given as a dict: by name
        scratch = arguments[len(arguments) - len(call.scratch):]
        arguments = arguments[:len(arguments) - len(call.scratch)]
        named = dict(zip(call.scratch_names, scratch))
    _running.context = context
    try:
        call.kernel(*prefetch, *arguments, **named)
    finally:
        _running.context = None
