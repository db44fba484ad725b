# Two commands for a newcomer: `make demo` and `make test`. Both build .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check lint fmt typecheck pytest bench gpu-check clean slurm-up slurm-down \
	cluster-up cluster-down

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt "torch==2.13.0"
	$(BIN)/pip install --quiet -c constraints.txt -e ".[dev]"
	# nvidia-resiliency-ext pulls in the deprecated `pynvml` shim, whose import hook warns
	# (FutureWarning) at every `import pynvml` in every process; nvidia-ml-py, which nonstop
	# requires, provides the same module without it
	$(BIN)/pip uninstall --quiet -y pynvml
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/nonstop demo

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# the whole package, the torch-using modules with torch's own annotations (pyproject.toml
# [tool.mypy]): about 20-25 s on a cold cache, as long as the torch-free part with checkpoint
# and runtime took (reading torch dominates), under 1 s warm
typecheck: $(STAMP)
	$(BIN)/mypy nonstop

# Property tests draw new examples on every local run; under CI (CI=1, set by .ci/run) they use
# a fixed seed, so that what passed here passes there and a red run is always reproducible.
HYPOTHESIS_SEED ?= 0
# Two pytest-xdist workers: the end-to-end tests wait on real processes about half the time,
# so two at once take the 2-core machine's suite from ~30 to ~20 min. PYTEST_WORKERS=0 runs it
# in one process. The slowest tests go first (tests/conftest.py) and the Slurm tests share one
# worker, as they share one cluster (xdist_group).
PYTEST_WORKERS ?= 2
pytest: $(STAMP)
	$(BIN)/pytest -q --durations=40 --junitxml=.pytest_cache/junit.xml \
		-n $(PYTEST_WORKERS) --dist loadgroup \
		$(if $(CI),--hypothesis-seed=$(HYPOTHESIS_SEED))

# A one-node Slurm cluster on this machine (root; Debian's slurm-wlm and munge, as .ci/run
# installs them) for tests/slurm and for trying examples/slurm/nonstop.sbatch by hand.
slurm-up:
	$(PY) tests/slurm/slurm_cluster.py up

slurm-down:
	$(PY) tests/slurm/slurm_cluster.py down

# A cluster of NODES hosts on this machine (root; iproute2): one network namespace per node with
# its own IP (10.77.0.10+i) and hostname (node<i>), a bridge as the switch; tests/cluster and the
# multi-node benchmarks use the same code (tests/support/cluster.py, docs/run.md "Many hosts").
NODES ?= 4
cluster-up:
	$(PY) tests/support/cluster.py up --nodes $(NODES)

cluster-down:
	$(PY) tests/support/cluster.py down

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py all --quick

# nonstop's CUDA and NCCL paths on one real GPU (under 8 min; docs/gpu.md); one line and exit 0
# on a host without CUDA. GPU_CHECK_SAVE=benchmarks/results/gpu-check.json keeps the JSON.
gpu-check: $(STAMP)
	$(BIN)/python benchmarks/gpu_check.py $(if $(GPU_CHECK_SAVE),--save $(GPU_CHECK_SAVE))

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
