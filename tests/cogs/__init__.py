"""The real discord.py client and the cogs, against the loopback Discord."""
