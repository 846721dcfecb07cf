"""Exceptions and warnings raised by the solver core."""


class DataError(ValueError):
    """Training or prediction data that cannot be used, with a message a student can act on."""


class ConvergenceWarning(UserWarning):
    """A solver stopped before reaching its tolerance (budget spent, or no solution exists)."""


class DivergenceError(ArithmeticError):
    """A gradient solver produced NaN or inf; the message names the solver and its step size."""
