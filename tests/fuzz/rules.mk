# Fuzzing (libFuzzer + ASan + UBSan, clang). Included by the top Makefile.
#
#   make fuzz              build every target, run each for FUZZ_SECONDS (60)
#   make fuzz-ci           the same, FUZZ_CI_SECONDS (20) each
#   make fuzz-replay       run each target once over its committed corpus
#   make fuzz-build        only build (into $(FUZZ_BUILD))
#   make fuzz FUZZ_TARGETS=fuzz_python FUZZ_SECONDS=600
#
# The core objects are rebuilt in $(FUZZ_BUILD) by a recursive make with
# SANITIZE=fuzzer-no-link,address,undefined (coverage instrumentation plus
# sanitizers, -fno-sanitize-recover=all); each target links them with
# -fsanitize=fuzzer. Working corpora grow under $(FUZZ_BUILD)/corpus/<target>,
# crash inputs land in $(FUZZ_BUILD)/artifacts; the small committed seeds are
# tests/fuzz/corpus/<target>/ and dictionaries tests/fuzz/dict/<target>.dict.

FUZZ_SECONDS ?= 60
FUZZ_CI_SECONDS ?= 20
FUZZ_CC ?= clang
FUZZ_ALL := fuzz_framing fuzz_jsonrpc fuzz_python fuzz_position fuzz_incremental fuzz_model \
            $(if $(wildcard analyzers/domains/elf.h),fuzz_elf)
FUZZ_TARGETS ?= $(FUZZ_ALL)
# FUZZ_NO_SANITIZE=check,...: leave out UBSan checks whose known, reported
# findings would stop every run at its first input (see tests/fuzz/crashes/).
FUZZ_NO_SANITIZE ?=
FUZZ_BUILD ?= build/fuzz$(if $(FUZZ_NO_SANITIZE),-relaxed)
FUZZ_SANITIZE := fuzzer-no-link,address,undefined$(if $(FUZZ_NO_SANITIZE), -fno-sanitize=$(FUZZ_NO_SANITIZE))

.PHONY: fuzz fuzz-ci fuzz-build fuzz-replay fuzz-bins

fuzz-build:
	$(Q)BUILD=$(BUILD) sh tests/fuzz/copy-grammars.sh $(FUZZ_BUILD)
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SANITIZE="$(FUZZ_SANITIZE)" \
	  FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz-bins

fuzz: fuzz-build
	$(Q)FUZZ_BUILD=$(FUZZ_BUILD) sh tests/fuzz/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-ci: fuzz-build
	$(Q)FUZZ_BUILD=$(FUZZ_BUILD) sh tests/fuzz/run-fuzz.sh $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: fuzz-build
	$(Q)FUZZ_BUILD=$(FUZZ_BUILD) sh tests/fuzz/run-fuzz.sh replay $(FUZZ_TARGETS)

# Only meaningful inside the recursive make above (BUILD=$(FUZZ_BUILD)).
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/bin/%)
fuzz-bins: $(FUZZ_BINS)

$(FUZZ_BINS): $(BUILD)/bin/%: $(BUILD)/tests/fuzz/%.o $(CORE_OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
