"""OpenCL C scalar and vector types as numpy dtypes.

Vector types are structured dtypes with fields ``s0 .. s{n-1}``; up to four
components also answer to ``x, y, z, w`` (numpy field titles). A 3-vector
occupies the space of a 4-vector, as in OpenCL C. For each vector type there
are ``make_<type>(*components)``, ``zeros_<type>()`` and ``filled_<type>(v)``.
"""

import numpy as np

char = np.dtype(np.int8)
uchar = np.dtype(np.uint8)
short = np.dtype(np.int16)
ushort = np.dtype(np.uint16)
int = np.dtype(np.int32)
uint = np.dtype(np.uint32)
long = np.dtype(np.int64)
ulong = np.dtype(np.uint64)
half = np.dtype(np.float16)
float = np.dtype(np.float32)
double = np.dtype(np.float64)
bool = np.dtype(np.int32)  # OpenCL's host-side cl_bool is a 32-bit int

_SCALARS = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"]
_COUNTS = (2, 3, 4, 8, 16)
_XYZW = "xyzw"

vec_types = {}
"""(scalar dtype, component count) -> vector dtype."""
vec_type_to_scalar_and_count = {}
"""vector dtype -> (scalar dtype, component count)."""


def _vector_dtype(name, scalar, count):
    names = ["s%d" % i for i in range(count)]
    spec = {
        "names": names,
        "formats": [scalar] * count,
        "offsets": [i * scalar.itemsize for i in range(count)],
        # A 3-vector has the size and alignment of a 4-vector.
        "itemsize": (4 if count == 3 else count) * scalar.itemsize,
    }
    if count <= 4:
        spec["titles"] = list(_XYZW[:count])
    return np.dtype(spec, align=True)


def _make_constructors(name, dtype, count):
    def make(*components):
        if len(components) not in (1, count):
            raise ValueError("make_%s takes 1 or %d components, got %d" % (name, count, len(components)))
        if len(components) == 1:
            components = components * count
        result = np.zeros(1, dtype)
        for i, value in enumerate(components):
            result["s%d" % i] = value
        return result[0]

    def zeros():
        return np.zeros(1, dtype)[0]

    def filled(value):
        return make(*([value] * count))

    make.__name__, zeros.__name__, filled.__name__ = "make_" + name, "zeros_" + name, "filled_" + name
    return make, zeros, filled


def _define_vector_types(namespace):
    for scalar_name in _SCALARS:
        scalar = namespace[scalar_name]
        for count in _COUNTS:
            name = "%s%d" % (scalar_name, count)
            dtype = _vector_dtype(name, scalar, count)
            namespace[name] = dtype
            vec_types[scalar, count] = dtype
            vec_type_to_scalar_and_count[dtype] = (scalar, count)
            make, zeros, filled = _make_constructors(name, dtype, count)
            namespace[make.__name__] = make
            namespace[zeros.__name__] = zeros
            namespace[filled.__name__] = filled


_define_vector_types(globals())
