"""The command line in Japanese (--lang ja, SVMDESK_LANG=ja or a Japanese locale): every
command's help, its summaries, warnings and errors, argparse's own words included. Each
command runs as a person runs it, in a process of its own; CI runs this file on the oldest
and the newest Python svmdesk supports as well (argparse's words differ between them), in
a checkout without Qt (render's picture is then left out)."""
import csv
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import svmdesk
from svmdesk.core import catalog, kinds, make_dataset
from svmdesk.formats import save_dataset
from svmdesk.formats.comparison_table import COLUMNS

TIMEOUT = 10                  # s: the longest any test waits (the house rule)
CHECKOUT = Path(svmdesk.__file__).resolve().parent.parent
HAS_QT = importlib.util.find_spec("PySide6") is not None

# English that is a name, not a sentence: products, formats, file kinds, code, and the
# values a command line types (kinds, solvers, kernels, parameter words)
NAMES = {
    "svmdesk", "libsvm", "svmlight", "smo", "csv", "tsv", "json", "png", "svg", "txt", "dat",
    "utf", "shift", "jis", "scikit", "learn", "sklearn", "dask", "pip", "tcp", "python",
    "numpy", "logspace", "svm", "predict", "scale", "ctrl", "auc", "ap", "roc", "mse", "mae",
    "ovr", "ovo", "inf", "none", "balanced", "auto", "label", "index", "value", "decision",
    "probability", "vs", "svc", "svr", "nu", "epsilon", "gamma", "degree", "coef0", "tol",
    "platt", "pegasos", "grid", "py", "train", "evaluate", "render", "compare", "model",
    "range", "kfold", "stratifiedkfold", "oneclasssvm", "nusvc", "nusvr", "gridsearchcv",
    "cluster", "scheduler", "worker", "true", "false", "en", "ja", "lang", "np", "bincount",
    "n_samples", "n_classes", "n_features", "var", "exp", "tanh", "max", "min", "sum", "eta",
    "grad", "mean", "std", "log10", "ddof", "help", "version", "debug", "lab", "check",
    "stdout", "stderr", "install", "target",
}


def _typed_values() -> set:
    """The words a command line types as values (kinds, solvers, kernels) and the columns of
    the tables it writes (data: English in every language)."""
    words = {*kinds.by_option(), *catalog.TABLE.solvers, *catalog.TABLE.kernels, *COLUMNS,
             "converged"}
    return {part for word in words for part in word.split("-")}


def english_words(text: str) -> list:
    """The English words of `text` besides names: option names, metavariables (capitals),
    quoted values, code (with _ . ( = or digits), example command lines and the usage lines
    are names too."""
    kept = []
    in_usage = False
    for line in text.splitlines():
        if line.startswith("使い方："):
            in_usage = True
        elif not line.strip() or not line.startswith(" "):
            in_usage = in_usage and line.startswith(" ")
        if in_usage or re.match(r"\s*svmdesk( |$)", line):
            continue
        kept.append(line)
    text = "\n".join(kept)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|<[^>]*>", " ", text)        # quoted, <x, x'>
    text = re.sub(r"(?<![\w-])--?[A-Za-z][\w-]*", " ", text)          # option names
    text = re.sub(r"\S*[_.(=\d/:^|]\S*", " ", text)                   # code, paths, numbers
    allowed = NAMES | _typed_values()
    return [word for word in re.findall(r"[A-Za-z][A-Za-z-]*", text)
            if len(word) > 1 and not word.isupper() and word.lower() not in allowed
            and not all(part.lower() in allowed for part in word.split("-"))]


