"""The console's platform name and club chat id, apart from the console itself.

`clubtd export` and `clubtd ranking import` find the console's club by them without
importing the console and, with it, the whole command layer (issue 17, start-up).
"""

from __future__ import annotations

PLATFORM = "console"
CLUB_CHAT = "club"
CLOCK_KEY = "console.clock"
