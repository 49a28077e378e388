"""Secret redaction for everything bastion writes down (the audit log, the reviewer's prompt).

One table, ``FORMS``: each row is one shape of secret, with why it is one, the pattern,
and examples. In a ``match`` example the secret is marked ``«…»``: redaction must turn
exactly that part into ``[REDACTED]`` and keep the rest (``curl -u admin:[REDACTED]``,
``sk_live_[REDACTED]``), so the log still says what was done. ``not_match`` examples
must come out unchanged. The tests are generated from these rows; there is no other list.

A pattern's named groups starting with ``s`` hold the secret; everything else the
pattern matches is context and stays. Patterns compile on first use, and only the write
path calls this module: deciding a call never needs it.
"""

from __future__ import annotations

from _collections_abc import Mapping  # collections.abc's classes, loaded with os

from ..precompiled import pattern as precompiled_pattern, regex
from ..shell.syntax.lazyre import LazyPattern
from ..std_lite import cache, lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

REDACTED = "[REDACTED]"

#: Words that make a name (a variable, key, flag or header) name a secret. ``pass`` and
#: ``auth`` only as whole parts of the name (``DB_PASS``, ``_auth``; not ``BYPASS``,
#: ``author``); ``tokens``/``tokenizer`` are counts and code, not credentials.
SECRET_WORD = (
    r"(?:password|passwd|passphrase|(?<![a-z])pass(?![a-z])|secret|token(?!s(?![a-z])|iz)"
    r"|api[_-]?key|access[_-]?key|private[_-]?key|(?<![a-z])auth(?![a-z]))"
)
#: A name holding a secret word; names ending like these hold where the secret is, or
#: something about it (``PASSWORD_FILE``, ``SECRET_NAME``, ``MAX_TOKEN_LENGTH``), not the secret.
_NAME_END = "".join(f"(?<!{end})" for end in ("file", "path", "dir", "url", "uri", "name", "type", "count", "size",
                                               "length", "len", "limit", "id", "ids", "env"))
#: (The word is found by a lookahead and the name then taken whole, possessively: a
#: long word holding many secret words costs one pass, not one per occurrence.)
SECRET_NAME = rf"(?=[A-Za-z_])(?=[\w.-]*?{SECRET_WORD})[\w.-]++{_NAME_END}"
#: A whole value that only refers to a secret kept elsewhere: ``$TOKEN``, ``${DB_PASSWORD}``.
_REFERENCE = r"\$\{?\w+\}?"
_REFERENCE_PATTERN = LazyPattern(_REFERENCE)
#: A shell word as a value: quoted (the quotes are part of the secret) or bare, never a
#: ``$VAR``/``$(…)`` reference or the next option.
_SHELL_VALUE = r"'[^'\n]*'|\"[^\"\n]*\"|(?![$<-])[^\s'\"]+"
#: Commands whose ``-u user:password`` / ``-a`` carry credentials.
_HTTP_CLIENTS = r"(?:curl|wget|xh|https?(?=\s))"


def _then(name: str) -> str:
    """The rest of the same command up to ``name``'s next option, at most 400 characters,
    never past another ``name`` (so each character is scanned once, not once per word)."""
    return rf"\b{name}\b(?:(?!\b{name}\b)[^\n|;&]){{0,400}}?"


class SecretForm:
    """One shape of secret: what it is, why it is one, how to find it, and examples (a
    plain class: cheaper to define at import than a dataclass, and every decision that is
    logged imports this module)."""

    __slots__ = ("name", "why", "pattern", "match", "not_match", "hints", "flags")

    def __init__(self, name: str, why: str, pattern: str, match: tuple[str, ...], not_match: tuple[str, ...] = (),
                 hints: tuple[str, ...] = (), flags: int = 0) -> None:
        self.name = name
        self.why = why
        self.pattern = pattern
        self.match = match
        self.not_match = not_match
        #: Lower-case strings of which one must occur for the pattern to be worth running.
        self.hints = hints
        self.flags = flags

    def __repr__(self) -> str:
        return f"SecretForm({self.name!r})"


