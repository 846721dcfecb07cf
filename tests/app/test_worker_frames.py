"""The window trains at the speed of its solver, and draws what it is handed unchanged."""
import numpy as np
import pytest
from PySide6.QtCore import Qt

from svmdesk.app.training import solver_process
from svmdesk.app.training.run import RunState


def test_the_solver_is_asked_for_no_more_snapshots_than_frames_drawn():
    """SMO in the solver's process runs long batches between frames: the snapshots it makes
    are the frames sent (and the final one), not one per pair step. The window here draws
    each frame the moment it comes."""
    from svmdesk.core import SVC, make_dataset

    made = []

    class Counting(SVC):
        def iter_fit(self, *args, **kwargs):
            for step in super().iter_fit(*args, **kwargs):
                made.append(step.snapshot.iteration)
                yield step

    flags = [0.0] * 5
    flags[solver_process.DRAWN] = 1
    sent = []

    class Window:                          # the pipe's other end: draws each frame at once
        def send(self, message):
            sent.append(message)
            flags[solver_process.DRAWN] = 1

    data = make_dataset("moons", n=3000, noise=0.2, seed=0)
    solver_process._Run(Window(), flags, frame_rate=60.0).train(
        Counting(solver="smo", kernel="rbf", C=100.0), data.X, data.y)
    steps, end = [m for m in sent if m[0] == "step"], sent[-1]
    assert end[0] == "end" and len(made) <= len(steps) + 1 < end[1].snapshot.iteration


