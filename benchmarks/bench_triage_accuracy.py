"""`nonstop triage` on real failure excerpts it was never tuned on: category and action accuracy.

    python benchmarks/run.py triage-accuracy [--json]
    python benchmarks/bench_triage_accuracy.py tuning      # the split signature work may read
    python benchmarks/bench_triage_accuracy.py twentyeighth  # the latest collection (README there)

The corpus is tests/corpus/real/ (README there): 254 excerpts from public issue threads, vendor
documentation and Q&A pages, each with a (category, action) label, split by content hash into a
tuning set and a frozen held-out set before any signature work. Each excerpt is written to a file
and classified by `nonstop.diagnose.triage.triage_file`, exactly as `nonstop triage FILE` does.

`ours` is the category accuracy on the held-out set; `peer` is the accuracy of always answering
the tuning set's most common category (what a lookup of base rates gets). Also reported: action
accuracy, the confusion matrix (`heldout_matrix`: true category -> {predicted: count}, diagonal
included; `heldout_confusion`: its off-diagonal cells; `heldout_action_matrix` likewise for
actions), wrong `exclude_node` verdicts (a healthy node lost) and the tuning-set figures.
Sixty-six later collections by collectors who never read the signature table (fresh.jsonl,
third.jsonl, fourth.jsonl, fifth.jsonl, sixth.jsonl, seventh.jsonl, eighth.jsonl, ninth.jsonl,
tenth.jsonl, eleventh.jsonl, twelfth.jsonl, thirteenth.jsonl, fourteenth.jsonl, fifteenth.jsonl, sixteenth.jsonl, seventeenth.jsonl, eighteenth.jsonl, nineteenth.jsonl, twentieth.jsonl, twentyfirst.jsonl, twentysecond.jsonl, twentythird.jsonl, twentyfourth.jsonl, twentyfifth.jsonl, twentysixth.jsonl, twentyseventh.jsonl, twentyeighth.jsonl, twentyninth.jsonl, thirtieth.jsonl, thirtyfirst.jsonl, thirtysecond.jsonl, thirtythird.jsonl, thirtyfourth.jsonl, thirtyfifth.jsonl, thirtysixth.jsonl, thirtyseventh.jsonl, thirtyeighth.jsonl, thirtyninth.jsonl, fortieth.jsonl, fortyfirst.jsonl, fortysecond.jsonl, fortythird.jsonl, fortyfourth.jsonl, fortyfifth.jsonl, fortysixth.jsonl, fortyseventh.jsonl, fortyeighth.jsonl, fortyninth.jsonl, fiftieth.jsonl, fiftyfirst.jsonl, fiftysecond.jsonl, fiftythird.jsonl, fiftyfourth.jsonl, fiftyfifth.jsonl, fiftysixth.jsonl, fiftyseventh.jsonl, fiftyeighth.jsonl, fiftyninth.jsonl, sixtieth.jsonl, sixtyfirst.jsonl, sixtysecond.jsonl, sixtythird.jsonl, sixtyfourth.jsonl, sixtyfifth.jsonl, sixtysixth.jsonl, sixtyseventh.jsonl) are reported with their first-sight
scores (`fresh_first_*`, `third_first_*`, `fourth_first_*`, `fifth_first_*`, `sixth_first_*`,
`seventh_first_*`, `eighth_first_*`, `ninth_first_*`, `tenth_first_*`, `eleventh_first_*`,
`twelfth_first_*`, `thirteenth_first_*`, `fourteenth_first_*`, `fifteenth_first_*`, `sixteenth_first_*`, `seventeenth_first_*`, `eighteenth_first_*`, `nineteenth_first_*`, `twentieth_first_*`, `twentyfirst_first_*`, `twentysecond_first_*`, `twentythird_first_*`,
`twentyfourth_first_*`, `twentyfifth_first_*`, `twentysixth_first_*`, `twentyseventh_first_*`,
`twentyeighth_first_*`, `twentyninth_first_*`, `thirtieth_first_*`, `thirtyfirst_first_*`,
`thirtysecond_first_*`, `thirtythird_first_*`, `thirtyfourth_first_*`, `thirtyfifth_first_*`,
`thirtysixth_first_*`, `thirtyseventh_first_*`, `thirtyeighth_first_*`, `thirtyninth_first_*`,
`fortieth_first_*`, `fortyfirst_first_*`, `fortysecond_first_*`, `fortythird_first_*`,
`fortyfourth_first_*`, `fortyfifth_first_*`, `fortysixth_first_*`, `fortyseventh_first_*`, `fortyeighth_first_*`,
`fortyninth_first_*`, `fiftieth_first_*`, `fiftyfirst_first_*`, `fiftysecond_first_*`, `fiftythird_first_*` and
`fiftyfourth_first_*`, `fiftyfifth_first_*`, `fiftysixth_first_*`, `fiftyseventh_first_*`,
`fiftyeighth_first_*`, `fiftyninth_first_*`, `sixtieth_first_*`, `sixtyfirst_first_*`,
`sixtysecond_first_*`, `sixtythird_first_*`, `sixtyfourth_first_*`, `sixtyfifth_first_*`,
`sixtysixth_first_*`, `sixtyseventh_first_*`, also
`first_sight_*`, for the latest, sixtyseventh.jsonl: the out-of-sample
figure) beside their figures now; `first_sight_sure_*` pools
every collection's first sight on the labels its collector was sure of.
Every figure is of triage as it ships, the statistical fallback
(nonstop.diagnose.fallback) answering where no signature row matched, and the description
reader (nonstop.diagnose.prose) on an excerpt with no log line that no row matched;
`*_rows_only_*` is the rows alone, and `*_guesses` counts the verdicts that were guesses.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # triage_first_sight, beside this file

import numpy as np
import triage_first_sight

from nonstop.diagnose import triage

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "real"


# fresh.jsonl's first score (2026-12-02, 76 excerpts), before any signature read it: the honest
# out-of-sample figure of a collection nobody had tuned on (tests/corpus/real/README.md)
FRESH_FIRST: dict[str, float] = {"category": 0.7368, "action": 0.9211}

# third.jsonl's first score (2026-12-02, 88 excerpts from a third collector who never read the
# signature table), taken once before any signature work read it (tests/corpus/real/README.md)
THIRD_FIRST: dict[str, float] = {"category": 0.5909, "action": 0.7273}

# fourth.jsonl's first score (2026-12-02, 86 excerpts from a fourth collector who never read the
# signature table), taken once before any signature work read it (tests/corpus/real/README.md)
FOURTH_FIRST: dict[str, float] = {"category": 0.5465, "action": 0.8023}

# fifth.jsonl's first score (2026-12-03, 83 excerpts from a fifth collector who never read the
# signature table), taken once before any classifier change read it (tests/corpus/real/README.md)
FIFTH_FIRST: dict[str, float] = {"category": 0.6265, "action": 0.8072}

# sixth.jsonl's first score (2026-12-03, 85 excerpts from a sixth collector who never read the
# signature table, the fallback or their tests), taken once before any classifier change read
# it, with the fallback as it shipped then (trained on tuning, fresh, third, fourth) and without
# it (tests/corpus/real/README.md); one wrong exclude_node either way (b1db1a0b4f82)
SIXTH_FIRST: dict[str, float] = {"category": 0.7294, "action": 0.8471}
SIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7176, "action": 0.8588}

# seventh.jsonl's first score (2026-12-03, 89 excerpts from a seventh collector who never read the
# signature table, the fallback or their tests), taken once after a round of rows written for
# classes by a helper who never read it, before any change read it (tests/corpus/real/README.md);
# one wrong exclude_node (0bb28ceda4e7). With the classifier before that round (118522e):
# 59.6% category, 77.5% action (SEVENTH_BEFORE_CLASS_ROWS).
SEVENTH_FIRST: dict[str, float] = {"category": 0.618, "action": 0.8202}
SEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5843, "action": 0.809}
SEVENTH_BEFORE_CLASS_ROWS: dict[str, float] = {"category": 0.5955, "action": 0.7753}

# eighth.jsonl's first score (2026-12-03, 86 excerpts from an eighth collector who never read the
# signature table, the fallback, their tests or the other collections' excerpts), taken once
# after a round of class rows and a fallback retrained by a helper who never read it (b4b87ce),
# before any change read it (tests/corpus/real/README.md); three wrong exclude_node
# (7813a6c5708d, 5ddbd1b3472a, 28524e661769). With main before that round (66f48c0): 69.8%
# category, 91.9% action (EIGHTH_BEFORE_GENERALIZING).
EIGHTH_FIRST: dict[str, float] = {"category": 0.7093, "action": 0.9186}
EIGHTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.686, "action": 0.9186}
EIGHTH_BEFORE_GENERALIZING: dict[str, float] = {"category": 0.6977, "action": 0.9186}

# ninth.jsonl's first score (2026-12-03, 87 excerpts from a ninth collector who never read the
# signature table, the fallback, their tests or the other collections' excerpts), taken once
# after a round of generalizing work (a corrected-errors row, hardware guesses named with action
# restart, the fallback retrained on the eighth) by a helper who never read it (98b8a4e), before
# any change read it (tests/corpus/real/README.md); one wrong exclude_node (7af83a0d002f, a
# label the collector marked unsure). With main before that round (bf9becb): 80.5% category,
# 92.0% action (NINTH_BEFORE_GENERALIZING).
NINTH_FIRST: dict[str, float] = {"category": 0.8391, "action": 0.9195}
NINTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7931, "action": 0.9195}
NINTH_BEFORE_GENERALIZING: dict[str, float] = {"category": 0.8046, "action": 0.9195}

# tenth.jsonl's first score (2026-12-03 16:52, 87 excerpts from a tenth collector who never read
# the signature table, the fallback, their tests or the other collections' excerpts), taken
# once with main as the collection was merged (360ba33) and again after a round of generalizing
# work by a helper who never read it (issue-27gen3: a loss-spike check, a BMC-informational
# row, the fallback retrained on the ninth; 23b4a2f): the same answers both times, 66 of 87
# categories and 80 of 87 actions; one wrong exclude_node (65b84b3a2a62, a vanished cloud
# volume's EXT4 I/O errors read as a local disk, a label the collector marked unsure). The
# collector marked 30 labels unsure (TENTH_UNSURE, README); on the other 57: 52 categories and
# 55 actions right (TENTH_FIRST_SURE).
TENTH_FIRST: dict[str, float] = {"category": 0.7586, "action": 0.9195}
TENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7126, "action": 0.908}
TENTH_FIRST_SURE: dict[str, float] = {"category": 0.9123, "action": 0.9649}
TENTH_UNSURE: frozenset[str] = frozenset(
    [
        "8bfa1c18ad6c",
        "db44235dbbb2",
        "d5e93d36cb4e",
        "649b051b6a8c",
        "f38d856ff0fc",
        "1f40b53f3294",
        "8fa61918c7be",
        "ea07e7c878d3",
        "691686010899",
        "c983ac5d9327",
        "49fe9890d057",
        "0eba0fe74639",
        "cb2f776a55b6",
        "a67992e17a5c",
        "65b84b3a2a62",
        "a66b01c82b27",
        "15a80124c6e8",
        "80c0a13a7447",
        "cf787f9fd83c",
        "a86ab2bf891d",
        "747a1b2a3dd2",
        "586081869d47",
        "50d6b22700fb",
        "4c27d2df8a44",
        "9091620560df",
        "34275f80f0ad",
        "35a801a3158c",
        "36ca45973ea7",
        "70762f316fe6",
        "96c851a5b39b",
    ]
)

# eleventh.jsonl's first score (2026-12-03 17:27, 87 excerpts from an eleventh collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts),
# taken once with main as the collection was merged (182ffd9: after the tenth's rows): 60 of 87
# categories and 78 of 87 actions; one wrong exclude_node (0cf59f2a871d, a training script's
# "GPU circuit breaker OPEN" read as a power supply, a label marked unsure). The collector
# marked 22 labels unsure (ELEVENTH_UNSURE, README); on the other 65: 47 categories and 62
# actions right (ELEVENTH_FIRST_SURE). Nine of its 27 category misses are a reporter's sentence
# with no log line ("it hangs at random epochs, no error").
ELEVENTH_FIRST: dict[str, float] = {"category": 0.6897, "action": 0.8966}
ELEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6667, "action": 0.8966}
ELEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.7231, "action": 0.9538}
ELEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "ffb3a46f0931",
        "2bde9c2b72b2",
        "459d36198033",
        "4db532100b57",
        "68b77e3b6ca9",
        "40d1ca5b2f69",
        "cb960626008c",
        "ed7c54e5967c",
        "a5ec9bbe483c",
        "20cb0a2fdd8d",
        "ae66c154c8ed",
        "2d1efe5cb19c",
        "5ea644a6b784",
        "2c602efdb418",
        "386d83067497",
        "1564d2cfae30",
        "e50f6a737ec1",
        "f6cff1d98537",
        "2e4e7a0bf906",
        "0cf59f2a871d",
        "de0141949e2d",
        "8fca9955aebc",
    ]
)

# twelfth.jsonl's first score (2026-12-03 22:46, 85 excerpts from a twelfth collector who never
# read the signature table, the fallback, their tests or the other collections' excerpts), taken
# once with main as the collection was merged (cc0a380: after the eleventh's rows and the
# fallback of issue-27gen4, every feature kept and its confidence scaled by the log's length):
# 64 of 85 categories and 76 of 85 actions; no wrong exclude_node. The collector marked 22 labels
# unsure (TWELFTH_UNSURE, README); on the other 63: 53 categories and 59 actions right
# (TWELFTH_FIRST_SURE). Seven of its 21 category misses are a reporter's sentence with no log line.
TWELFTH_FIRST: dict[str, float] = {"category": 0.7529, "action": 0.8941}
TWELFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6824, "action": 0.8941}
TWELFTH_FIRST_SURE: dict[str, float] = {"category": 0.8413, "action": 0.9365}
TWELFTH_UNSURE: frozenset[str] = frozenset(
    [
        "e440d722b5ba",
        "e3afc86f7130",
        "5ce145ae74ad",
        "12c7cd7a38bc",
        "9fa4992380ce",
        "1af7f10be404",
        "7c68977e1d60",
        "204591fdf161",
        "b3d5a98ed439",
        "888f5a0c8efc",
        "ab09f31c7216",
        "44991cb9b65d",
        "c8e77262f921",
        "75fb93ae9472",
        "eaad42f50ba1",
        "682de6392633",
        "3ff068524c43",
        "5e08277100f5",
        "0679766b6ba3",
        "4f9577ff6a21",
        "73f083655891",
        "00513d86b98c",
    ]
)


# fourteenth.jsonl's first score (2026-12-04 10:27, 87 excerpts from a fourteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its slips are in the README), taken once with main as the collection was merged (c8bb1ad: after
# the thirteenth's rows and the description reader of issue-27prose): 45 of 87 categories and 67
# of 87 actions; rows alone 37 / 67; one wrong exclude_node (8cf26aab0871, an unsure label: AKS's
# "NVML Unknown Error" from a vGPU licence read as a faulty GPU). The collector marked 48 labels
# unsure (FOURTEENTH_UNSURE, README); on the other 39: 25 categories and 35 actions right.
FOURTEENTH_FIRST: dict[str, float] = {"category": 0.5172, "action": 0.7701}
FOURTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4253, "action": 0.7701}
FOURTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.641, "action": 0.8974}
FOURTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "2752aad6c589",
        "007c170926d4",
        "0445fbf4ea6c",
        "0f4929bd0a3c",
        "24572bbf9856",
        "251d6ee5c6a1",
        "2a709a1a8e77",
        "32cd0e277321",
        "32dcc64153d8",
        "3998ecbd0049",
        "3b9d371b09bc",
        "4627c2a22b49",
        "474c8bcb705a",
        "4e15896c4457",
        "56c9c0a9ff31",
        "5a6e7fe46f0d",
        "6776728cad6c",
        "6ea5a731fb69",
        "735573a06a4e",
        "8563829fc9cd",
        "8cf26aab0871",
        "8faa99dd1e97",
        "93db1e89c4ca",
        "a3c33e357eaf",
        "a5dcdaccbfe8",
        "aad4f3ce6df8",
        "ac3b60197e05",
        "b0e07934dec3",
        "b54caca884d7",
        "b65538c26fdc",
        "b7211e8a354d",
        "b9260bc86b00",
        "c080eb518f25",
        "c0b9b74bda54",
        "d7893ec7af88",
        "d8d0af639b2b",
        "dd06d1938952",
        "e132295ea950",
        "e5f4bdf97195",
        "e6638251f0f9",
        "eb36a87f4e2e",
        "eb7304ab01fb",
        "f4927eb4b456",
        "f4b8ce403e65",
        "f72d25242a3d",
        "f81a140a5c83",
        "fb6f6e375797",
        "fb731a7230e8",
    ]
)


# sixteenth.jsonl's first score (2026-12-04 15:58, 89 excerpts from a sixteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its slips are in the README), taken once with main as the collection was merged (1a2437b:
# after the fifteenth's rows and the fallback and reader retrained on it, issue-27rows15): 52 of
# 89 categories and 69 of 89 actions; rows alone 46 / 69; one wrong exclude_node (df0fc79b12a1:
# a GPU the installed driver does not support, labelled dependency, read as a faulty GPU). The
# collector marked 29 labels unsure (SIXTEENTH_UNSURE, README); on the other 60: 41 categories
# and 46 actions right. 31 labels exclude a node, 16 of them answered restart.
SIXTEENTH_FIRST: dict[str, float] = {"category": 0.5843, "action": 0.7753}
SIXTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5169, "action": 0.7753}
SIXTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.6833, "action": 0.7667}
SIXTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "02d87c8eeca1",
        "178e13662498",
        "1c2354db5315",
        "1ffb1e0cd18a",
        "34dc067c800a",
        "5695c093cc4f",
        "56be07e7e279",
        "5cc19d658e5d",
        "5ed7fbaa5766",
        "6c22b0b70fb3",
        "7ef0ea4fbafd",
        "8009a344df8b",
        "812be254a73f",
        "88a3317de4c1",
        "8c31b21b9bd7",
        "9f2ad0f59f67",
        "a24e7f8afa6e",
        "ab76e3e13bf8",
        "abd709bcc710",
        "abe476111082",
        "ae9010f827bc",
        "b7b7b0d11e65",
        "be8deee8bfe8",
        "c3f091a7f1ba",
        "dac1390da9e5",
        "de5f7801dddc",
        "e590548306bf",
        "fac2582a432e",
        "fc902b41e8da",
    ]
)


# fifteenth.jsonl's first score (2026-12-04 13:40, 90 excerpts from a fifteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its slips are in the README), taken once with main as the collection was merged (5388020:
# after the fourteenth's rows, the fallback retrained on it and the description reader asked
# first on descriptions, issue-27gen5): 60 of 90 categories and 81 of 90 actions; rows alone
# 51 / 81; two wrong exclude_node (3e61fff77b1c, 58ea47a76cd1: both unsure labels, a drain and
# a lost node read as host maintenance). The collector marked 32 labels unsure
# (FIFTEENTH_UNSURE, README); on the other 58: 43 categories and 55 actions right.
FIFTEENTH_FIRST: dict[str, float] = {"category": 0.6667, "action": 0.9}
FIFTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5667, "action": 0.9}
FIFTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.7414, "action": 0.9483}
FIFTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "02c2e2e8aaef",
        "0354bf2babd6",
        "06c9381094c6",
        "0835184a9cde",
        "0d023cbf92d6",
        "1c481441d87c",
        "1e0bba6f49b9",
        "25671c459bdd",
        "28c9f775db46",
        "3e61fff77b1c",
        "58ea47a76cd1",
        "5be22d534ad2",
        "626d8b2f5def",
        "67309bc4c221",
        "6dbffbc9e020",
        "707a36d1bee6",
        "740d88cd6703",
        "7597f2a7cf9c",
        "7d0e56be90be",
        "7fab68401079",
        "9bce0415a836",
        "a426f39be8d9",
        "ab0de4963ae0",
        "ae90365cf9cb",
        "b51f3f268707",
        "b62bb7afe21f",
        "cd6191cb71cb",
        "cfcb87d928b8",
        "d3d30d4aec94",
        "e5dc3bac9442",
        "f3d320ac830c",
        "f428d6071927",
    ]
)


# thirteenth.jsonl's first score (2026-12-04 04:26, 86 excerpts from a thirteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its slips are in the README), taken once with main as the collection was merged (ffa7c20: after
# the twelfth's rows and the emitter-derived rows of issue-27src): 52 of 86 categories and 72 of
# 86 actions; 11 fallback guesses, 4 right; no wrong exclude_node. The collector marked 46 labels
# unsure (THIRTEENTH_UNSURE, README); on the other 40: 31 categories and 37 actions right
# (THIRTEENTH_FIRST_SURE). 18 of its 34 misses are a reporter's sentences with no log line.
THIRTEENTH_FIRST: dict[str, float] = {"category": 0.6047, "action": 0.8372}
THIRTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5581, "action": 0.8372}
THIRTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.775, "action": 0.925}
THIRTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "c8f2c8d3620f",
        "6dee4890e69d",
        "5cfc9855c60e",
        "461bfc6e58bb",
        "0c5adf9ad485",
        "5b6b62f74478",
        "661ac48bcfc4",
        "4bc75155ad43",
        "daeaffd8c2ce",
        "022299787ed2",
        "488008d2e3e1",
        "b49b7d776dfb",
        "71185a19c38b",
        "d36fc74e00bd",
        "8fc1180d27e5",
        "bcc9a31b91d0",
        "ae626c4f8f66",
        "103212d6b740",
        "60261e07179e",
        "e65dcf847375",
        "ee9ed9bea448",
        "8fc3b695f36d",
        "0bc4a87072a9",
        "2cb6b76267b4",
        "7ac9ddc2c6f9",
        "4275a9f9ecdc",
        "abad522dcf2b",
        "d9b769ff7539",
        "be1938776134",
        "a3b3f1516617",
        "3ae1d6b0c7cf",
        "a81ec02f5fb9",
        "210fc29c06ed",
        "b728b472ea82",
        "59a950871251",
        "c4f11f5a57a2",
        "e2966375db64",
        "3ec5b709e7c8",
        "a75ca03d9825",
        "72d80d8e83c8",
        "c15b1270464b",
        "8ae6d95fe64d",
        "f027f96feb35",
        "442bbff94194",
        "b5abbae778e2",
        "fc173ef87bae",
    ]
)


# seventeenth.jsonl's first score (2026-12-04 19:12, 89 excerpts from a seventeenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its slips are in the README), taken once with main as the collection was merged (2173fec:
# after the sixteenth's rows, the fallback and reader retrained on it, and the operator's
# conclusion read as advice, issue-27advice, all blind to it): 52 of 89 categories and 70 of 89
# actions; rows alone 39 / 70; no wrong exclude_node. The collector marked 40 labels unsure
# (SEVENTEENTH_UNSURE, README); on the other 49: 28 categories and 40 actions right. 22 labels
# exclude a node, 17 of them answered restart; no excerpt was read as an operator's advice.
SEVENTEENTH_FIRST: dict[str, float] = {"category": 0.5843, "action": 0.7865}
SEVENTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4382, "action": 0.7865}
SEVENTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.5714, "action": 0.8163}
SEVENTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "0fdbe32312e9",
        "13b099fb01e9",
        "196a8d57dcb7",
        "1fe4c5673b7c",
        "208951c63e1d",
        "2c7d2bf9612c",
        "2efcebc33326",
        "2f3f2cae11af",
        "3186beabb323",
        "32fa3689a4d2",
        "39ed2ed8c60c",
        "3c1ed310ffe1",
        "3ca8f133640a",
        "4a5190ae6a16",
        "4c93259f0aa0",
        "51aa3965bc24",
        "553fb64ea182",
        "599cfa2abda9",
        "5c418910b983",
        "5d34d7962643",
        "6013e04647c5",
        "70646ffabd95",
        "8a7007d78152",
        "8c1bcc86f8cc",
        "a1a489ce9df6",
        "aaee6db76f07",
        "aaf99e593903",
        "ad6cf020c12e",
        "b7dfb734e9c1",
        "c22fc8c25558",
        "c42fc48d5fc3",
        "c5967438d220",
        "c7cc62019f92",
        "d119c2d73bf4",
        "e3901e5a0579",
        "ee3d866c05ed",
        "f1c583b9d1d0",
        "f46729cc751c",
        "f6ccce65966e",
        "f9372c1bc9b9",
    ]
)


# eighteenth.jsonl's first score (2026-12-04 22:23, 89 excerpts from an eighteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# no slips reported, README), taken once with main as the collection was merged (e830922:
# after the seventeenth's rows, the fallback and reader retrained on it, and failures told in
# words, issue-27words, all blind to it): 61 of 89 categories and 75 of 89 actions; rows alone
# 48 / 75; no wrong exclude_node. The collector marked 36 labels unsure (EIGHTEENTH_UNSURE,
# README); on the other 53: 43 categories and 48 actions right. 17 labels exclude a node, 12
# of them answered restart; no excerpt was read as an operator's advice.
EIGHTEENTH_FIRST: dict[str, float] = {"category": 0.6854, "action": 0.8427}
EIGHTEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5393, "action": 0.8427}
EIGHTEENTH_FIRST_SURE: dict[str, float] = {"category": 0.8113, "action": 0.9057}
EIGHTEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "02669a80116c",
        "07643b538861",
        "0c7e75fe8892",
        "1488e9630912",
        "188d0b2f441f",
        "1b81b88b21f5",
        "1f81f6021c79",
        "261da5e5cf41",
        "26857c0c6df9",
        "2a073167b5b0",
        "2a595c4c379a",
        "2bd03b9467fa",
        "2f274bdc3d59",
        "3321ca25b870",
        "39236b0b9042",
        "3fb5b2d9f482",
        "438c39281649",
        "46fc92e23cf5",
        "59e65e10de7c",
        "5ec865fc49b2",
        "61d1112cc13c",
        "61fa0296cdcd",
        "7072c3d5fd62",
        "768e44f6b0f2",
        "824762de3af8",
        "91167f88c697",
        "9b476ce36ae5",
        "a3576859b95b",
        "ab084d2e0fdb",
        "b0e419283f26",
        "b31bc6d93aee",
        "da0e0da7c9bb",
        "e1c18e8ed4ef",
        "e963b2455f89",
        "efae5d61a0c1",
        "fc00ab953cf0",
    ]
)


# nineteenth.jsonl's first score (2026-12-04 22:55, 85 excerpts from a nineteenth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its two slips are in the README), taken once with main as the collection was merged (f27bafd:
# after the eighteenth's rows and the fallback and reader retrained on it, issue-27rows18, blind
# to it): 50 of 85 categories and 66 of 85 actions; rows alone 43 / 65; no wrong exclude_node.
# The collector marked 35 labels unsure (NINETEENTH_UNSURE, README); on the other 50: 33
# categories and 43 actions right. 16 labels exclude a node, 13 of them answered restart; one
# excerpt was read as an operator's advice, right.
NINETEENTH_FIRST: dict[str, float] = {"category": 0.5882, "action": 0.7765}
NINETEENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5059, "action": 0.7647}
NINETEENTH_FIRST_SURE: dict[str, float] = {"category": 0.66, "action": 0.86}
NINETEENTH_UNSURE: frozenset[str] = frozenset(
    [
        "09bddf396d36",
        "0d3acda640d9",
        "20f4506b49f5",
        "2db56db53af6",
        "3786b59f4df1",
        "3a789ad99239",
        "3ab79d449e6a",
        "41a347f88472",
        "46ad785e6fb9",
        "57bc670c3fdd",
        "6ee2d545f8e7",
        "6f788eeed582",
        "7a9844889aad",
        "88bd34486f31",
        "8ebb851b6e5d",
        "96aa41d1757b",
        "992d1915f93b",
        "b6e3185bbec8",
        "b96e7b7217b4",
        "c1d0e635f86e",
        "c3134dc35c41",
        "c70294db17c6",
        "c829bff41eaa",
        "cb302a9c3d9b",
        "cb6d4291665a",
        "dbaa886319b8",
        "dd9ea81e9516",
        "eb7cd193bed2",
        "ec73f7fe5c6a",
        "f070761e9ad9",
        "f3605bec5edb",
        "f6827535fe1a",
        "f89882b7ff9e",
        "fa2c148576da",
        "fbd28affce06",
    ]
)


# twentieth.jsonl's first score (2026-12-05 00:50, 84 excerpts from a twentieth collector who
# never read the signature table, the fallback, their tests or the other collections' excerpts;
# its two slips are in the README), taken once with main as the collection was merged (9109569:
# after the nineteenth's rows and the fallback and reader retrained on it, issue-27rows19, blind
# to it): 52 of 84 categories and 70 of 84 actions; rows alone 44 / 70; one wrong
# exclude_node (cff5dc79d854, a pull request's GPU health-check text, labelled unknown, unsure).
# The collector marked 41 labels unsure (TWENTIETH_UNSURE, README); on the other 43: 33
# categories and 39 actions right. 15 labels exclude a node, 11 of them answered restart.
TWENTIETH_FIRST: dict[str, float] = {"category": 0.619, "action": 0.8333}
TWENTIETH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5238, "action": 0.8333}
TWENTIETH_FIRST_SURE: dict[str, float] = {"category": 0.7674, "action": 0.907}
TWENTIETH_UNSURE: frozenset[str] = frozenset(
    [
        "0b38bd0097fa",
        "13907d10d38b",
        "1b9e098bdde0",
        "1d57e45d9a1b",
        "206013063bc4",
        "289ce87fb391",
        "28ce8a293acc",
        "32c72ac0101f",
        "4092e8c71573",
        "4479ae2bd1c3",
        "5b25a0c9d4ba",
        "5bc6d56acc85",
        "6289ae303d64",
        "62995480f0a2",
        "63fcec3c6504",
        "69fcbac14415",
        "6f10903163a5",
        "705f3c74576f",
        "72ac74237ec0",
        "751a24bb6c92",
        "768161833be2",
        "7e7b319c3871",
        "7ecf12f2bcfc",
        "8be8746e669f",
        "93a9cbc93a1d",
        "9d8814aeae60",
        "9f958d7fdec1",
        "a9f3bdc95154",
        "b7b01b0496c0",
        "ba5635fd4752",
        "bc9853c564df",
        "c2c205c2675e",
        "cff5dc79d854",
        "d31a01d6de9f",
        "d989cd3833d8",
        "dd56bfc1b55c",
        "e4809b743b1a",
        "e6bd3e3beaed",
        "ecb6726b9f45",
        "f274a7c50e7b",
        "f80fdc15c3d2",
    ]
)


# twentyfirst.jsonl's first score (2026-12-05 02:05, 84 excerpts from a twenty-first collector
# who never read the signature table, the fallback, their tests or the other collections'
# excerpts; its slips are in the README), taken once with main as the collection was merged
# (3a875d8: after the twentieth's rows and the fallback and reader retrained on it,
# issue-27rows20, blind to it): 55 of 84 categories and 76 of 84 actions; rows alone 45 / 76;
# two wrong exclude_node (9278bb57cf00, 4ffecfebd734: driver bugs labelled software_bug, both
# unsure, answered faulty_gpu by rows). The collector marked 38 labels unsure
# (TWENTYFIRST_UNSURE, README); on the other 46: 35 categories and 43 actions right. 12 labels
# exclude a node, 5 of them answered restart.
TWENTYFIRST_FIRST: dict[str, float] = {"category": 0.6548, "action": 0.9048}
TWENTYFIRST_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5357, "action": 0.9048}
TWENTYFIRST_FIRST_SURE: dict[str, float] = {"category": 0.7609, "action": 0.9348}
TWENTYFIRST_UNSURE: frozenset[str] = frozenset(
    [
        "03d03424ceeb",
        "06a2842d38ec",
        "0faace242bb5",
        "162eac60a100",
        "1aa888e17d6a",
        "23b9a39574b0",
        "29f70f4d181c",
        "2a11f7b4f728",
        "2eddf8210639",
        "31c830f27ccb",
        "34f832b77e57",
        "36fab024559f",
        "382ac557799f",
        "39261f8c55c3",
        "3b3a42809792",
        "3e41cede301b",
        "3f345d555fa9",
        "49d96832149e",
        "4d1f3c610da5",
        "4ffecfebd734",
        "623001085d9b",
        "67955e250eab",
        "6d8f49761fba",
        "6e806de7db53",
        "6f148ab5fa76",
        "7dab9f0c966a",
        "7e11e7b2dcfe",
        "9278bb57cf00",
        "9dba3e6edf46",
        "9f955cd4c087",
        "a125c73ce571",
        "ab87ef6936d5",
        "b1ff9ef20ac1",
        "c428c35b378f",
        "c5767c5c1f89",
        "e2e261352e4c",
        "e876b27a5f4d",
        "ec0ad4de72c1",
    ]
)


# twentysecond.jsonl's first score (2026-12-05 04:14, 82 excerpts from a twenty-second collector
# who never read the signature table, the fallback, their tests or the other collections'
# excerpts; the first with excerpts from the "pages" corpus beside GitHub threads; its slips are
# in the README), taken once with main as the collection was merged (25d614a: after the
# twenty-first's rows and the fallback and reader retrained on it, issue-27rows21, blind to it):
# 59 of 82 categories and 70 of 82 actions; rows alone 53 / 70; one wrong
# exclude_node (ccf26e5bb282: an Xid 120 GSP exception following the X server across cards,
# labelled software_bug, unsure, answered gpu_system_processor by the Xid row). The collector
# marked 36 labels unsure (TWENTYSECOND_UNSURE, README); on the other 46: 38 categories and 44
# actions right. 16 labels exclude a node, 9 of them answered restart.
TWENTYSECOND_FIRST: dict[str, float] = {"category": 0.7195, "action": 0.8537}
TWENTYSECOND_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6463, "action": 0.8537}
TWENTYSECOND_FIRST_SURE: dict[str, float] = {"category": 0.8261, "action": 0.9565}
TWENTYSECOND_UNSURE: frozenset[str] = frozenset(
    [
        "01ba31d584a7",
        "078eaa6e2197",
        "11a2844f35cd",
        "164311213ca3",
        "164395fae4d2",
        "171512753dad",
        "19ec3eb64897",
        "22aa6d95e2cd",
        "2305862a4f5f",
        "24c1ec1e38bb",
        "27724b5a9290",
        "290141b469c1",
        "2c5ff56e721c",
        "2e03c58980ec",
        "30b9146e9b3e",
        "452f90905fef",
        "4a06449b3042",
        "4d65cfe5dbf2",
        "5f8ec779c19c",
        "6e6bd06f9e63",
        "6ebcf4ede20f",
        "76e57b44662c",
        "7c390c6b5e8e",
        "7ddd8c1f6d87",
        "8664a7a9e647",
        "8e954f9cd71c",
        "92a94b1bf6e2",
        "9b86c0fbdce8",
        "a437a0e9dbb3",
        "bd77828fe014",
        "be064a5074a4",
        "ccf26e5bb282",
        "ce4f4fc3802b",
        "d305dab238f2",
        "df9e95a9fe83",
        "e1111658781f",
    ]
)


# twentythird.jsonl's first score (2026-12-05 04:50, 82 excerpts from a twenty-third collector
# who never read the signature table, the fallback, their tests or the other collections'
# excerpts; from the "issues", "pages" and "docs" corpora; its slips are in the README), taken
# once with main as the collection was merged (81ce76e: after the twenty-second's rows and the
# fallback and reader retrained on it, issue-27rows22, blind to it): 63 of 82 categories and
# 68 of 82 actions; rows alone 55 / 68; one wrong exclude_node (0f507aa9668a: a
# burst of Xid 9 on a desktop, labelled software_bug, sure, answered faulty_gpu by the Xid row).
# The collector marked 38 labels unsure (TWENTYTHIRD_UNSURE, README); on the other 44: 35
# categories and 36 actions right. 12 labels exclude a node, 7 of them answered restart.
TWENTYTHIRD_FIRST: dict[str, float] = {"category": 0.7683, "action": 0.8293}
TWENTYTHIRD_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6707, "action": 0.8293}
TWENTYTHIRD_FIRST_SURE: dict[str, float] = {"category": 0.7955, "action": 0.8182}
TWENTYTHIRD_UNSURE: frozenset[str] = frozenset(
    [
        "06bc136eeb81",
        "0987c5267414",
        "0b92b3ab6d10",
        "0c64f4f3c071",
        "0d8bdeef85aa",
        "15e8e17d80f3",
        "20d9420c4510",
        "28ef84d90840",
        "35b19da72a54",
        "3638d13a014f",
        "3ebf1658413a",
        "403225f2f692",
        "662632bdcf22",
        "6664ce61eb02",
        "69085d70dfba",
        "7d90c1af3965",
        "8a0c1f32f8cf",
        "8bbd8069b249",
        "93c74b900203",
        "9a6d31446640",
        "9b4b2b09cff4",
        "9c386cc0d7cd",
        "9f4a7ebcb002",
        "a19a53964b1c",
        "af01518dca23",
        "c812d76bb00b",
        "c8a1b0700b1b",
        "cb8397366627",
        "cc8c60203a18",
        "dcaee5d149d5",
        "de8995e073de",
        "e1f12fee6b31",
        "e4264b7b2b41",
        "eabb5fe32f04",
        "f12cfffb4946",
        "f6a198960801",
        "fbed2859101d",
        "fc5b80c54e94",
    ]
)


# twentyfourth.jsonl's first score (2026-12-05 07:09, 82 excerpts from a twenty-fourth collector
# who never read the signature table, the fallback, their tests or the other collections'
# excerpts; GitHub issue and pull-request threads only; its slips are in the README), taken
# once with main as the collection was merged (8b14a46: after the twenty-third's rows and the
# fallback and reader retrained on it, issue-27rows23, blind to it): 61 of 82 categories and
# 75 of 82 actions; rows alone 58 / 75; one wrong exclude_node (24e8d131a69b: amdgpu failing its
# ring test at init on a board with a coreboot port in development, labelled software_bug,
# unsure, faulty_gpu the alternative, answered faulty_gpu by a row).
# The collector marked 41 labels unsure (TWENTYFOURTH_UNSURE, README); on the other 41: 36
# categories and 41 actions right. 12 labels exclude a node, 2 of them answered restart.
TWENTYFOURTH_FIRST: dict[str, float] = {"category": 0.7439, "action": 0.9146}
TWENTYFOURTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7073, "action": 0.9146}
TWENTYFOURTH_FIRST_SURE: dict[str, float] = {"category": 0.878, "action": 1.0}
TWENTYFOURTH_UNSURE: frozenset[str] = frozenset(
    [
        "0123855e1049",
        "090b635b7461",
        "0f15ab12baf0",
        "10d4c1773aad",
        "18d53915540d",
        "249031a7b94b",
        "24e8d131a69b",
        "26d6ad12a892",
        "2d8d2551d2fb",
        "31b3c51afdbd",
        "3b8c5a4ac4f4",
        "3f7ef1fc1205",
        "3fb9e2215483",
        "54a82cebc782",
        "55c5a45a6c91",
        "604234f9a54c",
        "7b7445ee65fe",
        "7d2c910b9c84",
        "7d542e395907",
        "861e9a7d4a67",
        "8a01d4151582",
        "8d2136f97287",
        "8e92711c5a38",
        "901b5e859424",
        "9ad7abfd9ffb",
        "9fa7fc5de1af",
        "a3695d2a013e",
        "b24e7a60fb75",
        "b7fff1abd7dc",
        "bceb468ad032",
        "bd1aac2e57d2",
        "c46af1ed0fcf",
        "c8079a69f799",
        "c81abe6faf71",
        "cc733583ec7b",
        "ccf6505e893a",
        "e29151b82c2c",
        "ed8ba4b225da",
        "fd36639e760e",
        "fd6f436fc549",
        "ffb30165d208",
    ]
)


# twentyfifth.jsonl's first score (2026-12-05 07:40, 83 excerpts from a twenty-fifth collector
# and a follow-up collector, both blind to the signature table, the fallback, their tests and the
# other collections' excerpts; no GitHub threads: web pages, Q&A, vendor knowledge bases and
# documents, mailing lists; 9 records from AI-written error catalogues, interview scenarios and
# stories were removed by the lead before scoring and replaced by 12 real ones; its slips are in
# the README), taken once with main after the twenty-fourth's rows (0e8b5ae, issue-27rows24,
# blind to it): 58 of 83 categories and 65 of 83 actions; rows alone 55 / 65; one wrong
# exclude_node (b465b5e9236f: an NVMe's PCIe error that recovered by itself on s390, labelled
# unknown, sure, read as a failing disk by a row). 34 labels exclude a node (16 disks), 15
# answered restart (7 of them guesses with the right hardware category). 23 excerpts come from
# pages that quote common error strings rather than a first-hand incident (explainer and
# content-farm pages, listed by the lead before scoring): 18 / 21 right there, 40 / 44 of the
# other 60. The collectors marked 42 labels unsure (TWENTYFIFTH_UNSURE); on the other 41: 33
# categories and 36 actions right.
TWENTYFIFTH_FIRST: dict[str, float] = {"category": 0.6988, "action": 0.7831}
TWENTYFIFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6627, "action": 0.7831}
TWENTYFIFTH_FIRST_SURE: dict[str, float] = {"category": 0.8049, "action": 0.878}
TWENTYFIFTH_UNSURE: frozenset[str] = frozenset(
    [
        "1d84809af8bd",
        "206e2813351a",
        "236c45d090d4",
        "2948e8bb6217",
        "3197f836e4eb",
        "32557f6133c3",
        "34687e7ee1bb",
        "3de0aa5ffa4a",
        "3e9f0ea419a8",
        "3ec7e874ad32",
        "3ee0e263bc79",
        "434672e5e780",
        "44a84af3032f",
        "4d64fa510e7d",
        "5d2e8a70a71a",
        "6263ec2b868e",
        "657613ac3f4f",
        "66010992ad2b",
        "686eec03f004",
        "6baf33c54e58",
        "9244ae804542",
        "9a75ea8cca4f",
        "9b7f27272720",
        "9bca653b49c8",
        "9c267da49c86",
        "9cbdcb2b38f9",
        "a128d0fbd5e1",
        "a9006467826a",
        "b14173373185",
        "b1fcb6a222b9",
        "b679d7632cf3",
        "b993f123e503",
        "bbbb5c760fdc",
        "bc179dc41708",
        "d0bcc5f6b254",
        "d4b03db3441a",
        "e48d7038c775",
        "eb8da531d688",
        "ec260d0ba8ee",
        "f8149d89fe6c",
        "f8c0560a9d07",
        "fb1c178efe14",
    ]
)


# twentysixth.jsonl's first score (2026-12-05 07:40, 84 excerpts from a twenty-sixth collector
# blind to the signature table, the fallback, their tests and the other collections' excerpts;
# any source not used before, GitHub threads and pages in several languages; its slips are in
# the README), taken once with main after the twenty-fourth's rows (0e8b5ae, issue-27rows24,
# blind to it), as the twenty-fifth: 52 of 84 categories and 72 of 84 actions; rows alone 46 /
# 72; 25 with no answer at all; three wrong exclude_node, all on unsure labels (20c94915ad92 and
# f65548ccecc2: Open MPI's "ORTE has lost communication with" a daemon, labelled unknown and
# dependency, read as a lost host by a row; 7ee63fa55be7: a DCGM table with an NVLink "currently
# down" on A100s without NVLink, labelled unknown, read as a faulty GPU). The collector marked 46
# labels unsure (TWENTYSIXTH_UNSURE); on the other 38: 33 categories and 35 actions right.
TWENTYSIXTH_FIRST: dict[str, float] = {"category": 0.619, "action": 0.8571}
TWENTYSIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5476, "action": 0.8571}
TWENTYSIXTH_FIRST_SURE: dict[str, float] = {"category": 0.8684, "action": 0.9211}
TWENTYSIXTH_UNSURE: frozenset[str] = frozenset(
    [
        "0355f061863f",
        "1bccf09f8c84",
        "20c94915ad92",
        "2c09dd7cc552",
        "2f5a2d5dfb3f",
        "31cd680d5281",
        "3402195bf658",
        "348ba0775410",
        "39d9dacce1c5",
        "3d6cd726a875",
        "471f4c9433a3",
        "4e343bd2b6d8",
        "54735f93c09f",
        "5d1c9f36096e",
        "5e99222ab18c",
        "6287c501c9b3",
        "65bd51858fea",
        "7177d8268a04",
        "736292340dad",
        "7b8362689f00",
        "7c90f1dcf7d7",
        "7ee63fa55be7",
        "83e8e6cf0aac",
        "84e38bafe5ed",
        "85b3cf1d36b9",
        "92635018a5dd",
        "99dd22b23295",
        "9f0f3ba41b9e",
        "a0c94c593558",
        "a1a117951ab3",
        "a1bc4e1d8121",
        "a28b4786441e",
        "aa2a2ceb6a24",
        "ae302a99913e",
        "cd7d17b4283e",
        "d98175c3e9d2",
        "ddbcdf88677f",
        "e0c39c708b21",
        "e3342f58ea35",
        "e401a98ff369",
        "eb0e83c184d6",
        "edaa973ab4b4",
        "f17f1985d879",
        "f65548ccecc2",
        "f6db6eed94b4",
        "fa00bc68a31e",
    ]
)

# twentyseventh.jsonl's first score (2026-12-05 10:45, 81 excerpts: 26 from a twenty-seventh
# collector who stopped at its hard stop in session 18, completed by a second collector in session
# 19, both blind to the signature table, the fallback, their tests and the other collections'
# excerpts; codes far from the usual ML stacks: miners, scientific GPU codes, storage servers,
# pastes and gists of kernel logs; its slips are in the README), taken once with main after the
# two Slurm tests' pacing and the straggler fix (ada3507; nothing in triage changed since
# 528fa1d): 53 of 81 categories and 62 of 81 actions; rows alone 43 / 62; 20 with no
# answer at all; one wrong exclude_node (51bf7c0fac2a). The collectors marked 50 labels unsure
# (TWENTYSEVENTH_UNSURE); on the other 31: 27 categories and 28 actions right. The first collector's
# 26: 53.8% / 69.2%; the second's 55: 70.9% / 80.0%.
TWENTYSEVENTH_FIRST: dict[str, float] = {"category": 0.6543, "action": 0.7654}
TWENTYSEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5309, "action": 0.7654}
TWENTYSEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.871, "action": 0.9032}
TWENTYSEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "012118682417",
        "0a9b7940c40e",
        "137f045d526e",
        "1633830aed26",
        "164685760b01",
        "188d5adb3670",
        "196e965fc35b",
        "26d8088484b4",
        "2ef38ffaca24",
        "326ca53989db",
        "343991d96849",
        "3c97804df3a6",
        "3d5e66f33978",
        "49fbf59f923d",
        "4bbf3dec1ac5",
        "51bf7c0fac2a",
        "545d1e97b1ce",
        "572547ede3ec",
        "5b622849564c",
        "5e38af3bf279",
        "5f4cdb69cafb",
        "63a17c64d3b8",
        "6b128427b706",
        "6cfae0ac23e4",
        "77327354709b",
        "803e01fc197d",
        "81352aba7f00",
        "81bbc4684511",
        "831e242a2fc5",
        "8dbc602ccdb1",
        "8e4fd4970848",
        "91eeb4dd3c6c",
        "9d49a2703d86",
        "9e3b9b586c6f",
        "9faf326bd32a",
        "a05309cc844e",
        "a34cc6aa5e87",
        "a4be122a8044",
        "a8aabc599fb6",
        "a95ba99322dc",
        "ab86126a9dbc",
        "bead43cbda11",
        "c31301ce9dc9",
        "ca55f4c7ada5",
        "d06171b552b1",
        "d06c59b52073",
        "d5a368ed9688",
        "d5fd550aab24",
        "e524cb2e314b",
        "f71b3a82b0d5",
    ]
)


# twentyeighth.jsonl's first score (2026-12-05 13:43, 82 excerpts by a twenty-eighth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; GitHub
# threads of projects far from the usual ML stacks: Julia's GPU packages, CuPy, Dask, ONNX Runtime,
# Faiss, XGBoost, CockroachDB, MinIO, Kafka, ComfyUI, scientific GPU codes, HPC clusters; pastes
# and gists; its slips are in the README), taken once on main c1a0a08 (after the twenty-seventh's
# rows; nothing in triage changed since but the fallback table's file format, read back equal):
# 48 of 82 categories and 65 of 82 actions; rows alone 38 / 65; 24 with no answer at all; no
# wrong exclude_node. The collector marked 61 labels unsure (TWENTYEIGHTH_UNSURE); on the other
# 21: 17 categories and 16 actions right.
TWENTYEIGHTH_FIRST: dict[str, float] = {"category": 0.5854, "action": 0.7927}
TWENTYEIGHTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4634, "action": 0.7927}
TWENTYEIGHTH_FIRST_SURE: dict[str, float] = {"category": 0.8095, "action": 0.7619}
TWENTYEIGHTH_UNSURE: frozenset[str] = frozenset(
    [
        "01f7ac41cd85",
        "19db37293445",
        "1b903ebff71b",
        "1bba89520e6e",
        "1ec6f60a8158",
        "2d9721dc16dd",
        "2f1d574b67f7",
        "305ad36e2a89",
        "3253d2136588",
        "35ae463f86ef",
        "35f41d03d8ec",
        "3624e4d90c3e",
        "4109b6e582ba",
        "428f3ce4ea22",
        "43d445c5f7df",
        "456247de3fcb",
        "456f8dd69534",
        "48481e77c725",
        "4a175134b1ab",
        "4c1f3b605a6d",
        "4f4ff7dd0e01",
        "52e2c477f4a3",
        "5680980bef22",
        "597307678c5d",
        "5a9e1b8aefa9",
        "621f4b81e138",
        "6aefb1ec6fa5",
        "6e0ac56cd1a1",
        "80878dd14ca3",
        "8875bab627b4",
        "8973c25e02f9",
        "8975392d59e4",
        "8af991f2d869",
        "953651f4195e",
        "95b28373522b",
        "966c99529d6c",
        "970d94debabb",
        "9737ca2536bf",
        "97f49102f9c2",
        "9bf731957d3f",
        "9c7f40c6157b",
        "9c84c13ad1f7",
        "a40c3f226225",
        "b4559f2eccc7",
        "b5342ba08796",
        "b7a86246791f",
        "c0d4deb88f28",
        "c0ef32dea9ea",
        "ce78fdf66e78",
        "cfbc66a1e558",
        "d18103b89c3c",
        "d96036e9b82c",
        "e1590cec61bf",
        "e9b3515db3fc",
        "ea8780d44b73",
        "ebb57dd01d03",
        "ec284eb8ddc7",
        "efb1f8c82d96",
        "f2b2442b07ae",
        "f426a6483482",
        "f58a79112bee",
    ]
)


# twentyninth.jsonl's first score (2026-12-05 17:00, 81 excerpts by a twenty-ninth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; GitHub
# threads of 72 repositories far from the usual ML stacks: databases on failing disks, NVENC and
# VAAPI transcoders, Spark on YARN, Horovod, Ascend HCCL, miners, Chia and Filecoin; its slips are
# in the README), taken once on main 1a217f7 (the collection merged onto 1284303; nothing in
# triage changed since the twenty-eighth's rows): 44 of 81 categories and 62 of 81 actions; rows
# alone 38 / 62; 25 with no answer at all; no wrong exclude_node. The collector marked 54 labels
# unsure (TWENTYNINTH_UNSURE); on the other 27: 23 categories and 25 actions right.
TWENTYNINTH_FIRST: dict[str, float] = {"category": 0.5432, "action": 0.7654}
TWENTYNINTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4691, "action": 0.7654}
TWENTYNINTH_FIRST_SURE: dict[str, float] = {"category": 0.8519, "action": 0.9259}
TWENTYNINTH_UNSURE: frozenset[str] = frozenset(
    [
        "000d601ee88e",
        "0083f0b5a255",
        "01f5f546e701",
        "0bae1b6b2edf",
        "0f4d09521855",
        "1204d37fb076",
        "140741cd9b7e",
        "1adf24f078d2",
        "283aa1e86d52",
        "2fd7a2acf97a",
        "3408b60b771e",
        "34c9ccdc0c3a",
        "36a9c20ed5fd",
        "390bbcae0fa4",
        "3c9bf4d0ba70",
        "3e1c426c72b4",
        "4c710e66b99d",
        "4f20fbd8dd6b",
        "52205585e8ba",
        "5c296245ff0b",
        "5cfa90f7508c",
        "6a64c204e4c3",
        "7a5016b970c0",
        "7e1bf42dff23",
        "803ca0f04564",
        "8aeb5ba6c653",
        "8fd9e5a53ead",
        "91cdeda539e3",
        "9519bca358da",
        "960d0afe54b0",
        "9b58593cb8bb",
        "9c6f5ad007db",
        "9d91d11ce1de",
        "a102e578499f",
        "a5d521af6bbc",
        "b45b6f6c67df",
        "b56f028ff219",
        "bcadf16e10c2",
        "c14c17a8405b",
        "c62f65d99682",
        "ca6a4a28245b",
        "cb92fd138848",
        "cd08c7ca30f6",
        "d04ee6c9950e",
        "d330a2797270",
        "d5cfe1fab0b5",
        "dbfaebd51077",
        "dd5827a6417d",
        "e24c7b74f132",
        "e374d0039088",
        "eaf01fc935e9",
        "ede089b2e079",
        "f2c68de3b370",
        "fbe8587994c7",
    ]
)


# thirtieth.jsonl's first score (2026-12-05 17:40, 80 excerpts by a thirtieth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; GitHub
# threads of 53 repositories far from the usual ML stacks: Ethereum, Solana and Bitcoin nodes,
# InfluxDB, Loki, Badger, Elasticsearch, Ceph, scientific codes (SU2, Oceananigans, WRF, AMReX,
# E3SM, nekRS), game servers, miners, NAS and RAID disks, routers' NICs; seven pages in Japanese,
# German, Korean and Chinese; its slips are in the README), taken once on main d55a9be (the
# collection merged after the twenty-ninth's rows and session 21's foreign-input fixes): 39 of 80
# categories and 63 of 80 actions; rows alone 33 / 63; 32 with no answer at all; one wrong
# exclude_node (b1f60f568db1: tcpreplay's send failure on a NIC, an unsure software_bug label).
# The collector marked 59 labels unsure (THIRTIETH_UNSURE); on the other 21: 10 categories and
# 16 actions right.
THIRTIETH_FIRST: dict[str, float] = {"category": 0.4875, "action": 0.7875}
THIRTIETH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4125, "action": 0.7875}
THIRTIETH_FIRST_SURE: dict[str, float] = {"category": 0.4762, "action": 0.7619}
THIRTIETH_UNSURE: frozenset[str] = frozenset(
    [
        "056a3f0ba895",
        "06a000d425f3",
        "0772e9b71f4a",
        "0cd5e3b9cf42",
        "143fb5ba1d7b",
        "161c53195136",
        "17c4c821c7c0",
        "1af1b46935c6",
        "1d1199e604fc",
        "213833184780",
        "23553ded6b88",
        "25415972fd17",
        "274901cf75bd",
        "29ad2d5838e0",
        "34aca331eda0",
        "4076ee33f662",
        "40c3a3249598",
        "4a4e5cb38658",
        "4c3801c5ca56",
        "4ca6781c21fd",
        "5ad25004c664",
        "5f19d1255f0f",
        "5f72320090cb",
        "60bf30273916",
        "6533eb12df91",
        "6571a58b1e95",
        "665d898811b4",
        "68b5c472ddbb",
        "6f0a4e84e6ab",
        "77aecfd2d5fe",
        "7d7ab30890b7",
        "7d9ff299bcbd",
        "806997628bf2",
        "8784e6d5b6b1",
        "88626394252d",
        "8ac791dfb654",
        "94c88093b7d6",
        "95ad02de23b7",
        "9db9e48c7ab6",
        "9e930b0f4d1c",
        "9f7b3c6b109e",
        "a126b6667fe2",
        "a59d6fcba8c3",
        "a93fde00571b",
        "ab24bc93d267",
        "b1f60f568db1",
        "c3785b6b41ba",
        "c7de71619a16",
        "cc7972840717",
        "cc8cd5bd8407",
        "cf03047d8c99",
        "d7edcad1bdfb",
        "d82d4c8c0ee5",
        "d892142b4d6d",
        "dde353829944",
        "e0f4d7f23bb1",
        "e4edfa096ae3",
        "e7bf3af8c2bc",
        "eaaa70671d7b",
    ]
)


# thirtyfirst.jsonl's first score (2026-12-06 07:16, 80 excerpts by a thirty-first collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; 78 GitHub
# sources of 61 repositories near a PyTorch training tool's user: fine-tuning and RL frameworks,
# JAX/XLA, accelerators beyond NVIDIA (ROCm, Intel, Gaudi, Hygon DCU), cluster tooling (dstack,
# Kubeflow, ParallelCluster, Ray, Vertex AI, SageMaker, OpenShift bare metal), a GPU health agent's
# recorded dmesg, model codebases; 2 pages; its slips are in the README), taken once on main
# 31a609c (the collection merged after the thirtieth's rows and the reader's threshold floor): 53
# of 80 categories and 72 of 80 actions; rows alone 46 / 71; 9 with no answer at all; one wrong
# exclude_node (667a6856940a: a GPU health agent's README quoting Xid 13 then Xid 109, an unsure
# software_bug label whose alternatives include faulty_gpu). The collector marked 60 labels unsure
# (THIRTYFIRST_UNSURE); on the other 20: 16 categories and 18 actions right.
THIRTYFIRST_FIRST: dict[str, float] = {"category": 0.6625, "action": 0.9}
THIRTYFIRST_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.575, "action": 0.8875}
THIRTYFIRST_FIRST_SURE: dict[str, float] = {"category": 0.8, "action": 0.9}
THIRTYFIRST_UNSURE: frozenset[str] = frozenset(
    [
        "0059c2355dca",
        "06dc6b16c9cb",
        "08ea8383ada7",
        "0ef75f20cb5c",
        "1120a6260e6f",
        "1405c5c0c9fe",
        "18ff50c9be21",
        "197e40005c78",
        "1b7519b04600",
        "2461088f9eff",
        "2990617b66ba",
        "2be3d143144e",
        "2f114e9483d1",
        "39231b3c9d9a",
        "3adea31db99a",
        "3b04419970be",
        "4dbfee808fc0",
        "4f9adf062b29",
        "5497db72af39",
        "56804197d244",
        "56c9c38b225a",
        "582b52e114f0",
        "5bece068df33",
        "6089895e7931",
        "64b2ebbd2e01",
        "667a6856940a",
        "6d1980071a27",
        "70c3a2789d2c",
        "79909990cfe0",
        "7a1dee5980a7",
        "7ec193b1d5f9",
        "827092d9025e",
        "8983a5299ae2",
        "8c591fadb98e",
        "91dd11ba628e",
        "932ddc17bad7",
        "9346e9dc00b5",
        "9a375912c3c0",
        "9c601fe6ac94",
        "9fa36d424bb1",
        "a21d6b694689",
        "a2bdafdb6e1c",
        "a4af6dff18de",
        "a90584ca32c9",
        "b2d908c7e23c",
        "b5391f83549b",
        "c1a4e079462e",
        "c83385ce3339",
        "cd36413744ea",
        "d5be018d5a77",
        "d6534b8a9245",
        "d6b77aaa60c7",
        "d7106fc6d3b2",
        "d8b5d4418eb3",
        "e00242f88e9e",
        "e41a6515e45a",
        "e738d96e07db",
        "e8272bb01e7f",
        "e984711c9371",
        "f17973122bc5",
    ]
)

# thirtysecond.jsonl's first score (2026-12-06 09:41, 80 excerpts by a thirty-second collector
# blind to the signature table, the fallback, their tests and the other collections' excerpts; 60
# GitHub sources of 57 repositories, 3 gists and 17 other pages: hardware and host logs (an Intel
# IERR SEL, a BMC power unit failure, EDAC, Xid 79/74/13/31, an NVSwitch SXid, e1000e, local SCSI
# disks, CacheLib's flash checksums), cloud and scheduler stops, Ascend NPU and HCCL logs, collective
# timeouts, storage, allocators out of memory, installation and launch failures; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 94c0103 (the collection
# merged after the thirty-first's rows): 60 of 80 categories and 72 of 80 actions; rows alone 54 /
# 72; 14 guesses, 7 right; 9 with no answer at all; one wrong exclude_node (982651df85b4: ext4
# journals aborting on Longhorn's replicated network volumes, read as a local disk; an unsure
# storage label whose alternative is ssd). The collector marked 47 labels unsure
# (THIRTYSECOND_UNSURE); on the other 33: 30 categories and 31 actions right.
THIRTYSECOND_FIRST: dict[str, float] = {"category": 0.75, "action": 0.9}
THIRTYSECOND_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.675, "action": 0.9}
THIRTYSECOND_FIRST_SURE: dict[str, float] = {"category": 0.9091, "action": 0.9394}
THIRTYSECOND_UNSURE: frozenset[str] = frozenset(
    [
        "0142782a3c6b",
        "099bcce71339",
        "0a7decdf0fcd",
        "0bc43323dabf",
        "16c5ba6cc48e",
        "179efaefa9de",
        "25a29aae9d6b",
        "2bc30bfa2781",
        "32e522a0c436",
        "34a15332d116",
        "3d84a690846b",
        "41c147501f97",
        "562a4143b4e7",
        "56446e376c35",
        "58fbc453ba72",
        "5d2992585bd8",
        "624a219ebdd5",
        "750f72750380",
        "775eb2f15c6a",
        "8c3c9face3b6",
        "8cc6664891da",
        "982651df85b4",
        "99211da1d4ba",
        "996b4dd4a3eb",
        "9a32d5ff5fa5",
        "a0bc1270ffd6",
        "a3f75718dbb0",
        "b2d192989209",
        "b49ae3120b6f",
        "b6d47503f1dd",
        "bb524251ca30",
        "c4113ee701c1",
        "c6b12373ab1f",
        "c7355396a58e",
        "ca01b03a2eb5",
        "cd637ea1f5b6",
        "d0622395e014",
        "d88f5866afe4",
        "dcc692e48a8a",
        "e583dce2896a",
        "e926c22fe7b9",
        "e9d4fd196825",
        "ec5e284f6de8",
        "ecad253b04fc",
        "f363a91b2d18",
        "f9c2750586bb",
        "ff9897088cfb",
    ]
)

# thirtythird.jsonl's first score (2026-12-06 10:28, 80 excerpts by a thirty-third collector
# blind to the signature table, the fallback, their tests and the other collections' excerpts; 61
# GitHub sources of 56 repositories, 3 gists and 16 other pages: training logs (MindSpore,
# PaddlePaddle, detectron2, fairseq, DeepSpeed, Megatron, Hugging Face trainers: NaN, overflow,
# loss jumps), collective timeouts, library kernels' illegal accesses, installation and launch
# failures, allocators out of memory, storage, bare kills and a few host logs (lockups, a local
# disk, vanished GPUs, a BMC power log); no GPU memory, NIC, switch, system memory, host
# maintenance or silent corruption record; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main 8b69b39 (the collection merged after the thirty-second's
# rows): 71 of 80 categories and 79 of 80 actions; rows alone 69 / 79; 3 guesses, 2 right; 3 with
# no answer at all; no wrong exclude_node (one exclude_node label missed: a76819be7bdc, GPUtil's
# nvidia-smi answering "No devices were found" mid-training, read as dependency). The collector
# marked 40 labels unsure (THIRTYTHIRD_UNSURE); on the other 40: 39 categories and 40 actions
# right, the same with the rows alone.
THIRTYTHIRD_FIRST: dict[str, float] = {"category": 0.8875, "action": 0.9875}
THIRTYTHIRD_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.8625, "action": 0.9875}
THIRTYTHIRD_FIRST_SURE: dict[str, float] = {"category": 0.975, "action": 1.0}
THIRTYTHIRD_UNSURE: frozenset[str] = frozenset(
    [
        "00c730c1a2fd",
        "0ad789adb59a",
        "12003e9d1ed8",
        "17e8bde3c223",
        "22fc39acdb33",
        "27bb03ecdc21",
        "28764d98876e",
        "361c32294e4c",
        "3759fda58161",
        "3b10d60644b0",
        "4c2892c69eb1",
        "58b0a8802aa1",
        "5b0a658dab95",
        "5b1f1de7f8ef",
        "5b9b9d28e19b",
        "6243a68e5d35",
        "675cce8b8088",
        "6778c06819d4",
        "6795a9e20ebe",
        "6be42e31f9d3",
        "75ce2283f5ff",
        "7ae16c133c14",
        "7e7ed1f7c323",
        "8dad575c4c93",
        "8edaede50b93",
        "956f0748a125",
        "9651596b0740",
        "a2ac1e890391",
        "a4298db76dff",
        "a76819be7bdc",
        "ab40ce8927f4",
        "afb62c924ceb",
        "b4dc7e00b650",
        "bb66ab40f5f4",
        "bbf1b63dd852",
        "c2920e048860",
        "c3837c9afddc",
        "cce502e30e39",
        "dadf05f7cef7",
        "ea582a651080",
    ]
)

# thirtyfourth.jsonl's first score (2026-12-06 10:38, 80 excerpts by a thirty-fourth collector
# blind to the signature table, the fallback, their tests and the other collections' excerpts; 68
# GitHub sources of 59 repositories, 3 gists and 9 other pages: hardware and host operations, host
# kernel logs (machine checks, RCU stalls, NVMe, ATA and SCSI medium errors, ext4, Btrfs and ZFS),
# BMC and vendor logs (IPMI SEL, iDRAC, HP IML, OpenBIC), RAID and SMART tools, GPU driver lines, a
# few training logs and installation failures; 36 of its 80 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main c1ec185 (the collection
# merged; the thirty-third had no rows yet): 54 of 80 categories and 60 of 80 actions; rows alone
# 51 / 60; 11 guesses, 4 right; 10 with no answer at all; four wrong exclude_node, all on unsure
# labels: b940ab1d7b59 (medium errors on a Longhorn iSCSI volume) and eba9dde53531 (DID_BAD_TARGET
# on a Google PersistentDisk), both storage read as ssd; dc856aafddab (Btrfs errors on an emulated
# zoned NVMe device, software_bug) read as ssd; e0ab62b33df0 (a machine check whose bank status is
# all zeros, unknown) read as cpu. The collector marked 62 labels unsure (THIRTYFOURTH_UNSURE); on
# the other 18: 17 categories and 17 actions right, the same with the rows alone.
THIRTYFOURTH_FIRST: dict[str, float] = {"category": 0.675, "action": 0.75}
THIRTYFOURTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6375, "action": 0.75}
THIRTYFOURTH_FIRST_SURE: dict[str, float] = {"category": 0.9444, "action": 0.9444}
THIRTYFOURTH_UNSURE: frozenset[str] = frozenset(
    [
        "05047254ad0f",
        "08c674940817",
        "0c4fe931a550",
        "0d40e6f22958",
        "0d75afa79251",
        "0f0646faecca",
        "150356a8b1f8",
        "188249f27dfa",
        "1de537ea9825",
        "1dea159730db",
        "23f53de946d5",
        "303221e492b0",
        "32272f2aa1fd",
        "3a11bdee80fb",
        "3d199dd1783f",
        "41f2aa9cf9ab",
        "465571cdf5bb",
        "49ba19106e51",
        "4bbb0d78e419",
        "4f7f8d45ce03",
        "569da157d2a9",
        "574deb715f6b",
        "58c06345d0ee",
        "5be18a6c5c3d",
        "61e6191edf87",
        "663ad7c09532",
        "686c42856e3b",
        "68a771d38c82",
        "6dd3d0c57fa6",
        "7272c39d5b52",
        "75114881f6c8",
        "77746ccc7b7e",
        "82b64c89dd3a",
        "87c91ad77aa0",
        "89bd7a3c9090",
        "8a41bcadd6c5",
        "8c3ba5bcabea",
        "92913645b0b4",
        "995f80b75ffb",
        "9b6fb9779adf",
        "9bd5d6036527",
        "a685f8221108",
        "a83a9c041756",
        "a8b2f2eae377",
        "aa1a16e39540",
        "aa985e27579f",
        "ad632e80c225",
        "ae659b76afde",
        "b8abbdf3694e",
        "b940ab1d7b59",
        "bb5dd7aa0943",
        "bef17af0a66e",
        "d0a1be274995",
        "d33529bda6ce",
        "d8bd73065b5f",
        "d965e97d8479",
        "dc856aafddab",
        "e0ab62b33df0",
        "e6700994ca1a",
        "eba9dde53531",
        "fd371e41287b",
        "ff9a4f59b9b8",
    ]
)

# thirtyfifth.jsonl's first score (2026-12-06 13:15, 81 excerpts by a thirty-fifth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; 80 GitHub
# sources of 63 repositories and a Hugging Face Space's page: distributed-training software
# failures, PyTorch DDP/FSDP and torchrun launch logs, DeepSpeed, Megatron and nanotron, vLLM and
# Ray workers, Horovod, TensorFlow and JAX collectives, NCCL and Gloo set-up and watchdog lines,
# CUDA kernel errors, checkpoint save and load failures, installation and build failures, hub and
# W&B connectivity; no hardware record and no label excludes a node; its slips are in the README),
# taken once with benchmarks/score_first_sight.py on main 3994d94 (the collection merged, nothing
# else changed in triage since the thirty-fourth's rows and retrain): 63 of 81 categories and 74 of
# 81 actions; rows alone 61 / 74; 5 guesses, 3 right; 8 with no answer at all; no wrong
# exclude_node. The collector marked 57 labels unsure (THIRTYFIFTH_UNSURE), and all 18 misses are on
# those; on the other 24: all 24 categories and actions right (23 categories with the rows alone).
THIRTYFIFTH_FIRST: dict[str, float] = {"category": 0.7778, "action": 0.9136}
THIRTYFIFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7531, "action": 0.9136}
THIRTYFIFTH_FIRST_SURE: dict[str, float] = {"category": 1.0, "action": 1.0}
THIRTYFIFTH_UNSURE: frozenset[str] = frozenset(
    [
        "002fc26f3965",
        "139f129bc392",
        "150ffa8e73d4",
        "15764a60a443",
        "1e09aac3f1ec",
        "1e60098ebdb3",
        "2184b907a892",
        "24d67c7e6633",
        "272fb33eaef5",
        "284eed1fa928",
        "299b56f0c8ac",
        "2b2718115ef5",
        "2d526921bb32",
        "395a5799df87",
        "399cd9767a75",
        "416ded4827ad",
        "429b9b7760fa",
        "447e6557765b",
        "46954d65c13c",
        "494d800e4065",
        "4a71e3d2156c",
        "4eac39922d9e",
        "5080df47bf91",
        "6086fdc14aa9",
        "60a9b279f0b3",
        "6a01d33b697b",
        "740c37e45b6d",
        "7f6648e55514",
        "81459289d26b",
        "848996bcc904",
        "8494ebf04a3d",
        "89e4788ec704",
        "8f8b257856c4",
        "91241d0d2478",
        "a424574e4200",
        "aaf27ec08024",
        "addc8505a738",
        "b729501d139f",
        "b798b6f8093f",
        "bbd4faa1ffa3",
        "c054bcd2db93",
        "c9db1f0ad1ad",
        "cdf6af5f0154",
        "d14d9d967855",
        "d2cce836e005",
        "d353e4e865b3",
        "d7662c07f0b8",
        "dbb992dfb4f4",
        "df136f05a86d",
        "df47745f2136",
        "e12302297528",
        "e19d9866d051",
        "e1c575901377",
        "e24e7c602095",
        "e700762ac359",
        "e7c9bde4143a",
        "e8f12f89b482",
    ]
)

# thirtysixth.jsonl's first score (2026-12-06 13:15, 80 excerpts by a thirty-sixth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; 75 GitHub
# sources of 58 repositories, a pastebin page, a slurm-users message and three LKML messages:
# cluster infrastructure, host kernel logs (NIC transmit hangs and resets, SATA link resets, PCIe
# AER, POWER host-bridge links and EEH, RCU stalls, machine checks, EDAC), Kubernetes node
# conditions, Ceph, BeeGFS and Longhorn, BMC logs (OpenBIC SEL, IPMI, OpenPOWER PELs and PSU
# monitor), Tenstorrent, ROCm and NVIDIA accelerator bring-up, RAID controllers, UCX and
# InfiniBand, Slurm; 31 of its 80 labels exclude a node; its slips are in the README), taken once
# with benchmarks/score_first_sight.py on main 2b79bb4 (the thirty-fifth and thirty-sixth
# collections merged, nothing else changed in triage since the thirty-third's and thirty-fourth's
# rows and retrain): 36 of 80 categories and 56 of 80 actions; rows alone 36 / 56; 21 guesses, 5
# right; 24 with no answer at all; four wrong exclude_node, all on unsure labels. The collector
# marked 77 labels unsure (THIRTYSIXTH_UNSURE), and all 48 excerpts not right on both are on those;
# on the other 3: all 3 categories and actions right (with the rows alone too): a sure-label figure
# that rests on 3 labels.
THIRTYSIXTH_FIRST: dict[str, float] = {"category": 0.45, "action": 0.7}
THIRTYSIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.45, "action": 0.7}
THIRTYSIXTH_FIRST_SURE: dict[str, float] = {"category": 1.0, "action": 1.0}
THIRTYSIXTH_UNSURE: frozenset[str] = frozenset(
    [
        "000f5e7978cb",
        "0433a527d332",
        "0901a6866a1d",
        "0e3757058aae",
        "0fa7ea5ab18f",
        "126a1d2c68a0",
        "18aa9e0c5d49",
        "1920a401bf11",
        "2136160a5ff4",
        "226d3fc723c3",
        "29efd13a9612",
        "2f54b6289737",
        "30369e5cb7a9",
        "30acfaca831b",
        "36faf83e1d91",
        "39540d46e4ca",
        "3ef33824fe67",
        "41f02d2cd2a6",
        "4266f4c2606a",
        "44a4118af1eb",
        "44b92543018e",
        "45d87dd4f648",
        "4e063f343b81",
        "51aa03084be3",
        "5311cccda163",
        "552832710da9",
        "5d760a8079d7",
        "5f541ac5ddf4",
        "5fd8604c83a0",
        "5fda9715f076",
        "60f19de18160",
        "61020a0bed3d",
        "62ecbdbac09e",
        "650ef6bf9376",
        "65871d2dec28",
        "660a3941860d",
        "6e38f8ae131f",
        "729ced25b0dc",
        "732974ed7f70",
        "7499528a277c",
        "78313f8720b5",
        "790e2df6202f",
        "79cc6dfccd4b",
        "7a7110e3b2ef",
        "7b88b17901e8",
        "7d80bf12d2f4",
        "8494ccaa70e7",
        "8653aeedebc2",
        "8a13987801a1",
        "8afc52f3a53b",
        "92b2437c7779",
        "944ed3b1d8e7",
        "9c2fb7db2827",
        "9f3c662cf5cc",
        "a23fa504f98e",
        "a3ea1abfec80",
        "a7ae2e9d2e29",
        "a7dbb92396c2",
        "b1ef0e93a617",
        "b339714de2a8",
        "c373f96603a3",
        "c4ad4cd9513c",
        "cf9cac8c5962",
        "d508b7e9e320",
        "d6320d7ee8eb",
        "d8fcdfdfb18f",
        "dea17685652d",
        "e818dd565e92",
        "e851d22893e9",
        "e9882e04e2f1",
        "ea3f07ad71d9",
        "ec616b4315ca",
        "ef9112545e18",
        "f0ea43e7a60b",
        "f34dad92a170",
        "fb257096d961",
        "fe6aba66f3eb",
    ]
)

# thirtyseventh.jsonl's first score (2026-12-06 13:49, 80 excerpts by a thirty-seventh collector
# blind to the signature table, the fallback, their tests and the other collections' excerpts; 69
# GitHub sources of 58 repositories and 11 from other sites: a broad mix, NCCL, Gloo and c10d
# failures, MPI launch and fabric errors (UCX, PSM2 and Omni-Path, libfabric, ORTE daemon loss), GPU
# and accelerator faults (amdgpu ring timeouts, passthrough resets, an Ascend NPU heartbeat), CUDA
# library failures, NaN losses, checkpoints, host and GPU OOM, driver and Fabric Manager set-up; 6
# of its 80 labels exclude a node; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main 361be91 (the thirty-seventh and thirty-eighth collections
# merged, nothing else changed in triage since the thirty-fifth's and thirty-sixth's rows and the
# retrain, 029911f): 46 of 80 categories and 72 of 80 actions; rows alone 34 / 72; 27 guesses, 14
# right; 13 with no answer at all; two wrong exclude_node, both on sure labels (ORTE losing a remote
# daemon, `unknown` by the peer rule, read as a host lost). The collector marked 55 labels unsure
# (THIRTYSEVENTH_UNSURE); on the other 25: 17 categories and 21 actions right (15 / 21 with the rows
# alone).
THIRTYSEVENTH_FIRST: dict[str, float] = {"category": 0.575, "action": 0.9}
THIRTYSEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.425, "action": 0.9}
THIRTYSEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.68, "action": 0.84}
THIRTYSEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "08a41e22f25e",
        "0a519e7ea8b8",
        "0ba40edc5662",
        "0dd04ad49ac8",
        "0de71cf63525",
        "0f47357d1814",
        "113a35390f33",
        "186399d80740",
        "2d74f5766710",
        "33f83fc4a1ed",
        "3a4a396577a5",
        "3d9fef7f415a",
        "3e90f63fba19",
        "4135234a6282",
        "446f4b8daa7c",
        "497c9ee48809",
        "4ea6f82fa19b",
        "5f0caa366e94",
        "64c3ade046ff",
        "774d137bfc82",
        "7a950c5642f1",
        "7e33f66b5a90",
        "7eff3cce893a",
        "83b91d4cdf19",
        "8945359bb15b",
        "8e5f6bb2bacc",
        "92ba4b4e48ea",
        "94876105d5e1",
        "96b730993c48",
        "9ad82a9e2ba7",
        "a2447288c12f",
        "a4a4274a16ba",
        "a4d969ddd3c2",
        "a7e1526211c2",
        "a994d85fb8de",
        "adcd276310ee",
        "aec0ec190464",
        "aec72fa43134",
        "aef1f11137d1",
        "b0ab93d8e0a0",
        "b2d7010538b4",
        "b39bdf0c1d6e",
        "ba0f5eb6f121",
        "c5c74bc27cd3",
        "c9ef62c697ab",
        "d84a36c7c63d",
        "dc0580acb5d8",
        "dd38ebf34925",
        "e25437e777e8",
        "e696791f223a",
        "e71766103d6d",
        "ea183ef6551e",
        "f8805b50be25",
        "fa31e4921ca0",
        "fc5dd5fc44be",
    ]
)

# thirtyeighth.jsonl's first score (2026-12-06 13:49, 80 excerpts by a thirty-eighth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; 74 GitHub
# sources of 55 repositories (six of them files of the BLOOM team's notes and of
# stas00/ml-engineering) and 6 from other sites (Cloud TPU, SageMaker and ModelArts troubleshooting
# pages): large training runs, NCCL and HCCL watchdog timeouts, c10d store and torchelastic
# rendezvous failures, Ray worker deaths, loss-scaler floors and NaN grad norms, stacks of stalled
# ranks, TPU and JAX start-up errors, checkpoint save and resume failures, OOM, Slurm requeue and
# slurmstepd messages; no hardware record, no label excludes a node; its slips are in the README), taken once with benchmarks/score_first_sight.py on main 361be91 (as the
# thirty-seventh): 55 of 80 categories and 76 of 80 actions; rows alone 46 / 76; 15 guesses, 9 right;
# 7 with no answer at all; one wrong exclude_node, on an unsure label (a bare "Detected Critical Xid
# Error", `unknown`, read as the GPU). The collector marked 52 labels unsure (THIRTYEIGHTH_UNSURE);
# on the other 28: 26 categories and all 28 actions right (25 / 28 with the rows alone).
THIRTYEIGHTH_FIRST: dict[str, float] = {"category": 0.6875, "action": 0.95}
THIRTYEIGHTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.575, "action": 0.95}
THIRTYEIGHTH_FIRST_SURE: dict[str, float] = {"category": 0.9286, "action": 1.0}
THIRTYEIGHTH_UNSURE: frozenset[str] = frozenset(
    [
        "000ae85012db",
        "02c8d81c45e9",
        "05884345add4",
        "0dd4df22fc73",
        "1eb54b8abb5e",
        "21a2b197d345",
        "261bdb494a8b",
        "312f5310e49a",
        "326c5a6abf0d",
        "3605f8d85d19",
        "383430906311",
        "3f15071e1c56",
        "4334a17fd974",
        "482a78692f95",
        "49a5cdc3d285",
        "4b3951501a7e",
        "4d179830dd4c",
        "52efeb15706c",
        "5f76924a9ce0",
        "616e6eba0252",
        "643e5022128a",
        "648e9ddddb37",
        "68496c73e4f3",
        "69e33eeba701",
        "6bbf6d636656",
        "725b308dd7d0",
        "7ca0afc237e0",
        "87cbd83d7dcd",
        "9217e83375d4",
        "944c4f3a489c",
        "966d5169ca1f",
        "969567e1fa2c",
        "acd5624933d1",
        "b060a00f986b",
        "b07d74dc8d88",
        "b0d8fb51d847",
        "b389f5d0d1fa",
        "bd1ca7caed23",
        "c1a7c11eabf2",
        "c3488f2b5d1e",
        "c747ce643675",
        "cae5c420f521",
        "cd130a85fd0d",
        "cf333f037a03",
        "d4df50f06675",
        "d77780dc9532",
        "dedd1aa75299",
        "e02b91a27225",
        "e6b4179a11c6",
        "e95fed9ed966",
        "ef9472612b03",
        "fa9278a112c9",
    ]
)

# thirtyninth.jsonl's first score (2026-12-06 16:26, 86 excerpts by a thirty-ninth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; 76 GitHub
# sources of 61 repository names and 10 from other sites (Huawei's CANN and HCCL guides, IBM Storage
# Scale and AWS Neuron documentation, forum.habana.ai, discuss.mindspore.cn): accelerators other than
# NVIDIA's (AMD amdgpu, HIP, RCCL and MIOpen, Intel XPU and Level Zero, Gaudi, Trainium and
# Inferentia, TPU hosts, Graphcore IPUs, Ascend, Tenstorrent) and parallel and network file systems
# failing under a job (GPFS, Lustre, BeeGFS, NFS and NFS-Ganesha, HDF5 on NFS); 6 of its 86 labels
# exclude a node; its slips are in the README), taken once with benchmarks/score_first_sight.py on
# main 4aec586 (the thirty-ninth and fortieth collections merged; since the thirty-eighth's first
# sight, the thirty-seventh's and thirty-eighth's rows, the tables retrained on them, 14:13, and
# small fixes in inputs.py): 50 of 86 categories and 78 of 86 actions; rows alone 34 / 78; 30
# guesses, 17 right; 21 with no answer at all; one wrong exclude_node, on an unsure label (an
# amdgpu job timeout in a browser and a failed reset, `software_bug`, read as the GPU). The
# collector marked 64 labels unsure (THIRTYNINTH_UNSURE); on the other 22: 18 categories and 21
# actions right (13 / 21 with the rows alone).
THIRTYNINTH_FIRST: dict[str, float] = {"category": 0.5814, "action": 0.907}
THIRTYNINTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.3953, "action": 0.907}
THIRTYNINTH_FIRST_SURE: dict[str, float] = {"category": 0.8182, "action": 0.9545}
THIRTYNINTH_UNSURE: frozenset[str] = frozenset(
    [
        "0109430d72f4",
        "0168c74de3e1",
        "0409e01a438d",
        "04820fede0fa",
        "0c43a872268e",
        "0de3bb5c6c3a",
        "0fbf526e690f",
        "117f676d67cf",
        "16a7a20c2d19",
        "203e3468ff5a",
        "20e24171711e",
        "226916a053c0",
        "2454cc90ceed",
        "2699433f1cdf",
        "2870023861a4",
        "31578dbb7203",
        "325e167afa78",
        "3792df1d8dd6",
        "385f6c7fc6fe",
        "397905624a0f",
        "3f81b35d33c3",
        "44760c0db0cc",
        "4d7336136aac",
        "527b5ef3adec",
        "59843a89c0e0",
        "5f377743d921",
        "618c4a9c6617",
        "6b3c779a6c8a",
        "6c1db2b4e245",
        "6d312ff59c95",
        "6e41f436367e",
        "74712dcd1bd1",
        "76923e2171b5",
        "7a7625486544",
        "7e118e88e5a5",
        "84c48391a9b8",
        "89be116b43d1",
        "8dcf5bba0683",
        "91fcbe5542bd",
        "9600b823be93",
        "9f5c26aaeb33",
        "a26dbd5dec06",
        "ab95f4b5f34b",
        "acece578dff7",
        "b40b0d234605",
        "b5d08deca708",
        "bab1178a0011",
        "c340fc74060e",
        "c6dc2d1bc5a1",
        "c7eeef1e62d3",
        "c929ab2c25e6",
        "c9868f6140c6",
        "cab7cd753c3c",
        "d37da3c03cc3",
        "d3991d780f71",
        "d436acb9bc68",
        "d8fc7820c774",
        "d988cf3b753c",
        "da5f8fc3cc7e",
        "dfc256774768",
        "e5f0814b128e",
        "e5fb46051034",
        "fc91a97af496",
        "fe5a8a755cd4",
    ]
)

# fortieth.jsonl's first score (2026-12-06 16:26, 80 excerpts by a fortieth collector blind to the
# signature table, the fallback, their tests and the other collections' excerpts; 61 GitHub issues of
# 53 repositories, most of small-team and single-user projects, and 19 from other sites (Hugging Face
# discussion threads and pages, pastebin, CSDN blogs, gists, a GPU cloud's and ModelArts'
# documentation): failures as posted on forums and Q&A sites, multi-GPU hangs and NCCL timeouts, GPU
# and host OOM (Colab's crash notices among them), shared-memory DataLoader errors, NaN losses,
# driver and CUDA mismatches, lost GPUs; 4 of its 80 labels exclude a node; its slips are in the
# README), taken once with benchmarks/score_first_sight.py on main 4aec586 (as the thirty-ninth): 66
# of 80 categories and 73 of 80 actions; rows alone 62 / 72; 8 guesses, 5 right; 6 with no answer at
# all; no wrong exclude_node. The collector marked 49 labels unsure (FORTIETH_UNSURE); on the other
# 31: 28 categories and 28 actions right (26 / 27 with the rows alone).
FORTIETH_FIRST: dict[str, float] = {"category": 0.825, "action": 0.9125}
FORTIETH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.775, "action": 0.9}
FORTIETH_FIRST_SURE: dict[str, float] = {"category": 0.9032, "action": 0.9032}
FORTIETH_UNSURE: frozenset[str] = frozenset(
    [
        "03e33fd6481d",
        "06d2600fd999",
        "12201a290722",
        "14cd8911a01e",
        "236e7db51655",
        "2499afcd6448",
        "289c9437eedc",
        "33ff9e51e809",
        "3952fb5ae57f",
        "4ac7ca4571b7",
        "4fd99fee78e4",
        "52e7a0a558d7",
        "59eb740895de",
        "5ce67b08f043",
        "6621fe89c93e",
        "72e1ed9571a0",
        "7d6fcf33a312",
        "804a26f1579f",
        "84ae5f62a660",
        "84e0767e2909",
        "852dca722122",
        "910db3eabe07",
        "91c8f140e744",
        "91fa0eafaf93",
        "92dfbfa1cbd1",
        "99c5250f3a5d",
        "9e7efdc401f5",
        "9ff321f5f212",
        "a619fa670bd9",
        "b02453d5ed3e",
        "b4b87b57c2c7",
        "b9b2a2ba8922",
        "ba486cc3fac8",
        "c1f6c336693b",
        "ccb1c4a71913",
        "cdfa29a6d3e4",
        "d14a70874e10",
        "d2ed8f6a67f6",
        "d83c07a9090b",
        "da2f5ac96ece",
        "dd4058e8c062",
        "df9728c07e33",
        "e7b0a51ac475",
        "ec1da7bb3c6d",
        "ec72b6c2cdb4",
        "ecb337109f5e",
        "f350fa06dc62",
        "f6e98ee95dee",
        "f929f53fbd8c",
    ]
)

# fortyfirst.jsonl's first score (2026-12-06 19:53, 82 excerpts by a forty-first collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; 65 GitHub
# sources of 56 repositories and 17 from other sites (pastebin, gists, Hugging Face discussions and
# Spaces, gitlab.com, beowulf.org, unix.stackexchange, Google Cloud's Lustre and gcsfuse pages, a
# CSDN blog, AWS re:Post): data, checkpoints, storage and containers around training, checkpoint
# save, load and conversion failures, pyxis/enroot and Singularity/Apptainer, object storage (S3,
# GCS, Azure blob), dataset streaming, host memory and full disks; no label excludes a node; its
# slips are in the README), taken once with benchmarks/score_first_sight.py on main c91bb0c (the
# forty-first and forty-second collections merged; since the fortieth's first sight, the
# thirty-ninth's and fortieth's rows, the tables retrained on them, 17:15, a UTF-16 byte-order-mark
# fix in inputs.py and a supervisor fix): 58 of 82 categories and 72 of 82 actions; rows alone 45 /
# 72; 20 guesses, 13 right; 10 with no answer at all; no wrong exclude_node. The collector marked 65
# of its 82 labels unsure (FORTYFIRST_UNSURE); on the other 17: 16 categories and 16 actions right
# (14 / 16 with the rows alone).
FORTYFIRST_FIRST: dict[str, float] = {"category": 0.7073, "action": 0.878}
FORTYFIRST_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5488, "action": 0.878}
FORTYFIRST_FIRST_SURE: dict[str, float] = {"category": 0.9412, "action": 0.9412}
FORTYFIRST_UNSURE: frozenset[str] = frozenset(
    [
        "0217203ca42d",
        "050e583562e3",
        "06aa816885fa",
        "0d73b4775c49",
        "0f26a80ae964",
        "16040931059c",
        "16512abf553d",
        "1a69c007d038",
        "1edea72110e3",
        "216c4ca0e113",
        "2dc73ce69bb4",
        "37996e28f304",
        "3eed59a13af9",
        "3fe11fa2aa92",
        "436e4fe62ba2",
        "4a5daa11851d",
        "4ea26a54f7c3",
        "5752ab5ef73c",
        "5aafa72f5461",
        "5f2cd049c549",
        "5f791dffdb1d",
        "65ae80619e48",
        "698369640c9f",
        "725d18e8b482",
        "75263102c842",
        "758b9cb0aa4d",
        "7997fc21449a",
        "837d368a326a",
        "8919a4472c70",
        "8d2e883b0da0",
        "8f18bdf2e1bd",
        "8f6ee1f45db0",
        "92fc51cb6556",
        "93eab4664e68",
        "955712b24f9c",
        "993a8714fc9a",
        "9a307b6bbea2",
        "9d846a1f6658",
        "a1d6bd8b7ff1",
        "a1dbfcd61b6e",
        "a369eac7ab32",
        "a4200085db09",
        "a5042334195f",
        "aaa31acbb21c",
        "ad1eb5a27170",
        "b8c3672c32e5",
        "b93485d7680c",
        "bb0089b75506",
        "bc4c7c04cf67",
        "c1348498a544",
        "c865fa71dd0f",
        "cb186c8e7114",
        "ccf17232c3d1",
        "d042a80bab73",
        "d22fddda26dd",
        "d3354b08fd44",
        "d6165635f182",
        "d9271161385b",
        "dcaf21b3a4b5",
        "df4cce46b6b6",
        "e907852216e2",
        "ee20e91bcecc",
        "f4841b621072",
        "f937522d2ed9",
        "fa1a477266dc",
    ]
)

# fortysecond.jsonl's first score (2026-12-06 19:53, 80 excerpts by a forty-second collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; 79 GitHub
# issues of 68 repositories and one discuss.pytorch.org thread): a representative on-call week of a
# GPU training cluster, LLM fine-tuning and RL tracebacks (CUDA OOM, NCCL timeouts and set-up
# errors, compiled-extension imports), NaN losses, container-runtime and Kubernetes output, NVRM and
# amdgpu kernel lines, TPU runtime errors, OpenBMC logs and IPMI sensor rows, InfiniBand completion
# errors, Slurm messages; 5 of its 80 labels exclude a node; its slips are in the README), taken
# once with benchmarks/score_first_sight.py on main c91bb0c (as the forty-first): 59 of 80
# categories and 74 of 80 actions; rows alone 57 / 74; 10 guesses, 4 right; 7 with no answer at
# all; one wrong exclude_node, on an unsure label (sglang's prefill/decode run finding the device
# busy or unavailable, then an unspecified launch failure, `software_bug`, read as the GPU). The
# collector marked 57 of its 80 labels unsure (FORTYSECOND_UNSURE); on the other 23: 21 categories
# and all 23 actions right (21 / 23 with the rows alone).
FORTYSECOND_FIRST: dict[str, float] = {"category": 0.7375, "action": 0.925}
FORTYSECOND_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7125, "action": 0.925}
FORTYSECOND_FIRST_SURE: dict[str, float] = {"category": 0.913, "action": 1.0}
FORTYSECOND_UNSURE: frozenset[str] = frozenset(
    [
        "0eaa7314c96f",
        "1851f25371df",
        "190376039c21",
        "195498775b5a",
        "24bd33886111",
        "2552afa0c067",
        "25e1ccda4dc6",
        "2da9d1120fe5",
        "311d39d8b2ef",
        "34d0d4bedc67",
        "3968d2015789",
        "40dc7f13e74c",
        "415dc08e518c",
        "460efbbf03ae",
        "46d6e23e4bf7",
        "4e61b5bc7fbf",
        "4ece837c9d9b",
        "576205a5db4d",
        "585cac2334d5",
        "5c9891b563c1",
        "611ed2b60671",
        "6166b25c67f3",
        "65ba7dc2d9ac",
        "65f8384fb5f1",
        "72b8116d4272",
        "73a154a1f39f",
        "8002aeb875e9",
        "86db251b987d",
        "8b862af930fc",
        "8d2517003449",
        "8dccc649aca8",
        "95be44922999",
        "9629768cdb75",
        "9a5100bef964",
        "9c567579a5b5",
        "9fa2c9c7645d",
        "9fbbc4d41499",
        "a7403fa22de9",
        "ad8ebf0c3c17",
        "b540c595eefa",
        "baf308f8e5f7",
        "bb6d0b10bde9",
        "bf1e73aee82e",
        "cb590095a794",
        "d7ab2e7f7894",
        "d8b19768493b",
        "da2c56c3d277",
        "de250c79f859",
        "deb7197d0584",
        "dfe4bcce4602",
        "e10738487766",
        "e1fd68aac774",
        "e54bf3bb468f",
        "e7920c55d9f2",
        "ed28055a49ff",
        "f389fe436852",
        "fe3907e4e926",
    ]
)

# fortythird.jsonl's first score (2026-12-06 21:02, 85 excerpts by a forty-third collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; 81 GitHub
# sources of 67 repositories and 4 from other sites: the cluster side of multi-node training,
# Slurm, PBS and Flux job and node failures, Kubernetes training operators (Kubeflow, Volcano,
# KubeRay, Kueue), cloud instances' maintenance and preemption, InfiniBand and RoCE fabrics and
# NICs, node-health tools (nvidia-smi -q, dcgmi, ibstat, ipmitool, smartctl, NHC); 20 of its 85
# labels exclude a node; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main 004cfb2 (the forty-third and forty-fourth merged; since
# the forty-second's first sight, the forty-first's and forty-second's rows, the tables retrained
# on forty-two splits, and the paced one-pass load): 49 of 85 categories and 74 of 85 actions; rows
# alone 46 / 74; 13 guesses, 5 right; 23 with no answer at all; one wrong exclude_node, on an
# unsure label (3b421e8b245e, `dependency`, read as host maintenance). The collector marked 62 of
# its 85 labels unsure (FORTYTHIRD_UNSURE); on the other 23: 19 categories and 20 actions right
# (18 / 20 with the rows alone).
FORTYTHIRD_FIRST: dict[str, float] = {"category": 0.5765, "action": 0.8706}
FORTYTHIRD_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5412, "action": 0.8706}
FORTYTHIRD_FIRST_SURE: dict[str, float] = {"category": 0.8261, "action": 0.8696}
FORTYTHIRD_UNSURE: frozenset[str] = frozenset(
    [
        "00513d6e1c02",
        "03a34eba0e3a",
        "0504bf1a0b4a",
        "0db4796b30c0",
        "20d42446aa19",
        "22c9c3925b16",
        "280054c8a804",
        "28b47f0beda4",
        "2a953a9b1953",
        "2c0381201664",
        "2e44ec8f05e9",
        "3830fb33b1d8",
        "397257154a01",
        "3b421e8b245e",
        "3bdded106d78",
        "3d6d01ee4444",
        "413351948857",
        "44c655f090a2",
        "46a10ce5b9a7",
        "4e2709d1fbea",
        "4e2b1dddf75a",
        "4e773df41e45",
        "51aeca441fc8",
        "523a931c95c4",
        "5348aa286eca",
        "53bc3a390455",
        "53e55e60d4a3",
        "5b3ba01309d4",
        "5b57910b6ccc",
        "5ee2de260dd6",
        "6bdb1b370161",
        "721f2eaf3f03",
        "72746a2c3acd",
        "73dac16ef6e6",
        "76cfd66f091c",
        "790025892ec6",
        "7cce2604568f",
        "7cd931bdbded",
        "801284ebe9c8",
        "826349b6150a",
        "832dab16a158",
        "8a91445d534d",
        "8abb7494bbfd",
        "930e3de17da1",
        "a1b1105fc58e",
        "a831257fbce2",
        "afde077ad442",
        "b21f566677be",
        "b442a1aa9daf",
        "bff24264d3e3",
        "c53c76a6fb27",
        "c761d9b4aaf3",
        "d0dbacef7551",
        "d6a38f6bd7f3",
        "d7c8bc29a566",
        "de8555be31c9",
        "e2b5c210c41e",
        "e43dc25ddf43",
        "ea0b5146b289",
        "f355a1837602",
        "fcc339b61927",
        "ff38c39479d2",
    ]
)

# fortyfourth.jsonl's first score (2026-12-06 21:02, 82 excerpts by a forty-fourth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; all 82
# from GitHub, 57 repositories): the software side of large training runs as users of DeepSpeed,
# Megatron, NeMo, TorchTitan, FSDP, torch.compile, JAX, Horovod, ColossalAI, Accelerate and Ray
# Train post it, collective timeouts and hangs, rendezvous failures, distributed-checkpoint
# failures, NaN losses and spikes, host and device OOM, with a few Xid, ECC and NCCL transport
# lines; 3 of its 82 labels exclude a node; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main 004cfb2 (as the forty-third): 52 of 82 categories and 73
# of 82 actions; rows alone 44 / 72; 13 guesses, 8 right; 10 with no answer at all; no wrong
# exclude_node. The collector marked 54 of its 82 labels unsure (FORTYFOURTH_UNSURE); on the other
# 28: 24 categories and 26 actions right (23 / 26 with the rows alone).
FORTYFOURTH_FIRST: dict[str, float] = {"category": 0.6341, "action": 0.8902}
FORTYFOURTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5366, "action": 0.878}
FORTYFOURTH_FIRST_SURE: dict[str, float] = {"category": 0.8571, "action": 0.9286}
FORTYFOURTH_UNSURE: frozenset[str] = frozenset(
    [
        "0277ad49ce55",
        "0292f2a5fe66",
        "0450b0800b98",
        "0662349f0546",
        "08a80b055fe5",
        "118524bbac11",
        "1423ca5b16f2",
        "144f98e68f15",
        "17f8b138fe0e",
        "1d5ae05998c8",
        "1ddd5520d44d",
        "23845a9de8b5",
        "28d91c4c86df",
        "2c330810276a",
        "2e160fbbe0f6",
        "2f114a350216",
        "3470541d9e3a",
        "440378e113f1",
        "48e6e8e0070d",
        "4d4e159d3414",
        "514fffbbecc1",
        "51dc5f09d862",
        "5547ffe257b4",
        "593bf67269f7",
        "5d836f988b7f",
        "6339dffe8571",
        "63841f5c4d46",
        "64cceee5c026",
        "660a9cd76fe6",
        "6f9640c171a4",
        "7aa0335b4454",
        "801da6145d1f",
        "879395fa35f8",
        "882c0aecaa97",
        "8e51ede35cc2",
        "9b48357e3936",
        "a5de6dbfba75",
        "a609e415668a",
        "a831c996d65e",
        "a9093b395c34",
        "b3b6f6cf9689",
        "b661386a0784",
        "bce68fd6ca59",
        "be39d0138194",
        "c0224636ab90",
        "c2611f719499",
        "c2c00d21edce",
        "cda62ecbdf3f",
        "e22ff69e87e1",
        "e6d2e2f2208b",
        "eb9267cf735a",
        "efd69c6e7a54",
        "f7bbe398cfa4",
        "f92256fb3044",
    ]
)

# fortyfifth.jsonl's first score (2026-12-06 23:58, 83 excerpts by a forty-fifth collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; training on accelerators other than NVIDIA's as their users post it (AMD ROCm/HIP/RCCL,
# Intel Gaudi, Google TPU, AWS Trainium/Neuron, Huawei Ascend): collective timeouts, device faults,
# runtime mismatches, OOM, hangs; 79 from GitHub (62 repositories), 4 from other sites; 6 of its
# 83 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 2bcbc97 (the forty-fifth and
# forty-sixth collections merged at once): 43 of 83 categories and 74 of 83 actions;
# rows alone 29 / 73; 34 guesses, 16 right; 17 with no answer at all; no wrong
# exclude_node. The collector marked 61 of its 83 labels unsure (FORTYFIFTH_UNSURE); on the other
# 22: 17 categories and 22 actions right (14 / 22 with the rows alone).
FORTYFIFTH_FIRST: dict[str, float] = {"category": 0.5181, "action": 0.8916}
FORTYFIFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.3494, "action": 0.8795}
FORTYFIFTH_FIRST_SURE: dict[str, float] = {"category": 0.7727, "action": 1.0}
FORTYFIFTH_UNSURE: frozenset[str] = frozenset(
    [
        "0219ee5dcbfe",
        "071c283de71f",
        "0b26b578d680",
        "120a77e640a9",
        "1a05229f321c",
        "1e2cc66323fd",
        "2cdbe5d31528",
        "2fabd5b4bab9",
        "308144ccb713",
        "32a5a871318b",
        "33a026d98a28",
        "365152198ed2",
        "38a22fd5d7bd",
        "3947ab4ac595",
        "3deac9cfd791",
        "428d8d70aca7",
        "437f8f18f210",
        "4591679e26b4",
        "48983883739c",
        "493d7bc14535",
        "4943d188862a",
        "4b6550eb39dc",
        "56b06cb130ae",
        "56c8b24a28aa",
        "636943615c48",
        "646a25a945fa",
        "698dc671ba17",
        "6d5dd8339fd7",
        "6dc105139a30",
        "6dffbcf4ded1",
        "75af40ad9ee5",
        "7d17a81121e9",
        "82867ae34ea0",
        "8382659386d5",
        "87930370e3d8",
        "8bcbefd0c4a9",
        "8e3f287014c6",
        "90b491ed4663",
        "935915d887b9",
        "979094e5e58e",
        "9b32ef1970d2",
        "9bf2662f8db4",
        "9dd76e9ee045",
        "9deb43ed0375",
        "a03a820b128c",
        "a0aa97309a27",
        "a8bb1c17b2d0",
        "aa82b232ea41",
        "ba9c26b2fa39",
        "c048b5551210",
        "c122d6b81c5b",
        "c543721c394c",
        "c8e48b47db0a",
        "cda2806b96fb",
        "cdbdf4185a2d",
        "e229024391d7",
        "ece4a1e721d9",
        "f2838a0bf889",
        "f3c5834b89d4",
        "faa35308c8e5",
        "fd4855a68f59",
    ]
)

# fortysixth.jsonl's first score (2026-12-06 23:58, 83 excerpts by a forty-sixth collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; what an on-call engineer meets in the middle of long runs, from outside github.com where
# found: 69 from GitHub (60 repositories), 14 from other sites (gists, pastebins, Hugging Face
# discussions, GitLab, vendor guides); 6 of its 83 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 2bcbc97 (the forty-fifth and
# forty-sixth collections merged at once): 53 of 83 categories and 76 of 83 actions;
# rows alone 48 / 76; 24 guesses, 11 right; 12 with no answer at all; no wrong
# exclude_node. The collector marked 60 of its 83 labels unsure (FORTYSIXTH_UNSURE); on the other
# 23: 20 categories and 23 actions right (18 / 23 with the rows alone).
FORTYSIXTH_FIRST: dict[str, float] = {"category": 0.6386, "action": 0.9157}
FORTYSIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5783, "action": 0.9157}
FORTYSIXTH_FIRST_SURE: dict[str, float] = {"category": 0.8696, "action": 1.0}
FORTYSIXTH_UNSURE: frozenset[str] = frozenset(
    [
        "0295f732b5fe",
        "07d89f36f2c5",
        "0bb1d2bf24d3",
        "0c86ba6ef3f2",
        "0d3db8608514",
        "103589cbdeea",
        "157b057b8851",
        "20b555f89da0",
        "227d4f8e1e27",
        "2cbab44f4b98",
        "2f16fa68b727",
        "3023120f4e5f",
        "354d4f08135d",
        "3f67980c731c",
        "4303ad57e194",
        "445c93359263",
        "4932cde20c53",
        "4b2b35acbfda",
        "4f76dd9bcac9",
        "55a7c24aa483",
        "5a93b2851522",
        "5cd5a3443bd4",
        "60009018cc5a",
        "62fe669a6747",
        "71a2392983c9",
        "758fee5521fb",
        "762e10c21b57",
        "78619b649cfa",
        "7974444d9ca2",
        "8088c171c4c5",
        "85aa5ce2ab50",
        "8823161e27a8",
        "986bbe3b5221",
        "9ad82fbf7c98",
        "9d918bc6c274",
        "9dc3b034487a",
        "a1ac34c6024c",
        "a1b29b7afbe4",
        "a5f429df0750",
        "aa7790d578f1",
        "b1007785430f",
        "bc4809914418",
        "bc8b1d55d23b",
        "bdba95131848",
        "be099074d9bf",
        "bee018f25027",
        "beee38682fb7",
        "c0eb61a2ef59",
        "c24d0254742b",
        "c3089ebd63f1",
        "c5de3690b6dd",
        "d9d41fb4808a",
        "da075d5db53c",
        "e32482721642",
        "e67eabbe96ca",
        "ee14826e33b2",
        "ef3ef701ed70",
        "f98bbd066929",
        "fde5f71fedf9",
        "fe8b8a05a908",
    ]
)

# fortyseventh.jsonl's first score (2026-12-07 03:01, 81 excerpts by a forty-seventh collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; the hardware classes failing servers show outside the GPU's own driver lines (BMC/IPMI/Redfish
# event logs and sensors, PCIe AER, machine checks and EDAC, NIC/HCA and NVMe/RAID faults, thermal and power
# reports, GSP and row remaps): 68 from GitHub (55 repositories), 13 from other sites; 44 of its
# 81 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 03232d6 (the forty-seventh and
# forty-eighth collections merged at once): 57 of 81 categories and 59 of 81 actions;
# rows alone 47 / 59; 19 guesses, 12 right; 11 with no answer at all; 3 wrong
# exclude_node (5e80cb972dcf, af8326a16f35, 2276a1d163c7, all on unsure labels). The collector marked 66 of its 81 labels unsure (FORTYSEVENTH_UNSURE); on the other
# 15: 14 categories and 13 actions right (12 / 15 with the rows alone).
FORTYSEVENTH_FIRST: dict[str, float] = {"category": 0.7037, "action": 0.7284}
FORTYSEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5802, "action": 0.7284}
FORTYSEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.9333, "action": 0.8667}
FORTYSEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "09a56e9753b7",
        "0d088be721cf",
        "117ba688bfb0",
        "11c3b5a383ef",
        "14953b9557a4",
        "1a57a2aad536",
        "2276a1d163c7",
        "34b4df4a624f",
        "35944d9d55a8",
        "36d0e876997b",
        "37669d96ae0b",
        "3efbefd86bd3",
        "40f32bedf0ba",
        "43b1a1695d6d",
        "440c0573ef21",
        "4892a5eb5a24",
        "4feeacfeba33",
        "517fd2351f36",
        "569df0dff966",
        "5e80cb972dcf",
        "67e17dda6766",
        "67e895c40f26",
        "6cfeedbc6801",
        "6e6a916c4090",
        "6fa3d9b4baf5",
        "71ca768ae3b6",
        "738a17ae283f",
        "74d5145b6f32",
        "753631679979",
        "7677f6aa2094",
        "7dbab5d2654c",
        "871913edd49b",
        "879fc8d254ca",
        "889920cc6339",
        "8b0fc4d7b7fe",
        "8b3330fa0fa3",
        "9060852725c7",
        "90ded140c772",
        "93bdde0b71c5",
        "95631e31f94e",
        "9803921dc449",
        "988ed5ccf2fa",
        "a02011abed34",
        "a15ae0e396c2",
        "a3fa6a8c0e6f",
        "aedb7060d172",
        "af8326a16f35",
        "b155612b347e",
        "b38b7b33960b",
        "b88daf2d3b94",
        "c01777ce4149",
        "c176b2de2eb6",
        "c63b052218e8",
        "c6fe9c8abd71",
        "d40bc466967f",
        "d93e0c927835",
        "db4ab738ac2b",
        "de279eb07733",
        "dfd06b2bc7d7",
        "dfef1dc28d4b",
        "e09ad67f3eb7",
        "eb157322d8bd",
        "ee19528f42c2",
        "f76b4ee6de91",
        "f9633bfe2f2f",
        "fe062124a624",
    ]
)

# fortyeighth.jsonl's first score (2026-12-07 03:01, 83 excerpts by a forty-eighth collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; the state and numbers of large training runs rather than their hardware (checkpoint save and
# load, the storage under checkpoints and datasets, data pipelines, numerics, silent corruption): 77 from
# GitHub (67 repositories), 6 from other sites; 2 of its 83 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 03232d6 (the forty-seventh and
# forty-eighth collections merged at once): 59 of 83 categories and 78 of 83 actions;
# rows alone 45 / 78; 20 guesses, 14 right; 13 with no answer at all; no wrong
# exclude_node. The collector marked 60 of its 83 labels unsure (FORTYEIGHTH_UNSURE); on the other
# 23: 20 categories and 23 actions right (19 / 23 with the rows alone).
FORTYEIGHTH_FIRST: dict[str, float] = {"category": 0.7108, "action": 0.9398}
FORTYEIGHTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5422, "action": 0.9398}
FORTYEIGHTH_FIRST_SURE: dict[str, float] = {"category": 0.8696, "action": 1.0}
FORTYEIGHTH_UNSURE: frozenset[str] = frozenset(
    [
        "069057ff826f",
        "080fe4d465f9",
        "0a6d28c7bd75",
        "10ce4588fae3",
        "10f050ea5120",
        "18c34ae70d8e",
        "1cf70084e70f",
        "206c9c836f90",
        "224f7f44cb89",
        "29558b3a9148",
        "2a38a72c516c",
        "2b7a889eb9de",
        "316758dec005",
        "32a6761240d5",
        "34f655d14eeb",
        "385bd856dc0d",
        "38e241baf041",
        "3aa5d0db5162",
        "3d8f1a196cce",
        "3ea207aec748",
        "418158649eaf",
        "4456ac83e724",
        "44b26d87f634",
        "46cf6faa35ab",
        "4d0a449fa0ee",
        "5841e938411d",
        "588faafc86a1",
        "5ac872ee7153",
        "5ea05de1e70a",
        "62719c5bf4c9",
        "651648cb3b15",
        "6924cad1edf9",
        "6ae741bca6f4",
        "6b542f36a3d8",
        "716ebc10e245",
        "7680f20a9a82",
        "783ccf46ab13",
        "85527e8b4bac",
        "8b751697319c",
        "8f4323b2380c",
        "917d38ef1ff6",
        "933768b0b4d3",
        "998d1bfe844f",
        "a35a1715af65",
        "a45464bc4d2c",
        "ab86565ffe9b",
        "acb581a33474",
        "b207abe25fa2",
        "b2226cb8d63d",
        "b25b578196e6",
        "c0c227fdcc59",
        "c21bf2d6812a",
        "d43947092e46",
        "d8c82bf9b339",
        "dbc2598ed34a",
        "dbd2d9061ffb",
        "e8cc38ecabac",
        "eaa1ef2b4525",
        "ec37f4b23158",
        "f8359c3705b7",
    ]
)

# fortyninth.jsonl's first score (2026-12-07 03:33, 84 excerpts by a forty-ninth collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; reinforcement-learning post-training and large fine-tuning jobs on multi-node clusters (verl,
# OpenRLHF, TRL, NeMo-RL, slime, ms-swift, LLaMA-Factory, DeepSpeed with Ray and vLLM/SGLang rollouts):
# 80 from GitHub (55 repositories), 4 from other sites; 4 of its 84 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 020b012 (the forty-ninth and
# fiftieth collections merged at once, after the forty-seventh's and forty-eighth's rows and the
# retrain on forty-eight splits): 56 of 84 categories and 72 of 84 actions;
# rows alone 46 / 72; 18 guesses, 10 right; 9 with no answer at all; no wrong
# exclude_node. The collector marked 57 of its 84 labels unsure (FORTYNINTH_UNSURE); on the other
# 27: 24 categories and 26 actions right (21 / 27 with the rows alone).
FORTYNINTH_FIRST: dict[str, float] = {"category": 0.6667, "action": 0.8571}
FORTYNINTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5476, "action": 0.8571}
FORTYNINTH_FIRST_SURE: dict[str, float] = {"category": 0.8889, "action": 0.963}
FORTYNINTH_UNSURE: frozenset[str] = frozenset(
    [
        "002a2e3bbcbf",
        "0d8fb2f97e17",
        "0f3f6b2d5769",
        "118cce791169",
        "12744f79d8c1",
        "12dbbfaeff89",
        "132f335d1cc5",
        "17c24752f912",
        "1dc9de1305ae",
        "2d6c25269f1e",
        "2d8668ef2445",
        "3219b3206fd5",
        "35e1229acb71",
        "3679a84e963e",
        "37107094e2e5",
        "39c82c2483f7",
        "3b311a7c9082",
        "3b5b989f762d",
        "439fc2d60035",
        "4f66c32c02d2",
        "500de1db91c6",
        "5b3b4e575be0",
        "625fdb718c4b",
        "62d8650fad07",
        "68ae2fc72c26",
        "6a39c876e613",
        "7452160bcc07",
        "7920d0cd291b",
        "7c19cb482bac",
        "7f3c635a0622",
        "807c91dbc42f",
        "80e6e49245cd",
        "84b326f94d93",
        "a029f6c233a0",
        "a4f8adb9f2cc",
        "a5f65015e9cb",
        "a7de3ffb3132",
        "af771be13028",
        "b56fe458bc59",
        "c05105cfb774",
        "c330eb90ec36",
        "c7afecef3257",
        "ce85c29cf3bf",
        "d00ed97f1195",
        "d3574052a22c",
        "d3fd0dc524c6",
        "d55e8b7b8ec0",
        "d5f05190b61b",
        "dd0b9fc6981c",
        "e6cf4db96d89",
        "e7b986fa020b",
        "ea02edd5b67f",
        "eb977e73a921",
        "f1d883abda71",
        "f2274ae73f0a",
        "f7c60c21f523",
        "f810ee166c75",
    ]
)

# fiftieth.jsonl's first score (2026-12-07 03:33, 83 excerpts by a fiftieth collector blind to the signature
# table, the fallback, their tests and the other collections' excerpts; multi-GPU and multi-node training failures posted in languages other than English (mostly
# Chinese, some Japanese: Ascend, PaddlePaddle, MindSpore, ms-swift, HAMi threads and notes): 79 from
# GitHub (61 repositories), 4 from other sites; 3 of its 83 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 020b012 (the forty-ninth and
# fiftieth collections merged at once, after the forty-seventh's and forty-eighth's rows and the
# retrain on forty-eight splits): 51 of 83 categories and 72 of 83 actions;
# rows alone 46 / 72; 20 guesses, 7 right; 10 with no answer at all; no wrong
# exclude_node. The collector marked 46 of its 83 labels unsure (FIFTIETH_UNSURE); on the other
# 37: 30 categories and 34 actions right (29 / 37 with the rows alone).
FIFTIETH_FIRST: dict[str, float] = {"category": 0.6145, "action": 0.8675}
FIFTIETH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5542, "action": 0.8675}
FIFTIETH_FIRST_SURE: dict[str, float] = {"category": 0.8108, "action": 0.9189}
FIFTIETH_UNSURE: frozenset[str] = frozenset(
    [
        "062aa171a17e",
        "0ebde9f56362",
        "167625401a14",
        "1c2147937168",
        "2b7d8093de1a",
        "363a4cc02637",
        "3ffd5272fe51",
        "42ce1562d6b0",
        "465cd31b4096",
        "4cc8db91e018",
        "4fccb31f79be",
        "547779f21dfb",
        "57af26a7c8e6",
        "5dea0fec3a26",
        "5ff4c806da74",
        "637ff221a9e3",
        "6cf9c0f1b287",
        "7046ccc3d295",
        "714595fcb8b9",
        "74ad9b4fe172",
        "74eab5220118",
        "762842e79e96",
        "7d5e904625c4",
        "83ee0284c5f4",
        "87b02c3063d5",
        "89702042fc64",
        "97edf22ddbaf",
        "9fd22c6c4e3f",
        "a9d7c206d7ff",
        "aa508f69cc51",
        "aafc5b259f6a",
        "b07de9d6338f",
        "b4146398a4f4",
        "b4f0081a6b9f",
        "bdbe317847b0",
        "bdbee3171c3d",
        "cc91122eaa5e",
        "ce5a8e4decb3",
        "e32e2cbdd5ca",
        "e70ffb511e8e",
        "e84a97731518",
        "eae7cab2fd87",
        "f2911adee5c2",
        "fad5525cf7ab",
        "fefddfd0e5ca",
        "ff16c0fc0e21",
    ]
)

# fiftyfirst.jsonl's first score (2026-12-07 06:12, 83 excerpts by a fifty-first collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; the
# network and interconnect between GPUs and hosts (InfiniBand and RoCE kernel lines and tools, EFA
# and aws-ofi-nccl, GPUDirect RDMA, NVLink, bonded Ethernet, NCCL/UCX/libfabric transport errors):
# 76 from GitHub (63 repositories), 7 from other sites; 16 of its 83 labels exclude a node; its
# slips are in the README), taken once with benchmarks/score_first_sight.py on main 7957f3d (the
# fifty-second collection merged and scored first, no rows for either): 61 of 83 categories and 81
# of 83 actions; rows alone 50 / 81; 21 guesses, 13 right; 11 with no answer at all; no wrong
# exclude_node. The collector marked 68 of its 83 labels unsure (FIFTYFIRST_UNSURE); on the other
# 15: 12 categories and 15 actions right (9 / 15 with the rows alone).
FIFTYFIRST_FIRST: dict[str, float] = {"category": 0.7349, "action": 0.9759}
FIFTYFIRST_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6024, "action": 0.9759}
FIFTYFIRST_FIRST_SURE: dict[str, float] = {"category": 0.8, "action": 1.0}
FIFTYFIRST_UNSURE: frozenset[str] = frozenset(
    [
        "009a6725ebdc",
        "0d5dcc7d9227",
        "1460b09aeecc",
        "16efd7c38514",
        "1ae9e2d8b39c",
        "1b3af65e482d",
        "1e4b8b9bd16d",
        "21753fbbd743",
        "246bb1290967",
        "25cb77eac50f",
        "2609f233eded",
        "292efdd8a89e",
        "2b5bb2f819e3",
        "31a338d6fc5d",
        "3241252446b6",
        "357ac0e0cf97",
        "36c01c47c94d",
        "3e5e2b065909",
        "3fbd215b46e2",
        "44f12c2a9223",
        "46716069ba84",
        "4e1c79bb55c1",
        "5004489728ab",
        "53eeb004214b",
        "59be8057a476",
        "5b80365efc5a",
        "5d37717df3bf",
        "64139e0d59c4",
        "68a523d99ec2",
        "6e9eb5e55e3e",
        "714306dc5d1f",
        "7151bc0f9f6c",
        "7589d8cbf0d2",
        "763f65e75fcc",
        "7795a21e27af",
        "78410ed60989",
        "7f3fb4552281",
        "7f5d115630c3",
        "800ef56471b9",
        "816ada45f583",
        "83932881d946",
        "86b833a72e29",
        "88fe7cae737b",
        "89ee66e5a4ce",
        "8b66a8304e4b",
        "8dd26eefad3d",
        "9013495e90db",
        "94a7c24b7f00",
        "973e5e09086e",
        "9ef219c0ae44",
        "a222aa7be42a",
        "a954649681e6",
        "abc5bc645694",
        "b03d2ac3c0a7",
        "b21597217b29",
        "b8661e7aeff9",
        "bc557bb807a0",
        "c25a715bab66",
        "c3d6f7ab3a64",
        "d0e41bca4fac",
        "d4d38e4437fe",
        "dbebd75c4f99",
        "e5245caccee2",
        "e54e31de7102",
        "e810b2669b5f",
        "e9b78d82ac5a",
        "eeb7e8268bfc",
        "f5f94d318671",
    ]
)

# fiftysecond.jsonl's first score (2026-12-07 06:11, 84 excerpts by a fifty-second collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; training
# on shared HPC systems (centre docs and tickets, mpirun/srun/Flux/PBS/LSF launches, Horovod,
# containers through Apptainer/enroot/pyxis/Shifter, module and MPI library mismatches, job
# limits): 79 from GitHub (72 repositories), 5 from other sites; 1 of its 84 labels excludes a
# node; its slips are in the README), taken once with benchmarks/score_first_sight.py on main
# 0f5fe75 (after the forty-seventh's to fiftieth's rows and the retrain on fifty splits; the
# fifty-first merged right after): 46 of 84 categories and 71 of 84 actions; rows alone 36 / 71;
# 24 guesses, 13 right; 20 with no answer at all; no wrong exclude_node. The collector marked 52
# of its 84 labels unsure (FIFTYSECOND_UNSURE); on the other 32: 26 categories and 29 actions
# right (17 / 32 with the rows alone).
FIFTYSECOND_FIRST: dict[str, float] = {"category": 0.5476, "action": 0.8452}
FIFTYSECOND_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4286, "action": 0.8452}
FIFTYSECOND_FIRST_SURE: dict[str, float] = {"category": 0.8125, "action": 0.9062}
FIFTYSECOND_UNSURE: frozenset[str] = frozenset(
    [
        "0172a38bd1eb",
        "07c73279fd1f",
        "08f05d24c408",
        "0bc5fefd2428",
        "1baa806e964f",
        "24494aa68a65",
        "26327b948c23",
        "2b04f14d2e6b",
        "2b2193becff4",
        "2c447dd527eb",
        "2d4036bcec03",
        "2e74dd2699eb",
        "2fdb327e60d6",
        "3413db7f29f9",
        "3b8cf47db5bc",
        "3e569fd73091",
        "3fd9025375bf",
        "46d7f6bdf2a6",
        "492e4126f40d",
        "4ad2dccc328e",
        "4c98e0840ed3",
        "52932324e2f4",
        "53860d61cb64",
        "5c956de88dd5",
        "632efdd03d6a",
        "6b5a0a96ba97",
        "72ce89a05f63",
        "7780e342a3bb",
        "8abeb61e5e97",
        "a22ec6cebd36",
        "a958db7f7b3f",
        "bc1425ed693b",
        "bc5b80143ca0",
        "c254194c83d3",
        "c335a0de765a",
        "c43247bfed3e",
        "c577c666e3c3",
        "cbfb1e032267",
        "d300c9923bf1",
        "d8f96497c9f4",
        "dfd1bb336971",
        "e24120922284",
        "e747cefb2db1",
        "efb62772f39d",
        "f0547b1c6ba5",
        "f2af7347a704",
        "f4f7c12f8505",
        "f7277a3780cf",
        "f9a3230e6ea6",
        "fbaf3dc9b076",
        "fe0591878f92",
        "fe7ebc5af3fa",
    ]
)

# fiftythird.jsonl's first score (2026-12-07 06:39, 84 excerpts by a fifty-third collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; GPU
# training on Kubernetes and managed clouds (the GPU operator, device plugin, DCGM exporter,
# container toolkit; Kubeflow's operators, Volcano, HAMi; pods refused, evicted or stuck; nodes
# NotReady): 82 from GitHub (61 repositories), 2 from other sites; 3 of its 84 labels exclude a
# node; its slips are in the README), taken once with benchmarks/score_first_sight.py on main
# f6d038d (both merged; since the fifty-second's first sight main got the fifty-first's and
# fifty-second's rows and the tables retrained on fifty-two splits), at the same time as the
# fifty-fourth: 50 of 84 categories and 77 of 84 actions; rows alone 45 / 77; 25 guesses, 11
# right; 13 with no answer at all; 1 wrong exclude_node (7c41a84331b7). The collector marked 50 of
# its 84 labels unsure (FIFTYTHIRD_UNSURE); on the other 34: 27 categories and 33 actions right
# (23 / 34 with the rows alone).
FIFTYTHIRD_FIRST: dict[str, float] = {"category": 0.5952, "action": 0.9167}
FIFTYTHIRD_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5357, "action": 0.9167}
FIFTYTHIRD_FIRST_SURE: dict[str, float] = {"category": 0.7941, "action": 0.9706}
FIFTYTHIRD_UNSURE: frozenset[str] = frozenset(
    [
        "01736dfe8b20",
        "048ba573c178",
        "05c8042789df",
        "0c6ce159ee79",
        "10389d6f9aa1",
        "10787dd0c178",
        "12581234892e",
        "15885756f44e",
        "1595531123dc",
        "1731034542a1",
        "1bcdd98b19cb",
        "25a21e21f5fa",
        "2964d8e1737c",
        "3059131dc123",
        "439908cbd83e",
        "48657c1904a4",
        "4b29ac864fee",
        "4b7c8942e494",
        "50dd9256affd",
        "5287b9c17109",
        "58f318cd8be4",
        "5ab4aa9cc7eb",
        "5c020a1bbf0d",
        "5d75e6ba37b3",
        "5d9bc80bb459",
        "5ded60497525",
        "5ff8fa8b76ae",
        "6392979abaf9",
        "64cbbe1a3d9c",
        "7047f48a3a2b",
        "7acf8a5de716",
        "7c41a84331b7",
        "7ce79283ac7b",
        "7cee9ba9bdc1",
        "7e3b225d108e",
        "909148eb3bf4",
        "9d9631717b46",
        "a0013fddac5e",
        "a87df075e5f8",
        "aa0e1ac69c71",
        "ac6cfab7b94b",
        "add9957c5c82",
        "ae28e6eab450",
        "c5c6ad4e48cc",
        "e4ebd268efb5",
        "e6f5a3daefd2",
        "e74db7f68d34",
        "e7d7a4c02d7d",
        "f3c9805e5b72",
        "ff0dff26ee0f",
    ]
)

# fiftyfourth.jsonl's first score (2026-12-07 06:39, 83 excerpts by a fifty-fourth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; research
# code and smaller training projects run on multi-GPU nodes (academic repositories launched with
# torchrun, accelerate, deepspeed, mp.spawn, Lightning or DataParallel): 82 from GitHub (75
# repositories), 1 from another site; 1 of its 83 labels excludes a node; its slips are in the
# README), taken once with benchmarks/score_first_sight.py on main f6d038d (as the fifty-third, at
# the same time): 68 of 83 categories and 79 of 83 actions; rows alone 65 / 78; 6 guesses, 3
# right; 7 with no answer at all; no wrong exclude_node. The collector marked 46 of its 83 labels
# unsure (FIFTYFOURTH_UNSURE); on the other 37: 33 categories and 35 actions right (31 / 37 with
# the rows alone).
FIFTYFOURTH_FIRST: dict[str, float] = {"category": 0.8193, "action": 0.9518}
FIFTYFOURTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7831, "action": 0.9398}
FIFTYFOURTH_FIRST_SURE: dict[str, float] = {"category": 0.8919, "action": 0.9459}
FIFTYFOURTH_UNSURE: frozenset[str] = frozenset(
    [
        "0d71ebd99986",
        "0e28e8932ca4",
        "18d478b0d7b9",
        "1e783918be41",
        "239e495ab958",
        "25c12799c5ff",
        "282952844576",
        "2b705e5c4e73",
        "397501f62915",
        "3bb846b0126e",
        "44b0a24d3951",
        "49d485fd604e",
        "4e81b0c6351c",
        "4ff6b8f16a2a",
        "564f23332281",
        "5869f56aad53",
        "6192cc66655e",
        "7c598644719f",
        "89f718d8d2f9",
        "8ff2a451c4ee",
        "91edbe49a8ad",
        "95de302960c2",
        "96be6bc4d67c",
        "a5042df7d92e",
        "a58689324950",
        "a5ed85b55d15",
        "ac4408c1096a",
        "b2309d78df6d",
        "b5aa50a3be9b",
        "b73e5d6bbf88",
        "bd47117cbc5f",
        "c0afdbef1d84",
        "c29bd0f6aa09",
        "c9a20ea47d10",
        "d907ee87b078",
        "dbf0057acfd5",
        "de97fa6d7144",
        "dfbb3c0760cb",
        "e2e432166fda",
        "e3e381daa7d1",
        "e5efa5af1430",
        "ed87f7e34a8e",
        "efe6b90d1745",
        "f2abe9c376e6",
        "fca7c3557b0e",
        "fd39d7d0c4d5",
    ]
)

# fiftyfifth.jsonl's first score (2026-12-07 08:53, 84 excerpts by a fifty-fifth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; storage and
# the data path of training runs (parallel and network filesystems, object stores through
# s3fs/gcsfs/fsspec, DALI, WebDataset, streaming datasets, checkpoints on full or failing storage,
# filesystem and disk kernel lines): 80 from GitHub (65 repositories), 4 from other sites; 6 of its
# 84 labels exclude a node; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main d87a462 (since the fifty-fourth's first sight, main got
# the fifty-third's and fifty-fourth's rows and the tables retrained on fifty-four splits; no rows
# for it): 51 of 84 categories and 73 of 84 actions; rows alone 43 / 73; 22 guesses, 11 right; 19
# with no answer at all; 1 wrong exclude_node (49c5adb59cbe). The collector marked 58 of its 84
# labels unsure (FIFTYFIFTH_UNSURE); on the other 26: 22 categories and 26 actions right (20 / 26
# with the rows alone).
FIFTYFIFTH_FIRST: dict[str, float] = {"category": 0.6071, "action": 0.869}
FIFTYFIFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5119, "action": 0.869}
FIFTYFIFTH_FIRST_SURE: dict[str, float] = {"category": 0.8462, "action": 1.0}
FIFTYFIFTH_UNSURE: frozenset[str] = frozenset(
    [
        "09537815cf9e",
        "1d030d7a525a",
        "1ddd5f522f11",
        "1e486464840f",
        "1e5c811e6dda",
        "1ebec208c423",
        "1f3dd422bb9d",
        "25dd1a6f04d1",
        "279414c5c8fd",
        "2aea7799e450",
        "2df835b06f88",
        "315e7c4af889",
        "37f65f5941b9",
        "381e59229b36",
        "3f4e5949909c",
        "49c5adb59cbe",
        "53108e6eb00d",
        "5a6b5da835a4",
        "5e213293fc1c",
        "6396bd882558",
        "70ee5eab12af",
        "72c2ba23267c",
        "741f0ae36eb0",
        "76088692123b",
        "776636f53c90",
        "78377f112c95",
        "7a3ec1ad4aa2",
        "8225087fe485",
        "829e29dfdf38",
        "831f14f1c7b3",
        "85b9e67fb6ca",
        "88476984dd68",
        "8e126eed86c7",
        "95650bc21d0d",
        "95f85a7d8328",
        "9a5c8e6d4561",
        "9e009c3b8036",
        "a23fb0db3086",
        "a7b3f8669c0e",
        "aa5deef2e078",
        "aef9073ae1fe",
        "b2d6dd27b17b",
        "bbec0698e021",
        "c4347297d3d4",
        "c6d6c4d34ae3",
        "c984cecfd455",
        "cc56dbc016ec",
        "d265a6ba2a18",
        "d6b33081e4bf",
        "dcc5bb753038",
        "de953ff1cefe",
        "e7b2814e7a1d",
        "f1dd93a23800",
        "f9b91d020e25",
        "fbff510d1c48",
        "fc632cb5744b",
        "fd89163ae629",
        "ff602e7af2d8",
    ]
)

# fiftysixth.jsonl's first score (2026-12-07 08:54, 83 excerpts by a fifty-sixth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; the compiler,
# kernel and library stack under training (torch.compile/Inductor/Triton, CUDA graphs,
# FlashAttention/xFormers/Transformer Engine/bitsandbytes and custom extensions,
# cuDNN/cuBLAS/cuSOLVER, FP8/bf16 on older GPUs, JIT builds): 82 from GitHub (72 repositories), 1
# from another site; 1 of its 83 labels excludes a node; its slips are in the README), taken once
# with benchmarks/score_first_sight.py on main 33a320c (the fifty-fifth merged and scored just
# before; no rows for either): 56 of 83 categories and 79 of 83 actions; rows alone 48 / 79; 21
# guesses, 12 right; 9 with no answer at all; no wrong exclude_node. The collector marked 42 of its
# 83 labels unsure (FIFTYSIXTH_UNSURE); on the other 41: 33 categories and 40 actions right (27 / 41
# with the rows alone).
FIFTYSIXTH_FIRST: dict[str, float] = {"category": 0.6747, "action": 0.9518}
FIFTYSIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5783, "action": 0.9518}
FIFTYSIXTH_FIRST_SURE: dict[str, float] = {"category": 0.8049, "action": 0.9756}
FIFTYSIXTH_UNSURE: frozenset[str] = frozenset(
    [
        "04235b3e9d48",
        "125f6defce7f",
        "12672b1fe012",
        "15c74077f6ff",
        "1680686cda9d",
        "29ed81595092",
        "33698af07207",
        "434151dcf798",
        "4eb8cd0c41ce",
        "4fe3621384fb",
        "53828bb33a3c",
        "57e178d99eab",
        "598533a9dfd9",
        "5aa9a54457a7",
        "6bdff4327c60",
        "6e68a802498a",
        "737b48e29109",
        "74bcf85446d4",
        "821bb7de3169",
        "83c617c1e376",
        "86442e4b7cd7",
        "8fc7a98a0e9b",
        "916881c3a25b",
        "928c0c4fc872",
        "9625991b2d98",
        "9bfcb9dfc922",
        "a08f8508a946",
        "a230ce528fda",
        "a29456872e05",
        "a64c0e533ef7",
        "a778b70f4d3b",
        "b6850ae9214c",
        "bd73a70712a9",
        "cfc1bd1ec651",
        "d16073f17bd9",
        "d49c1cdbb056",
        "d92c864b9c49",
        "e00ff25e35d9",
        "e0630d6de96f",
        "e446b66ba381",
        "f7e4c46c2aff",
        "f9b402f40c5a",
    ]
)

# fiftyseventh.jsonl's first score (2026-12-07 08:56, 83 excerpts by a fifty-seventh collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; the
# launchers and fault-tolerance layers themselves (torchrun's rendezvous and stores, Ray Train and
# Ray clusters, SkyPilot, dstack, Determined, Horovod, accelerate, DeepSpeed's pdsh launcher,
# submitit, torchft): 80 from GitHub (55 repositories), 3 from other sites; 4 of its 83 labels
# exclude a node; its slips are in the README), taken once with benchmarks/score_first_sight.py on
# main abe93a2 (after the fifty-fifth and fifty-sixth were scored; no rows for any of the three): 56
# of 83 categories and 76 of 83 actions; rows alone 48 / 76; 21 guesses, 11 right; 13 with no answer
# at all; no wrong exclude_node. The collector marked 50 of its 83 labels unsure
# (FIFTYSEVENTH_UNSURE); on the other 33: 29 categories and 31 actions right (27 / 33 with the rows
# alone).
FIFTYSEVENTH_FIRST: dict[str, float] = {"category": 0.6747, "action": 0.9157}
FIFTYSEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5783, "action": 0.9157}
FIFTYSEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.8788, "action": 0.9394}
FIFTYSEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "159af3cc592f",
        "1af2cbd6e2f0",
        "23f7ebcc46e6",
        "2a029070f62f",
        "32ca2d341935",
        "3ade94c3d0a7",
        "4015d37c4a45",
        "41dc791ac5c2",
        "466ba90dce16",
        "46bcba9a33f9",
        "50ae951c6f61",
        "5f895b7f1c85",
        "600eeb9c3385",
        "638071ffd434",
        "68cc93885007",
        "6a6b8088513e",
        "6b042629ec46",
        "6b5c48f1fe84",
        "6c3978c7408a",
        "7753d08bbd28",
        "7799be2b2382",
        "7f38b82a3f4e",
        "8189b40e735e",
        "8a6ea1a96bea",
        "8a9b97a43515",
        "8b1a80a43de1",
        "8cbc89043bf7",
        "8d2203287b83",
        "8fccd9ce6494",
        "94bc6d0442ed",
        "96b8bdad1c2b",
        "985a8727474e",
        "a20c57217588",
        "b936ab058749",
        "c2a0b8d0c834",
        "c30f23cd7cc5",
        "c37c680cca9e",
        "c4b4bdff5e54",
        "c6c521d515d8",
        "c7814dc3a56c",
        "d3fbf61399b3",
        "d41a1cfec702",
        "d5f3e38f8161",
        "d7549072f320",
        "deae96ac692c",
        "e3f7bfed29e3",
        "edac78e69ab5",
        "f0b6232495de",
        "f2e94ab3221e",
        "f89af51a0824",
    ]
)

# fiftyeighth.jsonl's first score (2026-12-07 09:08, 82 excerpts by a fifty-eighth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; GPU
# training in frameworks other than PyTorch (JAX and XLA's GPU backend, TensorFlow's distribution
# strategies and Horovod, PaddlePaddle, MindSpore, MXNet and BytePS, Chainer/CuPy): 78 from GitHub
# (59 repositories), 4 from other sites; 1 of its 82 labels excludes a node; its slips are in the
# README), taken once with benchmarks/score_first_sight.py on main 6a7b784 (after the fifty-fifth to
# fifty-seventh were scored; no rows for any of the four): 54 of 82 categories and 73 of 82 actions;
# rows alone 47 / 73; 14 guesses, 7 right; 10 with no answer at all; no wrong exclude_node. The
# collector marked 44 of its 82 labels unsure (FIFTYEIGHTH_UNSURE); on the other 38: 30 categories
# and 34 actions right (25 / 38 with the rows alone).
FIFTYEIGHTH_FIRST: dict[str, float] = {"category": 0.6585, "action": 0.8902}
FIFTYEIGHTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5732, "action": 0.8902}
FIFTYEIGHTH_FIRST_SURE: dict[str, float] = {"category": 0.7895, "action": 0.8947}
FIFTYEIGHTH_UNSURE: frozenset[str] = frozenset(
    [
        "071e0bbae613",
        "09f8066ac94b",
        "0bf9216c90ad",
        "13094ad32ddd",
        "13c0deb433b8",
        "1df31f4e9984",
        "208a89011da7",
        "23fc7c26e12c",
        "2458593cff65",
        "2567689c3bc7",
        "292e08de24be",
        "2df9cfe7dd5a",
        "30c7b426ca42",
        "33a023f1c670",
        "36a7f43e30a3",
        "3905d9261d23",
        "40d405811529",
        "419e7942cd9a",
        "450bc09ace03",
        "4a1cda535d95",
        "4d073673f733",
        "5c76cb5423e2",
        "5dfde2bec278",
        "67c1a0358d83",
        "7a016f027a27",
        "7ce2e0be8da6",
        "834f16223098",
        "875a295b075f",
        "8d1d7d931d4d",
        "93a561f70adb",
        "9db10169f15d",
        "aa9357276ef1",
        "acfdb5672512",
        "aef105d5a121",
        "b188f2ae1600",
        "b4e8909f46bc",
        "c1b8f1d0ecfb",
        "cb33ae4eef5c",
        "d036da3d8b82",
        "d7cb1f6ba1e9",
        "d93b5b0e075b",
        "e3f1c9299b52",
        "e43204de4a87",
        "fb2cd8521634",
    ]
)

# fiftyninth.jsonl's first score (2026-12-07 09:45, 82 excerpts by a fifty-ninth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; the system
# software of large GPU servers (Fabric Manager and NVSwitch, nvidia-persistenced, MIG, row
# remapping, DCGM, driver installs and DKMS, vGPU licensing, nvidia-smi during incidents): 77 from
# GitHub (47 repositories), 5 from other sites; 7 of its 82 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main 633c19e (since the
# fifty-eighth's first sight, main got the fifty-fifth's to fifty-eighth's rows and the tables
# retrained on fifty-eight splits; the sixty-first and sixtieth were scored just before it; no rows
# for any of the three): 56 of 82 categories and 77 of 82 actions; rows alone 43 / 77; 28 guesses,
# 17 right; 12 with no answer at all; 1 wrong exclude_node (0164891c5ba7). The collector marked 40
# of its 82 labels unsure (FIFTYNINTH_UNSURE); on the other 42: 35 categories and 42 actions right
# (26 / 42 with the rows alone).
FIFTYNINTH_FIRST: dict[str, float] = {"category": 0.6829, "action": 0.939}
FIFTYNINTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5244, "action": 0.939}
FIFTYNINTH_FIRST_SURE: dict[str, float] = {"category": 0.8333, "action": 1.0}
FIFTYNINTH_UNSURE: frozenset[str] = frozenset(
    [
        "0164891c5ba7",
        "1470c17a1764",
        "1619c4535d5c",
        "16441158269a",
        "1b2f5691b068",
        "1e85303a23f1",
        "239c5243d010",
        "29211467b89a",
        "32a3bb328327",
        "334f57d38612",
        "35277ba0edc1",
        "35fd66e0ab51",
        "43986f318164",
        "4592d8e24015",
        "536e95e7c608",
        "579fee217ca4",
        "64ee1a100d75",
        "6674ad00187d",
        "6a38ec7ca43c",
        "71e0ef84f997",
        "7303e8ae4586",
        "7cc56b38b575",
        "7e8c4141e5ac",
        "8605e161bca8",
        "90cc26dc0558",
        "a00d831d1d23",
        "a473e86410da",
        "a67d86563f63",
        "af40705402d3",
        "afac865c7e00",
        "b04b2df7100d",
        "b793da94baf1",
        "d201c2d44fc1",
        "de2f522d2f49",
        "e82c2e633fe8",
        "e956114d59af",
        "edf7ee6ccd08",
        "f15efa995b1c",
        "f445e82296a1",
        "ff44ecd93238",
    ]
)

# sixtieth.jsonl's first score (2026-12-07 09:43, 82 excerpts by a sixtieth collector blind to the
# signature table, the fallback, their tests and the other collections' excerpts; multi-GPU training
# on workstations and consumer rigs (peer-to-peer and IOMMU, PCIe, power supplies, thermal
# throttling, Windows and WSL2 TDRs, desktop drivers; 14 of its excerpts an owner's prose): 75 from
# GitHub (62 repositories), 7 from other sites; 8 of its 82 labels exclude a node; its slips are in
# the README), taken once with benchmarks/score_first_sight.py on main b755fac (as the
# fifty-ninth's, two minutes before it, after the sixty-first): 51 of 82 categories and 71 of 82
# actions; rows alone 46 / 71; 11 guesses, 6 right; 20 with no answer at all; 1 wrong exclude_node
# (d950d7ca40cb). The collector marked 53 of its 82 labels unsure (SIXTIETH_UNSURE); on the other
# 29: 27 categories and 28 actions right (25 / 29 with the rows alone).
SIXTIETH_FIRST: dict[str, float] = {"category": 0.622, "action": 0.8659}
SIXTIETH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.561, "action": 0.8659}
SIXTIETH_FIRST_SURE: dict[str, float] = {"category": 0.931, "action": 0.9655}
SIXTIETH_UNSURE: frozenset[str] = frozenset(
    [
        "002bff35f568",
        "03e9056f49f6",
        "10f38a4da4e9",
        "138505fb2930",
        "188ae918b67d",
        "1a20c09cc9e4",
        "1a2eeb4ef1b1",
        "1b509d1bb491",
        "26b5033e50d2",
        "2d593c7a4506",
        "2fead00d0fe5",
        "306b89f87482",
        "370602b4f56a",
        "39b6b0f44284",
        "3dd006a4fd37",
        "3e007db6b6b5",
        "42736d3700fa",
        "42f14d0ac439",
        "44e12a583ec7",
        "570a91b97bdc",
        "6377b21abba4",
        "63fbdf5835bc",
        "692b582c7ee3",
        "6ef056b9767e",
        "789a1f31d6a4",
        "7c17a95de455",
        "7db1704a13f8",
        "7febe6ba746e",
        "81e478b03e1b",
        "879c22615a89",
        "9338ffe689aa",
        "9a9428704ed1",
        "9ab029ceeee3",
        "9fdc296d4f51",
        "b597106f84dd",
        "b64b3975c568",
        "bdf86af2296e",
        "c38bbeb9b73d",
        "c4c6b93e2258",
        "c740d08f2e03",
        "cb0a93277c6c",
        "cc2c0dc5365e",
        "cd2ef9fc80e2",
        "ce136b36c6a1",
        "cef65347d039",
        "d950d7ca40cb",
        "da676eb55124",
        "ee3fb8bef82c",
        "f0665b101008",
        "f35cc887bb93",
        "f4babcf4e3be",
        "f74282cc02f9",
        "fedb48948dbf",
    ]
)

# sixtyfirst.jsonl's first score (2026-12-07 09:41, 83 excerpts by a sixty-first collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; how a long
# run's numbers go wrong (loss spikes and divergence, gradient norms, NaN/Inf in mixed precision and
# the fp16 loss scaler, eval metrics collapsing; many of its excerpts a user's description): 73 from
# GitHub (67 repositories), 10 from other sites; none of its 83 labels excludes a node; its slips
# are in the README), taken once with benchmarks/score_first_sight.py on main debb177 (the first of
# the three scored: the fifty-fifth's to fifty-eighth's rows and the tables on fifty-eight splits;
# no rows for it): 56 of 83 categories and 83 of 83 actions; rows alone 53 / 83; 8 guesses, 5 right;
# 16 with no answer at all; no wrong exclude_node. The collector marked 52 of its 83 labels unsure
# (SIXTYFIRST_UNSURE); on the other 31: 27 categories and 31 actions right (26 / 31 with the rows
# alone).
SIXTYFIRST_FIRST: dict[str, float] = {"category": 0.6747, "action": 1.0}
SIXTYFIRST_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6386, "action": 1.0}
SIXTYFIRST_FIRST_SURE: dict[str, float] = {"category": 0.871, "action": 1.0}
SIXTYFIRST_UNSURE: frozenset[str] = frozenset(
    [
        "0561a8432c6d",
        "0d0f95445646",
        "12df476ca0c7",
        "16959255aede",
        "179deaefecd2",
        "1ae6de830a4c",
        "1c631245a78c",
        "1ebaa3eb9fd8",
        "27fdffad6e78",
        "29b4578d5b5a",
        "29f9ef763cd0",
        "2f0d7b273113",
        "37385297ba6a",
        "44661c9d9ab5",
        "47a431908864",
        "4bb3d0341b07",
        "4c67d84da276",
        "4d2a575795be",
        "4e88d39738cc",
        "596f2b5c7996",
        "5e3ac4781f8a",
        "5e56071850e6",
        "64cf895d7fe1",
        "67bf4b18d1c1",
        "6b370e409105",
        "6e9f80fb090a",
        "7187583b3e6a",
        "7b2d0113e812",
        "7e13a8b9ccc8",
        "7e76f5178ad9",
        "8543705443c6",
        "9a7c108a87c0",
        "9c59f7c2a4bc",
        "9e973e8b3280",
        "a6e1f0f3f88c",
        "ae9cfad0c49e",
        "bd3bd6f48a4d",
        "bec9e81709ee",
        "c1eff088eebb",
        "c49bd65b6bf2",
        "c825815f34e8",
        "c87be5d23296",
        "d95bd9c10179",
        "de6a7d054f52",
        "dee247c2ef97",
        "e1551c00967d",
        "e377f258ec02",
        "e9dbcb97f668",
        "ed98d5918e02",
        "f21bb3094ec5",
        "f67074f3bce3",
        "fd7453df43b7",
    ]
)

# sixtysecond.jsonl's first score (2026-12-07 12:34, 83 excerpts by a sixty-second collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; RL
# post-training with generation inside the training job (veRL, OpenRLHF, TRL's GRPO with vLLM,
# NeMo-RL, AReaL, slime: weight sync between trainer and rollout engines, Ray actors dying,
# vLLM/SGLang engines out of memory or hanging): 79 from GitHub (50 repositories), 4 from other
# sites; none of its 83 labels excludes a node; its slips are in the README), taken once with
# benchmarks/score_first_sight.py on main d59f165 (session 34's rows and the tables on fifty-eight
# splits, the replica fix bfbf015; the three collections scored one after another with no rows
# between): 57 of 83 categories and 77 of 83 actions; rows alone 52 / 77; 15 guesses, 11 right; 11
# with no answer at all; no wrong exclude_node. The collector marked 42 of its 83 labels unsure
# (SIXTYSECOND_UNSURE); on the other 41: 34 categories and 38 actions right (30 / 41 with the rows
# alone).
SIXTYSECOND_FIRST: dict[str, float] = {"category": 0.6867, "action": 0.9277}
SIXTYSECOND_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.6265, "action": 0.9277}
SIXTYSECOND_FIRST_SURE: dict[str, float] = {"category": 0.8293, "action": 0.9268}
SIXTYSECOND_UNSURE: frozenset[str] = frozenset(
    [
        "055e1e37da55",
        "09f774d1f05b",
        "105b2655681a",
        "129bfc826b19",
        "16f8c9a15772",
        "1f896ec50790",
        "2df452fb4e81",
        "404da3ede749",
        "5d68c405a884",
        "5ec9d94d5d94",
        "662dbea5237b",
        "696ba4c862ef",
        "69764e6c607f",
        "69b7cc9dc722",
        "6d01dfd763e9",
        "70227dbcebb8",
        "70feec513860",
        "76c15d67118c",
        "78ddec16bbeb",
        "7975fd75c65b",
        "812fe18d862e",
        "96801322ee1d",
        "a03a472ec72e",
        "a30c056c0e70",
        "a9265f389611",
        "ad5e9d2bfdd2",
        "b04b7bba7856",
        "b0a9dc6f8db3",
        "b739ff613c5f",
        "bc91b13b5919",
        "bea2951548d5",
        "d1ba86b6063a",
        "dd87aacee0cb",
        "e0dd8aa1643d",
        "e2de4237e2dd",
        "e723ae7c29b1",
        "f0f76d2ffddd",
        "f1cfeac32245",
        "f443aa50cfb5",
        "f45dd9ba9423",
        "f9632681e0a2",
        "fa4c80b4a16a",
    ]
)

# sixtythird.jsonl's first score (2026-12-07 12:34, 83 excerpts by a sixty-third collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; fine-tuning
# toolkits run on 1-8 GPUs (Axolotl, LLaMA-Factory, Unsloth, torchtune, TRL's SFTTrainer, PEFT/QLoRA
# with bitsandbytes, DeepSpeed ZeRO through accelerate, ms-swift): 81 from GitHub (57 repositories),
# 2 from other sites; 1 of its 83 labels excludes a node; its slips are in the README), taken once
# with benchmarks/score_first_sight.py on main d59f165 (as the sixty-second's, the same minute): 60
# of 83 categories and 72 of 83 actions; rows alone 59 / 71; 8 guesses, 2 right; 10 with no answer
# at all; no wrong exclude_node. The collector marked 44 of its 83 labels unsure
# (SIXTYTHIRD_UNSURE); on the other 39: 34 categories and 39 actions right (33 / 39 with the rows
# alone).
SIXTYTHIRD_FIRST: dict[str, float] = {"category": 0.7229, "action": 0.8675}
SIXTYTHIRD_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.7108, "action": 0.8554}
SIXTYTHIRD_FIRST_SURE: dict[str, float] = {"category": 0.8718, "action": 1.0}
SIXTYTHIRD_UNSURE: frozenset[str] = frozenset(
    [
        "00697e0d5a90",
        "059a26bd1580",
        "0a1ffeb8b533",
        "0a30c22617eb",
        "0f2b6c71e4f5",
        "14feb371861f",
        "15134b86ee1c",
        "214c578d7067",
        "2b31c4fa4527",
        "2be299844a09",
        "31404f82a028",
        "321c1dfdfbc7",
        "34a852663fae",
        "359f723fada6",
        "409350e341f2",
        "4a413a26e5f3",
        "4ec0e11f3ee3",
        "579b0a3dcdf8",
        "5c3da0c4881d",
        "5e97ff29e9c9",
        "74628b0816cf",
        "78a8592e7004",
        "9269e623decf",
        "941d6b2c8863",
        "9cd2fb8a1551",
        "afb4dde46818",
        "b0fc49984e45",
        "b1c792e88155",
        "b9355eca9db3",
        "bafa7d6db53c",
        "bb297f10098c",
        "c8b0925ef407",
        "cc64273e1367",
        "d28753ebc43f",
        "d9987c96cd63",
        "dc5a7869314b",
        "e10eb37b6383",
        "e3f16e28b35e",
        "e6c686aaae06",
        "eb015cbaaa2d",
        "ee45e15b1a34",
        "ef6d18c82586",
        "f3810a736dfe",
        "f7f29384b8d0",
    ]
)

# sixtyfourth.jsonl's first score (2026-12-07 12:34, 83 excerpts by a sixty-fourth collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; containers
# and managed training services around GPU jobs (nvidia-container-toolkit, CDI, Docker's shm and
# memlock under NCCL, Enroot/Pyxis, Apptainer, SageMaker, Vertex AI, Azure ML, Ray's autoscaler,
# Modal): 81 from GitHub (66 repositories), 2 from other sites; 1 of its 83 labels excludes a node;
# its slips are in the README), taken once with benchmarks/score_first_sight.py on main d59f165 (as
# the sixty-second's, the same minute): 60 of 83 categories and 78 of 83 actions; rows alone 48 /
# 78; 20 guesses, 13 right; 10 with no answer at all; no wrong exclude_node. The collector marked 39
# of its 83 labels unsure (SIXTYFOURTH_UNSURE); on the other 44: 38 categories and 43 actions right
# (30 / 44 with the rows alone).
SIXTYFOURTH_FIRST: dict[str, float] = {"category": 0.7229, "action": 0.9398}
SIXTYFOURTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5783, "action": 0.9398}
SIXTYFOURTH_FIRST_SURE: dict[str, float] = {"category": 0.8636, "action": 0.9773}
SIXTYFOURTH_UNSURE: frozenset[str] = frozenset(
    [
        "0188b438569a",
        "070bc488ee5b",
        "08d3ebb4e84a",
        "0e3736729831",
        "150250b4a7e5",
        "17f1655dede2",
        "1da69cebbeb7",
        "21eb26abea84",
        "2e1f82434e54",
        "3c74cf531d1b",
        "454a4e88cd34",
        "460989bcda00",
        "4e9e7b79a0f9",
        "6bc1c35b6997",
        "6fa5b1e90d87",
        "75b80a416a01",
        "799a958a0cc3",
        "86dc38d4f2c7",
        "8b8e4ada5138",
        "8fbf7b254426",
        "906ab4fdc4de",
        "972e6bd94f40",
        "9bf4cda0d8ac",
        "9dedc6e64fec",
        "a277e0fdb00c",
        "a44e08bc9d6a",
        "b59eac63ac57",
        "bca3f6692ff8",
        "c7016cc018dc",
        "d125dfc593b8",
        "d4b8096066bd",
        "d80ec4bcea2e",
        "d94ad89fb9db",
        "df18cac76fde",
        "e3a5d00599a7",
        "e53584080deb",
        "e977459b27c4",
        "f07169c606fe",
        "f2812b55606b",
    ]
)

# sixtyfifth.jsonl's first score (2026-12-07 15:29, 83 excerpts by a sixty-fifth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; large-model
# pretraining stacks at scale (Megatron-LM/Megatron-Core and NeMo, TorchTitan and FSDP2,
# DeepSpeed-MoE, pipeline and expert parallelism, distributed checkpoint conversion): 81 from GitHub
# (53 repositories), 2 from other sites; none of its 83 labels excludes a node; its slips are in the
# README), taken once with benchmarks/score_first_sight.py on main 98db20f (session 35's rows and
# the tables on sixty-four splits; the three collections scored one after another with no rows
# between): 50 of 83 categories and 62 of 83 actions; rows alone 47 / 62; 9 guesses, 3 right; 9 with
# no answer at all; no wrong exclude_node. The collector marked 49 of its 83 labels unsure
# (SIXTYFIFTH_UNSURE); on the other 34: 25 categories and 26 actions right (25 / 34 with the rows
# alone).
SIXTYFIFTH_FIRST: dict[str, float] = {"category": 0.6024, "action": 0.747}
SIXTYFIFTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5663, "action": 0.747}
SIXTYFIFTH_FIRST_SURE: dict[str, float] = {"category": 0.7353, "action": 0.7647}
SIXTYFIFTH_UNSURE: frozenset[str] = frozenset(
    [
        "04939af4f16f",
        "0c8b4f64d9fd",
        "15de56051138",
        "190b7d8330fd",
        "22bf43243f60",
        "24e9f32b45ad",
        "2508938fe5ae",
        "2561653edc2b",
        "2c6896b694c2",
        "2fe0c60e2fa8",
        "30a6d338acfd",
        "31d7e10ec2a8",
        "32a4899cc8e0",
        "33f17aae1214",
        "36a191bce6a1",
        "3d8fe688d7ce",
        "40b63e6c6c56",
        "41315ab29a3e",
        "489288f27b9d",
        "4bca410910da",
        "5222a5b9a6a3",
        "545935b4684c",
        "601184eec03b",
        "611aaf7ecf09",
        "693190f0ead4",
        "6a51f5d84609",
        "76c526cc67d3",
        "7b521a2b3f89",
        "7fd85d24c369",
        "84e024875b12",
        "87473f78da56",
        "87f233c9eec2",
        "8d347df2bad3",
        "96ed65050940",
        "98286642151b",
        "9cb17003c171",
        "9ceffdb59c71",
        "a0c411e37765",
        "a2a4c069964e",
        "a54a64c2ef3a",
        "b02cf9fb5532",
        "c0ee727aa59c",
        "c1a7b008e1df",
        "cfebcb137871",
        "d4f877176363",
        "db92b1d36485",
        "f10427b802a8",
        "fc2af0c195af",
        "fd3ea26fba79",
    ]
)

# sixtysixth.jsonl's first score (2026-12-07 15:29, 84 excerpts by a sixty-sixth collector blind to
# the signature table, the fallback, their tests and the other collections' excerpts; training on
# accelerators other than NVIDIA's (AMD Instinct with ROCm and RCCL, Intel Gaudi, AWS
# Trainium/Neuron, Google TPU with PyTorch/XLA and JAX, Ascend NPUs): 79 from GitHub (58
# repositories), 5 from other sites; 2 of its 84 labels exclude a node; its slips are in the
# README), taken once with benchmarks/score_first_sight.py on main 98db20f (as the sixty-fifth's,
# the same minute): 45 of 84 categories and 77 of 84 actions; rows alone 39 / 75; 30 guesses, 11
# right; 13 with no answer at all; no wrong exclude_node. The collector marked 51 of its 84 labels
# unsure (SIXTYSIXTH_UNSURE); on the other 33: 22 categories and 30 actions right (18 / 33 with the
# rows alone).
SIXTYSIXTH_FIRST: dict[str, float] = {"category": 0.5357, "action": 0.9167}
SIXTYSIXTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.4643, "action": 0.8929}
SIXTYSIXTH_FIRST_SURE: dict[str, float] = {"category": 0.6667, "action": 0.9091}
SIXTYSIXTH_UNSURE: frozenset[str] = frozenset(
    [
        "00885d681438",
        "01dde68c5c86",
        "0926b29d5789",
        "0ba0fbd41572",
        "0cd18add1c45",
        "1cbeb7991386",
        "22eb27518a44",
        "241b65a1f14c",
        "251a684e9126",
        "2ece0fa487b9",
        "323665179c4a",
        "32cc8a679d81",
        "3a78d506c917",
        "3afa9c078620",
        "3b6d99b66d4f",
        "3e4181298cd2",
        "4d3b7bb8fc82",
        "4e35fb29d318",
        "509a5a337039",
        "5105a96948a7",
        "59668c90de15",
        "5973ffa9724f",
        "635c1e0ae417",
        "69819b8bc46b",
        "6e8a3af050f7",
        "7041e81ec95e",
        "8010581774c7",
        "92478b03a6c8",
        "934a8a0d12bd",
        "96d115cb39b8",
        "9d8ab02ba623",
        "a68879b091ce",
        "a6b0387c2b44",
        "b12486b81a07",
        "b14e880b395c",
        "b209daf0f34b",
        "b5dfc807acc7",
        "b74584b26999",
        "bf16052a7da7",
        "c17550e76ac9",
        "c447fc917c9e",
        "ca6eec50af67",
        "cee9f23a0262",
        "d8ef9575d379",
        "da2ae2705d3e",
        "e84883dd6f1c",
        "eca8774f6fd2",
        "f2763d3e45e5",
        "f4703b7cf2ea",
        "f4acf805bd12",
        "fef8ac2f15ce",
    ]
)

# sixtyseventh.jsonl's first score (2026-12-07 15:29, 80 excerpts by a sixty-seventh collector blind
# to the signature table, the fallback, their tests and the other collections' excerpts; how cluster
# operators see failing GPU nodes (Kubernetes GPU Operator and device plugin, DCGM, Slurm's node
# health checks, XID events, BMC/Redfish logs, InfiniBand tools): 75 from GitHub (51 repositories),
# 5 from other sites; 9 of its 80 labels exclude a node; its slips are in the README), taken once
# with benchmarks/score_first_sight.py on main 98db20f (as the sixty-fifth's, the same minute): 59
# of 80 categories and 73 of 80 actions; rows alone 45 / 73; 27 guesses, 19 right; 10 with no answer
# at all; 3 wrong exclude_node (776dd6ca012b, e875bb42f4cc, 83988252db7b). The collector marked 48
# of its 80 labels unsure (SIXTYSEVENTH_UNSURE); on the other 32: 27 categories and 30 actions right
# (20 / 32 with the rows alone).
SIXTYSEVENTH_FIRST: dict[str, float] = {"category": 0.7375, "action": 0.9125}
SIXTYSEVENTH_FIRST_ROWS_ONLY: dict[str, float] = {"category": 0.5625, "action": 0.9125}
SIXTYSEVENTH_FIRST_SURE: dict[str, float] = {"category": 0.8438, "action": 0.9375}
SIXTYSEVENTH_UNSURE: frozenset[str] = frozenset(
    [
        "00354af78226",
        "09a29d0195b1",
        "130f607943e8",
        "14ad5e881677",
        "216b6feb5795",
        "2d5381933ab0",
        "383ae0bd569a",
        "41f208608404",
        "46187bd770ee",
        "4f879c822f81",
        "50891daf3a6a",
        "545584b4f447",
        "55458e8b5e4f",
        "5b0819898625",
        "642bdd49188c",
        "6906b31cf202",
        "6ef7dac7fa39",
        "72eed199ffa0",
        "75ce887ba0dc",
        "7659cfd559a2",
        "79475f739076",
        "7d4787aaa889",
        "7f31cfeacf9d",
        "83988252db7b",
        "8455cb84bc49",
        "87655f886d18",
        "8fc87ef5a7ba",
        "94085c0397c8",
        "9a2cf38e8dc1",
        "9d8161c4eae5",
        "a62011006dbd",
        "ac0f0dff0ddf",
        "b28149d0ea86",
        "b3df15c2c7e6",
        "b5fe577268e9",
        "bb193a744a3a",
        "bb7cc316d88a",
        "bc84d465527a",
        "c87eeedd0bc0",
        "c97519eb3c35",
        "cc05d4994c38",
        "d0c7e50d31b2",
        "d4884b773654",
        "dd12796639ca",
        "e61dc2cbb07d",
        "f53cb32c4167",
        "fc2b4370acbe",
        "ff28b4103da7",
    ]
)

# every collection whose collector marked the labels it was unsure of (the tenth on): its first
# sight on the others, pooled by `_pooled_sure_first_sight`
FIRST_SIGHT_SURE: tuple[tuple[str, dict[str, float], frozenset[str]], ...] = (
    ("tenth", TENTH_FIRST_SURE, TENTH_UNSURE),
    ("eleventh", ELEVENTH_FIRST_SURE, ELEVENTH_UNSURE),
    ("twelfth", TWELFTH_FIRST_SURE, TWELFTH_UNSURE),
    ("thirteenth", THIRTEENTH_FIRST_SURE, THIRTEENTH_UNSURE),
    ("fourteenth", FOURTEENTH_FIRST_SURE, FOURTEENTH_UNSURE),
    ("fifteenth", FIFTEENTH_FIRST_SURE, FIFTEENTH_UNSURE),
    ("sixteenth", SIXTEENTH_FIRST_SURE, SIXTEENTH_UNSURE),
    ("seventeenth", SEVENTEENTH_FIRST_SURE, SEVENTEENTH_UNSURE),
    ("eighteenth", EIGHTEENTH_FIRST_SURE, EIGHTEENTH_UNSURE),
    ("nineteenth", NINETEENTH_FIRST_SURE, NINETEENTH_UNSURE),
    ("twentieth", TWENTIETH_FIRST_SURE, TWENTIETH_UNSURE),
    ("twentyfirst", TWENTYFIRST_FIRST_SURE, TWENTYFIRST_UNSURE),
    ("twentysecond", TWENTYSECOND_FIRST_SURE, TWENTYSECOND_UNSURE),
    ("twentythird", TWENTYTHIRD_FIRST_SURE, TWENTYTHIRD_UNSURE),
    ("twentyfourth", TWENTYFOURTH_FIRST_SURE, TWENTYFOURTH_UNSURE),
    ("twentyfifth", TWENTYFIFTH_FIRST_SURE, TWENTYFIFTH_UNSURE),
    ("twentysixth", TWENTYSIXTH_FIRST_SURE, TWENTYSIXTH_UNSURE),
    ("twentyseventh", TWENTYSEVENTH_FIRST_SURE, TWENTYSEVENTH_UNSURE),
    ("twentyeighth", TWENTYEIGHTH_FIRST_SURE, TWENTYEIGHTH_UNSURE),
    ("twentyninth", TWENTYNINTH_FIRST_SURE, TWENTYNINTH_UNSURE),
    ("thirtieth", THIRTIETH_FIRST_SURE, THIRTIETH_UNSURE),
    ("thirtyfirst", THIRTYFIRST_FIRST_SURE, THIRTYFIRST_UNSURE),
    ("thirtysecond", THIRTYSECOND_FIRST_SURE, THIRTYSECOND_UNSURE),
    ("thirtythird", THIRTYTHIRD_FIRST_SURE, THIRTYTHIRD_UNSURE),
    ("thirtyfourth", THIRTYFOURTH_FIRST_SURE, THIRTYFOURTH_UNSURE),
    ("thirtyfifth", THIRTYFIFTH_FIRST_SURE, THIRTYFIFTH_UNSURE),
    ("thirtysixth", THIRTYSIXTH_FIRST_SURE, THIRTYSIXTH_UNSURE),
    ("thirtyseventh", THIRTYSEVENTH_FIRST_SURE, THIRTYSEVENTH_UNSURE),
    ("thirtyeighth", THIRTYEIGHTH_FIRST_SURE, THIRTYEIGHTH_UNSURE),
    ("thirtyninth", THIRTYNINTH_FIRST_SURE, THIRTYNINTH_UNSURE),
    ("fortieth", FORTIETH_FIRST_SURE, FORTIETH_UNSURE),
    ("fortyfirst", FORTYFIRST_FIRST_SURE, FORTYFIRST_UNSURE),
    ("fortysecond", FORTYSECOND_FIRST_SURE, FORTYSECOND_UNSURE),
    ("fortythird", FORTYTHIRD_FIRST_SURE, FORTYTHIRD_UNSURE),
    ("fortyfourth", FORTYFOURTH_FIRST_SURE, FORTYFOURTH_UNSURE),
    ("fortyfifth", FORTYFIFTH_FIRST_SURE, FORTYFIFTH_UNSURE),
    ("fortysixth", FORTYSIXTH_FIRST_SURE, FORTYSIXTH_UNSURE),
    ("fortyseventh", FORTYSEVENTH_FIRST_SURE, FORTYSEVENTH_UNSURE),
    ("fortyeighth", FORTYEIGHTH_FIRST_SURE, FORTYEIGHTH_UNSURE),
    ("fortyninth", FORTYNINTH_FIRST_SURE, FORTYNINTH_UNSURE),
    ("fiftieth", FIFTIETH_FIRST_SURE, FIFTIETH_UNSURE),
    ("fiftyfirst", FIFTYFIRST_FIRST_SURE, FIFTYFIRST_UNSURE),
    ("fiftysecond", FIFTYSECOND_FIRST_SURE, FIFTYSECOND_UNSURE),
    ("fiftythird", FIFTYTHIRD_FIRST_SURE, FIFTYTHIRD_UNSURE),
    ("fiftyfourth", FIFTYFOURTH_FIRST_SURE, FIFTYFOURTH_UNSURE),
    ("fiftyfifth", FIFTYFIFTH_FIRST_SURE, FIFTYFIFTH_UNSURE),
    ("fiftysixth", FIFTYSIXTH_FIRST_SURE, FIFTYSIXTH_UNSURE),
    ("fiftyseventh", FIFTYSEVENTH_FIRST_SURE, FIFTYSEVENTH_UNSURE),
    ("fiftyeighth", FIFTYEIGHTH_FIRST_SURE, FIFTYEIGHTH_UNSURE),
    ("fiftyninth", FIFTYNINTH_FIRST_SURE, FIFTYNINTH_UNSURE),
    ("sixtieth", SIXTIETH_FIRST_SURE, SIXTIETH_UNSURE),
    ("sixtyfirst", SIXTYFIRST_FIRST_SURE, SIXTYFIRST_UNSURE),
    ("sixtysecond", SIXTYSECOND_FIRST_SURE, SIXTYSECOND_UNSURE),
    ("sixtythird", SIXTYTHIRD_FIRST_SURE, SIXTYTHIRD_UNSURE),
    ("sixtyfourth", SIXTYFOURTH_FIRST_SURE, SIXTYFOURTH_UNSURE),
    ("sixtyfifth", SIXTYFIFTH_FIRST_SURE, SIXTYFIFTH_UNSURE),
    ("sixtysixth", SIXTYSIXTH_FIRST_SURE, SIXTYSIXTH_UNSURE),
    ("sixtyseventh", SIXTYSEVENTH_FIRST_SURE, SIXTYSEVENTH_UNSURE),
)


def _pooled_sure_first_sight() -> dict[str, Any]:
    """First sight on the labels each collector was sure of, pooled over FIRST_SIGHT_SURE (each
    collection weighted by its sure excerpts) and over the latest six; the issue measured
    generalization this way ("on the cases whose label is sure")."""

    def pool(rows: list[tuple[int, dict[str, float]]]) -> dict[str, float]:
        n = sum(k for k, _ in rows)
        return {
            "excerpts": n,
            "category": round(sum(k * f["category"] for k, f in rows) / n, 4),
            "action": round(sum(k * f["action"] for k, f in rows) / n, 4),
        }

    rows = [
        (sum(r["id"] not in unsure for r in load(name)), first)
        for name, first, unsure in FIRST_SIGHT_SURE
    ]
    every, latest = pool(rows), pool(rows[-6:])
    return {
        "first_sight_sure_collections": len(rows),
        "first_sight_sure_excerpts": every["excerpts"],
        "first_sight_sure_category": every["category"],
        "first_sight_sure_action": every["action"],
        "first_sight_sure_latest6_excerpts": latest["excerpts"],
        "first_sight_sure_latest6_category": latest["category"],
        "first_sight_sure_latest6_action": latest["action"],
    }


def load(split: str) -> list[dict[str, Any]]:
    with open(CORPUS / f"{split}.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def classify(
    records: list[dict[str, Any]], *, fallback: bool = True
) -> list[tuple[dict[str, Any], Any]]:
    out = []
    with tempfile.TemporaryDirectory(prefix="nonstop-triage-acc-") as tmp:
        for r in records:
            path = Path(tmp) / f"{r['id']}.log"
            path.write_text(r["excerpt"] + "\n")
            # as `nonstop triage FILE`: a description no row matched is read (prose) too
            v = triage.triage_file(path, fallback=fallback, descriptions=fallback)
            out.append((r, v))
    return out


def _sure_scores(split: str, unsure: frozenset[str]) -> dict[str, float]:
    """Category and action accuracy on the excerpts whose label the collector was sure of."""
    sure = [(r, v) for r, v in classify(load(split)) if r["id"] not in unsure]
    return {
        "excerpts": len(sure),
        "category": round(sum(v.category == r["category"] for r, v in sure) / len(sure), 4),
        "action": round(sum(v.action == r["action"] for r, v in sure) / len(sure), 4),
    }


def _first_sight_fields(
    name: str,
    now: dict[str, Any],
    rows_now: dict[str, Any],
    first: dict[str, float],
    rows_first: dict[str, float],
    sure_first: dict[str, float],
    sure_now: dict[str, float],
) -> dict[str, Any]:
    """A collection's recorded first sight (all labels, rows alone, sure labels) beside its
    figures now: the `<name>_*` fields of the result."""
    return {
        f"{name}_first_category": first["category"],
        f"{name}_first_action": first["action"],
        f"{name}_first_rows_only_category": rows_first["category"],
        f"{name}_first_rows_only_action": rows_first["action"],
        f"{name}_first_sure_category": sure_first["category"],
        f"{name}_first_sure_action": sure_first["action"],
        f"{name}_sure_excerpts": sure_now["excerpts"],
        f"{name}_category_accuracy": now["category_accuracy"],
        f"{name}_action_accuracy": now["action_accuracy"],
        f"{name}_sure_category_accuracy": sure_now["category"],
        f"{name}_sure_action_accuracy": sure_now["action"],
        f"{name}_wrong_exclude_node": now["wrong_exclude_node"],
        f"{name}_misses": now["misses"],
        f"{name}_guesses": now["guesses"],
        f"{name}_guesses_right": now["guesses_right"],
        f"{name}_rows_only_category_accuracy": rows_now["category_accuracy"],
        f"{name}_rows_only_action_accuracy": rows_now["action_accuracy"],
    }


def evaluate(split: str, *, fallback: bool = True) -> dict[str, Any]:
    """Scores of `nonstop triage` on a split; `fallback=False`: the signature rows alone."""
    results = classify(load(split), fallback=fallback)
    n = len(results)
    cat_ok = sum(v.category == r["category"] for r, v in results)
    act_ok = sum(v.action == r["action"] for r, v in results)
    confusion: Counter[str] = Counter(
        f"{r['category']} -> {v.category}" for r, v in results if v.category != r["category"]
    )
    matrix: dict[str, dict[str, int]] = {}
    actions: dict[str, dict[str, int]] = {}
    for r, v in results:
        row = matrix.setdefault(r["category"], {})
        row[v.category] = row.get(v.category, 0) + 1
        arow = actions.setdefault(r["action"], {})
        arow[v.action] = arow.get(v.action, 0) + 1
    wrong_exclude = [
        r["id"] for r, v in results if v.action == "exclude_node" and r["action"] != "exclude_node"
    ]
    return {
        "split": split,
        "excerpts": n,
        "category_accuracy": round(cat_ok / n, 4),
        "action_accuracy": round(act_ok / n, 4),
        "confusion": dict(confusion.most_common()),
        "wrong_exclude_node": wrong_exclude,
        "matrix": dict(sorted(matrix.items())),
        "action_matrix": dict(sorted(actions.items())),
        "correct": [int(v.category == r["category"]) for r, v in results],
        "guesses": sum(v.guessed for _, v in results),
        "guesses_right": sum(v.guessed and v.category == r["category"] for r, v in results),
        "misses": [
            {
                "id": r["id"],
                "true": r["category"],
                "got": v.category,
                "confidence": round(v.confidence, 2),
            }
            for r, v in results
            if v.category != r["category"]
        ],
    }


def run(quick: bool) -> dict[str, Any]:
    tuning, held = load("tuning"), load("heldout")
    base = Counter(r["category"] for r in tuning).most_common(1)[0][0]
    peer = sum(r["category"] == base for r in held) / len(held)
    h = evaluate("heldout")
    t = evaluate("tuning")
    f = evaluate("fresh")
    th = evaluate("third")
    fo = evaluate("fourth")
    fi = evaluate("fifth")
    fi_rows = evaluate("fifth", fallback=False)
    si = evaluate("sixth")
    si_rows = evaluate("sixth", fallback=False)
    se = evaluate("seventh")
    se_rows = evaluate("seventh", fallback=False)
    ei = evaluate("eighth")
    ei_rows = evaluate("eighth", fallback=False)
    ni = evaluate("ninth")
    ni_rows = evaluate("ninth", fallback=False)
    te = evaluate("tenth")
    te_rows = evaluate("tenth", fallback=False)
    el = evaluate("eleventh")
    el_rows = evaluate("eleventh", fallback=False)
    tw = evaluate("twelfth")
    tw_rows = evaluate("twelfth", fallback=False)
    tt = evaluate("thirteenth")
    tt_rows = evaluate("thirteenth", fallback=False)
    ft = evaluate("fourteenth")
    ft_rows = evaluate("fourteenth", fallback=False)
    fv = evaluate("fifteenth")
    fv_rows = evaluate("fifteenth", fallback=False)
    sx = evaluate("sixteenth")
    sx_rows = evaluate("sixteenth", fallback=False)
    sv = evaluate("seventeenth")
    sv_rows = evaluate("seventeenth", fallback=False)
    eg = evaluate("eighteenth")
    eg_rows = evaluate("eighteenth", fallback=False)
    nt = evaluate("nineteenth")
    nt_rows = evaluate("nineteenth", fallback=False)
    tn = evaluate("twentieth")
    tn_rows = evaluate("twentieth", fallback=False)
    tf = evaluate("twentyfirst")
    tf_rows = evaluate("twentyfirst", fallback=False)
    ts = evaluate("twentysecond")
    ts_rows = evaluate("twentysecond", fallback=False)
    tw3 = evaluate("twentythird")
    tw3_rows = evaluate("twentythird", fallback=False)
    tw4 = evaluate("twentyfourth")
    tw4_rows = evaluate("twentyfourth", fallback=False)
    tw5 = evaluate("twentyfifth")
    tw5_rows = evaluate("twentyfifth", fallback=False)
    tw6 = evaluate("twentysixth")
    tw6_rows = evaluate("twentysixth", fallback=False)
    tw7 = evaluate("twentyseventh")
    tw7_rows = evaluate("twentyseventh", fallback=False)
    tw8 = evaluate("twentyeighth")
    tw8_rows = evaluate("twentyeighth", fallback=False)
    tw9 = evaluate("twentyninth")
    tw9_rows = evaluate("twentyninth", fallback=False)
    t30 = evaluate("thirtieth")
    t30_rows = evaluate("thirtieth", fallback=False)
    t31 = evaluate("thirtyfirst")
    t31_rows = evaluate("thirtyfirst", fallback=False)
    t32 = evaluate("thirtysecond")
    t32_rows = evaluate("thirtysecond", fallback=False)
    t33 = evaluate("thirtythird")
    t33_rows = evaluate("thirtythird", fallback=False)
    t34 = evaluate("thirtyfourth")
    t34_rows = evaluate("thirtyfourth", fallback=False)
    t35 = evaluate("thirtyfifth")
    t35_rows = evaluate("thirtyfifth", fallback=False)
    t36 = evaluate("thirtysixth")
    t36_rows = evaluate("thirtysixth", fallback=False)
    t37 = evaluate("thirtyseventh")
    t37_rows = evaluate("thirtyseventh", fallback=False)
    t38 = evaluate("thirtyeighth")
    t38_rows = evaluate("thirtyeighth", fallback=False)
    t39 = evaluate("thirtyninth")
    t39_rows = evaluate("thirtyninth", fallback=False)
    t40 = evaluate("fortieth")
    t40_rows = evaluate("fortieth", fallback=False)
    t41 = evaluate("fortyfirst")
    t41_rows = evaluate("fortyfirst", fallback=False)
    t42 = evaluate("fortysecond")
    t42_rows = evaluate("fortysecond", fallback=False)
    t43 = evaluate("fortythird")
    t43_rows = evaluate("fortythird", fallback=False)
    t44 = evaluate("fortyfourth")
    t44_rows = evaluate("fortyfourth", fallback=False)
    t45 = evaluate("fortyfifth")
    t45_rows = evaluate("fortyfifth", fallback=False)
    t46 = evaluate("fortysixth")
    t46_rows = evaluate("fortysixth", fallback=False)
    t47 = evaluate("fortyseventh")
    t47_rows = evaluate("fortyseventh", fallback=False)
    t48 = evaluate("fortyeighth")
    t48_rows = evaluate("fortyeighth", fallback=False)
    t49 = evaluate("fortyninth")
    t49_rows = evaluate("fortyninth", fallback=False)
    t50 = evaluate("fiftieth")
    t50_rows = evaluate("fiftieth", fallback=False)
    t51 = evaluate("fiftyfirst")
    t51_rows = evaluate("fiftyfirst", fallback=False)
    t52 = evaluate("fiftysecond")
    t52_rows = evaluate("fiftysecond", fallback=False)
    t53 = evaluate("fiftythird")
    t53_rows = evaluate("fiftythird", fallback=False)
    t54 = evaluate("fiftyfourth")
    t54_rows = evaluate("fiftyfourth", fallback=False)
    t55 = evaluate("fiftyfifth")
    t55_rows = evaluate("fiftyfifth", fallback=False)
    t56 = evaluate("fiftysixth")
    t56_rows = evaluate("fiftysixth", fallback=False)
    t57 = evaluate("fiftyseventh")
    t57_rows = evaluate("fiftyseventh", fallback=False)
    t58 = evaluate("fiftyeighth")
    t58_rows = evaluate("fiftyeighth", fallback=False)
    t59 = evaluate("fiftyninth")
    t59_rows = evaluate("fiftyninth", fallback=False)
    t60 = evaluate("sixtieth")
    t60_rows = evaluate("sixtieth", fallback=False)
    t61 = evaluate("sixtyfirst")
    t61_rows = evaluate("sixtyfirst", fallback=False)
    t62 = evaluate("sixtysecond")
    t62_rows = evaluate("sixtysecond", fallback=False)
    t63 = evaluate("sixtythird")
    t63_rows = evaluate("sixtythird", fallback=False)
    t64 = evaluate("sixtyfourth")
    t64_rows = evaluate("sixtyfourth", fallback=False)
    t65 = evaluate("sixtyfifth")
    t65_rows = evaluate("sixtyfifth", fallback=False)
    t66 = evaluate("sixtysixth")
    t66_rows = evaluate("sixtysixth", fallback=False)
    t67 = evaluate("sixtyseventh")
    t67_rows = evaluate("sixtyseventh", fallback=False)
    h_rows = evaluate("heldout", fallback=False)
    # leaving each collection out trains the fallback once per collection (~4 s each, minutes
    # in all): the quick run leaves out three, named in `loco_collections`
    left_out = triage_first_sight.QUICK if quick else triage_first_sight.COLLECTIONS
    loco = triage_first_sight.estimate(collections=left_out)
    ours_ok = np.asarray(h.pop("correct"), dtype=float)
    peer_ok = np.asarray([r["category"] == base for r in held], dtype=float)
    t.pop("correct")
    f.pop("correct")
    th.pop("correct")
    fo.pop("correct")
    fi.pop("correct")
    si.pop("correct")
    se.pop("correct")
    # triage is deterministic: repeating it gives the same answers, so the spread that matters
    # is the sampling of the excerpts: a 95% bootstrap interval over the held-out set (the same
    # resampled excerpts for ours, the peer and their ratio)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(held), size=(2000, len(held)))
    o, p_ = ours_ok[idx].mean(axis=1), peer_ok[idx].mean(axis=1)
    ci = lambda x: [round(float(v), 4) for v in np.quantile(x, [0.025, 0.975])]  # noqa: E731
    return {
        "reps": 1,
        "spread": {
            "ours": ci(o),
            "peer": ci(p_),
            "ratio": ci(o / np.maximum(p_, 1e-9)),
            "method": "95% bootstrap over the held-out excerpts (deterministic: 1 rep)",
        },
        "name": "triage-accuracy",
        "ours": h["category_accuracy"],
        "peer": round(peer, 4),
        "peer_name": f"always '{base}' (tuning set's most common category)",
        "ratio": h["category_accuracy"] / peer if peer else float("nan"),
        "unit": "held-out category accuracy",
        "better": "higher",
        "detail": {
            "heldout_excerpts": h["excerpts"],
            "tuning_excerpts": t["excerpts"],
            "heldout_category_accuracy": h["category_accuracy"],
            "heldout_action_accuracy": h["action_accuracy"],
            "heldout_confusion": h["confusion"],
            "heldout_matrix": h["matrix"],
            "heldout_action_matrix": h["action_matrix"],
            "heldout_wrong_exclude_node": h["wrong_exclude_node"],
            # the signature rows alone, without the statistical fallback's guesses
            "heldout_rows_only_category_accuracy": h_rows["category_accuracy"],
            "heldout_rows_only_action_accuracy": h_rows["action_accuracy"],
            "heldout_guesses": h["guesses"],
            "tuning_category_accuracy": t["category_accuracy"],
            "tuning_action_accuracy": t["action_accuracy"],
            # a second collection, scored once before any signature work read it (FRESH_FIRST),
            # then tuning data: its figure now is not out-of-sample
            "fresh_excerpts": f["excerpts"],
            "fresh_first_category_accuracy": FRESH_FIRST["category"],
            "fresh_first_action_accuracy": FRESH_FIRST["action"],
            "fresh_category_accuracy": f["category_accuracy"],
            "fresh_action_accuracy": f["action_accuracy"],
            "fresh_misses": f["misses"],
            # a third collection, scored once at first sight (THIRD_FIRST), then tuning data
            "third_excerpts": th["excerpts"],
            "third_first_category": THIRD_FIRST["category"],
            "third_first_action": THIRD_FIRST["action"],
            "third_category_accuracy": th["category_accuracy"],
            "third_action_accuracy": th["action_accuracy"],
            "third_wrong_exclude_node": th["wrong_exclude_node"],
            "third_misses": th["misses"],
            # a fourth collection, scored once at first sight (FOURTH_FIRST), then tuning data
            "fourth_excerpts": fo["excerpts"],
            "fourth_first_category": FOURTH_FIRST["category"],
            "fourth_first_action": FOURTH_FIRST["action"],
            "fourth_category_accuracy": fo["category_accuracy"],
            "fourth_action_accuracy": fo["action_accuracy"],
            "fourth_wrong_exclude_node": fo["wrong_exclude_node"],
            "fourth_misses": fo["misses"],
            # a fifth collection, scored once at first sight (FIFTH_FIRST), then scored only
            "fifth_excerpts": fi["excerpts"],
            "fifth_first_category": FIFTH_FIRST["category"],
            "fifth_first_action": FIFTH_FIRST["action"],
            "fifth_category_accuracy": fi["category_accuracy"],
            "fifth_action_accuracy": fi["action_accuracy"],
            "fifth_wrong_exclude_node": fi["wrong_exclude_node"],
            "fifth_misses": fi["misses"],
            "fifth_guesses": fi["guesses"],
            "fifth_guesses_right": fi["guesses_right"],
            "fifth_rows_only_category_accuracy": fi_rows["category_accuracy"],
            "fifth_rows_only_action_accuracy": fi_rows["action_accuracy"],
            # a sixth collection, scored once at first sight (SIXTH_FIRST), then scored only
            "sixth_excerpts": si["excerpts"],
            "sixth_first_category": SIXTH_FIRST["category"],
            "sixth_first_action": SIXTH_FIRST["action"],
            "sixth_first_rows_only_category": SIXTH_FIRST_ROWS_ONLY["category"],
            "sixth_first_rows_only_action": SIXTH_FIRST_ROWS_ONLY["action"],
            "sixth_category_accuracy": si["category_accuracy"],
            "sixth_action_accuracy": si["action_accuracy"],
            "sixth_wrong_exclude_node": si["wrong_exclude_node"],
            "sixth_misses": si["misses"],
            "sixth_guesses": si["guesses"],
            "sixth_guesses_right": si["guesses_right"],
            "sixth_rows_only_category_accuracy": si_rows["category_accuracy"],
            "sixth_rows_only_action_accuracy": si_rows["action_accuracy"],
            # a seventh collection, scored once at first sight (SEVENTH_FIRST)
            "seventh_excerpts": se["excerpts"],
            "seventh_first_category": SEVENTH_FIRST["category"],
            "seventh_first_action": SEVENTH_FIRST["action"],
            "seventh_first_rows_only_category": SEVENTH_FIRST_ROWS_ONLY["category"],
            "seventh_first_rows_only_action": SEVENTH_FIRST_ROWS_ONLY["action"],
            "seventh_before_class_rows_category": SEVENTH_BEFORE_CLASS_ROWS["category"],
            "seventh_before_class_rows_action": SEVENTH_BEFORE_CLASS_ROWS["action"],
            "seventh_category_accuracy": se["category_accuracy"],
            "seventh_action_accuracy": se["action_accuracy"],
            "seventh_wrong_exclude_node": se["wrong_exclude_node"],
            "seventh_misses": se["misses"],
            "seventh_guesses": se["guesses"],
            "seventh_guesses_right": se["guesses_right"],
            "seventh_rows_only_category_accuracy": se_rows["category_accuracy"],
            "seventh_rows_only_action_accuracy": se_rows["action_accuracy"],
            # an eighth collection, scored once at first sight (EIGHTH_FIRST); its current
            # figures say how far later work moved it
            "eighth_excerpts": ei["excerpts"],
            "eighth_first_category": EIGHTH_FIRST["category"],
            "eighth_first_action": EIGHTH_FIRST["action"],
            "eighth_first_rows_only_category": EIGHTH_FIRST_ROWS_ONLY["category"],
            "eighth_first_rows_only_action": EIGHTH_FIRST_ROWS_ONLY["action"],
            "eighth_before_generalizing_category": EIGHTH_BEFORE_GENERALIZING["category"],
            "eighth_before_generalizing_action": EIGHTH_BEFORE_GENERALIZING["action"],
            "eighth_category_accuracy": ei["category_accuracy"],
            "eighth_action_accuracy": ei["action_accuracy"],
            "eighth_wrong_exclude_node": ei["wrong_exclude_node"],
            "eighth_misses": ei["misses"],
            "eighth_guesses": ei["guesses"],
            "eighth_guesses_right": ei["guesses_right"],
            "eighth_rows_only_category_accuracy": ei_rows["category_accuracy"],
            "eighth_rows_only_action_accuracy": ei_rows["action_accuracy"],
            # a ninth collection, scored once at first sight (NINTH_FIRST)
            "ninth_excerpts": ni["excerpts"],
            "ninth_first_category": NINTH_FIRST["category"],
            "ninth_first_action": NINTH_FIRST["action"],
            "ninth_first_rows_only_category": NINTH_FIRST_ROWS_ONLY["category"],
            "ninth_first_rows_only_action": NINTH_FIRST_ROWS_ONLY["action"],
            "ninth_before_generalizing_category": NINTH_BEFORE_GENERALIZING["category"],
            "ninth_before_generalizing_action": NINTH_BEFORE_GENERALIZING["action"],
            "ninth_category_accuracy": ni["category_accuracy"],
            "ninth_action_accuracy": ni["action_accuracy"],
            "ninth_wrong_exclude_node": ni["wrong_exclude_node"],
            "ninth_misses": ni["misses"],
            "ninth_guesses": ni["guesses"],
            "ninth_guesses_right": ni["guesses_right"],
            "ninth_rows_only_category_accuracy": ni_rows["category_accuracy"],
            "ninth_rows_only_action_accuracy": ni_rows["action_accuracy"],
            # a tenth collection, scored once at first sight (TENTH_FIRST)
            "tenth_excerpts": te["excerpts"],
            **_first_sight_fields(
                "tenth",
                te,
                te_rows,
                TENTH_FIRST,
                TENTH_FIRST_ROWS_ONLY,
                TENTH_FIRST_SURE,
                _sure_scores("tenth", TENTH_UNSURE),
            ),
            # an eleventh collection, scored once at first sight (ELEVENTH_FIRST)
            "eleventh_excerpts": el["excerpts"],
            **_first_sight_fields(
                "eleventh",
                el,
                el_rows,
                ELEVENTH_FIRST,
                ELEVENTH_FIRST_ROWS_ONLY,
                ELEVENTH_FIRST_SURE,
                _sure_scores("eleventh", ELEVENTH_UNSURE),
            ),
            # a twelfth collection, scored once at first sight (TWELFTH_FIRST)
            "twelfth_excerpts": tw["excerpts"],
            **_first_sight_fields(
                "twelfth",
                tw,
                tw_rows,
                TWELFTH_FIRST,
                TWELFTH_FIRST_ROWS_ONLY,
                TWELFTH_FIRST_SURE,
                _sure_scores("twelfth", TWELFTH_UNSURE),
            ),
            # a thirteenth collection, scored once at first sight (THIRTEENTH_FIRST)
            "thirteenth_excerpts": tt["excerpts"],
            **_first_sight_fields(
                "thirteenth",
                tt,
                tt_rows,
                THIRTEENTH_FIRST,
                THIRTEENTH_FIRST_ROWS_ONLY,
                THIRTEENTH_FIRST_SURE,
                _sure_scores("thirteenth", THIRTEENTH_UNSURE),
            ),
            # a fourteenth collection, scored once at first sight (FOURTEENTH_FIRST)
            "fourteenth_excerpts": ft["excerpts"],
            **_first_sight_fields(
                "fourteenth",
                ft,
                ft_rows,
                FOURTEENTH_FIRST,
                FOURTEENTH_FIRST_ROWS_ONLY,
                FOURTEENTH_FIRST_SURE,
                _sure_scores("fourteenth", FOURTEENTH_UNSURE),
            ),
            # a fifteenth collection, scored once at first sight (FIFTEENTH_FIRST)
            "fifteenth_excerpts": fv["excerpts"],
            **_first_sight_fields(
                "fifteenth",
                fv,
                fv_rows,
                FIFTEENTH_FIRST,
                FIFTEENTH_FIRST_ROWS_ONLY,
                FIFTEENTH_FIRST_SURE,
                _sure_scores("fifteenth", FIFTEENTH_UNSURE),
            ),
            # a sixteenth collection, scored once at first sight (SIXTEENTH_FIRST)
            "sixteenth_excerpts": sx["excerpts"],
            **_first_sight_fields(
                "sixteenth",
                sx,
                sx_rows,
                SIXTEENTH_FIRST,
                SIXTEENTH_FIRST_ROWS_ONLY,
                SIXTEENTH_FIRST_SURE,
                _sure_scores("sixteenth", SIXTEENTH_UNSURE),
            ),
            # a seventeenth collection, scored once at first sight (SEVENTEENTH_FIRST)
            "seventeenth_excerpts": sv["excerpts"],
            **_first_sight_fields(
                "seventeenth",
                sv,
                sv_rows,
                SEVENTEENTH_FIRST,
                SEVENTEENTH_FIRST_ROWS_ONLY,
                SEVENTEENTH_FIRST_SURE,
                _sure_scores("seventeenth", SEVENTEENTH_UNSURE),
            ),
            # an eighteenth collection, scored once at first sight (EIGHTEENTH_FIRST)
            "eighteenth_excerpts": eg["excerpts"],
            **_first_sight_fields(
                "eighteenth",
                eg,
                eg_rows,
                EIGHTEENTH_FIRST,
                EIGHTEENTH_FIRST_ROWS_ONLY,
                EIGHTEENTH_FIRST_SURE,
                _sure_scores("eighteenth", EIGHTEENTH_UNSURE),
            ),
            # a nineteenth collection, scored once at first sight (NINETEENTH_FIRST)
            "nineteenth_excerpts": nt["excerpts"],
            **_first_sight_fields(
                "nineteenth",
                nt,
                nt_rows,
                NINETEENTH_FIRST,
                NINETEENTH_FIRST_ROWS_ONLY,
                NINETEENTH_FIRST_SURE,
                _sure_scores("nineteenth", NINETEENTH_UNSURE),
            ),
            # a twentieth collection, scored once at first sight (TWENTIETH_FIRST)
            "twentieth_excerpts": tn["excerpts"],
            **_first_sight_fields(
                "twentieth",
                tn,
                tn_rows,
                TWENTIETH_FIRST,
                TWENTIETH_FIRST_ROWS_ONLY,
                TWENTIETH_FIRST_SURE,
                _sure_scores("twentieth", TWENTIETH_UNSURE),
            ),
            # a twenty-first collection, scored once at first sight (TWENTYFIRST_FIRST)
            "twentyfirst_excerpts": tf["excerpts"],
            **_first_sight_fields(
                "twentyfirst",
                tf,
                tf_rows,
                TWENTYFIRST_FIRST,
                TWENTYFIRST_FIRST_ROWS_ONLY,
                TWENTYFIRST_FIRST_SURE,
                _sure_scores("twentyfirst", TWENTYFIRST_UNSURE),
            ),
            # a twenty-second collection, scored once at first sight (TWENTYSECOND_FIRST)
            "twentysecond_excerpts": ts["excerpts"],
            **_first_sight_fields(
                "twentysecond",
                ts,
                ts_rows,
                TWENTYSECOND_FIRST,
                TWENTYSECOND_FIRST_ROWS_ONLY,
                TWENTYSECOND_FIRST_SURE,
                _sure_scores("twentysecond", TWENTYSECOND_UNSURE),
            ),
            # a twenty-third collection, scored once at first sight (TWENTYTHIRD_FIRST)
            "twentythird_excerpts": tw3["excerpts"],
            **_first_sight_fields(
                "twentythird",
                tw3,
                tw3_rows,
                TWENTYTHIRD_FIRST,
                TWENTYTHIRD_FIRST_ROWS_ONLY,
                TWENTYTHIRD_FIRST_SURE,
                _sure_scores("twentythird", TWENTYTHIRD_UNSURE),
            ),
            # a twenty-fourth collection, scored once at first sight (TWENTYFOURTH_FIRST)
            "twentyfourth_excerpts": tw4["excerpts"],
            **_first_sight_fields(
                "twentyfourth",
                tw4,
                tw4_rows,
                TWENTYFOURTH_FIRST,
                TWENTYFOURTH_FIRST_ROWS_ONLY,
                TWENTYFOURTH_FIRST_SURE,
                _sure_scores("twentyfourth", TWENTYFOURTH_UNSURE),
            ),
            # a twenty-fifth collection, scored once at first sight (TWENTYFIFTH_FIRST)
            "twentyfifth_excerpts": tw5["excerpts"],
            **_first_sight_fields(
                "twentyfifth",
                tw5,
                tw5_rows,
                TWENTYFIFTH_FIRST,
                TWENTYFIFTH_FIRST_ROWS_ONLY,
                TWENTYFIFTH_FIRST_SURE,
                _sure_scores("twentyfifth", TWENTYFIFTH_UNSURE),
            ),
            # a twenty-sixth collection, scored once at first sight (TWENTYSIXTH_FIRST) on the
            # same code as the twenty-fifth
            "twentysixth_excerpts": tw6["excerpts"],
            **_first_sight_fields(
                "twentysixth",
                tw6,
                tw6_rows,
                TWENTYSIXTH_FIRST,
                TWENTYSIXTH_FIRST_ROWS_ONLY,
                TWENTYSIXTH_FIRST_SURE,
                _sure_scores("twentysixth", TWENTYSIXTH_UNSURE),
            ),
            # a twenty-seventh collection, scored once at first sight (TWENTYSEVENTH_FIRST)
            "twentyseventh_excerpts": tw7["excerpts"],
            **_first_sight_fields(
                "twentyseventh",
                tw7,
                tw7_rows,
                TWENTYSEVENTH_FIRST,
                TWENTYSEVENTH_FIRST_ROWS_ONLY,
                TWENTYSEVENTH_FIRST_SURE,
                _sure_scores("twentyseventh", TWENTYSEVENTH_UNSURE),
            ),
            # a twenty-eighth collection, scored once at first sight (TWENTYEIGHTH_FIRST)
            "twentyeighth_excerpts": tw8["excerpts"],
            **_first_sight_fields(
                "twentyeighth",
                tw8,
                tw8_rows,
                TWENTYEIGHTH_FIRST,
                TWENTYEIGHTH_FIRST_ROWS_ONLY,
                TWENTYEIGHTH_FIRST_SURE,
                _sure_scores("twentyeighth", TWENTYEIGHTH_UNSURE),
            ),
            # a twenty-ninth collection, scored once at first sight (TWENTYNINTH_FIRST)
            "twentyninth_excerpts": tw9["excerpts"],
            **_first_sight_fields(
                "twentyninth",
                tw9,
                tw9_rows,
                TWENTYNINTH_FIRST,
                TWENTYNINTH_FIRST_ROWS_ONLY,
                TWENTYNINTH_FIRST_SURE,
                _sure_scores("twentyninth", TWENTYNINTH_UNSURE),
            ),
            # a thirtieth collection, scored once at first sight (THIRTIETH_FIRST)
            "thirtieth_excerpts": t30["excerpts"],
            **_first_sight_fields(
                "thirtieth",
                t30,
                t30_rows,
                THIRTIETH_FIRST,
                THIRTIETH_FIRST_ROWS_ONLY,
                THIRTIETH_FIRST_SURE,
                _sure_scores("thirtieth", THIRTIETH_UNSURE),
            ),
            # a thirty-first collection, scored once at first sight (THIRTYFIRST_FIRST)
            "thirtyfirst_excerpts": t31["excerpts"],
            **_first_sight_fields(
                "thirtyfirst",
                t31,
                t31_rows,
                THIRTYFIRST_FIRST,
                THIRTYFIRST_FIRST_ROWS_ONLY,
                THIRTYFIRST_FIRST_SURE,
                _sure_scores("thirtyfirst", THIRTYFIRST_UNSURE),
            ),
            # a thirty-second collection, scored once at first sight (THIRTYSECOND_FIRST)
            "thirtysecond_excerpts": t32["excerpts"],
            **_first_sight_fields(
                "thirtysecond",
                t32,
                t32_rows,
                THIRTYSECOND_FIRST,
                THIRTYSECOND_FIRST_ROWS_ONLY,
                THIRTYSECOND_FIRST_SURE,
                _sure_scores("thirtysecond", THIRTYSECOND_UNSURE),
            ),
            # a thirty-third collection, scored once at first sight (THIRTYTHIRD_FIRST)
            "thirtythird_excerpts": t33["excerpts"],
            **_first_sight_fields(
                "thirtythird",
                t33,
                t33_rows,
                THIRTYTHIRD_FIRST,
                THIRTYTHIRD_FIRST_ROWS_ONLY,
                THIRTYTHIRD_FIRST_SURE,
                _sure_scores("thirtythird", THIRTYTHIRD_UNSURE),
            ),
            # a thirty-fourth collection, scored once at first sight (THIRTYFOURTH_FIRST)
            "thirtyfourth_excerpts": t34["excerpts"],
            **_first_sight_fields(
                "thirtyfourth",
                t34,
                t34_rows,
                THIRTYFOURTH_FIRST,
                THIRTYFOURTH_FIRST_ROWS_ONLY,
                THIRTYFOURTH_FIRST_SURE,
                _sure_scores("thirtyfourth", THIRTYFOURTH_UNSURE),
            ),
            # a thirty-fifth collection, scored once at first sight (THIRTYFIFTH_FIRST)
            "thirtyfifth_excerpts": t35["excerpts"],
            **_first_sight_fields(
                "thirtyfifth",
                t35,
                t35_rows,
                THIRTYFIFTH_FIRST,
                THIRTYFIFTH_FIRST_ROWS_ONLY,
                THIRTYFIFTH_FIRST_SURE,
                _sure_scores("thirtyfifth", THIRTYFIFTH_UNSURE),
            ),
            # a thirty-sixth collection, scored once at first sight (THIRTYSIXTH_FIRST)
            "thirtysixth_excerpts": t36["excerpts"],
            **_first_sight_fields(
                "thirtysixth",
                t36,
                t36_rows,
                THIRTYSIXTH_FIRST,
                THIRTYSIXTH_FIRST_ROWS_ONLY,
                THIRTYSIXTH_FIRST_SURE,
                _sure_scores("thirtysixth", THIRTYSIXTH_UNSURE),
            ),
            # a thirty-seventh collection, scored once at first sight (THIRTYSEVENTH_FIRST)
            "thirtyseventh_excerpts": t37["excerpts"],
            **_first_sight_fields(
                "thirtyseventh",
                t37,
                t37_rows,
                THIRTYSEVENTH_FIRST,
                THIRTYSEVENTH_FIRST_ROWS_ONLY,
                THIRTYSEVENTH_FIRST_SURE,
                _sure_scores("thirtyseventh", THIRTYSEVENTH_UNSURE),
            ),
            # a thirty-eighth collection, scored once at first sight (THIRTYEIGHTH_FIRST)
            "thirtyeighth_excerpts": t38["excerpts"],
            **_first_sight_fields(
                "thirtyeighth",
                t38,
                t38_rows,
                THIRTYEIGHTH_FIRST,
                THIRTYEIGHTH_FIRST_ROWS_ONLY,
                THIRTYEIGHTH_FIRST_SURE,
                _sure_scores("thirtyeighth", THIRTYEIGHTH_UNSURE),
            ),
            # a thirty-ninth collection, scored once at first sight (THIRTYNINTH_FIRST)
            "thirtyninth_excerpts": t39["excerpts"],
            **_first_sight_fields(
                "thirtyninth",
                t39,
                t39_rows,
                THIRTYNINTH_FIRST,
                THIRTYNINTH_FIRST_ROWS_ONLY,
                THIRTYNINTH_FIRST_SURE,
                _sure_scores("thirtyninth", THIRTYNINTH_UNSURE),
            ),
            # a fortieth collection, scored once at first sight (FORTIETH_FIRST)
            "fortieth_excerpts": t40["excerpts"],
            **_first_sight_fields(
                "fortieth",
                t40,
                t40_rows,
                FORTIETH_FIRST,
                FORTIETH_FIRST_ROWS_ONLY,
                FORTIETH_FIRST_SURE,
                _sure_scores("fortieth", FORTIETH_UNSURE),
            ),
            # a forty-first collection, scored once at first sight (FORTYFIRST_FIRST)
            "fortyfirst_excerpts": t41["excerpts"],
            **_first_sight_fields(
                "fortyfirst",
                t41,
                t41_rows,
                FORTYFIRST_FIRST,
                FORTYFIRST_FIRST_ROWS_ONLY,
                FORTYFIRST_FIRST_SURE,
                _sure_scores("fortyfirst", FORTYFIRST_UNSURE),
            ),
            # a forty-second collection, scored once at first sight (FORTYSECOND_FIRST)
            "fortysecond_excerpts": t42["excerpts"],
            **_first_sight_fields(
                "fortysecond",
                t42,
                t42_rows,
                FORTYSECOND_FIRST,
                FORTYSECOND_FIRST_ROWS_ONLY,
                FORTYSECOND_FIRST_SURE,
                _sure_scores("fortysecond", FORTYSECOND_UNSURE),
            ),
            # a forty-third collection, scored once at first sight (FORTYTHIRD_FIRST)
            "fortythird_excerpts": t43["excerpts"],
            **_first_sight_fields(
                "fortythird",
                t43,
                t43_rows,
                FORTYTHIRD_FIRST,
                FORTYTHIRD_FIRST_ROWS_ONLY,
                FORTYTHIRD_FIRST_SURE,
                _sure_scores("fortythird", FORTYTHIRD_UNSURE),
            ),
            # a forty-fourth collection, scored once at first sight (FORTYFOURTH_FIRST)
            "fortyfourth_excerpts": t44["excerpts"],
            **_first_sight_fields(
                "fortyfourth",
                t44,
                t44_rows,
                FORTYFOURTH_FIRST,
                FORTYFOURTH_FIRST_ROWS_ONLY,
                FORTYFOURTH_FIRST_SURE,
                _sure_scores("fortyfourth", FORTYFOURTH_UNSURE),
            ),
            # a forty-fifth collection, scored once at first sight (FORTYFIFTH_FIRST)
            "fortyfifth_excerpts": t45["excerpts"],
            **_first_sight_fields(
                "fortyfifth",
                t45,
                t45_rows,
                FORTYFIFTH_FIRST,
                FORTYFIFTH_FIRST_ROWS_ONLY,
                FORTYFIFTH_FIRST_SURE,
                _sure_scores("fortyfifth", FORTYFIFTH_UNSURE),
            ),
            # a forty-sixth collection, scored once at first sight (FORTYSIXTH_FIRST)
            "fortysixth_excerpts": t46["excerpts"],
            **_first_sight_fields(
                "fortysixth",
                t46,
                t46_rows,
                FORTYSIXTH_FIRST,
                FORTYSIXTH_FIRST_ROWS_ONLY,
                FORTYSIXTH_FIRST_SURE,
                _sure_scores("fortysixth", FORTYSIXTH_UNSURE),
            ),
            # a forty-seventh collection, scored once at first sight (FORTYSEVENTH_FIRST)
            "fortyseventh_excerpts": t47["excerpts"],
            **_first_sight_fields(
                "fortyseventh",
                t47,
                t47_rows,
                FORTYSEVENTH_FIRST,
                FORTYSEVENTH_FIRST_ROWS_ONLY,
                FORTYSEVENTH_FIRST_SURE,
                _sure_scores("fortyseventh", FORTYSEVENTH_UNSURE),
            ),
            # a forty-eighth collection, scored once at first sight (FORTYEIGHTH_FIRST)
            "fortyeighth_excerpts": t48["excerpts"],
            **_first_sight_fields(
                "fortyeighth",
                t48,
                t48_rows,
                FORTYEIGHTH_FIRST,
                FORTYEIGHTH_FIRST_ROWS_ONLY,
                FORTYEIGHTH_FIRST_SURE,
                _sure_scores("fortyeighth", FORTYEIGHTH_UNSURE),
            ),
            # a forty-ninth collection, scored once at first sight (FORTYNINTH_FIRST)
            "fortyninth_excerpts": t49["excerpts"],
            **_first_sight_fields(
                "fortyninth",
                t49,
                t49_rows,
                FORTYNINTH_FIRST,
                FORTYNINTH_FIRST_ROWS_ONLY,
                FORTYNINTH_FIRST_SURE,
                _sure_scores("fortyninth", FORTYNINTH_UNSURE),
            ),
            # a fiftieth collection, scored once at first sight (FIFTIETH_FIRST)
            "fiftieth_excerpts": t50["excerpts"],
            **_first_sight_fields(
                "fiftieth",
                t50,
                t50_rows,
                FIFTIETH_FIRST,
                FIFTIETH_FIRST_ROWS_ONLY,
                FIFTIETH_FIRST_SURE,
                _sure_scores("fiftieth", FIFTIETH_UNSURE),
            ),
            # a fifty-first collection, scored once at first sight (FIFTYFIRST_FIRST)
            "fiftyfirst_excerpts": t51["excerpts"],
            **_first_sight_fields(
                "fiftyfirst",
                t51,
                t51_rows,
                FIFTYFIRST_FIRST,
                FIFTYFIRST_FIRST_ROWS_ONLY,
                FIFTYFIRST_FIRST_SURE,
                _sure_scores("fiftyfirst", FIFTYFIRST_UNSURE),
            ),
            # a fifty-second collection, scored once at first sight (FIFTYSECOND_FIRST)
            "fiftysecond_excerpts": t52["excerpts"],
            **_first_sight_fields(
                "fiftysecond",
                t52,
                t52_rows,
                FIFTYSECOND_FIRST,
                FIFTYSECOND_FIRST_ROWS_ONLY,
                FIFTYSECOND_FIRST_SURE,
                _sure_scores("fiftysecond", FIFTYSECOND_UNSURE),
            ),
            # a fifty-third collection, scored once at first sight (FIFTYTHIRD_FIRST)
            "fiftythird_excerpts": t53["excerpts"],
            **_first_sight_fields(
                "fiftythird",
                t53,
                t53_rows,
                FIFTYTHIRD_FIRST,
                FIFTYTHIRD_FIRST_ROWS_ONLY,
                FIFTYTHIRD_FIRST_SURE,
                _sure_scores("fiftythird", FIFTYTHIRD_UNSURE),
            ),
            # a fifty-fourth collection, scored once at first sight (FIFTYFOURTH_FIRST)
            "fiftyfourth_excerpts": t54["excerpts"],
            **_first_sight_fields(
                "fiftyfourth",
                t54,
                t54_rows,
                FIFTYFOURTH_FIRST,
                FIFTYFOURTH_FIRST_ROWS_ONLY,
                FIFTYFOURTH_FIRST_SURE,
                _sure_scores("fiftyfourth", FIFTYFOURTH_UNSURE),
            ),
            # a fifty-fifth collection, scored once at first sight (FIFTYFIFTH_FIRST)
            "fiftyfifth_excerpts": t55["excerpts"],
            **_first_sight_fields(
                "fiftyfifth",
                t55,
                t55_rows,
                FIFTYFIFTH_FIRST,
                FIFTYFIFTH_FIRST_ROWS_ONLY,
                FIFTYFIFTH_FIRST_SURE,
                _sure_scores("fiftyfifth", FIFTYFIFTH_UNSURE),
            ),
            # a fifty-sixth collection, scored once at first sight (FIFTYSIXTH_FIRST)
            "fiftysixth_excerpts": t56["excerpts"],
            **_first_sight_fields(
                "fiftysixth",
                t56,
                t56_rows,
                FIFTYSIXTH_FIRST,
                FIFTYSIXTH_FIRST_ROWS_ONLY,
                FIFTYSIXTH_FIRST_SURE,
                _sure_scores("fiftysixth", FIFTYSIXTH_UNSURE),
            ),
            # a fifty-seventh collection, scored once at first sight (FIFTYSEVENTH_FIRST)
            "fiftyseventh_excerpts": t57["excerpts"],
            **_first_sight_fields(
                "fiftyseventh",
                t57,
                t57_rows,
                FIFTYSEVENTH_FIRST,
                FIFTYSEVENTH_FIRST_ROWS_ONLY,
                FIFTYSEVENTH_FIRST_SURE,
                _sure_scores("fiftyseventh", FIFTYSEVENTH_UNSURE),
            ),
            # a fifty-eighth collection, scored once at first sight (FIFTYEIGHTH_FIRST)
            "fiftyeighth_excerpts": t58["excerpts"],
            **_first_sight_fields(
                "fiftyeighth",
                t58,
                t58_rows,
                FIFTYEIGHTH_FIRST,
                FIFTYEIGHTH_FIRST_ROWS_ONLY,
                FIFTYEIGHTH_FIRST_SURE,
                _sure_scores("fiftyeighth", FIFTYEIGHTH_UNSURE),
            ),
            # a fifty-ninth collection, scored once at first sight (FIFTYNINTH_FIRST)
            "fiftyninth_excerpts": t59["excerpts"],
            **_first_sight_fields(
                "fiftyninth",
                t59,
                t59_rows,
                FIFTYNINTH_FIRST,
                FIFTYNINTH_FIRST_ROWS_ONLY,
                FIFTYNINTH_FIRST_SURE,
                _sure_scores("fiftyninth", FIFTYNINTH_UNSURE),
            ),
            # a sixtieth collection, scored once at first sight (SIXTIETH_FIRST)
            "sixtieth_excerpts": t60["excerpts"],
            **_first_sight_fields(
                "sixtieth",
                t60,
                t60_rows,
                SIXTIETH_FIRST,
                SIXTIETH_FIRST_ROWS_ONLY,
                SIXTIETH_FIRST_SURE,
                _sure_scores("sixtieth", SIXTIETH_UNSURE),
            ),
            # a sixty-first collection, scored once at first sight (SIXTYFIRST_FIRST)
            "sixtyfirst_excerpts": t61["excerpts"],
            **_first_sight_fields(
                "sixtyfirst",
                t61,
                t61_rows,
                SIXTYFIRST_FIRST,
                SIXTYFIRST_FIRST_ROWS_ONLY,
                SIXTYFIRST_FIRST_SURE,
                _sure_scores("sixtyfirst", SIXTYFIRST_UNSURE),
            ),
            # a sixty-second collection, scored once at first sight (SIXTYSECOND_FIRST)
            "sixtysecond_excerpts": t62["excerpts"],
            **_first_sight_fields(
                "sixtysecond",
                t62,
                t62_rows,
                SIXTYSECOND_FIRST,
                SIXTYSECOND_FIRST_ROWS_ONLY,
                SIXTYSECOND_FIRST_SURE,
                _sure_scores("sixtysecond", SIXTYSECOND_UNSURE),
            ),
            # a sixty-third collection, scored once at first sight (SIXTYTHIRD_FIRST)
            "sixtythird_excerpts": t63["excerpts"],
            **_first_sight_fields(
                "sixtythird",
                t63,
                t63_rows,
                SIXTYTHIRD_FIRST,
                SIXTYTHIRD_FIRST_ROWS_ONLY,
                SIXTYTHIRD_FIRST_SURE,
                _sure_scores("sixtythird", SIXTYTHIRD_UNSURE),
            ),
            # a sixty-fourth collection, scored once at first sight (SIXTYFOURTH_FIRST)
            "sixtyfourth_excerpts": t64["excerpts"],
            **_first_sight_fields(
                "sixtyfourth",
                t64,
                t64_rows,
                SIXTYFOURTH_FIRST,
                SIXTYFOURTH_FIRST_ROWS_ONLY,
                SIXTYFOURTH_FIRST_SURE,
                _sure_scores("sixtyfourth", SIXTYFOURTH_UNSURE),
            ),
            # a sixty-fifth collection, scored once at first sight (SIXTYFIFTH_FIRST)
            "sixtyfifth_excerpts": t65["excerpts"],
            **_first_sight_fields(
                "sixtyfifth",
                t65,
                t65_rows,
                SIXTYFIFTH_FIRST,
                SIXTYFIFTH_FIRST_ROWS_ONLY,
                SIXTYFIFTH_FIRST_SURE,
                _sure_scores("sixtyfifth", SIXTYFIFTH_UNSURE),
            ),
            # a sixty-sixth collection, scored once at first sight (SIXTYSIXTH_FIRST)
            "sixtysixth_excerpts": t66["excerpts"],
            **_first_sight_fields(
                "sixtysixth",
                t66,
                t66_rows,
                SIXTYSIXTH_FIRST,
                SIXTYSIXTH_FIRST_ROWS_ONLY,
                SIXTYSIXTH_FIRST_SURE,
                _sure_scores("sixtysixth", SIXTYSIXTH_UNSURE),
            ),
            # a sixty-seventh collection, scored once at first sight (SIXTYSEVENTH_FIRST): the latest
            # out-of-sample figure; its current figures say how far later work moved it
            "sixtyseventh_excerpts": t67["excerpts"],
            "first_sight_category": SIXTYSEVENTH_FIRST["category"],
            "first_sight_action": SIXTYSEVENTH_FIRST["action"],
            **_first_sight_fields(
                "sixtyseventh",
                t67,
                t67_rows,
                SIXTYSEVENTH_FIRST,
                SIXTYSEVENTH_FIRST_ROWS_ONLY,
                SIXTYSEVENTH_FIRST_SURE,
                _sure_scores("sixtyseventh", SIXTYSEVENTH_UNSURE),
            ),
            # every collection's first sight on the labels its collector was sure of, pooled
            # (FIRST_SIGHT_SURE; the issue's own measure of generalization)
            **_pooled_sure_first_sight(),
            # an estimate of first sight from the collections already seen: each collection
            # with the rows of its own first sight and a fallback trained without it
            # (benchmarks/triage_first_sight.py; pooled over the collections left out)
            "loco_collections": len(left_out),
            "loco_excerpts": loco["pooled"]["n"],
            "loco_first_sight_category": loco["pooled"]["category"],
            "loco_first_sight_action": loco["pooled"]["action"],
            "loco_first_sight_rows_only_category": loco["pooled"]["rows_category"],
            "loco_first_sight_rows_only_action": loco["pooled"]["rows_action"],
            "loco_first_sight_guesses": loco["pooled"]["guesses"],
            "loco_first_sight_wrong_exclude_node": loco["pooled"]["wrong_exclude_node"],
            # in sample: the same with today's series check (a loss or gradient-norm jump)
            # where no row matched, written after reading these collections
            "loco_with_series_category": loco["pooled"]["with_series_category"],
            "loco_with_series_action": loco["pooled"]["with_series_action"],
        },
    }


if __name__ == "__main__":
    split = sys.argv[1] if len(sys.argv) > 1 else "tuning"
    splits = sorted(p.stem for p in CORPUS.glob("*.jsonl"))  # every split of the corpus
    if split not in splits:
        print(
            f"usage: bench_triage_accuracy.py [{'|'.join(splits)}]",
            file=sys.stderr,
        )
        sys.exit(2)
    print(json.dumps(evaluate(split), indent=1))
