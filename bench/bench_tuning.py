"""The longest GUI-thread stall while the Tune tab fills its C-gamma map (the grid on worker
processes, its cells drawn as they arrive): budget 16 ms, as a frame. bench_window.py
reports it with the window's other stalls; run alone for its table:

    .venv/bin/python bench/bench_tuning.py [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench_window import GapWatch, close_app_loop, open_window, run_until

FULL = ((-5, 15, 2), (-15, 3, 2))     # grid.py's ranges: 11 x 10 cells
COARSE = ((-5, 15, 4), (-15, 3, 4))   # every fourth power: 6 x 5 cells


def stall_while_tuning(n: int, ranges=FULL, folds: int = 5) -> tuple:
    """(longest gap ms between ticks of a 5 ms timer, seconds, cells) while the Tune tab
    tunes SMO with the RBF kernel on n moons."""
    from PySide6.QtTest import QTest

    app, w = open_window("smo", n)
    panel = w.tuning_panel
    w.below.setCurrentWidget(panel)
    for fields, values in zip((panel.c_range, panel.gamma_range), ranges):
        for field, value in zip((fields.start, fields.stop, fields.step), values):
            field.setValue(value)
    panel.folds.setValue(folds)
    QTest.qWait(300)
    watch = GapWatch().start()
    start = time.perf_counter()
    panel.tune.click()
    run_until(lambda: not w.tuner.running, 600)
    took = time.perf_counter() - start
    longest = watch.stop()
    cells = len(w.work.tuning.cells)
    w.shutdown()
    return longest, took, cells


def stall_while_idle(n: int = 300, seconds: float = 2.0) -> float:
    """The longest gap (ms) between ticks of a 5 ms timer in a window doing nothing: the
    floor this machine sets under every stall measured here."""
    from PySide6.QtTest import QTest

    app, w = open_window("smo", n)
    QTest.qWait(300)
    watch = GapWatch().start()
    run_until(lambda: False, seconds)
    longest = watch.stop()
    w.shutdown()
    return longest


def tuning_lines(runs: int = 3) -> None:
    idle = [stall_while_idle() for _ in range(runs)]
    print(f"{'longest GUI-thread gap, the window idle (the floor)':<52} "
          f"{statistics.median(idle):>5.1f} /{max(idle):>5.1f}", flush=True)
    for n, ranges, name in ((300, FULL, "11 x 10"), (2000, COARSE, "6 x 5")):
        outcomes = [stall_while_tuning(n, ranges) for _ in range(runs)]
        stalls = [o[0] for o in outcomes]
        took = statistics.median(o[1] for o in outcomes)
        print(f"{f'longest GUI-thread stall, tuning {name} cells, {n:,} moons':<52} "
              f"{statistics.median(stalls):>5.1f} /{max(stalls):>5.1f} {'<= 16':>8}   "
              f"(median / worst of {runs}; {took:.1f} s a grid)", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    try:
        tuning_lines(parser.parse_args().runs)
    finally:
        close_app_loop()
