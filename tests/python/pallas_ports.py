"""Python ports of weft's C++ Pallas kernels (scenarios/kernels/pallas/), written as a Pallas
author writes them: the same visible operations in the same order, so the same verdicts and,
under explore, the same interleaving classes (test_ports.py compares them)."""

import numpy as np

import weft
from weft.jax import jax, lax, jnp
from weft.jax.experimental import pallas as pl
from weft.jax.experimental.pallas import tpu as pltpu
from weft.jax.experimental.shard_map import shard_map
from weft.jax.sharding import PartitionSpec as P


def _ring(devices):
    return jax.make_mesh((devices,), ("x",))


# ---- right permute (scenarios/kernels/pallas/right_permute.cpp) ----

def right_permute_kernel(x_ref, out_ref, send_sem, recv_sem, *, wait_send):
    devices = lax.psum(1, "x")
    right = lax.rem(lax.axis_index("x") + 1, devices)
    copy = pltpu.make_async_remote_copy(x_ref, out_ref, send_sem, recv_sem, device_id=(right,),
                                        device_id_type=pl.DeviceIdType.MESH)
    copy.start()
    if wait_send:
        copy.wait_send()
    copy.wait_recv()


@weft.scenario(devices=4, params={"rows": 8, "cols": 128, "wait_send": 1})
def right_permute(rows, cols, wait_send):
    devices = len(jax.devices())
    x = np.arange(devices * rows * cols, dtype=np.float32).reshape(devices * rows, cols)
    kernel = lambda *refs: right_permute_kernel(*refs, wait_send=wait_send)  # noqa: E731
    call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)
    out = shard_map(call, mesh=_ring(devices), in_specs=P("x"), out_specs=P("x"), check_rep=False)(x)
    np.testing.assert_array_equal(out, np.roll(x, rows, axis=0))


# ---- all-reduce over ring steps (scenarios/kernels/pallas/all_reduce.cpp) ----

def all_reduce_kernel(x_ref, o_ref, acc_ref, slots_ref, dma_sems, capacity_sems, *, bug):
    devices = lax.psum(1, "x")
    me = lax.axis_index("x")
    right, left = lax.rem(me + 1, devices), lax.rem(me + devices - 1, devices)
    step, steps = pl.program_id(0), pl.num_programs(0)
    send_sem, recv_sem = dma_sems.at[0], dma_sems.at[1 + step % 2]
    room = capacity_sems.at[0]

    def release_left():
        pl.semaphore_signal(room, 1, device_id=(left,))

    if step == 0:
        if bug != 2:
            barrier = pltpu.get_barrier_semaphore()
            pl.semaphore_signal(barrier, 1, device_id=(left,))
            pl.semaphore_signal(barrier, 1, device_id=(right,))
            pl.semaphore_wait(barrier, 2)
        acc_ref[...] = x_ref[...]
    if bug == 3 and 1 <= step < steps - 1:
        release_left()
    if step >= 2:
        pl.semaphore_wait(room, 1)
    source = x_ref if step == 0 else slots_ref.at[(step - 1) % 2]
    copy = pltpu.make_async_remote_copy(source, slots_ref.at[step % 2], send_sem, recv_sem, device_id=(right,))
    copy.start()
    copy.wait()
    if bug in (0, 2) and 1 <= step < steps - 1:
        release_left()
    if bug == 1 and step >= 2:
        release_left()
    acc_ref[...] = acc_ref[...] + slots_ref[step % 2]
    if step == steps - 1:
        o_ref[...] = acc_ref[...]


