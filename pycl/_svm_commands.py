"""The SVM commands: ``enqueue_copy``'s SVM routes (SVM<->SVM, SVM<->host)
and ``enqueue_fill``'s, ``enqueue_svm_memfill``, ``enqueue_svm_migrate_mem``
and ``set_kernel_exec_info``. Each side of a command is an ``SVMPointer`` or
a buffer-protocol object; offsets are refused (slice the array instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from pycl import _wards
from pycl import constants as _constants
from pycl import staging as _staging
from pycl import transfer as _transfer
from pycl._args import bits_value, fill_pattern, host_bytes, no_offset, size_value, uint_value, wait_list
from pycl._enqueue import enqueued, marker, nanny, nanny_marker
from pycl._lib import ffi, lib
from pycl._svm_checks import svm_queue
from pycl._svm_pointer import SVMPointer
from pycl._svm_tag import SVM
from pycl.errors import check, logic_error
from pycl.event import Event, out_cell

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pycl._typing import HostDestination, HostSource, Size, WaitList
    from pycl.program import Kernel
    from pycl.queue import CommandQueue

__all__ = [
    "enqueue_svm_memfill",
    "enqueue_svm_migratemem",
    "enqueue_svm_migrate_mem",
    "set_kernel_exec_info",
]

_SLICE_THE_SVM = "SVM copies take none; slice the array instead, e.g. SVM(ary[a:b])"


def _side(
    obj: Union[SVMPointer, HostSource], writable: bool, queue: CommandQueue, routine: str, name: str
) -> tuple[Any, Optional[int], Optional[HostSource]]:
    """``(pointer cdata, size, host object or None)`` for one side of a copy."""
    if isinstance(obj, SVMPointer):
        ptr, size, alloc = obj._pointer(routine)
        if writable and not getattr(obj, "_writable", True):
            raise logic_error(routine, "%s (%r) is read-only, but the command writes into it" % (name, obj))
        if alloc is not None and alloc._context._ptr != queue._context._ptr:
            raise logic_error(
                routine, "%s (%r) belongs to another context than the queue" % (name, obj), lib.CL_INVALID_CONTEXT
            )
        return ffi.cast("void *", ptr), size, None
    host = host_bytes(obj, writable, routine, name)
    return host, len(host), obj


def _enqueue_svm_memcpy(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    src: Union[SVMPointer, HostSource],
    byte_count: Optional[Size] = None,
    is_blocking: bool = True,
    wait_for: WaitList = None,
    src_offset: Size = 0,
    dst_offset: Size = 0,
) -> Event:
    """``enqueue_copy``'s SVM routes: SVM<->SVM and SVM<->host."""
    routine = "enqueue_copy"
    if _wards._pending:
        _wards.prune_completed_front()
    q = svm_queue(queue, routine)
    no_offset(src_offset, "src_offset", routine, _SLICE_THE_SVM)
    no_offset(dst_offset, "dst_offset", routine, _SLICE_THE_SVM)
    dst, dst_size, dst_host = _side(dest, True, queue, routine, "dest")
    src_ptr, src_size, src_host = _side(src, False, queue, routine, "src")
    if byte_count is None:
        if dst_size is None or src_size is None:
            n = dst_size if src_size is None else src_size
            if n is None:
                raise logic_error(routine, "neither side's size is known: pass byte_count")
        elif dst_size != src_size:
            raise logic_error(
                routine,
                "src (%d bytes) and dest (%d bytes) differ in size: pass byte_count, or slice the larger side"
                % (src_size, dst_size),
            )
        else:
            n = src_size
    else:
        n = size_value(byte_count, "byte_count", routine)
        for size, name in ((src_size, "src"), (dst_size, "dest")):
            if size is not None and n > size:
                raise logic_error(routine, "byte_count = %d is larger than %s (%d bytes)" % (n, name, size))
    host_obj = dst_host if dst_host is not None else src_host
    if n:
        a = int(ffi.cast("uintptr_t", dst))
        b = int(ffi.cast("uintptr_t", src_ptr))
        if abs(a - b) < n:
            raise logic_error(
                routine,
                "the source bytes [0x%x, 0x%x) and destination bytes [0x%x, 0x%x) overlap" % (b, b + n, a, a + n),
                lib.CL_MEM_COPY_OVERLAP,
            )
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return marker(q, count, events, Event) if host_obj is None else nanny_marker(q, count, events, host_obj)
    out = out_cell()[0]
    if host_obj is None:
        status = lib.pycl_enqueue_svm_memcpy(q, 1 if is_blocking else 0, dst, src_ptr, n, count, events, out)
        return enqueued(status, out, "clEnqueueSVMMemcpy", "%d bytes", n)
    host = dst if dst_host is not None else src_ptr
    if n >= _staging.threshold and is_blocking:
        # Through pinned slots, as a buffer's host copies (pycl.staging).
        stager = _staging.stager(queue, host_obj)
        if stager is not None:
            if dst_host is not None:
                status = lib.pycl_staged_svm_read(stager, q, dst, src_ptr, n, count, events, out)
            else:
                status = lib.pycl_staged_svm_write(stager, q, dst, src_ptr, n, count, events, out)
            if status:
                check(status, "clEnqueueSVMMemcpy", "staged: %d bytes" % n)
            return nanny(out, host_obj, host, True)
    status = lib.pycl_enqueue_svm_memcpy(q, 1 if is_blocking else 0, dst, src_ptr, n, count, events, out)
    if status:
        check(status, "clEnqueueSVMMemcpy", "%d bytes" % n)
    return nanny(out, host_obj, host, is_blocking)


