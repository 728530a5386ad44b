"""``shard_map`` over weft's simulated devices: splits each input over the mesh as its
PartitionSpec says, launches the kernel on every device with its shard, and joins the outputs
as the out_specs say."""

import numpy as _np

from ..sharding import PartitionSpec


def _axes(entry):
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


def _coordinates(device, mesh):
    coords = []
    for size in reversed(mesh.shape_tuple):
        coords.append(device % size)
        device //= size
    return dict(zip(mesh.axis_names, reversed(coords)))


def _split(array, spec, mesh, devices):
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


class _Traced:
    """An argument of a shard_map body while weft finds the launch in it."""

    def __init__(self, index):
        self.weft_argument = index


def shard_map(f, mesh=None, in_specs=None, out_specs=None, check_rep=None, check_vma=None, **_options):
    """`f` (a pallas_call, or a function that returns one's result) on every device."""
    from ..experimental import pallas as pl
    from ... import _host

    def mapped(*arrays):
        execution = _host.current_execution()
        devices = execution.devices if execution is not None else mesh.size
        if mesh.size != devices:
            raise ValueError(f"a mesh of {mesh.size} devices on a machine of {devices} (the scenario's topology)")
        specs = in_specs if isinstance(in_specs, (tuple, list)) and not isinstance(in_specs, PartitionSpec) \
            else (in_specs,) * len(arrays)
        shards = [_split(a, s, mesh, devices) for a, s in zip(arrays, specs)]
        call, order = pl.find_launch(f, [_Traced(i) for i in range(len(arrays))])
        outputs = call.launch_per_device([shards[i] for i in order], {"axis_names": mesh.axis_names, "mesh_shape": mesh.shape_tuple})
        outs = out_specs if isinstance(out_specs, (tuple, list)) and not isinstance(out_specs, PartitionSpec) \
            else (out_specs,) * len(outputs)
        joined = [_join(per, s, mesh) for per, s in zip(outputs, outs)]
        return joined[0] if call.single_output else tuple(joined)

    return mapped
