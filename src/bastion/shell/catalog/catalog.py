"""The command catalog: what bastion knows about shell commands, as data.

Nothing here decides anything by itself; ``semantics.py`` reads these tables. Each
table answers one question with dict or frozenset lookups on the command's name, so
classifying a command never scans the whole catalog.

* :data:`READ_ONLY` — commands that only read, with the options that make them do more
  (``find -exec``, ``sort -o``, ``rg --pre`` …), each mapped to a finding code.
* :data:`ROUTINE` — routine development commands (test runners, builds, linters,
  formatters, file operations inside the workspace), with their risky options.
* :data:`TOOLS` — commands with sub-commands (``npm``, ``cargo``, ``docker`` …): a table
  per tool maps the sub-command to ``"r"`` (read-only), ``"l"`` (routine) or a finding
  code; :data:`GIT` does the same for git, with :data:`GIT_EXEC_CONFIG` listing the
  configuration keys that run commands.
* Groups: network tools, privilege tools, interpreters and shells, pagers/editors with
  shell escapes, disk tools, power, account and kernel-module commands, package
  publishing, destructive verbs of cloud/infrastructure CLIs.
* Roles for pipelines: commands whose output is remote content (``curl``), that decode
  hidden text (``base64 -d``), or that dump the environment.

Codes (``CATxxx``, ``HBxxx``) are defined in ``intents.CODES``.
"""

from __future__ import annotations

from ...std_lite import cached_property
from ..syntax.gnu import gnu_name
from ..syntax.lazyre import LazyPattern
from ..syntax.literal import LITERAL_DECODERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .catalog_cli import OptionKey

__all__ = ["canonical_name", "Tool", "TOOLS", "READ_ONLY", "ROUTINE", "GIT"]

# ------------------------------------------------------------------------ name handling

_VERSIONED = LazyPattern(r"^(python|pypy|pip|ruby|perl|php|lua|luajit|node|nodejs|gawk|tclsh|wish|jython|idle|pydoc|easy_install|gem|bundle|irb)[\d.]*(?:-[\w.]+)?$")
_DOTTED_FAMILIES = ("mkfs", "fsck", "mount", "umount", "mkswap", "mke2fs")

#: Standard directories a bare command name resolves to; ``./ls`` is not ``ls``.
STANDARD_BIN_DIRS = frozenset(
    {
        "/bin",
        "/sbin",
        "/usr/bin",
        "/usr/sbin",
        "/usr/local/bin",
        "/usr/local/sbin",
        "/opt/homebrew/bin",
        "/opt/homebrew/sbin",
        "/usr/libexec",
        "/snap/bin",
    }
)


def canonical_name(name: str) -> str:
    """The catalog key for a command name: lower-case, version suffixes dropped
    (``python3.11`` → ``python``, ``pip3`` → ``pip``), ``mkfs.ext4`` → ``mkfs``, Homebrew's
    ``gtimeout`` → ``timeout`` (``syntax.gnu``). A name the catalog spells in capitals is kept
    as written: lwp-request's ``HEAD`` sends a request, coreutils' ``head`` reads a file."""
    if name in _ALL_NAMES:
        return name
    low = name.lower()
    if low in _ALL_NAMES:
        return low
    match = _VERSIONED.match(low)
    if match:
        return match.group(1)
    head = low.split(".", 1)[0]
    if head in _DOTTED_FAMILIES:
        return head
    if low.endswith(".exe"):
        return low[:-4]
    return gnu_name(low)  # ``gtimeout`` → ``timeout`` (Homebrew's GNU tools)


# ------------------------------------------------------------------------ read-only

_NO: Mapping[str, str] = {}

#: Read-only commands → {option or argument that makes them more than read-only: code}.
#: ``-x`` entries also match inside short clusters (``-rno`` contains ``-o``); ``--x``
#: entries also match ``--x=value``. For ``find`` the keys are primaries.
READ_ONLY: dict[str, Mapping[str, str]] = {
    # listing and inspecting
    **dict.fromkeys(
        (
            "ls dir vdir cat tac head tail wc nl od hexdump hd xxd strings stat du df basename dirname "
            "realpath readlink pwd which whereis type cut paste column tr fold fmt expand unexpand rev join "
            "comm cmp diff uniq tsort seq true false test [ [[ : sleep wait echo printf "
            "sha1sum sha224sum sha256sum sha384sum sha512sum md5sum b2sum cksum sum shasum md5 base32 "
            "cal ncal uptime whoami id groups uname arch nproc hostid logname users who w tty locale getconf "
            "lsb_release ps pgrep pidof free vmstat iostat mpstat lsof lsblk lscpu lsusb lspci lsmod blkid "
            "findmnt ss netstat locate mlocate plocate zcat bzcat xzcat zstdcat lz4cat "
            "cd pushd popd dirs shift exit return break continue getopts jobs times caller help compgen "
            "complete hash umask ulimit shopt read local declare typeset readonly let "
            "tput clear stty nm objdump readelf ldd size numfmt factor expr "
            "whatis apropos lslocks lsipc last lastlog tload sensors "
            "lvs vgs pvs lvdisplay vgdisplay pvdisplay lvscan vgscan pvscan "
            "zgrep zegrep zfgrep grep egrep fgrep ag ack ugrep "
            "csvlook csvstat diffstat wdiff colordiff iconv"
        ).split(),
        _NO,
    ),
    "tree": {"-o": "CAT020"},
    "file": {"-C": "CAT020", "--compile": "CAT020"},
    "sort": {"-o": "CAT020", "--output": "CAT020", "--compress-program": "CAT020"},
    "shuf": {"-o": "CAT020", "--output": "CAT020"},
    "sdiff": {"-o": "CAT020", "--output": "CAT020"},
    "diff3": {},
    "rg": {"--pre": "CAT020", "--search-zip": "CAT020", "-z": "CAT020", "--hostname-bin": "CAT020"},
    "base64": {"-o": "CAT020", "--output": "CAT020"},
    "date": {"-s": "CAT009", "--set": "CAT009"},
    "fd": {"-x": "CAT006", "--exec": "CAT006", "-X": "CAT006", "--exec-batch": "CAT006"},
    "fdfind": {"-x": "CAT006", "--exec": "CAT006", "-X": "CAT006", "--exec-batch": "CAT006"},
    "find": {
        "-exec": "CAT006",
        "-execdir": "CAT006",
        "-ok": "CAT006",
        "-okdir": "CAT006",
        "-delete": "CAT010",
        "-fprint": "CAT020",
        "-fprint0": "CAT020",
        "-fprintf": "CAT020",
        "-fls": "CAT020",
    },
    "bfs": {"-exec": "CAT006", "-execdir": "CAT006", "-ok": "CAT006", "-okdir": "CAT006", "-delete": "CAT010"},
    "jq": {"-f": "CAT020", "--from-file": "CAT020"},
    "yq": {"-i": "CAT020", "--inplace": "CAT020"},
    "gojq": {"-f": "CAT020", "--from-file": "CAT020"},
    "xmllint": {"--output": "CAT020", "-o": "CAT020", "--shell": "CAT027"},
    "bat": {"--pager": "CAT020"},
    "batcat": {"--pager": "CAT020"},
    "top": {},
    "history": {"-c": "CAT024", "-d": "CAT024", "-w": "CAT020", "-a": "CAT020", "-r": "CAT020", "-n": "CAT020"},
    "ip": {},  # ip's sub-commands are checked by semantics (addr/link show vs set)
    "hostname": {},  # an operand sets the host name (semantics)
    "ifconfig": {},
    "dmesg": {"-C": "CAT024", "-c": "CAT024", "--clear": "CAT024", "--read-clear": "CAT024"},
    "journalctl": {
        "--vacuum-time": "CAT024",
        "--vacuum-size": "CAT024",
        "--vacuum-files": "CAT024",
        "--rotate": "CAT009",
        "--flush": "CAT009",
        "--relinquish-var": "CAT009",
        "--setup-keys": "CAT009",
        "--update-catalog": "CAT009",
    },
    "du": {},
    "df": {},
    "env": {},  # bare ``env`` dumps the environment (semantics)
    "printenv": {},
    "set": {},
    "alias": {},
    "export": {},
    "unset": {},
    "getent": {},
    "crontab": {},  # -l reads; anything else installs or removes (semantics)
}

