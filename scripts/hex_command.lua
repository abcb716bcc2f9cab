-- Hex Command (gunpowder): what the ruleset's data cannot say.
--
-- Requests made through `game` are applied after a hook returns, and reads see the game
-- as the call began, so each call keeps a small ledger (`Ledger`) of what it has already
-- asked for: hits added, places taken, units removed.

local M = {}

local UNIT_KINDS = {
  infantry = true, light_infantry = true, skirmishers = true, cavalry = true,
  mounted_infantry = true, artillery = true, wagon = true,
}
local COVER_FORT = 2

local function is_unit(game, u)
  return UNIT_KINDS[game:kind(u)] == true
end

local function commander_of(game, u)
  for _, a in ipairs(game:attached(u)) do
    if game:kind(a) == "commander" then
      return a
    end
  end
  return nil
end

local function enemy_side(game, side)
  for _, u in ipairs(game:units()) do
    if game:side(u) ~= side then
      return game:side(u)
    end
  end
  return nil
end

-- The ledger of one hook call ------------------------------------------------------------

local Ledger = {}
Ledger.__index = Ledger

local function ledger(game)
  return setmetatable({ game = game, delta = {}, flags = {}, at = {}, gone = {} }, Ledger)
end

function Ledger:key(u, name)
  return tostring(u:id()) .. ":" .. name
end

function Ledger:counter(u, name)
  return self.game:counter(u, name) + (self.delta[self:key(u, name)] or 0)
end

function Ledger:add(u, name, n)
  if self.gone[u:id()] or n == 0 then
    return
  end
  self.delta[self:key(u, name)] = (self.delta[self:key(u, name)] or 0) + n
  self.game:add_counter(u, name, n)
end

function Ledger:flag(u, name)
  local k = self:key(u, name)
  if self.flags[k] ~= nil then
    return self.flags[k]
  end
  return self.game:flag(u, name)
end

function Ledger:set(u, name, on)
  if self.gone[u:id()] then
    return
  end
  if on == nil then
    on = true
  end
  self.flags[self:key(u, name)] = on
  self.game:set_flag(u, name, on)
end

function Ledger:remove(u, reason)
  if self.gone[u:id()] then
    return
  end
  self.gone[u:id()] = true
  self.game:remove(u, reason)
  for _, a in ipairs(self.game:attached(u)) do
    if self.game:kind(a) == "commander" then
      self.gone[a:id()] = true
      self.game:remove(a, "commander captured: his unit was destroyed")
    end
  end
end

function Ledger:cell(u)
  local moved = self.at[u:id()]
  if moved then
    return moved[1], moved[2]
  end
  return self.game:cell(u)
end

-- The unit standing in a cell, as this call has left things.
function Ledger:occupant(col, row)
  for _, u in ipairs(self.game:units()) do
    if not self.gone[u:id()] and is_unit(self.game, u) then
      local c, r = self:cell(u)
      if c == col and r == row then
        return u
      end
    end
  end
  return nil
end

-- A unit put elsewhere by force (a rout, a withdrawal, an advance) has been "forced to
-- move": it recovers no TE hit this turn.
function Ledger:place(u, col, row, reason)
  self.at[u:id()] = { col, row }
  self.game:place(u, col, row, reason)
  self:set(u, "disturbed", true)
end

-- Hits, routs and destruction ---------------------------------------------------------------

local function rout_limit(game, u)
  if game:attribute(u, "rare") > 0 then
    return 4
  end
  return 3
end

local function rout_distance(game, u)
  local kind = game:kind(u)
  if kind == "cavalry" or kind == "artillery" or kind == "mounted_infantry" then
    return 4
  end
  return 3
end

-- Moves a unit `steps` hexes in direction `dir`: through one friend into an empty hex
-- beyond (the friend takes a TE hit), destroyed by enemies, enemy zones and a crowded
-- passage; off the board it is lost; at impassable ground it stops.
local function fall_back(L, u, dir, steps, why)
  local game = L.game
  local side = game:side(u)
  local foe = enemy_side(game, side)
  local col, row = L:cell(u)
  local start_col, start_row = col, row
  local kind = game:kind(u)
  local i = 0
  while i < steps do
    local nc, nr = game:neighbour(col, row, dir)
    if nc == nil then
      L:remove(u, why .. ": left the field")
      return
    end
    if game:terrain(nc, nr) == "lake" then
      break
    end
    local there = L:occupant(nc, nr)
    if there ~= nil and game:side(there) ~= side then
      L:remove(u, why .. ": ran into the enemy and was destroyed")
      return
    end
    if foe ~= nil and game:zoc(nc, nr, foe) ~= nil then
      L:remove(u, why .. ": fell back into an enemy zone of control and was destroyed")
      return
    end
    if there ~= nil then
      -- Through one friend only, never cavalry through artillery, to an empty hex beyond.
      local bc, br = game:neighbour(nc, nr, dir)
      local blocked = bc == nil or L:occupant(bc, br) ~= nil or game:terrain(bc, br) == "lake"
        or (kind == "cavalry" and game:kind(there) == "artillery")
        or (foe ~= nil and bc ~= nil and game:zoc(bc, br, foe) ~= nil)
      if blocked then
        L:remove(u, why .. ": no room behind " .. game:name(there) .. "; destroyed")
        return
      end
      L:add(there, "te", 1)
      col, row = bc, br
      i = i + 2
    else
      col, row = nc, nr
      i = i + 1
    end
  end
  if col ~= start_col or row ~= start_row then
    L:place(u, col, row, why)
  end
