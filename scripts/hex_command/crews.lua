-- Hex Command fire geometry and crews: heights, lines of fire blocked by friends, walls
-- and higher ground, batteries' crews stepping back and abandoning their guns, advances
-- after melee, the 4c overlap, and guns captured, dropped and manned again.

local commander_of = scripts.hc_core.commander_of
local in_contact = scripts.hc_core.in_contact
local is_unit = scripts.hc_core.is_unit
local is_marker = scripts.hc_core.is_marker
local ledger = scripts.hc_core.ledger
local named = scripts.hc_core.named
local refuse = scripts.hc_core.refuse
local sweep_skirmishers = scripts.hc_core.sweep_skirmishers
local has = scripts.hc_moves.has

local M = {}

local drop_guns
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
  -- Fake counters of hidden movement block nothing; a fake set up as a 3.1 marker (flag
  -- `hidden`) blocks as any marker does: the firer cannot tell it from a unit. A unit the
  -- firer's side has not sighted is off the table under hidden movement (l.264) and blocks
  -- nothing either: the line is judged on what the firing side knows (seventh round). A
  -- fake the firer's side knows to be one (its own, or one a sighting unmasked) is an empty
  -- plate to it and blocks nothing (eighth round).
  if u == nil or (game:kind(u) == "fake_counter" and not game:flag(u, "hidden"))
      or not game:known(u, side) or game:known_dummy(u, side) then
    return nil
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
  -- Pieces as the firer's side knows them (tenth round: a marker by its handle).
  local name, tname = game:name(actor), game:label(target, side)
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
      return nil, name .. " cannot see " .. tname .. ": " .. game:label(piece, side) .. " stands in the way"
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
  game:note(L:name(crew) .. " abandons the guns of " .. L:name(gun))
  step_back(L, crew, by, commander_of(game, gun))
end

