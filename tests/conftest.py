"""Qt runs offscreen in every test, on a 1920x1080 screen (a common desktop; the laptop
sizes are checked in processes of their own), whatever QT_QPA_PLATFORM the shell exported
(_suite_platform). Set before any test module imports Qt."""
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis draws the same examples on every run, CI's included: what passes here passes
# there, and a failing draw is a bug to reproduce, never a flake. (No example database: a
# draw found once on one machine would make the runs differ.)
settings.register_profile("svmdesk", derandomize=True, database=None)
# Hunting by hand (HYPOTHESIS_PROFILE=hunt): fresh random draws, HUNT_FACTOR times the examples
# each test states (CONTRIBUTING.md, "Tests"). Never the default: CI runs the profile above.
settings.register_profile("hunt", derandomize=False, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "svmdesk"))
HUNT_FACTOR = 10

# The suite speaks English whatever the machine's locale (LANG=ja_JP.UTF-8 would make
# main() choose Japanese); the tests of the Japanese window set it themselves.
os.environ["SVMDESK_LANG"] = "en"


@pytest.hookimpl(optionalhook=True)          # xdist's: the Qt-free runs go without it
def pytest_xdist_auto_num_workers(config):
    """What `-n auto` (the README's line) starts: one worker more than this process may use
    CPUs. A window test spends part of its time waiting for a paint or a worker thread,
    which the extra worker fills: on 2 cores the suite took 121 s instead of 134 s."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cpus or 1) + 1


def pytest_collection_modifyitems(items):
    """Under the hunt profile, every @given test runs HUNT_FACTOR times the max_examples its
    own @settings states (which would otherwise win over any profile's)."""
    if settings.default.derandomize:
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if getattr(test, "is_hypothesis_test", False) and own is not None:
            test._hypothesis_internal_use_settings = settings(
                own, max_examples=own.max_examples * HUNT_FACTOR)


def _offscreen_platform(width: int, height: int) -> str:
    config = Path(tempfile.mkdtemp(prefix="svmdesk-screen-")) / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "desktop", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    return f"offscreen:configfile={config}"


def _suite_platform(exported: str | None) -> str:
    """The platform the suite runs Qt on, whatever the shell exported: the tests assume the
    1920x1080 offscreen screen, so unset, plain `offscreen` (CI exports it, and Qt's own
    offscreen screen is 800x800) or `offscreen:<options>` without a configfile all get it.
    An offscreen configfile given on purpose is kept (a screen sized by hand; also what a
    child process of the suite inherits). Any other platform exported (xcb, wayland, ...)
    is overridden, not respected: a real display's screen is whatever size the monitor is,
    so the placement tests would fail or pass by chance, and the suite would flash windows
    on the desktop."""
    name, _, options = (exported or "").partition(":")
    if name == "offscreen" and "configfile=" in options:
        return exported or ""
    platform = _offscreen_platform(1920, 1080)
    return f"{platform}:{options}" if name == "offscreen" and options else platform


os.environ["QT_QPA_PLATFORM"] = _suite_platform(os.environ.get("QT_QPA_PLATFORM"))


@pytest.fixture
def fake_table(monkeypatch):
    """The catalog's table with a fake solver and parameter (tests/fake_solver.py)."""
    from .fake_solver import use_fake_table

    return use_fake_table(monkeypatch)
