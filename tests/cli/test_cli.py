"""The command line on data files made by save_dataset. Render runs for real, `python -m
svmdesk.cli` in a subprocess with no display (it must set up the offscreen platform itself),
and so does the installed `svmdesk` script; train, predict and help run `cli.main` in this
process (a subprocess costs 0.2 s of imports: 8 s over this file), with its exit code, stdout
and stderr, and Python's warnings on stderr as a process would print them."""
import contextlib
import csv
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from svmdesk import cli
from svmdesk.cli.train import split
from svmdesk.core import SVC, Dataset, class_labels, make_dataset
from svmdesk.formats import load_dataset, load_model, save_dataset, save_model

TIMEOUT = 10   # s: the longest any test waits (the house rule)


def _env() -> dict:
    env = dict(os.environ)
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):   # no display at all
        env.pop(name, None)
    return env


def run(*args, cwd, script=False):
    """The command line's exit code, stdout and stderr for `args`, run in `cwd`."""
    args = [str(a) for a in args]
    if script:
        command = [str(installed_script())]
    elif "render" in args:
        command = [sys.executable, "-m", "svmdesk.cli"]
    else:
        return run_in_process(args, cwd)
    return subprocess.run(command + args, cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=TIMEOUT)


def run_in_process(args: list, cwd) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")        # what a process shows: once per place
        try:
            code = cli.main(args)
        except SystemExit as e:                 # argparse: --help, --version, a usage error
            code = e.code if isinstance(e.code, int) else int(e.code is not None)
    printed = "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno)
                      for w in caught)
    return subprocess.CompletedProcess(args, code, out.getvalue(), printed + err.getvalue())


def installed_script() -> Path:
    for candidate in (Path(sys.executable).parent / "svmdesk", shutil.which("svmdesk")):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    pytest.skip("the svmdesk script is not installed (pip install -e .)")


