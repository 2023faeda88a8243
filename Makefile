# pycl's everyday commands. Everything installs into a virtual environment
# ($(VENV)), so a fresh machine needs only Python 3.9+ with venv and a C compiler.
#   make install demo     install pycl (editable) and run the quickstart demo
#   make test             run the test suite on every OpenCL device found
#   make test PYTHON=pypy3 VENV=.venv-pypy     the same under PyPy
#   make test-multi-device     the tests of contexts over several devices, with
#                              PoCL giving two CPU devices (POCL_DEVICES)
#   make test-mpi         pycl.mpi under mpiexec -n 2 and -n 4 (installs the mpi extra: MPICH
#                         and mpi4py, built from source on PyPy); make test-mpi PYTHON=pypy3 VENV=.venv-pypy
#   make bench            benchmarks against PyOpenCL on the same device (BENCH_ARGS=...)
#   make typecheck        mypy on pycl and examples/typed_tour.py (settings in pyproject.toml)
#   make lint             ruff (check and format) on the Python, clang-format on cl_shim/
#   make test-wheel       build the sdist and wheel, install the wheel in a fresh
#                         environment and run the suite from outside the checkout
#   make docs             the Sphinx site in docs/_build/html (warnings are errors)
#   make test-pyopencl-layer   PyOpenCL 2026.1.4's own test suites over pycl against PyOpenCL,
#                         test by test, on the first kernel-compiling device, under CPython and
#                         PyPy 3.11 (docs/pyopencl_layer.md; the PyPy needs root to download)
#   make pyopencl-suites  the same on every device (the full matrix)
#   make mutate           take each argument check out in turn: the tests must fail
#                         (tools/mutate_checks.py; about 30 minutes on the PoCL devices)
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
C_SOURCES = $(wildcard cl_shim/include/*.h cl_shim/include/pycl/*.h cl_shim/src/*.[ch])
SOURCES = build_ffi.py pycl/build_ffi.py setup.py pyproject.toml $(C_SOURCES)
# PoCL writes a kernel cache at every context creation (docs/quirks.md).
export POCL_CACHE_DIR ?= $(shell mktemp -d -t pycl-pocl-cache-XXXXXX)

.PHONY: install demo test test-multi-device test-pyopencl-layer pyopencl-suites bench lint clean

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

# pycl.mpi (tests/test_mpi.py): the mpi extra, MPICH's wheel and mpi4py.
# mpi4py has no PyPy wheels: there it builds from source with the mpicc of
# that MPICH. The tests run mpiexec from $(BIN), with two devices per PoCL.
$(VENV)/.installed-mpi: $(VENV)/.installed-test
	$(BIN)/python -m pip install -q mpich
	MPICC=$(CURDIR)/$(BIN)/mpicc $(BIN)/python -m pip install -q \
		$$($(BIN)/python -c "import sys; print('--no-binary=mpi4py' * (sys.implementation.name == 'pypy'))") \
		-e '.[mpi,test]'
	touch $@

.PHONY: test-mpi
test-mpi: $(VENV)/.installed-mpi
	$(BIN)/python -m pytest tests/test_mpi.py -q -ra

# PyOpenCL's Python layer over pycl. The reference: PyOpenCL itself, the
# release the layer installs, in $(VENV). PyPy 3.11 (PyOpenCL 2026.1 and
# pytools need 3.10+, Debian 12's PyPy is a 3.9): Debian 13's, unpacked by
# tools/pypy311.sh, with a pure-Python siphash24 (it has no PyPy wheel and its
# sdist fetches sources from GitHub as it builds; tools/pypy-stand-ins/).
PYOPENCL_VERSION = 2026.1.4
LAYER_WHEELS = .cache/pyopencl-wheel
PYPY311_DIR = .pypy311
PYPY311_VENV = .venv-pypy311
SUITE_DEVICES ?= first

$(VENV)/.installed-layer: $(VENV)/.installed-test
	$(BIN)/python -m pip install -q 'pyopencl==$(PYOPENCL_VERSION)' mako
	touch $@

$(LAYER_WHEELS)/.fetched:
	$(PYTHON) -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
		--platform manylinux_2_28_x86_64 -d $(LAYER_WHEELS) 'pyopencl==$(PYOPENCL_VERSION)'
	touch $@

$(PYPY311_VENV)/.installed: $(SOURCES)
	bash tools/pypy311.sh $(PYPY311_DIR) > /dev/null
	$(PYPY311_DIR)/root/usr/bin/pypy3.11-run -m venv $(PYPY311_VENV)
	# hypothesis: its wheels for PyPy from 6.156 on need a newer PyPy's C API (PyPyModule_FromDefAndSpec2)
	$(PYPY311_VENV)/bin/python -m pip install -q numpy pytest 'hypothesis<=6.155.7' platformdirs typing_extensions mako
	$(PYPY311_VENV)/bin/python -m pip install -q --no-deps pytools
	cp tools/pypy-stand-ins/siphash24.py $$($(PYPY311_VENV)/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/
	$(PYPY311_VENV)/bin/python -m pip install -q -e '.[test]'
	touch $@

# One layer run per interpreter: pycl's tests of the layer, then the suites
# (tools/pyopencl_suites.py fails on a test PyOpenCL passes that fails over pycl).
LAYER_RUN = PYCL_PYOPENCL_WHEEL=$$(ls $(CURDIR)/$(LAYER_WHEELS)/pyopencl-*.whl)
test-pyopencl-layer pyopencl-suites: $(VENV)/.installed-layer $(PYPY311_VENV)/.installed $(LAYER_WHEELS)/.fetched
	$(BIN)/python tools/pypy-stand-ins/siphash24.py
	$(LAYER_RUN) $(BIN)/python -m pytest tests/test_pyopencl_layer.py -q -ra
	$(LAYER_RUN) $(PYPY311_VENV)/bin/python -m pytest tests/test_pyopencl_layer.py -q -ra
	$(BIN)/python tools/pyopencl_suites.py --wheel $$(ls $(LAYER_WHEELS)/pyopencl-*.whl) \
		--reference-python $(BIN)/python $(foreach d,$(SUITE_DEVICES),--device '$(d)') --out $(LAYER_OUT)-cpython.md
	$(BIN)/python tools/pyopencl_suites.py --wheel $$(ls $(LAYER_WHEELS)/pyopencl-*.whl) --python $(PYPY311_VENV)/bin/python \
		--reference-python $(BIN)/python --reuse-reference $(foreach d,$(SUITE_DEVICES),--device '$(d)') --out $(LAYER_OUT)-pypy.md
LAYER_OUT = .cache/pyopencl-suites/table
pyopencl-suites: SUITE_DEVICES = all

# make bench BENCH_ARGS="--pypy /path/to/pypy --out bench/results/DATE-DEVICE.md" (bench/README.md)
bench: install
	$(BIN)/python -c "import pyopencl; pyopencl.Buffer" 2>/dev/null || $(BIN)/python -m pip install -q pyopencl \
		|| echo "PyOpenCL unavailable: pycl only"
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# The API reference documents pycl.testing and pycl.strategies, which need the
# test extra (pytest, hypothesis); docs/check_coverage.py fails when a public
# name is missing from the built site.
.PHONY: docs
docs: $(VENV)/.installed-test
	$(BIN)/python -m pip install -q -r docs/requirements.txt
	$(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html
	$(BIN)/python docs/check_coverage.py docs/_build/html

# mypy 1.x: mypy 2 no longer checks code against Python 3.9, pycl's oldest.
# Checked as 3.9 (pyproject.toml) and as 3.11, where numpy's own annotations
# are complete (for 3.9 mypy reads most of them as Any) and numpy arrays do
# not yet have the buffer protocol's __buffer__.
.PHONY: typecheck test-wheel
typecheck: $(VENV)/.installed-test
	$(BIN)/python -m pip install -q 'mypy>=1.15,<2'
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy --python-version 3.11

# WHEEL_TEST_ARGS: pytest arguments, for a subset (.ci/run leaves out the sweeps).
test-wheel:
	tools/test-wheel.sh $(PYTHON) $(WHEEL_TEST_ARGS)

# The PoCL devices only (about 30 minutes for both); MUTATE_DEVICE="" runs every device.
MUTATE_DEVICE ?= Portable Computing Language
MUTATE_TESTS = tests/test_args_sweep.py tests/test_buffer.py tests/test_transfer.py tests/test_map.py \
	tests/test_svm.py tests/test_runtime.py tests/test_image.py tests/test_sampler_pipe.py
.PHONY: mutate
mutate: $(VENV)/.installed-test
	PYOPENCL_TEST="$(MUTATE_DEVICE)" $(BIN)/python tools/mutate_checks.py --tests $(MUTATE_TESTS)
	for m in svm pool memory; do \
		PYOPENCL_TEST="$(MUTATE_DEVICE)" $(BIN)/python tools/mutate_checks.py --module pycl/$$m.py --limits-only \
			|| exit 1; done
	for m in _rect _image_fill_map; do \
		PYOPENCL_TEST="$(MUTATE_DEVICE)" $(BIN)/python tools/mutate_checks.py --module pycl/$$m.py --limits-only \
			--tests tests/test_one_pass.py || exit 1; done

# ruff (lint and format) on the Python, clang-format (.clang-format) on the C
# shim. Pinned: another release of either formats differently. Needs no build
# of pycl, so CI runs it first. To apply the formats: ruff format PATHS and
# clang-format -i $(C_SOURCES).
LINT_TOOLS = ruff==0.17.6 clang-format==23.1.3
PY_SOURCES = pycl tests bench examples tools docs/*.py build_ffi.py setup.py
lint: $(BIN)/python
	$(BIN)/python -m pip install -q $(LINT_TOOLS)
	$(BIN)/python -m ruff check $(PY_SOURCES)
	$(BIN)/python -m ruff format --check $(PY_SOURCES)
	$(BIN)/clang-format --dry-run -Werror $(C_SOURCES)

clean:
	rm -rf build *.egg-info pycl/_lib*.so pycl/_lib.c .venv .venv-pypy .venv-pypy311 .pypy311 .cache
