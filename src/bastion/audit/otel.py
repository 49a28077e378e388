"""Decisions as OpenTelemetry log records, for teams that collect every agent's decisions.

Each audit record (already redacted by ``audit.redact``) becomes one OTLP log record
whose attributes say the tool, verdict, layer, risk, rule source, session, workspace and
the command, path or URL. It is switched on by the standard variables
(``OTEL_LOGS_EXPORTER=otlp``, ``OTEL_EXPORTER_OTLP_ENDPOINT``/``_PROTOCOL``/``_HEADERS``,
``OTEL_SERVICE_NAME``) or by ``audit.export`` in the settings, and built on the official
SDK and OTLP exporter (the ``otel`` extra); without them nothing is sent and one warning
line says how to install them.

Nothing here waits on the network while a call is decided: a record goes into the SDK's
batch queue and a background thread sends it. The warm decision server
(``hook.server``, :func:`serve_in_background`) keeps that thread for its lifetime; a
process that decides once and exits (a hook deciding in its own process, ``bastion
check``) sends what is queued when it exits, waiting at most :data:`FLUSH_BOUND`.

Every value is passed to the SDK explicitly, from the environment bastion decided with
(``provenance.trusted_env``: a project cannot point the export elsewhere), never read by
the SDK from the process's own environment (the server's is its first caller's).
"""

from __future__ import annotations

import os
import sys
from _thread import allocate_lock  # what threading.Lock is: threading loads only to export
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .export_switch import (
    section,
    wanted as wanted,  # re-exported: the switch is asked here too
)
from .targets import targets

#: Keys ``audit.export`` understands; anything else is a configuration error.
SETTINGS_KEYS = frozenset({"enabled", "endpoint", "protocol", "serviceName", "timeout", "compression",
                           "resourceAttributes"})
PROTOCOLS = ("http/protobuf", "http/json", "grpc")
COMPRESSIONS = ("none", "gzip")
DEFAULT_ENDPOINTS = {"http": "http://localhost:4318", "grpc": "http://localhost:4317"}
LOGS_PATH = "/v1/logs"
DEFAULT_TIMEOUT = 10.0
DEFAULT_SERVICE = "bastion"
#: The longest a process that decides once waits at exit for its records to be sent
#: (seconds): a collector that is down or far away costs at most this.
FLUSH_BOUND = 1.0
#: How often the warm server's batch thread sends what is queued (milliseconds).
SCHEDULE_DELAY_MS = 500
#: Longest attribute value (the command first): the audit line is capped too.
MAX_VALUE_CHARS = 4096
#: Exporters kept at once (one per destination the callers' environments name).
MAX_PIPELINES = 8
#: What the ``otel`` extra installs.
PACKAGES = ("opentelemetry-sdk", "opentelemetry-exporter-otlp-proto-http")


class ExportError(ValueError):
    """``audit.export`` is wrong; the message is one line naming the setting."""


@dataclass(frozen=True)
class ExportConfig:
    """Where and how decisions are sent; hashable, so one exporter serves one destination."""

    endpoint: str
    protocol: str = "http/protobuf"
    service_name: str = DEFAULT_SERVICE
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    compression: str = "none"
    resource: tuple[tuple[str, str], ...] = ()
    certificate: str = ""
    client_certificate: str = ""
    client_key: str = ""


# --------------------------------------------------------------------------- configuration


def _otlp(env: Mapping[str, str], name: str) -> str:
    """``OTEL_EXPORTER_OTLP_LOGS_<name>``, else ``OTEL_EXPORTER_OTLP_<name>`` (the spec's order)."""
    return (env.get(f"OTEL_EXPORTER_OTLP_LOGS_{name}") or env.get(f"OTEL_EXPORTER_OTLP_{name}") or "").strip()


def _pairs(text: str) -> list[tuple[str, str]]:
    """``k=v,k2=v2`` (``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_RESOURCE_ATTRIBUTES``), URL-decoded."""
    from urllib.parse import unquote

    out = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if sep and key.strip():
            out.append((unquote(key.strip()), unquote(value.strip())))
    return out


