"""The frozen one-folder app (tools/make-app, PyInstaller), built in a fresh venv from a
normal install of this checkout: it answers --version, trains headless, runs a grid search on
two worker processes (loky's helpers are the app itself), and `--lab-check` opens the window,
trains an example and says so. Built when asked: SVMDESK_FROZEN_APP=1 with
SVMDESK_LAB_TESTS=1 (a few minutes; PyInstaller comes from the package index)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MINUTES = 60 * 15


@pytest.mark.skipif(os.environ.get("SVMDESK_FROZEN_APP") != "1",
                    reason="the frozen app is built when asked: SVMDESK_FROZEN_APP=1")
@pytest.mark.timeout(MINUTES)
def test_the_frozen_app_starts_trains_and_passes_the_lab_check(tmp_path, package_index):
    venv = tmp_path / "build-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=MINUTES)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(ROOT), "pyinstaller"],
                   check=True, timeout=MINUTES, cwd=tmp_path)
    subprocess.run([str(python), str(ROOT / "tools" / "make-app"), "--out",
                    str(tmp_path / "dist")], check=True, timeout=MINUTES, cwd=tmp_path)
    app = tmp_path / "dist" / "svmdesk" / ("svmdesk.exe" if os.name == "nt" else "svmdesk")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path),
           "QT_QPA_PLATFORM": "offscreen", "SVMDESK_STATE_DIR": str(tmp_path / "state")}

    def run(*args):
        return subprocess.run([str(app), *args], capture_output=True, text=True, env=env,
                              timeout=300, cwd=tmp_path)

    version = run("--version")
    assert version.stdout.startswith("svmdesk "), version.stderr
    (tmp_path / "points.csv").write_text("x,y,label\n" + "".join(
        f"{k % 7},{(k * 3) % 5},{'ab'[k % 2]}\n" for k in range(40)), encoding="utf-8")
    trained = run("train", "points.csv", "--solver", "pegasos", "--kernel", "linear",
                  "--out", "m.json")
    assert trained.returncode == 0, trained.stderr
    grid = run("grid", "points.csv", "--C", "0.1:10:3", "--gamma", "0.1:10:3", "--folds", "2",
               "--jobs", "2", "--out", "grid.csv")
    assert grid.returncode == 0, grid.stderr
    checked = run("--lab-check")
    assert checked.returncode == 0 and "svmdesk works here" in checked.stdout, checked.stderr
