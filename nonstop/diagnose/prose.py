"""Reading a reporter's description: a failure told in sentences, with no log line.

    python benchmarks/triage_prose.py                   # the corpus's descriptions; the reader
                                                        # left one collection out at a time
    python benchmarks/build_triage_fallback.py          # rebuild prose_table.json (and fallback's)
    python benchmarks/build_triage_fallback.py --check  # exit 1 if a shipped table is stale

A description ("the loss spikes to 8 at step 12k and never recovers", "training hangs after the
reducer buckets are rebuilt, GPUs at 100%") has no line a signature row can match, and the
statistical fallback (nonstop.diagnose.fallback) is asked only where a line has a failure marker.
`is_description` says whether a text is one: a few lines of words told by someone, none of which
looks like a log line. Where `nonstop triage` is handed such a text and no row matched, the
description reader guesses from its words, before the fallback (asked only where it abstains: a
reporter's failure word is no log's marker): first a failure told in so many words (TOLD),
then the fallback's own table (the same naive Bayes over the same training excerpts), with its temperature and thresholds chosen on the descriptions no
row matched at each collection's first sight (prose_table.json holds only those, and where they
came from). Like the fallback it abstains below its threshold, never pages below the page
threshold and never excludes a node (a hardware reading restarts: a bag of words, or a reporter
blaming a part, is no evidence to take a machine out, docs/diagnose.md). An operator's own stated
conclusion is not read here: a verb that acts on the machine ("drain this node, one GPU is not
working", "we swapped the PSU") is read before this reader, in any short text a user hands
`nonstop triage`, by nonstop.diagnose.advice, which may exclude a node as advice said to come from
a person's words. It never overrides a row, and runs only on text a user hands
`nonstop triage`: never on a run's rank logs (`nonstop run`, the ledger, `nonstop diagnose`).
Standard library only.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from nonstop.diagnose import fallback

TABLE = Path(__file__).with_name("prose_table.json")

# What makes a line a log line rather than a sentence: any of these anywhere in it.
LOG_LINE = re.compile(
    "|".join(
        [
            r"\d{4}[-/]\d\d[-/]\d\d",  # a date
            r"\b\d\d?:\d\d:\d\d",  # a time of day
            r"\[\s*\d+\.\d{3,}\]",  # a kernel timestamp: [ 1234.567890]
            r"^[IWEF]\d{4} ",  # glog: I1115 16:00:39
            r"\b(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL|TRACE|NOTICE)\b",  # a level
            r"Traceback \(most recent call last\)",
            r'^\s*File "[^"]*", line \d+',  # a Python frame
            r"^\s*at [\w.$<>]+\(",  # a Java or JS frame
            r"^\s*#\d+\s+0x",  # a native frame
            r"\b0x[0-9a-fA-F]+\b",  # a hex number or address
            r"[\w/.-]+\.(?:py|pyx|cc|cpp|cxx|c|h|hpp|cu|cuh|rs|go|java|js|ts):\d+",  # path:line
            r"^\s*[\w.]*(?:Error|Exception|Warning|Interrupt|Exit)\b:",  # RuntimeError: ...
            r"\b[A-Za-z_][\w.]*=\S",  # key=value
            r"^\s*\[?[\w.-]*rank\s?\d+\]?:",  # [rank0]: / rank 3:
            r"^\s*[\w.-]+:\d+:\d+ \[\d+\]",  # NCCL's host:pid:tid [gpu]
            r"^\s*[A-Za-z][\w.-]*(?:\[\d+\])?: ",  # program[pid]: message
            r"\w['\"]?[ \t]*[:=][ \t]*['\"]?-?\d",  # loss: 2.3, 'loss': 2.3, loss = 2.3
            r"^\s*[\w.-]+ [\w.-]+: ",  # nvme nvme0: ...
            r"\|.*\|",  # a table row
            r"\S {3,}\S.*\S {3,}\S",  # aligned columns
            r"^[\s\d.eE+-]+$",  # a line of numbers
            r"^\s*(?:===|---|\*\*\*)",  # a banner or a rule
            r"^\s*[$#>]{1,3} ",  # a shell prompt
            r"^\s*\[[^\]\n]{1,40}\]\s",  # a tag: [rank0] , [train] , [stderr]
            r"^\s*[\w.-]+\[[^\]\n]*\] ",  # nonstop[host vm attempt 0 rank 0] ...
            r"(?:\b\d+\.\d+\b.*){3}",  # three decimals: a metrics line
        ]
    ),
    re.MULTILINE,
)
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)  # markdown quoting
# a longer text is a log: the longest description in the corpus has 7 lines, and a bound keeps
# the check cheap on a big file
MAX_LINES = 30
MAX_BYTES = 16 << 10
MIN_WORDS = 8  # words of two letters or more
# a description is told by someone: at least two of these words (a log message seldom has them)
_PROSE = (
    "i we my our me us you it this when after while but seems seem get got getting have had "
    "was were tried noticed notice happens happened keep kept always sometimes then however "
    "because about itself"
)
PROSE_WORDS = frozenset(_PROSE.split())

# Failures told in so many words that a bag of words trained on a handful of excerpts cannot
# learn them (five thermal excerpts in thirteen collections; a reporter's "the GPU temperature
# climbs past 105 C" reads as a loss spike to it): (pattern, category), asked in order before
# the naive Bayes, the first match answering. A host that shuts itself down for heat is its
# cooling (server_chassis, as the corpus labels such reports); a GPU said to overheat or to run
# at 90-149 C in the same sentence is the GPU's. A hardware category is named as weak evidence
# and restarts, like any reading (fallback.action): never exclude_node (an operator's verb on the
# part, "we swapped the PSU", is nonstop.diagnose.advice's, read before these).
_HOT = r"(?:over-?heat|\b(?:9\d|1[0-4]\d) ?(?:°|degrees? )?(?:C\b|celsius))"
_GPU = r"\b(?:gpus?|cards?|graphics)\b"
_PSU = r"psus?|power suppl(?:y|ies)"
_PSU_BAD = (
    r"undersized|underpowered|insufficient|inadequate|weak|failing|faulty|bad|dying|defective|broken|"
    # the sixteenth's d0c0ac4fb275 "power supply was damaged from a power outage"
    r"damaged|fried|blown|burnt|burned|melted|dead"
)
TOLD: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        # "protection" and "trip": the sixteenth's 5695c093cc4f "thermal protection shutdown"
        re.compile(
            r"(?i)\bthermal(?:ly)? (?:protection |trip )?shut ?downs?\b|"
            r"\bshut(?:s|ting)? (?:itself |themselves )?"
            r"down (?:for|from|because of|due to) (?:the )?(?:heat|high temperature)"
        ),
        "server_chassis",
    ),
    (
        re.compile(
            rf"(?i){_GPU}[^.\n]{{0,80}}?(?:{_HOT}|\bthermal(?:ly)? throttl)"
            rf"|{_HOT}\w*[^.\n]{{0,40}}?{_GPU}"
        ),
        "gpu_thermal_interface_sensor",
    ),
    # a power supply the reporter blames (the fifteenth's be988d17f393 "caused by an undersized
    # PSU"): weak evidence as above, so it restarts; a PSU merely mentioned is not told
    (
        re.compile(
            rf"(?i)\b(?:{_PSU_BAD}) (?:{_PSU})|\b(?:{_PSU}) (?:was|is|were|turned out to be) "
            rf"(?:too weak|(?:{_PSU_BAD}))\b|\b(?:caused by|due to|because of|related to) "
            rf"(?:the |an? |my |our )?(?:{_PSU})"
        ),
        "power_supply",
    ),
    # a GPU a node lost or came up without, told by an operator (the sixteenth's a24e7f8afa6e
    # "came up short a GPU"): weak evidence as above; a machine without a GPU is not told
    (
        re.compile(
            r"(?i)\b(?:short|lost) (?:a|one|an?other|\d) gpus?\b(?![- ]hours?)|"
            r"\b(?:a|one|\d) gpus? (?:short|went missing|disappeared|vanished|fell off)\b|"
            # the seventeenth's f9b03ed443a6 "one GPU is loss after reboot" (lost, misspelt)
            r"\b(?:a|one|\d) gpus? (?:is|was|are|were|got|went|has been) (?:lost|loss|missing|gone)\b"
        ),
        "faulty_gpu",
    ),
)


def is_description(text: str | bytes) -> bool:
    """Whether `text` is a description, not a log: at most MAX_LINES lines and MAX_BYTES, at
    least MIN_WORDS words, two of them PROSE_WORDS, and no line like a log line (LOG_LINE: a
    timestamp, a log level, a frame, a hex number, a path:line, an `Error:`, `program[pid]:` or
    `name: 2.3` prefix, a `key=value`, a rank tag, a table row, a line of numbers)."""
    if len(text) > MAX_BYTES:
        return False
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = _QUOTE.sub("", text)
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or len(lines) > MAX_LINES:
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", text)]
    if sum(len(w) > 1 for w in words) < MIN_WORDS or len(PROSE_WORDS.intersection(words)) < 2:
        return False
    return LOG_LINE.search(text) is None


# The reader's threshold is chosen from the fallback's grid above this floor. Few descriptions
# decide it, and at the grid's bottom (0.30) a complaint that names no failure at all ("it
# stopped working yesterday and I have no idea why") read as a loss spike at 0.3008 once the
# thirtieth collection joined the table (at 0.32 before a builder fix: tests/diagnose/
# test_prose.py): complaints that name nothing read at 0.16-0.30 with it. A reading must beat
# what a text with no failure in it reaches.
THRESHOLD_FLOOR = 0.35
# A fixed floor did not hold: with the forty-third and forty-fourth collections in the table the
# build chose temperature 8 and no length exponent, and the complaint above read as a loss spike
# at 0.384. So the build also measures what complaints that name no failure reach under the
# parameters it chose, and puts the threshold above the highest of them (the next step of the
# grid): 0.49 under the forty-four splits' parameters ("Since the weekend the training has not
# been running properly ..." read as a planned stop), so the threshold is 0.5. They are written
# for this purpose; tests/diagnose/test_prose.py asks about another.
NULL_COMPLAINTS = (
    "The job was running fine and then it just stopped, not sure what happened to it.",
    "Something went wrong overnight and nobody here knows why; it worked last week.",
    "Training does not work anymore on our machines, could you please help us figure it out?",
    "It failed again this morning. We did not change anything since yesterday, I think.",
    "We restarted it twice and it still does not behave the way it did before the update.",
    "Same problem as before, the run is broken again and I cannot see what is wrong with it.",
    "Our run stopped working last night and we have no clue why, everything looked fine before.",
    "It was working yesterday, today it is not, and nothing in our setup changed as far as I know.",
    "Since the weekend the training has not been running properly and I cannot tell what is going on.",
    "After the upgrade it no longer works for us, it just stops at some point without telling us.",
    "I left it running over the night and in the morning it was not running anymore.",
    "This worked fine for weeks and suddenly it stopped, we are really confused about what happened.",
)


def _above_null(table: dict[str, Any], grid: list[float]) -> float:
    """The lowest threshold of `grid` that no NULL_COMPLAINTS reading reaches under `table`'s
    parameters (the grid's top if every step is reached)."""
    m = fallback.Model(table)
    top = max(m.guess(text)[1] for text in NULL_COMPLAINTS)
    return next((t for t in grid if t > top), grid[-1])


def build(records: list[dict[str, str]], groups: list[str], asked: list[bool]) -> dict[str, Any]:
    """The reader's table, trained as benchmarks/build_triage_fallback.py trains the fallback
    (the same excerpts, leave one split out), its temperature, length exponent and thresholds
    chosen on the descriptions the fallback's build is told no row matched (`asked`); the
    threshold at THRESHOLD_FLOOR or above, and above what a complaint that names no failure
    reaches (NULL_COMPLAINTS)."""
    desc = [a and is_description(r["excerpt"]) for r, a in zip(records, asked, strict=True)]
    grid = [t for t in fallback.THRESHOLDS if t >= THRESHOLD_FLOOR]
    table = fallback.build(records, groups=groups, asked=desc, thresholds=grid)
    table["threshold"] = max(table["threshold"], _above_null(table, grid))
    return table


PARAMS = ("temperature", "length_exponent", "threshold", "page_threshold", "hardware_threshold")


def head(table: dict[str, Any], about: str) -> dict[str, Any]:
    """What prose_table.json holds of a built table: its parameters (the features are the
    fallback's: the same training excerpts give the same counts) and where they came from."""
    return {"version": table["version"], "about": about} | {k: table[k] for k in PARAMS}


def dumps(head_: dict[str, Any]) -> str:
    return json.dumps(head_, indent=1, sort_keys=True) + "\n"


def told(text: str | bytes) -> str | None:
    """The category a description tells in so many words (TOLD), or None."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return next((category for pattern, category in TOLD if pattern.search(text)), None)


def read(m: fallback.Model, text: str | bytes) -> tuple[str, float]:
    """The reader's reading of a description with the table `m`: a category told in so many
    words (probability 1.0), else `m`'s guess."""
    category = told(text)
    return (category, 1.0) if category else m.guess(text)


@cache
def model() -> fallback.Model:
    """The reader: the fallback's table with prose_table.json's parameters (loaded once)."""
    params = json.loads(TABLE.read_text())
    table = fallback.loads(fallback.TABLE.read_text())
    assert params["version"] == table["version"], "rebuild: benchmarks/build_triage_fallback.py"
    return fallback.Model(table | {k: params[k] for k in PARAMS})
