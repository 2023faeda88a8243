"""The collection budget: memory held by dropped objects stays bounded.

On CPython a dropped ``Buffer`` frees its memory at once (reference
counting). On PyPy it waits for a garbage collection, and PyPy's collector
sees only the small Python object, not the device or host memory behind it,
so a loop that drops its buffers instead of calling ``release()`` piles them
up, and ``ffi.gc(size=...)``, PyPy's own remedy, makes every allocation dear
(docs/budget.md has the figures).

So pycl keeps an account per device: every object that owns memory (buffers
but not sub-buffers, images but not images over a buffer, pipes, SVM
allocations, buffer and image maps, the pinned slots of staged copies, the
blocks pools hand out) adds its bytes to the account of its context's device
when it is created, and an explicit ``release()`` takes them off again.
Pools count their blocks in C (handed out minus returned, released or
collected) and bring the balance in every eighth of the budget handed out
and before the budget would collect, so that an allocation from a pool runs
no Python for it. When the bytes added since the last collection exceed the
device's budget, pycl collects garbage before it allocates more: the
memory held by unreachable objects stays below about one budget per device,
at the cost of one ``gc.collect()`` per budget's worth of dropped memory.
Programs that release explicitly never collect.

The budget of a device is ``max(min_bytes, fraction * global_mem_size)``
(default 256 MiB and 1/16). A multi-device context uses the smallest budget
of its devices. Accounting is on by default on PyPy and off on CPython, where
reference counting already frees at once (turn it on there for programs that
keep buffers in reference cycles). ``configure()`` changes all this at run
time; the environment variable ``PYCL_GC_BUDGET`` sets it at import: ``off``,
or a fixed budget per device such as ``64M`` or ``2G`` (which also turns
accounting on).

Allocation failures collect and retry on every interpreter, whatever the
budget (``collect()``).

The counters are plain Python ints updated without a lock: two threads that
allocate at the same instant may lose one update, which shifts the next
collection by one object's size and never makes the bound unbounded.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import weakref
from typing import TYPE_CHECKING, Any, Optional

from pycl import _wards
from pycl._args import size_value
from pycl._lib import lib
from pycl.errors import logic_error

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    from pycl.platform import Device

    class _Owner(Protocol):
        """A context as the budget sees it: a Protocol rather than
        pycl.context.Context, since pycl.context imports ``DeviceAccount`` from
        here for its annotations (and the import graph stays acyclic)."""

        _account: Optional[DeviceAccount]  # cached by _account_of

        @property
        def devices(self) -> Sequence[Device]: ...


__all__ = ["configure", "settings", "stats", "collect"]

_settings: dict[str, Any] = {
    "enabled": sys.implementation.name == "pypy",
    "min_bytes": 256 << 20,
    "fraction": 1 / 16,
}
# Read by the allocating paths on every call (``if _budget.enabled:``).
enabled: bool = _settings["enabled"]

_collections: int = 0


class DeviceAccount:
    """One device's bytes allocated since the last collection."""

    __slots__ = ("device", "global_mem", "budget", "pending", "counters")
    device: Device
    global_mem: int  # the device's global_mem_size in bytes
    budget: int  # bytes allocated between collections
    pending: int  # bytes allocated since the last collection
    # Objects that count bytes of their own (pools, whose blocks the shim
    # counts) and bring them in with _settle(apply): add_counter.
    counters: weakref.WeakSet[Any]

    def __init__(self, device: Device) -> None:
        self.device = device
        self.global_mem = device.global_mem_size
        self.budget = _budget_for(self.global_mem)
        self.pending = 0
        self.counters = weakref.WeakSet()


_accounts: dict[int, DeviceAccount] = {}  # device int_ptr -> DeviceAccount (root devices live as long as the process)


def _budget_for(global_mem: int) -> int:
    return max(_settings["min_bytes"], int(_settings["fraction"] * global_mem))


def _account_of(context: _Owner) -> DeviceAccount:
    """The account a context's allocations go to (cached on the context)."""
    accounts = []
    for device in context.devices:
        account = _accounts.get(device._ptr)
        if account is None:
            account = _accounts[device._ptr] = DeviceAccount(device)
        accounts.append(account)
    account = min(accounts, key=lambda a: a.budget)
    context._account = account
    return account


def budget_of(context: _Owner) -> int:
    """The budget in bytes of the account that ``context``'s allocations go to."""
    account = context._account
    if account is None:
        account = _account_of(context)
    return account.budget


