"""pycl against PyOpenCL's documentation of its memory API.

The pages are read from tools/reference/ by tools/apiref.py, which
tools/api_report.py and the docs' coverage page use too. Every documented name must
be in pycl at the same place, with the documented parameters, unless
docs/differences.md lists it under "API differences checked by tests"; every
listed difference must still exist. Classes the pages mark comparable are
compared on real objects of every device.

The parser is the oracle here, so it is tested on its own too: on small
pages with known answers, and against a plain scan of the real pages (every
directive and every entry line must have become an entry).
"""

import inspect
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import pycl as cl

# The reference parser is developer tooling beside the tests (tools/), not
# part of the installed package.
TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
sys.path.insert(0, TOOLS)
import apiref  # noqa: E402

P = inspect.Parameter


@pytest.fixture(scope="module")
def entries():
    return apiref.entries()


@pytest.fixture(scope="module")
def by_ref(entries):
    return {e.ref: e for e in entries}


# {{{ the reference copy


def test_reference_copy_and_notice():
    names = sorted(os.listdir(apiref.REFERENCE_DIR))
    assert names == ["NOTICE", "runtime_memory.rst", "runtime_memory_rendered.txt", "tools_memory_pools.txt"]
    with open(os.path.join(apiref.REFERENCE_DIR, "NOTICE"), encoding="utf-8") as f:
        notice = f.read()
    for needed in ("https://documen.tician.de/pyopencl/", "Andreas Klöckner", "MIT", "Permission is hereby granted"):
        assert needed in notice


# }}}


# {{{ the parser


def test_parse_params():
    pp = apiref.parse_params
    assert pp("") == []
    assert pp("queue, dest, src, **kwargs") == [
        apiref.Param("queue"),
        apiref.Param("dest"),
        apiref.Param("src"),
        apiref.Param("kwargs", P.VAR_KEYWORD),
    ]
    assert pp("queue: CommandQueue, *, flags: int, wait_for: Optional[Sequence[Event]] = None") == [
        apiref.Param("queue"),
        apiref.Param("flags", P.KEYWORD_ONLY),
        apiref.Param("wait_for", P.KEYWORD_ONLY, "None"),
    ]
    # pybind11: self is dropped, argN is a position without a name
    assert pp("self: pyopencl._cl.PooledSVM, arg0: pyopencl._cl.CommandQueue") == [
        apiref.Param("arg0", P.POSITIONAL_ONLY)
    ]
    assert pp("[channel_order, channel_type]") == [
        apiref.Param("channel_order", default=apiref.ANY_DEFAULT),
        apiref.Param("channel_type", default=apiref.ANY_DEFAULT),
    ]
    assert pp("ctx, order='C', properties=(), mem_flags=pyopencl.mem_flags.READ_WRITE") == [
        apiref.Param("ctx"),
        apiref.Param("order", default="'C'"),
        apiref.Param("properties", default="()"),
        apiref.Param("mem_flags", default="pyopencl.mem_flags.READ_WRITE"),
    ]
    with pytest.raises(ValueError):
        pp("a b")


_RST = """\
.. currentmodule:: pyopencl

.. class:: Thing(context, size=0)

    .. attribute:: info

        Lower case versions of the :class:`mem_info` and :class:`image_info`
        constants may be used as attributes.

    .. method:: frob(x, y=None)

        See :class:`mem_flags` and :func:`numpy.empty` and :class:`str`.

    .. automethod:: from_int_ptr
    |comparable|

.. function:: top(a)
    Calls :c:func:`clFoo`.

.. autoclass:: Plain

.. currentmodule:: pyopencl._cl

.. class:: Alias
"""


def test_parse_rst():
    raws, refs = apiref.parse_rst(_RST, "t.rst")
    got = [(r.ref, r.kind, r.params, r.comparable) for r in raws]
    assert got == [
        ("pyopencl.Thing", "class", [apiref.Param("context"), apiref.Param("size", default="0")], "handle"),
        ("pyopencl.Thing.info", "attribute", None, None),
        ("pyopencl.Thing.frob", "method", [apiref.Param("x"), apiref.Param("y", default="None")], None),
        ("pyopencl.Thing.from_int_ptr", "method", None, None),
        ("pyopencl.top", "function", [apiref.Param("a")], None),
        ("pyopencl.Plain", "class", None, None),
        ("pyopencl._cl.Alias", "class", None, None),
    ]
    assert apiref._info_classes(raws[1].body) == ("mem_info", "image_info")
    # numpy, builtins and C functions are not pyopencl names
    assert [r for r, _ in refs if r] == ["pyopencl.mem_info", "pyopencl.image_info", "pyopencl.mem_flags"]


