"""The child of test_args_sweep.test_bad_values_are_refused: feeds every bad
value of test_args_sweep.TABLE to one device, in this process, so that a
crash or hang ends this process and not the test run.

    python args_sweep_child.py PLATFORM DEVICE [FIRST_CASE [CASE_SECONDS]]

Prints, one line each:

    BEGIN <n> <case>                  before case n (the parent blames a crash on the last one)
    FAIL <case>: <what is wrong>      a bad value not refused by the rule
    SEMANTIC <case>: <message>        refused by a semantic limit of the argument (allowed)
    SKIP <row>: <reason>              a row the device cannot run (cannot make its objects)
    UNAVAILABLE <row>: <reason>       pycl says the device cannot run the row; its bad values
                                      are still fed, and an UnavailableError is counted, not failed
    SWEEP DONE ...                    the summary, last

A watchdog (faulthandler) ends the process when one case takes more than
CASE_SECONDS (default 20): the parent then reports that case as a hang and
starts a new child after it.
"""

import faulthandler
import gc
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_args_sweep as sweep  # noqa: E402

import pycl as cl  # noqa: E402


def out(line):
    sys.stdout.write(" ".join(line.split()) + "\n")
    sys.stdout.flush()


def main(argv):
    platform, device = int(argv[1]), int(argv[2])
    first = int(argv[3]) if len(argv) > 3 else 0
    seconds = int(argv[4]) if len(argv) > 4 else 20
    warnings.simplefilter("ignore")  # deprecated keywords, the unbound-SVM warning
    env = sweep.Env(cl.get_platforms()[platform].get_devices()[device])
    counts = {"cases": 0, "failing": 0, "semantic": 0, "unavailable": 0, "skipped rows": 0}
    probed = {}  # row id -> (state, reason): "runs", "unavailable" or "cannot run"
    for n, case in enumerate(sweep.all_cases()):
        if n < first:
            continue  # done by an earlier child
        row = case.row
        if row.id not in probed:
            probed[row.id] = state, reason = probe(env, row)
            if state == "cannot run":
                out("SKIP %s %s: %s" % (row.where, row.arg, reason))
                counts["skipped rows"] += 1
            elif state == "unavailable":
                out("UNAVAILABLE %s %s: %s; bad values still fed" % (row.where, row.arg, reason))
        state = probed[row.id][0]
        if state == "cannot run":
            continue
        out("BEGIN %d %s" % (n, case.label))
        counts["cases"] += 1
        faulthandler.dump_traceback_later(seconds, exit=True)
        try:
            result = case.run(env)
        except cl.UnavailableError as error:
            if state == "runs":  # the device runs the row: the value caused it
                out("FAIL %s: %s (wanted LogicError or TypeError)" % (case.label, sweep.describe(error)))
                counts["failing"] += 1
            else:
                counts["unavailable"] += 1
        except Exception as error:
            verdict = sweep.judge(case, error)
            if verdict == "semantic":
                out("SEMANTIC %s: %s" % (case.label, sweep.describe(error)))
                counts["semantic"] += 1
            elif verdict is not None:
                out("FAIL %s: %s (%s)" % (case.label, sweep.describe(error), verdict))
                counts["failing"] += 1
        else:
            out("FAIL %s: accepted (the call returned %s)" % (case.label, _short(result)))
            counts["failing"] += 1
        env.finish()
        gc.collect()
        faulthandler.cancel_dump_traceback_later()
    out("%s on %s: %s" % (sweep.SENTINEL, env.device.name, ", ".join("%d %s" % (v, k) for k, v in counts.items())))


def probe(env, row):
    """``(state, reason)``: "runs" if the device runs the row with its valid
    value; "unavailable" if pycl says the device cannot (its bad values are
    still fed: an argument checked before the capability must still be
    refused by the rule, and an UnavailableError answer is counted, not
    failed); "cannot run" if the objects it needs cannot be made."""
    try:
        row.call(env, row.valid)
        env.finish()
        return "runs", None
    except sweep.CannotRun as error:
        return "cannot run", str(error)
    except cl.UnavailableError as error:
        return "unavailable", sweep.describe(error)
    except Exception as error:
        out("FAIL %s %s: the valid value %r fails: %s" % (row.where, row.arg, row.valid, sweep.describe(error)))
        return "cannot run", "the valid value fails"


def _short(result):
    text = repr(result)
    return text if len(text) < 80 else text[:77] + "..."


if __name__ == "__main__":
    main(sys.argv)
