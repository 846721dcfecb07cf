"""resources/ (installed as svmdesk.resources): the icon, the desktop entry and the example
data sets are where the code looks for them, in the wheel's package data, and the examples
say where they come from. `.ci/run` builds the wheel and lists it; these tests check what
decides its contents."""
import configparser
import csv
import fnmatch
from pathlib import Path

import numpy as np
import pytest

from svmdesk import resources
from svmdesk.formats import load_dataset

tomllib = pytest.importorskip("tomllib", reason="pyproject.toml is read with Python 3.11's tomllib")
ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_resources_is_the_top_level_folder_installed_as_a_package():
    assert resources.path(resources.ICON) == ROOT / "resources" / "icons" / "svmdesk.svg"
    assert SETUPTOOLS["package-dir"]["svmdesk.resources"] == "resources"


def test_every_package_of_svmdesk_is_listed_for_the_wheel():
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "svmdesk").rglob("__init__.py")}
    listed = {name for name in SETUPTOOLS["packages"] if not name.startswith("svmdesk.resources")}
    assert found == listed


def test_every_resource_file_is_package_data():
    """Each file is matched by a package-data pattern of the nearest package listed above it
    (a translation's source, the .po, stays out: svmdesk reads the compiled .mo)."""
    data = SETUPTOOLS["package-data"]
    files = [f for f in (ROOT / "resources").rglob("*")
             if f.is_file() and f.name != "__init__.py" and "__pycache__" not in f.parts
             and f.suffix != ".po"]
    assert len(files) >= 1 + 1 + len(resources.ICON_SIZES) + len(resources.EXAMPLES) + 1 + 1
    for f in files:
        parts = f.relative_to(ROOT / "resources").parts
        for depth in range(len(parts) - 1, -1, -1):
            package = ".".join(("svmdesk", "resources") + parts[:depth])
            if package in SETUPTOOLS["packages"]:
                break
        relative = "/".join(parts[depth:])
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in data.get(package, [])), f


def test_the_examples_readme_gives_each_file_its_source_and_licence():
    readme = resources.path("examples/README.md").read_text(encoding="utf-8")
    lines = {line.split("`")[1]: line for line in readme.splitlines() if line.startswith("- `")}
    on_disk = {f.name for f in resources.path("examples").glob("*.*") if f.suffix != ".md"}
    assert set(lines) == on_disk == {e.file for e in resources.WINDOW_EXAMPLES}
    for line in lines.values():
        assert "licence CC BY 4.0" in line or "licence MIT" in line
        assert "UCI" in line or "drawn for svmdesk from a fixed seed" in line


@pytest.mark.parametrize("file, n, classes", [
    ("iris-petals.csv", 150, ["setosa", "versicolor", "virginica"]),
    ("breast-cancer.csv", 569, ["benign", "malignant"]),
    ("xor.csv", 200, ["-1", "1"]),
    ("imbalanced.csv", 220, ["common", "rare"]),
])
def test_each_classification_example_loads_as_two_features_and_its_classes(file, n, classes):
    example = next(e for e in resources.EXAMPLES if e.file == file)
    data = load_dataset(resources.example_path(example))
    assert example.task == "classification"
    assert data.X.shape == (n, 2) and sorted(data.class_names) == classes
    assert np.isfinite(data.X).all()


def test_the_imbalanced_set_is_ten_to_one():
    data = load_dataset(resources.path("examples/imbalanced.csv"))
    counts = dict(zip(data.class_names, np.bincount(data.y)))
    assert counts == {"common": 200, "rare": 20}


def test_the_breast_cancer_pair_is_telling():
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    data = load_dataset(resources.path("examples/breast-cancer.csv"))
    scores = cross_val_score(make_pipeline(StandardScaler(), SVC(kernel="linear")),
                             data.X, data.y, cv=5)
    assert scores.mean() > 0.95


def test_the_regression_example_is_numbers_x_and_y():
    example = next(e for e in resources.EXAMPLES if e.task == "regression")
    with open(resources.example_path(example), encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["x", "y"]
    xy = np.array(rows[1:], dtype=float)
    assert xy.shape == (80, 2) and np.all(np.diff(xy[:, 0]) >= 0)
    assert np.std(xy[:, 1] - np.sin(xy[:, 0])) == pytest.approx(0.2, abs=0.05)


def test_the_desktop_entry_starts_the_window_with_the_icon():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str                          # keys are case-sensitive
    entry.read(resources.path(resources.DESKTOP_ENTRY), encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Terminal"] == "false"
    assert desktop["Exec"].split()[0] in PYPROJECT["project"]["gui-scripts"]
    assert all(resources.icon_png(size).name.startswith(desktop["Icon"] + "-")
               for size in resources.ICON_SIZES)
    for key in ("Categories", "MimeType", "Keywords"):
        assert desktop[key].endswith(";")
