"""The test suite, a package so that pytest, mypy and the tests' own imports (``from
tests.conftest import ...``) name every file by one module name."""
