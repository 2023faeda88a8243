"""Device memory across processes and nodes, over MPI (mpi4py).

One process per device: ``rank_device`` shares out each node's devices
among the ranks of that node, and ``Comm`` moves Buffers and SVM between
ranks with ``send``, ``recv``, ``sendrecv``, ``bcast``, ``allreduce`` and
``allgather`` (blocking, and non-blocking forms returning a ``Request``).
Between ranks of one node, data goes through a window of shared memory in
chunks: one rank's device fills a slot while the other's drains another,
and MPI carries only small announcements. Between nodes, data from GPUs goes
through pinned host slots in chunks, so that the device copies one chunk
while MPI moves another; CPU devices hand MPI their mapped memory directly.
Each operation first exchanges a small header, so that a size or dtype (or
path) that differs between ranks is an exception on every rank involved
rather than a truncated message (docs/design.md, "Several processes").

mpi4py is an optional dependency: ``pip install 'pycl-cffi[mpi]'``.
"""

from __future__ import annotations

from pycl._lib import lib
from pycl.errors import UnavailableError

try:
    from mpi4py import MPI  # noqa: F401 (needed by every module of the package)
except ImportError as _error:
    raise UnavailableError(
        "pycl.mpi",
        lib.PYCL_UNAVAILABLE,
        "pycl.mpi needs mpi4py and an MPI library (%s): pip install 'pycl-cffi[mpi]', "
        "which installs mpi4py and MPICH" % _error,
    ) from None

from pycl.mpi.comm import Comm
from pycl.mpi.config import configure, settings
from pycl.mpi.devices import node_devices, rank_device, rank_queue
from pycl.mpi.request import CommError, CommTimeoutError, Request

__all__ = [
    "Comm",
    "CommError",
    "CommTimeoutError",
    "Request",
    "configure",
    "node_devices",
    "rank_device",
    "rank_queue",
    "settings",
]