end

local function rout(L, u)
  local game = L.game
  L:set(u, "routed", true)
  L:set(u, "in_melee", false)
  for _, a in ipairs(game:attached(u)) do
    if game:kind(a) == "commander" then
      L.gone[a:id()] = true
      game:remove(a, "commander captured: his unit routed")
      L:set(u, "lost_commander", true)
    end
  end
  local back = game:turned(game:facing(u), 3)
  game:face(u, back)
  fall_back(L, u, back, rout_distance(game, u), "routed")
end

-- `n` casualty hits on `u`: a routed unit hit again is destroyed; enough hits rout it.
local function hit(L, u, n)
  local game = L.game
  if n <= 0 or L.gone[u:id()] then
    return
  end
  if L:flag(u, "routed") then
    L:remove(u, "a routed unit was hit again: destroyed")
    return
  end
  local before = L:counter(u, "hits")
  L:add(u, "hits", n)
  if before < rout_limit(game, u) and before + n >= rout_limit(game, u) then
    rout(L, u)
  end
end

-- `n` TE (disorder/fatigue) hits; a fatigued unit in melee takes a casualty hit for each.
local function te_hit(L, u, n, in_melee)
  for _ = 1, n do
    if L:counter(u, "te") >= 3 then
      if in_melee then
        hit(L, u, 1)
      end
    else
      L:add(u, "te", 1)
    end
  end
end

-- Movement -------------------------------------------------------------------------------

-- Horse and guns may enter forest only along a road (the data's +4 is what a step off the
-- road costs); pushed guns (unlimbered) move only onto clear ground and over no stream.
function M.move_cost(kind, mode, terrain, cost, diagonal)
  if cost == nil then
    return nil
  end
  if (kind == "cavalry" or kind == "mounted_infantry") and mode == "formed" and terrain == "forest" and cost > 1 then
    return nil
  end
  if kind == "artillery" and terrain == "forest" and cost > 1 then
    return nil
  end
  if kind == "artillery" and mode == "unlimbered" and (terrain ~= "clear" or cost > 1) then
    return nil
  end
  return cost
end

local function has(list, name)
  for _, x in ipairs(list) do
    if x == name then
      return true
    end
  end
  return false
end

local function exempt_from_obstacles(game, u)
  if not game:option("command_sphere") then
    return false
  end
  if commander_of(game, u) ~= nil then
    return true
  end
  local col, row = game:cell(u)
  for _, c in ipairs(game:units(game:side(u))) do
    if game:kind(c) == "commander" and game:host(c) ~= nil then
      local hc, hr = game:cell(c)
      for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
        local nc, nr = game:neighbour(hc, hr, d)
        if nc == col and nr == row then
          return true
        end
      end
    end
  end
  return false
end

-- After a move: TE hits for obstacles crossed (not on the first step: the unit started at
-- it), buildings entered, friends passed through, guns pushed, and forest entered
-- (optional disorder rule). The ruleset's data already refused what may not move (routed,
-- halted, dug in: `pinned_by`; fatigued: `slowed_by`), steps out of the front hexes and
-- paths the facing changes left no points for (`turning`).
function M.moved(game, u, path, facing)
  local L = ledger(game)
  local name = game:name(u)
  if not is_unit(game, u) then
    return
  end
  local steps = #path - 1
  L:add(u, "steps_moved", steps)
  if game:counter(u, "works") > 0 then
    L:add(u, "works", -game:counter(u, "works"))
    game:note(name .. " leaves its works behind")
  end
  local exempt = exempt_from_obstacles(game, u)
  local te = 0
  local kind = game:kind(u)
  local road = false
  for i = 2, #path do
    local a, b = path[i - 1], path[i]
    local feats = game:features(a.col, a.row, b.col, b.row)
    road = has(feats, "road")
    local obstacle = (has(feats, "stream") or has(feats, "wall")) and not has(feats, "bridge")
    if obstacle and not road and i > 2 and not exempt then
      te = te + 1
    end
    local into = game:terrain(b.col, b.row)
    if into == "buildings" and not road then
      te = te + 1
    end
    if into == "forest" and not road and game:option("disorder_fatigue")
        and game:terrain(a.col, a.row) ~= "forest" then
      te = te + 1
    end
    if i < #path then
      local friend = L:occupant(b.col, b.row)
      if friend ~= nil and friend ~= u then
        te = te + 1
        te_hit(L, friend, 1, false)
      end
    end
    if kind == "cavalry" and game:mode(u) == "formed" and game:terrain(a.col, a.row) == "forest"
        and not road then
      game:set_mode(u, "dismounted")
      game:note(name .. " left the forest off the road and is dismounted")
    end
  end
  if kind == "artillery" and game:mode(u) == "unlimbered" then
    te = te + 1
  end
  te_hit(L, u, te, false)
  -- 5.5.1: a unit whose move ended along a road stands in column on it (counted flanked)
  -- until it deploys or moves off the road.
  if road ~= game:flag(u, "on_road") then
    L:set(u, "on_road", road)
  end
