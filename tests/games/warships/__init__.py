"""Tests of the warships game: rules, engine, referee, images, computer."""
