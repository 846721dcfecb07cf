"""The checks of a JSON model document's fields, one method each (numpy only): the
parameters and class weights, the kernel, the classes and their dtype, the training summary,
the scaler, the machines and the support vectors. Each returns the field as the model holds
it, or fails naming the field (Checker.fail).
"""
from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..core import catalog
from ..core.estimators import one_vs_one
from ..core.kernels import KERNELS, Kernel
from ..core.model import BinaryMachine, Scaler
from ..i18n import tr
from .checked_json import (
    ROWS,
    VALUES_PER_CLASS,
    VALUES_PER_FEATURE,
    VALUES_PER_MACHINE,
    Checker,
)
from .checked_json import describe as _describe
from .model_json import MACHINE_KEYS

_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248]|U[0-9]{1,6}|O)$")
_NONFINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


class ModelFieldChecker(Checker):
    """Checks a model document's fields, each once the document holds it."""

    def params(self, v: Any, table: catalog.Table) -> dict:
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

    def param(self, param: catalog.Param, v: Any, where: str) -> Any:
        """`v` as the file holds it (2 stays an int), once it is of the row's JSON type."""
        if v == "inf" and param.none_value == math.inf:    # JSON has no infinity
            return math.inf
        if v is None and param.none or isinstance(v, str) and v in dict(param.words):
            return v
        if param.value_type == "choice":
            self.string(v, where, param.choices)
        elif param.value_type == "bool":
            self.boolean(v, where)
        elif param.value_type == "int":
            self.integer(v, where)
        elif param.value_type == "weights":
            return self.weights(v, where)
        else:
            self.real(v, where)
        return v

    def weights(self, v: Any, where: str) -> dict:
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

    def label(self, label: Any, where: str) -> None:
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
            if param.value_type != "weights" or not isinstance(weights, dict):
                continue
            known = classes.tolist()
            for k, label in enumerate(weights):
                if label not in known:
                    self.fail(f"params.{param.name}[{k}]", tr(
                        "{field} weighs {label}, which is not one of the model's classes "
                        "({classes})"), label=repr(label),
                        classes=tr(", ").join(repr(c) for c in known))

    def kernel(self, v: Any) -> Kernel:
        v = self.obj(v, "kernel", ("name", "gamma", "degree", "coef0"))
        return Kernel(self.string(v["name"], "kernel.name", KERNELS),
                      self.real(v["gamma"], "kernel.gamma", positive=True),
                      self.integer(v["degree"], "kernel.degree", lo=1, hi=10_000),
                      self.real(v["coef0"], "kernel.coef0"))

    def classes(self, v: Any, dtype: Any) -> np.ndarray:
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

    def training(self, v: Any, n_machines: int, solver: str, table: catalog.Table,
                 tube: bool = False) -> dict:
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

    def objective(self, v: Any, where: str) -> float:
        if isinstance(v, str):
            if v not in _NONFINITE:
                self.fail(where, tr("{field} must be a number, 'inf', '-inf' or 'nan'; got "
                                    "{value}"), value=_describe(v))
            return _NONFINITE[v]
        if type(v) not in (int, float):
            self.fail(where, tr("{field} must be a number; got {value}"), value=_describe(v))
        return float(v)

    def scaler(self, v: Any, d: int) -> Scaler | None:
        if v is None:
            return None
        v = self.obj(v, "scaler", ("mean", "scale"))
        return Scaler(self.reals(v["mean"], "scaler.mean", d, what=VALUES_PER_FEATURE),
                      self.reals(v["scale"], "scaler.scale", d, positive=True,
                                 what=VALUES_PER_FEATURE))

    def machines(self, v: Any, pairs: list, kernel: Kernel, d: int, n_samples: int) -> list:
        K = max(max(p) for p in pairs) + 1
        self.array(v, "machines")
        if len(v) != len(pairs):
            self.fail("machines", tr("{field} has {n} machine(s) but {classes} classes need "
                                     "{needed} (one per pair of classes)"),
                      n=len(v), classes=K, needed=len(pairs))
        out = []
        for k, (m, (pos, neg)) in enumerate(zip(v, pairs)):
            at = f"machines[{k}]"
            m = self.obj(m, at, MACHINE_KEYS)
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

    def support(self, v: Any, machines: list, K: int, d: int, scaler: Scaler | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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

    def same_vectors(self, machines: list, indices: np.ndarray, vectors: np.ndarray,
                     scaler: Scaler | None) -> None:
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
