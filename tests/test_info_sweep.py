"""Every info parameter of every object kind, on every device, in a child
process per device: a driver that writes where pycl did not expect (PoCL
3.0 and 3.1 wrote CONTEXT_PROPERTIES into a buffer announced as 0 bytes,
a SIGSEGV on ``ctx.properties``) kills the child, and the test fails with
the signal's name instead of the whole pytest run dying.

The child (this file run as a script: ``python test_info_sweep.py PLATFORM
DEVICE``, indices in ``pycl.get_platforms()`` order) makes one object of
each kind on the device and queries every constant of the matching info
class, through ``get_info`` (or ``get_build_info`` ...) and through the
lower-case attribute where the object has one. A value or a pycl error is a
clean outcome; anything else is recorded as unclean. It also checks facts
known independently of the answers (what the objects were made with, the
kernel's source, PyOpenCL's answers for the same device) and prints one
JSON report, then the end sentinel. The parent asserts on that report.
"""

import faulthandler
import json
import os
import signal
import subprocess
import sys

import pycl as cl

SENTINEL = "info sweep: end"
TIMEOUT = 120  # seconds; a sweep takes a few

# A kernel whose arguments cover the four address qualifiers, with a
# required work-group size, so that arg info and COMPILE_WORK_GROUP_SIZE
# have answers known from the source.
KERNEL_SOURCE = """
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void sweep(__global float *out, __constant int *table, __local float *scratch, const uint n)
{
    scratch[get_local_id(0)] = (float)table[0];
    if (get_global_id(0) < n)
        out[get_global_id(0)] = scratch[get_local_id(0)];
}
"""
KERNEL_ARGS = [  # (name, address qualifier) of each argument of sweep()
    ("out", cl.kernel_arg_address_qualifier.GLOBAL),
    ("table", cl.kernel_arg_address_qualifier.CONSTANT),
    ("scratch", cl.kernel_arg_address_qualifier.LOCAL),
    ("n", cl.kernel_arg_address_qualifier.PRIVATE),
]

# Attributes that need not equal get_info's answer for the same name
# ((label, NAME); label None: every kind): reference counts move as wrappers
# come and go between the two queries; a pipe's ``properties`` is
# pipe_info's, not mem_info's.
NOT_COMPARED = {(None, "REFERENCE_COUNT"), ("mem on pipe", "PROPERTIES")}

# pycl's answers that differ from PyOpenCL's on purpose (docs/differences.md).
PYOPENCL_DIFFERS = {
    ("device_info", "PARTITION_AFFINITY_DOMAIN"): "an int, as OpenCL types it (PyOpenCL: a one-element list)",
    # PoCL 3.0 and 3.1 answer 4 bytes for this 8-byte cl_bitfield: pycl
    # zero-extends, PyOpenCL 2026.1.4 reads 4 uninitialised bytes more.
    ("device_info", "DEVICE_ENQUEUE_CAPABILITIES"): "the driver's value (PyOpenCL: uninitialised memory on PoCL)",
}


def param_names(info_class):
    """Every constant of ``info_class``, not only those pycl decodes."""
    return sorted(n for n in dir(info_class) if n.isupper())


def short(value):
    text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."


# {{{ the child


