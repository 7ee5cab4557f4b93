# ascend-lsp: one C binary (language server + CLI). Out-of-tree build in $(BUILD).
# What the build needs is brought in on first use: every object waits for the
# $(DEPS_STAMP) stamp (tests/install-deps.sh: Debian packages, pinned npm
# packages), and grammar sources are fetched (npm pack, integrity-checked)
# into $(BUILD)/grammars; nothing third-party is committed.

BUILD ?= build
CC ?= cc
CFLAGS ?= -O2 -g
SANITIZE ?=
PKGS := tree-sitter libcjson libuv

override CFLAGS += -std=c11 -Wall -Wextra -D_GNU_SOURCE -I. -MMD -MP
override CFLAGS += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ltree-sitter -lcjson -luv) -lpthread -lm
ifneq ($(SANITIZE),)
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
override LDFLAGS += -fsanitize=$(SANITIZE)
endif
ifeq ($(V),1)
Q :=
else
Q := @
endif

GRAMMARS := python cuda toml
GRAMMAR_DIR := $(BUILD)/grammars
GRAMMAR_OBJS := $(foreach g,$(GRAMMARS),$(BUILD)/grammars/$(g)/parser.o $(BUILD)/grammars/$(g)/scanner.o)

CORE_SRCS := $(wildcard protocol/*.c) $(wildcard analyzers/*/*.c) $(filter-out server/main.c,$(wildcard server/*.c server/*/*.c))
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
BIN := $(BUILD)/ascend-lsp

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BIN := $(BUILD)/unit-tests

.PHONY: all deps test test-e2e demo sanitize clean unit

# Stamp of tests/install-deps.sh: made again only when the script or a
# lockfile it installs from changes, so a second `make demo` costs nothing.
DEPS_STAMP := $(BUILD)/.deps-installed
DEPS_INPUTS := tests/install-deps.sh $(filter-out tests/e2e/%,$(wildcard tests/*/package-lock.json editors/*/package-lock.json))

all: $(BIN)

$(BIN): $(BUILD)/server/main.o $(CORE_OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# Grammar objects: generated third-party code, compiled with relaxed warnings.
# Under sanitizers they keep ASan, but not UBSan's nonnull-attribute check:
# the CUDA grammar's scanner serializes an empty state with memcpy(dst, NULL, 0).
GRAMMAR_SAN := $(if $(SANITIZE),$(filter -fsanitize=%,$(CFLAGS)) -fno-sanitize=nonnull-attribute)
$(BUILD)/grammars/%/parser.o: $(BUILD)/grammars/%/.fetched
	$(Q)$(CC) -std=c11 -O2 -g -w -I$(BUILD)/grammars/$*/src $(GRAMMAR_SAN) -c -o $@ $(BUILD)/grammars/$*/src/parser.c
$(BUILD)/grammars/%/scanner.o: $(BUILD)/grammars/%/.fetched
	$(Q)$(CC) -std=c11 -O2 -g -w -I$(BUILD)/grammars/$*/src $(GRAMMAR_SAN) -c -o $@ $(BUILD)/grammars/$*/src/scanner.c

# (kept: a first build fetches them on the way, as intermediates)
.PRECIOUS: $(BUILD)/grammars/%/.fetched
$(BUILD)/grammars/%/.fetched: tests/grammars.lock | $(DEPS_STAMP)
	$(Q)BUILD=$(BUILD) sh tests/fetch-grammars.sh $*

$(DEPS_STAMP): $(DEPS_INPUTS)
	sh tests/install-deps.sh
	@mkdir -p $(@D)
	@touch $@

deps:
	sh tests/install-deps.sh
	@mkdir -p $(BUILD)
	@touch $(DEPS_STAMP)
	$(MAKE) $(foreach g,$(GRAMMARS),$(BUILD)/grammars/$(g)/.fetched)

$(UNIT_BIN): $(UNIT_SRCS:%.c=$(BUILD)/%.o) $(CORE_OBJS) $(GRAMMAR_OBJS)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

unit: $(UNIT_BIN)
	$(UNIT_BIN)

test: $(BIN) $(UNIT_BIN) | $(DEPS_STAMP)
	BIN=$(BIN) UNIT=$(UNIT_BIN) sh tests/run-all.sh

# The extension in a real VS Code (code-server + Chromium, tests/e2e/run.sh):
# installs its own tools under $(BUILD)/e2e on the first run.
test-e2e: $(BIN) | $(DEPS_STAMP)
	BIN=$(BIN) E2E=$(BUILD)/e2e sh tests/e2e/run.sh

# The bundled example: its findings, then its migration assessment.
demo: $(BIN)
	@$(BIN) check --statistics tests/fixtures/demo-project; echo
	@$(BIN) report tests/fixtures/demo-project

sanitize:
	$(MAKE) BUILD=build/asan SANITIZE=address,undefined CC=clang test

clean:
	rm -rf $(BUILD)

# Suites with their own build rules (fuzz targets, benchmarks, editor packaging).
-include $(wildcard tests/*/rules.mk editors/*/rules.mk)

# (not under $(BUILD)/e2e: the npm packages installed there have .d files of their own)
-include $(shell find $(BUILD) -path $(BUILD)/e2e -prune -o -name '*.d' -print 2>/dev/null)
