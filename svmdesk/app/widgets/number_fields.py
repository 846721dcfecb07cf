"""Number fields that say why they refuse what was typed. A plain spin box drops a value it
cannot take (-5 for C, "abc", 1e9) and shows the old one again without a word; these let
the person type anything, keep the old value when the text is refused, and say why in a
note beside the field (what was typed, the range the field takes) until a value it takes
is typed."""
from __future__ import annotations

from typing import cast

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QSpinBox, QWidget

from ...i18n import tr

NOTE_WIDTH = 300             # px at most: the note wraps under a narrow field


class _SaysRefusals:
    """What both fields share (a mixin before the Qt class): free typing, and a refusal
    said beside the field."""

    name: str

    def _watch(self, name: str) -> None:
        self.name = name
        self._typing = False               # typed into since the last refusal or value
        self.lineEdit().textEdited.connect(self._on_typing)      # type: ignore[attr-defined]
        self.editingFinished.connect(self._edited)          # type: ignore[attr-defined]

    def _on_typing(self) -> None:
        self._typing = True

    def validate(self, text, pos):
        """Any text may be typed (a keystroke the field refused vanished unseen): what it
        cannot take waits as 'intermediate' until Return or the focus leaves, and is then
        refused aloud."""
        validated = super().validate(text, pos)              # type: ignore[misc]
        if validated[0] == QValidator.State.Invalid:
            return QValidator.State.Intermediate, text, pos
        return validated

    def fixup(self, text):
        self._typing = False
        field = cast(QWidget, self)
        RefusalNote.of(field).say(field, refusal(self, _typed(self, text)))
        return super().fixup(text)                           # type: ignore[misc]

    def _edited(self) -> None:
        """An edit ended (Return, or the focus left): a value typed since the refusal and
        taken lets its note go (a focus that leaves after the refusal changes nothing)."""
        if self._typing:
            field = cast(QWidget, self)
            RefusalNote.of(field).forget(field)
        self._typing = False


class IntField(_SaysRefusals, QSpinBox):
    """A whole-number field named `name` in its refusals."""

    def __init__(self, name: str = "", parent=None):
        QSpinBox.__init__(self, parent)
        self._watch(name)


class RealField(_SaysRefusals, QDoubleSpinBox):
    """A real-number field named `name` in its refusals."""

    def __init__(self, name: str = "", parent=None):
        QDoubleSpinBox.__init__(self, parent)
        self._watch(name)


def _typed(field, text: str) -> str:
    """What the person typed: the text without the field's prefix and suffix."""
    text, prefix, suffix = text.strip(), field.prefix().strip(), field.suffix().strip()
    if suffix and text.endswith(suffix):
        text = text[:-len(suffix)]
    if prefix and text.startswith(prefix):
        text = text[len(prefix):]
    return text.strip()


def refusal(field, typed: str) -> str:
    """Why `field` refuses `typed`, in a sentence: what it takes, and that it keeps its
    value."""
    name = field.name or tr("This field")
    low, high, special = field.minimum(), field.maximum(), field.specialValueText()
    if special:                              # the lowest place stands for a word
        low += 1
    span = tr("{low} to {high}").format(low=field.textFromValue(low),
                                        high=field.textFromValue(high))
    kept = field.textFromValue(field.value())
    if special:
        span = tr("{span}, or “{word}”").format(span=span, word=special)
        kept = special if field.value() == field.minimum() else kept
    if not typed:
        said = tr("{name} needs a number: it takes {span}.")
    elif _number(field, typed) is None:
        said = tr("“{typed}” is not a number: {name} takes {span}.")
    else:
        said = tr("{typed} is refused: {name} takes {span}.")
    return said.format(name=name, typed=typed, span=span) + " " + tr(
        "It stays {value}.").format(value=kept)


def _number(field, typed: str):
    """`typed` as a number the field's kind could hold (None: not a number at all)."""
    try:
        value = float(typed)
    except ValueError:
        value, ok = field.locale().toDouble(typed)
        if not ok:
            return None
    return value


class RefusalNote(QLabel):
    """The note beside a field that refused what was typed: one a window, over the window
    (it moves no control), until the field takes a value or hides."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window_ = window
        self.setObjectName("refusal_note")
        # clicks go through to what it covers (Generate under the noise field)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setWordWrap(True)
        self.setMaximumWidth(NOTE_WIDTH)
        self.setStyleSheet("background: #FDEDEC; color: #B03A2E; border: 1px solid #B03A2E;"
                           " padding: 3px; font-size: 11px")
        self.field: QWidget | None = None
        self.hide()

    @classmethod
    def of(cls, field: QWidget) -> RefusalNote:
        window = field.window()
        note = window.findChild(RefusalNote, "refusal_note",
                                Qt.FindChildOption.FindDirectChildrenOnly)
        return note if note is not None else cls(window)

    def say(self, field: QWidget, message: str) -> None:
        if self.field is not field:
            if self.field is not None:
                self.field.removeEventFilter(self)
            field.installEventFilter(self)
            self.field = field
        self.setText(message)
        self.setFixedWidth(max(min(NOTE_WIDTH, self.window_.width()), field.width()))
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()

    def forget(self, field: QWidget) -> None:
        if self.field is field:
            field.removeEventFilter(self)
            self.field = None
            self.hide()

    def _place(self) -> None:
        """Under the field, kept inside the window."""
        assert self.field is not None
        window = self.window_
        below = self.field.mapTo(window, QPoint(0, self.field.height() + 2))
        x = min(below.x(), window.width() - self.width())
        y = below.y() if below.y() + self.height() <= window.height() else \
            self.field.mapTo(window, QPoint(0, 0)).y() - self.height() - 2
        self.move(max(0, x), max(0, y))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.field:
            if event.type() == QEvent.Type.Hide:
                self.forget(self.field)
            elif event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
                self._place()
        return False