def _settings(value: Any) -> dict[str, Any]:
    """``audit.export`` checked: an object of known keys with values of the right type."""
    if not isinstance(value, dict):
        raise ExportError(f"audit.export must be an object, not {type(value).__name__}")
    unknown = sorted(set(value) - SETTINGS_KEYS)
    if unknown:
        raise ExportError(f"audit.export: unknown key {unknown[0]!r} (known: {', '.join(sorted(SETTINGS_KEYS))})")
    for key in ("endpoint", "protocol", "serviceName", "compression"):
        if key in value and not (isinstance(value[key], str) and value[key].strip()):
            raise ExportError(f"audit.export.{key} must be a non-empty string")
    if "enabled" in value and not isinstance(value["enabled"], bool):
        raise ExportError("audit.export.enabled must be true or false")
    timeout = value.get("timeout")
    if timeout is not None and not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
                                    and 0 < timeout <= 60):
        raise ExportError("audit.export.timeout must be a number of seconds above 0 and at most 60")
    attrs = value.get("resourceAttributes")
    if attrs is not None and not (isinstance(attrs, dict) and all(isinstance(k, str) and isinstance(v, str)
                                                                  for k, v in attrs.items())):
        raise ExportError("audit.export.resourceAttributes must be an object of strings")
    return value


def config(policy: Any, env: Mapping[str, str]) -> ExportConfig | None:
    """The export bastion's settings and environment ask for, or None (off).

    ``audit.export`` (an object) switches it on, ``"enabled": false`` off; without it
    ``OTEL_LOGS_EXPORTER`` listing ``otlp`` switches it on. Values in ``audit.export``
    (bastion's own) beat the standard variables (shared by every program)."""
    raw = section(policy)
    settings = _settings(raw) if raw is not None else None
    if settings is not None:
        if settings.get("enabled") is False:
            return None
    elif "otlp" not in {part.strip().lower() for part in env.get("OTEL_LOGS_EXPORTER", "").split(",")}:
        return None
    settings = settings or {}
    protocol = (settings.get("protocol") or _otlp(env, "PROTOCOL") or "http/protobuf").strip().lower()
    if protocol not in PROTOCOLS:
        raise ExportError(f"OTLP protocol {protocol!r} is not one of {', '.join(PROTOCOLS)}")
    family = "grpc" if protocol == "grpc" else "http"
    endpoint = _endpoint(settings.get("endpoint"), env, family)
    compression = (settings.get("compression") or _otlp(env, "COMPRESSION") or "none").strip().lower()
    if compression not in COMPRESSIONS:
        raise ExportError(f"OTLP compression {compression!r} is not one of {', '.join(COMPRESSIONS)}")
    resource = dict(_pairs(env.get("OTEL_RESOURCE_ATTRIBUTES", "")))
    resource.update(settings.get("resourceAttributes") or {})
    service = settings.get("serviceName") or env.get("OTEL_SERVICE_NAME", "").strip() or resource.get(
        "service.name") or DEFAULT_SERVICE
    resource["service.name"] = service
    return ExportConfig(
        endpoint=endpoint, protocol=protocol, service_name=service,
        headers=tuple(_pairs(_otlp(env, "HEADERS"))),
        timeout=float(settings.get("timeout") or _timeout(env)),
        compression=compression,
        resource=tuple(sorted(resource.items())),
        certificate=_otlp(env, "CERTIFICATE"),
        client_certificate=_otlp(env, "CLIENT_CERTIFICATE"),
        client_key=_otlp(env, "CLIENT_KEY"),
    )


def _endpoint(configured: Any, env: Mapping[str, str], family: str) -> str:
    """The URL records go to: a base URL (settings, ``OTEL_EXPORTER_OTLP_ENDPOINT``) gets
    ``/v1/logs`` over HTTP; ``OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`` is taken as it is."""
    signal = (env.get("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT") or "").strip()
    base = (configured or "").strip() or ("" if signal else (env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or "").strip())
    if not base and signal:
        url = signal
    else:
        url = base or DEFAULT_ENDPOINTS[family]
        if family == "http" and not url.rstrip("/").endswith(LOGS_PATH):
            url = url.rstrip("/") + LOGS_PATH
    if not url.startswith(("http://", "https://")):
        raise ExportError(f"OTLP endpoint {url!r} must start with http:// or https://")
    return url


def _timeout(env: Mapping[str, str]) -> float:
    """``OTEL_EXPORTER_OTLP_(LOGS_)TIMEOUT`` in milliseconds, as the specification says."""
    raw = _otlp(env, "TIMEOUT")
    try:
        millis = float(raw) if raw else DEFAULT_TIMEOUT * 1000
    except ValueError:
        return DEFAULT_TIMEOUT
    return min(max(millis / 1000, 0.05), 60.0) if millis > 0 else DEFAULT_TIMEOUT


