-- Black Powder charges: support and massed formations, closing fire, the responses of
-- skirmish companies and grande bande, sudden charges and forming square, who may charge,
-- cavalry turning to face, and the charge itself and sweeping advances.

local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local contact_arc = scripts.bp_core.contact_arc
local b2i = scripts.bp_core.b2i
local brigadier_of = scripts.bp_core.brigadier_of
local in_woods = scripts.bp_core.in_woods
local is_artillery = scripts.bp_core.is_artillery
local is_cavalry = scripts.bp_core.is_cavalry
local is_formed_infantry = scripts.bp_core.is_formed_infantry
local is_infantry = scripts.bp_core.is_infantry
local is_skirmisher = scripts.bp_core.is_skirmisher
local kind = scripts.bp_core.kind
local objective_of = scripts.bp_core.objective_of
local retire = scripts.bp_core.retire
local rule_distance = scripts.bp_core.rule_distance
local scale = scripts.bp_core.scale
local set_counter = scripts.bp_core.set_counter
local call = scripts.bp_hits.call
local firer_inputs = scripts.bp_hits.firer_inputs
local roll_to_hit = scripts.bp_hits.roll_to_hit
local take_hits = scripts.bp_hits.take_hits

local bp = {}

-- Charges --------------------------------------------------------------------------------

local function has_support(game, u)
  local reach = game:setting("support_distance")
  for _, f in ipairs(game:units(game:side(u))) do
    if f ~= u and kind(game, f) ~= "brigadier" and not is_skirmisher(game, f)
      and rule_distance(game, u, f) <= reach then
      return true
    end
  end
  return false
end