def assert_one_line_error(result, code=2):
    assert result.returncode == code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("svmdesk: error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return lines[0]


def read_csv(text: str):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder of data files and two models trained by the command line."""
    d = tmp_path_factory.mktemp("cli")
    moons = make_dataset("moons", n=120, seed=0)
    save_dataset(moons, d / "moons.csv")
    save_dataset(make_dataset("moons", n=80, seed=1), d / "moons.libsvm")
    save_dataset(make_dataset("blobs", n=90, seed=2, centers=3), d / "blobs3.csv")
    save_dataset(Dataset(moons.X, moons.y, ("cat", "dog")), d / "pets.csv")
    save_dataset(Dataset(np.column_stack([moons.X, moons.X[:, 0] * moons.X[:, 1]]), moons.y,
                         ("0", "1"), feature_names=("a", "b", "c")), d / "three.csv")
    (d / "bad.csv").write_text("a,b,label\n1,2,x\n3,oops,y\n", encoding="utf-8")
    (d / "prices.csv").write_text("a,b,price\n" + "".join(f"{k},{k % 3},{k * 1.25}\n"
                                                           for k in range(20)))
    for args in (["moons.csv", "-C", "10", "--out", "moons.json"],
                 ["blobs3.csv", "--kernel", "linear", "--out", "blobs3.json"]):
        result = run("train", *args, cwd=d)
        assert result.returncode == 0, result.stderr
    return d


# -- help -----------------------------------------------------------------------------------
def test_the_command_line_is_a_console_script_and_the_window_has_a_gui_one():
    """On Windows a gui-script has no console: `svmdesk train` must be a console script
    to print anything; `svmdesk-gui` opens the window with no console window."""
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"] == {"svmdesk": "svmdesk.cli:main"}
    assert project["gui-scripts"] == {"svmdesk-gui": "svmdesk.app:main"}
    from svmdesk.app import main as open_window

    assert callable(open_window)


def test_main_help_describes_commands_exit_codes_and_examples(work):
    result = run("--help", cwd=work)
    assert result.returncode == 0
    text = result.stdout
    for word in ("train", "predict", "render", "exit codes", "--debug", "examples",
                 "svmdesk points.csv", "CSV", "LIBSVM"):
        assert word in text


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_command_help_lists_every_option(work, command):
    result = run(command, "--help", cwd=work)
    assert result.returncode == 0, result.stderr
    parser = cli.build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]
    for action in sub._actions:
        assert action.help, f"{command}: {action.option_strings or action.dest} has no help"
        for option in action.option_strings:
            assert option in result.stdout
        if not action.option_strings:
            assert action.metavar in result.stdout
    for word in ("exit codes", "example", f"svmdesk {command}"):
        assert word in result.stdout


def test_version_through_the_installed_script(work):
    result = run("--version", cwd=work, script=True)
    assert result.returncode == 0
    assert re.fullmatch(r"svmdesk \S+\n", result.stdout)


# -- train ----------------------------------------------------------------------------------
def test_train_reads_libsvm_named_txt_and_a_wide_csv_on_every_feature(work, tmp_path):
    sklearn = pytest.importorskip("sklearn")
    svmlight = (Path(sklearn.__file__).parent / "datasets" / "tests" / "data"
                / "svmlight_classification.txt")
    wide = tmp_path / "heart.csv"
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 5))
    X[20:, 1] += 4.0
    wide.write_text("age,chol,bp,hr,oldpeak,label\n" + "\n".join(
        ",".join([*(repr(float(v)) for v in x), "sick" if k < 20 else "well"])
        for k, x in enumerate(X)) + "\n", encoding="utf-8")
    for data, features, n in ((svmlight, ", ".join(f"x{j}" for j in range(1, 22)), 21),
                              (wide, "age, chol, bp, hr, oldpeak", 5)):
        out = tmp_path / f"{data.stem}.json"
        result = run("train", data, "--kernel", "linear", "--out", out, cwd=work)
        assert result.returncode == 0, result.stderr
        field = dict(re.findall(r"^([a-z ]+):\s+(.*)$", result.stdout, re.M))
        assert field["features"] == f"{n}: {features}"
        assert load_model(out).n_features_in_ == n
        expected = load_dataset(data)
        labels = class_labels(expected.class_names)[expected.y]
        np.testing.assert_array_equal(load_model(out).predict(expected.X), SVC(
            kernel="linear").fit(expected.X, labels).predict(expected.X))


def test_train_json_through_the_installed_script(work):
    result = run("train", "moons.csv", "--kernel", "rbf", "-C", "3", "--gamma", "2",
                 "--test-fraction", "0.25", "--seed", "7", "--out", "split.json",
                 cwd=work, script=True)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    data = load_dataset(work / "moons.csv")
    labels = class_labels(data.class_names)[data.y]
    train, test = split(len(labels), 0.25, 7)
    assert len(test) == 30 and len(np.intersect1d(train, test)) == 0
    reference = SVC(kernel="rbf", C=3.0, gamma=2.0, random_state=7).fit(data.X[train],
                                                                         labels[train])
    model = load_model(work / "split.json")
    np.testing.assert_array_equal(model.predict(data.X), reference.predict(data.X))
    np.testing.assert_allclose(model.decision_function(data.X),
                               reference.decision_function(data.X), atol=1e-9)
    field = dict(re.findall(r"^([a-z ]+):\s+(.*)$", out, re.M))
    assert field["data"] == "moons.csv"
    assert field["points"].startswith("120: 90 for training, 30 held out")
    assert field["features"] == "2: x1, x2"
    assert field["classes"] == "2: 0 (60 points), 1 (60 points)"
    assert field["solver"] == "smo"
    assert field["kernel"].startswith("rbf") and "C=3" in field["kernel"] \
        and "gamma=2" in field["kernel"]
    assert field["iterations"] == str(int(reference.n_iter_[0]))
    assert field["objective"] == f"{reference.objective_:.6g} (dual)"
    assert field["converged"] == "yes"
    n0, n1 = reference.n_support_
    assert field["support vectors"] == f"{n0 + n1} (class 0: {n0}, class 1: {n1})"
    train_acc = 100 * reference.score(data.X[train], labels[train])
    test_acc = 100 * reference.score(data.X[test], labels[test])
    assert field["accuracy"] == f"train {train_acc:.1f} %, test {test_acc:.1f} %"
    assert re.fullmatch(r"\d+\.\d{3} s", field["time"])
    assert field["model"] == "split.json"
    assert len(out.splitlines()) <= 24          # one screen


def test_train_libsvm_with_standardize_writes_the_range_file(work):
    result = run("train", "moons.libsvm", "--kernel", "poly", "--degree", "2",
                 "--standardize", "--out", "poly.model", cwd=work)
    assert result.returncode == 0, result.stderr
    assert (work / "poly.model").read_text().startswith("svm_type c_svc\nkernel_type "
                                                         "polynomial\ndegree 2\n")
    assert (work / "poly.model.range").read_text().startswith("x\n-1 1\n1 ")
    assert "poly.model, poly.model.range" in result.stdout
    assert "standardize=yes" in result.stdout


def test_train_libsvm_without_standardize_has_no_range_file(work):
    result = run("train", "moons.csv", "--kernel", "linear", "--out", "lin.model", cwd=work)
    assert result.returncode == 0, result.stderr
    assert (work / "lin.model").is_file() and not (work / "lin.model.range").exists()


def test_train_multiclass_summary_and_hard_margin(work):
    result = run("train", "blobs3.csv", "--kernel", "linear", "-C", "inf", "--out",
                 "hard.json", cwd=work)
    assert result.returncode == 0, result.stderr
    assert "smo, 3 one-vs-one machines" in result.stdout
    assert "C=inf (hard margin)" in result.stdout
    assert re.search(r"iterations:\s+\d+ in all; per machine: \d+, \d+, \d+", result.stdout)
    assert load_model(work / "hard.json").C in (None, float("inf"))


def test_train_reports_an_unconverged_run_as_a_warning(work):
    result = run("train", "moons.csv", "--solver", "pegasos", "--kernel", "linear",
                 "--max-iter", "3", "--out", "short.json", cwd=work)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^converged:\s+no", result.stdout, re.M)
    assert result.stderr.startswith("svmdesk: warning: solver 'pegasos' stopped")


def test_data_beyond_float64s_reach_is_refused_and_trains_standardised(work):
    (work / "huge.csv").write_text("a,b,label\n" + "".join(
        f"{k}e160,{k % 3}e160,{k % 2}\n" for k in range(1, 21)), encoding="utf-8")
    line = assert_one_line_error(run("train", "huge.csv", "--out", "huge.json", cwd=work))
    assert "overflow" in line and "standardize=True" in line
    result = run("train", "huge.csv", "--standardize", "--out", "huge.json", cwd=work)
    assert result.returncode == 0, result.stderr
    assert np.isfinite(load_model(work / "huge.json").dual_coef_).all()


def test_a_hard_margin_without_solution_warns_and_writes_a_finite_model(work):
    result = run("train", "moons.csv", "--kernel", "sigmoid", "-C", "inf", "--out",
                 "sigmoid.json", cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("svmdesk: warning: solver 'smo': hard margin has no")
    assert "grew without bound" in result.stderr and "overflow" not in result.stderr
    assert np.isfinite(load_model(work / "sigmoid.json").dual_coef_).all()


def test_train_and_predict_never_import_qt(work):
    code = ("import sys; from svmdesk.cli import main; "
            "assert main(['train', 'moons.csv', '--out', 'noqt.json']) == 0; "
            "assert main(['predict', 'noqt.json', 'moons.csv']) == 0; "
            "assert not [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))]")
    result = subprocess.run([sys.executable, "-c", code], cwd=work, env=_env(),
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr


# -- predict --------------------------------------------------------------------------------
def test_predict_binary_matches_the_model(work):
    result = run("predict", "moons.json", "moons.csv", cwd=work)
    assert result.returncode == 0, result.stderr
    header, rows = read_csv(result.stdout)
    assert header == ["x1", "x2", "label", "decision"]
    data = load_dataset(work / "moons.csv")
    X = np.array([[float(r[0]), float(r[1])] for r in rows])
    np.testing.assert_array_equal(X, data.X)          # features written exactly
    model = load_model(work / "moons.json")
    assert [r[2] for r in rows] == [str(v) for v in model.predict(data.X).tolist()]
    np.testing.assert_allclose([float(r[3]) for r in rows], model.decision_function(data.X),
                               rtol=1e-12, atol=1e-12)


def test_predict_multiclass_has_one_decision_column_per_pair(work):
    result = run("predict", "blobs3.json", "blobs3.csv", cwd=work)
    assert result.returncode == 0, result.stderr
    header, rows = read_csv(result.stdout)
    assert header == ["x1", "x2", "label", "decision_0_vs_1", "decision_0_vs_2",
                      "decision_1_vs_2"]
    data = load_dataset(work / "blobs3.csv")
    model = load_model(work / "blobs3.json")
    assert [r[2] for r in rows] == [str(v) for v in model.predict(data.X).tolist()]
    per_machine = model.set_params(decision_function_shape="ovo").decision_function(data.X)
    np.testing.assert_allclose(np.array([r[3:] for r in rows], dtype=float), per_machine,
                               rtol=1e-12, atol=1e-12)


def test_predict_text_labels_and_a_file_without_label_column(work):
    assert run("train", "pets.csv", "--out", "pets.json", cwd=work).returncode == 0
    (work / "new.csv").write_text("width,height\n0.0,1.0\n1.0,-0.5\n", encoding="utf-8")
    result = run("predict", "pets.json", "new.csv", cwd=work)
    assert result.returncode == 0, result.stderr
    header, rows = read_csv(result.stdout)
    assert header == ["width", "height", "label", "decision"]
    expected = load_model(work / "pets.json").predict([[0.0, 1.0], [1.0, -0.5]])
    assert [r[2] for r in rows] == list(expected) == ["cat", "dog"]


def test_predict_refuses_wrong_feature_count(work):
    line = assert_one_line_error(run("predict", "moons.json", "three.csv", cwd=work))
    assert "three.csv has 3 feature columns" in line and "trained on 2 features" in line


def test_predict_refuses_libsvm_models(work):
    if not (work / "lin.model").exists():
        run("train", "moons.csv", "--kernel", "linear", "--out", "lin.model", cwd=work)
    line = assert_one_line_error(run("predict", "lin.model", "moons.csv", cwd=work))
    assert "LIBSVM model" in line and "svm-predict" in line


# -- render ---------------------------------------------------------------------------------
def png_size(path: Path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.slow
@pytest.mark.parametrize("data, model, width", [
    ("moons.csv", None, 400),
    ("moons.csv", "moons.json", 640),
    ("blobs3.csv", "blobs3.json", 500),
])
def test_render_png(work, data, model, width):
    out = work / f"{Path(data).stem}-{model is not None}.png"
    args = ["render", data, "--out", out.name, "--width", width]
    result = run(*args, *(["--model", model] if model else []), cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""          # a model over its own points: nothing to warn of
    assert png_size(out) == (width, width * 3 // 4)


@pytest.mark.slow
@pytest.mark.parametrize("model", [None, "moons.json"])
def test_render_svg(work, model):
    out = work / f"moons-{model is not None}.svg"
    result = run("render", "moons.csv", "--out", out.name,
                 *(["--model", model] if model else []), cwd=work)
    assert result.returncode == 0, result.stderr
    root = ElementTree.parse(out).getroot()
    assert root.tag.endswith("svg")
    paths = len(list(root.iter("{http://www.w3.org/2000/svg}path")))
    assert paths > 0


def relabelled(work, name: str, labels: dict, shift: float = 0.0) -> str:
    """moons.csv (classes 0 and 1) saved as `name` with its classes renamed by `labels`
    and its points moved by `shift` on both features."""
    moons = load_dataset(work / "moons.csv")
    y = np.array([labels[c] for c in np.asarray(moons.class_names)[moons.y]])
    names, codes = np.unique(y, return_inverse=True)
    save_dataset(Dataset(moons.X + shift, codes, tuple(names)), work / name)
    return name


def test_render_refuses_a_model_of_none_of_the_points_classes(work):
    """Model classes 0/1 over points of 5/6: the regions would say nothing about these
    points. The window's sentence, exit 2, no picture."""
    data = relabelled(work, "fives.csv", {"0": "5", "1": "6"})
    out = work / "fives.png"
    line = assert_one_line_error(run("render", data, "--model", "moons.json",
                                     "--out", out.name, cwd=work))
    assert ("none of the model's classes (0, 1) is a class of these points (5, 6), so the "
            "accuracy compares different labels.") in line
    assert "moons.json" in line and "fives.csv" in line
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("labels, shift, words", [
    ({"0": "0", "1": "7"}, 0.0, None),                       # shares class 0; 7 is new
    ({"0": "0", "1": "1"}, 50.0, "the model was trained on"),  # far outside its range
    ({"0": "1", "1": "7"}, 50.0, "the model was trained on"),
])
def test_render_warns_of_foreign_points_and_draws_them(work, labels, shift, words):
    """Some of the model's classes among the points' (the window says nothing of classes
    then), or points far outside the model's training range (the window warns): the
    picture is written, exit 0, the window's warning on stderr."""
    data = relabelled(work, f"other-{shift:g}-{'-'.join(labels.values())}.csv", labels, shift)
    out = work / Path(data).with_suffix(".png").name
    result = run("render", data, "--model", "moons.json", "--out", out.name, "--width", 400,
                 cwd=work)
    assert result.returncode == 0, result.stderr
    assert png_size(out) == (400, 300)
    assert result.stdout == f"wrote {out.name}\n"
    if words is None:
        assert result.stderr == ""
        return
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith("svmdesk: warning: moons.json: these points reach ")
    assert lines[0].endswith("its predictions out there are guesses (extrapolation).")
    assert words in lines[0]
    from svmdesk.app.files.file_types import range_warning

    model, points = load_model(work / "moons.json"), load_dataset(work / data)
    assert lines[0] == f"svmdesk: warning: moons.json: {range_warning(model, points.X)}"


# -- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (["train", "missing.csv", "--out", "m.json"], "missing.csv: no such file"),
    (["train", "bad.csv", "--out", "m.json"], "bad.csv, line 3, column 'b': 'oops' is not"),
    (["train", "prices.csv", "--out", "m.json"], "prices.csv: Unknown label type: continuous"),
    (["train", "moons.csv", "-C", "0", "--out", "m.json"], "C must be a positive number"),
    (["train", "moons.csv", "-C", "many", "--out", "m.json"], "argument -C: must be"),
    (["train", "moons.csv", "--solver", "newton", "--out", "m.json"],
     "argument --solver: invalid choice: 'newton'"),
    (["train", "moons.csv", "--solver", "pegasos", "--kernel", "rbf", "--out", "m.json"],
     "solver 'pegasos' trains linear models only"),
    (["train", "moons.csv", "--gamma", "wide", "--out", "m.json"], "argument --gamma"),
    (["train", "moons.csv", "--test-fraction", "1", "--out", "m.json"], "--test-fraction"),
    (["train", "moons.csv", "--out", "m.txt"], "must end in .json"),
    (["train", "moons.csv", "--out", "no/such/folder/m.json"], "does not exist"),
    (["train", "pets.csv", "--out", "pets.model"], "LIBSVM model files need numeric"),
    (["train", "moons.csv"], "required: --out"),
    (["predict", "missing.json", "moons.csv"], "missing.json: no such model file"),
    (["predict", "moons.csv", "moons.csv"], "not valid JSON"),
    (["predict", "moons.json", "missing.csv"], "missing.csv: no such file"),
    (["render", "moons.csv", "--out", "x.jpg"], "must end in .png or .svg"),
    (["render", "three.csv", "--model", "moons.json", "--out", "x.png"],
     "three.csv has 3 feature columns"),
    (["render", "moons.csv", "--out", "x.png", "--width", "5"], "argument --width"),
    (["trian", "moons.csv"], "invalid choice: 'trian'"),
])
def test_bad_input_is_one_line_and_exit_2(work, args, message):
    line = assert_one_line_error(run(*args, cwd=work))
    assert message in line


