"""The readout: the numbers of the moment drawn (iteration, objectives, gap, support
vectors, accuracies, margin, time) and the run's state, in a box beside the charts."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel

from ...core import catalog
from ...core.kinds import C_SVC, EPSILON_SVR, KINDS, NU_SVC, NU_SVR, ONE_CLASS
from ...core.solvers.base import no_bound
from ...core.solvers.smo.trace import NewtonStep, Shrunk
from ...core.solvers.support import MARGIN_SLACK, SUPPORT_TOL, TOLERANCE_RULE
from ...drawing.scenes import Frame
from ...i18n import N_, tr

ROWS = (("iteration", N_("iteration")), ("primal", N_("primal objective")),
        ("dual", N_("dual objective")), ("gap", N_("gap / KKT violation")),
        ("pair", N_("pair step")),
        ("svs", N_("support vectors")), ("fractions", N_("errors ≤ ν ≤ SVs")),
        ("train", N_("train accuracy")), ("test", N_("test accuracy")),
        ("marks", N_("outlier marks caught")), ("margin", N_("margin width 2/‖w‖")),
        ("elapsed", N_("elapsed")), ("state", N_("state")))
LEGEND = N_("rings: ○ free SV (0 < α < C) · □ bounded SV (α = C)")
HARD_LEGEND = N_("rings: ○ SV on its margin (α > 0) · □ SV inside its margin")
PRIMAL_LEGEND = N_("rings: ○ SV on its margin · □ SV inside its margin (hinge loss > 0)")
ONE_CLASS_LEGEND = N_("rings: ○ SV on the edge (0 < α < 1) · □ SV outside (α = 1) · red ✕: "
                      "outside the region, f(x) < 0")
REGRESSION_LEGEND = N_("rings: ○ SV on the tube's edge · □ SV outside the tube; grey lines: "
                       "residuals")
# The rows a kind names its own way: the fractions beside nu (the nu-property), and a
# regressor's fit, tube and points outside it
LABELS = {
    NU_SVC.key: {"fractions": N_("errors ≤ ν ≤ SVs")},
    ONE_CLASS.key: {"fractions": N_("outside ≤ ν ≤ SVs")},
    EPSILON_SVR.key: {"fractions": N_("outside the tube"), "train": N_("train R² (MSE)"),
                      "test": N_("test R² (MSE)"), "margin": N_("tube half-width ε")},
    NU_SVR.key: {"fractions": N_("outside ≤ ν ≤ SVs"), "train": N_("train R² (MSE)"),
                 "test": N_("test R² (MSE)"), "margin": N_("tube half-width found")}}
FRACTIONS_TIPS = {
    NU_SVC.key: N_("ν-SVC's ν-property: the fraction of margin errors (points inside their "
                 "margin or on the wrong side) is at most ν, and the fraction of support "
                 "vectors at least ν. With three or more classes, each pair's machine has its "
                 "own fractions: the lowest and highest are shown."),
    ONE_CLASS.key: N_("The one-class SVM's ν-property: the fraction of training points outside "
                    "the region (f < 0) is at most ν, and the fraction of support vectors at "
                    "least ν."),
    EPSILON_SVR.key: N_("The share of training samples outside the tube: their errors beyond "
                      "ε cost C each; inside the tube errors cost nothing."),
    NU_SVR.key: N_("ν-SVR's ν-property: the fraction of training samples outside the tube is "
                 "at most ν, and the fraction of support vectors at least ν; the tube's "
                 "width is found with the curve.")}
NOT_SEPARATED = N_("Hard margin (C = ∞): every point must lie on or beyond its margin, and "
                   "no α is bounded. Points still inside their margin mean no boundary "
                   "separates these classes with this kernel (or the run ended before it "
                   "found one: View > Log says why it ended).")
NOT_PSD = N_("The gap is negative: the kernel's matrix is not positive semi-definite for "
             "these points, so the dual objective is no lower bound and cannot certify "
             "convergence.")
# The words of the run's states the readout shows (app/training/display.py and the end of a
# run say them in English): translated in show_state().
STATES = (N_("training…"), N_("paused"), N_("stepping…"), N_("playing…"), N_("stopping…"),
          N_("stopped"), N_("converged"), N_("budget spent (not converged)"), N_("failed"))
PAIR_TIP = N_("SMO moves two multipliers at a time. i: the point that breaks the optimality "
              "(KKT) conditions most among those whose y α may grow; j: the partner that "
              "promises the dual the largest rise (the second-order choice, as LIBSVM's). "
              "The step keeps y_i α_i + y_j α_j as it was; clipped: the box 0 ≤ α ≤ C "
              "stopped it short of the pair's optimum.")
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
# The words of core/solvers/support.py's rules that are words (MARGIN_RULE): see _rule().
RULES = (N_("on or inside its margin"),)


class Readout(QGroupBox):
    def __init__(self, parent=None):
        super().__init__(tr("Readout"), parent)
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
            form.addRow(tr(label), value)
            self.values[key] = value
        self._form = form
        pair = self.values["pair"]
        pair.setWordWrap(True)                      # the step in words: up to two lines,
        pair.setStyleSheet("font-size: 11px")       # their room kept whatever it says (a
        lines = pair.fontMetrics().lineSpacing()    # squeezed box overlapped the second
        pair.setMinimumHeight(2 * lines + 2)        # line with the next row, and a row
        pair.setToolTip(tr(PAIR_TIP))               # that grew moved the canvas)
        self.kind = C_SVC.key       # the kind of machine shown
        self.rule = ""              # what a support vector is, for the solver shown
        self.legend = QLabel(tr(LEGEND))
        self.legend.setStyleSheet("color: #555; font-size: 11px")
        self.legend.setWordWrap(True)               # a longer language wraps, never cuts
        # room for its second line (what a support vector is, once a run says) from the
        # start: the box grew at a run's start in Japanese, and the canvas above shrank
        self.legend.ensurePolished()
        self.legend.setMinimumHeight(2 * self.legend.fontMetrics().lineSpacing() + 2)
        form.addRow(self.legend)
        self.show_kind(C_SVC.key)

    def show_frame(self, frame: Frame) -> None:
        reading, scene = frame.reading, frame.scene
        s, m, r = reading.snapshot, reading.machine, self.values
        r["iteration"].setText(f"{s.iteration}" if m.count <= 1 else
                               tr("{iteration}  (machine {machine} of {count})").format(
                                   iteration=s.iteration, machine=m.index + 1, count=m.count))
        # the slacks' sum beside the primal they make (a hard margin allows none)
        r["primal"].setText(_num(s.primal_objective)
                            if reading.slack is None or scene.hard_margin
                            or not math.isfinite(s.primal_objective) else
                            tr("{primal}  (Σξ {slack})").format(
                                primal=_num(s.primal_objective), slack=_num(reading.slack)))
        r["dual"].setText(_num(s.dual_objective))
        gap = _num(s.gap) + (f" / {_num(s.kkt_violation)}" if s.kkt_violation is not None
                             else "")
        # a primal grown without bound (hard margin) has an infinite gap: no bound to break
        negative = (s.gap is not None and s.primal_objective is not None
                    and math.isfinite(s.primal_objective) and math.isfinite(s.gap)
                    and no_bound(s.primal_objective, s.primal_objective - s.gap))
        if negative:
            gap = tr("{gap}  (no bound: kernel not PSD)").format(gap=gap)
        r["gap"].setToolTip(tr(NOT_PSD) if negative else "")
        r["gap"].setText(gap)
        r["pair"].setText(_step_words(reading, self.kind) if frame.run.paused
                          else tr("Step shows each pair"))
        r["svs"].setText(_support_vectors(frame))
        r["svs"].setToolTip(tr(NOT_SEPARATED) if scene.hard_margin else "")
        shown = _legend(self.kind)
        if self.kind == C_SVC.key and scene.hard_margin:
            shown = HARD_LEGEND
        elif self.kind == C_SVC.key and scene.ring_share is None:   # a primal solver: no α
            shown = PRIMAL_LEGEND
        legend = tr(shown)
        if self.rule:
            legend += "\n" + tr("support vector: {rule}").format(rule=_rule(self.rule))
        self.legend.setText(legend)
        r["fractions"].setText(_fractions(reading.fractions))
        r["train"].setText(_pct(reading.train_accuracy))
        r["test"].setText(_pct(reading.test_accuracy))
        if reading.fit is not None:
            self._show_fit(reading.fit)
        marks = reading.marks_outside
        r["marks"].setText("–" if marks is None else tr("{caught} of {marks} outside").format(
            caught=marks[0], marks=marks[1]))
        if reading.fit is None:
            r["margin"].setText(_num(reading.margin_width))
        remaining = s.remaining if not (s.converged or frame.run.final) else None
        r["elapsed"].setText(
            tr("{seconds} s").format(seconds=f"{reading.elapsed:.2f}") if remaining is None
            else tr("{seconds} s  (about {remaining} s more)").format(
                seconds=f"{reading.elapsed:.2f}", remaining=f"{remaining:.0f}"))

    def _show_fit(self, fit) -> None:
        """A regressor's rows: R^2 and MSE on the training and held-out samples, the tube's
        half-width, the samples outside it (nu-SVR: beside nu and the support vectors)."""
        r = self.values
        r["train"].setText(_r2(fit.r2, fit.mse))
        r["test"].setText(_r2(fit.r2_test, fit.mse_test))
        r["margin"].setText(_num(fit.tube))
        r["fractions"].setText(
            _pct(fit.outside) if fit.nu is None else
            f"{100 * fit.outside:.1f} % ≤ {fit.nu:g} ≤ {100 * fit.support:.1f} %")

    def show_kind(self, kind: str) -> None:
        """The rows of `kind`, named its way: the nu-property's fractions for nu-SVC and the
        one-class SVM; for the one-class SVM the outlier marks caught and no train accuracy
        or margin (its points have no classes to get right); for a regressor R^2 and MSE,
        the tube's half-width and the samples outside it."""
        self.kind = kind
        self.legend.setText(tr(_legend(kind)))
        novelty = KINDS[kind].novelty
        shown = {"fractions": kind in LABELS, "marks": novelty, "train": not novelty,
                 "margin": not novelty}
        for key, visible in shown.items():
            self._form.setRowVisible(self.values[key], visible)
        labels = LABELS.get(kind, {})
        for key, label in ROWS:
            row = self._form.labelForField(self.values[key])
            assert isinstance(row, QLabel), "each row was added with its label's text"
            row.setText(tr(labels.get(key, label)))
        self.values["fractions"].setToolTip(tr(FRACTIONS_TIPS[kind]) if kind in FRACTIONS_TIPS
                                            else "")

    def show_state(self, state: str) -> None:
        self.values["state"].setText(tr(state))

    def clear(self) -> None:
        for label in self.values.values():
            label.setText("–")

    def mark_objective(self, solver: str) -> None:
        """The objective `solver` optimises (the catalog says which) in bold, with a tooltip
        saying so (the other one is a bound, or the primal of the dual's iterate); the
        legend says what a support vector is for it."""
        row = catalog.TABLE.solvers[solver]
        self.rule = getattr(row.implementation(), "SUPPORT_RULE", "")
        self._form.setRowVisible(self.values["pair"], solver == "smo")   # SMO's pairs alone
        for key in ("primal", "dual"):
            mine = key == row.objective
            said = (tr("{solver} maximises this objective") if key == "dual"
                    else tr("{solver} minimises this objective"))
            self.values[key].setStyleSheet("font-weight: bold" if mine else "")
            self.values[key].setToolTip(said.format(solver=tr(row.title)) if mine else "")