-- The winner of a melee (its opponent routed or destroyed) advances into the hex left
-- (7.4) and may then change facing once in the melee phase (5.1b, 7.4: flag `victor`, a
-- facing change that needs no movement point and may be the turn's second). With the
-- optional rule `pursuit_facing` (charts page: a facing change INSTEAD of pursuing) it
-- stays, remembering the hex (`vacated_col`/`vacated_row`), and either advances there
-- (action `advance`) or changes facing.
-- 7.2.2 (issue 33): a winner still touched by an enemy in melee with it (one that joined the
-- melee) is locked: it neither advances nor turns, and fights on.
local function held(L, u)
  local e = in_contact(L, u)
  if e ~= nil then
    L.game:note(L:name(u) .. " is held in melee by " .. L:name(e) .. " and cannot advance")
    return true
  end
  L:set(u, "in_melee", false)
  L:add(u, "melee_rounds", -L:counter(u, "melee_rounds"))
  return false
end

local function win_melee(L, u, col, row)
  local game = L.game
  if held(L, u) then
    return
  end
  L:set(u, "victor", true)
  if L:counter(u, "face_changes") > 0 then
    L:add(u, "face_changes", -1)
  end
  if L:counter(u, "captured_gun") > 0 then
    -- A unit serving captured guns stays on them (issue 7: recapture).
    game:note(L:name(u) .. " stays with the guns it captured")
    return
  end
  if game:option("pursuit_facing") then
    L:add(u, "vacated_col", col + 1 - L:counter(u, "vacated_col"))
    L:add(u, "vacated_row", row + 1 - L:counter(u, "vacated_row"))
    game:note(L:name(u) .. " may advance or change facing instead")
    return
  end
  L:place(u, col, row, "advanced after melee")
  sweep_skirmishers(L, u, { { col = col, row = row } })
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
  -- 5.1b (issue 33): only into a vacated hex in its front arc; a defender meleed in the flank
  -- or rear neither advances nor turns.
  local uc, ur = L:cell(u)
  local dir = direction_to(game, uc, ur, col, row)
  local f = game:facing(u)
  if dir ~= f and dir ~= game:turned(f, 1) and dir ~= game:turned(f, -1) then
    return
  end
  if held(L, u) then
    return
  end
  L:set(u, "victor", true)
  if dir ~= nil and dir ~= game:facing(u) then
    game:face(u, dir)
  end
  if L:counter(u, "captured_gun") > 0 then
    game:note(L:name(u) .. " stays with the guns it captured")
    return
  end
  if game:option("pursuit_facing") or L:occupant(col, row) ~= nil then
    if dir ~= nil and dir ~= game:facing(u) then
      game:note(L:name(u) .. " turns to face (" .. col .. "," .. row .. ") instead of advancing")
    end
    return
  end
  L:place(u, col, row, "advanced after winning the melee it defended")
  sweep_skirmishers(L, u, { { col = col, row = row } })
end

-- Why `actor` may not advance now (the optional rule `pursuit_facing`), nil if it may.
function M.advance_check(game, actor)
  local name = game:name(actor)
  local col, row = game:counter(actor, "vacated_col") - 1, game:counter(actor, "vacated_row") - 1
  if not game:flag(actor, "victor") or col < 0 or row < 0 then
    return name .. " has no hex to advance into"
  end
  if game:unit_at(col, row) ~= nil then
    return name .. " cannot advance: (" .. col .. "," .. row .. ") is taken"
  end
end

function M.advance(game, actor)
  local problem = M.advance_check(game, actor)
  if problem ~= nil then
    refuse(game, problem)
  end
  local col, row = game:counter(actor, "vacated_col") - 1, game:counter(actor, "vacated_row") - 1
  local L = ledger(game, game:side(actor))
  L:add(actor, "vacated_col", -col - 1)
  L:add(actor, "vacated_row", -row - 1)
  local ac, ar = game:cell(actor)
  local dir = direction_to(game, ac, ar, col, row)
  if dir ~= nil then
    game:face(actor, dir)
  end
  L:place(actor, col, row, "advanced after melee")
  sweep_skirmishers(L, actor, { { col = col, row = row } })
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
  local shots = game:roll("1d6", "shots the new crew of " .. named(game, gun) .. " can use")
  L:add(by, "captured_shots", shots - L:counter(by, "captured_shots"))
  L:add(by, "captured_class", game:attribute(gun, "class") - L:counter(by, "captured_class"))
  L:add(by, "captured_gun", gun:id() + 1 - L:counter(by, "captured_gun"))
  L:remove(gun, "guns captured by " .. named(game, by))
  L:place(by, gc, gr, "advanced onto the captured guns")
  sweep_skirmishers(L, by, { { col = gc, row = gr } })
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
        game:note(L:name(gun) .. " are lost: no room to leave them at (" .. col .. "," .. row .. ")")
        return
      end
      L.gone[gun:id()] = nil
      L.at[gun:id()] = { col, row }
      table.insert(L.back, gun)
      game:place(gun, col, row, "guns left behind by " .. game:label(u, game:side(gun)))
      L:set(gun, "abandoned", true)
      L:add(u, "captured_shots", -L:counter(u, "captured_shots"))
      L:add(u, "captured_class", -L:counter(u, "captured_class"))
      L:add(u, "captured_gun", -held)
      return
    end
  end
end

-- A crew returns to abandoned guns of its side next to it, when no enemy is next to them.
function M.man_guns_check(game, actor, target)
  local name, tname = game:name(actor), game:label(target, game:side(actor))
  if game:kind(target) ~= "artillery" or not game:flag(target, "abandoned") then
    return tname .. " is not an abandoned battery"
  end
  local col, row = game:cell(target)
  for _, d in ipairs(HEX_DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    local e = nc and game:unit_at(nc, nr)
    if e ~= nil and game:side(e) ~= game:side(actor) and is_unit(game, e) and not game:flag(e, "routed") then
      return name .. " cannot return to " .. tname .. ": " .. game:label(e, game:side(actor)) .. " is next to the guns"
    end
  end
end

function M.man_guns(game, actor, target)
  local problem = M.man_guns_check(game, actor, target)
  if problem ~= nil then
    refuse(game, problem)
  end
  game:set_flag(target, "abandoned", false)
  game:attach(actor, target)
  game:note(game:name(actor) .. " returns to the guns of " .. game:name(target))
end

return {
  hooks = M,
  DEFENDER_ADVANCES = DEFENDER_ADVANCES,
  HEX_DIRS = HEX_DIRS,
  abandon_guns = abandon_guns,
  capture_guns = capture_guns,
  crew_of = crew_of,
  defender_wins = defender_wins,
  direction_to = direction_to,
  drop_guns = drop_guns,
  fire_line = fire_line,
  friend_next_to = friend_next_to,
  height = height,
  line_blocker = line_blocker,
  overlap_refused = overlap_refused,
  step_back = step_back,
  win_melee = win_melee,
}
