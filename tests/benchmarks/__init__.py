"""The benchmarks' behaviour (never their speed)."""
