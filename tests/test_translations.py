"""The translations: every message the sources mark (tr(), N_()) has its Japanese in the
catalogue, the compiled .mo is the .po, each translation keeps its placeholders and is
Japanese indeed; and the language svmdesk chooses follows --lang, SVMDESK_LANG, the window's
choice and the system, in that order. tools/translations extracts, merges and compiles."""
import ast
import gettext
import re
import string
from pathlib import Path

import pytest

from svmdesk import i18n, resources

babel = pytest.importorskip("babel", reason="Babel is a test dependency: pip install -e '.[test]'")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = resources.path("locale/ja/LC_MESSAGES")
# kana, kanji, 。「」 and the full-width forms
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
# Messages whose Japanese is the English itself: names (the XOR generator, the machines'
# kinds); ", " is the ideographic comma.
SAME_IN_JAPANESE = {"xor", ", ", "C-SVC", "ν-SVC", "ε-SVR", "ν-SVR", "ROC", "F1", "f(x)"}


def _source_messages() -> set:
    return {message for folder in ("svmdesk", "resources")
            for _file, _line, message, _comments, _context in extract_from_dir(
                str(ROOT / folder), method_map=[("**.py", "python")],
                keywords={"tr": None, "N_": None})}


def _po() -> dict:
    with open(CATALOGUE / "svmdesk.po", "rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id}


def _placeholders(text: str) -> set:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_every_marked_message_is_in_the_catalogue_and_none_is_left_over():
    sources, po = _source_messages(), _po()
    assert sources, "no marked message found: is the extractor reading svmdesk/?"
    assert sorted(sources - set(po)) == [], "run tools/translations and translate them"
    assert sorted(set(po) - sources) == [], "run tools/translations: these left the sources"


def test_the_compiled_catalogue_is_the_po():
    with open(CATALOGUE / "svmdesk.mo", "rb") as f:
        mo = gettext.GNUTranslations(f)
    po = _po()
    assert {m: mo.gettext(m) for m in po} == po, "run tools/translations to compile the .po"


def test_each_translation_is_japanese_and_keeps_its_placeholders():
    for message, japanese in _po().items():
        assert japanese, f"not translated: {message!r}"
        assert _placeholders(japanese) == _placeholders(message), message
        if message not in SAME_IN_JAPANESE:
            assert japanese != message and JAPANESE.search(japanese), message
    assert _po()[", "] == "、"


def test_the_mnemonics_stay_in_the_japanese_menus():
    for message, japanese in _po().items():
        mnemonic = re.search(r"&(\w)", message)
        if mnemonic:
            assert f"(&{mnemonic.group(1).upper()})" in japanese or "&" in japanese, message


@pytest.fixture
def restore_language():
    yield
    i18n.set_language("en")


def test_tr_speaks_the_language_set(restore_language):
    assert i18n.tr("&File") == "&File"
    assert i18n.set_language("ja_JP.UTF-8") == "ja" and i18n.language() == "ja"
    assert i18n.tr("&File") == "ファイル(&F)"
    assert i18n.tr("a message nobody marked") == "a message nobody marked"
    assert i18n.set_language("fr") == "en" and i18n.tr("&File") == "&File"


def test_the_language_chosen_follows_lang_then_the_environment_then_the_window(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", i18n.ENVIRONMENT):
        monkeypatch.delenv(variable, raising=False)
    assert i18n.chosen_language() == "en"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.chosen_language() == "ja"                    # the system's
    assert i18n.chosen_language(remembered="en") == "en"     # View > Language wins over it
    monkeypatch.setenv(i18n.ENVIRONMENT, "ja")
    assert i18n.chosen_language(remembered="en") == "ja"     # SVMDESK_LANG wins over both
    assert i18n.chosen_language("en", remembered="ja") == "en"   # --lang wins over all
    monkeypatch.setenv(i18n.ENVIRONMENT, "klingon")          # unknown: the next in line
    assert i18n.chosen_language(remembered="ja") == "ja"
    monkeypatch.setenv("LANGUAGE", "fr:ja")                   # gettext's list: the first known
    monkeypatch.delenv(i18n.ENVIRONMENT)
    assert i18n.system_language() == "ja"
    monkeypatch.setenv("LANGUAGE", "C")
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert i18n.system_language() == "en"


def test_the_suite_speaks_english_on_a_japanese_machine(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.setenv("LANGUAGE", "ja")
    assert i18n.chosen_language() == "en"          # tests/conftest.py sets SVMDESK_LANG=en
    assert i18n.language() == "en" and i18n.tr("&File") == "&File"


def test_every_error_the_core_the_readers_and_the_commands_raise_is_translated():
    """An error raised with a message written out (a literal or an f-string) in the core, the
    file formats, the view maths or the command line: a user may read it, so it goes through
    tr (an f-string cannot: its words are not in the catalogue)."""
    untranslated = []
    for layer in ("core", "formats", "drawing", "cli"):
        for path in sorted((ROOT / "svmdesk" / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                        and node.exc.args and not _is_assertion(node.exc)
                        and isinstance(node.exc.args[0], (ast.Constant, ast.JoinedStr))):
                    untranslated.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert untranslated == []


def _is_assertion(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "AssertionError"



def test_a_japanese_list_spaces_its_joint_only_beside_latin_words(restore_language):
    """と and または sit between Japanese words without spaces and between Latin ones
    with them ("点 と テスト用の割合" read wrong in the exercise pane's fixed controls)."""
    i18n.set_language("ja")
    assert i18n.both(["点", "テスト用の割合"]) == "点とテスト用の割合"
    assert i18n.both(["rbf", "poly"]) == "rbf と poly"
    assert i18n.both(["カーネル：rbf", "点"]) == "カーネル：rbf と点"
    assert i18n.either(["linear", "rbf", "sigmoid"]) == "linear、rbf または sigmoid"
    assert i18n.either(["SMO（libsvm のアルゴリズム）", "双対勾配上昇法"]) == \
        "SMO（libsvm のアルゴリズム）または双対勾配上昇法"
    i18n.set_language("en")
    assert i18n.both(["a", "b", "c"]) == "a, b and c" and i18n.either(["a", "b"]) == "a or b"


def test_a_file_filter_keeps_its_patterns_in_plain_brackets():
    """Qt reads a file dialog's patterns only between ASCII brackets: "Python スクリプト
    （*.py）" matched no file, and the Japanese save dialog showed no .py (seen under Xvfb)."""
    for message, japanese in _po().items():
        for pattern in re.findall(r"\([^()]*(?:\*|\{patterns\})[^()]*\)", message):
            assert pattern in japanese, (message, japanese)
