"""An exercise in a session: an exact round trip of its texts, data, locks, goals and the goals
a student met; a damaged exercise refused in one sentence naming the field; goals judged on
the measures they name."""
import json
import math

import pytest

from svmdesk.core import DataError
from svmdesk.core.goals import Goal, all_met
from svmdesk.formats import load_session, save_session
from svmdesk.formats.exercise import Exercise
from svmdesk.i18n import set_language

from .test_session import _session

GOALS = (Goal("test_accuracy", ">=", 0.9), Goal("support_vectors", "<=", 20),
         Goal("margin_width", ">=", 0.5))


def _exercise(**changes) -> Exercise:
    fields = dict(title={"en": "C and the soft margin", "ja": "C とソフトマージン"},
                  instructions={"en": "Lower *C* until\n\nthe margin widens.",
                                "ja": "*C* を下げて、マージンを広げましょう。"},
                  locks=("kernel", "points"), goals=GOALS,
                  data={"generator": "blobs", "n": 80, "noise": 1.2, "seed": 7})
    fields.update(changes)
    return Exercise(**fields)


@pytest.mark.parametrize("exercise", [_exercise(), _exercise(met=(True, False, True)),
                                      _exercise(data=None, locks=(), goals=(),
                                                title={"ja": "演習"},
                                                instructions={"ja": "説明"})])
def test_an_exercise_round_trips_exactly(tmp_path, exercise):
    back = load_session(save_session(_session(exercise=exercise), tmp_path / "e.svmdesk"))
    assert back.exercise == exercise


def test_a_session_without_an_exercise_has_none_and_a_version_6_file_may_not_hold_one(
        tmp_path):
    assert load_session(save_session(_session(), tmp_path / "s.svmdesk")).exercise is None
    doc = json.loads(save_session(_session(exercise=_exercise()), tmp_path / "e.svmdesk")
                     .read_text("utf-8"))
    doc["version"] = 6
    path = tmp_path / "old.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="exercise is not a field of this format version"):
        load_session(path)
    del doc["exercise"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_session(path).exercise is None


def _set(doc, where, value):
    exercise = doc["exercise"]
    *path, last = where.split(".")
    for key in path:
        exercise = exercise[int(key)] if key.isdigit() else exercise[key]
    if value is KeyError:
        del exercise[last]
    else:
        exercise[int(last) if last.isdigit() else last] = value


@pytest.mark.parametrize("where, value, said", [
    ("title", {}, r"exercise.title must be an object of texts by language code"),
    ("title", "Soft margin", r"exercise.title must be an object of texts"),
    ("title.fr", "Marge", r"exercise.title must be one of 'en', 'ja'; got 'fr'"),
    ("title.en", "  ", r"exercise.title.en is empty"),
    ("instructions", {"en": "Lower C."}, r"exercise.instructions must be in the languages "
                                         r"of the title \(en, ja\)"),
    ("instructions.ja", 3, r"exercise.instructions.ja must be a string"),
    ("instructions.en", "x" * 20_001, r"exercise.instructions.en has 20001 characters"),
    ("data", "random", r"exercise.data must be an object with keys"),
    ("data.seed", -1, r"exercise.data.seed must be at least 0"),
    ("data.n", 2.5, r"exercise.data.n must be an integer"),
    ("locks", "kernel", r"exercise.locks must be a list"),
    ("locks.0", "Kernel!", r"exercise.locks\[0\] must name a setting"),
    ("locks.1", "kernel", r"exercise.locks\[1\] locks kernel a second time"),
    ("goals", [{"metric": "test_accuracy", "comparison": ">=", "value": 0.5}] * 21,
     r"exercise.goals has 21 goals; an exercise has at most 20"),
    ("goals.0.metric", "f1", r"exercise.goals\[0\].metric must be one of"),
    ("goals.1.comparison", "==", r"exercise.goals\[1\].comparison must be one of '>=', '<='"),
    ("goals.2.value", "high", r"exercise.goals\[2\].value must be a number"),
    ("goals.2.value", KeyError, r"exercise.goals\[2\].value is missing"),
    ("met", [True], r"exercise.met has 1 flags \(one per goal\) but 3 are needed"),
    ("met", [True, 1, False], r"exercise.met\[1\] must be true or false"),
    ("hint", "use C", r"exercise.hint is not a field of this format version"),
    ("locks.0", "gamma", r"exercise.locks\[0\] locks gamma, which the session's settings do "
                         r"not hold"),
])
def test_a_damaged_exercise_is_refused_in_one_sentence_naming_the_field(tmp_path, where,
                                                                        value, said):
    doc = json.loads(save_session(_session(exercise=_exercise(met=(True, True, False))),
                                  tmp_path / "ok.svmdesk").read_text("utf-8"))
    _set(doc, where, value)
    path = tmp_path / "bad.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=said):
        load_session(path)


def test_a_goal_is_met_by_its_measure_and_never_by_one_the_model_has_not():
    measures = {"test_accuracy": 0.95, "support_vectors": 21, "margin_width": None}
    assert all_met(GOALS, measures) == (True, False, False)
    assert Goal("support_vectors", "<=", 21).met(measures)
    assert not Goal("objective", "<=", 10.0).met(measures)          # not measured
    assert not Goal("train_accuracy", ">=", 0.0).met({"train_accuracy": math.nan})
    with pytest.raises(ValueError):
        Goal("f1", ">=", 0.5)


def test_a_goal_and_an_exercise_speak_the_windows_language():
    # the catalogue is installed with the package (a bare checkout on PYTHONPATH has none)
    pytest.importorskip("svmdesk.resources")
    exercise = _exercise()
    try:
        set_language("ja")
        assert GOALS[0].words() == "テスト精度 ≥ 0.9"
        assert exercise.shown_title() == "C とソフトマージン"
    finally:
        set_language("en")
    assert GOALS[1].words() == "support vectors ≤ 20"
    assert exercise.shown_instructions().startswith("Lower *C*")
    assert _exercise(title={"ja": "演習"}, instructions={"ja": "説明"}).shown_title() == "演習"
