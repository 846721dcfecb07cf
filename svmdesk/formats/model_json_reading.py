"""Reading a JSON model file (model_json's format): the guarded read, the document's
format, version and top-level fields, and the fitted estimator built from them per kind (a
classifier's one-vs-one machines, a one-class machine or a regressor). Each field is checked
by model_json_fields; a damaged or foreign file raises DataError naming the file and the field.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.estimators import one_vs_one
from ..core.estimators.base import OneMachineEstimator, TableEstimator
from ..core.kinds import C_SVC, KINDS
from ..core.model import SVMModel
from ..i18n import tr
from .atomic import StrPath
from .checked_json import (
    MODEL_FILE,
    ROWS,
    VALUES_PER_CLASS,
    VALUES_PER_MACHINE,
    read_json,
)
from .checked_json import describe as _describe
from .model_json import FORMAT, TOP_KEYS, VERSION
from .model_json_fields import ModelFieldChecker

MAX_BYTES = 100 * 2**20     # checked before reading: a model file is never near this

_REQUIRED_SINCE = {"kind": 3}           # fields newer versions have: required from then,
_OPTIONAL_SINCE = {"probability": 2}    # or allowed from then


def load_model(path: StrPath) -> TableEstimator:
    """A fitted estimator from a JSON model file written by `save_model`. Raises DataError for a
    file that is not a valid svmdesk model (naming the file and the field)."""
    path = Path(path)
    return model_from_document(read_json(path, MODEL_FILE, MAX_BYTES), path.name)


def model_from_document(doc: object, name: str) -> TableEstimator:
    """A fitted estimator from a parsed model document; `name` (the file's) prefixes
    errors."""
    return _Loader(name).svc(doc)


class _Loader(ModelFieldChecker):
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
        self.obj(doc, "", [k for k in TOP_KEYS if k not in _OPTIONAL_SINCE
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
