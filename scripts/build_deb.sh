#!/usr/bin/env bash
# make deb: dist/ov-studio_<version>_amd64.deb from the one-folder build in dist/ov-studio/.
# The app under /opt/ov-studio, /usr/bin/ov-studio (a symlink: the PyInstaller bootloader finds
# its folder through /proc/self/exe), the .desktop entry, hicolor icons, AppStream metainfo.
# Depends (installers/linux/control.in) is what the bundle's ELF files need (readelf NEEDED)
# and PyInstaller did not collect: glibc >= 2.36 (the newest symbol version inside), libGL/EGL,
# libdrm, libxcb; plus a fontconfig setup and one font. Wayland and a sound server are
# recommended: X11 and file-only audio work without them.
# No maintainer scripts: installing downloads nothing, removing leaves the user's data (it lives
# in each user's home, which a package never owns).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
DIST=dist/ov-studio
[[ -x $DIST/ov-studio ]] || { echo "error: $DIST is missing: run make dist first" >&2; exit 2; }
VERSION=$("$PY" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ROOT=build/deb/root
OUT=dist/ov-studio_${VERSION}_amd64.deb
start=$SECONDS
rm -rf build/deb && mkdir -p "$ROOT/DEBIAN" "$ROOT/opt" "$ROOT/usr/bin" \
    "$ROOT/usr/share/applications" "$ROOT/usr/share/metainfo" "$ROOT/usr/share/icons"
cp -a "$DIST" "$ROOT/opt/ov-studio"
ln -s /opt/ov-studio/ov-studio "$ROOT/usr/bin/ov-studio"
install -m 644 installers/linux/ov-studio.desktop "$ROOT/usr/share/applications/"
install -m 644 installers/linux/*.metainfo.xml "$ROOT/usr/share/metainfo/"
"$PY" scripts/render_icons.py build/icons
cp -r build/icons/hicolor "$ROOT/usr/share/icons/"
mkdir -p "$ROOT/usr/share/icons/hicolor/scalable/apps"
install -m 644 assets/icons/ov-studio.svg "$ROOT/usr/share/icons/hicolor/scalable/apps/"
chmod -R u=rwX,go=rX "$ROOT"
sed -e "s/@VERSION@/$VERSION/" -e "s/@SIZE@/$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)/" \
    installers/linux/control.in > "$ROOT/DEBIAN/control"
# zstd -9: ~300 MB in half a minute on 2 cores; DEB_COMPRESSION="-Zxz -z6" gives ~250 MB in
# about 8 minutes (a release build). Both are read by dpkg on Debian 12 and Ubuntu 22.04+.
dpkg-deb --root-owner-group ${DEB_COMPRESSION:--Zzstd -z9} --build "$ROOT" "$OUT" >/dev/null
bytes=$(stat -c %s "$OUT")
echo "$OUT: $(du -h "$OUT" | cut -f1) ($bytes bytes), built in $((SECONDS - start)) s"
# The package's size budget (benchmarks/bench_dist.py's goal, the README's table): a build
# that outgrows it fails here, not in a later benchmark.
MAX_MIB=${OV_STUDIO_DEB_MAX_MIB:-350}
if (( bytes > MAX_MIB * 1024 * 1024 )); then
    echo "error: $OUT is over the ${MAX_MIB} MiB budget: see installers/README.md for what is left out and why" >&2
    rm -f "$OUT"  # never installed by the package test
    exit 1
fi
