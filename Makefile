# Two set-up commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Every extra that works without a GPU, so CI exercises them.
EXTRAS := perf,test,dev,data,tensorboard,viz,demo,progress,jit,special,image,strings,fs,distributed,pandas,keras,plot

.PHONY: demo test bench lint clean

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

bench: $(VENV)/.installed
	$(PY) bench/run.py
	$(PY) bench/eager_bench.py
	$(PY) bench/data_bench.py --repeat 1
	$(PY) bench/custom_op_bench.py
	$(PY) bench/distributed_bench.py
	$(PY) bench/op_kernels_bench.py

lint: $(VENV)/.installed
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
