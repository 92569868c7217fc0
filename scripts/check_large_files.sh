#!/usr/bin/env bash
# Refuses files over 1 MB and model weight formats: weights and fixtures live in the cache.
set -euo pipefail
status=0
for file in "$@"; do
  [[ -f "$file" ]] || continue
  case "$file" in
    *.bin|*.safetensors|*.onnx|*.pt|*.pth|*.tflite|*.gguf)
      echo "refusing model weights: $file" >&2; status=1; continue ;;
  esac
  if (( $(stat -c %s "$file") > 1000000 )); then
    echo "refusing a file over 1 MB: $file" >&2; status=1
  fi
done
exit $status
