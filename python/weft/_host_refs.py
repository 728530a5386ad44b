"""``jax.new_ref``: an HBM buffer on every device that host code makes and ``pl.core_map``
kernels close over (the Pallas core_map guide's form of a kernel).

A ref is named by the variable it is assigned to (``o_hbm_ref = jax.new_ref(...)`` is
'o_hbm_ref' in reports), else ``ref<N>``. Its contents start as the value it was made from on
every device (each device's part, inside shard_map), or as the memory policy's uninitialized
value for ``jax.lax.empty``. In a kernel body it stands for the running core's view of the
buffer (``.at[...]``, indexing, DMAs); on the host, ``ref[...]`` is its contents when the
program has run (a lazy result, weft/_lazy.py).
"""

import linecache
import re
import sys

import numpy as np

from . import _dtypes, _kernel, _lazy

_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]")


class Empty:
    """``jax.lax.empty(shape, dtype)``: a value whose contents nobody wrote."""

    def __init__(self, shape, dtype):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = dtype


def _assigned_name(frame):
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
    match = _ASSIGNED.match(line)
    return match.group(1) if match else None


class HostRef:
    """An HBM buffer of every device, made by host code for core_map kernels."""

    def __init__(self, execution, name, shape, dtype, where):
        self.execution = execution
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype  # as host code gave it
        self.weft_dtype = _dtypes.weft_name(dtype)
        self.where = where

    def bound(self):
        """The running core's ref of this buffer (inside a core_map body)."""
        context = _kernel.current()
        refs = getattr(context, "host_refs", None) or {}
        if self.name not in refs:
            raise RuntimeError(f"ref '{self.name}' (made at {self.where[0]}:{self.where[1]}) is used by a kernel "
                               f"that was launched before it was made")
        return refs[self.name]

    @property
    def at(self):
        return self.bound().at

    def __getitem__(self, index):
        if _kernel.running():
            return self.bound()[index]
        return _lazy.ReplicatedResult(self.execution.read_ref(self, index, _lazy._caller()))

    def __setitem__(self, index, value):
        if not _kernel.running():
            raise NotImplementedError(f"host code writes ref '{self.name}': give jax.new_ref its contents when "
                                      f"making it (docs/python.md)")
        self.bound()[index] = value

    def __repr__(self):
        return f"Ref '{self.name}' {self.shape} {self.dtype}"


def new_ref(value, memory_space=None, kind=None):
    """``jax.new_ref(value)``: an HBM buffer on every device holding `value` (each device's part
    of it inside shard_map; ``jax.lax.empty``: uninitialized)."""
    from . import _host
    execution = _host.current_execution()
    if execution is None:
        raise _host.ScriptLaunch()  # a script's host code: the script is the scenario (weft/_script.py)
    caller = sys._getframe(1)
    while "/weft/jax/" in caller.f_code.co_filename.replace("\\", "/"):
        caller = caller.f_back
    name = _assigned_name(caller) or f"ref{len(execution.refs)}"
    where = (caller.f_code.co_filename, caller.f_lineno)
    from .jax.experimental.shard_map import Shard
    if isinstance(value, Empty):
        parts = None
        shape, dtype = value.shape, value.dtype
    else:
        parts = value.parts if isinstance(value, Shard) else [value] * execution.devices
        shape, dtype = np.shape(parts[0]), parts[0].dtype
    ref = HostRef(execution, name, shape, dtype, where)
    execution.add_ref(ref, parts)
    return ref
