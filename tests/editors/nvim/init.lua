-- Headless Neovim init for tests/editors: loads the plugin from editors/nvim
-- through its own setup() and runs the test script once Neovim has started.
--   ASCEND_REPO  repository root      ASCEND_BIN      the server binary
--   ASCEND_WORK  scratch directory    ASCEND_RESULTS  where results go
--   ASCEND_TEST  the test script (tests/editors/nvim/*.lua)
local repo = assert(os.getenv("ASCEND_REPO"), "ASCEND_REPO")
vim.opt.runtimepath:prepend(repo .. "/editors/nvim")
vim.opt.swapfile = false
vim.opt.shada = ""
if os.getenv("ASCEND_SETUP") ~= "0" then
  require("ascend_lsp").setup({ cmd = { (assert(os.getenv("ASCEND_BIN"), "ASCEND_BIN")) } })
end
vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      dofile(assert(os.getenv("ASCEND_TEST"), "ASCEND_TEST"))
    end)
  end,
})
