"""The reference API: PyOpenCL's documentation of its memory API, read as data
and checked against pycl.

The pages are in ``tools/reference/`` beside this module (NOTICE there names
their source and license): ``runtime_memory.rst`` (the source of "OpenCL Runtime:
Memory"), ``runtime_memory_rendered.txt`` (the same page rendered) and
``tools_memory_pools.txt`` (``pyopencl.tools`` and ``pyopencl.characterize``,
rendered). ``entries()`` reads them into ``Entry`` objects, one per documented
name:

- every ``.. class::``, ``.. function::``, ``.. method::``, ``.. attribute::``
  and ``.. auto*::`` directive of the ``.rst`` (``.. currentmodule::`` and
  indentation put methods and attributes on their class, ``|comparable|``
  marks the class);
- every entry of the rendered pages: lines ending in ``#`` such as
  ``class pyopencl.tools.MemoryPool#`` or ``pyopencl.svm_empty(ctx, flags,
  shape, dtype, order='C', alignment=None, queue=None)[source]#``, with the
  unqualified entries after a class (``allocate(self: ..., size: int) ...#``,
  ``property buf#``) as its members, until the next qualified entry or
  section heading;
- the names the pages refer to: ``:class:``/``:func:`` targets of the
  ``.rst`` and ``pyopencl.*`` names in the rendered text, including the
  ``pyopencl._cl.*`` types of the signatures. ``pyopencl.array`` is left out:
  pycl has no array module (it runs PyOpenCL's own: docs/design.md,
  "PyOpenCL's Python layer").

Where the pages differ, the rendered page gives the signature and the union
gives the names (docs/design.md, "The object model"). ``check(entry)``
compares one entry with pycl: the name at the same place (``pyopencl.tools.X``
is ``pycl.tools.X``, methods and attributes on their class), the documented
parameters (names, kinds, defaults; a leading ``self`` and pybind11's unnamed
``argN`` names are not compared), ``==``/hash defined on comparable classes,
and the lower-case info attributes that an ``info`` entry promises.
``differences()`` reads the deliberate differences listed in
``docs/differences.md`` ("API differences checked by tests").
tools/api_report.py (the documentation's coverage page) and
tests/test_api_reference.py use this module; none of it is installed.
"""

import ast
import builtins
import importlib
import inspect
import os
import re

__all__ = [
    "REFERENCE_DIR",
    "RST_FILE",
    "RENDERED_FILES",
    "DIFFERENCES_HEADING",
    "NO_DEFAULT",
    "ANY_DEFAULT",
    "Param",
    "Entry",
    "Unavailable",
    "parse_rst",
    "parse_rendered",
    "parse_params",
    "format_params",
    "entries",
    "resolve",
    "compare_params",
    "check",
    "differences",
    "DIFFERENCES_PATH",
    "requirement",
]

REFERENCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
RST_FILE = "runtime_memory.rst"
RENDERED_FILES = ("runtime_memory_rendered.txt", "tools_memory_pools.txt")
DIFFERENCES_HEADING = "## API differences checked by tests"

_P = inspect.Parameter
NO_DEFAULT = "<no default>"
ANY_DEFAULT = "<optional>"  # ``[a, b]`` in a rendered signature: optional, value unstated


class Param:
    """One documented parameter: ``name``, ``kind`` (an ``inspect.Parameter``
    kind; POSITIONAL_ONLY for pybind11's ``argN``), ``default`` (its source
    text, ``NO_DEFAULT`` or ``ANY_DEFAULT``)."""

    __slots__ = ("name", "kind", "default")

    def __init__(self, name, kind=_P.POSITIONAL_OR_KEYWORD, default=NO_DEFAULT):
        self.name = name
        self.kind = kind
        self.default = default

    def __eq__(self, other):
        return isinstance(other, Param) and (self.name, self.kind, self.default) == (
            other.name,
            other.kind,
            other.default,
        )

    def __repr__(self):
        return "Param(%r, %s, %r)" % (self.name, self.kind, self.default)

    def text(self):
        prefix = {_P.VAR_POSITIONAL: "*", _P.VAR_KEYWORD: "**"}.get(self.kind, "")
        if self.default == NO_DEFAULT:
            return prefix + self.name
        if self.default == ANY_DEFAULT:
            return "[%s]" % self.name
        return "%s=%s" % (self.name, self.default)


