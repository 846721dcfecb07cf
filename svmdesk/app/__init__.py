"""The Qt application: `main()` opens the window on the qasync event loop."""
from __future__ import annotations

import asyncio
import gc
import os
import sys

# One BLAS thread: OpenBLAS workers spin while they wait, and on a two-core laptop they
# would take the core the window needs to stay responsive (must be set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def set_apart_the_windows_objects() -> None:
    """The window's own objects (Qt wrappers, plot items) live as long as the app: the
    cyclic garbage collector's full passes need not walk them. Each pass did, holding the
    GIL about 30 ms, measured as a stall at the start of a run. Call once the window shows."""
    gc.collect()
    gc.freeze()


def main(argv=None, lang: str | None = None) -> int:
    """Open the window (optionally on a CSV file given as the first argument), speaking
    `lang` (--lang), else SVMDESK_LANG, else what View > Language chose, else the system's
    language."""
    import pyqtgraph as pg
    import qasync
    from PySide6.QtWidgets import QApplication

    from ..i18n import chosen_language, set_language
    from .icon import app_icon
    from .language import install_qt_translation, remembered_language

    argv = sys.argv if argv is None else argv
    pg.setConfigOptions(antialias=True)
    app = QApplication.instance() or QApplication(argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("svmdesk")
    app.setDesktopFileName("svmdesk")        # Wayland matches the window to svmdesk.desktop
    app.setWindowIcon(app_icon())
    code = set_language(chosen_language(lang, remembered_language()))
    install_qt_translation(app, code)
    path = argv[1] if len(argv) > 1 else None

    async def run() -> None:
        from .shell.main_window import MainWindow

        closed = asyncio.Event()
        window = MainWindow(path)
        app.aboutToQuit.connect(window.shutdown)
        app.lastWindowClosed.connect(closed.set)
        window.show()
        window.help.greet_on_first_start()
        set_apart_the_windows_objects()
        await closed.wait()

    try:
        qasync.run(run())
    except asyncio.CancelledError:
        pass
    return 0
