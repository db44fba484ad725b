"""An operator's own hardware conclusion, read from their words: advice, not evidence.

    nonstop triage report.txt      # "please drain node12, one GPU is not working" -> faulty_gpu,
                                   # exclude_node, "Advice from an operator's words", confidence 0.3

A person who runs the machines often says what they concluded instead of quoting a log: "please
drain this node, one GPU is not working", "replace the fan on node12", "the DIMM in slot B2 is
failing, RMA'd", "we swapped the PSU". No row can match such a sentence, and the description
reader (nonstop.diagnose.prose) names a hardware category from words with action restart: a bag
of words is no evidence to take a machine out. But an operator who drains a node or replaces a
part has already decided; triage repeating their decision as a restart was wrong on 16 of the
sixteenth collection's 31 `exclude_node` labels (tests/corpus/real/README.md).

`conclusion` finds such a sentence: an operator's verb on a named part (replace, swap, RMA,
reseat, a PSU upgraded: `PART_VERBS`, the part after the verb or, in the passive, before it:
"PSU replaced") or on the node, with a part the text calls broken (drain, cordon, take out of
service, the pool or rotation: `NODE_VERBS`, `BROKEN`). The part names the category (`PARTS`:
GPU, DIMM or memory module, fan, PSU, NIC or HCA, network cable or transceiver, disk, SSD or
NVMe, motherboard, riser, CPU). A part the text states broken, with no verb of an operator's, is
read too, and an operator asking for or ordering a replacement of a part the text calls broken
(`_stated`, `_asked_for`: "InfiniBand card of some nodes are broken", "machine 47 has a bad
GPU", "We lost the network daughter card. Failed. Asking for a replacement."): every short
corpus text of that shape is labelled exclude_node (tests/corpus/real/README.md, the
seventeenth's "After its rows"); the part must be the clause's subject, and a part fixed since
("it works now") is not read. Since issue-27words the state is wider (bad, damaged, burnt, lost,
missing, not detected, no longer available; a power supply weak or undersized), a verb of the
part's own counts ("one of the GPUs died", "node 7's PSU failed", "the GPU falls off the bus",
"disappears"), so do "hit/found a dead-GPU", a node "came up short a GPU", a bad part named as
the cause ("caused by a failing PSU", "the most likely cause is a faulty fan") and a part
changed with the failure gone since ("changed the power supply ... and don't get the crash
anymore": `_changed`). The host the person names in the conclusion's clause ("drain node12, one
GPU is not working", "machine 47 has a bad GPU") is `Conclusion.host`, the verdict's host.
Not a conclusion (`_not_concluded`): a question that is no
request ("should I replace my GPU?"), a hypothetical or a hedge ("if the fan fails, replace
it", "maybe we need to swap the PSU"), a negation ("we did not replace anything"), a part
replaced by another model or in software ("replaced the V100s with A100s", "replace the GPU
with the CPU in the config"), a part that did not fix it ("swapped the PSU but it still
crashes"), a software part ("replace the GPU driver", "drain the queue").

Only where a user hands `nonstop triage` the text (nonstop.diagnose.triage: `descriptions=True`),
no row matched, no loss spike was found, and the text is short (at most prose.MAX_LINES lines);
sentences are read only from the lines that do not look like a log line (prose.LOG_LINE). Never
in `triage_rank` (the supervisor's policy, the ledger, `nonstop diagnose` of a run): the
automated path never excludes a node on words. The verdict says it is advice read from a
person's words, `guessed` is true, its confidence ADVICE_CONFIDENCE (low: the machine's own
report would say more), `details["guess"]["from"] == "operator"`. Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nonstop.diagnose import prose

ADVICE_CONFIDENCE = 0.3  # a person's conclusion, not the machine's report: low, and said so

# A named part -> its category, the first match answering. Each part refuses a next word that
# makes it software or a setting ("GPU driver", "fan curve", "disk image", "CPU offload").
_SOFT_NEXT = (
    r"drivers?|firmware|v?bios|software|librar\w+|toolkit|kernels?|plugins?|operators?|ops?|"
    r"settings?|config\w*|ids?|index|indices|numbers?|names?|utili[sz]ation|usage|clocks?|"
    r"count|runtime|backends?|versions?|types?|curves?|speeds?|profiles?|controls?|images?|"
    r"quotas?|space|cache|partitions?|files?|offload\w*|threads?|cores?|affinity|fallback|"
    r"tensors?|limits?|mode|letters?|models?|branch\w*|"
    # how a part is set up or shared, not the part ("a bad GPU setup", "the GPU allocation")
    r"setups?|environments?|envs?|support|performance|allocations?|assignments?|passthrough|"
    r"sharing|scheduling|placement|selection|mapping|visibility"
)
_PART_END = rf"\b(?!\s*(?:{_SOFT_NEXT})\b)(?!-\w)"
PARTS: tuple[tuple[str, str], ...] = (
    (
        r"gpus?|graphics cards?|video cards?|gpu cards?|accelerators?|"
        r"(?<!sd )(?<!id )(?<!sim )(?<!sound )(?<!credit )cards?",
        "faulty_gpu",
    ),
    (
        r"dimms?|memory (?:modules?|sticks?|banks?)|ram (?:modules?|sticks?)|"
        r"sticks? of (?:ram|memory)|ram",
        "system_memory",
    ),
    (r"psus?|power[- ]?suppl(?:y|ies)|power units?", "power_supply"),
    (r"fans?", "server_chassis"),
    # a chassis's own temperature sensor, which makes the BMC shut the server down when it
    # reads high (the eighteenth's 7af3c63f6433); a GPU's or a CPU's sensor names that part
    (
        r"(?<!gpu )(?<!cpu )(?<!gpu's )(?<!cpu's )(?<!hbm )(?<!memory )(?<!dimm )(?<!nvme )"
        r"(?:temperature|thermal|chassis|ambient|inlet) sensors?",
        "server_chassis",
    ),
    (r"mother ?boards?|main ?boards?|base ?boards?|system ?boards?|mobos?", "server_chassis"),
    (
        r"(?:rdma )?nics?|hcas?|network (?:cards?|adapters?|interface cards?)|"
        r"(?:infiniband|ib|ethernet) (?:cards?|adapters?)|connectx(?:-\d)?|"
        # a Dell "network daughter card" (the seventeenth's 8f611a2cf300), a "10G card"
        r"(?:network )?daughter ?cards?|\d+ ?g(?:b|bit|be)? (?:network )?(?:cards?|adapters?)",
        "nic",
    ),
    (
        r"(?:network|ib|infiniband|ethernet|fib(?:er|re)|optical|dac|aoc|q?sfp\w*) cables?|"
        r"transceivers?|optics?",
        "network_switch_cable",
    ),
    (
        r"(?<!google )(?<!network )(?<!shared )(?<!mapped )(?<!virtual )(?<!cd )(?<!dvd )"
        r"(?:hard |solid state )?(?:disks?|drives?)|hdds?|ssds?|nvmes?(?: drives?)?",
        "ssd",
    ),
    (r"risers?(?: cards?)?|pcie (?:switch(?:es)?|risers?)", "io_expansion_board"),
    (r"cpus?", "cpu"),
)
_PARTS = "(?:" + "|".join(f"(?P<p{i}>{p})" for i, (p, _) in enumerate(PARTS)) + ")"
_PART = re.compile(rf"(?i)(?<![\w-]){_PARTS}{_PART_END}")
# a part right after an attribute joined by a hyphen ("hit a dead-GPU V100")
_PART_JOINED = re.compile(rf"(?i){_PARTS}{_PART_END}")
# what an operator does to a part: the part follows the verb, a few words between ("replace the
# failing fan", "RMA one of the GPUs"), or precedes it in the passive ("PSU replaced", "the DIMM
# ... is failing, RMA'd"); "upgrade" only of a power supply (one that was too weak)
_REPLACE = r"replac(?:e|ed|es|ing)|replacement (?:of|for)"
_SWAP = (
    r"swap(?:ped|ping|s)?(?! (?:space|file|partition|drive|disk|memory|ram)\b)|"
    r"re-?seat(?:ed|ing|s)?"
)
_RMA = r"rma(?:'?d|'?ed|'?ing)?|(?:opened|filed|raised|started|submitted) an? rma (?:for|on)"
# verbs that say a repair only with a word of the gap: installed a replacement or spare part (a
# new one may be a new build), pulled a failing one (a pull is many things)
_QUALIFIED = r"install(?:ed|ing|s)?|pull(?:ed|ing|s)?"
_BAD = r"failing|failed|faulty|bad|broken|dead|defective|dying"
_NEEDS = {"install": r"\b(?:replacement|spare)\b", "pull": rf"\b(?:{_BAD})\b"}
PART_VERBS = re.compile(
    rf"(?i)\b(?P<verb>{_REPLACE}|{_SWAP}|{_RMA}|{_QUALIFIED})\b(?:\s+out)?"
    r"(?P<gap>(?:\s+(?:the|a|an|one|two|both|all|its|this|that|these|those|his|her|my|our|"
    rf"their|of|new|replacement|spare|{_BAD}|\w+'s|\d+))*)\s+"
)
_PASSIVE_VERB = re.compile(
    r"(?i)\b(?:(?:was|were|got|has been|have been|is being|are being|is|are|been|being)\s+)?"
    r"(?P<verb>replaced|swapped(?: out)?|re-?seated|rma'?d|rma'?ed|upgraded|"
    r"(?:sent|went|gone|out|back)\s+(?:back\s+)?(?:for|to|under)\s+rma|under\s+rma)\b|"
    r"\b(?P<need>needs?|requires?|required)\s+(?:to be\s+)?"
    r"(?:replac(?:ed|ing|ement)|swapp(?:ed|ing)|re-?seat(?:ed|ing)|an? rma)\b"
)
_UPGRADE = re.compile(
    r"(?i)\bupgrad(?:e|ed|es|ing)\s+(?:the |my |our |your |a |its )?(?:psus?|power suppl(?:y|ies))\b"
)
# what an operator does to a node: the category then comes from a part the text calls broken
NODE_VERBS = re.compile(
    # "a drained node", "the cordoned host": a state, not what someone did
    r"(?i)(?<!\ba )(?<!\bthe )(?<!\bany )(?<!\beach )(?<!\bevery )"
    r"\b(?:drain(?:ed|ing|s)?|cordon(?:ed|ing|s)?)\s+(?:it|(?:this|that|the) (?:node|host|"
    r"server|machine|box|one)|node|host|server|machine|[a-z][\w-]*\d[\w.-]*)\b|"
    r"\b(?:take|took|taking|taken|pull|pulled|pulling|put|putting|mark|marked|marking|set|"
    r"setting)\b[^.!?;\n]{0,40}?\bout of (?:service|the pool|pool|rotation|production|"
    r"the cluster)\b|"
    r"\b(?:mark|marked|marking|set|setting)\s+(?:it|this node|the node|node\S*|\S+\d\S*)\s+"
    r"(?:as\s+)?(?:down|offline|drain(?:ed)?|bad|unhealthy)\b|"
    r"\b(?:take|took|taking|taken)\s+(?:it|this node|the node|node\S*|\S+\d\S*)?\s*offline\b|"
    r"\bremov(?:e|ed|ing)\s+(?:it|this node|the node|node\S*|\S+\d\S*)\s+from\s+(?:the\s+)?"
    r"(?:pool|cluster|rotation|partition)\b"
)
BROKEN = (
    r"not working|doesn't work|does not work|isn't working|is not working|stopped working|"
    r"failing|failed|fails|bad|faulty|dead|broken|defective|died|dying|missing|"
    r"(?:fell|falls|falling|dropped|drops|dropping) off|lost|errors?|throwing|overheat\w*|burn(?:t|ed|ing)|melted|damaged|"
    r"not detected|not (?:showing|seen|visible)|disappeared"
)
_BROKEN = re.compile(rf"(?i)\b(?:{BROKEN})\b")
# a conclusion is not drawn: asked, supposed, hedged, denied, or the part did not fix it
_ASKED = re.compile(
    r"(?i)\b(?:should (?:i|we|you)|shall (?:i|we)|do (?:i|we|you) (?:need|have) to|"
    r"does (?:it|the \w+) need|would (?:it|you|that|this)|whether|if|in case|unless|might|maybe|"
    r"perhaps|probably|possibly|consider(?:ing)?|thinking (?:of|about)|wonder\w*|"
    r"do you (?:think|know)|is it (?:worth|possible|necessary)|how (?:to|do|can|would|should)|"
    r"before (?:i|we|you)|instead of|rather than|without|i (?:think|guess|suspect)|"
    r"suspect|hope|hoping|try(?:ing)? to|tried|want to|wanted to|could it be|guide|tutorial|"
    r"instructions?|procedure|steps? to|may (?:be|have|need)|could (?:be|have)|can be)\b"
)
_DENIED = re.compile(r"(?i)(?:\b(?:not|never|no|nor|nothing|neither)\b|n't\b)")
_REQUEST = re.compile(r"(?i)\b(?:please|can you|could you|can someone|could someone|pls)\b")
_NO_FIX = re.compile(
    r"(?i)\b(?:still|(?:did|does|do)(?: not|n't) (?:help|fix|solve|change|work)|no luck|"
    r"no change|nothing changed|same (?:error|issue|problem|crash|result)s?|persist\w*|"
    r"(?:errors?|crash\w*|problems?|issues?|failures?) (?:continu|remain)\w*|"
    r"(?:crash\w*|fail\w*|hung|hangs?|happen\w*|occur\w*|fr[eo]z\w*|reboot\w*|died|dies) again|"
    r"to no avail|without success|no difference|didn't make)\b"
)
# "replaced the V100s with A100s", "... by an H100": another model, not a broken part
_WITH = re.compile(
    r"(?i)[^.!?;,\n]{0,40}?\b(?:with|by)\s+(?!(?:a |an |the |one )?(?:new|spare|good|working|"
    r"replacement|fresh|healthy|known[- ]good|identical|rma|warranty)\b)"
)
_SOFTWARE = re.compile(
    r"(?i)\b(?:code|config\w*|script|yaml|json|argument|flag|variable|tensors?|function|"
    r"string|device_map|torch|cuda:\d|\.to\(|container|docker)\b"
)
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")
# A part the text states broken, with no operator's verb ("InfiniBand card of some nodes are
# broken", "machine 47 has a bad GPU", "we lost the network daughter card"): measured on the
# corpus's short texts (tests/corpus/real/README.md, the seventeenth's "After its rows"), every
# one of this shape is labelled exclude_node. The part is the clause's subject (a prepositional
# phrase at most between it and the verb: "the link to the GPU docs is broken" is not), or
# follows "has a bad" or "lost the".
# Issue 27 (branch issue-27words) widened the class to a part stated bad, damaged or burnt, gone
# from the machine ("not detected", "no longer available", "is lost"), dead or off the bus in a
# verb of its own ("one of the GPUs died", "the GPU randomly falls off the bus"), or hit, found
# or named as a dead part ("hit a dead-GPU V100"), and a node come up short a part; a power
# supply also stated weak or undersized (a part too weak for its load is replaced the same way).
_STATE = (
    r"broken|dead|failed|faulty|defective|fried|toast|bad(?! (?:at|for|with|in)\b)|damaged|blown|"
    r"burn(?:t|ed)(?: out)?|"
    r"melted|lost|loss|missing|gone|not (?:detected|recogni[sz]ed|found|visible|showing up)|"
    r"no longer (?:detected|recogni[sz]ed|available|visible|present|seen|found|showing up)"
)
_WEAK_PSU = r"weak|too weak|undersized|underpowered|insufficient|inadequate"
_ADVERB = (
    r"(?:completely|totally|definitely|now|also|just|all|apparently|clearly|simply|suddenly|"
    r"randomly|sometimes|occasionally|repeatedly|constantly|often|always|then|again)"
)
_STATED_VERB = re.compile(
    r"(?i)\b(?:is|are|was|were|has been|have been|had been|got|went|turned out to be)\s+"
    rf"(?:{_ADVERB}\s+)?(?:(?P<state>{_STATE})|(?P<weak>{_WEAK_PSU}))\b|"
    rf"\b(?:has|have|had)\s+(?:{_ADVERB}\s+)?(?:failed|died)\b(?!\s+to\b)|"
    # a verb of its own right after the part ("one of the GPUs died", "node 7's PSU failed",
    # "the GPU randomly falls off the bus"); "failed to ..." is an operation's failure
    rf"\b(?:{_ADVERB}\s+)?(?:died|failed(?!\s+(?:to|with|on|at|in|for|because|over)\b)|"
    r"(?:fell|falls|dropped|drops|keeps? (?:falling|dropping)) off the (?:pcie? )?bus|"
    r"disappear(?:ed|s)|vanish(?:ed|es)|(?:went|goes) missing|gave out|burn(?:t|ed) out|"
    # "one of my temperature sensors has broken down" (the eighteenth's 7af3c63f6433)
    r"(?:has|have|had) broken down|broke down)\b"
)
# a part said gone from the machine, in a sentence about software: "the GPU is not detected by
# PyTorch" is an install's problem far more often than a part's
_ABSENT = re.compile(r"(?i)lost|loss|missing|gone|not |no longer|disappear|vanish|went missing")
_SOFT_CONTEXT = re.compile(
    r"(?i)\b(?:py)?torch|\b(?:tensorflow|tf|jax|keras|cuda|docker|containers?|wsl2?|conda|pip|"
    r"python|drivers?|librar(?:y|ies)|modules?|program|code|script|vm|virtual machine|colab|"
    r"kaggle|jupyter|notebook|windows|os|device manager|bios)\b"
)
_SUBJECT_GAP = re.compile(
    rf"(?i)(?:\s+(?:of|on|in|at|from)(?:\s+[\w-]+){{1,4}})?(?:\s+{_ADVERB})?\s+$"
)
_HAS_BAD = re.compile(
    r"(?i)\b(?:has|have|had|got|hit|found|with)\s+(?:a|an|one|two|\d+)\s+"
    r"(?:bad|failing|failed|faulty|broken|dead|defective|damaged)(?:\s+|-)|"
    r"\blost\s+(?:the|a|an|one|its|our|their|\d+)\s+|"
    # a node come up short a GPU (the sixteenth's "came up short a GPU")
    r"\b(?:came|comes|come|coming|booted|boots|is|was)\s+(?:up\s+|back\s+)?short\s+"
    r"(?:a|an|one|two|\d+)\s+"
)
_NOT_A_PART = re.compile(r"(?i)[- ](?:hours?|time|days?|minutes?|connection|link)\b")
# fixed since: "the fan was broken, it works now"
_FIXED = re.compile(
    r"(?i)\b(?:fixed|repaired|resolved|works? (?:now|again|fine)|fine now|back to normal|"
    r"no longer(?! (?:be )?(?:detected|recogni[sz]ed|available|visible|present|seen|found|"
    r"show\w*|work\w*|respond\w*|boot\w*))|c(?:ame|omes?) back|reappear(?:ed|s))\b"
)
# the cause named as a bad part ("the most likely cause is a faulty fan", "caused by an
# undersized PSU"): a conclusion on the part, hedges and questions aside as for any verb
_CAUSE = re.compile(
    r"(?i)\b(?:caused by|due to|because of|(?:root )?cause (?:is|was|seems to be|appears to be|"
    r"turned out to be)|culprit (?:is|was|turned out to be)|turn(?:s|ed) out to be)\s+"
    r"(?:a|an|the|one|my|our|its|their|this|that)\s+"
    rf"(?:{_BAD}|damaged|{_WEAK_PSU})\s+(?:[\w-]+\s+)??"
)
# a part changed and the failure gone since ("I changed the power supply ... and don't get the
# system crash anymore", "swapped the PSU for a 1600 W one and the problem disappeared"): the
# fix confirms the part; a move to another device ("changed the GPU to the CPU") is none
_CHANGE = re.compile(
    r"(?i)\b(?:chang(?:e|ed|ing)|replac(?:e|ed|ing)|swap(?:ped|ping)?|upgrad(?:e|ed|ing)|"
    r"switch(?:ed|ing)? out)\s+(?:the|a|an|my|our|its|their|this|that)\s+"
)
# another model or a bigger one ("changed the GPU to an A100 and the OOM went away"): no part
# found failing, unless a power supply too weak for its load ("from 1200W to 2000W")
_MODEL = re.compile(
    r"(?i)\b(?:to|for|with)\s+(?:a|an|the|two|\d+)?\s*(?:bigger|larger|newer|faster|"
    r"more powerful|higher|better|[a-z]{0,3}-?\d{2,}\w*)\b"
)
_FASTER = re.compile(
    r"(?i)\b(?:oom|out of memory|faster|slower|speed\w*|throughput|performance|fps|vram)\b"
)
_TO_DEVICE = re.compile(r"(?i)[^.!?;]{0,30}?\bto (?:the )?(?:cpu|gpu|cuda|mps|tpu|xla|device)s?\b")
_GONE = re.compile(
    r"(?i)\b(?:problems?|issues?|crash\w*|errors?|reboots?|restarts?|shutdowns?|failures?)\s+"
    r"(?:(?:has|have|had)\s+)?(?:disappeared|went away|gone|vanished|stopped|solved|resolved)|"
    r"\b(?:don't|do not|didn't|did not|doesn't|does not|haven't|have not|hasn't|has not|never)\s+"
    r"(?:get|got|see|saw|seen|had|have|crash|reboot|happen|occur)\w*\b[^.!?]{0,40}?\b"
    r"(?:anymore|any more|since)\b|"
    r"\bno (?:more|further) (?:crash\w*|reboot\w*|restart\w*|shutdown\w*|error|problem|issue|"
    r"failure)s?\b|"
    r"\b(?:fixed|solved|resolved|cured) (?:it|the (?:problem|issue|crash\w*|reboots?))\b"
)
# an operator asking for, ordering or awaiting a replacement: the part is one the text calls
# broken ("We lost the network daughter card. Failed. Asking for a replacement.")
_ASK = re.compile(
    r"(?i)\b(?:ask(?:ed|ing|s)?\s+for|request(?:ed|ing|s)?|order(?:ed|ing|s)?|"
    r"wait(?:ed|ing|s)?\s+(?:for|on))\s+(?:a|an|the)\s+(?:new\s+)?(?:replacement|rma|spare)\b"
)


# The host a person names with the conclusion ("drain node12, one GPU is not working", "machine
# 47 has a bad GPU", "the HCA on gpu-node-03 is dead"): a node word and its number, a dashed
# name with a digit, or letters then digits; in the conclusion's clause only (`_host_in`).
_HOST = re.compile(
    r"(?i)(?<![\w.-])(?:(?:compute |gpu |worker )?(?:node|host|server|machine|box|worker)"
    r"[-_ ]?#?\d+[\w.-]*|[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z]{2,}\d+[a-z0-9]*)(?![\w-])"
)
# what looks like a host name but is a part, a model, a device index or a version: a GPU model
# (A100, V100-SXM2-32GB, RTX-3090), an index (GPU3, cuda:0, mlx5_0), an encoding or a release
_NOT_HOST = re.compile(
    r"(?i)^(?:gpus?|cpus?|cuda|cu|dimms?|slots?|sockets?|ports?|ranks?|eth|ens|enp|ib|mlx|nvme|"
    r"sd|hd|psus?|fans?|nics?|hcas?|risers?|rtx|gtx|rx|mi|tesla|sxm|pcie|gen|ddr|lpddr|hbm|cx|"
    r"connectx|xid|sm|python|py|torch|x86|arm|aarch|utf|fp|bf|int|uint|sha|md|gcc|rocm|nccl|"
    r"ubuntu|centos|rhel|el|ipv|tls|http|win|ps|step|epoch|iter|layer|batch|v|a|h|l|t|b|p|k|"
    r"e|ver|version|release|rc)[-_ ]?\d|\d+gb\b|-(?:sxm|pcie|nvl|hbm)"
)
_CLAUSE_END = re.compile(r"(?i)[,;:]|\s+but\s+")


def _host_in(sentence: str, at: int) -> str | None:
    """The host named in the clause of `sentence` around position `at` (between a comma, a
    semicolon, a colon or a "but" each side), or None."""
    start = max((m.end() for m in _CLAUSE_END.finditer(sentence, 0, at)), default=0)
    end = next((m.start() for m in _CLAUSE_END.finditer(sentence, at)), len(sentence))
    for m in _HOST.finditer(sentence, start, end):
        name = m.group()
        # a name of three dashed words or more is a host's ("gpu-1-8"), whatever its first word
        named = name.count("-") >= 2 and not re.search(r"(?i)-(?:sxm|pcie|nvl|hbm)|\d+gb\b", name)
        if re.search(r"\d", name) and (named or not _NOT_HOST.search(name)):
            return name
    return None


@dataclass(frozen=True)
class Conclusion:
    """An operator's stated hardware conclusion: its category and the sentence that says it."""

    category: str
    sentence: str
    part: str
    verb: str
    host: str | None = None
    """The host the person names in the conclusion's clause, if any."""


