# Two set-up commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Every extra that works without a GPU, so CI exercises them.
EXTRAS := perf,test,dev,data,tensorboard,viz,demo,progress,jit,special,image,strings,fs,distributed,pandas,keras,plot

# The benchmark environment (never the package's dependencies): real TensorFlow and PyTorch that
# `make bench` measures side by side with tensorweave. `make bench-env` builds it if missing.
BENCH_VENV := bench/.venv
BENCH_PY := $(BENCH_VENV)/bin/python
BENCH_PACKAGES := tensorflow-cpu==2.21.0 tf-keras==2.21.0 torch==2.13.0 numpy threadpoolctl

.PHONY: demo test bench bench-env lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	touch $@

demo: $(VENV)/.installed
	$(PY) examples/digits_cnn.py

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m pytest

# A failed install leaves no stamp: the bench then reports TensorFlow / PyTorch as not installed.
$(BENCH_VENV)/.installed:
	$(PYTHON) -m venv $(BENCH_VENV)
	-$(BENCH_PY) -m pip install -q --upgrade pip
	$(BENCH_PY) -m pip install -q $(BENCH_PACKAGES) && touch $@ || \
		echo "bench-env: installing $(BENCH_PACKAGES) failed; TensorFlow / PyTorch rows will say 'not installed'"

bench-env: $(BENCH_VENV)/.installed

bench: $(VENV)/.installed bench-env
	$(PY) bench/run.py --bench-python $(BENCH_PY)
	$(PY) bench/eager_dispatch_bench.py --bench-python $(BENCH_PY) --markdown bench/RESULTS.md
	$(PY) bench/eager_bench.py
	$(PY) bench/data_bench.py --repeat 1
	$(PY) bench/custom_op_bench.py
	$(PY) bench/distributed_bench.py
	$(PY) bench/op_kernels_bench.py

lint: $(VENV)/.installed
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
