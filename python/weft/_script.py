"""Reads a script (a `.py` file a command names) into the scenarios the engine runs.

A script's scenarios are its functions marked with @weft.scenario. A script with none is a
scenario itself, named after the file: its code (with ``__name__ == "__main__"``) is the host
code, run again at every execution, so a Pallas file runs as it is: on one device when its
first launch is a plain call, on the configuration's devices when it is a shard_map's. Its imports of ``jax`` name
weft's stand-ins (_jax_names.py).
"""

import contextlib
import io
import os
import sys

import greenlet

from . import _host, _jax_names


def load(path, devices=1):
    """The ScenarioSpecs of the script at `path`. Its module code runs once here, up to its first
    launch when it is a scenario itself, seeing `devices` devices (the default configuration's:
    ``assert jax.device_count() > 1`` holds before any execution)."""
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such script: {path}")
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    with open(path, encoding="utf-8") as source:
        code = compile(source.read(), path, "exec")
    stem = os.path.splitext(os.path.basename(path))[0]
    namespace = _namespace(path)
    reading = greenlet.getcurrent()
    reading.weft_script_devices = devices
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # reading it is not running it: its prints are not shown
            exec(code, namespace)
    except _host.ScriptLaunch as launch:
        return [_script_scenario(stem, path, code, spmd=launch.spmd)]
    finally:
        del reading.weft_script_devices
    found = [value.weft_scenario.named(f"{stem}::{value.weft_scenario.name}")
             for value in list(namespace.values()) if hasattr(value, "weft_scenario")]
    if not found:
        raise ValueError("it defines no @weft.scenario and launches no kernel")
    return found


def _namespace(path):
    return {"__name__": "__main__", "__file__": path, "__builtins__": _jax_names.script_builtins()}


def _script_scenario(stem, path, code, spmd):
    """The script as one scenario. Its first launch decides the machine it runs on by default, as
    JAX would run it: a shard_map's on every device of the configuration, a plain call on one
    device (a layer below a scenario file and --set, as a @weft.scenario's keywords are)."""
    def host():
        exec(code, _namespace(path))

    settings = [] if spmd else ["topology.devices=1"]
    return _host.ScenarioSpec(host, stem, "ok", settings, {}, f"the script {os.path.basename(path)}")
