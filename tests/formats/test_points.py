"""load_dataset / save_dataset: CSV and LIBSVM files, a corpus of bad files, atomic saves and
property-based tests (arbitrary bytes only ever raise DataError; tables round-trip exactly)."""
import importlib.util
import os
import string
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmdesk.core import DataError, Dataset, make_dataset
from svmdesk.formats import load_dataset, point_cells, save_dataset, text_file

DATA = Path(__file__).parent / "data"
BAD = DATA / "bad"


def _generator():
    spec = importlib.util.spec_from_file_location("make_bad_files", DATA / "make_bad_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write(tmp_path, name, content, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode(encoding))
    return path


def refused(path, **kw) -> str:
    with pytest.raises(DataError) as info:
        load_dataset(path, **kw)
    message = str(info.value)
    assert message.startswith(Path(path).name), message
    return message


# -- the corpus of bad files ----------------------------------------------------------------
CORPUS = [  # file, load_dataset arguments, fragments the message must contain
    ("empty.csv", {}, ["the file is empty"]),
    ("whitespace_only.csv", {}, ["only blank lines"]),
    ("header_only.csv", {}, ["line 1", "header row but no data rows"]),
    ("only_empty_rows.csv", {}, ["every row is empty"]),
    ("one_class.csv", {}, ["every point has the label 'a'", "at least two classes"]),
    ("non_numeric.csv", {}, ["line 7, column 'x2': 'abc' is not a number; fix or remove"]),
    ("nan.csv", {}, ["line 3, column 'x1': 'NaN' is not a finite number"]),
    ("inf.csv", {}, ["line 3, column 'x2': 'inf' is not a finite number"]),
    ("minus_infinity.csv", {}, ["line 4, column 'x1': '-Infinity' is not a finite number"]),
    ("overflow.csv", {}, ["line 3, column 'x1': '1e999' is not a finite number"]),
    ("empty_cell.csv", {}, ["line 3, column 'x2': empty cell"]),
    ("empty_label.csv", {}, ["line 3, column 'label': empty label"]),
    ("decimal_comma.csv", {}, ["line 2, column 'x1': '0,5' is not a number",
                               "use a point for decimals"]),
    ("underscore_number.csv", {}, ["line 3, column 'x1': '1_000' is not a number"]),
    ("no_header_bad_cell.csv", {}, ["line 2, column 2: 'one' is not a number"]),
    ("shift_jis_bad_cell.csv", {}, ["line 3, column '高さ': 'あ' is not a number"]),
    ("too_few_fields.csv", {}, ["line 3: 2 fields where the header has 3",
                                "missing or extra ','"]),
    ("too_many_fields.csv", {}, ["line 4: 4 fields where the header has 3"]),
    ("too_many_fields.tsv", {}, ["line 3: 4 fields where the header has 3",
                                 "missing or extra tab"]),
    ("ragged_semicolons.csv", {}, ["line 3: 2 fields", "missing or extra ';'"]),
    ("one_feature.csv", {}, ["at least two feature columns", "found 1 ('x')"]),
    ("one_column.csv", {}, ["at least two feature columns", "found 0"]),
    ("unbalanced_quote.csv", {}, ["line 3", 'a quote " opens a field here and never closes']),
    ("stray_quote.csv", {}, ["line 3", 'text follows the quote "']),
    ("binary_nul.csv", {}, ["line 3", "NUL byte", "binary file"]),
    ("image.csv", {}, ["PNG image", "export the points as CSV"]),
    ("workbook.csv", {}, ["Excel workbook (.xlsx)", "CSV UTF-8"]),
    ("utf16.csv", {}, ["UTF-16 text", "CSV UTF-8"]),
    ("latin1.csv", {}, ["line 2", "byte 0xe9 is neither UTF-8 nor Shift-JIS"]),
    ("libsvm_no_colon.libsvm", {}, ["line 2, item 3: 'abc' is not index:value"]),
    ("libsvm_bad_index.libsvm", {}, ["line 2, item 2: 'a' in 'a:0.5' is not a feature index"]),
    ("libsvm_float_index.svm", {}, ["line 2, item 2: '1.5' in '1.5:2' is not a feature index"]),
    ("libsvm_qid.svmlight", {}, ["line 1, item 2: 'qid'", "not a feature index"]),
    ("libsvm_index_zero.libsvm", {}, ["line 1, item 2: feature index 0", "start at 1"]),
    ("libsvm_negative_index.libsvm", {}, ["line 2, item 2: feature index -2", "start at 1"]),
    ("libsvm_bad_value.libsvm", {}, ["line 2, item 2, column 'x1': 'abc' is not a number"]),
    ("libsvm_nan_value.libsvm", {}, ["line 1, item 3, column 'x2': 'nan' is not a finite"]),
    ("libsvm_empty_value.libsvm", {}, ["line 1, item 3, column 'x2': empty cell"]),
    ("libsvm_duplicate_index.libsvm", {}, ["line 2, item 4: feature 1 appears twice"]),
    ("libsvm_text_label.libsvm", {}, ["line 2, item 1: label 'cat' is not a number",
                                      "as CSV"]),
    ("libsvm_missing_label.libsvm", {}, ["line 1: the line starts with '1:0.5'"]),
    ("libsvm_one_class.libsvm", {}, ["every point has the label '1'"]),
    ("measurements.csv", {}, ["Unknown label type: continuous", "such as 0.37",
                              "12 distinct labels"]),
    ("libsvm_measurements.libsvm", {}, ["Unknown label type: continuous", "such as 0.25"]),
    ("libsvm_one_feature.libsvm", {}, ["at least two feature columns", "found 1 ('x1')"]),
    ("libsvm_comments_only.libsvm", {}, ["only comments"]),
    ("libsvm_huge_index.libsvm", {}, ["999999999 features", "too many numbers"]),
    ("sniffed_libsvm_bad_index", {}, ["line 2, item 3: feature index 0"]),
    ("folder.csv", {}, ["this is a folder, not a file"]),
    ("columns.csv", {"x": "nope"}, ["no column named 'nope' (given as x)",
                                    "x1, x2, label"]),
    ("columns.csv", {"y": "height"}, ["no column named 'height' (given as y)"]),
    ("columns.csv", {"label": "class"}, ["no column named 'class' (given as label)"]),
    ("columns.csv", {"x": 3}, ["column index 3 (given as x) is out of range",
                               "numbered 0 to 2"]),
    ("columns.csv", {"y": -1}, ["column index -1 (given as y) is out of range"]),
    ("columns.csv", {"label": 7}, ["column index 7 (given as label) is out of range"]),
    ("columns.csv", {"x": "label"}, ["column 'label' (given as x) holds the labels"]),
    ("columns.csv", {"x": 0, "y": "x1"}, ["x and y are both column 'x1'"]),
    ("columns.csv", {"x": 1.0}, ["x=1.0: give a column name or a 0-based column index"]),
    ("columns.csv", {"y": True}, ["y=True: give a column name"]),
    ("one_column.csv", {"label": "label"}, ["no header row", "0-based column index"]),
    ("libsvm_one_class.libsvm", {"label": 0}, ["label= picks a CSV column"]),
    ("libsvm_one_class.libsvm", {"x": "x3"}, ["no column named 'x3' (given as x)",
                                              "the columns are x1, x2"]),
]


@pytest.mark.parametrize("name, kw, fragments", CORPUS,
                         ids=[f"{n}-{'-'.join(map(str, kw.values()))}" for n, kw, _ in CORPUS])
def test_each_bad_file_is_refused_with_the_place_and_the_fix(name, kw, fragments):
    message = refused(BAD / name, **kw)
    for fragment in fragments:
        assert fragment in message


def test_every_corpus_file_is_tested_and_matches_its_generator():
    files = _generator().FILES
    assert len(files) >= 25
    for name, data in files.items():
        path = BAD / name
        assert path.read_bytes() == data, f"{name} is stale: run make_bad_files.py"
        assert path.stat().st_size < 100_000
    tested = {name for name, _, _ in CORPUS}
    assert {name.split("/")[0] for name in files} - tested == {"too_large.csv"}


def test_a_missing_file_is_named_with_its_folder(tmp_path):
    message = refused(tmp_path / "nothere.csv")
    assert "no such file" in message and str(tmp_path) in message


def test_a_file_over_50_mb_is_refused_before_reading(tmp_path, monkeypatch):
    big = tmp_path / "huge.csv"
    with open(big, "wb") as f:               # sparse: takes no disk space
        f.truncate(300 * 2**20)
    monkeypatch.setattr(text_file, "open", None, raising=False)  # reading it would fail loudly
    message = refused(big)
    assert "300 MB" in message and "up to 50 MB" in message


def test_the_size_limit_applies_to_what_is_read(monkeypatch):
    assert load_dataset(BAD / "too_large.csv").n == 60
    monkeypatch.setattr(text_file, "MAX_BYTES", 100)
    assert "svmdesk reads files up to" in refused(BAD / "too_large.csv")


# -- reading good CSV -----------------------------------------------------------------------
def test_csv_with_header_gives_all_features_names_and_sorted_classes(tmp_path):
    path = write(tmp_path, "points.csv", "a,b,c,species\n1,2,3,dog\n4,5,6,cat\n7,8,9,dog\n")
    d = load_dataset(path)
    assert d.X.tolist() == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert d.class_names == ("cat", "dog") and d.y.tolist() == [1, 0, 1]
    assert d.feature_names == ("a", "b", "c") and d.name == "points"
    assert d.y.dtype.kind == "i"


def test_csv_without_header_names_columns_x1_x2_and_label(tmp_path):
    d = load_dataset(write(tmp_path, "p.csv", "0.5,1,a\n2,3,b\n"))
    assert d.feature_names == ("x1", "x2") and d.X.tolist() == [[0.5, 1], [2, 3]]
    d = load_dataset(write(tmp_path, "q.csv", "a,0.5,1\nb,2,3\n"), label=0)
    assert d.feature_names == ("x1", "x2") and d.class_names == ("a", "b")
    assert load_dataset(tmp_path / "q.csv", label=0, x="x2").feature_names == ("x2", "x1")


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_separators_are_guessed(tmp_path, sep):
    text = sep.join(["x", "y", "label"]) + "\n" + sep.join(["1.5", "-2", "a"]) + "\n" + \
        sep.join(["3", "4e-3", "b"]) + "\n"
    d = load_dataset(write(tmp_path, "p.csv", text))
    assert d.X.tolist() == [[1.5, -2], [3, 0.004]] and d.feature_names == ("x", "y")


def test_quoted_fields_bom_crlf_blank_and_excel_empty_rows(tmp_path):
    text = '\ufeff"x, cm",y,"label"\r\n1,2,"big, red"\r\n\r\n,,\r\n3, 4 ,"say ""hi"""\r\n'
    d = load_dataset(write(tmp_path, "p.csv", text))
    assert d.feature_names == ("x, cm", "y") and d.X.tolist() == [[1, 2], [3, 4]]
    assert d.class_names == ("big, red", 'say "hi"')


def test_a_quoted_field_may_span_lines_and_later_lines_keep_their_numbers(tmp_path):
    text = 'x,y,label\n1,2,"two\nlines"\n3,4,b\n5,oops,b\n'
    assert "line 5" in refused(write(tmp_path, "p.csv", text))


def test_shift_jis_from_excel(tmp_path):
    text = "長さ,幅,品種\n1.5,2,犬\n3,4,猫\n"
    d = load_dataset(write(tmp_path, "jp.csv", text, encoding="cp932"))
    assert d.feature_names == ("長さ", "幅") and set(d.class_names) == {"犬", "猫"}


def test_numeric_labels_sort_by_value_before_text(tmp_path):
    d = load_dataset(write(tmp_path, "p.csv", "x,y,l\n0,0,10\n1,1,9\n2,2,-1\n3,3,b\n4,4,a\n"))
    assert d.class_names == ("-1", "9", "10", "a", "b")
    assert d.y.tolist() == [2, 1, 0, 4, 3]


def test_label_and_the_two_columns_can_be_chosen(tmp_path):
    path = write(tmp_path, "p.csv", "id,label,h,w,d\nname1,a,1,2,3\nname2,b,4,5,6\n")
    assert "line 2, column 'id': 'name1' is not a number" in refused(path, label="label")
    d = load_dataset(path, x="w", y="h", label=1)
    assert d.feature_names == ("w", "h") and d.X.tolist() == [[2, 1], [5, 4]]
    assert load_dataset(path, x=4, y="h", label="label").feature_names == ("d", "h")
    assert "column 'id'" in refused(path, y=2, label="label")   # x: the first other column
    assert load_dataset(path, y=2, label="label", x="d").feature_names == ("d", "h")


def test_the_window_gets_two_columns_and_class_indices(tmp_path):
    d = load_dataset(write(tmp_path, "p.csv", "x,y,z,label\n0,0,9,cat\n1,1,9,dog\n"))
    assert d.X[:, :2].tolist() == [[0, 0], [1, 1]]
    assert [d.class_names[k] for k in d.y] == ["cat", "dog"]


@pytest.mark.parametrize("suffix", [".txt", ".tsv", ".dat", ""])
def test_csv_by_extension_or_by_content(tmp_path, suffix):
    sep = "\t" if suffix == ".tsv" else ","
    text = "\n".join(sep.join(row) for row in [("x", "y", "l"), ("1", "2", "a"), ("3", "4", "b")])
    d = load_dataset(write(tmp_path, "p" + suffix, text))
    assert d.X.tolist() == [[1, 2], [3, 4]]


# -- reading good LIBSVM --------------------------------------------------------------------
LIBSVM = "# a comment\n+1 1:0.5 3:2   # trailing comment\n-1 2:1.25\n\n1.0 1:-3 2:1e-3 3:7\n"


@pytest.mark.parametrize("name", ["p.libsvm", "p.svm", "p.svmlight", "p", "p.data"])
def test_libsvm_sparse_to_dense_by_extension_or_content(tmp_path, name):
    d = load_dataset(write(tmp_path, name, LIBSVM))
    assert d.X.tolist() == [[0.5, 0, 2], [0, 1.25, 0], [-3, 0.001, 7]]
    assert d.class_names == ("-1", "1") and d.y.tolist() == [1, 0, 1]
    assert d.feature_names == ("x1", "x2", "x3")


def test_libsvm_columns_by_feature_name_or_index(tmp_path):
    path = write(tmp_path, "p.libsvm", LIBSVM)
    assert load_dataset(path, x="x3", y=0).X.tolist() == [[2, 0.5], [0, 0], [7, -3]]


@pytest.mark.parametrize("name", ["p.txt", "P.TXT", "p.dat", "p.data", "p.whatever"])
def test_a_libsvm_file_named_txt_or_anything_unknown_is_read_by_its_content(tmp_path, name):
    d = load_dataset(write(tmp_path, name, LIBSVM))
    assert d.X.tolist() == [[0.5, 0, 2], [0, 1.25, 0], [-3, 0.001, 7]]
    assert d.class_names == ("-1", "1") and d.y.tolist() == [1, 0, 1]


def test_scikit_learns_svmlight_file_named_txt_reads_as_libsvm():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.datasets import load_svmlight_file

    path = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / \
        "svmlight_classification.txt"
    d = load_dataset(path)
    X, y = load_svmlight_file(str(path))
    assert d.X.shape == (6, 21) and d.feature_names == tuple(f"x{j}" for j in range(1, 22))
    np.testing.assert_array_equal(d.X, X.toarray())
    np.testing.assert_array_equal(np.array(d.class_names, dtype=float)[d.y], y)


def test_a_libsvm_file_named_csv_is_refused_with_the_way_out(tmp_path):
    message = refused(write(tmp_path, "p.csv", "+1 1:0.5 2:1\n-1 1:2 2:3\n"))
    assert "looks like LIBSVM" in message and ".libsvm" in message


# -- saving ---------------------------------------------------------------------------------
def test_save_csv_writes_the_header_and_class_names(tmp_path):
    d = Dataset(np.array([[0.1, 2.0], [1 / 3, -5e-324]]), np.array([1, 0]), ("cat", "dog"),
                ("len", "width"))
    save_dataset(d, tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_text() == \
        "len,width,label\n0.1,2.0,dog\n0.3333333333333333,-5e-324,cat\n"
    back = load_dataset(tmp_path / "out.csv")
    assert np.array_equal(back.X, d.X) and back.feature_names == ("len", "width")


def test_save_accepts_labels_given_as_class_names(tmp_path):
    d = Dataset(np.eye(2), np.array(["b", "a"]), ("a", "b"))
    save_dataset(d, tmp_path / "out.tsv")
    assert (tmp_path / "out.tsv").read_text() == "x1\tx2\tlabel\n1.0\t0.0\tb\n0.0\t1.0\ta\n"
    assert load_dataset(tmp_path / "out.tsv").class_names == ("a", "b")


def test_save_libsvm_is_sparse_but_keeps_the_last_feature(tmp_path):
    d = Dataset(np.array([[0.5, 0, 0], [0, 2, 0]]), np.array([0, 1]), ("-1", "+1"),
                ("a", "b", "c"))
    save_dataset(d, tmp_path / "out.libsvm")
    assert (tmp_path / "out.libsvm").read_text() == "-1 1:0.5 3:0.0\n1 2:2.0 3:0.0\n"
    back = load_dataset(tmp_path / "out.libsvm")
    assert np.array_equal(back.X, d.X) and back.class_names == ("-1", "1")


def test_format_overrides_the_extension(tmp_path):
    d = make_dataset("blobs", n=10, seed=1)
    save_dataset(d, tmp_path / "a.dat", format="libsvm")
    save_dataset(d, tmp_path / "b.libsvm", format="CSV")
    assert (tmp_path / "a.dat").read_text().startswith("0 1:")
    assert (tmp_path / "b.libsvm").read_text().startswith("x1,x2,label\n")
    assert np.array_equal(load_dataset(tmp_path / "a.dat").X, d.X)
    with pytest.raises(ValueError, match="'csv' or 'libsvm'"):
        save_dataset(d, tmp_path / "c.csv", format="xlsx")


def test_libsvm_needs_numeric_labels(tmp_path):
    d = Dataset(np.eye(2), np.array([0, 1]), ("cat", "dog"))
    with pytest.raises(DataError, match="LIBSVM needs numeric labels.*'cat'.*CSV"):
        save_dataset(d, tmp_path / "out.libsvm")
    with pytest.raises(DataError, match="same number"):
        save_dataset(Dataset(np.eye(2), np.array([0, 1]), ("1", "1.0")), tmp_path / "o.svm")
    assert not list(tmp_path.iterdir())


def test_csv_refuses_names_it_could_not_read_back(tmp_path):
    for names, classes in [(("1", "x2"), ("a", "b")), (("x1", " x2"), ("a", "b")),
                           (("x1", "x2"), ("a", ""))]:
        with pytest.raises(DataError, match="rename"):
            save_dataset(Dataset(np.eye(2), np.array([0, 1]), classes, names),
                         tmp_path / "out.csv")


def test_names_with_other_separators_are_quoted(tmp_path):
    d = Dataset(np.eye(2), np.array([0, 1]), ("a;b;c", "d;e;f"), ("p;q", "r"))
    save_dataset(d, tmp_path / "out.csv")
    back = load_dataset(tmp_path / "out.csv")
    assert back.class_names == d.class_names and back.feature_names == d.feature_names


@pytest.mark.parametrize("fmt", ["csv", "libsvm"])
def test_file_round_trip_is_exact(tmp_path, fmt):
    d = make_dataset("moons", n=50, noise=0.3, seed=4)
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    save_dataset(d, first)
    loaded = load_dataset(first)
    save_dataset(loaded, second)
    again = load_dataset(second)
    assert first.read_bytes() == second.read_bytes()
    for out in (loaded, again):
        assert np.array_equal(out.X, d.X) and np.array_equal(out.y, d.y)
        assert out.class_names == d.class_names


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "keep.csv"
    path.write_text("old")
    calls = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync"))

    def crash(src, dst):
        calls.append("replace")
        assert Path(src).parent == tmp_path and Path(src).read_text().startswith("x1,x2")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(DataError, match="keep.csv: cannot save it .No space left"):
        save_dataset(make_dataset("blobs", n=10, seed=0), path)
    assert calls == ["fsync", "replace"]
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.csv"]


def test_an_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.csv"
    path.write_text("old")
    def interrupt(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        save_dataset(make_dataset("blobs", n=10, seed=0), path)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.csv"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_saving_over_a_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("old")
    path.chmod(0o640)
    save_dataset(make_dataset("blobs", n=10, seed=0), path)
    assert path.stat().st_mode & 0o777 == 0o640 and path.read_text().startswith("x1,x2,label")


def test_saving_into_a_missing_folder_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="out.csv: cannot save it"):
        save_dataset(make_dataset("blobs", n=10, seed=0), tmp_path / "nope" / "out.csv")


# -- properties -----------------------------------------------------------------------------
FAST = settings(max_examples=100, deadline=5000,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".csv", ".libsvm", ".tsv", ""]))
def test_arbitrary_bytes_raise_nothing_but_data_error(tmp_path, data, suffix):
    path = tmp_path / f"f{suffix}"
    path.write_bytes(data)
    try:
        load_dataset(path)
    except DataError as e:
        assert str(e).startswith(path.name)