class Sweep:
    """The outcomes of one device's queries, the facts checked, the parts
    skipped; ``report()`` is what the child prints."""

    def __init__(self, platform, device_index):
        self.platform_name = platform.name
        self.device_index = device_index  # in platform.get_devices()
        # label ("device", "mem on sub-buffer" ...) -> {NAME: [outcome, text]}
        self.outcomes = {}
        self.facts = []  # [what, ok, detail]
        self.skipped = {}  # part -> reason
        self.notes = []

    @staticmethod
    def attempt(function, *args):
        """``(outcome, value or exception)`` of ``function(*args)``: "value";
        "refused" (a pycl error from the driver's clGet*Info); "unknown"
        (pycl decodes no such parameter and says so before any call);
        "unclean" (any other exception, a pycl error raised elsewhere
        included: a pycl bug, such as a decoder or a handle wrapper failing
        on the driver's answer)."""
        try:
            return "value", function(*args)
        except cl.Error as error:
            if (error.routine or "").startswith("clGet"):
                return "refused", error
            if "known to pycl" in str(error):
                return "unknown", error
            return "unclean", error
        except Exception as error:  # noqa: BLE001 (recorded; the parent fails on it)
            return "unclean", error

    def params(self, label, info_class, query, obj=None, raw=None):
        """``query(param)`` for every constant of ``info_class``, and
        ``getattr(obj, name.lower())`` where ``obj`` has the attribute (its
        answer must equal query's); returns {NAME: value} for those
        answered. ``raw(param)``, where given, asks the driver (with pycl's
        buffer rules) for the parameters pycl does not decode, which reach
        the driver no other way."""
        results = self.outcomes.setdefault(label, {})
        values = {}
        for name in param_names(info_class):
            param = getattr(info_class, name)
            # Where a crash happened: the parent shows the stderr tail.
            sys.stderr.write("querying %s %s\n" % (label, name))
            sys.stderr.flush()
            outcome, value = self.attempt(query, param)
            if outcome == "unknown" and raw is not None:
                raw_outcome, raw_value = self.attempt(raw, param)
                if raw_outcome == "unclean":  # the bytes have no decoder: only failures count
                    outcome, value = raw_outcome, raw_value
            results[name] = [outcome, "%s: %s" % (type(value).__name__, short(value))]
            if outcome == "value":
                values[name] = value
            if obj is None:
                continue
            a_outcome, attribute = self.attempt(getattr, obj, name.lower())
            if isinstance(attribute, AttributeError):
                continue  # the object has no such attribute
            results[name + " (attribute)"] = [a_outcome, "%s: %s" % (type(attribute).__name__, short(attribute))]
            if a_outcome == "value" and name in values and not {(None, name), (label, name)} & NOT_COMPARED:
                self.fact("%s: .%s == get_info(%s)" % (label, name.lower(), name), attribute, values[name])
        return values

    def fact(self, what, got, expected):
        self.facts.append([what, got == expected, "got %s, expected %s" % (short(got), short(expected))])

    def expect(self, what, ok, detail=""):
        self.facts.append([what, bool(ok), detail])

    def skip(self, part, reason):
        self.skipped[part] = reason

    def report(self):
        counts = {}
        for label, results in self.outcomes.items():
            kinds = [outcome for name, (outcome, _) in results.items() if not name.endswith("(attribute)")]
            counts[label] = {k: kinds.count(k) for k in ("value", "refused", "unknown", "unclean")}
            counts[label]["attributes"] = sum(1 for name in results if name.endswith("(attribute)"))
        unclean = [
            "%s %s: %s" % (label, name, text)
            for label, results in self.outcomes.items()
            for name, (outcome, text) in results.items()
            if outcome == "unclean"
        ]
        return {
            "counts": counts,
            "unclean": unclean,
            "failed_facts": ["%s: %s" % (what, detail) for what, ok, detail in self.facts if not ok],
            "facts": len(self.facts),
            "skipped": self.skipped,
            "notes": self.notes,
            "outcomes": self.outcomes,
        }


def _raw(kind, obj, extra=()):
    """A raw info query (pycl._info.query_raw): the driver's answer for a
    parameter pycl does not decode, fetched as every other is."""
    from pycl import _info

    return lambda param: _info.query_raw(kind, obj._live(), param, extra)[1]


def sweep_platform(sweep, platform, device):
    values = sweep.params("platform", cl.platform_info, platform.get_info, platform, _raw("platform", platform))
    sweep.expect("platform.name is a non-empty str", isinstance(values.get("NAME"), str) and values["NAME"])
    sweep.expect("device is among platform.get_devices()", device in platform.get_devices())


def sweep_device(sweep, platform, device):
    values = sweep.params("device", cl.device_info, device.get_info, device, _raw("device", device))
    name = values.get("NAME")
    sweep.expect("device.name is a non-empty str", isinstance(name, str) and name, short(name))
    # The same device, found again through the platform's list.
    sweep.fact("device.name == platform.get_devices()'s", name, platform.get_devices()[sweep.device_index].name)
    sweep.fact("device.platform", values.get("PLATFORM"), platform)
    sweep.expect("device.version starts with 'OpenCL '", str(values.get("VERSION")).startswith("OpenCL "))


