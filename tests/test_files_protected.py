"""The file checks' readings of the path table (bastion.paths.table), through
bastion.files.protected: every entry, its case variants, its neighbours."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.files import protected as P
from bastion.files.protected import (
    ProtectionConfig,
    credential_reason,
    protected_reason,
    removal_reason,
    secret_file_reason,
    sensitive_reason,
)
from bastion.paths import table as T
from bastion.paths.match import home_stores, protected_names

HOME = "/home/alice"
FOLDERS, FILES = protected_names()


def _patterns(*kinds: str) -> list[str]:
    return [p for row in T.ROWS if row.kind in kinds for p in row.patterns]


#: Credential stores anchored at a home (``~/x``), as home-relative paths.
HOME_STORES = sorted(p[2:].rstrip("/") for p in _patterns(T.CREDENTIAL) if p.startswith("~/"))
#: Credential file names and folders that count anywhere (no glob).
CREDENTIAL_NAMES = sorted(p for p in _patterns(T.CREDENTIAL) if "/" not in p and not any(c in p for c in "*?["))
CREDENTIAL_FOLDERS = sorted(p.rstrip("/") for p in _patterns(T.CREDENTIAL) if p.endswith("/") and "/" not in p[:-1]
                            and not p.startswith(("~", "/")))
PROJ = "/srv/work/proj"
NO_OWN = ProtectionConfig(own_paths=())


def variants(text: str) -> list[str]:
    """The text as written, upper-cased, and with alternating case."""
    alt = "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(text))
    return list(dict.fromkeys([text, text.upper(), alt]))


def prot(path: str, **kw: object) -> str | None:
    return protected_reason(path, home=HOME, config=kw.pop("config", NO_OWN), **kw)  # type: ignore[arg-type]


def cred(path: str, **kw: object) -> str | None:
    return credential_reason(path, home=HOME, config=kw.pop("config", NO_OWN), **kw)  # type: ignore[arg-type]


def sens(path: str, config: ProtectionConfig = NO_OWN) -> str | None:
    return sensitive_reason(path, home=HOME, config=config)


# --------------------------------------------------------------------------- dangerous files


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_dangerous_file_is_protected_in_any_case(name: str) -> None:
    for spelled in variants(name):
        for where in (PROJ, HOME, f"{PROJ}/sub/dir"):
            reason = prot(f"{where}/{spelled}")
            assert reason and name in reason


@pytest.mark.parametrize("name", sorted(FILES))
def test_dangerous_file_lookalikes_are_not_protected(name: str) -> None:
    assert prot(f"{PROJ}/{name}.bak") is None
    assert prot(f"{PROJ}/x{name}") is None


# --------------------------------------------------------------------------- dangerous directories


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_every_dangerous_directory_is_protected_at_any_depth(name: str) -> None:
    for spelled in variants(name):
        for path in (f"{PROJ}/{spelled}", f"{PROJ}/{spelled}/config", f"{PROJ}/a/{spelled}/b/c.txt", f"{HOME}/{spelled}/x"):
            reason = prot(path)
            assert reason and name in reason, path


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_dangerous_directory_lookalikes_are_not_protected(name: str) -> None:
    assert prot(f"{PROJ}/{name}x/file") is None
    assert prot(f"{PROJ}/x{name}/file") is None


@pytest.mark.parametrize(
    "rel, expected",
    [
        (".GiT/HoOkS/pre-commit", ".git"),
        (".cLauDe/Settings.locaL.json", ".claude"),
        (".github/workflows/ci.yml", None),
        (".gitignore", None),
        (".gitattributes", None),
        ("src/app.py", None),
        ("git/config", None),
        (".claude/worktrees/agent-1/src/app.py", None),  # structural: where agents keep worktrees
        (".claude/worktrees", None),
        (".claude/worktrees/agent-1/.git", ".git"),
        (".claude/worktrees/agent-1/.claude/settings.json", ".claude"),
        (".claude/settings.json", ".claude"),
        (".claude/skills/tool/handler.ts", ".claude"),
        ("worktrees/.claude/x", ".claude"),
    ],
)
def test_protected_examples(rel: str, expected: str | None) -> None:
    reason = prot(f"{PROJ}/{rel}")
    assert (reason is None) if expected is None else (reason is not None and expected in reason)


# --------------------------------------------------------------------------- bastion's own files


OWN = ProtectionConfig(own_paths=("/home/alice/.config/bastion", "/home/alice/.local/state/bastion", "/etc/bastion/managed-settings.json"))


@pytest.mark.parametrize(
    "path, deleting, expected",
    [
        ("/home/alice/.config/bastion/settings.json", False, True),
        ("/home/alice/.config/bastion", False, True),
        ("/HOME/Alice/.Config/Bastion/settings.json", False, True),
        ("/home/alice/.local/state/bastion/grants.json", False, True),
        ("/home/alice/.local/state/bastion/audit/2026.jsonl", True, True),
        ("/etc/bastion/managed-settings.json", False, True),
        ("/home/alice/.config/bastionx/a", False, False),
        ("/home/alice/.config/other.json", False, False),
        ("/home/alice/.config", False, False),  # writing a parent is not writing our files …
        ("/home/alice/.config", True, True),  # … but deleting it deletes them
        ("/home/alice/.local", True, True),
        ("/home/alice/.cache", True, False),
    ],
)
def test_own_files_are_protected(path: str, deleting: bool, expected: bool) -> None:
    assert (prot(path, config=OWN, deleting=deleting) is not None) is expected


def test_own_paths_come_from_state_dirs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    real_cfg = tmp_path / "real-config"
    real_cfg.mkdir()
    home.mkdir()
    os.symlink(real_cfg, home / "cfg-link")  # config dir reached through a symlink
    env = {
        "HOME": str(home),
        "BASTION_CONFIG_DIR": str(home / "cfg-link"),
        "XDG_STATE_HOME": str(home / "state"),
        "BASTION_MANAGED_SETTINGS": str(tmp_path / "managed.json"),
    }
    cfg = ProtectionConfig.from_settings(None, env=env)
    real = os.path.realpath
    assert cfg.own_paths is not None
    assert real(real_cfg) in cfg.own_paths
    assert real(home) + "/state/bastion" in cfg.own_paths
    assert real(tmp_path) + "/managed.json" in cfg.own_paths
    assert protected_reason(real(real_cfg) + "/settings.json", home=str(home), config=cfg)
    assert protected_reason(real(home) + "/state/bastion/grants.json", home=str(home), config=cfg)
    assert protected_reason(real(tmp_path) + "/managed.json", home=str(home), config=cfg)
    assert protected_reason(real(tmp_path) + "/other.json", home=str(home), config=cfg) is None


def test_default_own_paths_follow_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASTION_CONFIG_DIR", str(tmp_path / "cfg"))
    P._own_paths_from_environ.cache_clear()
    try:
        assert protected_reason(os.path.realpath(tmp_path) + "/cfg/settings.json", home=HOME)
    finally:
        P._own_paths_from_environ.cache_clear()


# --------------------------------------------------------------------------- credential stores


def _title(rel: str) -> str:
    return "/".join(part.title() if not part.startswith(".") else part for part in rel.split("/"))


@pytest.mark.parametrize("rel", sorted(rel for rel, _folder, _row in home_stores()))
def test_every_home_credential_store_in_every_home(rel: str) -> None:
    folder = any(f == rel and is_folder for f, is_folder, _row in home_stores())
    for home in (HOME, "/root", "/home/bob", "/Users/carol", "/var/root"):
        for spelled in variants(rel) + [_title(rel)]:
            assert cred(f"{home}/{spelled}"), f"{home}/{spelled}"
            if folder:
                assert cred(f"{home}/{spelled}/inner/file"), f"{home}/{spelled}/inner/file"


@pytest.mark.parametrize("rel", HOME_STORES)
def test_home_credential_store_names_elsewhere(rel: str) -> None:
    """Outside a home the path is not a store — unless a name or folder in it is a credential anywhere."""
    parts = rel.split("/")
    anywhere = parts[-1] in CREDENTIAL_NAMES or any(p in CREDENTIAL_FOLDERS for p in parts)
    for base in (f"{PROJ}", f"{HOME}/proj"):
        assert (cred(f"{base}/{rel}") is not None) is anywhere, f"{base}/{rel}"
    in_folder_store = any(rel.startswith(f + "/") for f, is_folder, _row in home_stores() if is_folder)
    assert cred(f"{HOME}/{rel}x") is None or anywhere or in_folder_store


@pytest.mark.parametrize("name", CREDENTIAL_NAMES)
def test_credential_names_anywhere(name: str) -> None:
    for spelled in variants(name):
        assert cred(f"/var/lib/ci/{spelled}")
    assert cred(f"/var/lib/ci/{name}.pub") is None


@pytest.mark.parametrize("name", CREDENTIAL_FOLDERS)
def test_credential_folders_anywhere(name: str) -> None:
    for spelled in variants(name):
        assert cred(f"/var/lib/jenkins/{spelled}/authorized_keys")
        assert cred(f"/var/lib/jenkins/{spelled}")


SYSTEM_EXAMPLES = {
    "/etc/shadow": ["/etc/shadow", "/ETC/Shadow", "/private/etc/shadow"],
    "/etc/shadow-": ["/etc/shadow-"],
    "/etc/gshadow": ["/etc/gshadow"],
    "/etc/gshadow-": ["/etc/gshadow-"],
    "/etc/master.passwd": ["/etc/master.passwd", "/private/etc/master.passwd"],
    "/etc/security/opasswd": ["/etc/security/opasswd"],
    "/etc/sudoers": ["/etc/sudoers", "/private/etc/sudoers"],
    "/etc/sudoers.d": ["/etc/sudoers.d", "/etc/sudoers.d/90-cloud-init"],
    "/etc/ssh/ssh_host_*_key": ["/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/SSH_HOST_RSA_KEY"],
    "/proc/*/environ": ["/proc/1/environ", "/proc/self/environ", "/PROC/4242/ENVIRON"],
    "/proc/*/task/*/environ": ["/proc/1/task/7/environ"],
}


def test_system_examples_cover_the_old_globs() -> None:
    """Every system secret of the old list is still a row pattern."""
    assert set(SYSTEM_EXAMPLES) - {"/etc/sudoers.d"} <= set(_patterns(T.CREDENTIAL))


@pytest.mark.parametrize("path", [p for paths in SYSTEM_EXAMPLES.values() for p in paths])
def test_system_credentials(path: str) -> None:
    assert cred(path)


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "/etc/shadowx",
        "/etc/ssh/ssh_host_ed25519_key.pub",
        "/etc/ssh/sshd_config",
        "/proc/1/cmdline",
        "/proc/1/task/7/status",
        "/srv/proj/etc/shadow",
        f"{HOME}/proj/src/app.py",
        f"{HOME}/.bashrc",
        f"{HOME}/.config/fish/config.fish",
        f"{HOME}/.ssh.bak",
        f"{HOME}/.docker/daemon.json",
    ],
)
def test_not_credentials(path: str) -> None:
    assert cred(path) is None


@pytest.mark.parametrize(
    "path, expected",
    [
        (f"{HOME}/.config", True),  # holds gcloud, gh, browser profiles
        (f"{HOME}/.docker", True),
        (f"{HOME}/.local/share", True),
        (f"{HOME}/Library", True),
        (f"{HOME}/.cache", False),
        (f"{HOME}/proj", False),
    ],
)
def test_deleting_a_folder_that_holds_a_store(path: str, expected: bool) -> None:
    assert (cred(path, deleting=True) is not None) is expected
    if path.endswith((".cache", "proj")):
        return
    assert cred(path) is None  # reading or writing the folder itself is not reading a store


# --------------------------------------------------------------------------- sensitive write targets

SENSITIVE_EXAMPLES = {
    ".env": ".env",
    ".env.*": ".env.local",
    "*credentials*": "aws_credentials.json",
    "*secret*": "client_secret.json",
    "*.pem": "server.pem",
    "*.key": "tls.key",
    "*.p12": "cert.p12",
    "*.pfx": "cert.pfx",
    "*.jks": "store.jks",
    "*.keystore": "release.keystore",
    "id_rsa*": "id_rsa_work",
    "id_dsa*": "id_dsa",
    "id_ecdsa*": "id_ecdsa_sk",
    "id_ed25519*": "id_ed25519",
    ".htpasswd": ".htpasswd",
    ".netrc": ".netrc",
    ".pypirc": ".pypirc",
    ".pgpass": ".pgpass",
    ".git-credentials": ".git-credentials",
}


def test_sensitive_examples_are_rows() -> None:
    assert set(SENSITIVE_EXAMPLES) <= set(_patterns(T.SECRET, T.SENSITIVE, T.CREDENTIAL))


@pytest.mark.parametrize("glob, name", sorted(SENSITIVE_EXAMPLES.items()))
def test_sensitive_names(glob: str, name: str) -> None:
    for spelled in variants(name):
        assert sens(f"{PROJ}/config/{spelled}"), spelled


@pytest.mark.parametrize(
    "rel, expected",
    [
        (".ssh/config", True),
        (".SSH/authorized_keys", True),
        ("deploy/.ssh/known_hosts", True),
        (".env.example", False),
        (".env.sample", False),
        (".ENV.Template", False),
        (".env.dist", False),
        (".envx", False),
        ("env.py", False),
        ("environment.ts", False),
        ("keys.py", False),
        ("monkey.py", False),
        ("src/app.py", False),
        ("README.md", False),
        ("ssh/config", False),
    ],
)
def test_sensitive_neighbours(rel: str, expected: bool) -> None:
    assert (sens(f"{PROJ}/{rel}") is not None) is expected


# --------------------------------------------------------------------------- secret files (read)


@pytest.mark.parametrize(
    "name, expected",
    [
        (".env", True),
        (".ENV", True),
        (".env.local", True),
        (".Env.Production", True),
        (".envrc", True),
        (".env.example", False),
        (".env.sample", False),
        (".env.template", False),
        (".env.dist", False),
        ("env", False),
        (".environment", False),
        ("app.env.py", False),
    ],
)
def test_secret_files(name: str, expected: bool) -> None:
    assert (secret_file_reason(f"{PROJ}/{name}") is not None) is expected


def test_secret_file_rows_are_names() -> None:
    """Secret-file rows name files anywhere: ``secret_file_reason`` needs no home."""
    assert {".env", ".env.*", ".envrc"} <= set(_patterns(T.SECRET))
    assert not [p for p in _patterns(T.SECRET) if p.startswith(("~", "/"))]


# --------------------------------------------------------------------------- removal targets

ROOTS = (PROJ, "/opt/shared/extra")


def rem(path: str, home: str = HOME, roots: tuple[str, ...] = ROOTS) -> str | None:
    return removal_reason(path, home=home, roots=roots)


@pytest.mark.parametrize("target", sorted(p for p in _patterns(T.REMOVAL, T.DELETE_ONLY) if "*" not in p))
def test_every_named_removal_target(target: str) -> None:
    for spelled in variants(target):
        assert rem(spelled), spelled
        assert rem(spelled.rstrip("/") + "/"), spelled


@pytest.mark.parametrize(
    "parent, child",
    [
        ("/", "/anything-at-top"),
        ("/usr", "/usr/bin"),
        ("/usr", "/usr/lib"),
        ("/private", "/private/tmp"),
        ("/system/volumes", "/System/Volumes/Preboot"),
        ("/system/volumes/data", "/System/Volumes/Data/home"),
        ("/home", "/home/bob"),
        ("/users", "/Users/carol"),
    ],
)
def test_children_of_removal_parents(parent: str, child: str) -> None:
    assert (parent.rstrip("/") + "/*") in _patterns(T.REMOVAL, T.DELETE_ONLY)
    assert rem(child)


def test_removal_parent_table_is_covered() -> None:
    covered = {"/", "/usr", "/private", "/system/volumes", "/system/volumes/data", "/home", "/users"}
    parents = {p[:-2] or "/" for p in _patterns(T.REMOVAL, T.DELETE_ONLY) if p.endswith("/*")}
    assert covered <= parents


@pytest.mark.parametrize(
    "path, home, expected",
    [
        (HOME, HOME, "home directory"),
        ("/HOME/ALICE", HOME, "home directory"),
        ("/Users/me", "/Users/Me", "home directory"),
        ("/data/users", "/data/users/alice", "contains your home"),
        ("/data", "/data/users/alice", "contains your home"),
        (PROJ, HOME, "workspace root"),
        ("/opt/shared/extra", HOME, "workspace root"),
        ("/srv/work", HOME, "contains the workspace"),
        ("/mnt", HOME, "system directory"),
        ("/anything-at-top", HOME, "top-level"),
    ],
)
def test_home_and_workspace_roots(path: str, home: str, expected: str) -> None:
    reason = rem(path, home=home)
    assert reason and expected in reason


@pytest.mark.parametrize(
    "path",
    [
        "/tmp/x",
        "/tmp/build/out",
        "/etc/nginx/sites-enabled/default",
        "/usr/local/bin/tool",
        "/var/log/app.log",
        "/home/alice/project/build",
        f"{HOME}/.cache",
        f"{PROJ}/build",
        f"{PROJ}/src/app.py",
        "/opt/shared/extra/sub",
        "/private/tmp/x",
    ],
)
def test_inside_removal_targets_is_not_a_target(path: str) -> None:
    assert rem(path) is None


# --------------------------------------------------------------------------- settings extension


def test_from_settings_reads_the_three_lists() -> None:
    cfg = ProtectionConfig.from_settings({"protected": [".husky"], "credentials": ["~/x"], "sensitive": [" *.tfstate ", ""]})
    assert cfg.protected == (".husky",) and cfg.credentials == ("~/x",) and cfg.sensitive == ("*.tfstate",)
    assert cfg.own_paths is None
    assert ProtectionConfig.from_settings(None) == ProtectionConfig()


@pytest.mark.parametrize(
    "section, message",
    [
        ({"protected": ".husky"}, "files.protected must be a list"),
        ({"credentials": [1]}, "files.credentials must be a list"),
        ({"sensitive": {"a": 1}}, "files.sensitive must be a list"),
        ({"protect": []}, "unknown key 'protect'"),
        (["x"], "files must be an object"),
    ],
)
def test_from_settings_rejects_bad_input(section: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ProtectionConfig.from_settings(section)  # type: ignore[arg-type]


EXTRA = ProtectionConfig(
    protected=(".husky", ".github/workflows", "~/.config/fish/config.fish", "/srv/policy/**", "[ab]*.lock"),
    credentials=("~/.config/rclone/rclone.conf", "/srv/vault", "*.kdbx"),
    sensitive=("*.tfstate", "config/master.key", "a*b"),
    own_paths=(),
)


@pytest.mark.parametrize(
    "path, expected",
    [
        (f"{PROJ}/.husky/pre-commit", True),
        (f"{PROJ}/.HUSKY", True),
        (f"{PROJ}/.github/workflows/ci.yml", True),
        (f"{PROJ}/.github/dependabot.yml", False),
        (f"{HOME}/.config/fish/config.fish", True),
        (f"{PROJ}/.config/fish/config.fish", False),  # ~/ anchors at the home directory
        ("/srv/policy/a/b.json", True),
        ("/srv/policy", False),  # `/**` names what is below, not the folder itself
        (f"{PROJ}/a.lock", True),
        (f"{PROJ}/c.lock", False),
    ],
)
def test_extended_protected(path: str, expected: bool) -> None:
    assert (protected_reason(path, home=HOME, config=EXTRA) is not None) is expected


@pytest.mark.parametrize(
    "path, expected",
    [
        (f"{HOME}/.config/rclone/rclone.conf", True),
        ("/srv/vault", True),
        ("/srv/vault/token", True),
        ("/srv/vaultx", False),
        (f"{PROJ}/db.KDBX", True),
    ],
)
def test_extended_credentials(path: str, expected: bool) -> None:
    assert (credential_reason(path, home=HOME, config=EXTRA) is not None) is expected


@pytest.mark.parametrize(
    "path, expected",
    [
        (f"{PROJ}/infra/prod.tfstate", True),
        (f"{PROJ}/config/master.key", True),
        (f"{PROJ}/config/master.txt", False),
        (f"{PROJ}/ab", True),
        (f"{PROJ}/axxb/file", True),
        (f"{PROJ}/a/x/b", False),  # * stays within one component
    ],
)
def test_extended_sensitive(path: str, expected: bool) -> None:
    assert (sensitive_reason(path, home=HOME, config=EXTRA) is not None) is expected


def test_odd_patterns_do_not_break_matching() -> None:
    cfg = ProtectionConfig(protected=("~", "[", "(((", "\\", "é/ü"), own_paths=())
    assert protected_reason(f"{HOME}/anything", home=HOME, config=cfg)
    assert protected_reason(f"{PROJ}/[/x", home=HOME, config=cfg)
    assert protected_reason(f"{PROJ}/\\", home=HOME, config=cfg)
    assert protected_reason(f"{PROJ}/(((", home=HOME, config=cfg)
    assert protected_reason(f"{PROJ}/É/Ü/x", home=HOME, config=cfg)
    assert protected_reason(f"{PROJ}/src/app.py", home=HOME, config=cfg) is None
    # `~` without a home names nothing
    assert protected_reason("/x", home="", config=ProtectionConfig(protected=("~",), own_paths=())) is None
