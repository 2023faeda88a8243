"""The benchmark harness every ``bench_*.py`` module uses.

A benchmark module only declares its operations: ``operations(s)`` returns a
list of ``Op`` for ``s.cl`` (``pycl`` or ``pyopencl``) on ``s.device``, with a
context ``s.ctx`` and an in-order queue ``s.queue`` made for it; an optional
``report(s)`` returns lines printed under its table. The harness does the rest:

- **timing**: every figure is the best, over ``--repeats`` batches, of the
  mean time per call of a batch; the batch size is calibrated so that a batch
  lasts about ``--batch-ms``, and every batch ends with ``queue.finish()``
  (deferred work, such as queued frees, is counted); before the timed
  batches each operation runs for ``--warmup-ms`` (PyPy's JIT, and the
  driver's and the C allocator's first rounds of new memory: an
  ``image_from_array`` of 1 MiB took 2.5x its steady time over its first
  few thousand calls on Debian's PoCL 3.1, 2026-11-28);
- **pycl and PyOpenCL interleaved in one CPython process**, operation by
  operation and batch by batch (alternating which goes first), so machine
  load falls on both alike;
- **pycl on PyPy against PyOpenCL on CPython** (PyOpenCL has no PyPy build):
  child processes run back to back, a PyPy one and a CPython one per round
  (``--rounds``), best of the rounds for each;
- **device selection** (``--device``) for both libraries: PyOpenCL's device is
  the one whose platform name and version and device name match pycl's;
- the **table printer** (Markdown): times, GB/s of the operations that move
  data, the ratios pycl / PyOpenCL (below 1: pycl is faster), the targets
  (bench/README.md, "Targets"), and for bulk copies the fraction of
  ``np.copyto``'s bandwidth of the same size measured in the same column (the
  host's memory bandwidth).

No timing is asserted anywhere; compare figures of one run only.
"""

import argparse
import datetime
import faulthandler
import gc
import importlib
import json
import os
import platform as _platform
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

MIB = 1 << 20
BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
MODULES = ("buffers", "svm", "images", "pools", "kernels", "calls", "devices")

# The performance targets (bench/README.md, "Targets"), by kind of operation:
# the largest pycl/PyOpenCL time ratio allowed on CPython. On PyPy, every
# operation must beat PyOpenCL on CPython (ratio below 1).
TARGETS = {"driver": 1.1, "object": 2.0, "launch": 1.25}
# Object creation, by the operation's leading words (issue 12):
# a minimal __slots__ class around one cffi create call measures about 2.5x
# of PyOpenCL's Buffer, the floor these targets are set from.
OBJECT_TARGETS = (
    ("Buffer create", 2.5),
    ("sub-buffer", 3.0),
    ("SVMAllocation", 2.0),
    ("MemoryPool", 3.0),
    ("SVMPool", 3.0),
    ("create_image", 2.5),
    ("Sampler", 2.5),
)
PYPY_TARGET = 1.0
PYPY_OBJECT_TARGET = 0.5


# {{{ declaring operations


class Op:
    """One timed operation: ``fn()`` is one call.

    ``kind``: "driver" (reaches the driver: copies, maps, fills; target 1.1x
    on CPython), "object" (creates objects: target 2x), "launch" (a kernel
    launch: 1.25x), or None (a reference, no target). ``target``: a CPython
    target of this operation's own (a launch on a CPU device). ``nbytes``:
    bytes moved per call (shows GB/s). ``bulk``: a bulk host<->device copy,
    also shown as a fraction of ``np.copyto``'s bandwidth. ``skip``: the
    reason this library cannot run it here.
    """

    __slots__ = ("name", "fn", "kind", "nbytes", "bulk", "skip", "reference", "target")

    def __init__(self, name, fn=None, kind="driver", nbytes=None, bulk=False, skip=None, reference=False, target=None):
        self.target = target
        self.name = name
        self.fn = fn
        self.kind = kind
        self.nbytes = nbytes
        self.bulk = bulk
        self.skip = skip
        self.reference = reference


