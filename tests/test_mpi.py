"""pycl.mpi under mpiexec: tests/mpi_ranks.py's scenarios run as 2 and 4
ranks on each platform, through the node's shared window (the default on
one node) and through MPI messages, with memory mapped (CPU devices'
default) and staged through pinned slots; each rank checks against numpy. Every run has
a timeout, so a hang fails the test. POCL_DEVICES="pthread pthread" gives
each PoCL two devices, which the ranks of this node share out.

Skipped, with the reason, where mpi4py or mpiexec is missing (``pip install
'pycl-cffi[mpi]'``; ``make test-mpi``)."""

import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import pycl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RANKS = os.path.join(HERE, "mpi_ranks.py")
HALO = os.path.join(ROOT, "examples", "mpi_halo.py")
TIMEOUT = 120  # seconds per mpiexec run, a generous bound for -n 4 on 2 cores

mpi4py = pytest.importorskip("mpi4py", reason="pycl.mpi needs mpi4py: pip install 'pycl-cffi[mpi]'")


def _mpiexec():
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.path.exists(beside) else shutil.which("mpiexec")


def _library():
    """The MPI library mpi4py runs on (its first line), e.g. 'MPICH Version: 5.0.2'."""
    from mpi4py import MPI

    return MPI.Get_library_version().strip().splitlines()[0]


MPIEXEC = _mpiexec()
LIBRARY = _library()
# The scenarios use MPICH's mpiexec flags (-disable-auto-cleanup) and
# environment (the TCP path), the MPI library the mpi extra installs.
pytestmark = [
    pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec beside %s nor on PATH" % sys.executable),
    pytest.mark.skipif(
        "MPICH" not in LIBRARY,
        reason="the tests run MPICH's mpiexec (pip install 'pycl-cffi[mpi]'); mpi4py here runs on %r" % LIBRARY,
    ),
]


def _platforms():
    try:
        return [(i, p.name) for i, p in enumerate(pycl.get_platforms())]
    except pycl.Error:
        return []


PLATFORMS = _platforms()


def launch(ranks, args, platform=0, flags=(), timeout=TIMEOUT, extra_env=None):
    """Run ``mpiexec -n ranks python args...``; ``(returncode, output)``.
    A run past ``timeout`` is killed (the whole process group) and fails."""
    # PYTHONPATH: the scripts import the pycl of this checkout, as the tests do.
    path = os.path.dirname(os.path.dirname(os.path.abspath(pycl.__file__)))
    env = dict(os.environ, POCL_DEVICES="pthread pthread", PYOPENCL_CTX=str(platform), PYTHONPATH=path)
    env.update(extra_env or {})
    env.pop("PYOPENCL_TEST", None)
    cmd = [MPIEXEC, *flags, "-n", str(ranks), sys.executable, *args]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT, start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail("hung: %s ran past %d s:\n%s" % (" ".join(cmd), timeout, out.decode(errors="replace")))
    return proc.returncode, out.decode(errors="replace")


def ok_ranks(output, scenario):
    return sorted(int(r) for r in re.findall(r"rank (\d+): %s ok" % scenario, output))


# The paths: the shared window, with non-blocking copies on the Comm's queue
# (CPU devices' default) and with blocking ones on a queue of its own (as on
# GPUs); MPI messages, mapped (CPU devices' default) and staged through
# pinned slots.
PATHS = {
    "shared": [],
    "shared-staged": ["--staged"],
    "mapped": ["--messages"],
    "staged": ["--messages", "--staged"],
}


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("ranks", [2, 4])
@pytest.mark.parametrize("platform_index", [i for i, _ in PLATFORMS], ids=[n.split()[0] for _, n in PLATFORMS])
def test_every_operation(platform_index, ranks, path):
    rc, out = launch(ranks, [RANKS, "ops", *PATHS[path]], platform_index)
    assert rc == 0 and ok_ranks(out, "ops") == list(range(ranks)), out


@pytest.mark.parametrize("path", ["shared", "mapped"])
@pytest.mark.parametrize("ranks", [2, 4])
def test_mismatches_raise_on_every_rank(ranks, path):
    rc, out = launch(ranks, [RANKS, "mismatch", *PATHS[path]])
    assert rc == 0 and ok_ranks(out, "mismatch") == list(range(ranks)), out


def test_mismatches_raise_when_staged():
    rc, out = launch(2, [RANKS, "mismatch", *PATHS["staged"]])
    assert rc == 0 and ok_ranks(out, "mismatch") == [0, 1], out


def test_a_dead_rank_aborts_the_job():
    # MPICH's default: a rank that exits without MPI_Finalize ends the job.
    rc, out = launch(3, [RANKS, "dies"], timeout=60)
    assert rc != 0, out