def _support_vectors(frame: Frame) -> str:
    """How many support vectors, and how many of them are free and bounded; a hard margin
    bounds none: points inside their margin, or training points on the wrong side (a hard
    margin's solution has none), say the classes are not separated (at the end of a run:
    not separable; its model is then the best state found, not a solution)."""
    scene, accuracy = frame.scene, frame.reading.train_accuracy
    n, inside = len(scene.support), int(scene.bounded.sum())
    if not scene.hard_margin:
        return tr("{n}  ({free} free, {bounded} bounded)").format(n=n, free=n - inside,
                                                                  bounded=inside)
    wrong = accuracy is not None and accuracy < 1.0
    if not inside and not wrong:
        return tr("{n}  (all on their margin)").format(n=n)
    separable = frame.run.final and not frame.run.stopped
    # the box has room for few words (it is 1280 px wide)
    if inside:
        return (tr("{n}  ({inside} inside: not separable)") if separable
                else tr("{n}  ({inside} inside: not separated yet)")).format(n=n, inside=inside)
    return (tr("{n}  (not separable)") if separable
            else tr("{n}  (not separated yet)")).format(n=n)


def _step_words(reading, kind: str) -> str:
    """What SMO did last: its pair step in words, and a shrink or Newton step after it."""
    words = [] if reading.pair_step is None else [_pair_step(reading.pair_step, kind)]
    for record in reading.snapshot.trace:
        if isinstance(record, Shrunk):
            words.append(tr("shrinking set {count} points aside").format(
                count=record.active_before - record.active_after))
        elif isinstance(record, NewtonStep):
            words.append(tr("a Newton step moved {count} free multipliers together").format(
                count=record.moved))
    return tr("; ").join(words) or "–"