def sweep_context(sweep, device):
    ctx = cl.Context([device])  # no properties: PROPERTIES must answer []
    values = sweep.params("context", cl.context_info, ctx.get_info, ctx, _raw("context", ctx))
    sweep.fact("ctx.properties (made with none)", values.get("PROPERTIES"), [])
    sweep.fact("ctx.devices", values.get("DEVICES"), [device])
    sweep.fact("ctx.num_devices", values.get("NUM_DEVICES"), 1)
    return ctx


def sweep_queue(sweep, ctx, device):
    # Profiling on, so that the event's profiling info has answers.
    queue = cl.CommandQueue(ctx, device, cl.command_queue_properties.PROFILING_ENABLE)
    values = sweep.params("queue", cl.command_queue_info, queue.get_info, queue, _raw("queue", queue))
    sweep.fact("queue.context", values.get("CONTEXT"), ctx)
    sweep.fact("queue.device", values.get("DEVICE"), device)
    sweep.expect(
        "queue PROPERTIES has PROFILING_ENABLE",
        (values.get("PROPERTIES") or 0) & cl.command_queue_properties.PROFILING_ENABLE,
        short(values.get("PROPERTIES")),
    )
    return queue


def sweep_mem(sweep, label, mem, ctx, size, mem_type):
    """mem_info on any memory object, with the facts every one shares."""
    values = sweep.params("mem on " + label, cl.mem_info, mem.get_info, mem, _raw("mem", mem))
    sweep.fact(label + " SIZE", values.get("SIZE"), size)
    sweep.fact(label + " TYPE", values.get("TYPE"), mem_type)
    sweep.fact(label + " CONTEXT", values.get("CONTEXT"), ctx)
    return values


def sweep_buffers(sweep, ctx, device):
    # A sub-buffer's origin must be a multiple of mem_base_addr_align, which
    # is in bits.
    align = max(1, device.mem_base_addr_align // 8)
    size = max(4096, 4 * align)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size)
    values = sweep_mem(sweep, "buffer", buf, ctx, size, cl.mem_object_type.BUFFER)
    sweep.fact("buffer.size", buf.size, size)
    sweep.fact("buffer HOST_PTR (none given)", values.get("HOST_PTR"), None)
    sweep.fact("buffer ASSOCIATED_MEMOBJECT", values.get("ASSOCIATED_MEMOBJECT"), None)
    sub = buf.get_sub_region(align, align)
    values = sweep_mem(sweep, "sub-buffer", sub, ctx, align, cl.mem_object_type.BUFFER)
    sweep.fact("sub_buffer OFFSET", values.get("OFFSET"), align)
    sweep.fact("sub_buffer.offset", sub.offset, align)
    sweep.fact("sub_buffer ASSOCIATED_MEMOBJECT", values.get("ASSOCIATED_MEMOBJECT"), buf)
    return buf


def sweep_image_and_sampler(sweep, ctx, device):
    if not device.image_support:
        sweep.skip("image, sampler", "the device has no image support")
        return
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    width, height = 16, 8
    image = cl.Image(ctx, cl.mem_flags.READ_WRITE, fmt, shape=(width, height))
    sweep_mem(sweep, "image", image, ctx, width * height * 4, cl.mem_object_type.IMAGE2D)
    values = sweep.params("image", cl.image_info, image.get_image_info, image, _raw("image", image))
    sweep.fact("image WIDTH", values.get("WIDTH"), width)
    sweep.fact("image HEIGHT", values.get("HEIGHT"), height)
    sweep.fact("image FORMAT", values.get("FORMAT"), fmt)
    sweep.fact("image ELEMENT_SIZE", values.get("ELEMENT_SIZE"), 4)
    # Oclgrind 21.10 reports ROW_PITCH 0 (docs/differences.md).
    row_pitch = values.get("ROW_PITCH")
    sweep.expect(
        "image ROW_PITCH >= width * 4",
        row_pitch is not None and (row_pitch >= width * 4 or row_pitch == 0 and sweep.platform_name == "Oclgrind"),
        short(row_pitch),
    )

    am, fm = cl.addressing_mode, cl.filter_mode
    sampler = cl.Sampler(ctx, False, am.CLAMP_TO_EDGE, fm.NEAREST)
    values = sweep.params("sampler", cl.sampler_info, sampler.get_info, sampler, _raw("sampler", sampler))
    sweep.fact("sampler NORMALIZED_COORDS", values.get("NORMALIZED_COORDS"), 0)
    sweep.fact("sampler ADDRESSING_MODE", values.get("ADDRESSING_MODE"), am.CLAMP_TO_EDGE)
    sweep.fact("sampler FILTER_MODE", values.get("FILTER_MODE"), fm.NEAREST)
    sweep.fact("sampler CONTEXT", values.get("CONTEXT"), ctx)


