# pycl's everyday commands. Everything installs into a virtual environment
# ($(VENV)), so a fresh machine needs only Python 3.9+ with venv and a C compiler.
#   make install demo     install pycl (editable) and run the quickstart demo
#   make test             run the test suite on every OpenCL device found
#   make test PYTHON=pypy3 VENV=.venv-pypy     the same under PyPy
#   make test-multi-device     the tests of contexts over several devices, with
#                              PoCL giving two CPU devices (POCL_DEVICES)
#   make bench            benchmarks against PyOpenCL on the same device (BENCH_ARGS=...)
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
SOURCES = build_ffi.py pycl/build_ffi.py setup.py pyproject.toml $(wildcard cl_shim/include/*.h cl_shim/include/pycl/*.h cl_shim/src/*.[ch])
# PoCL writes a kernel cache at every context creation (QUIRKS.md).
export POCL_CACHE_DIR ?= $(shell mktemp -d -t pycl-pocl-cache-XXXXXX)

.PHONY: install demo test test-multi-device bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip setuptools wheel

$(VENV)/.installed-test: $(BIN)/python $(SOURCES)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed-runtime

$(VENV)/.installed-runtime: $(BIN)/python $(SOURCES)
	$(BIN)/python -m pip install -q -e .
	touch $@

demo: install
	$(BIN)/python examples/quickstart.py

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest tests -q -ra

# The tests marked multi_device (pycl.testing's multi_ctx_factory) on every
# platform with two or more devices: POCL_DEVICES="pthread pthread" makes
# each PoCL (the pip one, Debian's) expose two CPU devices; Oclgrind has one
# and is skipped. Fails, rather than skipping everything, when no platform
# has two devices.
MULTI_DEVICE_ENV = POCL_DEVICES='pthread pthread'
test-multi-device: $(VENV)/.installed-test
	@$(MULTI_DEVICE_ENV) $(BIN)/python -c "import pycl, sys; sys.exit(not any(len(p.get_devices()) > 1 \
		for p in pycl.get_platforms()))" || { echo "test-multi-device: no platform with two devices" \
		"under $(MULTI_DEVICE_ENV) (python -m pycl lists them)"; exit 1; }
	$(MULTI_DEVICE_ENV) $(BIN)/python -m pytest tests -q -ra -m multi_device

# make bench BENCH_ARGS="--pypy /path/to/pypy --out bench/results/DATE-DEVICE.md" (bench/README.md)
bench: install
	$(BIN)/python -c "import pyopencl; pyopencl.Buffer" 2>/dev/null || $(BIN)/python -m pip install -q pyopencl \
		|| echo "PyOpenCL unavailable: pycl only"
	$(BIN)/python bench/run.py $(BENCH_ARGS)

lint: install
	$(BIN)/python -m pip install -q ruff
	$(BIN)/python -m ruff check pycl tests bench examples build_ffi.py
	$(BIN)/python -m ruff format --check pycl tests bench examples build_ffi.py

clean:
	rm -rf build *.egg-info pycl/_lib*.so pycl/_lib.c .venv .venv-pypy