FORMS: tuple[SecretForm, ...] = (
    # ------------------------------------------------------------------ provider tokens
    SecretForm(
        "private_key_block",
        "a PEM/OpenSSH/PGP private key is the credential itself; the BEGIN/END lines say what it was",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?=(?:\s|\\n)*[A-Za-z0-9+/=:,\\ -]{16})"
        r"(?P<s>[\s\S]*?)(?=-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        match=(
            "-----BEGIN RSA PRIVATE KEY-----«\nMIIEowIBAAKCAQEAx1Yz0abc\nQWERTYUIOPASDFGH=\n»-----END RSA PRIVATE KEY-----",
            ("printf '-----BEGIN OPENSSH PRIVATE KEY-----«\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\\n»"
             "-----END OPENSSH PRIVATE KEY-----' > k"),
            "-----BEGIN PRIVATE KEY-----«\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC (cut off here»",
        ),
        not_match=("grep -rl -- '-----BEGIN OPENSSH PRIVATE KEY-----' ~/.ssh", "ssh-keygen -t ed25519 -f key"),
        hints=("private key",),
    ),
    SecretForm(
        "jwt",
        "a signed JSON Web Token is a bearer credential until it expires; the header names only the algorithm",
        r"\beyJ[A-Za-z0-9_-]{8,}\.(?P<s>eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)",
        match=("jwt decode eyJhbGciOiJIUzI1NiJ9.«eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U»",),
        not_match=("echo eyJhbGciOiJIUzI1NiJ9 | base64 -d",),
        hints=("eyj",),
    ),
    SecretForm(
        "anthropic_key",
        "an Anthropic API key (sk-ant-…) spends the owner's money",
        r"\bsk-ant-(?P<s>[A-Za-z0-9_-]{20,})",
        match=("printf %s sk-ant-«api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345» > key.txt",),
        hints=("sk-ant-",),
    ),
    SecretForm(
        "openai_key",
        "an OpenAI API key (sk-…, sk-proj-…) spends the owner's money",
        r"\bsk-(?!ant-)(?:(?:proj|svcacct|admin)-)?(?=[A-Za-z0-9_-]{0,200}\d)(?P<s>[A-Za-z0-9_-]{20,})",
        match=(
            "openai api models.list -k sk-«abcdEFGH1234ijklMNOP5678qrst»",
            "echo sk-proj-«Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0» | pbcopy",
        ),
        not_match=("pip install scikit-learn  # sk-learn-tutorials", "task-runner-2024-configuration"),
        hints=("sk-",),
    ),
    SecretForm(
        "stripe_key",
        "a Stripe secret or restricted key (sk_live_, rk_live_, sk_test_) moves money or reads customers",
        r"\b(?:sk|rk)_(?:live|test)_(?=[0-9A-Za-z]{0,200}\d)(?P<s>[0-9A-Za-z]{16,})",
        match=(
            "curl https://api.stripe.com/v1/charges -u sk_live_«51HxYz2eZvKYlo2C0aBcDeFgHiJ»:",
            "curl https://api.stripe.com/v1/charges -d key=rk_live_«4eC39HqLyjWDarjtT1zdp7dc»",
            "export STRIPE=sk_test_«4eC39HqLyjWDarjtT1zdp7dc»",
        ),
        not_match=("def sk_test_helpers_for_billing(): pass", "risk_live_feed_enabled = True", "mask_test_value"),
        hints=("_live_", "_test_"),
    ),
    SecretForm(
        "github_token",
        "a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_, github_pat_) acts as its owner on every repository it reaches",
        r"\b(?:gh[pousr]_|github_pat_)(?P<s>[A-Za-z0-9_]{20,})",
        match=(
            "git push https://ghp_«aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789»@github.com/o/r",
            "gh auth login --with-token <<< github_pat_«11ABCDEFG0123456789_abcdefghijklmnop»",
            "GH=gho_«16C7e42F292c6912E7710c838347Ae178B4a»",
        ),
        not_match=("ghp_ is the prefix of a personal access token",),
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    SecretForm(
        "gitlab_token",
        "a GitLab personal access token (glpat-) acts as its owner",
        r"\bglpat-(?P<s>[A-Za-z0-9_-]{20,})",
        match=("echo glpat-«xxxxXXXX1234yyyyZZZZ» | glab auth login --stdin",),
        hints=("glpat-",),
    ),
    SecretForm(
        "slack_token",
        "a Slack token (xoxb-, xoxp-, xoxa-, xoxr-…) posts and reads as the workspace's bot or user",
        r"\bxox[abprse]-(?P<s>[A-Za-z0-9-]{10,})",
        match=("python notify.py --channel ops xoxb-«123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx»",),
        not_match=("the xoxb- prefix marks bot tokens",),
        hints=("xox",),
    ),
    SecretForm(
        "slack_webhook",
        "a Slack incoming-webhook URL lets anyone post into the channel",
        r"hooks\.slack\.com/services/(?P<s>T[A-Za-z0-9_/]{8,})",
        match=("curl -X POST https://hooks.slack.com/services/«T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX» -d @m.json",),
        hints=("hooks.slack.com",),
    ),
    SecretForm(
        "huggingface_token",
        "a Hugging Face token (hf_…) reads private models and can push to the owner's repositories",
        r"\bhf_(?P<s>[A-Za-z0-9]{30,})",
        match=("python -c \"from huggingface_hub import login; login('hf_«AbCdEfGhIjKlMnOpQrStUvWxYz01234567»')\"",),
        not_match=("from huggingface_hub import hf_hub_download",),
        hints=("hf_",),
    ),
    SecretForm(
        "npm_token",
        "an npm access token (npm_…) publishes packages as its owner",
        r"\bnpm_(?P<s>[A-Za-z0-9]{36})\b",
        match=("npm config set //registry.npmjs.org/:_authToken npm_«aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789»",),
        not_match=("echo $npm_config_registry", "npm_package_version=1.2.3 node x.js"),
        hints=("npm_",),
    ),
    SecretForm(
        "pypi_token",
        "a PyPI API token (pypi-AgE…) uploads releases as its owner",
        r"\bpypi-(?P<s>AgE[A-Za-z0-9_-]{20,})",
        match=("twine upload -u __token__ -p pypi-«AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3A» dist/*",),
        hints=("pypi-",),
    ),
    SecretForm(
        "sendgrid_key",
        "a SendGrid API key (SG.….…) sends mail as the account",
        r"\bSG\.(?P<s>[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})",
        match=("SENDGRID=SG.«ngeVfQFYQlKU0ufo8x5d1A.TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr»",),
        hints=("sg.",),
    ),
    SecretForm(
        "aws_access_key_id",
        "an AWS access key id names the key pair; with the secret beside it, it is the whole credential",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)(?P<s>[0-9A-Z]{16})\b",
        match=("aws configure set aws_access_key_id AKIA«IOSFODNN7EXAMPLE»",),
        not_match=("ASIAN_MARKETS=1 ./report",),
        hints=("akia", "asia", "abia", "acca"),
    ),
    SecretForm(
        "aws_secret_access_key",
        "an AWS secret access key signs requests as the account (env, ~/.aws/credentials, aws configure set)",
        r"(?i)\baws_?secret_?access_?key[\"']?\s*(?:[:=]\s*|\s+)[\"']?(?P<s>[A-Za-z0-9/+]{30,}={0,2})",
        match=(
            "aws configure set aws_secret_access_key «wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY»",
            "aws_secret_access_key = «wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY»",
            "export AWS_SECRET_ACCESS_KEY=«wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY»",
        ),
        not_match=("aws configure get aws_secret_access_key",),
        hints=("secret_access_key", "secretaccesskey"),
    ),
    SecretForm(
        "google_api_key",
        "a Google API key (AIza…) bills the project it belongs to",
        r"\bAIza(?P<s>[0-9A-Za-z_-]{35})",
        match=("curl 'https://maps.googleapis.com/maps/api/geocode/json?key=AIza«SyD-abcdefghijklmnopqrstuvwxyz12345»'",),
        hints=("aiza",),
    ),
    # ------------------------------------------------------------------ URLs and headers
    SecretForm(
        "url_credentials",
        "user:password@ in a URL (git remotes, DATABASE_URL, redis://, mongodb+srv://) is a login in clear",
        r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s/:@'\"]*:(?P<s>(?!\$)[^\s/'\"]+)@",
        match=(
            "psql postgres://app:«s3cret»@db.internal/app",
            "export DATABASE_URL=postgres://u:«p»@h/db",
            "DATABASE_URL='mysql://root:«hunter2»@localhost:3306/app' ./manage.py migrate",
            "mongosh 'mongodb+srv://admin:«p@ss»@cluster0.example.net/test'",
            "redis-cli -u redis://:«pw123»@localhost:6379",
            "git clone https://oauth2:«tok3n»@gitlab.example.com/group/repo.git",
        ),
        not_match=(
            "git clone git@github.com:org/repo.git",
            "curl https://example.com:8443/path@v2",
            "git clone ssh://git@host:22/repo.git",
            "psql postgres://app:$DB_PASSWORD@db/app",
        ),
        hints=("://",),
    ),
    SecretForm(
        "http_client_user",
        "curl/wget/httpie -u user:password sends a login with every request",
        rf"{_then(_HTTP_CLIENTS)}\s(?:-u|--user|--proxy-user|-U|-a|--auth)(?:=|\s*)[\"']?[^\s:'\"]*:"
        r"(?P<s>(?!\$)[^\s'\"]+)",
        match=(
            "curl -u admin:«pass» https://api.example.com",
            "curl -s --user 'deploy:«s3cr3t»' https://x.example.com",
            "curl -uadmin:«pw» https://x.example.com",
            "http -a bob:«hunter2» GET https://api.example.com",
        ),
        not_match=("curl -u \"$USER:$TOKEN\" https://api.example.com", "curl -u admin: https://x.example.com",
                   "docker run -u 1000:1000 alpine id"),
        hints=("curl", "wget", "http", "xh"),
    ),
    SecretForm(
        "authorization_header",
        "an Authorization header (Bearer, Basic, token…) is the request's credential; the scheme stays",
        r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|digest|bot|negotiate|apikey)\s+)?+"
        r"(?P<s>(?!\$)[^\s'\"]+)",
        match=(
            "curl -H 'Authorization: Bearer «abc.def.ghi123»' https://api.example.com",
            "curl -H \"Authorization: Basic «YWRtaW46cGFzcw==»\" https://x.example.com",
            "git -c http.extraHeader='AUTHORIZATION: basic «dXNlcjpwYXNz»' clone https://x/r.git",
            "requests.get(url, headers={\"Authorization\": \"token «0123abcd»\"})",
        ),
        not_match=("curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com",
                   "grep -n authorization src/app.py"),
        hints=("authorization",),
    ),
    SecretForm(
        "bearer_token",
        "a bearer token outside an Authorization header (custom headers, websocket clients)",
        r"(?i)\bbearer\s+(?P<s>(?!\$)[A-Za-z0-9._~+/-]{16,}=*)",
        match=("wscat -c wss://x.example.com -H 'X-Session: Bearer «abcdefghijklmnop1234»'",),
        not_match=("the bearer of this token is trusted",),
        hints=("bearer",),
    ),
    SecretForm(
        "secret_header",
        "API-key style headers (X-API-Key, X-Auth-Token, PRIVATE-TOKEN) carry the credential in clear",
        r"(?i)(?<![\w-])(?:x-(?=[\w-]*?(?:api-?key|token|secret|auth))[\w-]++|api-?key|private-token)[\"']?\s*:\s*[\"']?"
        r"(?P<s>(?!\$)[^\s'\"]+)",
        match=(
            "curl -H 'X-API-Key: «abc123def456»' https://api.example.com",
            "curl --header 'PRIVATE-TOKEN: «zzTopSecret99»' https://gitlab.example.com/api/v4/projects",
        ),
        not_match=("curl -H 'X-API-Key: $KEY' https://api.example.com", "curl -H 'Accept: application/json' https://x"),
        hints=("key", "token", "secret", "auth"),
    ),
    SecretForm(
        "cookie_header",
        "a Cookie header usually carries a session: whoever has it is logged in",
        r"(?i)\b(?:set-)?cookie[\"']?\s*:\s*[\"']?(?P<s>[^'\"\n]+)",
        match=(
            "curl -H 'Cookie: «session=abc123; theme=dark»' https://x.example.com",
            "requests.get(url, headers={\"Cookie\": \"«sid=9f8e7d6c»\"})",
        ),
        not_match=("echo 'the cookie jar is empty'", "curl -c cookies.txt https://x.example.com"),
        hints=("cookie",),
    ),
    SecretForm(
        "http_client_cookie",
        "curl -b/--cookie name=value sends a session cookie (a file name after -b is a cookie jar, not a secret)",
        rf"{_then('curl')}\s(?:-b|--cookie)(?:=|\s+)"
        r"(?:'(?P<s>[^'\n]*=[^'\n]*)'|\"(?P<s2>[^\"\n]*=[^\"\n]*)\"|(?P<s3>[^\s'\"]*=[^\s'\"]*))",
        match=("curl -b '«session=abc123»' https://x.example.com", "curl --cookie «sid=9f8e7d» https://x.example.com"),
        not_match=("curl -b cookies.txt https://x.example.com", "curl -c jar.txt -b jar.txt https://x.example.com"),
        hints=("curl",),
    ),
    # ------------------------------------------------------------------ command-line options
    SecretForm(
        "mysql_password_option",
        "mysql -pSECRET (attached) is the password; -p alone or '-p dbname' prompts and holds none",
        rf"{_then('(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mysqlsh|mariadb|mariadb-dump)')}"
        r"\s-p(?P<s>'[^']*'|\"[^\"]*\"|[^\s'\"]+)",
        match=("mysql -u root -p«Secret123» app", "mysqldump -uroot -p«'s3 cret'» db > dump.sql"),
        not_match=("mysql -u root -p app", "mysql -p", "mysql --port 3306 -h db app", "git log -p"),
        hints=("mysql", "mariadb"),
    ),
    SecretForm(
        "registry_login_password",
        "docker/podman/helm … login -p PASSWORD puts the registry password on the command line",
        rf"{_then('(?:docker|podman|buildah|skopeo|helm|nerdctl|oras|crane|regctl)')}\blogin\b"
        rf"(?:(?!\blogin\b)[^\n|;&]){{0,400}}?\s(?:-p|--password)(?:=|\s+)(?P<s>{_SHELL_VALUE})",
        match=(
            "docker login -u bob -p «hunter2» registry.example.com",
            "helm registry login r.example.io --username u --password «pw»",
        ),
        not_match=("docker login -u bob --password-stdin registry.example.com < pw.txt", "docker login registry.example.com"),
        hints=("login",),
    ),
    SecretForm(
        "tool_password_option",
        "tools whose short option is a password: sshpass -p, redis-cli -a",
        rf"(?:\bsshpass\s+-p|{_then('redis-cli')}\s-a)\s*(?P<s>{_SHELL_VALUE})",
        match=("sshpass -p «hunter2» ssh deploy@host", "redis-cli -h cache -a «s3cret» ping"),
        not_match=("sshpass -f pw.txt ssh host", "redis-cli -h cache ping"),
        hints=("sshpass", "redis-cli"),
    ),
    SecretForm(
        "secret_option",
        "--password=…, --token …, --api-key … and the like carry the secret itself; --password-file and "
        "--password-stdin name where it is, --no-password turns it off",
        r"(?i)(?<![\w-])--(?!no-)(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|secret|token|api-?key|access-key"
        rf"|secret-key|client-secret|auth-token)(?:=|\s+)(?P<s>{_SHELL_VALUE})",
        match=(
            "mysql --password=«hunter2» app",
            "wget --user=bob --password «pw» https://x.example.com/f",
            "vault login --token=«hvs.CAESIJ0123»",
            "az login --service-principal -u id --client-secret «abc~123» --tenant t",
        ),
        not_match=(
            "docker login --password-stdin",
            "rsync --password-file=x host::mod .",
            "psql --no-password -d app",
            "gh auth login --with-token < token.txt",
            "mysql --password",
            "app --token=$TOKEN",
        ),
        hints=("pass", "secret", "token", "key"),
    ),
    SecretForm(
        "netrc_password",
        "a .netrc line (machine … login … password …) is a stored login",
        r"(?i)\bmachine\s+\S+(?:(?!\bmachine\b)[^\n]){0,400}?\bpassword\s+(?P<s>[^\s'\"\\]+)",
        match=("printf 'machine api.example.com login bob password «hunter2»\\n' >> ~/.netrc",),
        hints=("machine",),
    ),
    # ------------------------------------------------------------------ name = value, any syntax
    SecretForm(
        "secret_assignment",
        "NAME=value where the name says secret (shell and .env assignments, npmrc _authToken, --from-literal); "
        "$VAR and $(…) only refer to a secret, and an identifier passed on in code (api_key=api_key) is not one",
        rf"(?i)(?<![\w$.-]){SECRET_NAME}=(?:'(?P<s>(?!\$)[^'\n]+)'|\"(?P<s2>(?![$`])(?:[^\"\\\n]|\\.)+)\""
        r"|(?P<s3>(?![$(`'\"])(?![A-Za-z_][\w.]*[,)])[^\s'\";&|)]+))",
        match=(
            "export GITHUB_TOKEN=«abc123»",
            "PGPASSWORD=«hunter2» psql -h db app",
            "DB_PASS='«p@ss word»' ./run.sh",
            "//registry.npmjs.org/:_authToken=«abc-def-123»",
            "kubectl create secret generic db --from-literal=password=«hunter2»",
            "spring.datasource.password=«s3cret»",
            "export OPENAI_API_KEY=«sk-xxxxxxxxxxxxxxxxxxxxxxxxxxx»",
        ),
        not_match=(
            "TOKENIZERS_PARALLELISM=false python train.py",
            "MAX_TOKENS=4096 ./run",
            "PASSWORD_FILE=/run/secrets/db ./start",
            "echo $GITHUB_TOKEN",
            "GITHUB_TOKEN=$(gh auth token) make release",
            "export API_KEY=\"$VAULT_KEY\"",
            "SECRET_NAME=db-creds kubectl apply -f x.yaml",
            "BYPASS_CACHE=1 make",
            "client = Client(api_key=api_key)",
        ),
        hints=("pass", "secret", "token", "key", "auth"),
    ),
    SecretForm(
        "secret_quoted_value",
        "a quoted string under a secret name in JSON, YAML, TOML, Python, JS, Ruby or PHP "
        "('password': …, api_key = \"…\", :token => '…'); ${VAR} placeholders are not secrets",
        rf"(?i)(?<![\w$.-])[\"']?{SECRET_NAME}[\"']?\]?\s*(?::=|=>|:|=)\s*"
        r"(?:'(?P<s>(?!\$\{?\w+\}?')(?:[^'\\\n]|\\.)+)'|\"(?P<s2>(?!\$\{?\w+\}?\")(?:[^\"\\\n]|\\.)+)\")",
        match=(
            "{'password': '«hunter2»', 'user': 'bob'}",
            "{\"api_key\": \"«abc-123»\", \"region\": \"eu\"}",
            "client_secret = \"«s3cr3t»\"",
            "password: \"«hunter2»\"",
            "$config['db_password'] = '«x9»';",
            "os.environ[\"API_TOKEN\"] = \"«abc»\"",
            "conn = connect(password=\"«pa\\\"ss»\")",
        ),
        not_match=(
            "password = getpass.getpass()",
            "token = os.environ[\"GITHUB_TOKEN\"]",
            "{\"password\": \"${DB_PASSWORD}\"}",
            "{\"max_tokens\": \"4096\"}",
        ),
        hints=("pass", "secret", "token", "key", "auth"),
    ),
    SecretForm(
        "secret_bare_value",
        "an unquoted value under a secret name at the start of a line (YAML, INI, TOML, .properties, .env "
        "with spaces); code (calls, attributes, type hints), references and booleans are not secrets",
        rf"(?im)^[ \t]*(?:-[ \t]+)?[\"']?{SECRET_NAME}[\"']?[ \t]*[:=][ \t]*"
        r"(?P<s>(?![\"'$&*|>{\[(!=]|(?:true|false|yes|no|null|none|~)[ \t]*(?:#|$))"
        r"(?![^\n#]*[(\[\"'])(?![A-Za-z_]\w*(?:\.\w+)+[ \t]*(?:#|$))(?!(?:str|bytes|int|Optional|SecretStr)\b)"
        r"[^\s#][^\n#]*?)[ \t]*(?:#[^\n]*)?$",
        match=(
            "password: «hunter2»",
            "[db]\ndb_password = «hunter2»\nhost = x",
            "  client_secret: «abc123» # prod",
            "DB_PASSWORD = «s3cret»",
        ),
        not_match=(
            "password = getpass.getpass()",
            "secret = settings.SECRET_KEY",
            "pass_filenames: false",
            "token: ${{ secrets.GITHUB_TOKEN }}",
            "password_file: /run/secrets/db",
            "    token: str",
            "if token == expected:",
        ),
        hints=("pass", "secret", "token", "key", "auth"),
    ),
)


