"""The collection budget (pycl.budget): objects dropped without release()
hold a bounded amount of memory on every interpreter, explicit releases cost
no collection, and dropped pool blocks come back before a pool gives up."""

import gc
import json
import os
import subprocess
import sys

import pytest

import pycl as cl
from pycl import budget
from pycl.tools import ImmediateAllocator, MemoryPool

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "budget_probe.py")
BUDGET = 64 << 20
OBJECT = 8 << 20
COUNT = 8 * BUDGET // OBJECT  # eight budgets' worth of dropped memory

KINDS = ["buffer", "image", "svm", "pipe", "pool", "svm_pool", "pinned", "map"]
# Kinds whose memory is host memory on every device (pinned arrays, and the
# host side of maps); on CPU devices every kind's memory is.
HOST_KINDS = {"pinned", "map"}


def _missing_feature(device, kind):
    if kind == "image" and not device.image_support:
        return "%s has no image support" % device.name
    if kind in ("svm", "svm_pool") and not cl.characterize.has_coarse_grain_buffer_svm(device):
        return "%s has no coarse-grain SVM (pycl uses OpenCL %d.%d)" % ((device.name,) + device.cl_version)
    if kind == "pipe" and (device.cl_version < (2, 0) or not device.pipe_support):
        return "%s has no pipe support" % device.name
    return None


def _indices(device):
    platforms = cl.get_platforms()
    platform_index = platforms.index(device.platform)
    return platform_index, platforms[platform_index].get_devices().index(device)


def _probe_env(**extra):
    env = dict(os.environ, **extra)
    env.pop("PYCL_GC_BUDGET", None)
    env.update(extra)
    return env


@pytest.mark.parametrize("kind", KINDS)
def test_dropped_objects_hold_at_most_a_budget(device, kind):
    """Eight budgets' worth of objects, each written once and dropped without
    release(), in a fresh process: the dropped-but-uncollected objects (seen
    through weak references) never hold much more than the budget, and on
    host memory neither does the process's peak resident size. Without the
    budget, PyPy holds all eight budgets (peak RSS grows by all of them)."""
    missing = _missing_feature(device, kind)
    if missing:
        pytest.skip(missing)
    # A fixed mmap threshold makes glibc return every freed object's pages
    # at once, so the peak resident size measures what is held, not malloc's
    # caching of freed chunks.
    env = _probe_env(PYCL_GC_BUDGET=str(BUDGET), MALLOC_MMAP_THRESHOLD_=str(1 << 20))
    args = [sys.executable, PROBE, *map(str, _indices(device)), kind, str(OBJECT), str(COUNT)]
    run = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    # At most a budget of dropped objects, plus the one being made; objects
    # that only a numpy array holds (maps, pinned arrays) need a second
    # collection on PyPy, whose numpy arrays are cpyext objects.
    assert result["max_uncollected"] <= 2 * BUDGET + OBJECT, result
    if kind in HOST_KINDS or device.type & cl.device_type.CPU:
        assert result["hwm_growth"] <= 3 * BUDGET, result


@pytest.fixture
def small_budget():
    """Accounting on with a 1 MiB budget per device; the settings come back after."""
    saved = budget.settings()
    budget.configure(enabled=True, min_bytes=1 << 20, fraction=0)
    yield 1 << 20
    budget.configure(**saved)


