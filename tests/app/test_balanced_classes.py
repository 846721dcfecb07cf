"""The panel's "balanced classes" box (issue #52): ticked, training weighs each class by how
few points it has, so a class of 6 points among 66 gets a boundary that reaches for it; the
box lives in sessions, and a model's own weights show half ticked."""
import numpy as np
from PySide6.QtCore import Qt

from svmdesk.core import SVC

from .test_panel_rows import _box
from .test_window import TIMEOUT


def _imbalanced(window):
    """60 points of 'many' around the origin, 6 of 'few' overlapping them to the upper right:
    an unweighted machine gives up on the few."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal([0, 0], 1.0, (60, 2)), rng.normal([1.5, 1.5], 1.0, (6, 2))])
    y = np.r_[np.zeros(60, int), np.ones(6, int)]
    window.points.replace(X, y, class_names=["many", "few"])
    return X[y == 1]


def _click_box(window, qtbot):
    box = window.panel.controls["class_weight"].widget
    window.panel_scroll.ensureWidgetVisible(box)      # scrolled into sight, as a person would
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=_box(box))


def _train_by_the_button(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    return window.fitted


def test_ticking_balanced_classes_trains_a_boundary_that_keeps_the_few_points(window, qtbot):
    few = _imbalanced(window)
    plain = _train_by_the_button(window, qtbot)
    assert plain.class_weight is None
    _click_box(window, qtbot)
    assert window.panel.controls["class_weight"].widget.isChecked()
    balanced = _train_by_the_button(window, qtbot)
    assert balanced.class_weight == "balanced"
    found_plain = int((plain.predict(few) == "few").sum())
    found_balanced = int((balanced.predict(few) == "few").sum())
    assert found_balanced > found_plain, (found_plain, found_balanced)


def test_the_box_and_its_model_survive_a_session(window, qtbot, tmp_path, another_window):
    _imbalanced(window)
    _click_box(window, qtbot)
    _train_by_the_button(window, qtbot)
    assert window.files.save_session_to(tmp_path / "lab")
    other = another_window()
    other.files.open(tmp_path / "lab.svmdesk")
    assert other.panel.controls["class_weight"].widget.checkState() == Qt.CheckState.Checked
    assert other.panel.params()["class_weight"] == "balanced"
    assert other.fitted.class_weight == "balanced"


def test_a_models_own_weights_show_half_ticked_until_a_click(window, qtbot):
    """A mapping of weights is neither None nor 'balanced': the box says so, and training
    again keeps the weights. (Model files cannot hold a mapping yet: the model comes as an
    opened file's would, once read.)"""
    _imbalanced(window)
    X, y = np.asarray(window.points.X), np.array(["many", "few"])[window.points.y]
    weights = {"many": 1.0, "few": 4.0}
    assert window.opener.show_model(SVC(kernel="linear", class_weight=weights).fit(X, y),
                                    "weighted.json")
    box = window.panel.controls["class_weight"].widget
    assert box.checkState() == Qt.CheckState.PartiallyChecked
    assert "many: 1, few: 4" in box.toolTip()
    assert _train_by_the_button(window, qtbot).class_weight == weights
    _click_box(window, qtbot)                       # a click makes it a plain box again
    assert box.checkState() == Qt.CheckState.Checked and not box.isTristate()
    assert window.panel.params()["class_weight"] == "balanced"
    assert "many: 1" not in box.toolTip()
