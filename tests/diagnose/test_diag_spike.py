"""Triage's series check: a loss or gradient norm far above the values logged before it
(`nonstop.diagnose.triage.spike`), the one class no one-line row can see (issue 27,
branch issue-27gen3; tests/corpus/real/README.md).

The log lines below are real, each from a public thread outside the corpus (cited above it),
in wordings of other trainers than the collections' (mmengine, the Hugging Face Trainer with
its progress bar, Megatron, a plain print loop). Near misses: a loss that only falls, a high
but steady loss, Megatron's gradient norm wandering 3x, a validation loss, a NaN that a row
names."""

from pathlib import Path

import pytest

from nonstop.diagnose import triage, triage_file, triage_files

SPIKES = [
    # open-mmlab/mmdetection#11708 (mmengine: `grad_norm: X  loss: Y`, then both explode)
    (
        "2024/05/10 15:46:31 - mmengine - INFO - Epoch(train)  [2][ 50/788]  lr: 2.0000e-03  "
        "eta: 4:14:00  time: 0.8167  data_time: 0.0169  memory: 15943  grad_norm: 3.4572  "
        "loss: 1.5043  loss_cls: 0.8781  loss_bbox: 0.6262\n"
        "2024/05/10 15:47:12 - mmengine - INFO - Epoch(train)  [2][100/788]  lr: 2.0000e-03  "
        "eta: 4:12:59  time: 0.8248  data_time: 0.0158  memory: 15871  grad_norm: 31101415.5974"
        "  loss: 63.1261  loss_cls: 61.5992  loss_bbox: 1.5268",
        "loss",
    ),
    # haotian-liu/LLaVA#918 (the Trainer's dicts between tqdm lines: 0.66, 0.80, then 4.27)
    (
        "{'loss': 0.6623, 'learning_rate': 0.00017682241998246423, 'epoch': 0.24}\n\n"
        " 24%|██▍       | 2564/10485 [3:15:13<10:06:35,  4.59s/it]\n"
        "{'loss': 0.8022, 'learning_rate': 0.0001768026406281642, 'epoch': 0.24}\n\n"
        " 24%|██▍       | 2566/10485 [3:15:22<10:03:32,  4.57s/it]\n"
        "{'loss': 4.2653, 'learning_rate': 0.00017678285394504535, 'epoch': 0.24}\n\n"
        "{'loss': 0.77, 'learning_rate': 0.00017676305993499574, 'epoch': 0.24}",
        "loss",
    ),
    # sandipan211/ZSD-SC-Resolver#24 (mmcv's text logger: per-head losses, then `loss:`)
    (
        "2024-07-11 17:08:35,687 - INFO - Epoch [1][50/2766]\tlr: 0.01000, eta: 4:06:41, time: "
        "1.344, data_time: 0.074, memory: 3611, loss_rpn_cls: 0.2045, loss_rpn_bbox: 0.0280, "
        "loss_cls: 0.5364, acc: 94.1191, loss_bbox: 0.0785, loss: 0.8474\n"
        "2024-07-11 17:09:35,933 - INFO - Epoch [1][100/2766]\tlr: 0.01000, eta: 3:52:52, time: "
        "1.205, data_time: 0.002, memory: 3611, loss_rpn_cls: 0.2257, loss_rpn_bbox: 0.1235, "
        "loss_cls: 1.8755, acc: 90.9961, loss_bbox: 0.2189, loss: 2.4435\n"
        "2024-07-11 17:10:35,892 - INFO - Epoch [1][150/2766]\tlr: 0.01000, eta: 3:47:14, time: "
        "1.199, data_time: 0.002, memory: 3611, loss_rpn_cls: 298.0166, loss_rpn_bbox: "
        "359.4627, loss_cls: 36350.0296, acc: 91.0960, loss_bbox: 26111.0423, loss: 63118.5509",
        "loss",
    ),
    # FlagOpen/FlagEmbedding#891 (the loss tiny and noisy; the gradient norm 0.0005-1.9, then
    # 35.7: two orders of magnitude, the ninth collection's loss_spike rule)
    (
        "{'loss': 0.0093, 'grad_norm': 0.01756790652871132, 'learning_rate': 5.6755e-05, "
        "'epoch': 1.09}\n"
        "{'loss': 0.005, 'grad_norm': 0.13430514931678772, 'learning_rate': 5.6729e-05, "
        "'epoch': 1.09}\n"
        "{'loss': 0.0145, 'grad_norm': 0.006024870090186596, 'learning_rate': 5.6654e-05, "
        "'epoch': 1.12}\n"
        "{'loss': 0.0421, 'grad_norm': 1.8677421808242798, 'learning_rate': 5.6553e-05, "
        "'epoch': 1.15}\n"
        "{'loss': 0.0283, 'grad_norm': 35.705631256103516, 'learning_rate': 5.6527e-05, "
        "'epoch': 1.16}",
        None,  # the loss also passes 3x its median here; either series names the spike
    ),
]