#: awk and sed are read-only unless their program says otherwise (``inline.py``).
AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk", "goawk"})
SEDS = frozenset({"sed", "gsed"})

# ------------------------------------------------------------------------ routine

#: Routine development commands (tier low_risk) → {risky option: code}.
ROUTINE: dict[str, Mapping[str, str]] = {
    # file operations (paths are checked against the workspace separately)
    "mkdir": {},
    "touch": {},
    "cp": {},
    "mv": {},
    "ln": {},
    "rmdir": {},
    "tee": {},
    "install": {},
    "gzip": {},
    "gunzip": {},
    "bzip2": {},
    "bunzip2": {},
    "xz": {},
    "unxz": {},
    "zstd": {},
    "unzstd": {},
    "lz4": {},
    "zip": {"-T": "CAT020", "-TT": "CAT020", "--unzip-command": "CAT020"},
    "unzip": {},
    "7z": {},
    "7za": {},
    "mktemp": {},
    "split": {"--filter": "CAT006"},
    "csplit": {},
    "patch": {},
    "dos2unix": {},
    "unix2dos": {},
    "chmod": {},
    "chown": {},
    "chgrp": {},
    # test runners
    **dict.fromkeys(
        (
            "pytest py.test tox nox jest vitest mocha ava karma jasmine rspec phpunit ctest "
            "behave cucumber playwright-test cypress-run nyc c8 coverage hypothesis"
        ).split(),
        _NO,
    ),
    # builds and compilers
    **dict.fromkeys(
        (
            "cmake ninja meson scons bazel bazelisk buck tsc vue-tsc svelte-check esbuild vite webpack rollup parcel swc babel "
            "gcc g++ cc c++ clang clang++ rustc javac kotlinc scalac gfortran ld as ar ranlib strip "
            "make gmake bmake autoreconf autoconf automake aclocal libtoolize pkg-config protoc "
            "maturin sphinx-build mkdocs hugo jekyll zola pandoc asciidoctor "
            "dune cabal stack mix rebar3 zig nim crystal swiftc"
        ).split(),
        _NO,
    ),
    # linters, formatters, type checkers
    **dict.fromkeys(
        (
            "ruff black isort flake8 pylint mypy pyright pyflakes pycodestyle pydocstyle bandit autopep8 yapf "
            "eslint prettier stylelint tslint standard xo biome oxlint dprint rustfmt gofmt goimports "
            "golangci-lint staticcheck golint shellcheck shfmt clang-format clang-tidy cppcheck cpplint "
            "rubocop standardrb hadolint yamllint markdownlint markdownlint-cli2 jsonlint taplo ktlint "
            "detekt swiftlint swiftformat scalafmt checkstyle pmd spotless buf sqlfluff actionlint "
            "editorconfig-checker codespell typos vale alex write-good commitlint pre-commit-check "
            "cargo-clippy cargo-fmt"
        ).split(),
        _NO,
    ),
    # misc routine
    "diff-so-fancy": {},
    "delta": {},
    "hyperfine": {"--prepare": "CAT006", "--cleanup": "CAT006", "-p": "CAT006", "-c": "CAT006"},
    "time": {},
    "clear": {},
    "cmp": {},
}

#: make's options that print the recipes or only ask whether targets are up to date, running
#: no recipe line but those marked ``+`` or naming $(MAKE) (GNU make, "Instead of Executing
#: Recipes"); ``-t``/``--touch`` is not here: it updates the targets' files.
MAKE_DRY_RUN = frozenset({"-n", "--just-print", "--dry-run", "--recon", "-q", "--question"})
#: The ``make`` targets (and npm script names) that are not routine.
NON_ROUTINE_TARGETS: dict[str, str] = {
    "install": "CAT009",
    "uninstall": "CAT009",
    "deploy": "CAT017",
    "publish": "CAT017",
    "release": "CAT017",
    "upload": "CAT017",
    "distclean": "CAT010",
}

# ------------------------------------------------------------------------ sub-command tools


class Tool:
    """A command with sub-commands (a plain class: cheaper to define at import than a
    dataclass, and the catalog is read on every shell decision).

    ``subs`` maps a sub-command (one word, or two words separated by a space, such as
    ``"compose up"``) to ``"r"`` (read-only), ``"l"`` (routine) or a finding code; it may
    be given as its spec text (``"status,log:r; add:l"``, :func:`_subs`), read on the
    tool's first lookup: a decision looks up one or two of some sixty tools.
    ``default`` applies to sub-commands not listed (``"?"`` = unknown: review).
    ``value_opts`` are global options that take a value (so their value is not taken
    for the sub-command). ``risky`` options escalate any sub-command.
    """

    def __init__(self, subs: Mapping[str, str] | str, default: str = "?", value_opts: frozenset[str] = frozenset(),
                 risky: Mapping[str, str] | None = None, installs: frozenset[str] = frozenset(),
                 bare: str = "r") -> None:
        self._table = subs
        self.default = default
        self.value_opts = value_opts
        self.risky: Mapping[str, str] = risky if risky is not None else {}
        #: Sub-commands that install packages: routine without package operands, else CAT026.
        self.installs = installs
        #: The tool run with no sub-command at all (bare ``yarn`` is ``yarn install``).
        self.bare = bare

    @cached_property
    def subs(self) -> Mapping[str, str]:
        return _subs(self._table) if isinstance(self._table, str) else self._table

    def extended(self, spec: str) -> Tool:
        """This tool with the sub-commands of ``spec`` added (or changed), read as lazily
        as its own."""
        table = f"{self._table};{spec}" if isinstance(self._table, str) else {**self._table, **_subs(spec)}
        return Tool(table, self.default, self.value_opts, self.risky, self.installs, self.bare)

    @cached_property
    def option_keys(self) -> tuple[OptionKey, ...]:
        """The keys of ``subs`` with option words (``pack --dry-run``), matched on both
        (worked out on the tool's first lookup, not at import)."""
        from .catalog_cli import option_keys

        return option_keys(self.subs)


def _subs(spec: str) -> dict[str, str]:
    """``"status,log:r; add,commit:l; publish:CAT017"`` → dict."""
    out: dict[str, str] = {}
    for group in spec.split(";"):
        group = group.strip()
        if not group:
            continue
        names, _, value = group.rpartition(":")
        for name in names.split(","):
            out[name.strip()] = value.strip()
    return out


_NPM_LIKE = _subs(
    "ls,list,ll,la,outdated,view,info,show,why,explain,search,help,config get,config list,get,prefix,root,bin,"
    "version,-v,--version,doctor,fund,audit,pack --dry-run,whoami,ping,query,licenses,docs,repo,bugs,owner ls:r;"
    "test,t,tst,run,run-script,start,build,ci,install-test,it,init,create,exec-local,lint,format,typecheck,"
    "pack,prune,dedupe,rebuild,link,unlink,cache verify,workspaces,why,dlx-local,check,tsc,dev,serve,preview,"
    "set-script,pkg get,pkg set:l;"
    "publish,unpublish,deprecate,dist-tag add,dist-tag rm,owner add,owner rm,access,team,token,hook:CAT017;"
    "uninstall,remove,rm,un,r,unlink-global:CAT010;"
    "cache clean:CAT010;"
    "config set,config delete,set,adduser,login,logout,profile,star,unstar:CAT009;"
    "exec,x,dlx,npx:CAT026;"
    "install,i,add,isntall,in,ins,inst,insta,instal,isnt,isnta,isntal:l;"
    # update moves dependencies past the versions the lockfile pins: new third-party code
    # (its install scripts run now, the rest at the next build) that nobody reviewed
    "update,up,upgrade:CAT026"
)

