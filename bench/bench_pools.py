"""Memory pools: pycl against PyOpenCL on the same device.

    python bench/run.py --only pools [--pypy PATH] [--device SPEC]
    python bench/bench_pools.py [same options]

Both libraries get the same seeded sequence of sizes from 1 B to 1 MiB,
log-uniform (every bin of that range is used, small ones as often as large
ones). Operations:

- ``MemoryPool(ImmediateAllocator(queue))``: ``pool.allocate(size)`` +
  ``release()`` (the pool is warmed first: every call is a hit, which is
  what a pool is for: the cost of the Python object and the bookkeeping);
- ``SVMPool(SVMAllocator(ctx, queue=queue))``: ``pool(size)`` + ``release()``
  (SVM devices; PyOpenCL's allocator has no queue on PoCL 3.0, whose
  queue-bound frees corrupt memory: docs/quirks.md; no block is freed while
  timing anyway);
- a sliding-window step: allocate a block, release the one allocated
  ``WINDOW`` steps earlier (a stream of temporaries).

Under the table: managed, active and held bytes and blocks after a fixed
sliding-window workload on a fresh pool (the same sizes on both sides: the
bins are the same, so the figures should be too), pycl's ``pool.stats()``,
and what ``free_held()`` leaves.
"""

import random
from collections import deque
from itertools import cycle

import harness

TITLE = "Memory pools"
WINDOW = 64
WORKLOAD_STEPS = 20000


def random_sizes(count=4096, seed=1234):
    """Log-uniform sizes from 1 B to 1 MiB (plain ints: pycl wants ints)."""
    rng = random.Random(seed)
    return [max(1, min(1 << 20, int(2.0 ** rng.uniform(0, 20)))) for _ in range(count)]


SIZES = random_sizes()


def _pools(s):
    """[(label, pool, allocate)] for the device: a MemoryPool always, an
    SVMPool when the device has SVM (else a reason string)."""
    tools = s.tools
    pools = [("MemoryPool", tools.MemoryPool(tools.ImmediateAllocator(s.queue)), "allocate")]
    why = s.svm_skip()
    if why:
        pools.append(("SVMPool", why, None))
    else:
        allocator = tools.SVMAllocator(s.ctx, queue=s.svm_queue())
        pools.append(("SVMPool", tools.SVMPool(allocator), "__call__"))
    return pools


def _window_steps(pool, allocate, steps, window):
    sizes = cycle(SIZES)
    live = deque()
    for _ in range(steps):
        live.append(allocate(next(sizes)))
        if len(live) > window:
            live.popleft().release()
    return live


def operations(s):
    ops = []
    for label, pool, method in _pools(s):
        names = (
            "%s allocate+release, 1 B..1 MiB" % label,
            "%s sliding window step (%d live)" % (label, WINDOW),
        )
        if isinstance(pool, str):
            ops.extend(harness.Op(name, kind="object", skip=pool) for name in names)
            continue
        allocate = getattr(pool, method)
        for size in SIZES:  # one block per bin: every later call is a hit
            allocate(size).release()
        sizes = cycle(SIZES)

        def alloc_release(allocate=allocate, sizes=sizes):
            allocate(next(sizes)).release()

        live = _window_steps(pool, allocate, 2 * len(SIZES), WINDOW)
        window_sizes = cycle(SIZES)

        def window_step(allocate=allocate, sizes=window_sizes, live=live):
            live.append(allocate(next(sizes)))
            live.popleft().release()

        ops.append(harness.Op(names[0], alloc_release, kind="object"))
        ops.append(harness.Op(names[1], window_step, kind="object"))
    return ops


def _mib(nbytes):
    return "%.2f MiB" % (nbytes / float(1 << 20))


def report(s):
    lines = []
    for label, pool, method in _pools(s):
        if isinstance(pool, str):
            lines.append("%s: skipped: %s" % (label, pool))
            continue
        live = _window_steps(pool, getattr(pool, method), WORKLOAD_STEPS, WINDOW)
        lines.append(
            "%s after %d sliding-window steps (%d live blocks): managed %s, active %s (%d blocks), held %d blocks"
            % (
                label,
                WORKLOAD_STEPS,
                WINDOW,
                _mib(pool.managed_bytes),
                _mib(pool.active_bytes),
                pool.active_blocks,
                pool.held_blocks,
            )
        )
        if hasattr(pool, "stats"):
            stats = pool.stats()
            lines.append(
                "%s.stats(): %s" % (label, ", ".join("%s=%s" % (key, value) for key, value in sorted(stats.items())))
            )
        while live:
            live.popleft().release()
        managed, held = pool.managed_bytes, pool.held_blocks
        pool.free_held()
        lines.append(
            "%s with every block released: managed %s, held %d blocks; after free_held(): managed %s"
            % (label, _mib(managed), held, _mib(pool.managed_bytes))
        )
    return lines


if __name__ == "__main__":
    harness.main(default_only=["pools"])
