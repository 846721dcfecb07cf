"""A hard margin on points no line separates: the readout says they are not separable (no
α is bounded at C = ∞), and the run's warning goes to the status bar and the log only, not
to stderr (issue #44)."""
import warnings

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from .test_panel_rows import _box

TIMEOUT = 10_000   # ms


def test_a_hard_margin_on_overlapping_classes_is_said_not_separable(window, qtbot, capfd):
    window.editing.generate("moons", 200, 0.3, 0)        # two moons: no line separates them
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
    assert "bounded" not in svs.text() and "α = C" not in legend.text()
    assert "α = C" not in svs.toolTip() and "C = ∞" in svs.toolTip()
    logged = [line for line in window.notices.log.lines if "warning:" in line]
    assert logged and "hard margin has no solution" in logged[-1]
    assert "warning" in window.statusBar().currentMessage().lower()
    assert [str(w.message) for w in printed] == []       # the window said it: stderr did not
    assert capfd.readouterr().err == ""