def size_label(nbytes):
    for unit, scale in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", 1024)):
        if nbytes >= scale and nbytes % scale == 0:
            return "%d %s" % (nbytes // scale, unit)
    return "%d B" % nbytes


def _is_pocl_30(device):
    return "PoCL 3.0" in device.platform.version


class Setup:
    """What a module's ``operations(s)`` gets: ``cl`` (the library module),
    ``lib`` ("pycl" or "pyopencl"), ``tools`` (its ``.tools``), ``device``,
    a context ``ctx`` and an in-order ``queue`` on it, and ``large`` (the
    bulk transfer size in bytes, ``--large-mib``)."""

    def __init__(self, cl, lib, device, large):
        self.cl = cl
        self.lib = lib
        self.tools = importlib.import_module(lib + ".tools")
        self.device = device
        self.ctx = cl.Context([device])
        self.queue = cl.CommandQueue(self.ctx)
        self.large = large

    @property
    def is_pycl(self):
        return self.lib == "pycl"

    def copyto(self):
        """The reference row: ``np.copyto`` of ``large`` bytes."""
        src = np.ones(self.large, np.uint8)
        dst = np.empty(self.large, np.uint8)
        return Op(
            "np.copyto %s" % size_label(self.large),
            lambda: np.copyto(dst, src),
            kind=None,
            nbytes=self.large,
            reference=True,
        )

    def svm_capabilities(self):
        """The device's SVM capability bits (0 before OpenCL 2.0)."""
        if self.device.version.startswith("OpenCL 1."):
            return 0
        try:
            return self.device.svm_capabilities
        except Exception:
            return 0

    def svm_skip(self, fine_grain=False):
        """Why SVM rows cannot run on this device, or None."""
        caps = self.svm_capabilities()
        bits = self.cl.device_svm_capabilities
        if not caps & bits.COARSE_GRAIN_BUFFER:
            return "the device has no SVM (%s)" % self.device.version.split(" (")[0]
        if fine_grain and not caps & bits.FINE_GRAIN_BUFFER:
            return "the device has no fine-grain buffer SVM"
        return None

    @property
    def pyopencl_svm_free_crashes(self):
        """PyOpenCL's queue-bound SVM frees corrupt memory on PoCL 3.0, which
        reads the freed pointer array later (docs/quirks.md): an abort within a
        few thousand frees. Rows that need them are skipped for PyOpenCL there."""
        return self.lib == "pyopencl" and _is_pocl_30(self.device)

    def svm_queue(self):
        """The queue to bind SVM allocations to: ``queue``, except for
        PyOpenCL on PoCL 3.0 (None: freed at once; see above)."""
        return None if self.pyopencl_svm_free_crashes else self.queue

    def image_skip(self):
        if not self.device.image_support:
            return "the device has no image support"
        return None


# }}}


# {{{ libraries and devices


def load(lib):
    """``pycl`` or ``pyopencl``, or None with the reason it is unusable. The
    pip device wheels create an empty ``pyopencl`` namespace package: a real
    PyOpenCL has ``Buffer``."""
    try:
        cl = importlib.import_module(lib)
    except ImportError as error:
        return None, "%s is not installed (%s)" % (lib, error)
    if not hasattr(cl, "Buffer"):
        return None, "%s is not installed (only the empty namespace package of the pip device wheels)" % lib
    if lib == "pycl":
        warnings.filterwarnings("ignore", message="an SVM allocation without a queue", category=RuntimeWarning)
    return cl, None


def device_id(device):
    """What identifies a device across both libraries (and child processes)."""
    same = [d for d in device.platform.get_devices() if d.name.strip() == device.name.strip()]
    ordinal = next(i for i, d in enumerate(same) if d.int_ptr == device.int_ptr)
    return {
        "platform": device.platform.name.strip(),
        "version": device.platform.version.strip(),
        "device": device.name.strip(),
        "ordinal": ordinal,
    }


def _describe_platforms(cl):
    lines = []
    for i, p in enumerate(cl.get_platforms()):
        for j, d in enumerate(p.get_devices()):
            lines.append("  [%d:%d] %s on %s (%s)" % (i, j, d.name.strip(), p.name.strip(), p.version.strip()))
    return "\n".join(lines)


def match_device(cl, ident):
    """The device of ``cl`` matching ``device_id``'s dict, or (None, why)."""
    try:
        platforms = cl.get_platforms()
    except Exception as error:
        return None, "it finds no OpenCL platform (%s)" % _first_line(error)
    for p in platforms:
        if p.name.strip() == ident["platform"] and p.version.strip() == ident["version"]:
            same = [d for d in p.get_devices() if d.name.strip() == ident["device"]]
            if len(same) > ident["ordinal"]:
                return same[ident["ordinal"]], None
    return None, "it sees no device %r on platform %r (%s); it sees:\n%s" % (
        ident["device"],
        ident["platform"],
        ident["version"],
        _describe_platforms(cl),
    )


def _pick(items, answer, text, what):
    if answer.isdigit():
        index = int(answer)
        if index < len(items):
            return items[index]
        raise SystemExit("--device: %s index %d out of range (0..%d)" % (what, index, len(items) - 1))
    for item in items:
        if answer.lower() in text(item).lower():
            return item
    raise SystemExit("--device: no %s matches %r; choices: %s" % (what, answer, ", ".join(map(text, items))))


def _embedded_default(cl):
    """The first device of the pip PoCL (pycl's embedded default device), if
    the loader found one in a pip package's folder."""
    from pycl import _loader as loader

    folders = loader.pip_icd_folders()
    report = loader.report().splitlines()
    for p in cl.get_platforms():
        key = "platform '%s', %s" % (p.name, p.version.strip())
        for line in report:
            if key in line and "pocl" in line.lower() and any(f in line for f in folders):
                devices = p.get_devices()
                if devices:
                    return devices[0]
    return None


def select_device(cl, spec):
    """pycl's device for ``--device`` (see ``main``'s help), else
    ``PYOPENCL_CTX``, else the pip PoCL, else the first device found."""
    if not spec:
        spec = os.environ.get("PYOPENCL_CTX", "")
    platforms = cl.get_platforms()
    if not spec:
        return _embedded_default(cl) or platforms[0].get_devices()[0]

    def platform_text(p):
        return "%s %s" % (p.name.strip(), p.version.strip())

    if ":" in spec:
        platform_answer, device_answer = spec.split(":", 1)
        p = _pick(platforms, platform_answer, platform_text, "platform")
        devices = p.get_devices()
        return _pick(devices, device_answer, lambda d: d.name.strip(), "device") if device_answer else devices[0]
    if spec.isdigit():
        return _pick(platforms, spec, platform_text, "platform").get_devices()[0]
    for p in platforms:
        for d in p.get_devices():
            if spec.lower() in ("%s %s" % (platform_text(p), d.name)).lower():
                return d
    raise SystemExit("--device: no platform or device matches %r; pycl sees:\n%s" % (spec, _describe_platforms(cl)))


# }}}


# {{{ timing


def _batch(fn, calls, queue):
    gc.collect()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    queue.finish()
    return (time.perf_counter() - start) / calls


def _calibrate(runs, batch_s, max_calls=1000000):
    """Calls per batch so that the slowest side's batch lasts about ``batch_s``
    (the first calls also warm up: lazy setup, PyPy's JIT)."""
    per_call = 0.0
    for fn, queue in runs:
        calls = 1
        while True:
            seconds = _batch(fn, calls, queue) * calls
            if seconds >= batch_s / 10 or calls >= max_calls:
                break
            calls = min(max_calls, calls * 8)
        per_call = max(per_call, seconds / calls)
    return max(1, min(max_calls, int(batch_s / max(per_call, 1e-9))))


def measure(sides, repeats, batch_s, progress="", warmup_s=0.2):
    """``sides``: {label: (Setup, [Op])}, the same module for each library.
    Returns {label: [result]} in operation order, a result being a dict
    (name, kind, nbytes, bulk, reference, and ``s`` or ``skip``). Each
    operation runs for ``warmup_s`` seconds on each side before its timed
    batches."""
    labels = list(sides)
    names = []
    for _, ops in sides.values():
        for op in ops:
            if op.name not in names:
                names.append(op.name)
    results = {label: [] for label in labels}
    for name in names:
        live = []
        for label in labels:
            setup, ops = sides[label]
            op = next((o for o in ops if o.name == name), None)
            if op is None:
                op = Op(name, skip="not declared for %s" % setup.lib)
            entry = {
                "name": name,
                "kind": op.kind,
                "nbytes": op.nbytes,
                "bulk": op.bulk,
                "reference": op.reference,
                "target": op.target,
            }
            if op.skip:
                entry["skip"] = op.skip
            else:
                live.append((op, setup.queue, entry))
            results[label].append(entry)
        if not live:
            continue
        _log("%s%s" % (progress, name))
        calls = None
        while live and calls is None:
            try:
                calls = _calibrate([(op.fn, queue) for op, queue, _ in live], batch_s)
            except Exception as failure:
                # An operation the driver refuses (e.g. on a GPU never
                # tried): say so in the table, measure the other side alone.
                for op, queue, entry in live:
                    try:
                        _batch(op.fn, 1, queue)
                    except Exception as error:
                        entry["skip"] = _failed(error)
                if not any("skip" in entry for _, _, entry in live):
                    for _, _, entry in live:
                        entry["skip"] = _failed(failure)
                live = [item for item in live if "skip" not in item[2]]
        for op, queue, entry in live:
            entry["calls"] = calls
            end = time.perf_counter() + warmup_s
            while "skip" not in entry and time.perf_counter() < end:
                try:
                    _batch(op.fn, calls, queue)
                except Exception as error:
                    entry["skip"] = _failed(error)
        for repeat in range(repeats):
            for op, queue, entry in live if repeat % 2 == 0 else live[::-1]:
                if "skip" in entry:
                    continue
                try:
                    seconds = _batch(op.fn, calls, queue)
                except Exception as error:
                    entry["skip"] = _failed(error)
                    entry.pop("s", None)
                    continue
                entry["s"] = min(entry.get("s", float("inf")), seconds)
    return results


def _first_line(text):
    lines = str(text).strip().splitlines()
    return lines[0] if lines else ""


def _failed(error):
    line = _first_line(error)
    return "failed: %s%s" % (type(error).__name__, ": " + line if line else "")


def _log(text):
    sys.stderr.write("  %s\n" % text)
    sys.stderr.flush()


# }}}


# {{{ running modules


def bench_module(name):
    return importlib.import_module("bench_" + name)


def _run_module(name, libs, ident, args, with_report):
    """Measures module ``name`` for ``libs`` ({label: (lib, cl)}) in this
    process, interleaved. Returns ({label: results}, {label: report lines},
    {label: error})."""
    module = bench_module(name)
    sides, errors, reports = {}, {}, {}
    for label, (lib, cl) in libs.items():
        device, why = match_device(cl, ident)
        if device is None:
            errors[label] = "%s: %s" % (lib, why)
            continue
        try:
            setup = Setup(cl, lib, device, args.large_mib * MIB)
            sides[label] = (setup, module.operations(setup))
        except Exception as error:
            errors[label] = "%s: operations failed: %s: %s" % (lib, type(error).__name__, error)
    results = (
        measure(sides, args.repeats, args.batch_ms / 1000.0, "%s: " % name, args.warmup_ms / 1000.0) if sides else {}
    )
    if with_report and hasattr(module, "report"):
        for label, (setup, _) in sides.items():
            try:
                reports[label] = module.report(setup)
            except Exception as error:
                reports[label] = ["report failed: %s: %s" % (type(error).__name__, error)]
    sides.clear()
    gc.collect()
    return results, reports, errors


def _child(args):
    """One library in this interpreter, for the back-to-back rounds. A child
    that hangs dumps its Python stacks and exits after ``--child-timeout``."""
    faulthandler.dump_traceback_later(args.child_timeout, exit=True)
    cl, why = load(args.child)
    out = {"python": _python_text(), "impl": args.child, "modules": {}}
    if cl is None:
        out["error"] = why
    else:
        ident = json.loads(args.device_id)
        for name in args.only:
            results, _, errors = _run_module(name, {args.child: (args.child, cl)}, ident, args, False)
            out["modules"][name] = {"results": results.get(args.child, []), "error": errors.get(args.child)}
    with open(args.json, "w") as f:
        json.dump(out, f)


def _spawn(python, lib, name, ident, args):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    command = [
        python,
        os.path.join(BENCH_DIR, "run.py"),
        "--child",
        lib,
        "--json",
        path,
        "--device-id",
        json.dumps(ident),
        "--only",
        name,
        "--large-mib",
        str(args.large_mib),
        "--repeats",
        str(args.repeats),
        "--batch-ms",
        str(args.batch_ms),
        "--warmup-ms",
        str(args.warmup_ms),
        "--child-timeout",
        str(args.child_timeout),
    ]
    env = dict(os.environ)
    env.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-bench-pocl-"))
    try:
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=args.child_timeout + 60,
        )
        returncode, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode, stderr = "a timeout", expired.stderr or ""
        stderr = stderr if isinstance(stderr, str) else stderr.decode("utf-8", "replace")
    try:
        with open(path) as f:
            out = json.load(f)
    except (OSError, ValueError):
        if "Timeout (" in stderr:
            error = "hung: no result after %d s; its stack, innermost first: %s" % (
                args.child_timeout,
                _stack_summary(stderr),
            )
        else:
            last = [line for line in stderr.splitlines() if line.strip()]
            error = "exited with %s: %s" % (returncode, last[-1].strip() if last else "(no output)")
        out = {"error": error}
    finally:
        if os.path.exists(path):
            os.unlink(path)
    return out


