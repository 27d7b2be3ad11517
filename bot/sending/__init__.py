"""What every chat adapter shares about sending (ARCHITECTURE: adapters are transport
plus rendering): neutral transport errors and the `Transport` interface (transport.py),
the outbox sender loop (outbox.py), pacing (pacing.py), the button store (buttons.py),
splitting a long text into messages (parts.py), reply-or-queue (replies.py),
per-person serialisation (serial.py) and the language to say something in a chat
before any command ran (languages.py). Telegram and Discord each bring only a
transport and their rendering."""
