"""The main window: wires points, undo stack, canvas, panel, charts and the training worker.

One worker object lives on one QThread for the window's lifetime, so only one training run
can ever execute. Edits with auto-retrain on stop the current run and start one fresh run
when it has ended, however many edits came in between (coalescing).
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCursor, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QMainWindow, QScrollArea,
                               QSplitter, QVBoxLayout, QWidget)

from ..core import DataError, make_dataset
from ..core.grid import GridSpec
from ..core.io import load_dataset
from .canvas import Canvas
from .charts import TrainingCharts
from .commands import AddPoint, MovePoint, RemovePoint, ReplacePoints
from .panel import SidePanel
from .points import MAX_CLASSES, PointSet
from .worker import Job, TrainingWorker, decision_at

GRID = 200                   # decision grid resolution per axis
DATA_FILES = "Data (*.csv *.tsv *.txt *.libsvm *.svm *.svmlight)"
TEXT_INTERVAL = 0.1          # s between redraws of the charts and readout: nobody reads
                             # numbers or curves that change more than 10 times a second


class MainWindow(QMainWindow):
    job_ready = Signal(object)      # queued to the worker thread
    frame_shown = Signal(object)    # a frame was drawn (GUI thread)
    training_ended = Signal(object) # the final frame was drawn
    training_failed = Signal(str)   # the error was shown

    def __init__(self, path: str | None = None):
        super().__init__()
        self.setWindowTitle("svmdesk — watch a support vector machine learn")
        self.points = PointSet(self)
        self.undo = QUndoStack(self)
        self.canvas = Canvas()
        self.panel = SidePanel()
        self.running = False
        self.restart_pending = False
        self.last_frame = None
        self._texted = 0.0           # when the charts and readout were last redrawn
        self._texts_due = False      # redraw them once the canvas has painted
        self._build_layout()
        self.canvas.viewport().installEventFilter(self)
        self._build_menus()
        self._start_worker()
        self._wire()
        self._load_demo()
        if path:
            asyncio.ensure_future(self.open_path(path))

    # -- construction ---------------------------------------------------------------------
    def _build_layout(self) -> None:
        self.charts = TrainingCharts()
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #FDEDEC; color: #922B21; padding: 6px;")
        self.banner.hide()
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.banner)
        column.addWidget(self.canvas, 1)
        charts = QHBoxLayout()
        charts.addWidget(self.charts.objective_plot, 3)
        charts.addWidget(self.charts.gap_plot, 3)
        charts.addWidget(self.panel.readout_box, 2)
        column.addLayout(charts)
        scroll = QScrollArea()
        scroll.setWidget(self.panel)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(370)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(0, 1)
        self.setCentralWidget(splitter)
        self.resize(1280, 820)
        self.statusBar().showMessage("Press Train (F5) to fit the demo data.")

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = _action(self, "&Open CSV…", "Ctrl+O", self._open_dialog)
        file_menu.addAction(self.open_action)
        file_menu.addSeparator()
        file_menu.addAction(_action(self, "&Quit", QKeySequence.StandardKey.Quit, self.close))
        edit = self.menuBar().addMenu("&Edit")
        undo = self.undo.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.undo.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addActions([undo, redo])
        edit.addAction(_action(self, "&Delete point under mouse", "Delete",
                               self._delete_under_mouse))
        train = self.menuBar().addMenu("&Train")
        self.train_action = _action(self, "&Train", "F5", self.train)
        self.train_action.setShortcuts([QKeySequence("F5"), QKeySequence("Ctrl+Return")])
        train.addAction(self.train_action)
        train.addAction(_action(self, "&Pause / resume", "Space",
                                lambda: self.panel.pause_button.toggle()))
        train.addAction(_action(self, "&Step", "", self.step))
        train.addAction(_action(self, "S&top", "Esc", self.stop))
        train.addAction(_action(self, "&Reset", "", self.reset))
        view = self.menuBar().addMenu("&View")
        view.addAction(_action(self, "&Fit view to data", "Ctrl+0", self.canvas.fit_view))
        for k in range(MAX_CLASSES):
            QShortcut(QKeySequence(str(k + 1)), self,
                      activated=lambda k=k: self.panel.klass.setCurrentIndex(k))

    def _start_worker(self) -> None:
        self.thread = QThread(self)
        self.worker = TrainingWorker()
        self.worker.moveToThread(self.thread)
        self.job_ready.connect(self.worker.run)
        self.worker.frame.connect(self.on_frame)
        self.worker.finished.connect(self.on_finished)
        self.worker.failed.connect(self.on_failed)
        self.thread.start()

    def _wire(self) -> None:
        self.points.changed.connect(self._points_changed)
        c, p = self.canvas, self.panel
        c.add_requested.connect(self.add_point)
        c.remove_requested.connect(lambda i: self.undo.push(RemovePoint(self.points, i)))
        c.drag_moved.connect(self._drag_moved)
        c.drag_finished.connect(self._drag_finished)
        c.hovered.connect(self._hovered)
        p.class_selected.connect(self._select_class)
        p.generate_requested.connect(self.generate)
        p.open_requested.connect(self._open_dialog)
        p.clear_requested.connect(self.clear_points)
        p.test_fraction_changed.connect(self._mark_test_points)
        p.train_requested.connect(self.train)
        p.pause_toggled.connect(self.worker.pause)
        p.step_requested.connect(self.step)
        p.stop_requested.connect(self.stop)
        p.reset_requested.connect(self.reset)
        p.fit_view_requested.connect(c.fit_view)
        p.hard_regions_toggled.connect(c.set_hard_regions)
        p.params_changed.connect(self._auto_retrain)

    def _load_demo(self) -> None:
        data = make_dataset("two_disks", n=100, seed=0)
        self.points.replace(data.X, data.y, class_names=data.class_names)
        self.panel.generator.setCurrentText("two_disks")
        self.panel.kernel.setCurrentText("linear")
        self.canvas.fit_view()

    # -- editing --------------------------------------------------------------------------
    @Slot(float, float, int)
    def add_point(self, x: float, y: float, label: int) -> None:
        self.undo.push(AddPoint(self.points, (x, y), label))

    def _select_class(self, k: int) -> None:
        self.canvas.current_class = k
        self.statusBar().showMessage(f"Clicks now add points of class {k + 1}.", 3000)

    def _drag_moved(self, index: int, x: float, y: float) -> None:
        if 0 <= index < len(self.points):
            self.points.move(index, (x, y))

    def _drag_finished(self, index: int, old, new) -> None:
        if 0 <= index < len(self.points):
            self.undo.push(MovePoint(self.points, index, old, new))

    def _delete_under_mouse(self) -> None:
        pos = self.canvas.viewport().mapFromGlobal(QCursor.pos())
        index = self.canvas.point_near(self.canvas.mapToScene(pos))
        if index >= 0:
            self.undo.push(RemovePoint(self.points, index))

    def generate(self, name: str, n: int, noise: float, seed: int) -> None:
        try:
            data = make_dataset(name, n=n, noise=noise, seed=seed)
        except ValueError as e:
            self.show_error(str(e))
            return
        self.undo.push(ReplacePoints(self.points, data.X, data.y,
                                     self._test_mask(len(data.y)), data.class_names,
                                     f"Generate {name}"))
        self.canvas.set_axis_names(data.feature_names)
        self.canvas.fit_view()

    def clear_points(self) -> None:
        self.undo.push(ReplacePoints(self.points, np.empty((0, 2)), np.empty(0, np.intp),
                                     text="Clear points"))

    def _mark_test_points(self, fraction: float) -> None:
        X, y, _, names = self.points.state()
        self.points.replace(X, y, self._test_mask(len(y)), names)

    def _test_mask(self, n: int) -> np.ndarray:
        k = int(round(self.panel.test_fraction.value() * n))
        mask = np.zeros(n, dtype=bool)
        mask[np.random.default_rng(self.panel.seed.value()).permutation(n)[:k]] = True
        return mask

    def _points_changed(self) -> None:
        X, y, test = self.points.X, self.points.y, self.points.test_mask
        self.canvas.set_points(X, y, test, self.points.class_names)
        self.panel.set_class_names(self.points.class_names)
        self._auto_retrain()

    # -- files ----------------------------------------------------------------------------
    def _open_dialog(self) -> None:
        if _has_loop():
            asyncio.ensure_future(self.choose_and_open())
        else:  # no asyncio loop (e.g. a plain Qt test): the blocking way
            path, _ = QFileDialog.getOpenFileName(self, "Open data", "", DATA_FILES)
            if path:
                self._apply_dataset(path, _load_or_error(path))

    async def choose_and_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open data", "", DATA_FILES)
        if path:
            await self.open_path(path)

    async def open_path(self, path: str) -> None:
        """Read a CSV off the GUI thread; bad files change nothing and say why."""
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, _load_or_error, path)
        self._apply_dataset(path, result)

    def _apply_dataset(self, path: str, result) -> None:
        if isinstance(result, str):
            self.show_error(result)
            return
        codes = np.asarray(result.y, dtype=np.intp)    # class indices into class_names
        if len(result.class_names) > MAX_CLASSES:
            self.show_error(f"{Path(path).name} has {len(result.class_names)} classes; the "
                            f"canvas shows at most {MAX_CLASSES}.")
            return
        self.undo.push(ReplacePoints(self.points, result.X[:, :2], codes,
                                     self._test_mask(len(codes)), result.class_names,
                                     f"Open {Path(path).name}"))
        self.canvas.set_axis_names(result.feature_names[:2])
        self.canvas.fit_view()
        self.statusBar().showMessage(f"Opened {path}: {len(codes)} points.", 5000)

    # -- training -------------------------------------------------------------------------
    def train(self) -> None:
        if self.running:
            self.restart_pending = True
            self.worker.stop()
            return
        job = self._job()
        if job is None:
            return
        self.running = True
        self.panel.set_running(True)
        self.hide_error()
        self.charts.clear()
        self.panel.readout["state"].setText("training…")
        self.statusBar().showMessage(f"Training {self.panel.solver.currentText()} with the "
                                     f"{job.params['kernel']} kernel… (Esc stops)")
        self.job_ready.emit(job)

    def _job(self):
        X, y, test = self.points.X, self.points.y, self.points.test_mask
        train = ~test
        try:
            params = self.panel.params()
        except ValueError as e:
            self.show_error(str(e))
            return None
        if len(np.unique(y[train])) < 2:
            self.show_error("Training needs points of at least two classes: left-click and "
                            "right-click the canvas to add some.")
            return None
        return Job(X[train], y[train], params, self._grid_spec(), X[test], y[test])

    def _grid_spec(self) -> GridSpec:
        (x0, x1), (y0, y1) = self.canvas.view.viewRange()
        return GridSpec(x0, x1, y0, y1, GRID, GRID)

    def _auto_retrain(self) -> None:
        if self.panel.auto_retrain.isChecked() and len(self.points):
            self.train()

    def step(self) -> None:
        if not self.running:
            self.panel.pause_button.setChecked(True)
            self.train()
        self.worker.step()

    def stop(self) -> None:
        if self.running:
            self.restart_pending = False
            self.worker.stop()

    def reset(self) -> None:
        self.stop()
        self.last_frame = None
        self.canvas.clear_model()
        self.charts.clear()
        for label in self.panel.readout.values():
            label.setText("–")

    @Slot(object)
    def on_frame(self, frame) -> None:
        self.last_frame = frame
        self.canvas.show_frame(frame)
        self.charts.extend(frame.history)
        now = time.perf_counter()
        if frame.final:
            self._show_texts()
        elif now - self._texted >= TEXT_INTERVAL:
            self._texted = now
            self._texts_due = True
        self.frame_shown.emit(frame)
        self.worker.frame_drawn()           # back-pressure: the next frame may come

    @Slot(object)
    def on_finished(self, frame) -> None:
        self.on_frame(frame)
        self._run_ended()
        s = frame.snapshot
        state = ("stopped" if frame.stopped else "converged" if s.converged
                 else "budget spent (not converged)")
        self.panel.readout["state"].setText(state)
        self.statusBar().showMessage(f"Training {state} after {s.iteration} iterations "
                                     f"in {frame.elapsed:.2f} s.", 8000)
        self.training_ended.emit(frame)

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self._run_ended()
        self.panel.readout["state"].setText("failed")
        self.show_error(f"Training failed: {message}")
        self.training_failed.emit(message)

    def _run_ended(self) -> None:
        self.running = False
        self.panel.set_running(False)
        if self.restart_pending:
            self.restart_pending = False
            self.train()

    # -- readout --------------------------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:
        # Charts and readout redraw just after the canvas has painted, so that their paint
        # comes in its own pass: piled onto the canvas's, it stalled the GUI thread.
        if (event.type() == QEvent.Type.Paint and self._texts_due
                and watched is self.canvas.viewport()):
            self._texts_due = False
            QTimer.singleShot(0, self._show_texts)
        return False

    def _show_texts(self) -> None:
        self.charts.redraw()
        if self.last_frame is not None:
            self._show_readout(self.last_frame)

    def _show_readout(self, frame) -> None:
        s, r = frame.snapshot, self.panel.readout
        r["iteration"].setText(f"{s.iteration}" + (f"  (machine {s.machine + 1} of "
                                                   f"{s.n_machines})" if s.n_machines > 1
                                                   else ""))
        r["primal"].setText(_num(s.primal_objective))
        r["dual"].setText(_num(s.dual_objective))
        gap = _num(s.gap) + (f" / {_num(s.kkt_violation)}" if s.kkt_violation is not None
                             else "")
        r["gap"].setText(gap)
        n_bounded = int(frame.bounded.sum())
        r["svs"].setText(f"{len(frame.support)}  ({len(frame.support) - n_bounded} free, "
                         f"{n_bounded} bounded)")
        r["train"].setText(_pct(frame.train_accuracy))
        r["test"].setText(_pct(frame.test_accuracy))
        r["margin"].setText(_num(frame.margin_width))
        r["elapsed"].setText(f"{frame.elapsed:.2f} s")

    def _hovered(self, x: float, y: float) -> None:
        text = f"x1 = {x:.3f}   x2 = {y:.3f}"
        if self.last_frame is not None:
            f, cls = decision_at(self.last_frame, (x, y))
            if f is not None:
                text += f"   f(x) = {f:+.3f}"
            text += f"   predicted class: {self.points.class_names[cls]}"
        self.statusBar().showMessage(text)

    def show_error(self, message: str) -> None:
        self.banner.setText(message)
        self.banner.show()
        self.statusBar().showMessage(message, 10000)

    def hide_error(self) -> None:
        self.banner.hide()

    # -- shutdown -------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop any run and join the worker thread (never leave a QThread running)."""
        self.restart_pending = False
        self.worker.stop()
        self.thread.quit()
        self.thread.wait()


def _action(parent, text, shortcut, slot) -> QAction:
    action = QAction(text, parent)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    parent.addAction(action)
    return action


def _has_loop() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


def _load_or_error(path: str):
    try:
        return load_dataset(path)
    except (DataError, OSError) as e:
        return str(e)


def _num(v) -> str:
    return "–" if v is None else f"{v:.6g}"


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"