end

-- 5.5.1c: a unit in column on a road deploys astride it, disordered (a TE hit), so it is
-- no longer counted flanked.
function M.deploy(game, actor)
  if not game:flag(actor, "on_road") then
    error(game:name(actor) .. " is not in column on a road")
  end
  local L = ledger(game)
  L:set(actor, "on_road", false)
  te_hit(L, actor, 1, false)
end

-- A facing change: not in melee, routed, halted or (optional disorder rule) fatigued.
-- The ruleset's `turning` data counts it (once a turn, cavalry twice) and charges its
-- point before a move; after a move it needs a point left over.
function M.faced(game, u, before)
  if not is_unit(game, u) then
    return
  end
  local name = game:name(u)
  if game:flag(u, "in_melee") then
    error(name .. " is in melee and cannot change facing")
  end
  if game:flag(u, "routed") then
    error(name .. " is routed: it faces the rear until rallied")
  end
  if game:flag(u, "halted") then
    error(name .. " is halted by a failed order change and cannot change facing")
  end
  if game:flag(u, "fatigued") and game:option("disorder_fatigue") then
    error(name .. " is fatigued and cannot change facing")
  end
  -- The count already includes this change.
  local allowance = game:allowance(u)
  if allowance ~= nil and game:moved(u)
      and game:counter(u, "steps_moved") + game:counter(u, "face_changes") > allowance then
    error(name .. " has no movement point left to change facing")
  end
end

-- Constructions: a turn's digging instead of moving; 4 turns make quick works, 6 a redoubt.
local QUICK_WORKS, REDOUBT = 4, 6

function M.dig(game, actor)
  if game:moved(actor) then
    error(game:name(actor) .. " has moved this turn and cannot dig in")
  end
  local works = game:counter(actor, "works") + 1
  game:add_counter(actor, "works", 1)
  game:set_flag(actor, "dug", true)
  if works == QUICK_WORKS then
    game:note(game:name(actor) .. " has built quick works (cover 1)")
  elseif works == REDOUBT then
    game:note(game:name(actor) .. " has built a redoubt (cover 2)")
  end
end

-- Cover of the works a unit has dug, on top of its terrain.
local function works_cover(game, u)
  local works = game:counter(u, "works")
  if works >= REDOUBT then
    return 2
  elseif works >= QUICK_WORKS then
    return 1
  end
  return 0
end

-- Commanders -----------------------------------------------------------------------------

local CVS_KEYS = { C = "cvs_c", M = "cvs_m", T = "cvs_t", A = "cvs_a", I = "cvs_i" }
local GRADES = { untrained = 0, trained = 1, veteran = 2 }

local function roll_cvs(game, c)
  local grade = game:resolve("cvs_grade", {}, "grade of " .. game:name(c))
  local traits = game:resolve("cvs_values", { grade = GRADES[grade] }, "CVS of " .. game:name(c))
  for letter, value in string.gmatch(traits, "(%a)(%d)") do
    local key = CVS_KEYS[letter]
    game:add_counter(c, key, tonumber(value) - game:counter(c, key))
  end
  game:note(game:name(c) .. " is " .. grade .. ": " .. traits)
end

function M.attach(game, actor, target)
  if not is_unit(game, target) then
    error("a commander attaches to a unit, not to " .. game:name(target))
  end
  if game:flag(target, "routed") then
    error("a commander cannot be attached to a routed unit until the end of the turn")
  end
  local other = commander_of(game, target)
  if other ~= nil and other ~= actor then
    error(game:name(target) .. " already has a commander (" .. game:name(other) .. ")")
  end
  game:attach(actor, target)
end

local FAILURE = {
  ["halt"] = { halt = true },
  ["halt and TE"] = { halt = true, te = true },
  ["fall back to cover"] = { about = true },
  ["fall back to cover and TE"] = { about = true, te = true },
  ["keep the original order and a hit"] = { hit = true },
  ["a hit to every unit"] = { hit = true },
}

-- Change orders: at most as many changes as the commander's Initiative; pass by rolling
-- higher than Tactical on a d10, or suffer the decision-failure table for his units.
function M.change_orders(game, actor)
  local L = ledger(game)
  local used = game:counter(actor, "order_changes")
  if used >= game:counter(actor, "cvs_i") then
    error(game:name(actor) .. " has used all " .. game:counter(actor, "cvs_i") .. " order changes")
  end
  L:add(actor, "order_changes", 1)
  local result = game:resolve("cvs_test", { trait = game:counter(actor, "cvs_t") },
    "order change by " .. game:name(actor))
  if result == "pass" then
    game:note(game:name(actor) .. "'s new orders are accepted")
    return
  end
  local failure = game:resolve("decision_failure", {}, "decision failure of " .. game:name(actor))
  game:note(game:name(actor) .. "'s order change fails: " .. failure)
  local what = FAILURE[failure] or {}
  for _, u in ipairs(game:units(game:side(actor))) do
    if is_unit(game, u) then
      if what.halt then
        L:set(u, "halted", true)
      end
      if what.te then
        te_hit(L, u, 1, false)
      end
      if what.hit then
        hit(L, u, 1)
      end
      if what.about and not L:flag(u, "routed") then
        game:face(u, game:turned(game:facing(u), 3))
      end
    end
  end
