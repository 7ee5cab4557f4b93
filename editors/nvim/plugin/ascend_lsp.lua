-- ascend-lsp: defines :AscendReport and :AscendFixAll. The language server
-- itself starts after require("ascend_lsp").setup{...} (any Neovim from 0.7)
-- or vim.lsp.enable("ascend_lsp") (0.11+).
if vim.g.loaded_ascend_lsp then
  return
end
vim.g.loaded_ascend_lsp = true
require("ascend_lsp").define_commands()
