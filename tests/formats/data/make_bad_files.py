"""Write the corpus of bad data files in tests/formats/data/bad/ (run: python make_bad_files.py).

Each entry is a small file that load_dataset must refuse with a DataError; test_points.py says
which message each one gets and checks the files on disk still match this script.
columns.csv and too_large.csv are fine files that the tests load with bad arguments (a missing
column name, an index out of range) or a lowered size limit.  folder.csv is a directory.
"""
from pathlib import Path

HERE = Path(__file__).parent / "bad"
HEADER = "x1,x2,label\n"
ROWS = "0.5,1.5,a\n1.0,2.0,b\n-1.5,0.25,a\n"

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
FILES = {
    # empty or nearly
    "empty.csv": b"",
    "whitespace_only.csv": b"  \n\t\n   \r\n",
    "header_only.csv": HEADER.encode(),
    "only_empty_rows.csv": b",,\n,,\n",
    "one_class.csv": (HEADER + "0,0,a\n1,1,a\n2,2,a\n").encode(),
    # a regression target: fractional numbers, more of them than a data set may hold classes
    "measurements.csv": (HEADER + "".join(f"{k},{k % 3},{k * 0.37:.2f}\n"
                                          for k in range(12))).encode(),
    "libsvm_measurements.libsvm": "".join(f"{k / 4} 1:{k} 2:{k % 3}\n"
                                          for k in range(10)).encode(),
    # cells
    "non_numeric.csv": (HEADER + ROWS + "3,4,b\n5,6,a\n7,abc,b\n8,9,a\n").encode(),
    "nan.csv": (HEADER + "0,0,a\nNaN,1,b\n").encode(),
    "inf.csv": (HEADER + "0,0,a\n1,inf,b\n").encode(),
    "minus_infinity.csv": (HEADER + "0,0,a\n1,2,b\n-Infinity,1,a\n").encode(),
    "overflow.csv": (HEADER + "0,0,a\n1e999,1,b\n").encode(),
    "empty_cell.csv": (HEADER + "0,0,a\n1,,b\n").encode(),
    "empty_label.csv": (HEADER + "0,0,a\n1,1,\n").encode(),
    "decimal_comma.csv": b"x1;x2;label\n0,5;1,5;a\n1;2;b\n",
    "underscore_number.csv": (HEADER + "0,0,a\n1_000,1,b\n").encode(),
    "no_header_bad_cell.csv": b"0,0,a\n1,one,b\n",
    "shift_jis_bad_cell.csv": "\u540d\u524d,\u9ad8\u3055,\u30e9\u30d9\u30eb\n1,2,\u72ac\n"
                              "3,\u3042,\u732b\n".encode("shift_jis"),
    # shape
    "too_few_fields.csv": (HEADER + "0,0,a\n1,b\n").encode(),
    "too_many_fields.csv": (HEADER + "0,0,a\n1,1,b\n2,2,2,a\n").encode(),
    "too_many_fields.tsv": b"x1\tx2\tlabel\n0\t0\ta\n1\t1\t1\tb\n",
    "ragged_semicolons.csv": b"x1;x2;label\n0;0;a\n1;b\n",
    "one_feature.csv": b"x,label\n1,a\n2,b\n",
    "one_column.csv": b"1\n2\n3\n",
    "unbalanced_quote.csv": (HEADER + '0,0,a\n1,1,"b\n2,2,a\n').encode(),
    "stray_quote.csv": (HEADER + '0,0,a\n1,1,"b"c\n').encode(),
    # not text
    "binary_nul.csv": (HEADER + "0,0,a\n").encode() + b"\x00\x01\x02\x03\xff",
    "image.csv": PNG,
    "workbook.csv": b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00",
    "utf16.csv": "x1,x2,label\n0,0,a\n1,1,b\n".encode("utf-16"),
    "latin1.csv": (HEADER + "0,0,caf\xe9\n1,1,th\xe9\n").encode("latin-1"),
    # LIBSVM
    "libsvm_no_colon.libsvm": b"+1 1:0.5 2:1\n-1 1:0.25 abc\n",
    "libsvm_bad_index.libsvm": b"+1 1:0.5 2:1\n-1 a:0.5 2:1\n",
    "libsvm_float_index.svm": b"+1 1:0.5 2:1\n-1 1.5:2\n",
    "libsvm_qid.svmlight": b"+1 qid:3 1:0.5 2:1\n-1 qid:3 1:1 2:0\n",
    "libsvm_index_zero.libsvm": b"+1 0:0.5 2:1\n-1 1:1 2:0\n",
    "libsvm_negative_index.libsvm": b"+1 1:0.5 2:1\n-1 -2:0.5\n",
    "libsvm_bad_value.libsvm": b"+1 1:0.5 2:1\n-1 1:abc 2:1\n",
    "libsvm_nan_value.libsvm": b"+1 1:0.5 2:nan\n-1 1:1 2:1\n",
    "libsvm_empty_value.libsvm": b"+1 1:0.5 2:\n-1 1:1 2:1\n",
    "libsvm_duplicate_index.libsvm": b"+1 1:0.5 2:1\n-1 1:0.5 2:1 1:0.7\n",
    "libsvm_text_label.libsvm": b"+1 1:0.5 2:1\ncat 1:0.5 2:1\n",
    "libsvm_missing_label.libsvm": b"1:0.5 2:0.3\n",
    "libsvm_one_class.libsvm": b"# all positive\n+1 1:0.5 2:1\n1 1:1 2:0\n1.0 1:2 2:2\n",
    "libsvm_one_feature.libsvm": b"+1 1:0.5\n-1 1:1\n",
    "libsvm_comments_only.libsvm": b"# nothing here\n   # nor here\n",
    "libsvm_huge_index.libsvm": b"+1 1:1 2:1\n-1 1:1 999999999:1\n",
    "sniffed_libsvm_bad_index": b"+1 1:0.5 2:1\n-1 1:1 0:2\n",
    # fine files used with bad arguments or limits
    "columns.csv": (HEADER + ROWS).encode(),
    "too_large.csv": (HEADER + ROWS * 20).encode(),
    "folder.csv/README": b"A directory named like a CSV file: load_dataset must refuse it.\n",
}


def main() -> None:
    for name, data in FILES.items():
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


if __name__ == "__main__":
    main()