@weft.scenario(devices=4, params={"rows": 8, "cols": 128, "bug": 0})
def all_reduce(rows, cols, bug):
    devices = len(jax.devices())
    x = np.arange(devices * rows * cols, dtype=np.float32).reshape(devices * rows, cols) % 7
    kernel = lambda *refs: all_reduce_kernel(*refs, bug=bug)  # noqa: E731
    call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32), grid=(devices - 1,),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
                          scratch_shapes=[pltpu.VMEM((rows, cols), jnp.float32),
                                          pltpu.VMEM((2, rows, cols), jnp.float32),
                                          pltpu.SemaphoreType.DMA((3,)), pltpu.SemaphoreType.REGULAR((1,))],
                          compiler_params=pltpu.CompilerParams(collective_id=0))
    out = shard_map(call, mesh=_ring(devices), in_specs=P("x"), out_specs=P("x"), check_rep=False)(x)
    want = x.reshape(devices, rows, cols).sum(axis=0)
    np.testing.assert_array_equal(out, np.concatenate([want] * devices))


# ---- tiled matmul (scenarios/kernels/pallas/matmul.cpp) ----

def matmul_kernel(x_ref, y_ref, z_ref, acc_ref, *, k_axis):
    @pl.when(pl.program_id(k_axis) == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc = acc_ref[...] + jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)
    acc_ref[...] = acc

    @pl.when(pl.program_id(k_axis) == pl.num_programs(k_axis) - 1)
    def _():
        z_ref[...] = acc


@weft.scenario(devices=1, cores_per_device=2,
               params={"m": 16, "n": 16, "k": 16, "bm": 8, "bn": 8, "bk": 8, "bug": 0})
def matmul(m, n, k, bm, bn, bk, bug):
    x = (np.arange(m * k, dtype=np.float32) % 7 - 3).reshape(m, k)
    y = (np.arange(k * n, dtype=np.float32) % 5 - 2).reshape(k, n)
    if bug == 2:  # k outermost
        grid, k_axis = (k // bk, m // bm, n // bn), 0
        in_specs = [pl.BlockSpec((bm, bk), lambda kk, i, j: (i, kk)), pl.BlockSpec((bk, bn), lambda kk, i, j: (kk, j))]
        out_spec = pl.BlockSpec((bm, bn), lambda kk, i, j: (i, j))
        params = None
    else:
        grid, k_axis = (m // bm, n // bn, k // bk), 2
        in_specs = [pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)), pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))]
        out_spec = pl.BlockSpec((bm, bn), lambda i, j, kk: (0 if bug == 1 else i, j))
        params = pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary"))
    call = pl.pallas_call(lambda *refs: matmul_kernel(*refs, k_axis=k_axis),
                          out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32), grid=grid, in_specs=in_specs,
                          out_specs=out_spec, scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
                          compiler_params=params)
    np.testing.assert_array_equal(call(x, y), x @ y)


# ---- paged gather with a prefetched block table (scenarios/kernels/pallas/paged_gather.cpp) ----

def paged_gather_kernel(table_ref, pool_ref, out_ref, pages_ref, sems, *, per_sequence, shared, over_wait):
    sequence = pl.program_id(0)
    copies = []
    for slot in range(per_sequence):
        page = table_ref[sequence * per_sequence + slot]
        copy = pltpu.make_async_copy(pool_ref.at[page], pages_ref.at[slot], sems.at[0 if shared else slot])
        copy.start()
        copies.append(copy)
    if over_wait:  # each page's semaphore waited with the whole scratch's descriptor: more bytes than land there
        for slot in range(per_sequence):
            pltpu.make_async_copy(pages_ref, pages_ref, sems.at[slot]).wait()
    else:
        for copy in copies[:1] if shared else copies:
            copy.wait()
    out_ref[...] = pages_ref[...] * 2


@weft.scenario(devices=1, cores_per_device=2,
               params={"sequences": 4, "per_sequence": 2, "page": 8, "pages": 6, "bug": 0, "block_table": []})
