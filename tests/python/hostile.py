"""Hostile Python kernels: each must end as a verdict with a clear message, never a crash or a hang."""

import numpy as np

import weft
from weft.jax import jax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu

_kept = []


def _call(kernel, scratch=()):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), scratch_shapes=scratch)


def keep_ref_kernel(x_ref, o_ref):
    if _kept:
        _kept[0][...] = np.ones((8, 128), np.float32)  # a ref of an earlier execution
    _kept.append(o_ref)
    o_ref[...] = x_ref[...]


@weft.scenario(devices=1, expect="kernel_error")
def keeps_a_ref():
    _call(keep_ref_kernel)(np.zeros((8, 128), np.float32))


def recursion_kernel(x_ref, o_ref):
    def deeper(n):
        return deeper(n + 1) + 1
    deeper(0)


@weft.scenario(devices=1, expect="kernel_error")
def recurses_forever():
    _call(recursion_kernel)(np.zeros((8, 128), np.float32))


def double_wait_kernel(x_ref, o_ref, sem):
    copy = pltpu.make_async_copy(x_ref, o_ref, sem)
    copy.start()
    copy.wait()
    copy.wait()


@weft.scenario(devices=1, expect="deadlock")
def waits_twice():
    _call(double_wait_kernel, [pltpu.SemaphoreType.DMA])(np.zeros((8, 128), np.float32))


def swallow_kernel(x_ref, o_ref, sem):
    try:
        pl.semaphore_wait(sem, 1)  # never signalled: the execution ends in a deadlock, and weft unwinds it
    except BaseException:  # noqa: BLE001 swallows weft's unwinding
        pass
    o_ref[...] = x_ref[...]


@weft.scenario(devices=1, expect="kernel_error")
def swallows_the_teardown():
    _call(swallow_kernel, [pltpu.SemaphoreType.REGULAR])(np.zeros((8, 128), np.float32))


def missing_name_kernel(x_ref, o_ref):
    pl.some_primitive_weft_lacks(x_ref)


@weft.scenario(devices=1)
def uses_a_missing_primitive():
    """Its kernel uses a name weft lacks: weft's gap, so no verdict (exit 2 at the CLI)."""
    _call(missing_name_kernel)(np.zeros((8, 128), np.float32))


_handed = []


def hand_over_kernel(x_ref, o_ref):
    _handed.append(o_ref)
    _handed[0][...] = x_ref[...]  # the first core's ref, used by whichever core comes second


@weft.scenario(devices=2, expect="kernel_error")
def hands_a_ref_to_another_core():
    _handed.clear()
    from weft.jax.experimental.shard_map import shard_map
    from weft.jax.sharding import PartitionSpec as P
    mesh = jax.make_mesh((2,), ("x",))
    shard_map(_call(hand_over_kernel), mesh=mesh, in_specs=P("x"), out_specs=P("x"))(np.zeros((16, 128), np.float32))


def spin_kernel(x_ref, o_ref):
    while True:
        pass


@weft.scenario(devices=1, expect="kernel_error", watchdog_seconds=0.3)
def spins_forever():
    _call(spin_kernel)(np.zeros((8, 128), np.float32))
