"""What a program in another language would do, said in shell.

A code model (``pymodel`` for Python through ``ast``, ``jsmodel`` for JavaScript through
tree-sitter, ``callmodel`` for the call tables of Perl, Ruby, PHP, Lua, awk, R, Julia and
the others) reads one program and returns its :class:`ProgramEffects`. Every effect that
the shell can express is given as a *shell equivalent*: ``shutil.rmtree(Path.home())``
becomes ``rm -rf -- ~``, ``fs.appendFileSync('/etc/sudoers', s)`` becomes
``printf %s '…' >> /etc/sudoers``, ``subprocess.run(['rm', '-rf', '/usr'])`` becomes
``rm -rf /usr``. The shell analyser then judges those lines like any typed command, so a
target is classified in one place (the path table and the shell checks), and every
finding keeps its own code; the finding says it came from inside the program.

Effects that have no shell spelling (a socket wired to a shell, code fetched and
evaluated, a fork loop) are flags. ``inert`` says that every call the program makes is
known and harmless (imports, printing, reading attributes): such code needs no question.
``harmless`` is the wider rule, "code whose effects are all harmless is harmless": the
model found no effect that matters (no process, no network send, no socket, no native
library, no eval of text it cannot follow, nothing opaque), even where the program calls
functions of libraries it does not model (trusted as running a script is); its file
effects are in ``shell`` and are judged there like typed commands. A model that cannot
read the program returns None, and the caller falls back to the lexical scan, which asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax.lazyre import LazyPattern
from ..syntax.quoting import quote as shell_quote

__all__ = ["ProgramEffects", "shell_word", "shell_line", "destroys", "MAX_DECODED"]

#: Upper bound on any decoded or folded string a model keeps (bytes of text).
MAX_DECODED = 65536


@dataclass
class ProgramEffects:
    """The effects of one program, as shell equivalents and flags."""

    language: str
    #: Shell lines that do what the program does (run by the shell analyser, in order,
    #: as one script, so a secret read and a send in the same program meet).
    shell: list[str] = field(default_factory=list)
    #: Hosts or URLs the program contacts.
    sends: list[str] = field(default_factory=list)
    #: Code fetched over the network is evaluated or run (HB005).
    fetch_run: bool = False
    #: A socket is connected to a shell or to the program's stdin/stdout (HB006/HB007).
    reverse_shell: bool = False
    bind_shell: bool = False
    #: A process is forked in an endless loop (HB004).
    fork_bomb: bool = False
    #: The environment is read whole (and, with ``sends``, sent: HB008).
    env_dump: bool = False
    #: A native library is loaded (ctypes, ffi).
    library_load: bool = False
    #: The constant text the program prints, when it prints only constants
    #: (``print(bytes.fromhex('…').decode())``): piped to a shell, it is a command.
    prints: str | None = None
    #: Something runs that the model cannot follow (a process call with a computed
    #: argument, eval of a computed string): the caller asks.
    opaque: list[str] = field(default_factory=list)
    #: Every call is known and harmless: no process, no write, no delete, no network,
    #: no eval. Such code is allowed like a read-only command.
    inert: bool = False
    #: No effect that matters (see the module docstring); file effects are in ``shell``.
    #: A model that does not compute it leaves it False (then only ``inert`` counts).
    harmless: bool = False
    #: Constant strings the program hands to calls the model does not know (a library
    #: may open them): the caller checks them against the secret and startup-file tables.
    handed: list[str] = field(default_factory=list)
    #: Project files the program loads by a relative path (``require('./x')``): harmless
    #: only while they are inside the workspace (their own effects are read there).
    modules: list[str] = field(default_factory=list)


def shell_word(value: str) -> str:
    """``value`` quoted for the shell, keeping a leading ``~`` live (``~/x`` stays the
    home directory, where ``shlex.quote`` would make it a literal tilde)."""
    if value == "~":
        return "~"
    if value.startswith("~/"):
        rest = value[2:]
        return "~/" + shell_quote(rest) if rest else "~/"
    return shell_quote(value)


def shell_line(argv: list[str] | tuple[str, ...]) -> str:
    """An argv as one shell line, each word quoted by :func:`shell_word`."""
    return " ".join(shell_word(a) for a in argv)


#: One-word names that are data-structure methods as often as anything else
#: (``list.remove(x)``, ``Map.delete(k)``, ``dict.clear()``, ``DataFrame.drop(col)``,
#: ``file.flush()``): alone they do not count.
_DATA_VERBS = frozenset({"remove", "delete", "clear", "unset", "discard", "pop", "forget", "drop", "flush", "compact",
                         "cleanup", "disable"})


#: The words of a camelCase or snake_case name (``deleteIndex``, ``drop_table``, ``HTTPGet``).
_NAME_WORDS = LazyPattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def destroys(name: str) -> bool:
    """A library function or method named for destroying something (``deleteIndex``,
    ``clearObjects``, ``drop_table``, ``purge``): the destructive verbs of the cloud and
    SaaS CLIs (``catalog.DESTRUCTIVE_VERBS``) leading the name, camelCase or snake_case."""
    from ..catalog import catalog as C

    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    if not words:
        return False
    first = words[0]
    if len(words) == 1 and first in _DATA_VERBS:
        return False
    return first in C.DESTRUCTIVE_VERBS or first == "clear"
