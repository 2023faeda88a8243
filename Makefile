# pycl's everyday commands. Everything installs into a virtual environment
# ($(VENV)), so a fresh machine needs only Python 3.9+ with venv and a C compiler.
#   make install demo     install pycl (editable) and run the quickstart demo
#   make test             run the test suite on every OpenCL device found
#   make test PYTHON=pypy3 VENV=.venv-pypy     the same under PyPy
#   make bench            benchmarks against PyOpenCL on the same device (BENCH_ARGS=...)
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
SOURCES = build_ffi.py pycl/build_ffi.py setup.py pyproject.toml $(wildcard cl_shim/include/*.h cl_shim/include/pycl/*.h cl_shim/src/*.[ch])
# PoCL writes a kernel cache at every context creation (QUIRKS.md).
export POCL_CACHE_DIR ?= $(shell mktemp -d -t pycl-pocl-cache-XXXXXX)

.PHONY: install demo test bench lint clean

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