def _smo_on_moons(window, n, test_fraction=0.0):
    window.editing.generate("moons", n, 0.2, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("rbf")
    p.controls["C"].widget.set_value(100.0)
    p.data_box.test_fraction.setValue(test_fraction)


@pytest.mark.slow
def test_a_frame_is_sent_only_once_the_last_is_painted(window, qtbot, monkeypatch):
    """The solver's process goes on solving while the window paints, but sends its next
    snapshot only once the canvas has painted the last (back-pressure): frames never queue
    up behind a slow paint. A slow paint (20 ms more) would let a second frame in first;
    frames are wanted as often as they can be drawn, over a run that lasts seconds."""
    import time

    from PySide6.QtCore import QEvent, QObject

    from svmdesk.app.training import worker as worker_module

    from .test_window import set_up_a_long_run

    monkeypatch.setattr(worker_module, "FRAME_RATE", 1e9)
    events, fresh = [], [False]

    class SlowPaint(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and fresh[0]:   # a new frame's paint
                fresh[0] = False
                time.sleep(0.02)
                events.append("painted")
            return False

    def shown(frame):
        if not frame.run.final:            # the end comes whether or not the last is painted
            events.append("shown")
            fresh[0] = True

    slow = SlowPaint()
    window.canvas.viewport().installEventFilter(slow)
    set_up_a_long_run(window)
    window.frame_shown.connect(shown)
    qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: events.count("shown") >= 8, timeout=10_000)
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        window.stop()
    assert "shown, shown" not in ", ".join(events), events


def test_the_final_training_accuracy_is_the_models_own(window, qtbot):
    """The final frame takes the training accuracy from the solver's exact f (no second
    prediction pass): it equals the fitted model's own predictions, held-out points apart."""
    _smo_on_moons(window, 800, test_fraction=0.25)
    with qtbot.waitSignal(window.training_ended, timeout=10_000) as ended:
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    final = ended.args[0]
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    assert test.sum() == 200

    def accuracy(chosen):
        return np.mean(final.scene.colours[final.model.predict_indices(X[chosen])] == y[chosen])

    reading = final.reading
    assert reading.train_accuracy == accuracy(~test) and reading.test_accuracy == accuracy(test)
    assert 0.5 < final.reading.train_accuracy < 1.0


@pytest.mark.slow
def test_a_window_out_of_sight_still_gets_its_frames(window, qtbot):
    """A window out of sight paints nothing: its frames count as drawn at once, so the
    run neither waits on paints that never come nor stops sending frames."""
    from .test_window import set_up_a_long_run

    set_up_a_long_run(window)
    window.hide()
    shown = []
    window.frame_shown.connect(shown.append)
    window.train()
    qtbot.waitUntil(lambda: len(shown) >= 4, timeout=10_000)
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        window.stop()
    assert shown[-1].run.final and shown[-1].run.stopped


@pytest.mark.slow
def test_the_end_of_a_run_is_drawn_once(window, qtbot, monkeypatch):
    """The converged snapshot is the final frame: it is not drawn first as a live frame
    too (at 20,000 points that cost a frame's work and paint at the very end). Frames are
    wanted as often as they can be drawn here, so the old double drawing would show."""
    from svmdesk.app.training import worker as worker_module

    monkeypatch.setattr(worker_module, "FRAME_RATE", 1e9)
    _smo_on_moons(window, 8000)
    shown = []
    window.frame_shown.connect(shown.append)
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    live = [f for f in shown if not f.run.final]
    # the first snapshot always goes (the window has drawn nothing yet); how many follow
    # depends on the machine's pace (the solver never waits for a paint): one is enough
    # here, and the solver's side is held to it over every snapshot below
    assert len(live) >= 1 and shown[-1].run.final
    assert not any(f.reading.snapshot.converged for f in live)
    assert live[-1].reading.snapshot.iteration <= shown[-1].reading.snapshot.iteration


def test_the_solver_sends_its_converged_snapshot_with_the_end_only():
    """The solver's side of drawing the end once, over a run whose every snapshot is
    wanted (a window that draws each at once, no frame rate): each step sent is short of
    the converged one, which comes with the end."""
    from svmdesk.core import SVC, make_dataset

    flags = [0.0] * 5
    flags[solver_process.DRAWN] = 1
    sent = []

    class Window:
        def send(self, message):
            sent.append(message)
            flags[solver_process.DRAWN] = 1

    data = make_dataset("moons", n=400, noise=0.2, seed=0)
    solver_process._Run(Window(), flags, frame_rate=1e9).train(
        SVC(solver="smo", kernel="rbf", C=100.0), data.X, data.y)
    steps, end = [m for m in sent if m[0] == "step"], sent[-1]
    assert len(steps) >= 10 and end[0] == "end" and end[1].snapshot.converged
    assert not any(m[1].snapshot.converged for m in steps)


def test_twenty_thousand_points_are_typed_and_generated(window, qtbot):
    """A lab trains 20,000 generated points: the n field takes the number as typed."""
    field = window.panel.data_box.n_points
    field.lineEdit().selectAll()
    qtbot.keyClicks(field, "20000")
    qtbot.mouseClick(window.panel.data_box.generate_button, Qt.MouseButton.LeftButton)
    assert field.value() == 20000 and len(window.points) == 20000


@pytest.mark.slow
def inside_the_view(canvas, differ: np.ndarray) -> np.ndarray:
    """The pixels of a grabbed canvas (rows of 4 bytes a pixel) that differ, but for the
    view's own border: it may round a pixel row either way (the clip of a cached pixmap
    against a fresh paint, depending on the canvas's height), and only what lies inside
    it must match."""
    differ = differ.copy()
    box = canvas.mapFromScene(canvas.view.sceneBoundingRect()).boundingRect()
    for edge in (box.top(), box.bottom()):
        differ[max(edge - 1, 0):edge + 2] = False
    for edge in (box.left(), box.right()):
        differ[:, 4 * max(edge - 1, 0):4 * (edge + 2)] = False
    return differ


def test_the_cached_points_look_the_same_as_points_painted_afresh(window, qtbot):
    """The class markers are painted once into a pixmap and copied while a model trains
    under them: the canvas shows what painting them afresh shows, to the rounding of the
    copy over the shading (three levels in 255; a marker out of place differs by a hundred
    and more), after a run, a zoom and a moved point too."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QGraphicsItem

    _smo_on_moons(window, 3000)
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    canvas, items = window.canvas, [*window.canvas.scatter, window.canvas.held_out]
    assert {item.cacheMode() for item in items} == {QGraphicsItem.CacheMode.DeviceCoordinateCache}

    def looks(cache) -> np.ndarray:
        for item in items:
            item.setCacheMode(cache)
        canvas.viewport().repaint()
        image = canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
        return rows[:, :4 * image.width()].astype(int)

    before = None
    for change in (lambda: None, lambda: canvas.view.scaleBy((0.7, 0.7)),
                   lambda: window.points.move(0, (0.3, 0.2))):
        change()
        qtbot.wait(50)
        cached = looks(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        differ = np.abs(cached - looks(QGraphicsItem.CacheMode.NoCache)) > 3
        assert not inside_the_view(canvas, differ).any()
        assert before is None or (cached != before).any()      # each change shows
        before = cached


@pytest.mark.slow
def test_markers_on_the_views_edge_are_whole_after_a_pan(window, qtbot):
    """Markers beyond the view's edge, or cut by it, are drawn whole once a pan (a drag on
    empty plot) brings them in: the cached pixmap of the points is painted anew, not
    scrolled with the markers left out or cut in half."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QGraphicsItem

    from tests.app.test_window import drag

    window.editing.generate("moons", 3000, 0.2, 0)
    canvas = window.canvas
    canvas.view.setRange(xRange=(0.2, 1.2), yRange=(-0.3, 0.5), padding=0)
    qtbot.wait(50)
    # an empty spot to drag from: far (in pixels) from every point
    view = canvas.view.viewRange()
    spots = [(x, y) for x in np.linspace(*view[0], 40)[5:-5]
             for y in np.linspace(*view[1], 40)[5:-5]]
    pixels = canvas.view.viewPixelSize()
    empty = max(spots, key=lambda s: np.min(np.hypot((window.points.X[:, 0] - s[0]) / pixels[0],
                                                     (window.points.X[:, 1] - s[1]) / pixels[1])))
    drag(window, empty, (empty[0] + 60 * pixels[0], empty[1] + 45 * pixels[1]))
    qtbot.wait(50)

    def looks() -> np.ndarray:
        image = canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
        return rows[:, :4 * image.width()].astype(int)

    panned = looks()
    for item in canvas.scatter:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)      # painted afresh
    differ = inside_the_view(canvas, np.abs(panned - looks()) > 3)
    assert not differ.any(), np.argwhere(differ)[:5]