def format_params(params):
    """``(a, b=1, *, c=None)`` for a list of ``Param``."""
    parts, star = [], False
    for p in params:
        if p.kind == _P.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind == _P.VAR_POSITIONAL:
            star = True
        parts.append(p.text())
    return "(%s)" % ", ".join(parts)


class Entry:
    """A documented name. ``ref``: as documented (``pyopencl.tools.MemoryPool``);
    ``name``: where pycl has it (``pycl.tools.MemoryPool``); ``kind``:
    class, exception, function, method, attribute or reference (a name the
    pages mention); ``params``: a list of ``Param`` or None (no signature
    given); ``sources``: ``file:line`` strings; ``comparable``: None,
    ``"handle"`` (``|comparable|``: ==/hash by the OpenCL handle) or
    ``"structural"``; ``info_classes``: for an ``info`` attribute, the
    constant classes (``mem_info``, ...) whose lower-case names are
    attributes."""

    __slots__ = ("ref", "kind", "params", "sources", "comparable", "info_classes")

    def __init__(self, ref, kind, params=None, source=None):
        self.ref = ref
        self.kind = kind
        self.params = params
        self.sources = [source] if source else []
        self.comparable = None
        self.info_classes = ()

    @property
    def name(self):
        return "pycl" + self.ref[len("pyopencl") :]

    @property
    def owner(self):
        """The class ref of a method or attribute, else None."""
        return self.ref.rsplit(".", 1)[0] if self.kind in ("method", "attribute") else None

    def __repr__(self):
        return "<Entry %s %s%s>" % (self.kind, self.ref, format_params(self.params) if self.params is not None else "")


# {{{ signatures


