"""Shared virtual memory: ``SVMPointer``, ``SVMAllocation``, the ``SVM`` tag,
``SVMMap``, the numpy-style allocators, fills, migration, SVM kernel
arguments, and SVM routes for ``enqueue_copy`` and ``enqueue_fill``.

SVM needs OpenCL 2.0 and, on OpenCL 3.0, a device that reports SVM
capabilities. Elsewhere (Oclgrind, ``PYCL_FORCE_CL_VERSION=1.2``) every call
raises ``pycl.UnavailableError`` saying what is needed and what the device
reports; the classes always exist.

Lifetimes. An SVM pointer has no reference count, so the C shim keeps one:
an ``SVMAllocation`` made with an (in-order) ``queue`` is freed on that queue,
after everything queued before it, when it is released or collected; the
collector runs the shim's C destructor (no Python, no blocking). An
allocation made without a queue is freed at once with ``clSVMFree`` whatever
is still queued, as in PyOpenCL; pycl warns once per process when such an
allocation is made (docs/design.md, "Lifetimes and deferred releases").

Coarse-grain SVM must be mapped (``map_rw`` ...) before the host touches it;
fine-grain SVM (``fsvm_empty``) may be used from the host directly, after
``queue.finish()`` or an event wait has ordered the device's work.

Differences from PyOpenCL (docs/differences.md has the reasons):

- ``enqueue_svm_memfill(byte_count=...)`` fills ``byte_count`` bytes
  (PyOpenCL checks it, then fills everything) and ``SVMPointer.map(size=...)``
  maps ``size`` bytes and returns an array of that many bytes.
- Host<->SVM copies return a ``NannyEvent`` that keeps the host object alive
  until a non-blocking copy completes (PyOpenCL: a plain ``Event``).
- After ``release()`` every use (``svm_ptr``, ``size``, copies, maps, kernel
  arguments, ``SVM`` tags of its arrays) raises ``LogicError``; PyOpenCL
  answers ``svm_ptr`` with 0. Releasing an allocation while one of its maps is
  live raises ``LogicError`` (unmap first).
- Zero-size allocations make no driver call and have ``svm_ptr`` 0.
- ``alignment`` must be 0 or a power of two of at most 128 bytes (OpenCL's
  rule, checked before the driver, which would return NULL); the allocators'
  default is the itemsize when that is such a power of two, else 0 (the
  driver's default).
- ``svm_empty_like``, ``csvm_*`` and ``fsvm_*`` take ``queue=`` too.
- ``src_offset``/``dst_offset`` other than 0 are ``LogicError`` on SVM
  copies (slice the array instead: ``SVM(ary[a:b])``), and ``enqueue_fill``
  on SVM rejects ``offset`` with ``LogicError`` (PyOpenCL:
  ``NotImplementedError``).

This module is the public face; the parts live in internal modules:
``pycl._svm_checks`` (what the devices support), ``pycl._svm_pointer``
(``SVMPointer``, ``SVMMap``), ``pycl._svm_allocation`` (``SVMAllocation``,
its lifetime, ``svm_empty`` and the like), ``pycl._svm_tag`` (``SVM``) and
``pycl._svm_commands`` (copies, fills, migration, kernel exec info).
"""

from __future__ import annotations

from pycl._svm_allocation import (
    SVMAllocation,
    csvm_empty,
    csvm_empty_like,
    fsvm_empty,
    fsvm_empty_like,
    svm_empty,
    svm_empty_like,
)
from pycl._svm_allocation import pending_frees as pending_frees
from pycl._svm_commands import (
    enqueue_svm_memfill,
    enqueue_svm_migrate_mem,
    enqueue_svm_migratemem,
    set_kernel_exec_info,
)
from pycl._svm_pointer import SVMMap, SVMPointer
from pycl._svm_tag import SVM

__all__ = [
    "SVMPointer",
    "SVMAllocation",
    "SVM",
    "SVMMap",
    "svm_empty",
    "svm_empty_like",
    "csvm_empty",
    "csvm_empty_like",
    "fsvm_empty",
    "fsvm_empty_like",
    "enqueue_svm_memfill",
    "enqueue_svm_migratemem",
    "enqueue_svm_migrate_mem",
    "set_kernel_exec_info",
]