def paged_gather(sequences, per_sequence, page, pages, bug, block_table):
    rows = block_table or [[(s * 3 + k * 5) % pages for k in range(per_sequence)] for s in range(sequences)]
    assert len(rows) == sequences and all(len(row) == per_sequence for row in rows), "a page per slot of a sequence"
    table = np.array(rows, np.int32).reshape(-1)
    pool = (np.arange(pages * page, dtype=np.float32) % 11).reshape(pages, page)
    kernel = lambda *refs: paged_gather_kernel(*refs, per_sequence=per_sequence, shared=bug == 1,  # noqa: E731
                                               over_wait=bug == 2)
    call = pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((sequences, per_sequence, page), jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1, grid=(sequences,),
            in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
            out_specs=pl.BlockSpec((None, per_sequence, page), lambda s, table: (s, 0, 0)),
            scratch_shapes=[pltpu.VMEM((per_sequence, page), jnp.float32), pltpu.SemaphoreType.DMA((per_sequence,))]),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))
    out = call(table, pool)
    np.testing.assert_array_equal(out, 2 * pool[table].reshape(sequences, per_sequence, page))


# ---- paged gather by the pipeline: the pool's index map reads the table (scenarios/kernels/pallas/paged_blocks.cpp) ----

def paged_blocks_kernel(table_ref, pool_ref, out_ref):
    out_ref[...] = pool_ref[...] * 2


@weft.scenario(devices=1, cores_per_device=2,
               params={"sequences": 4, "per_sequence": 2, "page": 8, "pages": 6, "block_table": []})
def paged_blocks(sequences, per_sequence, page, pages, block_table):
    # A table may name a page outside the pool: the pipeline's fetch of it is the bug to show.
    rows = block_table or [[(s * 3 + k * 5) % pages for k in range(per_sequence)] for s in range(sequences)]
    assert len(rows) == sequences and all(len(row) == per_sequence for row in rows), "a page per slot of a sequence"
    table = np.array(rows, np.int32).reshape(-1)
    pool = (np.arange(pages * page, dtype=np.float32) % 11).reshape(pages, page)
    call = pl.pallas_call(
        paged_blocks_kernel, out_shape=jax.ShapeDtypeStruct((sequences, per_sequence, page), jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1, grid=(sequences, per_sequence),
            in_specs=[pl.BlockSpec((1, page), lambda s, i, table: (table[s * per_sequence + i], 0))],
            out_specs=pl.BlockSpec((None, 1, page), lambda s, i, table: (s, i, 0))),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")))
    got = np.asarray(call(table, pool))
    np.testing.assert_array_equal(got, 2 * pool[table].reshape(sequences, per_sequence, page))


# ---- bidirectional reduce-scatter over (step, phase) (scenarios/kernels/pallas/reduce_scatter.cpp) ----

def reduce_scatter_kernel(x_ref, out_ref, hbm_ref, local_sem, left_recv, left_send, right_recv, right_send,
                          left_capacity, right_capacity, acc_ref, *, half, capacity_late, handshake):
    devices = lax.psum(1, "x")
    me = lax.axis_index("x")
    step, phase = pl.program_id(0), pl.program_id(1)
    start, last = step == 0 and phase == 0, step + 1 == pl.num_programs(0)
    working, receiving = step % 2, 1 - step % 2
    leftward = dict(to=(me + devices - 1) % devices, frm=(me + 1) % devices, rows=pl.ds(0, half),
                    recv=left_recv, send=left_send, capacity=left_capacity)
    rightward = dict(to=(me + 1) % devices, frm=(me + devices - 1) % devices, rows=pl.ds(half, half),
                     recv=right_recv, send=right_send, capacity=right_capacity)
    adding, sending = (leftward, rightward) if phase == 0 else (rightward, leftward)

    def credit(direction):
        pl.semaphore_signal(direction["capacity"], 1, device_id=(direction["frm"],))

    def remote(src, dst, direction):
        return pltpu.make_async_remote_copy(src, dst, direction["send"], direction["recv"],
                                            device_id=(direction["to"],))

    if start:
        if handshake:
            barrier = pltpu.get_barrier_semaphore()
            pl.semaphore_signal(barrier, 1, device_id=(leftward["to"],))
            pl.semaphore_signal(barrier, 1, device_id=(rightward["to"],))
            pl.semaphore_wait(barrier, 2)
        out_ref[...] = jnp.zeros((2 * half, out_ref.shape[1]), jnp.float32)
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)
        first = remote(x_ref.at[me, leftward["rows"]], hbm_ref.at[working, leftward["rows"]], leftward)
        first.start()
        first.wait()
        copy = remote(x_ref.at[me, rightward["rows"]], hbm_ref.at[working, rightward["rows"]], rightward)
        copy.start()
        credit(rightward)
        credit(leftward)
    else:
        pl.semaphore_wait(sending["capacity"], 1)
        rightwards = sending is rightward
        from_slot, to_slot = (receiving, working) if rightwards else (working, receiving)
        copy = remote(hbm_ref.at[from_slot, sending["rows"]], hbm_ref.at[to_slot, sending["rows"]], sending)
        copy.start()

    slot = hbm_ref.at[working, adding["rows"]]
    pltpu.async_copy(slot, acc_ref, local_sem).wait()
    if not last:
        owner = (me + step + 1) % devices if phase == 0 else (me - step - 1) % devices
        acc_ref[...] = acc_ref[...] + x_ref[owner, adding["rows"]]
    pltpu.async_copy(acc_ref, slot, local_sem).wait()

    copy.wait()
    first_copy = step == (1 if sending is rightward else 0)
    if not start and not (capacity_late and first_copy):
        credit(sending)
    if last:
        out_ref[adding["rows"]] = acc_ref[...]
        pl.semaphore_wait(sending["capacity"], 1)