TOOLS: dict[str, Tool] = {
    "npm": Tool(_NPM_LIKE, value_opts=frozenset({"--prefix", "-w", "--workspace", "--registry"}), installs=frozenset({"install", "i", "add", "in", "ins", "inst", "insta", "instal", "isntall", "isnt", "isnta", "isntal"})),
    "pnpm": Tool(_NPM_LIKE, value_opts=frozenset({"--filter", "-F", "-C", "--dir", "--prefix"}), installs=frozenset({"install", "i", "add"})),
    "yarn": Tool({**_NPM_LIKE, **_subs("workspace,workspaces foreach:l;dlx:CAT026;npm publish:CAT017;npm login,npm logout:CAT009")}, default="l", value_opts=frozenset({"--cwd"}), installs=frozenset({"add", "global"}), bare="l"),
    "bun": Tool({**_NPM_LIKE, **_subs("x:CAT026;pm ls,pm hash:r;pm untrusted:r;pm trust:CAT026")}, value_opts=frozenset({"--cwd"}), installs=frozenset({"add", "install", "i"})),
    "pip": Tool(
        "list,show,freeze,check,help,debug,inspect,index,search,hash,cache list,cache info,cache dir,config list,config get,config debug,--version,-V:r;"
        "install,download,wheel,lock:l;uninstall:CAT010;cache purge,cache remove:CAT010;config set,config unset,config edit:CAT009",
        value_opts=frozenset({"--python", "--log", "--cache-dir"}),
        installs=frozenset({"install"}),
    ),
    "uv": Tool(
        "--version,version,help,tree,pip list,pip show,pip freeze,pip check,pip tree,python list,python find,tool list,cache dir:r;"
        "sync,lock,venv,build,init,run,pip install,pip sync,pip compile,python install,export,add,remove-local:l;"
        "remove,pip uninstall,cache clean,cache prune,tool uninstall:CAT010;tool install:CAT026;tool run,x:CAT026;publish:CAT017",
        value_opts=frozenset({"--directory", "--project", "-p", "--python"}),
        installs=frozenset({"pip install", "add"}),
    ),
    "poetry": Tool(
        "show,check,version,about,env info,env list,config --list,search,lock --check,debug,help:r;"
        "install,lock,build,run,init,new,shell,env use,add,export,sync:l;update:CAT026;"
        "remove:CAT010;publish:CAT017;cache clear:CAT010",
        installs=frozenset({"add"}),
    ),
    "pipx": Tool("list,environment:r;install,inject,upgrade,upgrade-all:CAT026;run:CAT026;uninstall,uninstall-all:CAT010"),
    "conda": Tool("list,info,search,env list,config --show,--version,compare,doctor,env export:r;create,activate,deactivate,env create,env update,run,rename:l;install,update,upgrade:CAT026;remove,uninstall,env remove,clean:CAT010;init:CAT008", value_opts=frozenset({"-n", "--name", "-p", "--prefix"})),
    "pdm": Tool(
        "list,show,info,config$,search,outdated,--version,-V,help,venv list,cache info,cache list,fix --dry-run:r;"
        "install,sync,lock,build,init,run,venv create,venv activate,use,export,import,fix,config:l;"
        "add,update:CAT026;remove:CAT010;publish:CAT017;cache clear:CAT010;self update:CAT026",
        value_opts=frozenset({"-p", "--project"}),
    ),
    "hatch": Tool("env show,status,version,--version,project metadata,dep show,config show,env find:r;build,test,fmt,run,shell,new,env create,clean,config set,version:l;publish:CAT017;env remove,env prune:CAT010;python install:CAT026"),
    "rye": Tool("list,show,version,--version,toolchain list,tools list,config --show-path:r;sync,lock,build,init,run,fmt,lint,test,pin,add,remove:l;publish:CAT017;install,tools install,toolchain fetch,self update:CAT026;uninstall,tools uninstall:CAT010"),
    "mamba": Tool("list,info,search,env list:r;repoquery:CAT001;create,activate,deactivate,run:l;install,update:CAT026;remove,uninstall,clean:CAT010", value_opts=frozenset({"-n", "--name", "-p", "--prefix"})),
    "cargo": Tool(
        "tree,metadata,search,version,--version,-V,help,verify-project,locate-project,pkgid,read-manifest,info:r;"
        "build,b,check,c,test,t,bench,run,r,doc,d,fmt,clippy,fix,new,init,fetch,generate-lockfile,vendor,package,nextest,"
        "expand,llvm-cov,tarpaulin,watch,miri,udeps,outdated,audit,deny,machete,add,rm-dep,criterion,insta,make,msrv,"
        "hack,sort,semver-checks,about,bloat,flamegraph,component:l;"
        # update/upgrade move Cargo.lock past what it pins: new crates whose build.rs runs at the next build
        "update,upgrade:CAT026;"
        "install:CAT026;uninstall:CAT010;clean:CAT010;publish,yank,owner,login,logout:CAT017",
        value_opts=frozenset({"--manifest-path", "-Z", "--config", "-C", "--color"}),
        installs=frozenset({"add"}),  # ``cargo add CRATE`` adds a new dependency, as ``npm install PKG``
    ),
    "go": Tool(
        "version,env,list,doc,help,vet,mod graph,mod why,mod verify:r;"
        # ``mod tidy`` only records the modules the project's own imports need, and Go runs no
        # code of a module it downloads (as ``mod download``); ``get MODULE`` adds a new one
        "build,test,run,fmt,generate,mod tidy,mod download,mod init,mod vendor,mod edit,work,fix,tool,get:l;"
        "install:CAT026;clean:CAT010",
        value_opts=frozenset({"-C"}),
        installs=frozenset({"get"}),  # ``go get MODULE`` adds a dependency from the network
    ),
    "gradle": Tool("tasks,dependencies,properties,projects,help,--version:r;build,test,check,assemble,compileJava,run,bootRun,jar,clean,lint,javadoc,wrapper,installDist,spotlessApply,spotlessCheck:l;publish,uploadArchives,release:CAT017", default="l"),
    "gradlew": Tool("tasks,dependencies,properties,projects,help,--version:r;build,test,check,assemble,compileJava,run,bootRun,jar,clean,lint,javadoc,wrapper,installDist,spotlessApply,spotlessCheck:l;publish,uploadArchives,release:CAT017", default="l"),
    "mvn": Tool("dependency:tree,help:describe,-v,--version,validate:r;compile,test,package,verify,install,clean,test-compile,spotless:apply,exec:java,spring-boot:run,dependency:resolve,site,checkstyle:check:l;deploy,release:perform,release:prepare,deploy:deploy:CAT017", default="l", value_opts=frozenset({"-f", "--file", "-pl", "--projects", "-P", "-s", "-D"})),
    "mvnw": Tool("dependency:tree,-v,--version,validate:r;compile,test,package,verify,install,clean,spring-boot:run:l;deploy,release:perform,release:prepare:CAT017", default="l", value_opts=frozenset({"-f", "-pl", "-P", "-s", "-D"})),
    "dotnet": Tool("--info,--version,--list-sdks,--list-runtimes,list,help:r;build,test,run,restore,format,new,clean,pack,watch,add,sln,publish-local:l;nuget push,nuget delete:CAT017;tool install:CAT026;fsi:CAT006"),
    "swift": Tool("--version:r;build,test,run,package:l"),
    "bundle": Tool("list,show,outdated,check,info,--version,version:r;install,exec,config,lock,init:l;add:l;update:CAT026;remove:CAT010"),
    "gem": Tool("list,search,query,info,contents,dependency,environment,help,which,specification,--version:r;build:l;install,update:CAT026;uninstall,cleanup:CAT010;push,yank,owner:CAT017"),
    "composer": Tool("show,info,outdated,licenses,validate,diagnose,depends,why,why-not,check-platform-reqs,--version:r;update,upgrade:CAT026;install,dump-autoload,dumpautoload,require,run-script,run,test,init,create-project:l;remove:CAT010;global require:CAT026"),
    "brew": Tool("list,ls,info,search,deps,uses,leaves,outdated,config,doctor,--version,--prefix,--cellar,home,desc,log,cat,tap-info,services list:r;install,upgrade,reinstall,tap,update,bundle,link,unlink,pin,unpin,services start,services stop,services restart:CAT026;uninstall,remove,rm,untap,cleanup,autoremove:CAT010"),
    "apt": Tool("list,search,show,policy,depends,rdepends,changelog,showsrc:r;update,install,upgrade,full-upgrade,dist-upgrade,reinstall,source,build-dep:CAT026;remove,purge,autoremove,autopurge,clean,autoclean:CAT010", value_opts=frozenset({"-o", "-c", "-t"})),
    "apt-get": Tool("check,changelog:r;update,install,upgrade,dist-upgrade,reinstall,source,build-dep,download:CAT026;remove,purge,autoremove,clean,autoclean:CAT010", value_opts=frozenset({"-o", "-c", "-t"})),
    "apt-cache": Tool("search,show,policy,depends,rdepends,showpkg,stats,pkgnames,madison,dump:r", default="r"),
    "dpkg": Tool("-l,--list,-L,--listfiles,-s,--status,-S,--search,--print-architecture,--get-selections,-c,--contents,-I,--info,--version:r;-i,--install,--unpack,--configure,--set-selections,--add-architecture:CAT026;-r,--remove,-P,--purge:CAT010"),
    "dnf": Tool("list,info,search,repolist,provides,history,check-update,repoquery,deplist:r;install,update,upgrade,reinstall,downgrade,groupinstall,makecache:CAT026;remove,erase,autoremove,clean,history undo:CAT010", value_opts=frozenset({"-c", "--setopt"})),
    "yum": Tool("list,info,search,repolist,provides,history,check-update,deplist:r;install,update,upgrade,reinstall,downgrade,groupinstall,localinstall,makecache:CAT026;remove,erase,autoremove,clean:CAT010", value_opts=frozenset({"-c", "--setopt"})),
    "pacman": Tool("-Q,-Qi,-Ql,-Qs,-Ss,-Si,-Qe,-Qdt,-Qm,-Fl:r;-S,-Sy,-Syu,-Su,-U,-Syy:CAT026;-R,-Rs,-Rns,-Rdd,-Sc,-Scc:CAT010"),
    "snap": Tool("list,info,find,version,services,connections,changes,logs:r;install,refresh,revert,enable,connect,start,stop,restart:CAT026;remove,disable,disconnect:CAT010"),
    "flatpak": Tool("list,info,search,remotes,history,--version:r;install,update,run:CAT026;uninstall,remove-delete-data:CAT010"),
    "docker": Tool(
        "ps,images,inspect,logs,version,info,stats,top,history,port,diff,search,events,"
        "container ls,container list,container ps,container inspect,container logs,container top,container diff,container port,container stats,"
        "image ls,image list,image inspect,image history,volume ls,volume list,volume inspect,network ls,network list,network inspect,"
        "context ls,context list,context show,context inspect,system df,system info,system events,buildx ls,buildx du,buildx inspect,"
        "compose ps,compose logs,compose config,compose ls,compose images,compose top,compose version,compose port,"
        "manifest inspect,plugin ls,node ls,service ls,service ps,service logs,stack ls,stack ps,secret ls,config ls,trust inspect,"
        "scout cves,scout quickview,sbom,--version,-v:r;"
        "build,buildx build,compose build,compose up,compose start,compose restart,compose stop,compose pull,compose create,compose config-write,"
        "pull,tag,image tag,image build,image pull,start,unpause,wait,create,container create,container start,"
        "network create,volume create,context use,login,logout,init,save,load,image save,image load,"
        "export,import,commit,container commit,cp,container cp,attach,rename,update,container update,compose cp,buildx create,buildx use,"
        "compose pause,compose unpause,compose events,compose wait:l;"
        "stop,restart,pause,container stop,container restart,container pause:CAT009;"
        "run,exec,container run,container exec,compose run,compose exec:CAT006;"
        "rm,rmi,container rm,image rm,image remove,container prune,image prune,volume rm,volume remove,volume prune,network rm,network prune,"
        "system prune,builder prune,buildx prune,buildx rm,compose rm,compose down,kill,container kill,compose kill,context rm,"
        "secret rm,config rm,service rm,stack rm,stack down,node rm,plugin rm,swarm leave:CAT016;"
        "push,image push,compose push,manifest push,trust sign:CAT017;"
        "service create,service update,stack deploy,swarm init,swarm join,plugin install,plugin enable:CAT009",
        value_opts=frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "-f", "--file", "-p", "--project-name", "--env-file", "--project-directory", "--profile"}),
    ),
    "kubectl": Tool(
        "get,describe,logs,explain,version,api-resources,api-versions,cluster-info,top,config view,config get-contexts,"
        "config current-context,config get-clusters,config get-users,auth can-i,auth whoami,events,diff,wait,kustomize,"
        "rollout status,rollout history,completion,plugin list,options:r;"
        "config use-context,config set-context,config use:l;port-forward,proxy:CAT029;"
        "apply,create,patch,edit,replace,scale,autoscale,label,annotate,set,expose,run,rollout restart,rollout undo,rollout pause,"
        "rollout resume,taint,cordon,uncordon,certificate,debug,attach,cp:CAT009;"
        "exec:CAT006;"
        "delete,drain,config delete-context,config delete-cluster,config delete-user,config unset:CAT016",
        value_opts=frozenset({"-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--token", "-l", "--selector", "-o", "--output", "-c", "--container", "-f", "--filename"}),
    ),
    "helm": Tool(
        "list,ls,status,get,history,template,lint,show,inspect,search,version,env,dependency list,repo list,plugin list,verify:r;"
        "repo add,repo update,dependency update,dependency build,package,pull,fetch,create:l;"
        "install,upgrade,rollback,test,plugin install:CAT009;"
        "uninstall,delete,del,un,repo remove,plugin uninstall:CAT016;push:CAT017",
        value_opts=frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values"}),
    ),
    "terraform": Tool(
        "plan,validate,fmt,show,output,graph,version,providers,state list,state show,state pull,workspace list,workspace show,"
        "console,get,test,metadata:r;init,workspace select,workspace new,login,logout,refresh,modules:l;"
        "apply,import,taint,untaint,state mv,state push,state replace-provider,force-unlock:CAT009;"
        "destroy,state rm,workspace delete:CAT016",
        value_opts=frozenset({"-chdir"}),
    ),
    "pulumi": Tool(
        "preview,stack ls,stack output,stack select,stack history,config get,whoami,version,about,logs,plugin ls,console:r;"
          "login,logout,stack init,config set,install,new:l;up,update,refresh,import,cancel:CAT009;destroy,stack rm,state delete:CAT016",
        value_opts=frozenset({"-s", "--stack", "-C", "--cwd"}),
    ),
    "systemctl": Tool(
        "status,show,cat,list-units,list-unit-files,list-timers,list-sockets,list-dependencies,list-jobs,list-machines,"
        "is-active,is-enabled,is-failed,is-system-running,get-default,show-environment,--version,--failed,help:r;"
        "start,stop,restart,reload,try-restart,reload-or-restart,daemon-reload,reset-failed,kill,set-property,edit,revert,"
        "set-environment,unset-environment,import-environment,clean,freeze,thaw:CAT009;"
        "enable,reenable,link,preset,add-wants,add-requires,set-default:CAT008;"
        "disable,mask,unmask:CAT009;"
        "poweroff,reboot,halt,suspend,hibernate,hybrid-sleep,suspend-then-hibernate,kexec,rescue,emergency,isolate,default,"
        "soft-reboot,exit,switch-root:CAT018",
        default="CAT009",
        value_opts=frozenset({"-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal", "--state", "-n", "--lines", "-o", "--output", "--root"}),
    ),
    "service": Tool({}, default="CAT009"),
    "launchctl": Tool("list,print,print-disabled,blame,procinfo,help,version:r;load,bootstrap,enable,submit:CAT008;unload,bootout,disable,remove,kill,stop,start,kickstart:CAT009;reboot:CAT018", default="CAT009"),
    "ip": Tool("addr,a,address,link,l,route,r,neigh,n,rule,maddr,mroute,netns,tunnel,monitor,-br,-c,-4,-6,-s,-j,-d:r", default="CAT009"),
    "gh": Tool(
        "status,search,api-get,auth status,repo view,repo list,pr list,pr view,pr status,pr diff,pr checks,issue list,"
        "issue view,issue status,run list,run view,run watch,workflow list,workflow view,release list,release view,gist list,gist view,"
        "label list,cache list,secret list,variable list,ruleset list,ruleset view,project list,search repos,search issues,search prs,"
        "extension list,config get,config list,--version,version:r;"
        "repo clone,pr checkout,auth login,auth refresh,auth setup-git,codespace list:l;"
        # writes on GitHub publish the project's text (and a pull request its branch) to
        # others, as ``git push`` does: network access that asks
        "pr create,pr edit,pr comment,pr review,pr ready,issue create,issue comment,issue edit,repo fork,"
        "run rerun,workflow run,label create,repo sync,gist edit:CAT001;"
        "pr merge,pr close,issue close,issue delete,repo delete,repo archive,repo rename,release delete,release delete-asset,run delete,"
        "cache delete,secret delete,variable delete,gist delete,label delete,workflow disable,extension remove,repo edit:CAT016;"
        "release create,release upload,release edit:CAT017;secret set,variable set,auth logout,extension install,config set:CAT009;"
        "api,gist create:CAT001",
        # a file's contents published to GitHub (`--body-file .env`) is a network send
        risky={"--body-file": "CAT001", "-F": "CAT001", "--notes-file": "CAT001"},
    ),
    "glab": Tool("mr list,mr view,issue list,issue view,repo view,ci list,ci view,ci status,release list,variable list,auth status,--version:r;repo clone,mr checkout:l;mr create,issue create,mr note,ci run:CAT001;mr merge,mr close,issue close,issue delete,repo delete,release delete,variable delete,ci delete:CAT016;release create:CAT017;api:CAT001;variable set:CAT009"),
    "redis-cli": Tool("ping,info,get,keys,scan,ttl,type,exists,llen,lrange,hget,hgetall,smembers,zrange,dbsize,monitor,--version,config get,client list,memory,slowlog get:r;set,hset,lpush,rpush,sadd,zadd,expire,incr,decr,publish,subscribe:CAT009;flushall,flushdb,del,unlink,config set,shutdown,debug,script flush,client kill:CAT016", default="CAT009", value_opts=frozenset({"-h", "-p", "-a", "-n", "-u", "--user", "--pass"})),
}
_extend = {
    "docker": "buildx version,node ps,node inspect,secret inspect,service inspect,config inspect,volume --help,container --help:r;"
    "container rename,context create,network connect,network disconnect:l;secret create,config create:CAT009;swarm join-token:CAT003",
    "dotnet": "tool list,workload list,sdk check,nuget locals:r;publish,ef,tool run:l;"
    "ef database:CAT036;tool restore,tool update,workload install,workload update:CAT026;tool search:CAT001;user-secrets:CAT003",
    "uv": "python pin,tool update-shell:l;python dir,tool dir,cache size:r;self update,tool upgrade:CAT026;python uninstall:CAT010",
    "pacman": "-Qo,-Qk,-Qkk,-Qq,-Qu,-Qqe,-Qn,-Qtd,-Qdtq,-Qdt,-Qg,-Sp,-Sl,-Sg,-F,-Fl,-Fx,-Fo,-Fs,-T,-Dk,-Dkk,-Dkq,"
    "-Dh,-Th,-Fh,-Qh,-Sh,-Rh,-Uh,-h,--help,-V,--version,--query,-Qii,-Sii:r;-Fy,-Fyy,-S,--sync:CAT026;-D,--database:CAT009",
}
for _name, _spec in _extend.items():
    TOOLS[_name] = TOOLS[_name].extended(_spec)

