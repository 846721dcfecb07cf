"""The entry of svmdesk as one program (the frozen app tools/make-app builds, and the
console script): what a program that is not Python needs before the command line runs.

- multiprocessing's spawn starts the solver's process as this program with its own
  arguments: `freeze_support()` runs the child there and exits.
- joblib's loky (grid search on the cores) starts its workers as `sys.executable -m
  joblib.externals.loky...` and its resource tracker as `sys.executable -c "from
  joblib.externals.loky.backend.resource_tracker import main; main(...)"`; in a frozen app
  `sys.executable` is this program, so it does what `python -m` and `python -c` would.
"""
from __future__ import annotations

import multiprocessing
import sys

LOKY = "joblib.externals.loky."
TRACKER = "from joblib.externals.loky.backend.resource_tracker import main"


def launch() -> int:
    """Run svmdesk as the program's arguments ask; its exit code."""
    multiprocessing.freeze_support()
    if getattr(sys, "frozen", False):
        _run_loky_helper()
    from .cli import main

    return main()


def _run_loky_helper() -> None:
    """When loky started this program as one of its helpers, be that helper, and exit."""
    argv = sys.argv
    if len(argv) >= 3 and argv[1] == "-m" and argv[2].startswith(LOKY):
        import runpy

        sys.argv = [argv[0], *argv[3:]]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
        sys.exit(0)
    if "-c" in argv:
        code = argv[argv.index("-c") + 1] if argv.index("-c") + 1 < len(argv) else ""
        if code.startswith(TRACKER):
            exec(code)  # noqa: S102 - loky's own one line, matched above
            sys.exit(0)