_RENDERED = """\
Section Heading#

class pyopencl.Thing(context, size=0)#

info#

Lower case versions of the sampler_info constants may be used as attributes.

static from_int_ptr(int_ptr_value: int, retain: bool = True) pyopencl._cl.Thing#
property svm_ptr#
frob(self: pyopencl._cl.Thing, x: int, *, y: int = 4) None[source]#

Instances of this class are hashable, and two instances of this class may be compared.

pyopencl.tools.helper(func)[source]#
Testing#
exception pyopencl.characterize.Warned[source]#
"""


def test_parse_rendered():
    raws, refs = apiref.parse_rendered(_RENDERED, "t.txt")
    got = [(r.ref, r.kind, r.params, r.source) for r in raws]
    assert got == [
        ("pyopencl.Thing", "class", [apiref.Param("context"), apiref.Param("size", default="0")], "t.txt:3"),
        ("pyopencl.Thing.info", "attribute", None, "t.txt:5"),
        (
            "pyopencl.Thing.from_int_ptr",
            "method",
            [apiref.Param("int_ptr_value"), apiref.Param("retain", default="True")],
            "t.txt:9",
        ),
        ("pyopencl.Thing.svm_ptr", "attribute", None, "t.txt:10"),
        ("pyopencl.Thing.frob", "method", [apiref.Param("x"), apiref.Param("y", P.KEYWORD_ONLY, "4")], "t.txt:11"),
        ("pyopencl.tools.helper", "function", [apiref.Param("func")], "t.txt:15"),
        ("pyopencl.characterize.Warned", "exception", None, "t.txt:17"),
    ]
    assert raws[0].comparable == "handle"
    assert apiref._info_classes(raws[1].body) == ("sampler_info",)
    assert ("pyopencl._cl.Thing", "t.txt:9") in refs
    with pytest.raises(ValueError, match="outside a class"):
        apiref.parse_rendered("Heading#\nstray()#\n", "t.txt")


def _read(name):
    with open(os.path.join(apiref.REFERENCE_DIR, name), encoding="utf-8") as f:
        return f.read().splitlines()


def test_every_directive_and_entry_line_is_read(entries):
    """A plain scan of the pages, independent of the parser's rules: every
    directive of the .rst and every non-heading entry line of the rendered
    pages is the source of an entry."""
    sources = {s for e in entries for s in e.sources}
    names = {e.ref.rsplit(".", 1)[1] for e in entries}
    unread = []
    for number, line in enumerate(_read(apiref.RST_FILE), 1):
        match = re.match(r"^\s*\.\. (auto)?(class|function|method|attribute)::\s*([\w.]+)", line)
        if match:
            if "%s:%d" % (apiref.RST_FILE, number) not in sources or match.group(3).split(".")[-1] not in names:
                unread.append("%s:%d %s" % (apiref.RST_FILE, number, line.strip()))
    for filename in apiref.RENDERED_FILES:
        for number, line in enumerate(_read(filename), 1):
            # entries start in lower case ("class pyopencl.X", "info#",
            # "__init__(...)#"), section headings in upper case
            if line.endswith("#") and re.match(r"^[a-z_]", line) and "%s:%d" % (filename, number) not in sources:
                unread.append("%s:%d %s" % (filename, number, line))
    assert not unread, "lines not read as entries:\n" + "\n".join(unread)


