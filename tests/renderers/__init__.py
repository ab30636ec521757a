"""Tests of the board images across games."""
