"""What a change of task puts aside and its undo brings back: the model the window shows
(drawn, read out, charted, evaluated) and the panel's settings. The document's undo steps
hold it without looking inside (the document room knows nothing of training); the shell,
where the rooms meet, takes it and puts it back."""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...i18n import tr

if TYPE_CHECKING:
    from ..training.display import RunDisplay, ShownModel
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel

# Settings an undo leaves as they are: a preference of the person, not a state of the work
# (retrain on edit), and the held-out share, which deals the points anew when it changes
# (the undo step brings back the points' own held-out marks)
KEPT_SETTINGS = ("auto_retrain", "test_fraction")


@dataclass(frozen=True)
class Standing:
    """The window as it stood: the model shown (None: none) and the panel's settings."""

    shown: ShownModel | None
    settings: dict


class ModelShelf:
    def __init__(self, display: RunDisplay, panel: SidePanel, notices: Notices,
                 discard_model: Callable[[], None]):
        """`discard_model()`: stop any run and show no model."""
        self.display, self.panel, self.notices = display, panel, notices
        self.discard_model = discard_model
        self.putting_back = False      # while True an edit does not retrain (the window asks)

    def take(self) -> Standing:
        return Standing(self.display.shown_model(), self.panel.settings_as_shown())

    def discard(self) -> None:
        self.discard_model()

    def put_back(self, standing: Standing, change: Callable[[], None], done: str) -> None:
        """Make `change` (the points' return), then show `standing` again: what it shows
        was trained on those points, so nothing trains again meanwhile. The status bar
        says `done` (what was undone or redone) and what is shown now."""
        with self._putting_back():
            change()
            settings = {name: value for name, value in standing.settings.items()
                        if name not in KEPT_SETTINGS}
            self.panel.apply_settings(settings)
            self.display.show_again(standing.shown)
        now = (tr("The model shown then is back; nothing was trained.") if standing.shown
               else tr("No model was shown then: Train (F5) fits one."))
        self.notices.say(f"{done} {now}", 10000)

    @contextlib.contextmanager
    def _putting_back(self):
        was, self.putting_back = self.putting_back, True
        try:
            yield
        finally:
            self.putting_back = was
