"""docs/differences.md's audit of PyOpenCL 2026.1.4's public names, against pycl.

The section "Audit of PyOpenCL 2026.1.4's public names" has one table per
PyOpenCL namespace (``### `pyopencl` ``) and one per class with members
(``### Members of `pyopencl.Buffer` (besides those of `pyopencl.MemoryObject`)``),
rows ``| `name` | status | reason |``, and ``- Out of scope: `a`, `b`: why.``
lines. Without PyOpenCL (PyPy has none) the tables are checked against pycl
alone: a name marked same or different exists in pycl at that place, a name
marked not provided does not, and the stated counts add up. Where PyOpenCL is
installed, the tables are also checked against it: every public name of the
three namespaces and every member of an audited class is listed, every
listed name is still PyOpenCL's, and every constant class has PyOpenCL's
constants.
"""

import collections
import inspect
import os
import re

import pytest

import pycl
import pycl._cl
import pycl.characterize
import pycl.tools
from pycl import _info
from pycl import errors as _errors
from pycl.image import Image as _Image
from pycl.pipe import Pipe as _Pipe

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "differences.md")
SECTION = "## Audit of PyOpenCL 2026.1.4's public names"
STATUSES = ("same", "different", "not provided")
# PyOpenCL's namespaces and pycl's places for them
NAMESPACES = {
    "pyopencl": pycl,
    "pyopencl.tools": pycl.tools,
    "pyopencl.characterize": pycl.characterize,
    "pyopencl._cl": pycl._cl,
}

_HEADING = re.compile(r"^### (Members of )?`(pyopencl[\w.]*)`(?: \(besides those of `(pyopencl[\w.]*)`\))?$")
_ROW = re.compile(r"^\| `(\w+)` \| (same|different|not provided) \|(.*)\|$")
_OUT_OF_SCOPE = re.compile(r"^- Out of scope: (`\w+`(?:, `\w+`)*): (.+)\.$")
_COUNTS = re.compile(
    r"In scope: (\d+) names \(same: (\d+), different: (\d+), not provided: (\d+)\); out of scope: (\d+) names\."
)

Row = collections.namedtuple("Row", "name status reason")


class Table:
    """One ``###`` table: ``owner`` is a PyOpenCL namespace or class name."""

    def __init__(self, owner, members, base):
        self.owner = owner
        self.members = members  # a class's members, not a namespace's names
        self.base = base  # the audited base class whose members are not repeated here
        self.rows = []
        self.out_of_scope = []  # (names, reason)


def read_section(path=DOC):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert SECTION in lines, "docs/differences.md has no %r section" % SECTION
    start = lines.index(SECTION) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def parse(lines):
    """``(tables by owner, stated counts)`` from the section's lines."""
    tables, table, in_code = {}, None, False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        heading = _HEADING.match(line)
        if heading:
            owner = heading.group(2)
            assert owner not in tables, "two tables for %s" % owner
            table = tables[owner] = Table(owner, bool(heading.group(1)), heading.group(3))
            continue
        if line.startswith("### "):
            table = None  # prose subsection (how the list was made)
            continue
        if line.startswith("|"):
            if line in ("| Name | Status | Reason |", "| --- | --- | --- |"):
                continue
            row = _ROW.match(line)
            assert row and table is not None, "line %d of the section is not a table row: %r" % (number, line)
            table.rows.append(Row(row.group(1), row.group(2), row.group(3).strip()))
            continue
        if line.startswith("- Out of scope:"):
            match = _OUT_OF_SCOPE.match(line)
            assert match and table is not None, "line %d of the section: bad out-of-scope line %r" % (number, line)
            names = re.findall(r"`(\w+)`", match.group(1))
            table.out_of_scope.append((names, match.group(2)))
    counts = _COUNTS.search(" ".join(lines))
    assert counts, "the section states no counts"
    keys = ("in scope", "same", "different", "not provided", "out of scope")
    return tables, dict(zip(keys, map(int, counts.groups())))


@pytest.fixture(scope="module")
def audit():
    return parse(read_section())


@pytest.fixture(scope="module")
def tables(audit):
    return audit[0]


def _namespace_of(owner):
    """The longest PyOpenCL namespace that ``owner`` starts with."""
    for name in sorted(NAMESPACES, key=len, reverse=True):
        if owner == name or owner.startswith(name + "."):
            return name
    raise AssertionError("%s is in no audited namespace" % owner)


