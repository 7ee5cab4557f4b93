# Benchmarks: `make bench` (see tests/bench/bench.py for what it measures).
#
#   make bench                        generated project (2,000 files, ~1M lines)
#   make bench BENCH_REPO=~/src/proj  any real repository instead
#   make bench BENCH_RUNS=10 BENCH_EDITS=500
#   make bench BENCH_SKIP=latency,report   leave sections out
#
# Everything generated or measured goes to $(BENCH_OUT); nothing is committed.
# The figures are medians of BENCH_RUNS runs, taken in one session against
# the two baselines (tree-sitter parse-only, ripgrep with the seeds' grep
# list) on the same files; they are printed, never asserted as tests.

# (not $(BUILD)/bench: a folder named bench* is benchmark code to the
# analyzer, whose findings there are test code and not reported)
BENCH_OUT ?= $(BUILD)/perf
BENCH_RUNS ?= 5
BENCH_EDITS ?= 200
BENCH_REPO ?=
BENCH_SKIP ?=
BENCH_TOOL := $(BUILD)/tests/bench/bench-tool
BENCH_LATENCY := $(BUILD)/tests/bench/lsp-latency

.PHONY: bench bench-tools

bench-tools: $(BENCH_TOOL) $(BENCH_LATENCY)

$(BENCH_TOOL): $(BUILD)/tests/bench/bench_tool.o $(CORE_OBJS) $(GRAMMAR_OBJS)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BENCH_LATENCY): $(BUILD)/tests/bench/lsp_latency.o
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

bench: $(BIN) bench-tools
	python3 tests/bench/bench.py --bin $(BIN) --tool $(BENCH_TOOL) --latency $(BENCH_LATENCY) \
	  --out $(BENCH_OUT) --runs $(BENCH_RUNS) --edits $(BENCH_EDITS) $(if $(BENCH_REPO),--repo "$(BENCH_REPO)") $(if $(BENCH_SKIP),--skip $(BENCH_SKIP))
