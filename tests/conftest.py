"""Qt runs offscreen in every test, on a 1920x1080 screen (a common desktop; the laptop
sizes are checked in processes of their own). Set before any test module imports Qt."""
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
settings.load_profile("svmdesk")


def _offscreen_platform(width: int, height: int) -> str:
    config = Path(tempfile.mkdtemp(prefix="svmdesk-screen-")) / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "desktop", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    return f"offscreen:configfile={config}"


os.environ.setdefault("QT_QPA_PLATFORM", _offscreen_platform(1920, 1080))


@pytest.fixture
def fake_table(monkeypatch):
    """The catalog's table with a fake solver and parameter (tests/fake_solver.py)."""
    from .fake_solver import use_fake_table

    return use_fake_table(monkeypatch)