def pycl_place(owner):
    """pycl's module or class for a PyOpenCL namespace or class name."""
    namespace = _namespace_of(owner)
    place = NAMESPACES[namespace]
    for part in owner[len(namespace) :].split(".")[1:]:
        place = getattr(place, part)
    return place


def _info_kinds(cls):
    kinds = {getattr(cls, "_info_kind", None)}
    if issubclass(cls, _Image):
        kinds.add("image")
    if issubclass(cls, _Pipe):
        kinds.add("pipe")
    kinds.discard(None)
    return kinds


def pycl_has(place, name):
    """Whether pycl has ``name`` at ``place`` (a module or a class). A class
    member is defined by the class or a base, is an info attribute that the
    class's info tables answer (``pycl._info.InfoAttribute``), or (exceptions)
    is set on instances."""
    if inspect.ismodule(place):
        return hasattr(place, name)
    for klass in place.__mro__:
        if klass is object:
            break
        if name in vars(klass):
            return True
    if issubclass(place, BaseException):
        probe = _errors.logic_error("test_audit", "probe")
        return isinstance(probe, place) and hasattr(probe, name)
    return any(_info.param_for_attribute(kind, name) is not None for kind in _info_kinds(place))


# {{{ the section itself


def test_section_parses(tables):
    for owner in NAMESPACES:
        assert owner in tables, "no table for %s" % owner
        assert not tables[owner].members
    for table in tables.values():
        names = [row.name for row in table.rows] + [n for names, _ in table.out_of_scope for n in names]
        duplicates = sorted(n for n, k in collections.Counter(names).items() if k > 1)
        assert not duplicates, "%s lists %s twice" % (table.owner, duplicates)
        if table.members:
            assert not table.out_of_scope, "%s: members of an audited class are all in scope" % table.owner
        for row in table.rows:
            if row.status != "same":
                assert row.reason, "%s.%s is %s without a reason" % (table.owner, row.name, row.status)


def test_counts(audit):
    tables, stated = audit
    counted = collections.Counter(row.status for table in tables.values() for row in table.rows)
    out_of_scope = sum(len(names) for table in tables.values() for names, _ in table.out_of_scope)
    assert stated == {
        "in scope": sum(counted.values()),
        "same": counted["same"],
        "different": counted["different"],
        "not provided": counted["not provided"],
        "out of scope": out_of_scope,
    }


def _slug(heading):
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_resolve():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    anchors = {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}
    links = re.findall(r"\]\(#([^)]+)\)", "\n".join(read_section()))
    assert links
    assert sorted(set(links) - anchors) == []


def test_member_tables_have_owners(tables):
    """Each class with a member table is in its namespace's table (same or
    different), and the base it inherits members from is its base in pycl."""
    for table in tables.values():
        if not table.members:
            continue
        namespace, _, name = table.owner.rpartition(".")
        assert namespace in tables, "no table for the namespace of %s" % table.owner
        rows = {row.name: row for row in tables[namespace].rows}
        assert name in rows, "%s has members listed but is not in the %s table" % (name, namespace)
        assert rows[name].status != "not provided", "%s is not provided but has members listed" % table.owner
        if table.base is not None:
            assert table.base in tables and tables[table.base].members, (
                "%s inherits from %s, which has no member table" % (table.owner, table.base)
            )
            assert issubclass(pycl_place(table.owner), pycl_place(table.base))


# }}}


# {{{ against pycl


def _owners():
    try:
        return sorted(parse(read_section())[0])
    except AssertionError:
        return []  # test_section_parses reports it


@pytest.mark.parametrize("owner", _owners())
def test_names_in_pycl(tables, owner):
    """Same and different names exist in pycl at the stated place; names not
    provided do not."""
    place = pycl_place(owner)
    problems = []
    for row in tables[owner].rows:
        present = pycl_has(place, row.name)
        if row.status == "not provided" and present:
            problems.append("%s is marked not provided but pycl has it" % row.name)
        elif row.status != "not provided" and not present:
            problems.append("%s is marked %s but pycl lacks it" % (row.name, row.status))
    assert not problems, "%s (pycl: %s): %s" % (owner, getattr(place, "__name__", place), "; ".join(problems))


