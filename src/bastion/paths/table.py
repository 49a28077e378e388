"""The path table: every path bastion treats specially, one row per fact, with its why
and example paths that must (``match``) and must not (``not_match``) be given its meaning.

Patterns
--------
The same spelling as the ``files`` settings patterns, compared lowercase:

- ``~/x`` is below a home directory: the agent's, ``/root`` or anyone's (the ``home``
  rows below say where homes live), because a key under another user's home is as secret
  as one under ours;
- ``/x`` is absolute (``/etc/…`` also matches macOS's ``/private/etc/…``, ``/var/…``
  ``/private/var/…``);
- anything else names a file (``id_rsa``) or a component sequence (``.git/config``)
  anywhere;
- a trailing ``/`` makes a folder: the folder and everything below it; without one the
  pattern is that file only (a virtualenv called ``.env/`` is no ``.env`` file);
- ``*`` and ``?`` stay within one component, ``[…]`` is a class.

Removal, temp and scratch rows name a directory itself (never what is inside it); ``/*``
there means "every direct child of ``/``".

Kinds and what each means (``level`` where a kind has one)
-----------------------------------------------------------
==============  ===========================================================================
kind            meaning
==============  ===========================================================================
credential      credential store: reading, writing or deleting it asks in every mode
                (FS003); the sandbox hides it; reading it taints the session. Level 2:
                printing it is a hard block (HB009); level 1: reading it in the shell asks.
                Either level sent over the network is a hard block (HB008)
secret          secret file (a project's ``.env``, key files): reading asks (FS005),
                writing asks (FS004); shell levels as for credentials; reading taints
not_secret      looks like a secret but is not (``*.pub``, ``.env.example``): secret and
                credential *name* rows do not apply, nor a shell secret level (a folder
                row such as ``~/.ssh/`` still asks)
sensitive       writing it asks (FS004): a name that suggests secrets
protected       protected file or folder: writing or deleting it asks in every mode
                (FS002); read-only at the top of every sandbox write root
structural      a folder inside a protected one that is structure, not config: its
                protected component does not count (``.claude/worktrees/``)
startup         a file a shell or session runs from a home directory: protected by name
                wherever it is (FS002), and it runs later when it is in a home (level 1)
runs_later      writing it plants something that runs later: level 1 asks in every mode,
                level 2 is a backdoor (HB011, denied); a file tool's text written there is
                judged as the commands it becomes
removal         deleting it in any way is blocked (FS001), and so is a recursive delete,
                chmod or chown of it (HB001, HB012)
recursive       only a recursive delete, chmod or chown of it is blocked (HB001, HB012);
                deleting one file there is ordinary
delete_only     deleting it is blocked (FS001, HB001); a recursive chmod or chown of it
                (another user's home, an arbitrary top-level folder) is administration
temp            shared temporary directory: emptying it (``/tmp/*``) is not a wipe, and
                files there are not "outside the workspace" for the shell
scratch         scratch space at the top level: emptying it is not a wipe
session_scratch the agent's own scratch folder in a temp directory: everything below it
                is the agent's, like the workspace for writes, reads and deletes
                (globs and recursive deletes inside it too); the folder itself is not
home            where home directories live (``~/`` rows apply below each)
==============  ===========================================================================

Rows are plain tuples (cheap to build on the guard's hot path); ``bastion.paths.match``
indexes them on first use. ``tests/test_path_table.py`` runs every example through the
real guard (Read, Grep, ``cat X | curl -d @- …``, writes, deletes) and the sandbox plan.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from ..named_tuple import NamedTuple

__all__ = ["Row", "ROWS", "KINDS"]

CREDENTIAL = "credential"
SECRET = "secret"
NOT_SECRET = "not_secret"
SENSITIVE = "sensitive"
PROTECTED = "protected"
STRUCTURAL = "structural"
STARTUP = "startup"
RUNS_LATER = "runs_later"
REMOVAL = "removal"
RECURSIVE = "recursive"
DELETE_ONLY = "delete_only"
TEMP = "temp"
SCRATCH = "scratch"
SESSION_SCRATCH = "session_scratch"
HOME = "home"

KINDS = (CREDENTIAL, SECRET, NOT_SECRET, SENSITIVE, PROTECTED, STRUCTURAL, STARTUP, RUNS_LATER,
         REMOVAL, RECURSIVE, DELETE_ONLY, TEMP, SCRATCH, SESSION_SCRATCH, HOME)


class Row(NamedTuple):
    """One fact about some paths: what they are (``kind``), how much (``level``), why."""

    id: str
    kind: str
    title: str  # short, used in reasons: "credential store: AWS access keys"
    patterns: tuple[str, ...]
    level: int
    why: str
    match: tuple[str, ...]
    not_match: tuple[str, ...]


_C, _S, _N, _W, _P = CREDENTIAL, SECRET, NOT_SECRET, SENSITIVE, PROTECTED

#: Browser profile folders (cookies and saved passwords), Linux then macOS.
_BROWSERS = (
    "~/.mozilla/", "~/.config/google-chrome/", "~/.config/chromium/", "~/.config/bravesoftware/",
    "~/.config/microsoft-edge/", "~/library/application support/google/chrome/",
    "~/library/application support/firefox/", "~/library/application support/bravesoftware/",
    "~/library/application support/microsoft edge/", "~/library/cookies/",
)

_SECRET_CONFIGS = tuple(f"{stem}.{ext}" for stem in ("credentials", "secret", "secrets")
                        for ext in ("json", "yaml", "yml", "toml", "txt"))

ROWS: tuple[Row, ...] = (
    # ------------------------------------------------------------------ credential stores
    Row("ssh", _C, "SSH keys", (".ssh/",), 1,
        "an .ssh folder holds private keys, the hosts they open and who may log in; a service account's is as "
        "secret as ours",
        ("~/.ssh/config", "~/.ssh/known_hosts", "/var/lib/jenkins/.ssh/authorized_keys", "~/.ssh"),
        ("~/.ssh.bak", "ssh/config", "docs/ssh.md")),
    Row("ssh-private-key", _C, "SSH private key",
        tuple(f"{name}{ext}" for name in ("id_rsa", "id_dsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk")
              for ext in ("", ".*")) + (".ssh/identity",), 2,
        "a private key logs in wherever its public half is authorised, and its backups (id_rsa.bak) are as good",
        ("~/.ssh/id_rsa", "deploy/id_ecdsa_sk", "/var/lib/ci/id_rsa.bak", "~/.ssh/identity"),
        ("~/.ssh/id_rsa.pub", "deploy/id_ed25519.pub", "services/identity", "src/ids.py", "id_rsa_gitlab")),
    Row("aws", _C, "AWS config and credentials", ("~/.aws/",), 1,
        "the AWS folder names accounts, roles and profiles; its credential files are below",
        ("~/.aws/config", "~/.aws"), ("aws/config", "~/.awsome")),
    Row("aws-keys", _C, "AWS access keys",
        ("~/.aws/credentials", "~/.aws/sso/cache/", "~/.aws/cli/cache/"), 2,
        "long-lived access keys and cached session tokens act as the account",
        ("~/.aws/credentials", "/home/bob/.aws/credentials", "~/.aws/sso/cache/abc.json"),
        ("~/.aws/config", "aws/credentials")),
    Row("gcloud", _C, "Google Cloud credentials", ("~/.config/gcloud/",), 2,
        "gcloud keeps refresh tokens and service-account keys there",
        ("~/.config/gcloud/credentials.db", "~/.config/gcloud/application_default_credentials.json"),
        ("~/.config/gcloudx/x",)),
    Row("kube", _C, "Kubernetes config", ("~/.kube/",), 1,
        "the Kubernetes folder holds cluster addresses and cached tokens",
        ("~/.kube/cache/discovery/x.json",), ("kube/config",)),
    Row("kube-config", _C, "Kubernetes credentials", ("~/.kube/config",), 2,
        "kubeconfig holds client keys and bearer tokens for every cluster it names",
        ("~/.kube/config", "/root/.kube/config"), ("~/.kube/config.d.md", "deploy/kube/config")),
    Row("container-auth", _C, "container registry logins",
        ("~/.docker/config.json", "~/.dockercfg", "~/.config/containers/auth.json", "/run/user/*/containers/auth.json"), 2,
        "docker, podman, buildah and skopeo keep registry passwords and tokens there (the last one is "
        "$XDG_RUNTIME_DIR/containers/auth.json)",
        ("~/.docker/config.json", "~/.dockercfg", "~/.config/containers/auth.json", "/run/user/1000/containers/auth.json"),
        ("~/.docker/daemon.json", "~/.config/containers/registries.conf", "docker/config.json")),
    Row("netrc", _C, "netrc passwords", (".netrc", "_netrc"), 2,
        "netrc files hold plain-text logins that curl, git and ftp send on their own; they are one wherever they are",
        ("~/.netrc", "/var/lib/ci/.netrc", "~/_netrc"), ("~/.netrc.pub", "netrc.md")),
    Row("git-credentials", _C, "git credentials", (".git-credentials", "~/.config/git/credentials"), 2,
        "git's credential store keeps tokens in plain text",
        ("~/.git-credentials", "ci/.git-credentials", "~/.config/git/credentials"), ("~/.config/git/config",)),
    Row("gnupg", _C, "GnuPG keys", (".gnupg/",), 2,
        "a GnuPG folder holds private keys that sign and decrypt as their owner",
        ("~/.gnupg/private-keys-v1.d/x.key", "/var/lib/ci/.gnupg/pubring.kbx"), ("gnupg/README",)),
    Row("password-store", _C, "pass password store", ("~/.password-store/",), 2,
        "pass keeps every password there (encrypted to a key on the same machine)",
        ("~/.password-store/email.gpg",), ("password-store/x",)),
    Row("vault", _C, "Vault token", ("~/.vault-token",), 2, "the Vault CLI's login token",
        ("~/.vault-token",), ("vault-token",)),
    Row("github-cli", _C, "GitHub CLI config", ("~/.config/gh/",), 1,
        "the GitHub CLI folder; its hosts file holds the token",
        ("~/.config/gh/config.yml",), ("~/.config/ghq/x",)),
    Row("github-token", _C, "GitHub token", ("~/.config/gh/hosts.yml", "~/.config/hub"), 2,
        "gh and hub keep an OAuth token with the account's scopes there",
        ("~/.config/gh/hosts.yml", "~/.config/hub"), ("~/.config/gh/config.yml",)),
    Row("azure", _C, "Azure credentials", ("~/.azure/",), 2, "the Azure CLI's tokens and service principals",
        ("~/.azure/msal_token_cache.json",), ("azure/x",)),
    Row("pgpass", _C, "PostgreSQL passwords", (".pgpass",), 2,
        "a .pgpass file holds database passwords in plain text wherever it is",
        ("~/.pgpass", "ops/.pgpass"), ("pgpass.md",)),
    Row("object-storage", _C, "object storage keys", ("~/.boto", "~/.s3cfg"), 2,
        "boto and s3cmd keep cloud storage access keys there", ("~/.boto", "~/.s3cfg"), ("boto/x",)),
    Row("registry-publish", _C, "package publishing token",
        ("~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.gem/credentials",
         "~/.terraform.d/credentials.tfrc.json"), 2,
        "tokens that publish packages or run infrastructure as the account",
        ("~/.cargo/credentials.toml", "~/.gem/credentials", "~/.terraform.d/credentials.tfrc.json"),
        ("~/.cargo/config.toml",)),
    Row("registry-tokens", _C, "package registry tokens",
        ("~/.npmrc", "~/.pypirc", "~/.composer/auth.json", "~/.config/composer/auth.json"), 1,
        "npm, PyPI and Composer read tokens from these files",
        ("~/.npmrc", "~/.pypirc", "~/.composer/auth.json"), ("~/.composer/composer.json",)),
    Row("mysql", _C, "MySQL passwords", ("~/.my.cnf",), 1, "the MySQL client's password file",
        ("~/.my.cnf",), ("my.cnf",)),
    Row("keyrings", _C, "desktop keyrings and keychains", ("~/.local/share/keyrings/", "~/library/keychains/"), 2,
        "the desktop's keyring and macOS keychains hold saved passwords and keys",
        ("~/.local/share/keyrings/login.keyring", "~/Library/Keychains/login.keychain-db"),
        ("~/.local/share/applications/x.desktop",)),
    Row("1password", _C, "1Password CLI", ("~/.config/op/",), 2, "the 1Password CLI's session and config",
        ("~/.config/op/config",), ("~/.config/opera/x",)),
    Row("agent-logins", _C, "coding agent login token",
        ("~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json"), 2,
        "Claude Code, Codex CLI and Gemini CLI keep the login that spends the account there",
        ("~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json"),
        ("~/.claude/settings.json", ".codex/auth.json.md")),
    Row("browser-profiles", _C, "browser profile (cookies, saved passwords)", _BROWSERS, 1,
        "session cookies log in as the person; saved passwords are one file away",
        ("~/.mozilla/firefox/x.default/cookies.sqlite", "~/.config/google-chrome/Default/Cookies",
         "~/.config/chromium/Default/Login Data", "~/.config/BraveSoftware/Brave-Browser/Default/Cookies",
         "~/.config/microsoft-edge/Default/Cookies", "~/Library/Application Support/Google/Chrome/Default/Cookies",
         "~/Library/Application Support/Firefox/Profiles/x/logins.json",
         "~/Library/Application Support/BraveSoftware/x", "~/Library/Application Support/Microsoft Edge/x",
         "~/Library/Cookies/Cookies.binarycookies"),
        ("~/.config/chromium-flags.conf", "~/Library/Application Support/Code/User/settings.json")),
    Row("shell-history", _C, "shell and REPL history",
        ("~/.bash_history", "~/.zsh_history", "~/.zhistory", "~/.local/share/fish/fish_history",
         "~/.python_history", "~/.psql_history", "~/.mysql_history", "~/.node_repl_history",
         "~/.sqlite_history", "~/.rediscli_history"), 1,
        "histories keep what was typed: tokens exported by hand, passwords given on command lines",
        ("~/.bash_history", "~/.zsh_history", "~/.local/share/fish/fish_history", "~/.python_history",
         "~/.psql_history", "~/.node_repl_history", "~/.sqlite_history"),
        ("docs/bash_history.md", "~/.bash_history_notes/x")),
    Row("rclone", _C, "rclone remotes", ("~/.config/rclone/rclone.conf",), 2,
        "rclone keeps the keys and tokens of every cloud remote it syncs with",
        ("~/.config/rclone/rclone.conf",), ("rclone.conf",)),
    Row("oci", _C, "Oracle Cloud keys", ("~/.oci/",), 2, "the OCI CLI's config and API signing keys",
        ("~/.oci/config", "~/.oci/oci_api_key.pem"), ("oci/config",)),
    Row("password-hashes", _C, "password hashes",
        ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd", "/etc/security/opasswd"), 2,
        "password hashes can be cracked offline",
        ("/etc/shadow", "/private/etc/master.passwd", "/etc/gshadow-", "/etc/security/opasswd"),
        ("/etc/passwd", "/etc/shadowx", "/srv/proj/etc/shadow")),
    Row("sudo-policy", _C, "sudo policy", ("/etc/sudoers", "/etc/sudoers.d/"), 1,
        "who may become root, and without which password",
        ("/etc/sudoers", "/etc/sudoers.d/90-cloud-init"), ("/etc/sudo.conf",)),
    Row("ssh-host-keys", _C, "SSH host private key", ("/etc/ssh/ssh_host_*_key",), 2,
        "the server's private host key lets anyone impersonate this machine",
        ("/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_rsa_key"),
        ("/etc/ssh/ssh_host_ed25519_key.pub", "/etc/ssh/sshd_config")),
    Row("process-environment", _C, "a process's environment (tokens, keys)",
        ("/proc/*/environ", "/proc/*/task/*/environ"), 2,
        "a process's environment holds the tokens and keys it was started with",
        ("/proc/self/environ", "/proc/1/environ", "/proc/1/task/7/environ"), ("/proc/1/cmdline", "/proc/1/status")),
    Row("kerberos-keytab", _C, "Kerberos keytab", ("/etc/krb5.keytab",), 2,
        "a keytab logs in as the host's service principals without a password",
        ("/etc/krb5.keytab",), ("/etc/krb5.conf",)),
    Row("mounted-secrets", _C, "mounted secrets (Kubernetes service-account token)",
        ("/run/secrets/", "/var/run/secrets/"), 2,
        "containers get their secrets mounted there, the Kubernetes service-account token included",
        ("/var/run/secrets/kubernetes.io/serviceaccount/token", "/run/secrets/kubernetes.io/serviceaccount/token",
         "/run/secrets/db_password"),
        ("/run/systemd/x", "/var/run/docker.sock")),
    Row("tls-private-keys", _C, "TLS private keys", ("/etc/ssl/private/", "/etc/pki/tls/private/"), 2,
        "the system's TLS private keys let anyone impersonate its services",
        ("/etc/ssl/private/ssl-cert-snakeoil.key", "/etc/pki/tls/private/server.key"),
        ("/etc/ssl/certs/ca-certificates.crt",)),
    # ------------------------------------------------------------------ secret files
    Row("dotenv", _S, ".env file", (".env", ".env.*"), 1,
        "a project's .env files hold its tokens and passwords",
        (".env", ".env.local", "app/.ENV.Production"), (".env.example", "env.py", ".environment", ".env/bin/python")),
    Row("envrc", _S, "direnv file", (".envrc",), 1, "direnv files export secrets into the shell",
        (".envrc", "svc/.envrc"), ("envrc.md",)),
    Row("key-files", _S, "key or certificate store",
        ("*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore"), 1,
        "private keys and keystores travel in these formats (a .pem may also be a public certificate)",
        ("certs/server.pem", "tls.key", "cert.p12", "cert.pfx", "store.jks", "release.keystore"),
        ("keys.py", "monkey.py", "pem.md")),
    Row("putty-key", _S, "PuTTY private key", ("*.ppk",), 2, "a PuTTY key file is a private key",
        ("keys/server.ppk",), ("ppk.md",)),
    Row("password-database", _S, "password database", ("*.kdbx",), 1,
        "a KeePass database holds every password (encrypted, and often next to its key file)",
        ("vault.kdbx",), ("kdbx.md",)),
    Row("terraform-state", _S, "Terraform state", ("*.tfstate",), 1,
        "Terraform state keeps every secret it created in plain text",
        ("infra/terraform.tfstate",), ("infra/main.tf",)),
    Row("secret-configs", _S, "credentials or secrets file", _SECRET_CONFIGS, 1,
        "files named for credentials or secrets hold them (a Kubernetes secret.yaml, a service account's "
        "credentials.json)",
        ("credentials.json", "k8s/secret.yaml", "config/secrets.yml", "secrets.toml", "credentials.txt"),
        ("credentials.py", "secret_santa.md", "secrets/README.md")),
    Row("htpasswd", _S, "web password file", (".htpasswd",), 1, "password hashes for HTTP basic auth",
        ("web/.htpasswd",), ("htpasswd.md",)),
    Row("public-key", _N, "public key", (".ssh/*.pub", "id_*.pub"), 0,
        "the public half of an SSH key pair is made to be shared: sending it is its purpose (the .ssh folder it "
        "sits in still asks)",
        ("~/.ssh/id_ed25519.pub", "deploy/id_rsa.pub", "~/.ssh/work_key.pub"),
        ("~/.ssh/id_ed25519", "pub/x", "~/.aws/credentials.pub")),
    Row("env-template", _N, ".env template",
        (".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema",
         ".env.*.example", ".env.*.sample", ".env.*.template", ".env.*.dist"), 0,
        "committed templates of .env files hold placeholders, not secrets (one per environment too: "
        ".env.production.example); copying one onto a .env file that does not exist yet (cp .env.example "
        ".env.local) writes no secret (files.env_templates)",
        (".env.example", ".env.sample", ".ENV.Template", ".env.dist", ".env.defaults", ".env.schema",
         ".env.production.example", "services/api/.env.test.example", ".env.local.sample"),
        (".env", ".env.local", ".env.example.local", ".env.production")),
    Row("secret-names", _W, "name suggests secrets",
        ("*credentials*", "*secret*", ".pypirc", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*"), 0,
        "a file named for credentials, secrets or an SSH key, written by an agent, deserves a look",
        ("aws_credentials.json", "client_secret.json", "secrets.txt", "deploy/.pypirc", "keys/id_ed25519_github"),
        ("src/app.py", "README.md")),
    # ------------------------------------------------------------------ protected files and folders
    Row("git-folder", _P, "git folder", (".git/",), 0, "git runs its hooks and obeys its config",
        (".git/config", "vendor/lib/.git/HEAD", ".GiT/HoOkS/pre-commit"), (".gitignore", "git/config")),
    Row("vscode", _P, "VS Code settings", (".vscode/",), 0, "editor tasks and settings can run commands",
        (".vscode/tasks.json",), ("vscode/x",)),
    Row("idea", _P, "JetBrains settings", (".idea/",), 0, "IDE run configurations can run commands",
        (".idea/workspace.xml",), ("idea/x",)),
    Row("claude", _P, "Claude Code settings", (".claude/",), 0,
        "agent settings, hooks, commands and agents live there",
        (".claude/settings.json", "~/.claude/settings.json", ".claude/worktrees/x/.claude/settings.json"),
        (".claude/worktrees/feature/src/app.py", "claude/x")),
    Row("codex", _P, "Codex CLI config", (".codex/",), 0, "Codex CLI config sets its approval and sandbox policy",
        (".codex/config.toml",), ("codex/x",)),
    Row("gemini", _P, "Gemini CLI settings", (".gemini/",), 0, "Gemini CLI settings allow tools and define hooks",
        (".gemini/settings.json",), ("gemini/x",)),
    Row("bastion", _P, "bastion settings", (".bastion/",), 0, "bastion's own project settings",
        (".bastion/settings.json",), ("bastion/x",)),
    Row("gitmodules", _P, "git submodules", (".gitmodules",), 0, "submodules can pull other repositories",
        (".gitmodules",), (".gitmodules.bak",)),
    Row("direnv-runs", _P, "direnv file", (".envrc",), 0, "direnv runs it on entering the directory",
        (".envrc",), ("x.envrc",)),
    Row("ripgreprc", _P, "ripgrep config", (".ripgreprc",), 0, "ripgrep config can set a --pre command",
        (".ripgreprc",), ("ripgreprc",)),
    Row("mcp-config", _P, "MCP server list", (".mcp.json",), 0, "MCP servers it lists run with full access",
        (".mcp.json",), ("mcp.json",)),
    Row("claude-json", _P, "Claude Code config", (".claude.json",), 0,
        "agent config holds permission rules and MCP servers", ("~/.claude.json",), ("claude.json",)),
    Row("npmrc", _P, "npm config", (".npmrc",), 0,
        "npm config can set node-options, script-shell or git, which every npm run uses", (".npmrc",), ("npmrc",)),
    Row("yarnrc", _P, "yarn config", (".yarnrc", ".yarnrc.yml"), 0,
        "yarn config can set yarnPath, a script every yarn command runs", (".yarnrc", ".yarnrc.yml"), ("yarnrc",)),
    Row("claude-worktrees", STRUCTURAL, "agent worktrees", (".claude/worktrees/",), 0,
        "agents keep git worktrees there: its .claude component is structure, not settings (anything else "
        "protected inside still is)",
        (".claude/worktrees/feature/src/app.py",), (".claude/settings.json",)),
    # ------------------------------------------------------------------ startup files
    Row("gitconfig", STARTUP, "git config", ("~/.gitconfig",), 1,
        "git config can set core.hooksPath or aliases that run commands", ("~/.gitconfig", ".gitconfig"),
        (".gitconfig.bak",)),
    Row("bash-startup", STARTUP, "bash startup file",
        ("~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.bash_aliases", "~/.profile"), 1,
        "bash runs them at every start, login or logout (and sources .bash_aliases from .bashrc)",
        ("~/.bashrc", "~/.profile", "~/.bash_aliases", "proj/.bashrc"), ("~/.bashrc.bak", "bashrc")),
    Row("zsh-startup", STARTUP, "zsh startup file",
        ("~/.zshrc", "~/.zshenv", "~/.zprofile", "~/.zlogin", "~/.zlogout"), 1,
        "zsh runs them at every start (.zshenv even for scripts), login or logout",
        ("~/.zshrc", "~/.zshenv", "~/.zlogout"), ("zshrc",)),
    Row("other-shell-startup", STARTUP, "shell startup file", ("~/.cshrc", "~/.tcshrc", "~/.kshrc"), 1,
        "csh, tcsh and ksh run them at every start", ("~/.cshrc", "~/.kshrc"), ("cshrc",)),
    Row("inputrc", STARTUP, "readline config", ("~/.inputrc",), 1,
        "readline key bindings can type and run commands", ("~/.inputrc",), ("inputrc",)),
    Row("vimrc", STARTUP, "vim config", ("~/.vimrc",), 1, "vim runs its commands (:! included) at every start",
        ("~/.vimrc",), ("vimrc",)),
    Row("session-startup", STARTUP, "session startup file", ("~/.pam_environment", "~/.xinitrc", "~/.xprofile"), 1,
        "the login session reads them: environment for every program, X start-up commands",
        ("~/.pam_environment", "~/.xinitrc"), ("xinitrc",)),
    # ------------------------------------------------------------------ what runs later
    Row("authorized-keys", RUNS_LATER, "SSH authorized keys", ("~/.ssh/authorized_keys", "~/.ssh/authorized_keys2"), 2,
        "a key added there logs in as this user from anywhere, after the session ends",
        ("~/.ssh/authorized_keys", "/root/.ssh/authorized_keys2"), ("~/.ssh/known_hosts",)),
    Row("ssh-client-config", RUNS_LATER, "SSH client config", ("~/.ssh/rc", "~/.ssh/config"), 1,
        "sshd runs ~/.ssh/rc at every login; ssh config can set ProxyCommand, which runs on every connection",
        ("~/.ssh/rc", "~/.ssh/config"), ("~/.ssh/id_rsa.pub",)),
    Row("user-services", RUNS_LATER, "user services and autostart",
        ("~/.config/systemd/", "~/.local/share/systemd/", "~/.config/autostart/", "~/library/launchagents/",
         "~/.config/environment.d/"), 1,
        "systemd user units, desktop autostart entries and launch agents start on their own at login",
        ("~/.config/systemd/user/x.service", "~/.config/autostart/x.desktop", "~/Library/LaunchAgents/x.plist",
         "~/.config/environment.d/x.conf"),
        ("~/.config/systemd-notes.md",)),
    Row("user-config-runs", RUNS_LATER, "shell and git config folders", ("~/.config/fish/", "~/.config/git/config"), 1,
        "fish runs everything in its config folder; git's XDG config is its global config",
        ("~/.config/fish/config.fish", "~/.config/git/config"), ("~/.config/git/ignore",)),
    Row("git-hooks", RUNS_LATER, "git hooks and config", (".git/hooks/", ".git/config"), 1,
        "git runs hooks on commit, checkout and push, and its config can name commands to run",
        (".git/hooks/pre-commit", "vendor/x/.git/config", ".git/hooks"), (".git/HEAD", ".githooks/x")),
    # Project files that run on their own, later (level 1 like a git hook: the person
    # who commits, opens, builds or pushes runs them, outside any check of this session).
    # A project file that only runs when someone runs it on purpose (a Makefile, a
    # conftest.py, package.json scripts) has no row: it is read when a command runs it.
    Row("ci-pipelines", RUNS_LATER, "CI pipeline",
        (".gitlab-ci.yml", ".github/workflows/*.yml", ".github/workflows/*.yaml", ".github/actions/*/action.yml",
         ".github/actions/*/action.yaml", ".circleci/config.yml", "azure-pipelines.yml", "bitbucket-pipelines.yml",
         "jenkinsfile"), 1,
        "CI runs every step on the next push, with the repository's secrets and deploy rights and no one reading "
        "the change first: a step is code that runs later, as the hooks in .git/hooks do (level 1)",
        (".gitlab-ci.yml", ".github/workflows/ci.yml", ".github/workflows/release.yaml",
         ".github/actions/setup/action.yml", ".circleci/config.yml", "azure-pipelines.yml", "bitbucket-pipelines.yml",
         "Jenkinsfile", "services/api/.gitlab-ci.yml"),
        (".github/workflows/README.md", ".github/dependabot.yml", "docs/gitlab-ci.yml", "Jenkinsfile.md", "ci.yml")),
    Row("hook-managers", RUNS_LATER, "git hooks kept in the project",
        (".husky/", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml", ".pre-commit-config.yaml"), 1,
        "husky, lefthook and pre-commit install these as git hooks: they run at every commit or push in the "
        "person's own shell, exactly like a file in .git/hooks (level 1)",
        (".husky/pre-commit", ".husky/pre-push", "lefthook.yml", ".lefthook.yml", ".pre-commit-config.yaml"),
        ("husky/pre-commit", "docs/lefthook.md", ".pre-commit-hooks.yaml")),
    Row("devcontainer", RUNS_LATER, "dev container", (".devcontainer/", ".devcontainer.json"), 1,
        "VS Code, Codespaces and the devcontainer CLI run its onCreate, updateContent, postCreate, postStart and "
        "postAttach commands when the container is built or opened, and initializeCommand on the host itself; "
        "the folder also holds the scripts they call (level 1)",
        (".devcontainer/devcontainer.json", ".devcontainer.json", ".devcontainer/python/devcontainer.json",
         ".devcontainer/post-create.sh"),
        ("devcontainer.json", "docs/devcontainer.md")),
    Row("dev-shells", RUNS_LATER, "direnv and Nix shell hooks", (".envrc", "shell.nix", "flake.nix"), 1,
        "direnv runs .envrc on entering the folder, and nix-shell, nix develop and direnv's use nix run a "
        "shellHook in the person's own shell, outside Nix's build sandbox (level 1)",
        (".envrc", "shell.nix", "flake.nix", "tools/shell.nix"), ("x.envrc", "default.nix", "shell.nix.md")),
    Row("vscode-tasks", RUNS_LATER, "VS Code tasks", (".vscode/tasks.json",), 1,
        "a task marked runOn folderOpen runs when the folder is opened, and any task at a keystroke (level 1)",
        (".vscode/tasks.json",), (".vscode/settings.json", "tasks.json")),
    Row("js-test-configs", RUNS_LATER, "JavaScript test and build config",
        tuple(f"{stem}.{ext}" for stem in ("jest.config", "vitest.config", "vitest.workspace", "vite.config")
              for ext in ("js", "ts", "mjs", "cjs", "mts", "cts")), 0,
        "jest, vitest and vite run their config as code, and the globalSetup and setup files it names, at every "
        "test run, dev server and build (level 0: editing it is ordinary project work, so only what it plants "
        "is judged: a catastrophic plant is denied)",
        ("jest.config.js", "jest.config.ts", "vitest.config.mjs", "vite.config.ts", "web/vite.config.js"),
        ("jest.setup.js", "vite-env.d.ts", "docs/vite.config.md", "jest.config.json")),
    Row("setup-py", RUNS_LATER, "setup.py", ("setup.py",), 0,
        "pip install ., pip install -e . and every build run setup.py as Python (level 0: editing it is "
        "ordinary project work, so only what it plants is judged: a catastrophic plant is denied)",
        ("setup.py", "packages/core/setup.py"), ("setup.cfg", "setup.py.orig", "src/app/setup_py.py")),
    Row("python-startup", RUNS_LATER, "Python start-up and test hook",
        ("conftest.py", "sitecustomize.py", "usercustomize.py", "*.pth"), 0,
        "pytest imports every conftest.py on its way to the tests, and Python imports sitecustomize.py, "
        "usercustomize.py and runs the import lines of each .pth file in site-packages at every start: code "
        "planted there runs at the next test run or Python start (level 0: editing them is ordinary project "
        "work, so only what it plants is judged: a catastrophic plant is denied)",
        ("conftest.py", "tests/unit/conftest.py", ".venv/lib/python3.11/site-packages/sitecustomize.py",
         "~/.local/lib/python3.11/site-packages/usercustomize.py", ".venv/lib/python3.11/site-packages/x.pth"),
        ("conftest.py.bak", "tests/test_conftest.py", "sitecustomize.txt", "depth.txt")),
    Row("tiltfile", RUNS_LATER, "Tiltfile", ("tiltfile",), 1,
        "tilt up runs its local(), local_resource() and custom_build() commands on this machine, and again on "
        "every change it watches (level 1)",
        ("Tiltfile", "deploy/Tiltfile"), ("Tiltfile.md", "tilt/config.yaml")),
    Row("node-bin", RUNS_LATER, "package executables", ("node_modules/.bin/",), 1,
        "npm, yarn and pnpm scripts and npx run the programs there before any installed one: a file written there "
        "replaces a tool every script calls, and only an install puts files there (level 1)",
        ("node_modules/.bin/jest", "packages/web/node_modules/.bin/vite"),
        ("node_modules/jest/bin/jest.js", "bin/jest")),
    Row("sudo-rules", RUNS_LATER, "sudo rules", ("/etc/sudoers", "/etc/sudoers.d/"), 2,
        "a sudo rule gives root to whoever planted it, for good",
        ("/etc/sudoers", "/etc/sudoers.d/99-user"), ("/etc/sudo.conf",)),
    Row("library-preload", RUNS_LATER, "library preload", ("/etc/ld.so.preload",), 2,
        "a preloaded library runs inside every program started afterwards", ("/etc/ld.so.preload",), ("/etc/ld.so.cache",)),
    Row("accounts", RUNS_LATER, "user accounts", ("/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow"), 2,
        "an account or group added there logs in or gains rights after the session ends",
        ("/etc/passwd", "/etc/group"), ("/etc/passwd.md",)),
    Row("pam", RUNS_LATER, "PAM config", ("/etc/pam.d/",), 2, "PAM decides how every login is checked",
        ("/etc/pam.d/sshd",), ("/etc/pam.conf.md",)),
    Row("library-paths", RUNS_LATER, "library search paths", ("/etc/ld.so.conf", "/etc/ld.so.conf.d/"), 1,
        "it decides where every program finds its libraries", ("/etc/ld.so.conf.d/x.conf",), ("/etc/ld.so.cache",)),
    Row("system-shell-startup", RUNS_LATER, "system shell startup",
        ("/etc/profile", "/etc/profile.d/", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zsh/", "/etc/zshrc", "/etc/environment"), 1,
        "every user's shell runs or reads them at start", ("/etc/profile.d/x.sh", "/etc/bash.bashrc"), ("/etc/hostname",)),
    Row("cron", RUNS_LATER, "scheduled jobs",
        ("/etc/crontab", "/etc/cron.d/", "/etc/cron.hourly/", "/etc/cron.daily/", "/etc/cron.weekly/",
         "/etc/cron.monthly/", "/var/spool/cron/"), 1,
        "cron runs what is there on schedule, as its owner", ("/etc/cron.d/job", "/var/spool/cron/crontabs/root"),
        ("/etc/cron.allow.md",)),
    Row("system-services", RUNS_LATER, "system services",
        ("/etc/systemd/", "/lib/systemd/", "/usr/lib/systemd/", "/etc/init.d/", "/etc/rc.local",
         "/etc/xdg/autostart/", "/library/launchagents/", "/library/launchdaemons/"), 1,
        "services and launch daemons start on their own, often as root",
        ("/etc/systemd/system/x.service", "/etc/init.d/x", "/Library/LaunchDaemons/x.plist"), ("/etc/systemd.md",)),
    Row("sshd-config", RUNS_LATER, "SSH server config", ("/etc/ssh/sshd_config", "/etc/ssh/sshd_config.d/"), 1,
        "sshd config decides who may log in and what runs when they do", ("/etc/ssh/sshd_config",), ("/etc/ssh/ssh_config",)),
    Row("name-resolution", RUNS_LATER, "name resolution", ("/etc/hosts", "/etc/resolv.conf"), 1,
        "it sends every program's traffic for a name somewhere else", ("/etc/hosts",), ("/etc/hostname",)),
    Row("package-sources", RUNS_LATER, "package sources", ("/etc/apt/sources.list", "/etc/apt/sources.list.d/"), 1,
        "the next install or upgrade fetches packages from there", ("/etc/apt/sources.list.d/x.list",), ("/etc/apt/apt.conf.md",)),
    Row("kernel-and-devices", RUNS_LATER, "module and device rules", ("/etc/modules-load.d/", "/etc/udev/rules.d/"), 1,
        "kernel modules load and udev rules run commands at boot or when a device appears",
        ("/etc/udev/rules.d/99-x.rules",), ("/etc/udev/udev.conf",)),
    # ------------------------------------------------------------------ removal targets
    Row("root", REMOVAL, "the root directory", ("/",), 0, "everything on the machine is below it",
        ("/",), ("/tmp/x",)),
    Row("system-directories", REMOVAL, "a system directory",
        ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev", "/etc", "/usr", "/var", "/opt",
         "/srv", "/sys", "/proc", "/media", "/mnt", "/run", "/snap", "/nix", "/home", "/users", "/root",
         "/system", "/library", "/applications", "/volumes", "/private", "/private/etc", "/private/var",
         "/system/volumes/data"), 0,
        "the system's programs, libraries, configuration, mounts, users' homes and data live there",
        ("/etc", "/usr", "/home", "/Users", "/root", "/Library", "/private/etc", "/System/Volumes/Data"),
        ("/usr/share/doc/x", "/etc/motd")),
    Row("system-children", REMOVAL, "a system directory", ("/usr/*",), 0,
        "each folder of /usr is a system one (/bin is /usr/bin on merged-usr systems)",
        ("/usr/lib", "/usr/bin", "/usr/local"), ("/usr/lib/x",)),
    Row("system-subdirectories", RECURSIVE, "a system directory",
        ("/var/lib", "/var/log", "/var/spool", "/var/mail", "/var/www", "/var/cache", "/var/backups", "/nix/store",
         "/etc/*", "/usr/local/*", "/boot/*", "/var/lib/*", "/system/*", "/library/*"), 0,
        "packages' state, logs, mail, sites and every folder of /etc are one recursive delete from gone; a single "
        "file there is ordinary",
        ("/var/lib", "/var/log", "/etc/ssh", "/usr/local/lib", "/var/lib/postgresql", "/nix/store"),
        ("/var/tmp", "/var/lib/x/y")),
    Row("top-level", DELETE_ONLY, "a top-level system directory", ("/*",), 0,
        "whatever sits at the top of the file system is shared by the whole machine (its owner may still hand "
        "it to someone with chown)",
        ("/data", "/anything-at-top", "/.dockerenv"), ("/data/x",)),
    Row("shared-temp", DELETE_ONLY, "the shared temporary directory", ("/tmp",), 0,
        "every program keeps sockets and temporary files in it", ("/tmp",), ("/tmp/build",)),
    Row("homes", DELETE_ONLY, "a user's home directory",
        ("/home/*", "/users/*", "/system/volumes/data/home/*", "/system/volumes/data/users/*"), 0,
        "a home holds someone's files, keys and settings (handing it to its user is administration)",
        ("/home/bob", "/Users/carol"), ("/home/bob/x",)),
    Row("macos-system", DELETE_ONLY, "a macOS system directory", ("/private/*", "/system/volumes/*", "/system/volumes/data/*"), 0,
        "macOS keeps /etc, /var and /tmp under /private, and the data volume's top level under /System/Volumes",
        ("/private/tmp", "/System/Volumes/Preboot", "/System/Volumes/Data/home"), ("/private/tmp/x",)),
    # ------------------------------------------------------------------ scratch space and homes
    Row("temp-directories", TEMP, "shared temporary directory",
        ("/tmp", "/var/tmp", "/private/tmp", "/dev/shm", "/private/var/folders"), 0,
        "temporary files belong to no project: emptying them is not a wipe, writing there leaves the project alone",
        ("/tmp/x", "/var/tmp/build", "/dev/shm/x"), ("/var/lib/x",)),
    Row("scratch", SCRATCH, "scratch space", ("/workspace", "/work", "/build", "/scratch"), 0,
        "build machines and containers keep throw-away trees there: emptying one is routine",
        ("/work/*", "/scratch/*"), ("/opt/*",)),
    Row("session-scratch", SESSION_SCRATCH, "the agent's scratch folder", ("/tmp/claude", "/private/tmp/claude"), 0,
        "Claude Code keeps its sandbox's and tasks' files in /tmp/claude/ (one folder per project below it), and "
        "agents told to keep scratch out of the project use it: what is below it is the agent's own, so globs and "
        "recursive deletes there are as routine as in the workspace (any other temp path: plain files only)",
        ("/tmp/claude/verify.mjs", "/tmp/claude/-home-me-app/tasks/x.output"),
        ("/tmp/claude", "/tmp/claude-other/x", "/tmp/x")),
    Row("homes-live", HOME, "home directories",
        ("/root", "/var/root", "/private/var/root", "/home/*", "/users/*", "/system/volumes/data/home/*",
         "/system/volumes/data/users/*"), 0,
        "~/ rows apply below every home, not only the agent's: a key under another user's home is as secret",
        ("/root/.aws/credentials", "/home/bob/.netrc", "/Users/carol/.ssh/id_rsa"), ("/srv/bob/.aws/credentials",)),
)
