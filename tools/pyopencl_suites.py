"""PyOpenCL's own test suites, run on PyOpenCL's Python layer over pycl and
on PyOpenCL itself, device by device, with a table of what passes where.

    python tools/pyopencl_suites.py [--device SPEC ...] [--suite NAME ...]
        [--python PY] [--reference-python PY] [--out FILE]

The suites come from PyOpenCL's published sdist of the release the layer is
installed from (downloaded from PyPI into --cache, never committed), the
layer from ``python -m pycl.pyopencl_layer install --target``. Each side runs
in its own pytest process per device (``PYOPENCL_TEST=SPEC``) with a JUnit
report; the table compares the reports test by test. The exit status is 1
when a test that PyOpenCL passes on a device fails (or errs) over pycl there;
tests the suites skip over pycl (PyOpenCL's tests skip some on PyPy) are
listed with their reasons.

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
) -> dict[str, tuple[str, str]]:
    """Run ``suites`` with ``python`` on ``device``; every test's outcome."""
    # A cache of each side's own: PyOpenCL keeps invokers and binaries there.
    # Both sides keep this process's path (where PyOpenCL may be installed);
    # ``pythonpath`` (the layer's side) goes first.
    env = dict(os.environ, XDG_CACHE_HOME=report + ".cache")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYOPENCL_TEST"] = _side_spec(python, env, device)
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", report, *suites]
    if os.path.exists(report):
        os.remove(report)
    subprocess.run(command, cwd=tests, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(report):
        return {}  # the interpreter died before writing a report: every test is missing
    return read_report(report)


def read_report(report: str) -> dict[str, tuple[str, str]]:
    """Every test's outcome in a JUnit report: (passed, failed or skipped,
    the skip or failure message)."""
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        name = "%s::%s" % (case.get("classname", "").rsplit(".", 1)[-1], case.get("name"))
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.get("message") or ""
            elif child.tag == "skipped" and outcome == "passed":
                outcome, message = "skipped", child.get("message") or ""
        outcomes[name] = (outcome, message.splitlines()[0][:160] if message else "")
    return outcomes


_CONTEXT_ID = re.compile(r"<context factory for <pyopencl\.Device '[^']*' on '[^']*'>>-?")


def _short(name: str) -> str:
    """A test's name without its suite and its device's context factory."""
    return _CONTEXT_ID.sub("", name.split("::", 1)[1]).replace("[]", "")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--device",
        action="append",
        help='devices whose "platform name|platform version|device name" contains this (repeatable), "first": '
        'the first device (pycl\'s order) that compiles kernels, or "all" (the default)',
    )
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
    devices = [d for spec in args.device or ["all"] for d in _devices(spec, args.python)]
    suites = args.suite or list(SUITES)

    tag = subprocess.run(
        [args.python, "-c", "import sys; print(sys.implementation.name + '%d%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    rows, regressions = [], 0
    for device in devices:
        slug = "".join(c if c.isalnum() else "_" for c in device)[:80]
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
            passed_there = [k for k, (outcome, _) in ref.items() if outcome == "passed"]
            failed = sorted(k for k in passed_there if mine.get(k, ("missing", ""))[0] in ("failed", "missing"))
            skipped = sorted(k for k in passed_there if mine.get(k, ("", ""))[0] == "skipped")
            if not mine:
                failed.append("(no test ran over pycl: %s)" % os.path.join(work, "pycl-%s-%s.xml" % (tag, slug)))
            regressions += len(failed)
            rows.append((device, suite, ref, mine, failed, skipped))

    lines = [
        "| device | suite | PyOpenCL passed | over pycl passed | PyOpenCL passes, fails over pycl "
        "| PyOpenCL passes, the suite skips over pycl |",
        "|---|---|---|---|---|---|",
    ]
    for identity, suite, ref, mine, failed, skipped in rows:
        _, version, name = identity.split("|")
        device = "%s (%s)" % (name, version.split("  ")[0])
        passed = lambda d: sum(1 for outcome, _ in d.values() if outcome == "passed")  # noqa: E731
        lines.append(
            "| %s | %s | %s | %d of %d | %s | %s |"
            % (
                device,
                suite,
                "%d of %d" % (passed(ref), len(ref)) if args.reference_python else "not run",
                passed(mine),
                len(mine),
                ", ".join(_short(k) if "::" in k else k for k in failed) or "none",
                "; ".join("%s (%s)" % (_short(k), mine[k][1]) for k in skipped) or "none",
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


# A device is named by its platform's name and version and its name: the
# two PoCLs share their platform's name, and PyOpenCL's PYOPENCL_TEST takes
# the first platform whose name matches, so each side gets indices in its own
# platform order ("2:0"), found by its own pyopencl.
_LIST_DEVICES = (
    "import sys, pyopencl as cl\n"
    "for i, p in enumerate(cl.get_platforms()):\n"
    "    for j, d in enumerate(p.get_devices()):\n"
    "        print('%d:%d' % (i, j), p.name, p.version, d.name, sep='\\t')\n"
)


def _side_spec(python: str, env: dict[str, str], device: str) -> str:
    """PYOPENCL_TEST ("platform index:device index") for ``device``
    ("platform name|platform version|device name") in ``python``'s pyopencl."""
    out = subprocess.run([python, "-c", _LIST_DEVICES], env=env, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        spec, *identity = line.split("\t")
        if "|".join(identity) == device:
            return spec
    raise SystemExit("%s's pyopencl has no device %s" % (python, device))


def _devices(spec: str, python: str) -> list[str]:
    """Devices ("platform name|platform version|device name") for a --device
    argument: those whose identity contains it, every device ("all"), or
    the first that compiles kernels ("first"); pycl's order."""
    code = (
        "import pycl\n"
        "from pycl.testing import kernel_compile_problem\n"
        "for p in pycl.get_platforms():\n"
        "    for d in p.get_devices():\n"
        "        if %r != 'first' or kernel_compile_problem(d) is None:\n"
        "            print(p.name, p.version, d.name, sep='|')\n"
    ) % spec
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout
    found = [line for line in out.splitlines() if line]
    if spec == "first":
        found = found[:1]
    elif spec != "all":
        found = [line for line in found if spec in line]
    if not found:
        raise SystemExit("no device for --device %s" % spec)
    return found


if __name__ == "__main__":
    sys.exit(main())
