"""The solvers, one module each. Every module provides
`solve(problem, every=1, wanted=None) -> Iterator[Snapshot]`: the generator yields every
`every` iterations and always yields the final state last (with `converged` set), so `fit`
is the generator run to its end. A solver's row in `svmdesk.core.catalog` names its module,
the kernels it trains and whether it takes the hard margin; `_common.require_trainable`
checks a problem against that row."""
