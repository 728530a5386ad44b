"""A kernel file as Pallas authors write it: when weft reads a script, its imports of ``jax``
(``import jax``, ``import jax.numpy as jnp``, ``from jax.experimental import pallas as pl``,
``from jax.experimental.pallas import tpu as pltpu``, ``from jax import lax``, ...) name weft's
stand-ins, the modules of ``weft.jax``, whether JAX is installed or not.

It is the script's own ``__import__`` (in the builtins its code runs with), not an entry of
``sys.modules``: nothing else in the process sees it, so JAX itself stays importable beside weft,
and every thread's executions of the script see the same names. Modules the script imports are
imported as usual: theirs name ``weft.jax`` themselves (docs/python.md).
"""

import builtins
import importlib

from . import _output


def script_builtins():
    """Python's builtins, with an ``__import__`` that maps ``jax`` and its submodules to weft's,
    and a ``print`` that shows each print once over a sweep's executions (_output.py)."""
    names = dict(vars(builtins))
    names["__import__"] = _import
    names["print"] = _output.script_print
    return names


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0 or not (name == "jax" or name.startswith("jax.")):
        return builtins.__import__(name, globals, locals, fromlist, level)
    stand_in = "weft." + name
    try:
        module = importlib.import_module(stand_in)
    except ModuleNotFoundError as missing:
        if missing.name is None or not stand_in.startswith(missing.name):
            raise
        raise ImportError(f"'{name}' is not one of the jax modules weft stands in for (jax, jax.numpy, jax.lax, "
                          f"jax.nn, jax.random, jax.sharding, jax.experimental.pallas, jax.experimental.pallas.tpu, "
                          f"jax.experimental.shard_map, jax.experimental.checkify: docs/python.md)", name=name) from None
    if not fromlist:  # `import jax.numpy as jnp` takes the top package, then its attributes
        return importlib.import_module("weft.jax")
    for item in fromlist:  # `from jax.experimental import pallas`: submodules load, as Python's own import does
        if item != "*" and not hasattr(module, item):
            try:
                importlib.import_module(f"{stand_in}.{item}")
            except ModuleNotFoundError as missing:
                if missing.name != f"{stand_in}.{item}":
                    raise
    return module
