"""`svmdesk evaluate` and `svmdesk train --cv` as a teacher runs them: the numbers printed
are scikit-learn's for the same predictions and folds; bad input is one line and exit 2."""
from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score

from svmdesk.core import SVC, SVR, Dataset, NuSVC, OneClassSVM, class_labels, make_dataset
from svmdesk.formats import save_dataset, save_model
from svmdesk.formats.targets import save_targets

from .test_cli import _env, run


def number(out: str, name: str) -> float:
    return float(re.search(rf"^{re.escape(name)}:?\s+([-\d.e+]+)", out, re.M).group(1))


@pytest.fixture
def moons(tmp_path):
    """A model trained on moons, and other moons to evaluate it on (labels -1 and 1)."""
    train = make_dataset("moons", n=80, noise=0.3, seed=1)
    test = make_dataset("moons", n=60, noise=0.3, seed=2)
    names = ("-1", "1")
    labels = class_labels(names)
    svc = SVC(kernel="rbf", C=3.0).fit(train.X, labels[train.y])
    save_model(svc, tmp_path / "moons.json")
    save_dataset(Dataset(test.X, test.y, names), tmp_path / "test.csv")
    return svc, test.X, labels[test.y]


def test_a_binary_model_prints_scikit_learns_numbers(moons, tmp_path):
    svc, X, y = moons
    result = run("evaluate", "moons.json", "test.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    predicted = svc.predict(X)
    matrix = sk.confusion_matrix(y, predicted, labels=[-1, 1])
    rows = re.findall(r"^\s*(-1|1)\s+(\d+)\s+(\d+)$", out, re.M)
    assert [[int(a), int(b)] for _, a, b in rows] == matrix.tolist()
    assert number(out, "accuracy") == pytest.approx(sk.accuracy_score(y, predicted), abs=1e-4)
    p, r, f, s = sk.precision_recall_fscore_support(y, predicted, labels=[-1, 1])
    line = re.search(r"^\s*1\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)$", out, re.M).groups()
    assert [float(v) for v in line[:3]] == pytest.approx([p[1], r[1], f[1]], abs=1e-4)
    f_x = svc.decision_function(X)
    assert number(out, "AUC") == pytest.approx(sk.roc_auc_score(y == 1, f_x), rel=1e-6)
    assert number(out, "AP") == pytest.approx(sk.average_precision_score(y == 1, f_x),
                                              rel=1e-6)


def test_a_threshold_moves_the_predictions_not_the_auc(moons, tmp_path):
    svc, X, y = moons
    plain = run("evaluate", "moons.json", "test.csv", cwd=tmp_path).stdout
    moved = run("evaluate", "moons.json", "test.csv", "--threshold", "0.8", cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    predicted = np.where(svc.decision_function(X) > 0.8, 1, -1)
    assert number(moved.stdout, "accuracy") == pytest.approx(
        sk.accuracy_score(y, predicted), abs=1e-4)
    assert number(moved.stdout, "AUC") == number(plain, "AUC")


def test_three_classes_give_a_line_per_class_and_a_threshold_needs_its_class(tmp_path):
    data = make_dataset("blobs", n=90, noise=1.5, seed=3, centers=3)
    svc = SVC(kernel="rbf").fit(data.X, data.y)
    save_model(svc, tmp_path / "three.json")
    save_dataset(data, tmp_path / "three.csv")
    out = run("evaluate", "three.json", "three.csv", cwd=tmp_path).stdout
    # each class ranked by its weakest duel: pairs (0,1), (0,2), (1,2), positive: the first
    ovo = svc.set_params(decision_function_shape="ovo").decision_function(data.X)
    duels = np.column_stack([np.minimum(ovo[:, 0], ovo[:, 1]), np.minimum(-ovo[:, 0], ovo[:, 2]),
                             np.minimum(-ovo[:, 1], -ovo[:, 2])])
    for k in range(3):
        expected = sk.roc_auc_score(data.y == k, duels[:, k])
        assert number(out, f"AUC {k}") == pytest.approx(expected, rel=1e-6)
        assert number(out, f"AP {k}") == pytest.approx(
            sk.average_precision_score(data.y == k, duels[:, k]), rel=1e-6)
    at_zero = run("evaluate", "three.json", "three.csv", "--threshold", "0", "--class", "1",
                  cwd=tmp_path)
    voted = svc.predict(data.X)                 # at 0 exactly the model's own predictions
    assert number(at_zero.stdout, "accuracy") == pytest.approx(
        sk.accuracy_score(data.y, voted), abs=1e-4)
    refused = run("evaluate", "three.json", "three.csv", "--threshold", "1", cwd=tmp_path)
    assert refused.returncode == 2 and "needs --class" in refused.stderr
    chosen = run("evaluate", "three.json", "three.csv", "--threshold", "0.5", "--class", "2",
                 cwd=tmp_path)
    assert chosen.returncode == 0, chosen.stderr
    # class 2 where it wins both duels by more than 0.5, else the vote, or where that is 2
    # the winner of the duel between 0 and 1
    others = np.where(voted == 2, np.where(ovo[:, 0] > 0, 0, 1), voted)
    predicted = np.where(duels[:, 2] > 0.5, 2, others)
    assert (predicted != voted).any()
    assert number(chosen.stdout, "accuracy") == pytest.approx(
        sk.accuracy_score(data.y, predicted), abs=1e-4)


def _sine_files(tmp_path, seed: int, n: int):
    """A noisy sine, an SVR fitted to it, saved as sine.json beside its samples sine.csv:
    (x, z, the model)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 6, n)
    z = np.sin(x) + rng.normal(0, 0.2, n)
    svr = SVR(C=5.0).fit(x[:, None], z)
    save_model(svr, tmp_path / "sine.json")
    save_targets(x[:, None], z, ("x", "y"), tmp_path / "sine.csv")
    return x, z, svr


def test_a_regressor_prints_r2_mse_and_mae(tmp_path):
    x, z, svr = _sine_files(tmp_path, seed=4, n=50)
    result = run("evaluate", "sine.json", "sine.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    f = svr.predict(x[:, None])
    assert number(result.stdout, "R^2") == pytest.approx(sk.r2_score(z, f), rel=1e-5)
    assert number(result.stdout, "MSE") == pytest.approx(sk.mean_squared_error(z, f), rel=1e-5)
    assert number(result.stdout, "MAE") == pytest.approx(sk.mean_absolute_error(z, f),
                                                         rel=1e-5)
    refused = run("evaluate", "sine.json", "sine.csv", "--threshold", "0", cwd=tmp_path)
    assert refused.returncode == 2 and "regressor" in refused.stderr


def test_a_one_class_model_is_judged_on_inlier_and_outlier_labels(tmp_path):
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(0, 1, (40, 2)), rng.uniform(-6, 6, (8, 2))])
    labels = np.array([1] * 40 + [-1] * 8)
    model = OneClassSVM(nu=0.1, gamma=0.5).fit(X[:40])
    save_model(model, tmp_path / "one.json")
    save_dataset(Dataset(X, (labels == 1).astype(int), ("-1", "1")), tmp_path / "marked.csv")
    result = run("evaluate", "one.json", "marked.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert number(result.stdout, "accuracy") == pytest.approx(
        sk.accuracy_score(labels, model.predict(X)), abs=1e-4)
    save_dataset(Dataset(X, (labels == 1).astype(int), ("odd", "even")), tmp_path / "bad.csv")
    refused = run("evaluate", "one.json", "bad.csv", cwd=tmp_path)
    assert refused.returncode == 2 and "inlier" in refused.stderr


@pytest.mark.parametrize("args, says", [
    (("missing.json", "test.csv"), "no such model file"),
    (("moons.json", "missing.csv"), "missing.csv"),
    (("moons.json", "test.csv", "--class", "1"), "give --threshold too"),
    (("moons.json", "test.csv", "--threshold", "x"), "invalid float value"),
])
def test_bad_input_is_one_line_and_exit_two(moons, tmp_path, args, says):
    result = run("evaluate", *args, cwd=tmp_path)
    assert result.returncode == 2 and says in result.stderr
    assert result.stderr.count("\n") == 1 and not result.stdout


def test_train_cv_prints_scikit_learns_fold_scores(tmp_path):
    data = make_dataset("moons", n=100, noise=0.3, seed=6)
    save_dataset(data, tmp_path / "moons.csv")
    result = run("train", "moons.csv", "--type", "nu-svc", "--nu", "0.3", "--cv", "4",
                 "--seed", "7", "--out", "m.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    line = re.search(r"^cross-validated:\s+accuracy ([\d.]+) ± ([\d.]+) over 4 folds.*"
                     r"per fold: ([\d., ]+);", result.stdout, re.M)
    expected = cross_val_score(NuSVC(nu=0.3, random_state=7), data.X, data.y,
                               cv=StratifiedKFold(4, shuffle=True, random_state=7))
    assert [float(v) for v in line.group(3).split(", ")] == pytest.approx(expected, abs=1e-4)
    assert float(line.group(1)) == pytest.approx(expected.mean(), abs=1e-4)


def test_train_cv_of_a_regressor_uses_plain_folds_and_r2(tmp_path):
    rng = np.random.default_rng(8)
    x = rng.uniform(0, 6, 60)
    z = np.sin(x) + rng.normal(0, 0.2, 60)
    save_targets(x[:, None], z, ("x", "y"), tmp_path / "sine.csv")
    result = run("train", "sine.csv", "--type", "epsilon-svr", "--cv", "3", "--out",
                 "s.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    scores = re.search(r"R\^2 [\d.]+ ± [\d.]+ over 3 folds.*per fold: ([-\d., ]+);",
                       result.stdout).group(1)
    expected = cross_val_score(SVR(), x[:, None], z, cv=KFold(3, shuffle=True, random_state=0))
    assert [float(v) for v in scores.split(", ")] == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("args, says", [
    (("--cv", "1"), "2 or more"),
    (("--cv", "3", "--type", "one-class"), "one-class model has neither"),
])
def test_train_cv_refuses_what_it_cannot_score(tmp_path, args, says):
    save_dataset(make_dataset("moons", n=40, seed=0), tmp_path / "moons.csv")
    result = run("train", "moons.csv", *args, "--out", "m.json", cwd=tmp_path)
    assert result.returncode == 2 and says in result.stderr


@pytest.fixture
def three(tmp_path):
    data = make_dataset("blobs", n=90, noise=1.5, seed=3, centers=3)
    save_model(SVC(kernel="rbf").fit(data.X, data.y), tmp_path / "three.json")
    save_dataset(data, tmp_path / "three.csv")


@pytest.mark.slow
@pytest.mark.parametrize("model, data, more", [
    ("moons.json", "test.csv", ()),
    ("three.json", "three.csv", ("--threshold", "0.5", "--class", "2")),
])
def test_plot_writes_the_curves_as_a_png_of_the_width_asked(moons, three, tmp_path, qapp,
                                                            model, data, more):
    from PySide6.QtGui import QImage

    result = run("evaluate", model, data, *more, "--plot", "roc.png", "--width", "640",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "AUC" in result.stdout and result.stdout.endswith("wrote roc.png\n")
    picture = QImage(str(tmp_path / "roc.png"))
    assert (picture.width(), picture.height()) == (640, 640 * 3 // 8)


@pytest.mark.slow
def test_plot_as_svg_in_a_process_without_a_display(moons, tmp_path):
    """Qt comes up on the offscreen platform by itself, as for render."""
    result = subprocess.run([sys.executable, "-m", "svmdesk.cli", "evaluate", "moons.json",
                             "test.csv", "--plot", "roc.svg"], cwd=tmp_path, env=_env(),
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    svg = ElementTree.parse(tmp_path / "roc.svg").getroot()
    assert svg.findall(".//{http://www.w3.org/2000/svg}path")


@pytest.mark.parametrize("plot, says", [
    ("roc.jpg", "must end in .png or .svg"),
    ("nowhere/roc.png", "does not exist"),
])
def test_a_plot_file_that_cannot_be_written_is_refused_before_anything(moons, tmp_path,
                                                                        plot, says):
    before = sorted(tmp_path.iterdir())
    result = run("evaluate", "moons.json", "test.csv", "--plot", plot, cwd=tmp_path)
    assert result.returncode == 2 and says in result.stderr and not result.stdout
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.slow
def test_plot_of_a_regressor_draws_its_residuals(tmp_path, qapp, monkeypatch):
    from svmdesk.app.widgets import pictures

    x, z, svr = _sine_files(tmp_path, seed=9, n=40)
    saved, original = [], pictures.save_picture

    def save_and_keep(figure, *args):        # the figure as evaluate saved it
        saved.append(figure)
        return original(figure, *args)

    monkeypatch.setattr(pictures, "save_picture", save_and_keep)
    result = run("evaluate", "sine.json", "sine.csv", "--plot", "residuals.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "residuals.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (points,) = [item for item in saved[0].plotItem.items if hasattr(item, "getData")
                 and item.name()]
    f = svr.predict(x[:, None])
    np.testing.assert_allclose(points.getData(), (f, z - f), atol=1e-9)
    assert "sine.csv: R²" in points.name()


def test_labels_the_model_never_knew_are_refused_in_one_line(moons, tmp_path):
    """A model of -1/1 judged on a file labelled c0..c4: no accuracy of 0 with exit 0, but
    one line naming the labels it does not know and those it knows, exit 2."""
    _, X, _ = moons
    names = tuple(f"c{k}" for k in range(5))
    save_dataset(Dataset(X, np.arange(len(X)) % 5, names), tmp_path / "other.csv")
    result = run("evaluate", "moons.json", "other.csv", cwd=tmp_path)
    assert result.returncode == 2 and not result.stdout
    said = result.stderr
    assert said.count("\n") == 1
    assert "'c0', 'c1', 'c2', 'c3', 'c4'" in said and "'-1', '1'" in said
    # one unknown label among known ones: refused as well, naming it alone
    save_dataset(Dataset(X, np.arange(len(X)) % 3, ("-1", "1", "2")), tmp_path / "three.csv")
    result = run("evaluate", "moons.json", "three.csv", cwd=tmp_path)
    assert result.returncode == 2 and "'2'" in result.stderr and "'-1', '1'" in result.stderr
