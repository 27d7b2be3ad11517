"""What every chat adapter shares about sending (ARCHITECTURE: adapters are transport
plus rendering): neutral transport errors, pacing, the outbox sender loop, the button
store and per-person serialisation."""
