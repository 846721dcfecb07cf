"""What a point is in each task the window trains, shared by the document, the files and
the canvas: in classification its class index; in novelty detection 0 for a point of the
one class, MARK for an outlier mark, which no model ever trains on; in regression a sample
(x, y): its place on the canvas is its feature x and its target y (its class index is kept
for a return to classification)."""
from __future__ import annotations

import numpy as np

TASKS = ("classification", "novelty", "regression")
MARK = 1
# The one-class SVM's labels of the novelty values 0 (+1, inlier) and MARK (-1, outlier)
NOVELTY_LABELS = np.array([1, -1])