TOOLS["gradlew"] = TOOLS["gradle"]
TOOLS["podman"] = Tool(
    {**TOOLS["docker"].subs, **_subs("machine list,machine ls,machine inspect,machine info:r;machine init,machine start,machine stop,machine set,machine ssh:CAT009;machine rm:CAT016")},
    value_opts=TOOLS["docker"].value_opts,
)
TOOLS["nerdctl"] = TOOLS["docker"]
TOOLS["docker-compose"] = Tool({k.split(" ", 1)[1]: v for k, v in TOOLS["docker"].subs.items() if k.startswith("compose ")}, value_opts=TOOLS["docker"].value_opts)
TOOLS["podman-compose"] = TOOLS["docker-compose"]
TOOLS["oc"] = TOOLS["kubectl"]
TOOLS["microk8s.kubectl"] = TOOLS["kubectl"]
TOOLS["k3s"] = TOOLS["kubectl"]
TOOLS["tofu"] = TOOLS["terraform"]
TOOLS["terragrunt"] = TOOLS["terraform"]
TOOLS["yarnpkg"] = TOOLS["yarn"]
TOOLS["pip3"] = TOOLS["pip"]

#: npm-style runners that execute a package binary; routine when it is a known local tool.
PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx", "yarn-dlx"})
#: Tools whose npm package is the tool itself, beyond the routine and read-only commands
#: (``vitest``, ``tsc``, ``eslint`` …): ``npx NAME ARGS`` runs NAME, the project's copy or
#: the registry's package of that name, so it is judged as ``NAME ARGS`` typed directly by
#: NAME's own table (``npx playwright test`` runs tests, ``npx playwright install``
#: downloads browsers, ``npx next dev`` serves).
NPM_TOOLS = frozenset(
    "playwright puppeteer next astro nuxt nuxi remix storybook tailwindcss tsx ts-node turbo nx ng nest ember expo".split()
)
#: npm packages whose binary has another name (``npx @playwright/test`` runs ``playwright``).
PACKAGE_BINARIES: dict[str, str] = {
    "@playwright/test": "playwright",
    "@angular/cli": "ng",
    "@nestjs/cli": "nest",
    "@biomejs/biome": "biome",
    "@tailwindcss/cli": "tailwindcss",
    "@remix-run/dev": "remix",
    "@storybook/cli": "storybook",
    "typescript": "tsc",
}
#: ``python -m MODULE`` that runs the same program as a command the catalog knows
#: (``python -m django test`` is ``django-admin test``), judged by that command's table.
MODULE_COMMANDS: dict[str, str] = {
    "django": "django-admin",
    "sqlfluff": "sqlfluff",
    "playwright": "playwright",
    "flask": "flask",
    "alembic": "alembic",
    "scrapy": "scrapy",
    "dvc": "dvc",
    "poetry": "poetry",
    "jupyter": "jupyter",
}

