"""SVC: a scikit-learn style front over the solvers.

`__init__` only stores parameters; `fit` validates them and the data, then runs `iter_fit`
to its end. `iter_fit` streams the training's progress: each solver snapshot with the machine
it belongs to (one machine after another for three or more classes), and sets the fitted
attributes when the stream ends.
"""
from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from . import catalog, scale
from .errors import (
    DataError,
    DataTypeError,
    DivergenceError,
    continuous_labels,
    not_fitted,
    warn_data_conversion,
)
from .kernels import Kernel
from .model import BinaryMachine, Scaler, SVMModel
from .solvers.base import BinaryProblem, Snapshot
from .table_estimator import TableEstimator


@dataclass(frozen=True)
class Machine:
    """One two-class machine of a fit: its place among the fit's machines (one-vs-one for
    three or more classes), its classes (negative, positive), the training points it learns
    from (None: all of them), and the kernel and scaler the fit resolved, which f(x) needs
    besides a snapshot's coefficients."""

    index: int
    count: int
    classes: tuple
    points: np.ndarray | None
    kernel: Kernel
    scaler: Scaler | None


@dataclass(frozen=True)
class Progress:
    """What iter_fit yields: a solver's snapshot (its state only) and the machine it trains."""

    machine: Machine
    snapshot: Snapshot


