"""smo.solve's documented warm start (start=): a feasible start reaches the optimum a cold
start reaches, from the optimum itself at once; alpha seeding along C as grid search does
it; a start that breaks a rule is refused with the rule, before any step."""
import numpy as np
import pytest

from svmdesk.core import Kernel, make_dataset
from svmdesk.core.solvers.base import BinaryProblem
from svmdesk.core.solvers.smo import solve


def _problem(C: float, tol: float = 1e-6) -> BinaryProblem:
    data = make_dataset("moons", n=120, noise=0.25, seed=2)
    y = np.where(np.asarray(data.y) == 1, 1.0, -1.0)
    return BinaryProblem(X=np.asarray(data.X), y=y, kernel=Kernel("rbf", 1.0), C=C, tol=tol)


def _final(problem, start=None):
    return list(solve(problem, every=10**9, start=start))[-1]


def _alpha(problem, final):
    return problem.y * final.dual_coef          # dual_coef = y a


def test_a_start_at_the_optimum_ends_there_at_once():
    problem = _problem(1.0)
    cold = _final(problem)
    warm = _final(problem, _alpha(problem, cold))
    assert warm.converged and warm.iteration <= 1
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-9)
    np.testing.assert_allclose(_alpha(problem, warm), _alpha(problem, cold), atol=1e-9)


def test_alpha_seeding_along_C_reaches_the_cold_optimum():
    """The optimum at C = 1 scaled to C = 10 (feasible: a_i <= C_old gives a_i C_new / C_old
    <= C_new, and y'a stays 0) is where the C = 10 run starts."""
    small, large = _problem(1.0), _problem(10.0)
    seed = _alpha(small, _final(small)) * 10.0
    cold, warm = _final(large), _final(large, seed)
    assert cold.converged and warm.converged
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-6)
    np.testing.assert_array_equal(np.sign(warm.decision + warm.bias),
                                  np.sign(cold.decision + cold.bias))
    first_cold, first_warm = next(solve(large)), next(solve(large, start=seed))
    assert first_warm.dual_objective != pytest.approx(first_cold.dual_objective)  # taken


@pytest.mark.parametrize("start, rule", [
    (np.zeros(5), "one multiplier per point"),
    (np.full(120, -0.5), "in the box"),
    (np.full(120, 2.0), "in the box"),
    (np.r_[np.full(119, 0.0), np.nan], "in the box"),
    (np.r_[1.0, np.zeros(119)], "sum of y_i a_i must be 0"),
])
def test_a_start_that_breaks_a_rule_is_refused_with_the_rule(start, rule):
    with pytest.raises(ValueError, match=rule):
        solve(_problem(1.0), start=start)