def run(*args, cwd) -> subprocess.CompletedProcess:
    """`svmdesk --lang ja ARGS` as a terminal runs it (this checkout's svmdesk, installed or
    not), with no display."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(CHECKOUT), env.get("PYTHONPATH"))))
    env["COLUMNS"] = "100"
    return subprocess.run([sys.executable, "-m", "svmdesk.cli", "--lang", "ja",
                           *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=TIMEOUT)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    """Moons as CSV (the classes -1 and +1), a CSV with a text feature, and a model."""
    folder = tmp_path_factory.mktemp("ja")
    data = make_dataset("moons", n=60, seed=1)
    save_dataset(data, folder / "moons.csv")
    with open(folder / "moons.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    names = {str(n): label for n, label in zip(data.class_names, ("-1", "+1"))}
    with open(folder / "signed.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([rows[0], *([*row[:-1], names[row[-1]]] for row in rows[1:])])
    (folder / "words.csv").write_text("x,y,label\n1,2,a\nthree,4,b\n", encoding="utf-8")
    trained = run("train", folder / "signed.csv", "--kernel", "linear", "--test-fraction",
                  "0.25", "--out", folder / "signed.json", cwd=folder)
    assert trained.returncode == 0, trained.stderr
    return {"folder": folder, "train": trained}


COMMANDS = ["", "train", "predict", "evaluate", "render", "grid", "compare"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_is_japanese(command, tmp_path):
    result = run(*filter(None, [command]), "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"使い方：svmdesk {command}".rstrip())
    assert english_words(result.stdout) == []
    # wrapped by what a terminal shows: a Japanese character takes two columns
    from svmdesk.cli.terminal_text import columns
    wide = [line for line in result.stdout.splitlines()
            if columns(line) > 100 and not line.startswith("  svmdesk")]
    assert wide == []


BAD = {
    "": (["trian"], "無効な選択です"),
    "train": (["{folder}/words.csv", "--out", "{folder}/m.json"], "words.csv"),
    "predict": (["{folder}/missing.json", "{folder}/signed.csv"], "そのようなモデルファイル"),
    "evaluate": (["{folder}/signed.json", "{folder}/signed.csv", "--class", "+1"],
                 "--threshold"),
    "render": (["{folder}/signed.csv", "--out", "{folder}/picture.gif"], ".png か .svg"),
    "grid": (["{folder}/signed.csv", "--C", "5:1:3", "--out", "{folder}/g.csv"], "STOP"),
    "compare": (["{folder}/signed.csv", "--solver", "fastest", "--out", "{folder}/c.csv"],
                "fastest"),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_input_is_one_japanese_line(command, files):
    args, said = BAD[command]
    result = run(*filter(None, [command]),
                 *(a.format(folder=files["folder"]) for a in args), cwd=files["folder"])
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("svmdesk：エラー：") and said in result.stderr
    assert english_words(result.stderr) == [], result.stderr


def test_a_summary_is_japanese_and_aligned(files):
    lines = files["train"].stdout.splitlines()
    assert lines[0].startswith("データ：") and english_words(files["train"].stdout) == []
    from svmdesk.cli.terminal_text import columns
    starts = {columns(line.split("：", 1)[0] + "：") + len(line.split("：", 1)[1]) -
              len(line.split("：", 1)[1].lstrip()) for line in lines}
    assert len(starts) == 1            # every value starts in the same column


def test_evaluate_grid_and_compare_say_their_results_in_japanese(files):
    folder = files["folder"]
    evaluated = run("evaluate", folder / "signed.json", folder / "signed.csv", cwd=folder)
    grid = run("grid", folder / "signed.csv", "--C", "0.1:10:3", "--kernel", "linear",
               "--folds", "3", "--jobs", "1", "--max-iter", "2", "--out", folder / "g.csv",
               cwd=folder)
    compared = run("compare", folder / "signed.csv", "--solver", "smo", "--solver",
                   "pegasos", "--kernel", "linear", "--max-iter", "3", "--out",
                   folder / "c.csv", cwd=folder)
    for result in (evaluated, grid, compared):
        assert result.returncode == 0, result.stderr
        assert english_words(result.stdout) == [], result.stdout
        assert english_words(result.stderr) == [], result.stderr
    assert "混同行列" in evaluated.stdout and "正解率" in evaluated.stdout
    assert "最良" in grid.stdout and "未収束" in grid.stdout
    assert "警告" in compared.stderr             # three iterations: the budget runs out
    header = (folder / "c.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("solver,")          # the table's columns are data: English


@pytest.mark.skipif(not HAS_QT, reason="render draws with Qt")
def test_render_says_what_it_wrote_in_japanese(files):
    folder = files["folder"]
    result = run("render", folder / "signed.csv", "--model", folder / "signed.json",
                 "--out", folder / "picture.png", "--width", "400", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("を書き出しました")


@pytest.mark.parametrize("how", ["SVMDESK_LANG", "LANG"])
def test_the_environment_or_the_locale_chooses_japanese(tmp_path, monkeypatch, how):
    if how == "LANG":
        monkeypatch.delenv("SVMDESK_LANG")
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(how, "ja" if how == "SVMDESK_LANG" else "ja_JP.UTF-8")
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    result = subprocess.run([sys.executable, "-m", "svmdesk.cli", "train", "--help"],
                            cwd=tmp_path, env=env, capture_output=True, text=True,
                            encoding="utf-8", timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("使い方：svmdesk train")
    assert "位置引数" in result.stdout and "このヘルプを表示して終了します" in result.stdout


def test_english_stays_english(tmp_path):
    result = run("train", cwd=tmp_path)
    assert "エラー" in result.stderr
    english = subprocess.run([sys.executable, "-m", "svmdesk.cli", "train"], cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(CHECKOUT)},
                             capture_output=True, text=True, timeout=TIMEOUT)
    assert english.stderr.startswith("svmdesk: error: the following arguments are required")


def test_the_summary_of_a_regressor_is_japanese(tmp_path):
    x = np.linspace(0, 3, 30)
    with open(tmp_path / "sine.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["x", "y"], *([f"{a:.3f}", f"{np.sin(a):.3f}"] for a in x)])
    result = run("train", tmp_path / "sine.csv", "--type", "epsilon-svr", "--out",
                 tmp_path / "sine.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "目標値" in result.stdout and english_words(result.stdout) == []
