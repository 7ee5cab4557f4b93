-- ascend_lsp: Neovim client setup for the ascend-lsp language server, which
-- flags CUDA-only constructs in PyTorch projects and offers quick fixes to
-- the Huawei Ascend (torch_npu) replacement.
--
--   require("ascend_lsp").setup{
--     cmd = { "ascend-lsp" },            -- the server binary
--     filetypes = { ... },               -- buffers to attach to
--     root_markers = { ... },            -- files marking the project root
--     settings = { target = { chip = "910B" } },  -- "ascend-lsp" settings
--   }
--
-- Neovim 0.11+: vim.lsp.config + vim.lsp.enable (lsp/ascend_lsp.lua holds
-- the same defaults for users who only call vim.lsp.enable).
-- Neovim 0.8-0.10: a FileType autocommand calling vim.lsp.start.
-- Neovim 0.7: a FileType autocommand, vim.lsp.start_client once per root
-- and vim.lsp.buf_attach_client.
local M = {}

M.name = "ascend_lsp"

local LANGUAGE_IDS = { requirements = "pip-requirements", cuda = "cuda-cpp" }

local function default_config()
  return {
    cmd = { "ascend-lsp" },
    filetypes = { "python", "requirements", "toml", "cuda", "cpp", "c" },
    root_markers = { "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", ".ascend-lsp.toml", ".git" },
    settings = {},
    init_options = nil,
    on_attach = nil,
    capabilities = nil,
    single_file_support = true,
    -- how :AscendReport opens the report ("split", "vsplit", "tabedit", "edit"; false: do not open)
    report_open = "split",
  }
end

M.config = default_config()

local uv = vim.loop or vim.uv

local function notify(msg, level)
  vim.notify("ascend-lsp: " .. msg, level or vim.log.levels.INFO)
end

local function has(feature)
  return vim.fn.has(feature) == 1
end

-- The "ascend-lsp" settings object, whether given bare or under its key.
local function inner_settings(settings)
  settings = settings or {}
  if type(settings["ascend-lsp"]) == "table" then
    return settings["ascend-lsp"]
  end
  return settings
end

local function language_id(_, filetype)
  return LANGUAGE_IDS[filetype] or filetype
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

--- The nearest directory above `path` (a file or directory) holding one of
--- `markers`, or nil.
function M.find_root(path, markers)
  local dir = path
  local st = uv.fs_stat(dir)
  if not st or st.type ~= "directory" then
    dir = dirname(dir)
  end
  dir = vim.fn.fnamemodify(dir, ":p"):gsub("/$", "")
  if dir == "" then
    dir = "/"
  end
  while true do
    for _, m in ipairs(markers or {}) do
      if uv.fs_stat(dir .. "/" .. m) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir or parent == "" then
      return nil
    end
    dir = parent
  end
end

-- The config table for vim.lsp.start / start_client / vim.lsp.config.
local function client_config(cfg, root_dir)
  local settings = inner_settings(cfg.settings)
  local empty = next(settings) == nil
  local c = {
    name = M.name,
    cmd = cfg.cmd,
    -- an empty table would be sent as a JSON array
    settings = { ["ascend-lsp"] = empty and vim.empty_dict() or settings },
    init_options = cfg.init_options or (not empty and settings or nil),
    get_language_id = language_id,
    on_attach = cfg.on_attach,
    capabilities = cfg.capabilities,
  }
  if root_dir then
    c.root_dir = root_dir
    c.workspace_folders = { { uri = vim.uri_from_fname(root_dir), name = root_dir } }
  end
  return c
end

-- Neovim 0.7 keeps one client per root directory here.
M._clients = {}

local function buf_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local root = M.find_root(name, M.config.root_markers)
  if not root and M.config.single_file_support then
    root = vim.fn.fnamemodify(dirname(name), ":p"):gsub("/$", "")
  end
  return root
end

--- Starts (or reuses) the client for the buffer's project and attaches it.
--- Returns the client id, or nil when the buffer is not a file.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = buf_root(bufnr)
  if not root then
    return nil
  end
  if vim.lsp.start then
    return vim.lsp.start(client_config(M.config, root), { bufnr = bufnr })
  end
  local id = M._clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(M.config, root))
    if not id then
      notify("could not start " .. table.concat(M.config.cmd, " "), vim.log.levels.ERROR)
      return nil
    end
    M._clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- The ascend-lsp clients (attached to bufnr when given).
function M.clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = M.name, bufnr = bufnr })
  end
  local all = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  local out = {}
  for _, c in pairs(all) do
    if c.name == M.name then
      table.insert(out, c)
    end
  end
  return out
end

-- The client for bufnr, else the only running one.
local function pick_client(bufnr)
  local cs = M.clients(bufnr)
  if #cs == 0 then
    cs = M.clients(nil)
  end
  return cs[1]
end

local function request(client, method, params, handler, bufnr)
  if has("nvim-0.11") then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function err_text(err)
  return type(err) == "table" and (err.message or vim.inspect(err)) or tostring(err)
end

