"""``python -m pycl``: every OpenCL platform and device pycl finds, what each
can do (for a platform with several devices, whether one context takes them
all and moves data between them), and where pycl looked for vendors.

``python -m pycl --api``: every name of PyOpenCL's memory documentation (the
pages in pycl/reference/) with its status in pycl: implemented, implemented
with a documented difference (and the reason, from docs/differences.md), or
missing; and, for names that need a device feature (SVM, images, pipes, ...),
the devices found here that lack it."""

import argparse
import os
import sys
import tempfile

import pycl
from pycl import loader


def _size(nbytes):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return "%d %s" % (nbytes, unit) if unit == "B" else "%.1f %s" % (nbytes, unit)
        nbytes /= 1024.0


def _svm(device):
    if device.cl_version < (2, 0):
        return "none (needs OpenCL 2.0)"
    caps = device.svm_capabilities
    return pycl.device_svm_capabilities.to_string(caps) if caps else "none"


def _kernels(device):
    from pycl.testing import kernel_compile_problem

    problem = kernel_compile_problem(device)
    return "yes" if problem is None else "no (%s)" % problem.splitlines()[0][:200]


def _multi_device(p_index, devices):
    """Whether one context takes all ``devices`` (of platform ``p_index``)
    and a buffer written from the first one's queue reads back from the
    last one's: the line ``describe`` prints for a platform with several."""
    first, last = "[%d:0]" % p_index, "[%d:%d]" % (p_index, len(devices) - 1)
    ctx_spec = "PYOPENCL_CTX='%d:%s'" % (p_index, ",".join(str(i) for i in range(len(devices))))
    head = "one context over its %d devices:" % len(devices)
    try:
        ctx = pycl.Context(devices)
    except pycl.Error as error:
        return "%s no (%s)" % (head, error)
    try:
        data = bytes(range(256)) * 16
        back = bytearray(len(data))
        buf = pycl.Buffer(ctx, pycl.mem_flags.READ_WRITE, len(data))
        pycl.enqueue_copy(pycl.CommandQueue(ctx, devices[0]), buf, data)
        pycl.enqueue_copy(pycl.CommandQueue(ctx, devices[-1]), back, buf)
    except pycl.Error as error:
        return "%s yes, but moving data from %s to %s failed (%s)" % (head, first, last, error)
    if bytes(back) != data:
        return "%s yes, but data written on %s reads back differently on %s" % (head, first, last)
    return "%s yes, data written on %s reads back on %s (%s)" % (head, first, last, ctx_spec)


def describe(out=sys.stdout):
    """Every platform and device, what each can do, and for a platform with
    several devices whether one context takes them all."""
    platforms = pycl.get_platforms()
    for p_index, platform in enumerate(platforms):
        print("[%d] %s — %s" % (p_index, platform.name, platform.vendor), file=out)
        print("    %s" % platform.version, file=out)
        devices = platform.get_devices()
        if len(devices) > 1:
            print("    %s" % _multi_device(p_index, devices), file=out)
        for d_index, device in enumerate(devices):
            print("    [%d:%d] %s" % (p_index, d_index, device.name), file=out)
            rows = [
                ("type", pycl.device_type.to_string(device.type, "%d")),
                ("version", device.version),
                ("pycl uses", "OpenCL %d.%d" % device.cl_version),
                ("SVM", _svm(device)),
                ("images", "yes" if device.image_support else "no"),
                ("global memory", _size(device.global_mem_size)),
                ("max allocation", _size(device.max_mem_alloc_size)),
                ("local memory", _size(device.local_mem_size)),
                ("compiles kernels", _kernels(device)),
            ]
            for key, value in rows:
                print("        %-17s %s" % (key + ":", value), file=out)


def _devices():
    """``([(label, device)], problem)``: the devices found, numbered as in the
    default output, or the reason none can be listed."""
    try:
        platforms = pycl.get_platforms()
    except pycl.Error as error:
        return [], str(error)
    found = []
    for p_index, platform in enumerate(platforms):
        for d_index, device in enumerate(platform.get_devices()):
            found.append(("[%d:%d] %s" % (p_index, d_index, device.name), device))
    return found, None


def _lacking(need, devices):
    """Labels of the devices without ``need``'s feature."""
    what, test = need
    out = []
    for label, device in devices:
        try:
            has = test(device)
        except pycl.Error:
            has = False
        if not has:
            out.append(label)
    return out


def api_report(out=sys.stdout):
    """Print every reference name with its status; return the count of names
    that are missing or differ without being listed."""
    from pycl import apiref

    entries = apiref.entries()
    listed = apiref.differences()
    have_list = apiref.differences_path() is not None
    devices, problem = _devices()
    print("PyOpenCL 2026.1.4's memory API (%s) in pycl %s" % (apiref.REFERENCE_DIR, pycl.VERSION_TEXT), file=out)
    if devices:
        print("devices: " + "; ".join(label for label, _ in devices), file=out)
    else:
        print("devices: none (%s): availability not checked" % problem, file=out)
    if not have_list:
        print("docs/differences.md is not installed with pycl: reasons are in pycl's source", file=out)
    print(file=out)
    counts = {"implemented": 0, "difference": 0, "missing": 0, "unavailable": 0}
    bad = unavailable_here = 0
    for entry in entries:
        status, problems = apiref.check(entry)
        detail = []
        if status == "ok":
            label = "implemented"
            if entry.name in listed:
                label = "implemented (docs/differences.md lists a difference that no longer exists)"
                bad += 1
            counts["implemented"] += 1
        elif status == "different" and entry.name in listed:
            label = "difference"
            detail.append(listed[entry.name])
            counts["difference"] += 1
        elif status == "different" and not have_list:
            label = "difference (see docs/differences.md)"
            counts["difference"] += 1
        elif status == "unavailable":
            label = "unavailable here"
            detail += problems
            counts["unavailable"] += 1
        else:
            label = "MISSING" if status == "missing" else "DIFFERS (not in docs/differences.md)"
            detail += problems
            counts["missing"] += 1
            bad += 1
        need = apiref.requirement(entry.name)
        if need is not None and devices:
            lacking = _lacking(need, devices)
            if lacking:
                unavailable_here += 1
                label += "; unavailable on %s (needs %s)" % (", ".join(lacking), need[0])
        print("%-50s %s" % (entry.name, label), file=out)
        for line in detail:
            print("    " + line, file=out)
    print(file=out)
    print(
        "%d reference names: %d implemented as documented, %d with a documented difference, "
        "%d missing or differing without a reason, %d unavailable in this installation; "
        "%d need a feature that some device here lacks"
        % (
            len(entries),
            counts["implemented"],
            counts["difference"],
            counts["missing"],
            counts["unavailable"],
            unavailable_here,
        ),
        file=out,
    )
    return bad


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m pycl", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--api",
        action="store_true",
        help="list the names of PyOpenCL's memory documentation and pycl's status for each",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-pocl-cache-"))
    if args.api:
        return 1 if api_report() else 0
    print("pycl %s (OpenCL %d.%d declarations)" % ((pycl.VERSION_TEXT,) + pycl.get_cl_header_version()))
    try:
        describe()
    except pycl.Error as error:
        print(error)
        return 1
    finally:
        print("\nWhere pycl looked:")
        print("    " + loader.report().rstrip("\n").replace("\n", "\n    "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
