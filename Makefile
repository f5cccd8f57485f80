# The targets a contributor runs; .ci/run runs the same ones (see CONTRIBUTING.md).
# `make` alone is the test loop.
.PHONY: test test-slow test-postgres lint fmt check ci

# the end-to-end scenarios and imports, run a second time with every database on PostgreSQL
POSTGRES_PASS = \
	tests/rating/test_scenarios.py tests/rating/test_audit.py tests/rating/test_unrate.py \
	tests/rating/test_late_rated_events.py tests/rating/test_list_members.py \
	tests/rating/test_one_answer.py tests/rating/test_one_answer_regressions.py \
	tests/register/test_cli.py tests/register/test_identity.py tests/register/test_identity_walk.py \
	tests/register/test_aliases.py tests/register/test_update.py \
	tests/register/test_identity_evidence.py \
	tests/imports/test_csv_cli.py tests/imports/test_trf.py tests/imports/test_pgn.py \
	tests/imports/test_fide_list_names.py tests/imports/test_pipeline.py \
	tests/corrections/test_corrections.py tests/corrections/test_import_undo.py \
	tests/corrections/test_log.py tests/corrections/test_event_corrections.py \
	tests/corrections/test_rating_period_corrections.py tests/corrections/test_correction_reports.py \
	tests/reading/test_export.py tests/reading/test_formats.py

# the test loop (the README's command): every test but the slow ones, on every core
test:
	python -m pytest -q

# the slow ones (crash trials, wheel build, browser, benchmark smoke runs), one at a time;
# then the state machine's long run, its two shards side by side (it times nothing)
test-slow:
	python -m pytest -q -m "slow and not sequences" -n 0
	python -m pytest -q -m sequences -n 2

# needs RATINGS_TEST_PG_URL (.ci/postgres.sh starts a throwaway server)
test-postgres:
	@test -n "$$RATINGS_TEST_PG_URL" || { echo "RATINGS_TEST_PG_URL is not set" >&2; exit 1; }
	RATINGS_TEST_BACKEND=postgres python -m pytest -q $(POSTGRES_PASS)

# mypy reads pyproject.toml's [tool.mypy]: strict, on ratings/ and tests/
lint:
	ruff check .
	ruff format --check .
	mypy

fmt:
	ruff format .
	ruff check --fix .

# a scratch database upgraded to head, then alembic check
check:
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
	RATINGS_DB="$$scratch/check.db" alembic upgrade head && \
	RATINGS_DB="$$scratch/check.db" alembic check

ci:
	bash .ci/run
