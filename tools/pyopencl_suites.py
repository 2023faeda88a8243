"""PyOpenCL's own test suites, run on PyOpenCL's Python layer over pycl and
on PyOpenCL itself, device by device, with a table of what passes where.

    python tools/pyopencl_suites.py [--device SPEC ...] [--suite NAME ...]
        [--python PY] [--reference-python PY] [--out FILE]

The suites come from PyOpenCL's published sdist of the release the layer is
installed from (downloaded from PyPI into --cache, never committed), the
layer from ``python -m pycl.pyopencl_layer install --target``. Each side runs
in its own pytest process per device (``PYOPENCL_TEST=SPEC``) with a JUnit
report; the table compares the reports test by test. The exit status is 1
when a test that PyOpenCL passes on a device fails (or errs) over pycl there.

--python runs the pycl side (CPython or PyPy, with pycl and the layer's
dependencies installed); --reference-python runs PyOpenCL (a CPython with
PyOpenCL installed); leave it out to run the pycl side alone.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from typing import Optional

SUITES = (
    "test_array.py",
    "test_algorithm.py",
    "test_clmath.py",
    "test_clrandom.py",
    "test_arrays_in_structs.py",
    "test_wrapper.py",
    "test_enqueue_copy.py",
)


def fetch_sdist(version: str, cache: str) -> str:
    """PyOpenCL's sdist of ``version`` (from PyPI's simple index), in ``cache``."""
    path = os.path.join(cache, "pyopencl-%s.tar.gz" % version)
    if os.path.exists(path):
        return path
    os.makedirs(cache, exist_ok=True)
    with urllib.request.urlopen("https://pypi.org/simple/pyopencl/", timeout=60) as answer:
        index = answer.read().decode()
    links = re.findall(r'href="([^"#]*/pyopencl-%s\.tar\.gz)' % re.escape(version), index)
    if not links:
        raise SystemExit("PyPI's index lists no sdist of PyOpenCL %s" % version)
    url = urllib.parse.urljoin("https://pypi.org/simple/pyopencl/", links[0])
    with urllib.request.urlopen(url, timeout=300) as answer, open(path + ".part", "wb") as out:
        out.write(answer.read())
    os.replace(path + ".part", path)
    return path


def unpack_tests(sdist: str, into: str) -> str:
    """The sdist's test/ directory, unpacked into ``into``."""
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if "/test/" in m.name and m.isfile()]
        for member in members:
            member.name = member.name.split("/test/", 1)[1]
            archive.extract(member, os.path.join(into, "test"))
    return os.path.join(into, "test")