def test_explicit_release_never_collects(cq, small_budget):
    """Sixteen budgets of buffers, SVM, maps and pool blocks (of a pool that
    grows and shrinks), each released explicitly: the budget never collects."""
    ctx, queue = cq
    device = ctx.devices[0]
    budget.collect()  # objects earlier tests dropped (PyPy frees them late) leave the account
    before = budget.stats()["collections"]
    pool = MemoryPool(ImmediateAllocator(queue))
    for step in range(64):
        blocks = [pool.allocate(small_budget // 4 + i) for i in range(1 + step % 3)]
        for block in blocks:
            block.release()
        if step % 8 == 7:
            pool.free_held()
        with cl.Buffer(ctx, cl.mem_flags.READ_WRITE, small_budget // 4) as buf:
            array, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.WRITE, 0, small_budget // 4, "u1")
            array.base.release()
        if cl.characterize.has_coarse_grain_buffer_svm(device):
            cl.SVMAllocation(ctx, small_budget // 4, 0, cl.svm_mem_flags.READ_WRITE, queue=queue).release()
    queue.finish()
    assert budget.stats()["collections"] == before


def test_dropped_buffers_collect_once_per_budget(cq, small_budget):
    """Buffers dropped without release() in reference cycles (which CPython's
    reference counting cannot free either): one collection per budget's
    worth, and the cycles are gone after each."""
    ctx, _ = cq
    budget.collect()  # start from an empty account
    gc.disable()  # only the budget collects here
    try:
        before = budget.stats()["collections"]
        for _ in range(16):
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, small_budget // 2)
            cycle = [buf]
            cycle.append(cycle)
            del buf, cycle
        # 8 MiB in 512 KiB objects, 2 per budget: a collection before the
        # 3rd, 5th, ... 15th object.
        assert budget.stats()["collections"] - before == 7
    finally:
        gc.enable()


def test_pool_limit_takes_back_dropped_blocks(cq):
    """A pool at its max_bytes collects before it gives up: the blocks of
    dropped PooledBuffers (here in reference cycles, which wait for a
    collection on every interpreter) come back and are reused."""
    ctx, queue = cq
    pool = MemoryPool(ImmediateAllocator(queue), max_bytes=4 << 20)
    gc.disable()
    try:
        for _ in range(16):
            buf = pool.allocate(1 << 20)
            cycle = [buf]
            cycle.append(cycle)
            del buf, cycle
    finally:
        gc.enable()
    stats = pool.stats()
    assert stats["managed_bytes"] <= 4 << 20
    assert stats["oom_retries"] >= 1


def _settings_in_fresh_process(value):
    env = _probe_env() if value is None else _probe_env(PYCL_GC_BUDGET=value)
    code = "import json, pycl.budget as b; print(json.dumps(b.settings()))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    return run


def test_default_is_on_for_pypy_only():
    run = _settings_in_fresh_process(None)
    assert run.returncode == 0, run.stderr
    settings = json.loads(run.stdout)
    assert settings == {"enabled": sys.implementation.name == "pypy", "min_bytes": 256 << 20, "fraction": 1 / 16}


@pytest.mark.parametrize(
    "value, expected",
    [
        ("64M", {"enabled": True, "min_bytes": 64 << 20, "fraction": 0}),
        ("2GiB", {"enabled": True, "min_bytes": 2 << 30, "fraction": 0}),
        ("1048576", {"enabled": True, "min_bytes": 1 << 20, "fraction": 0}),
        ("off", {"enabled": False, "min_bytes": 256 << 20, "fraction": 1 / 16}),
    ],
)
def test_environment_variable(value, expected):
    run = _settings_in_fresh_process(value)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == expected


def test_environment_variable_rejects_nonsense():
    run = _settings_in_fresh_process("lots")
    assert run.returncode != 0
    assert "PYCL_GC_BUDGET" in run.stderr and "'lots'" in run.stderr


@pytest.mark.parametrize(
    "kwargs, error, named",
    [
        ({"min_bytes": 0}, cl.LogicError, "min_bytes"),
        ({"min_bytes": 1.5}, TypeError, "min_bytes"),
        ({"fraction": 2}, cl.LogicError, "fraction"),
    ],
)
def test_configure_rejects_bad_values(kwargs, error, named):
    saved = budget.settings()
    with pytest.raises(error, match=named):
        budget.configure(**kwargs)
    assert budget.settings() == saved


def test_budget_follows_device_memory(device):
    """Each device's budget is max(min_bytes, fraction * global memory)."""
    saved = budget.settings()
    try:
        budget.configure(enabled=True, min_bytes=1 << 20, fraction=0.5)
        ctx = cl.Context([device])
        cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64).release()
        (account,) = [a for a in budget.stats()["devices"] if a["device"] == device]
        assert account["budget"] == max(1 << 20, device.global_mem_size // 2)
    finally:
        budget.configure(**saved)
