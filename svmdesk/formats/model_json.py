"""Model files in svmdesk's own versioned JSON format: the format, and writing it.

The JSON model (`save_model`, `load_model`) holds data only - numbers, strings, lists - and is
read with `json`, never pickle or eval. Floats are written with Python's repr, which
round-trips exactly, so a loaded model predicts bit-identically to the saved one. Every
field is checked on load; a damaged or foreign file raises DataError naming the file and
the field.

Format, version 3 (one top-level key per line, arrays inline)::

    {"format": "svmdesk-model", "version": 3,
     "kind": what the model learnt, LIBSVM's svm_type: the key of its row in
             svmdesk.core.kinds (the estimator: SVC, NuSVC, OneClassSVM, SVR, NuSVR),
     "params": {...the estimator's get_params(), its kind's table; C: number, null (hard
                margin) or "inf";
                class_weight: null, "balanced" or [[label, weight], ...] (labels written
                as the "classes" entries are, so that -1, 1.0, true and "cat" keep their
                types; JSON object keys could only be strings)...},
     "kernel": {"name", "gamma", "degree", "coef0"},
     "classes": [labels: numbers or strings], "classes_dtype": numpy dtype, e.g. "<i8",
     "machines": [{"support": [training indices], "support_vectors": [[scaled x]],
                   "dual_coef": [...], "bias": b, "positive": i, "negative": j,
                   "w": [...] (linear kernel) or null}, ...],
     "probability": {"probA": [...], "probB": [...]} (one per machine: Platt's sigmoid
                    P(i | f) = 1 / (1 + exp(A f + B)) of machine (i, j), i < j, in LIBSVM's
                    orientation) or null,
     "scaler": {"mean": [...], "scale": [...]} or null,
     "support": {"indices": SVC.support_, "n_support": SVC.n_support_,
                 "vectors": SVC.support_vectors_ (input units)},
     "training": {"solver", "n_iter": [...], "objective": number or [...] (non-finite
                  values as "inf", "-inf", "nan"), "converged", "n_samples" (or null),
                  "n_features", optional "feature_min", "feature_max": the training data's
                  range per feature}}

A one-class model has classes [-1, 1] and one machine (positive 1, negative 0); a regressor
has classes [] and one machine (positive 0, negative 0), and its training summary the
tube's half-width "epsilon" (nu-SVR's, found). Version 2 had no "kind" (its models are
C-SVC's); version 1 no "probability" either (its models have none). Parameters added after version 1
appeared (max_time, class_weight, decision_function_shape, probability) may be missing: an
older file's model then has their defaults.

Machines follow SVMModel: one for two classes (f > 0 means classes[1]); K(K-1)/2 one-vs-one
machines (i, j), i < j, in sklearn's order for K classes (f > 0 votes for class i).

Reading it: model_json_reading.load_model (the document, per kind), whose field checks are
model_json_fields'. LIBSVM's own model format is written by libsvm_model.export_libsvm.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..core import catalog
from ..core.errors import DataError
from ..core.estimators.base import TableEstimator
from ..i18n import tr
from .atomic import StrPath, write_atomic

FORMAT = "svmdesk-model"
VERSION = 3     # 2: "probability" (probA, probB); 3: "kind". Older files still load.

TOP_KEYS = ("format", "version", "kind", "params", "kernel", "classes", "classes_dtype",
            "machines", "probability", "scaler", "support", "training")
MACHINE_KEYS = ("support", "support_vectors", "dual_coef", "bias", "positive", "negative", "w")


# ============================================================================ saving
def save_model(estimator: TableEstimator, path: StrPath) -> Path:
    """Write a fitted estimator (SVC, NuSVC, OneClassSVM, SVR, NuSVR) to `path` as a JSON
    model file, atomically. Returns the path."""
    path = Path(path)
    doc = model_document(estimator)
    try:
        lines = [f"  {json.dumps(k)}: {json.dumps(v, allow_nan=False)}"
                 for k, v in doc.items() if k != "machines"]
        machines = ",\n".join(f"    {json.dumps(m, allow_nan=False)}" for m in doc["machines"])
    except ValueError as e:   # NaN/inf in a fitted array: refuse rather than write bad JSON
        raise DataError(tr("cannot save this model: {error}").format(error=e)) from None
    lines.insert(TOP_KEYS.index("machines"), f'  "machines": [\n{machines}\n  ]')
    write_atomic(path, "{\n" + ",\n".join(lines) + "\n}\n")
    return path


def model_document(svc: TableEstimator) -> dict:
    """The JSON document (plain dicts, lists, numbers, strings) of a fitted estimator."""
    model = svc._fitted()
    params = _params_to_json(svc.get_params(), svc.table)
    scaler = model.scaler
    objective = svc.objective_
    objective = (_float_or_word(objective) if np.ndim(objective) == 0
                 else [_float_or_word(v) for v in np.asarray(objective).tolist()])
    n_samples = getattr(svc, "n_samples_fit_", None)
    ranges = {}
    if getattr(svc, "feature_min_", None) is not None:
        ranges = {"feature_min": np.asarray(svc.feature_min_, dtype=np.float64).tolist(),
                  "feature_max": np.asarray(svc.feature_max_, dtype=np.float64).tolist()}
    if model.is_regressor:
        ranges["epsilon"] = float(svc.epsilon_)
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": model.kind,
        "params": params,
        "kernel": {"name": model.kernel.name, "gamma": float(model.kernel.gamma),
                   "degree": int(model.kernel.degree), "coef0": float(model.kernel.coef0)},
        "classes": _labels_to_json(model.classes),
        "classes_dtype": model.classes.dtype.str,
        "machines": [{
            "support": m.support.tolist(),
            "support_vectors": m.support_vectors.tolist(),
            "dual_coef": m.dual_coef.tolist(),
            "bias": float(m.bias),
            "positive": int(m.positive),
            "negative": int(m.negative),
            "w": None if m.w is None else m.w.tolist(),
        } for m in model.machines],
        "probability": None if not model.has_probabilities else {
            "probA": np.asarray(model.prob_a).tolist(),
            "probB": np.asarray(model.prob_b).tolist()},
        "scaler": None if scaler is None else {"mean": scaler.mean.tolist(),
                                               "scale": scaler.scale.tolist()},
        "support": {"indices": np.asarray(svc.support_).tolist(),
                    "n_support": np.asarray(svc.n_support_).tolist(),
                    "vectors": np.asarray(svc.support_vectors_, dtype=np.float64).tolist()},
        "training": {
            "solver": params["solver"],
            "n_iter": [int(v) for v in np.atleast_1d(svc.n_iter_).tolist()],
            "objective": objective,
            "converged": bool(svc.converged_),
            "n_samples": None if n_samples is None else int(n_samples),
            "n_features": int(svc.n_features_in_),
            **ranges,
        },
    }


def _params_to_json(params: dict, table: catalog.Table) -> dict:
    """The parameters as JSON holds them: plain numbers, and 'inf' for an infinity (C's hard
    margin), once the catalog has found them valid."""
    out = {}
    try:
        table.check(params)
        for param in table.params:
            value = params[param.name]
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, float) and value == math.inf == param.none_value:
                value = "inf"
            if param.value_type == "weights" and isinstance(value, Mapping):
                value = _weights_to_json(value)
            out[param.name] = value
        json.dumps(out, allow_nan=False)
    except (ValueError, TypeError) as e:
        raise DataError(tr("cannot save this model: its parameters are not valid ({error}); "
                           "were they changed after fit?").format(error=e)) from None
    return out


def _float_or_word(v) -> object:
    v = float(v)
    if math.isfinite(v):
        return v
    return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")


def _labels_to_json(classes: np.ndarray) -> list:
    return [_label_to_json(label) for label in classes.tolist()]


def _label_to_json(label) -> object:
    if isinstance(label, np.generic):
        label = label.item()
    if not isinstance(label, (bool, int, float, str)) or (
            isinstance(label, float) and not math.isfinite(label)):
        raise DataError(tr("cannot save class label {label} ({type}): model files hold "
                           "numbers and text labels only").format(
                               label=repr(label), type=type(label).__name__))
    return label


def _weights_to_json(weights: Mapping) -> list:
    """{label: weight} as [[label, weight], ...]: a JSON object would turn -1, 1.0 and True
    into the strings "-1", "1.0" and "true". The weights stay as given (2 stays an int)."""
    return [[_label_to_json(label), weight.item() if isinstance(weight, np.generic) else weight]
            for label, weight in weights.items()]
