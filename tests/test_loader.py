"""Vendor discovery, run in subprocesses: the shim loads vendors once per
process, so each scenario gets a fresh interpreter and its own environment."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from pycl import _loader as loader

PROBE = textwrap.dedent(
    """
    import json, os, sys
    import pycl, pycl._loader
    if os.environ.get("PROBE_NO_PIP"):
        pycl._loader.pip_icd_folders = lambda paths=None: []
    result = {}
    try:
        result["platforms"] = [[p.name, p.version, [d.name for d in p.get_devices()]] for p in pycl.get_platforms()]
    except pycl.Error as error:
        result["error"] = [type(error).__name__, error.code, error.routine, str(error)]
    result["report"] = pycl._loader.report()
    print(json.dumps(result))
    """
)


def probe(tmp_path, no_pip=False, **env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("OCL_ICD")}
    environment.update(env)
    environment.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl-cache"))
    if no_pip:
        environment["PROBE_NO_PIP"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, timeout=300, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def pip_library(vendor):
    """The absolute path of a pip-installed vendor library, from its .icd file."""
    for folder in loader.pip_icd_folders():
        icd = os.path.join(folder, vendor + ".icd")
        if os.path.exists(icd):
            with open(icd) as f:
                return os.path.join(folder, f.read().strip())
    pytest.skip("the pip package providing %s.icd is not installed" % vendor)


def names(result):
    return [p[0] for p in result["platforms"]]


def write_icd(folder, name, content):
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(content + "\n")


def test_vendors_folder_replaces_system_folder(tmp_path):
    pocl = pip_library("pocl")
    vendors = tmp_path / "vendors"
    write_icd(vendors, "pocl.icd", pocl)
    result = probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors))
    assert names(result) == ["Portable Computing Language"]
    assert "PoCL 3.0" in result["platforms"][0][1]
    assert "searched %s (OCL_ICD_VENDORS): 1 .icd file" % vendors in result["report"]
    assert "/etc/OpenCL/vendors" not in result["report"]


def test_vendors_variable_may_name_one_icd_file(tmp_path):
    vendors = tmp_path / "vendors"
    write_icd(vendors, "oclgrind.icd", pip_library("oclgrind"))
    result = probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors / "oclgrind.icd"))
    assert names(result) == ["Oclgrind"]


def test_icd_files_load_in_name_order(tmp_path):
    vendors = tmp_path / "vendors"
    write_icd(vendors, "a-pocl.icd", pip_library("pocl"))
    write_icd(vendors, "b-oclgrind.icd", pip_library("oclgrind"))
    assert names(probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors))) == [
        "Portable Computing Language",
        "Oclgrind",
    ]
    (vendors / "a-pocl.icd").rename(vendors / "c-pocl.icd")
    assert names(probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors))) == [
        "Oclgrind",
        "Portable Computing Language",
    ]


def test_filenames_variable_comes_first(tmp_path):
    oclgrind = pip_library("oclgrind")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = probe(tmp_path, OCL_ICD_FILENAMES=oclgrind, OCL_ICD_VENDORS=str(empty))
    assert names(result)[0] == "Oclgrind"
    assert "searched OCL_ICD_FILENAMES=%s" % oclgrind in result["report"]
    # The pip folder's Oclgrind is the same library: loaded once.
    assert names(result).count("Oclgrind") == 1
    assert "duplicate %s" % oclgrind in result["report"]


def test_pip_icd_files_are_found_from_sys_path(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = probe(tmp_path, OCL_ICD_VENDORS=str(empty))
    folder = loader.pip_icd_folders()[0]
    assert "searched %s (pip-installed vendors)" % folder in result["report"]
    assert "loaded %s" % os.path.realpath(pip_library("pocl")) in result["report"]
    assert "Portable Computing Language" in names(result)


def test_duplicates_are_detected_by_real_path(tmp_path):
    pocl = pip_library("pocl")
    link = tmp_path / "libpocl-link.so"
    link.symlink_to(pocl)
    vendors = tmp_path / "vendors"
    write_icd(vendors, "1.icd", pocl)
    write_icd(vendors, "2.icd", str(link))
    result = probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors))
    assert names(result) == ["Portable Computing Language"]
    assert "duplicate %s" % link in result["report"]


def test_broken_icd_entry_is_reported_and_skipped(tmp_path):
    vendors = tmp_path / "vendors"
    write_icd(vendors, "0-broken.icd", "/nonexistent/libmissing-opencl.so")
    write_icd(vendors, "1-empty.icd", "")
    write_icd(vendors, "2-not-opencl.icd", "libm.so.6")
    write_icd(vendors, "3-oclgrind.icd", pip_library("oclgrind"))
    result = probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(vendors))
    assert names(result) == ["Oclgrind"]
    report = result["report"]
    assert "failed /nonexistent/libmissing-opencl.so (%s): " % (vendors / "0-broken.icd") in report
    assert "No such file or directory" in report
    assert "failed %s: the file names no library" % (vendors / "1-empty.icd") in report
    assert "skipped libm.so.6" in report and "not an OpenCL ICD" in report


def test_no_platform_error_says_where_and_how_to_fix(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = probe(tmp_path, no_pip=True, OCL_ICD_VENDORS=str(empty))
    kind, code, routine, message = result["error"]
    assert (kind, code, routine) == ("LogicError", -1001, "clGetPlatformIDs")
    assert message.startswith("clGetPlatformIDs failed: CL_PLATFORM_NOT_FOUND_KHR - no OpenCL platform found")
    assert "searched %s (OCL_ICD_VENDORS): 0 .icd files" % empty in message
    assert "pip install pocl-binary-distribution" in message


def test_import_loads_no_vendor(tmp_path):
    code = "import pycl, pycl._loader; print(repr(pycl._loader.report()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "''"


def test_main_lists_devices_and_search(tmp_path):
    env = dict(os.environ, POCL_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run(
        [sys.executable, "-m", "pycl"], capture_output=True, text=True, check=True, env=env, timeout=600
    ).stdout
    import pycl

    for platform in pycl.get_platforms():
        assert platform.name in out
        for device in platform.get_devices():
            assert device.name in out
    assert "compiles kernels:" in out and "SVM:" in out and "max allocation:" in out
    assert "Where pycl looked:" in out


def test_main_needs_no_test_dependency(tmp_path):
    # `pip install pycl-cffi` brings neither pytest nor hypothesis.
    code = (
        "import runpy, sys; sys.modules['pytest'] = sys.modules['hypothesis'] = None;"
        "sys.argv = ['pycl']; runpy.run_module('pycl', run_name='__main__')"
    )
    env = dict(os.environ, POCL_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "compiles kernels:" in run.stdout


def test_main_without_platform_explains(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    code = (
        "import sys, pycl._loader, pycl.__main__ as m;"
        "pycl._loader.pip_icd_folders = lambda paths=None: []; sys.exit(m.main([]))"
    )
    env = dict(os.environ, OCL_ICD_VENDORS=str(empty), POCL_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("OCL_ICD_FILENAMES", None)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 1
    assert "pip install pocl-binary-distribution" in run.stdout
    assert "searched %s" % empty in run.stdout
