-- Hex Command (gunpowder): what the ruleset's data cannot say.
--
-- Requests made through `game` are applied after a hook returns, and reads see the game
-- as the call began, so each call keeps a small ledger (`Ledger`) of what it has already
-- asked for: hits added, places taken, units removed.

local M = {}

local UNIT_KINDS = {
  infantry = true, light_infantry = true, skirmishers = true, cavalry = true,
  mounted_infantry = true, artillery = true, wagon = true,
  -- A battery's crew, once it has abandoned its guns (issue 7: crews).
  crew = true,
}
local COVER_FORT = 2

-- A crew at its guns (attached to them) is part of the battery, not a unit of its own.
local function is_unit(game, u)
  local kind = game:kind(u)
  if kind == "crew" then
    return game:host(u) == nil
  end
  return UNIT_KINDS[kind] == true
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
  return setmetatable({ game = game, delta = {}, flags = {}, at = {}, gone = {}, back = {}, dropped = {} }, Ledger)
end

-- Captured guns a unit holds are left on the board where it stood when it routs or is
-- destroyed (issue 7: recapture); defined with the crews below.
local drop_guns

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
    elseif self.game:kind(a) == "crew" then
      self.gone[a:id()] = true
      self.game:remove(a, "crew lost with its guns")
    end
  end
  drop_guns(self, u)
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
    if not self.gone[u:id()] and is_unit(self.game, u) and self.game:host(u) == nil then
      local c, r = self:cell(u)
      if c == col and r == row then
        return u
      end
    end
  end
  -- Pieces this call brings back onto the board (guns left by their captor).
  for _, u in ipairs(self.back) do
    local c, r = self:cell(u)
    if c == col and r == row then
      return u
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
  -- A battery routed by fire limbers up and goes with its guns (crews, issue 7).
  if game:kind(u) == "artillery" and game:mode(u) ~= "limbered" then
    game:set_mode(u, "limbered")
  end
  for _, a in ipairs(game:attached(u)) do
    if game:kind(a) == "commander" then
      L.gone[a:id()] = true
      game:remove(a, "commander captured: his unit routed")
      L:set(u, "lost_commander", true)
    end
  end
  local back = game:turned(game:facing(u), 3)
  local col, row = L:cell(u)
  game:face(u, back)
  fall_back(L, u, back, rout_distance(game, u), "routed")
  drop_guns(L, u, col, row)
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
  if game:counter(u, "bridging") > 0 then
    L:add(u, "bridging", -game:counter(u, "bridging"))
    game:note(name .. " leaves its bridge unfinished")
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
  if game:flag(u, "inactive") then
    error(name .. " is not in the group being activated (group " .. game:counter(u, "group") .. ")")
  end
  if game:counter(u, "bridging") > 0 then
    game:add_counter(u, "bridging", -game:counter(u, "bridging"))
    game:note(name .. " turns from its bridge and leaves it unfinished")
  end
  if game:flag(u, "fatigued") and game:option("disorder_fatigue") then
    error(name .. " is fatigued and cannot change facing")
  end
  -- 5.1b/7.4: in the melee phase only a unit that has just won a melee (and advanced, or
  -- chose a facing change instead) may turn, without a movement point (issue 7).
  if game:phase() == "melee" then
    if not game:flag(u, "victor") then
      error(name .. " may change facing in the melee phase only after winning a melee")
    end
    return
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