@pytest.mark.slow
def test_the_windows_objects_are_set_apart_from_the_garbage_collector(window):
    """Full collections do not walk the window's own objects (each walk held the GIL
    about 30 ms at a run's start); what is made afterwards is still collected."""
    import gc
    import weakref

    from svmdesk.app import set_apart_the_windows_objects

    try:
        set_apart_the_windows_objects()
        assert gc.get_freeze_count() > 1000

        class Node:
            pass

        node = Node()
        node.itself = node                       # a cycle: only the collector frees it
        gone = weakref.ref(node)
        del node
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()


@pytest.mark.slow
def test_a_solver_process_that_dies_is_said_and_the_next_run_trains(window, qtbot):
    """The solver's process killed mid-run (out of memory, a crash in native code): the
    window says so in words, and the next Train starts a new process and trains."""
    _smo_on_moons(window, 20000)
    # a run that waits at its first iteration (Step at rest): a run under way could end
    # between its first frame and the kill on a busy machine, and then nothing failed
    qtbot.mouseClick(window.panel.run_box.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED and window.last_frame
                    is not None and window.last_frame.run.paused, timeout=10_000)
    with qtbot.waitSignal(window.training_failed, timeout=10_000) as failed:
        window.run.worker.solver.process.kill()
    assert "process ended" in failed.args[0] and "train again" in failed.args[0]
    assert window.notices.banner.isVisible() and not window.running
    window.panel.controls["C"].widget.set_value(1.0)
    with qtbot.waitSignal(window.training_ended, timeout=10_000) as ended:
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    assert ended.args[0].reading.snapshot.converged


def test_the_solver_process_loads_no_qt():
    """The solver's process imports its module alone: no Qt there (the memory and the start
    of a second GUI library for nothing)."""
    import subprocess
    import sys

    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, svmdesk.app.training.solver_process; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] in "
         "('PySide6', 'pyqtgraph', 'qasync', 'shiboken6')))"],
        capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.strip() == "[]"


def test_a_window_shut_down_twice_hands_its_solver_to_one_window(qtbot):
    """Closing a window shuts it down, and so may its owner after: its solver's process
    goes to the next window once, never to two windows at a time."""
    from svmdesk.app.shell.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    first.shutdown()
    second = MainWindow()                    # takes the process the first gave back
    qtbot.addWidget(second)
    first.shutdown()
    third = MainWindow()
    qtbot.addWidget(third)
    try:
        assert second.run.worker.solver is not third.run.worker.solver
    finally:
        second.shutdown()
        third.shutdown()


def test_a_last_frame_that_cannot_be_made_is_said_and_the_next_run_trains(window, qtbot,
                                                                          monkeypatch):
    """The run's end read, its last frame fails to draw: the window says why and stands
    ready; the worker had waited for an end the solver had already sent, and hung."""
    from svmdesk.app.training import framing

    def broken(*args, **kwargs):
        raise ValueError("no picture")

    _smo_on_moons(window, 60)
    monkeypatch.setattr(framing, "fitted_frame", broken)
    with qtbot.waitSignal(window.training_failed, timeout=10_000) as failed:
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    assert "no picture" in failed.args[0]
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    monkeypatch.undo()
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