end

-- Break point note: when the supreme commander (attribute `supreme`) is killed, every unit
-- of his force rolls the cube at once; on red it withdraws two turns' distance (twice its
-- allowance) straight to its rear.
local function supreme_commander_lost(L, side)
  local game = L.game
  game:note(side .. "'s supreme commander is dead: every unit rolls for integrity")
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and not L.gone[u:id()] and not L:flag(u, "routed") then
      if game:resolve("integrity", {}, "integrity of " .. game:name(u) .. " (supreme commander killed)") == "withdraw" then
        local back = game:turned(game:facing(u), 3)
        fall_back(L, u, back, 2 * math.floor(game:allowance(u) or 0), "withdrew two turns' distance (supreme commander killed)")
      end
    end
  end
end

-- Fire -----------------------------------------------------------------------------------

local function fire_chart(game, u)
  local class = game:attribute(u, "class")
  if game:option("pike_and_shot") and class < 2 then
    class = 2
  end
  if game:kind(u) == "artillery" then
    if class == 1 then
      return "fire_artillery_a", "art"
    elseif class >= 3 then
      return "fire_artillery_c", "art"
    end
    return "fire_artillery_b", "art"
  end
  if game:attribute(u, "carbine") > 0 then
    return "fire_carbine", "small"
  elseif class == 1 then
    return "fire_small_a", "small"
  elseif class >= 3 then
    return "fire_small_c", "small"
  end
  return "fire_small_b", "small"
end

function M.fire(game, actor, target)
  local L = ledger(game)
  local name, tname = game:name(actor), game:name(target)
  local kind = game:kind(actor)
  if not is_unit(game, target) then
    error("commanders cannot be singled out as targets")
  end
  if kind == "mounted_infantry" and game:mode(actor) == "formed" and game:option("mounted_infantry_rules") then
    error(name .. " cannot fire while mounted")
  end
  if kind == "artillery" and game:mode(actor) ~= "unlimbered" then
    error(name .. " must unlimber to fire")
  end
  if game:option("unlimber_fires_next_turn") and game:flag(actor, "unlimbered_after_move") then
    error(name .. " moved and unlimbered this turn and fires next turn")
  end
  if (game:option("rate_of_fire") or game:option("pike_and_shot")) and game:flag(actor, "fired") then
    error(name .. " has already fired this turn")
  end
  if game:option("supply") and game:counter(actor, "supply") <= 0 then
    error(name .. " is out of supply")
  end
  local distance = math.floor(game:distance(actor, target))
  -- 7.2 (charts page): skirmishers alone may fire into a melee, at point blank and only
  -- before its second round; their hits are TE hits.
  local into_melee = false
  if game:flag(target, "in_melee") then
    if kind == "skirmishers" and distance == 1 and game:counter(target, "melee_rounds") <= 1 then
      into_melee = true
    elseif kind == "skirmishers" then
      error(name .. " may fire into a melee only at point blank and before its second round")
    else
      error("no firing into a melee (" .. tname .. " is in melee)")
    end
  end
  -- 3 (artillery): heavy guns cannot move and fire in the same turn.
  if game:attribute(actor, "heavy") > 0 and game:moved(actor) then
    error(name .. " is heavy artillery and has moved this turn: it cannot fire")
  end
  local arc = game:arc(actor, target)
  local out_of_arc = 0
  if arc ~= "front" then
    if distance == 1 and arc == "flank" then
      out_of_arc = 1
    else
      error(tname .. " is not in " .. name .. "'s front arc")
    end
  end
  local chart, arm = fire_chart(game, actor)
  local band = game:band(chart, "band", distance)
  -- The closest target first (7f): no enemy unit the firer can see in its front arc in a
  -- nearer band.
  for _, e in ipairs(game:units(game:side(target))) do
    if e ~= target and is_unit(game, e) and game:arc(actor, e) == "front" and game:sight(actor, e) then
      local d = math.floor(game:distance(actor, e))
      if game:band(chart, "band", d) < band then
        error(game:name(e) .. " is nearer and must be the target")
      end
    end
  end
  -- At most two units of one arm fire at one target in a phase.
  local first, second = "shot_" .. arm .. "_1", "shot_" .. arm .. "_2"
  if game:flag(target, second) then
    error("two " .. (arm == "art" and "batteries" or "units") .. " have already fired at " .. tname .. " this phase")
  elseif game:flag(target, first) then
    L:set(target, second, true)
  else
    L:set(target, first, true)
  end
  local tc, tr = game:cell(target)
  local cmd = commander_of(game, actor)
  local flank = game:arc(target, actor)
  local inputs = {
    band = band,
    firer_hits = game:counter(actor, "hits"),
    cover = game:terrain_attribute(tc, tr, "cover") + works_cover(game, target),
    flank = (flank == "flank" or flank == "rear" or game:flag(target, "on_road")) and 1 or 0,
    command = cmd and game:counter(cmd, "cvs_c") or 0,
    trained = game:attribute(actor, "trained") > 0 and 1 or 0,
    fatigued = game:flag(actor, "fatigued") and 1 or 0,
    out_of_arc = out_of_arc,
    unlimbered_after_move = game:flag(actor, "unlimbered_after_move") and 1 or 0,
  }
  local outcome, faces = game:resolve(chart, inputs, chart .. " by " .. name .. " at " .. tname)
  L:set(actor, "fired", true)
  if game:attribute(actor, "heavy") > 0 then
    L:set(actor, "emplaced", true)
  end
  if game:option("supply") then
    L:add(actor, "supply", -1)
  end
  if outcome ~= "hit" then
    return
  end
  local victim = commander_of(game, target)
  if faces[1] == "red star" and victim ~= nil then
    L.gone[victim:id()] = true
    game:remove(victim, "commander killed by a red-star hit; the unit takes no hit")
    L:set(target, "lost_commander", true)
    if game:attribute(victim, "supreme") > 0 then
      supreme_commander_lost(L, game:side(target))
    end
    return
  end
  if into_melee then
    te_hit(L, target, 1, true)
    return
  end
  -- Heavy artillery does double damage to units in the field.
  hit(L, target, game:attribute(actor, "heavy") > 0 and 2 or 1)
