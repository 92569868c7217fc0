"""installers/bundle_trim.py on the real wheels' libraries: OpenCV's FFmpeg becomes PyAV's,
and only what nothing kept links is removed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "installers"))

import bundle_trim  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF libraries")


def _libs(package: str, folder: str) -> Path:
    """The ``.libs`` folder auditwheel put next to ``package`` in site-packages."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent.parent / folder


def _toc(folder: Path) -> list[bundle_trim.Entry]:
    return [
        (f"{folder.name}/{path.name}", str(path), "BINARY") for path in sorted(folder.iterdir())
    ]


@pytest.fixture(scope="module")
def toc() -> list[bundle_trim.Entry]:
    """The binaries of OpenCV's and PyAV's wheels, as the Analysis lists them, plus cv2."""
    cv2_spec = importlib.util.find_spec("cv2")
    assert cv2_spec is not None and cv2_spec.submodule_search_locations
    extension = next(Path(cv2_spec.submodule_search_locations[0]).glob("cv2*.so"))
    return [
        (f"cv2/{extension.name}", str(extension), "EXTENSION"),
        *_toc(_libs("cv2", "opencv_python_headless.libs")),
        *_toc(_libs("av", "av.libs")),
    ]


def test_opencv_ffmpeg_becomes_links_to_pyav_of_the_same_major_version(
    toc: list[bundle_trim.Entry],
) -> None:
    shared = bundle_trim.share_ffmpeg(toc, user="opencv_python_headless.libs", provider="av.libs")
    links = {dest: target for dest, target, kind in shared if kind == "SYMLINK"}
    avcodec = next(dest for dest in links if "/libavcodec-" in dest)
    assert avcodec.startswith("opencv_python_headless.libs/")
    assert links[avcodec].startswith("../av.libs/libavcodec-")
    for dest, target in links.items():  # same library, same major version
        mine, theirs = Path(dest).name, Path(target).name
        assert mine.split("-")[0] == theirs.split("-")[0]
        assert mine.split(".so.")[1].split(".")[0] == theirs.split(".so.")[1].split(".")[0]
    # What PyAV's FFmpeg links is reachable from OpenCV's folder too ($ORIGIN is the link's).
    assert any("/libswresample-" in dest and "av.libs" in target for dest, target in links.items())
    assert len(shared) >= len(toc)


def test_drop_unneeded_removes_only_what_no_kept_library_links(
    toc: list[bundle_trim.Entry],
) -> None:
    shared = bundle_trim.share_ffmpeg(toc, user="opencv_python_headless.libs", provider="av.libs")
    top_links = [
        (Path(dest).name, dest, "SYMLINK") for dest, _source, kind in shared if kind != "SYMLINK"
    ]
    kept, datas, dropped = bundle_trim.drop_unneeded(
        shared, top_links, lambda dest: dest.startswith("opencv_python_headless.libs/")
    )
    gone = {Path(dest).name for dest, *_ in dropped}
    # OpenSSL 1.1 and libvpx were linked only by OpenCV's own FFmpeg.
    assert any(name.startswith("libssl-") for name in gone)
    assert any(name.startswith("libvpx-") for name in gone)
    # cv2 itself links OpenBLAS and libavif: they stay; PyAV's folder is never a candidate.
    names = {Path(dest).name for dest, *_ in kept}
    assert any(name.startswith("libopenblas") for name in names)
    assert any(name.startswith("libavif-") for name in names)
    assert {dest for dest, *_ in kept if dest.startswith("av.libs/")} == {
        dest for dest, *_ in toc if dest.startswith("av.libs/")
    }
    # The top-level links to removed files go with them, the others stay.
    assert {name for name, *_ in datas} == {name for name, *_ in top_links} - gone


def test_needed_closure_follows_links_inside_the_bundle(toc: list[bundle_trim.Entry]) -> None:
    cv2_source = toc[0][1]
    closure = bundle_trim.needed_closure([cv2_source], toc)
    assert any(name.startswith("libavcodec-") for name in closure)
    assert any(name.startswith("libvpx-") for name in closure)  # through OpenCV's avcodec
    assert "libc.so.6" not in closure  # only what the bundle holds


def test_needed_is_empty_for_a_file_that_is_not_elf(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a library")
    assert bundle_trim.needed(str(text)) == frozenset()
