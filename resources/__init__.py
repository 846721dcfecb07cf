"""svmdesk's files that are not code: the icon, the Linux desktop entry and the example data
sets. This folder is installed as the package `svmdesk.resources` (pyproject.toml maps it),
so its files are found the same way in a checkout, an editable install and a wheel: through
`path()`, never by a path relative to the working folder. Free of Qt, like the core."""
from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from svmdesk.i18n import N_

ICON = "icons/svmdesk.svg"
ICON_SIZES = (16, 32, 48, 64, 128, 256)        # icons/svmdesk-<size>.png, drawn from ICON
DESKTOP_ENTRY = "svmdesk.desktop"


@dataclass(frozen=True)
class Example:
    """An example data set or exercise of examples/ (README.md there says where each comes
    from)."""
    file: str
    title: str          # File > Examples shows it (translated there)
    task: str           # "classification" or "regression"


EXAMPLES = (
    Example("iris-petals.csv", N_("Iris petals: three species"), "classification"),
    Example("breast-cancer.csv", N_("Breast cancer: two telling features"), "classification"),
    Example("xor.csv", N_("XOR: no straight line separates it"), "classification"),
    Example("imbalanced.csv", N_("Imbalanced: 200 points against 20"), "classification"),
    Example("noisy-sine.csv", N_("Noisy sine: a 1-D regression"), "regression"),
)
# Sessions a teacher hands out: instructions, locked controls and goals (formats/exercise.py)
EXERCISES = (
    Example("exercise-hard-margin.svmdesk",
            N_("Exercise: the hard margin and its support vectors"), "classification"),
    Example("exercise-soft-margin.svmdesk", N_("Exercise: C and the soft margin"),
            "classification"),
    Example("exercise-gamma-moons.svmdesk", N_("Exercise: gamma and over-fitting on moons"),
            "classification"),
)
# What File > Examples and the welcome page offer: every example (the window does each task)
# and every exercise
WINDOW_EXAMPLES = EXAMPLES + EXERCISES


def path(relative: str) -> Path:
    """The file at `relative` ('icons/svmdesk.svg') in this folder, as installed (svmdesk
    installs unzipped, so every resource is a file on disk)."""
    return Path(str(files(__name__).joinpath(relative)))


def icon_png(size: int) -> Path:
    return path(f"icons/svmdesk-{size}.png")


def example_path(example: Example) -> Path:
    return path(f"examples/{example.file}")
