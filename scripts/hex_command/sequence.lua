-- Hex Command sequence of play: reinforcements and withdrawals, losses and army
-- integrity, rallies, the end of the turn, pontoon bridges, commander removal, the
-- activation sequence and the fire-order roll, and each phase's start.

local enemy_side = scripts.hc_core.enemy_side
local fall_back = scripts.hc_core.fall_back
local is_unit = scripts.hc_core.is_unit
local ledger = scripts.hc_core.ledger
local named = scripts.hc_core.named
local phase_reader = scripts.hc_core.phase_reader
local rout_distance = scripts.hc_core.rout_distance
local stands_as_unit = scripts.hc_core.stands_as_unit
local has = scripts.hc_moves.has
local roll_cvs = scripts.hc_command.roll_cvs
local note_cvs = scripts.hc_command.note_cvs
local test_aggression = scripts.hc_command.test_aggression
local update_caution = scripts.hc_command.update_caution
local forced_melees = scripts.hc_melee.forced_melees

local M = {}

-- Reinforcements (4) ---------------------------------------------------------------------

local DIRS = { "E", "SE", "SW", "W", "NW", "NE" }

-- Hex distance between two cells of this pointy-top grid (odd rows shoved east).
local function hex_distance(c1, r1, c2, r2)
  local q1, q2 = c1 - (r1 - (r1 % 2)) // 2, c2 - (r2 - (r2 % 2)) // 2
  local dq, dr = q1 - q2, r1 - r2
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end

local PLACES = { ["first place"] = 1, ["second place"] = 2, ["third place"] = 3 }

-- Whether the piece `e` holds an entry place against `side`'s arrivals (4b, l.512-514): an
-- enemy unit, or an enemy 3.1 marker `side` has not identified, real or a fake (twenty-second
-- round, seventeenth outside audit F1: the arriving side judges the place as it knows the
-- enemy, as it does zones, routs and fall-backs, note 64; a fake it has unmasked is an empty
-- plate). A 3.1 marker's place is always on the table, so only its unmasking is asked (the
-- first phase's hook runs before the sides' first sighting). Hidden movement's decoys hold
-- nothing, as they block no fire line: the owner or a judge answers from the hidden map
-- (l.264), where only the real unit stands.
local function holds_entry(game, e, side)
  if e == nil or game:side(e) == side then
    return false
  end
  if is_unit(game, e) then
    return true
  end
  return game:kind(e) == "fake_counter" and game:flag(e, "hidden") and not game:known_dummy(e, side)
end

