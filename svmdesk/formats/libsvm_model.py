"""Export to LIBSVM's text model format (svm-predict, libsvm's Python binding)."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..core.errors import DataError
from ..core.estimators import SVC, SVR, NuSVR, OneClassSVM
from ..core.kinds import KINDS
from ..core.model import Scaler, SVMModel
from ..i18n import tr
from .atomic import StrPath, write_atomic

_LIBSVM_KERNELS = {"linear": "linear", "poly": "polynomial", "rbf": "rbf", "sigmoid": "sigmoid"}
_ESTIMATORS = (SVC, OneClassSVM, SVR, NuSVR)      # NuSVC is an SVC


class _Layout(NamedTuple):
    """What LIBSVM's file holds besides the kernel: the support vectors in file order (their
    training indices and scaled points), their coefficients (column c: vector c's line),
    rho per machine, and a classifier's lines between rho and SV (label, probA, probB,
    nr_sv)."""

    support: np.ndarray
    vectors: np.ndarray
    coef: np.ndarray
    rho: list
    class_lines: list


def export_libsvm(model_or_estimator: SVC | OneClassSVM | SVR | NuSVR | SVMModel,
                  path: StrPath) -> list:
    """Write a fitted SVC, NuSVC, OneClassSVM, SVR or NuSVR (or an SVMModel) in LIBSVM's
    text model format, with the fields LIBSVM's svm_save_model writes for its svm_type
    (model.kind); returns the written paths: [path], plus path + ".range" for a model
    trained with standardize=True.

    Classifiers (c_svc, nu_svc; a nu-SVC model reads as C-SVC's): LIBSVM's labels are
    integers, so classes must be integer-valued numbers (DataError otherwise; save the JSON
    model instead). LIBSVM's machine (i, j) computes sum coef k(sv, x) - rho and votes for
    label[i] when that is positive. Labels are written in the order that makes LIBSVM's
    values equal svmdesk's decision_function: classes_ in order for three or more classes;
    for two classes [classes_[1], classes_[0]] (svmdesk's positive class first). Sigmoids
    (probA, probB) are written when the model has them.

    One machine (one_class, epsilon_svr, nu_svr): nr_class 2, one rho, no label and no
    nr_sv lines, one coefficient per support vector. LIBSVM's one-class predict is +1 where
    f > 0, as ours; a regressor's is f itself. rho = -bias in every kind.

    standardize=True: the support vectors are in the scaled space; the ".range" file, in
    svm-scale's format, maps inputs to it (svm-scale -r path.range input > scaled).

    Models of the primal solvers carry w and approximate multipliers: they are exported when
    the multipliers rebuild the decision function to 1e-6, else DataError.
    """
    model, estimator = _model_of(model_or_estimator)
    path = Path(path)
    if KINDS[model.kind].classifies:
        layout = _classifier_layout(model, estimator if isinstance(estimator, SVC) else None)
    else:
        layout = _one_machine_layout(model)
    _check_exportable(model, layout.support, layout.vectors)
    head = _kernel_lines(model) + [
        f"nr_class {max(2, len(model.classes))}", f"total_sv {len(layout.support)}",
        "rho " + " ".join(map(repr, layout.rho)), *layout.class_lines, "SV"]
    written = [path]
    range_text = None if model.scaler is None else _range_file(model.scaler)
    write_atomic(path, "\n".join(head + _sv_lines(layout)) + "\n")
    if range_text is not None:
        written.append(Path(str(path) + ".range"))
        write_atomic(written[-1], range_text)
    return written


def _model_of(model_or_estimator) -> tuple:
    """(the SVMModel, the fitted estimator or None)."""
    if isinstance(model_or_estimator, SVMModel):
        model, estimator = model_or_estimator, None
    elif isinstance(model_or_estimator, _ESTIMATORS):
        model, estimator = model_or_estimator._fitted(), model_or_estimator
    else:
        raise TypeError(tr("export_libsvm needs a fitted SVC, NuSVC, OneClassSVM, SVR or "
                           "NuSVR, or an SVMModel; got {type}").format(
                               type=type(model_or_estimator).__name__))
    if model.kind not in KINDS:
        raise ValueError(tr("export_libsvm: unknown model kind {kind!r}").format(
            kind=model.kind))
    return model, estimator


def _kernel_lines(model: SVMModel) -> list:
    """svm_type and the kernel's fields, those LIBSVM writes for the kernel only."""
    kernel = model.kernel
    head = [f"svm_type {model.kind}", f"kernel_type {_LIBSVM_KERNELS[kernel.name]}"]
    if kernel.name == "poly":
        head.append(f"degree {int(kernel.degree)}")
    if kernel.name != "linear":
        head.append(f"gamma {float(kernel.gamma)!r}")
    if kernel.name in ("poly", "sigmoid"):
        head.append(f"coef0 {float(kernel.coef0)!r}")
    return head


def _sv_lines(layout: _Layout) -> list:
    """One line per support vector: its coefficients, then its nonzero features (1-based)."""
    lines = []
    for c in range(len(layout.support)):
        coefs = " ".join(repr(float(v)) for v in layout.coef[:, c])
        feats = " ".join(f"{j + 1}:{float(x)!r}" for j, x in enumerate(layout.vectors[c].tolist())
                         if x != 0.0)
        lines.append(f"{coefs} {feats}".rstrip())
    return lines


def _one_machine_layout(model: SVMModel) -> _Layout:
    """The one-class machine or a regressor: its support vectors in training order."""
    (m,) = model.machines
    vectors = np.asarray(m.support_vectors, dtype=np.float64).reshape(len(m.support), -1)
    return _Layout(np.asarray(m.support), vectors, np.asarray(m.dual_coef)[None, :],
                   [-float(m.bias)], [])


def _classifier_layout(model: SVMModel, svc: SVC | None) -> _Layout:
    """LIBSVM's one-vs-one layout: SVs grouped by label position (training order within a
    group), row `other - 1` or `other` of a vector's column holding its coefficient in the
    machine against label position `other`."""
    labels = _libsvm_labels(model.classes)
    K = len(model.classes)
    order = [1, 0] if K == 2 else list(range(K))   # LIBSVM label position -> class index
    position = {c: p for p, c in enumerate(order)}
    index, vectors, classes = _support_points(model, svc)
    rank = np.array([position[c] for c in classes], dtype=np.intp)
    sort = np.argsort(rank, kind="stable")
    index, vectors, rank = index[sort], vectors[sort], rank[sort]
    column = {int(s): c for c, s in enumerate(index)}
    coef = np.zeros((K - 1, len(index)))
    rho = []
    for k, m in enumerate(model.machines):
        p, n = position[m.positive], position[m.negative]
        assert p < n   # LIBSVM's machine (p, n) votes for p: our positive class
        for s, value in zip(m.support.tolist(), m.dual_coef.tolist()):
            c = column[s]
            if rank[c] not in (p, n):
                raise DataError(tr("support vector {vector} of machine {machine} belongs to "
                                   "neither of its classes; the model is inconsistent").format(
                                       vector=s, machine=k))
            other = n if rank[c] == p else p
            coef[other - 1 if rank[c] < other else other, c] = value
        rho.append(-float(m.bias))
    nr_sv = np.bincount(rank, minlength=K)
    class_lines = ["label " + " ".join(str(labels[c]) for c in order),
                   *_probability_lines(model),
                   "nr_sv " + " ".join(str(int(c)) for c in nr_sv)]
    return _Layout(index, vectors, coef, rho, class_lines)


def _probability_lines(model: SVMModel) -> list:
    """probA and probB of each machine as LIBSVM reads them: P(label[p] | f) for machine
    (p, n) computing f = our decision value. The model's sigmoid is of the lower class
    index; where that is the machine's negative class (two classes: LIBSVM's label[0] is
    classes_[1]), P(positive) = 1 - P(negative) is the sigmoid with B negated."""
    prob_a, prob_b = model.prob_a, model.prob_b
    if prob_a is None or prob_b is None:
        return []
    first = np.array([m.positive < m.negative for m in model.machines])
    return ["probA " + " ".join(repr(float(a)) for a in prob_a),
            "probB " + " ".join(repr(float(b)) for b in np.where(first, prob_b, -prob_b))]


def _libsvm_labels(classes: np.ndarray) -> list:
    out = []
    for label in classes.tolist():
        if isinstance(label, np.generic):
            label = label.item()
        if isinstance(label, str) or not isinstance(label, (bool, int, float)):
            raise DataError(tr("LIBSVM model files need numeric class labels, and this model has "
                               "the label {label}; save it as svmdesk's JSON model (.json) "
                               "instead, or train on numeric labels").format(label=repr(label)))
        if isinstance(label, float) and not label.is_integer():
            raise DataError(tr("LIBSVM model files store class labels as integers, and this "
                               "model has the label {label}; save it as svmdesk's JSON model "
                               "(.json) instead, or train on integer labels").format(
                                   label=repr(label)))
        label = int(label)
        if not -2**31 <= label < 2**31:
            raise DataError(tr("class label {label} does not fit LIBSVM's 32-bit integer "
                               "labels").format(label=label))
        out.append(label)
    return out


def _support_points(model: SVMModel, svc):
    """Training index, scaled vector and class index of every support vector of any machine."""
    index = np.unique(np.concatenate([m.support for m in model.machines]))
    d = model.n_features
    vectors = np.zeros((len(index), d))
    where = {int(s): r for r, s in enumerate(index)}
    owners = [set(range(len(model.classes))) for _ in index]
    for m in model.machines:
        for s, sv in zip(m.support.tolist(), m.support_vectors):
            r = where[s]
            vectors[r] = sv
            owners[r] &= {m.positive, m.negative}
    if svc is not None and hasattr(svc, "support_"):   # the true classes
        codes = np.repeat(np.arange(len(model.classes)), svc.n_support_)
        known = dict(zip(np.asarray(svc.support_).tolist(), codes.tolist()))
        classes = [known[int(s)] for s in index]
    else:
        classes = []
        for r, s in enumerate(index.tolist()):
            if not owners[r]:
                raise DataError(tr("support vector {vector} serves machines without a common "
                                   "class; the model is inconsistent").format(vector=s))
            classes.append(min(owners[r]))
        # a point in one machine only: its class is the side of its coefficient
        for m in model.machines:
            for s, value in zip(m.support.tolist(), m.dual_coef.tolist()):
                if len(owners[where[s]]) == 2:
                    classes[where[s]] = m.positive if value > 0 else m.negative
    return index, vectors, np.array(classes, dtype=np.intp)


def _check_exportable(model, index, vectors):
    """LIBSVM evaluates f from the multipliers alone: check that they rebuild svmdesk's w
    (exact up to rounding for the dual solvers; approximate for the primal ones). Kernel
    machines evaluate f from the multipliers in svmdesk too: nothing to check."""
    column = {int(s): c for c, s in enumerate(index)}
    radius = max([1.0] + np.sqrt((vectors ** 2).sum(axis=1)).tolist())
    for k, m in enumerate(model.machines):
        if m.w is None:
            continue
        cols = [column[s] for s in m.support.tolist()]
        rebuilt = m.dual_coef @ vectors[cols] if cols else np.zeros_like(m.w)
        error = float(np.linalg.norm(m.w - rebuilt)) * radius   # bounds |f - f_libsvm|
        if not error <= 1e-6:
            raise DataError(tr(
                "this model's multipliers are approximate: its solver works with w, and its "
                "support vectors' coefficients rebuild f only to {error} (machine {machine}); "
                "retrain with solver='smo' (or 'dual-gradient') to export it to LIBSVM").format(
                    error=f"{error:.2g}", machine=k))


def _range_file(scaler: Scaler) -> str:
    """svm-scale's range file whose mapping lower + (upper - lower)(x - min)/(max - min), with
    lower -1 and upper 1, is (x - mean)/scale: min = mean - scale, max = mean + scale."""
    lines = ["x", "-1 1"]
    for j, (mean, scale) in enumerate(zip(scaler.mean.tolist(), scaler.scale.tolist())):
        lo, hi = mean - scale, mean + scale
        if not (hi > lo and abs((hi - lo) / 2 - scale) <= 1e-9 * scale
                and abs((hi + lo) / 2 - mean) <= 1e-9 * scale):
            raise DataError(tr("feature {feature}'s standardisation (mean {mean}, scale {scale}) "
                               "cannot be written as an svm-scale range precisely: its spread "
                               "is tiny next to its mean; center the data before "
                               "training").format(feature=j + 1, mean=repr(mean),
                                                  scale=repr(scale)))
        lines.append(f"{j + 1} {lo!r} {hi!r}")
    return "\n".join(lines) + "\n"
