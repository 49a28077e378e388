"""Which environment-variable assignments change *what code runs* (spec 002 §12.12).

``NODE_ENV=test npm test`` must still match a ``Bash(npm test:*)`` rule, so variables
that only tune output or locale are **safe** and stripped before matching. Variables that
steer loaders, interpreters, compilers, shells, pagers or network paths are
**dangerous**: ``LD_PRELOAD=/tmp/x.so ls`` is not ``ls``. Everything else is *unknown*:
kept in the command (so no allow rule silently matches it) but not reported.

Names are compared upper-cased for the dangerous list because zsh ties lower-case
``path``/``cdpath``/``fpath`` to their upper-case twins and npm reads ``npm_config_*``;
the safe list is exact (a safe name must be spelled exactly).
"""

from __future__ import annotations

from .lazyre import LazyPattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "SAFE_ENV_VARS",
    "SAFE_ENV_PREFIXES",
    "DANGEROUS_ENV_VARS",
    "DANGEROUS_ENV_PREFIXES",
    "NEUTRAL_ENV_VARS",
    "is_safe_env",
    "is_dangerous_env",
    "harmless_value",
    "search_path_folders",
    "classify_env",
    "CODE_LOADING_ENV",
    "loaded_code",
]

#: Stripped before rule matching: they change output, locale or build target only.
SAFE_ENV_VARS: frozenset[str] = frozenset(
    {
        # Go
        "GOOS", "GOARCH", "CGO_ENABLED", "GO111MODULE", "GOEXPERIMENT", "GOMAXPROCS",
        # Rust
        "RUST_BACKTRACE", "RUST_LOG", "RUST_LOG_STYLE", "CARGO_TERM_COLOR",
        # Node
        "NODE_ENV", "NODE_NO_WARNINGS",
        # Python
        "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONHASHSEED",
        # terminal and colour
        "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
        "COLUMNS", "LINES", "LS_COLORS", "GREP_COLORS", "GREP_COLOR",
        # locale and time
        "LANG", "LANGUAGE", "LC_ALL", "TZ",
        # harmless switches
        "CI", "DEBUG", "VERBOSE",
    }
)

#: Prefixes of safe names (``LC_CTYPE``, ``LC_MESSAGES`` …).
SAFE_ENV_PREFIXES: tuple[str, ...] = ("LC_",)

#: Never stripped and always reported: each can change which code runs or where data goes.
DANGEROUS_ENV_VARS: frozenset[str] = frozenset(
    {
        # which binary / library is loaded
        "PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH", "OPENSSL_CONF",
        # shells
        "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "IFS", "CDPATH", "SHELLOPTS", "BASHOPTS",
        "GLOBIGNORE", "ZDOTDIR", "SHELL", "HOME", "XDG_CONFIG_HOME", "INPUTRC",
        # interpreters
        "NODE_OPTIONS", "NODE_PATH", "NODE_TLS_REJECT_UNAUTHORIZED",
        "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONWARNINGS", "PYTHONBREAKPOINT",
        "PYTHONUSERBASE", "PYTHONEXECUTABLE", "PYTHONINSPECT", "PYTHONHTTPSVERIFY",
        "PYTEST_ADDOPTS", "PYTEST_PLUGINS",
        "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB",
        "RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE",
        "CLASSPATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTIONS",
        "MAVEN_OPTS", "GRADLE_OPTS",
        # compilers and build tools
        "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE",
        "GOPRIVATE", "GONOPROXY",
        "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER",
        "CC", "CXX", "CPP", "LD", "AR", "AS", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
        "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS", "MAKE", "MAKESHELL", ".SHELLFLAGS",
        # programs other programs start
        "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESS", "LESSOPEN", "LESSCLOSE",
        "EDITOR", "VISUAL", "SUDO_EDITOR", "BROWSER",
        "SSH_ASKPASS", "SUDO_ASKPASS", "SSH_AUTH_SOCK",
        # where traffic goes / whether it is verified
        "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "FTP_PROXY",
        "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
        "DOCKER_HOST", "KUBECONFIG",
        # where a test tool downloads its browsers from, and which browser it starts
        "PLAYWRIGHT_DOWNLOAD_HOST", "PLAYWRIGHT_CHROMIUM_DOWNLOAD_HOST", "PLAYWRIGHT_FIREFOX_DOWNLOAD_HOST",
        "PLAYWRIGHT_WEBKIT_DOWNLOAD_HOST", "PLAYWRIGHT_BROWSERS_PATH", "PUPPETEER_DOWNLOAD_BASE_URL",
        "PUPPETEER_DOWNLOAD_HOST", "PUPPETEER_EXECUTABLE_PATH", "PUPPETEER_CACHE_DIR",
    }
)

