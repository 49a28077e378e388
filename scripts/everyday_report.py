"""Friction on a held-out set of everyday developer commands (tests/everyday/heldout.jsonl).

    .venv/bin/python scripts/everyday_report.py [--json] [--keep DIR] [FILE]

Builds a throw-away polyglot project under /var/tmp (a Python package, a Node/TypeScript
app, a Go module, a Rust crate, a Makefile, docker-compose.yml, .env.example and a .env,
committed with git, plus untracked scratch files), then runs every command of FILE through
the real guard in-process, with built-in defaults only, in ``default`` and ``acceptEdits``
mode. Each command carries the label a senior engineer expects in default mode:

* ``allow`` - reads, builds, tests: should pass silently in both modes;
* ``edit``  - changes project code: asks in default on purpose, passes in acceptEdits;
* ``ask``   - installs, pushes, deletes of tracked files, network to the internet, secret
  reads, killing processes: should ask (or be denied) in both modes.

Prints a Markdown table per category (allowed as expected / needless asks / missed asks /
denies, and the asks left in acceptEdits), then every needless and missed ask with
bastion's reason. ``--json`` prints ``{"markdown", "totals", "rows"}`` instead.
``--keep DIR`` builds the project at DIR (emptied first) and leaves it there.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

HELDOUT = ROOT / "tests" / "everyday" / "heldout.jsonl"
EXPECTS = ("allow", "edit", "ask")

# --------------------------------------------------------------------------- the project

_PYPROJECT = """\
[project]
name = "app"
version = "0.4.2"
description = "Orders service"
requires-python = ">=3.10"
dependencies = ["httpx>=0.27", "pydantic>=2.6"]

[project.optional-dependencies]
dev = ["pytest>=8", "pytest-cov", "mypy", "ruff", "black"]

[project.scripts]
app = "app.main:main"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["src"]
markers = ["slow: long-running tests", "integration: needs the docker stack"]

[tool.ruff]
line-length = 100
src = ["src", "tests"]

