"""A training job (numpy only): the points a run trains on, the points it holds out, and
the unfitted estimator that trains. The window makes one for each run; the worker has it
trained and the drawing makes its frames of it, over a grid of the view that may move
during the run (the grid is not the job's)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .estimators import SVC, SVR, NuSVR, OneClassSVM


@dataclass(frozen=True)
class Job:
    """One run's training: its points, its held-out points, and what trains them."""

    X: np.ndarray            # training points (n, 2); a regression's: its feature (n, 1)
    y: np.ndarray            # their class indices (the canvas's classes); a regression's:
                             # their targets (float)
    estimator: SVC | OneClassSVM | SVR | NuSVR   # what trains, unfitted: its kind and its
                             # parameters (NuSVC is an SVC)
    X_test: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    y_test: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
    labels: np.ndarray | None = None  # the label of each class index, which the machine
                                         # trains on (None: the indices themselves)
    # What the machine learns (its kind): a class of points; novelty (then X is the one
    # class, y zeros, and y_test marks the held-out points of the class 0 and the outlier
    # marks 1); a regression (X_test (k, 1), y_test targets)
    @property
    def kind(self) -> str:
        """The key of its kind (kinds.KINDS)."""
        return self.estimator.kind

    @property
    def params(self) -> dict:
        """The estimator's parameters by name, as sessions and captions keep them."""
        return self.estimator.get_params()

    def training_labels(self) -> np.ndarray:
        return self.y if self.labels is None else np.asarray(self.labels)[self.y]

    def class_of(self, labels: ArrayLike) -> np.ndarray:
        """The class index of each label the machine speaks of."""
        if self.labels is None:
            return np.asarray(labels, dtype=np.intp)
        index = {label: k for k, label in enumerate(np.asarray(self.labels).tolist())}
        return np.array([index[label] for label in np.asarray(labels).tolist()],
                        dtype=np.intp)
