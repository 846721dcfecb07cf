"""The readout: the numbers of the moment drawn (iteration, objectives, gap, support
vectors, accuracies, margin, time) and the run's state, in a box beside the charts."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel

from ...core import catalog
from ...core.solvers.base import no_bound
from ...drawing.frames import Frame

ROWS = (("iteration", "iteration"), ("primal", "primal objective"),
        ("dual", "dual objective"), ("gap", "gap / KKT violation"),
        ("svs", "support vectors"), ("train", "train accuracy"), ("test", "test accuracy"),
        ("margin", "margin width 2/‖w‖"), ("elapsed", "elapsed"), ("state", "state"))
LEGEND = "rings: ○ free SV (0 < α < C) · □ bounded SV (α = C)"
HARD_LEGEND = "rings: ○ SV on its margin (α > 0) · □ SV inside its margin"
NOT_SEPARATED = ("Hard margin (C = ∞): every point must lie on or beyond its margin, and "
                 "no α is bounded. Points still inside their margin mean no boundary "
                 "separates these classes with this kernel (or the run ended before it "
                 "found one: View > Log says why it ended).")
NOT_PSD = ("The gap is negative: the kernel's matrix is not positive semi-definite for these "
           "points, so the dual objective is no lower bound and cannot certify convergence.")


class Readout(QGroupBox):
    def __init__(self, parent=None):
        super().__init__("Readout", parent)
        # A fixed size: values change many times a second, and a box that resized with
        # them would re-lay (and repaint) the whole window each time.
        self.setFixedWidth(360)
        form = QFormLayout(self)
        form.setVerticalSpacing(1)
        self.values = {}
        for key, label in ROWS:
            value = QLabel("–")
            value.setMinimumWidth(200)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(label, value)
            self.values[key] = value
        self.rule = ""              # what a support vector is, for the solver shown
        self.legend = QLabel(LEGEND)
        self.legend.setStyleSheet("color: #555; font-size: 11px")
        form.addRow(self.legend)

    def show_frame(self, frame: Frame) -> None:
        reading, scene = frame.reading, frame.scene
        s, m, r = reading.snapshot, reading.machine, self.values
        r["iteration"].setText(f"{s.iteration}" + (f"  (machine {m.index + 1} of {m.count})"
                                                   if m.count > 1 else ""))
        r["primal"].setText(_num(s.primal_objective))
        r["dual"].setText(_num(s.dual_objective))
        gap = _num(s.gap) + (f" / {_num(s.kkt_violation)}" if s.kkt_violation is not None
                             else "")
        # a primal grown without bound (hard margin) has an infinite gap: no bound to break
        negative = (s.gap is not None and s.primal_objective is not None
                    and math.isfinite(s.primal_objective) and math.isfinite(s.gap)
                    and no_bound(s.primal_objective, s.primal_objective - s.gap))
        if negative:
            gap += "  (no bound: kernel not PSD)"
        r["gap"].setToolTip(NOT_PSD if negative else "")
        r["gap"].setText(gap)
        r["svs"].setText(_support_vectors(frame))
        r["svs"].setToolTip(NOT_SEPARATED if scene.hard_margin else "")
        self.legend.setText((HARD_LEGEND if scene.hard_margin else LEGEND)
                            + (f"\nsupport vector: {self.rule}" if self.rule else ""))
        r["train"].setText(_pct(reading.train_accuracy))
        r["test"].setText(_pct(reading.test_accuracy))
        r["margin"].setText(_num(reading.margin_width))
        remaining = s.remaining if not (s.converged or frame.run.final) else None
        r["elapsed"].setText(f"{reading.elapsed:.2f} s" + ("" if remaining is None else
                                                           f"  (about {remaining:.0f} s more)"))

    def show_state(self, state: str) -> None:
        self.values["state"].setText(state)

    def clear(self) -> None:
        for label in self.values.values():
            label.setText("–")

    def mark_objective(self, solver: str) -> None:
        """The objective `solver` optimises (the catalog says which) in bold, with a tooltip
        saying so (the other one is a bound, or the primal of the dual's iterate); the
        legend says what a support vector is for it."""
        row = catalog.TABLE.solvers[solver]
        self.rule = getattr(row.implementation(), "SUPPORT_RULE", "")
        for key in ("primal", "dual"):
            mine = key == row.objective
            verb = "maximises" if key == "dual" else "minimises"
            self.values[key].setStyleSheet("font-weight: bold" if mine else "")
            self.values[key].setToolTip(f"{row.title} {verb} this objective" if mine else "")


def _support_vectors(frame: Frame) -> str:
    """How many support vectors, and how many of them are free and bounded; a hard margin
    bounds none: points inside their margin, or training points on the wrong side (a hard
    margin's solution has none), say the classes are not separated (at the end of a run:
    not separable; its model is then the best state found, not a solution)."""
    scene, accuracy = frame.scene, frame.reading.train_accuracy
    n, inside = len(scene.support), int(scene.bounded.sum())
    if not scene.hard_margin:
        return f"{n}  ({n - inside} free, {inside} bounded)"
    wrong = accuracy is not None and accuracy < 1.0
    if not inside and not wrong:
        return f"{n}  (all on their margin)"
    verdict = ("not separable" if frame.run.final and not frame.run.stopped
               else "not separated yet")
    # the box has room for few words (it is 1280 px wide)
    return f"{n}  ({inside} inside: {verdict})" if inside else f"{n}  ({verdict})"


def _num(v) -> str:
    return "–" if v is None or v != v else f"{v:.6g}"      # None or NaN: nothing to show


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"