# }}}


# {{{ against PyOpenCL, where installed


@pytest.fixture(scope="module")
def ocl():
    try:
        import pyopencl
        import pyopencl._cl
        import pyopencl.characterize
        import pyopencl.tools
    except ImportError:
        pytest.skip("PyOpenCL is not installed (PyPy has no PyOpenCL): the audit is checked against pycl only")
    if not hasattr(pyopencl, "Buffer"):
        pytest.skip("pyopencl is the namespace package of the pip device wheels, not PyOpenCL")
    return pyopencl


def _ocl_place(ocl, owner):
    place = ocl
    for part in owner.split(".")[1:]:
        place = getattr(place, part)
    return place


def _public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def _own_members(cls, audited):
    """Public names of ``cls`` less those of its nearest audited base and of
    builtin (and typing) bases, as the section says."""
    names = _public(cls)
    for base in cls.__mro__[1:]:
        if base in audited or base.__module__ in ("builtins", "typing"):
            names -= _public(base)
        if base in audited:
            break
    return names


def _nearest_audited_base(cls, audited):
    return next((base for base in cls.__mro__[1:] if base in audited), None)


def test_pyopencl_namespaces_complete(ocl, tables):
    for owner in ("pyopencl", "pyopencl.tools", "pyopencl.characterize"):
        table = tables[owner]
        listed = {row.name for row in table.rows} | {n for names, _ in table.out_of_scope for n in names}
        public = _public(_ocl_place(ocl, owner))
        assert sorted(public - listed) == [], "public names of %s missing from the audit" % owner
        assert sorted(listed - public) == [], "names of %s in the audit that PyOpenCL no longer has" % owner


def test_listed_names_are_pyopencl_names(ocl, tables):
    missing = []
    for table in tables.values():
        place = _ocl_place(ocl, table.owner)
        missing += ["%s.%s" % (table.owner, row.name) for row in table.rows if not hasattr(place, row.name)]
    assert missing == []


def test_pyopencl_class_members_complete(ocl, tables):
    """Every audited class with own public members has a table with exactly
    those (plus the semi-private names the section adds), inheriting from the
    base PyOpenCL's class has."""
    audited = {_ocl_place(ocl, owner): owner for owner, table in tables.items() if table.members}
    # A pycl alias of an audited class (MemoryObjectHolder is MemoryObject)
    # has its members audited in that class's table.
    audited_in_pycl = {pycl_place(owner): owner for owner, table in tables.items() if table.members}
    problems = []
    for owner, table in tables.items():
        if table.members:
            continue
        for row in table.rows:
            obj = getattr(_ocl_place(ocl, owner), row.name, None)  # absent: test_listed_names_are_pyopencl_names
            if row.status == "not provided" or not inspect.isclass(obj) or hasattr(obj, "to_string"):
                continue  # constant classes: see test_constant_classes
            alias_of = audited_in_pycl.get(getattr(pycl_place(owner), row.name))
            if alias_of not in (None, "%s.%s" % (owner, row.name)):
                continue
            members = _own_members(obj, audited)
            if not members:
                continue
            full = "%s.%s" % (owner, row.name)
            if full not in tables:
                problems.append("%s has members %s but no table" % (full, sorted(members)))
                continue
            listed = {r.name for r in tables[full].rows if not r.name.startswith("_")}
            if listed != members:
                problems.append(
                    "%s: table lacks %s, lists %s" % (full, sorted(members - listed), sorted(listed - members))
                )
            base = audited.get(_nearest_audited_base(obj, audited))
            if base != tables[full].base:
                problems.append("%s: its audited base is %s, the heading says %s" % (full, base, tables[full].base))
    assert problems == []


def test_constant_classes(ocl, tables):
    """Each constant class listed as same or different has every PyOpenCL
    constant, with PyOpenCL's value."""
    problems = []
    for row in tables["pyopencl"].rows:
        obj = getattr(ocl, row.name, None)
        if row.status == "not provided" or not (inspect.isclass(obj) and hasattr(obj, "to_string")):
            continue
        mine = getattr(pycl, row.name)
        for name in _public(obj):
            if name.isupper() and getattr(mine, name, None) != int(getattr(obj, name)):
                problems.append("%s.%s" % (row.name, name))
    assert problems == []


# }}}

# vim: foldmethod=marker