NO_SPIKE = [
    # aakashvardhan/s21-gpt2, log.md (a loss that only falls)
    "step 0, loss: 10.899394989013672\nstep 1, loss: 10.719036102294922\n"
    "step 2, loss: 9.968440055847168\nstep 3, loss: 9.226236343383789\n"
    "step 4, loss: 8.359014511108398\nstep 5, loss: 7.292380332946777",
    # gzerveas/mvts_transformer#17 (a high loss, noisy but steady)
    "Training Epoch 86  51.1% | batch:        48 of        94        |       loss: 905.094\n"
    "Training Epoch 86  52.1% | batch:        49 of        94        |       loss: 662.117\n"
    "Training Epoch 86  53.2% | batch:        50 of        94        |       loss: 850.853\n"
    "Training Epoch 86  54.3% | batch:        51 of        94        |       loss: 1007.81\n"
    "Training Epoch 86  55.3% | batch:        52 of        94        |       loss: 1236.99",
    # epfLLM/Megatron-LLM#11 (Megatron's lines; the gradient norm 0.13-0.45, `loss scale: 1.0`)
    " iteration      182/  250000 | consumed samples:       186368 | elapsed time per "
    "iteration (ms): 126995.3 | learning rate: 1.365E-05 | global batch size:  1024 | lm loss: "
    "2.382640E+00 | loss scale: 1.0 | grad norm: 0.227 | number of skipped iterations:   0 |\n"
    " iteration      183/  250000 | consumed samples:       187392 | elapsed time per "
    "iteration (ms): 125553.7 | learning rate: 1.372E-05 | global batch size:  1024 | lm loss: "
    "2.471678E+00 | loss scale: 1.0 | grad norm: 0.134 | number of skipped iterations:   0 |\n"
    " iteration      184/  250000 | consumed samples:       188416 | elapsed time per "
    "iteration (ms): 127804.5 | learning rate: 1.380E-05 | global batch size:  1024 | lm loss: "
    "2.408367E+00 | loss scale: 1.0 | grad norm: 0.270 | number of skipped iterations:   0 |\n"
    " iteration      185/  250000 | consumed samples:       189440 | elapsed time per "
    "iteration (ms): 130554.9 | learning rate: 1.387E-05 | global batch size:  1024 | lm loss: "
    "2.435094E+00 | loss scale: 1.0 | grad norm: 0.450 | number of skipped iterations:   0 |",
    # tloen/alpaca-lora#418 (the Trainer's dicts, falling with bumps under 3x)
    "{'loss': 1.2474, 'learning_rate': 0.0001, 'epoch': 0.3}\n"
    "{'loss': 1.4285, 'learning_rate': 9.89059080962801e-05, 'epoch': 0.33}\n"
    "{'loss': 0.8441, 'learning_rate': 9.452954048140044e-05, 'epoch': 0.44}\n"
    "{'loss': 1.1938, 'learning_rate': 9.343544857768052e-05, 'epoch': 0.47}",
    # fangyuanmao/PID#22 (a loss near convergence, noisy in ratio: 3.6e-6, then 1.5e-5)
    "epoch: 530; loss: 0.00000223\nepoch: 531; loss: 0.00000355\nepoch: 532; loss: 0.00001523\n"
    "epoch: 533; loss: 0.00000239",
    # udacity/deep-learning-v2-pytorch#341 (training and validation losses on one line)
    "Epoch: 1 \tTraining Loss: 0.173275 \tValidation Loss: 0.072151\n"
    "Epoch: 2 \tTraining Loss: 0.180673 \tValidation Loss: 0.073222\n"
    "Epoch: 3 \tTraining Loss: 0.170470 \tValidation Loss: 0.071506",
    # facebookresearch/demucs#315 (a train summary, then a validation summary above it)
    "[04-04 22:58:45][demucs.solver][INFO] - Train Summary | Epoch 35 | Loss=0.1127 | "
    "Reco=0.1127 | Grad=0.0732\n"
    "[04-04 22:58:46][demucs.solver][INFO] - Valid Summary | Epoch 35 | Loss=0.1552 | "
    "Reco=0.1552 | Nsdr=6.484 | Best=0.1501 | Bname=main",
]


