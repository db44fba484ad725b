"""Cloud maintenance and preemption notices, turned into nonstop's planned stop.

A cloud says, through the instance's metadata service, that it is about to take the machine
away: a spot or preemptible instance reclaimed, a host's maintenance. `nonstop run` watches
that, as it watches Slurm's SIGUSR1, and a notice takes the same path: every rank checkpoints
at the next agreed step, the job stops with exit 75 (requeue) and resumes where it saved, no
step trained twice (nonstop.supervisor.planned_stop).

    nonstop run --cloud-notices auto ...     # default: find the cloud, quietly none on-prem
    nonstop run --cloud-notices aws ...      # gcp | aws | azure: that provider only
    nonstop run --cloud-notices off ...

What each provider documents, and what is read:

- GCP (header `Metadata-Flavor: Google`, which the server echoes): `instance/preempted`
  (`TRUE` about 30 s before a Spot/preemptible VM stops) and `instance/maintenance-event`
  (`NONE`, or `TERMINATE_ON_HOST_MAINTENANCE` ahead of a maintenance that stops the VM, as for
  every VM with GPUs; `MIGRATE_ON_HOST_MAINTENANCE`, a live migration, is logged, not a stop).
- AWS (IMDSv2: a token from `PUT /latest/api/token`, then `X-aws-ec2-metadata-token`):
  `meta-data/spot/instance-action` (404 until a Spot interruption, then
  `{"action": "terminate", "time": "2026-12-02T15:00:00Z"}`, two minutes ahead) and
  `meta-data/events/maintenance/scheduled` (a JSON list; an `active` event whose `NotBefore`
  is within LEAD_S).
- Azure (header `Metadata: true`): `/metadata/scheduledevents?api-version=2020-07-01`, a JSON
  document of `Events`; `Preempt` and `Terminate` stop at once, `Reboot` and `Redeploy` when
  started or within LEAD_S, `Freeze` (a pause of seconds) is logged only. Events for other VMs
  of the same availability set are skipped when this VM's name is known.

`auto` probes the three at once, each request within PROBE_TIMEOUT_S, in the watcher's own
thread: the agent never waits on it, and a machine on no cloud costs one short probe. A bad
answer (garbage, a 500, no answer within REQUEST_TIMEOUT_S) is logged once per kind and never a
notice. `NONSTOP_CLOUD_METADATA_URL` replaces the base address (http://169.254.169.254, which
all three serve) for tests and proxies; the paths and headers stay the provider's.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from nonstop import envvars, log

PROVIDERS = ("gcp", "aws", "azure")
CHOICES = ("auto", *PROVIDERS, "off")
DEFAULT_BASE = "http://169.254.169.254"  # GCP (metadata.google.internal), AWS and Azure alike
PROBE_TIMEOUT_S = 1.0
"""Each request of `auto`'s detection (a link-local address answers in milliseconds)."""
REQUEST_TIMEOUT_S = 2.0
"""Each request while polling; a slower answer is a bad answer."""
POLL_S = 2.0
"""Between polls (AWS recommends 5 s for its 2-minute notice; GCP gives 30 s for a preemption)."""
LEAD_S = 900.0
"""A scheduled maintenance (AWS, Azure Reboot/Redeploy) stops the job this long before it."""
MAX_BODY = 1 << 16
AZURE_API = "api-version=2020-07-01"
GCP_HEADERS = {"Metadata-Flavor": "Google"}
AZURE_HEADERS = {"Metadata": "true"}
AWS_TTL = {"X-aws-ec2-metadata-token-ttl-seconds": "21600"}

_log = log.get("supervisor")


class BadAnswer(Exception):
    """The endpoint answered, but not as its provider documents (garbage, a 5xx, a timeout)."""


@dataclass(frozen=True)
class Notice:
    """The cloud is about to stop this machine."""

    provider: str
    kind: str
    """preempted, maintenance, spot-terminate, spot-stop, system-reboot, Preempt, Reboot..."""
    detail: str
    """The endpoint's own words (a value, or the event's JSON)."""
    seconds_left: float | None = None
    """Until the provider acts, when it says (None: not said)."""

    @property
    def reason(self) -> str:
        left = f", {self.seconds_left:.0f} s left" if self.seconds_left is not None else ""
        return f"{self.provider} notice: {self.kind} ({self.detail[:200]}{left})"