def run_side(
    python: str, tests: str, suites: list[str], device: str, report: str, pythonpath: Optional[str]
) -> dict[str, str]:
    """Run ``suites`` with ``python`` on ``device``; every test's outcome."""
    # A cache of each side's own: PyOpenCL keeps invokers and binaries there.
    env = dict(os.environ, PYOPENCL_TEST=device, XDG_CACHE_HOME=report + ".cache")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", report, *suites]
    if os.path.exists(report):
        os.remove(report)
    subprocess.run(command, cwd=tests, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(report):
        return {}  # the interpreter died before writing a report: every test is missing
    return read_report(report)


def read_report(report: str) -> dict[str, str]:
    """Every test's outcome in a JUnit report: passed, failed or skipped."""
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        name = "%s::%s" % (case.get("classname", "").rsplit(".", 1)[-1], case.get("name"))
        kinds = {child.tag for child in case}
        if "failure" in kinds or "error" in kinds:
            outcomes[name] = "failed"
        elif "skipped" in kinds:
            outcomes[name] = "skipped"
        else:
            outcomes[name] = "passed"
    return outcomes


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", action="append", help="a PYOPENCL_TEST value (repeatable); default: every device")
    parser.add_argument("--suite", action="append", choices=SUITES, help="a suite (repeatable); default: all")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the pycl side")
    parser.add_argument("--reference-python", help="a CPython with PyOpenCL installed")
    parser.add_argument("--version", default=None, help="PyOpenCL release (default: the layer's default)")
    parser.add_argument("--wheel", help="a PyOpenCL wheel already downloaded, for the layer")
    parser.add_argument("--cache", default=os.path.join(".cache", "pyopencl-suites"), help="where downloads are kept")
    parser.add_argument("--out", help="also write the table (Markdown) here")
    parser.add_argument("--pythonpath", help="directories to add to the pycl side's path (os.pathsep-separated)")
    parser.add_argument(
        "--reuse-reference", action="store_true", help="take PyOpenCL's results from an earlier run's reports, if any"
    )
    args = parser.parse_args(argv)
    # the suites run in the sdist's test directory: interpreters by absolute path
    args.python = _interpreter(args.python)
    if args.reference_python:
        args.reference_python = _interpreter(args.reference_python)

    from pycl import pyopencl_layer

    version = args.version or pyopencl_layer.DEFAULT_VERSION
    work = os.path.abspath(os.path.join(args.cache, version))
    layer = os.path.join(work, "layer")
    subprocess.run(
        [args.python, "-m", "pycl.pyopencl_layer", "install", "--target", layer, "--version", version]
        + (["--wheel", args.wheel] if args.wheel else []),
        check=True,
    )
    tests = unpack_tests(fetch_sdist(version, os.path.abspath(args.cache)), work)
    devices = args.device or _every_device(args.python, layer)
    suites = args.suite or list(SUITES)

    tag = subprocess.run(
        [args.python, "-c", "import sys; print(sys.implementation.name + '%d%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    rows, regressions = [], 0
    for device in devices:
        slug = "".join(c if c.isalnum() else "_" for c in device)
        path = layer if not args.pythonpath else layer + os.pathsep + args.pythonpath
        ours = run_side(args.python, tests, suites, device, os.path.join(work, "pycl-%s-%s.xml" % (tag, slug)), path)
        theirs = {}
        if args.reference_python:
            report = os.path.join(work, "pyopencl-%s.xml" % slug)
            if args.reuse_reference and os.path.exists(report):
                theirs = read_report(report)
            else:
                theirs = run_side(args.reference_python, tests, suites, device, report, None)
        for suite in suites:
            stem = suite[:-3]
            mine = {k: v for k, v in ours.items() if k.startswith(stem + "::")}
            ref = {k: v for k, v in theirs.items() if k.startswith(stem + "::")}
            lost = sorted(k for k, v in ref.items() if v == "passed" and mine.get(k) != "passed")
            regressions += len(lost)
            rows.append((device, suite, ref, mine, lost))

    lines = [
        "| device | suite | PyOpenCL passed | over pycl passed | failed over pycl | PyOpenCL passes, pycl does not |",
        "|---|---|---|---|---|---|",
    ]
    for device, suite, ref, mine, lost in rows:
        count = lambda d, o: sum(1 for v in d.values() if v == o)  # noqa: E731
        lines.append(
            "| %s | %s | %s | %d of %d | %d | %s |"
            % (
                device,
                suite,
                "%d of %d" % (count(ref, "passed"), len(ref)) if args.reference_python else "not run",
                count(mine, "passed"),
                len(mine),
                count(mine, "failed"),
                ", ".join(k.split("::", 1)[1] for k in lost) or "none",
            )
        )
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as out:
            out.write(table + "\n")
    return 1 if regressions else 0


def _interpreter(name: str) -> str:
    """An interpreter's absolute path (a path as given, or found on PATH)."""
    return os.path.abspath(name) if os.sep in name else shutil.which(name) or name


def _every_device(python: str, layer: str) -> list[str]:
    """A PYOPENCL_TEST value per device pycl finds: "platform:device"."""
    code = "import pycl\nfor p in pycl.get_platforms():\n    for d in p.get_devices(): print(p.name + ':' + d.name)"
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line]


if __name__ == "__main__":
    sys.exit(main())
