"""Tests of the deliverer and the presenter: every message that leaves."""