@pytest.mark.parametrize("text", ['"' * 2_000_000, "x,y,l\n1,2,\"" + "a" * 2_000_000,
                                  ",;\t" * 700_000, "1 " + "1:1 " * 500_000,
                                  "1," * 1_000_000 + "a\n0," * 1_000 + "b\n"])
def test_big_odd_text_is_answered_quickly(tmp_path, text):
    started = time.perf_counter()
    for suffix in (".csv", ".svm"):
        with pytest.raises(DataError):
            load_dataset(write(tmp_path, "odd" + suffix, text))
    assert time.perf_counter() - started < 5


LINE_BITS = st.sampled_from(["1", "-2.5", "1e3", "nan", "a", "", " ", ",", ";", "\t", '"',
                             "\n", "\r\n", "1:2", "3:", "#", "+1", "0:1", "x"])


@FAST
@given(text=st.one_of(st.text(max_size=300), st.lists(LINE_BITS, max_size=60).map("".join)),
       suffix=st.sampled_from([".csv", ".svm", ""]),
       kw=st.sampled_from([{}, {"x": 0}, {"x": "x1", "y": 2}, {"label": 0}]))
def test_arbitrary_text_loads_or_raises_data_error(tmp_path, text, suffix, kw):
    path = tmp_path / f"t{suffix}"
    path.write_text(text, encoding="utf-8")
    try:
        d = load_dataset(path, **kw)
    except DataError:
        return
    assert d.n >= 1 and d.X.shape[1] >= 2 and d.n_classes >= 2 and np.isfinite(d.X).all()


