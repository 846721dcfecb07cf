"""The script of a run: run in a fresh Python, it fits the same model as the run (its
objective to 1e-9, its predictions exactly), for every kind, with its points inline or in the
.npz beside it; every float written so that it reads back exactly; scikit-learn's estimator
of the same problem behind --sklearn, and a sentence where there is none."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import svmdesk
from svmdesk.core import SVC, SVR, NuSVC, NuSVR, OneClassSVM, make_dataset
from svmdesk.formats import run_script
from svmdesk.formats.run_script import python_value, write_script

D = make_dataset("moons", n=80, noise=0.25, seed=3)
LABELS = np.where(D.y == 1, "upper", "lower")
TARGETS = np.sin(3 * D.X[:, 0])


def run(path, *options) -> dict:
    done = subprocess.run([sys.executable, str(path), "--json", *options],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def iterated(estimator, X, y=None):
    """The run's model: every step iterated, as the window does."""
    for _ in estimator.iter_fit(X, *(() if y is None else (y,)), every=1):
        pass
    return estimator


CASES = {
    "c-svc, words as labels": (lambda: SVC(kernel="rbf", C=3.0, gamma=0.7), D.X, LABELS),
    "c-svc, standardized, three classes": (
        lambda: SVC(kernel="poly", degree=2, coef0=1.0, C=0.5, standardize=True),
        D.X, np.where(D.X[:, 0] > 1.0, 7, D.y)),
    "nu-svc": (lambda: NuSVC(nu=0.3, kernel="rbf"), D.X, D.y),
    "one-class": (lambda: OneClassSVM(nu=0.2, gamma=0.5), D.X, None),
    "epsilon-svr": (lambda: SVR(C=2.0, epsilon=0.05), D.X[:, :1], TARGETS),
    "nu-svr": (lambda: NuSVR(nu=0.4, kernel="linear"), D.X[:, :1], TARGETS),
    "pegasos, seeded": (lambda: SVC(solver="pegasos", kernel="linear", random_state=4,
                                    max_iter=300), D.X, D.y),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_script_fits_the_runs_model(tmp_path, case):
    make, X, y = CASES[case]
    train, test = slice(0, 60), slice(60, None)
    y_train, y_test = (None, None) if y is None else (y[train], y[test])
    written = write_script(tmp_path / "run.py", make(), X[train], y_train, X[test], y_test)
    assert written == [tmp_path / "run.py"]
    said = run(tmp_path / "run.py")
    ours = iterated(make(), X[train], y_train)
    np.testing.assert_allclose(said["objective"], np.asarray(ours.objective_).tolist(),
                               rtol=1e-9, atol=1e-12)
    assert said["predictions"] == ours.predict(X).tolist()
    assert said["support_vectors"] == len(ours.support_)


def test_many_points_go_to_an_npz_beside_the_script(tmp_path, monkeypatch):
    monkeypatch.setattr(run_script, "INLINE_POINTS", 50)
    written = write_script(tmp_path / "big.py", SVC(C=2.0), D.X[:60], LABELS[:60], D.X[60:],
                           LABELS[60:], fit_path="fit")
    assert written == [tmp_path / "big.py", tmp_path / "big.npz"]
    assert "0.25" not in (tmp_path / "big.py").read_text()      # no point inline
    (tmp_path / "elsewhere").mkdir()
    # svmdesk as this test imports it (a checkout on a relative PYTHONPATH, in CI)
    package_root = str(Path(svmdesk.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package_root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])}
    done = subprocess.run([sys.executable, str(tmp_path / "big.py"), "--json"],
                          capture_output=True, text=True, timeout=60, env=env,
                          cwd=tmp_path / "elsewhere")       # found beside the script
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    ours = SVC(C=2.0).fit(D.X[:60], LABELS[:60])
    assert said["predictions"] == ours.predict(D.X).tolist()
    assert said["test_score"] == ours.score(D.X[60:], LABELS[60:])


def test_sklearn_fits_the_same_problem_and_a_hard_margin_says_it_has_none(tmp_path):
    write_script(tmp_path / "soft.py", SVC(kernel="rbf", C=3.0, gamma=0.7), D.X[:60],
                 LABELS[:60], D.X[60:], LABELS[60:])
    said = run(tmp_path / "soft.py", "--sklearn")
    assert said["sklearn"]["estimator"] == "SVC"
    assert said["sklearn"]["support_vectors"] == said["support_vectors"]
    assert said["sklearn"]["train_score"] == said["train_score"]
    write_script(tmp_path / "hard.py", SVC(kernel="linear", C=math.inf), D.X[:60],
                 LABELS[:60])
    assert run(tmp_path / "hard.py", "--sklearn")["sklearn"].startswith("no scikit-learn")


@pytest.mark.parametrize("value", [0.1, 1e-300, -2.5e17, math.inf, -math.inf, 3, True, None,
                                   "scale", np.float64(0.30000000000000004), np.int64(7),
                                   {1: 2.0, "b": math.inf}, (0.1,), [1.5, "a"]])
def test_every_value_is_written_as_source_that_reads_back_exactly(value):
    back = eval(python_value(value), {"np": np})            # noqa: S307 - our own output
    if isinstance(value, np.generic):
        value = value.item()
    assert back == value and type(back) is type(value)
