#!/usr/bin/env bash
# Installs what bastion needs into ./.venv (and, with --test, what its tests need).
# Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

if [ "${1:-}" = "--where" ]; then
  # The last words of `make demo`: how to use the bastion it installed.
  here=$(pwd)
  echo
  echo "bastion is installed in $here/.venv — run it as .venv/bin/bastion, or put it on your PATH:"
  echo "  mkdir -p ~/.local/bin && ln -sf '$here/.venv/bin/bastion' ~/.local/bin/   # ~/.local/bin is on Debian's PATH"
  echo "  pipx install '$here[mcp]'                                              # or its own copy (README: Install)"
  echo "Then: bastion install claude-code (or codex --trust, gemini), and bastion doctor to check it."
  exit 0
fi

py=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
stamp=.venv/.bastion-installed
extras=""
[ "$want_test" = 1 ] && extras="[test,mcp,agent-sdk,otel]"
if [ ! -f "$stamp$extras" ] || [ pyproject.toml -nt "$stamp$extras" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".$extras"
  touch "$stamp$extras"
fi

if [ "$want_test" = 1 ]; then
  # Debian packages the tests use for real: bubblewrap for the sandbox, git for projects.
  missing=()
  for tool_pkg in bwrap:bubblewrap git:git; do
    command -v "${tool_pkg%%:*}" >/dev/null 2>&1 || missing+=("${tool_pkg##*:}")
  done
  if [ "${#missing[@]}" -gt 0 ] && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

if [ "$want_test" = 1 ]; then
  # The real agent CLIs for the end-to-end tests, in a project-local folder (.e2e/).
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  fi
  need_cli=0
  for bin in claude codex gemini; do
    [ -x ".e2e/node_modules/.bin/$bin" ] || need_cli=1
  done
  if [ "$need_cli" = 1 ] && command -v npm >/dev/null 2>&1; then
    mkdir -p .e2e
    npm install --prefix .e2e --no-audit --no-fund --loglevel=error \
      @anthropic-ai/claude-code @openai/codex @google/gemini-cli >/dev/null
  fi
fi
