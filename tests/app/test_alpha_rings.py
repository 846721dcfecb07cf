"""Each support vector's ring is as large as its part in f: its area is proportional to
alpha / C_i (a ring of alpha = C is the largest), and the plot's legend says so; a primal
solver, which has no alpha, rings its support vectors all one size and the legend says why."""
import numpy as np
import pytest
from PySide6.QtCore import Qt

from svmdesk.app.widgets.canvas import RING_GROWTH, marker_size

from .test_panel_rows import _box
from .test_smo_steps import stepped, stop
from .test_tasks import step, train


def chosen(window, points: tuple, solver: str, kernel: str, C: float | None = None) -> None:
    """Points generated (dataset, n, noise, seed), and the solver, kernel and C chosen in
    the panel."""
    window.editing.generate(*points)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData(solver))
    p.kernel.setCurrentText(kernel)
    if C is not None:
        p.controls["C"].widget.set_value(C)


def drawn_rings(canvas) -> tuple:
    """(positions (k, 2), diameters (k,)) of every support vector's ring on the canvas."""
    xy, sizes = [], []
    for item in (canvas.free_rings, canvas.bounded_rings):
        x, y = item.getData()
        xy.append(np.column_stack([x, y]))
        sizes.append(np.asarray(item.data["size"], dtype=float))
    return np.concatenate(xy), np.concatenate(sizes)


def legend_lines(canvas) -> list:
    return [label.text for _, label in canvas.ring_legend.items]


def assert_areas_follow(canvas, X, support, shares) -> None:
    """The ring drawn at each support vector's place has an area around its marker (beyond
    a circle just around it) proportional to its share (diameters are drawn to the half
    pixel)."""
    xy, sizes = drawn_rings(canvas)
    assert len(xy) == len(support)
    at = {tuple(p): d for p, d in zip(xy.tolist(), sizes)}
    full, inner = canvas.ring_size + RING_GROWTH, canvas.ring_inner
    assert inner > marker_size(len(canvas.points_xy))
    around = np.pi / 4 * (full ** 2 - inner ** 2)          # a share of 1's area around
    for s, share in zip(support, shares):
        d = at[tuple(X[s].tolist())]
        assert abs(d - np.sqrt(inner ** 2 + (full ** 2 - inner ** 2) * share)) <= 0.25 + 1e-9
        assert np.pi / 4 * (d ** 2 - inner ** 2) == pytest.approx(share * around,
                                                                  abs=np.pi / 4 * d)


def test_ring_areas_are_proportional_to_alpha_over_c(window, qtbot):
    chosen(window, ("moons", 150, 0.3, 0), "smo", "rbf", 5.0)
    train(window, qtbot)
    svc = window.fitted
    X = window.points.X[~window.points.test_mask]
    shares = np.abs(svc.dual_coef_[0]) / 5.0
    assert 0 < shares.min() < 0.5 and shares.max() == 1.0      # free and bounded both
    assert_areas_follow(window.canvas, X, svc.support_, shares)
    assert "ring area around the point ∝ α/C_i" in legend_lines(window.canvas)


def test_a_paused_runs_rings_are_sized_by_its_alphas_then(window, qtbot):
    chosen(window, ("moons", 120, 0.3, 0), "smo", "rbf", 2.0)
    p = window.panel
    frame = stepped(window, qtbot, p.run_box.step_button, 1)
    for k in range(2, 12):
        frame = stepped(window, qtbot, p.run_box.step_button, k)
    alpha = np.abs(frame.reading.snapshot.dual_coef)
    support = np.flatnonzero(alpha)
    X = window.points.X[~window.points.test_mask]
    assert_areas_follow(window.canvas, X, support, alpha[support] / 2.0)
    stop(window, qtbot)


def test_a_primal_solver_rings_all_one_size_and_says_why(window, qtbot):
    chosen(window, ("blobs", 100, 0.8, 0), "pegasos", "linear")
    train(window, qtbot)
    _, sizes = drawn_rings(window.canvas)
    assert len(sizes) and np.all(sizes == window.canvas.ring_size)
    assert "rings one size: this solver has no α" in legend_lines(window.canvas)
    assert window.panel.readout_box.legend.text().startswith(
        "rings: ○ SV on its margin · □ SV inside its margin (hinge loss > 0)")


