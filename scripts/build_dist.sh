#!/usr/bin/env bash
# make dist: the one-folder frozen app in dist/ov-studio/ (PyInstaller, installers/ov-studio.spec).
# Stages the bundled models first (kept in build/staging between builds), then checks the result:
# nothing of the conversion toolchain inside, PostgreSQL without GPL readline, a working --help.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
STAGING=${OV_STUDIO_STAGING:-build/staging}
export OV_STUDIO_STAGING=$STAGING
start=$SECONDS
"$PY" installers/stage_bundle.py "$STAGING"
"$PY" -m PyInstaller --noconfirm --log-level WARN \
    --workpath build/pyinstaller --distpath dist installers/ov-studio.spec
"$PY" installers/check_dist.py dist/ov-studio
echo "dist/ov-studio: $(du -sh dist/ov-studio | cut -f1), built in $((SECONDS - start)) s"
