"""`svmdesk predict` for every kind of model file: a regressor's values, a one-class
model's +1/-1 and f(x), and a probability column per class for a model trained with
probabilities (LIBSVM's svm-predict -b 1)."""
import csv
import io

import numpy as np
import pytest

from svmdesk.core import SVC, SVR, Dataset, NuSVR, OneClassSVM
from svmdesk.formats import save_dataset, save_model

from .test_cli import run


@pytest.fixture
def points(tmp_path):
    rng = np.random.default_rng(3)
    X = rng.normal(0, 1, (40, 2))
    save_dataset(Dataset(X, np.zeros(40, dtype=int), class_names=("0",)),
                 tmp_path / "points.csv")
    return X


def _predicted(tmp_path, model):
    save_model(model, tmp_path / "model.json")
    result = run("predict", "model.json", "points.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    return rows[0], rows[1:]


@pytest.mark.parametrize("estimator", [SVR(C=2.0), NuSVR(nu=0.3)])
def test_a_regressor_prints_its_values(estimator, points, tmp_path):
    fitted = estimator.fit(points, np.sin(points[:, 0]))
    header, rows = _predicted(tmp_path, fitted)
    assert header == ["x1", "x2", "value"]
    np.testing.assert_allclose([float(r[2]) for r in rows], fitted.predict(points),
                               rtol=1e-15)


def test_a_one_class_model_prints_plus_or_minus_one_and_f(points, tmp_path):
    fitted = OneClassSVM(nu=0.3).fit(points)
    header, rows = _predicted(tmp_path, fitted)
    assert header == ["x1", "x2", "label", "decision"]
    assert [int(r[2]) for r in rows] == fitted.predict(points).tolist()
    np.testing.assert_allclose([float(r[3]) for r in rows], fitted.decision_function(points),
                               rtol=1e-15)


def test_a_model_with_probabilities_prints_one_column_per_class(points, tmp_path):
    labels = np.array(["cat", "dog", "eel"])[(points[:, 0] > 0).astype(int) + (points[:, 1] > 0.5)]
    fitted = SVC(probability=True, random_state=0).fit(points, labels)
    header, rows = _predicted(tmp_path, fitted)
    assert header[-3:] == ["probability_cat", "probability_dog", "probability_eel"]
    np.testing.assert_allclose(np.array([r[-3:] for r in rows], dtype=float),
                               fitted.predict_proba(points), rtol=1e-15)


def test_predict_reads_the_regression_file_train_and_evaluate_read(tmp_path):
    """train --type epsilon-svr on a file x,y, then predict on that same file: the model
    takes one feature, the further column (the target) is left aside, as evaluate does."""
    rng = np.random.default_rng(5)
    x = np.sort(rng.uniform(-3, 3, 40))
    (tmp_path / "r.csv").write_text("x,y\n" + "".join(
        f"{float(a)!r},{float(np.sin(a))!r}\n" for a in x), encoding="utf-8")
    trained = run("train", "r.csv", "--type", "epsilon-svr", "--out", "r.json", cwd=tmp_path)
    assert trained.returncode == 0, trained.stderr
    result = run("predict", "r.json", "r.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["x", "value"]
    from svmdesk.formats import load_model

    expected = load_model(tmp_path / "r.json").predict(x[:, None])
    np.testing.assert_allclose([float(r[1]) for r in rows[1:]], expected, rtol=1e-15)
    assert run("evaluate", "r.json", "r.csv", cwd=tmp_path).returncode == 0