# -- one request ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]


def request(url: str, *, headers: dict[str, str], timeout_s: float, method: str = "GET") -> Answer:
    """One HTTP request, any status an Answer; BadAnswer when nothing came within timeout_s
    (refused, unreachable, slow). No proxy: a metadata address is never proxied."""
    req = urllib.request.Request(url, headers=headers, method=method)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(req, timeout=timeout_s) as r:
            return Answer(r.status, r.read(MAX_BODY), {k.lower(): v for k, v in r.headers.items()})
    except urllib.error.HTTPError as e:
        with contextlib.closing(e):
            body = e.read(MAX_BODY) if e.fp is not None else b""
        return Answer(e.code, body, {k.lower(): v for k, v in (e.headers or {}).items()})
    except (OSError, http.client.HTTPException, ValueError) as e:
        raise BadAnswer(f"{url}: no answer ({type(e).__name__}: {e})") from None


def _text(a: Answer, url: str) -> str:
    if a.status >= 500 or a.status not in (200, 404):
        raise BadAnswer(f"{url}: HTTP {a.status}")
    try:
        return a.body.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise BadAnswer(f"{url}: not text") from None


def _json(a: Answer, url: str) -> Any:
    text = _text(a, url)
    try:
        return json.loads(text)
    except ValueError:
        raise BadAnswer(f"{url}: not JSON: {text[:80]!r}") from None


def _seconds_until(when: str, now: float) -> float | None:
    """Seconds from `now` (epoch) to a provider's timestamp: ISO 8601 (AWS spot) or RFC 1123
    (Azure, AWS scheduled events: "21 Jan 2019 09:00:43 GMT"); None when unreadable."""
    when = when.strip()
    if not when:
        return None
    with contextlib.suppress(ValueError):
        t = datetime.fromisoformat(when.replace("Z", "+00:00"))
        return (t if t.tzinfo else t.replace(tzinfo=UTC)).timestamp() - now
    with contextlib.suppress(TypeError, ValueError, IndexError):
        return email.utils.parsedate_to_datetime(when).timestamp() - now
    with contextlib.suppress(ValueError):
        return datetime.strptime(when, "%d %b %Y %H:%M:%S %Z").replace(tzinfo=UTC).timestamp() - now
    return None


# -- the providers ----------------------------------------------------------------------------


class Provider:
    """One cloud's endpoints: `detect` (is this that cloud?) and `poll` (a notice, or None)."""

    name = ""

    def __init__(self, base: str, timeout_s: float, wall: Callable[[], float] = time.time):
        self.base = base.rstrip("/")
        self.timeout_s = timeout_s
        self.wall = wall
        self._said: set[str] = set()

    def say_once(self, what: str) -> None:
        """Log an announcement that is not a stop once, not at every poll."""
        if what not in self._said:
            self._said.add(what)
            _log.info(f"{self.name}: {what}")

    def detect(self, timeout_s: float) -> bool:
        raise NotImplementedError

    def poll(self) -> Notice | None:
        raise NotImplementedError


class Gcp(Provider):
    name = "gcp"
    MIGRATE = "MIGRATE_ON_HOST_MAINTENANCE"

    def _get(self, key: str, timeout_s: float | None = None) -> tuple[Answer, str]:
        url = f"{self.base}/computeMetadata/v1/instance/{key}"
        return request(url, headers=GCP_HEADERS, timeout_s=timeout_s or self.timeout_s), url

    def detect(self, timeout_s: float) -> bool:
        a, _ = self._get("", timeout_s)
        return a.status == 200 and a.headers.get("metadata-flavor") == "Google"

    def poll(self) -> Notice | None:
        a, url = self._get("preempted")
        value = _text(a, url)
        if value not in ("TRUE", "FALSE"):
            raise BadAnswer(f"{url}: {value[:80]!r} is neither TRUE nor FALSE")
        if value == "TRUE":
            return Notice(self.name, "preempted", f"instance/preempted={value}", 30.0)
        a, url = self._get("maintenance-event")
        value = _text(a, url)
        if not re.fullmatch(r"[A-Z][A-Z_]*", value):
            raise BadAnswer(f"{url}: {value[:80]!r} is not a maintenance event")
        if value in ("NONE", self.MIGRATE):
            if value == self.MIGRATE:
                self.say_once("a live migration is announced; training goes on through it")
            return None
        return Notice(self.name, "maintenance", f"instance/maintenance-event={value}")


