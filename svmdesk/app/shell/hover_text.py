"""What the status bar says of the place under the cursor: its coordinates and, once a model
is drawn, f(x) there, the class it predicts (or whether it lies inside the novelty region) and
each class's probability when the model has them; and what f(x) is made of there: its
largest terms alpha_s y_s K(x_s, x) by training point, the rest and the bias, in a line,
in a tooltip, and as the points to ring."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...drawing.frame_parts import MARGIN_MET
from ...drawing.frame_views import decision_at, probabilities_at, terms_at
from ...drawing.point_parts import point_part
from ...i18n import N_, tr
from ..document.point_set import PointSet


@dataclass(frozen=True)
class HoverTerms:
    line: str              # for the status bar, after hover_text's
    tip: str               # the tooltip: a term a line
    where: np.ndarray      # the named points' places, (k, 2)


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


def hover_terms(frame, points: PointSet, x: float, y: float) -> HoverTerms | None:
    """What f is made of at (x, y) under `frame` (None: no model drawn)."""
    if frame is None:
        return None
    terms, where = terms_at(frame, (x, y))
    named = [(f"{t:+.3f}", int(k)) for t, k in zip(terms.terms, terms.points)]
    rest, bias = f"{terms.rest:+.3f}", f"{terms.bias:+.3f}"
    if named:
        line = tr("f = {terms} {rest} (rest) {bias} (b)").format(
            terms=" ".join(tr("{term} [{point}]").format(term=t, point=k) for t, k in named),
            rest=rest, bias=bias)
    else:                                     # a primal solver: no terms of points
        line = tr("f = {rest} (w · x) {bias} (b)").format(rest=rest, bias=bias)
    tip = [tr("f(x) = {f}, as the model adds it up:").format(f=f"{terms.f:+.4f}")]
    tip += [tr("{term}   point {point}: α y K(x_{point}, x)").format(term=t, point=k)
            for t, k in named]
    if named:
        tip.append(tr("{rest}   the other {count} terms").format(
            rest=rest, count=terms.count - len(named)))
    else:
        tip.append(tr("{rest}   w · x (this solver keeps w itself: no terms of points)")
                   .format(rest=rest))
    tip.append(tr("{bias}   the bias b").format(bias=bias))
    deciding = _deciding_words(frame, terms.machine, points)
    if deciding:
        line = tr("{machine}: {terms}").format(machine=deciding, terms=line)
        tip.insert(0, deciding)
    return HoverTerms(line, "\n".join(tip), where)


def _deciding_words(frame, machine: int, points: PointSet) -> str:
    """Which one-vs-one machine's terms these are ('' for one machine)."""
    model = frame.model
    if model is not None and len(model.machines) > 1:
        m, colours = model.machines[machine], frame.scene.colours
        return tr("the {first} vs {second} machine decided").format(
            first=points.class_names[int(colours[m.positive])],
            second=points.class_names[int(colours[m.negative])])
    count = frame.reading.machine.count
    if model is None and count > 1:
        return tr("the machine being trained ({index} of {count})").format(
            index=frame.reading.machine.index + 1, count=count)
    return ""


STATE_WORDS = {
    "beyond": N_("α = 0: beyond its margin, no part in f"),
    "free": N_("a free support vector: on its margin"),
    "bounded": N_("a bounded support vector (α = C): inside its margin"),
    "zero_inside": N_("α = 0 inside its margin: the KKT conditions are not met yet"),
    "free_off": N_("0 < α < C off its margin: the KKT conditions are not met yet"),
    "bounded_beyond": N_("α = C beyond its margin: the KKT conditions are not met yet")}


def point_words(frame, points: PointSet, index: int) -> str:
    """What the point `index` (of the window's points) does in f under `frame`: its
    alpha, its margin and its KKT state ('' with no model drawn)."""
    if frame is None or index < 0:
        return ""
    trained = ~points.test_mask
    if points.novelty:
        trained &= points.y == 0                  # the outlier marks are never trained on
    if not trained[index]:
        return tr("point {k}: held out, not trained on").format(k=index)
    k = int(np.count_nonzero(trained[:index]))            # its index among the trained
    xy = points.X[index]
    part = point_part(frame, k, xy, int(points.y[index]) == frame.scene.classes[1]
                      if len(frame.scene.classes) == 2 else False)
    if part.alpha is None:
        words = [tr("point {k}: no α (this solver keeps w or its own coefficients)")
                 .format(k=k)]
    elif part.alpha == 0.0:                  # its state says so: "α = 0: beyond ..."
        words = [tr("point {k}").format(k=k)]
    else:
        of = "α/C" if frame.scene.ring_basis == "bound" else tr("α/largest α")
        words = [tr("point {k}: α = {alpha} ({of} = {share})").format(
            k=k, alpha=f"{part.alpha:.4g}", of=of, share=f"{part.share:.2f}")]
    if part.margin is not None:
        name = "f(x)" if frame.scene.one_class else "y f(x)"
        words.append(f"{name} = {part.margin:+.3f}")
        if not frame.scene.one_class and part.margin < MARGIN_MET:  # its slack, any kernel's
            words.append(f"ξ = {1.0 - part.margin:.3f}")
    if part.state:
        words.append(tr(STATE_WORDS[part.state]))
    return " · ".join(words)
