"""What a point is in each task the window trains, shared by the document, the files and
the canvas: in classification its class index; in novelty detection 0 for a point of the
one class, MARK for an outlier mark, which no model ever trains on."""
from __future__ import annotations

import numpy as np

TASKS = ("classification", "novelty")     # regression: with its canvas
MARK = 1
# The one-class SVM's labels of the novelty values 0 (+1, inlier) and MARK (-1, outlier)
NOVELTY_LABELS = np.array([1, -1])
