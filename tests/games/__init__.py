"""Tests of the rule engines, one folder per game, and of what the games share."""