# --------------------------------------------------------------------------- one record


def _value(text: str) -> str:
    from .redact import shorten

    return shorten(text, MAX_VALUE_CHARS) if len(text) > MAX_VALUE_CHARS else text


def attributes(record: Mapping[str, Any], workspace: str = "") -> dict[str, Any]:
    """The log record's attributes, from an audit record (already redacted)."""
    out: dict[str, Any] = {
        "bastion.tool": str(record.get("tool") or ""),
        "bastion.verdict": str(record.get("decision") or ""),
        "bastion.layer": str(record.get("layer") or ""),
        "bastion.risk": str(record.get("risk") or ""),
        "bastion.rule_source": str(record.get("source") or ""),
        "bastion.agent": str(record.get("agent") or ""),
        "bastion.workspace": workspace or str(record.get("cwd") or ""),
        "bastion.cwd": str(record.get("cwd") or ""),
        "bastion.reason": _value(record.get("reason") or ""),
        "bastion.input_digest": str(record.get("input_digest") or ""),
        "session.id": str(record.get("session") or ""),
    }
    for kind, text in targets(record.get("input")).items():
        out[f"bastion.{kind}"] = _value(text)
    for flag in ("interrupt", "fail_closed"):
        if record.get(flag):
            out[f"bastion.{flag}"] = True
    return {key: value for key, value in out.items() if value != ""}


def _severity(verdict: str) -> tuple[Any, str]:
    from opentelemetry._logs import SeverityNumber

    if verdict == "deny":
        return SeverityNumber.WARN, "WARN"
    if verdict in ("error", "none"):
        return SeverityNumber.ERROR, "ERROR"
    return SeverityNumber.INFO, "INFO"


# --------------------------------------------------------------------------- pipelines

_LOCK = allocate_lock()
_PIPELINES: dict[ExportConfig, _Pipeline] = {}
_WARNED: set[str] = set()
_STATE: dict[str, Any] = {"background": False, "exit_hook": False}


def serve_in_background() -> None:
    """This process is the warm decision server: records are sent by the batch thread
    while it runs; its own ``OTEL_*`` variables (its first caller's) are dropped, so
    only each call's own environment says where that call's record goes."""
    _STATE["background"] = True
    for name in [name for name in os.environ if name.startswith("OTEL_")]:
        os.environ.pop(name, None)


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        print(f"bastion: warning: {message}", file=sys.stderr)


def missing_packages_message() -> str:
    return (f"decisions are not exported to OpenTelemetry: the SDK is not installed "
            f"({sys.executable} -m pip install {' '.join(PACKAGES)}, or bastion's 'otel' extra)")


class _Pipeline:
    """One destination: a logger provider, a batch processor and an OTLP exporter."""

    def __init__(self, cfg: ExportConfig, background: bool) -> None:
        import logging

        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
        from opentelemetry.sdk.resources import Resource

        self.cfg = cfg
        if "failures" not in _STATE:
            _STATE["failures"] = _failure_handler()
            logging.getLogger("opentelemetry").addHandler(_STATE["failures"])
        timeout = cfg.timeout if background else min(cfg.timeout, FLUSH_BOUND)
        exporter = _exporter(cfg, timeout)
        self.provider = LoggerProvider(resource=Resource(dict(cfg.resource)), shutdown_on_exit=False)
        self.provider.add_log_record_processor(BatchLogRecordProcessor(
            exporter, schedule_delay_millis=SCHEDULE_DELAY_MS, max_export_batch_size=512,
            export_timeout_millis=timeout * 1000, max_queue_size=2048))
        version = getattr(sys.modules.get("bastion"), "__version__", "")  # the package is loaded: no import cycle
        self.logger = self.provider.get_logger("bastion", version)

    def emit(self, record: Mapping[str, Any], workspace: str) -> None:
        import time

        verdict = str(record.get("decision") or "")
        number, text = _severity(verdict)
        attrs = attributes(record, workspace)
        body = f"{verdict} {attrs.get('bastion.tool', '?')}: {attrs.get('bastion.reason', '')}"
        self.logger.emit(timestamp=time.time_ns(), severity_number=number, severity_text=text, body=body,
                         attributes=attrs, event_name="bastion.decision")

    def flush(self, seconds: float) -> bool:
        """Send what is queued, waiting at most ``seconds``; True when it finished."""
        import threading

        worker = threading.Thread(target=self.provider.force_flush, name="bastion-otel-flush", daemon=True)
        worker.start()
        worker.join(seconds)
        return not worker.is_alive()