-- Fire geometry, crews (issue 7) ---------------------------------------------------------
--
-- The fire line runs centre to centre (`game:line`, the engine's own trace). A hex on it
-- that blocks sight (forest, buildings) or holds a unit stops the fire (7h), except friends
-- fired over from higher ground (7p). A line along the edge of a blocking hex on one side
-- only, a wall crossed (not on the firer's own hex side) and a rise higher than both ends
-- are partial obstructions, 1 CP (7i). What the fire passes over (a friend, a wall) casts a
-- dead zone (reference "Dead Zone", 7j): beyond it, for half the firer's distance to it,
-- nothing can be hit. Howitzers (attribute `howitzer`) fire over walls (no dead zone, no
-- obstruction) and over friends from any height (reference "Classes"). A target below the
-- firer with a rise just before it on the line is in the rise's dead ground unless at point
-- blank (firing diagram 2).

local HEX_DIRS = { "E", "SE", "SW", "W", "NW", "NE" }

local function height(game, col, row)
  if col == nil then
    return 0
  end
  return game:terrain_attribute(col, row, "elevation")
end

-- What stops the fire in a cell: "terrain", "friend" or "enemy" (and the piece), or nil.
local function line_blocker(game, side, col, row)
  if col == nil then
    return nil
  end
  if game:blocks_sight(col, row) then
    return "terrain"
  end
  local u = game:unit_at(col, row)
  if u == nil or game:kind(u) == "fake_counter" then
    return nil -- fake counters (hidden movement) block nothing
  elseif game:side(u) == side then
    return "friend", u
  end
  return "enemy", u
end

local function friend_next_to(game, side, col, row)
  for _, d in ipairs(HEX_DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    local u = nc and game:unit_at(nc, nr)
    if u ~= nil and game:side(u) == side and is_unit(game, u) then
      return true
    end
  end
  return false
end

-- May `actor` fire at `target` along the line? Returns the partial-obstruction input (0 or
-- 1), or nil and the reason it may not. `guns`: the fire is artillery fire.
local function fire_line(game, actor, target, guns)
  local side = game:side(actor)
  local name, tname = game:name(actor), game:name(target)
  local ac, ar = game:cell(actor)
  local tc, tr = game:cell(target)
  local line = game:line(ac, ar, tc, tr)
  local n = #line - 1
  local up, down = height(game, ac, ar), height(game, tc, tr)
  local howitzer = guns and game:attribute(actor, "howitzer") > 0
  local obstructed, shadow = 0, 0 -- shadow: the farthest thing fired over, in half hexes
  for i = 2, n do
    local e = line[i]
    local a, x = line_blocker(game, side, e.col, e.row)
    local b, y = line_blocker(game, side, e.col2, e.row2)
    local what, piece
    if e.col2 == nil then
      what, piece = a, x
    elseif a ~= nil and b ~= nil then
      if a == "friend" and b == "friend" then
        what, piece = "friend", x
      elseif a ~= "friend" then
        what, piece = a, x
      else
        what, piece = b, y
      end
    elseif a ~= nil or b ~= nil then
      obstructed = 1 -- the line grazes a blocking hex
    end
    if what == "friend" then
      -- 7p: only artillery more than one hex back, on higher ground (howitzers from any
      -- height), and not at a target next to a friend.
      local fc, fr = game:cell(piece)
      local arm_ok = guns or game:option("over_heads_any_arm")
      if not arm_ok then
        return nil, name .. " cannot fire over " .. game:name(piece) .. ": only artillery fires over friends' heads"
      elseif guns and i - 1 < 2 then
        return nil, name .. " cannot fire over " .. game:name(piece) .. ": guns fire over friends only from more than one hex back"
      elseif not howitzer and up <= height(game, fc, fr) then
        return nil, name .. " cannot fire over " .. game:name(piece) .. ": it is not on higher ground"
      elseif friend_next_to(game, side, tc, tr) then
        return nil, name .. " cannot fire over friends at " .. tname .. ", which is next to a friendly unit"
      end
      shadow = math.max(shadow, 2 * (i - 1))
    elseif what == "terrain" then
      return nil, name .. " cannot see " .. tname .. ": the line is blocked at (" .. e.col .. "," .. e.row .. ")"
    elseif what == "enemy" then
      return nil, name .. " cannot see " .. tname .. ": " .. game:name(piece) .. " stands in the way"
    end
    if math.max(height(game, e.col, e.row), height(game, e.col2, e.row2)) > math.max(up, down) then
      obstructed = 1 -- a rise between them
    end
  end
  -- Walls crossed, except on the firer's own hex side (it fires over its own wall).
  if not howitzer then
    for i = 3, #line do
      local p, q = line[i - 1], line[i]
      if p.col2 == nil and q.col2 == nil and has(game:features(p.col, p.row, q.col, q.row), "wall") then
        obstructed = 1
        if not game:option("low_walls") then
          shadow = math.max(shadow, 2 * (i - 1) - 1)
        end
      end
    end
  end
  -- Dead zone: the target lies no farther beyond the obstacle than half the distance to it.
  if shadow > 0 and 4 * n <= 3 * shadow then
    return nil, tname .. " is in the dead zone behind what " .. name .. " fires over"
  end
  -- Dead ground below a rise (diagram 2): the hex before the target is higher than it.
  if n >= 2 and up > down then
    local e = line[n]
    if math.max(height(game, e.col, e.row), height(game, e.col2, e.row2)) > down then
      return nil, tname .. " is in dead ground below the rise; " .. name .. " must be next to it"
    end
  end
  return obstructed
end

-- Crews (reference "Melee and Rout"): a battery's crew is a `crew` piece attached to it.
-- Meleed, the crew abandons the guns and steps back one hex (it does not rout); the guns
-- stay, abandoned (no fire, no move, no zone). The crew may be fired upon, and returns to
-- guns its side still holds (`man_guns`). An enemy that melees abandoned guns captures
-- them: it takes their hex and rolls 1d6 for the shots it may fire with them (`fire_guns`).
-- Broken, the captor leaves them where it stood, abandoned and their side's again: they
-- are recaptured, and their crew can man them (`drop_guns`).

local function crew_of(game, gun)
  for _, a in ipairs(game:attached(gun)) do
    if game:kind(a) == "crew" then
      return a
    end
  end
  return nil
end

local function direction_to(game, col, row, tc, tr)
  for _, d in ipairs(HEX_DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    if nc == tc and nr == tr then
      return d
    end
  end
  return nil
end

-- A crew meleed by `by` steps back one hex, straight away from the attacker or else to
-- either side of that, facing it (leaving its guns if it is at them); with no free hex
-- it is captured. `commander`: one to take along.
local function step_back(L, crew, by, commander)
  local game = L.game
  local cc, cr = L:cell(crew)
  local bc, br = L:cell(by)
  local dir = direction_to(game, bc, br, cc, cr) or game:turned(game:facing(crew), 3)
  for _, d in ipairs({ dir, game:turned(dir, 1), game:turned(dir, -1) }) do
    local nc, nr = game:neighbour(cc, cr, d)
    if nc ~= nil and game:terrain(nc, nr) ~= "lake" and L:occupant(nc, nr) == nil
        and game:unit_at(nc, nr) == nil then
      if game:host(crew) ~= nil then
        game:attach(crew, nil)
      end
      game:face(crew, game:turned(d, 3))
      L:place(crew, nc, nr, "crew stepped back from the melee")
      if commander ~= nil then
        game:attach(commander, crew)
      end
      return
    end
  end
  L:remove(crew, "crew captured: no room to step back")
end

-- The crew of `gun`, meleed by `by`, abandons it and steps back; the guns stay.
local function abandon_guns(L, gun, crew, by)
  local game = L.game
  L:set(gun, "abandoned", true)
  L:set(gun, "in_melee", false)
  game:note(game:name(crew) .. " abandons the guns of " .. game:name(gun))
  step_back(L, crew, by, commander_of(game, gun))
end

-- The winner of a melee (its opponent routed or destroyed) advances into the hex left
-- (7.4) and may then change facing once in the melee phase (5.1b, 7.4: flag `victor`, a
-- facing change that needs no movement point and may be the turn's second). With the
-- optional rule `pursuit_facing` (charts page: a facing change INSTEAD of pursuing) it
-- stays, remembering the hex (`vacated_col`/`vacated_row`), and either advances there
-- (action `advance`) or changes facing.
local function win_melee(L, u, col, row)
  local game = L.game
  L:set(u, "victor", true)
  if L:counter(u, "face_changes") > 0 then
    L:add(u, "face_changes", -1)
  end
  if L:counter(u, "captured_gun") > 0 then
    -- A unit serving captured guns stays on them (issue 7: recapture).
    game:note(game:name(u) .. " stays with the guns it captured")
    return
  end
  if game:option("pursuit_facing") then
    L:add(u, "vacated_col", col + 1 - L:counter(u, "vacated_col"))
    L:add(u, "vacated_row", row + 1 - L:counter(u, "vacated_row"))
    game:note(game:name(u) .. " may advance or change facing instead")
    return
  end
  L:place(u, col, row, "advanced after melee")
end

-- 7.4 for a defender that wins (its attacker routed or destroyed; issue 7): it cannot give
-- orders in the enemy's melee phase, so its facing change is made for it. By default it
-- advances into the hex the attacker left, facing the way it advanced; with the optional
-- rule `pursuit_facing` it stays and turns to face that hex instead (a facing change
-- instead of pursuit). Where the hex is taken (guns left there, another unit) it stays.
local DEFENDER_ADVANCES = { infantry = true, light_infantry = true, cavalry = true, mounted_infantry = true }
local function defender_wins(L, u, col, row)
  local game = L.game
  if not DEFENDER_ADVANCES[game:kind(u)] then
    return
  end
  L:set(u, "victor", true)
  local uc, ur = L:cell(u)
  local dir = direction_to(game, uc, ur, col, row)
  if dir ~= nil and dir ~= game:facing(u) then
    game:face(u, dir)
  end
  if L:counter(u, "captured_gun") > 0 then
    game:note(game:name(u) .. " stays with the guns it captured")
    return
  end
  if game:option("pursuit_facing") or L:occupant(col, row) ~= nil then
    if dir ~= nil and dir ~= game:facing(u) then
      game:note(game:name(u) .. " turns to face (" .. col .. "," .. row .. ") instead of advancing")
    end
    return
  end
  L:place(u, col, row, "advanced after winning the melee it defended")
end

function M.advance(game, actor)
  local name = game:name(actor)
  local col, row = game:counter(actor, "vacated_col") - 1, game:counter(actor, "vacated_row") - 1
  if not game:flag(actor, "victor") or col < 0 or row < 0 then
    error(name .. " has no hex to advance into")
  end
  local L = ledger(game)
  L:add(actor, "vacated_col", -col - 1)
  L:add(actor, "vacated_row", -row - 1)
  if game:unit_at(col, row) ~= nil then
    error(name .. " cannot advance: (" .. col .. "," .. row .. ") is taken")
  end
  local ac, ar = game:cell(actor)
  local dir = direction_to(game, ac, ar, col, row)
  if dir ~= nil then
    game:face(actor, dir)
  end
  L:place(actor, col, row, "advanced after melee")
end

-- 4c: reinforcements fighting the force that blocks their entry may melee a blocking unit
-- in its flank or rear (overlap it) only with more units in contact with the blocking
-- force than it has units.
local function overlap_refused(game, actor, target)
  if not game:flag(target, "blocking") or game:arc(target, actor) == "front" then
    return nil
  end
  local blockers, touching, counted = 0, 0, {}
  for _, b in ipairs(game:units(game:side(target))) do
    if is_unit(game, b) and game:flag(b, "blocking") then
      blockers = blockers + 1
      local col, row = game:cell(b)
      for _, d in ipairs(HEX_DIRS) do
        local nc, nr = game:neighbour(col, row, d)
        local u = nc and game:unit_at(nc, nr)
        if u ~= nil and game:side(u) == game:side(actor) and is_unit(game, u) and not counted[u:id()] then
          counted[u:id()] = true
          touching = touching + 1
        end
      end
    end
  end
  if touching > blockers then
    return nil
  end
  return game:name(actor) .. " cannot overlap the blocking force's flank: " .. touching
    .. " units in contact against " .. blockers .. " blocking (4c)"
end

-- Melee against abandoned guns: they are captured. The captor stands on them (they leave
-- the board with it) and remembers them (counter `captured_gun`: the battery's piece number
-- plus one), so that they can be taken back.
local function capture_guns(L, by, gun)
  local game = L.game
  local gc, gr = L:cell(gun)
  if L:counter(by, "captured_gun") > 0 then
    -- Already holding a battery: it leaves that one where it stood.
    drop_guns(L, by)
  end
  local shots = game:roll("1d6", "shots the new crew of " .. game:name(gun) .. " can use")
  L:add(by, "captured_shots", shots - L:counter(by, "captured_shots"))
  L:add(by, "captured_class", game:attribute(gun, "class") - L:counter(by, "captured_class"))
  L:add(by, "captured_gun", gun:id() + 1 - L:counter(by, "captured_gun"))
  L:remove(gun, "guns captured by " .. game:name(by))
  L:place(by, gc, gr, "advanced onto the captured guns")
  -- It has won the melee: it may change facing (7.4), as any winner may.
  L:set(by, "victor", true)
  if L:counter(by, "face_changes") > 0 then
    L:add(by, "face_changes", -1)
  end
end

-- Recapture (reference "Melee and Rout": the crew returns to the guns if they are
-- recaptured): guns held by a unit that routs or is destroyed stay where it stood (`col`,
-- `row`; default: its hex), still abandoned and still their own side's, so an enemy melee
-- that breaks the captor takes them back (the guns hold the hex: the winner does not
-- advance into it) and a crew of their side can man them again (`man_guns`); the enemy may
-- capture them again by melee.
drop_guns = function(L, u, col, row)
  local game = L.game
  local held = L:counter(u, "captured_gun")
  if held <= 0 or L.dropped[u:id()] then
    return
  end
  L.dropped[u:id()] = true
  if col == nil then
    col, row = L:cell(u)
  end
  for _, gun in ipairs(game:off_board_units()) do
    if gun:id() + 1 == held then
      if L:occupant(col, row) ~= nil then
        game:note(game:name(gun) .. " are lost: no room to leave them at (" .. col .. "," .. row .. ")")
        return
      end
      L.gone[gun:id()] = nil
      L.at[gun:id()] = { col, row }
      table.insert(L.back, gun)
      game:place(gun, col, row, "guns left behind by " .. game:name(u))
      L:set(gun, "abandoned", true)
      L:add(u, "captured_shots", -L:counter(u, "captured_shots"))
      L:add(u, "captured_class", -L:counter(u, "captured_class"))
      L:add(u, "captured_gun", -held)
      return
    end
  end
end

-- A crew returns to abandoned guns of its side next to it, when no enemy is next to them.
function M.man_guns(game, actor, target)
  local name, tname = game:name(actor), game:name(target)
  if game:kind(target) ~= "artillery" or not game:flag(target, "abandoned") then
    error(tname .. " is not an abandoned battery")
  end
  local col, row = game:cell(target)
  for _, d in ipairs(HEX_DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    local e = nc and game:unit_at(nc, nr)
    if e ~= nil and game:side(e) ~= game:side(actor) and is_unit(game, e) and not game:flag(e, "routed") then
      error(name .. " cannot return to " .. tname .. ": " .. game:name(e) .. " is next to the guns")
    end
  end
  game:set_flag(target, "abandoned", false)
  game:attach(actor, target)
  game:note(name .. " returns to the guns of " .. tname)
end

-- Fire -----------------------------------------------------------------------------------

local function fire_chart(game, u, captured)
  local class = game:attribute(u, "class")
  if captured then
    class = game:counter(u, "captured_class")
  end
  if game:option("pike_and_shot") and class < 2 then
    class = 2
  end
  if game:kind(u) == "artillery" or captured then
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

-- Structures (reference "Classes"; issue 7): direct-fire guns (not howitzers or mortars)
-- firing at a unit behind fortifications (a fort, or works it dug) first roll to see
-- whether the shot strikes the works (chart `structure`); only a shot that clears them goes
-- on to the fire roll. With the optional rule `structure_damage` a shot into dug works
-- knocks them down a level (a redoubt to quick works, quick works to nothing: the digging
-- starts again); a fort, being terrain, stands. Returns whether the works took the shot.
local function struck_works(L, actor, target, captured)
  local game = L.game
  if not captured and game:attribute(actor, "howitzer") > 0 then
    return false
  end
  local tc, tr = game:cell(target)
  local dug = works_cover(game, target)
  if dug == 0 and game:terrain(tc, tr) ~= "fort" then
    return false
  end
  local name, tname = game:name(actor), game:name(target)
  if game:resolve("structure", {}, "shot of " .. name .. " at " .. tname .. " behind works") ~= "works" then
    return false
  end
  game:note("the shot of " .. name .. " strikes the works in front of " .. tname)
  if dug > 0 and game:option("structure_damage") then
    local works = game:counter(target, "works")
    local left = dug >= 2 and QUICK_WORKS or 0
    L:add(target, "works", left - works)
    game:note(dug >= 2 and "the redoubt of " .. tname .. " is knocked down to quick works"
      or "the quick works of " .. tname .. " are levelled")
  end
  return true
end

-- `captured`: the actor fires guns it has captured (issue 7: crews), not its own weapons.
local function shoot(game, actor, target, captured)
  local L = ledger(game)
  local name, tname = game:name(actor), game:name(target)
  local kind = game:kind(actor)
  if not is_unit(game, target) then
    error("commanders cannot be singled out as targets")
  end
  if game:flag(target, "abandoned") then
    error(tname .. "'s guns are abandoned: there is no one at them to hit")
  end
  if captured and game:counter(actor, "captured_shots") <= 0 then
    error(name .. " has no shots left with captured guns")
  end
  if not captured and kind == "mounted_infantry" and game:mode(actor) == "formed" and game:option("mounted_infantry_rules") then
    error(name .. " cannot fire while mounted")
  end
  if kind == "artillery" and game:mode(actor) ~= "unlimbered" then
    error(name .. " must unlimber to fire")
  end
  if game:option("unlimber_fires_next_turn") and game:flag(actor, "unlimbered_after_move") then
    error(name .. " moved and unlimbered this turn and fires next turn")
  end
  if (game:option("rate_of_fire") or game:option("pike_and_shot") or game:option("activation_sequence"))
      and game:flag(actor, "fired") then
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
  local chart, arm = fire_chart(game, actor, captured)
  local band = game:band(chart, "band", distance)
  local obstructed, blocked = fire_line(game, actor, target, arm == "art")
  if obstructed == nil then
    error(blocked)
  end
  -- The closest target first (7f): no enemy unit the firer can see in its front arc in a
  -- nearer band.
  for _, e in ipairs(game:units(game:side(target))) do
    if e ~= target and is_unit(game, e) and game:arc(actor, e) == "front" and not game:flag(e, "abandoned")
        and fire_line(game, actor, e, arm == "art") ~= nil then
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
    obstructed = obstructed,
    fatigued = game:flag(actor, "fatigued") and 1 or 0,
    out_of_arc = out_of_arc,
    unlimbered_after_move = game:flag(actor, "unlimbered_after_move") and 1 or 0,
  }
  L:set(actor, "fired", true)
  if captured then
    L:add(actor, "captured_shots", -1)
  end
  if game:attribute(actor, "heavy") > 0 then
    L:set(actor, "emplaced", true)
  end
  if game:option("supply") then
    L:add(actor, "supply", -1)
  end
  if arm == "art" and struck_works(L, actor, target, captured) then
    return
  end
  local outcome, faces = game:resolve(chart, inputs, chart .. " by " .. name .. " at " .. tname)
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

function M.fire(game, actor, target)
  shoot(game, actor, target, false)
end

-- Fire captured guns (issue 7: crews): their class's artillery chart, one shot of the 1d6
-- rolled when they were taken.
function M.fire_guns(game, actor, target)
  shoot(game, actor, target, true)
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
      -- Crews do not melee, so they do not support one (issue 7).
      if u ~= nil and u ~= except and game:side(u) == side and is_unit(game, u)
          and game:kind(u) ~= "crew" and not game:flag(u, "routed") then
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
  local overlap = overlap_refused(game, actor, target)
  if overlap ~= nil then
    error(overlap)
  end
  -- Abandoned guns are captured; a crew does not melee but steps back (issue 7: crews).
  if game:flag(target, "abandoned") then
    capture_guns(L, actor, target)
    return
  end
  if tkind == "crew" then
    L:set(target, "disturbed", true)
    step_back(L, target, actor, nil)
    return
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
    local crew = crew_of(game, target)
    if crew ~= nil then
      abandon_guns(L, target, crew, actor)
    else
      -- A battery without a crew piece: the guns are taken and the crew is gone.
      L:remove(target, "crew abandoned the guns to " .. name)
    end
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
      -- 7.4: a unit that advances may change facing; with `pursuit_facing` (charts page,
      -- Pursuit) the winner chooses: `advance`, or a facing change instead.
      win_melee(L, actor, tc, tr)
    end
  end
  if L:flag(actor, "routed") or L.gone[actor:id()] then
    L:set(target, "in_melee", false)
    L:add(target, "melee_rounds", -L:counter(target, "melee_rounds"))
    -- 7.4: the defender that wins advances too (issue 7), infantry not after cavalry.
    local horse = { cavalry = true, mounted_infantry = true }
    local pursues = horse[tkind] or not horse[game:kind(actor)]
    if pursues and not L:flag(target, "routed") and not L.gone[target:id()] then
      defender_wins(L, target, ac, ar)
    end
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
    elseif is_unit(game, u) and game:kind(u) ~= "crew" then
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

-- Movement, sequence, constructions (issue 7) ------------------------------------------

-- Every side with a piece in play, the phasing side first.
local function all_sides(game)
  local first = game:phasing()
  local sides, seen = { first }, { [first] = true }
  for _, u in ipairs(game:units()) do
    local s = game:side(u)
    if not seen[s] then
      seen[s] = true
      sides[#sides + 1] = s
    end
  end
  return sides
end

-- Charts page, constructions: a pontoon bridge takes 3 turns. A unit standing at a stream,
-- facing it, spends its turn on the bridge instead of moving (flag `dug`: it has worked
-- this turn); the third turn's work draws a bridge across the stream in front of it for the
-- rest of the game. Moving or changing facing leaves the work unfinished (back to 0).
local PONTOON_TURNS = 3

function M.bridge(game, actor)
  local name = game:name(actor)
  if game:moved(actor) then
    error(name .. " has moved this turn and cannot work on a bridge")
  end
  local col, row = game:cell(actor)
  local nc, nr = game:neighbour(col, row, game:facing(actor))
  if nc == nil then
    error(name .. " faces the edge of the field: there is nothing to bridge")
  end
  local feats = game:features(col, row, nc, nr)
  if not has(feats, "stream") then
    error(name .. " must face a stream to bridge it")
  end
  if has(feats, "bridge") then
    error("there is already a bridge across the stream in front of " .. name)
  end
  local done = game:counter(actor, "bridging") + 1
  game:set_flag(actor, "dug", true)
  if done >= PONTOON_TURNS then
    game:add_counter(actor, "bridging", -game:counter(actor, "bridging"))
    game:add_feature("bridge", col, row, nc, nr, "pontoon bridge built by " .. name)
  else
    game:add_counter(actor, "bridging", 1)
    game:note(name .. " works on a pontoon bridge (" .. done .. " of " .. PONTOON_TURNS .. " turns)")
  end
end

-- Sequence of play 1-2 (optional rule `remove_commanders`): the side's commanders are taken
-- off their units as its command phase begins; it attaches them again in that phase.
local function remove_commanders(game, side)
  for _, c in ipairs(game:units(side)) do
    if game:kind(c) == "commander" and game:host(c) ~= nil then
      game:attach(c, nil)
      game:note(game:name(c) .. " is removed from " .. game:name(game:host(c)))
    end
  end
end

-- 2.3 (optional rule `activation_sequence`): the phases of the sequence's variant. As a
-- group's activation begins, the side's units of other groups are marked `inactive` (they
-- cannot move, change facing or limber); group 0 floats (artillery, unnumbered units) and
-- may move in any one activation of its side. Routed units rout in their side's first
-- activation. Both sides check integrity in the command phase and rally at the end.
-- Returns true when the phase is handled here.
local function sequence_phase(game, phase, side)
  local activation = game:option("activation_sequence")
  if phase == "command" then
    local sides = activation and all_sides(game) or { side }
    if game:option("remove_commanders") then
      for _, s in ipairs(sides) do
        remove_commanders(game, s)
      end
    end
    if activation then
      for _, s in ipairs(sides) do
        integrity(game, s)
      end
    end
    return activation
  end
  if not activation then
    return false
  end
  local group = tonumber(string.match(phase, "^group (%d+) movement$"))
  if group ~= nil then
    local L = ledger(game)
    for _, u in ipairs(game:units(side)) do
      if is_unit(game, u) then
        local g = game:counter(u, "group")
        if g ~= 0 and g ~= group then
          L:set(u, "inactive", true)
        end
        if group == 1 and game:flag(u, "routed") then
          fall_back(L, u, game:facing(u), rout_distance(game, u), "routed")
        end
      end
    end
    return true
  elseif phase == "rally" then
    for _, s in ipairs(all_sides(game)) do
      rally(game, s)
    end
    return true
  end
  return false
end

-- 7c alt (optional rule `fire_order_roll`): as the first fire phase of a side turn begins
-- both sides roll a d6 and the higher fires first; on a tie the non-phasing side does, as
-- in the standard rule. The other side's units hold their fire (`holding_fire`) and fire in
-- the next phase (`fires_later`), where the first side's units hold theirs.
local function fire_order(game, phase, side)
  if phase ~= "first fire" and phase ~= "next fire" then
    return false
  end
  local L = ledger(game)
  if phase == "first fire" then
    local enemy = enemy_side(game, side)
    local mine = game:roll("d6", side .. " rolls to fire first")
    local theirs = game:roll("d6", enemy .. " rolls to fire first")
    local first = mine > theirs and side or enemy
    game:note(first .. " fires first (" .. side .. " " .. mine .. ", " .. enemy .. " " .. theirs .. ")")
    for _, u in ipairs(game:units()) do
      if is_unit(game, u) then
        local later = game:side(u) ~= first
        L:set(u, "fires_later", later)
        if later then
          L:set(u, "holding_fire", true)
        end
      end
    end
  else
    for _, u in ipairs(game:units()) do
      if is_unit(game, u) and not game:flag(u, "fires_later") then
        L:set(u, "holding_fire", true)
      end
    end
  end
  return true
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
  if sequence_phase(game, phase, side) or fire_order(game, phase, side) then
    return
  end
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