def sweep_pipe(sweep, ctx, device):
    # Pipes are OpenCL 2.x, optional in 3.0 (PIPE_SUPPORT). The version the
    # device reports decides that; pycl's (PYCL_FORCE_CL_VERSION may cap
    # it) decides whether pycl makes pipes at all.
    reported = tuple(int(x) for x in device.version.split()[1].split(".")[:2])
    if device.cl_version < (2, 0) or (reported >= (3, 0) and not device.pipe_support):
        sweep.skip("pipe", "no pipe support (%s; pycl uses OpenCL %d.%d)" % ((device.version,) + device.cl_version))
        return
    packet_size, max_packets = 16, 8
    pipe = cl.Pipe(ctx, 0, packet_size, max_packets)
    # The size of a pipe's memory is the driver's to choose.
    values = sweep.params("mem on pipe", cl.mem_info, pipe.get_info, pipe, _raw("mem", pipe))
    sweep.fact("pipe TYPE", values.get("TYPE"), cl.mem_object_type.PIPE)
    sweep.fact("pipe CONTEXT", values.get("CONTEXT"), ctx)
    values = sweep.params("pipe", cl.pipe_info, pipe.get_pipe_info, pipe, _raw("pipe", pipe))
    sweep.fact("pipe PACKET_SIZE", values.get("PACKET_SIZE"), packet_size)
    sweep.fact("pipe MAX_PACKETS", values.get("MAX_PACKETS"), max_packets)


def sweep_event(sweep, ctx, queue, buf):
    """An event from a transfer, waited on, and its profiling info."""
    event = cl.enqueue_copy(queue, buf, bytearray(64), is_blocking=False)
    event.wait()
    values = sweep.params("event", cl.event_info, event.get_info, event, _raw("event", event))
    sweep.fact("event COMMAND_TYPE", values.get("COMMAND_TYPE"), cl.command_type.WRITE_BUFFER)
    sweep.fact(
        "event COMMAND_EXECUTION_STATUS", values.get("COMMAND_EXECUTION_STATUS"), cl.command_execution_status.COMPLETE
    )
    sweep.fact("event CONTEXT", values.get("CONTEXT"), ctx)
    sweep.fact("event COMMAND_QUEUE", values.get("COMMAND_QUEUE"), queue)
    values = sweep.params(
        "profiling", cl.profiling_info, event.get_profiling_info, event.profile, _raw("profiling", event)
    )
    times = [values.get(n) for n in ("QUEUED", "SUBMIT", "START", "END")]
    sweep.expect(
        "profiling QUEUED <= SUBMIT <= START <= END", None not in times and times == sorted(times), short(times)
    )