_COPY_KEYWORDS = ("byte_count", "is_blocking", "wait_for", "src_offset", "dst_offset")
_transfer.register_route("svm", "svm", _enqueue_svm_memcpy, _COPY_KEYWORDS)
_transfer.register_route("svm", "host", _enqueue_svm_memcpy, _COPY_KEYWORDS)
_transfer.register_route("host", "svm", _enqueue_svm_memcpy, _COPY_KEYWORDS)


def enqueue_svm_memfill(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    byte_count: Optional[Size] = None,
    wait_for: WaitList = None,
) -> Event:
    """Fill ``byte_count`` bytes (default: all) of ``dest`` (an SVMPointer, or
    a buffer-protocol object of SVM memory) with ``pattern`` (1, 2, 4, ...
    128 bytes; ``dest`` and ``byte_count`` must be multiples of its size)."""
    return _memfill(queue, dest, pattern, byte_count, wait_for, "enqueue_svm_memfill", "byte_count")


def _memfill(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    byte_count: Optional[Size],
    wait_for: WaitList,
    routine: str,
    count_name: str,
) -> Event:
    """``enqueue_svm_memfill`` for ``routine``, whose byte count is called
    ``count_name``."""
    q = svm_queue(queue, routine)
    if not isinstance(dest, SVMPointer):
        dest = SVM(dest)
    ptr, size, _ = dest._pointer(routine)
    _side(dest, True, queue, routine, "dest")
    data = fill_pattern(pattern, routine)
    p = len(data)
    if byte_count is None:
        if size is None:
            raise logic_error(routine, "the size of dest is unknown: pass %s" % count_name)
        n = size
    else:
        n = size_value(byte_count, count_name, routine)
        if size is not None and n > size:
            raise logic_error(routine, "%s = %d is larger than dest (%d bytes)" % (count_name, n, size))
    if n % p:
        raise logic_error(routine, "%s = %d is not a multiple of the pattern size %d" % (count_name, n, p))
    if n and ptr % p:
        raise logic_error(routine, "dest at 0x%x is not aligned to the pattern size %d (OpenCL requires it)" % (ptr, p))
    count, events = wait_list(wait_for, routine)
    if n == 0:
        return marker(q, count, events, Event)
    out = out_cell()[0]
    status = lib.pycl_enqueue_svm_memfill(q, ffi.cast("void *", ptr), data, p, n, count, events, out)
    return enqueued(status, out, "clEnqueueSVMMemFill", "pattern of %d bytes, %d bytes", p, n)


