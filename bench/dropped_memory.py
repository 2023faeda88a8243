"""Peak memory of a program that drops its objects without release().

    python bench/dropped_memory.py                       # this interpreter
    python bench/dropped_memory.py --pypy /path/to/pypy  # and pycl on PyPy
    python bench/dropped_memory.py --budget off          # without pycl.budget

Each interpreter runs, in a fresh child process, the workload of issue 11:
200 x 64 MiB Buffers, each written once and dropped (``del``), then 200 x 64
MiB SVMAllocations bound to the queue, then 100 images of 4096x4096 RGBA8,
dropped the same way (``--scale`` shrinks the counts). After each phase it
reports the growth of the child's peak resident memory (``ru_maxrss``) over
its start, and the phase's time. A child whose resident memory passes
``--cap-mib`` stops there and says so, instead of running the machine out of
memory. ``--budget`` is passed to the children as ``PYCL_GC_BUDGET``
(default: pycl's defaults).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time

MIB = 1 << 20


def _resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(device_spec, scale, cap):
    import numpy as np

    import pycl as cl

    ctx = cl.create_some_context(interactive=False, answers=device_spec.split(":") if device_spec else None)
    queue = cl.CommandQueue(ctx)
    device = ctx.devices[0]
    host = np.full(64 * MIB, 7, np.uint8)
    start = _peak()
    phases = []

    def run(name, count, make):
        t0 = time.perf_counter()
        for i in range(count):
            make()
            if _resident() - start > cap:
                phases.append({"phase": name, "stopped_at": i + 1, "growth_mib": (_peak() - start) / MIB})
                return False
        queue.finish()
        phases.append(
            {"phase": name, "count": count, "growth_mib": (_peak() - start) / MIB, "seconds": time.perf_counter() - t0}
        )
        return True

    def buffer():
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
        cl.enqueue_copy(queue, buf, host)
        del buf

    def svm():
        svm = cl.SVMAllocation(ctx, host.nbytes, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
        cl.enqueue_copy(queue, svm, host)
        del svm

    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)

    def image():
        image = cl.Image(ctx, cl.mem_flags.READ_WRITE, fmt, shape=(4096, 4096))
        cl.enqueue_copy(queue, image, host, origin=(0, 0), region=(4096, 4096))
        del image

    ok = run("64 MiB Buffers", max(1, 200 // scale), buffer)
    has_svm = cl.characterize.has_coarse_grain_buffer_svm(device)
    if ok and has_svm:
        ok = run("64 MiB SVMAllocations", max(1, 200 // scale), svm)
    if ok and device.image_support:
        run("4096x4096 RGBA8 images", max(1, 100 // scale), image)
    from pycl import budget

    print(
        json.dumps(
            {
                "device": device.name,
                "phases": phases,
                "budget": budget.settings(),
                "collections": budget.stats()["collections"],
            }
        )
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pypy", help="a PyPy with pycl installed: also run the workload there")
    parser.add_argument("--device", default=os.environ.get("PYOPENCL_CTX", ""), help='"platform:device" indices')
    parser.add_argument("--scale", type=int, default=1, help="divide the object counts by this")
    parser.add_argument("--cap-mib", type=int, default=8192, help="stop a child whose resident memory grows past this")
    parser.add_argument("--budget", help="PYCL_GC_BUDGET for the children (off, or a size such as 256M)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.device, args.scale, args.cap_mib * MIB)
        return
    env = dict(os.environ)
    if args.budget is not None:
        env["PYCL_GC_BUDGET"] = args.budget
    for python in [sys.executable] + ([args.pypy] if args.pypy else []):
        command = [
            python,
            os.path.abspath(__file__),
            "--child",
            "--device",
            args.device,
            "--scale",
            str(args.scale),
            "--cap-mib",
            str(args.cap_mib),
        ]
        run = subprocess.run(command, env=env, capture_output=True, text=True)
        version = subprocess.run(
            [python, "-c", "import sys; print(sys.version.split()[0], sys.implementation.name)"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        if run.returncode:
            print("%s: failed (%d)\n%s" % (version, run.returncode, run.stderr[-2000:]))
            continue
        result = json.loads(run.stdout.strip().splitlines()[-1])
        print(
            "%s on %s, budget %s, %d collections" % (version, result["device"], result["budget"], result["collections"])
        )
        for phase in result["phases"]:
            if "stopped_at" in phase:
                print(
                    "  %-24s stopped after %d objects: resident memory passed the cap (peak growth %.0f MiB)"
                    % (phase["phase"], phase["stopped_at"], phase["growth_mib"])
                )
            else:
                print(
                    "  %-24s %4d dropped: peak RSS growth %7.0f MiB (%.1f s)"
                    % (phase["phase"], phase["count"], phase["growth_mib"], phase["seconds"])
                )


if __name__ == "__main__":
    main()