#: ``python -m`` modules: routine, read-only or a code. ``module WORD`` keys (``zipfile -l``)
#: win over the module alone when WORD follows it; ``pip`` is judged by pip's own table.
PYTHON_MODULES: dict[str, str] = {
    **_subs(
        "pytest,unittest,mypy,black,isort,ruff,flake8,pylint,pyright,coverage,tox,nox,doctest,pyflakes,pycodestyle,"
        "pydocstyle,bandit,build,twine check,venv,virtualenv,compileall,py_compile,pdb,cProfile,profile,timeit,trace,"
        "sphinx,mkdocs,pre_commit,setuptools_scm,hatch,pip_audit,pipdeptree,nuitka,pyinstaller,"
        "maturin,grpc_tools.protoc,pytest_benchmark,hypothesis,ensurepip:l;"
        "json.tool,tokenize,dis,pydoc,platform,sysconfig,site,this,tabnanny,pyclbr,zipfile -l,tarfile -l,calendar:r;"
        "http.server,SimpleHTTPServer,smtpd,xmlrpc.server,pyftpdlib:CAT029;twine:CAT017;pip:l"
    )
}

# ------------------------------------------------------------------------ git

#: git sub-commands → ``"r"`` / ``"l"`` / code. Options and special forms (``push
#: --force``, ``reset --hard``, ``branch -D`` …) are decided in ``semantics.py``.
GIT: dict[str, str] = _subs(
    "status,log,diff,show,rev-parse,ls-files,ls-tree,blame,annotate,grep,describe,shortlog,cat-file,rev-list,"
    "whatchanged,name-rev,merge-base,show-ref,count-objects,help,version,--version,var,check-ignore,check-attr,"
    "check-ref-format,for-each-ref,diff-tree,diff-files,diff-index,verify-commit,verify-tag,verify-pack,show-branch,"
    "cherry,range-diff,ls-remote,fsck,get-tar-commit-id,column,fmt-merge-msg,interpret-trailers,patch-id:r;"
    "add,commit,checkout,switch,stash,fetch,pull,merge,cherry-pick,revert,init,clone,mv,restore,reset,tag,branch,"
    "remote,config,worktree,submodule,apply,am,format-patch,bisect,notes,archive,bundle,sparse-checkout,maintenance,"
    "gc,repack,pack-refs,prune-packed,commit-tree,mktree,hash-object,update-index,read-tree,write-tree,rerere,lfs,"
    "request-pull,stage,reflog,backfill,clean,rm,update-ref:l;"
    "push,send-email:CAT001;daemon,instaweb,http-backend:CAT029;"
    "rebase,replace:CAT038;filter-repo,filter-branch,prune:CAT015;"
    "mergetool,difftool,citool,gui,gitk:CAT027;credential,credential-store,credential-cache:CAT003"
)

