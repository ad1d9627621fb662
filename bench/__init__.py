"""Benchmarks of the rules core, run by ``make bench`` and never part of ``make test`` (see README.md)."""
