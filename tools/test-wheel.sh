#!/usr/bin/env bash
# pycl as its users get it: build the sdist and, from it, the wheel
# (python -m build), install the wheel with the test extra into a fresh
# virtual environment, and run the test suite from a folder outside the
# checkout, so that every import is the installed package's.
#   tools/test-wheel.sh [PYTHON] [pytest arguments...]     (make test-wheel;
#   the arguments select a subset: make test-wheel WHEEL_TEST_ARGS=...)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${1:-python3}"
shift || true
impl="$("$PYTHON" -c 'import sys; print(sys.implementation.name)')"
work="$PWD/build/test-wheel-$impl"
py="$work/venv/bin/python"
rm -rf "$work"
mkdir -p "$work"

# The builder's own environment (build isolation installs setuptools and cffi).
"$PYTHON" -m venv "$work/build-env"
"$work/build-env/bin/python" -m pip install -q --upgrade pip build
"$work/build-env/bin/python" -m build -o "$work/dist" . >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    exit 1
}
# The build prints no warning (a newcomer's first install must not alarm).
if grep -n -i -E "warning|deprecat" "$work/build.log" | grep -v -i "byte-compiling is disabled"; then
    echo "test-wheel: the build printed warnings ($work/build.log)"
    exit 1
fi
sdist=$(ls "$work"/dist/*.tar.gz)
wheel=$(ls "$work"/dist/*.whl)
echo "built $(basename "$sdist") and $(basename "$wheel")"

# A fresh environment with the wheel alone, as `pip install pycl-cffi` gives
# it: the device report and the quickstart run from outside the checkout.
"$PYTHON" -m venv "$work/venv"
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q "$wheel"
outside="$(mktemp -d -t pycl-wheel-tests-XXXXXX)"
cp examples/quickstart.py "$outside/"
(cd "$outside" && "$py" -m pycl >/dev/null && "$py" quickstart.py)

# Then the test extra, and the suite.
"$py" -m pip install -q "$wheel[test]"
# PyOpenCL for tests/test_interop.py and mypy for tests/test_typing.py, as in
# the other legs (CPython only: PyOpenCL has no PyPy wheel).
if [ "$impl" = cpython ]; then
    "$py" -m pip install -q pyopencl 'mypy>=1.15,<2'
fi

# The suite and what it reads (the reference pages and parser in tools/, the
# differences list in docs/, examples/embed), copied without pycl/.
cp -r tests tools docs examples "$outside/"
cp pyproject.toml "$outside/"  # pytest's markers and hypothesis settings
cd "$outside"
PYCL_TEST_INSTALLED=1 "$py" -m pytest tests -q -ra -p no:cacheprovider "$@"