-- Other attack columns of the striker's side that charged `target` this turn (a massed
-- column). Charges resolve where the units stand, so "charged the same unit" reads as:
-- charged this turn, locked in combat, and within a charge move of it.
local function massed_with(game, striker, target)
  local out = {}
  if not amended(game) or game:mode(striker) ~= "attack_column" then return out end
  for _, f in ipairs(game:units(game:side(striker))) do
    if f ~= striker and game:mode(f) == "attack_column" and game:flag(f, "charged")
      and game:flag(f, "locked") and rule_distance(game, f, target) <= game:setting("charge_reach") then
      out[#out + 1] = f
    end
  end
  return out
end

local function closing_fire(game, target, charger, dice)
  local inputs = firer_inputs(game, target, charger)
  inputs.closing_fire = 1
  local hits, disorders = roll_to_hit(game, dice, inputs, "closing fire by " .. game:name(target))
  local massed = massed_with(game, charger, target)
  local save = {
    attack_column_vs_closing_fire = b2i(game:mode(charger) == "attack_column"),
  }
  if amended(game) then
    save.echelon_vs_closing_fire = b2i(game:mode(charger) == "echelon" and not is_artillery(game, target))
    -- Massed target: every charging unit suffers the hits, without the column's +1.
    save.massed_column = b2i(#massed > 0)
  end
  game:note(game:name(target) .. " closing fire: " .. hits .. " hits")
  massed[#massed + 1] = charger
  for _, u in ipairs(massed) do
    if disorders then game:set_flag(u, "disordered") end
    take_hits(game, u, hits, save, true)
  end
end

local function closing_fire_dice(game, target)
  if amended(game) and (game:mode(target) == "mixed_formation" or game:mode(target) == "grande_bande") then
    return 1
  end
  return game:attribute(target, "shooting")
end

local function lock(game, a, b)
  game:set_flag(a, "locked")
  game:set_flag(b, "locked")
end

local function skirmish_company_response(game, actor, target, left)
  local inputs = {
    by_cavalry = b2i(is_cavalry(game, actor)),
    support = b2i(has_support(game, target)),
    reliable = game:attribute(target, "reliable"),
    unreliable = game:attribute(target, "unreliable"),
  }
  local r = game:resolve("skirmish_company_charged", inputs, "charge response of " .. game:name(target))
  if r == "flee_retire_then_one_hit" then
    retire(game, target, actor)
    take_hits(game, target, 1, {}, true)
  elseif r == "fall_back_retire" then
    retire(game, target, actor)
  elseif r == "fire_one_hit_then_retire" then
    take_hits(game, actor, 1, {}, true)
    retire(game, target, actor)
  elseif r == "disordering_hit_then_retire" then
    game:set_flag(actor, "disordered")
    take_hits(game, actor, 1, {}, true)
    retire(game, target, actor)
  elseif r == "overrun_break" then
    game:remove(target, "overrun")
    game:set_flag(actor, "victory_move")
  elseif r == "fire_one_hit_then_break" then
    take_hits(game, actor, 1, {}, true)
    game:remove(target, "breaks after firing")
  elseif r == "evade_to_support_or_fire_one_hit_then_break"
    or r == "evade_to_support_or_disordering_hit_then_fight" then
    -- Reading: the company takes the offered shelter and moves to its support.
    retire(game, target, actor)
    game:note(game:name(target) .. " evades to its support")
  elseif r == "disordering_hit_then_fight_as_skirmishers" then
    game:set_flag(actor, "disordered")
    take_hits(game, actor, 1, {}, true)
    lock(game, actor, target)
  end
  -- Follow-through: a charger with a move left may make one move on, into its front arc
  -- (the `moved` hook checks it; the `charged` flag bars another charge); a charger
  -- disordered here makes none. Reads do not see this call's changes: hence `disordered`.
  local disordered = game:flag(actor, "disordered") or r == "disordering_hit_then_retire"
    or r == "disordering_hit_then_fight_as_skirmishers"
  local final
  if left and left > 0 then
    if disordered then
      final = 0
    else
      final = 1
      game:set_flag(actor, "follow_through")
      game:note(game:name(actor) .. " may follow through one move into its front arc")
    end
  end
  return r, final
end

local function grande_bande_response(game, actor, target)
  local inputs = {
    by_cavalry = b2i(is_cavalry(game, actor)),
    light = game:attribute(target, "light"),
    reliable = game:attribute(target, "reliable"),
    unreliable = game:attribute(target, "unreliable"),
  }
  local r = game:resolve("grande_bande_charged", inputs, "charge response of " .. game:name(target))
  if r == "one_hit_then_retire" then
    take_hits(game, target, 1, {}, true)
    retire(game, target, actor)
  elseif r == "retire" or r == "closing_fire_then_retire" then
    if r == "closing_fire_then_retire" then closing_fire(game, target, actor, 1) end
    retire(game, target, actor)
  elseif r == "closing_fire_then_retire_or_form_line" then
    closing_fire(game, target, actor, 1)
    -- Reading: light infantry able to reform takes the line and fights.
    game:set_mode(target, "line")
    lock(game, actor, target)
  elseif r == "overrun_break" then
    game:remove(target, "overrun")
    game:set_flag(actor, "victory_move")
  elseif r == "normal_fire_then_break_in_hand_to_hand" then
    closing_fire(game, target, actor, game:attribute(target, "shooting"))
    game:remove(target, "breaks in hand-to-hand")
  elseif r == "disordered_square" then
    game:set_mode(target, "square")
    game:set_flag(target, "disordered")
    lock(game, actor, target)
  elseif r == "closing_fire_then_fight_as_skirmishers" then
    closing_fire(game, target, actor, 1)
    lock(game, actor, target)
  elseif r == "closing_fire_then_fight_as_disordered_square" then
    closing_fire(game, target, actor, 1)
    game:set_flag(target, "disordered")
    game:set_flag(target, "in_square")
    lock(game, actor, target)
  end
  return r
end

-- Whether `actor` stood within the initiative range (rule inches, edge to edge) of
-- `target` as the phase began (where they stand now if either was off the table then).
local function started_within_initiative_range(game, actor, target)
  local ax, ay, af = game:phase_start(actor)
  local tx, ty, tf = game:phase_start(target)
  if not ax then ax, ay, af = game:position(actor) end
  if not tx then tx, ty, tf = game:position(target) end
  local d = game:distance_from(actor, ax, ay, af, target, tx, ty, tf) / scale(game)
  return d <= game:setting("initiative_range") + 0.0001
end

-- 003 Sudden charge: a charge from the target's flank or rear zone, from within the
-- initiative range (where the charger stood as the phase began), or during a sweeping
-- advance. Returns whether it is one and why.
local function sudden_charge(game, actor, target, sweeping)
  if contact_arc(game, target, actor) ~= "front" then return true, "from the flank or rear" end
  if sweeping then return true, "during a sweeping advance" end
  if game:option("sudden_charge_on_initiative_only") then
    -- Other reading: only a charge made on an initiative move comes from initiative range.
    if amended(game) and game:phase() == "initiative" then return true, "on an initiative move" end
  elseif started_within_initiative_range(game, actor, target) then
    return true, "from initiative range"
  end
  return false, nil
end

local function form_square(game, actor, target, sweeping)
  local sudden, why = sudden_charge(game, actor, target, sweeping)
  if sudden then game:note(game:name(actor) .. "'s charge is a sudden charge (" .. why .. ")") end
  local inputs = {
    sudden_charge = b2i(sudden),
    attack_column = b2i(game:mode(target) == "attack_column"),
  }
  local r = game:resolve("form_square", inputs, "form square: " .. game:name(target))
  if r == "square_and_fire" then
    game:set_mode(target, "square")
    closing_fire(game, target, actor, closing_fire_dice(game, target))
  elseif r == "square" then
    game:set_mode(target, "square")
  elseif r == "disordered_square" then
    game:set_mode(target, "square")
    game:set_flag(target, "disordered")
  else
    game:set_flag(target, "disordered")
  end
  lock(game, actor, target)
  return r
end

local function check_may_charge(game, actor, target)
  if not amended(game) then return end
  -- Charge contact: one infantry unit per facing of the enemy, unless massed columns.
  if is_infantry(game, actor) then
    local facing = contact_arc(game, target, actor)
    for _, f in ipairs(game:units(game:side(actor))) do
      if f ~= actor and is_infantry(game, f) and game:flag(f, "charged") and game:flag(f, "locked")
        and rule_distance(game, f, target) <= game:setting("charge_reach")
        and contact_arc(game, target, f) == facing
        and not (game:mode(f) == "attack_column" and game:mode(actor) == "attack_column") then
        error(game:name(f) .. " already contacts that facing of " .. game:name(target), 0)
      end
    end
  end
  if amended(game) and game:flag(actor, "passed_lines") and game:counter(actor, "moves") < 1 then
    error(game:name(actor) .. " made a passage of lines: its charge needs another move left", 0)
  end
  if game:attribute(actor, "opportunist") == 1 and game:side(actor) == game:phasing()
    and game:flag(actor, "ordered") and not game:flag(actor, "ordered_charge") then
    -- Opportunist chargers ordered to charge in their own turn take -1 on the order: the
    -- order must say so (intent `charge`), or the unit may not charge on it.
    error(game:name(actor) .. " was not ordered to charge (an opportunist's order to charge says so: intent charge)", 0)
  end
  local c = brigadier_of(game, actor)
  if c and (game:flag(c, "order_maneuver") or game:flag(c, "order_hold")) then
    error(game:name(actor) .. "'s brigade is under a Maneuver or Hold order: no voluntary charges", 0)
  end
  if game:mode(actor) == "grande_bande" and not (game:mode(target) == "grande_bande"
      or kind(game, target) == "skirmish_company") then
    error("a grande bande may charge only grandes bandes and skirmish companies", 0)
  end
end

-- 003 Flank attacks: cavalry charged in the flank or rear may turn to face the charger.
-- Reading: it does so unless disordered, shaken or already in combat (optional rule
-- `cavalry_flank_charges_stand`: it never does), and so is not attacked in the flank.
local function cavalry_turns_to_face(game, actor, target)
  if not (amended(game) and is_cavalry(game, target)) or game:option("cavalry_flank_charges_stand") then
    return
  end
  if contact_arc(game, target, actor) == "front" or game:flag(target, "disordered")
    or game:flag(target, "shaken") or game:flag(target, "locked") then
    return
  end
  -- It turns to face the charger, its front edge against the charger's (lined up where it
  -- stood): the engine places it as it places a charger.
  game:contact(target, actor)
  game:note(game:name(target) .. " turns to face the charge")
end

-- Resolves a charge of `actor` on `target`: the target's response, then both are locked.
-- `left` is the moves the charger has after its charge move (nil: not counted), `sweeping`
-- whether it is a sweeping advance. Returns the response and, when the response changes
-- them, the charger's moves afterwards.
local function resolve_charge(game, actor, target, left, sweeping)
  local open_ground = not in_woods(game, target)
  if amended(game) and kind(game, target) == "skirmish_company" and open_ground then
    return skirmish_company_response(game, actor, target, left)
  end
  if amended(game) and game:mode(target) == "grande_bande" and open_ground then
    return grande_bande_response(game, actor, target)
  end
  if is_cavalry(game, actor) and is_formed_infantry(game, target) and open_ground then
    if amended(game) then
      return form_square(game, actor, target, sweeping)
    end
    -- Base assumption: formed infantry charged by cavalry forms square as its response.
    game:set_mode(target, "square")
    lock(game, actor, target)
    return "square"
  end
  if amended(game) and is_artillery(game, target) and game:option("sheltering_artillery")
    and contact_arc(game, target, actor) == "front" and has_support(game, target) then
    -- Not adopted by the club: the gunners fire (medium range dice) and shelter.
    closing_fire(game, target, actor, game:setting("artillery_dice_effective"))
    game:set_flag(target, "disordered")
    game:note(game:name(target) .. " shelters behind its support")
    return "sheltered"
  end
  if game:mode(target) ~= "limbered" and game:attribute(target, "shooting") > 0 then
    closing_fire(game, target, actor, closing_fire_dice(game, target))
  end
  cavalry_turns_to_face(game, actor, target)
  lock(game, actor, target)
  return "stand"
end

-- Base assumption: a charge is a move. It is made with a move the unit has — from a
-- successful order, or its initiative move — and spends it.
function bp.charge(game, actor, target)
  call.pending = {}
  check_may_charge(game, actor, target)
  local moves = game:counter(actor, "moves")
  if moves < 1 then
    error(game:name(actor) .. " has no move to charge with (a charge is made on a successful order or an initiative move)", 0)
  end
  local r, final = resolve_charge(game, actor, target, moves - 1, false)
  set_counter(game, actor, "moves", final or (moves - 1))
  local c = brigadier_of(game, actor)
  if amended(game) and c and game:flag(actor, "in_brigade_command") and objective_of(game, c) == target then
    -- A charge on the objective closes on it (003 Brigade Orders, Assault).
    game:set_flag(c, "assault_advanced")
  end
  game:note(game:name(actor) .. " charges " .. game:name(target) .. ": " .. r)
end

-- Base assumption: a sweeping advance. Cavalry that won a hand-to-hand (flag
-- `victory_move`) may, instead of a victory move, charge a fresh enemy within one move in
-- its front arc (the action's range and arcs); with the amendments it is a sudden charge.
function bp.sweeping_advance(game, actor, target)
  call.pending = {}
  if not game:flag(actor, "victory_move") then
    error(game:name(actor) .. " has not won a combat this turn (no sweeping advance)", 0)
  end
  check_may_charge(game, actor, target)
  game:set_flag(actor, "victory_move", false)
  game:set_flag(actor, "charged")
  local r = resolve_charge(game, actor, target, nil, true)
  game:note(game:name(actor) .. " sweeps on into " .. game:name(target) .. ": " .. r)
end

return {
  hooks = bp,
  cavalry_turns_to_face = cavalry_turns_to_face,
  check_may_charge = check_may_charge,
  closing_fire = closing_fire,
  closing_fire_dice = closing_fire_dice,
  form_square = form_square,
  grande_bande_response = grande_bande_response,
  has_support = has_support,
  lock = lock,
  massed_with = massed_with,
  resolve_charge = resolve_charge,
  skirmish_company_response = skirmish_company_response,
  started_within_initiative_range = started_within_initiative_range,
  sudden_charge = sudden_charge,
}
