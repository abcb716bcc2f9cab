-- Black Powder orders: the command roll and its moves, blunders, intents and gun
-- reliability, brigade orders (Assault, Maneuver, Hold, Withdrawal, Rest), brigade
-- rallies, support charges, hand hauling, woods drift, passage of lines and light
-- infantry reforming.

local SKIRMISH_MODES = scripts.bp_core.SKIRMISH_MODES
local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local away_from = scripts.bp_core.away_from
local b2i = scripts.bp_core.b2i
local brigade_units = scripts.bp_core.brigade_units
local brigadier_of = scripts.bp_core.brigadier_of
local in_woods = scripts.bp_core.in_woods
local is_artillery = scripts.bp_core.is_artillery
local is_cavalry = scripts.bp_core.is_cavalry
local is_engaged = scripts.bp_core.is_engaged
local is_infantry = scripts.bp_core.is_infantry
local is_skirmisher = scripts.bp_core.is_skirmisher
local kind = scripts.bp_core.kind
local objective_of = scripts.bp_core.objective_of
local one_move = scripts.bp_core.one_move
local retire = scripts.bp_core.retire
local rule_distance = scripts.bp_core.rule_distance
local scale = scripts.bp_core.scale
local set_close_permissions = scripts.bp_core.set_close_permissions
local set_counter = scripts.bp_core.set_counter
local break_test = scripts.bp_hits.break_test
local call = scripts.bp_hits.call
local hits_of = scripts.bp_hits.hits_of
local resolve_charge = scripts.bp_charges.resolve_charge

local bp = {}

-- Orders ---------------------------------------------------------------------------------

local MOVES = { one_move = 1, two_moves = 2, three_moves = 3 }
local reroll_order
local BLUNDER_MOVES = { retire = 1, move_left = 1, move_right = 1, hold = 0, one_move_forward = 1, three_moves_forward = 3 }
local BLUNDER_ONLY = {
  retire = "retire_only", move_left = "move_left_only", move_right = "move_right_only",
  one_move_forward = "move_forward_only", three_moves_forward = "move_forward_only",
}

local function moves_cap(game, u)
  if amended(game) and in_woods(game, u) and not SKIRMISH_MODES[game:mode(u)]
    and kind(game, u) ~= "brigadier" then
    return 1
  end
  return 3
end

local function blunder(game, u)
  local r = game:resolve("blunder", {}, "blunder of " .. game:name(u))
  game:set_flag(u, "blundered")
  -- The blunder says where the unit goes; the `moved` hook holds its moves to that (a
  -- retire back into its rear arc keeping its facing, forward into its front arc, left or
  -- right into that flank arc, each judged from where the move starts).
  local only = BLUNDER_ONLY[r]
  if only then game:set_flag(u, only) end
  if r == "retire" then game:set_flag(u, "must_retire") end
  return r, BLUNDER_MOVES[r] or 0
end

-- What one unit does with a command result; `given` moves have already been added.
local function settle(game, commander, u, result, given)
  local moves = MOVES[result] or 0
  if result == "blunder" then
    local r
    r, moves = blunder(game, u)
    game:note(game:name(u) .. " blunders: " .. r)
  elseif result == "woods_drift" then
    game:set_flag(u, "woods_drift")
    game:note(game:name(u) .. " fails in woods: the opponent may move it " .. game:setting("woods_drift") .. " inches")
  elseif moves == 0 and (is_artillery(game, u) and game:mode(u) == "limbered") then
    -- Base: limbered artillery still gets a free move on a failed order.
    moves = 1
    game:note(game:name(u) .. "'s order failed, but limbered guns still make their free move")
  elseif moves == 0 and amended(game) and game:flag(commander, "order_hold") then
    -- 003 Brigade Orders, Hold (l.1008): a failed order still gives a free move.
    moves = 1
    game:note(game:name(u) .. "'s order failed, but under " .. game:name(commander)
      .. "'s Hold order it still makes a free move")
  elseif moves == 0 and amended(game) then
    -- The unit is marked as given its order (one a phase) all the same.
    game:note(game:name(u) .. "'s order failed: it makes no move on it")
  end
  if MOVES[result] and game:flag(u, "retire_only") then
    -- An order passed: its moves are free, not the shaken brigade's retire move.
    game:set_flag(u, "retire_only", false)
  end
  moves = math.min(moves, moves_cap(game, u))
  if moves ~= given then game:add_counter(u, "moves", moves - given) end
  -- Unlimbered guns are marked `prolonged` (fire at -1) by the `moved` hook when they
  -- move on prolong, not here: an order that gives moves is not yet a move.
  return moves
