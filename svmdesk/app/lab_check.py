"""`svmdesk --lab-check`: does svmdesk work on this laptop? The window opens, opens an example,
trains it (the solver in its own process, as always) and closes, saying what it trained. A
teacher runs it once on each laptop after the offline install or on the frozen app."""
from __future__ import annotations

import asyncio
import os
import sys
import time

from ..i18n import tr

WAIT_SECONDS = 60            # for the example's points, then for the training's end


def lab_check() -> int:
    """0 when the window opened, read an example and trained it; 1 (and why) when not."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # as the app (app/__init__.py)
    import pyqtgraph as pg
    import qasync
    from PySide6.QtWidgets import QApplication

    from ..formats import load_dataset
    from ..resources import EXAMPLES, example_path

    example = next(e for e in EXAMPLES if e.task == "classification")
    points = len(load_dataset(example_path(example)).X)
    pg.setConfigOptions(antialias=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    said: list = []

    async def check() -> None:
        from .shell.main_window import MainWindow

        window = MainWindow()
        ended = asyncio.Event()
        window.training_ended.connect(lambda _frame: ended.set())
        window.show()
        try:
            window.files.open_example(example)
            started = time.perf_counter()
            while len(window.points) != points:          # read off the GUI thread
                if time.perf_counter() - started > WAIT_SECONDS:
                    said.append(tr("the example {name} did not open").format(
                        name=example.file))
                    return
                await asyncio.sleep(0.05)
            started = time.perf_counter()
            window.train()
            await asyncio.wait_for(ended.wait(), WAIT_SECONDS)
            svc = window.fitted
            print(tr("svmdesk works here: the window trained {name} ({n} points) in {seconds} "
                     "s, {svs} support vectors.").format(
                name=example.file, n=points, seconds=f"{time.perf_counter() - started:.2f}",
                svs=len(svc.support_)), flush=True)
        except asyncio.TimeoutError:
            said.append(tr("the training did not end within {seconds} s").format(
                seconds=WAIT_SECONDS))
        finally:
            window.shutdown()
            window.close()

    try:
        qasync.run(check())
    except asyncio.CancelledError:
        pass
    del app
    for problem in said:
        print(tr("svmdesk does not work here: {problem}").format(problem=problem),
              file=sys.stderr, flush=True)
    return 1 if said else 0
