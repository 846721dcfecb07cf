"""Hover on the canvas: the status bar and a tooltip say f(x) as its five largest terms
alpha_s y_s K(x_s, x), the rest and the bias, and the canvas rings those terms' points,
as a person sees them by moving the mouse over the plot."""
import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from .test_alpha_rings import chosen
from .test_smo_steps import stepped, stop
from .test_tasks import train
from .test_window import viewport_pos


def hover(window, qtbot, x: float, y: float) -> tuple:
    """Move the mouse to (x, y) of the plot, as a person does; where the canvas says it is."""
    viewport = window.canvas.viewport()
    at = QPointF(viewport_pos(window, x, y))
    seen = []

    def arrived():
        # pyqtgraph drops a move that comes too soon after the last: move until one is seen
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, at, QPointF(viewport.mapToGlobal(at)),
            Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
        assert seen

    window.canvas.hovered.connect(lambda *where: seen.append(where))
    qtbot.waitUntil(arrived, timeout=2000)
    return seen[-1]


def largest_terms(estimator, X, x, count=5):
    """The training indices of f's largest terms at x, and f, from the fitted estimator."""
    gamma = estimator.model_.kernel.gamma
    every = estimator.dual_coef_[0] * np.exp(
        -gamma * ((X[estimator.support_] - x) ** 2).sum(axis=1))
    return estimator.support_[np.argsort(-np.abs(every))[:count]]


def test_hover_names_the_largest_terms_of_f_and_rings_their_points(window, qtbot):
    chosen(window, ("moons", 200, 0.25, 0), "smo", "rbf", 10.0)
    train(window, qtbot)
    x, y = hover(window, qtbot, 0.4, 0.1)
    X = window.points.X[~window.points.test_mask]
    named = largest_terms(window.fitted, X, np.array([x, y]))
    rings = np.column_stack(window.canvas.term_marks.getData())
    np.testing.assert_array_equal(rings, X[named])
    f = float(window.fitted.decision_function(np.array([[x, y]]))[0])
    tip = window.canvas.toolTip().splitlines()
    assert tip[0] == f"f(x) = {f:+.4f}, as the model adds it up:"
    assert [line.split("point ")[1].split(":")[0] for line in tip[1:6]] == \
        [str(k) for k in named]
    assert tip[6].endswith(f"the other {len(window.fitted.support_) - 5} terms")
    assert tip[7] == f"{window.fitted.intercept_[0]:+.3f}   the bias b"
    line = window.statusBar().currentMessage()
    assert f"f = {tip[1].split()[0]} [{named[0]}]" in line and "(rest)" in line


def test_three_classes_name_the_machine_that_decided(window, qtbot):
    window.editing.generate("blobs", 150, 0.5, 0)
    p = window.panel
    p.data_box.klass.setCurrentIndex(2)
    for x, y in [(0.0, 4.0), (0.5, 4.5), (-0.5, 4.2), (0.2, 3.6)]:
        window.editing.add_point(x, y, 2)
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("rbf")
    train(window, qtbot)
    hover(window, qtbot, 0.0, 4.0)
    first = window.canvas.toolTip().splitlines()[0]
    assert first.startswith("the ") and first.endswith(" machine decided")
    assert " vs " in window.statusBar().currentMessage()


def test_a_primal_solvers_f_is_w_x_plus_b_with_no_points_ringed(window, qtbot):
    chosen(window, ("blobs", 100, 0.5, 0), "pegasos", "linear")
    train(window, qtbot)
    x, y = hover(window, qtbot, 0.0, 0.0)
    tip = window.canvas.toolTip().splitlines()
    assert len(window.canvas.term_marks.getData()[0]) == 0
    assert "w · x" in tip[1] and tip[2].endswith("the bias b")
    assert f"f = {tip[1].split()[0]} (w · x) " in window.statusBar().currentMessage()


def test_hover_during_a_paused_run_names_the_terms_of_the_moment_shown(window, qtbot):
    chosen(window, ("moons", 300, 0.3, 0), "smo", "rbf")
    p = window.panel
    for iteration in range(1, 4):
        frame = stepped(window, qtbot, p.run_box.step_button, iteration)
    hover(window, qtbot, 0.5, 0.0)
    nonzero = np.flatnonzero(frame.reading.snapshot.dual_coef)
    rings = np.column_stack(window.canvas.term_marks.getData())
    X = window.points.X[~window.points.test_mask]
    assert len(rings) == min(5, len(nonzero))
    assert {tuple(r) for r in rings} <= {tuple(X[k]) for k in nonzero}
    assert window.canvas.toolTip().splitlines()[-1].endswith("the bias b")
    stop(window, qtbot)


def test_hover_on_a_point_says_its_alpha_margin_and_kkt_state(window, qtbot):
    """On a point: its alpha (and alpha / C), its margin y f(x) and where that leaves it,
    as the fitted estimator has them: a free support vector lies on its margin, a bounded
    one inside it, a point of alpha = 0 beyond it."""
    chosen(window, ("moons", 120, 0.3, 0), "smo", "rbf", 4.0)
    train(window, qtbot)
    svc = window.fitted
    X = window.points.X[~window.points.test_mask]
    alpha = np.zeros(len(X))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    y = np.where(window.points.y[~window.points.test_mask] == 1, 1.0, -1.0)
    margins = y * svc.decision_function(X)
    (x0, x1), (y0, y1) = window.canvas.view.viewRange()
    seen = (X[:, 0] > x0) & (X[:, 0] < x1) & (X[:, 1] > y0) & (X[:, 1] < y1)
    free = int(np.flatnonzero(seen & (alpha > 0) & (alpha < 4.0))[0])
    bounded = int(np.flatnonzero(seen & np.isclose(alpha, 4.0) & (margins < 0.9))[0])
    beyond = int(np.flatnonzero(seen & (alpha == 0) & (margins > 1.2))[0])
    for k, state in ((free, "a free support vector: on its margin"),
                     (bounded, "a bounded support vector (α = C): inside its margin"),
                     (beyond, "α = 0: beyond its margin, no part in f")):
        hover(window, qtbot, *X[k])
        words = window.canvas.toolTip().splitlines()[-1]
        said = (f"point {k} · " if alpha[k] == 0 else
                f"point {k}: α = {alpha[k]:.4g} (α/C = {alpha[k] / 4:.2f}) · ")
        slack = f" · ξ = {1 - margins[k]:.3f}" if margins[k] < 1 - 1e-3 else ""
        assert words == f"{said}y f(x) = {margins[k]:+.3f}{slack} · {state}"
        line = window.statusBar().currentMessage()
        assert words in line and line.index(words) < line.index("(rest)")   # before the terms


def test_hover_on_a_primal_solvers_point_says_it_has_no_alpha(window, qtbot):
    chosen(window, ("blobs", 80, 0.8, 0), "pegasos", "linear")
    train(window, qtbot)
    X = window.points.X[~window.points.test_mask]
    (x0, x1), (y0, y1) = window.canvas.view.viewRange()
    k = int(np.argmin(np.hypot(X[:, 0] - (x0 + x1) / 2, X[:, 1] - (y0 + y1) / 2)))
    hover(window, qtbot, *X[k])
    words = window.canvas.toolTip().splitlines()[-1]
    assert words.startswith(f"point {k}: no α") and "y f(x) = " in words
