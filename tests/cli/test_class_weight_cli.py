"""`svmdesk train --class-weight` (#52): 'balanced' or LABEL=WEIGHT pairs, the labels typed
as text and matched to the data's classes (-1, +1, cat); the model file keeps the weights
with the classes' types, the summary shows them, and a bad value is one line and exit 2
with no model written."""
import json
import re

import numpy as np
import pytest

from svmdesk.core import SVC, Dataset, class_labels, make_dataset
from svmdesk.formats import load_dataset, load_model, save_dataset

from .test_cli import assert_one_line_error, run


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Moons with 60 points of one class and 20 of the other, labelled -1/+1 and cat/dog."""
    d = tmp_path_factory.mktemp("weights")
    moons = make_dataset("moons", n=120, seed=0)
    keep = np.flatnonzero(moons.y == 0)[:60].tolist() + np.flatnonzero(moons.y == 1)[:20].tolist()
    X, y = np.asarray(moons.X)[keep], np.asarray(moons.y)[keep]
    save_dataset(Dataset(X, y, ("-1", "+1")), d / "signs.csv")
    save_dataset(Dataset(X, y, ("cat", "dog")), d / "pets.csv")
    return d


def trained(data, name, *options):
    result = run("train", name, *options, "--out", "m.json", cwd=data)
    assert result.returncode == 0, result.stderr
    kernel = re.search(r"^kernel: +(.*)$", result.stdout, re.M).group(1)
    return load_model(data / "m.json"), kernel


def direct(data, name, class_weight):
    """The model SVC fits to the same file with `class_weight`, as a script would."""
    points = load_dataset(data / name)
    labels = class_labels(points.class_names)[points.y]
    return SVC(class_weight=class_weight).fit(points.X, labels), points.X


@pytest.mark.parametrize("name, option, weights", [
    ("signs.csv", "-1=2,1=0.5", {-1: 2.0, 1: 0.5}),
    ("signs.csv", "+1=3", {1: 3.0}),                 # '+1' and '1.0' name class 1
    ("signs.csv", "1.0=3, -1=0.25", {1: 3.0, -1: 0.25}),
    ("pets.csv", "cat=3", {"cat": 3.0}),
    ("pets.csv", "dog=0.5,cat=2", {"dog": 0.5, "cat": 2.0}),
])
def test_weights_by_label_reach_the_model_with_the_classes_types(data, name, option, weights):
    model, kernel = trained(data, name, "--class-weight", option)
    saved = model.get_params()["class_weight"]
    assert saved == weights
    assert [type(k) for k in saved] == [type(k) for k in weights]
    shown = ",".join(f"{k}={v:g}" for k, v in weights.items())
    assert kernel.endswith(f"  class_weight={shown}")
    svc, X = direct(data, name, weights)
    assert model.decision_function(X).tobytes() == svc.decision_function(X).tobytes()


def test_balanced_shows_the_weights_the_fit_worked_out(data):
    model, kernel = trained(data, "signs.csv", "--class-weight", "balanced")
    assert model.get_params()["class_weight"] == "balanced"
    # 80 points: 80 / (2 * 60) for the 60 of class -1, 80 / (2 * 20) for the 20 of class 1
    assert kernel.endswith("  class_weight=balanced (-1=0.666667,1=2)")
    svc, X = direct(data, "signs.csv", "balanced")
    assert model.decision_function(X).tobytes() == svc.decision_function(X).tobytes()


def test_without_the_option_or_with_none_every_class_weighs_1(data):
    for options in ((), ("--class-weight", "none")):
        model, kernel = trained(data, "pets.csv", *options)
        assert model.get_params()["class_weight"] is None
        assert "class_weight" not in kernel
        assert json.loads((data / "m.json").read_text())["params"]["class_weight"] is None


def test_help_says_how_to_write_class_weights(data):
    result = run("train", "--help", cwd=data)
    flat = " ".join(result.stdout.split())
    assert "--class-weight CLASS_WEIGHT each class's weight" in flat
    assert "'balanced' (n_samples / (n_classes * np.bincount(y))) or LABEL=WEIGHT pairs " \
           "separated by commas, such as -1=2,1=0.5 or cat=3" in flat


@pytest.mark.parametrize("name, option, message", [
    ("pets.csv", "emu=2", "--class-weight: 'emu' is not a class of the data; its classes are "
                          "cat, dog"),
    ("signs.csv", "2=1", "--class-weight: '2' is not a class of the data; its classes are -1, 1"),
    ("signs.csv", "1=1,+1=2", "--class-weight: class 1 is given twice"),
    ("pets.csv", "cat", "argument --class-weight: must be 'balanced'"),
    ("pets.csv", "=2", "argument --class-weight: must be 'balanced'"),
    ("pets.csv", "cat=2;dog=1", "argument --class-weight: the weight of class cat must be a "
                                "number >= 0 (0 leaves its points out); got '2;dog=1'"),
    ("pets.csv", "cat=x", "the weight of class cat must be a number >= 0"),
    ("pets.csv", "cat=-1", "the weight of class cat must be a number >= 0"),
    ("pets.csv", "cat=nan", "the weight of class cat must be a number >= 0"),
    ("pets.csv", "cat=inf", "the weight of class cat must be a number >= 0"),
    ("pets.csv", "cat=1,cat=2", "argument --class-weight: class cat is given twice"),
    ("pets.csv", "cat=0", "every point of class 'cat' has a weight of zero"),
])
def test_a_bad_class_weight_is_one_line_exit_2_and_writes_no_model(data, name, option, message):
    line = assert_one_line_error(run("train", name, "--class-weight", option,
                                     "--out", "bad.json", cwd=data))
    assert message in line
    assert not (data / "bad.json").exists()


def test_a_missing_value_is_a_usage_error(data):
    line = assert_one_line_error(run("train", "pets.csv", "--class-weight", "--out", "bad.json",
                                     cwd=data))
    assert "argument --class-weight: expected one argument" in line