[tool.mypy]
strict = true
packages = ["app"]
"""

_FILES: dict[str, str] = {
    "README.md": "# orders\n\nPython API (src/app), TypeScript web app (src/*.ts), Go worker "
                 "(services/worker), Rust tokenizer (crates/tokenizer).\n\n    make dev\n    make test\n",
    ".gitignore": ".env\n.venv/\n__pycache__/\n*.pyc\nnode_modules/\ndist/\ncoverage/\ntarget/\n"
                  "bin/\n*.log\ntmp/\n.pytest_cache/\n.mypy_cache/\n.ruff_cache/\n",
    "pyproject.toml": _PYPROJECT,
    "requirements-dev.txt": "pytest>=8\npytest-cov\nmypy\nruff\nblack\n",
    "src/app/__init__.py": '"""Orders service."""\n\n__version__ = "0.4.2"\n',
    "src/app/__main__.py": "from app.main import main\n\nmain()\n",
    "src/app/config.py": (
        "import os\nfrom dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Settings:\n"
        "    database_url: str\n    api_key: str\n    debug: bool = False\n    port: int = 8000\n\n\n"
        "def load() -> Settings:\n    return Settings(\n        database_url=os.environ.get(\"DATABASE_URL\", \"sqlite:///dev.db\"),\n"
        "        api_key=os.environ.get(\"API_KEY\", \"\"),\n        debug=os.environ.get(\"DEBUG\") == \"1\",\n"
        "        port=int(os.environ.get(\"PORT\", \"8000\")),\n    )\n"),
    "src/app/models.py": (
        "from pydantic import BaseModel, Field\n\n\nclass Item(BaseModel):\n    id: int\n    name: str\n"
        "    price_cents: int = Field(ge=0)\n\n\nclass Order(BaseModel):\n    id: int\n    items: list[Item]\n\n"
        "    def total_cents(self) -> int:\n        return sum(i.price_cents for i in self.items)\n"),
    "src/app/utils.py": (
        "import re\n\n_SLUG = re.compile(r\"[^a-z0-9]+\")\n\n\ndef slugify(text: str) -> str:\n"
        "    # TODO: handle unicode\n    return _SLUG.sub(\"-\", text.lower()).strip(\"-\")\n\n\n"
        "def parse_price(text: str) -> int:\n    whole, _, cents = text.strip().lstrip(\"$\").partition(\".\")\n"
        "    return int(whole) * 100 + int((cents or \"0\").ljust(2, \"0\")[:2])\n"),
    "src/app/main.py": (
        "import argparse\nimport json\nfrom http.server import BaseHTTPRequestHandler, HTTPServer\n\n"
        "from app.config import load\n\n\nclass Handler(BaseHTTPRequestHandler):\n    def do_GET(self) -> None:\n"
        "        body = json.dumps({\"status\": \"ok\"}).encode()\n        self.send_response(200)\n"
        "        self.end_headers()\n        self.wfile.write(body)\n\n\ndef main() -> None:\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--port\", type=int, default=load().port)\n"
        "    args = parser.parse_args()\n    HTTPServer((\"127.0.0.1\", args.port), Handler).serve_forever()\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"),
    "src/app/api/__init__.py": "",
    "src/app/api/routes.py": (
        "from app.models import Item, Order\n\n\ndef get_order(order_id: int) -> Order:\n"
        "    return Order(id=order_id, items=[Item(id=1, name=\"widget\", price_cents=250)])\n"),
    "src/app/db.py": "import sqlite3\n\n\ndef connect(url: str) -> sqlite3.Connection:\n"
                     "    return sqlite3.connect(url.removeprefix(\"sqlite:///\"))\n",
    "tests/__init__.py": "",
    "tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef order():\n    from app.api.routes import get_order\n"
                         "    return get_order(1)\n",
    "tests/test_utils.py": (
        "from app.utils import parse_price, slugify\n\n\ndef test_slugify():\n    assert slugify(\"Hello World\") == \"hello-world\"\n\n\n"
        "def test_parse_price():\n    assert parse_price(\"$1.5\") == 150\n"),
    "tests/test_models.py": "def test_total(order):\n    assert order.total_cents() == 250\n",
    "tests/test_api.py": "import pytest\n\n\n@pytest.mark.integration\ndef test_health():\n    pass\n",
    "migrations/001_init.sql": "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price_cents INTEGER);\n",
    "scripts/seed.py": "from app.db import connect\n\nconnect(\"sqlite:///dev.db\").execute(\"select 1\")\n",
    "package.json": json.dumps({
        "name": "orders-web", "version": "0.4.2", "private": True, "type": "module",
        "scripts": {"dev": "vite --port 5173", "build": "tsc -p tsconfig.json && vite build",
                    "test": "vitest run", "test:watch": "vitest", "lint": "eslint src --ext .ts",
                    "format": "prettier --write src", "typecheck": "tsc --noEmit",
                    "e2e": "playwright test", "start": "node dist/server.js"},
        "dependencies": {"zod": "^3.23.8"},
        "devDependencies": {"typescript": "^5.4.5", "vite": "^5.2.0", "vitest": "^1.6.0",
                            "eslint": "^8.57.0", "prettier": "^3.2.5", "@playwright/test": "^1.44.0",
                            "@types/node": "^20.12.0", "jest": "^29.7.0", "ts-node": "^10.9.2"},
    }, indent=2) + "\n",
    "package-lock.json": json.dumps({"name": "orders-web", "version": "0.4.2", "lockfileVersion": 3,
                                     "requires": True, "packages": {}}, indent=2) + "\n",
    "tsconfig.json": json.dumps({"compilerOptions": {"target": "ES2022", "module": "ESNext",
                                                     "moduleResolution": "bundler", "strict": True,
                                                     "outDir": "dist", "rootDir": "src"},
                                 "include": ["src/**/*.ts"]}, indent=2) + "\n",
    ".eslintrc.json": json.dumps({"root": True, "parser": "@typescript-eslint/parser",
                                  "extends": ["eslint:recommended"]}, indent=2) + "\n",
    ".prettierrc": "{\n  \"singleQuote\": true\n}\n",
    "vitest.config.ts": "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['src/**/*.test.ts'] } });\n",
    "playwright.config.ts": "import { defineConfig } from '@playwright/test';\n\nexport default defineConfig({ testDir: 'e2e', use: { baseURL: 'http://localhost:5173' } });\n",
    "e2e/home.spec.ts": "import { test, expect } from '@playwright/test';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page).toHaveTitle(/Orders/);\n});\n",
    "src/index.ts": "import { startServer } from './server';\n\nstartServer(Number(process.env.PORT ?? 3000));\n",
    "src/server.ts": (
        "import { createServer } from 'node:http';\nimport { formatPrice } from './utils';\n\n"
        "export function startServer(port: number) {\n  return createServer((req, res) => {\n"
        "    if (req.url === '/health') {\n      res.end(JSON.stringify({ ok: true }));\n      return;\n    }\n"
        "    res.end(formatPrice(250));\n  }).listen(port);\n}\n"),
    "src/utils.ts": "export function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n\n"
                    "export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n",
    "src/utils.test.ts": "import { describe, it, expect } from 'vitest';\nimport { formatPrice } from './utils';\n\n"
                         "describe('formatPrice', () => {\n  it('formats cents', () => expect(formatPrice(250)).toBe('$2.50'));\n});\n",
    "src/api.ts": "export async function getOrder(id: number) {\n  const res = await fetch(`/api/orders/${id}`);\n  return res.json();\n}\n",
    "services/worker/go.mod": "module github.com/acme/orders/worker\n\ngo 1.22\n",
    "services/worker/cmd/worker/main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/acme/orders/worker/internal/queue\"\n)\n\n"
                                          "func main() {\n\tq := queue.New()\n\tfmt.Println(q.Len())\n}\n",
    "services/worker/internal/queue/queue.go": "package queue\n\ntype Queue struct{ items []string }\n\nfunc New() *Queue { return &Queue{} }\n\n"
                                               "func (q *Queue) Push(s string) { q.items = append(q.items, s) }\n\nfunc (q *Queue) Len() int { return len(q.items) }\n",
    "services/worker/internal/queue/queue_test.go": "package queue\n\nimport \"testing\"\n\nfunc TestQueuePush(t *testing.T) {\n\tq := New()\n\tq.Push(\"a\")\n"
                                                    "\tif q.Len() != 1 {\n\t\tt.Fatalf(\"len = %d\", q.Len())\n\t}\n}\n",
    "crates/tokenizer/Cargo.toml": "[package]\nname = \"tokenizer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    "crates/tokenizer/Cargo.lock": "# This file is automatically @generated by Cargo.\nversion = 3\n\n[[package]]\nname = \"tokenizer\"\nversion = \"0.1.0\"\n",
    "crates/tokenizer/src/lib.rs": "pub fn tokenize(s: &str) -> Vec<&str> {\n    s.split_whitespace().collect()\n}\n\n"
                                   "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn splits() {\n"
                                   "        assert_eq!(tokenize(\"a b\"), vec![\"a\", \"b\"]);\n    }\n}\n",
    "crates/tokenizer/src/main.rs": "fn main() {\n    for t in tokenizer::tokenize(\"hello world\") {\n        println!(\"{t}\");\n    }\n}\n",
    "Makefile": (
        ".PHONY: help install dev test lint fmt typecheck build clean migrate deploy docker-up\n\n"
        "help:\n\t@grep -E '^[a-z-]+:' Makefile | cut -d: -f1\n\ninstall:\n\tpip install -e '.[dev]'\n\tnpm ci\n\n"
        "dev:\n\tPYTHONPATH=src python -m app.main --port 8000\n\n"
        "test:\n\tpytest -q\n\tnpm test\n\tcd services/worker && go test ./...\n\tcargo test --manifest-path crates/tokenizer/Cargo.toml\n\n"
        "lint:\n\truff check src tests\n\tnpm run lint\n\n"
        "fmt:\n\truff format src tests\n\tnpx prettier --write src\n\n"
        "typecheck:\n\tmypy src\n\tnpx tsc --noEmit\n\n"
        "build:\n\tnpm run build\n\tcd services/worker && go build -o ../../bin/worker ./cmd/worker\n\n"
        "clean:\n\trm -rf dist build bin coverage .pytest_cache\n\n"
        "migrate:\n\tsqlite3 dev.db < migrations/001_init.sql\n\n"
        "deploy:\n\tdocker build -t ghcr.io/acme/orders:latest .\n\tdocker push ghcr.io/acme/orders:latest\n\n"
        "docker-up:\n\tdocker compose up -d\n"),
    "Dockerfile": "FROM python:3.12-slim\nWORKDIR /app\nCOPY . .\nRUN pip install .\nCMD [\"python\", \"-m\", \"app.main\"]\n",
    "docker-compose.yml": (
        "services:\n  api:\n    build: .\n    ports: [\"8000:8000\"]\n    env_file: .env\n    depends_on: [db, redis]\n"
        "  web:\n    image: node:20\n    working_dir: /app\n    command: npm run dev\n    ports: [\"5173:5173\"]\n"
        "  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: postgres\n    ports: [\"5432:5432\"]\n"
        "  redis:\n    image: redis:7\n    ports: [\"6379:6379\"]\n"),
    ".env.example": "DATABASE_URL=postgres://app:CHANGE_ME@localhost:5432/orders\nAPI_KEY=\nSTRIPE_SECRET_KEY=\nDEBUG=1\nPORT=8000\n",
    ".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                                "      - uses: actions/checkout@v4\n      - run: make install test\n",
    "docs/architecture.md": "# Architecture\n\nThe API (src/app) serves orders; the worker drains the queue.\n",
    "CHANGELOG.md": "# Changelog\n\n## 0.4.2\n- fix price parsing\n",
}

# Untracked: the secret .env (ignored), and scratch a developer leaves lying around.
_UNTRACKED: dict[str, str] = {
    ".env": "DATABASE_URL=postgres://app:s3cr3t-pw@localhost:5432/orders\nAPI_KEY=sk_live_4f9a8b7c6d5e4f3a2b1c\n"
            "STRIPE_SECRET_KEY=sk_live_51Habc123def456\nDEBUG=1\nPORT=8000\n",
    "notes.md": "- check slugify unicode\n- ask about queue retry\n",
    "scratch.py": "from app.utils import slugify\nprint(slugify('Über Straße'))\n",
    "debug.log": "2024-05-01 12:00:01 ERROR price parse failed: '$1.5.0'\n",
    "tmp/out.json": "{\"orders\": [{\"id\": 1, \"total\": 250}]}\n",
    "coverage/lcov.info": "TN:\nSF:src/utils.ts\nend_of_record\n",
    "dist/server.js": "export {};\n",
}

# What earlier calls of a session left in /tmp, which later commands of the set name
# (created only where absent, and removed again afterwards).
_TMP_FIXTURES: dict[str, str] = {
    "/tmp/check_prices.py": "import sys\nsys.path.insert(0, 'src')\nfrom app.utils import parse_price\nprint(parse_price('$1.5'))\n",
    "/tmp/repro.ts": "import { formatPrice } from './src/utils';\nconsole.log(formatPrice(250));\n",
    "/tmp/scratch/utils.py": "def slugify(s):\n    return s\n",
    "/tmp/dev.log": "  VITE v5.2.0  ready in 312 ms\n  -> Local: http://localhost:5173/\n",
    "/tmp/pytest.log": "3 passed in 0.05s\n",
    "/tmp/fix.patch": (
        "--- a/src/app/utils.py\n+++ b/src/app/utils.py\n@@ -6,3 +6,3 @@\n def slugify(text: str) -> str:\n"
        "-    # TODO: handle unicode\n+    # ascii only for now\n     return _SLUG.sub(\"-\", text.lower()).strip(\"-\")\n"),
}

# The throw-away home: a developer's dotfiles, some of them secret.
_HOME_FILES: dict[str, str] = {
    ".gitconfig": "[user]\n\tname = Dev Eloper\n\temail = dev@example.com\n",
    ".aws/credentials": "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = example\n",
    ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nexample\n-----END OPENSSH PRIVATE KEY-----\n",
    ".ssh/id_ed25519.pub": "ssh-ed25519 AAAAexample dev@example.com\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_exampletoken\n",
    ".bashrc": "export PATH=\"$HOME/.local/bin:$PATH\"\n",
}


def _git(project: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", "-C", str(project), *args], check=True, env=env, capture_output=True)


def build_project(base: Path) -> tuple[str, dict[str, str]]:
    """``base/project`` (committed in two commits on ``main``, with untracked scratch) and
    ``base/home``; returns the project path and an environment whose HOME, config, state
    and managed-settings paths are throw-away folders under ``base``."""
    project, home = base / "project", base / "home"
    for folder in (project, home):
        folder.mkdir(parents=True, exist_ok=True)
    for name, text in _HOME_FILES.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text, encoding="utf-8")
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BASTION_CONFIG_DIR": str(base / "config"),
        "BASTION_STATE_DIR": str(base / "state"),
        "BASTION_MANAGED_SETTINGS": str(base / "managed" / "managed-settings.json"),
        "BASTION_AUDIT": "0",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }
    git_env = {**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_DATE": "2024-05-01T12:00:00",
               "GIT_COMMITTER_DATE": "2024-05-01T12:00:00"}
    _git(project, git_env, "init", "-q", "-b", "main")
    first = {k: v for k, v in _FILES.items() if not k.startswith(("crates/", "services/"))}
    for name, text in _FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    _git(project, git_env, "add", *first)
    _git(project, git_env, "commit", "-q", "-m", "orders: python api and web app")
    _git(project, git_env, "add", "-A")
    _git(project, git_env, "commit", "-q", "-m", "worker and tokenizer")
    _git(project, git_env, "tag", "v0.4.2")
    _git(project, git_env, "remote", "add", "origin", "git@github.com:acme/orders.git")
    for name, text in _UNTRACKED.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    # the local dev database `make migrate` or scripts/seed.py made (untracked)
    with sqlite3.connect(project / "dev.db") as db:
        db.execute(_FILES["migrations/001_init.sql"])
    db.close()
    return str(project), env


def _tmp_fixtures() -> list[str]:
    """Create the /tmp files earlier calls of a session would have left; return those created."""
    made = []
    for name, text in _TMP_FIXTURES.items():
        path = Path(name)
        if path.exists() or path.is_symlink():
            continue
        if not path.parent.exists():
            path.parent.mkdir(parents=True)
            made.append(str(path.parent))
        path.write_text(text, encoding="utf-8")
        made.append(name)
    return made


def _remove(made: list[str]) -> None:
    for name in reversed(made):
        path = Path(name)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


# --------------------------------------------------------------------------- measuring


def load(path: Path = HELDOUT) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    for record in records:
        if record.get("expect") not in EXPECTS:
            raise ValueError(f"bad expect {record.get('expect')!r} for {record.get('command')!r}")
    return records


def _outcome(decision: Any) -> str:
    """allow / ask / deny (an immune ask counts as an ask here)."""
    return decision.verdict.value


def measure(path: Path = HELDOUT, keep: Path | None = None) -> list[dict[str, Any]]:
    """Every command's decision in default and acceptEdits mode, with bastion's reason."""
    from bastion.engine import Guard
    from bastion.model import Mode, ToolCall

    records = load(path)
    if keep is not None:
        shutil.rmtree(keep, ignore_errors=True)
        base = keep
    else:
        base = Path(tempfile.mkdtemp(prefix="bastion-everyday-", dir="/var/tmp"))
    made: list[str] = []
    try:
        project, env = build_project(base)
        made = _tmp_fixtures()
        home = env["HOME"]
        guards = {mode: Guard.from_settings(project, isolated=True, env=env, mode=mode)
                  for mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS)}
        rows = []
        for record in records:
            text = record["command"].replace("<PROJECT>", project).replace("<HOME>", home)
            row = dict(record)
            for mode, guard in guards.items():
                decision = guard.check(ToolCall("Bash", {"command": text}, cwd=project))
                row[mode.value] = _outcome(decision)
                row[f"{mode.value} reason"] = decision.reason
            rows.append(row)
    finally:
        _remove(made)
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)
    return rows


def judge(row: dict[str, Any]) -> dict[str, str]:
    """What each mode's outcome means against the label: ok / needless / missed / deny."""
    expect, default, accept = row["expect"], row["default"], row["acceptEdits"]
    verdicts = {}
    if default == "deny":
        verdicts["default"] = "deny"
    elif expect == "allow":
        verdicts["default"] = "ok" if default == "allow" else "needless"
    else:  # edit and ask: both should ask in default mode
        verdicts["default"] = "ok" if default == "ask" else "missed"
    if accept == "deny":
        verdicts["acceptEdits"] = "deny"
    elif expect in ("allow", "edit"):
        verdicts["acceptEdits"] = "ok" if accept == "allow" else "needless"
    else:
        verdicts["acceptEdits"] = "ok" if accept == "ask" else "missed"
    return verdicts


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for row in rows:
        verdicts = judge(row)
        for key in (row["category"], "**all**"):
            c = per[key]
            c["n"] += 1
            c[f"expect {row['expect']}"] += 1
            c[f"default {verdicts['default']}"] += 1
            c[f"acceptEdits {verdicts['acceptEdits']}"] += 1
            c[f"default {verdicts['default']} {row['expect']}"] += 1
            c[f"acceptEdits {verdicts['acceptEdits']} {row['expect']}"] += 1
    total = per["**all**"]
    n = total["n"]
    totals = {
        "commands": n,
        "expect_allow": total["expect allow"], "expect_edit": total["expect edit"], "expect_ask": total["expect ask"],
        "needless_default": total["default needless"],
        "needless_default_per_100": round(100 * total["default needless"] / n, 1) if n else 0.0,
        "needless_default_share_of_allow": round(100 * total["default needless"] / total["expect allow"], 1)
        if total["expect allow"] else 0.0,
        "asks_accept_edits": total["acceptEdits needless"],
        "asks_accept_edits_per_100": round(100 * total["acceptEdits needless"] / n, 1) if n else 0.0,
        "missed_default": total["default missed"],
        "missed_default_ask": total["default missed ask"],
        "missed_default_edit": total["default missed edit"],
        "missed_accept_edits": total["acceptEdits missed"],
        "denied_allow_or_edit": total["default deny allow"] + total["default deny edit"]
        + total["acceptEdits deny allow"] + total["acceptEdits deny edit"],
        "denied_ask_default": total["default deny ask"],
    }
    return {"per": {k: dict(v) for k, v in per.items()}, "totals": totals}