def test_reference_spot_checks(entries, by_ref):
    def sig(ref):
        return apiref.format_params(by_ref[ref].params)

    assert sig("pyopencl.enqueue_svm_migratemem") == "(queue, svms, flags, wait_for=None)"
    assert sig("pyopencl.SVMPointer.map") == "(queue, *, flags, is_blocking=True, wait_for=None, size=None)"
    assert sig("pyopencl.tools.MemoryPool.allocate") == "(size)"
    assert sig("pyopencl.tools.PooledSVM.bind_to_queue") == "(arg0)"
    assert sig("pyopencl.ImageFormat") == "([channel_order], [channel_type])"  # the rendered page wins
    assert sig("pyopencl.Image") == (
        "(context, flags, format, shape=None, pitches=None, hostbuf=None, is_array=False, buffer=None)"
    )
    assert sig("pyopencl.enqueue_copy_buffer_p2p_amd") == "(platform, queue, src, dest, size=None, wait_for=None)"
    assert by_ref["pyopencl.create_image"].kind == "function"  # in the .rst only
    assert by_ref["pyopencl.MemoryObject.hostbuf"].kind == "attribute"
    assert by_ref["pyopencl.MemoryObject.from_int_ptr"].kind == "method"
    assert by_ref["pyopencl._cl.Image"].kind == "class"
    assert by_ref["pyopencl._cl.AllocatorBase"].kind == "class"
    assert by_ref["pyopencl.characterize.CLCharacterizationWarning"].kind == "exception"
    assert by_ref["pyopencl.Image.info"].info_classes == ("mem_info", "image_info")
    assert by_ref["pyopencl.Sampler.info"].info_classes == ("sampler_info",)
    comparable = {e.ref: e.comparable for e in entries if e.comparable}
    assert comparable == {
        "pyopencl.MemoryObject": "handle",
        "pyopencl.ImageFormat": "handle",
        "pyopencl.Image": "handle",
        "pyopencl.Sampler": "handle",
        "pyopencl.tools.PooledSVM": "structural",
    }
    assert not [e for e in entries if e.ref.startswith("pyopencl.array")]


# }}}


# {{{ the checker


def _entry(ref, kind, params=None):
    e = apiref.Entry(ref, kind)
    e.params = apiref.parse_params(params) if params is not None else None
    return e


def test_check_reports_what_differs():
    check = apiref.check
    assert check(_entry("pyopencl.enqueue_copy", "function", "queue, dest, src, **kwargs"))[0] == "ok"
    assert check(_entry("pyopencl.no_such_function", "function"))[0] == "missing"
    assert check(_entry("pyopencl.tools.NoSuchClass", "class"))[0] == "missing"
    assert check(_entry("pyopencl.Buffer.no_such_method", "method"))[0] == "missing"
    # object's __str__ is no documented __str__
    assert check(_entry("pyopencl.ImageFormat.__str__", "method"))[0] == "missing"
    status, problems = check(_entry("pyopencl.enqueue_copy", "function", "queue, dest, source, **kwargs"))
    assert status == "different" and "parameter 3 is 'src', documented 'source'" in problems
    status, problems = check(_entry("pyopencl.Buffer", "class", "context, flags, size=1, hostbuf=None"))
    assert status == "different" and "'size' defaults to 0, documented 1" in problems
    status, problems = check(_entry("pyopencl.SVMPointer.map", "method", "queue, flags, is_blocking=True"))
    assert status == "different" and "'flags' is keyword-only, documented positional or keyword" in problems
    status, problems = check(_entry("pyopencl.Buffer", "class", "context, flags, size=0"))
    assert status == "different" and "extra parameter 'hostbuf' (not documented)" in problems
    # a default given as a pyopencl name is resolved in pycl
    assert check(_entry("pyopencl.tools.DeferredAllocator.__init__", "method", "context, mem_flags=1"))[0] == "ok"
    assert (
        check(
            _entry(
                "pyopencl.tools.DeferredAllocator.__init__", "method", "context, mem_flags=pyopencl.mem_flags.READ_ONLY"
            )
        )[0]
        == "different"
    )
    # True is not 1 for a default
    assert check(_entry("pyopencl.MemoryObject.from_int_ptr", "method", "int_ptr_value, retain=1"))[0] == "different"
    # argN only fixes the position
    assert check(_entry("pyopencl.tools.PooledSVM.bind_to_queue", "method", "arg0"))[0] == "ok"
    comparable = _entry("pyopencl.tools.MemoryPool", "class")
    comparable.comparable = "handle"
    status, problems = check(comparable)
    assert status == "different" and "comparable" in problems[0]


