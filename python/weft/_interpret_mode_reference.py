"""The reference's cost on weft's bench workload: `python3 -m weft bench --reference JAX_SOURCE`.

The 8-device ring all-gather of python/weft/_bench_kernels.py run on interpret mode's own
machine model, read from a JAX source tree: `SharedMemory`, its `Semaphore`s and its vector
clocks (jax/_src/pallas/mosaic/interpret/shared_memory.py, vector_clock.py) and its race
detector (race_detection_state.py), at the version of weft's seed (JAX commit b8d37576ce).
One Python thread per device, as interpret mode runs them; each operation makes the calls on
that model that interpret mode's callbacks make for it (interpret_pallas_call.py: `get` and
`store` with their race checks, a DMA started and executed eagerly, read then written, its
semaphores signalled, a wait on a DMA semaphore, the barrier before the kernel, the check for
semaphores left non-zero and the clean-up barrier after it).

What is measured is a lower bound of interpret mode's cost: JAX's tracing, compilation and
callback dispatch, which interpret mode adds around each of those calls, are not here (JAX is
not needed: the three files import numpy and one name of JAX's, stood in for while they load).
"""

import importlib.util
import itertools
import os
import sys
import threading
import time
import types

import numpy as np

_FOLDER = os.path.join("jax", "_src", "pallas", "mosaic", "interpret")
_FILES = ("vector_clock.py", "shared_memory.py", "race_detection_state.py")


class ReferenceUnusable(Exception):
    """The reference could not be read from the folder given (the message says what is missing)."""


def _folder_of(jax_source):
    for folder in (os.path.join(jax_source, _FOLDER), jax_source):
        if all(os.path.isfile(os.path.join(folder, name)) for name in _FILES):
            return folder
    raise ReferenceUnusable(f"no {', '.join(_FILES)} in {os.path.join(jax_source, _FOLDER)} "
                          "or in the folder itself (give a JAX source tree)")


def load(jax_source):
    """The reference's three modules, loaded from a JAX source tree without importing JAX."""
    folder = _folder_of(jax_source)
    package = "jax._src.pallas.mosaic.interpret"
    stand_ins = {name: types.ModuleType(name) for name in
                 ("jax", "jax._src", "jax._src.pallas", "jax._src.pallas.mosaic", package,
                  "jax._src.source_info_util")}
    stand_ins["jax._src.source_info_util"].summarize = lambda source_info: str(source_info)
    stand_ins["jax._src"].source_info_util = stand_ins["jax._src.source_info_util"]
    saved = {name: sys.modules.get(name) for name in stand_ins}
    loaded = {}
    try:
        sys.modules.update(stand_ins)
        for name in _FILES:
            module_name = package + "." + name[:-3]
            spec = importlib.util.spec_from_file_location(module_name, os.path.join(folder, name))
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            setattr(stand_ins[package], name[:-3], module)
            try:
                spec.loader.exec_module(module)
            except Exception as error:
                raise ReferenceUnusable(f"{name} does not load without JAX "
                                      f"({type(error).__name__}: {error}); weft measures the version of JAX "
                                      "commit b8d37576ce") from error
            loaded[name[:-3]] = module
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        for name in _FILES:
            sys.modules.pop(package + "." + name[:-3], None)
    memory = loaded["shared_memory"]
    for needed in ("SharedMemory", "Semaphore"):
        if not hasattr(memory, needed):
            raise ReferenceUnusable(f"shared_memory.py has no {needed}")
    return types.SimpleNamespace(clock=loaded["vector_clock"], memory=memory,
                                 races=loaded["race_detection_state"])


