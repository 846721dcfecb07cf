"""Model files in svmdesk's own versioned JSON format.

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

LIBSVM's own model format is written by libsvm_model.export_libsvm.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..core import catalog
from ..core.errors import DataError
from ..core.estimators import one_vs_one
from ..core.estimators.base import OneMachineEstimator, TableEstimator
from ..core.kernels import KERNELS, Kernel
from ..core.kinds import C_SVC, KINDS
from ..core.model import BinaryMachine, Scaler, SVMModel
from ..i18n import tr
from .atomic import StrPath, write_atomic
from .checked_json import (
    MODEL_FILE,
    ROWS,
    VALUES_PER_CLASS,
    VALUES_PER_FEATURE,
    VALUES_PER_MACHINE,
    Checker,
    read_json,
)
from .checked_json import describe as _describe

FORMAT = "svmdesk-model"
VERSION = 3     # 2: "probability" (probA, probB); 3: "kind". Older files still load.
MAX_BYTES = 100 * 2**20     # checked before reading: a model file is never near this

_TOP_KEYS = ("format", "version", "kind", "params", "kernel", "classes", "classes_dtype",
             "machines", "probability", "scaler", "support", "training")
_REQUIRED_SINCE = {"kind": 3}           # fields newer versions have: required from then,
_OPTIONAL_SINCE = {"probability": 2}    # or allowed from then
_MACHINE_KEYS = ("support", "support_vectors", "dual_coef", "bias", "positive", "negative", "w")
_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248]|U[0-9]{1,6}|O)$")
_NONFINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


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
    lines.insert(_TOP_KEYS.index("machines"), f'  "machines": [\n{machines}\n  ]')
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
            if param.kind == "weights" and isinstance(value, Mapping):
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


# ============================================================================ loading
def load_model(path: StrPath) -> TableEstimator:
    """A fitted estimator from a JSON model file written by `save_model`. Raises DataError for a
    file that is not a valid svmdesk model (naming the file and the field)."""
    path = Path(path)
    return model_from_document(read_json(path, MODEL_FILE, MAX_BYTES), path.name)


def model_from_document(doc: object, name: str) -> TableEstimator:
    """A fitted estimator from a parsed model document; `name` (the file's) prefixes
    errors."""
    return _Loader(name).svc(doc)


class _Loader(Checker):
    """Checks a parsed model document field by field and builds the SVC."""

    # -- the document -------------------------------------------------------------------------
    def svc(self, doc):
        if not isinstance(doc, dict) or "format" not in doc:
            if isinstance(doc, dict):
                self.fail("", tr('{field} is not a svmdesk model file (no "format" field)'))
            self.fail("", tr("{field} is not a svmdesk model file (the JSON is {value}, not an "
                             "object)"), value=_describe(doc))
        if doc["format"] != FORMAT:
            self.fail("format", tr("{field} is {value}, not {format}: this is not a svmdesk "
                                   "model file"), value=_describe(doc["format"]),
                      format=repr(FORMAT))
        if "version" not in doc:
            self.fail("version", tr("{field} is missing"))
        version = self.integer(doc["version"], "version")
        if version > VERSION:
            self.fail("version", tr("{field} is {version}: the file was made by a newer svmdesk "
                                    "(this one reads version {supported}); update svmdesk to "
                                    "open it"), version=version, supported=VERSION)
        if version < 1:
            self.fail("version", tr("{field} is {version}; format versions start at 1"),
                      version=version)
        self.obj(doc, "", [k for k in _TOP_KEYS if k not in _OPTIONAL_SINCE
                            and _REQUIRED_SINCE.get(k, 1) <= version],
                 optional=[k for k, since in _OPTIONAL_SINCE.items() if since <= version])
        kind = self.string(doc["kind"], "kind", tuple(KINDS)) if version >= 3 else C_SVC.key
        estimator = KINDS[kind].estimator
        params = self.params(doc["params"], estimator.table)
        kernel = self.kernel(doc["kernel"])
        if issubclass(estimator, OneMachineEstimator):
            return self.one_machine(doc, estimator, kind, params, kernel)
        classes = self.classes(doc["classes"], doc["classes_dtype"])
        self.weighted_classes(params, classes, estimator.table)
        n_classes = len(classes)
        pairs = one_vs_one.machine_pairs(n_classes)
        training = self.training(doc["training"], len(pairs), params["solver"],
                                 estimator.table)
        d = training["n_features"]
        scaler = self.scaler(doc["scaler"], d)
        machines = self.machines(doc["machines"], pairs, kernel, d, training["n_samples"])
        support, n_support, vectors, codes = self.support(doc["support"], machines, n_classes,
                                                          d, scaler)

        prob_a, prob_b = self.probability(doc.get("probability"), len(pairs))
        return estimator.from_model(
            SVMModel(kernel, classes, tuple(machines), scaler, kind=kind, prob_a=prob_a,
                     prob_b=prob_b), codes, support, vectors,
            n_iter=training["n_iter"],
            objective=(training["objective"] if len(pairs) == 1
                       else np.array(training["objective"])),
            converged=training["converged"], n_features=d, n_samples=training["n_samples"],
            feature_min=training.get("feature_min"), feature_max=training.get("feature_max"),
            **params)

    def one_machine(self, doc, estimator, kind, params, kernel) -> OneMachineEstimator:
        """A one-class SVM or a regressor: one machine, classes [-1, 1] (outlier, inlier)
        or none, and no probabilities."""
        one_class = KINDS[kind].novelty
        if one_class:
            classes = self.classes(doc["classes"], doc["classes_dtype"])
            if classes.tolist() != [-1, 1]:
                self.fail("classes", tr("{field} must be [-1, 1] (outlier, inlier) for a "
                                        "one-class model; got {value}"),
                          value=_describe(doc["classes"]))
        elif doc["classes"] != []:
            self.fail("classes", tr("{field} must be empty for a regressor; got {value}"),
                      value=_describe(doc["classes"]))
        else:
            classes = np.empty(0)
        if doc.get("probability") is not None:
            self.fail("probability", tr("{field} must be null: a {kind} model has no "
                                        "probabilities"), kind=kind)
        training = self.training(doc["training"], 1, params["solver"], estimator.table,
                                 tube=not one_class)
        d = training["n_features"]
        scaler = self.scaler(doc["scaler"], d)
        machine, = self.machines(doc["machines"], [(1, 0) if one_class else (0, 0)], kernel, d,
                                 training["n_samples"])
        vectors = self.one_support(doc["support"], machine, d, scaler)
        extras = {} if one_class else {"epsilon_": training["epsilon"]}
        return estimator.from_model(
            SVMModel(kernel, classes, (machine,), scaler, kind=kind), vectors,
            n_iter=training["n_iter"][0], objective=training["objective"],
            converged=training["converged"], n_features=d, **extras, **params)

    def one_support(self, v, machine, d, scaler) -> np.ndarray:
        """support.vectors (input units) of a one-machine model: its machine's support, in
        its order, n_support the count."""
        v = self.obj(v, "support", ("indices", "n_support", "vectors"))
        indices = self.indices(v["indices"], "support.indices")
        if not np.array_equal(indices, machine.support):
            self.fail("support.indices", tr("{field} must list the machine's support vectors, "
                                            "in its order"))
        n_support = self.indices(v["n_support"], "support.n_support", 1, VALUES_PER_CLASS)
        if n_support[0] != len(indices):
            self.fail("support.n_support", tr("{field} adds up to {total} but support.indices "
                                              "has {n}"), total=n_support[0], n=len(indices))
        vectors = self.matrix(v["vectors"], "support.vectors", len(indices), d, ROWS)
        self.same_vectors([machine], indices, vectors, scaler)
        return vectors

    def probability(self, v, n_machines: int) -> tuple:
        """(probA, probB), one finite number per machine each, or (None, None)."""
        if v is None:
            return None, None
        v = self.obj(v, "probability", ("probA", "probB"))
        return tuple(self.reals(v[key], f"probability.{key}", n_machines,
                                what=VALUES_PER_MACHINE) for key in ("probA", "probB"))

    def params(self, v, table: catalog.Table) -> dict:
        """The estimator's parameters, each of the JSON type its row in the catalog says;
        then their ranges and their pairing, as the estimator checks them."""
        required = [p.name for p in table.params if p.in_old_files]
        p = dict(self.obj(v, "params", required, optional=table.names))
        for param in table.params:
            if param.name in p:
                p[param.name] = self.param(param, p[param.name], f"params.{param.name}")
            else:            # a file written before the parameter existed: the default
                p[param.name] = param.default
        try:
            table.check(p)
        except ValueError as e:
            self.fail("params", tr("{field} are not valid: {error}"), error=e)
        return p

    def param(self, param, v, where: str):
        """`v` as the file holds it (2 stays an int), once it is of the row's JSON type."""
        if v == "inf" and param.none_value == math.inf:    # JSON has no infinity
            return math.inf
        if v is None and param.none or isinstance(v, str) and v in dict(param.words):
            return v
        if param.kind == "choice":
            self.string(v, where, param.choices)
        elif param.kind == "bool":
            self.boolean(v, where)
        elif param.kind == "int":
            self.integer(v, where)
        elif param.kind == "weights":
            return self.weights(v, where)
        else:
            self.real(v, where)
        return v

    def weights(self, v, where: str) -> dict:
        """{label: weight} from [[label, weight], ...], each label a number or a string and
        each weight a number >= 0, no label twice (the catalog checks the weights again)."""
        if not isinstance(v, list):
            self.fail(where, tr("{field} must be null, 'balanced' or a list of [label, weight] "
                                "pairs; got {value}"), value=_describe(v))
        out: dict = {}
        for k, pair in enumerate(v):
            at = f"{where}[{k}]"
            if not isinstance(pair, list) or len(pair) != 2:
                self.fail(at, tr("{field} must be a pair [label, weight]; got {value}"),
                          value=_describe(pair))
            label, weight = pair
            self.label(label, f"{at}[0]")
            if self.real(weight, f"{at}[1]") < 0:
                self.fail(f"{at}[1]", tr("{field} must be a weight >= 0; got {value}"),
                          value=repr(weight))
            if label in out:
                self.fail(at, tr("{field} weighs class {label} a second time"),
                          label=repr(label))
            out[label] = weight
        return out

    def label(self, label, where: str) -> None:
        if not isinstance(label, (bool, int, float, str)):
            self.fail(where, tr("{field} must be a number or a string; got {value}"),
                      value=_describe(label))
        if isinstance(label, float) and not math.isfinite(label):
            self.fail(where, tr("{field} must be finite; got {value}"), value=repr(label))

    def weighted_classes(self, params: dict, classes: np.ndarray, table: catalog.Table
                         ) -> None:
        """Every label a class weight names is a class of the model, as fit required."""
        for param in table.params:
            weights = params[param.name]
            if param.kind != "weights" or not isinstance(weights, dict):
                continue
            known = classes.tolist()
            for k, label in enumerate(weights):
                if label not in known:
                    self.fail(f"params.{param.name}[{k}]", tr(
                        "{field} weighs {label}, which is not one of the model's classes "
                        "({classes})"), label=repr(label),
                        classes=tr(", ").join(repr(c) for c in known))

    def kernel(self, v) -> Kernel:
        v = self.obj(v, "kernel", ("name", "gamma", "degree", "coef0"))
        return Kernel(self.string(v["name"], "kernel.name", KERNELS),
                      self.real(v["gamma"], "kernel.gamma", positive=True),
                      self.integer(v["degree"], "kernel.degree", lo=1, hi=10_000),
                      self.real(v["coef0"], "kernel.coef0"))

    def classes(self, v, dtype) -> np.ndarray:
        labels = self.array(v, "classes")
        if len(labels) < 2:
            self.fail("classes", tr("{field} has {n} label(s); a model needs at least two"),
                      n=len(labels))
        for k, label in enumerate(labels):
            self.label(label, f"classes[{k}]")
        if type(dtype) is not str or not _DTYPE.match(dtype):
            self.fail("classes_dtype", tr("{field} must be a numpy dtype of numbers, text or "
                                          "objects (like '<i8' or '<U5'); got {value}"),
                      value=_describe(dtype))
        dtype = np.dtype(dtype)
        kinds = {"b": (bool,), "i": (int,), "u": (int,), "f": (int, float), "U": (str,),
                 "O": (bool, int, float, str)}[dtype.kind]
        for k, label in enumerate(labels):
            if not isinstance(label, kinds) or (dtype.kind != "b" and dtype.kind != "O"
                                                and isinstance(label, bool)):
                self.fail(f"classes[{k}]", tr("{field} is {value}, which does not fit "
                                              "classes_dtype {dtype}"),
                          value=_describe(label), dtype=repr(dtype.str))
        try:
            with np.errstate(all="raise"):
                classes = np.array(labels, dtype=dtype)
        except (OverflowError, ValueError, TypeError, FloatingPointError):
            self.fail("classes", tr("{field} do not fit classes_dtype {dtype}"),
                      dtype=repr(dtype.str))
        if classes.shape != (len(labels),) or [
                _same(a, b) for a, b in zip(classes.tolist(), labels)].count(False):
            self.fail("classes", tr("{field} do not fit classes_dtype {dtype} (values would "
                                    "change)"), dtype=repr(dtype.str))
        if len(set(labels)) != len(labels):
            self.fail("classes", tr("{field} has a label twice; every class must be distinct"))
        try:
            in_order = labels == sorted(labels)
        except TypeError:
            in_order = True   # labels that cannot be sorted keep their order of appearance
        if not in_order:
            self.fail("classes", tr("{field} must be in sorted order (as SVC keeps them)"))
        return classes

    def training(self, v, n_machines, solver, table: catalog.Table, tube: bool = False
                 ) -> dict:
        """The training summary; a regressor's (`tube`) has the tube's half-width too."""
        v = dict(self.obj(v, "training", ("solver", "n_iter", "objective", "converged",
                                          "n_samples", "n_features") + (("epsilon",) * tube),
                          optional=("feature_min", "feature_max")))
        if tube and self.real(v["epsilon"], "training.epsilon") < 0:
            self.fail("training.epsilon", tr("{field} must be >= 0; got {value}"),
                      value=repr(v["epsilon"]))
        self.string(v["solver"], "training.solver", tuple(table.solvers))
        if v["solver"] != solver:
            self.fail("training.solver", tr("{field} is {value} but params.solver is {solver}"),
                      value=repr(v["solver"]), solver=repr(solver))
        n_iter = self.array(v["n_iter"], "training.n_iter", n_machines, VALUES_PER_MACHINE)
        for k, it in enumerate(n_iter):
            self.integer(it, f"training.n_iter[{k}]", lo=0)
        if n_machines == 1:
            v["objective"] = self.objective(v["objective"], "training.objective")
        else:
            values = self.array(v["objective"], "training.objective", n_machines,
                                VALUES_PER_MACHINE)
            v["objective"] = [self.objective(x, f"training.objective[{k}]")
                              for k, x in enumerate(values)]
        self.boolean(v["converged"], "training.converged")
        if v["n_samples"] is not None:
            self.integer(v["n_samples"], "training.n_samples", lo=2)
        d = self.integer(v["n_features"], "training.n_features", lo=1, hi=10**8)
        if ("feature_min" in v) != ("feature_max" in v):
            self.fail("training", tr("{field} must have both feature_min and feature_max, or "
                                     "neither"))
        if "feature_min" in v:
            low = self.reals(v["feature_min"], "training.feature_min", d,
                             what=VALUES_PER_FEATURE)
            high = self.reals(v["feature_max"], "training.feature_max", d,
                              what=VALUES_PER_FEATURE)
            if (low > high).any():
                self.fail("training.feature_min", tr("{field} must not exceed feature_max"))
            v["feature_min"], v["feature_max"] = low, high
        return v

    def objective(self, v, where) -> float:
        if isinstance(v, str):
            if v not in _NONFINITE:
                self.fail(where, tr("{field} must be a number, 'inf', '-inf' or 'nan'; got "
                                    "{value}"), value=_describe(v))
            return _NONFINITE[v]
        if type(v) not in (int, float):
            self.fail(where, tr("{field} must be a number; got {value}"), value=_describe(v))
        return float(v)

    def scaler(self, v, d):
        if v is None:
            return None
        v = self.obj(v, "scaler", ("mean", "scale"))
        return Scaler(self.reals(v["mean"], "scaler.mean", d, what=VALUES_PER_FEATURE),
                      self.reals(v["scale"], "scaler.scale", d, positive=True,
                                 what=VALUES_PER_FEATURE))

    def machines(self, v, pairs, kernel, d, n_samples) -> list:
        K = max(max(p) for p in pairs) + 1
        self.array(v, "machines")
        if len(v) != len(pairs):
            self.fail("machines", tr("{field} has {n} machine(s) but {classes} classes need "
                                     "{needed} (one per pair of classes)"),
                      n=len(v), classes=K, needed=len(pairs))
        out = []
        for k, (m, (pos, neg)) in enumerate(zip(v, pairs)):
            at = f"machines[{k}]"
            m = self.obj(m, at, _MACHINE_KEYS)
            p = self.integer(m["positive"], f"{at}.positive", lo=0, hi=K - 1)
            n = self.integer(m["negative"], f"{at}.negative", lo=0, hi=K - 1)
            if (p, n) != (pos, neg):
                self.fail(at, tr("{field} pairs classes (positive {p}, negative {n}); with "
                                 "{classes} classes machine {k} must pair (positive {pos}, "
                                 "negative {neg})"),
                          p=p, n=n, classes=K, k=k, pos=pos, neg=neg)
            support = self.indices(m["support"], f"{at}.support")
            if len(np.unique(support)) != len(support):
                self.fail(f"{at}.support", tr("{field} lists a training point twice"))
            if n_samples is not None and len(support) and support.max() >= n_samples:
                self.fail(f"{at}.support", tr("{field} refers to training point {point} but "
                                              "training.n_samples is {n}"),
                          point=support.max(), n=n_samples)
            ns = len(support)
            sv = self.matrix(m["support_vectors"], f"{at}.support_vectors", None, d, ROWS)
            if len(sv) != ns:
                self.fail(f"{at}.support_vectors", tr("{field} has {rows} rows but {n} support "
                                                      "indices"), rows=len(sv), n=ns)
            listed = self.array(m["dual_coef"], f"{at}.dual_coef")
            if len(listed) != ns:
                self.fail(f"{at}.dual_coef", tr("{field} has {n} values but {vectors} support "
                                                "vectors"), n=len(listed), vectors=ns)
            coef = self.reals(listed, f"{at}.dual_coef")
            bias = self.real(m["bias"], f"{at}.bias")
            w = m["w"]
            if kernel.name == "linear":
                if w is None:
                    self.fail(f"{at}.w", tr("{field} is null but a linear model needs its "
                                            "weights"))
                w = self.reals(w, f"{at}.w", d, what=VALUES_PER_FEATURE)
            elif w is not None:
                self.fail(f"{at}.w", tr("{field} must be null for kernel {kernel} (weights exist "
                                        "for the linear kernel only)"), kernel=repr(kernel.name))
            out.append(BinaryMachine(support, sv, coef, bias, p, n, w))
        return out

    def support(self, v, machines, K, d, scaler):
        v = self.obj(v, "support", ("indices", "n_support", "vectors"))
        indices = self.indices(v["indices"], "support.indices")
        n_support = self.indices(v["n_support"], "support.n_support", K, VALUES_PER_CLASS)
        if n_support.sum() != len(indices):
            self.fail("support.n_support", tr("{field} adds up to {total} but support.indices "
                                              "has {n}"), total=n_support.sum(), n=len(indices))
        used = np.unique(np.concatenate([m.support for m in machines]))
        if len(np.unique(indices)) != len(indices) or not np.array_equal(np.sort(indices), used):
            self.fail("support.indices", tr("{field} lists {n} points but the machines use "
                                            "{used} distinct ones; they must be the same"),
                      n=len(indices), used=len(used))
        codes = np.full(int(used.max()) + 1 if len(used) else 0, -1, dtype=np.intp)
        codes[indices] = np.repeat(np.arange(K), n_support)
        for k, m in enumerate(machines):
            own = codes[m.support]
            wrong = np.flatnonzero((own != m.positive) & (own != m.negative))
            if len(wrong):
                r = int(wrong[0])
                self.fail(f"machines[{k}].support[{r}]",
                          tr("{field} is training point {point} of class {cls} (by "
                             "support.n_support), not one of the machine's classes {positive} "
                             "and {negative}"),
                          point=m.support[r], cls=own[r], positive=m.positive,
                          negative=m.negative)
        expected, _ = one_vs_one.libsvm_layout(machines, K, codes)
        if not np.array_equal(expected, indices):
            self.fail("support.indices", tr("{field} must be grouped by class, ascending within "
                                            "a class"))
        vectors = self.matrix(v["vectors"], "support.vectors", len(indices), d, ROWS)
        self.same_vectors(machines, indices, vectors, scaler)
        return indices, n_support, vectors, codes

    def same_vectors(self, machines, indices, vectors, scaler) -> None:
        """Each machine's (scaled) support vectors are support.vectors' rows, scaled."""
        row = {int(s): r for r, s in enumerate(indices)}
        for k, m in enumerate(machines):
            if not len(m.support):
                continue
            raw = vectors[[row[int(s)] for s in m.support]]
            scaled = raw if scaler is None else scaler.transform(raw)
            close = np.isclose(scaled, m.support_vectors, rtol=1e-9, atol=1e-12).all(axis=1)
            if not close.all():
                r = int(np.flatnonzero(~close)[0])
                self.fail(f"machines[{k}].support_vectors[{r}]",
                          tr("{field} does not match support.vectors for training point "
                             "{point}") if scaler is None else
                          tr("{field} does not match support.vectors for training point {point} "
                             "(after the scaler)"), point=m.support[r])


def _same(a, b) -> bool:
    return a == b and type(a) is type(b) or (isinstance(a, float) and isinstance(b, int)
                                              and not isinstance(b, bool) and a == b)
