"""setuptools' ``cffi_modules`` entry (``build_ffi.py:ffibuilder``).

The builder lives in the package, ``pycl/build_ffi.py``, so that other cffi
projects can ``ffibuilder.include()`` it after install. It is executed here by
file path: ``import pycl.build_ffi`` would run ``pycl/__init__.py``, which needs
the compiled module being built. ``python build_ffi.py`` compiles in place.
"""

import importlib.util
import os

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pycl", "build_ffi.py")
_spec = importlib.util.spec_from_file_location("_pycl_build_ffi", _path)
_builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_builder)

ffibuilder = _builder.ffibuilder

if __name__ == "__main__":
    _builder.main()
