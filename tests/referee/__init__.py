"""Tests of the referee's use cases, without Discord, on a real store."""
