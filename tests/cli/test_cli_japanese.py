"""The command line in Japanese (--lang ja, SVMDESK_LANG=ja or a Japanese locale): argparse's
own words (usage, headings, its errors) and svmdesk's error lines. (The commands' help texts
and summaries are still English: see the README's Languages.)"""
import pytest

from .test_cli import run


def test_a_missing_argument_is_said_in_japanese(tmp_path):
    result = run("--lang", "ja", "train", cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("svmdesk：エラー：次の引数が必要です：DATA, --out")
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("how", ["SVMDESK_LANG", "LANG"])
def test_the_environment_or_the_locale_chooses_japanese(tmp_path, monkeypatch, how):
    if how == "LANG":
        monkeypatch.delenv("SVMDESK_LANG")
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(how, "ja" if how == "SVMDESK_LANG" else "ja_JP.UTF-8")
    result = run("train", "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("使い方：svmdesk train")
    assert "位置引数" in result.stdout and "このヘルプを表示して終了します" in result.stdout


def test_english_stays_english(tmp_path):
    result = run("train", cwd=tmp_path)
    assert result.stderr.startswith("svmdesk: error: the following arguments are required")
