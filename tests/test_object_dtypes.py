"""Arrays and dtypes of Python objects are refused wherever pycl would put
device, mapped or pinned bytes under them (a read would write pointers, a
map or an SVM array would read bytes as pointers): a clear TypeError before
any command, never a crash. Each device runs in a fresh process, so that a
missing check fails the test instead of ending the run."""

import subprocess
import sys
import textwrap

import numpy as np

import pycl as cl

CALLS = {
    "read into an object array": "cl.enqueue_copy(q, np.empty(8, object), buf)",
    "write from an object array": "cl.enqueue_copy(q, buf, np.empty(8, object))",
    "rect read into an object array": (
        "cl.enqueue_copy(q, np.empty(8, object), buf, buffer_origin=(0, 0), host_origin=(0, 0), region=(8, 1))"
    ),
    "Buffer from an object array": "cl.Buffer(ctx, cl.mem_flags.COPY_HOST_PTR, hostbuf=np.empty(4, object))",
    "map as objects": "cl.enqueue_map_buffer(q, buf, cl.map_flags.READ, 0, 8, object)",
    "map as a dtype instance": "cl.enqueue_map_buffer(q, buf, cl.map_flags.READ, 0, 8, np.dtype(object))",
    "map as a record with an object field": (
        "cl.enqueue_map_buffer(q, buf, cl.map_flags.READ, 0, (2,), np.dtype([('a', np.int32), ('b', object)]))"
    ),
    "pinned array of objects": "pinned_empty(q, 4, object)",
}
IMAGE_CALLS = {
    "image read into an object array": (
        "cl.enqueue_copy(q, np.empty((4, 4), object), img, origin=(0, 0), region=(4, 4))"
    ),
    "image map as objects": "cl.enqueue_map_image(q, img, cl.map_flags.READ, (0, 0), (4, 4), (4, 4), object)",
}
SVM_CALLS = {"SVM array of objects": "cl.svm_empty(ctx, cl.svm_mem_flags.READ_WRITE, 4, object)"}


def test_object_arrays_and_dtypes_are_refused(device):
    calls = dict(CALLS)
    if device.image_support:
        calls.update(IMAGE_CALLS)
    if device.svm_capabilities:
        calls.update(SVM_CALLS)
    platforms = cl.get_platforms()
    platform = platforms.index(device.platform)
    script = textwrap.dedent(
        """
        import numpy as np
        import pycl as cl
        from pycl.pinned import pinned_empty
        device = cl.get_platforms()[%d].get_devices()[%d]
        ctx = cl.Context([device])
        q = cl.CommandQueue(ctx)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
        if device.image_support:
            img = cl.image_from_array(ctx, np.zeros((4, 4, 4), np.uint8), 4)
        for name, call in %r.items():
            try:
                eval(call)
            except TypeError as error:
                print(name, "|", error)
            else:
                print(name, "| no error")
        """
        % (platform, platforms[platform].get_devices().index(device), calls)
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    answers = dict(line.split(" | ", 1) for line in run.stdout.splitlines())
    assert set(answers) == set(calls)
    for name, message in answers.items():
        assert "holds Python objects" in message, (name, message)
        assert "dtype" in message or "ndarray" in message, (name, message)


def test_plain_records_still_map(cq):
    ctx, queue = cq
    record = np.dtype([("a", np.int32), ("b", np.float32)])
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    model = np.array([(1, 2.5), (-3, 4.0)], record)
    cl.enqueue_copy(queue, buf, model)
    mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (2,), record)
    np.testing.assert_array_equal(mapped, model)
    mapped.base.release()
