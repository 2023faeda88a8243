# The cffi module that build_ffi.py compiles. Its functions and types are the
# C declarations of cl_shim/include/, which cffi exposes untyped.
from typing import Any

ffi: Any
lib: Any