def _split_top(text, sep=","):
    """Split at ``sep`` outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_params(text):
    """The parameters of a documented signature (``text`` without the outer
    parentheses): ``"queue, *, flags: int, size: Optional[int] = None"``."""
    params, kind = [], _P.POSITIONAL_OR_KEYWORD
    for part in _split_top(text):
        if part.startswith("["):  # [channel_order, channel_type]: optional arguments
            for inner in _split_top(part.replace("[", "").replace("]", "")):
                params.append(Param(inner.split(":")[0].strip(), kind, ANY_DEFAULT))
            continue
        if part == "*":
            kind = _P.KEYWORD_ONLY
            continue
        if part == "/":
            for p in params:
                p.kind = _P.POSITIONAL_ONLY
            continue
        if part.startswith("**"):
            params.append(Param(part[2:].split(":")[0].strip(), _P.VAR_KEYWORD))
            continue
        if part.startswith("*"):
            params.append(Param(part[1:].split(":")[0].strip(), _P.VAR_POSITIONAL))
            kind = _P.KEYWORD_ONLY
            continue
        head, eq, default = part.partition("=")
        name = head.split(":")[0].strip()
        if not re.match(r"^[A-Za-z_]\w*$", name):
            raise ValueError("cannot read parameter %r of (%s)" % (part, text))
        this_kind = _P.POSITIONAL_ONLY if re.match(r"^arg\d+$", name) and kind != _P.KEYWORD_ONLY else kind
        params.append(Param(name, this_kind, default.strip() if eq else NO_DEFAULT))
    if params and params[0].name == "self":
        params.pop(0)
    return params


# }}}


# {{{ parsing the pages

_RST_DIRECTIVE = re.compile(
    r"^(?P<indent> *)\.\. (?:auto)?(?P<what>class|function|method|attribute|exception)::\s*"
    r"(?P<name>[A-Za-z_][\w.]*)\s*(?:\((?P<args>.*)\))?\s*$"
)
_RST_MODULE = re.compile(r"^\.\. currentmodule::\s*(\S+)\s*$")
_RST_ROLE = re.compile(r"(?<!\w):(?:py:)?(class|func|attr|meth|exc):`~?([A-Za-z_][\w.]*)(?:\(\))?`")
_RENDERED_ENTRY = re.compile(
    r"^(?:(?P<prefix>class|exception|static|property|classmethod)\s+)?"
    r"(?P<name>[A-Za-z_][\w.]*)"
    r"(?:\((?P<args>.*)\)(?P<ret>\s+\S.*?)?)?"
    r"(?P<source>\[source\])?#$"
)
_QUALIFIED = re.compile(r"\bpyopencl(?:\.[A-Za-z_]\w*)+")
_LEFT_OUT = ("pyopencl.array",)  # no array module in pycl (docs/design.md, "PyOpenCL's Python layer")
_KIND = {
    "class": "class",
    "exception": "exception",
    "function": "function",
    "method": "method",
    "attribute": "attribute",
    "static": "method",
    "classmethod": "method",
    "property": "attribute",
}


class _Raw:
    """A parsed entry before the pages are merged."""

    __slots__ = ("ref", "kind", "params", "source", "body", "comparable")

    def __init__(self, ref, kind, params, source):
        self.ref = ref
        self.kind = kind
        self.params = params
        self.source = source
        self.body = []
        self.comparable = None


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def parse_rst(text, filename=RST_FILE):
    """``(entries, references)`` of an ``.rst`` page: entries as ``_Raw``
    objects, references as ``(ref, "file:line")`` pairs."""
    module = "pyopencl"
    raws, refs = [], []
    classes = []  # stack of (indent, _Raw) of the enclosing classes
    current, current_indent = None, 0  # the _Raw whose body the following lines belong to
    for number, line in enumerate(text.splitlines(), 1):
        where = "%s:%d" % (filename, number)
        stripped = line.strip()
        match = _RST_MODULE.match(line)
        if match:
            module, classes, current = match.group(1), [], None
            continue
        match = _RST_DIRECTIVE.match(line)
        if match:
            indent = len(match.group("indent"))
            while classes and classes[-1][0] >= indent:
                classes.pop()
            what, name = match.group("what"), match.group("name")
            args = match.group("args")
            params = parse_params(args) if args is not None else None
            if what in ("method", "attribute"):
                if not classes:
                    raise ValueError("%s: %s %r outside a class" % (where, what, name))
                ref = classes[-1][1].ref + "." + name
            else:
                ref = name if name.startswith("pyopencl.") else module + "." + name
            current, current_indent = _Raw(ref, _KIND[what], params, where), indent
            raws.append(current)
            if what in ("class", "exception"):
                classes.append((indent, current))
            continue
        if not stripped:
            if current is not None:
                current.body.append("")
            continue
        indent = _indent(line)
        while classes and classes[-1][0] >= indent:
            classes.pop()
        if current is not None and indent <= current_indent:
            current = None
        if stripped == "|comparable|":
            if not classes:
                raise ValueError("%s: |comparable| outside a class" % where)
            classes[-1][1].comparable = "handle"
        if current is not None:
            current.body.append(stripped)
        context = classes[-1][1].ref if classes else None
        for role, target in _RST_ROLE.findall(line):
            refs.append((_qualify(target, module, context, role), where))
    return raws, refs


def _qualify(target, module, context, role):
    """The full ``pyopencl...`` name of a role's target, or None for names
    outside pyopencl (numpy, builtins)."""
    if target.startswith("pyopencl.") or target == "pyopencl":
        return target
    head = target.split(".")[0]
    if head == "numpy" or (role != "meth" and "." not in target and hasattr(builtins, target)):
        return None
    if role in ("meth", "attr") and "." not in target:
        return context + "." + target if context else None
    return module + "." + target


def parse_rendered(text, filename):
    """``(entries, references)`` of a rendered page (see the module docstring)."""
    raws, refs = [], []
    cls = None  # the _Raw of the class whose members follow
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        where = "%s:%d" % (filename, number)
        match = _RENDERED_ENTRY.match(line.strip()) if line.endswith("#") else None
        if match:
            prefix, name, args = match.group("prefix"), match.group("name"), match.group("args")
            qualified = name.startswith("pyopencl.")
            if not qualified and not prefix and args is None and not match.group("source") and name[0].isupper():
                cls = current = None  # a section heading
                continue
            params = parse_params(args) if args is not None else None
            for ref in _QUALIFIED.findall(match.group("args") or "") + _QUALIFIED.findall(match.group("ret") or ""):
                refs.append((ref, where))
            if qualified:
                kind = _KIND.get(prefix, "function")
                current = _Raw(name, kind, params, where)
                cls = current if kind in ("class", "exception") else None
            else:
                if cls is None:
                    raise ValueError("%s: member %r outside a class" % (where, name))
                kind = _KIND.get(prefix, "method" if args is not None else "attribute")
                current = _Raw(cls.ref + "." + name, kind, params, where)
            raws.append(current)
            continue
        if current is not None:
            current.body.append(line.strip())
        if cls is not None:
            if "Instances of this class are hashable, and two instances" in line:
                cls.comparable = "handle"
            elif "Supports structural equality and hashing" in line:
                cls.comparable = "structural"
        for ref in _QUALIFIED.findall(line):
            refs.append((ref, where))
    return raws, refs


def _read(name, folder):
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        return f.read()


def _info_classes(body):
    text = " ".join(body)
    if "Lower case versions of the" not in text:
        return ()
    sentence = text.split("Lower case versions of the", 1)[1].split("constants", 1)[0]
    return tuple(re.findall(r"\b([a-z]\w*_info)\b", sentence))


def entries(folder=REFERENCE_DIR):
    """Every documented name, merged from the three pages, as ``Entry``
    objects in page order."""
    merged = {}

    def add(raw, rendered):
        entry = merged.get(raw.ref)
        if entry is None:
            entry = merged[raw.ref] = Entry(raw.ref, raw.kind, raw.params, raw.source)
        else:
            entry.sources.append(raw.source)
            if entry.kind == "reference":
                entry.kind = raw.kind
            if raw.params is not None and (rendered or entry.params is None):
                entry.params = raw.params
        entry.comparable = entry.comparable or raw.comparable
        entry.info_classes = entry.info_classes or _info_classes(raw.body)

    all_refs = []
    raws, refs = parse_rst(_read(RST_FILE, folder), RST_FILE)
    for raw in raws:
        add(raw, False)
    all_refs += refs
    for filename in RENDERED_FILES:
        raws, refs = parse_rendered(_read(filename, folder), filename)
        for raw in raws:
            add(raw, True)
        all_refs += refs
    for ref, where in all_refs:
        if ref is None or ref == "pyopencl" or ref.startswith(_LEFT_OUT):
            continue
        if ref in merged:
            continue
        merged[ref] = Entry(ref, "reference", None, where)
    return [e for e in merged.values() if not e.ref.startswith(_LEFT_OUT)]


# }}}


# {{{ checking against pycl

_MODULES = ("pycl.characterize", "pycl.tools", "pycl._cl", "pycl")


class Unavailable(Exception):
    """The name cannot be looked up here (e.g. a test-only dependency)."""


def resolve(name):
    """``(owner, obj)`` for a pycl name: ``owner`` is the class or module that
    holds ``obj``. ``AttributeError`` if pycl has no such name."""
    for module in _MODULES:
        if name == module or name.startswith(module + "."):
            obj = owner = importlib.import_module(module)
            for part in name[len(module) + 1 :].split(".") if name != module else ():
                owner = obj
                try:
                    obj = getattr(obj, part)
                except ImportError as error:  # pycl.tools' pytest parametrisation needs pytest
                    raise Unavailable("needs %s (pip install 'pycl-cffi[test]')" % error.name) from None
            return owner, obj
    raise AttributeError("%s is outside pycl" % name)


def _default_value(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    if re.match(r"^pyopencl(\.\w+)+$", text):
        return resolve("pycl" + text[len("pyopencl") :])[1]
    raise ValueError("cannot evaluate the documented default %r" % text)


def _same_default(documented, actual):
    if documented == ANY_DEFAULT:
        return actual is not _P.empty
    if documented == NO_DEFAULT:
        return actual is _P.empty
    if actual is _P.empty:
        return False
    expected = _default_value(documented)
    if isinstance(expected, bool) or isinstance(actual, bool):  # True is no 1 here
        return type(expected) is type(actual) and expected == actual
    return expected == actual


def _actual_params(signature):
    out = []
    for p in signature.parameters.values():
        default = NO_DEFAULT if p.default is _P.empty else repr(p.default)
        out.append(Param(p.name, p.kind, default))
    return out


def compare_params(documented, signature):
    """Problems (strings) between documented ``Param``s and an
    ``inspect.Signature``; empty if they agree."""
    actual = list(signature.parameters.values())
    problems = []
    for i, doc in enumerate(documented):
        if i >= len(actual):
            problems.append("no parameter %r" % doc.name)
            continue
        act = actual[i]
        if doc.kind == _P.POSITIONAL_ONLY:  # pybind11's argN: a position, not a name
            if act.kind not in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD):
                problems.append("parameter %d (%s) is %s" % (i + 1, act.name, act.kind.description))
        else:
            if act.name != doc.name:
                problems.append("parameter %d is %r, documented %r" % (i + 1, act.name, doc.name))
                continue
            if act.kind != doc.kind:
                problems.append("%r is %s, documented %s" % (doc.name, act.kind.description, doc.kind.description))
        if doc.kind not in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD):
            try:
                same = _same_default(doc.default, act.default)
            except (ValueError, AttributeError) as error:
                problems.append("%r: %s" % (doc.name, error))
                continue
            if not same:
                problems.append(
                    "%r defaults to %s, documented %s"
                    % (
                        doc.name,
                        "nothing" if act.default is _P.empty else repr(act.default),
                        "nothing" if doc.default == NO_DEFAULT else doc.default,
                    )
                )
    for act in actual[len(documented) :]:
        problems.append("extra parameter %r (not documented)" % act.name)
    if problems:
        problems.append(
            "documented %s, pycl has %s" % (format_params(documented), format_params(_actual_params(signature)))
        )
    return problems


def _signature_of(entry, owner, obj):
    """The ``inspect.Signature`` to compare with the entry's parameters."""
    if entry.kind in ("class", "exception"):
        return inspect.signature(obj)
    if entry.kind == "method" and inspect.isclass(owner):
        static = None
        for klass in inspect.getmro(owner):
            if entry.ref.rsplit(".", 1)[1] in vars(klass):
                static = vars(klass)[entry.ref.rsplit(".", 1)[1]]
                break
        signature = inspect.signature(obj)
        if isinstance(static, (staticmethod, classmethod)):
            return signature
        parameters = list(signature.parameters.values())
        if inspect.isfunction(obj) and parameters:  # unbound: drop self
            return signature.replace(parameters=parameters[1:])
        return signature
    return inspect.signature(obj)


