"""Compare solvers, as a teacher drives it: Ctrl+K opens the window, the solvers' boxes are
clicked, values of C typed, Compare clicked; the table is checked against the core's fits of
the same runs (core.comparison, SMO's solution the reference), the canvases show the models,
and the solvers that cannot train the kernel are greyed with the reason."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from svmdesk.core.comparison import Entry, compare
from svmdesk.core.datasets import class_labels

from .test_labels import CTRL, answer_dialogs, press
from .test_panel_rows import _box
from .test_tasks import choose
from .test_window import TIMEOUT, set_up_a_long_run

LEFT = Qt.MouseButton.LeftButton


def pan(canvas, start: QPoint, end: QPoint, steps: int = 6) -> None:
    """Press at `start`, move in steps with the button held, release at `end`."""
    vp = canvas.viewport()
    QTest.mousePress(vp, LEFT, Qt.KeyboardModifier.NoModifier, start)
    for k in range(1, steps + 1):
        p = start + (end - start) * (k / steps)
        QApplication.sendEvent(vp, QMouseEvent(
            QEvent.Type.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)),
            Qt.MouseButton.NoButton, LEFT, Qt.KeyboardModifier.NoModifier))
        QTest.qWait(10)
    QTest.mouseRelease(vp, LEFT, Qt.KeyboardModifier.NoModifier, end)


def open_comparison(window, qtbot):
    press(window, Qt.Key.Key_K, CTRL)
    view = window.comparison.view
    qtbot.waitExposed(view.window())
    # as a person waits for "Ready" before comparing: the solvers' processes have their
    # imports
    qtbot.waitUntil(lambda: window.comparison.comparison.ready, timeout=TIMEOUT)
    if not view.table.rowCount():
        qtbot.waitUntil(lambda: view.said.text().startswith("Ready"), timeout=TIMEOUT)
    return view


def tick(view, chosen) -> None:
    """Click the solvers' boxes until exactly `chosen` are ticked."""
    for name, box in view.boxes.items():
        if box.isChecked() != (name in chosen):
            QTest.mouseClick(box, LEFT, pos=_box(box))
        assert box.isChecked() == (name in chosen)


def type_Cs(view, text: str) -> None:
    view.Cs.setFocus()
    view.Cs.selectAll()
    QTest.keyClick(view.Cs, Qt.Key.Key_Backspace)
    QTest.keyClicks(view.Cs, text)
    assert view.Cs.text() == text


def run_comparison(window, qtbot, view):
    with qtbot.waitSignal(window.comparison.comparison.ended, timeout=TIMEOUT):
        QTest.mouseClick(view.compare, LEFT)


def expected_rows(window, entries):
    """The core's rows of the same runs on the window's points and settings."""
    job = window._job()
    labels = class_labels(window.work.used_class_names())
    return compare(entries, job.params, job.X, labels[job.y], job.X_test,
                   labels[job.y_test])


def check_table(view, rows) -> None:
    for k, row in enumerate(rows):
        cells = [view.cell_text(k, column) for column in range(11)]
        assert cells[2] == str(row.iterations)
        assert cells[3] == format(row.primal, ".6g")
        assert cells[4] == ("—" if row.dual is None else format(row.dual, ".6g"))
        assert cells[6] == str(row.support)
        assert cells[7] == f"{100 * row.train_accuracy:.1f} %"
        assert cells[9] == f"{100 * row.agreement:.1f} %"
        assert cells[10] == ("converged" if row.converged else "budget spent")


def test_three_solvers_side_by_side_agree_with_the_cores_fits(window, qtbot):
    window.panel.controls["max_iter"].widget.setValue(2000)   # the sub-gradient's budget
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient", "primal-subgradient"))
    type_Cs(view, "1")
    run_comparison(window, qtbot, view)
    check_table(view, expected_rows(window, [Entry("smo", 1.0), Entry("dual-gradient", 1.0),
                                             Entry("primal-subgradient", 1.0)]))
    assert [view.titles[k].text() for k in range(3)] == [
        "SMO · C = 1", "Dual gradient · C = 1", "Primal sub-gradient · C = 1"]
    assert all(view.cells[k].isVisible() for k in range(3))
    assert not view.cells[3].isVisible()
    for k in range(3):                          # each canvas shows its own model
        frame = view.canvases[k].frame
        assert frame is not None and frame.estimator is not None
        assert frame.estimator.solver == ("smo", "dual-gradient", "primal-subgradient")[k]
    # both charts hold each run's primal (solid) and the dual solvers' dual (dashed)
    for chart in (view.by_time, view.by_iteration):
        drawn = [len(item.getData()[0] if item.getData()[0] is not None else ())
                 for item in chart.plotItem.listDataItems()]
        assert len(drawn) == 6 and all(drawn[:4]) and all(drawn[4:5]) and not drawn[5]