class SVC(TableEstimator, table=catalog.TABLE):
    """Support vector classifier trained by one of svmdesk's solvers.

    C=None (or inf) is the hard margin. gamma: "scale" (1 / (n_features * X.var())),
    "auto" (1 / n_features) or a positive number. Labels may be any hashable values.

    The parameters, their ranges and the solvers and kernels that use them are the rows of
    `catalog.TABLE`; `__init__` takes them by keyword (see TableEstimator).
    """

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags

    # -- training -----------------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike) -> SVC:
        for _ in self.iter_fit(X, y, every=_NEVER):
            pass
        return self

    def iter_fit(self, X: ArrayLike, y: ArrayLike, every: int = 1,
                 wanted: Callable[[], bool] | None = None) -> Iterator[Progress]:
        """Progress every `every` iterations of each machine, and each machine's final one.
        `wanted`, a callable, lets the caller ask for snapshots when it wants them instead:
        SMO then runs long batches and yields as soon as wanted() is True (the gradient
        solvers, whose iterations are costly anyway, keep to `every`).

        Parameters and data are checked before the first snapshot; the fitted attributes
        are set once the last machine has finished (a stream abandoned early sets none).
        """
        every = _check_every(every)
        params = self.table.check(self.get_params())
        solver = self.table.solvers[params["solver"]]
        data, labels = _check_data(X, y)
        classes, codes = _encode_labels(labels)
        scaler = Scaler.fit(data) if params["standardize"] else None
        Z = data if scaler is None else scaler.transform(data)
        scale.check_magnitude(Z)
        kernel = Kernel(params["kernel"], _resolve_gamma(params["gamma"], Z),
                        params["degree"], params["coef0"])
        scale.check_kernel(Z, kernel)
        pairs = machine_pairs(len(classes))
        machines, finals = [], []
        for k, (pos, neg) in enumerate(pairs):
            points = np.flatnonzero((codes == pos) | (codes == neg))
            problem = BinaryProblem(
                X=Z[points], y=np.where(codes[points] == pos, 1.0, -1.0), kernel=kernel,
                C=params["C"], tol=params["tol"], max_iter=params["max_iter"],
                learning_rate=params["learning_rate"], batch_size=params["batch_size"],
                seed=params["random_state"], params=MappingProxyType(params))
            points.flags.writeable = False      # the machine hands it out
            machine = Machine(k, len(pairs), (classes[neg], classes[pos]),
                              None if len(pairs) == 1 else points, kernel, scaler)
            final: Snapshot | None = None
            for final in solver.implementation().solve(problem, every, wanted):
                yield Progress(machine, final)
            assert final is not None, "a solver yields its final state last"
            _require_finite(final, solver, machine)
            finals.append(final)
            machines.append(_machine(final, problem, points, pos, neg))
        self._set_fitted(kernel, classes, codes, machines, scaler, finals, data, solver)

    # -- fitted state -------------------------------------------------------------------------
    def _set_fitted(self, kernel, classes, codes, machines, scaler, finals, X, solver):
        dual = solver.objective == "dual"   # the others minimise P
        objectives = np.array([s.dual_objective if dual else s.primal_objective
                               for s in finals])
        # where the model has seen data: a window drawing it over other points says when
        # they lie outside (its predictions there are extrapolation)
        self._take_model(SVMModel(kernel, classes, tuple(machines), scaler), codes,
                         np.arange(len(X)), X, n_iter=[s.iteration for s in finals],
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
        self.intercept_ = _intercepts(model.machines, model.kernel, model.scaler)
        self.support_, self.dual_coef_ = libsvm_layout(model.machines, K, codes)
        self.n_support_ = np.bincount(codes[self.support_], minlength=K)
        row = np.full(int(points.max(initial=-1)) + 1, -1, dtype=np.intp)
        row[points] = np.arange(len(points))
        self.support_vectors_ = vectors[row[self.support_]]

    @property
    def coef_(self) -> np.ndarray:
        """Weights of the linear kernel's hyperplanes, one row per machine, in the units of
        the input (standardisation folded in): decision_function = X @ coef_.T + intercept_.
        Read-only, as scikit-learn's: it is computed from the model, so an edit would
        change nothing (refit with other parameters instead)."""
        model = self._fitted()
        if model.kernel.name != "linear":
            raise AttributeError(tr("coef_ is only available when kernel='linear'"))
        w = np.vstack([m.w for m in model.machines if m.w is not None])
        w = w if model.scaler is None else w / model.scaler.scale
        w.flags.writeable = False
        return w

    def _fitted(self) -> SVMModel:
        model = getattr(self, "model_", None)
        if model is None:
            raise not_fitted(tr("This SVC instance is not fitted yet. Call 'fit' with "
                                "appropriate arguments before using this estimator."))
        return model

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """f(x): shape (n,) for two classes (positive means classes_[1]). For K classes,
        decision_function_shape="ovr" (the default): (n, K), a column per class whose
        argmax is the prediction (scikit-learn's votes plus scaled confidences); "ovo":
        (n, K(K-1)/2) one-vs-one values in scikit-learn's order (positive: first class)."""
        model = self._fitted()
        values = model.decision_function(_check_X(X, model.n_features))
        shape = self.table.param("decision_function_shape").check(
            self.decision_function_shape)
        if shape == "ovr" and len(model.classes) > 2:
            return ovr_decision(values, len(model.classes))
        return values

    def predict(self, X: ArrayLike) -> np.ndarray:
        model = self._fitted()
        return model.predict(_check_X(X, model.n_features))

    def score(self, X: ArrayLike, y: ArrayLike) -> float:
        """Mean accuracy on (X, y)."""
        data, labels = _check_data(X, y, need_two_classes=False)
        return float(np.mean(self.predict(data) == labels))


_NEVER = 2**62  # `every` for fit: only final snapshots


def ovr_decision(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """One column per class from one-vs-one values (machine (i, j) positive: i wins), as
    scikit-learn's SVC makes them: each class's votes, plus its summed confidences squashed
    into (-1/3, 1/3) so that they break ties without outvoting a vote."""
    votes = np.zeros((len(ovo), n_classes))
    confidence = np.zeros((len(ovo), n_classes))
    for k, (i, j) in enumerate(machine_pairs(n_classes)):
        confidence[:, i] += ovo[:, k]
        confidence[:, j] -= ovo[:, k]
        votes[ovo[:, k] >= 0, i] += 1
        votes[ovo[:, k] < 0, j] += 1
    return votes + confidence / (3 * (np.abs(confidence) + 1))


def machine_pairs(n_classes: int) -> list[tuple[int, int]]:
    """(positive, negative) class indices per machine: classes_[1] is positive for two
    classes (sklearn's sign); for more, pair (i, j) in sklearn's order votes i when f > 0."""
    if n_classes == 2:
        return [(1, 0)]
    return list(combinations(range(n_classes), 2))


def _machine(snap: Snapshot, problem: BinaryProblem, points, pos, neg) -> BinaryMachine:
    """The final snapshot of one machine as a model, its indices mapped to the whole set.

    With dual coefficients the model keeps the last snapshot's non-zero ones: its support
    vectors (one rule for every solver, solvers/support.py, which the gradient solvers'
    last snapshot applies); primal solvers' support vectors are their margin points."""
    if snap.dual_coef is not None:
        support = np.flatnonzero(snap.dual_coef)
        coef = snap.dual_coef[support]
    else:  # primal solver: the dual coefficients are recovered for the record
        support = np.asarray(snap.support, dtype=np.intp)
        coef = _primal_dual_coef(snap, problem, support)
    w = snap.w
    if w is None and problem.kernel.name == "linear":
        w = coef @ problem.X[support] if len(support) else np.zeros(problem.X.shape[1])
    return BinaryMachine(points[support], problem.X[support], coef, snap.bias, pos, neg, w)


def _primal_dual_coef(snap, problem, support) -> np.ndarray:
    """y_i a_i for a primal solution: a_i = C inside the margin, and for points on it the
    least-squares multipliers in [0, C] that rebuild w (the KKT conditions of the dual)."""
    y, X = problem.y[support], problem.X[support]
    margins = y * (X @ snap.w + snap.bias)
    alpha = np.where(margins < 1.0 - 1e-3, problem.C, 0.0)
    on = np.flatnonzero(alpha == 0)
    if len(on):
        rest = snap.w - (alpha * y) @ X
        sol = np.linalg.lstsq((y[on, None] * X[on]).T, rest, rcond=None)[0]
        alpha[on] = np.clip(sol, 0.0, problem.C)
    return y * alpha


def _intercepts(machines, kernel, scaler) -> np.ndarray:
    """intercept_: each machine's bias, for the linear kernel in input units like coef_."""
    intercepts = np.array([m.bias for m in machines])
    if scaler is not None and kernel.name == "linear":
        intercepts -= np.array([m.w @ (scaler.mean / scaler.scale) for m in machines])
    return intercepts


def relabelled(svc: SVC, labels: ArrayLike) -> SVC:
    """A copy of the fitted `svc` whose class k is called labels[k] (distinct labels).

    classes_ are sorted again, as fit keeps them; the machines follow: each moves to the
    place of its pair of classes, and one whose classes swap sides has f negated. This
    repairs models of older sessions, which were trained on class indices: the result
    predicts, scores and exports exactly as a fit on the labels themselves."""
    model = svc._fitted()
    labels = np.asarray(labels)
    K = len(model.classes)
    if labels.shape != (K,) or len(_unique(labels)) != K:
        raise ValueError(tr("relabelling needs {count} distinct labels; got {labels}").format(
            count=K, labels=repr(labels.tolist())))
    old = np.argsort(labels, kind="stable")            # new class index -> old one
    new = np.empty(K, dtype=np.intp)
    new[old] = np.arange(K)
    by_pair = {frozenset((m.positive, m.negative)): k for k, m in enumerate(model.machines)}
    machines, source = [], []
    for pos, neg in machine_pairs(K):
        k = by_pair[frozenset((old[pos], old[neg]))]
        m = model.machines[k]
        sign = 1.0 if m.positive == old[pos] else -1.0
        machines.append(dataclasses.replace(
            m, dual_coef=sign * m.dual_coef, bias=sign * m.bias, positive=pos, negative=neg,
            w=None if m.w is None else sign * m.w))
        source.append(k)
    codes = np.full(int(svc.support_.max(initial=-1)) + 1, -1, dtype=np.intp)
    codes[svc.support_] = new[np.repeat(np.arange(K), svc.n_support_)]
    return SVC.from_model(
        SVMModel(model.kernel, labels[old], tuple(machines), model.scaler), codes,
        svc.support_, svc.support_vectors_, n_iter=np.asarray(svc.n_iter_)[source],
        objective=np.asarray(svc.objective_)[source] if K > 2 else svc.objective_,
        converged=svc.converged_, n_features=svc.n_features_in_,
        n_samples=getattr(svc, "n_samples_fit_", None),
        feature_min=svc.feature_min_, feature_max=svc.feature_max_, **svc.get_params())


def libsvm_layout(machines: Sequence[BinaryMachine], n_classes: int,
                  codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """support_ grouped by class, and dual_coef_ of shape (K-1, n_SV) laid out as libsvm's
    sv_coef: an SV of class i has its coefficient for machine (i, j) in row j-1 if i < j,
    else in row j."""
    support = np.unique(np.concatenate([m.support for m in machines]))
    support = support[np.argsort(codes[support], kind="stable")]
    column = np.empty(len(codes), dtype=np.intp)
    column[support] = np.arange(len(support))
    coef = np.zeros((max(1, n_classes - 1), len(support)))
    for m in machines:
        own = codes[m.support]
        other = np.where(own == m.positive, m.negative, m.positive)
        row = 0 if n_classes == 2 else np.where(own < other, other - 1, other)
        coef[row, column[m.support]] = m.dual_coef
    return support, coef


def _require_finite(final: Snapshot, solver: catalog.Solver, machine: Machine) -> None:
    """No model holding NaN or inf is returned, whatever a solver let through."""
    dual = solver.objective == "dual"
    objective = final.dual_objective if dual else final.primal_objective
    values = [v for v in (final.bias, objective, final.dual_coef, final.w) if v is not None]
    if not all(np.isfinite(v).all() for v in values):
        said = (tr("solver {solver} produced NaN or inf (machine {machine} of {count}): its "
                   "arithmetic overflowed on these data; pass standardize=True")
                if machine.count > 1 else
                tr("solver {solver} produced NaN or inf: its arithmetic overflowed on these "
                   "data; pass standardize=True"))
        raise DivergenceError(said.format(solver=repr(solver.name), machine=machine.index + 1,
                                          count=machine.count))


# -- validation ---------------------------------------------------------------------------
def _check_every(every) -> int:
    if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
        raise ValueError(tr("every must be a positive integer; got {every}").format(
            every=repr(every)))
    return int(every)


def _resolve_gamma(gamma, Z: np.ndarray) -> float:
    d = Z.shape[1]
    if gamma == "auto":
        return 1.0 / d
    if gamma == "scale":
        var = Z.var()
        return scale.check_gamma(1.0 / (d * var), Z) if var > 0 else 1.0
    return float(gamma)


def _check_X(X, n_features=None) -> np.ndarray:
    if hasattr(X, "toarray") and hasattr(X, "nnz"):      # a scipy.sparse matrix: its points
        X = X.toarray()
    X = _as_numbers(X)
    if X.ndim == 1:
        raise DataError(tr("Expected 2D array, got 1D array instead: X must be a 2-D table of "
                           "points x features. Reshape your data: X.reshape(1, -1) for one "
                           "point"))
    if X.ndim != 2:
        raise DataError(tr("X must be a 2-D table (points x features); got shape {shape}"
                           ).format(shape=X.shape))
    if X.shape[0] == 0:
        raise DataError(tr("Found array with 0 sample(s) (shape={shape}) while a minimum of "
                           "1 is required: there are no points to use").format(shape=X.shape))
    if X.shape[1] == 0:
        raise DataError(tr("Found array with 0 feature(s) (shape={shape}) while a minimum of "
                           "1 is required: X has no feature columns").format(shape=X.shape))
    if n_features is not None and X.shape[1] != n_features:
        raise DataError(tr("X has {features} features, but SVC is expecting {expected} "
                           "features as input (the model was trained on that many)").format(
            features=X.shape[1], expected=n_features))
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        said = (tr("Input X contains NaN ({count} NaN or infinite values; first at row {row}, "
                   "column {column}): remove or fill them") if np.isnan(X[r, c]) else
                tr("Input X contains infinity ({count} NaN or infinite values; first at row "
                   "{row}, column {column}): remove or fill them"))   # scikit-learn's words
        raise DataError(said.format(count=bad.sum(), row=r, column=c))
    return X


def _as_numbers(X) -> np.ndarray:
    try:
        X = np.asarray(X)      # first, so that array-likes (a DataFrame) convert themselves
    except ValueError as e:    # ragged rows
        raise DataError(tr("X must be a table of numbers ({error})").format(error=e)) from None
    if np.iscomplexobj(X):
        raise DataError(tr("Complex data not supported: X must hold real numbers"))
    try:
        return X.astype(np.float64, copy=False)
    except TypeError as e:     # a cell that is no number at all: a TypeError, as numpy's
        raise DataTypeError(tr("X must hold numbers only ({error}); check for text or empty "
                               "cells").format(error=e)) from None
    except ValueError as e:    # text that is no number
        raise DataError(tr("X must hold numbers only ({error}); check for text or empty "
                           "cells").format(error=e)) from None


def _check_data(X, y, need_two_classes: bool = True):
    if y is None:
        raise DataError(tr("SVC requires y to be passed, but the target y is None: give each "
                           "point its class label"))
    X = _check_X(X)
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warn_data_conversion(tr("A column-vector y was passed when a 1d array was expected. "
                                "Please change the shape of y to (n_samples, ), for example "
                                "using ravel()."), stacklevel=3)
        y = y.ravel()
    if y.ndim != 1:
        raise DataError(tr("y should be a 1d array, got an array of shape {shape} instead: "
                           "give one label per point (1-D)").format(shape=y.shape))
    if len(y) != len(X):
        raise DataError(tr("X has {points} points but y has {labels} labels: they must match"
                           ).format(points=len(X), labels=len(y)))
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise DataError(tr("y contains NaN or infinite labels: every point needs a class"))
    fractional = y.dtype.kind in "fc" and (y != np.round(y))
    if np.any(fractional):
        raise DataError(continuous_labels(repr(y[np.argmax(fractional)].item())))
    if need_two_classes and len(_unique(y)) < 2:
        label = y[0].item() if isinstance(y[0], np.generic) else y[0]
        said = (tr("The number of classes has to be greater than one; got 1 class "
                   "(n_samples = 1): every point has label {label}; a classifier needs at "
                   "least two classes, so add points of another class") if len(y) == 1 else
                tr("The number of classes has to be greater than one; got 1 class: every "
                   "point has label {label}; a classifier needs at least two classes, so add "
                   "points of another class"))
        raise DataError(said.format(label=repr(label)))
    return X, y


_NUMPY_SORTS = "biufUS"   # label dtypes numpy sorts and encodes itself, and fast


def _unique(y: np.ndarray) -> list:
    """Distinct labels, sorted when they can be, else in order of appearance."""
    if y.dtype.kind in _NUMPY_SORTS:
        return np.unique(y).tolist()
    seen = list(dict.fromkeys(y.tolist()))
    try:
        return sorted(seen)
    except TypeError:
        return seen


def _encode_labels(y: np.ndarray):
    if y.dtype.kind in _NUMPY_SORTS:
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.astype(np.intp).ravel()
    labels = _unique(y)
    index = {label: k for k, label in enumerate(labels)}
    codes = np.fromiter((index[v] for v in y.tolist()), dtype=np.intp, count=len(y))
    classes = np.array(labels, dtype=y.dtype if y.dtype.kind != "O" else object)
    return classes, codes