def _stack_summary(stderr, frames=6):
    """faulthandler's dump of the main thread, as one line."""
    found = []
    for line in stderr.splitlines():
        line = line.strip()
        if line.startswith("Thread ") and found:
            break
        if line.startswith("File "):
            try:
                where, function = line[len("File ") :].rsplit(" in ", 1)
                filename, lineno = where.split(", line ")
            except ValueError:
                continue
            found.append("%s:%s %s" % (os.path.basename(filename.strip('"')), lineno.split()[0], function))
    return " < ".join(found[:frames]) or "(no stack)"


def _best_of(runs):
    """Merges results of several rounds: the best time of each operation."""
    merged = None
    for results in runs:
        if merged is None:
            merged = [dict(entry) for entry in results]
            continue
        for entry, other in zip(merged, results):
            if "s" in other and other["s"] < entry.get("s", float("inf")):
                entry["s"] = other["s"]
                entry.pop("skip", None)
    return merged or []


# }}}


# {{{ tables


def _fmt_time(seconds):
    us = seconds * 1e6
    if us < 100:
        return "%.2f us" % us
    if us < 1000:
        return "%.1f us" % us
    return "%.0f us" % us


def _cell(entry, copyto):
    if entry is None:
        return "–"
    if "s" not in entry:
        return "skipped"
    text = _fmt_time(entry["s"])
    if entry["nbytes"]:
        gbps = entry["nbytes"] / entry["s"] / 1e9
        text += ", %.1f GB/s" % gbps
        if entry["bulk"] and copyto is not None and "s" in copyto:
            text += " (%.2fx np.copyto)" % (gbps / (copyto["nbytes"] / copyto["s"] / 1e9))
    return text