@weft.scenario(devices=4, params={"rows": 16, "cols": 128, "capacity_late": 0, "handshake": 1})
def reduce_scatter(rows, cols, capacity_late, handshake):
    devices = len(jax.devices())
    x = (np.arange(devices * devices * rows * cols, dtype=np.float32) % 13).reshape(devices * devices, rows, cols)
    half = rows // 2
    kernel = lambda *refs: reduce_scatter_kernel(*refs, half=half, capacity_late=capacity_late,  # noqa: E731
                                                 handshake=handshake)
    call = pl.pallas_call(
        kernel,
        out_shape=(jax.ShapeDtypeStruct((rows, cols), jnp.float32), jax.ShapeDtypeStruct((2, rows, cols), jnp.float32)),
        grid=(devices, 2),
        in_specs=[pl.BlockSpec((devices, rows, cols), lambda i, j: (0, 0, 0))],
        out_specs=[pl.BlockSpec((rows, cols), lambda i, j: (0, 0)), pl.BlockSpec(memory_space=pl.ANY)],
        scratch_shapes=[pltpu.SemaphoreType.DMA] * 5 + [pltpu.SemaphoreType.REGULAR] * 2
        + [pltpu.VMEM((half, cols), jnp.float32)],
        compiler_params=pltpu.CompilerParams(collective_id=0))
    out, _ = shard_map(call, mesh=_ring(devices), in_specs=P("x"), out_specs=(P("x"), P("x")), check_rep=False)(x)
    want = x.reshape(devices, devices, rows, cols).sum(axis=0)
    np.testing.assert_array_equal(out.reshape(devices, rows, cols), want)


# ---- a core_map kernel streaming its rows through emit_pipeline (scenarios/kernels/pallas/inner_pipeline.cpp) ----

def stream_rows_kernel(x_ref, y_ref, *, block_rows, overlap):
    cores = lax.psum(1, "core")
    core = lax.axis_index("core")
    rows, cols = x_ref.shape
    share = rows // cores
    first = max(0, core * share - (block_rows if overlap else 0))
    count = core * share + share - first

    def body(x_block, y_block):
        y_block[...] = x_block[...] * 2 + 1

    spec = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))
    pltpu.emit_pipeline(body, grid=(count // block_rows,), in_specs=[spec], out_specs=[spec])(
        x_ref.at[pl.ds(first, count)], y_ref.at[pl.ds(first, count)])


@weft.scenario(devices=1, cores_per_device=2, params={"rows": 32, "cols": 128, "block_rows": 8, "bug": 0})
def inner_pipeline(rows, cols, block_rows, bug):
    x = (np.arange(rows * cols, dtype=np.float32) % 9).reshape(rows, cols)
    run = pl.kernel(lambda x_ref, y_ref: stream_rows_kernel(x_ref, y_ref, block_rows=block_rows, overlap=bug == 1),
                    out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32),
                    mesh=pltpu.create_tensorcore_mesh("core"))
    np.testing.assert_array_equal(run(x), 2 * x + 1)


