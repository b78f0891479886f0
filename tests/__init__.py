"""The test suite (docs/testing.md). A package so that its support code imports as
``tests.support`` from the tests, the benchmarks and subprocesses alike (the repository root on
``sys.path``: pytest's ``pythonpath`` setting, a benchmark run from the checkout)."""
