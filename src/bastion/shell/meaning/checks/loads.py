"""Files and folders whose code a build, test or package tool loads.

``make`` runs the Makefile of the folder it works in, ``npm install`` the lifecycle
scripts of the package there, ``pytest`` its ``conftest.py``; options point them
elsewhere (``make -f /tmp/x.mk``, ``node -r /tmp/x.js``, ``gradle -I /tmp/x.gradle``).
Code in the workspace is the project's own; code from anywhere else is not known-safe:
:func:`check_loads` asks (CAT006, naming the file) when a command loads code from outside
every workspace root, or from a path only known when it runs, and records every file or
folder loaded as an ``exec`` access, so a folder a fetch created earlier in the command
line is download-and-run (``git clone URL && cd y && npm install``: HB005,
``analyse._download_then_exec``).

Kept as data: :data:`LOADERS`, one record per tool (its options that name code, whether
its operands do, whether it runs the code of the folder it works in); :data:`FETCHES`,
the sub-commands whose outputs (named by ``paths``: ``git clone URL`` makes ``y``) hold
what they fetched; :data:`INITIALIZERS`, the sub-commands that fetch and run a project
initializer (``npm create vite``).
"""

from __future__ import annotations

from ...catalog.catalog import GIT_VALUE_OPTS, INTERPRETER_VALUE_OPTS
from ...syntax.options import parse_args
from ..facts import Ctx, Facts, dynamic
from ..paths import EXEC, WRITE, PathAccess, resolve

__all__ = ["Loader", "LOADERS", "LOADING", "Fetch", "FETCHES", "Initializer", "INITIALIZERS", "check_loads", "loaded_code"]


class Loader:
    """One tool: which of its options (and operands) name a file or folder whose code it
    loads, with why and examples (``match``: asks from a workspace, ``not_match``: does
    not; ``tests/test_fetched_and_foreign.py`` runs them). A plain class, as the other
    rows here, never changed: cheaper to define and fill at import than a frozen dataclass."""

    def __init__(self, names: tuple[str, ...], options: frozenset[str], why: str, match: tuple[str, ...],
                 not_match: tuple[str, ...], *, value_opts: frozenset[str] = frozenset(),
                 moves: frozenset[str] = frozenset(), named: frozenset[str] = frozenset(), operands: str = "",
                 operand_subs: frozenset[str] = frozenset(), runs_here: bool = True, subs: frozenset[str] = frozenset(),
                 stop_at_operand: bool = False) -> None:
        self.names = names
        #: Options whose value names code: a file it runs or a folder whose build files run.
        self.options = options
        self.why = why
        self.match = match
        self.not_match = not_match
        #: Other options that take a value (so their value is not read as an operand).
        self.value_opts = value_opts
        #: Options of :attr:`options` that move the tool into a folder: the code it runs
        #: by default is that folder's, and later relative values are read from there.
        self.moves = moves
        #: Options whose bare value is a module found on the load path (``node -r
        #: dotenv/config``, ``ruby -rjson``), a file only when written as a path.
        self.named = named
        #: ``"all"``: every operand names code (``pytest /tmp/x/test_a.py``); ``"paths"``:
        #: operands written as paths do (``pip install /tmp/x.whl``, not ``pip install x``).
        self.operands = operands
        #: Operands name code only after these sub-commands (``npm install ./x.tgz``, not
        #: ``npm run build ./x``); empty: wherever :attr:`operands` says.
        self.operand_subs = operand_subs
        #: It runs the code of the folder it works in (a Makefile, package.json scripts).
        self.runs_here = runs_here
        #: Only with these sub-commands (the first operand); empty: always.
        self.subs = subs
        #: Options end at the first operand (an interpreter: later words are the script's).
        self.stop_at_operand = stop_at_operand


