"""The Slurm and Kubernetes examples: valid syntax, flags that `nonstop run` accepts, and a
manifest that the Kubernetes API's own models accept (field names, types, required fields).

The Slurm example runs for real under Slurm in tests/slurm/test_slurm_sbatch.py.
"""

import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import kubernetes.client as k8s
import pytest
import yaml

from nonstop.supervisor.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
SBATCH = ROOT / "examples/slurm/nonstop.sbatch"
MANIFEST = ROOT / "examples/kubernetes/nonstop-job.yaml"


def test_slurm_script_is_valid_bash_and_its_nonstop_run_line_parses():
    assert subprocess.run(["bash", "-n", str(SBATCH)], capture_output=True).returncode == 0
    text = SBATCH.read_text().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if '"$nonstop" run' in x)
    line = line[line.index('"$nonstop" run') :]
    assert '"$@"' in line  # the user's flags come last, so they win
    words = shlex.split(re.sub(r"\$\{?\w+\}?", "1", line.replace('"$@"', "")))
    words = words[words.index("run") + 1 : words.index("&")]
    user = ["--nproc-per-node", "8", "-m", "nonstop.workloads.llama.train", "--steps", "10"]
    args = build_parser().parse_args(words + user)
    assert args.rdzv_backend == "c10d" and args.module and args.quiet
    assert args.training_script == "nonstop.workloads.llama.train" and args.nproc_per_node == "8"


def test_slurm_script_without_arguments_is_a_usage_error():
    r = subprocess.run(["bash", str(SBATCH)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "usage: sbatch" in r.stderr


def _check(data: Any, type_name: str, path: str) -> None:
    """`data` (from YAML) against the Kubernetes client's model `type_name`: every field must
    exist in the API (a typo is not silently dropped, as the client would) and have its type."""
    if type_name.startswith("List["):
        assert isinstance(data, list), f"{path}: a list expected"
        for i, item in enumerate(data):
            _check(item, type_name[5:-1], f"{path}[{i}]")
        return
    if type_name.startswith("Dict["):
        assert isinstance(data, dict), f"{path}: a mapping expected"
        value_type = type_name[5:-1].split(", ", 1)[1]
        for key, item in data.items():
            _check(item, value_type, f"{path}.{key}")
        return
    primitives = {"str": str, "int": int, "bool": bool, "float": (int, float), "object": object}
    if type_name in primitives:
        assert isinstance(data, primitives[type_name]), f"{path}: {type_name} expected"
        return
    model = getattr(k8s, type_name)
    assert isinstance(data, dict), f"{path}: a {type_name} mapping expected"
    by_json = {json_key: attr for attr, json_key in model.attribute_map.items()}
    unknown = sorted(set(data) - set(by_json))
    assert not unknown, f"{path}: {type_name} has no field {unknown}"
    for key, item in data.items():
        _check(item, model.openapi_types[by_json[key]], f"{path}.{key}")


def _load(doc: dict[str, Any]) -> Any:
    """The client's own deserialisation: required fields and enum-like checks raise here."""
    api = k8s.ApiClient()
    kind = {"Job": "V1Job", "Service": "V1Service"}[doc["kind"]]
    _check(doc, kind, doc["kind"])
    return api._ApiClient__deserialize(doc, kind)


def test_kubernetes_manifest_is_valid_against_the_api_models():
    docs = list(yaml.safe_load_all(MANIFEST.read_text()))
    assert [d["kind"] for d in docs] == ["Service", "Job"]
    objects = [_load(d) for d in docs]
    job = objects[1]
    pod = job.spec.template.spec
    assert pod.restart_policy == "Never"  # required by podFailurePolicy
    (container,) = pod.containers
    assert container.command[:2] == ["nonstop", "run"]
    args = build_parser().parse_args(container.command[2:])
    assert args.metrics_port == 9400 and args.rdzv_backend == "c10d"
    # the checkpoint must be written between the pod's SIGTERM and its SIGKILL
    assert args.grace_period < pod.termination_grace_period_seconds
    rules = job.spec.pod_failure_policy.rules
    codes = {r.on_exit_codes.values[0]: r.action for r in rules if r.on_exit_codes}
    assert codes == {93: "FailIndex", 75: "Ignore"}
    assert [r.action for r in rules if r.on_pod_conditions] == ["Ignore"]


def test_the_manifest_check_catches_a_misspelt_field():
    job = next(d for d in yaml.safe_load_all(MANIFEST.read_text()) if d["kind"] == "Job")
    job["spec"]["template"]["spec"]["terminationGracePeriod"] = 180
    with pytest.raises(AssertionError, match="has no field"):
        _load(job)
    job["spec"]["template"]["spec"].pop("terminationGracePeriod")
    job["spec"]["completions"] = "four"
    with pytest.raises(AssertionError, match="int expected"):
        _load(job)
