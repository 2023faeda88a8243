"""``pyopencl._cl``'s documented type aliases, for code that names them
(``pyopencl._cl.Buffer`` and friends). The compiled module is ``pycl._lib``."""

from pycl._testpool import _TestMemoryPool  # noqa: F401
from pycl.allocator import AllocatorBase, DeferredAllocator, ImmediateAllocator, SVMAllocator  # noqa: F401
from pycl.context import Context  # noqa: F401
from pycl.event import Event, NannyEvent, UserEvent  # noqa: F401
from pycl.image import Image  # noqa: F401
from pycl.mapping import MemoryMap  # noqa: F401
from pycl.memory import Buffer, MemoryObject  # noqa: F401
from pycl.pipe import Pipe  # noqa: F401
from pycl.platform import Device, Platform  # noqa: F401
from pycl.pool import MemoryPool, PooledBuffer, PooledSVM, SVMPool  # noqa: F401
from pycl.program import Kernel, LocalMemory, Program  # noqa: F401
from pycl.queue import CommandQueue  # noqa: F401
from pycl.sampler import Sampler  # noqa: F401
from pycl.svm import SVM, SVMAllocation, SVMPointer  # noqa: F401
