"""What an exercise fixes while it is open: settings at the values it was handed out with, and
perhaps the points. Every path that would change one asks here first (a file opened, a model
opened, a tuned cell taken, a task chosen, the points edited) and is refused with a notice
naming the lock; the panel shows the locked controls disabled (SidePanel.lock)."""
from __future__ import annotations

from ...core.kinds import KINDS
from ...formats.exercise import POINTS, Exercise
from ...i18n import tr


class Locks:
    def __init__(self, exercise: Exercise | None = None, settings: dict | None = None) -> None:
        """`settings`: the exercise session's; the locked ones keep their values."""
        names = () if exercise is None else exercise.locks
        settings = settings or {}
        self.points = POINTS in names
        self.values = {name: settings.get(name) for name in names if name != POINTS}

    def __bool__(self) -> bool:
        return self.points or bool(self.values)

    def settings_refusal(self, settings: dict, source: str) -> str:
        """Why `settings` (a file's, a model's) cannot be taken ('' when no lock is
        touched): the first locked setting they would change, named."""
        for name, fixed in self.values.items():
            if name in settings and not _same(settings[name], fixed):
                return tr("{source} would change {name} to {value}, which this exercise "
                          "fixes at {fixed}: nothing was changed.").format(
                    source=source, name=name, value=shown_value(name, settings[name]),
                    fixed=shown_value(name, fixed))
        return ""

    def points_refusal(self, action: str) -> str:
        """Why `action` (in words: 'Opening iris.csv') may not change the points ('' when
        they are not locked)."""
        if not self.points:
            return ""
        return tr("{action} would change the points, which this exercise fixes: nothing was "
                  "changed.").format(action=action)


def _same(a, b) -> bool:
    """Equal as settings: numbers by value (1 == 1.0), the rest exactly."""
    numbers = (int, float)
    if type(a) in numbers and type(b) in numbers and type(a) is not bool \
            and type(b) is not bool:
        return float(a) == float(b)
    return a == b and type(a) is type(b)


def shown_value(name: str, value) -> str:
    """A setting's value in words: a kind by its title, a check box on or off."""
    if name == "kind" and value in KINDS:
        return tr(KINDS[value].title)
    if type(value) is bool:
        return tr("on") if value else tr("off")
    return format(value, "g") if type(value) is float else str(value)