@cache
def compiled(form: SecretForm) -> tuple[re.Pattern[str], Any]:
    """A row's pattern and the function that hides its secret groups, compiled the first
    time a text holds one of the row's hints (most records need few rows, or none)."""
    pattern = precompiled_pattern(form.pattern, form.flags)  # the table's own text: kept, built without re
    groups = tuple(name for name in pattern.groupindex if name.startswith("s"))

    def hide(match: re.Match[str]) -> str:
        text, start = match.group(0), match.start()
        spans = sorted(match.span(g) for g in groups if match.group(g))
        out, at = [], 0
        for begin, end in spans:
            out.append(text[at:begin - start])
            out.append(REDACTED)
            at = end - start
        out.append(text[at:])
        return "".join(out)

    return pattern, hide


@lru_cache(maxsize=256)
def _short(text: str) -> str:
    return _redact_text(text)


def _redact_text(text: str) -> str:
    lowered = text.lower()
    for form in FORMS:
        if form.hints and not any(hint in lowered for hint in form.hints):
            continue
        pattern, hide = compiled(form)
        text = pattern.sub(hide, text)
        if REDACTED in text:
            lowered = text.lower()
    return text


def redact_text(text: str) -> str:
    """``text`` with every secret the table knows replaced by ``[REDACTED]``."""
    if len(text) < 8:
        return text
    return _short(text) if len(text) <= 200 else _redact_text(text)


