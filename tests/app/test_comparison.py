"""Compare solvers, as a teacher drives it: Ctrl+K opens the window, the solvers' boxes are
clicked, values of C typed, Compare clicked; the table is checked against the core's fits of
the same runs (core.comparison, SMO's solution the reference), the canvases show the models,
and the solvers that cannot train the kernel are greyed with the reason."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.core.comparison import Entry, compare
from svmdesk.core.datasets import class_labels

from .test_labels import CTRL, press
from .test_panel_rows import _box
from .test_tasks import choose
from .test_window import TIMEOUT

LEFT = Qt.MouseButton.LeftButton


def open_comparison(window, qtbot):
    press(window, Qt.Key.Key_K, CTRL)
    view = window.comparison.view
    qtbot.waitExposed(view.window())
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
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient", "primal-subgradient"))
    type_Cs(view, "1")
    run_comparison(window, qtbot, view)
    check_table(view, expected_rows(window, [Entry("smo", 1.0), Entry("dual-gradient", 1.0),
                                             Entry("primal-subgradient", 1.0)]))
    assert [view.titles[k].text() for k in range(3)] == [
        "SMO (libsvm's algorithm) · C = 1", "Dual gradient ascent · C = 1",
        "Primal sub-gradient (linear) · C = 1"]
    assert all(view.cells[k].isVisible() for k in range(3))
    assert not view.cells[3].isVisible()
    for k in range(3):                          # each canvas shows its own model
        frame = view.canvases[k].frame
        assert frame is not None and frame.estimator is not None
        assert frame.estimator.solver == ("smo", "dual-gradient", "primal-subgradient")[k]
    # both charts hold a curve of each run's primal objective
    for chart in (view.by_time, view.by_iteration):
        drawn = [item for item in chart.plotItem.listDataItems() if item.name()]
        assert len(drawn) == 3 and all(len(item.getData()[0]) for item in drawn)


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


def test_too_many_runs_are_refused(window, qtbot):
    view = open_comparison(window, qtbot)
    tick(view, ("smo", "dual-gradient"))
    type_Cs(view, "0.1 1 10")
    QTest.mouseClick(view.compare, LEFT)
    assert "2 to 5" in view.said.text()
    assert view.table.rowCount() == 0
