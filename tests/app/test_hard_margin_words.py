"""A hard margin on points no line separates: the readout says they are not separable (no
α is bounded at C = ∞), and the run's warning goes to the status bar and the log only, not
to stderr (issue #44)."""
import warnings

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from .test_panel_rows import _box

TIMEOUT = 10_000   # ms


def three_overlapping_classes(window):
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(c, 0.5, size=(150, 2)) for c in ((0, 0), (2, 0), (1, 1.7))])
    window.editing.replace_points(X, np.repeat([0, 1, 2], 150), ("-1", "1", "2"), "three")


@pytest.mark.parametrize("points", [
    lambda window: window.editing.generate("moons", 200, 0.3, 0),  # no line separates them
    three_overlapping_classes], ids=["two moons", "three classes"])
def test_a_hard_margin_on_overlapping_classes_is_said_not_separable(window, qtbot, capfd,
                                                                    points):
    points(window)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentIndex(p.kernel.findData("linear"))
    hard = p.controls["C"].choice
    qtbot.mouseClick(hard, Qt.MouseButton.LeftButton, pos=_box(hard))
    assert p.params()["C"] is None
    capfd.readouterr()
    # what Python would print on stderr (pytest records warnings instead of printing them)
    with warnings.catch_warnings(record=True) as printed, \
            qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        warnings.simplefilter("always")
        QTest.keyClick(window, Qt.Key.Key_F5)
    svs, legend = p.readout["svs"], p.readout_box.legend
    assert "not separable" in svs.text(), svs.text()
    assert svs.fontMetrics().horizontalAdvance(svs.text()) <= svs.width()    # not cut off
    assert "bounded" not in svs.text() and "α = C" not in legend.text()
    assert "α = C" not in svs.toolTip() and "C = ∞" in svs.toolTip()
    logged = [line for line in window.notices.log.lines if "warning:" in line]
    assert logged and "hard margin has no solution" in logged[-1]
    assert "warning" in window.statusBar().currentMessage().lower()
    assert [str(w.message) for w in printed] == []       # the window said it: stderr did not
    assert capfd.readouterr().err == ""


@pytest.mark.slow
def test_a_primal_grown_without_bound_reads_as_infinite_without_a_warning(window, qtbot):
    import dataclasses

    window.panel.controls["max_iter"].widget.setValue(50)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    frame = ended.args[0]
    grown = dataclasses.replace(frame, reading=dataclasses.replace(
        frame.reading, snapshot=dataclasses.replace(
            frame.reading.snapshot, primal_objective=np.float64(np.inf),
            gap=np.float64(np.inf))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # numpy's inf - inf warned here
        window.panel.readout_box.show_frame(grown)
    assert window.panel.readout["primal"].text() == "inf"
    assert "no bound" not in window.panel.readout["gap"].text()