def _defined_by_pycl(owner, member):
    """False if ``owner.member`` only comes from ``object`` (``__repr__``)."""
    for klass in inspect.getmro(owner):
        if klass is object:
            return False
        if member in vars(klass):
            return True
    return False


def _check_info(entry, owner):
    problems = []
    import pycl
    from pycl import _info

    for info_class in entry.info_classes:
        constants = getattr(pycl, info_class, None)
        if constants is None:
            problems.append("pycl.%s is missing" % info_class)
            continue
        kind = info_class[: -len("_info")]
        for name in dir(constants):
            if not name.isupper():
                continue
            if _info.param_for_attribute(kind, name.lower()) is None:
                if not hasattr(owner, name):
                    problems.append("%s.%s is not decoded as an attribute" % (info_class, name))
            elif not hasattr(owner, name.lower()):
                problems.append("%s has no info attribute %s" % (owner.__name__, name.lower()))
    return problems


def check(entry):
    """``(status, problems)`` for one entry: status ``"ok"``, ``"missing"``
    (pycl has no such name), ``"different"`` (the name is there; its
    signature or behaviour differs: ``problems`` says how) or
    ``"unavailable"`` (cannot be looked up in this installation)."""
    member = entry.ref.rsplit(".", 1)[1]
    if entry.kind == "attribute" and member == "info" and entry.info_classes:
        try:
            _, owner = resolve(entry.name.rsplit(".", 1)[0])
        except AttributeError as error:
            return "missing", [str(error)]
        problems = _check_info(entry, owner)
        return ("different" if problems else "ok"), problems
    try:
        owner, obj = resolve(entry.name)
    except Unavailable as error:
        return "unavailable", [str(error)]
    except AttributeError as error:
        return "missing", [str(error)]
    problems = []
    if entry.kind in ("method", "attribute") and inspect.isclass(owner) and not _defined_by_pycl(owner, member):
        return "missing", ["%s only has object's %s" % (owner.__name__, member)]
    if entry.kind in ("class", "exception") and not inspect.isclass(obj):
        problems.append("is a %s, not a class" % type(obj).__name__)
    if entry.kind == "exception" and inspect.isclass(obj) and not issubclass(obj, BaseException):
        problems.append("is not an exception class")
    if entry.kind in ("function", "method") and not callable(obj):
        problems.append("is not callable")
    if entry.params is not None and not problems:
        try:
            signature = _signature_of(entry, owner, obj)
        except (TypeError, ValueError) as error:
            problems.append("no signature: %s" % error)
        else:
            problems += compare_params(entry.params, signature)
    if entry.comparable and inspect.isclass(obj):
        if obj.__eq__ is object.__eq__ or obj.__hash__ is None or obj.__hash__ is object.__hash__:
            problems.append("documented comparable and hashable; %s keeps object's == or hash" % obj.__name__)
    return ("different" if problems else "ok"), problems


