"""Helpers for the file format tests: any JSON value, and load-or-refuse."""
import json

from svmdesk.core import DataError


def json_values():
    """A hypothesis strategy for any JSON value (what a damaged file may hold anywhere)."""
    from hypothesis import strategies as st
    return st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
        | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                   max_size=4),
        max_leaves=20)


def load_or_refuse(load, path, doc) -> None:
    """Write `doc` as JSON to `path` and load it: it loads, or raises DataError (a reader
    must never let any other exception reach the user)."""
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        load(path)
    except DataError:
        pass
