"""Tests of the registry the bot finds games in."""
