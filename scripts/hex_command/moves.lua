-- Hex Command movement: terrain costs by arm, obstacles, what a move leaves behind,
-- deployment, facing changes and field works.

local commander_of = scripts.hc_core.commander_of
local is_unit = scripts.hc_core.is_unit
local stands_as_unit = scripts.hc_core.stands_as_unit
local ledger = scripts.hc_core.ledger
local refuse = scripts.hc_core.refuse
local te_hit = scripts.hc_core.te_hit
local friend_passed = scripts.hc_core.friend_passed
local sweep_skirmishers = scripts.hc_core.sweep_skirmishers

local M = {}

-- Movement -------------------------------------------------------------------------------

-- Horse and guns may enter forest only along a road (the data's +4 is what a step off the
-- road costs); pushed guns (unlimbered) move only onto clear ground and over no stream.
-- `from_terrain` is the terrain left (limbered guns never go from woods to woods).
-- A step it refuses returns the reason in the rule's words (a string), which the engine
-- shows for a move order; `reach` just leaves the hex out.
function M.move_cost(kind, mode, terrain, cost, diagonal, from_terrain)
  if cost == nil then
    return nil
  end
  -- 5b (issue 33): horse that dismounted before moving goes into forest on foot, at a foot
  -- soldier's cost (the horse class's +4 is for mounted troops, who may not go in).
  if (kind == "cavalry" or kind == "mounted_infantry") and mode == "dismounted" and terrain == "forest" and cost > 1 then
    return cost - 4
  end
  -- Pike and shot (optional): guns once unlimbered cannot move again (the flag `planted`
  -- pins them; this keeps `reach` from listing pushes).
  if kind == "artillery" and mode == "unlimbered" and rules.option("pike_and_shot") then
    return "pike-and-shot guns cannot move once unlimbered (3, Artillery)"
  end
  if (kind == "cavalry" or kind == "mounted_infantry") and mode == "formed" and terrain == "forest" and cost > 1 then
    return "mounted troops may not enter a forest off the road: they must dismount before moving in (5b, 5.5b)"
  end
  -- Artillery section, woods (issue 33; 004 l.434): limbered guns enter woods off the road
  -- from a clear hex side, at the ordinary cost, but never go from woods to woods (so
  -- `reach` lists one woods hex deep, and a move on is refused at its step).
  if kind == "artillery" and terrain == "forest" and cost > 1 then
    if mode == "limbered" and from_terrain ~= "forest" then
      return cost - 4
    end
    if mode == "limbered" then
      return "guns enter woods only from a clear hex side, and never move from woods to woods (Artillery, Woods)"
    end
    return "guns are pushed only over open, clear, flat ground (Artillery, Push Move)"
  end
  -- Artillery section, Push Move (l.432): one hex over open, clear, flat ground, "NO
  -- slopes": not up a hill, and not down off one either (fifth outside audit).
  if kind == "artillery" and mode == "unlimbered" and from_terrain == "hill" then
    return "guns cannot be pushed down a slope: a push is over open, clear, flat ground with no slopes (Artillery, Push Move)"
  end
  if kind == "artillery" and mode == "unlimbered" and (terrain ~= "clear" or cost > 1) then
    if terrain == "hill" then
      return "guns cannot be pushed uphill: a push is over open, clear, flat ground (Artillery, Push Move)"
    end
    return "guns are pushed only over open, clear, flat ground (Artillery, Push Move)"
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

