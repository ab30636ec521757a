"""Tests of the luzhanqi game: rules, engine, referee, images, computer."""
