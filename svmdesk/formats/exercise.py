"""An exercise as a session keeps it: what a teacher hands out with the points and settings of
the session it is part of. Its title and instructions in one or more languages, where its
points came from, the controls it locks at the session's values, and its goals; in a
student's work also which goals were met when it was saved.

In a session (version 7, optional)::

    "exercise": {"title": {"en": text, "ja": text},      (one language at least)
                 "instructions": {"en": text, "ja": text},   (the same languages)
                 "data": "fixed" or {"generator": name, "n": count, "noise": number,
                                     "seed": integer},
                 "locks": [setting name or "points", ...],
                 "goals": [{"metric": name, "comparison": ">=" or "<=",
                            "value": number}, ...],
                 "met": [true or false, one per goal]}      (optional: a student's work)

Instructions are plain text; a word between asterisks (*C*) is shown emphasised, an empty
line starts a paragraph. A lock names a setting of the session (its value is the one the
exercise fixes) or "points" (the points cannot be edited, generated or opened).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.goals import COMPARISONS, METRICS, Goal
from ..i18n import LANGUAGES, N_, SOURCE, language, tr
from .checked_json import Checker

POINTS = "points"                # the lock on the points themselves
MOST_GOALS = 20
MOST_TEXT = 20_000               # characters of one language's instructions
_FLAGS = N_("{field} has {n} flags (one per goal) but {length} are needed")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Exercise:
    title: dict                            # language code -> text
    instructions: dict                     # language code -> text (the same codes)
    locks: tuple = ()                      # setting names, and POINTS
    goals: tuple = ()                      # Goal
    data: dict | None = None               # the generator and seed; None: fixed points
    met: tuple | None = None               # a student's work: each goal met when saved

    def text(self, texts: dict) -> str:
        """`texts` ({code: text}) in the window's language, else English, else any."""
        for code in (language(), SOURCE):
            if code in texts:
                return texts[code]
        return next(iter(texts.values()))

    def shown_title(self) -> str:
        return self.text(self.title)

    def shown_instructions(self) -> str:
        return self.text(self.instructions)

    def locks_points(self) -> bool:
        return POINTS in self.locks


def exercise_document(exercise: Exercise) -> dict:
    doc = {"title": dict(exercise.title),
           "instructions": dict(exercise.instructions),
           "data": "fixed" if exercise.data is None else dict(exercise.data),
           "locks": list(exercise.locks),
           "goals": [{"metric": g.metric, "comparison": g.comparison, "value": g.value}
                     for g in exercise.goals]}
    if exercise.met is not None:
        doc["met"] = [bool(m) for m in exercise.met]
    return doc


def read_exercise(check: Checker, v: object) -> Exercise:
    """The exercise of a session document's "exercise" field; a bad field fails naming it."""
    v = check.obj(v, "exercise", ("title", "instructions", "data", "locks", "goals"), ("met",))
    title = _texts(check, v["title"], "exercise.title", 200)
    instructions = _texts(check, v["instructions"], "exercise.instructions", MOST_TEXT)
    if set(instructions) != set(title):
        check.fail("exercise.instructions", tr("{field} must be in the languages of the "
                                               "title ({codes})"),
                   codes=", ".join(title))
    locks = []
    for k, name in enumerate(check.array(v["locks"], "exercise.locks")):
        where = f"exercise.locks[{k}]"
        name = check.string(name, where)
        if not _NAME.match(name):
            check.fail(where, tr("{field} must name a setting (such as kernel or C) or "
                                 "points; got {value}"), value=repr(name))
        if name in locks:
            check.fail(where, tr("{field} locks {name} a second time"), name=name)
        locks.append(name)
    listed = check.array(v["goals"], "exercise.goals")
    if len(listed) > MOST_GOALS:
        check.fail("exercise.goals", tr("{field} has {n} goals; an exercise has at most "
                                        "{most}"), n=len(listed), most=MOST_GOALS)
    goals = tuple(_goal(check, g, f"exercise.goals[{k}]") for k, g in enumerate(listed))
    met = None
    if "met" in v:
        flags = check.array(v["met"], "exercise.met", len(goals), _FLAGS)
        met = tuple(check.boolean(m, f"exercise.met[{k}]") for k, m in enumerate(flags))
    return Exercise(title=title, instructions=instructions, locks=tuple(locks), goals=goals,
                    data=_data(check, v["data"]), met=met)


def _texts(check: Checker, v, where: str, most: int) -> dict:
    if not isinstance(v, dict) or not v:
        check.fail(where, tr("{field} must be an object of texts by language code (en, ja), "
                             "one language at least"))
    texts = {}
    for code, text in v.items():
        check.string(code, where, tuple(LANGUAGES))
        text = check.string(text, f"{where}.{code}")
        if not text.strip():
            check.fail(f"{where}.{code}", tr("{field} is empty"))
        if len(text) > most:
            check.fail(f"{where}.{code}", tr("{field} has {n} characters; at most {most} "
                                             "are read"), n=len(text), most=most)
        texts[code] = text
    return texts


def _goal(check: Checker, v, where: str) -> Goal:
    v = check.obj(v, where, ("metric", "comparison", "value"))
    metric = check.string(v["metric"], f"{where}.metric", tuple(METRICS))
    comparison = check.string(v["comparison"], f"{where}.comparison", COMPARISONS)
    return Goal(metric, comparison, check.real(v["value"], f"{where}.value"))


def _data(check: Checker, v) -> dict | None:
    if v == "fixed":
        return None
    v = check.obj(v, "exercise.data", ("generator", "n", "noise", "seed"))
    return {"generator": check.string(v["generator"], "exercise.data.generator"),
            "n": check.integer(v["n"], "exercise.data.n", 1),
            "noise": check.real(v["noise"], "exercise.data.noise"),
            "seed": check.integer(v["seed"], "exercise.data.seed", 0)}
