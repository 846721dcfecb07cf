"""How the window offers each training parameter: the range of its control, a log-scale
slider or a spin box, the value it starts at, its label, its check box and what it does to
the picture. The core's table (svmdesk.core.catalog) says what a parameter is; this says how
the side panel shows it. Qt-free: a table of facts the panel's rows (param_rows.py) are
built from.

A parameter the window should show has a row in OFFERS, by its name; a kind of machine that
offers the same name differently (a regressor's C has no hard margin; each kind's ν says
what it does there) or not at all (None) says so in KIND_OFFERS, by the kind's key. A
parameter without an offer is not shown.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...core import kinds
from ...i18n import N_


@dataclass(frozen=True)
class Control:
    """How the window offers a parameter: the range of its control, a log-scale slider (or a
    spin box stepping by `step`), the value it starts at (None: the default), its label, and
    `choice`, the words of a check box that picks the alternative (None, or the first word)
    of a number, or for an integer the words its spin box shows at `low`, standing for None.
    A "weights" parameter is a check box too: ticked, its first word; unticked, None.
    `setting` is the session setting that keeps whether the check box is ticked. `effect`
    says what the parameter does to the picture (the first line of the control's tooltip)."""

    low: float = 0.0
    high: float = 1.0
    log: bool = False
    step: float = 1.0
    start: float | None = None
    label: str = ""
    choice: str = ""
    setting: str = ""
    effect: str = ""


# by parameter name: how every kind that has the parameter offers it (unless KIND_OFFERS
# says otherwise). A dict that nothing changes but a test's patch (a fake parameter's row)
OFFERS: dict[str, Control] = {
    "solver": Control(label=N_("Solver"), effect=N_(
        "How the boundary is found: SMO is LIBSVM's algorithm; the gradient solvers "
        "are the textbook methods, step by step.")),
    "kernel": Control(label=N_("Kernel"), effect=N_(
        "The shape of the boundary: linear draws a straight line; rbf, poly and "
        "sigmoid let it bend.")),
    "C": Control(1e-3, 1e3, log=True, choice=N_("hard margin (C = ∞)"),
                 setting="hard_margin", effect=N_(
                     "Larger C: fewer margin violations, a narrower margin; smaller "
                     "C: a wider margin with more points inside it.")),
    "gamma": Control(1e-3, 1e3, log=True, start=1.0,
                     choice=N_("gamma = 'scale' (1 / (d · var X))"),
                     setting="gamma_scale", effect=N_(
                         "Larger gamma: a wigglier boundary that hugs the points; "
                         "smaller: a smoother one.")),
    "degree": Control(1, 10, effect=N_(
        "Higher degree: a boundary that can bend more times.")),
    "coef0": Control(-10.0, 10.0, step=0.1, effect=N_(
        "How much the low-order terms count: it changes the boundary's shape.")),
    "tol": Control(1e-6, 1e-1, log=True, label=N_("tol"), effect=N_(
        "Smaller tol: the run goes on longer and stops closer to the optimum.")),
    "max_iter": Control(0, 100_000_000, label=N_("max_iter"), choice=N_("default"), effect=N_(
        "Fewer iterations: the run stops sooner, perhaps before the boundary "
        "settles.")),
    "learning_rate": Control(1e-6, 10.0, log=True, start=0.01, label=N_("learning rate"),
                             choice=N_("automatic safe step"), setting="auto_rate", effect=N_(
                                 "Larger steps: the boundary moves faster, but may jump about "
                                 "or run away.")),
    "batch_size": Control(0, 10_000, label=N_("batch size"), choice=N_("default"), effect=N_(
        "More points per step: smoother, steadier moves of the boundary.")),
    "standardize": Control(label=N_("standardize features"), effect=N_(
        "Both axes on one scale: a feature in large units no longer decides the "
        "boundary alone.")),
    "random_state": Control(0, 1_000_000, start=0, label=N_("random state"), effect=N_(
        "The same seed draws the same points in the same order: a run repeats "
        "exactly.")),
    "probability": Control(label=N_("probabilities (Platt)"), effect=N_(
        "Each class's probability besides f, to shade the regions by: five more fits "
        "per machine make the run slower.")),
    "class_weight": Control(label=N_("balanced classes"), effect=N_(
        "Each class counts as much as the others: a class with few points gets a "
        "boundary that no longer gives up on it.")),
    "epsilon": Control(1e-3, 10.0, log=True, label="ε", effect=N_(
        "Wider ε: a wider tube, fewer support vectors and a smoother curve; points "
        "inside the tube cost nothing.")),
}

# nu on a log slider from 0.001 (almost no point may violate) to 1 (every point may)
_NU = Control(1e-3, 1.0, log=True, start=0.5, label="ν")
# a regressor's C: finite (a tube may not hold every point), so no hard-margin check box
_REGRESSION_C = dataclasses.replace(OFFERS["C"], choice="", setting="", effect=N_(
    "Larger C: the curve follows the points more closely, a wilder curve; smaller C: a "
    "smoother curve with more points outside the tube."))

# by kind key, then parameter name: where a kind offers a parameter otherwise (None: not at
# all)
KIND_OFFERS: dict[str, dict[str, Control | None]] = {
    kinds.NU_SVC.key: {
        "nu": dataclasses.replace(_NU, effect=N_(
            "Larger ν: more points may lie inside the margin, a wider margin with more "
            "support vectors; smaller ν: a narrower margin.")),
        # accepted and ignored (LIBSVM's nu solver weighs every class 1): not offered
        "class_weight": None},
    kinds.ONE_CLASS.key: {
        "nu": dataclasses.replace(_NU, effect=N_(
            "Larger ν: more training points left outside, a tighter region; smaller ν: "
            "a region that takes in nearly every point."))},
    kinds.EPSILON_SVR.key: {"C": _REGRESSION_C},
    kinds.NU_SVR.key: {
        "nu": dataclasses.replace(_NU, effect=N_(
            "Larger ν: more points may lie outside the tube, which narrows to let them; "
            "smaller ν: a wider tube.")),
        "C": _REGRESSION_C},
}


def offer(kind_key: str, name: str) -> Control | None:
    """How the window offers the parameter `name` of the kind `kind_key` (None: not at
    all)."""
    by_kind = KIND_OFFERS.get(kind_key, {})
    return by_kind[name] if name in by_kind else OFFERS.get(name)