def _pair_step(step, kind: str) -> str:
    """'pair (17, 203): α₁₇ 0 → 0.42, α₂₀₃ 1 → 0.58, clipped at C', or '–' (no pair
    step: another solver, or a Newton or shrinking step alone)."""
    if step is None:
        return "–"

    def alpha(k: int, star: bool | None, moved: tuple) -> str:
        name = ("α*" if star else "α") + str(k).translate(SUBSCRIPTS)
        return f"{name} {moved[0]:.3g} → {moved[1]:.3g}"

    words = tr("pair ({i}, {j}): {alpha_i}, {alpha_j}").format(
        i=step.i, j=step.j, alpha_i=alpha(step.i, step.star_i, step.alpha_i),
        alpha_j=alpha(step.j, step.star_j, step.alpha_j))
    if not step.clipped:
        return words
    if 0.0 in (step.alpha_i[1], step.alpha_j[1]):
        bound = tr("clipped at 0")
    else:
        bound = tr("clipped at C") if kind in (C_SVC.key, EPSILON_SVR.key) else tr(
            "clipped at its bound")
    return tr("{words}, {bound}").format(words=words, bound=bound)


def _legend(kind: str) -> str:
    """What the rings mean for a kind of machine (a hard margin's: HARD_LEGEND)."""
    if KINDS[kind].novelty:
        return ONE_CLASS_LEGEND
    return REGRESSION_LEGEND if KINDS[kind].regression else LEGEND


def _r2(r2, mse) -> str:
    """'0.934  (0.0123)': R^2 and the mean squared error, or '–'."""
    return "–" if r2 is None else f"{r2:.3f}  ({mse:.4g})"


def _fractions(fractions) -> str:
    """'8.0 % ≤ 0.2 ≤ 31.0 %' (a range of fractions for several machines), or '–'."""
    if fractions is None:
        return "–"

    def share(pair) -> str:                  # a range in whole per cent: the box is narrow
        low, high = pair
        return (f"{100 * low:.1f} %" if abs(high - low) < 5e-4
                else f"{100 * low:.0f}–{100 * high:.0f} %")

    return f"{share(fractions.errors)} ≤ {fractions.nu:g} ≤ {share(fractions.support)}"


def _rule(rule: str) -> str:
    """What a support vector is (core/solvers/support.py's words), translated."""
    if rule == TOLERANCE_RULE:
        return tr("α > {share} of C, y f(x) ≤ {edge}").format(share=f"{SUPPORT_TOL:.0%}",
                                                             edge=f"{1 + MARGIN_SLACK:g}")
    return tr(rule)



def _num(v) -> str:
    return "–" if v is None or v != v else f"{v:.6g}"      # None or NaN: nothing to show


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"
