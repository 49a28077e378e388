"""Checks for commands with sub-commands (``npm``, ``cargo``, ``docker``,
``kubectl``, ``terraform`` …): the catalog's tables say read-only, routine or which
finding; small refiners handle the forms a table cannot (``docker run --privileged``,
``kubectl get secret``, ``terraform apply -destroy``, ``npm run deploy``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...catalog import catalog as C
from ...catalog.catalog_cli import CliTool, cli_spec, match_option_key
from ...syntax.options import Args, parse_args
from ..facts import Ctx, Facts, L, apply_value, destructive_verb, exec_file, host_of, judge_as, risky_options
from ..paths import resolve
from ..tasks import RUNNERS, add_runs, package_script
from ..tasks_files import Unreadable, find_up, read_cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def check_tool(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    code_opts = C.INTERPRETERS.get(f.name)
    if code_opts and any(a in code_opts or a.split("=", 1)[0] in code_opts for a in args[:3]):
        from .code import check_interpreter

        check_interpreter(f, args, ctx)  # ``bun -e CODE``: a tool that is also an interpreter
        return
    if f.name in RUNNERS:
        add_runs(f, args, ctx)  # the package.json scripts it will run
    tool = C.TOOLS[f.name]
    parsed = parse_args(args, tool.value_opts)
    key, value, w1, ops = tool_lookup(tool, args, parsed)
    detail = f"{f.name} {key}".strip()
    if value == "?":
        f.label = detail
        if any(destructive_verb(o) for o in ops):
            f.hit("CAT016", detail)
    for arg, code in risky_options(args, tool.risky):
        f.hit(code, f"{f.name} {arg}")
    if key in tool.installs or w1 in tool.installs:
        packages = [o for o in ops[1:] if o not in (".", "..") and not o.startswith(("./", "../", "/"))]
        if parsed.has("-g", "--global") or packages and not parsed.has("-r", "--requirement", "-e", "--editable"):
            f.hit("CAT026", f"{f.label}")
            return
    script = ops[1] if key == "run" and len(ops) > 1 else w1
    if value in ("?", "l") and script.endswith(C.SCRIPT_SUFFIXES.get(f.name, ())) and key in (w1, "run"):
        exec_file(f, resolve(script, f.base, ctx.home), ctx)  # ``bun src/cli.ts``: the file runs
        return
    runner = ENV_RUNNERS.get((f.name, key))
    if runner is not None:
        run_inside(f, args, key, runner, ctx)
        return
    if (f.name, key) in PACKAGE_RUN_SUBS:
        run_package(f, args[args.index(key) + 1 :], ctx)
        return
    if value == "?" and f.name in BINARY_FALLBACK and key == w1 and w1 in args:
        if package_script(w1, f.base, ctx):  # its text was read above (``add_runs``)
            f.at_least(L)
            f.hit("CAT032", detail)
        else:  # ``pnpm vitest run`` is ``pnpm exec vitest run``: judged as npx judges it
            run_package(f, args[args.index(w1) :], ctx)
        return
    refine = _TOOL_REFINERS.get(f.name)
    if refine is not None and refine(f, parsed, value, key):
        return
    apply_value(f, value, detail)


def tool_lookup(tool: C.Tool, args: tuple[str, ...], parsed: Args) -> tuple[str, str, str, list[str]]:
    """``(key, value, first word, operands)`` of a core tool's sub-command: a leading
    option listed as a key (``pacman -Qi``), a key with option words when all of them
    were given (``npm pack --dry-run``), else the first two operands, else the first."""
    ops = parsed.operands
    w1 = ops[0] if ops else ""
    if args and args[0].startswith("-") and args[0] in tool.subs:
        w1, ops = args[0], [args[0]]  # ``pacman -Qi htop``, ``dpkg -L pkg``: the option is the operation
    elif not w1 and parsed.options:
        w1 = parsed.options[0][0]  # ``dpkg -l``, ``pacman -Q``
    if tool.option_keys:
        hit = match_option_key(tool.option_keys, parsed.operands, {o for o, _ in parsed.options})
        if hit is not None:
            return hit.key, hit.value, w1, ops
    w2 = f"{w1} {ops[1]}" if len(ops) > 1 else ""
    value = tool.subs.get(w2) if w2 else None
    key = w2 if value is not None else w1
    if value is None:
        value = tool.subs.get(w1, tool.default if w1 else tool.bare)
    return key, value, w1, ops


@dataclass(frozen=True)
class EnvRunner:
    """A sub-command that runs another command inside the project's environment
    (``uv run pytest``, ``poetry run python x.py``, ``bundle exec rake``)."""

    value_opts: frozenset[str] = frozenset()
    #: Options that install something first (``uv run --with requests``).
    installs: frozenset[str] = frozenset()
    #: An unknown first word is a task defined by the project (``pdm run lint``).
    tasks: bool = False


_UV_RUN = EnvRunner(
    frozenset({"--with", "--with-requirements", "--with-editable", "--python", "-p", "--project", "--directory", "--env-file",
               "--extra", "--group", "--package", "--index", "--default-index", "--index-url", "--extra-index-url", "-m", "--module"}),
    frozenset({"--with", "--with-requirements", "--with-editable"}),
)
#: (tool, sub-command) → how it forwards to the command it runs.
ENV_RUNNERS: dict[tuple[str, str], EnvRunner] = {
    ("uv", "run"): _UV_RUN,
    ("poetry", "run"): EnvRunner(),
    ("bundle", "exec"): EnvRunner(frozenset({"--gemfile"})),
    ("pdm", "run"): EnvRunner(frozenset({"-p", "--project"}), tasks=True),
    ("hatch", "run"): EnvRunner(tasks=True),
    ("rye", "run"): EnvRunner(tasks=True),
    ("conda", "run"): EnvRunner(frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})),
    ("mamba", "run"): EnvRunner(frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})),
}


def run_inside(f: Facts, args: tuple[str, ...], key: str, runner: EnvRunner, ctx: Ctx) -> None:
    """Judge ``TOOL run CMD …`` as ``CMD …``; a script file runs with python/ruby."""
    at = args.index(key.split(" ", 1)[0]) + len(key.split(" ")) if key.split(" ", 1)[0] in args else 0
    parsed = parse_args(args[at:], runner.value_opts, stop_at_operand=True)
    if parsed.has(*runner.installs):
        f.hit("CAT026", f"{f.label} (installs packages first)")
    inner = list(parsed.operands)
    if inner[:1] == ["--"]:
        inner = inner[1:]
    if parsed.has("-m", "--module") and inner is not None:
        module = parsed.value("-m", "--module")
        inner = ["python", "-m", *([module] if module else []), *inner]
    if not inner:
        f.at_least(L)
        return
    head = inner[0]
    if head.endswith(".py"):
        inner = ["python", *inner]
    elif head.endswith(".rb") and f.name == "bundle":
        inner = ["ruby", *inner]
    name = C.canonical_name(inner[0].rsplit("/", 1)[-1])
    if runner.tasks and "/" not in inner[0] and not ctx.analyser.knows(name) and cli_spec(name) is None:
        f.at_least(L)
        f.hit("CAT032", f"{f.label} (project task)")
        return
    judge_as(f, tuple(inner), ctx)


# --------------------------------------------------------------------------- package runners

#: Sub-commands of npm-style tools that run a package's binary like ``npx``.
PACKAGE_RUN_SUBS = frozenset({("npm", "exec"), ("npm", "x"), ("npm", "npx"), ("pnpm", "dlx"), ("pnpm", "exec"),
                              ("yarn", "dlx"), ("yarn", "exec"), ("bun", "x")})
#: Tools that run a word that is none of their own commands as the package.json script of
#: that name, else as the project's binary of that name (``pnpm vitest``, ``bun tsc``).
BINARY_FALLBACK = frozenset({"pnpm", "bun"})
#: Runner options that take a value (``-p PKG``: the package to fetch; ``-c CMD``: a shell string).
_RUNNER_VALUE = frozenset({"-p", "--package", "-c", "--call", "--shell-mode", "-w", "--workspace", "--prefix"})


def check_package_runner(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``npx``, ``pnpx``, ``bunx``: see :func:`run_package`."""
    run_package(f, args, ctx)


