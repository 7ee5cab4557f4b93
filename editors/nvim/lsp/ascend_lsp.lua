-- Neovim 0.11+: the ascend-lsp entry for vim.lsp.config / vim.lsp.enable.
--   vim.lsp.enable("ascend_lsp")
--   vim.lsp.config("ascend_lsp", { settings = { ["ascend-lsp"] = { target = { chip = "310P" } } } })
return require("ascend_lsp").lsp_config()
