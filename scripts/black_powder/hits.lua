-- Black Powder hits, saves and break tests: hits pending within one call, the break test
-- and its results, taking hits with saves, rolling to hit, and the inputs firing reads
-- (cover). What woods hide is the engine's sight test (terrain `see_through`,
-- `see_out_within` in the ruleset).

local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local b2i = scripts.bp_core.b2i
local MIXED_MODES = scripts.bp_core.MIXED_MODES
local is_skirmisher = scripts.bp_core.is_skirmisher
local retire = scripts.bp_core.retire
local rule_distance = scripts.bp_core.rule_distance

local bp = {}

-- Hits, saves and break tests -------------------------------------------------------------

local call = {} -- call.pending: hits added during the current call, by unit name

local function hits_of(game, u) return game:counter(u, "hits") + (call.pending[game:name(u)] or 0) end

local function apply_break_result(game, u, result, cause)
  if result == "break" then
    game:remove(u, "breaks")
    return
  end
  if result == "hold" or result == "hold_locked" then
    return
  end
  local echelon_retreat = amended(game) and game:mode(u) == "echelon"
    and (string.find(result, "retreat", 1, true) or string.find(result, "fallback", 1, true))
  if string.find(result, "disordered", 1, true) and not echelon_retreat then
    -- Cavalry in echelon are not disordered when they retreat from close combat.
    game:set_flag(u, "disordered")
  end
  if string.find(result, "retreat", 1, true) or string.find(result, "fallback", 1, true)
    or string.find(result, "retire", 1, true) then
    game:set_flag(u, "locked", false)
    retire(game, u, cause)
  end
end

local function break_test(game, u, hand_to_hand, extra, cause)
  local stamina = game:attribute(u, "stamina")
  local hits = hits_of(game, u)
  local inputs = {
    class = game:attribute(u, "class"),
    hand_to_hand = hand_to_hand,
    excess_hits = math.max(0, hits - stamina),
    shaken = b2i(hits >= stamina or game:flag(u, "shaken")),
    casualties = b2i(hits > 0),
  }
  if is_skirmisher(game, u) then inputs.class = 2 end
  for k, v in pairs(extra or {}) do inputs[k] = v end
  local result = game:resolve("break_test", inputs, "break test of " .. game:name(u))
  apply_break_result(game, u, result, cause)
  return result
end

-- Rolls one save per hit; adds the failed ones; a unit reaching its stamina is shaken and
-- takes a break test (shooting) unless `no_test`. Returns the unsaved hits.
local function take_hits(game, u, n, save_inputs, no_test, cause)
  local failed = 0
  for _ = 1, n do
    local inputs = { save = game:attribute(u, "save") }
    for k, v in pairs(save_inputs or {}) do inputs[k] = v end
    if amended(game) and game:flag(u, "brigade_shaken") then inputs.brigade_shaken = 1 end
    local r = game:resolve("morale_save", inputs, "save of " .. game:name(u))
    if r ~= "saved" then failed = failed + 1 end
  end
  if failed > 0 then
    game:add_counter(u, "hits", failed)
    call.pending[game:name(u)] = (call.pending[game:name(u)] or 0) + failed
    if hits_of(game, u) >= game:attribute(u, "stamina") then
      game:set_flag(u, "shaken")
      if not no_test then break_test(game, u, 0, nil, cause) end
    end
  end
  return failed
end

-- Rolls `dice` to-hit dice; returns hits and whether a natural 6 disordered the target.
local function roll_to_hit(game, dice, inputs, purpose)
  local hits, disorders = 0, false
  for _ = 1, dice do
    local r = game:resolve("to_hit", inputs, purpose)
    if r == "hit" or r == "disordering_hit" then hits = hits + 1 end
    if r == "disordering_hit" then disorders = true end
  end
  return hits, disorders
end

local function firer_inputs(game, firer, target)
  local inputs = {
    firer_shaken = b2i(game:flag(firer, "shaken")),
    firer_disordered = b2i(game:flag(firer, "disordered")),
    target_skirmishers = b2i(is_skirmisher(game, target)),
  }
  local terrain = game:terrain_of(target)
  if amended(game) then
    -- Targets in woods are not clear. 003 Grande Bandes, Screening: a grande bande's
    -- skirmishers screen its front and flanks; a mixed formation's (the base rule it
    -- widens) only its front. Skirmish companies have no flank or rear zones.
    inputs.target_not_clear = b2i(terrain == "woods")
    local from = arc(game, target, firer)
    if (game:mode(target) == "grande_bande" and from == "rear")
      or (MIXED_MODES[game:mode(target)] and from ~= "front") then
      inputs.target_skirmishers = 0
    end
  else
    inputs.target_not_clear = b2i(terrain ~= "open" and terrain ~= nil)
  end
  return inputs
end

local function cover_of(game, u)
  local t = game:terrain_of(u)
  if t == "woods" or (t == "light_woods" and not amended(game)) then return 1 end
  return 0
end

return {
  hooks = bp,
  apply_break_result = apply_break_result,
  break_test = break_test,
  call = call,
  cover_of = cover_of,
  firer_inputs = firer_inputs,
  hits_of = hits_of,
  roll_to_hit = roll_to_hit,
  take_hits = take_hits,
}
