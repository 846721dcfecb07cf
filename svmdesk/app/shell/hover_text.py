"""What the status bar says of the place under the cursor: its coordinates and, once a model
is drawn, f(x) there, the class it predicts (or whether it lies inside the novelty region) and
each class's probability when the model has them."""
from __future__ import annotations

from ...drawing.frame_views import decision_at, probabilities_at
from ...i18n import tr
from ..document.point_set import PointSet


def hover_text(frame, points: PointSet, axis_names: tuple, x: float, y: float) -> str:
    """The line of (x, y) under `frame` (None: no model drawn yet)."""
    first, second = axis_names
    text = f"{first} = {x:.3f}   {second} = {y:.3f}"
    if frame is None:
        return text
    f, cls = decision_at(frame, (x, y))
    if f is not None:
        text += f"   f(x) = {f:+.3f}"
    if points.novelty:
        text += "   " + (tr("inside the region") if cls == 0
                         else tr("outside the region: an outlier"))
    elif not points.regression:          # a regression's f(x) is its prediction
        text += "   " + tr("predicted class: {name}").format(name=points.class_names[cls])
        text += _probabilities_text(frame, points.class_names, x, y)
    return text


def _probabilities_text(frame, names: list, x: float, y: float) -> str:
    """Each class's probability at (x, y), for a model with probabilities ('' else)."""
    probabilities = probabilities_at(frame, (x, y))
    if probabilities is None:
        return ""
    return "   " + " · ".join(
        tr("P({name}) {probability}").format(name=names[int(c)], probability=f"{p:.2f}")
        for c, p in zip(frame.scene.colours, probabilities))