def run_package(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``npx TOOL ARGS`` runs TOOL's binary: the project's installed copy when there is
    one, else a download of the package of that name. A tool whose npm package is the
    tool itself (``catalog.NPM_TOOLS``, and the routine and read-only commands) or one
    the project installs is judged as ``TOOL ARGS`` typed directly (``npx playwright
    test`` runs tests; ``npx playwright install`` downloads browsers). Any other name,
    or a pinned version (``npx pkg@1.2``, ``-p pkg``), downloads and runs a package."""
    parsed = parse_args(args, _RUNNER_VALUE, stop_at_operand=True)
    if parsed.has("-c", "--call", "--shell-mode"):
        f.hit("CAT006", f.label)
        return
    ops = list(parsed.operands)
    if ops[:1] == ["--"]:
        ops = ops[1:]
    tool = ops[0] if ops else ""
    package = parsed.value("-p", "--package")
    scoped = tool.startswith("@")
    if not tool or ":" in tool or "@" in tool[1:] or tool.startswith((".", "-")) or "/" in tool and not scoped:
        # a pinned version, a path, a git, GitHub or URL spec: that package is downloaded
        f.hit("CAT026", f"{f.label} (downloads and runs a package)")
        return
    # ``@playwright/test`` installs ``playwright``; another scope's ``@x/vitest`` is not vitest
    binary = C.PACKAGE_BINARIES.get(tool) or tool.rsplit("/", 1)[-1]
    name = C.canonical_name(binary)
    local = _project_has(f, ctx, name, package or tool)
    known = (not scoped or tool in C.PACKAGE_BINARIES) and (name in C.NPM_TOOLS or name in C.ROUTINE or name in C.READ_ONLY)
    if package is not None and not local:
        f.hit("CAT026", f"{f.label} (downloads and runs the package {package})")
        return
    if known:
        judge_as(f, (name, *ops[1:]), ctx)
    elif local:
        f.at_least(L)
        f.hit("CAT032", f"{f.label} (the project's own {name})")
    else:
        f.hit("CAT026", f"{f.label} (downloads and runs a package)")


def _project_has(f: Facts, ctx: Ctx, name: str, package: str) -> bool:
    """The project installs ``name`` (``node_modules/.bin/NAME`` inside the workspace) or
    its package.json depends on ``package``: npx runs the project's choice, not a
    name looked up on the registry."""
    found = find_up(f.base, (f"node_modules/.bin/{name}",))
    if found is not None and ctx.inside(found):
        return True
    manifest = find_up(f.base, ("package.json",))
    if manifest is None or not ctx.inside(manifest):
        return False
    try:
        names = read_cached(manifest, _dependency_names, "package-deps")
    except (Unreadable, ValueError):
        return False
    at = package.find("@", 1)  # ``pkg@1.2``, ``@scope/pkg@1.2``: the name without the version
    return bool(names) and (package[:at] if at > 0 else package) in names


def _dependency_names(text: str, path: str) -> frozenset[str]:
    """The packages a package.json depends on (any kind of dependency)."""
    import json

    data = json.loads(text)
    if not isinstance(data, dict):
        return frozenset()
    out: set[str] = set()
    for key in ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies"):
        table = data.get(key)
        if isinstance(table, dict):
            out.update(k for k in table if isinstance(k, str))
    return frozenset(out)


def _refine_docker(f: Facts, parsed: Args, value: str, key: str) -> bool:
    if key in ("compose down",):
        if parsed.has("-v", "--volumes", "--rmi"):
            f.hit("CAT016", f.label)
        else:
            f.at_least(L)
        return True
    if key in ("run", "container run", "create", "container create", "compose run", "exec", "container exec"):
        risky = [o for o, v in parsed.options if o in ("--privileged", "--pid", "--net", "--network", "--cap-add", "--userns", "--ipc", "--security-opt", "--device")]
        mounts = [v or "" for o, v in parsed.options if o in ("-v", "--volume", "--mount")]
        if risky and any(o == "--privileged" for o in risky) or any(m.split(":", 1)[0] in ("/", "/etc", "/root", "/var/run/docker.sock", "/home") or "source=/," in m or "src=/," in m for m in mounts):
            f.hit("CAT005", f"{f.label} (host access from a container)")
    return False


def _refine_kubectl(f: Facts, parsed: Args, value: str, key: str) -> bool:
    ops = parsed.operands
    if key in ("get", "describe") and len(ops) > 1 and ops[1].split("/", 1)[0].split(",", 1)[0] in ("secret", "secrets", "sa-token"):
        f.hit("CAT003", f"{f.label} (reads secrets)")
        return True
    if value == "r":
        f.at_least(L)  # reads cluster state over the network: routine
        f.hit("CAT031", f.label)
        return True
    return False


def _refine_systemctl(f: Facts, parsed: Args, value: str, key: str) -> bool:
    units = {u.split(".", 1)[0] for u in parsed.operands[1:]}
    if key in ("stop", "disable", "mask", "kill") and units & _SECURITY_UNITS:
        f.hit("CAT028", f.label)
        return True
    return False


_SECURITY_UNITS = frozenset({"firewalld", "ufw", "iptables", "nftables", "apparmor", "auditd", "selinux", "fail2ban", "clamav-daemon", "falcon-sensor", "osqueryd", "wazuh-agent", "crowdstrike"})


def _refine_terraform(f: Facts, parsed: Args, value: str, key: str) -> bool:
    if key == "apply" and any(a in ("-destroy", "--destroy") for a in f.cmd.argv):
        f.hit("CAT016", f"{f.label} (-destroy)")
        return True
    return False


def _refine_npm(f: Facts, parsed: Args, value: str, key: str) -> bool:
    ops = parsed.operands
    if key in ("run", "run-script") and len(ops) > 1:
        code = C.NON_ROUTINE_TARGETS.get(ops[1].split(":", 1)[0])
        if code:
            f.hit(code, f.label)
            return True
    if f.name == "yarn" and value == "l" and ops and ops[0] not in C.TOOLS["yarn"].subs:
        code = C.NON_ROUTINE_TARGETS.get(ops[0].split(":", 1)[0])
        if code:
            f.hit(code, f.label)
            return True
    if value == "l":
        f.hit("CAT032", f.label)
    return False


def _refine_ip(f: Facts, parsed: Args, value: str, key: str) -> bool:
    _ip(f, tuple(parsed.operands), None)
    return any(h.code == "CAT009" for h in f.hits)


def _refine_go(f: Facts, parsed: Args, value: str, key: str) -> bool:
    """``go run github.com/x/y@latest`` downloads a module and runs it; ``go run .`` or
    ``go run ./cmd/tool`` runs the project's own code (routine)."""
    if key != "run":
        return False
    for operand in parsed.operands[1:]:
        if operand.endswith(".go") or operand.startswith((".", "/")):
            continue
        if "@" in operand or "." in operand.split("/", 1)[0]:
            f.hit("CAT026", f"go run {operand} (downloads and runs a module)")
            return True
        break  # the first operand names what runs; the rest are its arguments
    return False


_TOOL_REFINERS: dict[str, Callable[[Facts, Args, str, str], bool]] = {
    "go": _refine_go,
    "docker": _refine_docker,
    "podman": _refine_docker,
    "nerdctl": _refine_docker,
    "kubectl": _refine_kubectl,
    "oc": _refine_kubectl,
    "systemctl": _refine_systemctl,
    "terraform": _refine_terraform,
    "tofu": _refine_terraform,
    "terragrunt": _refine_terraform,
    "npm": _refine_npm,
    "pnpm": _refine_npm,
    "yarn": _refine_npm,
    "bun": _refine_npm,
    "ip": _refine_ip,
}


def _ip(f: Facts, args: tuple[str, ...], ctx: Ctx | None) -> None:
    ops = [a for a in args if not a.startswith("-")]
    if len(ops) > 1 and ops[0] in C.TOOLS["ip"].subs and ops[1] in _IP_READERS:
        return  # ``ip address show up``: "up" filters the listing
    if any(o in _IP_MUTATORS for o in ops[1:]):
        f.hit("CAT009", f.label)
    elif ops and ops[0] not in C.TOOLS["ip"].subs:
        f.hit("CAT009", f.label)


_IP_READERS = frozenset({"show", "list", "lst", "get"})
_IP_MUTATORS = frozenset({"add", "del", "delete", "set", "change", "replace", "flush", "append", "prepend", "exec", "attach", "detach", "up", "down"})


# --------------------------------------------------------------------------- long tail


#: A lone argument that only prints help or a version (GNU, POSIX-utility and every
#: argument-parser convention: argparse, click, clap, cobra, commander …).
ONLY_PRINTS = frozenset({"--help", "--version", "-h", "-V", "help", "version", "--usage"})
_HELP_AFTER_SUB = frozenset({"--help", "-h"})


def check_cli(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """A long-tail tool from ``catalog_cli``: look its sub-command (or a leading
    option such as ``rpm -qa``) up, then apply risky options and URL operands."""
    tool = cli_spec(f.name)
    if tool is None:  # pragma: no cover - dispatch only sends tools with a spec
        apply_value(f, "?", f.label)
        return
    if f.name in RUNNERS:
        add_runs(f, args, ctx)  # ``just``'s recipes, ``task``'s Taskfile commands
        if f.name == "task" and f.runs:  # a Taskfile's task: go-task, not Taskwarrior
            f.at_least(L)
            f.hit("CAT032", f.label)
            return
    parsed = parse_args(args, tool.value_opts)
    ops = parsed.operands
    key, value = _cli_lookup(tool, args, ops, parsed)
    if _prints_help(args, ops, key):
        value = "r"
    detail = f"{f.name} {key}".strip()
    if value == "?":
        f.label = detail
    from .admin import is_http_delete

    if value in ("?", "CAT001", "CAT009") and (any(destructive_verb(o) for o in ops[:4]) or is_http_delete(args)):
        f.hit("CAT016", detail)
    for arg, code in risky_options(args, tool.risky):
        apply_value(f, code, f"{f.name} {arg}")
    for prefix, code in tool.risky_prefixes:
        if any(o.startswith(prefix) for o in ops):
            apply_value(f, code, f"{f.name} ({prefix}…)")
    for text, code in tool.risky_text:
        if any(text in a for a in args):
            apply_value(f, code, f"{f.name} ({text})")
    for word in args:
        target = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        host = host_of(target) if "://" in target else None
        if not host:
            continue
        from .network import loopback as is_loopback

        f.hosts.append(host)
        if is_loopback(host):
            continue  # ``open http://localhost:5173``: the machine itself
        f.roles.add("send")
        f.hit("CAT001", f"{f.label} (URL)")
        break
    apply_value(f, value, detail)


def _cli_lookup(tool: CliTool, args: tuple[str, ...], ops: list[str], parsed: Args) -> tuple[str, str]:
    """The sub-command key and its value: a leading option listed as a key, else a key
    with option words when all of them were given, else the longest listed run of the first three operands (``KEY$`` only when nothing
    follows), else the default."""
    subs = tool.subs
    if args and args[0].startswith("-") and args[0] in subs:
        return args[0], subs[args[0]]
    if tool.option_keys:  # ``pyenv install --list``: an option changes what the sub-command does
        hit = match_option_key(tool.option_keys, ops, {o for o, _ in parsed.options})
        if hit is not None:
            return hit.key, hit.value
    if not ops:
        first = parsed.options[0][0] if parsed.options else ""
        if first and first in subs:
            return first, subs[first]
        if tool.bare is not None and not args:
            return "", tool.bare
        return first, tool.default
    for k in (3, 2, 1):
        if len(ops) < k:
            continue
        key = " ".join(ops[:k])
        if len(ops) == k and key + "$" in subs:
            return key, subs[key + "$"]
        if key in subs:
            return key, subs[key]
    return ops[0], tool.default


def _prints_help(args: tuple[str, ...], ops: list[str], key: str) -> bool:
    """``tool --help``, ``tool help …``, ``tool SUB --help``: only prints."""
    if len(args) == 1 and args[0] in ONLY_PRINTS:
        return True
    if args and args[0] == "help":
        return True
    if not key or key.startswith("-"):
        return False
    last_word = key.rsplit(" ", 1)[-1]
    try:
        at = args.index(last_word)
    except ValueError:
        return False
    return at + 1 < len(args) and args[at + 1] in _HELP_AFTER_SUB
