
local host = ...
local check_trip, charge, refuse_binary, guard_pattern, log_line, check_source =
  host.check_trip, host.charge, host.refuse_binary, host.guard_pattern, host.log,
  host.check_source
local format_has_pointer = host.format_has_pointer
local type, select, error, rawget, getmetatable, tointeger, maxinteger =
  type, select, error, rawget, getmetatable, math.tointeger, math.maxinteger
-- Originals used by the wrappers themselves, on text they control or with plain search.
local raw_match, raw_find, raw_tostring = string.match, string.find, tostring

-- Results up to this many bytes (or values) are paid for by the call instruction itself.
local BIG = 4096

local function pass(...) return ... end

local function charged(s)
  if #s > BIG then charge(#s) end
  return s
end

local function charged_count(...)
  local n = select("#", ...)
  if n > BIG then charge(n * 16) end
  return ...
end

local function charge_input(s)
  if type(s) == "string" and #s > BIG then charge(#s) end
end

-- An exhausted budget or deadline is raised again as soon as a protected call returns.
local function after_protected(...)
  check_trip()
  return ...
end

do
  local pcall, xpcall = pcall, xpcall
  _ENV.pcall = function(...) return after_protected(pcall(...)) end
  -- Lua calls the message handler where the error is raised. For a trip that is inside the
  -- count hook, where hooks are off: the script's handler must never run there.
  _ENV.xpcall = function(f, handler, ...)
    if type(handler) ~= "function" then
      error("bad argument #2 to 'xpcall' (function expected, got " ..
        (handler == nil and "no value" or type(handler)) .. ")", 2)
    end
    local function guarded_handler(e)
      check_trip()
      return handler(e)
    end
    return after_protected(xpcall(f, guarded_handler, ...))
  end
end

