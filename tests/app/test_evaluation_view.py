"""The evaluation tab as a student uses it: the tab clicked open after a run, the threshold
dragged with the keys on its slider and typed, Reset clicked; the matrices, the curves'
areas and the operating points are scikit-learn's numbers for the same predictions, and the
canvas draws the boundary where f = t."""
from __future__ import annotations

import copy

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from sklearn import metrics as sk

from svmdesk.drawing.contours import contour_path_levels
from svmdesk.drawing.shading import regions_picture

from .test_tasks import choose, train


def open_tab(window, qtbot) -> None:
    bar = window.below.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert window.below.currentWidget() is window.evaluation_view
    # the readout steps aside: the tab widens on the layout's next pass, before a person
    # could click anything in it
    qtbot.waitUntil(lambda: not window.panel.readout_box.isVisible()
                    and window.below.width() >= window.canvas.width() - 4, timeout=5_000)


def matrix(table) -> np.ndarray:
    """The counts of a matrix shown (its last row and two columns are the class report)."""
    k = table.rowCount() - 1
    return np.array([[int(table.item(i, j).text().split()[0]) for j in range(k)]
                     for i in range(k)])


def report(table) -> tuple:
    """(precision, recall, F1) per class as the table's margins show them."""
    k = table.rowCount() - 1
    column = [[float(table.item(i, j).text()) for i in range(k)] for j in (k, k + 1)]
    return [float(table.item(k, j).text()) for j in range(k)], *column


@pytest.fixture
def binary(window, qtbot):
    """The demo's two disks with a fifth held out, trained with an rbf kernel."""
    window.panel.data_box.test_fraction.setValue(0.2)
    choose(window.panel.kernel, "rbf")
    frame = train(window, qtbot)
    return frame


def test_the_tab_shows_the_models_matrices_and_curves(window, qtbot, binary):
    open_tab(window, qtbot)
    view, svc = window.evaluation_view, window.fitted
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    page = view.classification
    for rows, table in ((~test, page.train_table), (test, page.test_table)):
        expected = sk.confusion_matrix(y[rows], np.searchsorted(svc.classes_,
                                                                svc.predict(X[rows])))
        np.testing.assert_array_equal(matrix(table), expected)
        truth = np.searchsorted(svc.classes_, svc.predict(X[rows]))
        for shown, right in zip(report(table), sk.precision_recall_fscore_support(
                y[rows], truth, labels=[0, 1], zero_division=0)):
            np.testing.assert_allclose(shown, right, atol=0.005)      # two decimals
    f = svc.decision_function(X[~test])
    auc = sk.roc_auc_score(y[~test] == 1, f)
    assert f"train 1: AUC {auc:.3f}" in view.areas.text()


def test_dragging_the_threshold_moves_the_matrices_the_point_and_the_boundary(window, qtbot,
                                                                               binary):
    open_tab(window, qtbot)
    view = window.evaluation_view
    view.slider.setFocus()
    for _ in range(40):
        QTest.keyClick(view.slider, Qt.Key.Key_Right)          # 40 steps of 3/200
    t = view.threshold
    assert t == pytest.approx(0.6)
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    f = window.fitted.decision_function(X[~test])
    np.testing.assert_array_equal(matrix(view.classification.train_table),
                                  sk.confusion_matrix(y[~test], (f > t).astype(int)))
    negatives, positives = y[~test] == 0, y[~test] == 1
    point = np.array(view.classification.roc_points.getData()).T[0]
    assert point == pytest.approx([np.mean(f[negatives] > t), np.mean(f[positives] > t)])
    scene = window.last_frame.scene
    drawn = window.canvas.boundary.getData()[0]
    expected = contour_path_levels(scene.values, scene.spec.xs, scene.spec.ys, (t,))[t]
    np.testing.assert_allclose(drawn, expected[:, 0])
    qtbot.mouseClick(view.reset, Qt.MouseButton.LeftButton)
    assert view.threshold == 0.0 and view.slider.value() == 0
    np.testing.assert_allclose(window.canvas.boundary.getData()[0], scene.contours[0.0][:, 0])


