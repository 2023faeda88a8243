"""The header each operation of ``pycl.mpi`` sends before its data: what a
rank sends or expects (count, dtype, chunk size, root or reduction), so that
ranks that disagree raise ``LogicError`` on every side instead of
truncating or misreading a message; and the path the data takes (the
node's shared window or MPI messages), so that ranks that chose differently
raise too rather than wait for data that comes the other way. Nine int64s."""

from __future__ import annotations

from typing import Any

import numpy as np

from pycl.errors import logic_error
from pycl.mpi.request import CommError

__all__ = [
    "SEND",
    "REPLY",
    "BCAST",
    "ALLREDUCE",
    "ALLGATHER",
    "header",
    "empty",
    "describe",
    "extra",
    "rank_of",
    "reply",
    "check_peer",
    "agree",
]

# "pyclMPI1" as an int: a message on pycl.mpi's communicators that does not
# start with it is not one of its headers.
_MAGIC = int.from_bytes(b"pyclMPI1", "little")
SEND, REPLY, BCAST, ALLREDUCE, ALLGATHER = 1, 2, 3, 4, 5
_KINDS = {SEND: "send", REPLY: "recv", BCAST: "bcast", ALLREDUCE: "allreduce", ALLGATHER: "allgather"}
_OPS = {0: "", 1: "sum", 2: "min", 3: "max"}
# Fields: magic, kind, count, dtype (its str, as bytes), chunk_bytes, path
# (1: the shared window), extra (root, reduction or data tag), rank, flag (a
# reply's verdict).
_COUNT, _DTYPE, _CHUNK, _PATH, _EXTRA, _RANK, _FLAG = 2, 3, 4, 5, 6, 7, 8


def header(kind: int, count: int, dtype: np.dtype[Any], chunk: int, shared: bool, extra: int, rank: int) -> np.ndarray:
    code = int.from_bytes(dtype.str.encode("ascii")[:8].ljust(8, b"\0"), "little", signed=True)
    return np.array([_MAGIC, kind, count, code, chunk, int(shared), extra, rank, 0], dtype=np.int64)


def empty() -> np.ndarray:
    return np.zeros(9, dtype=np.int64)


def _dtype_name(code: int) -> str:
    text = int(code).to_bytes(8, "little", signed=True).rstrip(b"\0").decode("ascii", "replace")
    try:
        return str(np.dtype(text))
    except TypeError:
        return repr(text)


def describe(head: np.ndarray, what: str = "count") -> str:
    """``"count 100 of float32, chunk_bytes 8388608, through MPI messages"``."""
    path = "the shared window" if head[_PATH] else "MPI messages"
    return "%s %d of %s, chunk_bytes %d, through %s" % (
        what,
        head[_COUNT],
        _dtype_name(int(head[_DTYPE])),
        head[_CHUNK],
        path,
    )


def _checked(head: np.ndarray, routine: str) -> np.ndarray:
    if int(head[0]) != _MAGIC:
        raise CommError("%s: a message that is no pycl.mpi header arrived where one was expected" % routine)
    return head


def extra(head: np.ndarray) -> int:
    return int(head[_EXTRA])


def rank_of(head: np.ndarray) -> int:
    return int(head[_RANK])


def reply(mine: np.ndarray, theirs: np.ndarray, routine: str) -> np.ndarray:
    """The receiver's answer to a sender's header: its own, with the flag set
    when the two disagree."""
    _checked(theirs, routine)
    answer = mine.copy()
    answer[_EXTRA] = theirs[_EXTRA]
    answer[_FLAG] = int(not np.array_equal(mine[_COUNT:_EXTRA], theirs[_COUNT:_EXTRA]))
    return answer


def check_peer(sender: np.ndarray, receiver: np.ndarray, routine: str, peer: str) -> None:
    """Raise ``LogicError`` if the receiver's reply flags a disagreement
    with the sender's header (the same words on both ranks)."""
    _checked(receiver, routine)
    if receiver[_FLAG]:
        raise logic_error(
            routine,
            "%s: the sender has %s, the receiver expects %s; nothing was transferred"
            % (peer, describe(sender), describe(receiver)),
        )


def agree(heads: np.ndarray, routine: str) -> None:
    """Raise ``LogicError`` (the same on every rank) unless every rank's
    header (one row each) asks for the same collective operation."""
    for row in heads:
        _checked(row, routine)
    same = heads[:, 1:_RANK] == heads[0, 1:_RANK]
    if not same.all():
        extra_name = {BCAST: "root", ALLREDUCE: "op"}.get(int(heads[0, 1]), "")

        def text(row: np.ndarray) -> str:
            kind = _KINDS.get(int(row[1]), "?")
            value = _OPS.get(int(row[_EXTRA]), "?") if row[1] == ALLREDUCE else str(row[_EXTRA])
            where = ", %s %s" % (extra_name, value) if extra_name and row[1] == heads[0, 1] else ""
            return "rank %d: %s of %s%s" % (row[_RANK], kind, describe(row), where)

        raise logic_error(routine, "the ranks disagree (%s); nothing was transferred" % "; ".join(map(text, heads)))