#: Every name with one of these (upper-cased) prefixes is dangerous.
DANGEROUS_ENV_PREFIXES: tuple[str, ...] = (
    "LD_",
    "DYLD_",
    "GIT_",
    "BASH_FUNC_",
    "NPM_CONFIG_",
    "YARN_",
    "PIP_",
    "UV_INDEX",
    "UV_EXTRA_INDEX",
    "CARGO_BUILD_",
    "CARGO_TARGET_",
)

#: ``GIT_*`` names that only label commits; they are *unknown* (kept, not reported).
NEUTRAL_ENV_VARS: frozenset[str] = frozenset(
    {
        "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
        "GIT_TERMINAL_PROMPT",
    }
)


def is_safe_env(name: str) -> bool:
    """True for variables that may be stripped before rule matching."""
    return name in SAFE_ENV_VARS or name.startswith(SAFE_ENV_PREFIXES)


def is_dangerous_env(name: str, value: str | None = None) -> bool:
    """True for variables that can change which code runs, what it loads, or where
    its traffic goes; such an assignment is reported and never stripped. With its
    ``value``, an assignment that only shapes output or flags (:func:`harmless_value`)
    is not."""
    upper = name.upper()
    if upper in NEUTRAL_ENV_VARS:
        return False
    dangerous = upper in DANGEROUS_ENV_VARS or upper.startswith(DANGEROUS_ENV_PREFIXES)
    return dangerous and not (value is not None and harmless_value(name, value))


#: Variables whose value is a list of folders code is imported from. A folder inside
#: the workspace (``PYTHONPATH=src``, ``PYTHONPATH=/path/to/project``) holds the
#: project's own code, which its scripts import anyway; the shell analysis asks for a
#: folder outside it (``semantics``: :func:`search_path_folders`). A value known only
#: when it runs (``$X``, ``~``) stays dangerous.
SEARCH_PATH_ENV: frozenset[str] = frozenset({"PYTHONPATH", "NODE_PATH", "PERL5LIB", "PERLLIB", "RUBYLIB"})


def search_path_folders(name: str, value: str) -> list[str]:
    """The folders a search-path assignment (``PYTHONPATH=a:b``) adds; [] for other names."""
    return [p for p in value.split(":") if p] if name.upper() in SEARCH_PATH_ENV else []

#: Options of ``GOFLAGS`` that only choose what is built or tested and how it reports
#: (``-exec``, ``-toolexec``, ``-overlay``, ``-modfile`` and linker flags, which can name
#: programs or swap files, are not here).
GOFLAGS_HARMLESS: frozenset[str] = frozenset({
    "-count", "-v", "-race", "-cover", "-covermode", "-coverpkg", "-timeout", "-tags", "-mod", "-buildvcs",
    "-trimpath", "-p", "-short", "-failfast", "-shuffle", "-json", "-vet", "-x", "-a", "-n", "-buildmode",
})

#: ``NODE_OPTIONS`` flags that only tune the runtime (``--require``, ``--import``,
#: ``--loader`` and ``--inspect`` load code or open a debugger port, so they are not here).
NODE_OPTIONS_HARMLESS: frozenset[str] = frozenset({
    "--experimental-vm-modules", "--experimental-specifier-resolution", "--experimental-json-modules",
    "--experimental-modules", "--experimental-fetch", "--experimental-global-webcrypto", "--max-old-space-size",
    "--max-semi-space-size", "--stack-size", "--stack-trace-limit", "--no-warnings", "--no-deprecation",
    "--trace-warnings", "--trace-deprecation", "--trace-uncaught", "--enable-source-maps", "--openssl-legacy-provider",
    "--unhandled-rejections", "--expose-gc", "--max-http-header-size", "--dns-result-order", "--no-experimental-fetch",
})

