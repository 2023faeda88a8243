# setuptools needs this file for cffi_modules; the metadata is in pyproject.toml.
from setuptools import setup

setup(cffi_modules=["build_ffi.py:ffibuilder"])