NAME = st.text(string.ascii_letters + string.digits + " ,;\t\"'_-:#é犬\n", min_size=1,
               max_size=8).filter(lambda s: s == s.strip() and point_cells._to_float(s) is None)


@st.composite
def tables(draw):
    d = draw(st.integers(2, 4))
    n = draw(st.integers(2, 12))
    floats = st.floats(allow_nan=False, allow_infinity=False)
    X = np.array(draw(st.lists(st.lists(floats, min_size=d, max_size=d),
                               min_size=n, max_size=n)))
    classes = draw(st.lists(NAME | st.integers(-9, 99).map(str), min_size=2, max_size=4,
                            unique=True))
    y = np.array([k % len(classes) for k in range(n)])
    names = draw(st.lists(NAME, min_size=d, max_size=d, unique=True))
    return Dataset(X, draw(st.permutations(y)), tuple(classes), tuple(names))


@pytest.mark.slow
@FAST
@given(table=tables(), suffix=st.sampled_from([".csv", ".tsv", ".dat"]))
def test_well_formed_tables_round_trip_through_csv(tmp_path, table, suffix):
    path = tmp_path / f"r{suffix}"
    save_dataset(table, path)
    back = load_dataset(path)
    assert np.array_equal(back.X, table.X)
    assert back.feature_names == table.feature_names
    assert [back.class_names[k] for k in back.y] == [table.class_names[k] for k in table.y]


@pytest.mark.slow
@FAST
@given(table=tables())
def test_numeric_labels_round_trip_through_libsvm(tmp_path, table):
    table = Dataset(table.X, table.y, tuple(str(k - 1) for k in range(table.n_classes)),
                    table.feature_names)
    path = tmp_path / "r.libsvm"
    save_dataset(table, path)
    back = load_dataset(path)
    assert np.array_equal(back.X, table.X)
    assert [back.class_names[k] for k in back.y] == [table.class_names[k] for k in table.y]


def test_a_few_fractional_labels_stay_class_names_as_they_always_loaded(tmp_path):
    path = tmp_path / "halves.csv"
    path.write_text("x1,x2,label\n0,0,0.5\n1,1,1.5\n2,0,0.5\n")
    data = load_dataset(path)
    assert data.class_names == ("0.5", "1.5") and data.y.tolist() == [0, 1, 0]