def charge(context: _Owner, nbytes: int) -> None:
    """Count ``nbytes`` that an object of ``context`` is about to own;
    collects garbage first when the device's budget is exceeded (after the
    account's counters have brought in what they counted)."""
    account = context._account
    if account is None:
        account = _account_of(context)
    pending = account.pending
    total = pending + nbytes
    if pending and total > account.budget and account.counters:
        for counter in list(account.counters):
            counter._settle(adjust)
        pending = account.pending
        total = pending + nbytes
    if pending and total > account.budget:
        collect()
        total = nbytes
    account.pending = total


def count(context: _Owner, nbytes: int) -> None:
    """``charge`` for ``nbytes`` > 0, ``credit`` for the opposite of a
    negative count (a counter's balance)."""
    if nbytes > 0:
        charge(context, nbytes)
    elif nbytes < 0:
        credit(context, -nbytes)


def adjust(context: _Owner, nbytes: int) -> None:
    """``count`` that never collects (for counters that charge settles)."""
    account = context._account
    if account is None:
        account = _account_of(context)
    pending = account.pending + nbytes
    account.pending = pending if pending > 0 else 0


def add_counter(context: _Owner, counter: Any) -> None:
    """Have the budget of ``context``'s device ask ``counter`` for what it
    counted before deciding to collect (``counter._settle(adjust)``) and
    tell it to forget its count after collecting (``counter._settle(None)``);
    ``counter`` is held weakly."""
    account = context._account
    if account is None:
        account = _account_of(context)
    account.counters.add(counter)


def credit(context: _Owner, nbytes: int) -> None:
    """Take off ``nbytes`` of an object of ``context`` released explicitly."""
    account = context._account
    if account is not None:
        pending = account.pending - nbytes
        account.pending = pending if pending > 0 else 0


def credit_object(context: _Owner, obj: object) -> None:
    """Take off what ``obj`` was charged (its ``_charged`` slot, set only
    when accounting was on at its creation: the slot stays unset otherwise,
    which spares CPython a store per object)."""
    charged = getattr(obj, "_charged", 0)
    if charged:
        credit(context, charged)


def collect() -> None:
    """Collect garbage now and finish what collection handed over: queued
    frees of collected SVM allocations are flushed to their queues and the
    host objects of completed transfers are let go. Every account starts
    again from zero."""
    global _collections
    gc.collect()
    lib.pycl_svm_drain(0)
    _wards.prune()
    for account in _accounts.values():
        for counter in list(account.counters):
            counter._settle(None)  # what they counted was collected or stays live: forgotten as the rest
        account.pending = 0
    _collections += 1


def configure(
    enabled: Optional[bool] = None, min_bytes: Optional[int] = None, fraction: Optional[float] = None
) -> None:
    """Change the budget: ``enabled`` turns accounting on or off,
    ``min_bytes`` and ``fraction`` set each device's budget to
    ``max(min_bytes, fraction * global_mem_size)``. ``None`` keeps a value."""
    routine = "budget.configure"
    if min_bytes is not None:
        min_bytes = size_value(min_bytes, "min_bytes", routine)
        if min_bytes == 0:
            raise logic_error(routine, "min_bytes = 0 is not positive")
    if fraction is not None and (not isinstance(fraction, (int, float)) or not 0 <= fraction <= 1):
        raise logic_error(routine, "fraction must be a number in 0 .. 1, got %r" % (fraction,))
    for name, value in (("enabled", enabled), ("min_bytes", min_bytes), ("fraction", fraction)):
        if value is not None:
            _settings[name] = bool(value) if name == "enabled" else value
    _apply()


def _apply() -> None:
    global enabled
    enabled = _settings["enabled"]
    for account in _accounts.values():
        account.budget = _budget_for(account.global_mem)


def settings() -> dict[str, Any]:
    """The current settings (a copy)."""
    return dict(_settings)


def stats() -> dict[str, Any]:
    """``{"collections": n, "devices": [{"device", "budget", "pending"}]}``:
    the collections the budget ran and each device account's state."""
    return {
        "collections": _collections,
        "devices": [{"device": a.device, "budget": a.budget, "pending": a.pending} for a in list(_accounts.values())],
    }


_UNITS: dict[str, int] = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _from_environment(value: str) -> None:
    """``PYCL_GC_BUDGET``: ``off`` (or ``0``), or a size such as ``64M``."""
    text = value.strip().upper()
    if text in ("OFF", "0", "NO", "FALSE"):
        configure(enabled=False)
        return
    match = re.fullmatch(r"(\d+)\s*([KMGT]?)I?B?", text)
    if match is None or not int(match.group(1)):
        raise logic_error("PYCL_GC_BUDGET", "%r is neither 'off' nor a size such as 268435456, 256M or 2G" % (value,))
    configure(enabled=True, min_bytes=int(match.group(1)) * _UNITS[match.group(2)], fraction=0)


if os.environ.get("PYCL_GC_BUDGET"):
    _from_environment(os.environ["PYCL_GC_BUDGET"])
