-- The Neovim plugin against the real server, in the Neovim under test:
-- attach through setup(), exact diagnostics, the preferred quick fix applied
-- through the client, :AscendFixAll, :AscendReport, requirements files, and
-- settings reaching the server.
local H = dofile(os.getenv("ASCEND_REPO") .. "/tests/editors/nvim/harness.lua")
local ascend = require("ascend_lsp")
local WORK = assert(os.getenv("ASCEND_WORK"), "ASCEND_WORK")
local ROOT = WORK .. "/project"
local WAIT = 10000

-- Errors the plugin reports through vim.notify end the waits early.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end
local function errors()
  local out = {}
  for _, n in ipairs(notes) do
    if n.level == vim.log.levels.ERROR then
      table.insert(out, n.msg)
    end
  end
  return out
end

local function diags(bufnr)
  local out = {}
  local ds = vim.diagnostic.get(bufnr)
  table.sort(ds, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  for _, d in ipairs(ds) do
    table.insert(out, string.format("%d:%d-%d:%d %s", d.lnum, d.col, d.end_lnum, d.end_col, d.code))
  end
  return out
end

local function lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

local function request_sync(client, bufnr, method, params)
  local done, err, result = false, nil, nil
  client.request(method, params, function(e, r)
    done, err, result = true, e, r
  end, bufnr)
  H.wait(WAIT, function()
    return done
  end, method)
  if err then
    error(method .. " failed: " .. vim.inspect(err), 2)
  end
  return result
end

local FIXTURE_HEAD = {
  '"""Tiny training step used by the editor-client tests."""',
  "import torch",
  "import torch_npu",
  "import torch as th",
}

local function concat(...)
  local out = {}
  for _, t in ipairs({ ... }) do
    vim.list_extend(out, t)
  end
  return out
end

H.run(function()
  local buf, client

  H.check("setup() defines :AscendReport and :AscendFixAll", function()
    H.eq(vim.fn.exists(":AscendReport"), 2, ":AscendReport")
    H.eq(vim.fn.exists(":AscendFixAll"), 2, ":AscendFixAll")
  end)

  H.check("opening train.py attaches one ascend_lsp client rooted at the project", function()
    vim.cmd("edit " .. vim.fn.fnameescape(ROOT .. "/train.py"))
    buf = vim.api.nvim_get_current_buf()
    H.eq(vim.bo[buf].filetype, "python", "filetype")
    H.wait(WAIT, function()
      return #ascend.clients(buf) == 1 and ascend.clients(buf)[1].initialized
    end, "the client to attach and initialize")
    client = ascend.clients(buf)[1]
    H.eq(client.name, "ascend_lsp", "client name")
    H.eq(client.config.root_dir, ROOT, "root_dir")
    H.eq(client.server_capabilities.positionEncoding or "utf-16", "utf-16", "position encoding")
    H.eq(client.offset_encoding, "utf-16", "offset encoding")
  end)

  H.check("diagnostics: exact codes, lines and columns", function()
    H.wait(WAIT, function()
      return #vim.diagnostic.get(buf) == 4
    end, "4 diagnostics")
    H.eq(diags(buf), {
      "7:26-7:34 ASC204",
      "8:18-8:24 ASC203",
      "12:4-12:23 ASC201",
      "13:4-13:20 ASC201",
    }, "diagnostics")
    local d = vim.diagnostic.get(buf, { lnum = 12 })[1]
    H.eq(d.source, "ascend-lsp", "source")
    H.eq(d.severity, vim.diagnostic.severity.WARN, "severity")
    H.eq(d.message, "CUDA-only API torch.cuda.synchronize; on Ascend use torch.npu.synchronize", "message")
  end)

  H.check("hover: Markdown the client renders as it is (no HTML line breaks)", function()
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 12, character = 8 } }
    local r = request_sync(client, buf, "textDocument/hover", params)
    H.eq(r.contents.kind, "markdown", "contents kind")
    local md = vim.lsp.util.convert_input_to_markdown_lines(r.contents)
    H.eq({ unpack(md, 1, 7) }, {
      "**Ascend replacement:** `torch.npu.synchronize` (confidence High, fix safe)",
      "",
      "### ASC201 torch-cuda-api",
      "",
      "**torch.cuda API with a torch.npu equivalent**",
      "",
      "存在 torch.npu 对应接口的 torch.cuda API",
    }, "first hover lines")
    for i, l in ipairs(md) do
      H.eq(l:find("<br>", 1, true), nil, "HTML break in hover line " .. i .. ": " .. l)
    end
  end)

  H.check("the preferred quick fix from textDocument/codeAction, applied with apply_workspace_edit", function()
    local d = vim.diagnostic.get(buf, { lnum = 12 })[1]
    local lspd = d.user_data and d.user_data.lsp or nil
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = 12, character = 4 }, ["end"] = { line = 12, character = 23 } },
      context = { diagnostics = { lspd } },
    }
    local actions = request_sync(client, buf, "textDocument/codeAction", params)
    local titles = {}
    local preferred
    for _, a in ipairs(actions) do
      table.insert(titles, a.kind .. ": " .. a.title .. (a.isPreferred and " (preferred)" or ""))
      if a.isPreferred then
        preferred = preferred or a
      end
    end
    H.eq(titles, {
      "quickfix: Replace with torch.npu.synchronize (preferred)",
      "quickfix: Disable ASC201 for this line",
      "source.fixAll.ascend: Fix all safe Ascend migration issues",
    }, "code actions")
    vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding)
    H.eq(lines(buf), concat(FIXTURE_HEAD, {
      "from torch import cuda",
      "",
      "",
      "def step(model, batch):",
      '    device = torch.device("cuda:0")',
      "    model = model.cuda()",
      "    batch = batch.to(device)",
      "    loss = model(batch).sum()",
      "    loss.backward()",
      "    th.npu.synchronize()",
      "    cuda.utilization()",
      "    return loss",
    }), "buffer after the quick fix")
  end)

  H.check("diagnostics follow the edit (incremental sync)", function()
    local want = { "8:26-8:34 ASC204", "9:18-9:24 ASC203", "14:4-14:20 ASC201" }
    local ok = vim.wait(WAIT, function()
      return vim.deep_equal(diags(buf), want)
    end, 20)
    H.eq(ok and want or diags(buf), want, "diagnostics after the edit")
  end)

  H.check(":AscendFixAll applies every remaining safe fix to the buffer", function()
    vim.cmd("AscendFixAll")
    local want = concat(FIXTURE_HEAD, {
      "from torch import npu as cuda",
      "",
      "",
      "def step(model, batch):",
      '    device = torch.device("npu:0")',
      "    model = model.npu()",
      "    batch = batch.to(device)",
      "    loss = model(batch).sum()",
      "    loss.backward()",
      "    th.npu.synchronize()",
      "    cuda.utilization()",
      "    return loss",
    })
    local ok = vim.wait(WAIT, function()
      return vim.deep_equal(lines(buf), want)
    end, 20)
    H.eq(ok and want or lines(buf), want, "buffer after :AscendFixAll")
    H.wait(WAIT, function()
      return #vim.diagnostic.get(buf) == 0
    end, "the diagnostics to clear")
  end)

  H.check(":AscendReport writes the report at the project root and opens it", function()
    vim.cmd("write")
    local report = ROOT .. "/ascend-migration-report.md"
    vim.cmd("AscendReport")
    H.wait(30000, function()
      return #errors() > 0 or (vim.fn.bufnr(report) ~= -1 and vim.fn.bufwinnr(vim.fn.bufnr(report)) ~= -1)
    end, "the report to open in a window")
    H.eq(errors(), {}, "errors reported")
    H.truthy(vim.fn.filereadable(report) == 1, "report file readable")
    local first = vim.fn.readfile(report, "", 1)[1] or ""
    H.truthy(first:match("^# "), "first line '" .. first .. "' starts with '# '")
    H.eq(vim.api.nvim_buf_get_lines(vim.fn.bufnr(report), 0, 1, false)[1], first, "report buffer's first line")
  end)

  H.check(":AscendReport leaves the cursor in the source; :AscendFixAll in the report fixes the source", function()
    local report = vim.fn.bufnr(ROOT .. "/ascend-migration-report.md")
    H.eq(vim.api.nvim_get_current_buf(), buf, "current buffer after :AscendReport")
    vim.api.nvim_buf_set_lines(buf, -1, -1, false, { "th.cuda.synchronize()" })
    vim.api.nvim_set_current_win(vim.fn.bufwinid(report))
    vim.cmd("AscendFixAll")
    H.wait(WAIT, function()
      return #errors() > 0 or lines(buf)[#lines(buf)] == "th.npu.synchronize()"
    end, "the fix in the source")
    H.eq(errors(), {}, "errors reported")
    vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
    vim.cmd("write")
    vim.cmd("only")
  end)

  H.check("requirements.txt gets filetype requirements and the project's client", function()
    vim.cmd("edit " .. vim.fn.fnameescape(ROOT .. "/requirements.txt"))
    local rbuf = vim.api.nvim_get_current_buf()
    H.eq(vim.bo[rbuf].filetype, "requirements", "filetype")
    H.wait(WAIT, function()
      return #ascend.clients(rbuf) == 1
    end, "the client to attach")
    H.eq(ascend.clients(rbuf)[1].id, client.id, "same client as train.py")
    H.eq(#ascend.clients(nil), 1, "clients running")
    H.wait(WAIT, function()
      return #vim.diagnostic.get(rbuf) == 4
    end, "4 diagnostics")
    H.eq(diags(rbuf), { "0:18-0:56 ASC106", "1:0-1:18 ASC105", "2:0-2:11 ASC104", "3:0-3:17 ASC101" }, "diagnostics")
  end)

  H.check("a CUDA file (filetype cuda) is served too", function()
    vim.cmd("edit " .. vim.fn.fnameescape(ROOT .. "/csrc/add.cu"))
    local cbuf = vim.api.nvim_get_current_buf()
    H.eq(vim.bo[cbuf].filetype, "cuda", "filetype")
    H.wait(WAIT, function()
      return #vim.diagnostic.get(cbuf) == 1
    end, "1 diagnostic")
    -- the launch, the header and the runtime calls of a kernel file are sites of its kernel finding
    H.eq(diags(cbuf), {
      "2:16-2:19 ASC401",
    }, "diagnostics")
    H.eq(ascend.clients(cbuf)[1].id, client.id, "same client as train.py")
  end)

  H.check("setup{settings=…} reaches the server: ignored codes are not reported", function()
    ascend.setup({ cmd = ascend.config.cmd, settings = { ["ascend-lsp"] = { ignore = { "ASC203", "ASC204" } } } })
    -- Another project, so another client started with the new settings.
    vim.fn.mkdir(WORK .. "/other", "p")
    vim.fn.writefile({}, WORK .. "/other/pyproject.toml")
    vim.fn.writefile(vim.fn.readfile(os.getenv("ASCEND_REPO") .. "/tests/editors/fixtures/project/train.py"), WORK .. "/other/train.py")
    vim.cmd("edit " .. vim.fn.fnameescape(WORK .. "/other/train.py"))
    local obuf = vim.api.nvim_get_current_buf()
    H.wait(WAIT, function()
      return #vim.diagnostic.get(obuf) == 2
    end, "2 diagnostics")
    H.eq(diags(obuf), { "12:4-12:23 ASC201", "13:4-13:20 ASC201" }, "diagnostics with ASC203/ASC204 ignored")
    local c = ascend.clients(obuf)[1]
    H.eq(c.config.root_dir, WORK .. "/other", "root_dir")
    H.eq(c.config.init_options, { ignore = { "ASC203", "ASC204" } }, "init_options")
    H.eq(#ascend.clients(nil), 2, "one client per project")
  end)

  H.check("a file outside any project gets a single-file root", function()
    vim.fn.mkdir(WORK .. "/loose", "p")
    vim.fn.writefile({ "import torch", "torch.cuda.synchronize()" }, WORK .. "/loose/snippet.py")
    H.eq(ascend.find_root(WORK .. "/loose/snippet.py", { "pyproject.toml" }), nil, "no marker above")
    vim.cmd("edit " .. vim.fn.fnameescape(WORK .. "/loose/snippet.py"))
    local lbuf = vim.api.nvim_get_current_buf()
    H.wait(WAIT, function()
      return #vim.diagnostic.get(lbuf) == 1
    end, "1 diagnostic")
    H.eq(diags(lbuf), { "1:0-1:22 ASC201" }, "diagnostics")
    H.eq(ascend.clients(lbuf)[1].config.root_dir, WORK .. "/loose", "root_dir")
  end)
end)
