"""Tests of the computer players across games."""
