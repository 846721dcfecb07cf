"""Sequential minimal optimisation: libsvm's algorithm in numpy, sped up by Newton steps.

The method and its loop are in `solver` (its docstring gives the overview), the nu form's
working-set choice, bias and shrinking in `nu`, the entry points in `entry`, the kernel-row
cache and the memory kept between runs in `row_cache`, and the Newton step's linear algebra
in `newton`. Many binary problems of one point set solve together in `lockstep`
(`solve_together` over `SharedRows`, where `gains` says it pays), as a fit of many classes and
grid search's columns do; `solve` and `solve_together` take a warm start.
"""
from ..support import EXACT_RULE as SUPPORT_RULE
from .entry import solve, solve_problem
from .lockstep import SharedRows, gains, solve_together
from .row_cache import KernelRowCache, RowMemory, keeping_row_memory
from .state import CACHE_BYTES

__all__ = ["CACHE_BYTES", "SUPPORT_RULE", "KernelRowCache", "RowMemory", "SharedRows", "gains",
           "keeping_row_memory", "solve", "solve_problem", "solve_together"]