# ---- a tiled matmul whose last blocks overhang the arrays (scenarios/kernels/pallas/ragged_matmul.cpp) ----

def ragged_matmul_kernel(x_ref, y_ref, z_ref, acc_ref, *, k, bk, mask):
    kk = pl.program_id(2)

    @pl.when(kk == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    x, y = x_ref[...], y_ref[...]
    inside = k - kk * bk  # columns of x's block (rows of y's) inside the arrays: the rest is padding
    if mask and inside < bk:
        x = jnp.where(jnp.arange(bk)[None, :] < inside, x, 0)
        y = jnp.where(jnp.arange(bk)[:, None] < inside, y, 0)
    acc = acc_ref[...] + jnp.dot(x, y, preferred_element_type=jnp.float32)
    acc_ref[...] = acc

    @pl.when(kk == pl.num_programs(2) - 1)
    def _():
        z_ref[...] = acc


@weft.scenario(devices=1, cores_per_device=2,
               params={"m": 12, "n": 12, "k": 12, "bm": 8, "bn": 8, "bk": 8, "mask": 1})
def ragged_matmul(m, n, k, bm, bn, bk, mask):
    x = (np.arange(m * k, dtype=np.float32) % 7 - 3).reshape(m, k)
    y = (np.arange(k * n, dtype=np.float32) % 5 - 2).reshape(k, n)
    call = pl.pallas_call(
        lambda *refs: ragged_matmul_kernel(*refs, k=k, bk=bk, mask=mask),
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        grid=(pl.cdiv(m, bm), pl.cdiv(n, bn), pl.cdiv(k, bk)),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)), pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
        scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")))
    np.testing.assert_array_equal(call(x, y), x @ y)


# ---- column sums over a ragged row dimension (scenarios/kernels/pallas/ragged_reduction.cpp) ----