#: git global options that take a value.
GIT_VALUE_OPTS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds", "--attr-source"})

#: Configuration keys that make git run a command (``git -c core.pager=sh …``).
GIT_EXEC_CONFIG = frozenset(
    {
        "core.pager",
        "core.sshcommand",
        "core.fsmonitor",
        "core.hookspath",
        "core.editor",
        "core.askpass",
        "core.gitproxy",
        "core.worktree",
        "core.alternaterefscommand",
        "diff.external",
        "credential.helper",
        "sequence.editor",
        "gpg.program",
        "uploadpack.packobjectshook",
        "receive.procreceiverefs",
        "web.browser",
        "include.path",
        "init.templatedir",
        "sendemail.smtpserver",
        "sendemail.tocmd",
        "sendemail.cccmd",
        "http.proxy",
        "protocol.allow",
        "protocol.ext.allow",
    }
)
#: Key prefixes and suffixes that run commands (``alias.*``, ``filter.*.clean`` …).
GIT_EXEC_CONFIG_PREFIXES = ("alias.", "filter.", "pager.", "includeif.", "mergetool.", "difftool.", "man.", "browser.", "instaweb.", "gpg.")
GIT_EXEC_CONFIG_SUFFIXES = (".textconv", ".command", ".driver", ".cmd", ".path", ".uploadpack", ".receivepack", ".proxy", ".sshcommand", ".update", ".helper", ".program")

# ------------------------------------------------------------------------ groups

#: Tools that talk to the network. Value: ``"fetch"`` (prints remote content on stdout,
#: can feed a shell), ``"send"`` (can carry local data out), ``"both"``, ``"dns"``.
NETWORK: dict[str, str] = {
    **dict.fromkeys("curl wget http https xh httpie curlie aria2c axel fetch lwp-request lwp-download GET POST HEAD wget2 lynx w3m links elinks".split(), "both"),
    **dict.fromkeys("nc ncat netcat nc.openbsd nc.traditional socat telnet openssl s_client cryptcat pwncat sbd".split(), "both"),
    **dict.fromkeys("ssh scp sftp rsync ftp tftp lftp smbclient sshfs sshpass ssh-copy-id rclone rcp rsh rlogin mosh autossh".split(), "both"),
    **dict.fromkeys("nslookup dig host whois drill delv kdig finger".split(), "dns"),
    **dict.fromkeys("ping ping6 traceroute traceroute6 tracepath mtr nmap masscan hping3 arping".split(), "send"),
    **dict.fromkeys("ngrok cloudflared localtunnel lt tailscale wormhole croc bore frpc chisel".split(), "send"),
    **dict.fromkeys("mail mailx sendmail mutt swaks".split(), "send"),
    # the person's browser fetches the URL with their cookies and logins; the agent's own dev
    # server (a loopback DEV_SERVER_PORTS URL) is routine, as curl's is (``checks.network._browser``)
    **dict.fromkeys("open xdg-open".split(), "send"),
}
#: Loopback ports where the project's own development servers listen by convention
#: (Rails/Next/Express 3000, Phoenix/Jekyll 4000, Angular 4200, Astro 4321, Flask 5000,
#: Vite 5173, Django/FastAPI 8000, Spring/webpack 8080 …). A request that changes
#: something (``curl -X POST localhost:8080/api/login -d '{…}'``) on one of them is the
#: agent trying the app it is building; on any other loopback port it still asks.
DEV_SERVER_PORTS: tuple[tuple[int, int], ...] = ((3000, 3999), (4000, 4999), (5000, 5999), (8000, 8999))
#: Local services inside those ranges whose HTTP API controls the machine or opens it
#: to the network: ngrok's agent API (4040: starts tunnels), Nomad (4646), kubectl proxy
#: (8001: the cluster's API), Vault (8200), Syncthing (8384: shares folders), Consul
#: (8500), Jupyter (8888: writes files, starts kernels). Requests that change something
#: there ask like any other network access.
LOCAL_CONTROL_PORTS = frozenset({4040, 4646, 8001, 8200, 8384, 8500, 8888})

#: Network tools that open raw connections or listen (reverse/bind shells).
RAW_SOCKETS = frozenset("nc ncat netcat nc.openbsd nc.traditional socat telnet cryptcat pwncat sbd openssl".split())
#: Servers that run a login program for each connection: with a shell as that program,
#: anyone who connects has a shell (bind shell, HB007). name → options naming the program.
SHELL_SERVERS: dict[str, tuple[str, ...]] = {
    "telnetd": ("-l",),
    "utelnetd": ("-l",),
    "in.telnetd": ("-L", "-l"),
}

#: Privilege tools (also when they appear as peeled wrappers).
PRIVILEGE = frozenset(
    "sudo doas su pkexec runuser chroot setcap setpriv capsh sg newgrp ksu calife dzdo pfexec run0 sudoedit "
    "machinectl nsenter unshare systemd-run".split()
)

#: Shells: ``-c STRING`` is parsed again by the parser; no operand means "reads stdin".
SHELLS = frozenset("sh bash dash zsh ksh mksh pdksh ash fish csh tcsh yash elvish nu xonsh rc es posh rbash busybox-sh".split())

