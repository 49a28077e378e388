"""GNU tools under Homebrew's ``g`` prefix: ``gtimeout`` is ``timeout``, ``grm`` is ``rm``.

macOS ships BSD tools; Homebrew's ``coreutils``, ``findutils``, ``gnu-sed``, ``gnu-tar``,
``grep``, ``gnu-which`` and ``make`` install the GNU ones beside them with a ``g`` in front,
and people and agents on a Mac type those names (``gtimeout 10 npm run dev``, ``gsed -i``,
``greadlink -f``). A prefixed name does exactly what the tool does, so the parser reads it
as the tool (:func:`gnu_name`, applied to every command word and every command a wrapper
runs): ``grm -rf ~`` is denied as ``rm -rf ~`` is, and ``gtimeout 5 …`` is peeled like
``timeout 5 …``.

One record: :data:`GNU_TOOLS` (the names that may carry the prefix), :data:`WHY`,
:data:`MATCH` (prefixed commands judged as the plain ones) and :data:`NOT_MATCH` (words
that keep their own meaning). ``tests/test_needless_small.py`` runs the examples.

Not every ``g`` + tool name is a GNU tool: ``god`` is the Ruby process monitor (it loads
a Ruby config), ``gdu`` the Go disk-usage browser and ``gpaste`` GNOME's clipboard, so
``od``, ``du`` and ``paste`` are left out. Only a bare command name is read this way: a
path (``./grm``, ``/opt/x/grm``) is the file it names and is judged by what that file is.
"""

from __future__ import annotations

__all__ = ["GNU_TOOLS", "MATCH", "NOT_MATCH", "WHY", "gnu_name"]

#: The GNU tools Homebrew installs with a ``g`` prefix (coreutils without ``od``, ``du``
#: and ``paste``; findutils; sed, tar, grep, which, make, patch).
GNU_TOOLS: frozenset[str] = frozenset(
    (
        # coreutils
        "[ b2sum base32 base64 basename basenc cat chcon chgrp chmod chown chroot cksum comm cp csplit cut "
        "date dd df dir dircolors dirname echo env expand expr factor false fmt fold groups head hostid id "
        "install join kill link ln logname ls md5sum mkdir mkfifo mknod mktemp mv nice nl nohup nproc numfmt "
        "pathchk pinky pr printenv printf ptx pwd readlink realpath rm rmdir runcon seq sha1sum sha224sum "
        "sha256sum sha384sum sha512sum shred shuf sleep sort split stat stdbuf stty sum sync tac tail tee test "
        "timeout touch tr true truncate tsort tty uname unexpand uniq unlink uptime users vdir wc who whoami yes "
        # findutils, and the single-tool formulae
        "find xargs locate updatedb sed tar grep egrep fgrep which make patch"
    ).split()
)

WHY = (
    "Homebrew installs the GNU tools on macOS with a g prefix (gtimeout, gsed, greadlink, gfind, gmake); "
    "the prefixed name runs the same program, so it is judged as that tool, catastrophes included"
)

#: (prefixed command, plain command): judged alike.
MATCH: tuple[tuple[str, str], ...] = (
    ("gtimeout 10 npm run dev", "timeout 10 npm run dev"),
    ("greadlink -f README.md", "readlink -f README.md"),
    ("gsed -i 's/a/b/' src/app.py", "sed -i 's/a/b/' src/app.py"),
    ("grm -rf ~", "rm -rf ~"),
    ("gtimeout 5 grm -rf /", "timeout 5 rm -rf /"),
)

#: Words that are not a prefixed GNU tool.
NOT_MATCH: tuple[str, ...] = ("gcc", "git", "gpg", "gzip", "gunzip", "god", "gdu", "gpaste", "gawk", "./grm")


def gnu_name(word: str) -> str:
    """``word`` without Homebrew's ``g`` when it is a bare prefixed GNU tool name, else ``word``."""
    if word[:1] == "g" and word[1:] in GNU_TOOLS:
        return word[1:]
    return word