def sweep_program(sweep, ctx, device):
    """The program before and after its build, its kernel, the kernel's
    work-group and argument info. Building needs a compiler that works for
    the device (the pip PoCL 3.0 cannot target some CPUs)."""
    program = cl.Program(ctx, KERNEL_SOURCE)
    # Before the build: many parameters are refused, some answer 0 bytes.
    sweep.params("program (not built)", cl.program_info, program.get_info, program, _raw("program", program))
    from pycl.testing import kernel_compile_problem  # imports pytest: only where needed

    problem = kernel_compile_problem(device)
    if problem is not None:
        reason = "the device cannot compile kernels: %s" % problem.splitlines()[0][:200]
        sweep.skip("program build, kernel, kernel work-group, kernel arg", reason)
        return
    program.build("-cl-kernel-arg-info")
    values = sweep.params("program", cl.program_info, program.get_info, program, _raw("program", program))
    sweep.fact("program SOURCE", values.get("SOURCE"), KERNEL_SOURCE)
    sweep.fact("program KERNEL_NAMES", values.get("KERNEL_NAMES"), "sweep")
    sweep.fact("program NUM_KERNELS", values.get("NUM_KERNELS"), 1)
    sweep.fact("program DEVICES", values.get("DEVICES"), [device])
    sweep.fact("program CONTEXT", values.get("CONTEXT"), ctx)

    def build_info(param):
        return program.get_build_info(device, param)

    values = sweep.params(
        "program build", cl.program_build_info, build_info, raw=_raw("program_build", program, (device._live(),))
    )
    sweep.fact("build STATUS", values.get("STATUS"), cl.build_status.SUCCESS)
    sweep.fact("build OPTIONS", (values.get("OPTIONS") or "").strip(), "-cl-kernel-arg-info")

    kernel = cl.Kernel(program, "sweep")
    values = sweep.params("kernel", cl.kernel_info, kernel.get_info, kernel, _raw("kernel", kernel))
    sweep.fact("kernel.function_name", values.get("FUNCTION_NAME"), "sweep")
    sweep.fact("kernel NUM_ARGS", values.get("NUM_ARGS"), len(KERNEL_ARGS))
    sweep.fact("kernel PROGRAM", values.get("PROGRAM"), program)

    def work_group_info(param):
        return kernel.get_work_group_info(param, device)

    values = sweep.params(
        "kernel work-group",
        cl.kernel_work_group_info,
        work_group_info,
        raw=_raw("kernel_work_group", kernel, (device._live(),)),
    )
    sweep.fact("kernel COMPILE_WORK_GROUP_SIZE", values.get("COMPILE_WORK_GROUP_SIZE"), [4, 1, 1])

    for index, (name, address) in enumerate(KERNEL_ARGS):

        def arg_info(param, index=index):
            return kernel.get_arg_info(index, param)

        values = sweep.params(
            "kernel arg %d" % index, cl.kernel_arg_info, arg_info, raw=_raw("kernel_arg", kernel, (index,))
        )
        sweep.fact("kernel arg %d NAME" % index, values.get("NAME"), name)
        sweep.fact("kernel arg %d ADDRESS_QUALIFIER" % index, values.get("ADDRESS_QUALIFIER"), address)


def compare_with_pyopencl(sweep, platform, device, ctx):
    """PyOpenCL's answers for the platform, device and context parameters
    both libraries answer, where PyOpenCL's loader sees the same device."""
    try:
        import pyopencl
    except ImportError as error:
        sweep.skip("PyOpenCL comparison", "pyopencl is not importable: %s" % error)
        return
    if not hasattr(pyopencl, "Buffer"):
        # The pip PoCL wheels make site-packages/pyopencl/ without PyOpenCL.
        sweep.skip("PyOpenCL comparison", "pyopencl is only the pip PoCL wheels' empty namespace package")
        return
    matches = [
        (p, d)
        for p in pyopencl.get_platforms()
        if p.name == platform.name
        for d in p.get_devices()
        if d.name == device.name
    ]
    if len(matches) > 1:  # two builds of one platform with the same device name
        matches = [(p, d) for p, d in matches if p.version == platform.version]
    if len(matches) != 1:
        sweep.skip(
            "PyOpenCL comparison",
            "PyOpenCL sees %d devices named %r on a platform named %r" % (len(matches), device.name, platform.name),
        )
        return
    py_platform, py_device = matches[0]
    py_ctx = pyopencl.Context([py_device])
    compared = 0
    for ours, theirs, info_name in (
        (platform, py_platform, "platform_info"),
        (device, py_device, "device_info"),
        (ctx, py_ctx, "context_info"),
    ):
        our_class, their_class = getattr(cl, info_name), getattr(pyopencl, info_name)
        for name in param_names(our_class):
            if not hasattr(their_class, name) or name == "REFERENCE_COUNT" or (info_name, name) in PYOPENCL_DIFFERS:
                continue
            outcome, value = sweep.attempt(ours.get_info, getattr(our_class, name))
            try:
                their_value = theirs.get_info(getattr(their_class, name))
            except Exception:  # noqa: BLE001 (PyOpenCL's refusal: nothing to compare)
                continue
            if outcome != "value" or not _comparable(value) or not _comparable(their_value):
                continue  # objects (devices, NameVersion lists) are not compared
            compared += 1
            sweep.fact("PyOpenCL %s.%s" % (info_name, name), value, their_value)
    sweep.notes.append("compared %d values with PyOpenCL %s" % (compared, pyopencl.VERSION_TEXT))
    sweep.expect("PyOpenCL comparison compared something", compared > 0)