#: Interpreters → the options that take inline code (``python -c``, ``node -e`` …).
INTERPRETERS: dict[str, frozenset[str]] = {
    "python": frozenset({"-c"}),
    "pypy": frozenset({"-c"}),
    "jython": frozenset({"-c"}),
    "node": frozenset({"-e", "--eval", "-p", "--print"}),
    "nodejs": frozenset({"-e", "--eval", "-p", "--print"}),
    "deno": frozenset({"eval"}),
    "bun": frozenset({"-e", "--eval", "-p", "--print"}),
    "perl": frozenset({"-e", "-E"}),
    "ruby": frozenset({"-e"}),
    "php": frozenset({"-r", "--run", "-B", "-R", "-E", "-F"}),
    "lua": frozenset({"-e"}),
    "luajit": frozenset({"-e"}),
    "rscript": frozenset({"-e"}),
    "r": frozenset({"-e"}),
    "julia": frozenset({"-e", "--eval", "-E", "--print"}),
    "tclsh": frozenset(),
    "wish": frozenset(),
    "expect": frozenset({"-c"}),
    "osascript": frozenset({"-e"}),
    "jrunscript": frozenset({"-e"}),
    "jjs": frozenset(),
    "groovy": frozenset({"-e"}),
    "scala": frozenset({"-e"}),
    "irb": frozenset(),
    "pwsh": frozenset({"-c", "-command", "-Command", "-encodedcommand", "-EncodedCommand", "-e", "-ec"}),
    "powershell": frozenset({"-c", "-command", "-Command", "-encodedcommand", "-EncodedCommand", "-e", "-ec"}),
    "gdb": frozenset({"-ex", "--eval-command", "-x", "--command"}),
    "guile": frozenset({"-c"}),
    "racket": frozenset({"-e"}),
    "sbcl": frozenset({"--eval"}),
    "clisp": frozenset({"-x"}),
    "ocaml": frozenset(),
    "elixir": frozenset({"-e"}),
    "erl": frozenset({"-eval"}),
    "escript": frozenset(),
    "swipl": frozenset({"-g"}),
    "ghci": frozenset({"-e"}),
    "ghc": frozenset({"-e"}),
    "runghc": frozenset(),
    "php-cgi": frozenset(),
    "busybox": frozenset(),
    "java": frozenset(),
    "jshell": frozenset(),
    "kotlin": frozenset({"-e"}),
    "dotnet-fsi": frozenset(),
    "tsx": frozenset({"-e", "--eval", "-p", "--print"}),
    "ts-node": frozenset({"-e", "--eval", "-p", "--print"}),
    "raku": frozenset({"-e"}),
    "octave": frozenset({"--eval"}),
    "coffee": frozenset({"-e", "--eval"}),
    "gnuplot": frozenset({"-e"}),
    "perl6": frozenset({"-e"}),
}
#: Tools with sub-commands that also run a script file named in place of one
#: (``bun src/cli.ts``, ``swift scripts/x.swift``) → the script suffixes they run: the
#: file is read and judged like ``node x.js`` (``facts.exec_file``).
SCRIPT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "bun": (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"),
    "swift": (".swift",),
}
#: An interpreter's short option that prints its version and exits, given alone
#: (``python -V``, ``node -v``): printing, not the interactive interpreter a bare
#: ``python`` starts. (``--version`` is every tool's: ``semantics.PRINT_ONLY``.)
VERSION_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("python", "pypy"), frozenset({"-V", "-VV"})),
    **dict.fromkeys(("node", "nodejs", "ruby", "perl", "php", "bun", "lua"), frozenset({"-v"})),
    "deno": frozenset({"-V"}),
}
#: Options of interpreters that take a value (so the value is not the script).
INTERPRETER_VALUE_OPTS: dict[str, frozenset[str]] = {
    "python": frozenset({"-W", "-X", "--check-hash-based-pycs"}),
    "node": frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "--inspect-port", "--max-old-space-size", "--env-file", "--conditions", "-C", "--title"}),
    "perl": frozenset({"-I", "-M", "-m", "-x"}),
    "ruby": frozenset({"-I", "-r", "-C", "-E", "-F", "-K"}),
    "php": frozenset({"-c", "-d", "-z", "-t", "-S"}),
    "java": frozenset({"-cp", "-classpath", "--class-path", "-jar", "-D", "--module-path", "-p", "-m", "--add-modules", "-agentlib", "-javaagent"}),
}
#: Pagers and editors with shell escapes: interactive, and ``-c``/``+cmd`` run commands.
INTERACTIVE = frozenset(
    "less more most pg man info vi vim nvim view vimdiff gvim ex ed red nano pico emacs emacsclient joe jed micro kak helix hx "
    "ranger nnn lf vifm byobu dc ftp-interactive mysql-interactive htop btop watch script".split()
)
#: Pagers. Without a terminal (how agents run commands) a pager copies its input to
#: stdout, so paging a file is reading it; these options run commands or write files.
PAGERS: dict[str, Mapping[str, str]] = {
    "less": {"-o": "CAT020", "-O": "CAT020", "--log-file": "CAT020", "--LOG-FILE": "CAT020", "-k": "CAT006",
             "--lesskey-file": "CAT006", "--lesskey-src": "CAT006", "--lesskey-content": "CAT006"},
    "more": {},
    "man": {"-P": "CAT006", "--pager": "CAT006", "-H": "CAT006", "--html": "CAT006", "-X": "CAT006",
            "--gxditview": "CAT006", "-C": "CAT006", "--config-file": "CAT006", "-t": "CAT020", "-Z": "CAT020"},
}

