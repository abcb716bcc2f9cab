-- Black Powder charges: support and massed formations, closing fire, the responses of
-- skirmish companies and grande bande, sudden charges and forming square, who may charge,
-- cavalry turning to face, and the charge itself and sweeping advances.

local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local contact_arc = scripts.bp_core.contact_arc
local face_attacked = scripts.bp_core.face_attacked
local b2i = scripts.bp_core.b2i
local MIXED_MODES = scripts.bp_core.MIXED_MODES
local brigadier_of = scripts.bp_core.brigadier_of
local in_woods = scripts.bp_core.in_woods
local initiative_range = scripts.bp_core.initiative_range
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
local artillery_inputs = scripts.bp_shooting.artillery_inputs
local call = scripts.bp_hits.call
local firer_inputs = scripts.bp_hits.firer_inputs
local roll_to_hit = scripts.bp_hits.roll_to_hit
local take_hits = scripts.bp_hits.take_hits

local bp = {}

-- Charges --------------------------------------------------------------------------------

-- A friendly formed unit within support distance of `u` (with `woods`, or woods: 003
-- l.149, a skirmish company may evade to either; light woods are not woods for it).
local function has_support(game, u, woods)
  local reach = game:setting("support_distance")
  for _, f in ipairs(game:units(game:side(u))) do
    if f ~= u and kind(game, f) ~= "brigadier" and not is_skirmisher(game, f)
      and rule_distance(game, u, f) <= reach then
      return true
    end
  end
  if woods then
    local d = game:terrain_distance(u, "woods")
    if d and d / scale(game) <= reach + 0.0001 then return true end
  end
  return false
end

