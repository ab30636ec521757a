"""Tests of the marine game: rules, engine, referee, images, computer."""
