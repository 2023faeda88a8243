"""pycl._cl._TestMemoryPool: bins and counters against a model written from
the documented scheme, and against PyOpenCL's _TestMemoryPool where it can be
imported. No device is needed."""

import gc

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pycl
from pycl._cl import _TestMemoryPool

SIZE_MAX = (1 << 64) - 1
# PyOpenCL numbers bins in 32 bits: with more than 26 leading bits the
# largest bins (exponent 63) overflow there.
PYOPENCL_MAX_BITS = 26


def model_bin(size, bits):
    """A size's bin: its exponent (the position of its highest set bit), then
    the ``bits`` bits that follow the highest one (zeros past the end of
    short sizes). 0 shares the bin of 1."""
    exponent = max(size.bit_length() - 1, 0)
    following = size - (1 << exponent) if size else 0
    if exponent >= bits:
        mantissa = following >> (exponent - bits)
    else:
        mantissa = following << (bits - exponent)
    return exponent << bits | mantissa


def model_alloc_size_for(size, bits):
    """The largest size that keeps ``size``'s leading bits: the bits below
    them set to ones."""
    exponent = max(size.bit_length() - 1, 0)
    dropped = max(exponent - bits, 0)
    return max(size, 1) | ((1 << dropped) - 1)


def model_alloc_size(bin_nr, bits):
    """The largest size of bin ``bin_nr``: a one, the bin's mantissa, then ones."""
    exponent, mantissa = bin_nr >> bits, bin_nr & ((1 << bits) - 1)
    leading = 1 << bits | mantissa
    if exponent >= bits:
        return leading << (exponent - bits) | ((1 << (exponent - bits)) - 1)
    return leading >> (bits - exponent)


sizes = st.one_of(st.integers(0, 1 << 12), st.integers(0, SIZE_MAX), st.integers(0, 64).map(lambda e: (1 << e) - 1))


@given(sizes, st.integers(0, 32))
def test_bins_match_model(size, bits):
    pool = _TestMemoryPool(bits)
    bin_nr = pool.bin_number(size)
    assert bin_nr == model_bin(size, bits)
    assert pool.alloc_size(bin_nr) == model_alloc_size_for(size, bits) == model_alloc_size(bin_nr, bits)


@given(st.integers(0, 32), st.data())
def test_every_bin_matches_model(bits, data):
    # Bins no size reaches (small exponents, nonzero low mantissa bits) too.
    bin_nr = data.draw(st.integers(0, (64 << bits) - 1))
    assert _TestMemoryPool(bits).alloc_size(bin_nr) == model_alloc_size(bin_nr, bits)


def test_documented_rounding():
    # PyOpenCL's documentation: with four leading bits, 1024 rounds to 1087.
    pool = _TestMemoryPool()
    assert pool.alloc_size(pool.bin_number(1024)) == 1087


class PoolModel:
    """The counters after allocate (never given back), allocate_block,
    release, free_held and stop_holding."""

    def __init__(self, bits):
        self.bits = bits
        self.active_blocks = self.active_bytes = self.active_alloc = 0
        self.held = {}  # bin -> held blocks
        self.holding = True

    def allocate(self, size):
        bin_nr = model_bin(size, self.bits)
        if self.held.get(bin_nr):
            self.held[bin_nr] -= 1
        self.active_blocks += 1
        self.active_bytes += size
        self.active_alloc += model_alloc_size(bin_nr, self.bits)

    def release(self, size):
        bin_nr = model_bin(size, self.bits)
        self.active_blocks -= 1
        self.active_bytes -= size
        self.active_alloc -= model_alloc_size(bin_nr, self.bits)
        if self.holding:
            self.held[bin_nr] = self.held.get(bin_nr, 0) + 1

    def free_held(self):
        self.held = {}

    def stop_holding(self):
        self.free_held()
        self.holding = False

    def counters(self):
        held_bytes = sum(n * model_alloc_size(b, self.bits) for b, n in self.held.items())
        return {
            "held_blocks": sum(self.held.values()),
            "active_blocks": self.active_blocks,
            "managed_bytes": held_bytes + self.active_alloc,
            "active_bytes": self.active_bytes,
        }


def counters(pool):
    return {name: getattr(pool, name) for name in ("held_blocks", "active_blocks", "managed_bytes", "active_bytes")}


small_sizes = st.one_of(st.integers(0, 300), st.integers(0, 1 << 40))
operations = st.lists(
    st.one_of(
        st.tuples(st.just("allocate"), small_sizes),
        st.tuples(st.just("allocate_block"), small_sizes),
        st.tuples(st.just("release"), st.integers(0, 1000)),
        st.tuples(st.sampled_from(["free_held", "stop_holding"])),
    ),
    max_size=40,
)


