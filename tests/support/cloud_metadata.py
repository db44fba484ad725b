"""A local cloud metadata server (127.0.0.1) that follows one provider's documented API, for
nonstop.supervisor.cloud_notices: point NONSTOP_CLOUD_METADATA_URL at `server.url`.

    with FakeCloud("aws") as cloud:
        cloud.aws_action = {"action": "terminate", "time": "2026-12-02T15:00:00Z"}
        cloud.misbehave = "garbage"          # or "500", "slow" (answers after slow_s)

Like the real services it refuses a request without the provider's header (GCP: 403 without
`Metadata-Flavor: Google`; Azure: 400 without `Metadata: true`; AWS IMDSv2: 401 without a
token from `PUT /latest/api/token`), and echoes `Metadata-Flavor: Google` on GCP. It stops by
itself after `lifetime_s` (a test that forgets it leaves no server behind), and on exit.
Sources of the formats: cloud.google.com/compute/docs/metadata/getting-live-migration-notice
and .../instances/spot (preempted), docs.aws.amazon.com/AWSEC2/latest/UserGuide/
spot-instance-termination-notices.html and .../monitoring-instances-status-check_sched.html,
learn.microsoft.com/azure/virtual-machines/linux/scheduled-events.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOKEN = "AQAEAFakeImdsV2TokenForTests=="


class FakeCloud:
    def __init__(self, provider: str, *, lifetime_s: float = 300.0, slow_s: float = 10.0):
        assert provider in ("gcp", "aws", "azure"), provider
        self.provider = provider
        self.slow_s = slow_s
        self.misbehave: str | None = None
        """None, "garbage" (200 with bytes no client can read), "badjson" (text cut short),
        "500", or "slow" (the answer after slow_s)."""
        self.gcp_preempted = "FALSE"
        self.gcp_maintenance = "NONE"
        self.aws_action: dict[str, Any] | None = None
        self.aws_scheduled: list[dict[str, Any]] = []
        self.azure_events: list[dict[str, Any]] = []
        self.azure_vm = "trainer-7"
        self.azure_incarnation = 1
        self.requests: list[tuple[str, str]] = []
        """(method, path) of every request, refused ones included."""
        self.refused = 0
        """Requests refused for want of the provider's header or token (400, 401, 403)."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._timer = threading.Timer(lifetime_s, self.close)
        self._timer.daemon = True
        self._closed = False
        self._started = False

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeCloud:
        self._started = True
        self._thread.start()
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._timer.cancel()
            if self._started:
                self._server.shutdown()  # waits for serve_forever: only once it ran
            self._server.server_close()

    # -- the provider's API ---------------------------------------------------------------

    def answer(self, method: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        """(status, body) for one request, as the provider documents it."""
        p = self.provider
        if p == "gcp":
            if not path.startswith("/computeMetadata/v1/"):
                return 404, b"Not Found"
            if headers.get("metadata-flavor") != "Google":
                return 403, b"Missing Metadata-Flavor:Google header."
            key = path.removeprefix("/computeMetadata/v1/instance/")
            values = {"": "preempted\nmaintenance-event\nname\n", "name": "trainer-7"}
            values |= {"preempted": self.gcp_preempted, "maintenance-event": self.gcp_maintenance}
            return (200, values[key].encode()) if key in values else (404, b"Not Found")
        if p == "aws":
            if method == "PUT" and path == "/latest/api/token":
                if "x-aws-ec2-metadata-token-ttl-seconds" not in headers:
                    return 400, b"Bad Request"
                return 200, TOKEN.encode()
            if headers.get("x-aws-ec2-metadata-token") != TOKEN:
                return 401, b"Unauthorized"
            if path == "/latest/meta-data/spot/instance-action":
                if self.aws_action is None:
                    return 404, b"Not Found"
                return 200, json.dumps(self.aws_action).encode()
            if path == "/latest/meta-data/events/maintenance/scheduled":
                return 200, json.dumps(self.aws_scheduled).encode()
            return 404, b"Not Found"
        # azure
        if headers.get("metadata") != "true":
            return 400, json.dumps({"error": "Bad request. Required metadata header"}).encode()
        if path.startswith("/metadata/scheduledevents"):
            if "api-version=" not in path:
                return 400, json.dumps({"error": "Bad request. api-version was not specified"})
            doc = {"DocumentIncarnation": self.azure_incarnation, "Events": self.azure_events}
            return 200, json.dumps(doc).encode()
        if path.startswith("/metadata/instance/compute/name"):
            return 200, self.azure_vm.encode()
        return 404, b"Not Found"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        cloud = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                cloud.requests.append((self.command, self.path))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, body = cloud.answer(self.command, self.path, headers)
                if isinstance(body, str):
                    body = body.encode()
                if status in (400, 401, 403):  # no header, no token: refused
                    cloud.refused += 1
                bad = cloud.misbehave
                token = self.command == "PUT"  # the token stays good: the answers go bad
                if bad == "slow" and not token:
                    time.sleep(cloud.slow_s)
                elif bad == "500" and not token:
                    status, body = 500, b"Internal Server Error"
                elif bad == "garbage" and not token and status == 200:
                    body = b"\x00\xff{<html>not what anyone documents"
                elif bad == "badjson" and not token and status == 200:
                    body = b'{"action": "terminate", "Events": [{"EventType": '  # cut short
                self.send_response(status)
                if cloud.provider == "gcp":
                    self.send_header("Metadata-Flavor", "Google")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up on a slow answer

            do_GET = _serve
            do_PUT = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