def _said(
    category: str, s: str, p: re.Match[str], verb: str, host: str | None = None
) -> Conclusion:
    """The conclusion on part `p` of sentence `s`, with the host named in the part's clause."""
    return Conclusion(category, s, p.group(), verb, host or _host_in(s, p.start()))


def _category(part: re.Match[str]) -> str:
    i = next(int(k[1:]) for k, v in part.groupdict().items() if v is not None)
    return PARTS[i][1]


def _sentences(text: str) -> list[str]:
    """The sentences of the lines of `text` that do not look like a log line, a wrapped line
    joined to the next, a blank line ending a sentence."""
    text = prose._QUOTE.sub("", text)
    kept: list[str] = []
    for line in text.splitlines():
        if not line.strip() or prose.LOG_LINE.search(line):
            kept.append("\n")  # a log line or a blank line ends a sentence
        else:
            kept.append(line.strip())
    out: list[str] = []
    for para in " ".join(kept).split("\n"):
        out.extend(s.strip() for s in _SENTENCE.findall(para) if s.strip())
    return out


def _clause_before(sentence: str, at: int) -> str:
    """The words of `sentence` before position `at`, back to a comma, a semicolon, a colon or
    a "but" (a hedge or a negation of another clause does not reach this one)."""
    head = sentence[:at]
    cut = max(head.rfind(","), head.rfind(";"), head.rfind(":"), head.lower().rfind(" but "))
    return head[cut + 1 :]