def _cell(command: str, limit: int = 160) -> str:
    flat = command.replace("\n", " ⏎ ")
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return "`" + flat.replace("`", "ˋ").replace("|", "\\|") + "`"


def render(rows: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    summary = summarise(rows)
    per, totals = summary["per"], summary["totals"]
    order = sorted((k for k in per if k != "**all**"), key=lambda k: -per[k]["n"]) + ["**all**"]
    lines = [
        "| category | commands | allow / edit / ask expected | default: as expected | needless asks | "
        "missed asks | denies | acceptEdits: asks on allow/edit | acceptEdits: missed asks |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key in order:
        c = collections.Counter(per[key])
        denies = c["default deny"]
        lines.append(
            f"| {key} | {c['n']} | {c['expect allow']} / {c['expect edit']} / {c['expect ask']} | {c['default ok']} | "
            f"{c['default needless']} | {c['default missed']} | {denies} | {c['acceptEdits needless']} | "
            f"{c['acceptEdits missed']} |")
    lines += [
        "",
        f"Default mode: {totals['needless_default']} needless asks in {totals['commands']} commands "
        f"({totals['needless_default_per_100']} per 100 commands; {totals['needless_default_share_of_allow']}% "
        f"of the {totals['expect_allow']} commands expected to pass). acceptEdits: {totals['asks_accept_edits']} asks "
        f"on commands expected to pass there ({totals['asks_accept_edits_per_100']} per 100). Missed asks in "
        f"default mode: {totals['missed_default']} ({totals['missed_default_ask']} expected ask, "
        f"{totals['missed_default_edit']} expected edit). Denies of allow/edit commands: {totals['denied_allow_or_edit']}.",
    ]
    sections = (
        ("Needless asks (default mode: expected allow, got ask)",
         [r for r in rows if judge(r)["default"] == "needless"], "default"),
        ("Asks in acceptEdits on edits (expected edit, got ask)",
         [r for r in rows if r["expect"] == "edit" and judge(r)["acceptEdits"] == "needless"], "acceptEdits"),
        ("Missed asks (default mode: expected ask or edit, got allow)",
         [r for r in rows if judge(r)["default"] == "missed"], "default"),
        ("Denied though expected allow or edit",
         [r for r in rows if r["expect"] != "ask" and "deny" in judge(r).values()], "default"),
    )
    for title, chosen, mode in sections:
        lines += ["", f"### {title}: {len(chosen)}", ""]
        if not chosen:
            continue
        lines += ["| category | command | expected | bastion's reason |", "|---|---|---|---|"]
        for r in chosen:
            reason = (r[f"{mode} reason"] or "").replace("\n", " ").replace("|", "\\|")
            lines.append(f"| {r['category']} | {_cell(r['command'])} | {r['expect']} | {reason} |")
    return "\n".join(lines), totals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(HELDOUT))
    parser.add_argument("--json", action="store_true", help="markdown, totals and rows as one JSON object")
    parser.add_argument("--keep", metavar="DIR", help="build the project at DIR and leave it there")
    args = parser.parse_args(argv)
    try:
        import tree_sitter_bash  # noqa: F401  (without the parser every command would ask)
    except ImportError:
        print("error: tree-sitter-bash is not installed for this Python; run with .venv/bin/python", file=sys.stderr)
        return 2
    rows = measure(Path(args.file), keep=Path(args.keep) if args.keep else None)
    markdown, totals = render(rows)
    print(json.dumps({"markdown": markdown, "totals": totals, "rows": rows}) if args.json else markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
