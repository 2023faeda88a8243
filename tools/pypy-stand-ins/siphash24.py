"""A pure-Python stand-in for the ``siphash24`` package, for CI's PyPy only.

pytools (which PyOpenCL's Python layer imports) hashes its cache keys with
``siphash24.siphash13``. siphash24 publishes no PyPy wheels, and its sdist
fetches its C sources from GitHub while it builds, which CI's machine cannot
reach; on a machine that can, ``pip install siphash24`` builds it for PyPy
and this file is not needed. CI puts this directory on PyPy's path and checks
the digests against the real package under CPython
(``python tools/pypy-stand-ins/siphash24.py``).

SipHash-c-d as Aumasson and Bernstein specify it, with the package's
interface: ``siphash13(data=b"", key=bytes(16))`` and ``siphash24(...)``
objects with ``update``, ``digest`` (8 bytes, little-endian), ``hexdigest``,
``intdigest`` (signed 64-bit) and ``copy``.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & _MASK


def _siphash(c_rounds: int, d_rounds: int, key: bytes, data: bytes) -> int:
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:16], "little")
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573

    def rounds(count: int) -> None:
        nonlocal v0, v1, v2, v3
        for _ in range(count):
            v0 = (v0 + v1) & _MASK
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _MASK
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _MASK
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _MASK
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)

    whole = len(data) - len(data) % 8
    for start in range(0, whole, 8):
        m = int.from_bytes(data[start : start + 8], "little")
        v3 ^= m
        rounds(c_rounds)
        v0 ^= m
    last = ((len(data) & 0xFF) << 56) | int.from_bytes(data[whole:], "little")
    v3 ^= last
    rounds(c_rounds)
    v0 ^= last
    v2 ^= 0xFF
    rounds(d_rounds)
    return v0 ^ v1 ^ v2 ^ v3


class _SipHash:
    c_rounds = d_rounds = 0
    name = ""
    digest_size = 8
    block_size = 8

    def __init__(self, data: bytes = b"", key: bytes = bytes(16)) -> None:
        if len(key) != 16:
            raise ValueError("key must be 16 bytes long")
        self._key = bytes(key)
        self._data = bytearray(data)

    def update(self, data: bytes) -> None:
        self._data += data

    def copy(self) -> _SipHash:
        other = type(self)(key=self._key)
        other._data = bytearray(self._data)
        return other

    def digest(self) -> bytes:
        return _siphash(self.c_rounds, self.d_rounds, self._key, bytes(self._data)).to_bytes(8, "little")

    def hexdigest(self) -> str:
        return self.digest().hex()

    def intdigest(self) -> int:
        return int.from_bytes(self.digest(), "little", signed=True)


class siphash13(_SipHash):  # noqa: N801 (the package's name)
    c_rounds, d_rounds, name = 1, 3, "siphash13"


class siphash24(_SipHash):  # noqa: N801 (the package's name)
    c_rounds, d_rounds, name = 2, 4, "siphash24"


if __name__ == "__main__":
    # Against the real package (run under CPython, where it installs).
    import importlib.util
    import os
    import random
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.modules.pop("siphash24", None)
    spec = importlib.util.find_spec("siphash24")
    if spec is None or spec.origin == os.path.abspath(__file__):
        sys.exit("the siphash24 package is not installed: nothing to check against")
    real = importlib.import_module("siphash24")
    rng = random.Random(7)
    for size in list(range(0, 40)) + [63, 64, 65, 1000]:
        data, key = rng.randbytes(size), rng.randbytes(16)
        for mine, theirs in ((siphash13, real.siphash13), (siphash24, real.siphash24)):
            a, b = mine(data, key=key), theirs(data, key=key)
            assert (a.digest(), a.intdigest()) == (b.digest(), b.intdigest()), (mine.name, size)
            split = mine(data[: size // 2], key=key)
            split.update(data[size // 2 :])
            assert split.hexdigest() == b.hexdigest() and mine(data).hexdigest() == theirs(data).hexdigest()
    print("siphash13 and siphash24 stand-ins agree with siphash24 %s" % getattr(real, "__version__", ""))
