"""How pycl covers PyOpenCL's memory documentation, name by name.

A developer's command, run from a checkout (it reads tools/reference/ and
docs/differences.md through tools/apiref.py):

    python tools/api_report.py          every reference name with its status in
                                        pycl: implemented, implemented with a
                                        documented difference (and the reason),
                                        or missing; and, for names that need a
                                        device feature (SVM, images, pipes...),
                                        the devices found here that lack it.
                                        Exits 1 if a name is missing or differs
                                        without a listed reason.
    python tools/api_report.py --rst FILE
                                        the same table without devices, as the
                                        reStructuredText page of the API
                                        reference (make docs writes it).
"""

import argparse
import os
import sys
import tempfile

import apiref

import pycl


def _devices():
    """``([(label, device)], problem)``: the devices found, numbered as in the
    default output, or the reason none can be listed."""
    try:
        platforms = pycl.get_platforms()
    except pycl.Error as error:
        return [], str(error)
    found = []
    for p_index, platform in enumerate(platforms):
        for d_index, device in enumerate(platform.get_devices()):
            found.append(("[%d:%d] %s" % (p_index, d_index, device.name), device))
    return found, None


def _lacking(need, devices):
    """Labels of the devices without ``need``'s feature."""
    what, test = need
    out = []
    for label, device in devices:
        try:
            has = test(device)
        except pycl.Error:
            has = False
        if not has:
            out.append(label)
    return out


# kind -> (label, counted as, bad): "bad" names fail the report.
_KINDS = {
    "implemented": ("implemented", "implemented", False),
    "stale": ("implemented (docs/differences.md lists a difference that no longer exists)", "implemented", True),
    "difference": ("difference", "difference", False),
    "unavailable": ("unavailable here", "unavailable", False),
    "missing": ("MISSING", "missing", True),
    "differs": ("DIFFERS (not in docs/differences.md)", "missing", True),
}


def statuses():
    """``(entry, kind, detail lines)`` for every reference name; the kinds
    are those of ``_KINDS``. A difference's detail is its listed reason."""
    listed = apiref.differences()
    for entry in apiref.entries():
        status, problems = apiref.check(entry)
        if status == "ok":
            yield entry, "stale" if entry.name in listed else "implemented", []
        elif status == "different" and entry.name in listed:
            yield entry, "difference", [listed[entry.name]]
        elif status == "different":
            yield entry, "differs", problems
        else:  # "missing" or "unavailable"
            yield entry, status, problems


def api_report(out=sys.stdout):
    """Print every reference name with its status; return the count of names
    that are missing, differ without being listed, or are listed without
    differing."""
    devices, problem = _devices()
    print("PyOpenCL 2026.1.4's memory API (%s) in pycl %s" % (apiref.REFERENCE_DIR, pycl.VERSION_TEXT), file=out)
    if devices:
        print("devices: " + "; ".join(label for label, _ in devices), file=out)
    else:
        print("devices: none (%s): availability not checked" % problem, file=out)
    print(file=out)
    counts = {"implemented": 0, "difference": 0, "missing": 0, "unavailable": 0}
    total = bad = lacking_here = 0
    for entry, kind, detail in statuses():
        label, counted, is_bad = _KINDS[kind]
        total += 1
        counts[counted] += 1
        bad += is_bad
        need = apiref.requirement(entry.name)
        if need is not None and devices:
            lacking = _lacking(need, devices)
            if lacking:
                lacking_here += 1
                label += "; unavailable on %s (needs %s)" % (", ".join(lacking), need[0])
        print("%-50s %s" % (entry.name, label), file=out)
        for line in detail:
            print("    " + line, file=out)
    print(file=out)
    print(
        "%d reference names: %d implemented as documented, %d with a documented difference, "
        "%d missing or differing without a reason, %d unavailable in this installation; "
        "%d need a feature that some device here lacks"
        % (total, counts["implemented"], counts["difference"], counts["missing"], counts["unavailable"], lacking_here),
        file=out,
    )
    return bad


def rst_page(out):
    """Write the status of every reference name as a reStructuredText page;
    return the count of names the text report would fail on."""
    counts = {"implemented": 0, "difference": 0, "missing": 0, "unavailable": 0}
    rows = []
    bad = 0
    for entry, kind, detail in statuses():
        label, counted, is_bad = _KINDS[kind]
        counts[counted] += 1
        bad += is_bad
        why = " ".join(detail)
        need = apiref.requirement(entry.name)
        if need is not None:
            why = ("needs %s. " % need[0]) + why
        rows.append((entry.name, label, why.strip()))
    print("PyOpenCL coverage, name by name", file=out)
    print("===============================", file=out)
    print(file=out)
    print(
        "Every name of PyOpenCL 2026.1.4's memory documentation, checked against this\n"
        "version of pycl by ``tools/api_report.py`` when these pages were built:\n"
        "%d names, %d implemented as documented, %d with a deliberate difference\n"
        "(the reason is in the last column and in :doc:`differences`), %d otherwise.\n"
        "``python -m pycl`` tells which of your devices have the features a name needs."
        % (len(rows), counts["implemented"], counts["difference"], counts["missing"] + counts["unavailable"]),
        file=out,
    )
    print(file=out)
    print(".. list-table::", file=out)
    print("   :header-rows: 1", file=out)
    print("   :widths: 35 12 53", file=out)
    print(file=out)
    print("   * - name\n     - status\n     - needs, and why it differs", file=out)
    for name, label, why in rows:
        print("   * - ``%s``\n     - %s\n     - %s" % (name, label, _rst_text(why)), file=out)
    return bad


def _rst_text(text):
    """``text`` safe inside a list-table cell: no stray inline markup."""
    text = text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    return text.replace("`", "``") or "\\"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rst", metavar="FILE", help="write the reStructuredText page to FILE instead")
    args = parser.parse_args(argv)
    os.environ.setdefault("POCL_CACHE_DIR", tempfile.mkdtemp(prefix="pycl-pocl-cache-"))
    if args.rst:
        with open(args.rst, "w", encoding="utf-8") as out:
            return 1 if rst_page(out) else 0
    return 1 if api_report() else 0


if __name__ == "__main__":
    sys.exit(main())
