"""How much of a mapped file is resident in this process (Linux: ``/proc/self/smaps``)."""

from __future__ import annotations

from pathlib import Path

SMAPS = Path("/proc/self/smaps")


def resident_bytes(file: Path) -> int:
    """The bytes of ``file``'s mappings in this process that are resident now."""
    target = str(file.resolve())
    total = 0
    current = ""
    for line in SMAPS.read_text(encoding="utf-8", errors="surrogateescape").splitlines():
        fields = line.split(maxsplit=5)
        if fields and "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
            current = fields[5] if len(fields) == 6 else ""
        elif fields[:1] == ["Rss:"] and current == target:
            total += int(fields[1]) * 1024
    return total
