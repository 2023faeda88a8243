"""Sphinx configuration for pycl's documentation.

Build with ``make docs`` (warnings are errors), or by hand::

    .venv/bin/python -m pip install -r docs/requirements.txt
    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html

The API reference is autodoc over the installed (editable) ``pycl``; objects
are documented under their public names (``pycl.Buffer``, ``pycl.tools.MemoryPool``),
never under the module that defines them. docs/differences.md, docs/quirks.md
and docs/budget.md stay Markdown (tests parse differences.md) and are read by
myst-parser.
"""

from __future__ import annotations

import builtins
import os
import re
import sys

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx import addnodes

HERE = os.path.dirname(os.path.abspath(__file__))
# The checkout's pycl, whether or not the venv's editable install points here.
sys.path.insert(0, os.path.dirname(HERE))

import pycl  # noqa: E402
import pycl.tools  # noqa: E402
from pycl import constants as _constants  # noqa: E402

project = "pycl"
author = "the pycl authors"
copyright = "2026, the pycl authors"  # noqa: A001 (Sphinx's name)
release = pycl.VERSION_TEXT
version = ".".join(str(part) for part in pycl.VERSION[:2])

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# -- autodoc ------------------------------------------------------------------

autodoc_member_order = "bysource"
# Signatures read like PyOpenCL's (``Buffer(context, flags, size=0, hostbuf=None)``),
# with the annotations in them, shortened to the last name.
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_class_signature = "mixed"
# Annotated signatures get long: past this length, one parameter per line.
python_maximum_signature_line_length = 100
autodoc_inherit_docstrings = True
add_module_names = False

# -- MyST (docs/*.md) -------------------------------------------------------------

# differences.md links its own sections by GitHub-style slugs
# ("#to_string-of-bit-field-constant-classes"); its headings go down to ###.
myst_heading_anchors = 3
myst_enable_extensions: list[str] = []

# -- HTML ---------------------------------------------------------------------

html_theme = "alabaster"
html_title = f"pycl {release}"
html_theme_options = {
    "description": "PyOpenCL's memory API as a cffi binding",
    "fixed_sidebar": True,
    "page_width": "1100px",
    "sidebar_width": "240px",
}
html_static_path: list[str] = []
html_show_sourcelink = False

# -- public names -----------------------------------------------------------------


def _public_names() -> dict[str, str]:
    """``"pycl.memory.Buffer"`` -> ``"pycl.Buffer"`` for every public class,
    so bases and annotations name what users import (the defining modules
    are internal and not documented)."""
    mapping: dict[str, str] = {}
    namespaces = [(pycl, "pycl"), (pycl.tools, "pycl.tools")]
    for module, prefix in namespaces:
        for name in module.__all__:
            obj = getattr(module, name, None)
            if not isinstance(obj, type) or name in _constants.__all__:
                continue
            qualified = f"{obj.__module__}.{obj.__qualname__}"
            if qualified.startswith("pycl.") and qualified != f"{prefix}.{name}":
                # The first namespace wins: pycl.X over pycl.tools.X.
                mapping.setdefault(qualified, f"{prefix}.{name}")
    return mapping


PUBLIC_NAMES = _public_names()
_PUBLIC_RE = (
    re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in sorted(PUBLIC_NAMES, key=len, reverse=True)) + r")\b")
    if PUBLIC_NAMES
    else None
)


def _publicize(text: str | None) -> str | None:
    if text is None or _PUBLIC_RE is None:
        return text
    return _PUBLIC_RE.sub(lambda m: PUBLIC_NAMES[m.group(1)], text)


def _process_signature(app, what, name, obj, options, signature, return_annotation):
    return _publicize(signature), _publicize(return_annotation)


def _process_bases(app, name, obj, options, bases):
    for i, base in enumerate(bases):
        if isinstance(base, type):
            public = PUBLIC_NAMES.get(f"{base.__module__}.{base.__qualname__}")
            if public is not None:
                bases[i] = f":py:class:`~{public}`"
            elif base.__module__.startswith("pycl") and (
                base.__name__.startswith("_") or base.__module__.startswith("pycl._")
            ):
                # An internal base (pycl._handle.Handle, constants'
                # ConstantClass in pycl._constant_class): not part of the API, so not shown.
                bases[i] = None
    bases[:] = [b for b in bases if b is not None]


def _unlink_builtins(app, doctree):
    """Leave builtin class names (``type``, ``int``, ``MemoryError`` ...) in
    signatures and bases as plain text. Without intersphinx they have no
    target, and the Python domain's fallback search would link ``type[...]``
    to ``pycl.MemoryObject.type`` (or warn that several attributes match) and
    the builtin base ``MemoryError`` of ``pycl.MemoryError`` to the class itself."""
    for node in list(doctree.findall(addnodes.pending_xref)):
        if node.get("refdomain") != "py" or node.get("reftype") not in ("class", "obj", "exc"):
            continue
        target = node.get("reftarget", "")
        if isinstance(getattr(builtins, target, None), type):
            node.replace_self(node.children)


# -- docs/api_status.rst, generated ---------------------------------------------------

# tools/api_report.py checks every name of PyOpenCL's memory documentation
# against this pycl; its --rst page is part of the site (``python -m pycl``
# points there). It is written at every build, so that any way of running
# Sphinx gets it, and git ignores it.
API_STATUS = os.path.join(HERE, "api_status.rst")
TOOLS = os.path.join(os.path.dirname(HERE), "tools")


def _write_api_status() -> None:
    import io

    sys.path.insert(0, TOOLS)
    try:
        import api_report
    finally:
        sys.path.remove(TOOLS)
    out = io.StringIO()
    api_report.rst_page(out)
    text = out.getvalue()
    try:
        with open(API_STATUS, encoding="utf-8") as f:
            if f.read() == text:
                return  # unchanged: keep the mtime, so Sphinx does not reread it
    except OSError:
        pass
    with open(API_STATUS, "w", encoding="utf-8") as f:
        f.write(text)


_write_api_status()


# -- the constant classes -------------------------------------------------------------


class ConstantClasses(Directive):
    """``.. pycl-constants::``: every class of ``pycl.constants.__all__`` as
    a ``py:class`` under ``pycl``, with its attribute names in one paragraph.
    Generated at build time, so the page follows the module."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines: list[str] = []
        for cls_name in _constants.__all__:
            cls = getattr(pycl, cls_name)
            attrs = [k for k in vars(cls) if not k.startswith("_") and isinstance(getattr(cls, k), int)]
            lines.append(f".. py:class:: {cls_name}")
            lines.append("   :module: pycl")
            lines.append("")
            if not attrs:
                why = " (an OpenGL class: pycl has no OpenGL interop)" if cls_name.startswith("gl_") else ""
                lines.append(f"   No values{why}.")
            else:
                lead = "Bit field (combine with ``|``): " if getattr(cls, "_is_bitfield", False) else ""
                lines.append("   " + lead + ", ".join(f"``{a}``" for a in attrs) + ".")
            lines.append("")
        content = StringList(lines, source="pycl.constants")
        container = nodes.container()
        self.state.nested_parse(content, self.content_offset, container)
        return container.children


def setup(app):
    app.connect("autodoc-process-signature", _process_signature)
    app.connect("autodoc-process-bases", _process_bases)
    app.connect("doctree-read", _unlink_builtins)
    app.add_directive("pycl-constants", ConstantClasses)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
