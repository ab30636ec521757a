"""Tests of the seabattle game: rules, engine, referee, images, computer."""