-- Text without addresses, which change from run to run.
local function describe(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" or t == "nil" then
    return raw_tostring(v)
  end
  local s = raw_tostring(v)
  -- Only Lua's own `kind: 0x...` is short; a long text came from __tostring.
  if #s > 80 then return s end
  return raw_match(s, "^(.*): 0x%x+$") or s
end

do
  _ENV.tostring = function(...)
    if select("#", ...) == 0 then
      error("bad argument #1 to 'tostring' (value expected)", 2)
    end
    return describe((...))
  end
end

do
  local concat = table.concat
  _ENV.print = function(...)
    local parts = {}
    for i = 1, select("#", ...) do
      parts[i] = describe((select(i, ...)))
    end
    log_line(concat(parts, "\t"))
  end
end

do
  local setmetatable = setmetatable
  _ENV.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc metamethods are not allowed in the sandbox (finalizers run " ..
        "outside the instruction budget); release resources explicitly instead", 2)
    end
    return (setmetatable(t, mt))
  end
end

do
  local collectgarbage = collectgarbage
  _ENV.collectgarbage = function(option)
    if option == "count" then
      return (collectgarbage("count"))
    end
    local shown = type(option) == "string" and ("%q"):format(option) or describe(option)
    error("collectgarbage(" .. shown .. ") is not allowed in the sandbox; only " ..
      "collectgarbage(\"count\") is (the host manages memory)", 2)
  end
end

do
  local load, byte, concat = load, string.byte, table.concat
  _ENV.load = function(chunk, chunkname, mode, ...)
    if type(chunk) == "function" then
      -- Read it all here: Lua would call the reader in protected mode (swallowing a trip),
      -- and the whole text must be checked before it is compiled.
      local pieces, n = {}, 0
      while true do
        local piece = chunk()
        if piece == nil or piece == "" then break end
        if type(piece) ~= "string" then
          return nil, "reader function must return a string"
        end
        n = n + 1
        pieces[n] = piece
      end
      chunk = concat(pieces)
    end
    if type(chunk) == "string" then
      if byte(chunk, 1) == 27 then refuse_binary() end
      charge_input(chunk)
      local refused = check_source(chunk, type(chunkname) == "string" and chunkname or nil)
      if refused then return nil, refused end
    end
    if select("#", ...) > 0 then
      return after_protected(load(chunk, chunkname, "t", (...)))
    end
    return after_protected(load(chunk, chunkname, "t"))
  end
end

do
  local tonumber = tonumber
  _ENV.tonumber = function(v, ...)
    charge_input(v)
    return pass(tonumber(v, ...))
  end
end

-- Deterministic traversal: Lua seeds string hashes from the clock, so raw `next` order
-- changes from run to run. Keys are visited as numbers (ascending), strings (ascending),
-- false, true, then other keys in raw order. The keys are distinct, so Lua's sort (whatever
-- pivots it picks) has only one possible result.
do
  local next, pairs, sort, rawequal = next, pairs, table.sort, rawequal

  local function sorted_keys(t)
    local keys, strings, others = {}, {}, nil
    local n, n_strings, n_others, has_false, has_true = 0, 0, 0, false, false
    for k in next, t do
      local kind = type(k)
      if kind == "number" then
        n = n + 1; keys[n] = k
      elseif kind == "string" then
        n_strings = n_strings + 1; strings[n_strings] = k
      elseif k == false then
        has_false = true
      elseif k == true then
        has_true = true
      else
        others = others or {}
        n_others = n_others + 1; others[n_others] = k
      end
    end
    sort(keys)
    sort(strings)
    for i = 1, n_strings do n = n + 1; keys[n] = strings[i] end
    if has_false then n = n + 1; keys[n] = false end
    if has_true then n = n + 1; keys[n] = true end
    for i = 1, n_others do n = n + 1; keys[n] = others[i] end
    return keys
  end

  -- Sorting is most of the cost, so the sorted keys of each table are kept (weakly) and
  -- reused while the table still has exactly those keys: as many keys, all still present.
  local sorted_cache = setmetatable({}, { __mode = "k" })
  local function ordered_keys(t)
    local keys = sorted_cache[t]
    if keys ~= nil then
      local count = 0
      for _ in next, t do count = count + 1 end
      if count == #keys then
        for i = 1, count do
          if rawget(t, keys[i]) == nil then
            count = -1
            break
          end
        end
        if count >= 0 then return keys end
      end
    end
    keys = sorted_keys(t)
    sorted_cache[t] = keys
    return keys
  end

  local function check(t, name)
    if type(t) ~= "table" then
      error("bad argument #1 to '" .. name .. "' (table expected, got " ..
        (t == nil and "no value" or type(t)) .. ")", 3)
    end
  end

  _ENV.pairs = function(t)
    if type(t) == "table" then
      local mt = getmetatable(t)
      if not (type(mt) == "table" and rawget(mt, "__pairs") ~= nil) then
        local keys, i = ordered_keys(t), 0
        return function()
          while true do
            i = i + 1
            local k = keys[i]
            if k == nil then return nil end
            local v = rawget(t, k)
            if v ~= nil then return k, v end
          end
        end, t, nil
      end
    end
    return pass(pairs(t))
  end

  -- `next` remembers the last table it walked, so `for k, v in next, t` sorts once.
  local walked, walked_keys, walked_at = nil, nil, 0

  local function first_key(t)
    local number, string, has_false, has_true, other
    for k in next, t do
      local kind = type(k)
      if kind == "number" then
        if number == nil or k < number then number = k end
      elseif kind == "string" then
        if string == nil or k < string then string = k end
      elseif k == false then
        has_false = true
      elseif k == true then
        has_true = true
      elseif other == nil then
        other = k
      end
    end
    if number ~= nil then return number end
    if string ~= nil then return string end
    if has_false then return false end
    if has_true then return true end
    return other
  end

  _ENV.next = function(t, k)
    check(t, "next")
    if k == nil then
      local first = first_key(t)
      if first == nil then return nil end
      return first, rawget(t, first)
    end
    if walked ~= t or not rawequal(walked_keys[walked_at], k) then
      walked, walked_keys, walked_at = t, ordered_keys(t), nil
      for i = 1, #walked_keys do
        if rawequal(walked_keys[i], k) then walked_at = i; break end
      end
      if walked_at == nil then
        walked = nil
        error("invalid key to 'next'", 2)
      end
    end
    while true do
      walked_at = walked_at + 1
      local nk = walked_keys[walked_at]
      if nk == nil then return nil end
      local v = rawget(t, nk)
      if v ~= nil then return nk, v end
    end
  end
