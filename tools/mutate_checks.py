"""Mutation check of the argument checks: does removing any one check make
some test fail?

Each mutant takes one check out of the module (``pycl/_args.py`` by
default):

- a ``raise`` statement becomes ``pass`` (the check no longer refuses);
- a fast path's comparison with one of the module's limits or sets of
  valid values (``SIZE_LIMIT``, ``UINT_LIMIT``, ``ULONG_LIMIT``,
  ``MAX_ALIGNMENT``, ``ALIGNMENTS``) becomes the constant that accepts every
  value (the fast path no longer bounds it).

For each mutant the tests run on a copy of the package and of ``tests/``
(the copy comes first on ``PYTHONPATH``, so the tests' child processes import
it too); the mutant is killed when they fail. The report lists every mutant
with the first failing test, and the survivors; the exit status is 1 if any
survived.

    python tools/mutate_checks.py                       # pycl/_args.py, tests/test_args_sweep.py
    python tools/mutate_checks.py --tests tests/test_args_sweep.py tests/test_transfer.py
    python tools/mutate_checks.py --module pycl/_svm_allocation.py --limits-only   # a fast path outside _args
    PYOPENCL_TEST=3.1 python tools/mutate_checks.py     # one device, faster
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = {"SIZE_LIMIT", "UINT_LIMIT", "ULONG_LIMIT", "MAX_ALIGNMENT", "ALIGNMENTS"}


class _Mutant:
    def __init__(self, line: int, what: str, node: ast.AST) -> None:
        self.line, self.what, self.node = line, what, node


def mutants(tree: ast.Module, limits_only: bool = False) -> list[_Mutant]:
    """Every check of the module: its raise statements (unless
    ``limits_only``), and the limit comparisons of its fast paths (those of
    an ``if`` that raises are the raise's mutant already)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and not limits_only:
            found.append(_Mutant(node.lineno, "raise -> pass", node))
        elif isinstance(node, ast.If) and not any(isinstance(n, ast.Raise) for n in node.body):
            for compare in ast.walk(node.test):
                names = {n.id for n in ast.walk(compare) if isinstance(n, ast.Name)}
                if isinstance(compare, ast.Compare) and names & LIMITS:
                    what = "%s -> %s" % (ast.unparse(compare), _accepting(compare))
                    found.append(_Mutant(compare.lineno, what, compare))
    return sorted(found, key=lambda m: (m.line, m.what))


def _accepting(compare: ast.Compare) -> bool:
    """The value that makes a fast path's comparison accept anything:
    ``x not in KNOWN`` False, ``0 <= x <= LIMIT`` and ``x in KNOWN`` True."""
    return not any(isinstance(op, ast.NotIn) for op in compare.ops)


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            replacement: ast.AST = ast.Pass() if isinstance(node, ast.Raise) else ast.Constant(_accepting(node))
            return ast.copy_location(replacement, node)
        return self.generic_visit(node)


def mutated_source(source: str, mutant: _Mutant) -> str:
    tree = ast.parse(source)
    # Find the same node in a fresh tree (the walk order is deterministic).
    target = [m for m in mutants(tree) if (m.line, m.what) == (mutant.line, mutant.what)][0]
    return ast.unparse(ast.fix_missing_locations(_Replace(target.node).visit(tree)))


def run_tests(copy: str, tests: list[str], timeout: int) -> tuple[bool, str]:
    """``(passed, the first failing test's line)`` for the tests on the copy."""
    env = dict(os.environ, PYTHONPATH=copy + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        run = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout
    failed = [line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return run.returncode == 0, failed[0][:160] if failed else run.stdout.strip().splitlines()[-1:][0][:160]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default="pycl/_args.py", help="the module to mutate (default: %(default)s)")
    parser.add_argument("--tests", nargs="+", default=["tests/test_args_sweep.py"], help="the tests that must kill")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per mutant's test run")
    parser.add_argument(
        "--limits-only", action="store_true", help="only the fast paths' limit comparisons (for the hot modules)"
    )
    args = parser.parse_args()
    path = os.path.join(ROOT, args.module)
    with open(path) as f:
        source = f.read()
    found = mutants(ast.parse(source), args.limits_only)
    survivors = []
    with tempfile.TemporaryDirectory(prefix="pycl-mutants-") as copy:
        shutil.copytree(os.path.join(ROOT, "pycl"), os.path.join(copy, "pycl"))
        shutil.copytree(os.path.join(ROOT, "tests"), os.path.join(copy, "tests"))
        shutil.copy(os.path.join(ROOT, "pyproject.toml"), copy)  # pytest's settings
        target = os.path.join(copy, args.module)
        passed, line = run_tests(copy, args.tests, args.timeout)
        if not passed:
            print("the tests fail without a mutant: %s" % line)
            return 2
        print("%d mutants of %s, killed by %s" % (len(found), args.module, " ".join(args.tests)))
        for mutant in found:
            with open(target, "w") as f:
                f.write(mutated_source(source, mutant))
            start = time.time()
            passed, line = run_tests(copy, args.tests, args.timeout)
            verdict = "SURVIVED" if passed else "killed"
            print(
                "%s:%d %s: %s in %.0f s (%s)"
                % (args.module, mutant.line, mutant.what, verdict, time.time() - start, line)
            )
            sys.stdout.flush()
            if passed:
                survivors.append(mutant)
        with open(target, "w") as f:
            f.write(source)
    print("%d of %d mutants survived" % (len(survivors), len(found)))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