# }}}


# {{{ the list of deliberate differences


# docs/ is beside tools/ in a checkout, in the sdist, and in the copy
# tools/test-wheel.sh runs the suite from.
DIFFERENCES_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "differences.md")


def differences(path=None):
    """``{pycl name: reason}`` from the "API differences checked by tests"
    section of ``docs/differences.md``: one bullet per name,
    ``- `pycl.X`: reason`` (continuation lines indented)."""
    path = path or DIFFERENCES_PATH
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, inside, last = {}, False, None
    for line in lines:
        if line.startswith("## "):
            inside = line.strip() == DIFFERENCES_HEADING
            last = None
            continue
        if not inside:
            continue
        match = re.match(r"^- `(pycl[\w.]*)`: (.+)$", line)
        if match:
            last = match.group(1)
            if last in out:
                raise ValueError("%s: %s is listed twice" % (path, last))
            out[last] = match.group(2).strip()
        elif last is not None and line.startswith("  ") and line.strip():
            out[last] += " " + line.strip()
        else:
            last = None
    return out


# }}}


# {{{ what each name needs from a device


def _svm(device):
    from pycl.characterize import has_coarse_grain_buffer_svm

    return has_coarse_grain_buffer_svm(device)


def _fine_svm(device):
    from pycl.characterize import has_fine_grain_buffer_svm

    return has_fine_grain_buffer_svm(device)


