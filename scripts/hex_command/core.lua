-- Hex Command (gunpowder), shared helpers: what counts as a unit, commanders and
-- sides, the ledger each hook call keeps of what it has already asked for (requests made
-- through `game` are applied after the hook returns, and reads see the game as the call
-- began), and hits, routs and destruction.

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

-- A representative marker (3.1; sixth outside audit): a unit set up hidden or a fake
-- counter. The enemy knows its place and facing and nothing else, so rules the enemy's
-- orders meet (fire at it, its blocking the fire line) read no more of it than that.
local function is_marker(game, u)
  return game:kind(u) == "fake_counter" or game:flag(u, "hidden")
end

-- A unit, or a fake counter that stands for one (3.1 or hidden movement; sixteenth round):
-- the pieces the force's standing orders bind (decision failures, army integrity) and the
-- facing rules hold, since a fake that did otherwise than a unit would show itself a fake.
local function stands_as_unit(game, u)
  return is_unit(game, u) or game:kind(u) == "fake_counter"
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

-- Who reads what (tenth round: 3.1, l.264, l.313) ------------------------------------------

-- The side that reads what a phase hook writes now (its notes, and rolls no action made): the
-- owner of a side's own phase, or nil in the phases before and after the sides' turns, which
-- every side reads (arrivals, turn end; under the activation sequence every phase but the
-- groups' movements). A note or roll made for an order is read by the ordering side instead.
local function phase_reader(game)
  local phase = game:phase()
  if phase == "arrivals" or phase == "turn end" then
    return nil
  end
  if game:option("activation_sequence") and string.match(phase, "^group %d+ movement$") == nil then
    return nil
  end
  return game:phasing()
end

-- `u` named for the side `reader` (a side's name), as that side knows it (`game:label`: its
-- own pieces and enemies it has identified by id, a marker by its handle `enemy #N`, else
-- `an unseen enemy`). With `reader` nil every side reads the text (a shared phase, the reason
-- of a removal, a roll both sides see): the id only when every other side has identified the
-- piece, else `a <side> unit` (or commander), which tells no enemy more than it knows.
local function named(game, u, reader)
  if reader ~= nil then
    return game:label(u, reader)
  end
  local own, seen = game:side(u), {}
  for _, p in ipairs(game:units()) do
    local s = game:side(p)
    if s ~= own and not seen[s] then
      seen[s] = true
      if game:label(u, s) ~= game:name(u) then
        return "a " .. own .. " " .. (game:kind(u) == "commander" and "commander" or "unit")
      end
    end
  end
  return game:name(u)
end

-- The ledger of one hook call ------------------------------------------------------------

local Ledger = {}
Ledger.__index = Ledger

-- `reader`: the side an order's hook writes for (the ordering side); nil in a phase hook,
-- where it is the phase's reader (`phase_reader`).
local function ledger(game, reader)
  return setmetatable({ game = game, delta = {}, flags = {}, at = {}, gone = {}, back = {}, dropped = {},
    reader = reader or phase_reader(game) }, Ledger)
end

-- `u` named for whoever reads this call's notes.
function Ledger:name(u)
  return named(self.game, u, self.reader)
end

-- `u` named in the purpose of a roll of one piece against another (`by`/`against` given):
-- always its id. The engine words such a roll itself, in its own labels, for each side that
-- has not identified either piece, and the referee reads the ids; a side that has
-- identified both reads them too. This holds for a roll a phase hook makes as well (a melee
-- owed as the melee phase ends): worded in the phasing side's labels, the other side read
-- its own pieces under the phasing side's handles, whose numbers tell that side's piece
-- count (the sixteenth outside audit's #6).
function Ledger:roll_name(u)
  return self.game:name(u)
end

-- Captured guns a unit holds are left on the board where it stood when it routs or is
-- destroyed (issue 7: recapture): `drop_guns` in crews.lua, reached through `scripts.hc_crews`
-- because that module loads after this one.
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

-- `left`: the unit left the field (a withdrawal or a rout off the board), not destroyed;
-- a commander still with it leaves with it (eighth round; l.243 captures the commander of a
-- unit that routs, as it routs).
function Ledger:remove(u, reason, left)
  if self.gone[u:id()] then
    return
  end
  self.gone[u:id()] = true
  self.game:remove(u, reason)
  for _, a in ipairs(self.game:attached(u)) do
    if self.game:kind(a) == "commander" then
      self.gone[a:id()] = true
      self.game:remove(a, left and "commander left the field with his unit"
        or "commander captured: his unit was destroyed")
    elseif self.game:kind(a) == "crew" then
      self.gone[a:id()] = true
      self.game:remove(a, "crew lost with its guns")
    end
  end
  scripts.hc_crews.drop_guns(self, u)
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
  -- Our reading (004 says nothing of it): an enemy commander standing alone in the hex a
  -- unit is put into by force — the hex its routed opponent left, say — is captured, as a
  -- commander whose unit routs is.
  local game = self.game
  for _, c in ipairs(game:units()) do
    if not self.gone[c:id()] and game:kind(c) == "commander" and game:side(c) ~= game:side(u)
        and game:host(c) == nil then
      local cc, cr = self:cell(c)
      if cc == col and cr == row then
        self.gone[c:id()] = true
        game:remove(c, "commander captured: " .. named(game, u) .. " entered his hex")
      end
    end
  end
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

-- 7.5 (l.396): 4 hexes for cavalry and artillery, 3 for the rest; mounted infantry is
-- "normal infantry" (l.268), not cavalry, so it routs 3, mounted or not (eighth round).
local function rout_distance(game, u)
  local kind = game:kind(u)
  if kind == "cavalry" or kind == "artillery" then
    return 4
  end
  return 3
end

-- The enemy as the side `side` knows it (nineteenth round, fourteenth outside audit #13, #14;
-- 3.1 l.467, l.264): a marker whose place it knows and which it has not identified, real or a
-- fake, is an enemy unit facing its way, with a unit's zone (its three front hexes) whatever
-- its hits, fatigue or fakeness, as movement and the owed melee judge it; a rout is judged
-- so, or it would tell the routing side what the marker is.
local function unknown_marker(game, e, side)
  return is_marker(game, e) and game:known(e, side) and game:label(e, side) ~= game:name(e)
    and not game:known_dummy(e, side)
end

-- Whether the cell is in an enemy zone of control as `side` knows the enemy (see above).
local function enemy_zone(L, col, row, side)
  local game = L.game
  local foe = enemy_side(game, side)
  if foe == nil or col == nil then
    return false
  end
  for _, e in ipairs(game:units(foe)) do
    local facing = game:facing(e)
    if not L.gone[e:id()] and facing ~= nil and unknown_marker(game, e, side) then
      local ec, er = L:cell(e)
      for k = -1, 1 do
        local nc, nr = game:neighbour(ec, er, game:turned(facing, k))
        if nc == col and nr == row then
          return true
        end
      end
    end
  end
  return game:zoc(col, row, foe) ~= nil
end

-- A fake counter holding a cell that `side` takes for a unit (a fake holds its hex as in
-- movement: a rout meets it as an enemy unit, and it is not unmasked by that).
local function fake_held(L, col, row, side)
  local piece = col ~= nil and L.game:unit_at(col, row) or nil
  return piece ~= nil and not L.gone[piece:id()] and L.game:kind(piece) == "fake_counter"
    and unknown_marker(L.game, piece, side)
end

-- A fake counter of the routing unit's own side (twenty-fourth round, the nineteenth outside
-- audit's L3, #27-28): it weighs as a unit for passing through (5.3 l.542, 5f l.525), so a
-- rout meets it as it meets a friend (7.5.1 l.405), or the enemy would read a fake by the rout.
local function own_fake(L, col, row, side)
  local piece = col ~= nil and L.game:unit_at(col, row) or nil
  return piece ~= nil and not L.gone[piece:id()] and L.game:kind(piece) == "fake_counter"
    and L.game:side(piece) == side and piece or nil
end

-- The friend a unit of `side` passes through at a cell (twenty-eighth round, the twenty-second
-- outside audit's L1; 5f l.525, 5.3 l.542, 7.5.1 l.405): a unit of its side, or a fake counter
-- of its side, which weighs as the unit it poses as. The one rule for every pass through
-- friends: a move's TE hits (`moved`, the disorder stop), a rout and a withdrawal.
local function friend_passed(L, col, row, side)
  local there = L:occupant(col, row) or own_fake(L, col, row, side)
  if there ~= nil and L.game:side(there) == side then
    return there
  end
  return nil
end

-- Moves a unit `steps` hexes in direction `dir`: through one friend into an empty hex
-- beyond (the friend takes a TE hit; never cavalry through cavalry or artillery), destroyed by
-- enemies, enemy zones and a crowded passage; off the board it is lost; at impassable ground it stops.
local function fall_back(L, u, dir, steps, why)
  local game = L.game
  local side = game:side(u)
  local col, row = L:cell(u)
  local start_col, start_row = col, row
  local kind = game:kind(u)
  local i = 0
  while i < steps do
    local nc, nr = game:neighbour(col, row, dir)
    if nc == nil then
      L:remove(u, why .. ": left the field", true)
      return
    end
    if game:terrain(nc, nr) == "lake" then
      break
    end
    local there = friend_passed(L, nc, nr, side) or L:occupant(nc, nr)
    if there == nil and fake_held(L, nc, nr, side) then
      L:remove(u, why .. ": ran into the enemy and was destroyed")
      return
    end
    -- A lone enemy commander (a piece, not a unit: 7.5.1 speaks of units) halts the rout
    -- before its hex, as impassable ground does (our reading; the hex is the enemy's).
    local piece = game:unit_at(nc, nr)
    if there == nil and piece ~= nil and not L.gone[piece:id()] and game:side(piece) ~= side then
      break
    end
    if there ~= nil and game:side(there) ~= side then
      L:remove(u, why .. ": ran into the enemy and was destroyed")
      return
    end
    if enemy_zone(L, nc, nr, side) then
      L:remove(u, why .. ": fell back into an enemy zone of control and was destroyed")
      return
    end
    if there ~= nil then
      -- Through one friend only, never cavalry through artillery, to an empty hex beyond.
      local bc, br = game:neighbour(nc, nr, dir)
      -- 7.5.1: through a friend only if one of the two is not cavalry (issue 33).
      if kind == "cavalry" and game:kind(there) == "cavalry" then
        L:remove(u, why .. ": cavalry cannot rout through cavalry (" .. named(game, there) .. "); destroyed")
        return
      end
      -- 7.5.1 (l.406): routing cavalry may not pass through artillery, whatever lies behind.
      if kind == "cavalry" and game:kind(there) == "artillery" then
        L:remove(u, why .. ": cavalry may not rout through artillery (" .. named(game, there) .. "); destroyed")
        return
      end
      local blocked = bc == nil or L:occupant(bc, br) ~= nil or fake_held(L, bc, br, side)
        or own_fake(L, bc, br, side) ~= nil
        or game:terrain(bc, br) == "lake" or enemy_zone(L, bc, br, side)
      if blocked then
        L:remove(u, why .. ": no room behind " .. named(game, there) .. "; destroyed")
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
  L:set(u, "routed_now", true)
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
  scripts.hc_crews.drop_guns(L, u, col, row)
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

-- A refusal in the rule's words (issue 33): `game:refuse` where the engine has it (no script
-- path or line reaches the player), else a plain error.
local function refuse(game, text)
  if game.refuse ~= nil then
    game:refuse(text)
  end
  error(text, 0)
end

-- Melee contact (7.3d, 7.2.2; issue 33) --------------------------------------------------

local DIRS = { "E", "SE", "SW", "W", "NW", "NE" }

-- An enemy unit next to `u` that is in melee, as this call has left things (`except`: one
-- to leave out, the opponent just beaten): `u` is still in melee with it.
local function in_contact(L, u, except)
  local game = L.game
  local col, row = L:cell(u)
  for _, d in ipairs(DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    local e = nc and L:occupant(nc, nr)
    if e ~= nil and e ~= except and game:side(e) ~= game:side(u) and L:flag(e, "in_melee")
        and not L:flag(e, "routed") then
      return e
    end
  end
  return nil
end

-- A melee ends for a unit only when no enemy in melee touches it any more (its opponents
-- routed, destroyed or gone): then it is out of melee at once (issue 33: not at the turn's end).
local function release(L)
  local game = L.game
  for _, u in ipairs(game:units()) do
    if not L.gone[u:id()] and is_unit(game, u) and L:flag(u, "in_melee") and in_contact(L, u) == nil then
      L:set(u, "in_melee", false)
      L:add(u, "melee_rounds", -L:counter(u, "melee_rounds"))
    end
  end
end

-- 7.2 (004 l.475): skirmishers do not melee. An enemy force that touches a hex next to them
-- (a move or an advance entering it) sweeps them off: mounted cavalry destroys them; any
-- other force makes their owner remove them (the default) or rout them (the optional rule
-- `skirmishers_rout`, the owner's other choice made for the game). The forces are those that
-- melee: foot, light infantry, horse, mounted infantry; skirmishers, guns, crews and wagons
-- do not melee (7.2; Artillery, Melee and Rout) and sweep no one. `cells` are the hexes `u`
-- entered, as `{col =, row =}`.
local SWEEPERS = { infantry = true, light_infantry = true, cavalry = true, mounted_infantry = true }
local function sweep_skirmishers(L, u, cells)
  local game = L.game
  if not SWEEPERS[game:kind(u)] or L.gone[u:id()] or L:flag(u, "routed") then
    return
  end
  local side = game:side(u)
  local mounted = game:kind(u) == "cavalry" and game:mode(u) == "formed"
  for _, c in ipairs(cells) do
    for _, d in ipairs(DIRS) do
      local nc, nr = game:neighbour(c.col, c.row, d)
      local s = nc and L:occupant(nc, nr)
      if s ~= nil and game:side(s) ~= side and game:kind(s) == "skirmishers" and not L.gone[s:id()] then
        if mounted then
          L:remove(s, "skirmishers contacted by cavalry (" .. named(game, u) .. "): destroyed")
        elseif not L:flag(s, "routed") then
          if game:option("skirmishers_rout") then
            game:note(L:name(u) .. " touched a hex next to " .. L:name(s) .. ": the skirmishers rout")
            rout(L, s)
          else
            L:remove(s, "skirmishers touched by " .. named(game, u) .. " next to them: removed")
          end
        end
      end
    end
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

return {
  hooks = M,
  COVER_FORT = COVER_FORT,
  DIRS = DIRS,
  in_contact = in_contact,
  refuse = refuse,
  release = release,
  Ledger = Ledger,
  UNIT_KINDS = UNIT_KINDS,
  commander_of = commander_of,
  enemy_side = enemy_side,
  enemy_zone = enemy_zone,
  fall_back = fall_back,
  friend_passed = friend_passed,
  hit = hit,
  is_unit = is_unit,
  is_marker = is_marker,
  stands_as_unit = stands_as_unit,
  ledger = ledger,
  named = named,
  phase_reader = phase_reader,
  rout = rout,
  rout_distance = rout_distance,
  rout_limit = rout_limit,
  sweep_skirmishers = sweep_skirmishers,
  te_hit = te_hit,
}