def _not_concluded(sentence: str, at: int, next_sentence: str) -> bool:
    """Whether the verb at `at` of `sentence` states no conclusion: the clause before it asks,
    supposes, hedges or denies; the sentence is a question that is no request; or the sentence
    or the next says the change did not fix it."""
    before = _clause_before(sentence, at)
    if _ASKED.search(before) or _DENIED.search(before):
        return True
    if sentence.rstrip().endswith("?") and not _REQUEST.search(sentence):
        return True
    return bool(_NO_FIX.search(sentence[at:]) or _NO_FIX.search(next_sentence))


def _part_after(sentence: str, m: re.Match[str]) -> re.Match[str] | None:
    """The part a verb acts on: right after its determiners, not replaced by something else."""
    start = m.end()
    p = _PART.match(sentence, start)
    if p is None:
        return None
    if _WITH.match(sentence, p.end()):
        return None
    return p


def _software(sentence: str) -> bool:
    return _SOFTWARE.search(sentence) is not None


def conclusion(text: str | bytes) -> Conclusion | None:
    """The first operator's hardware conclusion stated in `text` (see the module's docstring),
    or None."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    sentences = _sentences(text)
    for i, s in enumerate(sentences):
        nxt = sentences[i + 1] if i + 1 < len(sentences) else ""
        got = (
            _on_a_part(s, nxt)
            or _on_the_node(s, nxt, sentences)
            or _stated(s, nxt)
            or _asked_for(s, nxt, sentences)
            or _changed(s, nxt)
        )
        if got is not None:
            return got
    return None


def _on_a_part(s: str, nxt: str) -> Conclusion | None:
    if _software(s):
        return None
    for m in PART_VERBS.finditer(s):
        needs = next((v for k, v in _NEEDS.items() if m.group("verb").lower().startswith(k)), None)
        if needs is not None and not re.search(needs, m.group("gap"), re.IGNORECASE):
            continue
        p = _part_after(s, m)
        if p is not None and not _not_concluded(s, m.start(), nxt):
            return _said(_category(p), s, p, m.group("verb"))
    for m in _UPGRADE.finditer(s):
        if not _not_concluded(s, m.start(), nxt):
            return Conclusion("power_supply", s, "power supply", "upgrade")
    for m in _PASSIVE_VERB.finditer(s):
        # the part named before the verb in the same clause ("PSU replaced", "the DIMM in slot
        # B2 is failing, RMA'd": the clause is the sentence up to the verb)
        parts = list(_PART.finditer(s, 0, m.start()))
        if not parts or _not_concluded(s, m.start(), nxt):
            continue
        upgraded = (m.group("verb") or "").lower() == "upgraded"
        if upgraded and _category(parts[-1]) != "power_supply":
            continue  # an upgraded GPU is a faster one; an upgraded PSU was too weak
        if m.start() - parts[-1].end() > 60 or _WITH.match(s, m.end()):
            continue
        verb = m.group("verb") or m.group("need")
        return _said(_category(parts[-1]), s, parts[-1], verb)
    return None


def _on_the_node(s: str, nxt: str, sentences: list[str]) -> Conclusion | None:
    m = NODE_VERBS.search(s)
    if m is None or _software(s) or _not_concluded(s, m.start(), nxt):
        return None
    found = _broken_part(s, sentences)
    if found is None:
        return None
    other, p = found
    said = s if other is s else " ".join(x for x in sentences if x in (s, other))
    # the host the verb names ("drain node12"), else one named with the part
    host = _host_in(s, m.start()) or _host_in(other, p.start())
    return Conclusion(_category(p), said, p.group(), m.group().split()[0], host)


def _broken_part(s: str, sentences: list[str]) -> tuple[str, re.Match[str]] | None:
    """(the sentence, the part) the text calls broken: in `s` first, then in any other."""
    for other in [s, *sentences]:
        for p in _PART.finditer(other):
            near = other[max(0, p.start() - 40) : p.end() + 40]
            if _ASKED.search(_clause_before(other, p.start())):
                continue  # "if the GPU is dead, drain the node": supposed, not stated
            if _BROKEN.search(near) and not _software(other):
                return other, p
    return None


def _stated(s: str, nxt: str) -> Conclusion | None:
    """A part the sentence states broken (`_STATED_VERB` after its subject, `_HAS_BAD` before
    it), concluded and not fixed since."""
    if _software(s) or _FIXED.search(s) or _FIXED.search(nxt):
        return None
    for m in _STATED_VERB.finditer(s):
        parts = list(_PART.finditer(s, 0, m.start()))
        if not parts or not _SUBJECT_GAP.fullmatch(s, parts[-1].end(), m.start()):
            continue
        if m.group("weak") and _category(parts[-1]) != "power_supply":
            continue  # a weak GPU is a slow one; a weak power supply is too small for its load
        if _ABSENT.search(m.group()) and _SOFT_CONTEXT.search(s):
            continue
        if not _not_concluded(s, m.start(), nxt):
            return _said(_category(parts[-1]), s, parts[-1], "stated")
    for m in _HAS_BAD.finditer(s):
        joined = m.group().endswith("-")
        p = (_PART_JOINED if joined else _PART).match(s, m.end())
        if p is None or _NOT_A_PART.match(s, p.end()) or _not_concluded(s, m.start(), nxt):
            continue
        return _said(_category(p), s, p, "stated")
    for m in _CAUSE.finditer(s):
        p = _PART.match(s, m.end())
        weak = re.search(rf"(?i)\b(?:{_WEAK_PSU})\b", m.group())
        if p is None or _not_concluded(s, m.start(), nxt):
            continue
        if weak and _category(p) != "power_supply":
            continue
        return _said(_category(p), s, p, "named the cause")
    return None


def _changed(s: str, nxt: str) -> Conclusion | None:
    """A part changed and the failure gone since (`_CHANGE`, `_GONE`), in this sentence after
    the part or in the next one."""
    if _software(s):
        return None
    for m in _CHANGE.finditer(s):
        p = _PART.match(s, m.end())
        if p is None or _TO_DEVICE.match(s, p.end()) or _FASTER.search(s) or _FASTER.search(nxt):
            continue
        if _category(p) != "power_supply" and (
            m.group().lower().startswith("upgrad") or _WITH.match(s, p.end()) or _MODEL.search(s)
        ):
            continue  # a bigger, newer or other model: a power supply too weak was replaced so
        if not (_GONE.search(s, p.end()) or _GONE.search(nxt)):
            continue
        before = _clause_before(s, m.start())
        if _ASKED.search(before) or _DENIED.search(before):
            continue
        if s.rstrip().endswith("?") or _NO_FIX.search(s, p.end()) or _NO_FIX.search(nxt):
            continue
        return _said(_category(p), s, p, m.group().split()[0])
    return None


def _asked_for(s: str, nxt: str, sentences: list[str]) -> Conclusion | None:
    """An operator asking for a replacement of a part the text calls broken."""
    m = _ASK.search(s)
    if m is None or _software(s) or _not_concluded(s, m.start(), nxt):
        return None
    found = _broken_part(s, sentences)
    if found is None:
        return None
    other, p = found
    said = f"{other} {s}" if other is not s else s
    return Conclusion(_category(p), said, p.group(), "asked for", _host_in(other, p.start()))
