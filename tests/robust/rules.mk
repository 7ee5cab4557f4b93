# Robustness helpers (the suite itself, tests/robust/run.sh, is run by
# `make test` like every suite):
#
#   make check-asan     rebuild under $(ROBUST_ASAN_BUILD) with ASan + UBSan (clang)
#                       and run the unit tests and the robust suite there
#                       (`make sanitize`, in the top Makefile, runs every suite)
#   make valgrind       the unit tests and the robust suite's transcript under
#                       valgrind memcheck (no errors, no definite leaks)
#   make robust         only the robust suite, with $(BIN)

ROBUST_ASAN_BUILD ?= build/asan
ROBUST_VALGRIND := valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
                   --errors-for-leak-kinds=definite --error-exitcode=99 --quiet

.PHONY: check-asan valgrind robust

robust: $(BIN)
	BIN=$(BIN) sh tests/robust/run.sh

check-asan:
	$(Q)BUILD=$(BUILD) sh tests/fuzz/copy-grammars.sh $(ROBUST_ASAN_BUILD)
	$(Q)$(MAKE) --no-print-directory BUILD=$(ROBUST_ASAN_BUILD) SANITIZE=address,undefined CC=clang \
	  $(ROBUST_ASAN_BUILD)/ascend-lsp $(ROBUST_ASAN_BUILD)/unit-tests
	ASAN_OPTIONS=detect_leaks=1 $(ROBUST_ASAN_BUILD)/unit-tests
	ASAN_OPTIONS=detect_leaks=1 BIN=$(ROBUST_ASAN_BUILD)/ascend-lsp ROBUST_FUZZ_REPLAY=0 VALGRIND=0 \
	  sh tests/robust/run.sh

valgrind: $(BIN) $(UNIT_BIN)
	$(ROBUST_VALGRIND) $(UNIT_BIN)
	BIN=$(BIN) ROBUST_FUZZ_REPLAY=0 sh tests/robust/run.sh valgrind