def _ratio(a, b):
    if a is None or b is None or "s" not in a or "s" not in b:
        return None
    return a["s"] / b["s"]


def _target(entry, ratio, label):
    """ "CPython <=1.1x ok" and the like, or None where no target applies."""
    if entry["reference"] or entry["kind"] is None or ratio is None:
        return None
    if label == "PyPy":
        if entry["kind"] == "object":
            return "PyPy <=%.1fx %s" % (PYPY_OBJECT_TARGET, "ok" if ratio <= PYPY_OBJECT_TARGET else "MISSED")
        return "PyPy <1x %s" % ("ok" if ratio < PYPY_TARGET else "MISSED")
    limit = entry.get("target") or TARGETS[entry["kind"]]
    if entry["kind"] == "object":
        limit = next((t for prefix, t in OBJECT_TARGETS if entry["name"].startswith(prefix)), limit)
    return "%s <=%gx %s" % (label, limit, "ok" if ratio <= limit else "MISSED")


def table(title, columns, pairs, reports, notes):
    """Markdown lines for one module. ``columns``: [(heading, results or
    None)]; ``pairs``: [(heading, index a, index b, target label)], the ratio
    a / b, printed right after column b; ``reports``: [(label, lines)] under
    the table; ``notes``: lines above it."""
    lines = ["## %s" % title, ""]
    if notes:
        lines.extend("> %s  " % note for note in notes)
        lines.append("")
    by_name = [{e["name"]: e for e in results or ()} for _, results in columns]
    names = []
    for _, results in columns:
        for entry in results or ():
            if entry["name"] not in names:
                names.append(entry["name"])
    if not names:
        return lines + ["(nothing measured)", ""]
    copyto = [next((e for e in results.values() if e["reference"]), None) for results in by_name]
    layout = []  # ("time", column index) or ("ratio", pair)
    for index in range(len(columns)):
        layout.append(("time", index))
        layout.extend(("ratio", pair) for pair in pairs if pair[2] == index)
    heads = ["operation"] + [columns[item][0] if kind == "time" else item[0] for kind, item in layout]
    if pairs:
        heads.append("targets")
    lines.append("| " + " | ".join(heads) + " |")
    lines.append("|" + "---|" * len(heads))
    skipped = {}  # (reason, columns) -> operations
    for name in names:
        sample = next(results[name] for results in by_name if name in results)
        row = [name]
        reasons = {}
        targets = []
        for kind, item in layout:
            if kind == "time":
                entry = by_name[item].get(name)
                row.append(_cell(entry, copyto[item]))
                if entry is not None and "skip" in entry:
                    reasons.setdefault(entry["skip"], []).append(columns[item][0])
                continue
            _, a, b, label = item
            ratio = _ratio(by_name[a].get(name), by_name[b].get(name))
            row.append("%.2fx" % ratio if ratio is not None else "–")
            target = _target(sample, ratio, label)
            if target:
                targets.append(target)
        if pairs:
            row.append("; ".join(targets) or "–")
        lines.append("| " + " | ".join(row) + " |")
        for why, where in reasons.items():
            key = (why, ", ".join(where))
            if key not in skipped:
                skipped[key] = []
            skipped[key].append(name)
    lines.append("")
    for (why, where), ops in skipped.items():
        lines.append("- skipped (%s): %s: %s" % (where, why, ", ".join("*%s*" % name for name in ops)))
    if skipped:
        lines.append("")
    for label, report in reports:
        lines.append("%s:" % label)
        lines.extend("    %s" % line for line in report)
        lines.append("")
    return lines


