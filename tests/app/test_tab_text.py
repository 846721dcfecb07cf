"""The tabs under the canvas and in the exercise form show their whole titles, selected or
not: Fusion draws an unselected tab lower, and the descender of "gamma" in *Tune C and gamma*
was cut off (seen in the guide's screenshots, in English and in Japanese)."""
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QTabWidget

from .test_japanese import japanese  # noqa: F401 - the fixture

INK = 110            # lightness below which a pixel is the title's


def _ink_rows(tabs: QTabWidget, index: int) -> int:
    """How many rows of the tab's title are drawn (inside its border)."""
    bar = tabs.tabBar()
    picture = bar.grab().toImage()
    rect = bar.tabRect(index).adjusted(3, 2, -3, -1)
    rows = [y for y in range(rect.top(), rect.bottom() + 1)
            if any(QColor(picture.pixel(x, y)).lightness() < INK
                   for x in range(rect.left(), rect.right()))]
    return max(rows) - min(rows) + 1


def _whole_unselected(tabs: QTabWidget) -> None:
    """Each tab's title as tall when another tab is in front as when it is (a click on a tab
    selects it at once; grab() paints the bar as it now stands)."""
    for index in range(tabs.count()):
        tabs.tabBar().setCurrentIndex(index)
        selected = _ink_rows(tabs, index)
        tabs.tabBar().setCurrentIndex((index + 1) % tabs.count())
        assert _ink_rows(tabs, index) == selected, tabs.tabText(index)


def test_the_tabs_under_the_canvas_show_their_whole_titles(window):
    _whole_unselected(window.below)


def test_the_japanese_tabs_show_their_whole_titles(japanese, qtbot):  # noqa: F811
    from svmdesk.app.shell.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        assert window.below.tabText(2) == "C と gamma の調整"
        _whole_unselected(window.below)
    finally:
        window.shutdown()


def test_the_exercise_forms_tabs_show_their_whole_titles(window, qtbot):
    from svmdesk.app.widgets.exercise_form import ExerciseForm

    save_as_exercise = next(a for a in window.findChildren(QAction)
                            if a.text() == "Sa&ve as exercise…")
    save_as_exercise.trigger()
    qtbot.waitUntil(lambda: window.findChild(ExerciseForm) is not None
                    and window.findChild(ExerciseForm).isVisible(), timeout=5000)
    form = window.findChild(ExerciseForm)
    _whole_unselected(form.findChild(QTabWidget))
    form.reject()