#: Compiler and linker flag variables, and the flags in them that only add search paths
#: (``-I``, ``-L``, ``-l``), define or undefine macros (``-D``, ``-U``) or set optimisation,
#: debug info, warnings, position independence, the target CPU or the language standard
#: (``CFLAGS="-I/opt/conda/include/python3.11" python setup.py build_ext``). Not here, as
#: they load or run other programs or files: ``-fplugin=``, ``-B``, ``-wrapper``,
#: ``-specs=``, ``-include``, ``-fuse-ld=``, ``-Xclang``, and ``-Wl,``/``-Wa,``/``-Wp,``
#: (handed on to the linker, assembler or preprocessor).
COMPILER_FLAG_VARS: frozenset[str] = frozenset({"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "OBJCFLAGS", "FFLAGS"})
COMPILER_FLAGS_HARMLESS: tuple[str, ...] = ("-I", "-L", "-l", "-D", "-U", "-O", "-W", "-g", "-std=", "-fno-",
                                            "-march=", "-mtune=")
COMPILER_FLAGS_EXACT: frozenset[str] = frozenset({"-fPIC", "-fpic", "-fPIE", "-fpie", "-m32", "-m64", "-pthread"})


def _harmless_compiler_flag(word: str) -> bool:
    if word in COMPILER_FLAGS_EXACT:
        return True
    # a bare ``-I`` takes the next word as its folder; ``-Wl,…`` hands options to the linker
    return word.startswith(COMPILER_FLAGS_HARMLESS) and word not in ("-I", "-L", "-l", "-D", "-U") \
        and not (word.startswith("-W") and "," in word)


#: Compiler and tool variables (``CC=clang``): harmless when the value is one plain name of
#: such a tool — a bare name found on PATH or one in a system folder, with an optional
#: target prefix and version (``x86_64-linux-gnu-gcc-12``, ``/usr/bin/clang++``). Any other
#: value (``CC=/tmp/cc``, ``CC='sh -c …'``) chooses which program the build runs.
COMPILER_VARS: frozenset[str] = frozenset({"CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "RANLIB", "NM", "STRIP",
                                           "OBJCOPY", "HOSTCC", "HOSTCXX"})
_COMPILER_NAME = LazyPattern(r"(?:[a-z0-9_]+-)*(?:gcc|g\+\+|cc|c\+\+|c99|cpp|clang|clang\+\+|clang-cpp|tcc|icc|icpc|"
                             r"icx|icpx|nvcc|gfortran|f95|ld|ld\.bfd|ld\.gold|ld\.lld|lld|mold|ar|llvm-ar|gcc-ar|as|"
                             r"llvm-as|ranlib|llvm-ranlib|gcc-ranlib|nm|llvm-nm|strip|llvm-strip|objcopy|llvm-objcopy)"
                             r"(?:-\d+(?:\.\d+)*)?")
_SYSTEM_TOOL_DIRS = ("/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/", "/usr/lib/llvm")
#: ``MAKEFLAGS`` options that only set parallelism, output and error handling.
MAKEFLAGS_HARMLESS: tuple[str, ...] = ("-j", "--jobs", "-l", "--load-average", "-k", "--keep-going", "-s", "--silent",
                                       "--quiet", "-w", "--print-directory", "--no-print-directory", "-O",
                                       "--output-sync", "-r", "--no-builtin-rules", "-R", "--no-builtin-variables")


def _plain_tool(value: str) -> bool:
    folder, _, name = value.rpartition("/")
    if folder and not (folder + "/").startswith(_SYSTEM_TOOL_DIRS):
        return False
    return _COMPILER_NAME.fullmatch(name) is not None


def _make_flag(word: str) -> bool:
    head = word.split("=", 1)[0]
    if head in MAKEFLAGS_HARMLESS or word.isdigit():
        return True
    # ``-j4``, ``-sk``: bundled letters of the harmless short options (their value last)
    return word[:1] == "-" and word[1:2] != "-" and len(word) > 1 and \
        all(c in "jlkswOrR" for c in word[1:].rstrip("0123456789.")) and word[1:].rstrip("0123456789.") != ""


#: Characters that make a value more than one program's name (arguments, shell syntax).
_SHELL_TEXT = frozenset(";|&$`<>(){}'\"\\*?[]#~!%")


def harmless_value(name: str, value: str) -> bool:
    """``name=value`` only shapes output, flags or a search path: a pager or editor
    named by one program's name (``PAGER=cat``; the shell reads that value as a command,
    ``embedded.ENV_VARS``, so ``PAGER=sh`` is still judged as a shell), a literal import
    path (``PYTHONPATH=src``; where it points is judged by the shell analysis),
    ``GOFLAGS=-count=1``, ``NODE_OPTIONS=--experimental-vm-modules``, ``CFLAGS=-O2 -I/x``."""
    from .embedded import ENV_VARS as READ_AS_COMMAND

    upper = name.upper()
    if upper in READ_AS_COMMAND:  # one program's name (``cat``, ``less``, ``vim``): judged as that program
        return bool(value) and not any(c.isspace() or c in _SHELL_TEXT for c in value)
    if upper in SEARCH_PATH_ENV:
        folders = search_path_folders(name, value)
        return bool(folders) and not any(c in value for c in "$~`")
    if upper == "GOFLAGS":
        words = value.split()
        return bool(words) and all(w.split("=", 1)[0] in GOFLAGS_HARMLESS for w in words)
    if upper == "NODE_OPTIONS":
        words = value.split()
        return bool(words) and all(w.split("=", 1)[0] in NODE_OPTIONS_HARMLESS for w in words)
    if upper in COMPILER_VARS:
        return _plain_tool(value)
    if upper in ("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"):
        words = value.split()
        return bool(words) and all(map(_make_flag, words))
    if upper in COMPILER_FLAG_VARS:  # known only when it runs (``-I$X``): may hold more flags
        words = value.split()
        return bool(words) and "$" not in value and "`" not in value and all(map(_harmless_compiler_flag, words))
    return False


def classify_env(name: str) -> str:
    """``"dangerous"``, ``"safe"`` or ``"unknown"`` (dangerous wins)."""
    if is_dangerous_env(name):
        return "dangerous"
    if is_safe_env(name):
        return "safe"
    return "unknown"


#: Variables whose value names code that is loaded or run by the programs they are set
#: for, with the separator of their list: ``LD_PRELOAD=/tmp/x.so ls`` runs ``x.so``
#: inside ``ls``; ``BASH_ENV=FILE bash -c …`` sources FILE first. A file downloaded
#: earlier in the script and named here is downloaded code that runs (HB005).
CODE_LOADING_ENV: dict[str, str] = {
    "LD_PRELOAD": ": ", "LD_AUDIT": ":", "DYLD_INSERT_LIBRARIES": ":",
    "LD_LIBRARY_PATH": ":", "DYLD_LIBRARY_PATH": ":", "DYLD_FRAMEWORK_PATH": ":",
    "BASH_ENV": "", "ENV": "", "PYTHONSTARTUP": "", "NODE_OPTIONS": " ", "PERL5OPT": " ",
}


#: Compiler and linker flags that load or run a file: a plugin, a specs file, another
#: linker or wrapper program (in ``CFLAGS`` and the other :data:`COMPILER_FLAG_VARS`).
_COMPILER_LOADS = ("-fplugin=", "-specs=", "--specs=", "-fuse-ld=", "-B", "-wrapper")


def _compiler_loads(value: str) -> list[str]:
    """Files a compiler flag value loads: ``-fplugin=/tmp/p.so``, ``-Wl,-plugin=/tmp/p.so``
    (``-Wl,``/``-Wp,``/``-Xlinker`` pass it on), ``-specs=x``, ``-B dir``, ``-wrapper prog``."""
    words = value.split()
    out: list[str] = []
    for k, word in enumerate(words):
        parts = word.split(",")[1:] if word.startswith(("-Wl,", "-Wp,", "-Wa,")) else [word]
        for part in parts:
            part = part.replace("-plugin=", "-fplugin=", 1) if part.startswith("-plugin=") else part
            for prefix in _COMPILER_LOADS:
                if part.startswith(prefix):
                    item = part[len(prefix):] or (words[k + 1] if k + 1 < len(words) else "")
                    if item:
                        out.append(item.split(",")[0])
    return out


def loaded_code(assignments: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(variable, item)`` for each file or folder a code-loading assignment names
    (``NODE_OPTIONS=--require=/tmp/x.js`` names ``/tmp/x.js``; ``CFLAGS=-fplugin=/tmp/p.so``
    names ``/tmp/p.so``)."""
    out: list[tuple[str, str]] = []
    for name, value in assignments:
        if name in COMPILER_FLAG_VARS:
            out.extend((name, item) for item in _compiler_loads(value))
            continue
        seps = CODE_LOADING_ENV.get(name)
        if seps is None or not value:
            continue
        items = [value]
        for sep in seps:
            items = [part for item in items for part in item.split(sep)]
        for item in items:
            item = item.partition("=")[2] if item.startswith("-") else item
            if item:
                out.append((name, item))
    return out