end

-- Melee ----------------------------------------------------------------------------------

local RESULTS = {
  ["both hit and defender TE"] = { a_hit = 1, d_hit = 1, d_te = 1 },
  ["attacker hit"] = { a_hit = 1 },
  ["defender hit"] = { d_hit = 1 },
  ["defender TE"] = { d_te = 1 },
  ["both hit"] = { a_hit = 1, d_hit = 1 },
  ["attacker hit and defender TE"] = { a_hit = 1, d_te = 1 },
  ["defender hit and attacker TE"] = { d_hit = 1, a_te = 1 },
  ["both TE"] = { a_te = 1, d_te = 1 },
  ["both hit and attacker TE"] = { a_hit = 1, d_hit = 1, a_te = 1 },
  ["attacker TE"] = { a_te = 1 },
}

local function melee_value(game, u, cover)
  local v = game:attribute(u, "melee") - game:counter(u, "hits") + cover
  local cmd = commander_of(game, u)
  if cmd ~= nil then
    v = v + game:counter(cmd, "cvs_c")
  end
  if game:flag(u, "fatigued") then
    v = v - 1
  end
  return v
end

local function friends_touching(game, target, side, except)
  local col, row = game:cell(target)
  local n = 0
  for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
    local nc, nr = game:neighbour(col, row, d)
    if nc ~= nil then
      local u = game:unit_at(nc, nr)
      if u ~= nil and u ~= except and game:side(u) == side and is_unit(game, u)
          and not game:flag(u, "routed") then
        n = n + 1
      end
    end
  end
  return n
end

