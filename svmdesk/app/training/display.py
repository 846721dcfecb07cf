"""What the window shows of training: the frames the run controller reports, drawn on the
canvas, with the charts and the readout redrawn between the canvas's paints; the run's state,
warnings and failures as notices; and the model redrawn over the view once it has settled.

The run controller (run.py) owns the run; this only draws what it reports, and tells it when
a frame is on the screen (the solver rests until then).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal, Slot

from ...drawing.frame_views import regrid
from ...i18n import N_, tr
from ..background import in_background
from .run import AT_REST, RunController, RunState

if TYPE_CHECKING:
    from ...drawing.decision_grid import GridSpec
    from ..document.work import Work
    from ..widgets.canvas import Canvas
    from ..widgets.charts import TrainingCharts
    from ..widgets.evaluation.view import EvaluationView
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel

VIEW_SETTLE_MS = 150         # the view stood still this long: shade what it shows
TEXT_INTERVAL = 0.1          # s between redraws of the charts and readout: nobody reads
                             # numbers or curves that change more than 10 times a second
STATE_WORDS = {RunState.RUNNING: N_("training…"), RunState.PAUSED: N_("paused"),
               RunState.STEPPING: N_("stepping…"), RunState.PLAYING: N_("playing…"),
               RunState.STOPPING: N_("stopping…")}


@dataclass(frozen=True)
class ShownModel:
    """A model as the window showed it once a run had ended (or a file had brought it): put
    aside by an undo step, shown again as it was without training."""

    frame: Any                   # the frame drawn (drawing.scenes.Frame)
    fitted: Any                  # the document's model (None: a run stopped before one)
    params: dict | None          # the parameters it was trained with
    kind: str
    history: np.ndarray          # the charts' rows
    state: str                   # what the readout said of the run


class RunDisplay(QObject):
    frame_shown = Signal(object)     # a frame was drawn (GUI thread)
    training_ended = Signal(object)  # the final frame was drawn
    training_failed = Signal(str)    # the error was shown
    run_started = Signal()           # a run started from the work as it is now
    model_changed = Signal()         # a run ended: its model (None if stopped) is the document's

    def __init__(self, run: RunController, canvas: Canvas, charts: TrainingCharts,
                 panel: SidePanel, notices: Notices, work: Work,
                 refusal: Callable[[], str], grid_spec: Callable[[], GridSpec],
                 evaluation: EvaluationView, parent: QObject | None = None):
        """`refusal()`: why the run cannot start now ('' when it can); `grid_spec()`: the
        grid of the rectangle the canvas shows; `evaluation`: the view of the confusion
        matrices and curves, redrawn with the readout."""
        super().__init__(parent)
        self.run, self.canvas, self.charts = run, canvas, charts
        self.panel, self.readout = panel, panel.readout_box
        self.notices, self.work = notices, work
        self.refusal, self.grid_spec = refusal, grid_spec
        self.evaluation = evaluation
        self._warned_in_run = False  # the run raised a warning (shown in the status bar)
        self._regrids = 0            # redraws for a moved view asked for (the newest wins)
        self._texted = 0.0           # when the charts and readout last fell due
        self._texts = (self.charts.redraw_objective, self.charts.redraw_gap,
                       self._show_last_readout, self._show_last_evaluation)
        # redraw -> when it fell due (oldest first): each waits for a paint of the canvas,
        # none is ever dropped
        self._texts_due: dict[Callable[[], None], float] = {}
        self._training_words = ""    # the status bar's line while the run trains
        self._frame_unpainted = False  # the run's last frame is not yet on the screen
        r = self.run
        r.started.connect(self._on_started)
        r.state_changed.connect(self._on_state)
        r.frame.connect(self.on_frame)
        r.finished.connect(self.on_finished)
        r.failed.connect(self.on_failed)
        r.refused.connect(self._on_refused)
        r.warned.connect(self._on_warned)
        self.canvas.painted.connect(self._on_canvas_painted)
        # the shading follows the view: once it has settled, the model is drawn again
        # over the rectangle in sight (the run's next frames too)
        self._view_settled = QTimer(self, singleShot=True, interval=VIEW_SETTLE_MS)
        self._view_settled.timeout.connect(self._follow_view)
        self.canvas.view.sigRangeChanged.connect(lambda *_: self._view_settled.start())

    @property
    def last_frame(self):
        """The frame drawn: the canvas's (None: no model)."""
        return self.canvas.frame

    # -- what is drawn ------------------------------------------------------------------------
    def show(self, frame, state: str) -> None:
        """Draw a frame that no run made (an opened model), with the readout's state."""
        self.canvas.show_frame(frame)
        self.readout.show_frame(frame)
        self.readout.show_state(state)
        self._show_last_evaluation()

    def clear(self) -> None:
        """No model: the canvas, the charts and the readout empty."""
        self.canvas.clear_model()
        self.charts.clear()
        self.readout.clear()
        self.evaluation.show_evaluation(None, self.blank_names())

    def shown_model(self) -> ShownModel | None:
        """The model shown now, to show again later (None: none, or a run under way, which
        an undo step cuts short)."""
        frame = self.last_frame
        if frame is None or self.run.active:
            return None
        return ShownModel(frame, self.work.fitted, self.work.trained_params,
                          self.work.trained_kind, self.charts.history.rows(),
                          self.readout.values["state"].text())

    def show_again(self, shown: ShownModel | None) -> None:
        """Stop any run and show `shown` as it was shown (None: no model), without training:
        the document's model, the canvas, the charts, the readout and the evaluation."""
        self.run.reset()
        if shown is None:
            self.work.fitted = None
            self.clear()
        else:
            self.work.take_model(shown.fitted, shown.params, shown.kind)
            self.charts.show_rows(shown.history)
            if shown.params is not None:
                self.readout.mark_objective(shown.params["solver"])
            self.readout.show_kind(shown.kind)
            self.show(shown.frame, shown.state)
            self._view_settled.start()       # drawn anew if the view moved meanwhile
        self.notices.recheck()
        self.model_changed.emit()

    def inputs_changed(self) -> None:
        """The points or the parameters changed: a message whose cause is gone goes, and
        with no model drawn the empty matrices name the classes the points have now."""
        self.notices.recheck()
        if self.last_frame is None:
            self.evaluation.show_evaluation(None, self.blank_names())

    # -- what the run reports -----------------------------------------------------------------
    @Slot(object)
    def _on_started(self, job) -> None:
        self._warned_in_run = False
        self.notices.clear_error()
        self.charts.clear()
        self.work.trained_params, self.work.trained_kind = job.params, job.kind
        self.readout.mark_objective(job.params["solver"])
        self.readout.show_kind(job.kind)
        self._training_words = tr("Training {solver} with the {kernel} kernel… (Space "
                                  "pauses, Esc stops)").format(
            solver=self.panel.solver.currentText(), kernel=self.panel.kernel.currentText())
        if self.run.state == RunState.RUNNING:
            self.notices.say(self._training_words)
        self.run_started.emit()

    @Slot(str)
    def _on_state(self, state: str) -> None:
        self.panel.run_box.show_run_state(state)
        if RunState(state) == RunState.PAUSED and self.last_frame is not None:
            self._show_texts()                 # Play paused: where it stands, in full
        word = STATE_WORDS.get(RunState(state))
        if word:
            self.readout.show_state(tr(word))
        if RunState(state) == RunState.IDLE:   # reset: nothing of the run is said again
            self._training_words, self._warned_in_run = "", False
        elif RunState(state) in AT_REST:       # the next run's start says its own line
            self._training_words = ""
        line = self._status_line(RunState(state))
        if line:
            self.notices.say(line)

    def _status_line(self, state: RunState) -> str:
        """What the status bar says of the run in `state` ('' : what the run's start, end
        or failure says instead)."""
        # a sentence of its own after the line
        warned = (" " + tr("A warning was raised: View > Log shows it.")
                  if self._warned_in_run else "")
        if state in (RunState.PAUSED, RunState.STEPPING):
            return tr("Paused (Space resumes, Step shows one more iteration, Esc "
                      "stops).") + warned
        if state == RunState.PLAYING:
            return tr("Playing at the slider's pace (Space pauses, Esc stops).") + warned
        if state == RunState.RUNNING and self._training_words:     # resumed
            return self._training_words + warned
        if state == RunState.STOPPING:
            return tr("Stopping…")
        return ""

    @Slot(str)
    def _on_refused(self, message: str) -> None:
        self.notices.logged_error(tr("cannot train"), message,
                                  cause=lambda: self.refusal() == message)

    @Slot(str)
    def _on_warned(self, message: str) -> None:
        self.notices.warning(message)
        self._warned_in_run = True

    @Slot(object)
    def on_frame(self, frame) -> None:
        self.canvas.show_frame(frame)
        self.charts.extend(frame.reading.history)
        now = time.perf_counter()
        # a paused run shows exactly where it stands; Play's frames come too fast to read
        # (up to 60 a second): their texts are paced as a running run's, and shown whole
        # when Play pauses (_on_state)
        if frame.run.final or (frame.run.paused and self.run.state != RunState.PLAYING):
            self._show_texts()
        elif now - self._texted >= TEXT_INTERVAL:
            self._texted = now
            for text in self._texts:           # one still waiting keeps its place in line
                self._texts_due.setdefault(text, now)
        self.frame_shown.emit(frame)
        # The next frame waits until this one is painted; a canvas out of sight (hidden,
        # minimised, on another desktop) paints nothing, so there it counts as drawn at once.
        screen = self.canvas.window().windowHandle()
        self._frame_unpainted = (self.canvas.isVisible() and screen is not None
                                 and screen.isExposed())
        if not self._frame_unpainted:
            self.run.frame_drawn()

    @Slot(object)
    def on_finished(self, frame) -> None:
        self.on_frame(frame)
        self.work.fitted = frame.estimator       # None for a stopped run
        self.model_changed.emit()
        s = frame.reading.snapshot
        # every machine's word, not the last snapshot's: with three or more classes the
        # last machine may converge after an earlier one spent its budget
        converged = s.converged if frame.estimator is None else frame.estimator.converged_
        if frame.run.stopped:
            state = tr("stopped")
            said = tr("Training stopped after {iterations} iterations in {seconds} s.")
        elif converged:
            state = tr("converged")
            said = tr("Training converged after {iterations} iterations in {seconds} s.")
        else:
            state = tr("budget spent (not converged)")
            said = tr("Training budget spent (not converged) after {iterations} iterations "
                      "in {seconds} s.")
        self.readout.show_state(state)
        warned, self._warned_in_run = self._warned_in_run, False
        if not warned:                       # a warning's message stays in sight
            self.notices.say(said.format(iterations=s.iteration,
                                         seconds=f"{frame.reading.elapsed:.2f}"), 8000)
        self.training_ended.emit(frame)

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self._warned_in_run = False
        self.readout.show_state(tr("failed"))
        self.notices.log.add(tr("training failed"), message)
        self.notices.error(tr("Training failed: {message}").format(message=message))
        # (until the inputs change)
        self.training_failed.emit(message)

    # -- pacing: texts after paints -------------------------------------------------------------
    def _on_canvas_painted(self) -> None:
        if self._texts_due:                  # before the next frame can come
            QTimer.singleShot(0, self._show_due_texts)
        if self._frame_unpainted:            # the run's frame is on the screen: the solver,
            self._frame_unpainted = False    # resting meanwhile, goes on (back-pressure)
            self.run.frame_drawn()

    def _show_due_texts(self) -> None:
        """Charts and readout redraw just after the canvas has painted, the one due longest
        after each paint, so that every paint pass stays short: piled together (and onto
        the canvas's paint) they stalled the GUI thread for tens of milliseconds. One due
        for TEXT_INTERVAL already goes too: when paints are slow (a loaded machine) each
        text would otherwise wait its turn for paints, and the readout, last in line, was
        pushed back by every new frame and never shown."""
        now = time.perf_counter()
        for place, (text, since) in enumerate(list(self._texts_due.items())):
            if place == 0 or now - since >= TEXT_INTERVAL:
                del self._texts_due[text]
                text()

    def _show_texts(self) -> None:
        self._texts_due.clear()
        self.charts.redraw()
        self._show_last_readout()
        self._show_last_evaluation()

    def _show_last_readout(self) -> None:
        if self.last_frame is not None:
            self.readout.show_frame(self.last_frame)

    def _show_last_evaluation(self) -> None:
        """The evaluation of the frame drawn, its classes named as the points name them."""
        frame = self.last_frame
        if frame is None or frame.evaluation is None:      # the matrices stand empty
            self.evaluation.show_evaluation(None, self.blank_names())
            return
        self.evaluation.show_evaluation(frame.evaluation, self.class_names(),
                                        frame.probability_evaluation)

    def blank_names(self) -> list:
        """The classes of the empty matrices shown before a model: those the points use
        (novelty: the points and the marks; a regression: none)."""
        if self.work.points.novelty:
            return self.class_names()
        return self.work.used_class_names()

    def class_names(self) -> list:
        """What the view calls each canvas class: the points' class names; in novelty
        detection the points of the one class (0) and the marks (1); a regression has
        none."""
        if self.work.points.regression:
            return []
        if self.work.points.novelty:
            return [tr("inside"), tr("outlier marks")]
        return list(self.work.points.class_names)

    # -- the view follows -----------------------------------------------------------------------
    def _follow_view(self) -> None:
        """Shade the rectangle in sight at full resolution: the run's frames from now on,
        and the frame shown now (off the GUI thread when the app's loop runs)."""
        spec = self.grid_spec()
        if self.run.active:
            self.run.follow_view(spec)
        frame = self.last_frame
        if frame is None or frame.scene.spec == spec or (self.run.active and not frame.run.paused):
            return                          # nothing drawn, or the next frame follows
        self._regrids += 1
        request = self._regrids
        in_background(lambda: regrid(frame, spec),
                      lambda moved: self._show_regrid(frame, moved, request),
                      lambda e: self.notices.error(tr("Could not redraw the model for this "
                                                      "view: {error}").format(error=e)))

    def _show_regrid(self, frame, moved, request: int) -> None:
        """Draw a frame redrawn for the view, unless a newer view or frame came first."""
        if moved is None or request != self._regrids or self.last_frame is not frame:
            return
        self.canvas.show_frame(moved)
