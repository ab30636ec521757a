"""Tests of the seachess game: rules, engine, referee, images, computer."""