def test_a_typed_threshold_beyond_the_slider_is_taken(window, qtbot, binary):
    open_tab(window, qtbot)
    view = window.evaluation_view
    view.spin.setFocus()
    view.spin.selectAll()
    QTest.keyClicks(view.spin, "10")
    QTest.keyClick(view.spin, Qt.Key.Key_Return)
    assert view.threshold == 10.0
    cm = matrix(view.classification.train_table)
    assert cm[:, 1].sum() == 0              # nothing is above f = 10: all predicted negative


def test_three_classes_choose_the_class_the_threshold_applies_to(window, qtbot):
    window.editing.generate("blobs", 90, 1.0, 0)
    X, y, test, names, task = window.points.state()
    window.points.replace(X, np.arange(len(y)) % 3, test, names, task)
    train(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    assert view.chosen.isVisible() and view.chosen.count() == 3
    predicted = window.fitted.predict(window.points.X)
    np.testing.assert_array_equal(matrix(view.classification.train_table),  # at 0: the model's
                                  sk.confusion_matrix(window.points.y, predicted))
    choose(view.chosen, 2)
    drawn_at_zero = window.canvas.regions.image.copy()
    type_threshold(view, qtbot, "0.5")          # half a unit of f: the matrix moves already
    moved = threshold_rule(window.fitted, window.points.X, 2, 0.5)
    assert (moved != predicted).any()
    np.testing.assert_array_equal(matrix(view.classification.train_table),
                                  sk.confusion_matrix(window.points.y, moved))
    # the canvas: the same rule by the model's own values on the grid's cells
    spec = window.last_frame.scene.spec
    cells = np.column_stack([np.tile(spec.xs, len(spec.ys)), np.repeat(spec.ys, len(spec.xs))])
    expected = regions_picture(threshold_rule(window.fitted, cells, 2, 0.5).reshape(spec.shape))
    drawn = window.canvas.regions.image
    assert not np.array_equal(drawn, drawn_at_zero)
    differing = np.any(drawn != expected, axis=-1).mean()
    assert differing < 0.005            # float32 grid against float64 on the edges only
    qtbot.mouseClick(view.reset, Qt.MouseButton.LeftButton)
    np.testing.assert_array_equal(window.canvas.regions.image, drawn_at_zero)


def threshold_rule(svc, X, chosen: int, t: float) -> np.ndarray:
    """Three classes' predictions with `chosen`'s threshold at t, by hand from the
    one-vs-one values (sklearn's order (0,1), (0,2), (1,2), positive: the first class
    wins): chosen where it wins both its duels by more than t; elsewhere the model's vote,
    or where that is chosen, the winner of the duel between the other two."""
    ovo = copy.deepcopy(svc).set_params(decision_function_shape="ovo").decision_function(X)
    turned = {0: (ovo[:, 0], ovo[:, 1]), 1: (-ovo[:, 0], ovo[:, 2]),
              2: (-ovo[:, 1], -ovo[:, 2])}[chosen]
    a, b = (c for c in range(3) if c != chosen)
    between_others = np.where(ovo[:, a + b - 1] > 0, a, b)      # pair (a, b)'s column
    voted = svc.predict(X)
    return np.where(np.minimum(*turned) > t, chosen,
                    np.where(voted == chosen, between_others, voted))


def type_threshold(view, qtbot, text: str) -> None:
    view.spin.lineEdit().selectAll()
    qtbot.keyClicks(view.spin.lineEdit(), text)
    qtbot.keyClick(view.spin.lineEdit(), Qt.Key.Key_Return)


def test_the_view_waits_out_of_sight_and_draws_when_shown(window, qtbot, binary):
    view = window.evaluation_view
    assert not view.isVisible() and view._pending
    open_tab(window, qtbot)
    assert not view._pending and view.classification.train_table.rowCount() == 3


def test_live_frames_carry_their_evaluation_only_while_it_is_in_sight(window, qtbot):
    """Its curves sort the points twice a frame: nobody looking, no cost."""
    from .test_window import set_up_a_long_run

    set_up_a_long_run(window)
    with qtbot.waitSignal(window.frame_shown, timeout=10_000) as shown:
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    assert shown.args[0].evaluation is None
    open_tab(window, qtbot)
    qtbot.waitUntil(lambda: window.last_frame.evaluation is not None, timeout=10_000)
    qtbot.mouseClick(window.panel.run_box.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    qtbot.waitUntil(lambda: window.evaluation_view.classification.train_table.rowCount() == 3,
                    timeout=10_000)


def test_a_regression_shows_its_fit_and_residuals_without_a_threshold(window, qtbot):
    from .test_regression import generated, regression

    regression(window)
    generated(window, qtbot)
    window.panel.data_box.test_fraction.setValue(0.25)
    train(window, qtbot)
    open_tab(window, qtbot)
    view, svr = window.evaluation_view, window.fitted
    assert view.pages.currentIndex() == 1
    assert not view.slider.isVisible() and not view.reset.isVisible()
    X, z, test = window.points.X[:, :1], window.points.X[:, 1], window.points.test_mask
    for rows, scatter in ((~test, view.fit.train_residuals), (test, view.fit.test_residuals)):
        f = svr.predict(X[rows])
        shown_f, shown_residual = scatter.getData()
        np.testing.assert_allclose(np.sort(shown_f), np.sort(f), rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(np.sort(shown_residual), np.sort(z[rows] - f),
                                   rtol=1e-9, atol=1e-9)
        assert f"R² {sk.r2_score(z[rows], f):.4f}" in view.fit.fit_text.text()
        assert f"MSE {sk.mean_squared_error(z[rows], f):.4g}" in view.fit.fit_text.text()


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_save_picture_writes_the_curves_at_the_threshold(window, qtbot, binary, monkeypatch,
                                                         tmp_path, suffix):
    from .test_labels import answer_dialogs

    open_tab(window, qtbot)
    view = window.evaluation_view
    type_threshold(view, qtbot, "0.5")
    out = tmp_path / f"curves{suffix}"
    answer_dialogs(monkeypatch, out)
    qtbot.mouseClick(view.save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(out.exists, timeout=10_000)
    if suffix == ".svg":
        assert "<path" in out.read_text() or "<polyline" in out.read_text()
        return
    from PySide6.QtGui import QImage

    assert QImage(str(out)).width() == window.files.default_width()


def test_the_tab_grows_when_the_splitter_is_dragged_and_keeps_its_height(window, qtbot,
                                                                        another_window):
    splitter = window.column_splitter
    before = window.below.height()
    handle = splitter.handle(1)
    start = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, start - QPoint(0, 80))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=start - QPoint(0, 80))
    qtbot.waitUntil(lambda: window.below.height() >= before + 60, timeout=5_000)
    grown = window.below.height()
    window.close()
    later = another_window()
    qtbot.waitUntil(lambda: abs(later.below.height() - grown) <= 2, timeout=5_000)


def three_classes(window, qtbot) -> None:
    """Blobs relabelled into three classes -1, 1, 2 as a data file would name them, a
    quarter held out, trained."""
    window.editing.generate("blobs", 90, 1.0, 0)
    X, y, test, names, task = window.points.state()
    window.points.replace(X, np.arange(len(y)) % 3, test, ("-1", "1", "2", *names[3:]),
                          task)
    window.panel.data_box.test_fraction.setValue(0.25)
    train(window, qtbot)


def test_at_1280x720_three_classes_fit_beside_readable_curves(window, qtbot):
    """The matrices need no scroll bar and leave the curves room for their ticks; the
    readout steps aside while the evaluation is in front, and comes back with Training."""
    window.resize(1280, 720)
    three_classes(window, qtbot)
    assert window.panel.readout_box.isVisible()
    open_tab(window, qtbot)
    view = window.evaluation_view
    qtbot.waitUntil(lambda: view.classification.train_table.rowCount() == 4, timeout=5_000)
    page = view.classification
    for table in (page.train_table, page.test_table):     # laid out as its cells ask
        qtbot.waitUntil(lambda t=table: t.width() >= t.sizeHint().width(), timeout=5_000)
    assert not window.panel.readout_box.isVisible()
    for table in (view.classification.train_table, view.classification.test_table):
        assert not table.horizontalScrollBar().isVisible()
        assert not table.verticalScrollBar().isVisible()
    assert page.roc_plot.width() >= 140 and page.pr_plot.width() >= 140
    bar = window.below.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
    assert window.panel.readout_box.isVisible()


def test_the_report_headers_and_undefined_values_read_plainly(window, qtbot, binary):
    """After three classes, two: the recall, F1 and precision headers are not painted in
    the colour of the class that had that column; a class without points has a dash for
    its recall, not 0.00."""
    three_classes(window, qtbot)
    open_tab(window, qtbot)
    window.editing.generate("moons", 60, 0.2, 0)
    train(window, qtbot)
    view = window.evaluation_view
    qtbot.waitUntil(lambda: view.classification.train_table.rowCount() == 3, timeout=5_000)
    ink = view.classification.train_table.palette().text().color()
    for header in (view.classification.train_table.horizontalHeaderItem(2),
                   view.classification.train_table.horizontalHeaderItem(3),
                   view.classification.train_table.verticalHeaderItem(2)):
        assert header.foreground().color() == ink
    from svmdesk.app.widgets.evaluation.confusion_tables import fill_matrix as _fill_matrix

    table = view.classification.test_table
    _fill_matrix(table, np.array([[3, 1], [0, 0]]), ["a", "b"], [0, 1], False)
    assert table.item(1, 2).text() == "–"         # b has no points: no recall
    assert table.item(0, 2).text() == "0.75"
    assert table.item(2, 1).text() == "0.00"      # b predicted once, wrongly


def test_a_threshold_is_forgotten_when_a_model_of_another_task_comes(window, qtbot,
                                                                     binary):
    from .test_tasks import choose

    open_tab(window, qtbot)
    view = window.evaluation_view
    type_threshold(view, qtbot, "1")
    assert window.canvas.threshold == 1.0
    choose(window.panel.task, "one_class")
    window.editing.generate("blobs_outliers", 60, 0.2, 0)
    train(window, qtbot)
    qtbot.waitUntil(lambda: view.threshold == 0.0, timeout=5_000)
    assert window.canvas.threshold == 0.0


def test_before_a_model_the_matrices_stand_empty_with_the_points_classes(window, qtbot):
    window.editing.generate("moons", 40, 0.2, 0)
    open_tab(window, qtbot)
    table = window.evaluation_view.classification.train_table
    assert table.rowCount() == 3                       # two classes and the precision row
    assert [table.verticalHeaderItem(i).text() for i in range(2)] == \
        list(window.points.class_names[:2])
    assert all(table.item(i, j).text() == "" for i in range(3) for j in range(4))


def test_without_held_out_points_no_empty_test_matrix_shows(window, qtbot):
    window.panel.data_box.test_fraction.setValue(0.0)
    train(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    qtbot.waitUntil(lambda: view.classification.train_table.rowCount() == 3, timeout=5_000)
    page = view.classification
    assert not page.test_table.isVisible() and "no points" in page.test_title.text()


def test_the_canvas_keeps_its_height_when_the_splitter_is_pushed_up(window, qtbot):
    from svmdesk.app.shell.main_window import CANVAS_MINIMUM

    handle = window.column_splitter.handle(1)
    start = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, start - QPoint(0, 2000))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=start - QPoint(0, 2000))
    assert window.canvas.height() >= CANVAS_MINIMUM