def test_unexpected_failure_exits_1(work):
    line = assert_one_line_error(run("train", "moons.csv", "--solver", "kernel-gradient",
                                     "--learning-rate", "1e12", "--out", "k.json", cwd=work),
                                 code=1)
    assert "DivergenceError" in line


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_shows_the_traceback(work, where):
    args = ["train", "moons.csv", "-C", "0", "--out", "m.json"]
    args = ["--debug", *args] if where == "before" else [*args, "--debug"]
    result = run(*args, cwd=work)
    assert result.returncode == 2
    assert "Traceback (most recent call last)" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("svmdesk: error: C must be")


# -- the window and the frame (in process) --------------------------------------------------
@pytest.mark.parametrize("argv, window", [
    ([], True), (["points.csv"], True), (["train"], False), (["--help"], False),
    (["trian"], False), (["points.csv", "more.csv"], False), (["render", "x.csv"], False),
])
def test_which_arguments_open_the_window(argv, window):
    assert cli.opens_window(argv) is window


def test_no_arguments_or_a_file_delegate_to_the_window(monkeypatch):
    import svmdesk.app

    calls = []
    monkeypatch.setattr(svmdesk.app, "main",
                        lambda argv, lang=None: calls.append((argv[1:], lang)) or 0)
    assert cli.main([]) == 0
    assert cli.main(["points.csv"]) == 0
    assert cli.main(["--lang", "ja"]) == 0
    assert cli.main(["--lang=en", "points.csv"]) == 0
    assert calls == [([], None), (["points.csv"], None), ([], "ja"), (["points.csv"], "en")]