end

-- What an order may say it is for (its `intent`), and the unit it makes sense for. Each
-- intent is remembered on every unit the order reaches as the flag `ordered_<intent>`, so
-- that later moves and charges are held to what the order said.
local INTENT_FITS = {
  charge = function(game, u) return is_infantry(game, u) or is_cavalry(game, u) end,
  into_flank = function(game, u) return game:mode(u) == "grande_bande" end,
  prolong = function(game, u) return is_artillery(game, u) and game:mode(u) == "unlimbered" end,
  hand_haul = function(game, u) return is_artillery(game, u) and game:mode(u) == "unlimbered" end,
  unlimber = function(game, u) return is_artillery(game, u) and game:mode(u) == "limbered" end,
  form_line = function(game, u) return is_infantry(game, u) and game:mode(u) ~= "line" end,
  form_attack_column = function(game, u) return is_infantry(game, u) and game:mode(u) ~= "attack_column" end,
}
-- An intent the script does not know fits every unit and is not remembered (a ruleset
-- extending this one may declare more and check them itself).
local function intent_fits(game, i, u)
  local fits = INTENT_FITS[i]
  return fits == nil or fits(game, u)
end
local INTENT_WORDS = {
  charge = "charge", into_flank = "move into a flank zone (grandes bandes)",
  prolong = "move unlimbered guns on prolong", hand_haul = "hand-haul unlimbered guns",
  unlimber = "unlimber limbered guns", form_line = "form line",
  form_attack_column = "form attack column",
}

-- Why the order's intent does not fit the unit it reaches (nil when it does).
local function intent_problem(game, u, intent)
  for _, i in ipairs(intent) do
    if not intent_fits(game, i, u) then
      return game:name(u) .. " cannot be ordered to " .. INTENT_WORDS[i]
    end
  end
end


-- What a failed order's free move may still be, as ordered: 003 Moving Artillery (l.537-539)
-- lets limbered guns make their free move and unlimber at its end "if that was what was
-- ordered". Reading: the same holds for unlimbered guns given a free move (Hold, l.1008):
-- it is the prolong or the hand haul the order asked for (a move of unlimbered guns is
-- always one of the two, l.543-559), not a move the order did not name.
local FREE_MOVE_INTENTS = { unlimber = true, prolong = true, hand_haul = true }
local FREE_MOVE_WORDS = { prolong = "a move on prolong", hand_haul = "a hand haul" }

-- Marks what the order was for on `u`, only when the order succeeded (`passed`): a failed
-- order did not happen, except what its free move may still be (`FREE_MOVE_INTENTS`).
local function mark_intent(game, u, intent, outcome, moves)
  local passed = MOVES[outcome] ~= nil
  local free_move = outcome ~= "blunder" and moves > 0
  for _, i in ipairs(intent) do
    if INTENT_FITS[i] and INTENT_FITS[i](game, u)
      and (passed or (FREE_MOVE_INTENTS[i] and free_move)) then
      game:set_flag(u, "ordered_" .. i)
      if not passed and FREE_MOVE_WORDS[i] then
        game:note(game:name(u) .. "'s free move may be " .. FREE_MOVE_WORDS[i] .. ", as ordered")
      end
    end
  end
end

-- Why `commander` may not order `u` now (nil when he may).
local function own_brigade_problem(game, commander, u)
  if game:attribute(u, "brigade") ~= game:attribute(commander, "brigade") or kind(game, u) == "brigadier" then
    return game:name(u) .. " is not in " .. game:name(commander) .. "'s brigade"
  end
  if game:side(commander) ~= game:phasing() then
    return "orders are given in your own command phase"
  end
end