#: Commands that delete or destroy data by design (besides rm/rmdir).
WIPERS = frozenset({"shred", "wipe", "srm", "secure-delete", "sfill", "sswap", "sdmem"})
#: Commands that destroy block devices or filesystems.
DISK_DESTROYERS = frozenset({"mkfs", "mke2fs", "mkswap", "wipefs", "blkdiscard", "mkdosfs", "mkntfs", "newfs", "sg_format", "sg_sanitize"})
DISK_PARTITIONERS = frozenset({"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "cgdisk", "parted", "gparted", "partprobe", "diskutil", "lvremove", "vgremove", "pvremove", "mdadm", "cryptsetup", "zpool", "zfs", "btrfs", "losetup", "dmsetup", "hdparm", "nvme", "badblocks", "e2fsck", "fsck", "resize2fs", "tune2fs", "xfs_repair", "mount", "umount", "swapon", "swapoff"})
#: Partitioning commands and the options or verbs that erase a whole device's layout.
PARTITION_WIPES: dict[str, frozenset[str]] = {
    "sgdisk": frozenset({"-Z", "--zap-all", "-z", "--zap", "-o", "--clear"}),
    "sfdisk": frozenset({"--delete", "--wipe"}),
    "parted": frozenset({"mklabel", "mktable", "rm"}),
    "cryptsetup": frozenset({"luksFormat", "erase", "luksErase", "reencrypt"}),
    "zpool": frozenset({"destroy", "labelclear"}),
    "nvme": frozenset({"format", "sanitize", "write-zeroes", "delete-ns"}),
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges", "--trim-sector-ranges-stdin", "--write-sector", "--make-bad-sector"}),
    "mdadm": frozenset({"--zero-superblock"}),  # erases the RAID metadata that assembles the array
    "badblocks": frozenset({"-w"}),  # the write-mode test overwrites the whole device
}
POWER = frozenset({"shutdown", "reboot", "halt", "poweroff", "telinit", "init", "kexec", "pm-suspend", "pm-hibernate", "systemd-halt", "rtcwake", "suspend"})
ACCOUNTS = frozenset(
    "useradd userdel usermod adduser deluser addgroup delgroup groupadd groupdel groupmod passwd chpasswd chage gpasswd "
    "vipw vigr pwconv pwunconv grpconv newusers chsh chfn visudo pam-auth-update".split()
)
KERNEL = frozenset({"insmod", "rmmod", "modprobe", "depmod", "kmod", "sysctl", "kldload", "kldunload", "dkms"})
SECURITY_DISABLE = frozenset({"setenforce", "aa-disable", "aa-complain", "aa-teardown", "ufw", "iptables", "ip6tables", "nft", "firewall-cmd", "pfctl", "csrutil", "spctl", "auditctl", "apparmor_parser", "ebtables", "iptables-restore", "setsebool"})
PROCESS_KILLERS = frozenset({"kill", "pkill", "killall", "killall5", "skill", "slay", "xkill", "fuser"})
#: Tools that create, use or manage keys and credentials (they legitimately name secret
#: files, so a key path in their arguments is not a dump).
CREDENTIAL_TOOLS = frozenset(
    "ssh-keygen ssh-add ssh-agent ssh-keyscan gpg gpg2 gpg-agent pass age age-keygen keychain security sops "
    "certbot step mkcert keytool".split()
)
#: TeX engines: ``--shell-escape`` and ``\write18`` run commands.
TEX = frozenset({"tex", "latex", "pdflatex", "xelatex", "lualatex", "pdftex", "luatex", "xetex", "etex", "context", "latexmk"})

#: Package publishing commands (no sub-command needed).
PUBLISH = frozenset({"twine", "vsce", "ovsx", "flit-publish", "np", "release-it", "semantic-release", "changeset-publish", "goreleaser", "jreleaser"})

#: Verbs that make a cloud, infrastructure or SaaS CLI destroy something.
DESTRUCTIVE_VERBS = frozenset(
    "delete del destroy remove rm rmi rb purge prune drop dropdb terminate uninstall wipe erase truncate revoke "
    "deregister unregister deprovision decommission nuke flush flushall flushdb expunge forget unset untag "
    "deletefile deletedir rmdir rmtree obliterate kill disable detach-force cleanup "
    "compact".split()
)
DESTRUCTIVE_VERB_PREFIXES = ("delete-", "remove-", "destroy-", "terminate-", "purge-", "deregister-", "batch-delete", "drop-", "delete_", "remove_", "disable-")
#: Cloud, infrastructure and SaaS CLIs: always network; destructive verbs ask loudly.
REMOTE_ADMIN = frozenset(
    "aws gcloud gsutil bq az azcopy doctl linode-cli hcloud oci ibmcloud scw vultr-cli exo flyctl fly heroku vercel "
    "netlify wrangler firebase supabase railway render ansible ansible-playbook vagrant packer consul nomad vault "
    "op doppler bw infisical minikube kind k3d eksctl kops argocd flux istioctl linkerd mc s3cmd rclone restic borg "
    "velero stripe twilio sentry-cli datadog-ci dog heroku planetscale pscale neonctl turso fauna atlas mongosh "
    "influx mongo cockroach cqlsh etcdctl nats kafka-topics kafka-configs rabbitmqadmin rabbitmqctl confluent "
    "gitlab-rake gitlab-rails gitlab-ctl ldcli apigeecli tsh teleport boundary sops age chamber aws-vault "
    "databricks snowsql dbt prefect airflow mlflow wandb huggingface-cli modal replicate".split()
)

#: SQL clients → the option that carries a statement.
SQL_CLIENTS: dict[str, frozenset[str]] = {
    "psql": frozenset({"-c", "--command"}),
    "mysql": frozenset({"-e", "--execute"}),
    "mariadb": frozenset({"-e", "--execute"}),
    "sqlite3": frozenset({"-cmd"}),
    "sqlcmd": frozenset({"-Q", "-q"}),
    "clickhouse-client": frozenset({"-q", "--query"}),
    "duckdb": frozenset({"-c"}),
    "cockroach-sql": frozenset({"-e", "--execute"}),
    "snowsql": frozenset({"-q", "--query"}),
    "bq": frozenset(),
    "mongosh": frozenset({"--eval"}),
    "mongo": frozenset({"--eval"}),
}
#: Local database files: the first operand is a file, not a server (``checks.localsql``
#: judges them; ``duckdb`` stays with :data:`SQL_CLIENTS`, its SQL reads URLs).
LOCAL_SQL = frozenset({"sqlite3"})
#: sqlite3 dot-commands → what they do. ``r``: prints, or sets how output looks;
#: ``write``: writes the file its last argument names (a path the file rules judge;
#: ``|cmd`` is a shell, ``embedded``); ``open``: opens or creates the database file it
#: names; a finding code: ``CAT036`` changes data, ``CAT006`` runs a program or loads
#: code. A dot-command not listed asks (``checks.localsql``: unknown is not harmless).
SQLITE_DOT_COMMANDS: dict[str, str] = {
    **dict.fromkeys(
        ("tables table schema fullschema indexes indices dump headers header mode width timer help databases "
         "show stats eqp print echo nullvalue separator bail changes dbinfo lint expert explain prompt quit exit "
         "timeout limit scanstats sha3sum vfsinfo vfslist vfsname version parameter").split(), "r"),
    **dict.fromkeys(("output", "once", "save", "backup", "log", "trace", "clone"), "write"),
    "open": "open",
    **dict.fromkeys(("import", "restore", "recover", "read", "dbconfig", "filectrl", "testctrl"), "CAT036"),
    **dict.fromkeys(("shell", "system", "load", "excel", "cd", "iotrace"), "CAT006"),
}
SQL_VALUE_OPTS = frozenset({"-h", "--host", "-p", "--port", "-U", "--username", "-u", "--user", "-d", "--dbname", "-D", "--database", "-P", "-S", "-f", "--file", "-o", "--output", "-v", "--set", "--variable", "-F", "-R"})
#: Database admin commands that destroy by name.
DB_DESTROYERS = frozenset({"dropdb", "dropuser", "mysqladmin", "pg_resetwal", "pg_resetxlog"})
#: SQL keywords that appear as a "command" when SQL is pasted into a shell.
SQL_KEYWORDS = frozenset({"drop", "delete", "truncate", "alter", "update", "insert", "grant", "revoke", "create", "select"})

#: History variables whose change hides what was done.
HISTORY_VARS = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTIGNORE", "SAVEHIST"})
#: Variable names that look like they hold secrets (spec 000's env_access pattern).
SECRET_VAR_HINTS = ("AWS_", "GCP_", "GITHUB_", "GH_TOKEN", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "CREDENTIAL", "AZURE_", "OPENAI_", "ANTHROPIC_", "NPM_TOKEN", "DATABASE_URL")

#: Commands that print the whole environment.
ENV_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "compgen"})

#: Decoders: their output is text that was hidden in the input. Those bastion can run on
#: a literal input are ``syntax.literal.LITERAL_DECODERS`` (name → options that make them
#: decode); these add the ones it cannot (keys, other compressors).
DECODERS: dict[str, frozenset[str]] = {
    **LITERAL_DECODERS,
    "uudecode": frozenset(),
    "gpg": frozenset({"-d", "--decrypt"}),
    "recode": frozenset(),
    "bzip2": frozenset({"-d"}),
    "xz": frozenset({"-d"}),
}
#: Decoders that are only obfuscation when piped into a shell (compressors are not).
STRONG_DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "rev", "openssl", "recode"})

#: Wrappers that may survive in argv when the parser did not peel them.
WRAPPERS = frozenset(
    "sudo doas env nice nohup timeout time stdbuf command builtin exec xargs setsid flock ionice chrt taskset "
    "unbuffer caffeinate parallel watch script strace ltrace valgrind firejail bwrap proot torsocks proxychains "
    "proxychains4 chronic ts catchsegv faketime fakeroot eatmydata nocache numactl cpulimit systemd-inhibit "
    "dbus-run-session xvfb-run with-contenv s6-setuidgid chpst runas gosu su-exec tini dumb-init entr".split()
)

#: Commands that only take data: their arguments are never executed (data, not code).
DATA_ONLY = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack"})

#: Commands the analyser recognises by name (for ``canonical_name``).
_ALL_NAMES: frozenset[str] = frozenset()


def _all_names() -> frozenset[str]:
    names: set[str] = set()
    for table in (READ_ONLY, ROUTINE, TOOLS, NETWORK, INTERPRETERS, SQL_CLIENTS, PAGERS):
        names.update(table)
    for group in (
        AWKS,
        SEDS,
        PRIVILEGE,
        SHELLS,
        INTERACTIVE,
        WIPERS,
        DISK_DESTROYERS,
        DISK_PARTITIONERS,
        POWER,
        ACCOUNTS,
        KERNEL,
        SECURITY_DISABLE,
        PROCESS_KILLERS,
        PUBLISH,
        REMOTE_ADMIN,
        DB_DESTROYERS,
        WRAPPERS,
        PACKAGE_RUNNERS,
        ENV_DUMPERS,
        CREDENTIAL_TOOLS,
        TEX,
    ):
        names.update(group)
    names.update(("git", "rm", "dd", "tar", "source", ".", "eval", "trap", "enable", "make", "gmake", "crontab", "hostname"))
    return frozenset(names)


_ALL_NAMES = _all_names()


def is_core(name: str) -> bool:
    """Whether the core tables above know ``name`` (the long tail lives in ``catalog_cli``)."""
    return name in _ALL_NAMES
