# Type aliases that pycl's annotations share. A stub only: modules import it
# under `if TYPE_CHECKING:` (their annotations are strings, from
# `from __future__ import annotations`), so nothing here runs.
from typing import Any, Optional, Sequence, Union

import numpy as np
from _typeshed import ReadableBuffer, WriteableBuffer

from pycl.event import Event

# `wait_for=`: events to wait for, or None.
WaitList = Optional[Sequence[Event]]
# Host memory a transfer reads (bytes, bytearray, memoryview, numpy arrays,
# anything with the buffer protocol) or writes (a writable one).
HostSource = ReadableBuffer
HostDestination = WriteableBuffer
# An origin, region or shape: up to three ints (numpy integers accepted).
Extent = Sequence[Union[int, np.integer[Any]]]
# A size or offset: an int or a numpy integer.
Size = Union[int, np.integer[Any]]
