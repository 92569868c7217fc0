"""Hand translators the unfinished strings of a .ts file as JSON, and take their work back.

    python scripts/translations_todo.py de --export todo.json   # {"source": ""} to fill in
    python scripts/translations_todo.py de --apply done.json    # fills and finishes them
    python scripts/translations_todo.py de --check              # counts, exit 1 if unfinished

In the JSON a plural message (``%n``) takes a list of forms (German: [singular, plural];
Chinese: [one form]). A message with a translator's note is keyed ``"source|||note"``.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEPARATOR = "|||"


def ts_path(language: str) -> Path:
    return ROOT / "assets" / "translations" / f"ov_studio_{language}.ts"


def key_of(message: ET.Element) -> str:
    source = message.findtext("source") or ""
    note = message.findtext("comment")
    return f"{source}{SEPARATOR}{note}" if note else source


def unfinished(root: ET.Element) -> list[ET.Element]:
    return [
        message
        for message in root.iter("message")
        if (translation := message.find("translation")) is not None
        and translation.get("type") == "unfinished"
    ]


def export(root: ET.Element, target: Path) -> int:
    todo: dict[str, object] = {}
    for message in unfinished(root):
        todo[key_of(message)] = [] if message.get("numerus") == "yes" else ""
    target.write_text(json.dumps(todo, ensure_ascii=False, indent=1), encoding="utf-8")
    sys.stdout.write(f"{len(todo)} strings to translate in {target}\n")
    return 0


def apply(root: ET.Element, source: Path) -> int:
    done: dict[str, object] = json.loads(source.read_text(encoding="utf-8"))
    filled = 0
    for message in root.iter("message"):
        value = done.get(key_of(message))
        translation = message.find("translation")
        if translation is None or not value:
            continue
        for child in list(translation):
            translation.remove(child)
        if message.get("numerus") == "yes":
            forms = value if isinstance(value, list) else [value]
            translation.text = None
            for form in forms:
                ET.SubElement(translation, "numerusform").text = str(form)
        else:
            translation.text = str(value)
        translation.attrib.pop("type", None)
        filled += 1
    sys.stdout.write(f"filled {filled} translations\n")
    return 0


def write(tree: ET.ElementTree, path: Path) -> None:
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    path.write_text(
        f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n{body}\n', encoding="utf-8"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", help="de or zh_CN")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--export", type=Path, metavar="JSON")
    group.add_argument("--apply", type=Path, metavar="JSON")
    group.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    path = ts_path(args.language)
    tree = ET.parse(path)
    root = tree.getroot()
    if args.export:
        return export(root, args.export)
    if args.apply:
        code = apply(root, args.apply)
        write(tree, path)
        return code
    left = len(unfinished(root))
    total = sum(1 for _ in root.iter("message"))
    sys.stdout.write(f"{path.name}: {total - left} of {total} translated\n")
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main())