def _exporter(cfg: ExportConfig, timeout: float) -> Any:
    headers = dict(cfg.headers)
    if cfg.protocol == "grpc":  # its own package (opentelemetry-exporter-otlp-proto-grpc), not in the extra
        from importlib import import_module

        grpc = import_module("opentelemetry.exporter.otlp.proto.grpc._log_exporter")
        gzip = cfg.compression == "gzip"
        compression = import_module("opentelemetry.exporter.otlp.proto.grpc").Compression
        return grpc.OTLPLogExporter(endpoint=cfg.endpoint, insecure=cfg.endpoint.startswith("http://"),
                                    headers=headers, timeout=timeout,
                                    compression=compression.Gzip if gzip else compression.NoCompression)
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter

    return OTLPLogExporter(
        endpoint=cfg.endpoint, headers=headers, timeout=timeout,
        compression=Compression.Gzip if cfg.compression == "gzip" else Compression.NoCompression,
        certificate_file=cfg.certificate or None, client_certificate_file=cfg.client_certificate or None,
        client_key_file=cfg.client_key or None,
    )


def _failure_handler() -> Any:
    """A ``logging`` handler keeping the SDK's export errors, to report in one line (and
    in place of Python's fallback that would print each to stderr)."""
    import logging

    class Failures(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.ERROR)
            self.messages: list[str] = []

        def emit(self, entry: logging.LogRecord) -> None:
            if len(self.messages) < 8:
                self.messages.append((entry.getMessage().splitlines() or [""])[0])

    return Failures()


def _pipeline(cfg: ExportConfig) -> _Pipeline | None:
    with _LOCK:
        pipeline = _PIPELINES.get(cfg)
        if pipeline is not None:
            return pipeline
        try:
            pipeline = _Pipeline(cfg, _STATE["background"])
        except ImportError as exc:
            grpc = cfg.protocol == "grpc" and "grpc" in str(exc)
            _warn_once("decisions are not exported over OTLP/gRPC: install opentelemetry-exporter-otlp-proto-grpc"
                       if grpc else missing_packages_message())
            return None
        if len(_PIPELINES) >= MAX_PIPELINES:  # the oldest destination is flushed and dropped
            oldest = _PIPELINES.pop(next(iter(_PIPELINES)))
            import threading

            threading.Thread(target=oldest.provider.shutdown, daemon=True).start()
        _PIPELINES[cfg] = pipeline
        if not _STATE["exit_hook"]:
            import atexit

            atexit.register(flush_all)
            _STATE["exit_hook"] = True
        return pipeline


def flush_all(seconds: float | None = None) -> bool:
    """Send every queued record, waiting at most ``seconds`` in all (default: the
    :data:`FLUSH_BOUND` of a one-shot process, the exporters' timeout in the server).
    Export failures are reported in one stderr line per destination. True when done."""
    import time

    with _LOCK:
        pipelines = list(_PIPELINES.values())
    if seconds is None:
        seconds = max((p.cfg.timeout for p in pipelines), default=0.0) if _STATE["background"] else FLUSH_BOUND
    end = time.monotonic() + seconds
    done = True
    for pipeline in pipelines:
        done = pipeline.flush(max(0.0, end - time.monotonic())) and done
    failures = _STATE.get("failures")
    if failures is not None and failures.messages:
        where = ", ".join(p.cfg.endpoint for p in pipelines)
        _warn_once(f"cannot export decisions to {where}: {failures.messages[-1]}")
        failures.messages.clear()
    return done


def export(record: Mapping[str, Any], policy: Any, env: Mapping[str, str], *, workspace: str = "") -> None:
    """Queue one audit record for export when the settings or environment ask for it.
    Never raises and never waits on the network: a failure is one warning line."""
    try:
        cfg = config(policy, env)
        if cfg is None:
            return
        pipeline = _pipeline(cfg)
        if pipeline is not None:
            pipeline.emit(record, workspace or str(getattr(policy, "project_root", "") or ""))
    except ExportError as exc:
        _warn_once(str(exc))
    except Exception as exc:  # noqa: BLE001 - exporting must never change or break a decision
        _warn_once(f"cannot export the decision to OpenTelemetry: {type(exc).__name__}: {exc}")