-- The chart inputs that rate an order Reliable or Unreliable (the unit's own rating, and
-- the guns' ratings for what the order is for).
local RELIABLE_INPUTS = { "reliable", "reliable_prolong" }
local UNRELIABLE_INPUTS = { "unreliable", "unreliable_prolong", "unreliable_hand_haul", "unreliable_unlimber" }

local function rated(inputs, names)
  for _, n in ipairs(names) do
    if inputs[n] == 1 then return true end
  end
  return false
end

-- Optional rule `reliability_rerolls_orders`: a Reliable order that failed, or an
-- Unreliable one that passed, is rolled again with the same inputs; the second result
-- stands. Returns the result that stands.
reroll_order = function(game, u, outcome)
  if not game:option("reliability_rerolls_orders") then return outcome end
  local inputs = game:action_inputs()
  local passed = MOVES[outcome] ~= nil
  local again = (rated(inputs, RELIABLE_INPUTS) and not passed)
    or (rated(inputs, UNRELIABLE_INPUTS) and passed)
  if not again then return outcome end
  local second = game:resolve("command", inputs, "order re-rolled (" .. outcome .. ") for " .. game:name(u))
  if outcome == "blunder" and second ~= "blunder" then game:set_flag(u, "blundered", false) end
  game:note(game:name(u) .. "'s order is re-rolled: " .. outcome .. " → " .. second)
  return second
end

-- The actions' checks (`check:`) below are asked by the engine before the action (its
-- chart and script) and by the legal orders instead of trying the action: each says why
-- the action cannot be taken (nil when it can), and its script refuses nothing more.

-- A unit's flag as the game holds it.
local function game_flag(game, u, name) return game:flag(u, name) end

-- What refuses an order to a unit of the brigadier's own brigade; `intent_problem_of`
-- judges the order's intent for the unit. `flag` and `is_amended` read a unit's flag and
-- the rules' switch: the game's own unless given (the batch check keeps what it read).
local function order_rest(game, actor, target, intent_problem_of, flag, is_amended)
  flag, is_amended = flag or game_flag, is_amended or amended
  if flag(game, actor, "command_failed") then
    return game:name(actor) .. " has failed an order this phase and gives no more"
  end
  if flag(game, target, "shaken_retired") then
    return game:name(target) .. " is shaken in a shaken brigade and has retired: that was its move this command phase"
  end
  if is_amended(game) then return intent_problem_of(game, target) end
end

local function own_intent_problem(game, target)
  return intent_problem(game, target, game:intent())
end

function bp.order_check(game, actor, target)
  return own_brigade_problem(game, actor, target) or order_rest(game, actor, target, own_intent_problem)
end

function bp.order(game, actor, target, outcome)
  call.pending = {}
  local intent = {}
  if amended(game) then intent = game:intent() end
  local given = MOVES[outcome] or 0
  outcome = reroll_order(game, target, outcome)
  if not MOVES[outcome] then game:set_flag(actor, "command_failed") end
  local moves = settle(game, actor, target, outcome, given)
  mark_intent(game, target, intent, outcome, moves)
end

local function all_unengaged(game, units)
  for _, u in ipairs(units) do
    if game:flag(u, "engaged") or is_engaged(game, u) then return false end
  end
  return true
end

local function woods_columns_only(game, units)
  for _, u in ipairs(units) do
    if in_woods(game, u) then
      if game:mode(u) ~= "march_column" and game:mode(u) ~= "attack_column" then return false end
      local near = false
      for _, o in ipairs(units) do
        if o ~= u and rule_distance(game, u, o) <= 6 then near = true end
      end
      if not near then return false end
    end
  end
  return true
end

local function command_band(game, commander, units)
  local far = 0
  for _, u in ipairs(units) do
    local d = game:distance(commander, u)
    if not amended(game) then d = d / scale(game) end
    far = math.max(far, d)
  end
  -- Each 12 inches begun beyond the first 12 (the chart's bands 12, 24...: exact
  -- distances, so 12.000 is within the first and 12.001 beyond it).
  return math.max(0, math.ceil(far / 12 - 1e-9) - 1)
end

