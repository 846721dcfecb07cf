"""The repair of models of older sessions, which were trained on class indices 0..K-1: the
same model with the class labels the session names, as a fit on those labels would give."""
from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import ArrayLike

from ..core.estimators import SVC
from ..core.estimators.labels import unique
from ..core.estimators.one_vs_one import machine_pairs
from ..core.model import SVMModel
from ..i18n import tr


def relabelled(svc: SVC, labels: ArrayLike) -> SVC:
    """A copy of the fitted `svc` whose class k is called labels[k] (distinct labels).

    classes_ are sorted again, as fit keeps them; the machines follow: each moves to the
    place of its pair of classes, and one whose classes swap sides has f negated. This
    repairs models of older sessions, which were trained on class indices: the result
    predicts, scores and exports exactly as a fit on the labels themselves."""
    model = svc._fitted()
    labels = np.asarray(labels)
    K = len(model.classes)
    if labels.shape != (K,) or len(unique(labels)) != K:
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
