"""SVR and NuSVR: support vector regression, scikit-learn's names and behaviour.

f(x) = sum_i (a_i - a*_i) k(x_i, x) + b is fitted within a tube: errors smaller than its
half-width epsilon cost nothing, larger ones C times their excess. epsilon-SVR (SVR) is given
epsilon; nu-SVR (NuSVR) is given nu, which bounds the fraction of points outside the tube from
above and of support vectors from below, and finds the width with the curve. Each is LIBSVM's
problem on 2l variables (`solvers.problems.epsilon_svr`, `nu_svr`), trained by SMO (SVR also
by dual gradient ascent); the stream and the model hold one coefficient per point,
a_i - a*_i.

The model is an SVMModel of kind "epsilon_svr" or "nu_svr": one machine, no classes,
predict = f(x).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from .. import catalog
from ..errors import DataError
from ..kernels import Kernel
from ..kinds import EPSILON_SVR, NU_SVR
from ..metrics import r2
from ..model import BinaryMachine, SVMModel
from ..solvers.base import Snapshot
from ..solvers.problems import DualProblem, epsilon_svr, nu_svr
from ..solvers.smo.trace import PairStep
from ..solvers.support import support_of
from .base import (
    NEVER,
    OneMachineEstimator,
    check_every,
    check_X,
    column_as_1d,
    scaled_data_and_kernel,
)
from .svc import Machine, Progress, require_finite
from .weights import weighted_points


class _Regressor(OneMachineEstimator):
    """What SVR and NuSVR share; each states its problem (`_problem`) and its model's kind."""

    kind: str

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import RegressorTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "regressor"
        tags.regressor_tags = RegressorTags()
        tags.target_tags.required = True
        return tags

    def _problem(self, Z: np.ndarray, z: np.ndarray, kernel: Kernel, params: dict,
                 weights: np.ndarray | None) -> DualProblem:
        raise NotImplementedError

    # -- training -----------------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Any:
        """Fit f to the targets y (numbers, one per point)."""
        for _ in self.iter_fit(X, y, every=NEVER, sample_weight=sample_weight):
            pass
        return self

    def iter_fit(self, X: ArrayLike, y: ArrayLike, every: int = 1,
                 wanted: Callable[[], bool] | None = None,
                 sample_weight: ArrayLike | None = None) -> Iterator[Progress]:
        """Stream the training's snapshots (see SVC.iter_fit), one coefficient a_i - a*_i per
        point; the fitted attributes are set when the stream ends. A point of sample weight
        0 is left out, as LIBSVM leaves it out."""
        every = check_every(every)
        params = self.table.check(self.get_params())
        data, z = check_targets(X, y, type(self).__name__)
        points, weights = weighted_points(sample_weight, len(data))
        scaler, Z, kernel = scaled_data_and_kernel(data, params)
        problem = self._problem(Z[points], z[points], kernel, params,
                                weights)
        points.flags.writeable = False
        machine = Machine(0, 1, (), None if len(points) == len(data) else points, kernel,
                          scaler, problem.upper[:len(points)])    # |a_i - a*_i| <= C_i
        solver = self.table.solvers[params["solver"]]
        final: Snapshot | None = None
        for final in solver.implementation().solve_problem(problem, every, wanted):
            final = per_point(final, len(points))
            yield Progress(machine, final)
        assert final is not None, "a solver yields its final state last"
        require_finite(final, solver, machine)
        coef = np.asarray(final.dual_coef)
        support = np.flatnonzero(coef)
        vectors = Z[points[support]]
        w = coef[support] @ vectors if kernel.name == "linear" else None
        model = SVMModel(kernel, np.empty(0), (BinaryMachine(
            points[support], vectors, coef[support], final.bias, positive=0, negative=0,
            w=w),), scaler, kind=self.kind)
        self._take_fit(model, data, final)
        self.shape_fit_ = data.shape
        self.epsilon_ = self._tube(final, z[points], problem, params)

    fitted_extras = ("epsilon_",)       # a model file keeps the tube's width

    def _tube(self, final: Snapshot, z: np.ndarray, problem: DualProblem,
              params: dict) -> float:
        """The half-width of the tube of the fitted f (epsilon-SVR: its epsilon)."""
        return float(params["epsilon"])

    # -- prediction ---------------------------------------------------------------------------
    def predict(self, X: ArrayLike) -> np.ndarray:
        """f(x) for each point, shape (n,)."""
        model, points = self._fitted_and_points(X)
        return model.predict(points)

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
              ) -> float:
        """The coefficient of determination R^2 of the predictions on (X, y): 1 is perfect,
        0 no better than the targets' mean (scikit-learn's r2_score, constant y included)."""
        data, z = check_targets(X, y, type(self).__name__)
        return r2(z, self.predict(data), sample_weight)