-- 4a/4d: in the arrivals phase every off-board unit whose counter `arrives` has come due
-- enters at its place (counter `entry`, board region `entry_N`; entry 0: the side rolls
-- the d6 entry chart once for the turn's arrivals). Each takes the first cell of the place
-- that no piece holds; a fake counter set up so arrives as the marker it is, by the same
-- roll and placement, and counts in the force's apparent strength (twenty-second round,
-- F2). 4b: when the enemy holds the place (`holds_entry`), the rest wait a turn, the enemy
-- is told how many are coming, and its units and unidentified markers on the place are
-- marked `blocking` (they may withdraw two moves in their movement phase). When no hex is
-- left only because the side's own pieces fill them, they wait unannounced (F6).
local function arrivals(game)
  local turn = game:turn()
  local taken, rolled, blocked = {}, {}, {}
  -- The commanders riding each reinforcement: his `arrives` is spent when it comes on.
  local riders = {}
  for _, u in ipairs(game:off_board_units()) do
    local host = game:kind(u) == "commander" and game:host(u) or nil
    if host ~= nil then
      riders[host] = riders[host] or {}
      table.insert(riders[host], u)
    end
  end
  for _, u in ipairs(game:off_board_units()) do
    local due = game:counter(u, "arrives")
    -- A commander attached to a reinforcement arrives with it, on its hex (6, l.565-571;
    -- 2b, l.238): placing the host brings him (twentieth outside audit W1: he was set down
    -- on a free hex of his own, which showed the enemy that a hidden arrival had one).
    local riding = game:kind(u) == "commander" and game:host(u) ~= nil
    if due > 0 and due <= turn and not riding then
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
      -- 4b (our reading, issue 33): an enemy unit on any hex of the place blocks it.
      local held = false
      for _, c in ipairs(cells) do
        if holds_entry(game, game:unit_at(c.col, c.row), side) then
          held = true
        end
      end
      -- A lone commander is no force the enemy's units block (l.514 speaks of units; a
      -- commander weighs nothing in a hex, 2a-b, 5.3; eighteenth outside audit F7): he comes
      -- on at any free hex of the place, and waits only when none is free.
      local lone = game:kind(u) == "commander"
      for _, c in ipairs((held and not lone) and {} or cells) do
        local key = c.col .. "," .. c.row
        if not taken[key] and game:unit_at(c.col, c.row) == nil then
          taken[key] = true
          game:place(u, c.col, c.row, "reinforcement arriving at entry place " .. k)
          game:add_counter(u, "arrives", -due)
          for _, r in ipairs(riders[u] or {}) do
            game:add_counter(r, "arrives", -game:counter(r, "arrives"))
          end
          placed = true
          break
        end
      end
      if not placed and held then
        local b = blocked[side .. k] or { side = side, k = k, n = 0, c = 0, cells = cells }
        if lone then
          b.c = b.c + 1
        else
          b.n = b.n + 1
        end
        blocked[side .. k] = b
      end
      -- 4b speaks only of enemy units on the place (l.514): a place full of the side's own
      -- pieces tells the enemy nothing (eighteenth outside audit F6). The arrival waits a
      -- turn unannounced; its owner sees it still off the board, due, and the place full.
    end
  end
  local keys = {}
  for key in pairs(blocked) do
    table.insert(keys, key)
  end
  table.sort(keys)
  for _, key in ipairs(keys) do
    local b = blocked[key]
    -- The apparent strength (4b): units and markers counted, a commander (always on the
    -- table, twentieth round) named as what he is.
    local what = {}
    if b.n > 0 then
      table.insert(what, b.n .. (b.n == 1 and " unit" or " units"))
    end
    if b.c > 0 then
      table.insert(what, b.c == 1 and "a commander" or (b.c .. " commanders"))
    end
    local one = b.n + b.c == 1
    game:announce(b.side .. ": " .. table.concat(what, " and ") .. (one and " is" or " are")
      .. " arriving at entry place " .. b.k .. ", which the enemy holds; "
      .. ((one and b.c == 1) and "he waits" or "they wait") .. " a turn")
    -- Only a force of units makes the blockers' two moves away worth offering.
    for _, c in ipairs(b.n > 0 and b.cells or {}) do
      local e = game:unit_at(c.col, c.row)
      if holds_entry(game, e, b.side) then
        game:set_flag(e, "blocking", true)
      end
    end
  end
end

