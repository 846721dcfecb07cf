"""The clause a solver's warning ends with when the features' scales are what slowed it:
features whose spreads differ many times, or values far from 1, and standardize=True as the
fix."""
from __future__ import annotations

import numpy as np

from ..i18n import tr

SPREAD_HINT = 100.0      # features whose scales differ this much slow the gradient solvers
SMO_SPREAD_HINT = 10.0   # and SMO (its pair steps follow the widest feature)
MAGNITUDE_HINT = 100.0   # ...as do values this much larger (or smaller) than 1 (root mean square)


def standardize_hint(X: np.ndarray, differ: float = SPREAD_HINT) -> str:
    """'' or a clause (in the language chosen) naming standardize=True when the features'
    scales (standard deviations) differ more than `differ` times, or when their values' root
    mean square is more than MAGNITUDE_HINT times from 1: scaling X by s acts on the fit as C
    times s^2 would, and a large C is what slows the solvers. `hinted` puts it after a
    warning."""
    spread = X.std(axis=0)
    spread = spread[spread > 0]
    if len(spread) >= 2 and spread.max() > differ * spread.min():
        return tr("the features' scales differ {ratio}-fold, which slows training: pass "
                  "standardize=True").format(ratio=f"{spread.max() / spread.min():.0f}")
    rms = float(np.sqrt(np.mean(np.square(X)))) if X.size else 1.0
    if rms > MAGNITUDE_HINT or 0.0 < rms < 1.0 / MAGNITUDE_HINT:
        return tr("the features' values are of order {rms}, far from 1, which acts as a C "
                  "{factor} times larger and slows a solver: pass standardize=True").format(
            rms=f"{rms:.1g}", factor=f"{rms * rms:.1g}")
    return ""


def hinted(warning: str, X: np.ndarray, differ: float = SPREAD_HINT) -> str:
    """`warning` (a whole clause, translated), followed by standardize_hint's clause if any."""
    hint = standardize_hint(X, differ)
    return tr("{warning}; {hint}").format(warning=warning, hint=hint) if hint else warning
