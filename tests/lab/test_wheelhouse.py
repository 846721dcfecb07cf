"""A teacher's wheelhouse: tools/make-wheelhouse builds svmdesk's wheel and its runtime
dependencies for this platform; a fresh venv installs from it with --no-index (no package
index, no configured wheel folder), and the installed svmdesk answers --version and trains
headless from the command line."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MINUTES = 60 * 10


def offline_env() -> dict:
    """pip with no configuration at all: no index, no extra wheel folders of this machine."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1"}


@pytest.mark.timeout(MINUTES)
def test_a_laptop_installs_from_the_wheelhouse_with_no_network(tmp_path, package_index):
    wheelhouse = tmp_path / "wheelhouse"
    subprocess.run([sys.executable, str(ROOT / "tools" / "make-wheelhouse"), "--out",
                    str(wheelhouse)], check=True, timeout=MINUTES)
    names = {p.name.split("-")[0].lower() for p in wheelhouse.glob("*.whl")}
    assert {"svmdesk", "numpy", "pyside6_essentials", "pyqtgraph", "qasync", "contourpy",
            "joblib"} <= names
    venv = tmp_path / "laptop"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=MINUTES)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-index",
                    "--find-links", str(wheelhouse), "svmdesk"], check=True,
                   env=offline_env(), timeout=MINUTES)
    version = subprocess.run([str(bin_dir / "svmdesk"), "--version"], capture_output=True,
                             text=True, timeout=120, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("svmdesk "), version.stderr
    (tmp_path / "points.csv").write_text("x,y,label\n0,0,a\n1,1,b\n0,1,a\n1,0,b\n2,2,b\n"
                                         "-1,-1,a\n", encoding="utf-8")
    trained = subprocess.run([str(bin_dir / "svmdesk"), "train", "points.csv", "--out",
                              "model.json"], capture_output=True, text=True, timeout=120,
                             cwd=tmp_path, env={**offline_env(), "QT_QPA_PLATFORM": "offscreen"})
    assert trained.returncode == 0, trained.stderr
    assert (tmp_path / "model.json").exists() and "support vectors" in trained.stdout
    imports = subprocess.run([str(bin_dir / "python"), "-c",
                              "import PySide6.QtWidgets, pyqtgraph, qasync, contourpy"],
                             capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert imports.returncode == 0, imports.stderr         # the window's packages are there