class Aws(Provider):
    name = "aws"
    token: str | None = None

    def _token(self, timeout_s: float) -> str:
        url = f"{self.base}/latest/api/token"
        a = request(url, headers=AWS_TTL, timeout_s=timeout_s, method="PUT")
        token = _text(a, url) if a.status == 200 else ""
        if not token or len(token) > 4096 or any(c.isspace() for c in token):
            raise BadAnswer(f"{url}: HTTP {a.status}, no IMDSv2 token")
        return token

    def _get(self, path: str) -> tuple[Answer, str]:
        url = f"{self.base}/latest/meta-data/{path}"
        for _ in range(2):
            if self.token is None:
                self.token = self._token(self.timeout_s)
            hdr = {"X-aws-ec2-metadata-token": self.token}
            a = request(url, headers=hdr, timeout_s=self.timeout_s)
            if a.status != 401:
                return a, url
            self.token = None  # expired: one more token
        raise BadAnswer(f"{url}: HTTP 401 with a fresh token")

    def detect(self, timeout_s: float) -> bool:
        self.token = self._token(timeout_s)
        return True

    def poll(self) -> Notice | None:
        now = self.wall()
        a, url = self._get("spot/instance-action")
        if a.status == 200:
            body = _json(a, url)
            if not isinstance(body, dict) or not isinstance(body.get("action"), str):
                raise BadAnswer(f"{url}: no action in {str(body)[:80]!r}")
            left = _seconds_until(str(body.get("time", "")), now)
            return Notice(self.name, f"spot-{body['action']}", json.dumps(body), left)
        _text(a, url)  # 404: no interruption; anything else is a bad answer
        a, url = self._get("events/maintenance/scheduled")
        if a.status == 404:
            return None
        events = _json(a, url) if _text(a, url) else []
        if not isinstance(events, list):
            raise BadAnswer(f"{url}: not a list of events: {str(events)[:80]!r}")
        for e in events:
            if not isinstance(e, dict):
                raise BadAnswer(f"{url}: not an event: {str(e)[:80]!r}")
            if str(e.get("State", "active")) != "active":
                continue  # completed or canceled
            left = _seconds_until(str(e.get("NotBefore", "")), now)
            if left is None or left <= LEAD_S:
                return Notice(self.name, str(e.get("Code", "scheduled")), json.dumps(e), left)
        return None


class Azure(Provider):
    name = "azure"
    STOP_NOW = ("Preempt", "Terminate")
    SCHEDULED = ("Reboot", "Redeploy")
    vm_name: str | None = None

    def _events(self, timeout_s: float) -> tuple[Any, str]:
        url = f"{self.base}/metadata/scheduledevents?{AZURE_API}"
        a = request(url, headers=AZURE_HEADERS, timeout_s=timeout_s)
        if a.status != 200:
            raise BadAnswer(f"{url}: HTTP {a.status}")
        doc = _json(a, url)
        if not isinstance(doc, dict) or not isinstance(doc.get("Events"), list):
            raise BadAnswer(f"{url}: no Events list in {str(doc)[:80]!r}")
        return doc, url

    def detect(self, timeout_s: float) -> bool:
        self._events(timeout_s)
        with contextlib.suppress(BadAnswer):  # events of other VMs are skipped when known
            url = f"{self.base}/metadata/instance/compute/name?api-version=2021-02-01&format=text"
            a = request(url, headers=AZURE_HEADERS, timeout_s=timeout_s)
            if a.status == 200 and (name := _text(a, url)):
                self.vm_name = name
        return True

    def poll(self) -> Notice | None:
        now = self.wall()
        doc, url = self._events(self.timeout_s)
        for e in doc["Events"]:
            if not isinstance(e, dict):
                raise BadAnswer(f"{url}: not an event: {str(e)[:80]!r}")
            kind = str(e.get("EventType", ""))
            resources = e.get("Resources") or []
            named = bool(self.vm_name and isinstance(resources, list) and resources)
            if named and self.vm_name not in resources:
                continue  # another VM of the availability set
            left = _seconds_until(str(e.get("NotBefore", "")), now)
            started = e.get("EventStatus") == "Started"
            if kind in self.STOP_NOW or (
                kind in self.SCHEDULED and (started or left is None or left <= LEAD_S)
            ):
                return Notice(self.name, kind, json.dumps(e), left)
            if kind == "Freeze":
                self.say_once(f"a freeze (a pause of seconds) is announced: {e.get('EventId')}")
        return None


