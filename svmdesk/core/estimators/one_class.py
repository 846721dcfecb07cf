"""OneClassSVM: novelty detection (Schölkopf et al. 2001), scikit-learn's names and
behaviour. It learns where the training points lie: f(x) = sum_i a_i k(x_i, x) - rho is
positive inside that region (an inlier, +1) and negative outside (an outlier, -1); nu bounds
the fraction of training points outside from above and the fraction of support vectors from
below.

No labels and no C: the machine is LIBSVM's general problem with y = +1, p = 0 and box 1
(`solvers.problems.one_class`), trained by SMO (or dual gradient ascent, solver=
"dual-gradient"). Its model is an SVMModel of kind
"one_class" whose two classes are -1 (outlier) and +1 (inlier), so that what draws or saves a
classifier's model reads this one too.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import catalog
from ..kinds import ONE_CLASS
from ..model import BinaryMachine, SVMModel
from ..solvers.base import Snapshot
from ..solvers.problems import one_class
from .base import NEVER, OneMachineEstimator, check_every, check_X, scaled_data_and_kernel
from .svc import Machine, Progress, require_finite
from .weights import weighted_points

OUTLIER, INLIER = -1, 1


class OneClassSVM(OneMachineEstimator, table=catalog.ONE_CLASS_TABLE):
    """Unsupervised outlier detection with a kernel: decision_function > 0 inside the
    learnt region. The parameters are the rows of `catalog.ONE_CLASS_TABLE`."""

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", nu: float = 0.5,
                 gamma: float | str = "scale", degree: int = 3, coef0: float = 0.0,
                 tol: float = 1e-3, max_iter: int | None = None, max_time: float | None = None,
                 learning_rate: float | None = None, standardize: bool = False) -> None:
        self.solver = solver
        self.kernel = kernel
        self.nu = nu
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.max_time = max_time
        self.learning_rate = learning_rate
        self.standardize = standardize

    kind = ONE_CLASS.key        # the model's (SVMModel.kind)

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.estimator_type = "outlier_detector"
        return tags

    # -- training -----------------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: object = None,
            sample_weight: ArrayLike | None = None) -> OneClassSVM:
        """Learn the region of X (y is ignored, as scikit-learn's)."""
        for _ in self.iter_fit(X, every=NEVER, sample_weight=sample_weight):
            pass
        return self

    def fit_predict(self, X: ArrayLike, y: object = None,
                    sample_weight: ArrayLike | None = None) -> np.ndarray:
        return self.fit(X, sample_weight=sample_weight).predict(X)

    def iter_fit(self, X: ArrayLike, every: int = 1,
                 wanted: Callable[[], bool] | None = None,
                 sample_weight: ArrayLike | None = None) -> Iterator[Progress]:
        """Stream the training's snapshots (see SVC.iter_fit); the fitted attributes are
        set when the stream ends. A point of sample weight 0 is left out, as LIBSVM does."""
        every = check_every(every)
        params = self.table.check(self.get_params())
        data = check_X(X)
        points, weights = weighted_points(sample_weight, len(data))
        scaler, Z, kernel = scaled_data_and_kernel(data, params)
        problem = one_class(Z[points], kernel, params["nu"],
                            weights, tol=params["tol"],
                            max_iter=params["max_iter"], max_time=params.get("max_time"),
                            learning_rate=params.get("learning_rate"))
        points.flags.writeable = False
        machine = Machine(0, 1, (OUTLIER, INLIER),
                          None if len(points) == len(data) else points, kernel, scaler,
                          problem.upper)
        solver = self.table.solvers[params["solver"]]
        final: Snapshot | None = None
        for final in solver.implementation().solve_problem(problem, every, wanted):
            yield Progress(machine, final)
        assert final is not None, "a solver yields its final state last"
        require_finite(final, solver, machine)
        alpha = np.asarray(final.dual_coef)                # SMO's snapshots carry it
        support = np.flatnonzero(alpha)
        w = alpha[support] @ Z[points[support]] if kernel.name == "linear" else None
        model = SVMModel(kernel, np.array([OUTLIER, INLIER]), (BinaryMachine(
            points[support], Z[points[support]], alpha[support], final.bias,
            positive=1, negative=0, w=w),), scaler, kind=self.kind)
        self._take_fit(model, data, final)

    def _take_model(self, model: SVMModel, vectors: np.ndarray, **summary: Any) -> None:
        super()._take_model(model, vectors, **summary)
        self.offset_ = -self.intercept_               # rho: f = score_samples - offset_

    # -- prediction ---------------------------------------------------------------------------
    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """f(x): positive for inliers, negative for outliers; shape (n,)."""
        model, points = self._fitted_and_points(X)
        return model.decision_function(points)

    def score_samples(self, X: ArrayLike) -> np.ndarray:
        """The raw score sum_i a_i k(x_i, x) = decision_function + offset_."""
        return self.decision_function(X) + self.offset_[0]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """+1 for an inlier (f > 0), -1 for an outlier."""
        model, points = self._fitted_and_points(X)
        return model.predict(points)
