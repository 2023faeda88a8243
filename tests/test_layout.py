"""The package's layout, as installed: internal modules carry a leading
underscore, the import graph between pycl's modules has no cycles (imports
inside functions and under TYPE_CHECKING count too), and developer tooling
is not part of the package."""

import ast
import os

import pycl

PACKAGE = os.path.dirname(os.path.abspath(pycl.__file__))


# Subpackages: their modules are named "mpi.comm", their __init__ "mpi".
SUBPACKAGES = ("mpi",)


def _modules():
    found = [name[:-3] for name in os.listdir(PACKAGE) if name.endswith(".py")]
    for package in SUBPACKAGES:
        for name in os.listdir(os.path.join(PACKAGE, package)):
            if name.endswith(".py"):
                found.append(package if name == "__init__.py" else "%s.%s" % (package, name[:-3]))
    return sorted(found)


def _path(module):
    parts = module.split(".")
    if parts[0] in SUBPACKAGES:
        return os.path.join(PACKAGE, *parts) + ".py" if len(parts) > 1 else os.path.join(PACKAGE, module, "__init__.py")
    return os.path.join(PACKAGE, module + ".py")


def _imports(module):
    """The pycl modules that ``module`` imports anywhere in its source."""
    with open(_path(module), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set(_modules())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "pycl":
            dotted = node.module[len("pycl.") :] if "." in node.module else ""
            if dotted and dotted not in SUBPACKAGES:
                found.add(dotted)
                continue
            # from pycl[.package] import x: a module, or a name of the package's __init__
            for alias in node.names:
                name = "%s.%s" % (dotted, alias.name) if dotted else alias.name
                found.add(name if name in names else dotted or "__init__")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "pycl":
                    found.add(".".join(parts[1:]) if len(parts) > 1 else "__init__")
    return {m for m in found if m in names and m != module}


def test_import_graph_has_no_cycles():
    graph = {m: _imports(m) for m in _modules()}
    done, path = set(), []

    def visit(module):
        if module in path:
            cycle = path[path.index(module) :] + [module]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if module in done:
            return
        path.append(module)
        for dep in sorted(graph[module]):
            visit(dep)
        path.pop()
        done.add(module)

    for module in graph:
        visit(module)
    assert graph["transfer"] and "mapping" in graph["staging"]  # the parser sees imports


def test_internal_modules_are_marked():
    # The public modules: PyOpenCL's names, pycl's concepts, and its tools.
    public = {
        "__init__",
        "__main__",
        "platform",
        "context",
        "queue",
        "event",
        "program",
        "memory",
        "transfer",
        "mapping",
        "between",
        "image",
        "sampler",
        "pipe",
        "svm",
        "allocator",
        "pool",
        "pinned",
        "staging",
        "budget",
        "errors",
        "constants",
        "version",
        "cltypes",
        "characterize",
        "tools",
        "testing",
        "strategies",
        "embed",
        "build_ffi",
        "pyopencl_cl",
        "pyopencl_layer",
        "mpi",
        "mpi.comm",
        "mpi.config",
        "mpi.devices",
        "mpi.request",
    }
    unmarked = [m for m in _modules() if not m.split(".")[-1].startswith("_") and m not in public]
    assert not unmarked, "public modules not listed here (or internal ones without '_'): %s" % unmarked
    assert not [m for m in public if m not in _modules()]
    # pycl._cl is public under PyOpenCL's name for it; everything else with
    # an underscore is internal and absent from pycl.__all__.
    assert not [n for n in pycl.__all__ if n.startswith("_")]


def test_no_developer_tooling_in_the_package():
    entries = set(os.listdir(PACKAGE))
    assert "apiref.py" not in entries and "reference" not in entries
    assert {"py.typed", "_typing.pyi", "_lib.pyi"} <= entries


def _private_names_from_public_modules(module, source):
    """``(line, "from pycl.x import _y")`` for each ``_``-name that ``module``
    (its text ``source``) imports from another public pycl module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        parts = node.module.split(".")
        if parts[0] != "pycl" or len(parts) < 2 or parts[-1].startswith("_") or ".".join(parts[1:]) == module:
            continue
        for alias in node.names:
            if ".".join(parts[1:] + [alias.name]) in _modules():
                continue  # a module of a package (pycl.mpi._wire), not a name
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append((node.lineno, "from %s import %s" % (node.module, alias.name)))
    return found


def test_no_private_names_from_public_modules():
    # What modules share privately lives in an internal module (pycl._enqueue,
    # pycl._args ...): a public module's underscore names are its own.
    offenders = []
    for module in _modules():
        with open(_path(module), encoding="utf-8") as f:
            for line, text in _private_names_from_public_modules(module, f.read()):
                offenders.append("%s:%d: %s" % (os.path.relpath(_path(module), PACKAGE), line, text))
    assert not offenders, "private names taken from public modules:\n" + "\n".join(offenders)


def test_the_private_import_check_sees_offenders():
    source = "from pycl.transfer import _marker, route\nfrom pycl._args import _x\nfrom pycl.memory import __all__\n"
    assert _private_names_from_public_modules("image", source) == [(1, "from pycl.transfer import _marker")]
