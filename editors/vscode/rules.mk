# VS Code extension packaging (included by the top Makefile).
#   make vsix   strips a copy of $(BIN) into editors/vscode/bin/, copies the
#               rule reference (docs/rules.md, docs/configuration.md: the
#               server links diagnostics to it) into editors/vscode/docs/, and builds
#               $(BUILD)/ascend-lsp-<target>-<version>.vsix with the vsce
#               pinned in editors/vscode/package-lock.json.
# The .vsix is platform-specific (it bundles this machine's binary).
VSCODE_DIR := editors/vscode
VSCODE_VERSION := $(shell sed -n 's/^  "version": "\([^"]*\)",$$/\1/p' $(VSCODE_DIR)/package.json)
VSCODE_ARCH := $(shell uname -m)
VSCODE_TARGET ?= linux-$(if $(filter aarch64 arm64,$(VSCODE_ARCH)),arm64,$(if $(filter armv7l,$(VSCODE_ARCH)),armhf,x64))
VSCODE_VSIX := $(BUILD)/ascend-lsp-$(VSCODE_TARGET)-$(VSCODE_VERSION).vsix
VSCODE_SRCS := $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json $(VSCODE_DIR)/README.md \
	$(VSCODE_DIR)/.vscodeignore $(wildcard $(VSCODE_DIR)/src/*.js)
VSCODE_DOCS := docs/rules.md docs/configuration.md
VSCODE_STRIP ?= strip

.PHONY: vsix
vsix: $(VSCODE_VSIX)

$(VSCODE_VSIX): $(BIN) $(VSCODE_SRCS) $(VSCODE_DOCS)
	@mkdir -p $(VSCODE_DIR)/bin $(VSCODE_DIR)/docs $(@D)
	$(Q)cp $(VSCODE_DOCS) $(VSCODE_DIR)/docs/
	$(Q)$(VSCODE_STRIP) -o $(VSCODE_DIR)/bin/ascend-lsp $(BIN) 2>/dev/null || cp $(BIN) $(VSCODE_DIR)/bin/ascend-lsp
	$(Q)chmod 755 $(VSCODE_DIR)/bin/ascend-lsp
	$(Q)test -x $(VSCODE_DIR)/node_modules/.bin/vsce || (cd $(VSCODE_DIR) && npm ci --no-audit --no-fund)
	$(Q)cd $(VSCODE_DIR) && ./node_modules/.bin/vsce package --skip-license \
		--allow-missing-repository --target $(VSCODE_TARGET) --out $(abspath $@)
	@echo "vsix: $@ (install: code --install-extension $@)"
