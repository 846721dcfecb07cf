"""The base of svmdesk's estimators, whatever they learn: parameters that are a catalog table's
rows (TableEstimator), and the checks every estimator makes of its input (points X, the
`every` of a stream, gamma) before any solver runs. It assumes no classes and no y: a
classifier, a one-class machine and a regressor all stand on it.

A subclass names its table once (`class SVC(TableEstimator, table=catalog.TABLE)`) and
writes out its `__init__` as scikit-learn's developer guide asks of an estimator: each of the
table's rows a keyword-only argument, typed, in the table's order and with the table's
default, that `__init__` only stores (validation waits for fit). From the table the base
gives the rest: `get_params`, `set_params`, a `__repr__` that shows the parameters changed
from their defaults, and `__sklearn_tags__`. The table stays the one account of what each
parameter means; tests/core/test_estimator_signatures.py holds every estimator's `__init__`
to its table's names, order and defaults.
"""
from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from .. import overflow
from ..catalog import Table
from ..errors import DataError, DataTypeError, not_fitted, warn_data_conversion
from ..kernels import Kernel
from ..model import Scaler, SVMModel
from ..solvers.base import Snapshot

if TYPE_CHECKING:   # typing.Self is new in 3.11; only mypy reads this (annotations are strings)
    from typing_extensions import Self

NEVER = 2**62  # `every` for fit: only final snapshots


class TableEstimator:
    """An estimator whose parameters are the rows of `table` (set by the subclass)."""

    table: ClassVar[Table]

    def __init_subclass__(cls, table: Table | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if table is not None:          # the subclass writes out __init__ with its rows
            cls.table = table

    def get_params(self, deep: bool = True) -> dict:
        """The parameters and their values (`deep` is moot: none is an estimator)."""
        return {name: getattr(self, name) for name in self.table.names}

    if TYPE_CHECKING:  # for mypy, what an __init__ does not set: the fitted attributes fit
        # sets (model_, n_features_in_, ...), read off a TableEstimator of any kind, and a
        # parameter of another kind's table (nu of an `SVC | OneClassSVM` that is a NuSVC).
        # The parameters an __init__ stores are real, typed attributes, which mypy reads first.
        def __getattr__(self, name: str) -> Any: ...

    def set_params(self, **params: Any) -> Self:
        """Set parameters by name, as __init__ takes them; unknown names change nothing."""
        unknown = [name for name in params if name not in self.table.names]
        if unknown:
            raise ValueError(tr("Invalid parameter {name} for estimator {estimator}. Valid "
                                "parameters are: {names}.").format(
                name=repr(unknown[0]), estimator=repr(self), names=repr(sorted(self.table.names))))
        for name, value in params.items():
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        defaults = self.table.defaults
        changed = [f"{name}={value!r}" for name, value in self.get_params().items()
                   if repr(value) != repr(defaults[name])]
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's description of the estimator, for its own tools: they alone call
        this, so scikit-learn is imported here and never by svmdesk. Subclasses add theirs
        to this one, as scikit-learn's developer guide does."""
        from sklearn.utils import InputTags, Tags, TargetTags
        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    input_tags=InputTags(sparse=True))

    def __sklearn_is_fitted__(self) -> bool:
        return bool(getattr(self, "model_", None) is not None)

    def _fitted_and_points(self, X: ArrayLike) -> tuple[SVMModel, np.ndarray]:
        """The fitted model, and X checked against what it was trained on."""
        model = self._fitted()
        return model, check_X(X, model.n_features, type(self).__name__)

    def _fitted(self) -> SVMModel:
        """The fitted model, or scikit-learn's NotFittedError before fit."""
        model = getattr(self, "model_", None)
        if model is None:
            raise not_fitted(tr("This {estimator} instance is not fitted yet. Call 'fit' with "
                                "appropriate arguments before using this estimator.").format(
                estimator=type(self).__name__))
        return model


