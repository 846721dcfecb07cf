"""The Qt application: `main()` opens the window on the qasync event loop."""
from __future__ import annotations

import asyncio
import os
import sys

# One BLAS thread: OpenBLAS workers spin while they wait, and on a two-core laptop they
# would take the core the window needs to stay responsive (must be set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv=None) -> int:
    """Open the window (optionally on a CSV file given as the first argument)."""
    import pyqtgraph as pg
    import qasync
    from PySide6.QtWidgets import QApplication

    argv = sys.argv if argv is None else argv
    pg.setConfigOptions(imageAxisOrder="row-major", antialias=True)
    app = QApplication.instance() or QApplication(argv)
    app.setApplicationName("svmdesk")
    path = argv[1] if len(argv) > 1 else None

    async def run() -> None:
        from .main_window import MainWindow

        closed = asyncio.Event()
        window = MainWindow(path)
        app.aboutToQuit.connect(window.shutdown)
        app.lastWindowClosed.connect(closed.set)
        window.show()
        await closed.wait()

    try:
        qasync.run(run())
    except asyncio.CancelledError:
        pass
    return 0