--- Runs ascend.generateReport on the project of the current buffer and opens
--- the report. opts: { format = "md"|"json"|"html", lang = "en"|"zh",
--- output = path, open = "split"|..|false, on_done = function(err, result) }.
function M.report(opts)
  opts = opts or {}
  local bufnr = vim.api.nvim_get_current_buf()
  local client = pick_client(bufnr)
  if not client then
    notify("no ascend-lsp client is running (open a Python file of the project first)", vim.log.levels.ERROR)
    return
  end
  local arg = {}
  for _, k in ipairs({ "format", "lang", "output" }) do
    if opts[k] ~= nil then
      arg[k] = opts[k]
    end
  end
  local params = { command = "ascend.generateReport" }
  if next(arg) then
    params.arguments = { arg }
  end
  notify("generating the migration report…")
  request(client, "workspace/executeCommand", params, function(err, result)
    if err or type(result) ~= "table" then
      notify("the migration report failed: " .. (err and err_text(err) or "no result"), vim.log.levels.ERROR)
      if opts.on_done then
        opts.on_done(err or "no result", nil)
      end
      return
    end
    local path = result.path or (result.uri and vim.uri_to_fname(result.uri))
    local open = opts.open
    if open == nil then
      open = M.config.report_open
    end
    if open and path then
      vim.cmd(open .. " " .. vim.fn.fnameescape(path))
      vim.cmd("checktime")
    end
    notify("migration report: " .. tostring(path))
    if opts.on_done then
      opts.on_done(nil, result)
    end
  end, bufnr)
end

--- Applies every safe fix of the buffer (ascend.fixAll). The server sends
--- workspace/applyEdit, or returns the edit when the client cannot apply.
function M.fix_all(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.clients(bufnr)[1]
  if not client then
    notify("ascend-lsp is not attached to this buffer", vim.log.levels.ERROR)
    return
  end
  local params = { command = "ascend.fixAll", arguments = { vim.uri_from_bufnr(bufnr) } }
  request(client, "workspace/executeCommand", params, function(err, result)
    if err then
      notify("fix all failed: " .. err_text(err), vim.log.levels.ERROR)
    elseif type(result) == "table" and (result.changes or result.documentChanges) then
      vim.lsp.util.apply_workspace_edit(result, client.offset_encoding or "utf-16")
    elseif result ~= true then
      notify("no safe fixes in this buffer")
    end
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
end

local commands_defined = false

--- Defines :AscendReport [md|json|html] and :AscendFixAll.
function M.define_commands()
  if commands_defined then
    return
  end
  commands_defined = true
  vim.api.nvim_create_user_command("AscendReport", function(a)
    M.report({ format = a.args ~= "" and a.args or nil })
  end, {
    nargs = "?",
    complete = function()
      return { "md", "json", "html" }
    end,
    desc = "ascend-lsp: write the Ascend migration report of the project and open it",
  })
  vim.api.nvim_create_user_command("AscendFixAll", function()
    M.fix_all(0)
  end, { desc = "ascend-lsp: apply every safe Ascend fix of the buffer" })
end

-- Before 0.9, requirements*.txt had filetype "text"; give them the
-- "requirements" filetype later releases use.
local function requirements_filetype(group)
  if has("nvim-0.9") then
    return
  end
  vim.api.nvim_create_autocmd({ "BufNewFile", "BufRead" }, {
    group = group,
    pattern = { "requirements*.txt", "*-requirements.txt", "*requirements/*.txt" },
    callback = function(a)
      if vim.bo[a.buf].filetype == "" or vim.bo[a.buf].filetype == "text" then
        vim.bo[a.buf].filetype = "requirements"
      end
    end,
  })
end

--- The defaults, as a fresh table (lsp/ascend_lsp.lua returns the client
--- part of it for vim.lsp.config).
function M.default_config()
  return default_config()
end

--- The vim.lsp.config entry (Neovim 0.11+) for the given options.
function M.lsp_config(cfg)
  cfg = vim.tbl_deep_extend("force", default_config(), cfg or {})
  local c = client_config(cfg, nil)
  c.name = nil
  c.filetypes = cfg.filetypes
  c.root_markers = cfg.root_markers
  return c
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", default_config(), opts or {})
  if opts and opts.filetypes then
    M.config.filetypes = opts.filetypes -- lists replace, not merge
  end
  if opts and opts.root_markers then
    M.config.root_markers = opts.root_markers
  end
  if opts and opts.cmd then
    M.config.cmd = opts.cmd
  end
  M.define_commands()
  local group = vim.api.nvim_create_augroup("ascend_lsp", { clear = true })
  requirements_filetype(group)
  if vim.lsp.config and vim.lsp.enable then
    vim.lsp.config(M.name, M.lsp_config(M.config))
    vim.lsp.enable(M.name)
    return M
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(a)
      M.attach(a.buf)
    end,
    desc = "ascend-lsp: attach the language server",
  })
  -- Buffers already open when setup() runs.
  local wanted = {}
  for _, ft in ipairs(M.config.filetypes) do
    wanted[ft] = true
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and wanted[vim.bo[b].filetype] then
      M.attach(b)
    end
  end
  return M
end

return M
