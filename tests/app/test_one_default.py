"""A parameter has one default, the catalog's: the window starts at it, as the CLI and the
estimator do (issue #44: Pegasos' batch size started at 1 in the window, 32 elsewhere)."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.cli.options import _default
from svmdesk.core import TABLE
from svmdesk.core.solvers import pegasos

TIMEOUT = 10_000   # ms


def test_a_fresh_windows_pegasos_starts_at_the_tables_batch_size(window, qtbot):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("pegasos"))
    batch, row = p.controls["batch_size"].widget, TABLE.param("batch_size")
    assert batch.isVisible() and batch.text() == "default"     # the table's None
    assert p.params()["batch_size"] == row.default == TABLE.defaults["batch_size"]
    # the CLI says the same default, and it is the solver's own
    assert _default(row) == row.none and f"({pegasos.DEFAULT_BATCH})" in row.none
    p.controls["max_iter"].widget.setValue(200)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    assert ended.args[0].estimator.get_params()["batch_size"] == row.default