class _Execution:
    """One execution: the machine model of interpret mode, shared by the devices' threads."""

    def __init__(self, reference, devices):
        clock = reference.clock
        size = 2 * devices  # interpret mode's default: twice the cores, the rest for DMAs
        self.clock = clock
        self.devices = devices
        self.memory = reference.memory.SharedMemory(
            num_devices=devices, num_cores_per_device=1, out_of_bounds_reads="raise",
            dma_execution_mode="eager", uninitialized_memory="nan", detect_races=True,
            vector_clock_size=size, clocks=[clock.make_vector_clock(size) for _ in range(devices)],
            barrier=threading.Barrier(devices, action=lambda: self.memory.update_clocks(0, devices)),
            clean_up_barrier=threading.Barrier(devices))
        self.races = reference.races.RaceDetectionState(num_cores=devices)
        self.dma_ids = itertools.count(100)
        self.dma_ids_lock = threading.Lock()

    def allocate(self, device, value):
        key = ("any", self.memory.get_next_buffer_id(device, 0), device, 0)
        self.memory.allocate_buffer(key, ref_count=1, value=value)
        return key

    def get(self, key, where, core, clock=None, reader=None):
        value, _, own_clock = self.memory.get_buffer_content(key, where, core)
        if value is None:
            raise IndexError(f"out-of-bounds read of {key}[{where}]")
        self.races.check_read(core if reader is None else reader, 0, own_clock if clock is None else clock,
                              key, where)
        return value

    def store(self, key, where, value, core, clock, writer):
        in_bounds, _, _ = self.memory.store_buffer_content(key, where, value, core)
        if not in_bounds:
            raise IndexError(f"out-of-bounds write of {key}[{where}]")
        self.races.check_write(writer, 0, clock, key, where)

    def copy(self, device, src, src_where, dst, dst_where, dst_device, dst_sem, src_sem=None):
        """A DMA started and executed at once (interpret mode's eager DMAs): read, then written."""
        clock = self.clock
        sems, dma_clock = self.memory.get_semaphores_and_increment_clock((src_sem, dst_sem), device)
        with self.dma_ids_lock:
            dma = next(self.dma_ids)
        lane = self.memory.get_random_virtual_device_id()
        clock.inc_vector_clock(dma_clock, lane)
        data = self.get(src, src_where, device, clock=clock.copy_vector_clock(dma_clock), reader=dma)
        clock.inc_vector_clock(dma_clock, lane)
        if sems[0] is not None:
            sems[0].signal(data.nbytes, device, clock=dma_clock)
        clock.inc_vector_clock(dma_clock, lane)
        self.store(dst, dst_where, data, dst_device, clock.copy_vector_clock(dma_clock), dma)
        clock.inc_vector_clock(dma_clock, lane)
        sems[1].signal(data.nbytes, dst_device, clock=dma_clock)

    def wait(self, device, sem, amount):
        (semaphore,), _ = self.memory.get_semaphores_and_increment_clock({sem}, device)
        semaphore.wait(amount, device, has_tasks=True)


def _device(execution, device, x, rows, cols, outputs, failures):
    try:
        devices = execution.devices
        block = x[device * rows:(device + 1) * rows].copy()
        x_key = execution.allocate(device, block)
        out_key = execution.allocate(device, np.full((devices, rows, cols), np.nan, dtype=np.float32))
        local_sem = execution.memory.allocate_semaphores(device, 1)
        send_sem = execution.memory.allocate_semaphores(device, 1)
        recv_sems = execution.memory.allocate_semaphores(device, devices - 1)
        execution.memory.barrier.wait()
        # The kernel: the local block into its slot, then devices - 1 steps around the ring.
        execution.copy(device, x_key, (), out_key, (device,), device, local_sem)
        execution.wait(device, local_sem, block.nbytes)
        right = (device + 1) % devices
        for step in range(devices - 1):
            slot = (device - step + devices) % devices
            execution.copy(device, out_key, (slot,), ("any", out_key[1], right, 0), (slot,), right,
                           recv_sems + step, src_sem=send_sem)
            execution.wait(device, send_sem, block.nbytes)
            execution.wait(device, recv_sems + step, block.nbytes)
        leftover = execution.memory.get_sempahores_with_nonzero_count(device)
        if leftover:
            raise RuntimeError(f"semaphore {leftover[0][0].id} non-zero at the kernel's exit on device {device}")
        outputs[device] = execution.get(out_key, (), device)
        execution.memory.clean_up_barrier.wait()
    except BaseException as error:  # a failure ends the measurement with its message
        failures.append(f"device {device}: {type(error).__name__}: {error}")
        execution.memory.barrier.abort()
        execution.memory.clean_up_barrier.abort()


def _execute(reference, devices, rows, cols):
    execution = _Execution(reference, devices)
    x = np.arange(devices * rows * cols, dtype=np.float32).reshape(devices * rows, cols)
    outputs = [None] * devices
    failures = []
    threads = [threading.Thread(target=_device, args=(execution, d, x, rows, cols, outputs, failures))
               for d in range(devices)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise ReferenceUnusable("the reference's ring all-gather failed: " + "; ".join(sorted(failures)))
    if execution.races.races_found:
        raise ReferenceUnusable("the reference found a race in the ring all-gather (it has none)")
    for device, out in enumerate(outputs):
        if not np.array_equal(out.reshape(devices * rows, cols), x):
            raise ReferenceUnusable(f"the reference's ring all-gather gathered a wrong result on device {device}")


def executions_per_second(jax_source, executions, devices=8, rows=8, cols=128):
    """The reference's executions per second of the ring all-gather, each checked."""
    reference = load(jax_source)
    _execute(reference, devices, rows, cols)  # warm: the first execution loads numpy's paths
    start = time.perf_counter()
    for _ in range(executions):
        _execute(reference, devices, rows, cols)
    return executions / (time.perf_counter() - start)