def test_one_solver_at_three_values_of_C(window, qtbot):
    view = open_comparison(window, qtbot)
    tick(view, ("smo",))
    type_Cs(view, "0.1, 1, 10")
    run_comparison(window, qtbot, view)
    rows = expected_rows(window, [Entry("smo", C) for C in (0.1, 1.0, 10.0)])
    check_table(view, rows)
    assert [view.cell_text(k, 9) for k in range(3)] == ["100.0 %"] * 3


def test_solvers_that_cannot_train_the_kernel_are_greyed_with_the_reason(window, qtbot):
    choose(window.panel.kernel, "rbf")
    view = open_comparison(window, qtbot)
    for name in ("primal-subgradient", "pegasos"):
        assert not view.boxes[name].isEnabled()
        assert "linear models only" in view.boxes[name].toolTip()
    for name in ("smo", "dual-gradient", "kernel-gradient"):
        assert view.boxes[name].isEnabled()
    choose(window.panel.kernel, "linear")       # the window follows the panel
    assert view.boxes["pegasos"].isEnabled()


@pytest.mark.parametrize("text, said", [("0.1, x", "is not a number"),
                                        ("-1", "C must be"),
                                        ("", "at least one value of C")])
def test_bad_values_of_C_are_said_and_nothing_runs(window, qtbot, text, said):
    view = open_comparison(window, qtbot)
    type_Cs(view, text)
    QTest.mouseClick(view.compare, LEFT)
    assert said in view.said.text()
    assert not window.comparison.comparison.running
    assert view.table.rowCount() == 0


def test_what_the_window_says_never_moves_the_canvases(window, qtbot):
    """A line said is one or two lines long: the canvases keep their height and place
    (a canvas resized repaints whole, and all five at once held the window for 40 ms; two
    runs' canvases are wider than five's, by design)."""
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient"))
    narrowest = view.window().minimumSizeHint().width()     # under 1,000 px
    view.window().resize(narrowest, 640)
    qtbot.waitUntil(lambda: view.window().width() == narrowest, timeout=TIMEOUT)
    QTest.qWait(50)
    said_width = view.said.fontMetrics().horizontalAdvance
    room = view.said.width()
    assert said_width(view.said.text()) > room      # "Ready: ..." takes two lines here

    def places():
        return [(canvas.y(), canvas.height()) for canvas in view.canvases]

    before = places()
    type_Cs(view, "")                               # a refusal of one line
    QTest.mouseClick(view.compare, LEFT)
    assert said_width(view.said.text()) < room
    QTest.qWait(50)                                 # a layout asked for is done by then
    assert places() == before
    type_Cs(view, "1")
    run_comparison(window, qtbot, view)             # the runs' words, then the outcome
    assert places() == before


def test_too_many_runs_are_refused(window, qtbot):
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient"))
    type_Cs(view, "0.1 1 10")
    QTest.mouseClick(view.compare, LEFT)
    assert "2 to 5" in view.said.text()
    assert view.table.rowCount() == 0


def test_a_saved_session_reopens_with_the_same_comparison(window, qtbot, monkeypatch,
                                                          tmp_path, another_window):
    window.panel.controls["max_iter"].widget.setValue(2000)   # short runs, even niced
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "kernel-gradient"))
    type_Cs(view, "0.5")
    run_comparison(window, qtbot, view)
    table = [[view.cell_text(k, c) for c in range(11) if c != 1] for k in range(2)]
    path = tmp_path / "lab.svmdesk"
    answer_dialogs(monkeypatch, path)
    press(view.window(), Qt.Key.Key_S, CTRL)        # the main window's keys act here too
    assert path.exists(), window.notices.banner.text()
    other = another_window()
    answer_dialogs(monkeypatch, path)
    press(other, Qt.Key.Key_O, CTRL)
    qtbot.waitUntil(lambda: other.work.comparison is not None, timeout=TIMEOUT)
    kept = other.work.comparison.runs
    assert all(run.model is not None for run in kept), [(run.row, run.error) for run in kept]
    again = open_comparison(other, qtbot)
    assert [[again.cell_text(k, c) for c in range(11) if c != 1] for k in range(2)] == table
    assert again.cell_text(0, 1) == view.cell_text(0, 1)          # the time too, as it was
    qtbot.waitUntil(lambda: all(again.canvases[k].frame is not None for k in range(2)),
                    timeout=TIMEOUT)
    X = window.points.X
    (x0, x1), (y0, y1) = again.canvases[0].view.viewRange()
    assert np.allclose((x0, x1, y0, y1), other.canvas.view.viewRange()[0] +
                       other.canvas.view.viewRange()[1])      # where the main canvas looks
    for k in range(2):          # the same models drawn over the same points, in sight
        before = view.canvases[k].frame.estimator.decision_function(X)
        after = other.work.comparison.runs[k].model.decision_function(X)
        assert np.array_equal(before, after)
        spec = again.canvases[k].frame.scene.spec
        assert again.canvases[k].frame.scene.values is not None
        assert np.allclose((spec.x_min, spec.x_max, spec.y_min, spec.y_max),
                           (x0, x1, y0, y1))
    # its solvers ticked and its values of C written again
    assert again.Cs.text() == "0.5"
    assert [name for name, box in again.boxes.items() if box.isChecked()] == [
        "smo", "kernel-gradient"]
    curves = again.by_iteration.plotItem.listDataItems()
    assert len(curves) == 4 and all(len(item.getData()[0]) for item in curves)


