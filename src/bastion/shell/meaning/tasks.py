"""Project task files a command runs: what ``make``, ``npm run``, ``pytest``, ``tox``,
``nox``, ``just`` and ``task`` will execute, read from the files that define it.

:func:`add_runs` appends ``(language, text, file)`` to ``Facts.runs`` for the recipes
and scripts the command will run (``analyse._file_programs`` judges them by what they
would do: a Makefile whose ``clean`` recipe holds ``rm -rf ~`` makes ``make clean`` the
hard block ``rm -rf ~`` is; a harmless ``make test`` stays allowed).

* ``make``/``gmake``: the Makefile's rules followed from the goals through their
  prerequisites, with variables expanded as far as they are fixed (:mod:`.tasks_make`);
* ``npm``/``yarn``/``pnpm``/``bun``: the ``package.json`` script with its ``pre``/``post``
  scripts, and the lifecycle scripts a bare install runs;
* ``pytest``: every ``conftest.py`` between the rootdir and the test paths, and the test
  files named on the command line (Python);
* ``tox``, ``nox``, ``just``, ``task``: :mod:`.tasks_more`.

A file that is missing where one is needed (``make`` with no Makefile, ``npm run x``
with no package.json or no script ``x``) adds nothing: the tool itself stops with an
error and nothing runs, so today's verdict stands. A file that exists but cannot be
read (not a regular file, too large, no permission) asks, naming it (CAT006). Task files
outside the workspace (``make -f /tmp/x.mk``, ``npm --prefix /tmp/x``) are read the
same way; that they ask is ``checks/loads.py``'s finding, not this module's.

Files are read at most :data:`MAX_BYTES` each and parsed once per identity and
modification time (``st_dev, st_ino, st_size, st_mtime_ns``): a session that runs
``make test`` twenty times reads its Makefile once.
"""

from __future__ import annotations

import os
import posixpath
from stat import S_ISDIR

