"""Error classes, codes, routines and messages, from real CL failures."""

import builtins
import os
import pickle
import subprocess
import sys

import pytest

import pycl as cl
from pycl._lib import lib
from pycl.errors import error_for, status_name


def test_status_names_match_constant_names():
    # pycl.status_code and the shim's name table are separate transcriptions.
    for name in dir(cl.status_code):
        if name.isupper():
            assert status_name(getattr(cl.status_code, name)) == "CL_" + name
    assert status_name(-123456) == "unknown status -123456"


@pytest.mark.parametrize(
    "code, cls, builtin",
    [
        (lib.CL_MEM_OBJECT_ALLOCATION_FAILURE, cl.MemoryError, builtins.MemoryError),
        (lib.CL_OUT_OF_HOST_MEMORY, cl.MemoryError, builtins.MemoryError),
        (lib.CL_INVALID_VALUE, cl.LogicError, builtins.ValueError),
        (lib.CL_INVALID_MEM_OBJECT, cl.LogicError, builtins.ValueError),
        (lib.CL_BUILD_PROGRAM_FAILURE, cl.RuntimeError, builtins.RuntimeError),
        (lib.CL_DEVICE_NOT_AVAILABLE, cl.RuntimeError, builtins.RuntimeError),
        (lib.PYCL_UNAVAILABLE, cl.UnavailableError, NotImplementedError),
    ],
)
def test_class_follows_code(code, cls, builtin):
    error = error_for(code, "clSomething", "detail")
    assert type(error) is cls and isinstance(error, builtin) and isinstance(error, cl.Error)
    assert (error.code, error.routine) == (code, "clSomething")
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is cls and str(clone) == str(error)


def test_message_format():
    error = error_for(lib.CL_INVALID_VALUE, "clEnqueueReadBuffer", "offset 9 > size 8")
    assert str(error) == "clEnqueueReadBuffer failed: CL_INVALID_VALUE - offset 9 > size 8"
    assert str(error_for(lib.CL_INVALID_VALUE, "clFinish")) == "clFinish failed: CL_INVALID_VALUE"


def test_invalid_value_from_driver(ctx_factory):
    # Every driver checks user event statuses (Oclgrind checks few things).
    event = cl.UserEvent(ctx_factory())
    with pytest.raises(cl.LogicError) as info:
        event.set_status(12345)
    assert (info.value.code, info.value.routine) == (lib.CL_INVALID_VALUE, "clSetUserEventStatus")
    assert str(info.value) == "clSetUserEventStatus failed: CL_INVALID_VALUE"
    event.set_status(cl.command_execution_status.COMPLETE)


def test_invalid_info_param_from_driver(device):
    from pycl import _info as info

    with pytest.raises(cl.LogicError) as error:
        info.query_raw("device", device._live(), 0x7777)
    assert (error.value.code, error.value.routine) == (lib.CL_INVALID_VALUE, "clGetDeviceInfo")
    assert str(error.value) == "clGetDeviceInfo failed: CL_INVALID_VALUE - param 30583"


def test_build_failure_carries_the_log(ctx_factory):
    from pycl.testing import require_kernel_compiler

    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    program = cl.Program(ctx, "__kernel void broken(__global int *x) { x[0] = undeclared_thing; }")
    with pytest.raises(cl.RuntimeError) as info:
        program.build(options=["-DFOO=1"])
    error = info.value
    assert isinstance(error, builtins.RuntimeError)
    assert (error.code, error.routine) == (lib.CL_BUILD_PROGRAM_FAILURE, "clBuildProgram")
    assert "undeclared_thing" in error.what and "options: '-DFOO=1'" in error.what
    assert ctx_factory.device.name in error.what
    status = program.get_build_info(ctx_factory.device, cl.program_build_info.STATUS)
    assert status == cl.build_status.ERROR


def test_invalid_kernel_name(ctx_factory):
    from pycl.testing import require_kernel_compiler

    require_kernel_compiler(ctx_factory.device)
    program = cl.Program(ctx_factory(), "__kernel void k(__global int *x) { x[0] = 1; }").build()
    with pytest.raises(cl.LogicError) as info:
        cl.Kernel(program, "nope")
    assert info.value.code == lib.CL_INVALID_KERNEL_NAME and "'nope'" in str(info.value)
    with pytest.raises(AttributeError, match="neither a program_info attribute nor a kernel"):
        program.nope


FORCED_PROBE = """
import pycl as cl
for platform in cl.get_platforms():
    assert platform.cl_version <= (1, 2), platform.cl_version
    for device in platform.get_devices():
        assert device.cl_version <= (1, 2)
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
        assert queue.properties == cl.command_queue_properties.PROFILING_ENABLE
        cl.enqueue_marker(queue).wait()
        try:
            device.require((2, 0), "clSVMAlloc")
        except cl.UnavailableError as error:
            print("UNAVAILABLE", error)
        try:
            cl.CommandQueue(ctx, properties=[(cl.queue_properties.SIZE, 16)])
        except cl.UnavailableError as error:
            print("QUEUE", error)
print("REPORT", cl._loader.report().splitlines()[0])
"""


def test_forced_1_2_mode(tmp_path):
    env = dict(os.environ, PYCL_FORCE_CL_VERSION="1.2", POCL_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", FORCED_PROBE], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    unavailable = [line for line in lines if line.startswith("UNAVAILABLE")]
    assert len(unavailable) == len(devices)
    for line, device in zip(unavailable, devices):
        assert "clSVMAlloc needs OpenCL 2.0; device %r reports OpenCL 1.2" % device.name in line
        reported = tuple(int(x) for x in device.version.split()[1].split(".")[:2])
        if reported > (1, 2):
            assert line.endswith("(capped by PYCL_FORCE_CL_VERSION)")
        else:
            assert "capped" not in line
    queue_lines = [line for line in lines if line.startswith("QUEUE")]
    assert len(queue_lines) == len(devices)
    assert all("needs clCreateCommandQueueWithProperties (OpenCL 2.0)" in line for line in queue_lines)
    assert "REPORT capping every platform and device at OpenCL 1.2 (PYCL_FORCE_CL_VERSION)" in lines


@pytest.mark.parametrize("cls", [cl.Error, cl.LogicError, cl.RuntimeError, cl.MemoryError])
def test_made_with_a_message_only(cls):
    # As in PyOpenCL, code of one's own raises pycl's errors with a message.
    with pytest.raises(cls) as info:
        raise cls("bad size 7")
    error = info.value
    assert str(error) == "bad size 7" and error.args == ("bad size 7",)
    assert (error.what, error.code, error.routine) == ("bad size 7", None, None)
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is cls and str(clone) == "bad size 7"