def test_differences_parser(tmp_path):
    path = tmp_path / "differences.md"
    path.write_text(
        "# D\n\n## Other\n\n- `pycl.not_this`: elsewhere\n\n"
        "## API differences checked by tests\n\nProse with `pycl.x`.\n\n"
        "- `pycl.a`: one\n  line more\n- `pycl.tools.B.__init__`: two\n\n## Next\n- `pycl.c`: no\n",
        encoding="utf-8",
    )
    assert apiref.differences(str(path)) == {"pycl.a": "one line more", "pycl.tools.B.__init__": "two"}
    path.write_text("## API differences checked by tests\n- `pycl.a`: one\n- `pycl.a`: two\n", encoding="utf-8")
    with pytest.raises(ValueError, match="twice"):
        apiref.differences(str(path))


# }}}


# {{{ pycl against the reference


def test_api_matches_reference(entries):
    listed = apiref.differences()
    assert listed, "docs/differences.md has no 'API differences checked by tests' section"
    missing, unlisted, shown = [], [], []
    differing = set()
    for entry in entries:
        status, problems = apiref.check(entry)
        if status == "ok":
            continue
        if status == "unavailable":
            pytest.fail("%s cannot be looked up: %s" % (entry.name, problems))
        differing.add(entry.name)
        where = ", ".join(entry.sources)
        if entry.name in listed:
            shown.append("%s: %s" % (entry.name, "; ".join(problems)))
        elif status == "missing":
            missing.append("%s (%s): %s" % (entry.name, where, "; ".join(problems)))
        else:
            unlisted.append("%s (%s): %s" % (entry.name, where, "; ".join(problems)))
    names = {e.name for e in entries}
    stale = sorted(n for n in listed if n not in differing)
    unknown = sorted(n for n in listed if n not in names)
    print(
        "%d reference names checked: %d as documented, %d with a listed difference"
        % (len(entries), len(entries) - len(differing), len(shown))
    )
    for line in shown:
        print("  listed difference:", line)
    report = []
    if missing:
        report.append("missing from pycl:\n  " + "\n  ".join(missing))
    if unlisted:
        report.append("different from the reference, not listed in docs/differences.md:\n  " + "\n  ".join(unlisted))
    if unknown:
        report.append("listed in docs/differences.md but not reference names: " + ", ".join(unknown))
    if stale:
        report.append("listed in docs/differences.md but no longer different: " + ", ".join(stale))
    print("\n".join(report))
    assert not report, "\n".join(report)


def test_svm_migratemem_alias():
    assert cl.enqueue_svm_migrate_mem is cl.enqueue_svm_migratemem


def test_cl_type_aliases(entries):
    """Every ``pyopencl._cl`` name the pages use (the type aliases and the
    types of the signatures) is the class of the same name."""
    aliases = [e for e in entries if e.ref.startswith("pyopencl._cl.")]
    assert len(aliases) >= 10
    for e in aliases:
        name = e.ref.rsplit(".", 1)[1]
        alias = getattr(cl._cl, name)
        public = getattr(cl, name, None) or getattr(cl.tools, name)
        assert alias is public, e.ref


# }}}


# {{{ on real objects: comparable classes, info attributes, hostbuf

_mf = cl.mem_flags


def _images(ctx):
    if not ctx.devices[0].image_support:
        pytest.skip("%s has no image support" % ctx.devices[0].name)


def _svm_ctx(ctx):
    from pycl.characterize import has_coarse_grain_buffer_svm

    device = ctx.devices[0]
    if not has_coarse_grain_buffer_svm(device):
        pytest.skip("no SVM on %s (OpenCL %d.%d)" % (device.name, *device.cl_version))


def _pipes(ctx):
    device = ctx.devices[0]
    if device.cl_version < (2, 0) or (device.cl_version >= (3, 0) and not device.pipe_support):
        pytest.skip("no pipes on %s" % device.name)


def _same_handle_buffer(ctx):
    a = cl.Buffer(ctx, _mf.READ_WRITE, 256)
    sub = a[0:128]
    return (
        a,
        [cl.Buffer.from_int_ptr(a.int_ptr), cl.MemoryObject.from_int_ptr(a.int_ptr), sub.associated_memobject],
        [
            cl.Buffer(ctx, _mf.READ_WRITE, 256),
            sub,
        ],
    )


