"""PyOpenCL's Python layer (``pyopencl.array``, elementwise kernels,
reductions, scans, ``clrandom``) on pycl: ``python -m pycl.pyopencl_layer
install`` assembles a ``pyopencl`` package from PyOpenCL's own published wheel,
with pycl's ``pycl.pyopencl_cl`` as its ``pyopencl._cl``.

Why a command, and not an extra or an import hook:

- PyOpenCL publishes no wheel for most PyPy releases, and its source build
  needs a C++ compiler and the OpenCL headers. Its Python files, though, are
  the same in every wheel it publishes, so the command takes them from one
  (any platform's: only ``.py`` files and kernel headers are kept), with no
  compiler and no libOpenCL.
- An extra cannot depend on "PyOpenCL without its compiled module"; an import
  hook would have to fetch PyOpenCL at import time, or ship its files in this
  repository, which it must not.
- The result is an ordinary installed distribution named ``pyopencl``
  (``pip show pyopencl``, ``pip uninstall pyopencl`` work), so code and
  packages that depend on PyOpenCL find it.

A newcomer runs two commands::

    pip install 'pycl-cffi[pyopencl]'       # pycl and the layer's pure-Python dependencies
    python -m pycl.pyopencl_layer install   # PyOpenCL's Python files, pinned to SUPPORTED

``--target DIR`` writes the package to ``DIR`` instead of site-packages (to keep
a compiled PyOpenCL beside it, as the tests and benchmarks do), and
``--wheel FILE`` takes a wheel already downloaded (no network).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Sequence
from typing import Optional

__all__ = ["SUPPORTED", "DEFAULT_VERSION", "install", "main"]

#: The PyOpenCL releases whose ``_cl`` interface ``pycl.pyopencl_cl`` implements.
SUPPORTED = ">=2026.1,<2026.2"
#: The release installed when none is named: the one the tests run.
DEFAULT_VERSION = "2026.1.4"

_SUPPORTED_RE = re.compile(r"^2026\.1(\.\d+)?$")
# Any platform's wheel holds the same Python files; these are asked for in turn.
_PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64")
_CL_MODULE = '''"""PyOpenCL's compiled module, here provided by pycl (written by
``python -m pycl.pyopencl_layer install``; see pycl's docs, "PyOpenCL's
Python layer on pycl")."""

from pycl.pyopencl_cl import *  # noqa: F403
from pycl.pyopencl_cl import _finish