def _fill_route(
    queue: CommandQueue,
    dest: Union[SVMPointer, HostDestination],
    pattern: HostSource,
    size: Optional[Size],
    offset: Size,
    wait_for: WaitList,
) -> Event:
    no_offset(offset, "offset", "enqueue_fill", "SVM fills take none; fill a slice instead, e.g. SVM(ary[a:b])")
    return _memfill(queue, dest, pattern, size, wait_for, "enqueue_fill", "size")


_transfer.register_fill("svm", _fill_route)


def enqueue_svm_migratemem(
    queue: CommandQueue, svms: Iterable[Union[SVMPointer, HostSource]], flags: Optional[int], wait_for: WaitList = None
) -> Event:
    """Migrate the SVM pointers ``svms`` (SVMPointers or buffer-protocol
    objects of SVM memory) to the queue's device, or to the host with
    ``mem_migration_flags.HOST``. OpenCL 2.1."""
    routine = "enqueue_svm_migratemem"
    q = svm_queue(queue, routine, (2, 1))
    try:
        items = list(svms)
    except TypeError:
        raise TypeError("%s: svms must be a sequence of SVM pointers" % routine) from None
    if not items:
        raise logic_error(routine, "svms is empty")
    flags = 0 if flags is None else bits_value(flags, "flags", _constants.mem_migration_flags, routine)
    pointers, sizes = [], []
    for i, item in enumerate(items):
        if not isinstance(item, SVMPointer):
            item = SVM(item)
        ptr, size, _ = item._pointer(routine)
        _side(item, False, queue, routine, "svms[%d]" % i)
        pointers.append(ffi.cast("void *", ptr))
        sizes.append(size or 0)
    count, events = wait_list(wait_for, routine)
    out = out_cell()[0]
    status = lib.pycl_enqueue_svm_migrate(
        q,
        len(pointers),
        ffi.new("const void *[]", pointers),
        ffi.new("size_t[]", sizes),
        flags,
        count,
        events,
        out,
    )
    return enqueued(status, out, "clEnqueueSVMMigrateMem")


enqueue_svm_migrate_mem = enqueue_svm_migratemem


def set_kernel_exec_info(kernel: Kernel, param: int, value: Any) -> None:
    """``clSetKernelExecInfo``: ``kernel_exec_info.SVM_PTRS`` with a sequence
    of SVM pointers the kernel uses indirectly (kept alive by the kernel), or
    ``SVM_FINE_GRAIN_SYSTEM`` with a bool. OpenCL 2.0."""
    routine = "set_kernel_exec_info"
    handle = kernel._live()
    param = uint_value(param, "param", routine)
    if param == _constants.kernel_exec_info.SVM_PTRS:
        items = [item if isinstance(item, SVMPointer) else SVM(item) for item in value]
        data = ffi.new("void *[]", [ffi.cast("void *", item._pointer(routine)[0]) for item in items] or 1)
        size = ffi.sizeof("void *") * len(items)
        keep: Any = items
    elif param == _constants.kernel_exec_info.SVM_FINE_GRAIN_SYSTEM:
        data = ffi.new("cl_bool *", 1 if value else 0)
        size = ffi.sizeof("cl_bool")
        keep = None
    else:
        raise logic_error(routine, "param = 0x%x is no kernel_exec_info" % param)
    status = lib.pycl_kernel_set_exec_info(handle, param, size, data)
    if status:
        check(status, "clSetKernelExecInfo", _constants.kernel_exec_info.to_string(param, "0x%x"))
    # The kernel keeps the pointers alive, and sets them again if it is
    # renewed (Kernel._renew: an argument switched from SVM to a buffer).
    kernel._exec_info[param] = (size, data, keep)
