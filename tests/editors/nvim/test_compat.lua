-- The plugin's own logic, independent of the Neovim release under test:
-- which API setup() uses on 0.8-0.10 (vim.lsp.start) and 0.11+
-- (vim.lsp.config/enable) with stand-ins for those functions, the
-- lsp/ascend_lsp.lua entry, root detection, and the requests :AscendReport
-- sends. Runs without setup() in init.lua (ASCEND_SETUP=0).
local H = dofile(os.getenv("ASCEND_REPO") .. "/tests/editors/nvim/harness.lua")
local REPO = os.getenv("ASCEND_REPO")
local WORK = assert(os.getenv("ASCEND_WORK"), "ASCEND_WORK")
local ROOT = WORK .. "/project"

local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end

local DEFAULT_FILETYPES = { "python", "requirements", "toml", "cuda", "cpp", "c" }
local DEFAULT_MARKERS = { "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", ".ascend-lsp.toml", ".git" }

local function fresh()
  package.loaded["ascend_lsp"] = nil
  return require("ascend_lsp")
end

-- Replaces vim.lsp fields for the duration of fn.
local function with_lsp(fields, fn)
  local saved = {}
  for k, v in pairs(fields) do
    saved[k] = { v = vim.lsp[k] }
    vim.lsp[k] = v
  end
  local ok, err = pcall(fn)
  for k, s in pairs(saved) do
    vim.lsp[k] = s.v
  end
  if not ok then
    error(err, 0)
  end
end

