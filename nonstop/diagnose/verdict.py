"""The answer every diagnosis gives: a verdict, a taxonomy category, an action, culprits, evidence.

Flight-recorder analysis, log triage and the run-level join all return these, so that the
supervisor, the CLI and the report read one shape. Standard library only.

    v.to_dict() == {"verdict": "...", "category": "faulty_gpu", "action": "exclude_node",
                    "culprits": [{"rank": 3, "host": "node-b", "gpu": 2, "evidence": [...]}],
                    "evidence": [...], "confidence": 0.9}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from nonstop import taxonomy

VerdictAction = taxonomy.Action | Literal["none"]
"""A taxonomy action, or `none`: nothing to do (the run finished, or the evidence says nothing)."""


@dataclass
class Culprit:
    """Who is to blame: any of rank, host and GPU index may be unknown (None)."""

    rank: int | None = None
    host: str | None = None
    gpu: int | None = None
    evidence: list[str] = field(default_factory=list)
    """Short, human-readable reasons, each naming its source (file:line, dump, ledger)."""

    def key(self) -> tuple[Any, Any, Any]:
        return (self.rank, self.host, self.gpu)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "host": self.host, "gpu": self.gpu, "evidence": self.evidence}


@dataclass
class Verdict:
    """One diagnosis. `category` is a nonstop.taxonomy id; `action` its (possibly refined) action."""

    verdict: str
    category: str = taxonomy.UNKNOWN
    action: VerdictAction = "restart"
    culprits: list[Culprit] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    confidence: float = 0.0
    """0..1: how sure the signature or analysis is (1 = unambiguous hardware report)."""
    details: dict[str, Any] = field(default_factory=dict)
    """Source-specific detail (flight groups, straggler scores, per-file triage)."""
    guessed: bool = False
    """True when no signature matched and the statistical fallback (nonstop.diagnose.fallback)
    named the category from the log's words: a guess, `confidence` its probability."""

    def __post_init__(self) -> None:
        assert self.category in taxonomy.IDS, f"not a taxonomy id: {self.category}"
        assert 0.0 <= self.confidence <= 1.0, self.confidence

    @property
    def hosts(self) -> list[str]:
        """Hosts named by the culprits, in order, without repeats (what exclude_node excludes)."""
        return list(dict.fromkeys(c.host for c in self.culprits if c.host))

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "category": self.category,
            "category_name": taxonomy.get(self.category).name,
            "action": self.action,
            "culprits": [c.to_dict() for c in self.culprits],
            "hosts": self.hosts,
            "evidence": self.evidence,
            "confidence": round(self.confidence, 3),
            "guessed": self.guessed,
            **({"details": self.details} if self.details else {}),
        }


def merge_culprits(culprits: list[Culprit]) -> list[Culprit]:
    """Fold culprits that name the same rank (or, rankless, the same host and GPU) together."""
    out: dict[tuple[Any, ...], Culprit] = {}
    for c in culprits:
        k: tuple[Any, ...] = ("rank", c.rank) if c.rank is not None else ("host", c.host, c.gpu)
        have = out.get(k)
        if have is None:
            out[k] = Culprit(c.rank, c.host, c.gpu, list(c.evidence))
        else:
            have.host = have.host or c.host
            have.gpu = have.gpu if have.gpu is not None else c.gpu
            have.evidence += [e for e in c.evidence if e not in have.evidence]
    return list(out.values())
