"""Extract the window's strings into assets/translations/*.ts (pyside6-lupdate).

Run after changing user-visible strings: existing translations are kept, new strings come in
unfinished, strings no longer in the code are marked obsolete (``-no-obsolete`` drops them).
The compiled .qm files are not committed: ``scripts/setup.sh`` builds them (see
``scripts/build_translations.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("de", "zh_CN")
# English needs a catalog too, for its plural forms only ("1 file", "2 files" from "%n file(s)").
PLURALS_ONLY = ("en",)
SOURCES = ("ui",)


def main() -> int:
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
