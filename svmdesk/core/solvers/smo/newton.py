"""The Newton step's linear algebra: an active-set solve of the dual over the free
multipliers (`_box_qp`), on the inverse of the working KKT matrix, updated and downdated
as points enter and leave the working set."""
from __future__ import annotations

import numpy as np

NEWTON_ROUNDS = 50          # active-set rounds within one Newton step
NEWTON_RIDGE = 1e-10        # relative to max Q_ii: keeps the Newton system regular
# A Newton step over 400 free multipliers (one 401 x 401 inverse) takes about as long as
# 1,000 pair steps over 1,000 active points (2,000 over a few): the solve grows with the
# cube of the free multipliers, a pair step about linearly with the active points.
# Measured on moons (800 points, gamma 0.05 to 100, C 6 to 1,000), iris, wine, breast
# cancer and digits: half the time where K is nearly the identity, nothing lost elsewhere.
NEWTON_PAIR_STEPS = 1000


def newton_pays(free: int, active: int, steps_since: int) -> bool:
    """Whether a Newton step over `free` multipliers may be taken `steps_since` pair steps
    after the last one, among `active` points: only once the pair steps since have taken
    about as long as the solve would, so the solves never cost more than the pair steps.
    Where K is nearly the identity (a large gamma) half the points are free and SMO
    converges in a few thousand steps without them: there an unchecked solve every ten
    steps doubled the fit; where SMO circles for thousands of steps (a large C), the solves
    come as often as before."""
    return steps_since * (1000 + active) >= NEWTON_PAIR_STEPS * 2000 * (free / 400) ** 3


def _box_qp(Q, y, g, a, C, tol):
    """Minimise 1/2 a'Qa + p'a (gradient g at a: p enters through it alone) over these
    multipliers with 0 <= a_i <= C_i (C: one bound for all, or one each) and y'a held,
    starting from a: a primal active-set method. Each round takes the Newton
    step on the working set (every point to begin with), cut at the first bound it meets,
    where that point leaves the working set; at the working set's optimum, the bounded
    point whose multiplier most wants to move re-enters. The inverse of the working KKT
    matrix is downdated in place when a point leaves (its row and column become zero), so
    a round costs O(k^2). Returns (new a, True when optimal to within tol)."""
    k = len(a)
    a, g = a.copy(), g.copy()
    C = np.broadcast_to(np.asarray(C, dtype=np.float64), a.shape)
    working = np.ones(k, dtype=bool)
    # The directions come from Q plus a tiny ridge: duplicate points make Q singular
    # (their gradients are equal, so the ridge moves nothing along that direction); the
    # step lengths and the gradient use Q itself.
    ridged = Q + NEWTON_RIDGE * max(float(np.diag(Q).max()), 1e-300) * np.eye(k)
    inverse = _kkt_inverse(ridged, y, working)
    rhs = np.zeros(k + 1)
    for _ in range(NEWTON_ROUNDS):
        if working.any():
            if inverse is None:
                return a, False
            np.negative(g, out=rhs[:k])
            solution = inverse @ rhs
            d, nu = solution[:k], solution[k]
            yw = y * working
            d -= yw * ((yw @ d) / working.sum())     # y'd = 0 exactly (off the working set d is 0)
            Qd = Q @ d
            slope, curv = g @ d, d @ Qd
            if slope < 0 and curv > 0:
                limit = np.where(d > 0, C - a, -a)
                room = np.full(k, np.inf)
                np.divide(limit, d, out=room, where=d != 0)
                t = min(-slope / curv, float(room.min()))
                blocked = np.flatnonzero(room <= t)
                a += t * d
                a[blocked] = np.where(d[blocked] > 0, C[blocked], 0.0)   # exactly on the bound
                g += t * Qd
                if len(blocked):
                    for r in blocked:
                        working[r] = False
                        if working.any():        # the last one leaves no KKT matrix to downdate
                            inverse = _downdate(inverse, r)
                            if inverse is None:
                                return a, False
                    continue
            # no descent left on the working set: if its points are optimal (one multiplier nu
            # with g + nu y = 0 there), free the bounded point that most wants to move
            if np.abs(g[working] + nu * y[working]).max() > tol:
                return a, False                      # a numerically failed solve
        else:
            # every point reached a bound at once (ties, or a start on the bounds)
            nu = _bounded_multiplier(g, y, a)
            if nu is None:
                return a, True
        pull = np.where(working, 0.0, (g + nu * y) * np.where(a > 0, 1.0, -1.0))
        worst = int(pull.argmax())
        if pull[worst] <= tol:
            return a, True
        working[worst] = True
        inverse = (_update(inverse, ridged, y, worst) if working.sum() > 1
                   else _kkt_inverse(ridged, y, working))
    return a, False


def _bounded_multiplier(g, y, a):
    """The multiplier nu that makes the bounded points least eager to move, when every point
    is on a bound: point i wants to move by pull_i(nu) = s_i (g_i + nu y_i) (s_i = +1 at C,
    -1 at 0), lines of slope +-1 in nu, so the largest pull is smallest where the largest of
    each slope meet. None when one slope is missing: then some nu stops every point."""
    s = np.where(a > 0, 1.0, -1.0)
    c, slope = s * g, s * y
    if (slope > 0).all() or (slope < 0).all():
        return None
    return float(c[slope < 0].max() - c[slope > 0].max()) / 2


def _kkt_inverse(Q, y, working):
    """Inverse of the KKT matrix [[Q_ww, y_w], [y_w', 0]] of the working points, laid out
    over all points plus the multiplier (zero rows and columns off the working set); None
    when it is singular."""
    k = len(y)
    every = bool(working.all())         # a Newton step's first solve: no gather, no scatter
    w = np.append(np.flatnonzero(working), k)
    kkt = np.zeros((len(w), len(w)))
    kkt[:-1, :-1] = Q if every else Q[np.ix_(w[:-1], w[:-1])]
    kkt[:-1, -1] = kkt[-1, :-1] = y[w[:-1]]
    try:
        small = np.linalg.inv(kkt)
    except np.linalg.LinAlgError:                    # singular (e.g. duplicate points)
        return None
    if every:
        return small
    inverse = np.zeros((k + 1, k + 1))
    inverse[np.ix_(w, w)] = small
    return inverse


def _update(inverse, Q, y, r):
    """The inverse with point r back in the working set: the bordered KKT matrix's inverse
    from the Schur complement s = Q_rr - u'Mu, u = (Q_wr, y_r); None when s vanishes."""
    u = np.append(Q[:, r], y[r])
    v = inverse @ u                                  # zero off the working set
    s = u[r] - u @ v
    if not s > 1e-12 * u[r]:
        return None
    inverse += np.outer(v, v / s)
    inverse[r, :] = inverse[:, r] = -v / s
    inverse[r, r] = 1.0 / s
    return inverse


def _downdate(inverse, r):
    """The inverse with point r held fixed (d_r = 0): the Schur complement of the KKT
    matrix bordered by e_r, computed in place; None when that leaves it singular."""
    pivot = inverse[r, r]
    if not pivot > 1e-12 * np.abs(inverse).max():
        return None
    inverse -= np.outer(inverse[:, r], inverse[r] / pivot)
    inverse[r, :] = inverse[:, r] = 0.0
    return inverse
