"""Cloud notices (nonstop.supervisor.cloud_notices) against a local server that follows each
provider's documented API (support.cloud_metadata): detection, notices, and bad answers
(garbage, cut-short JSON, 500s, answers slower than the timeout) that are never a notice."""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest
from support.cloud_metadata import FakeCloud

from nonstop.supervisor import cloud_notices as cn


def watcher(cloud: FakeCloud, mode: str = "auto", **kw: float) -> cn.CloudNotices:
    w = cn.CloudNotices(mode, base=cloud.url, poll_s=0.05, timeout_s=0.5, **kw)
    if mode == "auto":
        w.provider = cn.detect(cloud.url, 0.5, 0.5)
    else:
        w.provider = cn.CLASSES[mode](cloud.url, 0.5)
    return w


@pytest.mark.parametrize("provider", cn.PROVIDERS)
def test_auto_finds_the_cloud_that_answers_as_documented(provider: str) -> None:
    with FakeCloud(provider) as cloud:
        found = cn.detect(cloud.url, 0.5)
        assert found is not None and found.name == provider
        for other in set(cn.PROVIDERS) - {provider}:  # refused, or not found, at their paths
            try:
                answered = cn.CLASSES[other](cloud.url, 0.5).detect(0.5)
            except cn.BadAnswer:
                answered = False
            assert not answered, other


def test_auto_on_no_cloud_is_none_and_the_watcher_stops_looking(tmp_path) -> None:
    cloud = FakeCloud("gcp")
    url = cloud.url
    cloud.close()  # nothing listens there any more
    assert cn.detect(url, 0.5) is None
    w = cn.CloudNotices("auto", base=url, poll_s=0.05, probe_timeout_s=0.5)
    w.start()
    assert w.detected.wait(10)
    assert w.provider is None and w.notice() is None
    w.stop()


def test_off_never_asks() -> None:
    with FakeCloud("gcp") as cloud:
        cloud.gcp_preempted = "TRUE"
        w = cn.CloudNotices("off", base=cloud.url)
        w.start()
        assert w.detected.is_set() and w.notice() is None
        assert cloud.requests == []


def test_gcp_preempted_and_maintenance() -> None:
    with FakeCloud("gcp") as cloud:
        w = watcher(cloud)
        assert w.poll_once() is None
        cloud.gcp_maintenance = "MIGRATE_ON_HOST_MAINTENANCE"  # a live migration: goes on
        assert w.poll_once() is None
        cloud.gcp_maintenance = "TERMINATE_ON_HOST_MAINTENANCE"
        n = w.poll_once()
        assert n is not None and (n.provider, n.kind) == ("gcp", "maintenance")
        assert "TERMINATE_ON_HOST_MAINTENANCE" in n.reason
        w2 = watcher(cloud, "gcp")
        cloud.gcp_preempted = "TRUE"
        n = w2.poll_once()
        assert n is not None and n.kind == "preempted" and n.seconds_left == 30.0
        assert ("GET", "/computeMetadata/v1/instance/preempted") in cloud.requests


def test_aws_spot_interruption_with_imdsv2_token() -> None:
    with FakeCloud("aws") as cloud:
        w = watcher(cloud)
        cloud.refused = 0  # auto's probes of the other two clouds were refused
        assert w.poll_once() is None
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 120))
        cloud.aws_action = {"action": "terminate", "time": when}
        n = w.poll_once()
        assert n is not None and n.kind == "spot-terminate"
        assert n.seconds_left is not None and 100 < n.seconds_left <= 121
        assert ("PUT", "/latest/api/token") in cloud.requests
        assert cloud.refused == 0  # every request carried its token


def test_aws_scheduled_maintenance_within_the_lead_only() -> None:
    def event(in_s: float, state: str = "active") -> dict[str, str]:
        return {
            "NotBefore": time.strftime("%d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + in_s)),
            "Code": "system-reboot",
            "Description": "scheduled reboot",
            "EventId": "instance-event-0d59937288b749b32",
            "NotAfter": time.strftime("%d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 9e4)),
            "State": state,
        }

    with FakeCloud("aws") as cloud:
        w = watcher(cloud, "aws")
        cloud.aws_scheduled = [event(3 * 86400)]  # days ahead: not yet
        assert w.poll_once() is None
        cloud.aws_scheduled = [event(60, state="canceled")]
        assert w.poll_once() is None
        cloud.aws_scheduled = [event(3 * 86400), event(300)]
        n = w.poll_once()
        assert n is not None and n.kind == "system-reboot" and n.seconds_left is not None
        assert 250 < n.seconds_left <= 301


def test_azure_scheduled_events() -> None:
    def event(kind: str, vm: str = "trainer-7", in_s: float = 30) -> dict[str, object]:
        return {
            "EventId": "602d9444-d2cd-49c7-8624-8643e7171297",
            "EventType": kind,
            "ResourceType": "VirtualMachine",
            "Resources": [vm],
            "EventStatus": "Scheduled",
            "NotBefore": formatdate(time.time() + in_s, usegmt=True),
            "Description": "",
            "EventSource": "Platform",
            "DurationInSeconds": -1,
        }

    with FakeCloud("azure") as cloud:
        w = watcher(cloud)
        assert w.provider is not None and getattr(w.provider, "vm_name", None) == "trainer-7"
        assert w.poll_once() is None
        cloud.azure_events = [event("Freeze"), event("Preempt", vm="another-vm")]
        assert w.poll_once() is None  # a pause, and another VM's eviction
        cloud.azure_events = [event("Reboot", in_s=3600)]
        assert w.poll_once() is None  # an hour ahead
        cloud.azure_events = [event("Preempt")]
        n = w.poll_once()
        assert n is not None and (n.provider, n.kind) == ("azure", "Preempt")
        assert n.seconds_left is not None and 20 < n.seconds_left <= 31


@pytest.mark.parametrize("provider", cn.PROVIDERS)
@pytest.mark.parametrize("bad", ["garbage", "badjson", "500", "slow"])
def test_bad_answers_are_counted_never_a_notice(provider: str, bad: str) -> None:
    with FakeCloud(provider, slow_s=3.0) as cloud:
        w = watcher(cloud, provider)
        cloud.gcp_preempted = "TRUE"  # what a good answer would have said
        cloud.aws_action = {"action": "terminate", "time": "2026-12-02T15:00:00Z"}
        cloud.azure_events = [{"EventType": "Preempt", "EventStatus": "Scheduled"}]
        cloud.misbehave = bad
        t0 = time.monotonic()
        assert w.poll_once() is None
        if bad == "slow":  # given up after the request's timeout, not the server's 3 s
            assert time.monotonic() - t0 < 2.9
        assert w.bad_answers == 1 and w.last_bad
        assert w.notice() is None
        cloud.misbehave = None
        assert w.poll_once() is not None  # the service answers well again: the notice


def test_the_watcher_thread_sees_a_notice_and_keeps_it() -> None:
    with FakeCloud("gcp") as cloud:
        w = cn.CloudNotices("auto", base=cloud.url, poll_s=0.05, timeout_s=0.5)
        w.start()
        assert w.detected.wait(10) and w.provider is not None
        cloud.gcp_preempted = "TRUE"
        deadline = time.monotonic() + 10
        while w.notice() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        n = w.notice()
        assert n is not None and n.kind == "preempted"
        cloud.gcp_preempted = "FALSE"
        time.sleep(0.2)
        assert w.notice() == n  # once given, a notice stays
        w.stop()


def test_a_bad_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="mode"):
        cn.CloudNotices("digitalocean")
