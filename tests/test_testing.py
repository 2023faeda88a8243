"""pycl.testing's device selection (PYOPENCL_TEST syntax) and parametrisation."""

import subprocess
import sys
import textwrap

import pytest

import pycl
from pycl.testing import get_test_platforms_and_devices


def all_devices():
    return [(p, p.get_devices()) for p in pycl.get_platforms()]


def test_empty_spec_selects_everything():
    assert get_test_platforms_and_devices("") == all_devices()


def test_indices_names_and_separators():
    everything = all_devices()
    first_platform, first_devices = everything[0]
    assert get_test_platforms_and_devices("0") == [(first_platform, first_devices)]
    assert get_test_platforms_and_devices("0:0") == [(first_platform, first_devices[:1])]
    assert get_test_platforms_and_devices("0=0") == [(first_platform, first_devices[:1])]
    name = first_platform.name.split()[0].lower()
    by_name = get_test_platforms_and_devices(name)
    # PyOpenCL's rule: the first platform whose name or vendor holds the word.
    assert by_name == [next((p, ds) for p, ds in everything if name in (p.name + " " + p.vendor).lower())]
    device_word = first_devices[0].name.split("-")[0]
    chosen = get_test_platforms_and_devices("%s:%s" % (name, device_word))
    assert all(device_word.lower() in d.name.lower() for _, ds in chosen for d in ds)
    if len(everything) > 1:
        last = len(everything) - 1
        both = get_test_platforms_and_devices("0;%d:0" % last)
        assert both == [(first_platform, first_devices), (everything[last][0], everything[last][1][:1])]
    with pytest.raises(RuntimeError, match="no platform matches 'no such platform'"):  # PyOpenCL: RuntimeError
        get_test_platforms_and_devices("no such platform")
    # The same device twice is listed once.
    assert get_test_platforms_and_devices("0:0,0") == [(first_platform, first_devices[:1])]


def test_tools_is_the_same_function():
    import pycl.testing
    import pycl.tools

    assert pycl.tools.pytest_generate_tests_for_pyopencl is pycl.testing.pytest_generate_tests_for_pyopencl


def test_testing_without_hypothesis():
    """pycl.testing imports, and answers AttributeError for what it lacks,
    in a process without hypothesis (PyPy's import machinery asks modules
    for __path__; pycl.testing's hypothesis strategies come lazily)."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["hypothesis"] = None  # as if not installed
        import pycl.testing
        from pycl.testing import kernel_compile_problem
        assert not hasattr(pycl.testing, "__path__")
        assert not hasattr(pycl.testing, "no_such_name")
        try:
            pycl.testing.rects
        except AttributeError as error:
            assert "need hypothesis" in str(error), error
        else:
            raise AssertionError("a strategy without hypothesis")
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