_KEY: re.Pattern[str] | None = None
#: How deep ``redact`` follows nested values; deeper ones are replaced whole.
MAX_DEPTH = 64
TOO_DEEP = "[nested too deep]"
#: ``…[truncated N bytes]``: what ``shorten`` leaves where it cut.
_MARK = regex(r"…\[truncated (\d+) bytes\]\Z")


@lru_cache(maxsize=512)
def secret_key(key: str) -> bool:
    """Whether a field name says its value is a secret (``api_key``, ``password``…)."""
    global _KEY
    if _KEY is None:
        _KEY = precompiled_pattern(rf"(?i)[\"']?{SECRET_NAME}[\"']?")
    return _KEY.fullmatch(key) is not None


def shorten(text: str, keep: int) -> str:
    """The first ``keep`` characters of ``text`` and a visible ``…[truncated N bytes]``
    (N counts UTF-8 bytes, including any earlier cut of the same text)."""
    earlier = 0
    mark = _MARK.search(text)
    if mark:
        earlier, text = int(mark.group(1)), text[:mark.start()]
    if keep >= len(text):
        return text + (f"…[truncated {earlier} bytes]" if earlier else "")
    dropped = len(text[keep:].encode("utf-8", "surrogatepass"))
    return f"{text[:keep]}…[truncated {earlier + dropped} bytes]"