def ragged_reduction_kernel(x_ref, o_ref, *, rows, block_rows, mask):
    block = pl.program_id(1)

    @pl.when(block == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    x = x_ref[...]
    inside = rows - block * block_rows  # rows of this block inside x: the rest is padding
    if mask and inside < block_rows:
        x = jnp.where(jnp.arange(block_rows)[:, None] < inside, x, 0)
    o_ref[...] = o_ref[...] + x.sum(axis=0, keepdims=True)


@weft.scenario(devices=1, cores_per_device=2,
               params={"rows": 20, "cols": 16, "block_rows": 8, "block_cols": 8, "mask": 1})
def ragged_reduction(rows, cols, block_rows, block_cols, mask):
    x = (np.arange(rows * cols, dtype=np.float32) % 7).reshape(rows, cols)
    call = pl.pallas_call(
        lambda *refs: ragged_reduction_kernel(*refs, rows=rows, block_rows=block_rows, mask=mask),
        out_shape=jax.ShapeDtypeStruct((1, cols), jnp.float32),
        grid=(cols // block_cols, pl.cdiv(rows, block_rows)),
        in_specs=[pl.BlockSpec((block_rows, block_cols), lambda j, i: (i, j))],
        out_specs=pl.BlockSpec((1, block_cols), lambda j, i: (0, j)),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")))
    np.testing.assert_array_equal(call(x), x.sum(axis=0, keepdims=True))


# ---- row blocks through a weight matrix, x in Buffered(3), w in Buffered(1) (scenarios/kernels/pallas/buffered_stream.cpp) ----

def buffered_stream_kernel(x_ref, w_ref, o_ref):
    o_ref[...] = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)


@weft.scenario(devices=1, cores_per_device=1, params={"rows": 32, "block": 8, "width": 8, "buffers": 3})
def buffered_stream(rows, block, width, buffers):
    x = (np.arange(rows * width, dtype=np.float32) % 7).reshape(rows, width)
    w = (np.arange(width * width, dtype=np.float32) % 3 - 1).reshape(width, width)
    call = pl.pallas_call(
        buffered_stream_kernel, out_shape=jax.ShapeDtypeStruct((rows, width), jnp.float32), grid=(rows // block,),
        in_specs=[pl.BlockSpec((block, width), lambda i: (i, 0), pipeline_mode=pl.Buffered(buffers)),
                  pl.BlockSpec((width, width), lambda i: (0, 0), pipeline_mode=pl.Buffered(1))],
        out_specs=pl.BlockSpec((block, width), lambda i: (i, 0)))
    np.testing.assert_array_equal(call(x, w), x @ w)


# ---- flash attention's forward pass (scenarios/kernels/pallas/flash_attention.cpp) ----

def flash_attention_kernel(q_ref, k_ref, v_ref, o_ref, max_ref, sum_ref, acc_ref, *, scale):
    kv = pl.program_id(1)

    @pl.when(kv == 0)
    def _():
        max_ref[...] = jnp.full(max_ref.shape, -jnp.inf, jnp.float32)
        sum_ref[...] = jnp.zeros_like(sum_ref)
        acc_ref[...] = jnp.zeros_like(acc_ref)

    q, k, v = q_ref[...], k_ref[...], v_ref[...]
    scores = jnp.dot(q, k.T, preferred_element_type=jnp.float32) * scale
    old_max = max_ref[...]
    new_max = jnp.maximum(old_max, scores.max(axis=1, keepdims=True))
    weights = jnp.exp(scores - new_max)
    rescale = jnp.exp(old_max - new_max)
    total = rescale * sum_ref[...] + weights.sum(axis=1, keepdims=True)
    acc = rescale * acc_ref[...] + jnp.dot(weights, v, preferred_element_type=jnp.float32)
    max_ref[...] = new_max
    sum_ref[...] = total
    acc_ref[...] = acc

    @pl.when(kv == pl.num_programs(1) - 1)
    def _():
        o_ref[...] = acc / total


def _attention_input(rows, head, salt):
    flat = (np.arange(rows * head) * (salt + 2) + salt) % 13 - 6
    return (flat / 8).astype(np.float32).reshape(rows, head)


@weft.scenario(devices=1, cores_per_device=2,
               params={"seq_q": 16, "seq_k": 32, "head": 8, "bq": 8, "bk": 8, "bug": 0})
def flash_attention(seq_q, seq_k, head, bq, bk, bug):
    q, k, v = _attention_input(seq_q, head, 0), _attention_input(seq_k, head, 1), _attention_input(seq_k, head, 2)
    scale = np.float32(1 / np.sqrt(np.float32(head)))
    call = pl.pallas_call(
        lambda *refs: flash_attention_kernel(*refs, scale=scale),
        out_shape=jax.ShapeDtypeStruct((seq_q, head), jnp.float32),
        grid=(seq_q // bq, seq_k // bk),
        in_specs=[pl.BlockSpec((bq, head), lambda i, j: (i, 0)),
                  pl.BlockSpec((bk, head), lambda i, j: (j, 0)),
                  pl.BlockSpec((bk, head), lambda i, j: (j, 0))],
        out_specs=pl.BlockSpec((bq, head), lambda i, j: (i, 0)),
        scratch_shapes=[pltpu.VMEM((bq, 1), jnp.float32), pltpu.VMEM((bq, 1), jnp.float32),
                        pltpu.VMEM((bq, head), jnp.float32)],
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel" if bug == 1 else "arbitrary")))
    scores = q.astype(np.float64) @ k.T.astype(np.float64) * float(scale)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    want = (weights / weights.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    np.testing.assert_allclose(np.asarray(call(q, k, v)), want, rtol=1e-4, atol=1e-4)
