"""Every kind of machine in svmdesk's JSON model: NuSVC, OneClassSVM, SVR and NuSVR come
back as themselves, predicting bit-identically, with their parameters and fitted summary;
a file that contradicts its kind is refused naming the field."""
import json
import re

import numpy as np
import pytest

from svmdesk.core import SVR, DataError, NuSVC, NuSVR, OneClassSVM
from svmdesk.formats.model_json import save_model
from svmdesk.formats.model_json_reading import load_model


def _data():
    rng = np.random.default_rng(7)
    X = rng.normal(0, 1, (80, 2))
    z = np.sin(2 * X[:, 0]) + X[:, 1] + rng.normal(0, 0.1, 80)
    return X, z, (X[:, 0] > 0).astype(int) + (X[:, 1] > 0)


def _fitted(kind, kernel, standardize=False):
    X, z, labels = _data()
    common = dict(kernel=kernel, standardize=standardize)
    if kind == "nu_svc":
        return X, NuSVC(nu=0.3, **common).fit(X, np.array(["a", "b", "c"])[labels])
    if kind == "one_class":
        return X, OneClassSVM(nu=0.2, **common).fit(X)
    if kind == "epsilon_svr":
        return X, SVR(C=3.0, epsilon=0.05, **common).fit(X, z)
    return X, NuSVR(nu=0.4, C=2.0, **common).fit(X, z)


KINDS = ["nu_svc", "one_class", "epsilon_svr", "nu_svr"]


@pytest.mark.parametrize("standardize", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_comes_back_as_itself(kind, kernel, standardize, tmp_path):
    X, fitted = _fitted(kind, kernel, standardize)
    save_model(fitted, tmp_path / "m.json")
    loaded = load_model(tmp_path / "m.json")
    assert type(loaded) is type(fitted) and loaded.model_.kind == kind
    assert loaded.get_params() == fitted.get_params()
    np.testing.assert_array_equal(loaded.predict(X), fitted.predict(X))
    for name in ("support_", "support_vectors_", "dual_coef_", "intercept_", "n_support_",
                 "n_iter_", "converged_"):
        np.testing.assert_array_equal(getattr(loaded, name), getattr(fitted, name), name)
    if kind == "one_class":
        np.testing.assert_array_equal(loaded.decision_function(X), fitted.decision_function(X))
        np.testing.assert_array_equal(loaded.offset_, fitted.offset_)
    if kind in ("epsilon_svr", "nu_svr"):
        assert loaded.epsilon_ == fitted.epsilon_
        assert loaded.score(X, fitted.predict(X)) == 1.0
    if kernel == "linear":
        np.testing.assert_array_equal(loaded.coef_, fitted.coef_)
    doc = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert doc["kind"] == kind


def _doc(kind, tmp_path):
    _, fitted = _fitted(kind, "rbf")
    save_model(fitted, tmp_path / "m.json")
    return json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))


DAMAGE = [
    ("one_class", lambda d: d.update(classes=[0, 1]), "classes must be [-1, 1]"),
    ("epsilon_svr", lambda d: d.update(classes=[0.0, 1.0]), "classes must be empty"),
    ("nu_svr", lambda d: d.update(probability={"probA": [-1.0], "probB": [0.0]}),
     "probability must be null"),
    ("epsilon_svr", lambda d: d["training"].pop("epsilon"), "training.epsilon is missing"),
    ("nu_svr", lambda d: d["training"].update(epsilon=-0.5), "training.epsilon must be >= 0"),
    ("nu_svr", lambda d: d["params"].update(nu=1.5), "nu must be"),
    ("one_class", lambda d: d["params"].update(C=1.0), "params.C is not a field"),
    ("one_class", lambda d: d["support"].update(indices=d["support"]["indices"][::-1]),
     "support.indices must list the machine's support vectors"),
    ("nu_svc", lambda d: d.update(kind="c_svc"), "params"),
]


@pytest.mark.parametrize("kind, damage, words", DAMAGE)
def test_a_file_contradicting_its_kind_is_refused_naming_the_field(kind, damage, words,
                                                                   tmp_path):
    doc = _doc(kind, tmp_path)
    damage(doc)
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(words)) as info:
        load_model(tmp_path / "bad.json")
    assert str(info.value).startswith("bad.json")
