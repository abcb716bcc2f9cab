-- Hex Command fire: the chart for the firing unit, works struck by direct fire, and the
-- shot itself with its range bands, penalties and bonuses.

local commander_of = scripts.hc_core.commander_of
local hit = scripts.hc_core.hit
local is_unit = scripts.hc_core.is_unit
local is_marker = scripts.hc_core.is_marker
local ledger = scripts.hc_core.ledger
local refuse = scripts.hc_core.refuse
local te_hit = scripts.hc_core.te_hit
local QUICK_WORKS = scripts.hc_moves.QUICK_WORKS
local works_cover = scripts.hc_moves.works_cover
local supreme_commander_lost = scripts.hc_command.supreme_commander_lost
local fire_line = scripts.hc_crews.fire_line

local M = {}

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
-- A marker (3.1) the firer's side has not identified: its works and road column are not on
-- the table. Once that side has identified it (revealed within 5 hexes, spotted by the red
-- star: l.467, l.264), the unit is on the table and its cover and column count as for any
-- unit (twenty-third round, the eighteenth outside audit's F1).
local function masked(game, target, side)
  return is_marker(game, target) and game:label(target, side) ~= game:name(target)
end

local function struck_works(L, actor, target, captured)
  local game = L.game
  if not captured and game:attribute(actor, "howitzer") > 0 then
    return false
  end
  local tc, tr = game:cell(target)
  local dug = masked(game, target, game:side(actor)) and 0 or works_cover(game, target)
  if dug == 0 and game:terrain(tc, tr) ~= "fort" then
    return false
  end
  -- The roll is the actor's against its target (the engine words it for a side that has not
  -- identified either); the notes are the firer's side's (tenth round: a marker keeps its name).
  if game:resolve("structure", {}, "shot of " .. game:name(actor) .. " at " .. game:name(target)
      .. " behind works") ~= "works" then
    return false
  end
  local name, tname = L:name(actor), L:name(target)
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