CLASSES: dict[str, type[Provider]] = {"gcp": Gcp, "aws": Aws, "azure": Azure}


def base_url() -> str:
    """The metadata base address: NONSTOP_CLOUD_METADATA_URL, else the link-local one."""
    return (os.environ.get(envvars.CLOUD_METADATA_URL) or DEFAULT_BASE).rstrip("/")


def detect(
    base: str, timeout_s: float = PROBE_TIMEOUT_S, poll_timeout_s: float = REQUEST_TIMEOUT_S
) -> Provider | None:
    """The provider whose endpoint answers as documented (probed at once, each request within
    timeout_s), or None: no cloud, or none answering in time."""
    found: dict[str, Provider] = {}

    def probe(name: str) -> None:
        p = CLASSES[name](base, poll_timeout_s)
        with contextlib.suppress(BadAnswer):
            if p.detect(timeout_s):
                found[name] = p

    threads = [threading.Thread(target=probe, args=(n,), daemon=True) for n in PROVIDERS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout_s * 3 + 1.0)  # a token, then a request; threads left over are daemons
    return next((found[n] for n in PROVIDERS if n in found), None)


# -- the watcher ------------------------------------------------------------------------------


class CloudNotices:
    """Polls the cloud's notice endpoints on a background thread; `notice()` is the first
    notice seen (it stays). The agent's planned-stop machine reads it (PlannedStopMachine._trigger).

        watch = CloudNotices("auto"); watch.start(); ...; watch.notice(); watch.stop()
    """

    def __init__(
        self,
        mode: str,
        *,
        base: str | None = None,
        poll_s: float = POLL_S,
        timeout_s: float = REQUEST_TIMEOUT_S,
        probe_timeout_s: float = PROBE_TIMEOUT_S,
    ) -> None:
        if mode not in CHOICES:
            raise ValueError(f"cloud notices: mode must be one of {CHOICES}, got {mode!r}")
        self.mode = mode
        self.base = base or base_url()
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.probe_timeout_s = probe_timeout_s
        self.provider: Provider | None = None
        self.bad_answers = 0
        self.last_bad: str | None = None
        self._notice: Notice | None = None
        self._said: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.detected = threading.Event()
        """Set once detection is over (a provider found, or none)."""

    def notice(self) -> Notice | None:
        return self._notice

    def start(self) -> None:
        if self.mode == "off":
            self.detected.set()
            return
        self._thread = threading.Thread(target=self._run, name="nonstop-cloud", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(0.5)  # a daemon: a request in flight ends by its own timeout

    def poll_once(self) -> Notice | None:
        """One poll of the provider (detected or named); a bad answer is counted and said once
        per kind, never a notice."""
        if self.provider is None:
            return None
        try:
            n = self.provider.poll()
        except BadAnswer as e:
            self.bad_answers += 1
            self.last_bad = str(e)
            kind = re.sub(r"\d+", "N", str(e))[:120]
            if kind not in self._said:
                self._said.add(kind)
                _log.warning(f"cloud notices: a bad answer, ignored: {e}")
            return None
        if n is not None and self._notice is None:
            self._notice = n
            _log.info(f"{n.reason}: a planned stop (checkpoint, then exit 75 to requeue)")
        return n

    def _run(self) -> None:
        with log.swallowed(_log, "watching the cloud's notices"):  # never costs the job
            if self.mode == "auto":
                self.provider = detect(self.base, self.probe_timeout_s, self.timeout_s)
                if self.provider is None:
                    _log.debug(f"cloud notices: no cloud metadata service at {self.base}")
            else:
                self.provider = CLASSES[self.mode](self.base, self.timeout_s)
            self.detected.set()
            if self.provider is None:
                return
            _log.info(f"cloud notices: watching {self.provider.name} at {self.base}")
            while not self._stop.is_set() and self._notice is None:
                self.poll_once()
                self._stop.wait(self.poll_s)
        self.detected.set()
