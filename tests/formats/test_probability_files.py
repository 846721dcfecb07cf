"""Models with probabilities keep them through every file: svmdesk's JSON model (version 2;
version 1 files, which had none, still load) and the LIBSVM export, whose probA and probB
libsvm-official reads to give our probabilities."""
import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris

from svmdesk.core import SVC, NuSVC
from svmdesk.formats.libsvm_model import export_libsvm
from svmdesk.formats.model_json import save_model
from svmdesk.formats.model_json_reading import load_model

svmutil = pytest.importorskip("libsvm.svmutil")


def _data(classes):
    X, y = load_iris(return_X_y=True)
    X = X[:, :2]
    if classes == 2:                        # LIBSVM's favourite labels, -1 and +1
        keep = y > 0
        return X[keep], np.where(y[keep] == 1, -1, 1)
    return X, y


def _fit(classes, kernel="rbf", estimator=SVC, **params):
    """(X, a fitted estimator)."""
    X, y = _data(classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return X, estimator(probability=True, random_state=1, kernel=kernel, **params).fit(X, y)


@pytest.mark.parametrize("classes", [2, 3])
def test_the_json_model_keeps_the_sigmoids_exactly(classes, tmp_path):
    X, svc = _fit(classes)
    save_model(svc, tmp_path / "m.json")
    loaded = load_model(tmp_path / "m.json")
    np.testing.assert_array_equal(loaded.probA_, svc.probA_)
    np.testing.assert_array_equal(loaded.probB_, svc.probB_)
    np.testing.assert_array_equal(loaded.predict_proba(X), svc.predict_proba(X))
    assert loaded.probability is True
    doc = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert doc["version"] == 3 and len(doc["probability"]["probA"]) == len(svc.probA_)


def test_a_version_2_file_keeps_its_sigmoids(tmp_path):
    """A file written by the version that brought probabilities (2): no "kind" field."""
    X, svc = _fit(3)
    save_model(svc, tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    doc["version"] = 2
    del doc["kind"]
    (tmp_path / "v2.json").write_text(json.dumps(doc), encoding="utf-8")
    np.testing.assert_array_equal(load_model(tmp_path / "v2.json").predict_proba(X),
                                  svc.predict_proba(X))


def test_a_version_1_file_loads_without_probabilities(tmp_path):
    """A file written before probabilities existed: version 1, no "probability" field and
    no probability parameter."""
    X, y = _data(3)
    svc = SVC(random_state=0).fit(X, y)
    save_model(svc, tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    doc["version"] = 1
    del doc["probability"], doc["kind"]
    del doc["params"]["probability"]
    (tmp_path / "old.json").write_text(json.dumps(doc), encoding="utf-8")
    old = load_model(tmp_path / "old.json")
    np.testing.assert_array_equal(old.predict(X), svc.predict(X))
    assert old.probability is False and old.probA_.shape == (0,)
    assert not hasattr(old, "predict_proba")


def _libsvm_probabilities(model_or_svc, X, tmp_path):
    """libsvm-official's -b 1 on our export, its columns in our classes' order."""
    export_libsvm(model_or_svc, tmp_path / "m.model")
    model = svmutil.svm_load_model(str(tmp_path / "m.model"))
    _, _, p = svmutil.svm_predict([], X, model, "-b 1 -q")
    return np.asarray(p), model.get_labels()


# NuSVC with the linear kernel is left out: on these overlapping classes its problem is
# degenerate (w and r near 0 for every nu; LIBSVM's coefficients reach 1e5, ours more), and
# the sums of such coefficients differ with their order
@pytest.mark.parametrize("estimator, kernel", [(SVC, "rbf"), (SVC, "linear"), (NuSVC, "rbf")])
@pytest.mark.parametrize("classes", [2, 3])
def test_libsvm_reads_our_sigmoids_and_gives_our_probabilities(classes, kernel, estimator,
                                                               tmp_path):
    X, svc = _fit(classes, kernel, estimator)
    theirs, labels = _libsvm_probabilities(svc.model_, X, tmp_path)
    columns = [list(svc.classes_).index(label) for label in labels]
    np.testing.assert_allclose(theirs, svc.predict_proba(X)[:, columns], rtol=0, atol=1e-9)


def test_a_model_without_probabilities_exports_none(tmp_path):
    X, y = _data(2)
    export_libsvm(SVC().fit(X, y), tmp_path / "m.model")
    text = (tmp_path / "m.model").read_text()
    assert "probA" not in text and "probB" not in text


def test_a_session_keeps_its_models_sigmoids(tmp_path):
    from svmdesk.formats.session import Session, load_session, save_session

    X, svc = _fit(3)
    codes = np.searchsorted(svc.classes_, _data(3)[1])
    save_session(Session(X=X, y=codes, held_out=np.zeros(len(X), bool),
                         class_names=("setosa", "versicolor", "virginica"), model=svc),
                 tmp_path / "s.svmdesk")
    loaded = load_session(tmp_path / "s.svmdesk").model
    np.testing.assert_array_equal(loaded.predict_proba(X), svc.predict_proba(X))
