"""The bot as ``python -m bot`` runs it, against the loopback Discord."""
