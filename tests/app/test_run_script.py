"""File > Export Python script..., as a student takes the run home: trained in the window,
exported through the menu, run in a fresh Python, the script fits the window's model again:
its objective to 1e-9 and its prediction of every point exactly, for every kind the Task box
offers, with held-out points."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from .test_labels import answer_dialogs
from .test_tasks import choose, train, type_value


def _export(window, monkeypatch, path) -> None:
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    answer_dialogs(monkeypatch, path)
    next(a for a in file_menu.actions() if a.text() == "Expor&t Python script…").trigger()


@pytest.mark.parametrize("kind", ["c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr"])
def test_the_exported_script_fits_the_windows_model_again(window, qtbot, monkeypatch,
                                                         tmp_path, kind):
    if kind != "c_svc":
        choose(window.panel.task, kind)
    type_value(qtbot, window.panel.data_box.test_fraction, 0.25)
    train(window, qtbot)
    fitted = window.fitted
    assert fitted is not None and fitted.kind == kind
    path = tmp_path / "take home.py"
    _export(window, monkeypatch, path)
    assert path.exists(), window.notices.banner.text()
    done = subprocess.run([sys.executable, str(path), "--json"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    job = window._job()
    np.testing.assert_allclose(said["objective"], np.asarray(fitted.objective_).tolist(),
                               rtol=1e-9, atol=1e-12)
    assert said["predictions"] == fitted.predict(np.vstack([job.X, job.X_test])).tolist()
    assert len(job.X_test) and said["estimator"] == type(fitted).__name__


def test_no_model_no_script(window, monkeypatch, tmp_path):
    window.discard_model()
    _export(window, monkeypatch, tmp_path / "none.py")
    assert not (tmp_path / "none.py").exists()
    assert "There is no model yet" in window.notices.banner.text()