-- Why `actor` may not fire at `target` (nil: it may), the chart and arm it fires with, its
-- band and the partial obstruction. `captured`: the actor fires guns it has captured (issue
-- 7: crews), not its own weapons. The action checks (`hc.fire_check`, `hc.fire_guns_check`)
-- ask it, so the legal orders list only fire the shot may take; the scripts rely on it.
local function fire_problem(game, actor, target, captured)
  -- The target as the acting side knows it: a marker by its handle (ninth outside audit).
  local name, tname = game:name(actor), game:label(target, game:side(actor))
  local kind = game:kind(actor)
  -- A marker (3.1) may be fired at, real or fake; its own state (melee, abandoned guns) is
  -- not on the table while it is a marker (sixth outside audit).
  local marker = is_marker(game, target)
  -- A fake the firer's side has unmasked (3.1, l.467; l.264) is no unit: nothing to fire at.
  if game:known_dummy(target, game:side(actor)) then
    return tname .. " is known to be a fake counter: there is no unit there to fire at"
  end
  if not marker and not is_unit(game, target) then
    return "commanders cannot be singled out as targets"
  end
  if not marker and game:flag(target, "abandoned") then
    return tname .. "'s guns are abandoned: there is no one at them to hit"
  end
  if captured and game:counter(actor, "captured_shots") <= 0 then
    return name .. " has no shots left with captured guns"
  end
  if not captured and kind == "mounted_infantry" and game:mode(actor) == "formed" and game:option("mounted_infantry_rules") then
    return name .. " cannot fire while mounted"
  end
  if not captured and kind == "artillery" and game:mode(actor) ~= "unlimbered" then
    return name .. " must unlimber to fire"
  end
  if game:option("unlimber_fires_next_turn") and game:flag(actor, "unlimbered_after_move") then
    return name .. " moved and unlimbered this turn and fires next turn"
  end
  if (game:option("rate_of_fire") or game:option("pike_and_shot") or game:option("activation_sequence"))
      and game:flag(actor, "fired") then
    return name .. " has already fired this turn"
  end
  -- Supply (l.256): the point is spent for the turn the unit fires; a unit that has paid it
  -- this turn fires again that turn with none left (second audit #16).
  if game:option("supply") and game:counter(actor, "supply") <= 0 and not game:flag(actor, "fired") then
    return name .. " is out of supply"
  end
  local distance = math.floor(game:distance(actor, target))
  -- 7.2 (charts page): skirmishers alone may fire into a melee, at point blank and only
  -- before its second round; their hits are TE hits. 7.3g (l.416; thirteenth outside audit
  -- #20): a marker's melee is on the table for the firer's side, being with one of that
  -- side's units next to it, so a unit locked in melee may not fire at its opponent, marker
  -- or identified, nor may any other unit fire into that melee.
  if game:flag(target, "in_melee") then
    if kind == "skirmishers" and distance == 1 and game:counter(target, "melee_rounds") <= 1 then
      -- allowed
    elseif kind == "skirmishers" then
      return name .. " may fire into a melee only at point blank and before its second round"
    else
      return "no firing into a melee (" .. tname .. " is in melee)"
    end
  end
  -- 3 (artillery): heavy guns cannot move and fire in the same turn.
  if game:attribute(actor, "heavy") > 0 and game:moved(actor) then
    return name .. " is heavy artillery and has moved this turn: it cannot fire"
  end
  local arc = game:arc(actor, target)
  if arc ~= "front" and not (distance == 1 and arc == "flank") then
    return tname .. " is not in " .. name .. "'s front arc"
  end
  local chart, arm = fire_chart(game, actor, captured)
  local band = game:band(chart, "band", distance)
  -- Only fire that can reach (issue 33): the distance must fall in one of the chart's bands.
  local beyond = game:band(chart, "band", 1000)
  if band >= beyond then
    local reach = 0
    while game:band(chart, "band", reach + 1) < beyond do
      reach = reach + 1
    end
    return tname .. " is out of reach: " .. distance .. " hexes from " .. name .. ", whose fire reaches " .. reach
  end
  local obstructed, blocked = fire_line(game, actor, target, arm == "art")
  if obstructed == nil then
    return blocked
  end
  -- The closest target first (7f): no enemy unit the firer can see in its front arc in a
  -- nearer band. Ganging up (7.1a): a second unit of the arm joins the fire on a target only
  -- when no other enemy it could fire at is in the target's band.
  local joining = game:flag(target, "shot_" .. arm .. "_1")
  -- A marker counts as a unit the firer could fire at, whatever it is (sixth outside audit).
  local function shown(e, flag)
    return not is_marker(game, e) and game:flag(e, flag)
  end
  for _, e in ipairs(game:units(game:side(target))) do
    local candidate = is_unit(game, e) or (is_marker(game, e) and game:flag(e, "hidden"))
    -- l.32: whole units of missile troops may ignore skirmishers for more threatening
    -- targets, so a skirmisher never forces another arm's choice of target.
    local ignorable = kind ~= "skirmishers" and not is_marker(game, e) and game:kind(e) == "skirmishers"
    -- An enemy the firer's side has not sighted (hidden movement, l.264) is off the table
    -- for it: it neither is the nearer target nor stops a second unit joining the fire.
    -- Nor is a fake it has unmasked (eighth round): an empty plate is no target (7f, 7.1a, 7e).
    local seen = game:known(e, game:side(actor)) and not game:known_dummy(e, game:side(actor))
    -- A refusal names e as the firer's side knows it (ninth outside audit): a marker it has
    -- not identified by its handle, never by its scenario id (l.264, 3.1).
    local ename = game:label(e, game:side(actor))
    if e ~= target and seen and candidate and not ignorable and game:arc(actor, e) == "front" and not shown(e, "abandoned")
        and fire_line(game, actor, e, arm == "art") ~= nil then
      local b = game:band(chart, "band", math.floor(game:distance(actor, e)))
      -- 7e (l.583): point-blank fire out of the front arc only when no target is in the
      -- front arc in the same range band.
      if arc ~= "front" and b <= band and not shown(e, "in_melee") then
        return name .. " has " .. ename .. " in its front arc in the same range band: it may fire out of arc at "
          .. tname .. " only when no target is in its primary arc in that band (7e)"
      end
      if b < band then
        return ename .. " is nearer and must be the target"
      elseif b == band and joining and not shown(e, "in_melee") then
        return "no ganging up on " .. tname .. ": " .. ename .. " is in the same range band of "
          .. name .. ", so a second " .. (arm == "art" and "battery" or "unit") .. " cannot join the fire on it (7.1a)"
      end
    end
  end
  -- At most two units of one arm fire at one target in a phase.
  if game:flag(target, "shot_" .. arm .. "_2") then
    -- 7.1a (l.507): the limit is per arm, so a battery's fire does not count toward it.
    return "two " .. (arm == "art" and "batteries" or "small-arms units") .. " have already fired at " .. tname
      .. " this phase: no more than two units of the same arm fire at one target (7.1a)"
  end
  return nil, chart, arm, band, obstructed
end

-- The red star: the cube's face, or a d6 stand-in's face labelled "6 red star"
-- (rulesets/hex-command-d6.yaml).
local function red_star(face)
  return face ~= nil and face:sub(-8) == "red star"
end

-- 004 l.242, l.309, chart l.20: a casualty hit rolled on the red star kills the commander
-- attached to the unit hit instead, and the unit takes no hit. Returns whether one was killed.
local function kill_commander(L, unit)
  local game = L.game
  local victim = commander_of(game, unit)
  if victim == nil then
    return false
  end
  L.gone[victim:id()] = true
  game:remove(victim, "commander killed by a red-star hit; the unit takes no hit")
  L:set(unit, "lost_commander", true)
  if game:attribute(victim, "supreme") > 0 then
    supreme_commander_lost(L, game:side(unit))
  end
  return true
end

-- 004 l.216 ("behind a fence wall" is a one-point modifier) and l.37 (cover, 1 CP): a
-- target next to the firer across a wall on their common hex side is behind it (fifth
-- outside audit). Farther off, a wall the fire crosses is an obstruction with its dead zone
-- (`fire_line`); howitzers fire over walls.
local function wall_cover(game, actor, target)
  local ac, ar = game:cell(actor)
  local tc, tr = game:cell(target)
  if game:attribute(actor, "howitzer") > 0 or math.floor(game:distance(actor, target)) ~= 1 then
    return 0
  end
  for _, f in ipairs(game:features(ac, ar, tc, tr)) do
    if f == "wall" then
      return 1
    end
  end
  return 0
end

local function shoot(game, actor, target, captured)
  local L = ledger(game, game:side(actor))
  -- The roll is the actor's against its target: the engine words it for a side that has not
  -- identified either, so their ids stand here.
  local name, tname = game:name(actor), game:name(target)
  local problem, chart, arm, band, obstructed = fire_problem(game, actor, target, captured)
  if problem ~= nil then
    refuse(game, problem)
  end
  -- 004 l.214, l.216 (thirteenth round): fire is declared in the opponent's view, the target
  -- named and the modifiers (the firer's hit markers among them) added as it watches, and a
  -- fake cannot fire: a unit under a 3.1 marker that fires is unmasked as it fires (l.264: the
  -- owner brings the actual unit back to the surface), before any roll: the actions' `on:
  -- always` effect clears the flag before this script runs, so the log has the unmasking
  -- before the dice and the target's side reads the roll itemized (fourteenth round).
  local marker = masked(game, target, game:side(actor))
  local into_melee = game:flag(target, "in_melee")
  local out_of_arc = game:arc(actor, target) ~= "front" and 1 or 0
  local first, second = "shot_" .. arm .. "_1", "shot_" .. arm .. "_2"
  if game:flag(target, first) then
    L:set(target, second, true)
  else
    L:set(target, first, true)
  end
  local tc, tr = game:cell(target)
  local ac, ar = game:cell(actor)
  local cmd = commander_of(game, actor)
  local flank = game:arc(target, actor)
  local inputs = {
    band = band,
    -- 004 l.120: casualties are simultaneous; hits the firer took from fire in this side
    -- turn's fire phases (counter `fire_hits`) do not count against it in them.
    firer_hits = math.max(0, game:counter(actor, "hits") - game:counter(actor, "fire_hits")),
    -- An unidentified marker's works and road column are not on the table: only its ground.
    cover = game:terrain_attribute(tc, tr, "cover") + (marker and 0 or works_cover(game, target))
      + wall_cover(game, actor, target),
    flank = (flank == "flank" or flank == "rear" or (not marker and game:flag(target, "on_road"))) and 1 or 0,
    command = cmd and game:counter(cmd, "cvs_c") or 0,
    trained = game:attribute(actor, "trained") > 0 and 1 or 0,
    obstructed = obstructed,
    fatigued = game:flag(actor, "fatigued") and 1 or 0,
    out_of_arc = out_of_arc,
    unlimbered_after_move = game:flag(actor, "unlimbered_after_move") and 1 or 0,
    -- Pike and shot (l.272): guns that turned this turn fire at 1 CP.
    turned = (game:flag(actor, "planted") and game:counter(actor, "face_changes") > 0) and 1 or 0,
    -- 004 l.216 ("being higher", one point): a target on higher ground than the firer.
    higher = game:terrain_attribute(tc, tr, "elevation") > game:terrain_attribute(ac, ar, "elevation") and 1 or 0,
  }
  -- l.313 (capabilities kept back until needed; sixteenth round, the eleventh outside audit's
  -- #5; twentieth round, the fifteenth's #28): a commander's bonus counts only the points
  -- that change the band. A shot already in the chart's first band without them (at point
  -- blank, an automatic hit) stays there, and points past the first band or past the
  -- bonuses' cap of 2 move nothing: they are not counted, so the roll line does not tell the
  -- target his Combat value (C2 that needed one point reads `-1 commander`, as C1 does).
  if inputs.command > 0 then
    local penalties = math.min(inputs.firer_hits, 4) + math.min(inputs.cover, 4) + inputs.obstructed
      + inputs.fatigued + inputs.out_of_arc + inputs.unlimbered_after_move + inputs.turned + inputs.higher
    local other_bonuses = math.max(-2, -(inputs.flank + inputs.trained))
    local to_first_band = math.max(0, band + penalties + other_bonuses)
    inputs.command = math.min(inputs.command, to_first_band, 2 + other_bonuses)
  end
  -- Supply (optional): one point for each turn the unit fires, however often it fires.
  if game:option("supply") and not game:flag(actor, "fired") then
    L:add(actor, "supply", -1)
  end
  L:set(actor, "fired", true)
  if captured then
    L:add(actor, "captured_shots", -1)
  end
  if game:attribute(actor, "heavy") > 0 then
    L:set(actor, "emplaced", true)
  end
  if arm == "art" and struck_works(L, actor, target, captured) then
    return
  end
  local outcome, faces = game:resolve(chart, inputs, chart .. " by " .. name .. " at " .. tname)
  -- A fake marker takes the shot and nothing happens; nothing tells the firer so.
  if outcome ~= "hit" or game:kind(target) == "fake_counter" then
    return
  end
  if red_star(faces[1]) and kill_commander(L, target) then
    return
  end
  if into_melee then
    te_hit(L, target, 1, true)
    return
  end
  -- Heavy artillery does double damage to units in the field.
  local before = L:counter(target, "hits")
  hit(L, target, game:attribute(actor, "heavy") > 0 and 2 or 1)
  L:add(target, "fire_hits", L:counter(target, "hits") - before)
end

function M.fire(game, actor, target)
  shoot(game, actor, target, false)
end

-- Fire captured guns (issue 7: crews): their class's artillery chart, one shot of the 1d6
-- rolled when they were taken.
function M.fire_guns(game, actor, target)
  shoot(game, actor, target, true)
end

function M.fire_check(game, actor, target)
  return (fire_problem(game, actor, target, false))
end

function M.fire_guns_check(game, actor, target)
  return (fire_problem(game, actor, target, true))
end

return {
  hooks = M,
  fire_chart = fire_chart,
  fire_problem = fire_problem,
  kill_commander = kill_commander,
  red_star = red_star,
  shoot = shoot,
  struck_works = struck_works,
}
