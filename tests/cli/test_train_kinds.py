"""`svmdesk train --type` for every kind LIBSVM's svm-train -s 0..4 trains: the model file
holds that kind and predicts as a fit in Python does; the summary says what the kind
measures; a regression target that is no number, an option the kind does not take and a
bad nu are each one line, exit code 2, nothing written."""
import numpy as np
import pytest

from svmdesk.core import SVR, NuSVC, NuSVR, OneClassSVM
from svmdesk.formats import load_model

from .test_cli import assert_one_line_error, run


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(5)
    X = rng.normal(0, 1, (60, 2))
    z = np.sin(2 * X[:, 0]) + X[:, 1]
    labels = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    (tmp_path / "targets.csv").write_text("a,b,target\n" + "".join(
        f"{a!r},{b!r},{t!r}\n" for (a, b), t in zip(X.tolist(), z.tolist())))
    (tmp_path / "classes.csv").write_text("a,b,label\n" + "".join(
        f"{a!r},{b!r},{c}\n" for (a, b), c in zip(X.tolist(), labels.tolist())))
    (tmp_path / "words.csv").write_text("a,b,target\n0.5,1.0,2.5\n1.0,0.0,tall\n")
    (tmp_path / "points.csv").write_text("a,b\n" + "".join(
        f"{a!r},{b!r}\n" for a, b in X.tolist()))
    return tmp_path, X, z, labels


@pytest.mark.parametrize("kind, data, estimator, extra, says", [
    ("epsilon-svr", "targets.csv", SVR(C=2.0, epsilon=0.05), ["-C", "2", "--epsilon", "0.05"],
     "R^2:"),
    ("nu-svr", "targets.csv", NuSVR(nu=0.3), ["--nu", "0.3"], "tube:"),
    ("one-class", "points.csv", OneClassSVM(nu=0.2), ["--nu", "0.2"], "outside (f < 0):"),
    ("nu-svc", "classes.csv", NuSVC(nu=0.4), ["--nu", "0.4"], "accuracy:")])
def test_each_kind_trains_from_the_command_line(files, kind, data, estimator, extra, says):
    tmp_path, X, z, labels = files
    result = run("train", data, "--type", kind, *extra, "--out", "m.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "type:" in result.stdout and kind in result.stdout and says in result.stdout
    model = load_model(tmp_path / "m.json")
    assert type(model) is type(estimator)
    target = {"targets.csv": (z,), "classes.csv": (labels,), "points.csv": ()}[data]
    np.testing.assert_array_equal(model.predict(X), estimator.fit(X, *target).predict(X))


def test_a_regressor_exports_for_libsvm_too(files):
    tmp_path = files[0]
    result = run("train", "targets.csv", "--type", "epsilon-svr", "--out", "m.model",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "m.model").read_text().startswith("svm_type epsilon_svr")


def test_probability_is_an_option_of_the_classifiers(files):
    tmp_path = files[0]
    result = run("train", "classes.csv", "--probability", "--out", "m.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert load_model(tmp_path / "m.json").probA_.shape == (1,)


@pytest.mark.parametrize("args, words", [
    (["words.csv", "--type", "epsilon-svr"], "words.csv, line 3"),
    (["targets.csv", "--type", "nu-svr", "--epsilon", "0.1"],
     "--epsilon is not a parameter of --type nu-svr"),
    (["targets.csv", "--type", "one-class", "-C", "3"],
     "-C is not a parameter of --type one-class"),
    (["targets.csv", "--type", "nu-svr", "--nu", "1.5"], "nu must be"),
    (["targets.csv", "--type", "svr"], "invalid choice: 'svr'"),
])
def test_bad_input_is_one_line_and_writes_nothing(files, args, words):
    tmp_path = files[0]
    result = run("train", *args, "--out", "m.json", cwd=tmp_path)
    line = assert_one_line_error(result)
    assert words in line
    assert not (tmp_path / "m.json").exists()


def test_render_draws_a_one_class_model_over_unlabelled_points(files):
    tmp_path = files[0]
    assert run("train", "points.csv", "--type", "one-class", "--out", "oc.json",
               cwd=tmp_path).returncode == 0
    result = run("render", "points.csv", "--model", "oc.json", "--out", "oc.png",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "oc.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_draws_a_regressor_of_one_feature(files):
    tmp_path = files[0]
    rng = np.random.default_rng(2)
    x = rng.uniform(-3, 3, 50)
    (tmp_path / "sine.csv").write_text("x,y\n" + "".join(
        f"{a!r},{b!r}\n" for a, b in zip(x.tolist(), np.sin(x).tolist())))
    assert run("train", "sine.csv", "--type", "nu-svr", "--out", "r.json",
               cwd=tmp_path).returncode == 0
    result = run("render", "sine.csv", "--model", "r.json", "--out", "r.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_refuses_a_regressor_of_two_features_in_one_line(files):
    tmp_path = files[0]
    assert run("train", "targets.csv", "--type", "nu-svr", "--out", "r.json",
               cwd=tmp_path).returncode == 0
    result = run("render", "targets.csv", "--model", "r.json", "--out", "r.png", cwd=tmp_path)
    assert "regressors of one feature only" in assert_one_line_error(result)
    assert not (tmp_path / "r.png").exists()
