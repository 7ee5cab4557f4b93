-- A small test harness for headless Neovim: each check is run protected,
-- results are written as "ok - name" / "not ok - name" lines followed by
-- "# pass N" and "# fail N" to $ASCEND_RESULTS, then Neovim quits.
local H = { results = {}, pass = 0, fail = 0 }

-- The error and the test-file lines of its traceback.
local function trace(err)
  local out = { tostring(err) }
  for l in debug.traceback("", 2):gmatch("[^\n]+") do
    if l:match("tests/editors/nvim/test_") then
      table.insert(out, l)
    end
  end
  return table.concat(out, "\n")
end

function H.check(name, fn)
  local ok, err = xpcall(fn, trace)
  if ok then
    H.pass = H.pass + 1
    table.insert(H.results, "ok - " .. name)
  else
    H.fail = H.fail + 1
    table.insert(H.results, "not ok - " .. name .. "\n    " .. tostring(err):gsub("\n", "\n    "))
  end
  return ok
end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(string.format("%s:\n  expected %s\n  got      %s", what or "value", vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function H.truthy(v, what)
  if not v then
    error((what or "condition") .. " is false", 2)
  end
  return v
end

-- vim.wait that fails the check with `what` on timeout.
function H.wait(ms, pred, what)
  local ok = vim.wait(ms, pred, 20)
  if not ok then
    error("timed out after " .. ms .. " ms waiting for " .. what, 2)
  end
end

function H.finish()
  local f = assert(io.open(assert(os.getenv("ASCEND_RESULTS"), "ASCEND_RESULTS"), "w"))
  for _, r in ipairs(H.results) do
    f:write(r, "\n")
  end
  f:write(string.format("# pass %d\n# fail %d\n", H.pass, H.fail))
  f:close()
  vim.cmd("qa!")
end

-- Runs body(H) and always finishes, even when the body itself errors.
function H.run(body)
  local ok, err = xpcall(body, debug.traceback, H)
  if not ok then
    H.fail = H.fail + 1
    table.insert(H.results, "not ok - test script error\n    " .. tostring(err):gsub("\n", "\n    "))
  end
  H.finish()
end

return H