def test_stop_ends_every_run_and_the_table_says_how_far_each_got(window, qtbot):
    set_up_a_long_run(window)                   # kernel gradient, rbf, 1,000 moons: seconds
    view = open_comparison(window, qtbot)
    tick(view, ("dual-gradient", "kernel-gradient"))
    type_Cs(view, "1")
    with qtbot.waitSignal(window.comparison.comparison.ended, timeout=TIMEOUT):
        QTest.mouseClick(view.compare, LEFT)
        qtbot.waitUntil(lambda: all(len(run.rows) for run in
                                    window.comparison.comparison.runs), timeout=TIMEOUT)
        assert view.stop.isEnabled() and not view.compare.isEnabled()
        QTest.mouseClick(view.stop, LEFT)
    for k in range(2):
        assert view.cell_text(k, 10) == "stopped"
        assert int(view.cell_text(k, 2)) >= 0 and view.cell_text(k, 6) == "—"
    assert view.compare.isEnabled() and not view.stop.isEnabled()


def test_the_canvases_pan_and_zoom_together(window, qtbot):
    window.panel.controls["max_iter"].widget.setValue(2000)   # short runs, even niced
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient", "primal-subgradient"))
    run_comparison(window, qtbot, view)
    canvas = view.canvases[2]
    before = canvas.view.viewRange()
    # a drag on the third canvas, from a place away from any point (it pans), moves the
    # other two
    start = next(QPoint(x, 40) for x in range(40, canvas.width(), 10)
                 if canvas.point_near(canvas.mapToScene(QPoint(x, 40))) < 0)
    pan(canvas, start, start + QPoint(60, 20))
    after = canvas.view.viewRange()
    assert after[0] != before[0]
    for k in range(2):
        assert np.allclose(view.canvases[k].view.viewRange(), after)


def test_a_session_opened_mid_comparison_stops_its_runs_for_good(window, qtbot, monkeypatch,
                                                                 tmp_path):
    """Opening a session forgets the comparison under way: its runs stop, and a new
    comparison waits for them to end rather than take back their stop (armed at once, a
    lane's runs went on to their budget, ten million iterations)."""
    window.editing.generate("moons", 100, 0.2, 0)
    window.panel.controls["max_iter"].widget.setValue(500)
    path = tmp_path / "short.svmdesk"
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_S, CTRL)                  # short runs, kept for later
    set_up_a_long_run(window)                           # runs of many seconds
    view = open_comparison(window, qtbot)
    tick(view, ("dual-gradient", "kernel-gradient"))
    QTest.mouseClick(view.compare, LEFT)
    comparison = window.comparison.comparison
    qtbot.waitUntil(lambda: all(len(run.rows) for run in comparison.runs), timeout=TIMEOUT)
    answer_dialogs(monkeypatch, path)
    press(view.window(), Qt.Key.Key_O, CTRL)           # the short session, mid-comparison
    qtbot.waitUntil(lambda: window.panel.controls["max_iter"].widget.value() == 500,
                    timeout=TIMEOUT)
    assert not comparison.running and view.table.rowCount() == 0

    def compared() -> bool:      # Compare, until it is no longer asked to wait
        if not comparison.running and not view.table.rowCount():
            QTest.mouseClick(view.compare, LEFT)
        return view.table.rowCount() == 2 and not comparison.running

    qtbot.waitUntil(compared, timeout=TIMEOUT)
    assert [view.cell_text(k, 2) for k in range(2)] != ["", ""]


def test_comparisons_of_more_then_fewer_then_more_runs_chart_each_run(window, qtbot):
    """The runs' curves stay in the charts from comparison to comparison: each one charts
    its own runs, and a curve taken out with its data goes back empty (put back with data,
    it asked the chart for its range before it was in it: an exception)."""
    view = open_comparison(window, qtbot)
    tick(view, ("smo",))
    for Cs in ("0.1, 1, 10", "1, 10", "0.1, 1, 10"):
        type_Cs(view, Cs)
        run_comparison(window, qtbot, view)
        runs = len(Cs.split(","))
        for chart in view.charts:
            drawn = [item for item in chart.plotItem.listDataItems()]
            assert len(drawn) == 2 * runs
            primal = [len(item.getData()[0] if item.getData()[0] is not None else ())
                      for item in drawn[::2]]
            assert all(primal)


