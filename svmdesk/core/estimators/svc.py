"""SVC: a scikit-learn style front over the solvers.

`__init__` only stores parameters; `fit` validates them and the data, then runs `iter_fit`
to its end. `iter_fit` streams the training's progress: each solver snapshot with the machine
it belongs to (one machine after another for three or more classes), and sets the fitted
attributes when the stream ends.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from .. import catalog
from ..errors import DivergenceError, not_fitted
from ..kernels import Kernel, KernelRows
from ..kinds import C_SVC
from ..model import Scaler, SVMModel
from ..solvers.base import BinaryProblem, Snapshot, square_block
from ..solvers.smo import lockstep
from .base import (
    NEVER,
    TableEstimator,
    check_every,
    linear_coef,
    scaled_data_and_kernel,
)
from .labels import check_data, encode_labels
from .one_vs_one import binary_machine, intercepts, libsvm_layout, machine_pairs, ovr_decision
from .platt import platt_sigmoid
from .weights import point_weights


def shared_gram(solver: catalog.Solver, Z: np.ndarray, kernel: Kernel, machines: int
                ) -> np.ndarray | None:
    """k over every pair of training points, computed once for the one-vs-one machines: each
    machine's matrix is a block of it, where apart they would compute the kernel between two
    points of one class again in each of that class's K - 1 machines. None for one machine,
    or beyond the points up to which the solver gains by it (Solver.shares_gram_up_to)."""
    if machines < 2 or len(Z) > solver.shares_gram_up_to:
        return None
    return KernelRows(kernel, Z, np.float64).matrix()


def machine_problem(Z: np.ndarray, codes: np.ndarray, weights: np.ndarray | None,
                    pair: tuple[int, int], kernel: Kernel, params: dict,
                    gram: np.ndarray | None = None, rows: KernelRows | None = None
                    ) -> tuple[np.ndarray, BinaryProblem]:
    """The two-class problem of the classes `pair` (positive, negative) among the points Z
    of class `codes`, and which of Z's points it holds (read-only): those of weight > 0
    (weights None: every point weighs 1). `gram` (k over Z's points) or `rows` (their
    kernel rows) hand the problem its block of what the caller computed already."""
    pos, neg = pair
    member = (codes == pos) | (codes == neg)
    points = np.flatnonzero(member if weights is None else member & (weights > 0))
    problem = BinaryProblem(
        X=Z.take(points, axis=0), y=np.where(codes[points] == pos, 1.0, -1.0), kernel=kernel,
        C=params.get("C", 1.0), tol=params["tol"], max_iter=params["max_iter"],
        learning_rate=params.get("learning_rate"), batch_size=params.get("batch_size"),
        seed=params.get("random_state"), max_time=params.get("max_time"),
        weights=None if weights is None else weights[points],
        gram=None if gram is None else square_block(gram, points),
        kernel_rows=None if rows is None else rows.of_points(points, np.float64))
    points.flags.writeable = False      # the machine hands it out
    return points, problem


@dataclass(frozen=True)
class Machine:
    """One two-class machine of a fit: its place among the fit's machines (one-vs-one for
    three or more classes), its classes (negative, positive), the training points it learns
    from (None: all of them), and the kernel and scaler the fit resolved, which f(x) needs
    besides a snapshot's coefficients; and each of its points' bound C_i on |alpha_i| as
    the snapshots hold the multipliers (None where they have no fixed bound: a hard margin,
    nu-SVC's multipliers, rescaled by 1/r as the run goes)."""

    index: int
    count: int
    classes: tuple
    points: np.ndarray | None
    kernel: Kernel
    scaler: Scaler | None
    bounds: np.ndarray | None = None


@dataclass(frozen=True)
class Progress:
    """What iter_fit yields: a solver's snapshot (its state only) and the machine it trains."""

    machine: Machine
    snapshot: Snapshot


class SVC(TableEstimator, table=catalog.TABLE):
    """Support vector classifier trained by one of svmdesk's solvers.

    C=None (or inf) is the hard margin. gamma: "scale" (1 / (n_features * X.var())),
    "auto" (1 / n_features) or a positive number. Labels may be any hashable values.
    class_weight ("balanced" or {label: weight}) and fit's sample_weight make LIBSVM's
    weighted C: point i's violations cost C * class_weight[y_i] * sample_weight_i, and a
    point of weight 0 is left out (see weights.py).

    The parameters, their ranges and the solvers and kernels that use them are the rows of
    `catalog.TABLE`; `__init__` takes them by keyword, in its order and with its defaults
    (tests/core/test_estimator_signatures.py holds it to the table).
    """

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", C: float | None = 1.0,
                 gamma: float | str = "scale", degree: int = 3, coef0: float = 0.0,
                 tol: float = 1e-3, max_iter: int | None = None, max_time: float | None = None,
                 learning_rate: float | None = None, batch_size: int | None = None,
                 standardize: bool = False, random_state: int | None = None,
                 probability: bool = False, class_weight: Mapping | str | None = None,
                 decision_function_shape: str = "ovr") -> None:
        self.solver = solver
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.max_time = max_time
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.standardize = standardize
        self.random_state = random_state
        self.probability = probability
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags

    # -- training -----------------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> SVC:
        for _ in self.iter_fit(X, y, every=NEVER, sample_weight=sample_weight):
            pass
        return self

    def iter_fit(self, X: ArrayLike, y: ArrayLike, every: int = 1,
                 wanted: Callable[[], bool] | None = None,
                 sample_weight: ArrayLike | None = None) -> Iterator[Progress]:
        """Progress every `every` iterations of each machine, and each machine's final one.
        `wanted`, a callable, lets the caller ask for snapshots when it wants them instead:
        SMO then runs long batches and yields as soon as wanted() is True (the gradient
        solvers, whose iterations are costly anyway, keep to `every`).

        Parameters and data are checked before the first snapshot; the fitted attributes
        are set once the last machine has finished (a stream abandoned early sets none).
        """
        every = check_every(every)
        params = self.table.check(self.get_params())
        solver = self.table.solvers[params["solver"]]
        data, labels = check_data(X, y)
        classes, codes = encode_labels(labels)
        self._check_classes(params, codes)
        class_weight, weights = point_weights(
            params["class_weight"] if self.weighs_classes else None, sample_weight, classes,
            codes)
        weighted = not np.all(weights == 1.0)
        scaler, Z, kernel = scaled_data_and_kernel(data, params)
        pairs = machine_pairs(len(classes))
        together = self._in_lockstep(solver, params, every, wanted, len(pairs), codes,
                                     weights)
        shared = shared_gram(solver, Z, kernel, len(pairs))
        # else each machine of a solver that reads the kernel takes its rows' operands from
        # one set over every point
        every_row = (KernelRows(kernel, Z, np.float64)
                     if shared is None and len(pairs) > 1 and solver.shares_gram_up_to
                     and not together else None)
        jobs = []
        for k, (pos, neg) in enumerate(pairs):
            points, problem = machine_problem(Z, codes, weights if weighted else None,
                                              (pos, neg), kernel, params,
                                              None if together else shared, every_row)
            every_point = len(pairs) == 1 and len(points) == len(codes)
            bounds = (problem.bounds if self.bounded_by_C and not problem.hard_margin
                      else None)
            machine = Machine(k, len(pairs), (classes[neg], classes[pos]),
                              None if every_point else points, kernel, scaler, bounds)
            jobs.append((machine, problem, points, pos, neg))
        # the machines' final snapshots at once, or each machine's stream in turn
        streams = ([[final] for final in lockstep.solve_together(
            [job[1] for job in jobs], [job[2] for job in jobs],
            lockstep.SharedRows(kernel, Z, shared))] if together else
            (self._solve(solver, job[1], params, every, wanted) for job in jobs))
        machines, finals, sigmoids = [], [], []
        folds = np.random.default_rng(params["random_state"]) if params["probability"] else None
        for (machine, problem, points, pos, neg), stream in zip(jobs, streams):
            final: Snapshot | None = None
            for final in stream:
                yield Progress(machine, final)
            assert final is not None, "a solver yields its final state last"
            require_finite(final, solver, machine)
            finals.append(final)
            machines.append(binary_machine(final, problem, points, pos, neg))
            if folds is not None:
                sigmoids.append(platt_sigmoid(problem, pos < neg, lambda sub: self._solve_fold(
                    solver, sub, params), folds))
        probA, probB = np.array(sigmoids).reshape(-1, 2).T if folds is not None else (None, None)
        self._set_fitted(SVMModel(kernel, classes, tuple(machines), scaler, kind=self.kind,
                                  prob_a=probA, prob_b=probB), codes, finals, data, solver)
        self.class_weight_ = class_weight

    weighs_classes = True       # class_weight makes C_i (nu-SVC's solver ignores it)
    bounded_by_C = True         # its multipliers' bounds are C_i (nu-SVC's: 1/r, moving)
    kind = C_SVC.key            # the model's (SVMModel.kind)

    def _in_lockstep(self, solver: catalog.Solver, params: dict, every: int,
                     wanted: Callable[[], bool] | None, machines: int, codes: np.ndarray,
                     weights: np.ndarray) -> bool:
        """Whether fit solves its one-vs-one machines together (smo/lockstep.py): C-SVC's
        SMO with a finite C and no time bound, when only the final states are wanted (a
        stream shows one machine at a time), the points' kernel rows fit in memory, and
        the machines are many and small enough to gain by it (lockstep.gains)."""
        if not (machines >= lockstep.MIN_MACHINES and solver.name == "smo"
                and type(self)._solve is SVC._solve and every >= NEVER and wanted is None
                and math.isfinite(params.get("C", math.inf))
                and params.get("max_time") is None and len(codes) <= lockstep.MAX_POINTS):
            return False
        largest = np.sort(np.bincount(codes[weights > 0]))[-2:].sum()   # two classes'
        return lockstep.gains(machines, int(largest))

    def _check_classes(self, params: dict, codes: np.ndarray) -> None:
        """What the classes' sizes must allow besides (nu-SVC: its nu); nothing for C-SVC."""

    def _solve(self, solver: catalog.Solver, problem: BinaryProblem, params: dict,
               every: int, wanted: Callable[[], bool] | None) -> Iterator[Snapshot]:
        """One machine's snapshots: C-SVC's dual (or primal) by the chosen solver."""
        return solver.implementation().solve(problem, every, wanted)

    def _solve_fold(self, solver: catalog.Solver, problem: BinaryProblem,
                    params: dict) -> Iterator[Snapshot]:
        """One machine of the probability folds (platt.py), on four fifths of the points."""
        return self._solve(solver, problem, params, NEVER, None)

    # -- fitted state -------------------------------------------------------------------------
    def _set_fitted(self, model, codes, finals, X, solver):
        dual = solver.objective == "dual"   # the others minimise P
        objectives = np.array([s.dual_objective if dual else s.primal_objective
                               for s in finals])
        # where the model has seen data: a window drawing it over other points says when
        # they lie outside (its predictions there are extrapolation)
        self._take_model(model, codes, None, X,
                         n_iter=[s.iteration for s in finals],
                         objective=float(objectives[0]) if len(finals) == 1 else objectives,
                         converged=all(s.converged for s in finals), n_features=X.shape[1],
                         n_samples=X.shape[0], feature_min=X.min(axis=0),
                         feature_max=X.max(axis=0))

    @classmethod
    def from_model(cls, model: SVMModel, codes: ArrayLike, points: ArrayLike,
                   vectors: ArrayLike, *, n_iter: ArrayLike, objective: float | np.ndarray,
                   converged: bool, n_features: int, n_samples: int | None = None,
                   feature_min: np.ndarray | None = None, feature_max: np.ndarray | None = None,
                   **params: Any) -> SVC:
        """A fitted SVC around `model` (read from a file, or relabelled), as fit leaves one:
        codes[i] is the class index of training point i (its support vectors at least),
        vectors the input-unit positions of the training points `points` (its support
        vectors at least); the rest is the training summary fit keeps, and the parameters."""
        svc = cls(**params)
        svc._take_model(model, np.asarray(codes), np.asarray(points), np.asarray(vectors),
                        n_iter=n_iter, objective=objective, converged=converged,
                        n_features=n_features, n_samples=n_samples, feature_min=feature_min,
                        feature_max=feature_max)
        return svc

    def _take_model(self, model, codes, points, vectors, *, n_iter, objective, converged,
                    n_features, n_samples, feature_min, feature_max) -> None:
        K = len(model.classes)
        self.model_ = model
        self.classes_ = model.classes
        self.gamma_ = model.kernel.gamma
        self.n_features_in_ = n_features
        if n_samples is not None:
            self.n_samples_fit_ = n_samples
        self.feature_min_, self.feature_max_ = feature_min, feature_max
        self.n_iter_ = np.asarray(n_iter)
        self.objective_ = objective
        self.converged_ = converged
        self.intercept_ = intercepts(model.machines, model.kernel, model.scaler)
        self.support_, self.dual_coef_ = libsvm_layout(model.machines, K, codes)
        self.n_support_ = np.bincount(codes[self.support_], minlength=K)
        if points is None:                      # vectors of every training point (fit)
            self.support_vectors_ = vectors[self.support_]
        else:
            row = np.full(int(points.max(initial=-1)) + 1, -1, dtype=np.intp)
            row[points] = np.arange(len(points))
            self.support_vectors_ = vectors[row[self.support_]]
        # LIBSVM's probA and probB, one per machine (empty without probabilities)
        self.probA_ = model.prob_a if model.has_probabilities else np.empty(0)
        self.probB_ = model.prob_b if model.has_probabilities else np.empty(0)

    @property
    def coef_(self) -> np.ndarray:
        """Weights of the linear kernel's hyperplanes, one row per machine, in the units of
        the input (standardisation folded in): decision_function = X @ coef_.T + intercept_.
        Read-only, as scikit-learn's: it is computed from the model, so an edit would
        change nothing (refit with other parameters instead)."""
        return linear_coef(self._fitted())

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """f(x): shape (n,) for two classes (positive means classes_[1]). For K classes,
        decision_function_shape="ovr" (the default): (n, K), a column per class whose
        argmax is the prediction (scikit-learn's votes plus scaled confidences); "ovo":
        (n, K(K-1)/2) one-vs-one values in scikit-learn's order (positive: first class)."""
        model, points = self._fitted_and_points(X)
        values = model.decision_function(points)
        shape = self.table.param("decision_function_shape").check(
            self.decision_function_shape)
        if shape == "ovr" and len(model.classes) > 2:
            return ovr_decision(values, len(model.classes))
        return values

    def predict(self, X: ArrayLike) -> np.ndarray:
        model, points = self._fitted_and_points(X)
        return model.predict(points)

    @property
    def predict_proba(self) -> Callable[[ArrayLike], np.ndarray]:
        """predict_proba(X): (n, K), each class's probability in the order of classes_,
        from Platt's sigmoids and their pairwise coupling, as LIBSVM's -b 1. Only with
        probability=True (scikit-learn's: without it the method is absent). Its argmax may
        differ from predict, which votes on the decision values, as in LIBSVM."""
        self._need_probabilities("predict_proba")
        return self._predict_proba

    @property
    def predict_log_proba(self) -> Callable[[ArrayLike], np.ndarray]:
        """predict_log_proba(X): the log of predict_proba(X)."""
        self._need_probabilities("predict_log_proba")
        return lambda X: np.log(self._predict_proba(X))

    def _need_probabilities(self, method: str) -> None:
        if not self.probability:
            raise AttributeError(tr("{method} is not available when probability=False: fit "
                                    "with probability=True").format(method=method))

    def _predict_proba(self, X: ArrayLike) -> np.ndarray:
        model, points = self._fitted_and_points(X)
        if not model.has_probabilities:
            raise not_fitted(tr("This {estimator} was fitted with probability=False: fit it "
                                "again with probability=True for predict_proba").format(
                estimator=type(self).__name__))
        return model.predict_proba(points)

    def score(self, X: ArrayLike, y: ArrayLike) -> float:
        """Mean accuracy on (X, y)."""
        data, labels = check_data(X, y, need_two_classes=False)
        return float(np.mean(self.predict(data) == labels))


def require_finite(final: Snapshot, solver: catalog.Solver, machine: Machine) -> None:
    """No model holding NaN or inf is returned, whatever a solver let through."""
    dual = solver.objective == "dual"
    objective = final.dual_objective if dual else final.primal_objective
    arrays = [v for v in (final.dual_coef, final.w) if v is not None]
    if not (math.isfinite(final.bias) and (objective is None or math.isfinite(objective))
            and all(np.isfinite(v).all() for v in arrays)):
        said = (tr("solver {solver} produced NaN or inf (machine {machine} of {count}): its "
                   "arithmetic overflowed on these data; pass standardize=True")
                if machine.count > 1 else
                tr("solver {solver} produced NaN or inf: its arithmetic overflowed on these "
                   "data; pass standardize=True"))
        raise DivergenceError(said.format(solver=repr(solver.name), machine=machine.index + 1,
                                          count=machine.count))