def _same_handle_image(ctx):
    _images(ctx)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    a = cl.Image(ctx, _mf.READ_WRITE, fmt, shape=(4, 4))
    b = cl.Image(ctx, _mf.READ_WRITE, fmt, shape=(4, 4))
    return a, [cl.Image.from_int_ptr(a.int_ptr), cl.MemoryObject.from_int_ptr(a.int_ptr)], [b]


def _same_handle_sampler(ctx):
    _images(ctx)
    a = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
    b = cl.Sampler(ctx, True, cl.addressing_mode.REPEAT, cl.filter_mode.LINEAR)
    return a, [cl.Sampler.from_int_ptr(a.int_ptr)], [b]


def _same_handle_pipe(ctx):
    _pipes(ctx)
    a = cl.Pipe(ctx, 0, 4, 16)
    return a, [cl.Pipe.from_int_ptr(a.int_ptr), cl.MemoryObject.from_int_ptr(a.int_ptr)], [cl.Pipe(ctx, 0, 4, 16)]


def _same_value_format(ctx):
    # ImageFormat has no OpenCL handle: PyOpenCL compares it by value.
    co, ct = cl.channel_order, cl.channel_type
    a = cl.ImageFormat(co.RGBA, ct.FLOAT)
    same = [cl.ImageFormat(co.RGBA, ct.FLOAT)]
    if ctx.devices[0].image_support:
        image = cl.Image(ctx, _mf.READ_ONLY, a, shape=(2, 2))
        same.append(cl.Image.from_int_ptr(image.int_ptr).format)  # decoded from the driver's answer
    return a, same, [cl.ImageFormat(co.RGBA, ct.UNORM_INT8), cl.ImageFormat(co.RG, ct.FLOAT)]


def _structural_pooled_svm(ctx):
    _svm_ctx(ctx)
    queue = cl.CommandQueue(ctx)
    pool = cl.tools.SVMPool(cl.tools.SVMAllocator(ctx, queue=queue))
    a = pool(64)
    return a, [], [pool(64), pool(1024)]


# The classes the pages mark comparable, and how to make objects of each:
# (object, other objects of the same handle, objects of other handles).
_COMPARABLE = {
    "pyopencl.MemoryObject": [_same_handle_buffer, _same_handle_image, _same_handle_pipe],
    "pyopencl.Image": [_same_handle_image],
    "pyopencl.Sampler": [_same_handle_sampler],
    "pyopencl.ImageFormat": [_same_value_format],
    "pyopencl.tools.PooledSVM": [_structural_pooled_svm],
}


def test_every_comparable_class_is_tested(entries):
    assert {e.ref for e in entries if e.comparable} == set(_COMPARABLE)


@pytest.mark.parametrize(
    "make",
    [make for makers in _COMPARABLE.values() for make in makers],
    ids=lambda make: make.__name__.lstrip("_"),
)
def test_comparable(ctx_factory, make):
    ctx = ctx_factory()
    a, same, other = make(ctx)
    assert a == a and not (a != a)
    for b in same:
        assert b is not a
        assert a == b and b == a, (a, b)
        assert not (a != b) and not (b != a)
        assert hash(a) == hash(b)
    for b in other:
        assert a != b and b != a, (a, b)
        assert not (a == b) and not (b == a)
    assert a != object() and not (a == object())
    assert len({a, *same, *other}) == 1 + len(other)


def test_comparable_svm_allocation(ctx_factory):
    """Not marked in the pages, but PyOpenCL compares SVMAllocations by
    pointer and docs/differences.md says pycl does too."""
    ctx = ctx_factory()
    _svm_ctx(ctx)
    queue = cl.CommandQueue(ctx)
    a = cl.SVMAllocation(ctx, 64, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
    b = cl.SVMAllocation(ctx, 64, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
    assert a == a and a != b and hash(a) == hash(a.svm_ptr) and len({a, b}) == 2


_INFO_OBJECTS = {
    "pyopencl.MemoryObject": lambda ctx: cl.Buffer(ctx, _mf.READ_WRITE, 64),
    "pyopencl.Image": lambda ctx: (
        _images(ctx),
        cl.Image(ctx, _mf.READ_ONLY, cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT), shape=(4, 4)),
    )[1],
    "pyopencl.Sampler": lambda ctx: (
        _images(ctx),
        cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST),
    )[1],
}


