"""Images: ``ImageFormat``, ``get_supported_image_formats``, ``Image`` /
``create_image``, ``image_from_array``, ``enqueue_fill_image``,
``enqueue_map_image``, and the image routes of ``enqueue_copy``.

Coordinates. Every origin and region is a tuple of up to three ints, padded
with 0 (origins) and 1 (regions) as in PyOpenCL. Their axes depend on the
image type, as in OpenCL:

==============  ======================  ==========================
type            origin                  region
==============  ======================  ==========================
1D, 1D buffer   ``(x,)``                ``(width,)``
1D array        ``(x, layer)``          ``(width, layers)``
2D              ``(x, y)``              ``(width, height)``
2D array        ``(x, y, layer)``       ``(width, height, layers)``
3D              ``(x, y, z)``           ``(width, height, depth)``
==============  ======================  ==========================

x varies fastest, so a C-order numpy array of an image region has the shape
``region[::-1]`` (plus a channel axis): ``ary[y, x]`` is pixel ``(x, y)``.

Host pitches (``pitches=(row_pitch, slice_pitch)``, 0 or absent: tightly
packed) describe the host array: pixel ``(x, y, z)`` of the region is at byte
``x * element_size + y * row_pitch + z * slice_pitch``. For a 1D image array
the layers are ``slice_pitch`` apart, and ``slice_pitch`` defaults to
``row_pitch`` (so a 1-tuple gives the layer distance), as ``clCreateImage``
defines it. pycl passes explicit pitches to the driver, never 0, so every
driver computes the same layout.

Every origin, region and pitch is checked against the image's dimensions and
the host array before any C call (``LogicError`` naming the argument, its value
and the limit). Images are optional in OpenCL 3.0: where no device of the
context supports images, every image call raises ``UnavailableError``.

The code lives in internal modules by concern: ``pycl._image_format``
(formats and image support), ``pycl._image_object`` (the ``Image`` class and
its creation), ``pycl._image_copy`` (region checks and the ``enqueue_copy``
routes) and ``pycl._image_fill_map`` (fill and map); this module is the one
to import from.

Differences from PyOpenCL (see docs/differences.md): 1D, 1D buffer and 1D
array images take part in ``enqueue_copy``; ``Image.shape`` exists for every
image type; a 1D image array gets the array size of its shape (PyOpenCL's
descriptor sets it to 1); packed formats (``UNORM_SHORT_565`` ...) report
their true ``itemsize``; ``Image(...)`` is not deprecated.
"""

from __future__ import annotations

from pycl import _image_copy  # noqa: F401  (registers the image routes of enqueue_copy)
from pycl._image_fill_map import enqueue_fill_image, enqueue_map_image
from pycl._image_format import ImageFormat, get_supported_image_formats
from pycl._image_object import DTYPE_TO_CHANNEL_TYPE, DTYPE_TO_CHANNEL_TYPE_NORM, Image, create_image, image_from_array

__all__ = [
    "ImageFormat",
    "get_supported_image_formats",
    "Image",
    "create_image",
    "image_from_array",
    "enqueue_fill_image",
    "enqueue_map_image",
    "DTYPE_TO_CHANNEL_TYPE",
    "DTYPE_TO_CHANNEL_TYPE_NORM",
]
