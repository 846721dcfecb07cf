"""The language svmdesk speaks: one mechanism for every layer, the standard library's gettext.

English is the source language. `tr("...")` returns a message in the chosen language; messages
with values use named placeholders filled after translation, `tr("{n} points").format(n=n)`
(an extractor cannot read an f-string, and a translator must see the whole sentence).
`N_("...")` only marks a string defined at import time (the catalog's titles and effects) for
extraction; the window translates it where it shows it, with `tr(text)`.

The catalogues are resources/locale/<code>/LC_MESSAGES/svmdesk.po (the translations) and their
compiled .mo, which `tools/translations` extracts, merges and compiles with Babel. Free of Qt:
the core and the formats mark their messages with it too; Qt's own dialogs get Qt's catalogue
from the window (app/language.py)."""
from __future__ import annotations

import gettext
import os
import unicodedata
from pathlib import Path

DOMAIN = "svmdesk"
LANGUAGES = {"en": "English", "ja": "日本語"}     # code: the language's own name
SOURCE = "en"
ENVIRONMENT = "SVMDESK_LANG"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


def tr(message: str) -> str:
    """`message` in the language chosen (itself in English, or while it has no translation)."""
    return _translation.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a mark without translation
    """Mark `message` for extraction; it is translated where it is shown."""
    return message


def either(names: list) -> str:
    """'a, b or c' in the language chosen (a list of names is no sentence glued from English
    words: its joints are translated too)."""
    return _listed(names, tr("{first} or {last}"))


def both(names: list) -> str:
    """'a, b and c' in the language chosen."""
    return _listed(names, tr("{first} and {last}"))


def _listed(names: list, joint: str) -> str:
    names = [str(name) for name in names]
    if len(names) < 2:
        return "".join(names)
    before, _, rest = joint.partition("{first}")
    word, _, after = rest.partition("{last}")
    return before + _spaced(tr(", ").join(names[:-1]), word, names[-1]) + after


def _spaced(first: str, word: str, last: str) -> str:
    """`first`, the joint `word`, `last`: a Japanese joint (と, または) takes a space on a
    side where a Latin word meets it ("rbf と poly"), none beside Japanese ("点と割合")."""
    left = " " if _wide(word[:1]) and first and not _wide(first[-1]) else ""
    right = " " if _wide(word[-1:]) and last and not _wide(last[0]) else ""
    return first + left + word + right + last


def _wide(character: str) -> bool:
    return bool(character) and unicodedata.east_asian_width(character) in "WF"


def language() -> str:
    """The code of the language chosen ('en', 'ja')."""
    return _language


def set_language(code: str) -> str:
    """Speak `code` from now on (an unknown code, or one without a catalogue: English).
    Returns the code in use."""
    global _translation, _language
    code = normalise(code) or SOURCE
    if code == SOURCE:
        _translation, _language = gettext.NullTranslations(), SOURCE
        return _language
    found = gettext.translation(DOMAIN, str(_catalogues()), languages=[code], fallback=True)
    if isinstance(found, gettext.GNUTranslations):
        _translation, _language = found, code
    else:
        _translation, _language = gettext.NullTranslations(), SOURCE
    return _language


def _catalogues() -> Path:
    """The folder of the compiled catalogues: svmdesk.resources' once installed; in a
    checkout run without installing (PYTHONPATH=.), resources/ beside the package."""
    try:
        from . import resources
    except ImportError:
        return Path(__file__).resolve().parent.parent / "resources" / "locale"
    return Path(str(resources.path("locale")))


def normalise(code: str | None) -> str | None:
    """'ja_JP.UTF-8' -> 'ja'; None for a language svmdesk does not speak (or 'C', 'POSIX')."""
    if not code:
        return None
    short = code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return short if short in LANGUAGES else None


def system_language() -> str:
    """The first language of the environment svmdesk speaks (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG, as gettext reads them), else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for code in os.environ.get(variable, "").split(":"):
            known = normalise(code)
            if known:
                return known
    return SOURCE


def chosen_language(asked: str | None = None, remembered: str | None = None) -> str:
    """What to speak: `asked` (--lang), else SVMDESK_LANG, else `remembered` (the window's
    View > Language), else the system's language."""
    for code in (asked, os.environ.get(ENVIRONMENT), remembered):
        known = normalise(code)
        if known:
            return known
    return system_language()