H.run(function()
  H.check("plugin/ascend_lsp.lua defines the commands without setup()", function()
    H.eq(vim.g.loaded_ascend_lsp, true, "g:loaded_ascend_lsp")
    H.eq(vim.fn.exists(":AscendReport"), 2, ":AscendReport")
    H.eq(vim.fn.exists(":AscendFixAll"), 2, ":AscendFixAll")
  end)

  H.check("lsp/ascend_lsp.lua is a vim.lsp.config entry with the defaults", function()
    local cfg = dofile(REPO .. "/editors/nvim/lsp/ascend_lsp.lua")
    H.eq(cfg.cmd, { "ascend-lsp" }, "cmd")
    H.eq(cfg.filetypes, DEFAULT_FILETYPES, "filetypes")
    H.eq(cfg.root_markers, DEFAULT_MARKERS, "root_markers")
    H.eq(cfg.name, nil, "name (vim.lsp.config takes it from the file name)")
    H.eq(vim.json.encode(cfg.settings), '{"ascend-lsp":{}}', "settings as the client encodes them")
    H.eq(cfg.init_options, nil, "init_options")
    H.eq(cfg.get_language_id(0, "requirements"), "pip-requirements", "language id of requirements")
    H.eq(cfg.get_language_id(0, "cuda"), "cuda-cpp", "language id of cuda")
    H.eq(cfg.get_language_id(0, "python"), "python", "language id of python")
  end)

  H.check("Neovim 0.11+: setup() registers with vim.lsp.config and vim.lsp.enable", function()
    local configured, enabled = {}, {}
    with_lsp({
      config = function(name, cfg)
        table.insert(configured, { name, cfg })
      end,
      enable = function(name)
        table.insert(enabled, name)
      end,
    }, function()
      fresh().setup({
        cmd = { "/opt/ascend-lsp", "--stdio" },
        filetypes = { "python" },
        settings = { target = { chip = "310P" } },
      })
    end)
    H.eq(#configured, 1, "vim.lsp.config calls")
    H.eq(configured[1][1], "ascend_lsp", "config name")
    local c = configured[1][2]
    H.eq(c.cmd, { "/opt/ascend-lsp", "--stdio" }, "cmd")
    H.eq(c.filetypes, { "python" }, "filetypes replace the defaults")
    H.eq(c.root_markers, DEFAULT_MARKERS, "root_markers")
    H.eq(c.settings, { ["ascend-lsp"] = { target = { chip = "310P" } } }, "settings")
    H.eq(c.init_options, { target = { chip = "310P" } }, "init_options")
    H.eq(enabled, { "ascend_lsp" }, "vim.lsp.enable calls")
    H.eq(#vim.api.nvim_get_autocmds({ group = "ascend_lsp", event = "FileType" }), 0, "FileType autocommands")
  end)

  H.check("Neovim 0.8-0.10: a FileType autocommand calls vim.lsp.start with the buffer's root", function()
    local starts = {}
    with_lsp({
      start = function(cfg, opts)
        table.insert(starts, { cfg, opts })
        return 42
      end,
    }, function()
      fresh().setup({ cmd = { "/opt/ascend-lsp" }, settings = { ["ascend-lsp"] = { ignore = { "ASC6" } } } })
      vim.cmd("edit " .. vim.fn.fnameescape(ROOT .. "/train.py"))
    end)
    local buf = vim.api.nvim_get_current_buf()
    H.eq(#starts, 1, "vim.lsp.start calls")
    local cfg, opts = starts[1][1], starts[1][2]
    H.eq(opts, { bufnr = buf }, "start options")
    H.eq(cfg.name, "ascend_lsp", "name")
    H.eq(cfg.cmd, { "/opt/ascend-lsp" }, "cmd")
    H.eq(cfg.root_dir, ROOT, "root_dir")
    H.eq(cfg.workspace_folders, { { uri = vim.uri_from_fname(ROOT), name = ROOT } }, "workspace_folders")
    H.eq(cfg.settings, { ["ascend-lsp"] = { ignore = { "ASC6" } } }, "settings")
    H.eq(cfg.init_options, { ignore = { "ASC6" } }, "init_options")
    vim.cmd("bwipeout!")
  end)

  H.check("window/showDocument for the report :AscendReport opens is absorbed; others go to Neovim", function()
    local ascend = fresh()
    local shown = {}
    local saved = vim.lsp.handlers["window/showDocument"]
    vim.lsp.handlers["window/showDocument"] = function(_, params)
      table.insert(shown, params.uri)
      return { success = true }
    end
    local ok, err = pcall(function()
      local cfg = ascend.lsp_config({})
      H.eq(cfg.handlers["window/showDocument"], ascend.show_document_handler, "handler in the client config")
      local report = { uri = "file:///p/ascend-migration-report.md" }
      H.eq(ascend.show_document_handler(nil, report, {}, {}), { success = true }, "answer while idle")
      H.eq(shown, { report.uri }, "shown by Neovim while no report is pending")
      ascend._reports_pending = 1
      H.eq(ascend.show_document_handler(nil, report, {}, {}), { success = true }, "answer while pending")
      H.eq(ascend.show_document_handler(nil, { uri = "file:///p/train.py" }, {}, {}), { success = true }, "other file")
      H.eq(shown, { report.uri, "file:///p/train.py" }, "the report is not shown twice")
    end)
    vim.lsp.handlers["window/showDocument"] = saved
    if not ok then
      error(err, 0)
    end
  end)

  H.check("find_root: the nearest directory with a marker, else nil", function()
    local ascend = fresh()
    vim.fn.mkdir(WORK .. "/nest/a/b/c", "p")
    vim.fn.writefile({}, WORK .. "/nest/a/pyproject.toml")
    vim.fn.mkdir(WORK .. "/nest/a/b/.git", "p")
    vim.fn.writefile({}, WORK .. "/nest/a/b/c/m.py")
    local markers = { "pyproject.toml", ".git" }
    H.eq(ascend.find_root(WORK .. "/nest/a/b/c/m.py", markers), WORK .. "/nest/a/b", "nearest marker wins")
    H.eq(ascend.find_root(WORK .. "/nest/a/b/c/m.py", { "pyproject.toml" }), WORK .. "/nest/a", "only pyproject")
    H.eq(ascend.find_root(WORK .. "/nest/a/b/c", { "pyproject.toml" }), WORK .. "/nest/a", "from a directory")
    H.eq(ascend.find_root(WORK .. "/nest/a/b/c/m.py", { "no-such-marker" }), nil, "no marker")
  end)

  H.check(":AscendReport without a client says so", function()
    notes = {}
    local ascend = fresh()
    ascend.define_commands()
    with_lsp({
      get_clients = function()
        return {}
      end,
    }, function()
      vim.cmd("AscendReport")
    end)
    H.eq(notes, { {
      msg = "ascend-lsp: no ascend-lsp client is running (open a Python file of the project first)",
      level = vim.log.levels.ERROR,
    } }, "notifications")
  end)

  H.check(":AscendReport [format] sends ascend.generateReport and shows the path it answers beside the source", function()
    local ascend = fresh()
    local sent = {}
    local report = WORK .. "/r.md"
    vim.fn.writefile({ "# Report" }, report)
    local fake = {
      name = "ascend_lsp",
      request = function(method, params, handler, bufnr)
        table.insert(sent, { method, params, bufnr })
        handler(nil, { path = report, uri = vim.uri_from_fname(report), summary = {} })
        return true, 1
      end,
    }
    with_lsp({
      get_clients = function()
        return { fake }
      end,
    }, function()
      vim.cmd("AscendReport")
      vim.cmd("only")
      vim.cmd("AscendReport html")
      ascend.report({ format = "json", lang = "zh", output = "/tmp/x.json", open = false })
    end)
    H.eq(#sent, 3, "requests")
    H.eq(sent[1][1], "workspace/executeCommand", "method")
    H.eq(sent[1][2], { command = "ascend.generateReport" }, "no arguments by default")
    H.eq(sent[2][2], { command = "ascend.generateReport", arguments = { { format = "html" } } }, ":AscendReport html")
    H.eq(sent[3][2], {
      command = "ascend.generateReport",
      arguments = { { format = "json", lang = "zh", output = "/tmp/x.json" } },
    }, "report{}")
    H.eq(vim.fn.winnr("$"), 2, "windows after :AscendReport html (split)")
    H.truthy(vim.fn.bufwinnr(vim.fn.bufnr(report)) ~= -1, "a window shows the report")
    H.truthy(vim.api.nvim_buf_get_name(0) ~= report, "the cursor stays out of the report")
    H.eq(vim.api.nvim_buf_get_var(vim.fn.bufnr(report), "ascend_lsp_report_source"), vim.fn.bufnr(""),
      "the report knows its source")
  end)
end)