def _comparable(value):
    if isinstance(value, (list, tuple)):
        return all(_comparable(v) for v in value)
    return isinstance(value, (int, float, str))


def main(platform_index, device_index):
    # A crash prints the Python stack (pycl's frame, the sweep's helper) on stderr.
    faulthandler.enable()
    platform = cl.get_platforms()[platform_index]
    device = platform.get_devices()[device_index]
    print("info sweep on [%d:%d] %r (%s)" % (platform_index, device_index, device.name, platform.name), flush=True)
    sweep = Sweep(platform, device_index)
    sweep_platform(sweep, platform, device)
    sweep_device(sweep, platform, device)
    ctx = sweep_context(sweep, device)
    queue = sweep_queue(sweep, ctx, device)
    buf = sweep_buffers(sweep, ctx, device)
    sweep_image_and_sampler(sweep, ctx, device)
    sweep_pipe(sweep, ctx, device)
    sweep_event(sweep, ctx, queue, buf)
    sweep_program(sweep, ctx, device)
    compare_with_pyopencl(sweep, platform, device, ctx)
    report = sweep.report()
    for label, counts in report["counts"].items():
        print("%-22s %s" % (label, " ".join("%s=%d" % item for item in counts.items())))
    for part, reason in report["skipped"].items():
        print("skipped %s: %s" % (part, reason))
    for note in report["notes"]:
        print(note)
    print(json.dumps(report))
    print(SENTINEL, flush=True)


# }}}


# {{{ the test

# Kinds swept on every device: each must answer some parameters.
ALWAYS = [
    "platform",
    "device",
    "context",
    "queue",
    "mem on buffer",
    "mem on sub-buffer",
    "event",
    "profiling",
    "program (not built)",
]


def _indices(device):
    platforms = cl.get_platforms()
    platform_index = platforms.index(device.platform)
    return platform_index, platforms[platform_index].get_devices().index(device)


def _exit_text(returncode):
    if returncode < 0:
        try:
            return "killed by %s" % signal.Signals(-returncode).name
        except ValueError:
            return "killed by signal %d" % -returncode
    return "exit status %d" % returncode


def test_info_sweep(device):
    args = [sys.executable, os.path.abspath(__file__), *map(str, _indices(device))]
    try:
        run = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as expired:
        stderr = expired.stderr.decode(errors="replace") if isinstance(expired.stderr, bytes) else expired.stderr
        raise AssertionError(
            "the info sweep took over %d s; stderr tail:\n%s" % (TIMEOUT, (stderr or "")[-3000:])
        ) from None
    lines = run.stdout.splitlines()
    # After a crash, the stderr tail names the parameter being queried and
    # holds faulthandler's Python stack.
    assert run.returncode == 0 and lines and lines[-1] == SENTINEL, "the info sweep child ended with %s\n%s\n%s" % (
        _exit_text(run.returncode),
        "stdout tail:\n" + run.stdout[-1500:],
        "stderr tail:\n" + run.stderr[-3000:],
    )
    report = json.loads(lines[-2])
    print("\n".join(lines[:-2]))  # the counts, shown with pytest -s or -rA

    assert not report["unclean"], "unclean failures (not a pycl error from the driver):\n" + "\n".join(
        report["unclean"]
    )
    assert not report["failed_facts"], "\n".join(report["failed_facts"])
    counts = report["counts"]
    for label in ALWAYS:
        assert label in counts, "%s was not swept" % label
    for label, kinds in counts.items():
        assert kinds["value"] > 0, "%s: no parameter answered: %s" % (label, report["outcomes"][label])
    # The facts of the kinds swept everywhere ran (over 30 of them, not
    # counting the attribute and PyOpenCL comparisons).
    assert report["facts"] >= 30, report["facts"]


# }}}


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
