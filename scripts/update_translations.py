"""Extract the window's strings into assets/translations/*.ts (pyside6-lupdate).

Run after changing user-visible strings: existing translations are kept, new strings come in
unfinished, strings no longer in the code are marked obsolete (``-no-obsolete`` drops them).
The compiled .qm files are not committed: ``scripts/setup.sh`` builds them (see
``scripts/build_translations.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "zh_CN")
# English needs a catalog too, for its plural forms only ("1 file", "2 files" from "%n file(s)").
PLURALS_ONLY = ("en",)
# app/ marks the sentences the window shows with app.core.texts.tr (the core itself stays Qt-free).
SOURCES = ("ui", "app")


CATALOG = ROOT / "assets" / "catalog.json"
CATALOG_TEXTS = ROOT / "app" / "models" / "catalog_texts.py"


def _entry(literal: str) -> str:
    """One tuple entry, laid out as ``ruff format`` lays it out (the file is checked)."""
    line = f"    tr({literal}),"
    return line if len(line) <= 100 else f"    tr(\n        {literal}\n    ),"


def catalog_texts() -> str:
    """A module listing the catalog's descriptions as tr() calls, for lupdate to extract."""
    models = json.loads(CATALOG.read_text(encoding="utf-8"))["models"]
    descriptions = sorted({str(model["description"]) for model in models})
    lines = [
        "# ruff: noqa: E501 - the descriptions are kept whole, as the catalog has them",
        '"""The model catalog\'s descriptions, for translation (made by',
        "scripts/update_translations.py from assets/catalog.json; do not edit).",
        "",
        "The window translates a description by its text (app.core.texts.Text); lupdate only reads",
        'Python, so every description is listed here once."""',
        "",
        "from app.core.texts import Text, tr",
        "",
        "DESCRIPTIONS: tuple[Text, ...] = (",
        *(_entry(json.dumps(text, ensure_ascii=False)) for text in descriptions),
        ")",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    CATALOG_TEXTS.write_text(catalog_texts(), encoding="utf-8")
    lupdate = Path(sys.executable).with_name("pyside6-lupdate")
    files = sorted(
        str(path.relative_to(ROOT))
        for folder in SOURCES
        for path in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in path.parts
    )
    for language in (*LANGUAGES, *PLURALS_ONLY):
        # The target language decides how many plural forms lrelease keeps.
        target = f"assets/translations/ov_studio_{language}.ts"
        command = [str(lupdate), "-no-obsolete", "-locations", "none", "-target-language"]
        command += [language, *files, "-ts", target]
        if language in PLURALS_ONLY:
            command.append("-pluralonly")
        done = subprocess.run(command, cwd=ROOT, check=False)
        if done.returncode != 0:
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