@pytest.mark.parametrize("path", ["shared", "mapped"])
def test_a_dead_rank_is_an_exception_on_the_survivors(path):
    # With the survivors left running, they raise within the timeout.
    args = [RANKS, "dies", *PATHS[path]]
    rc, out = launch(3, args, flags=["-disable-auto-cleanup"], extra_env={"PYCL_MPI_TEST_TIMEOUT": "3"})
    assert rc == 3, out  # rank 1's own exit status
    assert ok_ranks(out, "dies") == [0, 2], out
    assert "rank 0: raised CommTimeoutError" in out or "rank 0: raised CommError" in out, out


@pytest.mark.parametrize("path", ["shared", "mapped"])
def test_a_freed_communicator_is_an_exception(path):
    args = [RANKS, "freed", *PATHS[path]]
    rc, out = launch(3, args, flags=["-disable-auto-cleanup"], extra_env={"PYCL_MPI_TEST_TIMEOUT": "3"})
    assert rc == 0 and ok_ranks(out, "freed") == [0, 1, 2], out
    assert "rank 0: raised CommError: pycl.mpi.Comm.isend: the communicator was freed" in out, out
    assert "rank 2: raised CommTimeoutError" in out, out


def test_freeing_the_window_waits_for_the_node_within_the_timeout():
    flags = ["-disable-auto-cleanup"]
    rc, out = launch(3, [RANKS, "unfreed"], flags=flags, extra_env={"PYCL_MPI_TEST_TIMEOUT": "2"})
    assert rc == 0 and ok_ranks(out, "unfreed") == [0, 1, 2], out
    assert "rank 1: raised CommTimeoutError: pycl.mpi.Comm.free: the other ranks of the node" in out, out


@pytest.mark.parametrize("ranks", [1, 2, 4])
def test_halo_example_matches_one_process(ranks):
    rc, out = launch(ranks, [HALO, "--cells", "1001", "--steps", "20"])
    assert rc == 0, out
    assert out.count("bit for bit") == 1, out


def test_missing_mpi4py_names_the_extra(tmp_path):
    (tmp_path / "mpi4py.py").write_text("raise ImportError('no MPI here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    code = "import pycl.mpi"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode != 0
    assert "UnavailableError" in proc.stderr and "pip install 'pycl-cffi[mpi]'" in proc.stderr, proc.stderr


def test_import_pycl_does_not_load_mpi4py():
    code = "import sys, pycl; pycl.Buffer; assert 'mpi4py' not in sys.modules and 'pycl.mpi' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=60)


def test_configure_checks_its_arguments():
    from pycl import mpi as clmpi

    saved = clmpi.settings()
    try:
        with pytest.raises(pycl.LogicError, match="chunk_bytes = 0 is not positive"):
            clmpi.configure(chunk_bytes=0)
        with pytest.raises(pycl.LogicError, match="slots must be at least 2"):
            clmpi.configure(slots=1)
        with pytest.raises(pycl.LogicError, match="slots = 2000 exceeds the limit of 1024"):
            clmpi.configure(slots=2000)
        with pytest.raises(TypeError, match="chunk_bytes must be an int"):
            clmpi.configure(chunk_bytes=1.5)
        with pytest.raises(pycl.LogicError, match="timeout = -1 is not positive"):
            clmpi.configure(timeout=-1)
        with pytest.raises(TypeError, match="shared must be a bool, not int"):
            clmpi.configure(shared=1)
        with pytest.raises(pycl.LogicError, match="shared_slots must be at least 2"):
            clmpi.configure(shared_slots=1)
        with pytest.raises(pycl.LogicError, match="shared_chunk_bytes = 8 is below 64"):
            clmpi.configure(shared_chunk_bytes=8)
        clmpi.configure(chunk_bytes=1 << 20, slots=3, timeout=5, shared=False, shared_slots=2, shared_chunk_bytes=64)
        assert clmpi.settings() == dict(
            saved, chunk_bytes=1 << 20, slots=3, timeout=5.0, shared=False, shared_slots=2, shared_chunk_bytes=64
        )
    finally:
        clmpi.configure(**saved)
    assert clmpi.settings() == saved


def test_rank_device_takes_a_mapping():
    from mpi4py import MPI

    from pycl import mpi as clmpi

    devices = [d for p in pycl.get_platforms() for d in p.get_devices()]
    assert clmpi.rank_device(MPI.COMM_SELF, [devices[-1]]) == devices[-1]
    assert clmpi.rank_device(MPI.COMM_SELF, lambda rank, node_rank: devices[node_rank]) == devices[0]
    with pytest.raises(pycl.LogicError, match="mapping has no device for rank 0"):
        clmpi.rank_device(MPI.COMM_SELF, {3: devices[0]})
    with pytest.raises(TypeError, match="mapping must give a pycl.Device, not str"):
        clmpi.rank_device(MPI.COMM_SELF, ["0:0"])
