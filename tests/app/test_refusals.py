"""A number field that refuses what a person typed says why beside it, once, keeps its old
value, and lets the note go when a value it takes is typed: C, every number field of the
panel and the Data box, and the Evaluation tab's, in English and Japanese."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication

from svmdesk.app.widgets.number_fields import RefusalNote

from .test_japanese import japanese  # noqa: F401  (a fixture)
from .test_tasks import choose


def type_in(field, text: str) -> None:
    """Select the field's text, type `text` and press Return, as a person does."""
    field.setFocus()
    field.selectAll()
    QTest.keyClicks(field, text)
    QTest.keyClick(field, Qt.Key.Key_Return)


def note(window) -> RefusalNote | None:
    notes = [n for n in window.findChildren(RefusalNote) if n.isVisible()]
    assert len(notes) <= 1                      # said once, in one place
    return notes[0] if notes else None


@pytest.mark.parametrize("typed", ["-5", "abc", "1e9"])
def test_c_says_why_it_refuses_and_keeps_its_value(window, qtbot, typed):
    spin = window.panel.controls["C"].widget.spin
    before = spin.value()
    params = window.panel.params()
    type_in(spin, typed)
    assert spin.value() == before and window.panel.params() == params
    said = note(window)
    assert said is not None and typed in said.text()
    assert "C takes 0.001 to 1000" in said.text() and "stays 1" in said.text()
    if typed == "abc":
        assert "not a number" in said.text()
    # beside the field: just under it, in the window
    top = spin.mapTo(window, spin.rect().bottomLeft()).y()
    assert 0 <= said.y() - top <= 6
    type_in(spin, "3")
    assert spin.value() == 3 and note(window) is None


def test_a_refusal_is_said_once_and_holds_until_a_value_is_taken(window, qtbot):
    spin = window.panel.controls["C"].widget.spin
    type_in(spin, "-5")
    first = note(window)
    assert first is not None
    window.panel.data_box.n_points.setFocus()                   # the focus leaves: nothing new said
    QApplication.processEvents()
    assert note(window) is first and first.text().count("-5") == 1
    type_in(window.panel.data_box.n_points, "50")               # another field's value: still said
    assert note(window) is first
    type_in(spin, "1")                                 # the old value typed again: taken
    assert note(window) is None


def _number_fields(window):
    """Every number field a person can type into: the panel's (Data and Model boxes) and the
    Evaluation tab's."""
    window.below.setCurrentWidget(window.evaluation_view)
    choose(window.panel.kernel, "rbf")
    fields = window.panel.findChildren(QAbstractSpinBox)
    fields += window.evaluation_view.findChildren(QAbstractSpinBox)
    return [f for f in fields if f.isVisible() and f.isEnabled()]


def test_every_number_field_refuses_aloud(window, qtbot):
    fields = _number_fields(window)
    assert len(fields) >= 8
    for field in fields:
        before = field.value()
        type_in(field, "abc")
        said = note(window)
        assert field.value() == before and said is not None, field
        assert "“abc” is not a number" in said.text() and field.name in said.text()
        type_in(field, field.textFromValue(before))
        assert note(window) is None, field.name


def test_a_refusal_speaks_japanese(window, qtbot, japanese):  # noqa: F811
    from svmdesk.app.shell.main_window import MainWindow

    other = MainWindow()                 # built in Japanese
    qtbot.addWidget(other)
    other.show()
    qtbot.waitExposed(other)
    try:
        spin = other.panel.controls["C"].widget.spin
        type_in(spin, "-5")
        said = note(other)
        assert said is not None and "-5" in said.text() and "0.001" in said.text()
        assert "受け付けません" in said.text()
    finally:
        other.shutdown()