end

-- Patterns: the Rust guard bounds the worst case before the C matcher runs.
do
  local find = string.find
  function string.find(s, pattern, init, plain)
    guard_pattern(1, s, pattern, init, plain)
    return pass(find(s, pattern, init, plain))
  end
end
do
  local match = string.match
  function string.match(s, pattern, init)
    guard_pattern(2, s, pattern, init, nil)
    return pass(match(s, pattern, init))
  end
end
do
  local gmatch = string.gmatch
  function string.gmatch(s, pattern, init)
    guard_pattern(3, s, pattern, init, nil)
    return pass(gmatch(s, pattern, init))
  end
end
do
  local gsub = string.gsub
  function string.gsub(s, pattern, repl, n)
    guard_pattern(4, s, pattern, nil, nil)
    local result, count = gsub(s, pattern, repl, n)
    return charged(result), count
  end
end

-- String functions whose work grows with their result are charged for big results.
do
  local rep = string.rep
  function string.rep(...) return charged(rep(...)) end
end
do
  local sub = string.sub
  function string.sub(...) return charged(sub(...)) end
end
do
  local upper = string.upper
  function string.upper(...) return charged(upper(...)) end
end
do
  local lower = string.lower
  function string.lower(...) return charged(lower(...)) end
end
do
  local reverse = string.reverse
  function string.reverse(...) return charged(reverse(...)) end
end
do
  local char = string.char
  function string.char(...) return charged(char(...)) end
end
do
  local pack = string.pack
  function string.pack(...) return charged(pack(...)) end
end
do
  local byte = string.byte
  function string.byte(...) return charged_count(byte(...)) end
end
do
  local unpack = string.unpack
  function string.unpack(fmt, s, ...)
    charge_input(s)
    return pass(unpack(fmt, s, ...))
  end
end
do
  local format, unpack = string.format, table.unpack
  local function object(v)
    local t = type(v)
    return t == "table" or t == "function" or t == "userdata" or t == "thread"
  end
  function string.format(fmt, ...)
    if type(fmt) == "string" and raw_find(fmt, "p", 1, true) and format_has_pointer(fmt) then
      error("bad argument #1 to 'format' (%p shows an address, which changes from run " ..
        "to run; the sandbox does not allow it)", 2)
    end
    local n = select("#", ...)
    for i = 1, n do
      if object((select(i, ...))) then
        local args = { ... }
        for j = i, n do
          if object(args[j]) then args[j] = describe(args[j]) end
        end
        return charged(format(fmt, unpack(args, 1, n)))
      end
    end
    return charged(format(fmt, ...))
  end
end

do
  local char, codepoint, len, offset = utf8.char, utf8.codepoint, utf8.len, utf8.offset
  function utf8.char(...) return charged(char(...)) end
  function utf8.codepoint(...) return charged_count(codepoint(...)) end
  function utf8.len(s, ...)
    charge_input(s)
    return pass(len(s, ...))
  end
  function utf8.offset(s, ...)
    charge_input(s)
    return pass(offset(s, ...))
  end
end

-- Tables: the C versions loop as far as #t or their arguments say without a hook tick;
-- these loops are Lua, so every step is counted.
do
  local concat, unpack = table.concat, table.unpack
  function table.concat(...) return charged(concat(...)) end
  function table.unpack(...) return charged_count(unpack(...)) end
end

