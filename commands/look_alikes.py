"""Build the look-alike table `names.skeleton` reads (commands/skeletons.json).

It is derived from the confusables table `confusable_homoglyphs` ships (UTS #39): each
confusable character mapped to the smallest member of its look-alike class, and the
letters that read as several. Building it takes ~60 ms, too much for every process that
meets a new player, so it is built once and shipped; a test checks it is up to date.
Run after upgrading confusable_homoglyphs: python -m commands.look_alikes
"""

from __future__ import annotations

import json
import unicodedata
from importlib import resources
from pathlib import Path

TABLE = Path(__file__).with_name("skeletons.json")


def build() -> dict[str, dict[str, str]]:
    """Return the look-alike table: `prototypes` and `sequences`."""
    data = _confusables()
    prototypes = _prototypes(data)
    return {"prototypes": prototypes, "sequences": _sequences(data, prototypes)}


def _confusables() -> dict[str, list[dict[str, str]]]:
    table: dict[str, list[dict[str, str]]] = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    return table


def _prototypes(data: dict[str, list[dict[str, str]]]) -> dict[str, str]:
    """Map each confusable character to its class's prototype (union-find)."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        root = char
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(char, char) != root:
            parent[char], char = root, parent[char]
        return root

    for char, glyphs in data.items():
        for glyph in glyphs:
            other = "".join(c for c in glyph["c"] if unicodedata.category(c) != "Cf")
            if len(char) != 1 or len(other) != 1:
                continue  # multi-character look-alikes ("rn" for "m"): see _sequences
            a, b = find(char), find(other)
            if a != b:
                # The smaller code point wins, so ASCII letters are the prototypes.
                low, high = sorted((a, b))
                parent[high] = low
    return {char: find(char) for char in list(parent)}


def _sequences(
    data: dict[str, list[dict[str, str]]], prototypes: dict[str, str]
) -> dict[str, str]:
    """Map a letter that reads as several ("m" as "rn", "æ" as "ae") to them."""

    def shape(text: str) -> str:  # each character as skeleton() maps it
        return "".join(prototypes.get(c, c) for c in text.casefold())

    found: dict[str, str] = {}
    for char, glyphs in data.items():
        for glyph in glyphs:
            for one, many in ((char, glyph["c"]), (glyph["c"], char)):
                if len(one) == 1 and len(many) > 1 and many.isascii() and many.isalpha():
                    key, value = shape(one), shape(many)
                    found[key] = min(found.get(key, value), value)  # one, whatever the order
    return found


def write(path: Path = TABLE) -> None:
    """Write the table, one compact JSON object (sorted keys: a stable diff)."""
    text = json.dumps(build(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
