"""Every reference in the repository to one of its own files points at a file
it has, and every reference to a section of docs/design.md names a section
that exists. No device needed.

What counts as a reference, in every tracked text file:

- a file path under one of the repository's top-level folders, such as
  ``docs/quirks.md``, ``cl_shim/src/svm.c`` or ``tests/test_pool.py``, from the
  repository's root, from the referring file's folder, or from the shim's
  include folder (``#include "pycl/types.h"``); a glob such as
  ``cl_shim/src/*.c`` must match a file, and a folder written with its slash
  (``bench/results/``) must exist. A path needs a file suffix to count
  (``pycl/_lib``, a module, and ``pycl/PyOpenCL``, a ratio, do not). A path
  that continues a longer one (``/tmp/docs/x``, a URL's ``.../tests/x.py``) is
  not one: only a path that starts the word counts, so PyOpenCL's files
  (``pyopencl/_cl.pyi``, ``test/test_array.py``) and other machines' paths
  never match;
- a bare upper-case Markdown name such as ``README.md``: some file of the
  repository must have that name;
- the target of a relative Markdown link in a ``.md`` file, from the file's
  folder;
- ``docs/design.md, "Title"``: a section (``## Title``) of docs/design.md.

Paths that git ignores (build outputs such as ``pycl/_lib.c`` or
``docs/_build/``) and the few that the build makes (``GENERATED``) are not
looked for.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The repository's top-level folders: a path starting with one of them is a
# reference to a file of the repository.
TOP_FOLDERS = ("pycl", "cl_shim", "bench", "tests", "docs", "tools", "examples", ".ci")
# Made by the build, not kept in git: setup.py's build_py ships the shim's
# headers inside the installed package.
GENERATED = ("pycl/include",)
# PyOpenCL's reference pages, kept as published (tools/reference/NOTICE):
# their paths are PyOpenCL's. This file: its samples name missing files on
# purpose.
NOT_SCANNED = ("tools/reference/", "tests/test_references.py")
# Where C code's #include "pycl/..." starts.
INCLUDE_FOLDER = "cl_shim/include"
TEXT_SUFFIXES = (".py", ".pyi", ".md", ".rst", ".txt", ".toml", ".in", ".c", ".h", ".sh", ".cfg", ".yml", ".yaml")
TEXT_NAMES = ("Makefile", "run", ".gitignore", ".clang-format")

# A path segment: word characters, dots, dashes, glob stars and [ch]-style
# character sets; segments joined by slashes. The look-behind keeps out paths
# that continue a longer path or a URL.
_SEGMENT = r"(?:[\w.*-]|\[\w+\])+"
_PATH = re.compile(
    r"(?<![\w./\-~$])(?:%s)/%s(?:/%s)*/?" % ("|".join(re.escape(f) for f in TOP_FOLDERS), _SEGMENT, _SEGMENT)
)
_BARE_MARKDOWN = re.compile(r"(?<![\w./\-])[A-Z][A-Z0-9_]*\.md\b")
_MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")
_SECTION = re.compile(r"docs/design\.md,\s+\"([^\"]+)\"")
# An upper-case word in a path is a placeholder (bench/results/DATE-DEVICE.md).
_PLACEHOLDER = re.compile(r"(?<![A-Za-z])[A-Z]{3,}(?![a-z])")
_FILE_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def path_references(text: str) -> list[str]:
    """The repository paths that ``text`` names: files (with a suffix, or a
    glob) and folders written with their trailing slash (kept)."""
    found = []
    for match in _PATH.finditer(text):
        path = match.group(0)
        if not path.endswith("/"):
            path = path.rstrip(".")
        folder = path.endswith("/")
        if _PLACEHOLDER.search(path.split("/", 1)[1]):
            continue
        if folder or _FILE_SUFFIX.search(path) or any(c in path for c in "*["):
            found.append(path)
    return found


def bare_markdown_names(text: str) -> list[str]:
    return _BARE_MARKDOWN.findall(text)


def markdown_links(text: str) -> list[str]:
    """Relative link targets of a Markdown text (no URLs, no anchors alone)."""
    return [t for t in _MARKDOWN_LINK.findall(text) if "://" not in t and not t.startswith("mailto:")]


def section_references(text: str) -> list[str]:
    """The titles named as ``docs/design.md, "Title"``, with comment leaders
    (``#``, `` * ``) of wrapped lines removed."""
    titles = []
    for raw in _SECTION.findall(text):
        titles.append(" ".join(re.sub(r"\n\s*(?:#+|\*|//)?", " ", raw).split()))
    return titles


def design_titles(text: str) -> set[str]:
    return {line[3:].strip() for line in text.splitlines() if line.startswith("## ")}


class Repository:
    """What exists: files and folders, and a test for ignored paths."""

    def __init__(self, files: list[str], ignored: set[str]) -> None:
        self.files = set(files)
        self.folders = {os.path.dirname(f) for f in files}
        for folder in list(self.folders):
            while folder:
                folder = os.path.dirname(folder)
                self.folders.add(folder)
        self.names = {os.path.basename(f) for f in files}
        self.ignored = ignored

    def has(self, path: str) -> bool:
        folder = path.endswith("/")
        path = os.path.normpath(path)
        if path in self.ignored or (path + "/") in self.ignored:
            return True
        if any(path == g or path.startswith(g + "/") for g in GENERATED):
            return True
        if any(c in path for c in "*["):
            return any(fnmatch.fnmatchcase(f, path) for f in self.files)
        return path in self.folders if folder else path in self.files


def missing_in(name: str, text: str, repo: Repository, titles: set[str]) -> list[str]:
    """What ``text`` (the file ``name``) refers to that ``repo`` lacks."""
    missing = []
    here = os.path.dirname(name)
    for path in path_references(text):
        if not any(repo.has(os.path.join(base, path)) for base in ("", here, INCLUDE_FOLDER)):
            missing.append("%s: %s" % (name, path))
    for bare in bare_markdown_names(text):
        if bare not in repo.names:
            missing.append("%s: %s" % (name, bare))
    if name.endswith(".md"):
        for target in markdown_links(text):
            path = os.path.normpath(os.path.join(os.path.dirname(name), target))
            if not repo.has(path):
                missing.append("%s: link %s" % (name, target))
    for title in section_references(text):
        if title not in titles:
            missing.append('%s: docs/design.md has no section "%s"' % (name, title))
    return missing


def _git(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", ROOT, *args], input=stdin, capture_output=True, text=True)


def _repository_files() -> list[str]:
    """Tracked and new (not ignored) files of the checkout that exist."""
    if not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(os.path.join(ROOT, ".git")):
        pytest.skip(
            "not a git checkout (an sdist, or the wheel test's copy of tests/): the check needs git's file list"
        )
    try:
        listed = _git("ls-files", "--cached", "--others", "--exclude-standard")
    except OSError as error:
        pytest.skip("git is not available: %s" % error)
    if listed.returncode:
        pytest.skip("git ls-files failed: %s" % listed.stderr.strip())
    return sorted({f for f in listed.stdout.splitlines() if os.path.isfile(os.path.join(ROOT, f))})


def _is_text(name: str) -> bool:
    base = os.path.basename(name)
    return base.endswith(TEXT_SUFFIXES) or base in TEXT_NAMES


def test_every_reference_exists():
    files = _repository_files()
    texts = {}
    for name in files:
        if not _is_text(name) or name.startswith(NOT_SCANNED):
            continue
        with open(os.path.join(ROOT, name), "rb") as f:
            data = f.read()
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    assert "docs/design.md" in texts and "Makefile" in texts, "the scan missed the repository's files"
    # Ignored paths, asked of git as files and as folders (a folder rule such
    # as /docs/_build/ matches a path that does not exist only with its slash).
    paths = {os.path.normpath(p) for text in texts.values() for p in path_references(text)}
    candidates = sorted(paths | {p + "/" for p in paths})
    ignored = set(_git("check-ignore", "--no-index", "--stdin", stdin="\n".join(candidates)).stdout.split())
    repo = Repository(files, ignored)
    titles = design_titles(texts["docs/design.md"])
    missing = [m for name, text in sorted(texts.items()) for m in missing_in(name, text, repo, titles)]
    assert not missing, "references to what the repository does not have:\n" + "\n".join(missing)


# {{{ the scanner itself: it finds what is missing, and only that

_SAMPLE_REPO = Repository(
    [
        "docs/quirks.md",
        "docs/design.md",
        "pycl/pool.py",
        "cl_shim/src/svm.c",
        "cl_shim/include/pycl/svm.h",
        "README.md",
    ],
    set(),
)
_SAMPLE_TITLES = {"Staging", "The shim as ICD loader"}


def test_scanner_finds_missing_files():
    text = "See docs/quirks.md, pycl/pool.py and cl_shim/src/svm.c; not docs/gone.md, pycl/_moved.py or TEAM.md."
    assert missing_in("x.py", text, _SAMPLE_REPO, _SAMPLE_TITLES) == [
        "x.py: docs/gone.md",
        "x.py: pycl/_moved.py",
        "x.py: TEAM.md",
    ]


def test_scanner_ignores_what_is_not_the_repositorys():
    text = (
        "https://github.com/inducer/pyopencl/blob/main/test/test_array.py and "
        "https://example.org/docs/missing.md; pyopencl/_cl.pyi; PyOpenCL's test_wrapper.py; "
        "/tmp/docs-me/index.html; /tmp/pycl/gone.py; ~/tests/x.py; $OUT/bench/x.md; "
        "bench/results/DATE-DEVICE.md; pycl/include/pycl_shim.h; README.md; the pycl/PyOpenCL ratio; "
        'pycl/_lib; #include "pycl/svm.h" (the shim\'s include folder).'
    )
    assert missing_in("x.md", text, _SAMPLE_REPO, _SAMPLE_TITLES) == []


def test_scanner_checks_globs_and_markdown_links():
    text = (
        "cl_shim/src/*.c, cl_shim/src/*.[ch], tests/test_*.py; cl_shim/src/ and bench/results/; "
        "[quirks](quirks.md) [gone](gone.md) [web](https://x.org/a.md)"
    )
    assert missing_in("docs/page.md", text, _SAMPLE_REPO, _SAMPLE_TITLES) == [
        "docs/page.md: tests/test_*.py",
        "docs/page.md: bench/results/",
        "docs/page.md: link gone.md",
    ]


def test_scanner_checks_design_sections():
    text = '(docs/design.md, "Staging") and (docs/design.md, "The shim as\n * ICD loader"); (docs/design.md, "Gone")'
    assert missing_in("x.c", text, _SAMPLE_REPO, _SAMPLE_TITLES) == ['x.c: docs/design.md has no section "Gone"']


# }}}