def test_an_unknown_language_is_a_usage_error_and_opens_nothing(monkeypatch, capsys):
    import svmdesk.app

    monkeypatch.setattr(svmdesk.app, "main", lambda argv, lang=None: pytest.fail("opened"))
    with pytest.raises(SystemExit) as stop:
        cli.main(["--lang", "xx"])
    assert stop.value.code == 2
    assert "--lang: invalid choice: 'xx' (choose from 'en', 'ja')" in capsys.readouterr().err


def test_model_frame_draws_what_training_drew():
    pytest.importorskip("PySide6")
    from svmdesk.core.training_job import Job
    from svmdesk.drawing.decision_grid import GridSpec
    from svmdesk.drawing.live_frames import make_frame
    from svmdesk.drawing.model_frames import model_frame

    data = make_dataset("moons", n=80, seed=4)
    spec = GridSpec(-2.0, 3.0, -1.5, 2.0, 60, 50)
    svc = SVC(kernel="rbf", C=3.0, standardize=True)
    final = list(svc.iter_fit(data.X, data.y, every=10**9))[-1]
    trained = make_frame(final, Job(data.X, data.y, SVC()), spec, 0.0, final=True)
    order = np.argsort(trained.scene.support)
    for model in (svc, svc.model_, load_model_roundtrip(svc)):
        frame = model_frame(model, data.X, data.y, spec)
        np.testing.assert_array_equal(frame.scene.support, trained.scene.support[order])
        np.testing.assert_allclose(frame.scene.support_xy, trained.scene.support_xy[order],
                                   atol=1e-12)
        np.testing.assert_array_equal(frame.scene.bounded, trained.scene.bounded[order])
        np.testing.assert_allclose(frame.scene.values, trained.scene.values, atol=1e-5)
        assert set(frame.scene.contours) == {-1.0, 0.0, 1.0}
        assert frame.reading.train_accuracy == trained.reading.train_accuracy
        assert frame.scene.classes == (0, 1) and frame.run.final and frame.scene.regions is None
    three = make_dataset("blobs", n=60, seed=5, centers=3)
    svc3 = SVC(kernel="linear").fit(three.X, three.y)
    frame = model_frame(svc3, three.X, three.y, spec)
    assert frame.scene.regions.shape == spec.shape
    assert set(frame.scene.contours) == {0.0}                   # borders
    np.testing.assert_array_equal(frame.scene.support, np.sort(svc3.support_))


def load_model_roundtrip(svc):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.json"
        save_model(svc, path)
        return load_model(path)
