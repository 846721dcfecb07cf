"""TableEstimator: the base of svmdesk's estimators, whose parameters are a catalog table's rows.

A subclass names its table once (`class SVC(TableEstimator, table=catalog.TABLE)`) and gets
what scikit-learn's developer guide asks of an estimator: an `__init__` that takes each
parameter by keyword, with the table's default, and only stores it; `get_params`,
`set_params`, a `__repr__` that shows the parameters changed from their defaults, and
`__sklearn_tags__`. The table is the one list of parameters: nothing names them again.
"""
from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, ClassVar

from ..i18n import tr
from .catalog import Table

if TYPE_CHECKING:   # typing.Self is new in 3.11; only mypy reads this (annotations are strings)
    from typing_extensions import Self


class TableEstimator:
    """An estimator whose parameters are the rows of `table` (set by the subclass)."""

    table: ClassVar[Table]

    def __init_subclass__(cls, table: Table | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if table is not None:
            cls.table = table
            cls.__init__ = _init_taking(table)  # type: ignore[method-assign]

    def get_params(self, deep: bool = True) -> dict:
        """The parameters and their values (`deep` is moot: none is an estimator)."""
        return {name: getattr(self, name) for name in self.table.names}

    if TYPE_CHECKING:     # the parameters are attributes the table names, set by __init__
        def __getattr__(self, name: str) -> Any: ...

    def set_params(self, **params: Any) -> Self:
        """Set parameters by name, as __init__ takes them; unknown names change nothing."""
        unknown = [name for name in params if name not in self.table.names]
        if unknown:
            raise ValueError(tr("Invalid parameter {name} for estimator {estimator}. Valid "
                                "parameters are: {names}.").format(
                name=repr(unknown[0]), estimator=repr(self), names=repr(sorted(self.table.names))))
        for name, value in params.items():
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        defaults = self.table.defaults
        changed = [f"{name}={value!r}" for name, value in self.get_params().items()
                   if repr(value) != repr(defaults[name])]
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's description of the estimator, for its own tools: they alone call
        this, so scikit-learn is imported here and never by svmdesk. Subclasses add theirs
        to this one, as scikit-learn's developer guide does."""
        from sklearn.utils import InputTags, Tags, TargetTags
        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    input_tags=InputTags(sparse=True))

    def __sklearn_is_fitted__(self) -> bool:
        return bool(getattr(self, "model_", None) is not None)


def _init_taking(table: Table):
    """An __init__ that takes the table's parameters by keyword, with their defaults, and
    stores them as they are (validation waits for fit, as scikit-learn expects)."""
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    signature = inspect.Signature([self_param] + [
        inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
        for p in table.params])

    def __init__(self, **params: Any) -> None:
        bound = signature.bind(self, **params)      # an unknown name: TypeError, as Python's
        bound.apply_defaults()
        for name in table.names:
            setattr(self, name, bound.arguments[name])

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    return __init__