function M.melee(game, actor, target)
  local L = ledger(game)
  local name, tname = game:name(actor), game:name(target)
  local tkind = game:kind(target)
  if not is_unit(game, target) then
    error("commanders are not meleed")
  end
  if game:kind(actor) == "cavalry" and game:mode(actor) == "formed" then
    local tc, tr = game:cell(target)
    if game:terrain(tc, tr) == "forest" then
      error("mounted cavalry cannot melee a unit in forest")
    end
  end
  if game:kind(actor) == "mounted_infantry" and game:mode(actor) == "formed" then
    error(name .. " cannot melee on horseback")
  end
  if game:option("tribes") and game:attribute(actor, "class") >= 3 and game:counter(target, "hits") == 0
      and not game:flag(target, "fatigued") then
    local cmd = commander_of(game, actor)
    local t = cmd and game:counter(cmd, "cvs_t") or 10
    if game:resolve("cvs_test", { trait = t }, "tribal resolve of " .. name) ~= "pass" then
      game:note(name .. " will not close with a fresh enemy")
      return
    end
  end
  L:set(actor, "in_melee", true)
  L:set(actor, "disturbed", true)
  L:set(target, "disturbed", true)
  L:set(target, "in_melee", true)
  -- Skirmishers do not melee: they are swept away.
  if tkind == "skirmishers" then
    L:remove(target, "skirmishers contacted in melee")
    return
  end
  if tkind == "mounted_infantry" and game:kind(actor) == "cavalry" and game:option("mounted_infantry_rules") then
    rout(L, target)
    return
  end
  -- Crews do not melee: a gun meleed in its front arc fires grapeshot once, then its crew
  -- abandons it.
  if tkind == "artillery" then
    if game:arc(target, actor) == "front" and game:counter(target, "melee_rounds") == 0 then
      local shot = game:resolve("grapeshot", { rifled = game:attribute(target, "class") == 1 and 1 or 0 },
        "grapeshot by " .. tname)
      if shot == "hit" then
        hit(L, actor, 1)
      end
    end
    L:remove(target, "crew abandoned the guns to " .. name)
    L:set(actor, "in_melee", false)
    return
  end
  local tc, tr = game:cell(target)
  -- 5c: a unit that reached the foot of a hill with no movement left cannot melee an
  -- enemy on the hill above it.
  local ac, ar = game:cell(actor)
  if game:terrain_attribute(tc, tr, "elevation") > game:terrain_attribute(ac, ar, "elevation")
      and game:moved(actor)
      and game:counter(actor, "steps_moved") + game:counter(actor, "face_changes") >= (game:allowance(actor) or 0) then
    error(name .. " has no movement left at the foot of the hill and cannot melee " .. tname .. " above it")
  end
  local cover = game:terrain_attribute(tc, tr, "cover") + works_cover(game, target)
  cover = math.max(0, cover - game:counter(target, "melee_rounds"))
  -- 5.5.1: a unit in column on a road counts as meleed in the flank.
  local flanked = game:arc(target, actor) ~= "front" or game:flag(target, "on_road")
  local a = melee_value(game, actor, 0) + (flanked and 1 or 0)
  if friends_touching(game, target, game:side(actor), actor) > 0 then
    a = a + 1
  end
  local d = melee_value(game, target, cover)
  local result = game:resolve("melee", { attacker = a, defender = d },
    "melee of " .. name .. " (" .. a .. ") against " .. tname .. " (" .. d .. ")")
  local r = RESULTS[result] or {}
  local times = flanked and 2 or 1
  -- A defender already meleed this phase by another unit hurts this one only with TE hits.
  local secondary = game:flag(target, "meleed")
  L:set(target, "meleed", true)
  local a_hit, a_te = r.a_hit or 0, r.a_te or 0
  if secondary then
    a_te, a_hit = a_te + a_hit, 0
  end
  if game:option("melee_points") and a > d then
    r.d_te = (r.d_te or 0) + 1
  end
  te_hit(L, target, (r.d_te or 0) * times, true)
  hit(L, target, (r.d_hit or 0) * times)
  te_hit(L, actor, a_te, true)
  hit(L, actor, a_hit)
  L:add(target, "melee_rounds", 1)
  L:add(actor, "melee_rounds", 1)
  -- The winner advances into the hex its routed opponent left.
  if L:flag(target, "routed") or L.gone[target:id()] then
    L:set(actor, "in_melee", false)
    L:add(actor, "melee_rounds", -L:counter(actor, "melee_rounds"))
    -- Cavalry are not pursued after melee by infantry (charts page).
    local horse = { cavalry = true, mounted_infantry = true }
    local pursues = horse[game:kind(actor)] or not horse[tkind]
    if pursues and not L:flag(actor, "routed") and not L.gone[actor:id()] and L:occupant(tc, tr) == nil then
      L:place(actor, tc, tr, "advanced after melee")
    end
  end
  if L:flag(actor, "routed") or L.gone[actor:id()] then
    L:set(target, "in_melee", false)
    L:add(target, "melee_rounds", -L:counter(target, "melee_rounds"))
  end
end

-- Artillery and horse modes ------------------------------------------------------------

function M.limber(game, actor)
  if game:mode(actor) == "limbered" then
    error(game:name(actor) .. " is already limbered")
  end
  game:set_mode(actor, "limbered")
  te_hit(ledger(game), actor, 1, false)
end

function M.unlimber(game, actor)
  if game:mode(actor) == "unlimbered" then
    error(game:name(actor) .. " is already unlimbered")
  end
  game:set_mode(actor, "unlimbered")
  te_hit(ledger(game), actor, 1, false)
  if game:moved(actor) then
    game:set_flag(actor, "unlimbered_after_move", true)
  end
end

function M.dismount(game, actor)
  if game:mode(actor) == "dismounted" then
    error(game:name(actor) .. " is already dismounted")
  end
  game:set_mode(actor, "dismounted")
end

function M.mount(game, actor)
  if game:mode(actor) == "formed" then
    error(game:name(actor) .. " is already mounted")
  end
  local col, row = game:cell(actor)
  if game:terrain(col, row) == "forest" then
    error(game:name(actor) .. " cannot mount in a forest")
  end
  game:set_mode(actor, "formed")
end

-- Reinforcements (4) ---------------------------------------------------------------------

local DIRS = { "E", "SE", "SW", "W", "NW", "NE" }

-- Hex distance between two cells of this pointy-top grid (odd rows shoved east).
local function hex_distance(c1, r1, c2, r2)
  local q1, q2 = c1 - (r1 - (r1 % 2)) // 2, c2 - (r2 - (r2 % 2)) // 2
  local dq, dr = q1 - q2, r1 - r2
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end

local PLACES = { ["first place"] = 1, ["second place"] = 2, ["third place"] = 3 }