_finish()
'''
_MARKER = "PYCL_LAYER"


class LayerError(Exception):
    """The layer cannot be installed as asked (the message says why)."""


def _kept(name: str) -> bool:
    """Whether a member of PyOpenCL's wheel belongs to the layer: its Python
    files and kernel headers, not its compiled module, bundled libraries or
    stubs of the compiled module."""
    if not name.startswith("pyopencl/") or name.endswith("/"):
        return False
    if name.startswith("pyopencl/.libs/") or name.startswith("pyopencl/_cl."):
        return False
    return not name.endswith((".so", ".pyd", ".dylib", ".dll"))


def _download(version: str, into: str) -> str:
    """PyOpenCL's wheel of ``version`` for CPython 3.12 on Linux, by pip."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    command += ["--python-version", "3.12", "--implementation", "cp"]
    for platform in _PLATFORMS:
        command += ["--platform", platform]
    command += ["-d", into, "pyopencl==" + version]
    done = subprocess.run(command, capture_output=True, text=True)
    wheels = [f for f in os.listdir(into) if f.startswith("pyopencl-") and f.endswith(".whl")]
    if done.returncode or not wheels:
        raise LayerError("pip could not download PyOpenCL %s's wheel:\n%s" % (version, done.stderr.strip()))
    return os.path.join(into, wheels[0])


def _wheel_version(path: str) -> str:
    match = re.match(r"pyopencl-([^-]+)-", os.path.basename(path))
    if not match:
        raise LayerError("wheel: %r is not named as a PyOpenCL wheel (pyopencl-VERSION-...whl)" % path)
    return match.group(1)


def _check_target(target: str) -> None:
    package = os.path.join(target, "pyopencl")
    if os.path.isdir(package) and not os.path.exists(os.path.join(package, _MARKER)):
        raise LayerError(
            "target: %s already holds a PyOpenCL that pycl did not write; uninstall it "
            "(pip uninstall pyopencl) or pass --target DIR" % package
        )


def _record_line(relative: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (relative, digest, len(data))


def install(target: Optional[str] = None, version: str = DEFAULT_VERSION, wheel: Optional[str] = None) -> str:
    """Write the ``pyopencl`` package (PyOpenCL ``version``'s Python files over
    pycl) and its ``.dist-info`` into ``target`` (default: this interpreter's
    site-packages). Returns the package's directory."""
    if wheel is not None:
        version = _wheel_version(wheel)
    if not _SUPPORTED_RE.match(version):
        raise LayerError("version: PyOpenCL %s is outside the releases pycl supports (%s)" % (version, SUPPORTED))
    target = os.path.abspath(target or sysconfig.get_paths()["purelib"])
    _check_target(target)
    with tempfile.TemporaryDirectory() as scratch:
        source = wheel or _download(version, scratch)
        files: dict[str, bytes] = {}
        with zipfile.ZipFile(source) as archive:
            for name in archive.namelist():
                if _kept(name):
                    files[name] = archive.read(name)
            metadata = next((n for n in archive.namelist() if n.endswith(".dist-info/METADATA")), None)
            meta_text = archive.read(metadata) if metadata else b"Metadata-Version: 2.1\nName: pyopencl\n"
    if "pyopencl/__init__.py" not in files:
        raise LayerError("wheel: %s holds no pyopencl/__init__.py" % source)
    files["pyopencl/_cl.py"] = _CL_MODULE.encode()
    files["pyopencl/" + _MARKER] = ("PyOpenCL %s's Python files over pycl\n" % version).encode()
    info = "pyopencl-%s.dist-info/" % version
    files[info + "METADATA"] = meta_text
    files[info + "INSTALLER"] = b"pycl-cffi\n"
    files[info + "top_level.txt"] = b"pyopencl\n"
    record = [_record_line(name, data) for name, data in sorted(files.items())]
    files[info + "RECORD"] = ("\n".join(record + [info + "RECORD,,"]) + "\n").encode()
    for stale in os.listdir(target) if os.path.isdir(target) else ():
        if stale.startswith("pyopencl-") and stale.endswith(".dist-info"):
            _remove_tree(os.path.join(target, stale))
    _remove_tree(os.path.join(target, "pyopencl"))
    for name, data in files.items():
        path = os.path.join(target, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
    return os.path.join(target, "pyopencl")


def _remove_tree(path: str) -> None:
    if not os.path.isdir(path):
        return
    for root, dirs, names in os.walk(path, topdown=False):
        for name in names:
            os.remove(os.path.join(root, name))
        for name in dirs:
            os.rmdir(os.path.join(root, name))
    os.rmdir(path)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pycl.pyopencl_layer", description="PyOpenCL's Python layer over pycl."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("install", help="write the pyopencl package (PyOpenCL's Python files over pycl)")
    add.add_argument("--target", help="directory to write to (default: site-packages)")
    add.add_argument(
        "--version", default=DEFAULT_VERSION, help="PyOpenCL release, %s (default %s)" % (SUPPORTED, DEFAULT_VERSION)
    )
    add.add_argument("--wheel", help="a PyOpenCL wheel already downloaded (any platform's)")
    args = parser.parse_args(argv)
    try:
        where = install(args.target, args.version, args.wheel)
    except LayerError as error:
        print("pycl.pyopencl_layer: %s" % error, file=sys.stderr)
        return 2
    print("PyOpenCL's Python layer over pycl: %s" % where)
    return 0


if __name__ == "__main__":
    sys.exit(main())
