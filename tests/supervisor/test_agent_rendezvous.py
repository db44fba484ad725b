"""The agent's restart rendezvous skips torch's first-round random skew, and only that."""

from torch.distributed.elastic.rendezvous import dynamic_rendezvous

from nonstop.supervisor import torch_compat


def test_restart_rendezvous_skips_only_the_random_skew(monkeypatch):
    slept: list[object] = []
    monkeypatch.setattr(dynamic_rendezvous, "_delay", slept.append)
    with torch_compat.no_first_round_skew():
        dynamic_rendezvous._delay((0, 0.3))  # the first-round skew: skipped
        dynamic_rendezvous._delay(1)  # polling a round that is still filling: kept
    assert slept == [1]
    dynamic_rendezvous._delay((0, 0.3))  # restored afterwards
    assert slept == [1, (0, 0.3)]
