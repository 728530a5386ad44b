"""Scenarios in Python: host code that launches a kernel and checks what it gives.

    @weft.scenario(devices=4, expect="ok")
    def right_permute():
        x = np.arange(4 * 8 * 128, dtype=np.float32).reshape(32, 128)
        out = jax.jit(shard_map(permute, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(x)
        np.testing.assert_array_equal(out, np.roll(x, 8, axis=0))

Each execution runs the function: its launch runs on the simulated machine under weft's
scheduler; returning is ``ok``, an AssertionError is ``wrong_result`` (its message and line in
the report). Keywords configure the machine (``devices``, ``mesh``, ``cores_per_device``,
``dma``) and any configuration key (``config={"scheduler.max_steps": 10000}``); ``params``
declares the parameters the function takes as keywords, with their defaults: ints, bools, strs
or lists of them (``--set params.rows=16``, ``--set "params.table=[[0, 1], [2, 3]]"``).
"""

from ._host import ScenarioSpec

_MACHINE_KEYS = {"devices": "topology.devices", "cores_per_device": "topology.cores_per_device",
                 "dma": "dma.execution"}


def _settings(devices, mesh, cores_per_device, dma, config):
    settings = []
    if mesh is not None:
        settings.append("topology.mesh=[" + ", ".join(str(int(n)) for n in mesh) + "]")
    for key, value in (("devices", devices), ("cores_per_device", cores_per_device), ("dma", dma)):
        if value is not None:
            settings.append(f"{_MACHINE_KEYS[key]}={toml_value(value)}")
    for key, value in (config or {}).items():
        settings.append(f"{key}={toml_value(value)}")
    return settings


def toml_value(value):
    """A Python value as the TOML text of a `--set KEY=VALUE`: bools as true/false, strs quoted,
    lists and tuples as arrays (nested), numbers as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return str(value)


def scenario(function=None, *, name=None, expect="ok", devices=None, mesh=None, cores_per_device=None,
             dma=None, config=None, params=None, summary=None, watchdog_seconds=10.0):
    """Marks host code as a scenario weft can run, sweep and explore (see the module's doc)."""
    def mark(host):
        spec = ScenarioSpec(host, name or host.__name__, expect,
                            _settings(devices, mesh, cores_per_device, dma, config), dict(params or {}),
                            summary or (host.__doc__ or "").strip().split("\n")[0], watchdog_seconds)
        host.weft_scenario = spec
        return host
    return mark(function) if function is not None else mark