@given(st.integers(0, 12), operations)
def test_counters_match_model(bits, ops):
    pool, model, blocks = _TestMemoryPool(bits), PoolModel(bits), []
    for op in ops:
        if op[0] == "allocate":
            assert pool.allocate(op[1]) is None
            model.allocate(op[1])
        elif op[0] == "allocate_block":
            block = pool.allocate_block(op[1])
            assert (block.size, block.nbytes) == (op[1], model_alloc_size(model_bin(op[1], bits), bits))
            blocks.append(block)
            model.allocate(op[1])
        elif op[0] == "release":
            if not blocks:
                continue
            block = blocks.pop(op[1] % len(blocks))
            block.release()
            model.release(block.size)
        else:
            getattr(pool, op[0])()
            getattr(model, op[0])()
        assert counters(pool) == model.counters()
        assert pool._count_held() == pool.held_blocks


def test_held_block_is_reused():
    pool = _TestMemoryPool()
    block = pool.allocate_block(1000)
    block.release()
    again = pool.allocate_block(1020)  # same bin (1023 bytes)
    assert pool.stats()["hits"] == 1
    assert counters(pool) == {"held_blocks": 0, "active_blocks": 1, "managed_bytes": 1023, "active_bytes": 1020}
    again.release()
    with pytest.raises(ValueError):
        again.release()


def test_dropped_block_returns_to_its_bin():
    pool = _TestMemoryPool()
    block = pool.allocate_block(100)
    del block
    gc.collect()  # PyPy runs the block's destructor at a collection
    assert counters(pool) == {"held_blocks": 1, "active_blocks": 0, "managed_bytes": 103, "active_bytes": 0}


def test_pool_outlives_its_owner():
    # A block handed out keeps the shim's pool alive after the Python object goes.
    pool = _TestMemoryPool()
    block = pool.allocate_block(10)
    del pool
    gc.collect()
    block.release()


def test_bad_arguments():
    with pytest.raises(pycl.LogicError):
        _TestMemoryPool(33)
    with pytest.raises(pycl.LogicError):
        _TestMemoryPool(-1)
    pool = _TestMemoryPool()
    with pytest.raises(pycl.LogicError):
        pool.allocate(-1)
    with pytest.raises(pycl.LogicError):
        pool.allocate(1 << 64)
    with pytest.raises(TypeError):
        pool.allocate("10")
    with pytest.raises(pycl.LogicError):
        pool.bin_number(-1)
    with pytest.raises(pycl.LogicError):
        pool.alloc_size(64 << 4)


# --- PyOpenCL's _TestMemoryPool, where it can be imported


@pytest.fixture(scope="module")
def pyopencl_pool_class():
    cl_module = pytest.importorskip("pyopencl._cl", reason="PyOpenCL is not importable here (CPython only)")
    if not hasattr(cl_module, "_TestMemoryPool"):
        pytest.skip("this PyOpenCL has no _TestMemoryPool")
    return cl_module._TestMemoryPool


@given(st.lists(st.tuples(sizes, st.integers(0, PYOPENCL_MAX_BITS)), min_size=1, max_size=50))
def test_bins_match_pyopencl(pyopencl_pool_class, cases):
    for size, bits in cases:
        ours, theirs = _TestMemoryPool(bits), pyopencl_pool_class(bits)
        bin_nr = ours.bin_number(size)
        assert bin_nr == theirs.bin_number(size)
        assert ours.alloc_size(bin_nr) == theirs.alloc_size(bin_nr)


@given(st.integers(0, PYOPENCL_MAX_BITS), st.data())
def test_every_bin_matches_pyopencl(pyopencl_pool_class, bits, data):
    bin_nr = data.draw(st.integers(0, (64 << bits) - 1))
    assert _TestMemoryPool(bits).alloc_size(bin_nr) == pyopencl_pool_class(bits).alloc_size(bin_nr)


@given(st.integers(0, 12), st.lists(st.one_of(small_sizes, st.sampled_from(["free_held", "stop_holding"]))))
def test_counters_match_pyopencl(pyopencl_pool_class, bits, ops):
    # PyOpenCL's allocate returns None and never gets its block back.
    ours, theirs = _TestMemoryPool(bits), pyopencl_pool_class(bits)
    for op in ops:
        if isinstance(op, str):
            getattr(ours, op)()
            getattr(theirs, op)()
        else:
            assert ours.allocate(op) is None
            assert theirs.allocate(op) is None
        assert counters(ours) == counters(theirs)


def test_default_bits_match_pyopencl(pyopencl_pool_class):
    ours, theirs = _TestMemoryPool(), pyopencl_pool_class()
    for size in list(range(2100)) + [SIZE_MAX, 1 << 63, (1 << 40) + 12345]:
        assert ours.bin_number(size) == theirs.bin_number(size)
        assert ours.alloc_size(ours.bin_number(size)) == theirs.alloc_size(theirs.bin_number(size))
