"""weft: a deterministic simulator of Pallas TPU kernels, for kernels written in Python.

A kernel is written with Pallas' own names (``weft.jax.experimental.pallas`` as ``pl``, its
``tpu`` module as ``pltpu``); a scenario is host code that launches it and checks its outputs,
marked with :func:`scenario`. The command line (``python3 -m weft``, or the ``weft``
executable) sweeps, replays and explores it: ``weft sweep kernels.py::ring --seeds 0..999``.
docs/python.md has the whole of it.
"""

import os
import sys

# Kernel libraries (C++, --kernels) resolve weft's symbols in the process: the engine's module is
# loaded with its symbols global, as the weft executable exports its own.
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL)
from . import _weft  # noqa: E402
sys.setdlopenflags(_flags)

from ._scenario import scenario  # noqa: E402
from ._api import run, replay, sweep, explore, main, Result  # noqa: E402

__all__ = ["scenario", "run", "replay", "sweep", "explore", "main", "Result"]
