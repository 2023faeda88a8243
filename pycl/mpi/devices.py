"""One device per rank: the ranks that share a node share out its devices,
by their rank among the ranks of that node (``MPI.COMM_TYPE_SHARED``), so
that ``mpiexec -n 8`` on a host with 8 GPUs gives each rank its own GPU
whatever the placement of ranks on nodes."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Union

from mpi4py import MPI

from pycl import constants as _constants
from pycl.context import Context, choose_devices
from pycl.errors import logic_error
from pycl.platform import Device, get_platforms
from pycl.queue import CommandQueue

__all__ = ["rank_device", "rank_queue", "node_devices"]

_dt = _constants.device_type
# A mapping from the rank in the communicator to a device: a sequence or a
# dict indexed by rank, or a function of (rank, node-local rank).
DeviceMap = Union[Sequence[Device], Mapping[int, Device], Callable[[int, int], Device]]


def node_devices() -> list[Device]:
    """The devices ranks share out when nothing else is asked: those that
    ``PYOPENCL_CTX`` names (``"platform:device,device"``; a platform alone
    gives all its devices), else every device of the first platform that has
    a GPU (one that is not also a CPU: Oclgrind's simulator claims every
    type), else of the first platform."""
    spec = os.environ.get("PYOPENCL_CTX")
    if spec:
        answers = spec.split(":")
        if len(answers) > 1:
            return choose_devices(interactive=False, answers=answers)
        return choose_devices(interactive=False, answers=answers + ["0"])[0].platform.get_devices()
    platforms = get_platforms()
    for platform in platforms:
        devices = platform.get_devices()
        if any(d.type & _dt.GPU and not d.type & _dt.CPU for d in devices):
            return devices
    return platforms[0].get_devices()


def rank_device(comm: Optional[Any] = None, mapping: Optional[DeviceMap] = None) -> Device:
    """The device of this rank of ``comm`` (default ``MPI.COMM_WORLD``).

    With ``mapping`` (a sequence or dict indexed by the rank in ``comm``, or
    a function of ``(rank, node_rank)``) the device it gives. Otherwise the
    node's ranks take ``node_devices()`` in turn by their rank on the node
    (the rank in ``comm.Split_type(MPI.COMM_TYPE_SHARED)``), starting over
    when there are more ranks than devices. Collective over ``comm`` unless
    ``mapping`` is a sequence or dict; set ``PYOPENCL_CTX`` per rank
    (``mpiexec -n 1 -env PYOPENCL_CTX 0:0 python a.py : -n 1 -env
    PYOPENCL_CTX 0:1 python a.py``) to choose by hand."""
    comm = MPI.COMM_WORLD if comm is None else comm
    rank = comm.Get_rank()
    if mapping is not None and not callable(mapping):
        try:
            device = mapping[rank]
        except (KeyError, IndexError):
            raise logic_error("rank_device", "mapping has no device for rank %d" % rank) from None
    else:
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        try:
            node_rank = node.Get_rank()
        finally:
            node.Free()
        if mapping is not None:
            device = mapping(rank, node_rank)
        else:
            devices = node_devices()
            device = devices[node_rank % len(devices)]
    if not isinstance(device, Device):
        raise TypeError("rank_device: mapping must give a pycl.Device, not %s" % type(device).__name__)
    return device


def rank_queue(comm: Optional[Any] = None, mapping: Optional[DeviceMap] = None) -> CommandQueue:
    """An in-order queue on a new context of ``rank_device(comm, mapping)``
    (its context is ``queue.context``)."""
    return CommandQueue(Context([rank_device(comm, mapping)]))
