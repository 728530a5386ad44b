"""An array inside a ``shard_map`` body (``Shard``): every device's part at once, as the body
runs once for all devices.

A launch (``pallas_call``, ``pl.kernel``, ``jax.new_ref``) takes every device's part. Host
arithmetic and numpy on it (``x.reshape(...)``, ``x * 2``, ``jnp.sum(x, axis=0)``) runs on each
device's part, in device order, as each device would run it, and gives a ``Shard`` again; the
collectives of ``jax.lax`` (``psum``, ``pmax``, ``pmin``, ``pmean``, ``all_gather``,
``psum_scatter``, ``ppermute``, ``axis_index``) combine the parts along mesh axes, so host code
can compute a reference with XLA's collectives as the Pallas guides do. A part that is an
earlier launch's result has no value before the program runs: computing on it is refused,
naming the body (a launch takes it as it is).
"""

import numpy as _np

from ..sharding import coordinates


class Shard:
    def __init__(self, parts, body, mesh=None):
        self.parts = list(parts)
        self._body = body
        self._mesh = mesh
        first = self.parts[0]
        self.shape = tuple(_np.shape(first))
        self.dtype = first.dtype if hasattr(first, "dtype") else _np.asarray(first).dtype  # a result: never read
        self.weft_dtype = getattr(first, "weft_dtype", None)

    @property
    def ndim(self):
        return len(self.shape)

    def values(self):
        """Every device's part as a numpy value; refused for an earlier launch's result."""
        from ... import _lazy
        if any(isinstance(part, _lazy.Lazy) for part in self.parts):
            raise NotImplementedError(f"the shard_map body {self._body} computes on a launch's result: weft runs "
                                      f"the program when the host reads a result, after the body (docs/python.md)")
        return self.parts

    def _each(self, function):
        return Shard([function(part) for part in self.values()], self._body, self._mesh)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _per_part(getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _per_part(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(f"the shard_map body {self._body} reads an array as one value: each device holds "
                                  f"its own part (compute on it, or return it: docs/python.md)")

    def __getitem__(self, index):
        return self._each(lambda part: part[index])

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        values = self.values()
        if not hasattr(values[0], name):
            raise AttributeError(f"a shard_map body's array has no '{name}'")
        if callable(getattr(values[0], name)):
            return lambda *args, **kwargs: _per_part(lambda part, *a, **k: getattr(part, name)(*a, **k),
                                                     (self, *args), kwargs)
        return self._each(lambda part: getattr(part, name))

    def __len__(self):
        return self.shape[0]


def _binary(ufunc, reflected=False):
    def apply(self, other):
        return ufunc(other, self) if reflected else ufunc(self, other)
    return apply


for _name, _ufunc in (("add", _np.add), ("sub", _np.subtract), ("mul", _np.multiply), ("truediv", _np.true_divide),
                      ("floordiv", _np.floor_divide), ("mod", _np.remainder), ("pow", _np.power),
                      ("matmul", _np.matmul), ("and", _np.bitwise_and), ("or", _np.bitwise_or),
                      ("xor", _np.bitwise_xor), ("lshift", _np.left_shift), ("rshift", _np.right_shift)):
    setattr(Shard, f"__{_name}__", _binary(_ufunc))
    setattr(Shard, f"__r{_name}__", _binary(_ufunc, reflected=True))
for _name, _ufunc in (("eq", _np.equal), ("ne", _np.not_equal), ("lt", _np.less), ("le", _np.less_equal),
                      ("gt", _np.greater), ("ge", _np.greater_equal)):
    setattr(Shard, f"__{_name}__", _binary(_ufunc))
Shard.__neg__ = lambda self: _np.negative(self)
Shard.__abs__ = lambda self: _np.absolute(self)
Shard.__hash__ = None


def _per_part(function, args, kwargs):
    """`function` called once per device, each Shard among the arguments (lists and tuples of them
    too) replaced by that device's part; a Shard of the results (a tuple of Shards for tuples)."""
    shards = [a for a in _flat(args) + _flat(list(kwargs.values())) if isinstance(a, Shard)]
    first = shards[0]
    for shard in shards:
        shard.values()
    results = [function(*_part(args, d), **_part(kwargs, d)) for d in range(len(first.parts))]
    if isinstance(results[0], tuple):
        return tuple(Shard([r[k] for r in results], first._body, first._mesh) for k in range(len(results[0])))
    return Shard(results, first._body, first._mesh)


def _flat(values):
    flat = []
    for value in values:
        flat.extend(_flat(value) if isinstance(value, (list, tuple)) else [value])
    return flat


def _part(value, device):
    if isinstance(value, Shard):
        return value.parts[device]
    if isinstance(value, dict):
        return {k: _part(v, device) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_part(v, device) for v in value)
    return value


# ---- collectives along mesh axes ----

def _axis_names(axis_name):
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _groups(mesh_context, axis_name):
    """Per device: the devices that differ from it only along the axes, in the axes' order, and its
    own index among them."""
    names, shape = tuple(mesh_context["axis_names"]), tuple(mesh_context["mesh_shape"])
    axes = [names.index(name) if name in names else None for name in _axis_names(axis_name)]
    if None in axes:
        raise NameError(f"unbound axis name: {axis_name} (the mesh's axes are {names})")
    devices = int(_np.prod(shape))
    groups = []
    for device in range(devices):
        mine = coordinates(device, shape)
        members = []
        for other in range(devices):
            theirs = coordinates(other, shape)
            if all(mine[a] == theirs[a] for a in range(len(shape)) if a not in axes):
                members.append((tuple(theirs[a] for a in axes), other))
        members.sort()
        order = [other for _, other in members]
        groups.append((order, order.index(device)))
    return groups


def _context():
    from ... import _host
    execution = _host.current_execution()
    if execution is None or not execution.mesh_context.get("axis_names"):
        raise RuntimeError("a collective outside a shard_map body")
    return execution.mesh_context


def _as_shard(x, devices):
    if isinstance(x, Shard):
        return x
    return Shard([_np.asarray(x)] * devices, "shard_map")


def reduce(x, axis_name, combine):
    """psum, pmax, pmin: every device gets the combination of its group's parts."""
    groups = _groups(_context(), axis_name)
    parts = _as_shard(x, len(groups)).values()
    out = []
    for order, _ in groups:
        value = parts[order[0]]
        for other in order[1:]:
            value = combine(value, parts[other])
        out.append(_np.asarray(value))
    return Shard(out, x._body if isinstance(x, Shard) else "shard_map")


def mean(x, axis_name):
    """pmean: every device gets the mean of its group's parts."""
    groups = _groups(_context(), axis_name)
    parts = _as_shard(x, len(groups)).values()
    return Shard([_np.mean([parts[o] for o in order], axis=0) for order, _ in groups],
                 x._body if isinstance(x, Shard) else "shard_map")


def all_gather(x, axis_name, *, axis=0, tiled=False):
    groups = _groups(_context(), axis_name)
    parts = _as_shard(x, len(groups)).values()
    join = _np.concatenate if tiled else _np.stack
    return Shard([join([parts[o] for o in order], axis=axis) for order, _ in groups], x._body)


def psum_scatter(x, axis_name, *, scatter_dimension=0, tiled=False):
    groups = _groups(_context(), axis_name)
    summed = reduce(x, axis_name, _np.add).values()
    out = []
    for device, (order, mine) in enumerate(groups):
        whole = summed[device]
        if tiled:
            out.append(_np.split(whole, len(order), axis=scatter_dimension)[mine])
        else:
            if whole.shape[scatter_dimension] != len(order):
                raise ValueError(f"psum_scatter: dimension {scatter_dimension} has {whole.shape[scatter_dimension]} "
                                 f"entries for {len(order)} devices (tiled=False takes one each)")
            out.append(_np.take(whole, mine, axis=scatter_dimension))
    return Shard(out, x._body)


def ppermute(x, axis_name, perm):
    groups = _groups(_context(), axis_name)
    parts = _as_shard(x, len(groups)).values()
    sources = {int(dst): int(src) for src, dst in perm}
    out = []
    for order, mine in groups:
        source = sources.get(mine)
        out.append(parts[order[source]] if source is not None else _np.zeros_like(parts[order[mine]]))
    return Shard(out, x._body)


def axis_index(axis_name):
    groups = _groups(_context(), axis_name)
    return Shard([_np.int32(mine) for _, mine in groups], "shard_map")