def _pipes(device):
    return device.cl_version >= (2, 0) and (device.cl_version < (3, 0) or device.pipe_support)


# (names: the name itself and its members, what it needs, test on a Device)
_NEEDS = (
    (
        ("pycl.enqueue_svm_migratemem", "pycl.enqueue_svm_migrate_mem"),
        "OpenCL 2.1 and SVM",
        lambda d: d.cl_version >= (2, 1) and _svm(d),
    ),
    (("pycl.fsvm_empty", "pycl.fsvm_empty_like"), "fine-grain buffer SVM", _fine_svm),
    (
        (
            "pycl.SVM",
            "pycl.SVMPointer",
            "pycl.SVMAllocation",
            "pycl.SVMMap",
            "pycl.svm_empty",
            "pycl.svm_empty_like",
            "pycl.csvm_empty",
            "pycl.csvm_empty_like",
            "pycl.enqueue_svm_memfill",
            "pycl.tools.SVMAllocator",
            "pycl.tools.SVMPool",
            "pycl.tools.PooledSVM",
            "pycl._cl.SVM",
            "pycl._cl.SVMPointer",
            "pycl._cl.SVMAllocation",
            "pycl._cl.SVMAllocator",
            "pycl._cl.SVMPool",
            "pycl._cl.PooledSVM",
        ),
        "SVM",
        _svm,
    ),
    (
        (
            "pycl.Image",
            "pycl.create_image",
            "pycl.image_from_array",
            "pycl.enqueue_fill_image",
            "pycl.enqueue_map_image",
            "pycl.Sampler",
            "pycl._cl.Image",
            "pycl._cl.Sampler",
        ),
        "image support",
        lambda d: d.image_support,
    ),
    (("pycl.Pipe", "pycl._cl.Pipe"), "pipes", _pipes),
    (
        ("pycl.enqueue_copy_buffer_p2p_amd",),
        "the platform extension cl_amd_copy_buffer_p2p",
        lambda d: "cl_amd_copy_buffer_p2p" in d.platform.extensions.split(),
    ),
    (
        ("pycl.enqueue_fill_buffer", "pycl.enqueue_migrate_mem_objects"),
        "OpenCL 1.2",
        lambda d: d.cl_version >= (1, 2),
    ),
)


def requirement(name):
    """``(what, test)`` for a name that needs a device feature (``test(device)``
    says whether the device has it), or None."""
    for names, what, test in _NEEDS:
        for root in names:
            if name == root or name.startswith(root + "."):
                return what, test
    return None


# }}}
