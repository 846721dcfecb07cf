"""SMO's two index sets, I_up (y_t a_t can still grow) and I_low (y_t a_t can still shrink),
as penalties added to F, and the bias where no multiplier is free; the solo solver
(solver.py) and lockstep (lockstep.py) read them alike."""
from __future__ import annotations

import math

import numpy as np


def membership(y: np.ndarray, a: np.ndarray, upper: np.ndarray) -> tuple:
    """Membership of I_up / I_low as penalties added to F before a max / min (0 in the set,
    -inf / +inf outside): y_t a_t can grow below the upper bound of a positive point and
    above 0 for a negative one, and shrink the other way round."""
    pos, above, below = y > 0, a > 0, a < upper
    return (np.where(np.where(pos, below, above), 0.0, -math.inf),
            np.where(np.where(pos, above, below), 0.0, math.inf))


def middle_of(top: float, bottom: float) -> float:
    """The bias where no multiplier is free: the middle of the feasible interval between
    max F over I_up and min F over I_low. Every multiplier of the points on one bound (the
    nu form: a class whose sum is all its bounds) leaves it open on one side: its one end."""
    finite = [end for end in (top, bottom) if math.isfinite(end)]
    return 0.5 * (finite[0] + finite[-1]) if finite else 0.0