def test_the_comparison_saves_as_a_picture_and_a_table_that_reads_back(
        window, qtbot, monkeypatch, tmp_path, another_window):
    """Save picture… and Save table… under the table: the picture as wide as a picture of
    the canvas, PNG or SVG; the table the window's rows exactly, also from a session
    reopened. Neither is offered before a comparison ends."""
    from PySide6.QtGui import QImage

    from svmdesk.formats.comparison_table import read_table

    window.panel.controls["max_iter"].widget.setValue(2000)
    view = open_comparison(window, qtbot)
    assert not view.save_picture.isEnabled() and not view.save_table.isEnabled()
    tick(view, ("smo", "dual-gradient"))
    type_Cs(view, "1")
    run_comparison(window, qtbot, view)
    assert view.save_picture.isEnabled() and view.save_table.isEnabled()
    for name in ("compare.png", "compare.svg"):
        answer_dialogs(monkeypatch, tmp_path / name)
        QTest.mouseClick(view.save_picture, LEFT)
        qtbot.waitUntil((tmp_path / name).exists, timeout=TIMEOUT)
    picture = QImage(str(tmp_path / "compare.png"))
    assert picture.width() == window.files.default_width() and picture.height() > 200
    figure = window.comparison.figure(900)           # the runs' canvases of one width
    figure.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)     # as Save picture…
    figure.show()
    QApplication.processEvents()
    widths = [figure.ci.getItem(1, k).width() for k in range(2)]
    figure.close()
    figure.deleteLater()
    assert widths[0] == widths[1] > 300
    assert "Dual gradient" in (tmp_path / "compare.svg").read_text(encoding="utf-8")
    answer_dialogs(monkeypatch, tmp_path / "compare")           # .csv added
    QTest.mouseClick(view.save_table, LEFT)
    qtbot.waitUntil((tmp_path / "compare.csv").exists, timeout=TIMEOUT)
    written = read_table((tmp_path / "compare.csv").read_text(encoding="utf-8"))
    comparison = window.comparison.comparison
    assert [entry for entry, _row in written] == [run.entry for run in comparison.runs]
    assert [row for _entry, row in written] == comparison.results
    # the same table from the session the comparison is kept in
    path = tmp_path / "lab.svmdesk"
    answer_dialogs(monkeypatch, path)
    press(view.window(), Qt.Key.Key_S, CTRL)
    other = another_window()
    answer_dialogs(monkeypatch, path)
    press(other, Qt.Key.Key_O, CTRL)
    qtbot.waitUntil(lambda: other.work.comparison is not None, timeout=TIMEOUT)
    again = open_comparison(other, qtbot)
    answer_dialogs(monkeypatch, tmp_path / "again.csv")
    QTest.mouseClick(again.save_table, LEFT)
    qtbot.waitUntil((tmp_path / "again.csv").exists, timeout=TIMEOUT)
    assert (tmp_path / "again.csv").read_text(encoding="utf-8") == \
        (tmp_path / "compare.csv").read_text(encoding="utf-8")


def test_a_charts_powers_of_ten_are_labelled_sparsely_enough_to_read(window, qtbot):
    """Five decades on a chart 160 px wide: "1000" and "10000" ran together."""
    view = open_comparison(window, qtbot)
    from svmdesk.app.widgets.comparison_view import _set_decades

    for low, high, labelled in ((0, 2, ["1", "10", "100"]), (0, 4, ["1", "100", "10000"]),
                                (-4, 1, ["0.0001", "0.01", "1"])):
        _set_decades(view.by_iteration, low, high)
        major, minor = view.by_iteration.getAxis("bottom")._tickLevels
        assert [text for _k, text in major] == labelled and minor == []


def test_the_comparison_picture_names_the_classes(window, qtbot):
    """The window's run canvases leave the marks to the main canvas's legend; a picture has
    no main canvas beside it, so its first run says which class is which (it said nothing)."""
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient"))
    type_Cs(view, "1")
    run_comparison(window, qtbot, view)
    figure = window.comparison.figure(900)
    figure.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)     # as Save picture…
    figure.show()
    QApplication.processEvents()
    try:
        def said(legend) -> list:
            return [label.text for _sample, label in legend.items]

        first, second = figure.ci.getItem(1, 0), figure.ci.getItem(1, 1)
        assert first.legend.isVisible() and said(first.legend) == said(window.canvas.legend)
        assert not second.legend.isVisible()            # once is enough
    finally:
        figure.close()
        figure.deleteLater()
