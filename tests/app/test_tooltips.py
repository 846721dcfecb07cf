"""Every control of the side panel says, in its tooltip, what it does (for a parameter: what
it does to the picture, from the parameter table, so a new parameter brings its own)."""
import pytest
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QSlider

from svmdesk.app.widgets.param_offers import offer
from svmdesk.core import catalog, kinds

CONTROLS = (QAbstractButton, QAbstractSpinBox, QComboBox, QSlider)


def _controls(window):
    panel = window.panel
    for root in (panel, panel.run_box):
        for kind in CONTROLS:
            for widget in root.findChildren(kind):
                if widget.isVisibleTo(window):
                    yield widget


# between them, these show every row of the panel (poly: degree and coef0; the gradient
# solvers: the learning rate; Pegasos: batch size and seed)
@pytest.mark.parametrize("solver, kernel", [("smo", "rbf"), ("kernel-gradient", "poly"),
                                            ("pegasos", "linear")])
def test_every_visible_control_of_the_panel_has_a_tooltip(window, solver, kernel):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData(solver))
    p.kernel.setCurrentText(kernel)
    bare = [w.text() if isinstance(w, QAbstractButton) else type(w).__name__
            for w in _controls(window)
            if not w.toolTip() and not (w.parent() and w.parent().toolTip())]
    assert bare == []


def test_every_offered_parameter_says_what_it_does_to_the_picture(window):
    offers = {p.name: offer(kinds.C_SVC.key, p.name) for p in catalog.TABLE.params}
    offered = [p for p in catalog.TABLE.params if offers[p.name] is not None]
    assert [p.name for p in offered if not offers[p.name].effect] == []
    for param in offered:
        row = window.panel.controls.get(param.name)
        if row is not None:
            assert row.widget.toolTip().startswith(offers[param.name].effect)