-- The units a brigade order reaches (those not disordered), and the whole brigade.
local function brigade_command(game, actor)
  local units = {}
  local all = brigade_units(game, actor)
  for _, u in ipairs(all) do
    if not game:flag(u, "disordered") then units[#units + 1] = u end
  end
  return units, all
end

-- What the brigade order's check reads of the commander's brigade, whatever the target
-- and intent: the units the command reaches and the whole brigade, which intents one of
-- them fits, and whether woods allow the command. Kept in `game:memo()` (one table for a
-- whole legal listing, which asks this check for every unit and intent; a fresh one for
-- any other call).
local function brigade_reading(game, actor)
  local memo = game:memo()
  local all = memo.brigade_order
  if not all then
    all = {}
    memo.brigade_order = all
  end
  local r = all[actor]
  if not r then
    local units, whole = brigade_command(game, actor)
    r = { units = units, all = whole, fits = {} }
    all[actor] = r
  end
  return r
end

-- What refuses a brigade order given to a unit of the brigadier's own brigade: the same
-- whichever unit of it is named (`flag` and `is_amended` as for `order_rest`).
local function brigade_order_rest(game, actor, _, _, flag, is_amended)
  flag, is_amended = flag or game_flag, is_amended or amended
  if not is_amended(game) then return nil end
  local r = brigade_reading(game, actor)
  local units, all = r.units, r.all
  for _, i in ipairs(game:intent()) do
    local fits = r.fits[i]
    if fits == nil then
      fits = false
      for _, u in ipairs(units) do
        if intent_fits(game, i, u) then fits = true end
      end
      r.fits[i] = fits
    end
    if not fits then
      return "no unit of the brigade command can " .. (INTENT_WORDS[i] or i)
    end
  end
  if flag(game, actor, "order_hold") then
    return "a brigade under a Hold order gets no brigade commands"
  end
  if #units * 2 <= #all then
    return "a brigade command must include more than half of the brigade's units"
  end
  if r.woods_ok == nil then r.woods_ok = woods_columns_only(game, units) end
  if not r.woods_ok then
    return "in woods, orders go to one unit at a time (only columns within 6 inches may share one)"
  end
end

function bp.brigade_order_check(game, actor, target)
  return own_brigade_problem(game, actor, target) or brigade_order_rest(game, actor)
end

function bp.brigade_order(game, actor, target)
  call.pending = {}
  local units = brigade_command(game, actor)
  local inputs = {
    staff = game:attribute(actor, "staff"),
    command_distance = command_band(game, actor, units),
  }
  local intent = {}
  if amended(game) then
    intent = game:intent()
    -- One roll for the whole brigade: an intent is checked against the units it fits (a
    -- brigade ordered to charge may hold batteries); the grande bande's -1 and the
    -- opportunists' -1 apply when any unit of the command has them. Reading: the units'
    -- own re-roll ratings do not change a brigade's single roll.
    local wants = {}
    for _, i in ipairs(intent) do wants[i] = true end
    for _, u in ipairs(units) do
      if wants.into_flank and game:mode(u) == "grande_bande" then
        inputs.grande_bande = 1
        inputs.grande_bande_into_flank = 1
      end
      if wants.charge and game:attribute(u, "opportunist") == 1 then
        inputs.opportunist = 1
        inputs.opportunist_charge = 1
      end
    end
    local bonus_order = game:flag(actor, "order_assault") or game:flag(actor, "order_maneuver")
      or game:flag(actor, "order_withdrawal") or game:flag(actor, "order_rest")
    inputs.brigade_bonus = b2i(bonus_order and all_unengaged(game, units))
  end
  local result = game:resolve("command", inputs, "brigade command by " .. game:name(actor))
  -- The outcome in words (`two moves`, not the chart's `two_moves`).
  game:note(game:name(actor) .. " brigade command: " .. result:gsub("_", " ") .. " for " .. #units .. " units")
  -- 003 Brigade Orders, Assault: a command that gives moves must close on the objective.
  local objective = amended(game) and MOVES[result] and objective_of(game, actor)
  for _, u in ipairs(units) do
    local moves = settle(game, actor, u, result, 0)
    game:set_flag(u, "ordered")
    if amended(game) then game:set_flag(u, "brigade_ordered") end
    mark_intent(game, u, intent, result, moves)
    if result == "blunder" then break end
    if moves == 0 then game:note(game:name(u) .. " does not move") end
    if objective and moves > 0 then game:set_flag(u, "in_brigade_command") end
  end
  if objective then
    game:set_flag(actor, "assault_command")
    game:set_flag(actor, "assault_advanced", false)
    game:note(game:name(actor) .. "'s command under Assault must close on " .. game:name(objective))
  end
end

-- 003 Brigade Orders, Assault: the order names its objective, an enemy unit (the target);
-- the brigade's units not locked in combat turn where they stand to face it, and infantry
-- and artillery may now move into threatened range (flag `may_close`).

-- The turns the order makes, in order: {unit, x, y, facing} for each unit of the brigade
-- not locked in combat and not already facing the objective.
local function assault_turns(game, actor, target)
  local turns = {}
  local tx, ty = game:position(target)
  for _, u in ipairs(brigade_units(game, actor)) do
    if not game:flag(u, "locked") and arc(game, u, target) ~= "front" then
      local x, y = game:position(u)
      turns[#turns + 1] = { u, x, y, math.deg(math.atan(ty - y, tx - x)) % 360 }
    end
  end
  return turns
end

-- 003 Support Charge (l.686-690): in the opponent's command phase a side may only react
-- with a support charge; its brigadiers give no brigade order there (the words of `order`),
-- and its units neither change formation nor reform.
local function brigade_order_phase_problem(game, actor)
  if game:side(actor) ~= game:phasing() then return "orders are given in your own command phase" end
end
function bp.brigade_order_phase_check(game, actor) return brigade_order_phase_problem(game, actor) end
local function opponent_phase_problem(game, u, what)
  if amended(game) and game:side(u) ~= game:phasing() then
    return game:name(u) .. " may not " .. what .. " in the opponent's command phase (only a support charge may answer there)"
  end
end
function bp.reform_check(game, actor) return opponent_phase_problem(game, actor, "reform") end
function bp.reform(game, actor)
  local problem = opponent_phase_problem(game, actor, "reform")
  if problem then game:refuse(problem) end
end

-- Past the opponent's phase, the only refusal the order can meet is a turn that does not
-- fit (a unit's bases turned over another's, or off the table); the turns are judged together, each after the ones
-- before it, as the script makes them. The legal orders list the order on this check.
function bp.assault_check(game, actor, target)
  return brigade_order_phase_problem(game, actor) or game:can_stand_all(assault_turns(game, actor, target))
end

function bp.assault(game, actor, target)
  call.pending = {}
  local problem = brigade_order_phase_problem(game, actor)
  if problem then game:refuse(problem) end
  set_counter(game, actor, "objective", target:id() + 1)
  game:set_flag(actor, "assault_new")
  set_close_permissions(game, actor, "assault")
  for _, t in ipairs(assault_turns(game, actor, target)) do
    game:place_at(t[1], t[2], t[3], t[4], "turns to face the Assault objective")
  end
  game:note(game:name(actor) .. "'s brigade assaults " .. game:name(target))
end

-- Every other brigade order: the close-range permissions follow the new order.
function bp.brigade_order_given(game, actor)
  call.pending = {}
  local problem = brigade_order_phase_problem(game, actor)
  if problem then game:refuse(problem) end
  set_close_permissions(game, actor)
end

function bp.brigade_rally_check(game, actor, target)
  local problem = own_brigade_problem(game, actor, target)
  if problem then return problem end
  if not game:flag(actor, "order_rest") then
    return game:name(actor) .. "'s brigade is not resting (Reserve, Rest sub-order)"
  end
end

function bp.brigade_rally(game, actor, target)
  call.pending = {}
  local units = brigade_units(game, actor)
  local inputs = {
    staff = game:attribute(actor, "staff"),
    command_distance = command_band(game, actor, units),
    brigade_bonus = b2i(all_unengaged(game, units)),
  }
  local result = game:resolve("command", inputs, "brigade rally by " .. game:name(actor))
  if MOVES[result] then
    for _, u in ipairs(units) do
      if game:counter(u, "hits") > 0 and not game:flag(u, "brigade_broken") then
        game:add_counter(u, "hits", -1)
      end
    end
  end
  game:note(game:name(actor) .. " brigade rally: " .. (result:gsub("_", " ")))
end

function bp.support_charge_check(game, actor, target)
  if game:side(actor) == game:phasing() then
    return "a support charge is made in the opponent's command phase"
  end
  if not game:flag(target, "ordered") then
    -- The target must not be moving by initiative: it is advancing on an order.
    return game:name(target) .. " is not moving on an order (no support charge against initiative moves)"
  end
end

function bp.support_charge(game, actor, target)
  call.pending = {}
  local commander = brigadier_of(game, actor)
  -- -2 when the target did not start the phase in the cavalry's front arc: both as they
  -- stood when this command phase began (the action itself needs the target in the front
  -- arc now).
  local cx, cy, cf = game:phase_start(actor)
  local tx, ty, tf = game:phase_start(target)
  if not cx then cx, cy, cf = game:position(actor) end
  if not tx then tx, ty, tf = game:position(target) end
  local inputs = {
    staff = commander and game:attribute(commander, "staff") or 0,
    -- The command distance as an order measures it (table inches, within 12 no penalty,
    -- each 12 begun beyond the first: 003 l.773-774), doubled by the chart.
    command_distance = commander and command_band(game, commander, { actor }) or 6,
    not_front_arc = b2i(game:arc_from(actor, cx, cy, cf, target, tx, ty, tf) ~= "front"),
    opportunist = game:attribute(actor, "opportunist"),
  }
  local r = game:resolve("support_charge", inputs, "support charge by " .. game:name(actor))
  if r == "charge" then
    -- 003 l.706-707: only a check that passes makes the charge move, so the cavalry goes
    -- into contact after its roll; on no_charge or a blunder it has not moved.
    game:announce("{1} passes its check and charges {2}", actor, target)
    game:contact(actor, target)
    local response = resolve_charge(game, actor, target, nil, false)
    game:set_flag(actor, "charged")
    game:note(game:name(actor) .. " support-charges " .. game:name(target) .. ": " .. response)
  elseif r == "blunder" then
    local b = blunder(game, actor)
    game:note(game:name(actor) .. " blunders its support charge: " .. b)
  else
    game:note(game:name(actor) .. " does not charge")
  end
end

-- Hand haul: an ordered unlimbered battery's one move, made without the prolong penalty.
function bp.hand_haul_check(game, actor)
  if game:mode(actor) ~= "unlimbered" then
    return game:name(actor) .. " is not unlimbered: only deployed guns are hand-hauled"
  end
  if game:counter(actor, "moves") < 1 then
    return game:name(actor) .. " has no move to hand-haul with"
  end
  if game:flag(actor, "blundered") then
    -- A blunder's moves are the blunder table's, made on prolong (003 l.710, l.550).
    return game:name(actor) .. " blundered: it makes the blunder table's moves, on prolong, not a hand haul"
  end
  if game:flag(actor, "ordered") and not game:flag(actor, "ordered_hand_haul") then
    -- Heavy guns are Unreliable when hand-hauled: the order must say it is a hand haul.
    return game:name(actor) .. " was not ordered to hand-haul (intent hand_haul)"
  end
  if game:flag(actor, "prolonged") then
    -- A hand haul is the battery's one move (l.556): not one more after a prolong.
    return game:name(actor) .. " has moved on prolong this turn: a hand haul is a battery's only move"
  end
end

function bp.hand_haul(game, actor)
  call.pending = {}
  game:set_flag(actor, "hand_haul")
  set_counter(game, actor, "moves", 1)
end

-- Woods: the opponent of a unit that failed its order in woods moves it up to 6 inches;
-- here a full 6 (scaled) straight toward or away from one of the opponent's own units.
-- Where a drift takes `target` (nil and why not when it cannot drift). The action's
-- `target_needs: [woods_drift]` has the engine refuse a unit that did not fail its order
-- in woods before this is asked.
local function drift_to(game, actor, target, sign)
  if game:side(actor) == game:phasing() then
    return nil, "the opponent moves a unit that failed its order in woods"
  end
  local x, y = game:position(target)
  local dx, dy = away_from(game, target, actor)
  local step = game:setting("woods_drift") * scale(game)
  local tx, ty = x - sign * dx * step, y - sign * dy * step
  local problem = game:can_stand(target, tx, ty)
  if problem then return nil, game:name(target) .. " cannot drift: " .. problem end
  return tx, ty
end

local function woods_drift(game, actor, target, sign)
  call.pending = {}
  local tx, ty = drift_to(game, actor, target, sign)
  if tx == nil then game:refuse(ty) end
  game:place_at(target, tx, ty, nil, "drifts in the woods")
  game:set_flag(target, "woods_drift", false)
end

function bp.woods_drift_toward(game, actor, target) woods_drift(game, actor, target, 1) end
function bp.woods_drift_away(game, actor, target) woods_drift(game, actor, target, -1) end

function bp.woods_drift_toward_check(game, actor, target)
  local tx, why = drift_to(game, actor, target, 1)
  if tx == nil then return why end
end

function bp.woods_drift_away_check(game, actor, target)
  local tx, why = drift_to(game, actor, target, -1)
  if tx == nil then return why end
end

function bp.passage_of_lines_check(game, actor, target)
  -- 003 l.686-690 and l.723-725: a passage is declared in the unit's own command phase;
  -- in the opponent's, a support charge is the only answer.
  local problem = opponent_phase_problem(game, actor, "make a passage of lines")
  if problem then return problem end
  if amended(game) then
    -- A passage is made on a move (l.723-737), by a unit through a unit: commanders are
    -- points, which pass and are passed freely. It may be declared before the unit's
    -- order; once the order is given, only with a move left.
    if kind(game, actor) == "brigadier" or kind(game, target) == "brigadier" then
      return "a passage of lines is one unit through another (commanders pass and are passed freely)"
    end
    if game:flag(actor, "ordered") and game:counter(actor, "moves") < 1 then
      return game:name(actor) .. " has no move left to make a passage of lines with"
    end
  end
  if game:mode(actor) == "square" then
    return "a unit in square may not pass through any unit"
  end
  if game:mode(target) == "square" and kind(game, actor) ~= "skirmish_company" then
    return "only skirmish companies may pass through a square"
  end
end

-- No roll when a skirmisher or a deployed battery is in the passage (003 l.733-734: any unit
-- passes through them with no chance of disorder; the action's description reads it both
-- ways, so a skirmish company or a deployed battery passing through a friend rolls neither).
local function passes_freely(game, u)
  return is_skirmisher(game, u) or (is_artillery(game, u) and game:mode(u) == "unlimbered")
end

function bp.passage_of_lines(game, actor, target)
  local problem = opponent_phase_problem(game, actor, "make a passage of lines")
  if problem then game:refuse(problem) end
  call.pending = {}
  -- No charge during the passage: a later charge needs another move (check_may_charge).
  game:set_flag(actor, "passed_lines")
  if passes_freely(game, actor) or passes_freely(game, target) or game:mode(target) == "square" then
    game:note(game:name(actor) .. " passes through " .. game:name(target) .. " freely")
    return
  end
  -- 003 l.731: 3+ when the passage is done as a brigade order — the passing unit moves on
  -- a brigade command this phase (not on a single unit's order).
  local brigade = b2i(game:flag(actor, "brigade_ordered"))
  for _, u in ipairs({ actor, target }) do
    local r = game:resolve("passage_of_lines", { brigade_command = brigade }, "passage of lines: " .. game:name(u))
    if r == "disordered" then game:set_flag(u, "disordered") end
  end
end

-- Batch forms of the checks of actions with many targets (`check_all:` in the ruleset):
-- the legal listing asks one call per actor and intent for all the targets the action's
-- data allows, where the one-target check was asked once per target (a brigadier's orders
-- are asked about every friendly unit); `apply` asks with the one target. Each target's
-- answer is its one-target check's.
local function each_target(check)
  return function(game, actor, targets)
    local out
    for i, t in ipairs(targets) do
      local why = check(game, actor, t)
      if why then
        out = out or {}
        out[i] = why
      end
    end
    return out
  end
end

-- What the brigade checks read of a unit whatever the order: its brigade, whether it is a
-- brigadier, its name and side; kept in `game:memo()` (one table for a whole listing,
-- which asks a brigadier's orders about every friendly unit once per intent), by handle.
local function unit_facts(game, memo, u)
  local all = memo.unit_facts
  if not all then
    all = {}
    memo.unit_facts = all
  end
  local f = all[u]
  if not f then
    f = {
      brigade = game:attribute(u, "brigade"), brigadier = kind(game, u) == "brigadier",
      name = game:name(u), side = game:side(u),
    }
    all[u] = f
  end
  return f
end

-- A brigade order's batch check: `own_brigade_problem` judged from the kept facts (the same
-- words), then `rest(game, actor, target, intent_problem_of)` for the units of the
-- brigadier's brigade (once for them all when `per_actor`: its answer is the brigadier's),
-- the intent read once for the call and each intent's fit for a unit kept with its facts.
local function brigade_targets(rest, per_actor)
  return function(game, actor, targets)
    local memo = game:memo()
    local a = unit_facts(game, memo, actor)
    if memo.phasing == nil then memo.phasing = game:phasing() end
    local phasing = a.side == memo.phasing
    -- A unit's flags and the rules' switch, read once a listing (one call per intent
    -- asks them again for the same units).
    local function kept_flag(_, u, name)
      local f = unit_facts(game, memo, u)
      f.flags = f.flags or {}
      local v = f.flags[name]
      if v == nil then
        v = game:flag(u, name)
        f.flags[name] = v
      end
      return v
    end
    local function kept_amended(_)
      if memo.amended == nil then memo.amended = amended(game) end
      return memo.amended
    end
    local intent
    local function intent_problem_of(_, t)
      intent = intent or game:intent()
      local f = unit_facts(game, memo, t)
      f.fits = f.fits or {}
      for _, i in ipairs(intent) do
        local fits = f.fits[i]
        if fits == nil then
          fits = intent_fits(game, i, t)
          f.fits[i] = fits
        end
        if not fits then return f.name .. " cannot be ordered to " .. INTENT_WORDS[i] end
      end
    end
    local out, asked, answer
    for i, t in ipairs(targets) do
      local f = unit_facts(game, memo, t)
      local why
      if f.brigade ~= a.brigade or f.brigadier then
        -- The same words for every intent: made once a listing.
        a.not_in = a.not_in or {}
        why = a.not_in[t]
        if not why then
          why = f.name .. " is not in " .. a.name .. "'s brigade"
          a.not_in[t] = why
        end
      elseif not phasing then
        why = "orders are given in your own command phase"
      elseif per_actor then
        if not asked then
          answer, asked = rest(game, actor, nil, nil, kept_flag, kept_amended), true
        end
        why = answer
      else
        why = rest(game, actor, t, intent_problem_of, kept_flag, kept_amended)
      end
      if why then
        out = out or {}
        out[i] = why
      end
    end
    return out
  end
end
bp.order_check_all = brigade_targets(order_rest)
-- The brigade order's refusals past the brigade are the brigadier's: asked once a call.
bp.brigade_order_check_all = brigade_targets(brigade_order_rest, true)
bp.passage_of_lines_check_all = each_target(bp.passage_of_lines_check)
-- The assault's batch check: the brigade's units not locked in combat read once, then
-- each objective's turns judged as `assault_check` judges them (the same turns, in order).
function bp.assault_check_all(game, actor, targets)
  local problem = brigade_order_phase_problem(game, actor)
  if problem then
    local out = {}
    for i = 1, #targets do out[i] = problem end
    return out
  end
  local units = {}
  for _, u in ipairs(brigade_units(game, actor)) do
    if not game:flag(u, "locked") then
      local x, y = game:position(u)
      units[#units + 1] = { u, x, y }
    end
  end
  local out
  for i, target in ipairs(targets) do
    local tx, ty = game:position(target)
    local turns = {}
    for _, s in ipairs(units) do
      if arc(game, s[1], target) ~= "front" then
        turns[#turns + 1] = { s[1], s[2], s[3], math.deg(math.atan(ty - s[3], tx - s[2])) % 360 }
      end
    end
    local why = game:can_stand_all(turns)
    if why then
      out = out or {}
      out[i] = why
    end
  end
  return out
end

function bp.light_infantry_reform_check(game, actor)
  if game:mode(actor) ~= "grande_bande" then
    return game:name(actor) .. " is not in grande bande"
  end
end

function bp.light_infantry_reform(game, actor)
  call.pending = {}
  local hits = 0
  local r = game:resolve("morale_save", { save = game:attribute(actor, "save") }, "reforming " .. game:name(actor))
  if r ~= "saved" then hits = 1 end
  if r == "failed_on_one" then
    local again = game:resolve("morale_save", { save = game:attribute(actor, "save") }, "reforming again " .. game:name(actor))
    if again ~= "saved" then hits = 2 end
  end
  game:set_mode(actor, "line")
  if hits > 0 then
    game:add_counter(actor, "hits", hits)
    call.pending[game:name(actor)] = hits
    if hits_of(game, actor) > game:attribute(actor, "stamina") then break_test(game, actor, 0) end
  end
  game:note(game:name(actor) .. " reforms into line with " .. hits .. " hits")
end

return {
  hooks = bp,
  BLUNDER_MOVES = BLUNDER_MOVES,
  INTENT_FITS = INTENT_FITS,
  INTENT_WORDS = INTENT_WORDS,
  MOVES = MOVES,
  RELIABLE_INPUTS = RELIABLE_INPUTS,
  UNRELIABLE_INPUTS = UNRELIABLE_INPUTS,
  all_unengaged = all_unengaged,
  blunder = blunder,
  intent_problem = intent_problem,
  opponent_phase_problem = opponent_phase_problem,
  own_brigade_problem = own_brigade_problem,
  command_band = command_band,
  intent_fits = intent_fits,
  mark_intent = mark_intent,
  moves_cap = moves_cap,
  rated = rated,
  reroll_order = reroll_order,
  settle = settle,
  woods_columns_only = woods_columns_only,
  woods_drift = woods_drift,
}
