"""What the tests share: the loopback Discord, named positions, helpers."""