local function check_table(t, position, name)
  local kind = type(t)
  if kind ~= "table" and kind ~= "userdata" then
    error("bad argument #" .. position .. " to '" .. name .. "' (table expected, got " ..
      (kind == "nil" and "no value" or kind) .. ")", 3)
  end
end

local function check_integer(v, position, name)
  local i = tointeger(v)
  if i == nil then
    local kind = type(v)
    error("bad argument #" .. position .. " to '" .. name .. "' (" ..
      (kind == "number" and "number has no integer representation" or
       "number expected, got " .. (kind == "nil" and "no value" or kind)) .. ")", 3)
  end
  return i
end

function table.insert(t, ...)
  check_table(t, 1, "insert")
  local e = #t + 1
  local n = select("#", ...)
  if n == 1 then
    t[e] = ...
    return
  elseif n ~= 2 then
    error("wrong number of arguments to 'insert'", 2)
  end
  local pos, value = ...
  pos = check_integer(pos, 2, "insert")
  if pos < 1 or pos > e then
    error("bad argument #2 to 'insert' (position out of bounds)", 2)
  end
  for i = e, pos + 1, -1 do
    t[i] = t[i - 1]
  end
  t[pos] = value
end

function table.remove(t, pos)
  check_table(t, 1, "remove")
  local size = #t
  if pos == nil then
    pos = size
  else
    pos = check_integer(pos, 2, "remove")
    if pos ~= size and (pos < 1 or pos > size + 1) then
      error("bad argument #2 to 'remove' (position out of bounds)", 2)
    end
  end
  local result = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return result
end

function table.move(a1, f, e, t, a2)
  f = check_integer(f, 2, "move")
  e = check_integer(e, 3, "move")
  t = check_integer(t, 4, "move")
  if a2 == nil then a2 = a1 end
  check_table(a1, 1, "move")
  check_table(a2, 5, "move")
  if e >= f then
    if not (f > 0 or e < maxinteger + f) then
      error("bad argument #3 to 'move' (too many elements to move)", 2)
    end
    local n = e - f + 1
    if t > maxinteger - n + 1 then
      error("bad argument #4 to 'move' (destination wrap around)", 2)
    end
    if t > e or t <= f or a1 ~= a2 then
      for i = 0, n - 1 do
        a2[t + i] = a1[f + i]
      end
    else
      for i = n - 1, 0, -1 do
        a2[t + i] = a1[f + i]
      end
    end
  end
  return a2
end

do
  local sort = table.sort
  local function less(a, b) return a < b end
  -- Stable bottom-up merge sort: deterministic whatever the comparator says.
  local function merge_sort(t, n, lt)
    local a, b = {}, {}
    for i = 1, n do a[i] = t[i] end
    local width = 1
    while width < n do
      local lo = 1
      while lo <= n do
        local mid = lo + width
        if mid > n + 1 then mid = n + 1 end
        local hi = mid + width
        if hi > n + 1 then hi = n + 1 end
        local l, r, k = lo, mid, lo
        while l < mid and r < hi do
          if lt(a[r], a[l]) then
            b[k] = a[r]; r = r + 1
          else
            b[k] = a[l]; l = l + 1
          end
          k = k + 1
        end
        while l < mid do b[k] = a[l]; l = l + 1; k = k + 1 end
        while r < hi do b[k] = a[r]; r = r + 1; k = k + 1 end
        lo = hi
      end
      a, b = b, a
      width = width * 2
    end
    for i = 1, n do t[i] = a[i] end
  end
  function table.sort(t, lt)
    check_table(t, 1, "sort")
    if lt ~= nil and type(lt) ~= "function" then
      error("bad argument #2 to 'sort' (function expected, got " .. type(lt) .. ")", 2)
    end
    local n = #t
    -- Lua's own sort only randomizes pivots above 100 elements.
    if n <= 100 and type(t) == "table" and getmetatable(t) == nil then
      sort(t, lt)
      return
    end
    merge_sort(t, n, lt or less)
  end
end

getmetatable("").__metatable = false