def _log(tmp_path: Path, text: str, name: str = "rank-0.log") -> Path:
    p = tmp_path / name
    p.write_text(text + "\n")
    return p


@pytest.mark.parametrize("text,series", SPIKES, ids=[f"spike{i}" for i in range(len(SPIKES))])
def test_a_jump_in_the_loss_or_gradient_norm_is_a_loss_spike(
    tmp_path: Path, text: str, series: str | None
) -> None:
    v = triage_file(_log(tmp_path, text))
    assert (v.category, v.action) == ("loss_spike", "restart"), v.verdict
    assert not v.guessed and v.confidence == triage.SPIKE_CONFIDENCE
    assert series is None or v.details["spike"]["series"] == series
    assert "median" in v.verdict and v.evidence
    # the rows alone (no statistical fallback) see it too: it is no guess
    assert triage_file(_log(tmp_path, text), fallback=False).category == "loss_spike"


@pytest.mark.parametrize("text", NO_SPIKE, ids=[f"steady{i}" for i in range(len(NO_SPIKE))])
def test_a_falling_steady_or_validation_loss_is_no_spike(tmp_path: Path, text: str) -> None:
    assert triage.spike(text.encode()) is None
    assert triage_file(_log(tmp_path, text)).category != "loss_spike"


def test_a_row_outranks_the_spike(tmp_path: Path) -> None:
    """A named failure (a NaN loss, a CUDA out of memory) is the cause; the jump before it is
    its symptom."""
    nan = SPIKES[1][0] + "\n{'loss': nan, 'learning_rate': 0.0001767, 'epoch': 0.24}"
    assert triage_file(_log(tmp_path, nan)).category == "numerical_nan"
    oom = SPIKES[0][0] + "\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    assert triage_file(_log(tmp_path, oom)).category == "out_of_memory"


def test_only_the_log_s_end_is_read(tmp_path: Path) -> None:
    """The check reads the last SPIKE_TAIL_BYTES: a jump long before the end is history."""
    filler = "{'loss': 0.77, 'learning_rate': 0.0001767, 'epoch': 0.24}\n"
    text = SPIKES[1][0] + "\n" + filler * (triage.SPIKE_TAIL_BYTES // len(filler) + 10)
    assert triage_file(_log(tmp_path, text)).category == "unknown"


def test_the_evidence_is_the_jump_s_line(tmp_path: Path) -> None:
    """The jump's line, numbered in the whole file, as a row's evidence is
    (`nonstop triage` prints it under the file's verdict)."""
    text = "\n".join(["step line without numbers"] * 5000) + "\n" + SPIKES[1][0]
    log = _log(tmp_path, text)
    (e,) = triage_file(log).details["evidence_lines"]
    assert e["signature"] == "loss_spike_series" and "4.2653" in e["text"]
    assert log.read_text().splitlines()[e["line"] - 1] == e["text"]


def test_the_joint_verdict_names_the_spike(tmp_path: Path) -> None:
    a = _log(tmp_path, SPIKES[2][0], "rank-0.log")
    b = _log(tmp_path, NO_SPIKE[0], "rank-1.log")
    per, joint = triage_files([a, b])
    assert [v.category for v in per] == ["loss_spike", "unknown"]
    assert joint.category == "loss_spike" and "spike" in joint.details and joint.evidence
