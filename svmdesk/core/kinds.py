"""The kinds of machine svmdesk trains, said once: LIBSVM's five `svm_type`s, each with the
task it serves, how the window names it, its parameter table and its estimator.

A kind's key (LIBSVM's name for it, as model files and sessions write it) is spelled here
alone: the rest of svmdesk holds a key as data (a model's, a job's) and asks this table
what it means (`KINDS[key].task`), or names a row (`ONE_CLASS.key`). A sixth kind is a row
here, its table in the catalog and its estimator; the window, the files and the command
line take it from the table.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ..i18n import N_
from . import catalog
from .catalog import Table

# what a point is to each task: a labelled class, a point of the one class (or an outlier
# mark), a sample (x, target)
CLASSIFICATION, NOVELTY, REGRESSION = "classification", "novelty", "regression"


@dataclass(frozen=True)
class Kind:
    key: str             # LIBSVM's name, as files write it
    svm_type: int        # LIBSVM's -s
    title: str           # how the window's Task box names it
    name: str            # its short name (captions, the readout)
    task: str            # CLASSIFICATION, NOVELTY or REGRESSION
    table: Table         # its parameters, in the order its estimator takes them
    estimator_at: str    # "module:class" of its estimator (which imports this module: the
                         # class is looked up when asked)

    @property
    def option(self) -> str:
        """Its name on the command line (`--type`): the key with hyphens."""
        return self.key.replace("_", "-")

    @property
    def estimator(self) -> Any:
        module, name = self.estimator_at.split(":")
        return getattr(importlib.import_module(module), name)

    @property
    def classifies(self) -> bool:
        return self.task == CLASSIFICATION

    @property
    def novelty(self) -> bool:
        return self.task == NOVELTY

    @property
    def regression(self) -> bool:
        return self.task == REGRESSION


C_SVC = Kind("c_svc", 0, N_("Classification (C-SVC)"), N_("C-SVC"), CLASSIFICATION,
             catalog.TABLE, "svmdesk.core.estimators.svc:SVC")
NU_SVC = Kind("nu_svc", 1, N_("Classification (ν-SVC)"), N_("ν-SVC"), CLASSIFICATION,
              catalog.NU_TABLE, "svmdesk.core.estimators.nu_svc:NuSVC")
ONE_CLASS = Kind("one_class", 2, N_("Novelty detection (one-class SVM)"),
                 N_("one-class SVM"), NOVELTY, catalog.ONE_CLASS_TABLE,
                 "svmdesk.core.estimators.one_class:OneClassSVM")
EPSILON_SVR = Kind("epsilon_svr", 3, N_("Regression (ε-SVR)"), N_("ε-SVR"), REGRESSION,
                   catalog.SVR_TABLE, "svmdesk.core.estimators.regression:SVR")
NU_SVR = Kind("nu_svr", 4, N_("Regression (ν-SVR)"), N_("ν-SVR"), REGRESSION,
              catalog.NU_SVR_TABLE, "svmdesk.core.estimators.regression:NuSVR")

# by key, in LIBSVM's order (-s 0 to 4). A dict that nothing changes but a test's patch (a
# fake table swapped in for a kind's duration)
KINDS: dict[str, Kind] = {k.key: k for k in (C_SVC, NU_SVC, ONE_CLASS, EPSILON_SVR, NU_SVR)}


def of_task(task: str) -> tuple[Kind, ...]:
    """The kinds that serve `task`, the first its default."""
    return tuple(k for k in KINDS.values() if k.task == task)


def by_option() -> dict[str, Kind]:
    """The kinds by their command-line names."""
    return {k.option: k for k in KINDS.values()}
