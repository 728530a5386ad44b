"""``shard_map`` over weft's simulated devices: splits each input over the mesh as its
PartitionSpec says, runs the body once with every device's part (``Shard``: experimental/shard.py),
so that each launch it makes runs on every device with that device's part and each computation
on every part, and joins what the body returns as the out_specs say (lazy until the host reads
it: weft/_lazy.py)."""

import numpy as _np

from ..sharding import PartitionSpec, coordinates
from .shard import Shard


def _axes(entry):
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


def _coordinates(device, mesh):
    return dict(zip(mesh.axis_names, coordinates(device, mesh.shape_tuple)))


def _split(array, spec, mesh, devices):
    from ... import _lazy
    if isinstance(array, _lazy.ShardedResult):
        parts = array.split_as(spec, mesh)
        if parts is not None:
            return parts
    if isinstance(array, _lazy.Lazy):
        raise NotImplementedError("a shard_map takes an earlier launch's result split as it was joined (the same "
                                  "mesh and specs); weft does not move results between devices (docs/python.md)")
    array = _np.asarray(array) if not hasattr(array, "shape") else array
    spec = tuple(spec) if spec is not None else ()
    shards = []
    for device in range(devices):
        coords = _coordinates(device, mesh)
        index = []
        for dim, extent in enumerate(array.shape):
            axes = _axes(spec[dim]) if dim < len(spec) else ()
            parts, part = 1, 0
            for axis in axes:
                parts, part = parts * mesh.shape[axis], part * mesh.shape[axis] + coords[axis]
            if extent % parts:
                raise ValueError(f"dimension {dim} of extent {extent} does not split over {parts} devices")
            size = extent // parts
            index.append(slice(part * size, (part + 1) * size))
        shards.append(_np.ascontiguousarray(array[tuple(index)]))
    return shards


def _join(per_device, spec, mesh):
    spec = tuple(spec) if spec is not None else ()
    result = per_device[0]
    for dim in range(len(spec)):
        axes = _axes(spec[dim])
        if not axes:
            continue
        blocks = {}
        for device, shard in enumerate(per_device):
            coords = _coordinates(device, mesh)
            part = 0
            for axis in axes:
                part = part * mesh.shape[axis] + coords[axis]
            blocks.setdefault(part, shard)
        result = _np.concatenate([blocks[k] for k in sorted(blocks)], axis=dim)
        return result
    return result


def launch_in_body(call, arrays):
    """A pallas_call (or pl.kernel) made inside a shard_map body, on every device's part."""
    from ... import _host
    execution = _host.current_execution()
    body = next(a._body for a in arrays if isinstance(a, Shard))
    per_device = [a.parts if isinstance(a, Shard) else [a] * execution.devices for a in arrays]
    outputs = call.launch_per_device(per_device, execution.mesh_context)
    results = [Shard(parts, body) for parts in outputs]
    return results[0] if call.single_output else tuple(results)


def _parts_of(result, body, devices):
    if isinstance(result, Shard):
        return result.parts
    if hasattr(result, "per_device") and result.per_device() is not None:
        return result.per_device()
    raise NotImplementedError(f"the shard_map body {body} returns {type(result).__name__}: weft's bodies return "
                              f"what their launches (or refs) give (docs/python.md)")


def shard_map(f, mesh=None, in_specs=None, out_specs=None, check_rep=None, check_vma=None, **_options):
    """`f` on every device: its launches run on every device with that device's part of each
    input, and its results are joined as out_specs say (lazy until the host reads them)."""
    from ... import _host, _lazy

    def mapped(*arrays):
        execution = _host.current_execution()
        if execution is None:
            raise _host.ScriptLaunch(spmd=True)
        devices = execution.devices
        if mesh.size != devices:
            raise ValueError(f"a mesh of {mesh.size} devices on a machine of {devices} (the scenario's topology)")
        body = f"{getattr(f, '__name__', 'function')}"
        specs = in_specs if isinstance(in_specs, (tuple, list)) and not isinstance(in_specs, PartitionSpec) \
            else (in_specs,) * len(arrays)
        shards = [Shard(_split(a, s, mesh, devices), body) for a, s in zip(arrays, specs)]
        outer = execution.mesh_context
        execution.mesh_context = {"axis_names": mesh.axis_names, "mesh_shape": mesh.shape_tuple}
        try:
            result = f(*shards)
        finally:
            execution.mesh_context = outer
        single = not isinstance(result, tuple)
        results = (result,) if single else result
        outs = out_specs if isinstance(out_specs, (tuple, list)) and not isinstance(out_specs, PartitionSpec) \
            else (out_specs,) * len(results)
        joined = []
        for value, spec in zip(results, outs):
            parts = _parts_of(value, body, devices)
            shape = _join([_np.empty(_np.shape(part), dtype=_np.bool_) for part in parts], spec, mesh).shape
            lazy = [part if isinstance(part, _lazy.Lazy) else None for part in parts]
            if all(part is not None for part in lazy):
                joined.append(_lazy.ShardedResult(parts, spec, mesh, lambda values, s=spec: _join(values, s, mesh), shape))
            else:
                joined.append(_join(parts, spec, mesh))
        return joined[0] if single else tuple(joined)

    return mapped
