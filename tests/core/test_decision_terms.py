"""f(x) as its terms alpha_s y_s K(x_s, x) and the bias: they add up to decision_function
(1e-9) for every kind and for three classes the deciding machine's terms are its f."""
import numpy as np
import pytest

from svmdesk.core import SVC, SVR, OneClassSVM
from svmdesk.core.decision_terms import deciding_machine, decision_terms
from svmdesk.core.point_generators import make_dataset

PLACES = np.array([[0.3, -0.2], [1.5, 0.5], [-1.0, 1.0], [0.0, 0.0]])


@pytest.mark.parametrize("params", [
    dict(kernel="rbf", C=10.0), dict(kernel="linear", C=1.0),
    dict(kernel="poly", degree=3, C=1.0), dict(kernel="linear", solver="pegasos"),
])
def test_the_terms_add_up_to_f_for_two_classes(params):
    data = make_dataset("moons", n=120, noise=0.25, seed=1)
    model = SVC(**params).fit(data.X, data.y)
    for x in PLACES:
        terms = decision_terms(model.model_, x)
        assert terms.f == pytest.approx(float(model.decision_function(x[None])[0]),
                                        abs=1e-9)
        assert len(terms.terms) <= 5
        primal = params.get("solver") == "pegasos"
        assert (len(terms.points) == 0) == primal     # Pegasos' w has no terms of points
        sizes = np.abs(terms.terms)
        assert list(sizes) == sorted(sizes, reverse=True)


def test_the_named_terms_are_the_largest_and_name_their_training_points():
    data = make_dataset("moons", n=120, noise=0.25, seed=1)
    model = SVC(kernel="rbf", C=10.0).fit(data.X, data.y)
    x = PLACES[0]
    terms = decision_terms(model.model_, x)
    gamma = model.model_.kernel.gamma
    every = model.dual_coef_[0] * np.exp(-gamma * ((data.X[model.support_] - x) ** 2).sum(1))
    top = np.argsort(-np.abs(every))[:5]
    np.testing.assert_array_equal(terms.points, model.support_[top])
    np.testing.assert_allclose(terms.terms, every[top], atol=1e-12)
    assert terms.rest == pytest.approx(every.sum() - every[top].sum(), abs=1e-9)


def test_a_novelty_detector_and_a_regressor_add_up_too():
    data = make_dataset("moons", n=100, noise=0.25, seed=2)
    one = OneClassSVM(nu=0.2).fit(data.X)
    X1 = np.linspace(-2, 2, 40)[:, None]
    svr = SVR(C=10.0).fit(X1, np.sin(2 * X1[:, 0]))
    for x in PLACES:
        assert decision_terms(one.model_, x).f == pytest.approx(
            float(one.decision_function(x[None])[0]), abs=1e-9)
        assert decision_terms(svr.model_, x[:1]).f == pytest.approx(
            float(svr.predict(x[None, :1])[0]), abs=1e-9)


def test_three_classes_give_the_terms_of_the_machine_between_winner_and_runner_up():
    data = make_dataset("blobs", n=150, noise=0.6, seed=3, centers=3)
    model = SVC(kernel="rbf", C=1.0).fit(data.X, data.y)
    m = model.model_
    assert len(m.machines) == 3
    for x in PLACES:
        k = deciding_machine(m, x)
        terms = decision_terms(m, x)
        assert terms.machine == k
        assert terms.f == pytest.approx(float(m.decision_function(x[None])[0, k]), abs=1e-9)
        machine = m.machines[k]
        winner = m.predict_indices(x[None])[0]
        assert winner in (machine.positive, machine.negative)