-- The hexes of entry place k; a scenario need define only the places it uses (second
-- audit #27): a place it leaves out is no entry place, and has no hexes.
local function entry_cells(game, k)
  local ok, cells = pcall(game.region, game, "entry_" .. k)
  return ok and cells or {}
end

-- What fills entry place k against `side`'s arrival, in words, by what stands there now: its
-- own pieces, an enemy commander (no unit, he holds no entry, l.514) or enemy pieces that
-- hold nothing (a dummy it has unmasked).
local function fillers(game, side, k)
  local own, commander, other = false, false, false
  for _, c in ipairs(entry_cells(game, k)) do
    local e = game:unit_at(c.col, c.row)
    if e ~= nil then
      if game:side(e) == side then
        own = true
      elseif game:kind(e) == "commander" then
        commander = true
      else
        other = true
      end
    end
  end
  local what = {}
  if own then
    table.insert(what, "its own side's pieces")
  end
  if commander then
    table.insert(what, "an enemy commander (no unit, holding no entry)")
  end
  if other then
    table.insert(what, "enemy pieces that hold no entry")
  end
  if #what == 0 then
    return nil
  end
  return table.concat(what, " and ") .. ((#what == 1 and commander) and " fills it" or " fill it")
end

-- F6 (eighteenth outside audit): the arrivals phase is both sides', so its notes reach the
-- enemy too. In its own first phase (the command phase; under the activation sequence its
-- group 1 movement) a side is told which of its reinforcements due could not come on, and
-- why, when the enemy does not hold the place (that case the announcement told every side).
-- The cause is the one met when the arrival came due (twenty-ninth round, W1): an arrival the
-- enemy held off whose blockers have since gone (an enemy marked `blocking` or `withdrawn`
-- this turn, and a hex of the place free now) is told so, not that its own pieces fill a
-- place where none stands. (An off-board piece carries no flag, so the blockers' marks are
-- the trace the arrivals phase leaves.)
local function enemy_blocked(game, side)
  for _, e in ipairs(game:units(enemy_side(game, side))) do
    if game:flag(e, "blocking") or game:flag(e, "withdrawn") then
      return true
    end
  end
  return false
end

local function waiting_notes(game, side)
  for _, u in ipairs(game:off_board_units(side)) do
    local due = game:counter(u, "arrives")
    if due > 0 and due <= game:turn() then
      local k = game:counter(u, "entry")
      local held = false
      for _, c in ipairs(k > 0 and entry_cells(game, k) or {}) do
        held = held or holds_entry(game, game:unit_at(c.col, c.row), side)
      end
      local name = game:name(u)
      local what = k > 0 and fillers(game, side, k) or nil
      local free = false
      for _, c in ipairs(k > 0 and entry_cells(game, k) or {}) do
        free = free or game:unit_at(c.col, c.row) == nil
      end
      if not held and (free or k == 0) and enemy_blocked(game, side) then
        local place = k > 0 and ("entry place " .. k) or "the entry place rolled for it"
        game:note(name .. " is due but the enemy held " .. place .. " when it came due"
          .. " (the block announced this turn); it waits a turn")
      elseif k == 0 then
        game:note(name .. " is due but found no free hex at the entry place rolled for it; it waits a turn")
      elseif not held then
        game:note(name .. " is due but found no free hex at entry place " .. k
          .. " (" .. (what or "it was full when the arrival came due") .. "); it waits a turn")
      end
    end
  end
end

-- 4b: a unit blocking an arrival may make two full moves away from the entry place (issue
-- 33: a path of up to twice its allowance in hexes, not a straight line into the edge),
-- ending in the hex farthest from the place (then the fewest steps, then the lowest row and
-- column). It goes round pieces, lakes and ground its arm may not enter (forest for mounted
-- horse and guns, forts for guns), stops on entering an enemy zone of control, and does not
-- move again this turn. Returns the path's last direction and end cell, or nil and why not.
local function withdrawal(game, actor)
  local name = game:name(actor)
  if game:moved(actor) then
    return nil, name .. " has moved this turn"
  end
  local col, row = game:cell(actor)
  local place = {}
  for k = 1, 3 do
    for _, c in ipairs(entry_cells(game, k)) do
      if hex_distance(c.col, c.row, col, row) <= 1 then
        for _, x in ipairs(entry_cells(game, k)) do
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
  local kind, mode = game:kind(actor), game:mode(actor)
  local function may_enter(c, r)
    local t = game:terrain(c, r)
    if t == nil or t == "lake" or game:unit_at(c, r) ~= nil then
      return false
    end
    if t == "forest" and (kind == "artillery" or ((kind == "cavalry" or kind == "mounted_infantry") and mode == "formed")) then
      return false
    end
    return not (t == "fort" and kind == "artillery")
  end
  local view = scripts.hc_core.ledger(game)
  local function zone(c, r)
    return scripts.hc_core.enemy_zone(view, c, r, game:side(actor))
  end
  local steps = 2 * math.floor(game:allowance(actor) or 0)
  local key = function(c, r) return c .. "," .. r end
  local seen = { [key(col, row)] = { col, row, 0, nil } }
  local frontier = { { col, row } }
  local best = { col, row, 0, away(col, row) }
  for n = 1, steps do
    local next_frontier = {}
    for _, at in ipairs(frontier) do
      for _, d in ipairs(DIRS) do
        local nc, nr = game:neighbour(at[1], at[2], d)
        if nc ~= nil and seen[key(nc, nr)] == nil and may_enter(nc, nr) then
          seen[key(nc, nr)] = { at[1], at[2], n, d }
          local score = away(nc, nr)
          if score > best[4] or (score == best[4] and n == best[3] and (nr < best[2] or (nr == best[2] and nc < best[1]))) then
            best = { nc, nr, n, score }
          end
          -- Entering an enemy zone of control ends the move there.
          -- (As the side knows the enemy: a marker it has not identified has a unit's zone.)
          if not zone(nc, nr) then
            table.insert(next_frontier, { nc, nr })
          end
        end
      end
    end
    frontier = next_frontier
  end
  if best[3] == 0 then
    return nil, name .. " has nowhere to withdraw to"
  end
  return seen[key(best[1], best[2])][4], best[1], best[2]
end

-- Its check (`check:`): the engine asks it before the action, and the legal orders on it.
function M.withdraw_check(game, actor)
  if not game:flag(actor, "blocking") then
    return game:name(actor) .. " blocks no arriving force: only a unit on their entry place may withdraw from them (4b)"
  end
  local dir, why = withdrawal(game, actor)
  if dir == nil then return why end
end

function M.withdraw(game, actor)
  -- Its check has passed: `withdrawal` finds a direction.
  local dir, c, r = withdrawal(game, actor)
  game:face(actor, dir)
  game:place(actor, c, r, "withdrew two moves from the arriving force")
  game:set_flag(actor, "disturbed", true)
  game:set_flag(actor, "blocking", false)
  game:set_flag(actor, "withdrawn", true)
end

-- The sequence of play ------------------------------------------------------------------

-- Each side's force for the army-integrity check, read from the game every time (a script
-- keeps no state between calls, so a replayed or restarted game reads the same): units and
-- commanders on the board, and those off it that are not reinforcements still to come (nor
-- commanders riding one) — those are lost.
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
    -- A commander riding a reinforcement still to come has not arrived either: he is not
    -- lost (l.170, l.456; eighteenth outside audit F2), as one due on his own is not.
    local host = game:kind(u) == "commander" and game:host(u) or nil
    local coming = host ~= nil and not game:on_board(host) and game:counter(host, "arrives") > 0
    if game:counter(u, "arrives") == 0 and not coming then
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

-- Army integrity (sequence of play 2; Rules by Sequence 2): a side checks when its losses
-- reach the break point, and (issue 33, 004 l.170) when all its commanders are lost.
local function integrity(game, side)
  local losses = M.losses(game, side)
  local r = roster_of(game, side)
  local leaderless = r.lost_commanders > 0
  for _, c in ipairs(game:units(side)) do
    if game:kind(c) == "commander" then
      leaderless = false
    end
  end
  if losses < game:setting("break_point") and not leaderless then
    return
  end
  if leaderless then
    game:note(side .. " has no commander left on the field: integrity check")
  else
    game:note(side .. " has lost " .. losses .. "%: integrity check")
  end
  local L = ledger(game)
  -- Sixteenth round (the eleventh outside audit's row 15): fakes roll too and withdraw as
  -- units do, so a marker seen to withdraw is not thereby real (3.1, l.264).
  for _, u in ipairs(game:units(side)) do
    if stands_as_unit(game, u) and not game:flag(u, "routed") then
      if game:resolve("integrity", {}, "integrity of " .. named(game, u, phase_reader(game))) == "withdraw" then
        local back = game:turned(game:facing(u), 3)
        fall_back(L, u, back, 3, "withdrew (army integrity)")
      end
    end
  end
end

-- One unit with a commander rallies (8, sequence of play 8): out of rout, its TE hits gone,
-- one hit (all with `rally_all_hits`); a routed unit that rallies may turn to face.
local function rally_unit(L, u)
  local game = L.game
  local was_routed = L:flag(u, "routed")
  if was_routed then
    L:set(u, "routed", false)
    L:set(u, "rallied", true)
  end
  if L:counter(u, "te") > 0 then
    L:add(u, "te", -L:counter(u, "te"))
  end
  if was_routed and game:option("rally_costs_te") then
    L:add(u, "te", 1)
  end
  L:set(u, "fatigued", false)
  local hits = L:counter(u, "hits")
  if hits > 0 then
    L:add(u, "hits", game:option("rally_all_hits") and -hits or -1)
  end
  if was_routed or hits > 0 then
    game:note(L:name(u) .. " rallies")
  end
  return was_routed or hits > 0
end

-- Rally (8) on the ledger `L` of the hook call (the melees owed were fought as the melee
-- phase ended, in the `phase_end` hook). A unit rallied here may turn to face as its player
-- wishes (flag `rallied`: a facing change in the rally phase).
local function rally(game, side, L)
  local sphere = game:option("command_sphere")
  local rallied, by = {}, {}
  for _, c in ipairs(game:units(side)) do
    local host = game:kind(c) == "commander" and not L.gone[c:id()] and game:host(c) or nil
    if host ~= nil and not L.gone[host:id()] then
      rallied[host:id()] = host
      by[host:id()] = c
      if sphere then
        local col, row = L:cell(host)
        for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
          local nc, nr = game:neighbour(col, row, d)
          local u = nc and L:occupant(nc, nr)
          if u ~= nil and game:side(u) == side and is_unit(game, u) then
            rallied[u:id()] = u
            by[u:id()] = by[u:id()] or c
          end
        end
      end
    end
  end
  -- A commander who rallied a unit here has done his rally for the turn (flag `rallying`):
  -- he does not join and rally a routed unit besides (eighth round).
  for id, u in pairs(rallied) do
    if not L:flag(u, "in_melee") and rally_unit(L, u) then
      L:set(by[id], "rallying", true)
    end
  end
  -- 8 (rally c): the most valuable units (attribute `self_rally`) remove one hit without a
  -- commander.
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and not L.gone[u:id()] and rallied[u:id()] == nil and game:attribute(u, "self_rally") > 0
        and not L:flag(u, "in_melee") and L:counter(u, "hits") > 0 then
      L:add(u, "hits", -1)
      game:note(L:name(u) .. " rallies on its own")
    end
  end
  if game:option("supply") then
    for _, u in ipairs(game:units(side)) do
      if is_unit(game, u) and not L.gone[u:id()] and game:kind(u) ~= "wagon" then
        for _, w in ipairs(game:units(side)) do
          if game:kind(w) == "wagon" and game:distance(u, w) <= 2 then
            L:add(u, "supply", 12 - L:counter(u, "supply"))
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
    if stands_as_unit(game, u) and game:counter(u, "steps_moved") > 0 then
      L:add(u, "steps_moved", -game:counter(u, "steps_moved"))
    end
    if is_unit(game, u) then
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
          game:note(L:name(u) .. " stays locked in melee")
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

-- Its check (`check:`): the engine asks it before the action, and the legal orders on it.
function M.bridge_check(game, actor)
  local name = game:name(actor)
  if game:moved(actor) then
    return name .. " has moved this turn and cannot work on a bridge"
  end
  local col, row = game:cell(actor)
  local nc, nr = game:neighbour(col, row, game:facing(actor))
  if nc == nil then
    return name .. " faces the edge of the field: there is nothing to bridge"
  end
  local feats = game:features(col, row, nc, nr)
  if not has(feats, "stream") then
    return name .. " must face a stream to bridge it"
  end
  if has(feats, "bridge") then
    return "there is already a bridge across the stream in front of " .. name
  end
end

function M.bridge(game, actor)
  local name = game:name(actor)
  local col, row = game:cell(actor)
  local nc, nr = game:neighbour(col, row, game:facing(actor))
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
-- Twenty-fourth round (the nineteenth outside audit's L2, #15; l.171, l.452, l.264): a
-- commander whose unit the enemy has not identified (a marker, or out of its sight) stays
-- with it, as if taken off and put back at once unseen: set down on the unit's hex he would
-- show the enemy where a real unit stands. His side may still attach him elsewhere.
local function identified_by_foe(game, side, host)
  local foe = enemy_side(game, side)
  return foe == nil or (game:known(host, foe) and game:label(host, foe) == game:name(host))
end

local function remove_commanders(game, side)
  for _, c in ipairs(game:units(side)) do
    if game:kind(c) == "commander" and game:host(c) ~= nil and identified_by_foe(game, side, game:host(c)) then
      game:attach(c, nil)
      local reader = phase_reader(game)
      game:note(named(game, c, reader) .. " is removed from " .. named(game, game:host(c), reader))
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
      -- A fake counter keeps its group as a unit does (2.3 l.380-384, note 74; sixteenth
      -- outside audit #27): one that moved in any activation would show itself a fake.
      if stands_as_unit(game, u) then
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
    local L = ledger(game)
    for _, s in ipairs(all_sides(game)) do
      rally(game, s, L)
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
  if game:turn() == 1 and phase == "arrivals" then
    scripts.hc_command.check_set_up_attachments(game)
  end
  -- The CVS table is rolled once, as the game starts (its first phase).
  if game:turn() == 1 and phase == "arrivals" and game:option("random_cvs") then
    for _, c in ipairs(game:units()) do
      if game:kind(c) == "commander" then
        roll_cvs(game, c)
      end
    end
  end
  -- Each side learns its own commanders' rolled traits in its first phase of its own, whose
  -- notes no other side reads (l.313): its command phase; under the activation sequence,
  -- where the command phase is both sides', its group 1 movement (tenth round).
  local own_first = game:option("activation_sequence") and "group 1 movement" or "command"
  if game:turn() == 1 and phase == own_first and game:option("random_cvs") then
    note_cvs(game, game:phasing())
  end
  -- Pike and shot (optional, issue 33): guns set up unlimbered are planted where they stand.
  if game:turn() == 1 and phase == "arrivals" and game:option("pike_and_shot") then
    for _, g in ipairs(game:units()) do
      if game:kind(g) == "artillery" and game:mode(g) == "unlimbered" and not game:flag(g, "planted") then
        game:set_flag(g, "planted", true)
      end
    end
  end
  -- 004 l.120: a side turn's fire phases (under the activation sequence, the turn's) are one
  -- simultaneous exchange; the hits taken from fire count against fire from the next one on.
  if phase == "command" then
    for _, u in ipairs(game:units()) do
      if game:counter(u, "fire_hits") > 0 then
        game:add_counter(u, "fire_hits", -game:counter(u, "fire_hits"))
      end
    end
  end
  local side = game:phasing()
  -- 2.2.2 result 3 (l.339; tenth round): Aggressiveness tests as a side's command phase
  -- begins (under the activation sequence, both sides' one), and the cautious units' bar
  -- kept as every phase begins.
  local caution = ledger(game)
  -- Tribes (optional, l.260): the designated units check their morale once, as the game
  -- starts: each side's in its first phase of its own.
  if game:turn() == 1 and phase == own_first and game:option("tribes") then
    scripts.hc_command.tribal_morale(caution, side)
  end
  if phase == "command" and game:turn() > 1 then
    for _, s in ipairs(game:option("activation_sequence") and all_sides(game) or { side }) do
      test_aggression(caution, s)
    end
  end
  update_caution(caution)
  if phase == own_first then
    waiting_notes(game, side)
  end
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
    rally(game, side, ledger(game))
  elseif phase == "turn end" then
    turn_end(game)
  end
end

-- 7.2.1 and 7.3d (l.480, l.413): as a side's melee phase ends, its units fight the melees
-- they still owe and those going on (`forced_melees`), logged in that phase. Under the
-- activation sequence the two melee phases are one round: the owed melees of both sides are
-- fought as the second ends.
function M.phase_end(game, phase)
  if phase == "melee" and not game:option("activation_sequence") then
    forced_melees(game, { game:phasing() })
  elseif phase == "second melee" then
    forced_melees(game, all_sides(game))
  end
end

return {
  hooks = M,
  DIRS = DIRS,
  PLACES = PLACES,
  PONTOON_TURNS = PONTOON_TURNS,
  all_sides = all_sides,
  arrivals = arrivals,
  fire_order = fire_order,
  hex_distance = hex_distance,
  integrity = integrity,
  rally = rally,
  rally_unit = rally_unit,
  remove_commanders = remove_commanders,
  roster_of = roster_of,
  sequence_phase = sequence_phase,
  turn_end = turn_end,
}