class SVR(_Regressor, table=catalog.SVR_TABLE):
    """epsilon-SVR: errors beyond epsilon cost C each. The parameters are the rows of
    `catalog.SVR_TABLE`; solver "smo" or "dual-gradient"."""

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", C: float = 1.0,
                 epsilon: float = 0.1, gamma: float | str = "scale", degree: int = 3,
                 coef0: float = 0.0, tol: float = 1e-3, max_iter: int | None = None,
                 max_time: float | None = None, learning_rate: float | None = None,
                 standardize: bool = False) -> None:
        self.solver = solver
        self.kernel = kernel
        self.C = C
        self.epsilon = epsilon
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.max_time = max_time
        self.learning_rate = learning_rate
        self.standardize = standardize

    kind = EPSILON_SVR.key

    def _problem(self, Z, z, kernel, params, weights):
        return epsilon_svr(Z, z, kernel, params["C"], params["epsilon"], weights,
                           tol=params["tol"], max_iter=params["max_iter"],
                           max_time=params.get("max_time"),
                           learning_rate=params.get("learning_rate"))


class NuSVR(_Regressor, table=catalog.NU_SVR_TABLE):
    """nu-SVR: the tube's width found with the curve, nu bounding the fraction of points
    outside it; `epsilon_` is the width found. The parameters are the rows of
    `catalog.NU_SVR_TABLE`."""

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", nu: float = 0.5,
                 C: float = 1.0, gamma: float | str = "scale", degree: int = 3,
                 coef0: float = 0.0, tol: float = 1e-3, max_iter: int | None = None,
                 max_time: float | None = None, standardize: bool = False) -> None:
        self.solver = solver
        self.kernel = kernel
        self.nu = nu
        self.C = C
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.max_time = max_time
        self.standardize = standardize

    kind = NU_SVR.key

    def _problem(self, Z, z, kernel, params, weights):
        return nu_svr(Z, z, kernel, params["C"], params["nu"], weights, tol=params["tol"],
                      max_iter=params["max_iter"], max_time=params.get("max_time"),
                      learning_rate=params.get("learning_rate"))

    def _tube(self, final, z, problem, params):
        """|residual| of the points on the tube's edge (0 < |a_i - a*_i| < C_i); without
        any, the middle of the gap between the points inside and those outside. SMO's last
        snapshot holds f at every point, exact: no pass over the points is needed."""
        residual = z - (np.asarray(final.decision) + final.bias)
        return tube_width(residual, np.asarray(final.dual_coef), problem.upper[:len(z)])


def tube_width(residual: np.ndarray, coef: np.ndarray, upper: ArrayLike) -> float:
    """The half-width of the tube a nu-SVR's f has found: |residual| of the points on its
    edge (0 < |a_i - a*_i| < upper_i, their C_i); without any, the middle of the gap
    between the points inside (a coefficient of 0) and those outside. The window reads
    it off each snapshot as the fit reads it off the last."""
    size = np.abs(coef)
    on_edge = (size > 0) & (size < upper)
    if on_edge.any():
        return float(np.abs(residual[on_edge]).mean())
    inside = np.abs(residual[size == 0]).max(initial=0.0)
    outside = np.abs(residual[size > 0]).min(initial=inside)
    return 0.5 * float(inside + outside)


def per_point(snapshot: Snapshot, n: int) -> Snapshot:
    """A snapshot over SVR's 2n variables (a, then a*, each y-signed) as one over its n
    points: a_i - a*_i, support where it is not 0, f at each point, the pair's points."""
    signed = np.asarray(snapshot.dual_coef)
    coef = signed[:n] + signed[n:]
    pair = snapshot.working_pair
    return dataclasses.replace(
        snapshot, dual_coef=coef, support=support_of(coef, np.inf, exact=True),
        decision=None if snapshot.decision is None else np.asarray(snapshot.decision)[:n],
        working_pair=None if pair is None else (pair[0] % n, pair[1] % n),
        trace=tuple(record.of_points(n) if isinstance(record, PairStep) else record
                    for record in snapshot.trace),
        kkt=None if snapshot.kkt is None else snapshot.kkt.of_points(n))


def check_targets(X: ArrayLike, y: ArrayLike, estimator: str
                  ) -> tuple[np.ndarray, np.ndarray]:
    """X checked, and y as one finite number per point (scikit-learn's words for NaN and
    infinity)."""
    if y is None:
        raise DataError(tr("{estimator} requires y to be passed, but the target y is None: "
                           "give each point its target value").format(estimator=estimator))
    X = check_X(X)
    y = column_as_1d(y)
    if y.ndim != 1:
        raise DataError(tr("y should be a 1d array, got an array of shape {shape} instead: "
                           "give one target value per point (1-D)").format(shape=y.shape))
    if len(y) != len(X):
        raise DataError(tr("X has {points} points but y has {targets} target values: they "
                           "must match").format(points=len(X), targets=len(y)))
    try:
        y = y.astype(np.float64)
    except (TypeError, ValueError):
        raise DataError(tr("y must hold numbers: a regressor's targets are measurements "
                           "(got {example})").format(example=repr(_not_a_number(y)))) from None
    if np.isnan(y).any():
        raise DataError(tr("Input y contains NaN. Every point needs a target value: remove "
                           "or fill them"))
    if not np.isfinite(y).all():
        raise DataError(tr("Input y contains infinity or a value too large for "
                           "dtype('float64'). Every target must be a finite number"))
    return X, y


def _not_a_number(y: np.ndarray) -> object:
    """The first value of y that is no number."""
    for value in y.tolist():
        try:
            float(value)
        except (TypeError, ValueError):
            return value
    return y[0]
