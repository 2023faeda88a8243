"""``python -m pycl``: every OpenCL platform and device pycl finds, what each
can do, and where pycl looked for vendors."""

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


def describe(out=sys.stdout):
    platforms = pycl.get_platforms()
    for p_index, platform in enumerate(platforms):
        print("[%d] %s — %s" % (p_index, platform.name, platform.vendor), file=out)
        print("    %s" % platform.version, file=out)
        for d_index, device in enumerate(platform.get_devices()):
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


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pycl", description=__doc__)
    parser.parse_args(argv)
    os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-pocl-cache-"))
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
