"""The languages the bot speaks, each with its message catalog in commands.catalog.

Apart from the catalogs: reading the settings checks a language against this list, and
`clubtd export` need not load ~2,900 lines of messages for it (issue 17, start-up).
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "es", "ro", "pl")