def test_a_hard_margin_sizes_by_the_largest_alpha(window, qtbot):
    chosen(window, ("blobs", 60, 0.3, 0), "smo", "linear")
    p = window.panel
    hard = p.controls["C"].choice
    qtbot.mouseClick(hard, Qt.MouseButton.LeftButton, pos=_box(hard))
    assert p.params()["C"] is None
    train(window, qtbot)
    svc = window.fitted
    alpha = np.abs(svc.dual_coef_[0])
    X = window.points.X[~window.points.test_mask]
    assert_areas_follow(window.canvas, X, svc.support_, alpha / alpha.max())
    assert "ring area around the point ∝ α/largest α" in legend_lines(window.canvas)


def test_a_reopened_session_rings_its_support_vectors_as_they_were(window, qtbot, monkeypatch,
                                                                  tmp_path, another_window):
    from .test_labels import saved_and_reopened

    chosen(window, ("moons", 100, 0.3, 1), "smo", "rbf", 3.0)
    train(window, qtbot)
    before = drawn_rings(window.canvas)
    other = saved_and_reopened(window, qtbot, monkeypatch, tmp_path / "rings.svmdesk",
                               another_window)
    after = drawn_rings(other.canvas)
    order, again = np.lexsort(before[0].T), np.lexsort(after[0].T)
    np.testing.assert_array_equal(after[0][again], before[0][order])
    np.testing.assert_array_equal(after[1][again], before[1][order])
    assert "ring area around the point ∝ α/C_i" in legend_lines(other.canvas)


def test_the_slack_box_draws_each_violators_slack_and_the_readout_sums_them(window, qtbot):
    chosen(window, ("blobs", 120, 1.4, 5), "smo", "linear", 1.0)
    p = window.panel
    train(window, qtbot)
    canvas, box = window.canvas, p.run_box.slack
    assert box.isEnabled() and not box.isChecked() and not len(canvas.slack.getData()[0])
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=_box(box))
    assert box.isChecked()
    X = window.points.X[~window.points.test_mask]
    y = np.where(window.points.y[~window.points.test_mask] == 1, 1.0, -1.0)
    f = window.fitted.decision_function(X)
    xi = np.maximum(0.0, 1.0 - y * f)
    x, y_ = canvas.slack.getData()
    segments = np.column_stack([x, y_]).reshape(-1, 3, 2)
    w = window.fitted.coef_[0]
    np.testing.assert_array_equal(segments[:, 0], X[xi > 0])
    np.testing.assert_allclose(np.hypot(*(segments[:, 1] - segments[:, 0]).T),
                               xi[xi > 0] / np.linalg.norm(w), rtol=1e-9)
    primal = p.readout_box.values["primal"].text()
    assert primal.endswith(f"(Σξ {xi.sum():.6g})")
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=_box(box))
    assert not len(canvas.slack.getData()[0])


def test_a_pictures_caption_says_what_the_rings_sizes_mean(window, qtbot):
    window.editing.generate("moons", 80, 0.3, 2)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    train(window, qtbot)
    assert window.files.caption().endswith(" support vectors · ring area around the point ∝ α/C_i")
    p.solver.setCurrentIndex(p.solver.findData("pegasos"))
    p.kernel.setCurrentText("linear")
    train(window, qtbot)
    assert window.files.caption().endswith(" · rings one size: this solver has no α")


def test_a_pegasos_run_marks_its_last_mini_batch_and_rings_its_hinge_points(window, qtbot):
    """Stepping Pegasos: the points of the step's mini-batch are crossed, those with a
    positive hinge loss (y f(x) < 1) ringed as bounded; the finished model marks no batch."""
    chosen(window, ("blobs", 200, 1.2, 3), "pegasos", "linear")
    for _ in range(3):
        step(window, qtbot)
    snap = window.last_frame.reading.snapshot
    assert snap.iteration > 0
    X = window.points.X[~window.points.test_mask]
    x, y = window.canvas.batch_marks.getData()
    np.testing.assert_array_equal(np.column_stack([x, y]), X[snap.batch])
    assert len(snap.batch) == 32 and "the last step's mini-batch" in legend_lines(window.canvas)
    labels = np.where(window.points.y[~window.points.test_mask] == 1, 1.0, -1.0)
    hinge = labels * (X @ snap.w + snap.bias) < 1.0 - 1e-3
    x, y = window.canvas.bounded_rings.getData()
    assert {tuple(v) for v in np.column_stack([x, y]).tolist()} == \
        {tuple(v) for v in X[hinge].tolist()}
    stop(window, qtbot)
    assert not len(window.canvas.batch_marks.getData()[0])
    assert "the last step's mini-batch" not in legend_lines(window.canvas)
