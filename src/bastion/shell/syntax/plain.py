"""Plain commands: the one shape of shell text that needs no syntax tree.

Most commands an agent runs are a few plain words, sometimes piped: ``git status``,
``pytest -q``, ``cat src/app.py | grep -n TODO | sort | uniq -c | head -20``. When a
text is made only of word characters that bash gives no meaning to (letters, digits and
``_ . / : , @ + = -``), single blanks and ``|``, bash's grammar has exactly one reading:
the pipe splits stages, blanks split words, and every word is literal (no quote,
escape, expansion, glob, brace, tilde, comment, redirection or other operator can
occur). :func:`plain_stages` recognises that language and returns its words; the parser
then records them exactly as it records a tree-sitter ``command`` node, without paying
for the tree.

Anything outside it (a quote, a ``$``, ``&&``, a tab, a reserved word, an assignment, a
declaration, a non-ASCII letter) returns ``None`` and goes to tree-sitter-bash. A
differential test checks that both paths give the same result on every plain command
of the corpus and on generated ones.
"""

from __future__ import annotations

__all__ = ["plain_stages", "MAX_PLAIN", "PLAIN_CHARACTERS"]

#: Longer texts take the normal path (its caps and budgets apply).
MAX_PLAIN = 2_000
#: Characters a plain text is made of: word characters that mean nothing to bash inside
#: a word, the blank and the pipe.
PLAIN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,@+=| -")
#: What a command name may be made of: tree-sitter-bash reads a name with ``=`` as an
#: assignment, and misreads a lone ``-`` (dropped) and names holding ``+``, ``@`` or
#: starting with ``:``, ``,`` or ``-`` as syntax errors; those stay on the tree-sitter path.
_NAME_CHARACTERS = PLAIN_CHARACTERS - frozenset("@+=| ")
_NAME_FIRST = _NAME_CHARACTERS - frozenset(":,-")
#: Words that change the grammar in command position (bash reserved words), and the
#: builtins tree-sitter-bash gives a node of their own (declarations, ``unset``).
_SPECIAL_FIRST = frozenset(
    {"case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select",
     "then", "time", "until", "while", "declare", "typeset", "export", "readonly", "local", "unset",
     "unsetenv"}
)

#: Words tree-sitter-bash lexes as an operator token even outside ``[[ … ]]``.
_OPERATOR_WORDS = frozenset({"=="})


def plain_stages(source: str) -> list[tuple[str, list[str]]] | None:
    """``[(stage text, words), …]`` for a plain command or pipeline, else ``None``.

    The language is checked with set operations: compiling the regular expression for it
    costs a fresh process more than these checks cost a whole session."""
    if len(source) > MAX_PLAIN or not PLAIN_CHARACTERS.issuperset(source):
        return None
    stages: list[tuple[str, list[str]]] = []
    for part in source.split("|"):
        words = part.split()  # only blanks can separate words here
        if not words or words[0][0] not in _NAME_FIRST or not _NAME_CHARACTERS.issuperset(words[0]):
            return None  # an empty stage, or a first word that is no plain command name
        if words[0] in _SPECIAL_FIRST:
            return None  # a reserved word or a declaration: tree-sitter decides
        stages.append((part.strip(), words))
    if "==" in source and any(not _OPERATOR_WORDS.isdisjoint(words) for _text, words in stages):
        return None
    return stages
