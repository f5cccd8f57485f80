# Mirrors .ci/run. `make` alone runs the tests.
.PHONY: test lint fmt check ci

test:
	python -m pytest -q

lint:
	ruff check .
	ruff format --check .
	mypy --strict ratings

fmt:
	ruff format .
	ruff check --fix .

check:
	rm -f /tmp/ratings-check.db
	RATINGS_DB=/tmp/ratings-check.db alembic upgrade head
	RATINGS_DB=/tmp/ratings-check.db alembic check

ci:
	bash .ci/run
