"""The Slurm and Kubernetes examples: valid syntax, and flags that `nonstop run` accepts."""

import shlex
import subprocess
from pathlib import Path

import yaml

from nonstop.supervisor.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def test_slurm_script_is_valid_bash_and_its_flags_parse():
    script = ROOT / "examples/slurm/nonstop.sbatch"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text().replace("\\\n", " ")
    line = next(x for x in text.splitlines() if x.strip().startswith("srun"))
    words = shlex.split(line.replace("${", "{").replace("$", ""))
    args = build_parser().parse_args(words[words.index("run") + 1 :])
    assert args.nnodes == "3:4" and args.rdzv_backend == "c10d" and args.module
    assert args.training_script == "nonstop.workloads.llama.train"


def test_kubernetes_manifest_parses_and_its_command_is_valid():
    docs = list(yaml.safe_load_all((ROOT / "examples/kubernetes/nonstop-job.yaml").read_text()))
    job = next(d for d in docs if d["kind"] == "Job")
    (container,) = job["spec"]["template"]["spec"]["containers"]
    command = container["command"]
    assert command[:2] == ["nonstop", "run"]
    args = build_parser().parse_args(command[2:])
    assert args.metrics_port == 9400 and args.rdzv_backend == "c10d"
    codes = {r["onExitCodes"]["values"][0]: r["action"]
             for r in job["spec"]["podFailurePolicy"]["rules"]}  # fmt: skip
    assert codes == {93: "FailIndex", 75: "Ignore"}
