"""Fixtures for the window tests: a real MainWindow, and a guard against leaked QThreads."""
import weakref

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QThread  # noqa: E402


@pytest.fixture(autouse=True)
def private_state_dir(tmp_path, monkeypatch):
    """Each test its own autosave folder and settings file: no test sees another's
    autosaves (they would be offered for recovery) or the user's recent files."""
    folder = tmp_path / "state"
    monkeypatch.setenv("SVMDESK_STATE_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def threads_started():
    """Every QThread started in the suite (weakly held: a thread deleted is gone from it).
    QThread.start records it, whatever module made the thread: found without scanning the
    heap (a gc.get_objects() scan after each test cost 20 of the app tests' 100 s)."""
    started, original = weakref.WeakSet(), QThread.start

    def start(thread, *args):
        started.add(thread)
        return original(thread, *args)

    QThread.start = start
    yield started
    QThread.start = original


@pytest.fixture(autouse=True)
def no_thread_left_running(threads_started):
    """Fail any test that leaves a QThread running (it would abort the process later)."""
    yield
    running = [thread for thread in list(threads_started)
               if _alive(thread) and thread.isRunning()]
    assert not running, f"{len(running)} QThread(s) still running after the test"


def _alive(obj) -> bool:
    try:
        obj.objectName()
        return True
    except RuntimeError:       # the C++ object is gone
        return False


@pytest.fixture
def window(qtbot):
    from svmdesk.app.shell.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()            # keyboard shortcuts act on the active window only
    qtbot.waitUntil(lambda: win.isActiveWindow(), timeout=5000)
    yield win
    win.shutdown()


@pytest.fixture
def another_window(qtbot):
    """A second window (next week's lab session) in the same state folder."""
    from svmdesk.app.shell.main_window import MainWindow

    made = []

    def make():
        win = MainWindow()
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        win.activateWindow()        # the keys a user presses now go to this window
        qtbot.waitUntil(lambda: win.isActiveWindow(), timeout=5000)
        made.append(win)
        return win

    yield make
    for win in made:
        win.shutdown()


@pytest.fixture
def qasync_loop(qapp):
    """The app's event loop (pytest-qt runs none): tests run coroutines on it with
    loop.run_until_complete(asyncio.wait_for(..., timeout)); closing it joins its executor."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        loop.close()
        asyncio.set_event_loop(None)
        # qasync's _SimpleTimer.stop() only sets a flag: its Qt timers (wait_for's 8 s
        # timeouts) stay registered. Delete it now, on the GUI thread: left to the cyclic
        # collector, it may be freed on a worker thread, where Qt cannot unregister its
        # timers, and a later test's event loop fires one on the freed object (SIGSEGV; a
        # collector forced onto another thread crashed 3 runs of 3, none with this).
        # Closing joins the executor, and a job ending then calls the loop back from its
        # thread: a queued Qt event that, delivered after the timer is gone, fails on it.
        # Deliver those calls now (they only register callbacks that will never run).
        import shiboken6
        from PySide6.QtCore import QCoreApplication, QEvent

        QCoreApplication.sendPostedEvents(None, QEvent.Type.MetaCall)
        timer = getattr(loop, "_timer", None)
        if timer is not None and shiboken6.isValid(timer):
            shiboken6.delete(timer)


async def until(condition, timeout: float = 8.0) -> None:
    """Wait on the running loop until condition() holds (a TimeoutError after `timeout`)."""
    import asyncio

    async def poll():
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


class _SolverThread:
    """A solver that serves the window from a thread of the test's own process (the real
    one is a process of its own, which a test's patches of the core do not reach)."""

    def __init__(self):
        import multiprocessing
        import threading

        from svmdesk.app.training import solver_process

        self.flags = [0.0] * (solver_process.READY + 1)   # the real one's places
        self.conn, child = multiprocessing.Pipe()
        self.thread = threading.Thread(target=solver_process.serve, args=(child, self.flags),
                                       daemon=True)
        self.thread.start()

    background = False

    def alive(self) -> bool:
        return self.thread.is_alive()

    def arm(self, paused: bool) -> None:
        from svmdesk.app.training.solver_process import SolverProcess

        SolverProcess.arm(self, paused)          # type: ignore[arg-type]

    def close(self) -> None:
        if self.thread.is_alive():
            self.conn.send(None)
            self.thread.join(5)


@pytest.fixture
def solver_in_this_process(window):
    """`window`'s runs solved in this process, where a test's patches of the core apply."""
    from svmdesk.app.training import solver_process

    worker = window.run.worker
    here = _SolverThread()
    own, worker.solver = worker.solver, here
    yield window
    worker.stop()                  # no run goes on (the window's own teardown joins it)
    if here in solver_process._idle:   # pytest-qt closed the window first: it was released
        solver_process._idle.remove(here)
    here.close()
    solver_process.release(own)
