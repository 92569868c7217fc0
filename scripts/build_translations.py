"""Compile assets/translations/*.ts into the .qm files the window loads (pyside6-lrelease).

Fast and silent when every .qm is newer than its .ts: setup.sh runs this on every `make`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    for source in sorted((ROOT / "assets" / "translations").glob("*.ts")):
        target = source.with_suffix(".qm")
        if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
            continue
        done = subprocess.run(
            [str(lrelease), "-silent", str(source), "-qm", str(target)], check=False
        )
        if done.returncode != 0:
            sys.stderr.write(f"build_translations: {source.name} did not compile\n")
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
