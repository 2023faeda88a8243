# setuptools needs this file for cffi_modules; the metadata is in pyproject.toml.
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HEADERS = os.path.join("cl_shim", "include")


class build_py_with_headers(build_py):
    """Ships the shim's headers as ``pycl/include`` (``pycl.get_include()``),
    for other cffi projects that include pycl's declarations. Editable
    installs skip the copy: there ``pycl.get_include()`` answers the
    repository's ``cl_shim/include``."""

    def run(self):
        super().run()
        if not getattr(self, "editable_mode", False):
            target = os.path.join(self.build_lib, "pycl", "include")
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HEADERS, target)

    def get_outputs(self, *args, **kwargs):
        outputs = super().get_outputs(*args, **kwargs)
        if getattr(self, "editable_mode", False):
            return outputs
        for folder, _, files in os.walk(HEADERS):
            for name in files:
                relative = os.path.relpath(os.path.join(folder, name), HEADERS)
                outputs.append(os.path.join(self.build_lib, "pycl", "include", relative))
        return outputs


setup(cffi_modules=["build_ffi.py:ffibuilder"], cmdclass={"build_py": build_py_with_headers})