# }}}


# {{{ the small-call tools (python_share.py, layer_calls.py)


def small_call_parser(description):
    """The options of a tool that times small calls side by side in one process."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--device", default="", help="as bench/run.py's --device")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batch-ms", type=float, default=50.0)
    parser.add_argument("--warmup-ms", type=float, default=200.0)
    parser.add_argument("--out", help="also write the table to this Markdown file")
    return parser


def small_call_header(title, device, args, script):
    """The lines above a small-call tool's table: the device, the
    interpreter, ``POCL_DEVICES`` (PoCL's device choice), the command."""
    return [
        "# %s, %s" % (title, device.name.strip()),
        "",
        "- %s, %s; Python %s %s; POCL_DEVICES=%s"
        % (
            device.platform.name.strip(),
            device.platform.version.strip(),
            _platform.python_implementation(),
            _platform.python_version(),
            os.environ.get("POCL_DEVICES", "(unset)"),
        ),
        "- command: python bench/%s %s" % (script, " ".join(sys.argv[1:])),
        "- best of %d interleaved batches of about %g ms after %g ms of warm-up, us per call"
        % (args.repeats, args.batch_ms, args.warmup_ms),
        "",
    ]


def emit(text, out):
    """Print a tool's Markdown, and write it to ``out`` if given."""
    print(text)
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)


