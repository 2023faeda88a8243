"""Requests: the progress of ``pycl.mpi``'s operations.

An operation is a generator of steps: each step yields what it waits for
(an MPI request, a list of them, a pycl ``Event``, or a function that says
whether any of several things it waits for has happened) and runs on when
that has completed. A ``Request`` drives such generators. Waiting on any request
advances every operation in flight in the process, not only its own: the
send half of one rank's exchange may be what its peer's receive waits for,
and MPI makes no progress on a message nobody has posted yet.

Nothing here blocks in MPI or in the driver: completion is tested, and a
wait that makes no progress for the ``timeout`` setting raises
``CommTimeoutError``, so a peer that died or never posts its side ends in an
exception rather than a hang.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from mpi4py import MPI

from pycl import constants as _constants
from pycl import errors as _errors
from pycl.event import Event
from pycl.mpi import config as _config

if TYPE_CHECKING:
    from typing import Protocol

    class Comm(Protocol):
        """What a request needs of its ``pycl.mpi.Comm`` (whose module
        imports this one)."""

        def unusable_reason(self) -> str: ...

        def mark_unusable(self, reason: str) -> None: ...


__all__ = ["Request", "CommError", "CommTimeoutError", "Waitable", "Steps", "is_done", "fail_in_flight", "ABANDONED"]

Waitable = Union[MPI.Request, list, Event, "Request", Callable[[], bool], None]
Steps = Generator[Waitable, None, None]

_COMPLETE = _constants.command_execution_status.COMPLETE
# Requests whose operation failed with MPI transfers still posted, and the
# host memory those transfers read or write: kept for the life of the
# process, since MPI may still touch that memory (a posted send cannot be
# taken back).
ABANDONED: list[Any] = []


class CommError(_errors.RuntimeError):
    """An operation of ``pycl.mpi`` failed on the MPI side: a peer died, the
    communicator was freed, or MPI reported an error. The communicator's
    messages may be out of step afterwards, so the ``Comm`` refuses further
    operations."""


class CommTimeoutError(CommError, builtins.TimeoutError):
    """An operation made no progress for the ``timeout`` setting
    (``pycl.mpi.configure``)."""


def is_done(waitable: Waitable) -> bool:
    """True if ``waitable`` has completed (testing an MPI request advances
    MPI); a failed device command raises ``CommError``."""
    if waitable is None:
        return True
    if isinstance(waitable, Event):
        status = waitable.command_execution_status
        if status < 0:
            raise CommError("pycl.mpi: a device copy failed with status %d" % status)
        return status == _COMPLETE
    if isinstance(waitable, Request):
        return waitable.done
    if isinstance(waitable, list):
        return bool(MPI.Request.Testall(waitable))
    if callable(waitable):
        return bool(waitable())
    return bool(waitable.Test())


# Every request not yet complete, in the order they were made.
_active: list[Request] = []


class Request:
    """A non-blocking operation of ``pycl.mpi``: ``test()`` advances it and
    says whether it is complete, ``wait()`` advances it to completion. Until
    then, do not read or write the memory it moves (on the device, enqueue
    commands on it only after ``wait``). A request that fails raises its
    exception from ``test`` or ``wait``."""

    __slots__ = ("_comm", "_routine", "_steps", "_waiting", "_error", "_last")

    def __init__(self, comm: Comm, routine: str, steps: list[Steps]) -> None:
        self._comm = comm
        self._routine = routine
        self._steps = steps
        self._waiting: list[Waitable] = [None] * len(steps)
        self._error: Optional[BaseException] = None
        self._last = time.monotonic()
        _active.append(self)
        _advance_all()
        if self._error is not None:
            self._raise()

    @property
    def done(self) -> bool:
        """True once the operation completed or failed."""
        return not self._steps

    def test(self) -> bool:
        """Advance every operation in flight; True if this one is complete."""
        if self._steps:
            _advance_all()
        if self._error is not None:
            self._raise()
        return not self._steps

    def wait(self, timeout: Optional[float] = None) -> None:
        """Advance every operation in flight until this one completes.
        ``timeout`` (default: the ``timeout`` setting) bounds the time
        without progress, after which ``CommTimeoutError`` is raised and
        the ``Comm`` is unusable."""
        limit = _config.settings()["timeout"] if timeout is None else float(timeout)
        idle = 0
        while self._steps:
            if _advance_all():
                idle = 0
                continue
            if self._steps and time.monotonic() - self._last > limit:
                self._fail(
                    CommTimeoutError(
                        "%s: no progress for %.3g s (timeout): the peer rank may have died, or never posted its "
                        "side of the operation" % (self._routine, limit)
                    )
                )
                break
            # Spin briefly (a chunk completes within microseconds when busy),
            # then back off so that waiting ranks leave the cores to the
            # others and to the devices' threads.
            idle += 1
            if idle > 50:
                time.sleep(min(1e-3, 1e-5 * (idle - 50)))
        if self._error is not None:
            self._raise()

    def _raise(self) -> None:
        error, self._error = self._error, None
        raise error  # type: ignore[misc]  # tested by the callers

    def _step(self) -> bool:
        """Run each generator as far as it goes without waiting; True if any
        moved. An exception ends the request (``_error``)."""
        moved = False
        comm = self._comm
        try:
            reason = comm.unusable_reason()
            if reason:
                raise CommError("%s: %s" % (self._routine, reason))
            i = 0
            while i < len(self._steps):
                waitable = self._waiting[i]
                while is_done(waitable):
                    moved = True
                    try:
                        waitable = next(self._steps[i])
                    except StopIteration:
                        waitable = None
                        del self._steps[i], self._waiting[i]
                        i -= 1
                        break
                else:
                    self._waiting[i] = waitable
                i += 1
        except BaseException as error:  # noqa: B902 (ends the request, raised by test/wait)
            self._fail(error)
            return True
        if moved:
            self._last = time.monotonic()
        if not self._steps:
            _active.remove(self)
        return moved

    def _fail(self, error: BaseException) -> None:
        """End the request with ``error``: its generators clean up (each sees
        ``error`` where it waits), and the Comm is marked unusable unless
        the error is a mismatch found before any data moved."""
        for steps in self._steps:
            try:
                steps.throw(error)
            except BaseException:  # noqa: B902 (the error itself, or one met in clean-up)
                pass
        self._steps, self._waiting = [], []
        if self in _active:
            _active.remove(self)
        if isinstance(error, MPI.Exception):
            error = CommError("%s: MPI failed: %s" % (self._routine, error.Get_error_string()))
        if not isinstance(error, _errors.LogicError):
            self._comm.mark_unusable("%s failed (%s)" % (self._routine, error))
        self._error = error

    def __repr__(self) -> str:
        state = "failed" if self._error is not None else "complete" if not self._steps else "in flight"
        return "<pycl.mpi.Request %s, %s>" % (self._routine, state)


def fail_in_flight(comm: Comm, reason: str) -> None:
    """End every request of ``comm`` still in flight with ``CommError``
    (``reason``): their device copies are waited for, so that the memory
    they copy from or into may go."""
    for request in list(_active):
        if request._comm is comm:
            request._fail(CommError("%s: %s" % (request._routine, reason)))


def _advance_all() -> bool:
    """Advance every request in flight; True if any moved."""
    moved = False
    for request in list(_active):
        if request._step():
            moved = True
    return moved