-- The other units of the striker's massed column against `target` (003 Massed Columns):
-- those that charged with it as one (flag `massed_column`, action `massed_charge`), still
-- locked in contact with the target.
local function massed_with(game, striker, target)
  local out = {}
  if not amended(game) or not game:flag(striker, "massed_column") then return out end
  for _, f in ipairs(game:units(game:side(striker))) do
    if f ~= striker and game:flag(f, "massed_column") and game:flag(f, "locked")
      and game:distance(f, target) < 0.01 then
      out[#out + 1] = f
    end
  end
  return out
end

-- The units of a massed column charging in this call (set by `massed_charge`: reads do not
-- see the flags it asks for), or nil.
local charging_together = nil

-- 003 Massed Target (l.341-344): the target's closing fire is rolled once; with a massed
-- column every charging unit suffers the hits, each saving for itself without the attack
-- column's +1, and a 6 disorders them all.
-- Artillery closing fire is artillery fire in a range band (003 l.443-449), by the club's
-- reading at close canister, the charger being in contact (l.567-569: only the sheltering
-- battery goes without the +1 to hit and fires the medium range dice, `band` effective):
-- the band's to-hit and save modifiers and, after a move on prolong, -1 (l.551-553).
local function closing_fire(game, target, charger, dice, band)
  local inputs = firer_inputs(game, target, charger)
  inputs.closing_fire = 1
  local save = {
    attack_column_vs_closing_fire = b2i(game:mode(charger) == "attack_column"),
  }
  if amended(game) and is_artillery(game, target) then
    local hit, band_save = artillery_inputs(game, target, band or "close_canister")
    for k, v in pairs(hit) do inputs[k] = v end
    for k, v in pairs(band_save) do save[k] = v end
  end
  local hits, disorders = roll_to_hit(game, dice, inputs, "closing fire by " .. game:name(target))
  local massed = charging_together or { charger }
  if amended(game) then
    save.echelon_vs_closing_fire = b2i(game:mode(charger) == "echelon" and not is_artillery(game, target))
    save.massed_column = b2i(#massed > 1)
  end
  game:note(game:name(target) .. " closing fire: " .. hits .. " hits")
  for _, u in ipairs(massed) do
    if disorders then game:set_flag(u, "disordered") end
    take_hits(game, u, hits, save, true)
  end
end

local function closing_fire_dice(game, target)
  if amended(game) and is_artillery(game, target) then return game:setting("artillery_dice_close_canister") end
  if amended(game) and (MIXED_MODES[game:mode(target)] or game:mode(target) == "grande_bande") then
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
    support = b2i(has_support(game, target, true)),
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
  return d <= initiative_range(game) + 0.0001
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

-- 003 Charge contact (l.323-325): one infantry unit per facing of the enemy, unless they
-- charge as a massed column. Returns why `actor` may not charge `target`, or nil.
local function facing_taken(game, actor, target)
  if not (amended(game) and is_infantry(game, actor)) then return nil end
  local facing = contact_arc(game, target, actor)
  for _, f in ipairs(game:units(game:side(actor))) do
    if f ~= actor and is_infantry(game, f) and game:flag(f, "charged") and game:flag(f, "locked")
      and game:distance(f, target) < 0.01 and contact_arc(game, target, f) == facing then
      return game:name(f) .. " already contacts that facing of " .. game:name(target)
        .. " (only one infantry unit per facing, unless they charge together as a massed column: action massed_charge)"
    end
  end
  return nil
end

-- Asked before the engine puts the charger in contact.
function bp.charge_check(game, actor, target)
  return facing_taken(game, actor, target)
end

local function check_may_charge(game, actor, target)
  if not amended(game) then return end
  local taken = facing_taken(game, actor, target)
  if taken then game:refuse(taken) end
  if amended(game) and game:flag(actor, "passed_lines") and game:counter(actor, "moves") < 1 then
    game:refuse(game:name(actor) .. " made a passage of lines: its charge needs another move left")
  end
  if game:attribute(actor, "opportunist") == 1 and game:side(actor) == game:phasing()
    and game:flag(actor, "ordered") and not game:flag(actor, "ordered_charge") then
    -- Opportunist chargers ordered to charge in their own turn take -1 on the order: the
    -- order must say so (intent `charge`), or the unit may not charge on it.
    game:refuse(game:name(actor) .. " was not ordered to charge (an opportunist's order to charge says so: intent charge)")
  end
  local c = brigadier_of(game, actor)
  if c and (game:flag(c, "order_maneuver") or game:flag(c, "order_hold")) then
    game:refuse(game:name(actor) .. "'s brigade is under a Maneuver or Hold order: no voluntary charges")
  end
  if game:mode(actor) == "grande_bande" and not (game:mode(target) == "grande_bande"
      or kind(game, target) == "skirmish_company") then
    game:refuse("a grande bande may charge only grandes bandes and skirmish companies")
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
    closing_fire(game, target, actor, game:setting("artillery_dice_effective"), "effective")
    game:set_flag(target, "disordered")
    game:note(game:name(target) .. " shelters behind its support")
    return "sheltered"
  end
  if amended(game) and game:flag(target, "prolonged_twice") then
    -- 003 l.551-552: a battery fires only if it made one move on prolong.
    game:note(game:name(target) .. " moved on prolong more than once this turn: no closing fire")
  elseif game:mode(target) ~= "limbered" and game:attribute(target, "shooting") > 0 then
    closing_fire(game, target, actor, closing_fire_dice(game, target))
  end
  cavalry_turns_to_face(game, actor, target)
  lock(game, actor, target)
  return "stand"
end

-- The edge of `target` that `u` attacks: the one its front touches, else the one of the
-- arc it stands in (of the two flanks, the nearer): its middle, its direction along (unit
-- vector, from its first corner) and the outward normal.
local function facing_edge(game, target, u)
  local k = game:footprint(target).corners
  local tx, ty = game:position(target)
  local ux, uy = game:position(u)
  local face = face_attacked(game, target, u) or arc(game, target, u)
  local candidates = { { 1, 2 } }
  if face == "rear" then candidates = { { 3, 4 } }
  elseif face == "flank" then candidates = { { 2, 3 }, { 4, 1 } } end
  local best, edge
  for _, c in ipairs(candidates) do
    local a, b = k[c[1]], k[c[2]]
    local mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
    local d = (mx - ux) ^ 2 + (my - uy) ^ 2
    if not best or d < best then best, edge = d, { a = a, b = b, mx = mx, my = my } end
  end
  local ex, ey = edge.b.x - edge.a.x, edge.b.y - edge.a.y
  local len = math.sqrt(ex * ex + ey * ey)
  if len > 0 then ex, ey = ex / len, ey / len end
  local ox, oy = -ey, ex
  if (edge.mx - tx) * ox + (edge.my - ty) * oy < 0 then ox, oy = -ox, -oy end
  edge.ex, edge.ey, edge.ox, edge.oy = ex, ey, ox, oy
  return edge
end

-- Where each of `units` (already in contact with `target`'s edge facing them) stands side
-- by side, centred as a group on that edge (003 Charge Contact, l.319-322: centre point to
-- centre point; Massed Columns, l.333-339: each complying with the contact rule): a list
-- of { u, x, y, facing }, in the order the units stood along the edge.
local function centred_places(game, units, target)
  local edge = facing_edge(game, target, units[1])
  local along = {}
  local total = 0
  for _, u in ipairs(units) do
    local x, y = game:position(u)
    local f = game:footprint(u)
    along[#along + 1] = { u = u, at = (x - edge.mx) * edge.ex + (y - edge.my) * edge.ey, w = f.width, d = f.depth }
    total = total + f.width
  end
  table.sort(along, function(p, q) return p.at < q.at end)
  local facing = math.deg(math.atan(-edge.oy, -edge.ox)) % 360
  local s = -total / 2
  local out = {}
  for _, p in ipairs(along) do
    local c = s + p.w / 2
    -- A thou beyond touching, as the engine's own contact stands.
    local back = p.d / 2 + 0.001
    out[#out + 1] = { u = p.u, x = edge.mx + edge.ex * c + edge.ox * back,
      y = edge.my + edge.ey * c + edge.oy * back, facing = facing, from = p.at, to = c }
    s = s + p.w
  end
  return out
end

-- Moves `places` (from `centred_places`) in an order that never puts one unit over
-- another: those sliding one way along the edge from that end first.
local function place_side_by_side(game, places, reason)
  local left, right = {}, {}
  for _, p in ipairs(places) do
    if p.to <= p.from then left[#left + 1] = p else table.insert(right, 1, p) end
  end
  for _, group in ipairs({ left, right }) do
    for _, p in ipairs(group) do game:place_at(p.u, p.x, p.y, p.facing, reason) end
  end
end

-- 003 Charge Contact: formed infantry meets the centre of the side it charges, centre to
-- centre (the engine's contact lines it up with where it came from).
local function centre_charger(game, actor, target)
  if not (amended(game) and is_formed_infantry(game, actor)) or game:distance(actor, target) > 0.01 then
    return
  end
  local p = centred_places(game, { actor }, target)[1]
  local x, y = game:position(actor)
  if math.abs(p.x - x) < 0.002 and math.abs(p.y - y) < 0.002 then return end
  local problem = game:can_stand(actor, p.x, p.y)
  if problem then
    game:refuse(game:name(actor) .. " cannot stand centred on the side of " .. game:name(target)
      .. " it charges: " .. problem)
  end
  game:place_at(actor, p.x, p.y, p.facing, "centred on the side it charges")
end

-- Base assumption: a charge is a move. It is made with a move the unit has — from a
-- successful order, or its initiative move — and spends it.
function bp.charge(game, actor, target)
  call.pending = {}
  charging_together = nil
  check_may_charge(game, actor, target)
  local moves = game:counter(actor, "moves")
  if moves < 1 then
    game:refuse(game:name(actor) .. " has no move to charge with (a charge is made on a successful order or an initiative move)")
  end
  centre_charger(game, actor, target)
  local r, final = resolve_charge(game, actor, target, moves - 1, false)
  set_counter(game, actor, "moves", final or (moves - 1))
  local c = brigadier_of(game, actor)
  if amended(game) and c and game:flag(actor, "in_brigade_command") and objective_of(game, c) == target then
    -- A charge on the objective closes on it (003 Brigade Orders, Assault).
    game:set_flag(c, "assault_advanced")
  end
  game:note(game:name(actor) .. " charges " .. game:name(target) .. ": " .. r)
end

-- 003 Massed Columns (l.333-351): the attack columns of a brigade command that can charge
-- `target` (each in attack column, on that command with a move left, free to charge, the
-- target within charge reach, in its front arc and in sight), the actor first.
local function massed_columns(game, actor, target)
  local out = { actor }
  for _, f in ipairs(game:units(game:side(actor))) do
    if f ~= actor and game:mode(f) == "attack_column" and game:flag(f, "brigade_ordered")
      and game:attribute(f, "brigade") == game:attribute(actor, "brigade")
      and game:counter(f, "moves") >= 1 and not (game:flag(f, "charged") or game:flag(f, "shaken")
        or game:flag(f, "disordered") or game:flag(f, "locked"))
      and rule_distance(game, f, target) <= game:setting("charge_reach") + 0.0001
      and arc(game, f, target) == "front" and game:sight(f, target) then
      out[#out + 1] = f
    end
  end
  return out
end

function bp.massed_charge_check(game, actor, target)
  if not amended(game) then return "massed columns are a club amendment" end
  if game:mode(actor) ~= "attack_column" then return game:name(actor) .. " is not in attack column" end
  if not game:flag(actor, "brigade_ordered") then
    return game:name(actor) .. " did not move on a brigade command this phase (a massed column is ordered as one)"
  end
  if game:counter(actor, "moves") < 1 then return game:name(actor) .. " has no move to charge with" end
  if #massed_columns(game, actor, target) < 2 then
    return "no other attack column of " .. game:name(actor) .. "'s brigade command can charge " .. game:name(target) .. " with it"
  end
end

-- A massed column charges: every column of `massed_columns` moves at once into contact
-- with the one facing of the target the actor attacks, side by side and centred on it; the
-- target answers once (one closing fire, every column taking its hits); all are locked.
function bp.massed_charge(game, actor, target)
  call.pending = {}
  local cols = massed_columns(game, actor, target)
  for _, u in ipairs(cols) do check_may_charge(game, u, target) end
  -- Into contact (the engine's contact), then side by side and centred on the facing.
  for _, u in ipairs(cols) do game:contact(u, target) end
  local places = centred_places(game, cols, target)
  place_side_by_side(game, places, "massed column, centred on the side it charges")
  charging_together = cols
  local ok, r = pcall(resolve_charge, game, actor, target, nil, false)
  charging_together = nil
  if not ok then error(r, 0) end
  local names = {}
  for _, u in ipairs(cols) do
    game:set_flag(u, "massed_column")
    game:set_flag(u, "charged")
    lock(game, u, target)
    set_counter(game, u, "moves", game:counter(u, "moves") - 1)
    names[#names + 1] = game:name(u)
  end
  game:note("massed column " .. table.concat(names, ", ") .. " charges " .. game:name(target) .. ": " .. r)
end

-- Base assumption: a sweeping advance. Cavalry that won a hand-to-hand (flag
-- `victory_move`) may, instead of a victory move, charge a fresh enemy within one move in
-- its front arc (the action's range and arcs); with the amendments it is a sudden charge.
function bp.sweeping_advance(game, actor, target)
  call.pending = {}
  charging_together = nil
  if not game:flag(actor, "victory_move") then
    game:refuse(game:name(actor) .. " has not won a combat this turn (no sweeping advance)")
  end
  check_may_charge(game, actor, target)
  game:set_flag(actor, "victory_move", false)
  game:set_flag(actor, "charged")
  local r = resolve_charge(game, actor, target, nil, true)
  game:note(game:name(actor) .. " sweeps on into " .. game:name(target) .. ": " .. r)
end

return {
  hooks = bp,
  centred_places = centred_places,
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