from ... import fastjson
from ...std_lite import lru_cache
from ..syntax.lazyre import LazyPattern
from ..syntax.quoting import quote as shell_quote
from ..syntax.wildcards import fnmatchcase
from .facts import Ctx, Facts
from .tasks_files import (
    MAX_BYTES,
    MAX_UP,
    Asked,
    Runs,
    Unreadable,
    absolute,
    cd_line,
    find_up,
    names_in,
    read_cached,
    text_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["RUNNERS", "add_runs", "add_runs_as", "read_cached", "Unreadable", "MAX_BYTES"]

#: conftest.py files read for one pytest run, and directory entries looked at to find them.
MAX_CONFTESTS = 24
MAX_WALK = 4000

#: The files pytest reads its rootdir from (the first ancestor holding one is the rootdir).
_PYTEST_INI = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
#: Directories pytest does not collect from (its ``norecursedirs`` default).
_PYTEST_SKIP = frozenset({"node_modules", "build", "dist", "venv", "CVS", "_darcs", "{arch}", "__pycache__", "site-packages"})




# --------------------------------------------------------------------------- reading











# --------------------------------------------------------------------------- entry


def add_runs(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """Append what the task runner ``f.name`` will run to ``f.runs`` (see the module)."""
    add_runs_as(f, f.name, args, ctx)


def add_runs_as(f: Facts, tool: str, args: tuple[str, ...], ctx: Ctx) -> None:
    """:func:`add_runs` for a runner reached another way (``python -m pytest`` → ``pytest``)."""
    reader = _READERS.get(tool)
    if reader is None:
        return
    try:
        found = reader(f, args, ctx)
    except Unreadable as exc:
        f.hit("CAT006", f"{f.label} (runs {exc.path}, which cannot be read: {exc.why})")
        return
    except (OSError, ValueError, RecursionError) as exc:  # fail closed: what runs is not known
        f.hit("CAT006", f"{f.label} (its task file could not be read: {type(exc).__name__})")
        return
    for language, text, origin in found:
        if not text.strip():
            continue
        if len(text) > _read_whole(language):
            f.hit("CAT006", f"{f.label} (runs {len(text) // 1024} KB of {language} from {origin}, more than bastion reads whole)")
            continue
        f.runs.append((language, text, origin))
        if language != "sh":  # the project modules it imports run too (``conftest.py`` → ``tests/helpers.py``)
            from .scripts import imported_files

            f.runs.extend(imported_files(language, text, origin, _import_top.get(origin, posixpath.dirname(origin)), ctx))
    _import_top.clear()



#: Where Python looks first for a run file's absolute imports, when not its own folder
#: (pytest's rootdir for conftest.py files); filled by a reader, cleared after each call.
_import_top: dict[str, str] = {}


def _read_whole(language: str) -> int:
    """The longest text of ``language`` the analysis reads whole (``scripts``' bound)."""
    from .models import MODELS
    from .scripts import _READ_WHOLE

    return _READ_WHOLE.get(language) or _READ_WHOLE.get(MODELS.get(language, ""), 0) or _READ_WHOLE["sh"]


def _make(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    from .tasks_make import make_runs

    return make_runs(f, args, ctx)


def _more(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    from .tasks_more import READERS

    return READERS[f.name](f, args, ctx)


# --------------------------------------------------------------------------- package.json

#: What a bare install runs from the root package (npm's documented order).
INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare")
#: npm sub-commands that run lifecycle scripts of the root package, and which ones.
_NPM_LIFECYCLE: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("install", "i", "in", "ins", "inst", "insta", "instal", "isntall", "add", "ci", "clean-install",
                     "install-clean", "isntall-clean", "rebuild", "rb"), INSTALL_SCRIPTS),
    "pack": ("prepack", "prepare", "postpack"),
    "publish": ("prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"),
    "version": ("preversion", "version", "postversion"),
}
_NPM_INSTALLS = frozenset(k for k, v in _NPM_LIFECYCLE.items() if v is INSTALL_SCRIPTS)
#: Install forms that run the root package's scripts even when packages are named.
_NPM_ALWAYS = frozenset({"ci", "clean-install", "install-clean", "isntall-clean", "rebuild", "rb"})
#: Sub-commands that run the script of the same name (npm's aliases included).
_NPM_NAMED = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop", "restart": "restart"}
_NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
#: The tools' own commands: any other first word runs the package.json script of that
#: name (``yarn build``, ``pnpm lint``, ``bun dev``; ``bun build`` is bun's bundler).
_OWN_COMMANDS: dict[str, frozenset[str]] = {
    "yarn": frozenset(
        "add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry global help import "
        "info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies "
        "publish rebuild remove run search set stage tag team unlink unplug up upgrade upgrade-interactive version versions "
        "why workspace workspaces".split()),
    "pnpm": frozenset(
        "add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch patch "
        "patch-commit patch-remove audit list ls outdated why licenses run exec dlx create publish pack store root bin "
        "setup init deploy doctor config c env server recursive m multi ci install-test it add self-update".split()),
    "bun": frozenset(
        "run test x repl exec install i add a remove rm update link unlink pm build init create upgrade outdated patch "
        "publish audit info why".split()),
}
#: Options of npm/yarn/pnpm/bun that take a value (so it is not read as a script name).
_PKG_VALUE = frozenset({"--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--filter", "-F", "--registry",
                        "--script-shell", "--loglevel", "--cache", "--userconfig", "--tag", "--otp"})


def _package_dir(parsed_opts: dict[str, str], base: str, ctx: Ctx) -> str | None:
    for name in ("--prefix", "-C", "--dir", "--cwd"):
        if name in parsed_opts:
            return absolute(parsed_opts[name], base, ctx)
    found = find_up(base, ("package.json",))
    return posixpath.dirname(found) if found else None


def _split(args: tuple[str, ...]) -> tuple[dict[str, str], set[str], list[str], list[str]]:
    """``(options with values, flags, operands, words after --)`` of a package tool."""
    opts: dict[str, str] = {}
    flags: set[str] = set()
    ops: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest = list(args[i + 1:])
            break
        if arg.startswith("-") and len(arg) > 1:
            name, eq, value = arg.partition("=")
            if eq:
                opts[name] = value
            elif name in _PKG_VALUE and i + 1 < len(args):
                opts[name] = args[i + 1]
                i += 1
            else:
                flags.add(name)
        else:
            ops.append(arg)
        i += 1
    return opts, flags, ops, rest


class _Package:
    """What a package.json says about code that runs: its scripts, the folders of its
    local dependencies (``file:``/``link:``: installing them runs their install scripts)
    and its workspace folder patterns."""

    __slots__ = ("scripts", "local", "workspaces")

    def __init__(self, scripts: dict[str, str], local: list[str], workspaces: list[str]) -> None:
        self.scripts = scripts
        self.local = local
        self.workspaces = workspaces


def _package_json(text: str, path: str) -> _Package:
    data = fastjson.loads(text)
    if not isinstance(data, dict):
        return _Package({}, [], [])
    scripts = data.get("scripts")
    scripts = {k: v for k, v in scripts.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(scripts, dict) else {}
    local = []
    for key in ("dependencies", "devDependencies", "optionalDependencies"):
        table = data.get(key)
        if isinstance(table, dict):
            local += [v.split(":", 1)[1] for v in table.values() if isinstance(v, str) and v.startswith(("file:", "link:"))]
    spaces = data.get("workspaces")
    if isinstance(spaces, dict):
        spaces = spaces.get("packages")
    return _Package(scripts, local, [w for w in spaces if isinstance(w, str)] if isinstance(spaces, list) else [])


def _pnpm_workspace(text: str, path: str) -> list[str]:
    import yaml

    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    packages = data.get("packages") if isinstance(data, dict) else None
    return [p for p in packages if isinstance(p, str)] if isinstance(packages, list) else []


#: Workspace packages and local dependencies read for one command.
MAX_PACKAGES = 32


def _workspace_dirs(home: str, package: _Package) -> list[str]:
    """The package folders of a workspace (package.json ``workspaces``, pnpm-workspace.yaml)."""
    import glob

    patterns = list(package.workspaces) + (read_cached(posixpath.join(home, "pnpm-workspace.yaml"), _pnpm_workspace, "pnpm-ws") or [])
    found: dict[str, None] = {}
    for pattern in patterns:
        if pattern.startswith("!"):
            continue
        for folder in sorted(glob.glob(posixpath.join(home, pattern))):
            if len(found) < MAX_PACKAGES and os.path.isfile(posixpath.join(folder, "package.json")):
                found[posixpath.normpath(folder)] = None
    return list(found)


def package_script(name: str, base: str, ctx: Ctx) -> bool:
    """The package.json that ``base`` belongs to defines a script called ``name``."""
    home = _package_dir({}, base, ctx)
    if home is None:
        return False
    try:
        package = read_cached(posixpath.join(home, "package.json"), _package_json, "package.json")
    except (Unreadable, ValueError):
        return False
    return name in package.scripts


def _package_scripts(tool: str, ops: list[str]) -> tuple[tuple[str, ...], list[str], bool]:
    """``(script names, their extra arguments, whether pre/post scripts run)`` for a
    package tool's operands: ``npm run X``, ``npm test``, ``yarn X``, ``pnpm X``,
    ``bun run X``; a bare install's lifecycle scripts (in npm's order, no pre/post of
    their own); nothing for anything else."""
    first = ops[0] if ops else ""
    if tool == "yarn" and (not ops or (first == "install" and len(ops) == 1)):
        return INSTALL_SCRIPTS, [], False
    if first in _NPM_RUN and len(ops) > 1 and (tool != "bun" or first == "run"):
        return (ops[1],), ops[2:], True
    if first in _NPM_NAMED and tool != "bun":  # ``bun test`` is bun's own test runner
        return (_NPM_NAMED[first],), ops[1:], True
    if tool == "npm" and first in ("install-test", "it", "install-ci-test", "cit"):
        return INSTALL_SCRIPTS + ("test",), [], False
    if first in _NPM_LIFECYCLE:
        if first in _NPM_INSTALLS:
            bare = len(ops) == 1 and first != "add"
            return (INSTALL_SCRIPTS, [], False) if bare or (tool == "npm" and first in _NPM_ALWAYS) else ((), [], False)
        return (_NPM_LIFECYCLE[first], [], False) if tool != "bun" and (tool == "npm" or first != "version") else ((), [], False)
    own = _OWN_COMMANDS.get(tool)
    if own is not None and first and first not in own and "/" not in first and "." not in first:
        return (first,), ops[1:], True  # ``yarn build``, ``pnpm lint``, ``bun dev``: a script name
    return (), [], False


def _package(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    """The scripts ``npm``/``yarn``/``pnpm``/``bun`` run from package.json."""
    opts, flags, ops, rest = _split(args)
    if "--help" in flags or "-h" in flags:
        return []
    tool = "yarn" if f.name == "yarnpkg" else f.name
    names, extra, with_hooks = _package_scripts(tool, ops)
    if not names or ("--ignore-scripts" in flags and not with_hooks):
        return []
    home = _package_dir(opts, f.base, ctx)
    if home is None:
        return []
    workspace = opts.get("--workspace") or opts.get("-w")
    if workspace and tool == "npm":
        home = absolute(workspace, home, ctx)  # a path; a package name is left to npm
    path = posixpath.join(home, "package.json")
    package = read_cached(path, _package_json, "package.json")
    if package is None:
        return []
    every = bool(flags & {"-r", "--recursive", "--workspaces", "-ws"})
    installs = names[:1] == INSTALL_SCRIPTS[:1]
    folders = [home]
    if every or installs:  # every workspace package (an install links and builds them all)
        folders += _workspace_dirs(home, package)
    if installs:
        folders += [absolute(d, home, ctx) for d in package.local][:MAX_PACKAGES]
    words = " ".join(shell_quote(w) for w in extra + rest)
    steps: list[str] = []
    for folder in dict.fromkeys(folders):
        own = package if folder == home else read_cached(posixpath.join(folder, "package.json"), _package_json, "package.json")
        if own is None:
            continue
        prefix = cd_line(folder, ctx)
        for name in names:
            order = (f"pre{name}", name, f"post{name}") if with_hooks and "--ignore-scripts" not in flags else (name,)
            for step in order:
                body = own.scripts.get(step)
                if body is None and step == "start" and os.path.isfile(posixpath.join(folder, "server.js")):
                    body = "node server.js"  # npm's default start script
                if body is not None:
                    steps.append(prefix + (f"{body} {words}" if step == name and words else body))
    return [("sh", "\n".join(steps), path)] if steps else []




# --------------------------------------------------------------------------- pytest

#: pytest options that take a value (the value is not a test path).
_PYTEST_VALUE = frozenset({
    "-k", "-m", "-p", "-o", "-c", "-W", "-n", "-r", "--rootdir", "--confcutdir", "--basetemp", "--override-ini",
    "--config-file", "--junitxml", "--junit-xml", "--tb", "--maxfail", "--durations", "--deselect", "--ignore",
    "--ignore-glob", "--log-level", "--log-file", "--import-mode", "--capture", "--cov-report", "--dist",
    "--numprocesses", "--maxprocesses", "--timeout", "--reruns", "--randomly-seed", "--log-cli-level", "--color",
    "--html", "--json-report-file", "--benchmark-json", "--junit-prefix",
})


def _pytest(f: Facts, args: tuple[str, ...], ctx: Ctx) -> Runs:
    """``conftest.py`` files from the rootdir down to the test paths, the test files
    named on the command line, and the test modules pytest collects that call something
    that acts (pytest imports them all)."""
    if any(a in ("--help", "-h", "--version", "-V", "--noconftest") for a in args):
        return []
    base = f.base
    paths: list[str] = []
    plugins = _plugin_options(list(args))
    rootdir = config = None
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if arg.startswith("-"):
            if name in _PYTEST_VALUE and not eq and i + 1 < len(args):
                value = args[i + 1]
                i += 1
            if name == "--rootdir":
                rootdir = absolute(value, base, ctx)
            elif name in ("-c", "--config-file"):
                config = absolute(value, base, ctx)
        else:
            paths.append(absolute(arg.split("::", 1)[0], base, ctx))
        i += 1
    targets = paths or [base]
    missing: set[str] = set()  # targets that name nothing: not looked for again below
    folders = {target: _is_folder(target, missing) for target in targets}  # asked once per target
    asked: Asked = {}  # the rootdir's ini files are asked for again below
    if rootdir is None:
        if config is not None:
            rootdir = posixpath.dirname(config)
        else:
            anchor = posixpath.commonpath(targets) if len(targets) > 1 else targets[0]
            if not (folders[anchor] if anchor in folders else os.path.isdir(anchor)):
                anchor = posixpath.dirname(anchor)
            found = find_up(anchor, _PYTEST_INI, asked=asked)
            # no ini file: pytest's rootdir is the tests' common folder, but a conftest.py
            # above it still runs once an ini file appears; read from the workspace root
            roots = [r for r in ctx.roots if anchor == r or anchor.startswith(r.rstrip("/") + "/")]
            rootdir = posixpath.dirname(found) if found else (roots[0] if roots else anchor)
    files: dict[str, None] = {}
    for target in targets:
        folder = target if folders[target] else posixpath.dirname(target)
        for above in _between(rootdir, folder):
            files[posixpath.join(above, "conftest.py")] = None
        if folders[target]:
            for found_file in _conftests_below(target):
                files[found_file] = None
        elif target.endswith(".py"):
            files[target] = None
    ini = _ini_files(rootdir, asked)
    for module in plugins + _ini_plugins(rootdir, ini):
        from .scripts import module_files

        for path in module_files(module, rootdir):
            files[path] = None
    for path in _collected([t for t in targets if folders[t]], rootdir, "--doctest-modules" in args, ini):
        files[path] = None
    out: Runs = []
    for path in list(files)[: MAX_CONFTESTS + len(paths) + len(plugins) + 4 + MAX_COLLECTED]:
        text = None if path in missing else read_cached(path, text_of, "text")
        if text is not None:
            out.append(("python", text, path))
            _import_top[path] = rootdir
    return out


def _is_folder(path: str, missing: set[str]) -> bool:
    """``os.path.isdir(path)``, adding ``path`` to ``missing`` when it names nothing (no
    such file, or a file where a folder should be): ``read_cached`` finds nothing there."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        missing.add(path)
        return False
    except (OSError, ValueError):
        return False
    return S_ISDIR(st.st_mode)


def _ini_plugins(rootdir: str, ini: tuple[str, ...]) -> list[str]:
    """``-p MODULE`` in the ``addopts`` of pytest's ini file in the rootdir (a plugin
    module of the project is imported before any test)."""
    addopts = _ini_value(rootdir, "addopts", ini)
    if addopts:
        return list(_addopts_plugins(addopts)) if isinstance(addopts, str) else _plugin_options(addopts)
    return []


@lru_cache(maxsize=64)
def _addopts_plugins(addopts: str) -> tuple[str, ...]:
    """The ``-p`` modules of an ``addopts`` text, split once per text: the ini file gives
    the same text to every pytest run of the project."""
    import shlex  # only a project whose ini file gives addopts

    return tuple(_plugin_options(shlex.split(addopts, comments=False)))


#: pytest's ini files in the order it reads them, with the section holding its options
#: (pyproject.toml's is a table).
_INI_FILES = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"),
              ("pyproject.toml", ""))


def _ini_files(rootdir: str, asked: Asked) -> tuple[str, ...]:
    """Which of pytest's ini files may be in the rootdir (a superset): only those are
    opened, by every :func:`_ini_value` of the run (most folders hold none of them).
    ``asked`` holds the folders the rootdir search already looked in."""
    return names_in(rootdir, _PYTEST_INI, asked)


def _ini_value(rootdir: str, key: str, present: tuple[str, ...]) -> str | list[str]:
    """``key`` from pytest's ini file in the rootdir (pytest.ini, tox.ini, setup.cfg or
    pyproject.toml, in pytest's order), or ``""``; ``present`` is :func:`_ini_files`."""
    for name, section in _INI_FILES:
        if name not in present:
            continue
        path = posixpath.join(rootdir, name)
        value = read_cached(path, _ini_toml(key) if not section else _ini_option(section, key), f"{key}:{section}")
        if value:
            return value  # type: ignore[no-any-return]
    return ""


def _ini_option(section: str, key: str) -> Callable[[str, str], str]:
    def parse(text: str, path: str) -> str:
        import configparser

        parser = configparser.RawConfigParser(strict=False)
        try:
            parser.read_string(text, path)
        except configparser.Error:
            return ""
        return parser.get(section, key, fallback="")

    return parse


def _ini_toml(key: str) -> Callable[[str, str], str | list[str]]:
    def parse(text: str, path: str) -> str | list[str]:
        import tomllib

        try:
            options = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options", {})
        except tomllib.TOMLDecodeError:
            return ""
        value = options.get(key, "") if isinstance(options, dict) else ""
        return value if isinstance(value, (str, list)) else ""

    return parse


#: Test modules read per run, and the calls that make one worth reading: a module with
#: none of them cannot do what a hard block names (delete a tree, run a download, open
#: a socket, read and send a secret), so it is not analysed (pytest suites are large).
MAX_COLLECTED = 256
_ACTS = LazyPattern(r"\b(?:os\.system|subprocess|popen|rmtree|os\.remove|unlink|socket|urlopen|urllib|requests\.|"
                   r"http\.client|exec\s*\(|eval\s*\(|__import__|pty\b|ctypes|authorized_keys|\.ssh|\.aws)")


def _collected(tops: list[str], rootdir: str, doctests: bool, ini: tuple[str, ...]) -> list[str]:
    """The test modules pytest imports under the folders ``tops`` (``python_files`` patterns, by
    default ``test_*.py`` and ``*_test.py``; every module with ``--doctest-modules``) whose
    text calls something that acts (:data:`_ACTS`), at most :data:`MAX_COLLECTED`."""
    patterns = _ini_value(rootdir, "python_files", ini) or "test_*.py *_test.py"
    globs = patterns.split() if isinstance(patterns, str) else list(patterns)
    out: list[str] = []
    # pytest's fnmatch.fnmatch: on POSIX its normcase changes nothing, so it is fnmatchcase
    for entry in _test_tree(tops):
        if entry.name.endswith(".py") and (doctests or any(fnmatchcase(entry.name, g) for g in globs)):
            text = read_cached(entry.path, text_of, "text")
            if text is not None and _ACTS.search(text):
                out.append(entry.path)
                if len(out) >= MAX_COLLECTED:
                    break
    return out


def _test_tree(tops: list[str]) -> Iterator[os.DirEntry[str]]:
    """The files below ``tops`` that pytest collects from, shallowest first, within
    :data:`MAX_WALK` entries: hidden folders, virtual environments (a ``pyvenv.cfg``)
    and :data:`_PYTEST_SKIP` folders are not walked."""
    queue = list(tops)
    seen = 0
    while queue and seen < MAX_WALK:
        folder = queue.pop(0)
        try:
            with os.scandir(folder) as entries:
                listing = list(entries)
        except OSError:
            continue
        seen += len(listing)
        if folder not in tops and any(e.name == "pyvenv.cfg" for e in listing):
            continue  # a virtual environment: pytest does not collect it
        for entry in listing:
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith(".") and entry.name not in _PYTEST_SKIP and not entry.name.endswith(".egg"):
                    queue.append(entry.path)
            else:
                yield entry


def _plugin_options(words: list[str]) -> list[str]:
    out = []
    for k, word in enumerate(words):
        value = words[k + 1] if word == "-p" and k + 1 < len(words) else (word[2:] if word.startswith("-p") and len(word) > 2 else "")
        if value and not value.startswith("no:"):
            out.append(value)
    return out


def _between(top: str, folder: str) -> list[str]:
    """``top`` and every folder from it down to ``folder`` (just ``folder`` when it is not below ``top``)."""
    if folder != top and not folder.startswith(top.rstrip("/") + "/"):
        return [folder]
    chain = [folder]
    while folder != top and len(chain) < MAX_UP:
        folder = posixpath.dirname(folder)
        chain.append(folder)
    return chain[::-1]


def _conftests_below(top: str) -> list[str]:
    """conftest.py files under ``top``, shallowest first, within :data:`MAX_WALK` entries
    (a larger tree keeps the ones nearest its top: where a project's fixtures live)."""
    found: list[str] = []
    for entry in _test_tree([top]):
        if entry.name == "conftest.py" and posixpath.dirname(entry.path) != top:
            found.append(entry.path)
            if len(found) >= MAX_CONFTESTS:
                break
    return found


_READERS: dict[str, Callable[[Facts, tuple[str, ...], Ctx], Runs]] = {
    "make": _make,
    "gmake": _make,
    "npm": _package,
    "yarn": _package,
    "yarnpkg": _package,
    "pnpm": _package,
    "bun": _package,
    "pytest": _pytest,
    "py.test": _pytest,
    "tox": _more,
    "nox": _more,
    "just": _more,
    "task": _more,
}

#: The task runners whose files this module reads (the checks call :func:`add_runs` for them).
RUNNERS = frozenset(_READERS)
