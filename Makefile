# The two quick-start commands. Each installs what it needs first.
.PHONY: demo test bench eval

demo:
	@bash scripts/setup.sh
	@.venv/bin/bastion demo
	@bash scripts/setup.sh --where

test:
	@bash scripts/setup.sh --test
	@.venv/bin/ruff check src tests scripts benchmarks
	@.venv/bin/mypy
	@.venv/bin/python -m pytest

bench:
	@bash scripts/setup.sh
	@.venv/bin/python benchmarks/bench.py

eval:
	@bash scripts/setup.sh
	@.venv/bin/bastion eval ../shared/corpus/dangerous_commands.jsonl ../shared/corpus/benign_commands.jsonl
