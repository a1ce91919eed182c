"""The bot protocol v1: typed messages and pure encode/decode, no I/O (sans-IO)."""