def test_every_info_class_is_tested(entries):
    assert {e.owner for e in entries if e.info_classes} == set(_INFO_OBJECTS)


@pytest.mark.parametrize("owner", sorted(_INFO_OBJECTS))
def test_info_attributes(ctx_factory, owner, by_ref):
    """``info``: the lower-case names of the info constants are attributes of
    a real object (a driver may refuse a parameter: a pycl.Error, not an
    AttributeError)."""
    obj = _INFO_OBJECTS[owner](ctx_factory())
    missing = []
    for info_class in by_ref[owner + ".info"].info_classes:
        constants = getattr(cl, info_class)
        for name in dir(constants):
            if not name.isupper():
                continue
            try:
                getattr(obj, name.lower())
            except AttributeError as error:
                missing.append("%s.%s: %s" % (info_class, name.lower(), error))
            except cl.Error:
                pass
    assert not missing, missing


def test_hostbuf(ctx_factory):
    """``MemoryObject.hostbuf`` as PyOpenCL 2026.1.4 answers it: the host
    object of a USE_HOST_PTR object, else None (COPY_HOST_PTR included)."""
    ctx = ctx_factory()
    host = np.arange(64, dtype=np.float32)
    used = cl.Buffer(ctx, _mf.READ_WRITE | _mf.USE_HOST_PTR, hostbuf=host)
    assert used.hostbuf is host
    assert cl.Buffer(ctx, _mf.READ_WRITE | _mf.COPY_HOST_PTR, hostbuf=host).hostbuf is None
    assert cl.Buffer(ctx, _mf.READ_WRITE, 64).hostbuf is None
    if ctx.devices[0].image_support:
        pixels = np.zeros((4, 4), np.float32)
        fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
        image = cl.Image(ctx, _mf.READ_ONLY | _mf.USE_HOST_PTR, fmt, hostbuf=pixels)
        assert image.hostbuf is pixels
    used.release()
    with pytest.raises(cl.LogicError, match="released"):
        used.hostbuf


# }}}


# {{{ tools/api_report.py


def test_api_command():
    # conftest.py has set POCL_CACHE_DIR for the child too
    report = os.path.join(TOOLS, "api_report.py")
    result = subprocess.run([sys.executable, report], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout.splitlines()
    lines = {line.split()[0]: line for line in out if line.startswith("pycl")}
    assert "implemented" in lines["pycl.enqueue_svm_migratemem"]
    assert "implemented" in lines["pycl.MemoryObject.hostbuf"]
    assert "implemented" in lines["pycl.tools.MemoryPool.allocate"]
    assert "implemented" in lines["pycl._cl.Image"]
    assert "difference" in lines["pycl.enqueue_fill"]
    # the reason follows, from docs/differences.md
    assert "PyOpenCL's actual signature" in out[out.index(lines["pycl.enqueue_fill"]) + 1]
    assert re.search(r"^\d+ reference names: \d+ implemented as documented", result.stdout, re.M)
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    if any(d.cl_version < (2, 0) for d in devices):  # Oclgrind: no SVM
        assert "unavailable on" in lines["pycl.SVMAllocation"] and "needs SVM" in lines["pycl.SVMAllocation"]


def test_api_page(tmp_path):
    # the documentation's coverage page (docs/conf.py writes it at every build)
    page = tmp_path / "api_status.rst"
    report = os.path.join(TOOLS, "api_report.py")
    result = subprocess.run([sys.executable, report, "--rst", str(page)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = page.read_text(encoding="utf-8").split("   * - ")[1:]
    assert len(rows) == len(apiref.entries()) + 1  # and the header row
    fill = next(r for r in rows if r.startswith("``pycl.enqueue_fill``"))
    assert "- difference" in fill and "PyOpenCL's actual signature" in fill
    svm = next(r for r in rows if r.startswith("``pycl.SVMAllocation``"))
    assert "- implemented" in svm and "needs SVM" in svm


def test_default_command_unchanged():
    result = subprocess.run([sys.executable, "-m", "pycl"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("pycl ")
    assert "Where pycl looked:" in result.stdout
    assert "reference names" not in result.stdout


# }}}
