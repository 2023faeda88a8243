"""Sub-buffers of one parent are destroyed youngest first (the shim defers an
older one's release): NVIDIA's OpenCL (CUDA 13.0) crashes otherwise."""

import os
import subprocess
import sys
import textwrap

from hypothesis import given, note
from hypothesis import strategies as st

import pycl as cl


def test_releases_wait_for_younger_siblings(ctx_factory):
    ctx = ctx_factory()
    align = max(1, ctx_factory.device.mem_base_addr_align // 8)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 8 * align)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 8 * align)
    subs = [buf[i * align : (i + 2) * align] for i in range(5)]
    unrelated = other[0:align]  # younger, but of another parent: no effect
    # A second reference to each sub-buffer shows when the first one goes.
    twins = [cl.Buffer.from_int_ptr(sub.int_ptr) for sub in subs]

    def destroyed_by_owner():
        return [twin.reference_count == 1 for twin in twins]

    assert destroyed_by_owner() == [False] * 5
    subs[0].release()
    subs[2].release()
    assert destroyed_by_owner() == [False] * 5  # both wait: younger siblings live
    subs[4].release()
    assert destroyed_by_owner() == [False, False, False, False, True]
    subs[3].release()  # now 3 and the waiting 2 go
    assert destroyed_by_owner() == [False, False, True, True, True]
    subs[1].release()  # 1 and the waiting 0 go
    assert destroyed_by_owner() == [True] * 5
    # A second owner's release is immediate.
    sub = buf[0:align]
    twin = cl.Buffer.from_int_ptr(sub.int_ptr)
    twin.release()
    assert sub.reference_count == 1
    unrelated.release()


@given(data=st.data())
def test_releases_match_the_youngest_first_model(device, data):
    """Sub-buffers of three parents made and released in a drawn order,
    against a model: a sub-buffer is destroyed once its creator released it
    and every younger sibling of the same parent (one made after it was
    destroyed does not matter)."""
    ctx = cl.Context([device])
    align = max(1, device.mem_base_addr_align // 8)
    parents = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * align) for _ in range(3)]
    made = []  # in creation order: [parent index, sub-buffer, second reference, released]
    destroyed = []  # the model's, by the same index
    live = []
    steps = data.draw(
        st.lists(st.tuples(st.booleans(), st.integers(0, 2), st.integers(0, 3), st.integers(0, 99)), max_size=40),
        label="steps: (create, parent, origin, which to release)",
    )
    for create, parent, origin, pick in steps:
        if create or not live:
            sub = parents[parent][origin * align : (origin + 1) * align]
            entry = [parent, sub, cl.Buffer.from_int_ptr(sub.int_ptr), False]
            made.append(entry)
            destroyed.append(False)
            live.append(entry)
        else:
            entry = live.pop(pick % len(live))
            entry[1].release()
            entry[3] = True
        for i, (parent, _, _, released) in enumerate(made):
            younger = [later for later in made[i + 1 :] if later[0] == parent]
            destroyed[i] = destroyed[i] or released and all(later[3] for later in younger)
        note("released %s, expected destroyed %s" % ([e[3] for e in made], destroyed))
        assert [twin.reference_count == 1 for _, _, twin, _ in made] == destroyed
    for entry in live:
        entry[1].release()
    assert all(twin.reference_count == 1 for _, _, twin, _ in made)
    for _, _, twin, _ in made:
        twin.release()


NVIDIA_CRASH = textwrap.dedent(
    """
    import sys
    import numpy as np
    import pycl as cl
    platform = cl.get_platforms()[int(sys.argv[1])]
    device = platform.get_devices()[int(sys.argv[2])]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    align = max(1, device.mem_base_addr_align // 8)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                    hostbuf=np.arange(4 * align, dtype=np.uint8))
    older = buf[align : 3 * align]
    write = cl.enqueue_copy(queue, older, np.full(8, 9, np.uint8), dst_offset=4)
    younger = buf.get_sub_region(2 * align, 8)
    out = np.empty(8, np.uint8)
    read = cl.enqueue_copy(queue, out, younger)
    queue.finish()
    older.release()  # destroyed after `younger`: the shim defers it
    younger.release()
    assert (out == np.arange(4 * align, dtype=np.uint8)[2 * align : 2 * align + 8]).all()
    print("survived")
    """
)


def test_nvidia_release_order_crash_sequence(device, tmp_path):
    platforms = cl.get_platforms()
    p_index = platforms.index(device.platform)
    d_index = device.platform.get_devices().index(device)
    env = dict(os.environ, POCL_CACHE_DIR=str(tmp_path))
    run = subprocess.run(
        [sys.executable, "-c", NVIDIA_CRASH, str(p_index), str(d_index)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "survived"
