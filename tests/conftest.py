import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# PoCL writes a kernel cache at every context creation (docs/quirks.md).
os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-pocl-cache-"))

import pycl  # noqa: E402
from pycl.testing import pytest_generate_tests_for_pyopencl as pytest_generate_tests  # noqa: E402,F401

# Hypothesis profiles: PYCL_HYPOTHESIS_PROFILE=dev|ci|thorough. Device calls
# vary in time, so no deadline.
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("PYCL_HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def cq(ctx_factory):
    """A context on the test's device and an in-order queue on it."""
    ctx = ctx_factory()
    return ctx, pycl.CommandQueue(ctx)


def pytest_report_header(config):
    return "pycl %s from %s" % (pycl.VERSION_TEXT, os.path.dirname(pycl.__file__))


if os.environ.get("PYCL_TEST_INSTALLED"):
    # tools/test-wheel.sh: the suite must test the installed wheel, not a
    # source tree that happens to be on sys.path.
    _where = os.path.dirname(os.path.abspath(pycl.__file__))
    if "site-packages" not in _where.split(os.sep):
        raise RuntimeError("PYCL_TEST_INSTALLED is set but pycl was imported from %s" % _where)
