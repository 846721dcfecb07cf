"""The guard against leaked QThreads (conftest.no_thread_left_running) sees every thread a
test starts, wherever it was made: it records them as QThread.start runs."""
from PySide6.QtCore import QThread


def test_a_started_qthread_is_watched(threads_started):
    thread = QThread()
    thread.start()
    try:
        assert thread in threads_started and thread.isRunning()
    finally:
        thread.quit()
        assert thread.wait(5000)


def test_the_windows_training_thread_is_watched_while_it_runs(window, threads_started):
    assert window.run.worker_thread.isRunning()
    assert window.run.worker_thread in threads_started