def redact(value: Any, *, clip: int | None = None, _depth: int = 0) -> Any:
    """A copy of ``value`` safe to write down: every string redacted (keys too), strings
    under secret-named keys replaced whole, non-finite numbers as strings (strict JSON
    has none), nesting deeper than ``MAX_DEPTH`` replaced. ``clip`` cuts longer strings
    first (with a marker), which bounds what redaction costs on huge inputs."""
    kind = type(value)
    if kind is str:
        return redact_text(shorten(value, clip) if clip is not None and len(value) > clip else value)
    if kind is bool or value is None:
        return value
    if kind is int:
        return value if value.bit_length() <= 256 else f"[an integer of {value.bit_length()} bits]"  # str() would raise
    if kind is float:
        import math  # floats are rare in a tool call: not loaded for every decision

        if math.isnan(value):
            return "NaN"
        return value if not math.isinf(value) else ("Infinity" if value > 0 else "-Infinity")
    if _depth >= MAX_DEPTH:
        return TOO_DEEP
    if kind is dict or isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            key = key if type(key) is str else str(key)
            if type(item) is str and item and secret_key(key) and not _REFERENCE_PATTERN.fullmatch(item):
                out[redact(key, clip=clip)] = REDACTED
            else:
                out[redact(key, clip=clip)] = redact(item, clip=clip, _depth=_depth + 1)
        return out
    if kind is list or kind is tuple:
        return [redact(item, clip=clip, _depth=_depth + 1) for item in value]
    for plain in (str, int, float):  # subclasses (enums…) as their plain value
        if isinstance(value, plain):
            return redact(plain(value), clip=clip)
    return redact(str(value), clip=clip)