def _w(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NPM_SCRIPTS = _w("install i in ins add ci install-test it run run-script rum urn test t tst start stop restart rebuild "
                  "exec x pack publish build dev")

LOADERS: tuple[Loader, ...] = (
    Loader(("make", "gmake"), _w("-f --file --makefile -C --directory -I --include-dir"),
           "make runs the recipes of its Makefile, and -I folders supply the makefiles it includes",
           ("make -f /tmp/x.mk", "make -C /tmp/x", "make --directory=/tmp/x test"), ("make -C docs html", "make test"),
           value_opts=_w("-j --jobs -l --load-average -o --old-file -W --what-if --assume-new --new-file --eval"),
           moves=_w("-C --directory")),
    Loader(("pytest", "py.test"), _w("--rootdir -c --config-file --confcutdir"),
           "pytest imports the test files it is given and every conftest.py above them, up to its rootdir",
           ("pytest /tmp/x/test_a.py", "pytest --rootdir=/tmp/x tests", "pytest -c /tmp/x/pytest.ini"),
           ("pytest tests", "pytest tests/test_x.py -k 'a or b'"),
           value_opts=_w("-k -m -p -o --override-ini -W --pythonwarnings --maxfail --tb --durations --durations-min -n "
                         "--numprocesses --dist --basetemp --junitxml --junit-xml --junit-prefix --log-file --log-level "
                         "--log-format --log-cli-level --log-date-format --log-file-level --ignore --ignore-glob --deselect "
                         "--cov --cov-report --cov-config --cov-fail-under --capture --color --code-highlight --import-mode "
                         "--timeout --reruns --html --json-report-file -r --show-capture --cache-show -x"),
           operands="all"),
    Loader(("tox",), _w("-c --conf --root --installpkg"),
           "tox runs the commands of its tox.ini and installs (runs the build of) the package it is given",
           ("tox -c /tmp/x/tox.ini",), ("tox -e py311",),
           value_opts=_w("-e --envlist -p --parallel -x --override --workdir -m --labels -f --factors --result-json")),
    Loader(("nox",), _w("-f --noxfile"), "nox runs the sessions its noxfile.py defines (Python code)",
           ("nox -f /tmp/x/noxfile.py",), ("nox -s tests",), value_opts=_w("-s --sessions -k -t --tags -p --python")),
    Loader(("node", "nodejs"), _w("-r --require --import --loader --experimental-loader"),
           "node runs the modules it preloads before the script",
           ("node --require /tmp/x.js app.js", "node --import /tmp/x.mjs app.js"),
           ("node --require ./setup.js app.js", "node -r dotenv/config app.js"),
           value_opts=INTERPRETER_VALUE_OPTS["node"], named=_w("-r --require --import --loader --experimental-loader"),
           runs_here=False, stop_at_operand=True),
    Loader(("perl",), _w("-I"), "perl loads the modules a script uses (and -M names) from its -I folders first",
           ("perl -I/tmp/x -MX -e 1",), ("perl -Ilib app.pl", "perl -MJSON -e 1"),
           value_opts=INTERPRETER_VALUE_OPTS["perl"] | _w("-e -E"), runs_here=False, stop_at_operand=True),
    Loader(("ruby",), _w("-I -r"), "ruby requires -r files before the script, and loads libraries from -I folders first",
           ("ruby -r/tmp/x.rb app.rb", "ruby -I /tmp/x app.rb"), ("ruby -rjson -e 'p 1'", "ruby -Ilib app.rb"),
           value_opts=INTERPRETER_VALUE_OPTS["ruby"] | _w("-e"), named=_w("-r"), runs_here=False, stop_at_operand=True),
    Loader(("gradle", "gradlew"), _w("-I --init-script -b --build-file -c --settings-file -p --project-dir --include-build "
                                     "-g --gradle-user-home"),
           "gradle runs its init scripts, build and settings scripts (Groovy or Kotlin code), and the init.d scripts "
           "of its user home", ("gradle --init-script /tmp/x.gradle build", "gradle -I /tmp/x.gradle build"),
           ("gradle build", "gradle -p sub test"),
           value_opts=_w("-x --exclude-task --console --warning-mode --max-workers --priority --project-cache-dir -D -P"),
           moves=_w("-p --project-dir")),
    Loader(("mvn", "mvnw"), _w("-f --file"), "maven runs the plugins its pom.xml declares",
           ("mvn -f /tmp/x/pom.xml package",), ("mvn package",),
           value_opts=_w("-P --activate-profiles -pl --projects -T --threads -rf --resume-from -s --settings -gs "
                         "--global-settings -t --toolchains -l --log-file -D")),
    Loader(("cargo",), _w("--manifest-path -C"), "cargo runs the build scripts and procedural macros of the crate it builds",
           ("cargo build --manifest-path /tmp/x/Cargo.toml",), ("cargo build", "cargo test -p core"),
           value_opts=_w("-p --package -j --jobs --target --target-dir --features -F --profile --bin --example --test "
                         "--bench --color --config -Z"),
           moves=_w("-C"), subs=_w("build b check c test t run r bench doc d clippy fix")),
    Loader(("npm",), _w("--prefix -C --script-shell --userconfig --globalconfig"),
           "npm runs the scripts of the package in its prefix folder through its script shell, and an npmrc can "
           "set both (and node options)",
           ("npm --prefix /tmp/x run build", "npm run test --script-shell=/tmp/x.sh", "npm install /tmp/x.tgz"),
           ("npm test", "npm run build", "npm install ./vendor/x.tgz"),
           value_opts=_w("-w --workspace --registry --cache --loglevel --tag --otp --omit --include --before"),
           moves=_w("--prefix -C"), subs=_NPM_SCRIPTS, operands="paths", operand_subs=_w("install i in ins add ci")),
    Loader(("yarn", "yarnpkg"), _w("--cwd --use-yarnrc"), "yarn runs the scripts of the package in the folder it works in",
           ("yarn --cwd /tmp/x build",), ("yarn build", "yarn"), moves=_w("--cwd")),
    Loader(("pnpm",), _w("-C --dir"), "pnpm runs the scripts of the package in the folder it works in",
           ("pnpm -C /tmp/x build",), ("pnpm build", "pnpm install"), value_opts=_w("--filter -F --reporter"),
           moves=_w("-C --dir")),
    Loader(("pip", "pip3"), _w("-e --editable -r --requirement -f --find-links"),
           "installing a local folder or archive runs its build (setup.py, a build backend); a requirements file "
           "or a find-links folder chooses what is installed",
           ("pip install /tmp/x.whl", "pip install --force-reinstall /tmp/x/pkg"),
           ("pip install -e .", "pip install -r requirements.txt", "pip install requests"),
           value_opts=_w("-c --constraint -t --target --prefix --root -i --index-url --extra-index-url --platform "
                         "--python-version --implementation --abi --upgrade-strategy --progress-bar --src --config-settings "
                         "-C --global-option --no-binary --only-binary --trusted-host --cache-dir --log --proxy --timeout "
                         "--retries --exists-action --cert --client-cert --python --report"),
           named=_w("-f --find-links -e --editable"), operands="paths", runs_here=False, subs=_w("install")),
    Loader(("rake",), _w("-f --rakefile -I --libdir -r --require"), "rake runs its Rakefile (Ruby code) and the files it requires",
           ("rake -f /tmp/x/Rakefile",), ("rake test",), value_opts=_w("-j --jobs -e --execute -p --execute-print -E"),
           named=_w("-r --require")),
    Loader(("just",), _w("-f --justfile -d --working-directory"), "just runs the recipes of its justfile",
           ("just -f /tmp/x/justfile build",), ("just build",), value_opts=_w("--set --shell --shell-arg --dotenv-path"),
           moves=_w("-d --working-directory")),
)

#: Tool name → its record.
_BY_NAME: dict[str, Loader] = {name: loader for loader in LOADERS for name in loader.names}


class Initializer:
    """A sub-command that fetches a project initializer from the registry and runs it:
    ``npm init vite`` runs the ``create-vite`` package, as ``npx create-vite`` would
    (CAT026, like every package runner); without a package name it only writes the
    project's package.json."""

    __slots__ = ("names", "subs", "match", "not_match")

    def __init__(self, names: tuple[str, ...], subs: frozenset[str], match: tuple[str, ...],
                 not_match: tuple[str, ...]) -> None:
        self.names = names
        self.subs = subs
        self.match = match
        self.not_match = not_match


INITIALIZERS: tuple[Initializer, ...] = (
    Initializer(("npm",), _w("init create innit"), ("npm init vite", "npm create vite@latest my-app", "npm init @scope/tool"),
                ("npm init", "npm init -y", "npm init --scope @organization --yes")),
    Initializer(("yarn", "yarnpkg", "pnpm", "bun"), _w("create"), ("yarn create react-app x", "pnpm create vite"),
                ("yarn build",)),
)
_INIT_BY_NAME: dict[str, frozenset[str]] = {name: i.subs for i in INITIALIZERS for name in i.names}
_INIT_VALUE = _w("--scope -w --workspace --init-author-name --init-author-email --init-author-url --init-license "
                 "--init-version --init-module --prefix -C --registry --cwd --dir")

class Fetch:
    """A sub-command that saves what it fetches from the network into the files it
    writes (``paths`` names them, by default after the URL): code run from them later in
    the same command line is downloaded code (HB005, ``analyse._download_then_exec``),
    as after ``curl -o x URL`` (whose outputs ``checks.network`` records)."""

    __slots__ = ("names", "words", "why", "match", "not_match", "value_opts")

    def __init__(self, names: tuple[str, ...], words: tuple[str, ...], why: str, match: tuple[str, ...],
                 not_match: tuple[str, ...], value_opts: frozenset[str] = frozenset()) -> None:
        self.names = names
        #: The sub-command words, after the tool's global options.
        self.words = words
        self.why = why
        self.match = match
        self.not_match = not_match
        self.value_opts = value_opts


FETCHES: tuple[Fetch, ...] = (
    Fetch(("git",), ("clone",), "a clone is another author's repository: its scripts and build files are theirs",
          ("git clone https://github.com/x/y && cd y && ./install.sh", "git clone https://github.com/x/y && make -C y"),
          ("git clone https://github.com/x/y && ls y",), value_opts=GIT_VALUE_OPTS),
    Fetch(("gh",), ("repo", "clone"), "gh repo clone is git clone of a GitHub repository",
          ("gh repo clone x/y && cd y && ./install.sh",), ("gh repo view x/y",), value_opts=_w("-R --repo")),
    Fetch(("pip", "pip3"), ("download",), "pip download saves distributions from the index; installing one runs its build",
          ("pip download x -d /tmp/pk && pip install /tmp/pk/x-1.0.tar.gz",), ("pip download x -d /tmp/pk",)),
    Fetch(("npm",), ("pack",), "npm pack SPEC saves a registry package's tarball; installing it runs its scripts",
          ("npm pack x && npm install ./x-1.0.0.tgz",), ("npm pack",), value_opts=_w("--pack-destination -w --workspace")),
)
_FETCH_BY_NAME: dict[str, Fetch] = {name: fetch for fetch in FETCHES for name in fetch.names}

#: Words that name a path rather than a module or package.
_PATH_PREFIXES = ("/", "./", "../", "~", "$", "file:")


def _pathlike(word: str) -> bool:
    return word.startswith(_PATH_PREFIXES) or word in (".", "..")


def loaded_code(name: str, args: tuple[str, ...], base: str, home: str) -> list[tuple[str, str]]:
    """``(as written, resolved)`` for every file or folder whose code ``name args`` loads
    when run in ``base``: what its options and operands name, and the folder it works
    in when it runs that folder's code. A value holding ``$`` stays as written (resolved
    to itself when not a well-known variable), so the caller can tell it is unknown."""
    loader = _BY_NAME.get(name)
    if loader is None:
        return []
    parsed = parse_args(args, loader.options | loader.value_opts, stop_at_operand=loader.stop_at_operand)
    ops = parsed.operands
    if loader.subs and not (ops and ops[0] in loader.subs):
        return []
    out: list[tuple[str, str]] = []
    here = base
    moved = False
    for opt, value in parsed.options:
        if value is None or opt not in loader.options:
            continue
        if opt in loader.named and not _pathlike(value):
            continue
        written = value[5:] if value.startswith("file:") else value
        if written.startswith("//"):
            written = written[2:]  # file:///tmp/x.js
        resolved = resolve(written, here, home)
        if opt in loader.moves:
            here, moved = resolved, True
            continue
        out.append((value, resolved))
    if loader.operands and (not loader.operand_subs or (ops and ops[0] in loader.operand_subs)):
        words = ops[1:] if loader.subs else ops
        for word in words:
            if loader.operands == "paths" and not (_pathlike(word) or ("/" in word and "://" not in word and "+" not in word)):
                continue
            path = word.split("::", 1)[0]
            if path:
                out.append((word, resolve(path, here, home)))
    if loader.runs_here or moved:
        out.append((here if moved else ".", here))
    return out


def check_loads(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """Code a tool loads from outside the workspace (or from a path only known when it
    runs) asks, naming it; every file or folder loaded is recorded as an ``exec`` access
    (download-then-run reads them). ``npm init X`` runs a fetched initializer (CAT026)."""
    fetch = _FETCH_BY_NAME.get(f.name)
    # operands are words of ``args``: a line without the fetch's words is not one (``git log``)
    if fetch is not None and all(word in args for word in fetch.words) \
            and tuple(parse_args(args, fetch.value_opts).operands[: len(fetch.words)]) == fetch.words:
        f.downloads.extend(a.resolved for a in f.paths if a.op == WRITE)
    subs = _INIT_BY_NAME.get(f.name)
    if subs is not None:
        ops = parse_args(args, _INIT_VALUE).operands
        if len(ops) > 1 and ops[0] in subs:
            f.hit("CAT026", f"{f.label} (downloads and runs the project initializer {ops[1]})")
    if f.name not in _BY_NAME:
        return
    for written, path in loaded_code(f.name, args, f.base, ctx.home):
        f.paths.append(PathAccess(EXEC, written, path, f.name))
        if dynamic(path):
            f.hit("CAT006", f"{f.label} (loads code from {written}, known only when it runs)")
        elif not ctx.inside(path):
            f.hit("CAT006", f"{f.label} (loads code from {path}, outside the workspace)")


#: Every command :func:`check_loads` has something to say about (the analyser's hook).
LOADING: frozenset[str] = frozenset(_BY_NAME) | frozenset(_INIT_BY_NAME) | frozenset(_FETCH_BY_NAME)
