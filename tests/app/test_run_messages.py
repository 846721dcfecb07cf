"""What the run says is true: the core's warnings reach the window (status bar and
View > Log), and a negative duality gap is shown for what it is, never as convergence."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

WAIT = 10_000   # ms


def train(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    return ended.args[0]


@pytest.mark.parametrize("solver", ["smo", "dual-gradient"])
def test_a_hard_margin_on_overlapping_classes_says_why_in_the_window(window, qtbot, solver):
    window.editing.generate("moons", 100, 0.4, 1)                    # the classes overlap
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData(solver))
    p.kernel.setCurrentText("linear")
    p.controls["C"].choice.setChecked(True)
    p.controls["max_iter"].widget.setValue(3000)
    train(window, qtbot)
    message = window.statusBar().currentMessage()
    assert "not separable" in message and "Warning" in message
    QTest.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)   # View > Log
    notices = window.notices
    qtbot.waitUntil(lambda: notices.log_dialog is not None and notices.log_dialog.isVisible(),
                    timeout=WAIT)
    assert "not separable" in window.notices.log_dialog.text.toPlainText()
    before = len(window.notices.log.lines)
    train(window, qtbot)                                     # the log keeps every run's
    assert len(window.notices.log.lines) > before
    assert "not separable" in window.notices.log_dialog.text.toPlainText().split("\n")[-1]


def test_a_hard_margin_that_overflows_smo_is_said_in_seconds_and_draws_a_finite_model(
        window, qtbot):
    import numpy as np

    window.editing.generate("moons", 300, 0.3, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("sigmoid")
    p.controls["C"].choice.setChecked(True)                        # hard margin
    train(window, qtbot)                                          # within WAIT
    bar = window.statusBar()
    assert "hard margin has no solution" in bar.currentMessage()
    assert bar.currentMessage().startswith("Warning (View > Log keeps every message): ")
    assert bar.toolTip() == bar.currentMessage()            # the whole line, cut or not
    assert any("grew without bound" in line for line in window.notices.log.lines)
    assert window.panel.readout["state"].text() != "converged"
    assert np.isfinite(window.fitted.dual_coef_).all()


def test_points_too_large_to_draw_are_refused_on_opening_and_change_nothing(window, tmp_path):
    import numpy as np

    huge = tmp_path / "huge.csv"
    huge.write_text("x,y,label\n" + "".join(f"{k}e160,{k % 3}e160,{k % 2}\n"
                                             for k in range(1, 21)), encoding="utf-8")
    before = window.points.X
    window.files.open(huge)
    assert "its points reach 2e+161" in window.notices.banner.text()
    assert "divide the columns by a common scale" in window.notices.file_error_box.text()
    window.notices.file_error_box.accept()
    np.testing.assert_array_equal(window.points.X, before)


@pytest.mark.slow
def test_a_negative_gap_is_shown_as_no_bound_and_never_as_converged(window, qtbot):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentText("sigmoid")
    p.controls["C"].widget.set_value(1.0)
    p.controls["max_iter"].widget.setValue(500)
    frame = train(window, qtbot)
    assert frame.reading.snapshot.gap < 0 and not frame.reading.snapshot.converged
    assert window.panel.readout["state"].text() != "converged"
    assert "no bound" in window.panel.readout["gap"].text()
    assert "not positive semi-definite" in window.statusBar().currentMessage()
    assert any("negative duality gap" in line for line in window.notices.log.lines)


def test_failures_and_refusals_go_to_the_log_too(window):
    window.editing.clear_points()
    window.train()
    assert "two classes" in window.notices.log.lines[-1]
