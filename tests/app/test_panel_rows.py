"""The panel's parameter rows come from the catalog's table: one row per parameter with its
range and tooltip, shown for the solvers and kernels that use it, giving the estimator its
values; a new row in the table is a new row in the panel."""
from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox

from svmdesk.app.widgets.panel import SidePanel
from svmdesk.app.widgets.param_offers import offer
from svmdesk.app.widgets.param_rows import LogParam
from svmdesk.core import TABLE, kinds

from ..fake_solver import SHRINK


@pytest.fixture
def panel(qtbot):
    widget = SidePanel()
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def choose(panel, solver, kernel):
    panel.solver.setCurrentIndex(panel.solver.findData(solver))
    panel.kernel.setCurrentIndex(panel.kernel.findData(kernel))


def test_a_fresh_panel_asks_for_the_tables_defaults(panel):
    assert panel.params() == TABLE.defaults


@pytest.mark.parametrize("param", [p for p in TABLE.params if offer(kinds.C_SVC.key, p.name)],
                         ids=lambda p: p.name)
def test_every_row_has_the_tables_tooltip_and_range(panel, param):
    control = panel.controls[param.name]
    offered = offer(kinds.C_SVC.key, param.name)
    assert param.about in control.widget.toolTip()
    if param.value_type in ("real", "int"):
        spin = control.widget.spin if isinstance(control.widget, LogParam) else control.widget
        assert (spin.minimum(), spin.maximum()) == (offered.low, offered.high)


@pytest.mark.parametrize("solver, kernel", [
    (s, k) for s, k in itertools.product(TABLE.solvers, TABLE.kernels)
    if k in TABLE.solvers[s].kernels])
def test_rows_show_for_the_solvers_and_kernels_that_use_them(panel, solver, kernel):
    choose(panel, solver, kernel)
    for name, control in panel.controls.items():
        applies = name in TABLE.names and control.param.applies(solver, kernel)
        shown = control.widget.isVisible() or (control.choice is not None
                                               and control.choice.isVisible())
        assert shown == applies, (name, solver, kernel)
        label = panel.rows[name][0]
        if label is not None and control.widget.isVisible():
            assert label.isVisible() and label.text() == control.label
    hard = panel.controls["C"].choice
    assert hard.isVisible() == TABLE.solvers[solver].hard_margin
    assert panel.formula.text() == TABLE.kernels[kernel].formula


def test_a_ticked_alternative_hides_the_value_and_gives_the_estimator_its_word(panel, qtbot):
    choose(panel, "smo", "rbf")
    gamma = panel.controls["gamma"]
    assert gamma.choice.isChecked() and not gamma.widget.isVisible()
    qtbot.mouseClick(gamma.choice, Qt.MouseButton.LeftButton, pos=_box(gamma.choice))
    assert not gamma.choice.isChecked() and gamma.widget.isVisible()
    gamma.widget.spin.setValue(0.25)
    assert panel.params()["gamma"] == 0.25
    hard = panel.controls["C"].choice
    qtbot.mouseClick(hard, Qt.MouseButton.LeftButton, pos=_box(hard))
    assert panel.params()["C"] is None and not panel.controls["C"].widget.isVisible()
    choose(panel, "pegasos", "linear")          # no hard margin: C is the number again
    assert panel.params()["C"] == 1.0 and panel.controls["C"].widget.isVisible()


def test_an_integers_lowest_place_says_none(panel):
    choose(panel, "pegasos", "linear")
    batch = panel.controls["batch_size"].widget
    assert batch.text() == "default" and panel.params()["batch_size"] is None
    batch.setValue(8)
    assert panel.params()["batch_size"] == 8
    batch.setValue(batch.minimum())
    assert batch.text() == "default" and panel.params()["batch_size"] is None
    assert panel.params()["random_state"] == 0     # no None place: a seed from the start


def test_a_loaded_models_values_show_and_those_that_cannot_are_named(panel):
    note = panel.apply_params({**TABLE.defaults, "solver": "dual-gradient", "kernel": "poly",
                               "C": None, "gamma": 0.5, "degree": 20, "coef0": 1.5})
    assert panel.controls["C"].choice.isChecked() and not panel.controls["gamma"].choice.isChecked()
    assert panel.controls["degree"].widget.value() == 10 and "degree = 20 (shown as 10)" in note
    params = panel.params()
    assert (params["solver"], params["kernel"], params["C"], params["gamma"], params["coef0"]) \
        == ("dual-gradient", "poly", None, 0.5, 1.5)
    note = panel.apply_params({**TABLE.defaults, "gamma": "auto"})
    assert "gamma = 'auto'" in note


def test_settings_keep_the_check_boxes_under_their_session_names(panel):
    settings = panel.settings()
    for name in ("hard_margin", "gamma_scale", "auto_rate", "class_weight"):
        assert isinstance(settings[name], bool)
    settings["gamma_scale"], settings["gamma"] = False, 2.0
    panel.apply_settings(settings)
    assert panel.params()["gamma"] == 2.0


def test_a_new_parameter_in_the_table_is_a_new_row(fake_table, qtbot):
    panel = SidePanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    shrink = panel.controls["shrink"]
    assert isinstance(shrink.widget, QDoubleSpinBox)
    assert (shrink.widget.minimum(), shrink.widget.maximum()) == (0.05, 1.0)
    assert SHRINK.about in shrink.widget.toolTip() and "0 < shrink <= 1" in shrink.widget.toolTip()
    assert panel.solver.findData("fake") >= 0 and not shrink.widget.isVisible()
    choose(panel, "fake", "linear")
    assert shrink.widget.isVisible() and panel.rows["shrink"][0].text() == "shrink"
    shrink.widget.setValue(0.25)
    assert panel.params()["shrink"] == 0.25
    assert not isinstance(shrink.widget, QCheckBox)
    choose(panel, "smo", "linear")
    assert not shrink.widget.isVisible() and panel.params()["shrink"] == 0.5


def _box(check: QCheckBox):
    """Where a click ticks a check box: on its indicator, at the left."""
    return QPoint(6, check.height() // 2)