class OneMachineEstimator(TableEstimator):
    """An estimator whose model is one machine (the one-class SVM, the regressors), with the
    fitted attributes scikit-learn gives those; subclasses add their own."""

    @classmethod
    def from_model(cls, model: SVMModel, vectors: ArrayLike, *, n_iter: int, objective: float,
                   converged: bool, n_features: int, **params: Any) -> Any:
        """A fitted estimator around `model` (read from a file), as fit leaves one: vectors
        are its support vectors in input units; the rest is the training summary fit keeps,
        and the parameters (a regressor's found tube, epsilon_, among them)."""
        fitted = {k: params.pop(k) for k in cls.fitted_extras if k in params}
        estimator = cls(**params)
        estimator._take_model(model, np.asarray(vectors), n_features=n_features,
                              n_iter=n_iter, objective=objective, converged=converged)
        for name, value in fitted.items():
            setattr(estimator, name, value)
        return estimator

    fitted_extras: tuple = ()    # fitted attributes beyond these that a file keeps

    def _take_fit(self, model: SVMModel, data: np.ndarray, final: Snapshot) -> None:
        self._take_model(model, data[model.machines[0].support], n_features=data.shape[1],
                         n_iter=final.iteration, objective=final.dual_objective,
                         converged=final.converged)

    def _take_model(self, model: SVMModel, vectors: np.ndarray, *, n_features: int,
                    n_iter: int, objective: float | None, converged: bool) -> None:
        machine = model.machines[0]
        self.model_ = model
        self.gamma_ = model.kernel.gamma
        self.n_features_in_ = n_features
        self.n_iter_ = n_iter
        self.objective_ = objective
        self.converged_ = converged
        self.fit_status_ = 0 if converged else 1
        self.support_ = machine.support
        self.support_vectors_ = vectors
        self.dual_coef_ = machine.dual_coef[None, :]
        self.n_support_ = np.array([len(machine.support)], dtype=np.int32)
        self.intercept_ = np.array([machine.bias])

    @property
    def coef_(self) -> np.ndarray:
        """The linear kernel's w in the input's units (f = X @ coef_.T + intercept_,
        standardisation folded in); read-only."""
        return linear_coef(self._fitted())


def linear_coef(model: SVMModel) -> np.ndarray:
    """coef_: each machine's w in the input's units, read-only; the linear kernel's only."""
    if model.kernel.name != "linear":
        raise AttributeError(tr("coef_ is only available when kernel='linear'"))
    w = np.vstack([m.w for m in model.machines if m.w is not None])
    w = w if model.scaler is None else w / model.scaler.scale
    w.flags.writeable = False
    return w


def column_as_1d(y: ArrayLike) -> np.ndarray:
    """y as an array; a column vector made 1-D with scikit-learn's warning."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warn_data_conversion(tr("A column-vector y was passed when a 1d array was expected. "
                                "Please change the shape of y to (n_samples, ), for example "
                                "using ravel()."), stacklevel=4)
        y = y.ravel()
    return y


def check_every(every: object) -> int:
    if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
        raise ValueError(tr("every must be a positive integer; got {every}").format(
            every=repr(every)))
    return int(every)


def scaled_data_and_kernel(data: np.ndarray, params: dict
                           ) -> tuple[Scaler | None, np.ndarray, Kernel]:
    """What every estimator trains on: the standardiser when params ask for one, the points
    it gives, checked for magnitudes float64 can square, and the kernel with gamma resolved
    on them, checked for values that overflow."""
    scaler = Scaler.fit(data) if params["standardize"] else None
    Z = data if scaler is None else scaler.transform(data)
    overflow.check_magnitude(Z)
    kernel = Kernel(params["kernel"], resolve_gamma(params["gamma"], Z), params["degree"],
                    params["coef0"])
    overflow.check_kernel(Z, kernel)
    return scaler, Z, kernel


def resolve_gamma(gamma: str | float, Z: np.ndarray) -> float:
    d = Z.shape[1]
    if gamma == "auto":
        return 1.0 / d
    if gamma == "scale":
        var = Z.var()
        return overflow.check_gamma(1.0 / (d * var), Z) if var > 0 else 1.0
    return float(gamma)


def check_X(X: ArrayLike, n_features: int | None = None, estimator: str = "SVC"
            ) -> np.ndarray:
    if hasattr(X, "toarray") and hasattr(X, "nnz"):      # a scipy.sparse matrix: its points
        X = X.toarray()
    X = as_numbers(X)
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
        raise DataError(tr("X has {features} features, but {estimator} is expecting "
                           "{expected} features as input (the model was trained on that many)"
                           ).format(features=X.shape[1], estimator=estimator,
                                    expected=n_features))
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        said = (tr("Input X contains NaN ({count} NaN or infinite values; first at row {row}, "
                   "column {column}): remove or fill them") if np.isnan(X[r, c]) else
                tr("Input X contains infinity ({count} NaN or infinite values; first at row "
                   "{row}, column {column}): remove or fill them"))   # scikit-learn's words
        raise DataError(said.format(count=bad.sum(), row=r, column=c))
    return X


def as_numbers(X: ArrayLike) -> np.ndarray:
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