-- 4a/4d: in the arrivals phase every off-board unit whose counter `arrives` has come due
-- enters at its place (counter `entry`, board region `entry_N`; entry 0: the side rolls
-- the d6 entry chart once for the turn's arrivals). Each takes the first cell of the place
-- that no piece holds. 4b: when none is left, the rest wait a turn, the enemy is told how
-- many are coming, and its units on the place are marked `blocking` (they may withdraw
-- two moves in their movement phase).
local function arrivals(game)
  local turn = game:turn()
  local taken, rolled, blocked = {}, {}, {}
  for _, u in ipairs(game:off_board_units()) do
    local due = game:counter(u, "arrives")
    if due > 0 and due <= turn and game:kind(u) ~= "fake_counter" then
      local side = game:side(u)
      local k = game:counter(u, "entry")
      if k == 0 then
        if rolled[side] == nil then
          local place = game:resolve("entry_point", {}, "entry place of " .. side .. "'s reinforcements")
          rolled[side] = PLACES[place]
        end
        k = rolled[side]
      end
      local cells = game:region("entry_" .. k)
      local placed = false
      for _, c in ipairs(cells) do
        local key = c.col .. "," .. c.row
        if not taken[key] and game:unit_at(c.col, c.row) == nil then
          taken[key] = true
          game:place(u, c.col, c.row, "reinforcement arriving at entry place " .. k)
          game:add_counter(u, "arrives", -due)
          placed = true
          break
        end
      end
      if not placed then
        local b = blocked[side .. k] or { side = side, k = k, n = 0, cells = cells }
        b.n = b.n + 1
        blocked[side .. k] = b
      end
    end
  end
  local keys = {}
  for key in pairs(blocked) do
    table.insert(keys, key)
  end
  table.sort(keys)
  for _, key in ipairs(keys) do
    local b = blocked[key]
    game:announce(b.side .. ": " .. b.n .. (b.n == 1 and " unit is" or " units are")
      .. " arriving at entry place " .. b.k .. ", which the enemy holds; they wait a turn")
    for _, c in ipairs(b.cells) do
      local e = game:unit_at(c.col, c.row)
      if e ~= nil and game:side(e) ~= b.side and is_unit(game, e) then
        game:set_flag(e, "blocking", true)
      end
    end
  end
end

-- 4b: a unit blocking an arrival may make two full moves away from the entry place, in a
-- straight line toward the cells farthest from it; it stops before the board edge, water,
-- any piece or an enemy zone of control, and does not move again this turn.
function M.withdraw(game, actor)
  local name = game:name(actor)
  if not game:flag(actor, "blocking") then
    error(name .. " is not blocking an arrival")
  end
  if game:moved(actor) then
    error(name .. " has moved this turn")
  end
  local col, row = game:cell(actor)
  local place = {}
  for k = 1, 3 do
    for _, c in ipairs(game:region("entry_" .. k)) do
      if hex_distance(c.col, c.row, col, row) <= 1 then
        for _, x in ipairs(game:region("entry_" .. k)) do
          table.insert(place, x)
        end
        break
      end
    end
  end
  local function away(c, r)
    local best = math.huge
    for _, x in ipairs(place) do
      best = math.min(best, hex_distance(x.col, x.row, c, r))
    end
    return best
  end
  local dir, score = nil, away(col, row)
  for _, d in ipairs(DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    if nc ~= nil and away(nc, nr) > score then
      dir, score = d, away(nc, nr)
    end
  end
  if dir == nil then
    error(name .. " has nowhere to withdraw to")
  end
  local foe = enemy_side(game, game:side(actor))
  local steps = 2 * math.floor(game:allowance(actor) or 0)
  local c, r = col, row
  for _ = 1, steps do
    local nc, nr = game:neighbour(c, r, dir)
    if nc == nil or game:terrain(nc, nr) == "lake" or game:unit_at(nc, nr) ~= nil
        or (foe ~= nil and game:zoc(nc, nr, foe) ~= nil) then
      break
    end
    c, r = nc, nr
  end
  if c == col and r == row then
    error(name .. " has nowhere to withdraw to")
  end
  game:face(actor, dir)
  game:place(actor, c, r, "withdrew two moves from the arriving force")
  game:set_flag(actor, "disturbed", true)
  game:set_flag(actor, "blocking", false)
  game:set_flag(actor, "withdrawn", true)
end

-- The sequence of play ------------------------------------------------------------------

-- Each side's force for the army-integrity check, read from the game every time (a script
-- keeps no state between calls, so a replayed or restarted game reads the same): units and
-- commanders on the board, and those off it that are not reinforcements still to come —
-- those are lost.
local function roster_of(game, side)
  local r = { units = {}, lost_units = 0, lost_commanders = 0 }
  local function add(u, on_board)
    if game:kind(u) == "commander" then
      if not on_board then r.lost_commanders = r.lost_commanders + 1 end
    elseif is_unit(game, u) then
      table.insert(r.units, u)
      if not on_board or game:flag(u, "routed") then
        r.lost_units = r.lost_units + 1
      end
    end
  end
  for _, u in ipairs(game:units(side)) do
    add(u, true)
  end
  for _, u in ipairs(game:off_board_units(side)) do
    if game:counter(u, "arrives") == 0 then
      add(u, false)
    end
  end
  return r
end

-- Percentage of a side's units lost (destroyed or routed), plus 10 per lost commander.
function M.losses(game, side)
  local r = roster_of(game, side)
  if #r.units == 0 then
    return 0
  end
  return (r.lost_units * 100) // #r.units + 10 * r.lost_commanders
end

local function integrity(game, side)
  local losses = M.losses(game, side)
  if losses < game:setting("break_point") then
    return
  end
  game:note(side .. " has lost " .. losses .. "%: integrity check")
  local L = ledger(game)
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and not game:flag(u, "routed") then
      if game:resolve("integrity", {}, "integrity of " .. game:name(u)) == "withdraw" then
        local back = game:turned(game:facing(u), 3)
        fall_back(L, u, back, 3, "withdrew (army integrity)")
      end
    end
  end
end

local function rally(game, side)
  local L = ledger(game)
  local sphere = game:option("command_sphere")
  local rallied = {}
  for _, c in ipairs(game:units(side)) do
    local host = game:kind(c) == "commander" and game:host(c) or nil
    if host ~= nil then
      rallied[host:id()] = host
      if sphere then
        local col, row = game:cell(host)
        for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
          local nc, nr = game:neighbour(col, row, d)
          local u = nc and game:unit_at(nc, nr)
          if u ~= nil and game:side(u) == side and is_unit(game, u) then
            rallied[u:id()] = u
          end
        end
      end
    end
  end
  for _, u in pairs(rallied) do
    if not game:flag(u, "in_melee") then
      local was_routed = game:flag(u, "routed")
      if was_routed then
        L:set(u, "routed", false)
      end
      if game:counter(u, "te") > 0 then
        L:add(u, "te", -game:counter(u, "te"))
      end
      if was_routed and game:option("rally_costs_te") then
        L:add(u, "te", 1)
      end
      L:set(u, "fatigued", false)
      local hits = game:counter(u, "hits")
      if hits > 0 then
        L:add(u, "hits", game:option("rally_all_hits") and -hits or -1)
      end
      if was_routed or hits > 0 then
        game:note(game:name(u) .. " rallies")
      end
    end
  end
  -- 8 (rally c): the most valuable units (attribute `self_rally`) remove one hit without a
  -- commander.
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and rallied[u:id()] == nil and game:attribute(u, "self_rally") > 0
        and not game:flag(u, "in_melee") and game:counter(u, "hits") > 0 then
      L:add(u, "hits", -1)
      game:note(game:name(u) .. " rallies on its own")
    end
  end
  if game:option("supply") then
    for _, u in ipairs(game:units(side)) do
      if is_unit(game, u) and game:kind(u) ~= "wagon" then
        for _, w in ipairs(game:units(side)) do
          if game:kind(w) == "wagon" and game:distance(u, w) <= 2 then
            L:add(u, "supply", 12 - game:counter(u, "supply"))
            break
          end
        end
      end
    end
  end
end

local function turn_end(game)
  local L = ledger(game)
  for _, u in ipairs(game:units()) do
    if is_unit(game, u) then
      L:add(u, "steps_moved", -game:counter(u, "steps_moved"))
      if game:flag(u, "in_melee") then
        local col, row = game:cell(u)
        local touching = false
        for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
          local nc, nr = game:neighbour(col, row, d)
          local e = nc and game:unit_at(nc, nr)
          if e ~= nil and game:side(e) ~= game:side(u) and game:flag(e, "in_melee") then
            touching = true
          end
        end
        if touching then
          -- Flip the melee marker: the next round is a later round (cover degrades).
          game:note(game:name(u) .. " stays locked in melee")
        else
          L:set(u, "in_melee", false)
          L:add(u, "melee_rounds", -game:counter(u, "melee_rounds"))
        end
      elseif not game:moved(u) and not game:flag(u, "disturbed") and game:counter(u, "te") > 0 then
        -- A turn without moving recovers one TE hit; a unit forced to move or meleed
        -- loses the attempt (charts page, removing TE hits).
        L:add(u, "te", -1)
        if game:flag(u, "fatigued") then
          L:set(u, "fatigued", false)
        end
      end
    end
  end
end

function M.phase_begin(game, phase)
  -- The CVS table is rolled once, as the game starts (its first phase).
  if game:turn() == 1 and phase == "arrivals" and game:option("random_cvs") then
    for _, c in ipairs(game:units()) do
      if game:kind(c) == "commander" then
        roll_cvs(game, c)
      end
    end
  end
  local side = game:phasing()
  if phase == "arrivals" then
    arrivals(game)
  elseif phase == "command" then
    integrity(game, side)
  elseif phase == "movement" then
    local L = ledger(game)
    for _, u in ipairs(game:units(side)) do
      if is_unit(game, u) and game:flag(u, "routed") then
        fall_back(L, u, game:facing(u), rout_distance(game, u), "routed")
      end
    end
  elseif phase == "rally" then
    rally(game, side)
  elseif phase == "turn end" then
    turn_end(game)
  end
end

return M
