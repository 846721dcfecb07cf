"""SMO's watch on its own progress. On badly scaled data SMO (LIBSVM's too) can crawl for
minutes without getting anywhere, and the user should hear why instead of waiting; a run that
is getting somewhere, however long it takes, must never be cut short: a fit stopped early is
a worse model that a grid search would silently score low.

The watch samples the best maximal violation reached so far (the violation itself jumps
about; its running minimum only falls) and the best dual objective, against the time the solver
itself has spent (time suspended at a snapshot, such as a paused run, does not count). Once
PATIENCE seconds are spent it judges the second half of that time:
 * the best violation fell by less than STALL times and the dual objective rose by less
   than DUAL_STALL of itself: the run is not getting anywhere, and it stops (evidence,
   never a projection, stops a run). The dual counts: on 40,000 points at C = 100 the
   violation stands still for minutes while the dual climbs twentyfold, then falls to tol;
 * else it projects the time still needed to reach tol (a straight line in log violation,
   once it falls) and keeps it for the readout; the first time that is more than FAR times
   the time spent, or not yet known, it says so once, and the run goes on.
A user who wants a bound on the time sets the estimator's max_time (or max_iter).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ....i18n import tr
from ...errors import warn_convergence
from ...scale import SMO_SPREAD_HINT, standardize_hint

PATIENCE = 9.5       # seconds of solver time before the watch may speak
STALL = 2.0          # over the last half of the time, the best violation must fall this
DUAL_STALL = 0.01    # many times, or the dual objective rise by this fraction of itself
FAR = 4.0            # a projection beyond this many times the time spent is said, once
EVERY = 0.25         # seconds of solver time between samples


@dataclass(frozen=True)
class Verdict:
    """What the watch says: `stop` the run (why), or only tell the user (once)."""

    stop: bool
    message: str


@dataclass
class ProgressWatch:
    tol: float
    patience: float = field(default_factory=lambda: PATIENCE)   # read when made
    samples: list = field(default_factory=list)     # (seconds, best violation, best dual)
    best: float = math.inf
    best_dual: float = -math.inf   # the running dual dips where F is rebuilt: its maximum
    remaining: float | None = None   # seconds still needed at the recent rate (projected)
    said_slow: bool = False

    def due(self, seconds: float) -> bool:
        return not self.samples or seconds - self.samples[-1][0] >= EVERY

    def note(self, seconds: float, violation: float, dual: float) -> Verdict | None:
        """Record a sample; return what to do about it, or None to go on silently."""
        self.best = min(self.best, violation)
        self.best_dual = dual = max(self.best_dual, dual)
        self.samples.append((seconds, self.best, dual))
        if seconds < self.patience or self.best <= self.tol:
            return None
        window = seconds / 2
        if self.samples[0][0] > window:       # no sample from before the window: no evidence
            return None
        then_best, then_dual = self._at(window)
        fell = then_best / self.best if self.best > 0 else math.inf
        rose = (dual - then_dual) / max(abs(then_dual), 1e-300)
        if fell < STALL and rose < DUAL_STALL:
            return Verdict(True, self._stalled(window, then_best, dual <= then_dual))
        # getting somewhere: the violation falls, or the dual still climbs towards it
        self.remaining = (math.log(self.best / self.tol) / math.log(fell) * window
                          if fell >= STALL else None)
        if self.said_slow or (self.remaining is not None
                              and self.remaining <= FAR * seconds):
            return None
        self.said_slow = True
        pace = (tr("the dual objective still rises while the violation has yet to fall")
                if self.remaining is None else
                tr("still falling, about {seconds} s more at its recent rate").format(
                    seconds=f"{self.remaining:.0f}"))
        return Verdict(False, tr("after {seconds} s the maximal violation is {violation} "
                                 "(tol={tol}): {pace}").format(
            seconds=f"{seconds:.0f}", violation=f"{self.best:.3g}", tol=f"{self.tol:g}",
            pace=pace))

    def reason_to_stop(self, seconds: float, violation: float, dual: float, X: np.ndarray,
                       C: float) -> str | None:
        """note() in the user's words: why SMO on points X with this C should stop now, or
        None; a run that is slow but getting somewhere is said once, as a warning."""
        verdict = self.note(seconds, violation, dual)
        if verdict is None:
            return None
        # standardising helps only where the features' scales differ (the hint says so)
        hint = standardize_hint(X, SMO_SPREAD_HINT)
        advice = (tr("{hint}, or use a smaller C").format(hint=hint) if hint
                  else tr("use a smaller C"))
        if not verdict.stop:            # a run getting somewhere goes on: said once
            warn_convergence(tr("SMO is slow: {verdict}; it goes on (set max_time or max_iter "
                                "to bound it; {advice}, C={C})").format(
                verdict=verdict.message, advice=advice, C=f"{C:g}"), stacklevel=4)
            return None
        return tr("SMO stopped early, not getting anywhere: {verdict}; {advice} (C={C}); set "
                  "max_iter to let it run on").format(verdict=verdict.message, advice=advice,
                                                      C=f"{C:g}")

    def _stalled(self, window: float, then_best: float, dual_still: bool) -> str:
        if then_best <= self.best and dual_still:
            return tr("in the last {seconds} s neither the maximal violation ({violation}) "
                      "nor the dual objective improved").format(
                seconds=f"{window:.0f}", violation=f"{self.best:.3g}")
        return tr("in the last {seconds} s the maximal violation fell only from {then} to "
                  "{violation} (tol={tol}) and the dual objective rose less than {share}"
                  ).format(seconds=f"{window:.0f}", then=f"{then_best:.3g}",
                           violation=f"{self.best:.3g}", tol=f"{self.tol:g}",
                           share=f"{DUAL_STALL:.0%}")

    def _at(self, seconds: float) -> tuple[float, float]:
        """The best violation and the dual at the last sample no later than `seconds`."""
        earlier = [s for s in self.samples if s[0] <= seconds] or self.samples[:1]
        return earlier[-1][1], earlier[-1][2]
