"""Every benchmark in one command: pycl against PyOpenCL on the same device.

    python bench/run.py                                  # all modules, pip PoCL
    python bench/run.py --pypy /path/to/pypy             # adds pycl-on-PyPy columns
    python bench/run.py --device NVIDIA --large-mib 256  # a GPU
    python bench/run.py --only buffers,pools --out bench/results/DATE-DEVICE.md

See bench/README.md for how to read the tables; ``--help`` for every option.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402

if __name__ == "__main__":
    harness.main()