# }}}


# {{{ main


def _versions(names):
    found = []
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        version = getattr(module, "VERSION_TEXT", None) or getattr(module, "__version__", None)
        if version is None and name != "numpy":
            continue
        found.append("%s %s" % ({"pyopencl": "PyOpenCL"}.get(name, name), version))
    return found


def _python_text():
    impl = sys.implementation.name
    if impl == "pypy":
        pypy = ".".join(str(part) for part in sys.pypy_version_info[:3])
        text = "PyPy %s (Python %s)" % (pypy, _platform.python_version())
    else:
        text = "%s %s" % (_platform.python_implementation(), _platform.python_version())
    libs = ["numpy", "pycl"] + (["pyopencl"] if impl != "pypy" else [])
    return "%s with %s" % (text, ", ".join(_versions(libs)))


def _host_text():
    model = _platform.processor() or _platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    if hasattr(os, "sched_getaffinity"):
        return "%s, %d logical CPUs available to this process" % (model, len(os.sched_getaffinity(0)))
    return "%s, %s logical CPUs" % (model, os.cpu_count())  # PyPy 3.9 has no sched_getaffinity


def _git_text():
    try:
        done = subprocess.run(
            ["git", "-C", BENCH_DIR, "describe", "--always", "--dirty"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:
        return ""
    return " (pycl tree at %s)" % done.stdout.strip() if done.returncode == 0 else ""


def parse_args(argv=None, default_only=None):
    parser = argparse.ArgumentParser(
        prog="bench/run.py",
        description="pycl against PyOpenCL on the same device, one table per benchmark module.",
    )
    parser.add_argument(
        "--device",
        help='"platform:device", each an index or a name substring, as PYOPENCL_CTX (indices in pycl\'s order: '
        "python -m pycl lists them); or one substring of a platform name, platform version or device name "
        '(e.g. "NVIDIA", "3.0-rc2"). Default: PYOPENCL_CTX, else the pip PoCL, else the first device. '
        "PyOpenCL uses the device with the same platform name and version and device name",
    )
    parser.add_argument("--pypy", metavar="PATH", help="a PyPy with pycl installed: adds pycl-on-PyPy columns")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="modules to run, comma-separated: %s" % ", ".join(MODULES)
    )
    parser.add_argument("--out", metavar="FILE", help="also write the tables as Markdown, with date and versions")
    parser.add_argument("--large-mib", type=int, default=64, help="bulk transfer size in MiB (default 64)")
    parser.add_argument("--repeats", type=int, default=7, help="timed batches per operation and side (default 7)")
    parser.add_argument("--batch-ms", type=float, default=50.0, help="target length of a batch (default 50 ms)")
    parser.add_argument(
        "--warmup-ms", type=float, default=200.0, help="untimed calls of each operation first (default 200 ms)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="back-to-back rounds of child processes (default 3)")
    parser.add_argument(
        "--processes",
        action="store_true",
        help="pycl on CPython in child processes too, back to back with PyOpenCL's, instead of both in one "
        "process (where one driver's threads slow the other's: PoCL's CPU devices)",
    )
    parser.add_argument(
        "--child-timeout", type=int, default=300, help="seconds before a hung child process is stopped (default 300)"
    )
    parser.add_argument("--child", choices=("pycl", "pyopencl"), help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    parser.add_argument("--device-id", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    only = []
    for item in args.only or default_only or MODULES:
        for name in item.split(","):
            if name.strip() not in MODULES:
                parser.error("--only: unknown module %r (choices: %s)" % (name, ", ".join(MODULES)))
            if name.strip() not in only:
                only.append(name.strip())
    args.only = only
    return args


def main(argv=None, default_only=None):
    args = parse_args(argv, default_only)
    if args.child:
        _child(args)
        return
    os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-bench-pocl-"))
    pycl, why = load("pycl")
    if pycl is None:
        raise SystemExit(why)
    pyopencl, missing = load("pyopencl")
    device = select_device(pycl, args.device)
    ident = device_id(device)
    if pyopencl is not None:
        theirs, why = match_device(pyopencl, ident)
        if theirs is None:
            pyopencl, missing = None, "PyOpenCL does not see pycl's device: %s" % why
            missing += "\n(PyOpenCL's bundled loader reads OCL_ICD_VENDORS, not OCL_ICD_FILENAMES: bench/README.md)"
    libs = {"pycl": ("pycl", pycl)}
    if pyopencl is not None:
        libs["pyopencl"] = ("pyopencl", pyopencl)
    header = [
        "# pycl vs PyOpenCL, %s" % datetime.date.today().isoformat(),
        "",
        "- device: %s (%s), %s, driver %s"
        % (device.name.strip(), device.platform.name.strip(), device.version.strip(), device.driver_version.strip()),
        "- platform: %s" % device.platform.version.strip(),
        "- host: %s" % _host_text(),
        "- %s" % _python_text(),
    ]
    pypy_text = None
    if args.pypy:
        probe = subprocess.run(
            [
                args.pypy,
                "-c",
                "import sys; sys.path.insert(0, %r); import harness; print(harness._python_text())" % BENCH_DIR,
            ],
            capture_output=True,
            text=True,
        )
        if probe.returncode:
            raise SystemExit("--pypy %s does not run the harness:\n%s" % (args.pypy, probe.stderr[-2000:]))
        pypy_text = probe.stdout.strip()
        header.append("- %s" % pypy_text)
    header += [
        "- command: %s%s" % (" ".join([os.path.basename(sys.executable)] + sys.argv), _git_text()),
        "- method: best of %d batches of about %g ms (mean per call, each batch ending with queue.finish()) "
        "after %g ms of warm-up; "
        "%s%s; ratios are pycl / PyOpenCL (below 1: pycl is faster); bulk copies also as a fraction of "
        "np.copyto's bandwidth in the same column"
        % (
            args.repeats,
            args.batch_ms,
            args.warmup_ms,
            "pycl on CPython in child processes"
            if args.processes
            else "pycl and PyOpenCL interleaved in one CPython process",
            "; %s against PyOpenCL on CPython in child processes run back to back, best of %d round(s)"
            % (" and ".join(["pycl on CPython"] * args.processes + ["pycl on PyPy"] * bool(args.pypy)), args.rounds)
            if args.pypy or args.processes
            else "",
        ),
    ]
    if pyopencl is None:
        header.append("- **pycl columns only**: %s" % _first_line(missing))
        header.extend("  " + line.strip() for line in missing.splitlines()[1:])
    header.append("")
    out = list(header)
    print("\n".join(header), flush=True)
    for name in args.only:
        module = bench_module(name)
        _log("%s (%s)" % (name, ", ".join(libs)))
        columns, pairs, notes = [], [], []
        if args.processes:  # every side in child processes: no in-process comparison
            results, reports = {}, {}
        else:
            results, reports, errors = _run_module(name, libs, ident, args, True)
            columns.append(("pycl %s" % _platform.python_implementation(), results.get("pycl")))
            if pyopencl is not None:
                columns.append(("PyOpenCL CPython", results.get("pyopencl")))
                pairs.append(("pycl / PyOpenCL", 0, 1, "CPython"))
            notes.extend(errors.values())
        children = []  # (heading, python, library, ratio heading, target label)
        if args.processes:
            children.append(("pycl CPython (child)", sys.executable, "pycl", "pycl / PyOpenCL", "CPython"))
        if args.pypy:
            children.append(("pycl PyPy", args.pypy, "pycl", "pycl PyPy / PyOpenCL", "PyPy"))
        if children:
            if pyopencl is not None:
                children.append(("PyOpenCL CPython (child)", sys.executable, "pyopencl", None, None))
            runs = [[] for _ in children]
            for round_ in range(args.rounds):
                _log(
                    "%s: round %d of %d: %s"
                    % (name, round_ + 1, args.rounds, ", then ".join(heading for heading, *_ in children))
                )
                for (_, python, lib, _, _), child_runs in zip(children, runs):
                    child = _spawn(python, lib, name, ident, args)
                    entry = child.get("modules", {}).get(name, {})
                    error = child.get("error") or entry.get("error")
                    if error:
                        notes.append(
                            "%s child on %s, round %d of %d: %s"
                            % (lib, python, round_ + 1, args.rounds, _first_line(error))
                        )
                    if entry.get("results"):
                        child_runs.append(entry["results"])
            first = len(columns)
            for (heading, *_), child_runs in zip(children, runs):
                columns.append((heading, _best_of(child_runs) or None))
            if pyopencl is not None:  # each pycl column against PyOpenCL's, the last one
                for i, (_, _, _, ratio, label) in enumerate(children[:-1]):
                    pairs.append((ratio, first + i, len(columns) - 1, label))
        labels = {"pycl": "pycl (CPython)", "pyopencl": "PyOpenCL (CPython)"}
        lines = table(
            module.TITLE,
            columns,
            pairs,
            [(labels[label], report) for label, report in reports.items()],
            sorted(set(notes), key=notes.index),
        )
        print("\n".join(lines), flush=True)
        out.extend(lines)
    if args.out:
        folder = os.path.dirname(os.path.abspath(args.out))
        os.makedirs(folder, exist_ok=True)
        with open(args.out, "w") as f:
            f.write("\n".join(out).rstrip() + "\n")
        _log("wrote %s" % args.out)


# }}}