-- The TE hits the step from `a` into `b` (the path's `i`-th cell) costs, and whether it
-- goes along a road: an obstacle crossed (not on the first step: the unit started at it),
-- buildings entered, forest entered under the optional disorder rule. Friends passed
-- through are the caller's.
local function step_disorder(game, a, b, i, exempt)
  local feats = game:features(a.col, a.row, b.col, b.row)
  local road = has(feats, "road")
  local te = 0
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
  return te, road
end

-- Disorder/Fatigued (optional `disorder_fatigue`, 004 l.252): a unit that reaches the
-- maximum TE hits (3) must stop all further movement, so a move may not go on past the hex
-- where its third is taken (twenty-third round, the eighteenth outside audit's F4; the
-- ruleset's `may_move_options` has the hook asked of every unit while the option is on).
local function fatigue_stop_problem(game, u, path)
  if not game:option("disorder_fatigue") or not is_unit(game, u) then
    return nil
  end
  local exempt = exempt_from_obstacles(game, u)
  local te = game:counter(u, "te")
  local L = ledger(game, game:side(u))
  for i = 2, #path - 1 do
    local a, b = path[i - 1], path[i]
    te = te + step_disorder(game, a, b, i, exempt)
    local friend = friend_passed(L, b.col, b.row, game:side(u))
    if friend ~= nil and friend ~= u then
      te = te + 1
    end
    if te >= 3 then
      return game:name(u) .. " takes its third fatigue (TE) hit at (" .. b.col .. "," .. b.row
        .. ") and must stop there (Disorder/Fatigued: no further movement)"
    end
  end
  return nil
end

-- Before a move, and for each move the legal orders list (twelfth round): what the data
-- cannot refuse, judged by the path reach gives. Tribes (l.260): a failed tribal unit does
-- not advance on a fresh enemy. Decision failure 3 (l.339): a cautious unit's move may not
-- end nearer an enemy (fifteenth round). Read-only; the `moved` hook below refuses nothing.
function M.may_move(game, u, path, facing)
  local command = scripts.hc_command
  return command.tribal_advance_problem(game, u, path) or command.cautious_advance_problem(game, u, path)
    or fatigue_stop_problem(game, u, path)
end

-- After a move: TE hits for obstacles crossed (not on the first step: the unit started at
-- it), buildings entered, friends passed through, guns pushed, and forest entered
-- (optional disorder rule). The ruleset's data already refused what may not move (routed,
-- halted, dug in: `pinned_by`; fatigued: `slowed_by`), steps out of the front hexes and
-- paths the facing changes left no points for (`turning`).
function M.moved(game, u, path, facing)
  local L = ledger(game, game:side(u))
  local name = game:name(u)
  local steps = #path - 1
  if not is_unit(game, u) then
    -- A fake counts its steps as a unit does, so a facing change after its move is judged
    -- alike (sixteenth round).
    if stands_as_unit(game, u) then
      L:add(u, "steps_moved", steps)
      -- A battery it passed (7.5.1 l.406) takes the TE hit a unit's pass gives it, so the
      -- battery's hits tell nothing of what passed (thirtieth round).
      for i = 2, #path - 1 do
        local friend = friend_passed(L, path[i].col, path[i].row, game:side(u))
        if friend ~= nil and friend ~= u then
          te_hit(L, friend, 1, false)
        end
      end
    end
    return
  end
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
    local n
    n, road = step_disorder(game, a, b, i, exempt)
    te = te + n
    if i < #path then
      -- A friendly fake passed weighs as the unit it poses as (the twenty-second outside
      -- audit's L1): the mover takes its TE hit and the fake one the owner alone reads.
      local friend = friend_passed(L, b.col, b.row, game:side(u))
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
  -- 7.2 (l.475): enemy skirmishers next to a hex the move entered are swept off.
  local entered = {}
  for i = 2, #path do
    entered[#entered + 1] = path[i]
  end
  sweep_skirmishers(L, u, entered)
  -- A cautious unit's bar (2.2.2 result 3) follows the moves of both sides.
  scripts.hc_command.update_caution(L)
end

-- 5.5.1c: a unit in column on a road deploys astride it, disordered (a TE hit), so it is
-- no longer counted flanked. Its check (`check:`) says why another unit may not, in the
-- rule's words.
function M.deploy_check(game, actor)
  if not game:flag(actor, "on_road") then
    return game:name(actor) .. " is not in column on a road: only a unit whose move ended along a road deploys astride it (5.5.1c)"
  end
end

function M.deploy(game, actor)
  local L = ledger(game, game:side(actor))
  L:set(actor, "on_road", false)
  te_hit(L, actor, 1, false)
end

-- A facing change (`may_face`, asked before the turn is made, whichever way it turns):
-- not in melee, routed, halted or (optional disorder rule) fatigued. The ruleset's
-- `turning` data counts it (once a turn, cavalry twice) and charges its point before a
-- move; after a move it needs a point left over.
function M.may_face(game, u)
  -- Sixteenth round (the eleventh outside audit's #1 and #3): a fake turns only where a unit
  -- may (not halted, not in the melee or rally phase unless ...), or its turn shows it a fake.
  if not stands_as_unit(game, u) then
    return nil
  end
  if game:flag(u, "in_melee") then
    return game:name(u) .. " is in melee and cannot change facing"
  end
  if game:flag(u, "routed") then
    return game:name(u) .. " is routed: it faces the rear until rallied"
  end
  if game:flag(u, "halted") then
    return game:name(u) .. " is halted by a failed order change and cannot change facing"
  end
  if game:flag(u, "inactive") then
    return game:name(u) .. " is not in the group being activated (group " .. game:counter(u, "group") .. ")"
  end
  if game:flag(u, "fatigued") and game:option("disorder_fatigue") then
    return game:name(u) .. " is fatigued and cannot change facing"
  end
  -- 8 (issue 33): in the rally phase only a unit just rallied from rout turns to face.
  -- 7.4 (third fresh audit): so does a unit that won a melee fought as the melee phase
  -- ended, once.
  if game:phase() == "rally" then
    if not game:flag(u, "rallied") and not game:flag(u, "won_at_phase_end") then
      return game:name(u) .. " may change facing in the rally phase only when it has just rallied from rout or won a melee as the melee phase ended"
    end
    return nil
  end
  -- 5.1b/7.4: in the melee phase only a unit that has just won a melee (and advanced, or
  -- chose a facing change instead) may turn, without a movement point (issue 7).
  if game:phase() == "melee" or game:phase() == "second melee" then
    if not game:flag(u, "victor") then
      return game:name(u) .. " may change facing in the melee phase only after winning a melee"
    end
    return nil
  end
  -- The change about to be made counts too.
  local allowance = game:allowance(u)
  if allowance ~= nil and game:moved(u)
      and game:counter(u, "steps_moved") + game:counter(u, "face_changes") + 1 > allowance then
    return game:name(u) .. " has no movement point left to change facing"
  end
end

-- After a facing change `may_face` allowed: a bridge under work is left unfinished.
function M.faced(game, u, before)
  -- A cautious unit's bar (2.2.2 result 3) follows its facing.
  scripts.hc_command.update_caution(ledger(game, game:side(u)))
  -- The rally phase's facing change after a melee won as the melee phase ended is made once.
  if game:flag(u, "won_at_phase_end") then
    game:set_flag(u, "won_at_phase_end", false)
  end
  if is_unit(game, u) and game:counter(u, "bridging") > 0 then
    game:add_counter(u, "bridging", -game:counter(u, "bridging"))
    game:note(game:name(u) .. " turns from its bridge and leaves it unfinished")
  end
end

-- Constructions: a turn's digging instead of moving; 4 turns make quick works, 6 a redoubt.
local QUICK_WORKS, REDOUBT = 4, 6

function M.dig_check(game, actor)
  if game:moved(actor) then
    return game:name(actor) .. " has moved this turn and cannot dig in"
  end
end

function M.dig(game, actor)
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

return {
  hooks = M,
  QUICK_WORKS = QUICK_WORKS,
  REDOUBT = REDOUBT,
  exempt_from_obstacles = exempt_from_obstacles,
  has = has,
  works_cover = works_cover,
}
