-- Black Powder procedures that data alone cannot say: multi-dice fire and saves, charge
-- responses, hand-to-hand, brigade commands, the status of units at the start of a turn,
-- brigade and army morale. Bound by black-powder-core.yaml; the club's amendments
-- (black-powder.yaml) set the setting `club_amendments` to 1, which switches on their
-- procedures here. Every number comes from the ruleset (charts, settings, attributes).

local bp = {}

local ARTILLERY = { foot_battery = true, light_battery = true, heavy_battery = true, horse_battery = true }
local CAVALRY = { cavalry = true, small_cavalry = true }
local INFANTRY = { line_infantry = true, light_infantry = true, skirmish_company = true }
local SKIRMISH_MODES = { skirmish = true, mixed_formation = true, grande_bande = true }
local FORMED_MODES = { line = true, attack_column = true, march_column = true }
local HEAVY_GUNS = { [3] = true, [6] = true, [10] = true, [13] = true, [15] = true }
local LIGHT_GUNS = { [1] = true, [4] = true, [7] = true, [11] = true }
local BRITAIN = 2

local function amended(game) return game:setting("club_amendments") == 1 end
local function scale(game) return game:setting("measure_percent") / 100 end
-- Distance in rule inches (the table distance divided by the measuring scale).
local function rule_distance(game, a, b) return game:distance(a, b) / scale(game) end
local function kind(game, u) return game:kind(u) end
local function is_artillery(game, u) return ARTILLERY[kind(game, u)] == true end
local function is_cavalry(game, u) return CAVALRY[kind(game, u)] == true end
local function is_infantry(game, u) return INFANTRY[kind(game, u)] == true end
local function is_skirmisher(game, u)
  return kind(game, u) == "skirmish_company" or SKIRMISH_MODES[game:mode(u)] == true
end
local function is_formed_infantry(game, u)
  return is_infantry(game, u) and kind(game, u) ~= "skirmish_company" and FORMED_MODES[game:mode(u)] == true
end
local function in_woods(game, u) return game:terrain_of(u) == "woods" end
local function b2i(b) if b then return 1 else return 0 end end
local function arc(game, a, b) return game:arc(a, b) or "front" end

local function set_counter(game, u, name, value)
  game:add_counter(u, name, value - game:counter(u, name))
end

local function brigadier_of(game, u)
  local brigade = game:attribute(u, "brigade")
  for _, c in ipairs(game:units(game:side(u))) do
    if kind(game, c) == "brigadier" and game:attribute(c, "brigade") == brigade then
      return c
    end
  end
  return nil
end

local function brigade_units(game, commander)
  local out = {}
  local brigade = game:attribute(commander, "brigade")
  for _, u in ipairs(game:units(game:side(commander))) do
    if kind(game, u) ~= "brigadier" and game:attribute(u, "brigade") == brigade then
      out[#out + 1] = u
    end
  end
  return out
end

local function enemies(game, u)
  local out = {}
  for _, e in ipairs(game:units()) do
    if game:side(e) ~= game:side(u) and kind(game, e) ~= "brigadier" then
      out[#out + 1] = e
    end
  end
  return out
end

-- Engaged: within the engaged range of an enemy that is not a tiny skirmisher (with the
-- amendments, the shorter unseen range when there is no line of sight to it).
local function is_engaged(game, u)
  for _, e in ipairs(enemies(game, u)) do
    local tiny = kind(game, e) == "skirmish_company" and game:attribute(e, "size") == 0
    local range = game:setting("engaged_range")
    if amended(game) and not game:sight(u, e) then range = game:setting("engaged_range_unseen") end
    if not tiny and rule_distance(game, u, e) <= range then
      return true
    end
  end
  return false
end

-- Whether enemy `e` threatens `u` where they stand (the threatened zone of the ruleset's
-- `open_table.threats`: 6 inches, artillery 12 except against skirmishers, cavalry 12 against
-- infantry; from the enemy's front arc, with line of sight; shaken units threaten nothing).
local function threatens(game, e, u)
  if game:flag(e, "shaken") then return false end
  local reach = 6
  if (is_artillery(game, e) and not is_skirmisher(game, u))
    or (is_cavalry(game, e) and is_infantry(game, u)) then
    reach = 12
  end
  return arc(game, e, u) == "front" and game:sight(e, u) and rule_distance(game, u, e) <= reach
end

-- 003 Brigade Orders ----------------------------------------------------------------------

-- The brigade's Assault objective (an enemy unit on the table), or nil.
local function objective_of(game, commander)
  if not commander or not game:flag(commander, "order_assault") then return nil end
  local n = game:counter(commander, "objective")
  if n < 1 then return nil end
  for _, e in ipairs(game:units()) do
    if e:id() == n - 1 then return e end
  end
  return nil
end

-- Close range is read as the threatened range: under Assault infantry and artillery may
-- move into it, under Hold infantry may (within command range, checked after the move).
-- `order` ("assault", "hold" or another name) is the brigade's order when the caller knows
-- better than the flags it can read (an order changed in the same call).
local function may_close(game, u, commander, order)
  if not order then
    if game:flag(commander, "order_assault") then order = "assault"
    elseif game:flag(commander, "order_hold") then order = "hold" end
  end
  if order == "assault" then return is_infantry(game, u) or is_artillery(game, u) end
  if order == "hold" then return is_infantry(game, u) end
  return false
end

-- Keeps the flag `may_close` (open_table.threats_ignored_with_flags) on a brigade's units.
local function set_close_permissions(game, commander, order)
  for _, u in ipairs(brigade_units(game, commander)) do
    local want = may_close(game, u, commander, order)
    if game:flag(u, "may_close") ~= want then game:set_flag(u, "may_close", want) end
  end
end

-- Moves and placements on the table -------------------------------------------------------

-- The nearest enemy unit (not a commander), or nil.
local function nearest_enemy(game, u)
  local best, best_d
  for _, e in ipairs(enemies(game, u)) do
    local d = game:distance(u, e)
    if d and (not best_d or d < best_d) then best, best_d = e, d end
  end
  return best
end

-- The unit vector from `cause` towards `u` (straight back along u's facing if they share a
-- point), with the distance between them in table inches.
local function away_from(game, u, cause)
  local ux, uy, facing = game:position(u)
  local cx, cy = game:position(cause)
  local dx, dy = ux - cx, uy - cy
  local d = math.sqrt(dx * dx + dy * dy)
  if d < 0.001 then
    local a = math.rad(facing)
    return -math.cos(a), -math.sin(a), 0
  end
  return dx / d, dy / d, d
end

-- Puts `u` at (x, y) if it may stand there; otherwise notes why not and returns false.
local function place_if_able(game, u, x, y, facing, reason)
  local problem = game:can_stand(u, x, y)
  if problem then
    game:note(game:name(u) .. " cannot " .. reason .. ": " .. problem)
    return false
  end
  game:place_at(u, x, y, facing, reason)
  return true
end

-- One move of `u` in its present mode, in table inches.
local function one_move(game, u)
  return (game:allowance(u) or 0) * scale(game)
end

-- A retire move away from `cause` (the nearest enemy if nil), keeping the unit's facing.
-- With the amendments it ends 8.1 table inches from the cause (no move if already that
-- far); in the base reading it is one move straight away. A unit that cannot stand where
-- the retire ends stays, marked `must_retire`, for the players to settle.
local function retire(game, u, cause)
  cause = cause or nearest_enemy(game, u)
  if not cause or not game:position(u) or not game:position(cause) then
    game:set_flag(u, "must_retire")
    return
  end
  local ux, uy = game:position(u)
  local dx, dy, d = away_from(game, u, cause)
  local x, y
  if amended(game) then
    local to = game:setting("retire_tenths_table") / 10
    if d >= to then
      game:note(game:name(u) .. " is already " .. to .. " inches (table) or more from "
        .. game:name(cause) .. ": its retire move ends where it stands")
      return
    end
    local cx, cy = game:position(cause)
    x, y = cx + dx * to, cy + dy * to
  else
    local step = one_move(game, u)
    x, y = ux + dx * step, uy + dy * step
  end
  if not place_if_able(game, u, x, y, nil, "retire") then game:set_flag(u, "must_retire") end
end

-- Hits, saves and break tests -------------------------------------------------------------

local pending -- hits added during the current call, by unit name

local function hits_of(game, u) return game:counter(u, "hits") + (pending[game:name(u)] or 0) end

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
    pending[game:name(u)] = (pending[game:name(u)] or 0) + failed
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
    -- Targets in woods are not clear; a grande bande screens its front and flanks.
    inputs.target_not_clear = b2i(terrain == "woods")
    if game:mode(target) == "grande_bande" and arc(game, target, firer) == "rear" then
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

-- Woods limit what can be seen: 6 inches into and through woods, 18 through light woods.
local function check_visibility(game, firer, target)
  if not amended(game) then return end
  local d = rule_distance(game, firer, target)
  local t = game:terrain_of(target)
  if t == "woods" and d > 6 then
    error(game:name(target) .. " is in woods: visibility there is 6 inches", 0)
  elseif t == "light_woods" and d > 18 then
    error(game:name(target) .. " is in light woods: visibility there is 18 inches", 0)
  end
end

-- Shooting -----------------------------------------------------------------------------

local function shooting_dice(game, firer, target)
  local dice = game:attribute(firer, "shooting")
  if amended(game) and game:mode(firer) == "grande_bande" then
    local a = arc(game, firer, target)
    if a == "flank" then return math.min(1, dice) end
    if a == "rear" then error(game:name(firer) .. " cannot shoot into its rear", 0) end
  elseif arc(game, firer, target) ~= "front" then
    error(game:name(target) .. " is not in " .. game:name(firer) .. "'s front arc", 0)
  end
  return dice
end

function bp.shoot(game, actor, target)
  pending = {}
  check_visibility(game, actor, target)
  local dice = shooting_dice(game, actor, target)
  local hits = roll_to_hit(game, dice, firer_inputs(game, actor, target), "musketry by " .. game:name(actor))
  game:note(game:name(actor) .. " shoots " .. dice .. " dice at " .. game:name(target) .. ": " .. hits .. " hits")
  take_hits(game, target, hits, { cover = cover_of(game, target) }, false, actor)
end

local function artillery_inputs(game, battery, band)
  local gun = game:attribute(battery, "gun")
  local hit = { [band] = 1 }
  local save = { [band] = 1 }
  if amended(game) then
    hit.heavy_long = b2i(band == "long" and HEAVY_GUNS[gun] == true)
    hit.prolonged = b2i(game:flag(battery, "prolonged") and game:attribute(battery, "nation") ~= BRITAIN)
    save.light_guns = b2i(band == "effective" and LIGHT_GUNS[gun] == true)
  end
  return hit, save
end

function bp.artillery_fire(game, actor, target, band)
  pending = {}
  if band == "out_of_range" then
    error(game:name(target) .. " is out of range of " .. game:name(actor), 0)
  end
  if game:mode(actor) ~= "unlimbered" then
    error(game:name(actor) .. " must be unlimbered to fire", 0)
  end
  check_visibility(game, actor, target)
  local dice = game:setting("artillery_dice_" .. band)
  local hit, save = artillery_inputs(game, actor, band)
  for k, v in pairs(firer_inputs(game, actor, target)) do hit[k] = v end
  save.cover = cover_of(game, target)
  local hits = roll_to_hit(game, dice, hit, band .. " by " .. game:name(actor))
  game:note(game:name(actor) .. " fires " .. band .. " (" .. dice .. " dice): " .. hits .. " hits")
  take_hits(game, target, hits, save, false, actor)
end

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

-- Whether `actor` stood within the initiative range (rule inches) of `target` as the phase
-- began (where they stand now if either was off the table then).
local function started_within_initiative_range(game, actor, target)
  local ax, ay = game:phase_start(actor)
  local tx, ty = game:phase_start(target)
  if not ax then ax, ay = game:position(actor) end
  if not tx then tx, ty = game:position(target) end
  local d = math.sqrt((ax - tx) ^ 2 + (ay - ty) ^ 2) / scale(game)
  return d <= game:setting("initiative_range") + 0.0001
end

-- 003 Sudden charge: a charge from the target's flank or rear zone, from within the
-- initiative range (where the charger stood as the phase began), or during a sweeping
-- advance. Returns whether it is one and why.
local function sudden_charge(game, actor, target, sweeping)
  if arc(game, target, actor) ~= "front" then return true, "from the flank or rear" end
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
    local facing = arc(game, target, actor)
    for _, f in ipairs(game:units(game:side(actor))) do
      if f ~= actor and is_infantry(game, f) and game:flag(f, "charged") and game:flag(f, "locked")
        and rule_distance(game, f, target) <= game:setting("charge_reach")
        and arc(game, target, f) == facing
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
  if arc(game, target, actor) == "front" or game:flag(target, "disordered")
    or game:flag(target, "shaken") or game:flag(target, "locked") then
    return
  end
  local tx, ty = game:position(target)
  local ax, ay = game:position(actor)
  local facing = math.deg(math.atan(ay - ty, ax - tx)) % 360
  game:place_at(target, tx, ty, facing, "turns to face the charge")
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
    and arc(game, target, actor) == "front" and has_support(game, target) then
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
  pending = {}
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
  pending = {}
  if not game:flag(actor, "victory_move") then
    error(game:name(actor) .. " has not won a combat this turn (no sweeping advance)", 0)
  end
  check_may_charge(game, actor, target)
  game:set_flag(actor, "victory_move", false)
  game:set_flag(actor, "charged")
  local r = resolve_charge(game, actor, target, nil, true)
  game:note(game:name(actor) .. " sweeps on into " .. game:name(target) .. ": " .. r)
end

-- Hand-to-hand ---------------------------------------------------------------------------

-- Close-combat support: +1 for a flank supporter and +1 for a rear supporter. With the
-- amendments the rear (second line) must be infantry or cavalry within 3 inches behind, and
-- skirmishers support only artillery and other skirmishers.
local function support_count(game, u)
  local flank, rear = 0, 0
  local reach = game:setting("support_distance")
  for _, f in ipairs(game:units(game:side(u))) do
    if f ~= u and kind(game, f) ~= "brigadier" and not game:flag(f, "locked")
      and rule_distance(game, u, f) <= reach then
      local gives = true
      if amended(game) and is_skirmisher(game, f) then
        gives = is_skirmisher(game, u) or is_artillery(game, u)
      end
      local where = arc(game, u, f)
      if gives and where == "rear" then
        local second_line = not amended(game) or ((is_infantry(game, f) or is_cavalry(game, f))
          and rule_distance(game, u, f) <= game:setting("second_line_distance"))
        if second_line then rear = 1 end
      elseif gives then
        flank = 1
      end
    end
  end
  return flank + rear
end

local function melee_hits(game, striker, struck, charging)
  local inputs = firer_inputs(game, striker, struck)
  inputs.target_skirmishers = nil
  inputs.target_not_clear = nil
  inputs.charging = b2i(charging)
  local square = game:mode(struck) == "square"
  if amended(game) and charging then
    -- Massed attack: no +1 for charging.
    inputs.massed_column = b2i(#massed_with(game, striker, struck) > 0)
    inputs.echelon_charging = b2i(game:mode(striker) == "echelon")
    inputs.broken_momentum = b2i(is_cavalry(game, striker) and square)
    inputs.woods_cavalry = b2i(is_cavalry(game, striker) and in_woods(game, striker))
  end
  if amended(game) and is_cavalry(game, striker) and kind(game, struck) == "cavalry"
    and game:mode(struck) == "line" then
    inputs.against_cavalry_line = b2i(kind(game, striker) == "small_cavalry" or game:mode(striker) ~= "line")
  end
  local hits = roll_to_hit(game, game:attribute(striker, "hth"), inputs, "hand-to-hand by " .. game:name(striker))
  local save = {}
  if amended(game) then
    local steady = not game:flag(struck, "disordered") and not game:flag(struck, "shaken")
    -- Woods: skirmish companies and grandes bandes +1; light woods: any skirmishers +1.
    save.woods_skirmishers = b2i((in_woods(game, struck) and (kind(game, struck) == "skirmish_company"
      or game:mode(struck) == "grande_bande"))
      or (game:terrain_of(struck) == "light_woods" and is_skirmisher(game, struck)))
    save.steady_square_vs_cavalry = b2i(square and steady and is_cavalry(game, striker))
    save.line_vs_cavalry = b2i(is_cavalry(game, struck) and game:mode(struck) == "line" and steady
      and is_cavalry(game, striker))
    save.lancers = b2i(square and game:attribute(striker, "lancers") == 1)
    save.disordered_in_combat = b2i(game:flag(struck, "disordered"))
  end
  return take_hits(game, struck, hits, save, true)
end

function bp.melee(game, actor, target)
  pending = {}
  if not (game:flag(actor, "locked") and game:flag(target, "locked")) then
    error(game:name(actor) .. " and " .. game:name(target) .. " are not locked in combat", 0)
  end
  -- The side that charged this turn strikes with its charge bonuses.
  local dealt = melee_hits(game, actor, target, game:flag(actor, "charged")) + support_count(game, actor)
  local taken = melee_hits(game, target, actor, game:flag(target, "charged")) + support_count(game, target)
  game:note("combat " .. game:name(actor) .. " " .. dealt .. " : " .. taken .. " " .. game:name(target))
  if dealt == taken then
    -- Drawn combat: no break test unless shaken; with the amendments cavalry disorder.
    for _, u in ipairs({ actor, target }) do
      if amended(game) and is_cavalry(game, u) then game:set_flag(u, "disordered") end
      local other = actor
      if u == actor then other = target end
      if hits_of(game, u) >= game:attribute(u, "stamina") then break_test(game, u, 1, nil, other) end
    end
    return
  end
  local winner, loser = actor, target
  if taken > dealt then winner, loser = target, actor end
  local extra = {}
  if amended(game) then
    local attacked_from = arc(game, loser, winner)
    local formed = is_formed_infantry(game, loser) or is_cavalry(game, loser)
    local flank_zone = attacked_from == "flank" and game:mode(loser) ~= "grande_bande"
    extra.flank_or_rear = b2i(formed and kind(game, loser) ~= "skirmish_company"
      and (flank_zone or attacked_from == "rear"))
    extra.stand_off = b2i(is_cavalry(game, loser) and game:mode(winner) == "square")
  end
  local result = break_test(game, loser, 1, extra, winner)
  local massed = massed_with(game, actor, target)
  if #massed > 0 and winner == target and (result == "hold" or result == "hold_locked") then
    -- Staggered: the massed column is disordered when the enemy holds its ground.
    game:set_flag(actor, "disordered")
    for _, f in ipairs(massed) do game:set_flag(f, "disordered") end
  end
  if amended(game) and is_cavalry(game, winner) and is_infantry(game, loser)
    and game:mode(loser) ~= "square" then
    if result ~= "break" and result ~= "hold" and result ~= "hold_locked" then
      -- Rout!: infantry not in square retiring from cavalry breaks instead.
      game:remove(loser, "routs from cavalry")
      result = "break"
    elseif (result == "hold" or result == "hold_locked") and is_formed_infantry(game, loser) then
      -- Hasty square: holds, forms square, disordered.
      game:set_mode(loser, "square")
      game:set_flag(loser, "disordered")
    end
  end
  if result ~= "hold_locked" then
    game:set_flag(winner, "locked", false)
    game:set_flag(loser, "locked", false)
    game:set_flag(winner, "victory_move")
    if winner == actor then
      -- Momentum: every unit of a winning massed column may make a victory move.
      for _, f in ipairs(massed) do game:set_flag(f, "victory_move") end
    end
    if amended(game) and is_cavalry(game, winner) and game:mode(loser) == "square" then
      -- Ride around: past the square, then disordered.
      game:set_flag(winner, "disordered")
    end
  end
end

-- Checks after every open-table move (the `moved` hook); an error refuses the move.
-- `path` holds the start and end points, `facing` the facing before the move (degrees).
function bp.moved(game, u, path, facing)
  if amended(game) and kind(game, u) == "brigadier" and game:flag(u, "order_hold") then
    -- Hold: the staff stand may not move until its order is changed.
    error(game:name(u) .. "'s brigade is under a Hold order: the staff stand may not move until the order changes", 0)
  end
  if not amended(game) or #path < 2 or kind(game, u) == "brigadier" then return end
  local from, to = path[1], path[2]
  local c = brigadier_of(game, u)
  local assault = c ~= nil and game:flag(c, "order_assault")
  if assault and game:arc_at(from.x, from.y, facing, to.x, to.y) == "rear" then
    -- Assault: no unit may voluntarily move in its rear zone.
    error(game:name(u) .. "'s brigade is under an Assault order: no move into its rear zone", 0)
  end
  local _, _, now_facing = game:position(u)
  local objective = objective_of(game, c)
  if objective then
    local ox, oy = game:position(objective)
    local before = math.sqrt((from.x - ox) ^ 2 + (from.y - oy) ^ 2)
    local closer = game:distance(u, objective) < before - 0.001
    if game:flag(c, "assault_new") and not is_skirmisher(game, u)
      and game:arc_at(to.x, to.y, now_facing, ox, oy) ~= "front" then
      -- Assault, on the turn of the order: the objective stays in every unit's front arc
      -- (skirmishers, having no flank or rear zones, have it there wherever they face).
      error(game:name(u) .. "'s brigade received its Assault order this turn: it must keep its objective "
        .. game:name(objective) .. " in its front arc", 0)
    end
    if game:flag(c, "assault_command") and game:flag(u, "in_brigade_command")
      and not game:flag(c, "assault_advanced") then
      -- The brigade command must include a move toward the objective: Reading, its first
      -- move (or a charge on the objective) is that move.
      if not closer then
        error(game:name(c) .. "'s brigade command under Assault must include a move toward its objective "
          .. game:name(objective) .. ": its first move must end closer to it", 0)
      end
      game:set_flag(c, "assault_advanced")
    end
  end
  if c and game:flag(c, "order_hold") and game:flag(u, "may_close")
    and game:distance(c, u) > game:setting("command_range") + 0.001 then
    -- Hold: infantry close with the enemy only within command range of their brigadier.
    for _, e in ipairs(enemies(game, u)) do
      local ex, ey = game:position(e)
      local before = math.sqrt((from.x - ex) ^ 2 + (from.y - ey) ^ 2)
      if game:distance(u, e) < before - 0.001 and threatens(game, e, u) then
        error(game:name(u) .. "'s brigade is under a Hold order: beyond command range ("
          .. game:setting("command_range") .. " inches) of " .. game:name(c)
          .. " it may not move into threatened range of " .. game:name(e), 0)
      end
    end
  end
  if game:flag(u, "follow_through") then
    if game:arc_at(from.x, from.y, facing, to.x, to.y) ~= "front" then
      error(game:name(u) .. " follows through into its front arc only", 0)
    end
    game:set_flag(u, "follow_through", false)
  end
  if game:flag(u, "ordered") then
    -- An order is held to what it said it was for (its intent): a unit ordered first to
    -- change formation does so before it moves; a grande bande moves into a flank zone
    -- only on an order that said so (-1 staff); unlimbered guns move on prolong only on an
    -- order that said so (heavy guns Unreliable, light guns Reliable).
    for _, m in ipairs({ "line", "attack_column" }) do
      if game:flag(u, "ordered_form_" .. m) and game:mode(u) ~= m then
        error(game:name(u) .. " was ordered first to form " .. m .. ": it changes formation before it moves", 0)
      end
    end
    if game:mode(u) == "grande_bande" and not game:flag(u, "ordered_into_flank")
      and game:arc_at(from.x, from.y, facing, to.x, to.y) == "flank" then
      error(game:name(u) .. " was not ordered into a flank zone (intent into_flank)", 0)
    end
    if is_artillery(game, u) and game:mode(u) == "unlimbered" and not game:flag(u, "hand_haul")
      and not game:flag(u, "ordered_prolong") then
      error(game:name(u) .. " was not ordered to move on prolong (intent prolong)", 0)
    end
  end
  if game:flag(u, "hand_haul") and game:mode(u) == "unlimbered" then
    -- Hand haul: not into a flank zone, and the facing turns at most 45 degrees.
    if game:arc_at(from.x, from.y, facing, to.x, to.y) == "flank" then
      error(game:name(u) .. " may not hand-haul into a flank zone", 0)
    end
    local turn = math.abs(now_facing - facing) % 360
    if turn > 180 then turn = 360 - turn end
    if turn > game:setting("hand_haul_turn") + 0.05 then
      error(game:name(u) .. " may turn at most " .. game:setting("hand_haul_turn")
        .. " degrees when hand-hauled (" .. turn .. " asked)", 0)
    end
  end
  local s = scale(game)
  local skirmish = is_skirmisher(game, u)
  local shaken_broken = game:flag(u, "shaken") and game:flag(u, "brigade_broken")
  for _, e in ipairs(enemies(game, u)) do
    local ex, ey = game:position(e)
    local before = math.sqrt((from.x - ex) ^ 2 + (from.y - ey) ^ 2)
    local after = game:distance(u, e)
    if ex and after < before - 0.001 then
      -- Units must face an enemy to move toward it (Reading: a move heading toward the
      -- enemy — it lies in the front arc of the line of travel — needs that enemy in the
      -- front arc of the facing the move gives, seen from where it started; sideways moves
      -- are free; skirmishers have no flank or rear zones).
      local heading = math.deg(math.atan(to.y - from.y, to.x - from.x))
      if not skirmish and game:arc_at(from.x, from.y, heading, ex, ey) == "front"
        and game:arc_at(from.x, from.y, now_facing, ex, ey) ~= "front" then
        error(game:name(u) .. " must face " .. game:name(e) .. " before moving closer to it", 0)
      end
      -- A shaken unit of a broken brigade may not voluntarily move within 8 inches.
      if shaken_broken and after / s <= game:setting("initiative_range") then
        error(game:name(u) .. " is shaken in a broken brigade and may not move within "
          .. game:setting("initiative_range") * s .. " inches of " .. game:name(e), 0)
      end
    end
  end
end

-- Victory moves (base assumption, page 68): one move straight ahead or straight back.
local function victory_move(game, actor, sign, what)
  pending = {}
  if not game:flag(actor, "victory_move") then
    error(game:name(actor) .. " has not won a combat this turn (no victory move)", 0)
  end
  local x, y, facing = game:position(actor)
  local a, step = math.rad(facing), one_move(game, actor)
  local tx, ty = x + sign * math.cos(a) * step, y + sign * math.sin(a) * step
  local problem = game:can_stand(actor, tx, ty)
  if problem then error(game:name(actor) .. " cannot " .. what .. ": " .. problem, 0) end
  game:place_at(actor, tx, ty, nil, what)
  game:set_flag(actor, "victory_move", false)
end

function bp.victory_advance(game, actor) victory_move(game, actor, 1, "advance (victory move)") end
function bp.victory_fall_back(game, actor) victory_move(game, actor, -1, "fall back (victory move)") end

-- Orders ---------------------------------------------------------------------------------

local MOVES = { one_move = 1, two_moves = 2, three_moves = 3 }
local reroll_order
local BLUNDER_MOVES = { retire = 1, move_left = 1, move_right = 1, hold = 0, one_move_forward = 1, three_moves_forward = 3 }

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
  elseif moves == 0 and amended(game) and game:flag(commander, "order_hold") then
    moves = 1
  end
  moves = math.min(moves, moves_cap(game, u))
  if moves ~= given then game:add_counter(u, "moves", moves - given) end
  if amended(game) and is_artillery(game, u) and game:mode(u) == "unlimbered" and moves > 0 then
    -- Moving unlimbered guns is a prolong: fire after one move is at -1 (not British).
    game:set_flag(u, "prolonged")
  end
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

-- Checks the order's intent against the unit it reaches (an error refuses the order).
local function check_intent(game, u, intent)
  for _, i in ipairs(intent) do
    if not intent_fits(game, i, u) then
      error(game:name(u) .. " cannot be ordered to " .. INTENT_WORDS[i], 0)
    end
  end
end

-- Marks what the order was for on `u`, only when the order succeeded (`passed`): a failed
-- order did not happen. 003 Moving Artillery: limbered guns still get their free move on a
-- failed order, and may unlimber at its end if that is what was ordered.
local function mark_intent(game, u, intent, outcome, moves)
  local passed = MOVES[outcome] ~= nil
  local free_move = outcome ~= "blunder" and moves > 0
  for _, i in ipairs(intent) do
    if INTENT_FITS[i] and INTENT_FITS[i](game, u)
      and (passed or (i == "unlimber" and free_move)) then
      game:set_flag(u, "ordered_" .. i)
    end
  end
end

local function check_own_brigade(game, commander, u)
  if game:attribute(u, "brigade") ~= game:attribute(commander, "brigade") or kind(game, u) == "brigadier" then
    error(game:name(u) .. " is not in " .. game:name(commander) .. "'s brigade", 0)
  end
  if game:side(commander) ~= game:phasing() then
    error("orders are given in your own command phase", 0)
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

function bp.order(game, actor, target, outcome)
  pending = {}
  check_own_brigade(game, actor, target)
  if game:flag(actor, "command_failed") then
    error(game:name(actor) .. " has failed an order this phase and gives no more", 0)
  end
  local intent = {}
  if amended(game) then intent = game:intent() end
  check_intent(game, target, intent)
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
  return math.floor(far / 12)
end

function bp.brigade_order(game, actor, target)
  pending = {}
  check_own_brigade(game, actor, target)
  local units = {}
  local all = brigade_units(game, actor)
  for _, u in ipairs(all) do
    if not game:flag(u, "disordered") then units[#units + 1] = u end
  end
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
    local fits = {}
    for _, i in ipairs(intent) do
      for _, u in ipairs(units) do
        if intent_fits(game, i, u) then fits[i] = true end
      end
      if not fits[i] then
        error("no unit of the brigade command can " .. (INTENT_WORDS[i] or i), 0)
      end
    end
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
    if game:flag(actor, "order_hold") then
      error("a brigade under a Hold order gets no brigade commands", 0)
    end
    if #units * 2 <= #all then
      error("a brigade command must include more than half of the brigade's units", 0)
    end
    if not woods_columns_only(game, units) then
      error("in woods, orders go to one unit at a time (only columns within 6 inches may share one)", 0)
    end
    local bonus_order = game:flag(actor, "order_assault") or game:flag(actor, "order_maneuver")
      or game:flag(actor, "order_withdrawal") or game:flag(actor, "order_rest")
    inputs.brigade_bonus = b2i(bonus_order and all_unengaged(game, units))
  end
  local result = game:resolve("command", inputs, "brigade command by " .. game:name(actor))
  game:note(game:name(actor) .. " brigade command: " .. result .. " for " .. #units .. " units")
  -- 003 Brigade Orders, Assault: a command that gives moves must close on the objective.
  local objective = amended(game) and MOVES[result] and objective_of(game, actor)
  for _, u in ipairs(units) do
    local moves = settle(game, actor, u, result, 0)
    game:set_flag(u, "ordered")
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
function bp.assault(game, actor, target)
  pending = {}
  set_counter(game, actor, "objective", target:id() + 1)
  game:set_flag(actor, "assault_new")
  set_close_permissions(game, actor, "assault")
  local tx, ty = game:position(target)
  for _, u in ipairs(brigade_units(game, actor)) do
    if not game:flag(u, "locked") and arc(game, u, target) ~= "front" then
      local x, y = game:position(u)
      local facing = math.deg(math.atan(ty - y, tx - x)) % 360
      game:place_at(u, x, y, facing, "turns to face the Assault objective")
    end
  end
  game:note(game:name(actor) .. "'s brigade assaults " .. game:name(target))
end

-- Every other brigade order: the close-range permissions follow the new order.
function bp.brigade_order_given(game, actor)
  pending = {}
  set_close_permissions(game, actor)
end

function bp.brigade_rally(game, actor, target)
  pending = {}
  check_own_brigade(game, actor, target)
  if not game:flag(actor, "order_rest") then
    error(game:name(actor) .. "'s brigade is not resting (Reserve, Rest sub-order)", 0)
  end
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
  game:note(game:name(actor) .. " brigade rally: " .. result)
end

function bp.support_charge(game, actor, target)
  pending = {}
  if game:side(actor) == game:phasing() then
    error("a support charge is made in the opponent's command phase", 0)
  end
  if not game:flag(target, "ordered") then
    -- The target must not be moving by initiative: it is advancing on an order.
    error(game:name(target) .. " is not moving on an order (no support charge against initiative moves)", 0)
  end
  local commander = brigadier_of(game, actor)
  -- -2 when the target did not start the phase in the cavalry's front arc: both as they
  -- stood when this command phase began (the action itself needs the target in the front
  -- arc now).
  local cx, cy, cf = game:phase_start(actor)
  local tx, ty = game:phase_start(target)
  if not cx then cx, cy, cf = game:position(actor) end
  if not tx then tx, ty = game:position(target) end
  local inputs = {
    staff = commander and game:attribute(commander, "staff") or 0,
    command_distance = commander and math.floor(game:distance(commander, actor) / 12) or 6,
    not_front_arc = b2i(game:arc_at(cx, cy, cf, tx, ty) ~= "front"),
    opportunist = game:attribute(actor, "opportunist"),
  }
  local r = game:resolve("support_charge", inputs, "support charge by " .. game:name(actor))
  if r == "charge" then
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
function bp.hand_haul(game, actor)
  pending = {}
  if game:mode(actor) ~= "unlimbered" then
    error(game:name(actor) .. " is not unlimbered: only deployed guns are hand-hauled", 0)
  end
  if game:counter(actor, "moves") < 1 then
    error(game:name(actor) .. " has no move to hand-haul with", 0)
  end
  if game:flag(actor, "ordered") and not game:flag(actor, "ordered_hand_haul") then
    -- Heavy guns are Unreliable when hand-hauled: the order must say it is a hand haul.
    error(game:name(actor) .. " was not ordered to hand-haul (intent hand_haul)", 0)
  end
  game:set_flag(actor, "hand_haul")
  game:set_flag(actor, "prolonged", false)
  set_counter(game, actor, "moves", 1)
end

-- Woods: the opponent of a unit that failed its order in woods moves it up to 6 inches;
-- here a full 6 (scaled) straight toward or away from one of the opponent's own units.
local function woods_drift(game, actor, target, sign)
  pending = {}
  if not game:flag(target, "woods_drift") then
    error(game:name(target) .. " has not failed an order in woods this turn", 0)
  end
  if game:side(actor) == game:phasing() then
    error("the opponent moves a unit that failed its order in woods", 0)
  end
  local x, y = game:position(target)
  local dx, dy = away_from(game, target, actor)
  local step = game:setting("woods_drift") * scale(game)
  local tx, ty = x - sign * dx * step, y - sign * dy * step
  local problem = game:can_stand(target, tx, ty)
  if problem then error(game:name(target) .. " cannot drift: " .. problem, 0) end
  game:place_at(target, tx, ty, nil, "drifts in the woods")
  game:set_flag(target, "woods_drift", false)
end

function bp.woods_drift_toward(game, actor, target) woods_drift(game, actor, target, 1) end
function bp.woods_drift_away(game, actor, target) woods_drift(game, actor, target, -1) end

function bp.passage_of_lines(game, actor, target)
  pending = {}
  -- No charge during the passage: a later charge needs another move (check_may_charge).
  game:set_flag(actor, "passed_lines")
  if game:mode(actor) == "square" then
    error("a unit in square may not pass through any unit", 0)
  end
  if game:mode(target) == "square" and kind(game, actor) ~= "skirmish_company" then
    error("only skirmish companies may pass through a square", 0)
  end
  if is_skirmisher(game, target) or (is_artillery(game, target) and game:mode(target) == "unlimbered")
    or game:mode(target) == "square" then
    game:note(game:name(actor) .. " passes through " .. game:name(target) .. " freely")
    return
  end
  local c = brigadier_of(game, actor)
  local brigade = b2i(c ~= nil and game:flag(actor, "ordered") and game:attribute(actor, "brigade")
    == game:attribute(target, "brigade"))
  for _, u in ipairs({ actor, target }) do
    local r = game:resolve("passage_of_lines", { brigade_command = brigade }, "passage of lines: " .. game:name(u))
    if r == "disordered" then game:set_flag(u, "disordered") end
  end
end

function bp.light_infantry_reform(game, actor)
  pending = {}
  if game:mode(actor) ~= "grande_bande" then
    error(game:name(actor) .. " is not in grande bande", 0)
  end
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
    pending[game:name(actor)] = hits
    if hits_of(game, actor) > game:attribute(actor, "stamina") then break_test(game, actor, 0) end
  end
  game:note(game:name(actor) .. " reforms into line with " .. hits .. " hits")
end

-- The start of each phase -----------------------------------------------------------------

local function counts_for_morale(game, u, units)
  if not (is_artillery(game, u) or (kind(game, u) == "skirmish_company")) then return true end
  local special = 0
  for _, o in ipairs(units) do
    if is_artillery(game, o) or kind(game, o) == "skirmish_company" then special = special + 1 end
  end
  return special * 2 >= #units
end

-- Returns "good", "shaken" or "broken".
local function brigade_state(game, commander)
  local units = brigade_units(game, commander)
  local size = math.max(game:attribute(commander, "brigade_size"), #units)
  local routed = size - #units
  local counted, shaken = routed, 0
  for _, u in ipairs(units) do
    if counts_for_morale(game, u, units) then
      counted = counted + 1
      if game:flag(u, "shaken") then shaken = shaken + 1 end
    end
  end
  if counted == 0 then return "good" end
  if game:option("brigade_morale_second_version") then
    if routed * 2 > counted then return "broken" end
    if (routed + shaken) * 2 > counted then return "shaken" end
    return "good"
  end
  -- First version: more than half shaken or routed; with no unit routed, all shaken.
  if (routed + shaken) * 2 > counted and (routed > 0 or shaken == counted) then return "broken" end
  return "good"
end

local function morale(game, side)
  local brigades, broken = 0, 0
  for _, c in ipairs(game:units(side)) do
    if kind(game, c) == "brigadier" then
      brigades = brigades + 1
      local state = brigade_state(game, c)
      if game:flag(c, "army_broken") then state = "broken" end
      if state == "broken" then broken = broken + 1 end
      for _, u in ipairs(brigade_units(game, c)) do
        game:set_flag(u, "brigade_shaken", state ~= "good")
        game:set_flag(u, "brigade_broken", state == "broken")
      end
      if state ~= "good" then game:note("brigade " .. game:name(c) .. " is " .. state) end
    end
  end
  if brigades > 0 and broken * 2 >= brigades then
    game:note("the " .. side .. " army is broken")
    for _, u in ipairs(game:units(side)) do
      game:set_flag(u, "army_broken")
      game:set_flag(u, "brigade_broken")
      game:set_flag(u, "brigade_shaken")
    end
  end
end

local function near_enemy(game, u, rule_inches)
  for _, e in ipairs(enemies(game, u)) do
    if rule_distance(game, u, e) <= rule_inches then return true end
  end
  return false
end

local function threatened(game, u)
  for _, e in ipairs(enemies(game, u)) do
    if threatens(game, e, u) then return true end
  end
  return false
end

function bp.phase_begin(game, phase)
  pending = {}
  local side = game:phasing()
  -- Moves are granted afresh in every phase: work out each unit's, then set them once
  -- (reads do not see the changes a hook has asked for).
  local moves = {}
  local function grant(u, n) moves[game:name(u)] = n end
  local first = (amended(game) and phase == "initiative") or (not amended(game) and phase == "command")
  if first then
    -- A charge's bonuses last for the side-turn it was made in.
    for _, u in ipairs(game:units()) do
      if game:flag(u, "charged") then game:set_flag(u, "charged", false) end
    end
    if amended(game) then
      morale(game, side)
      for _, u in ipairs(game:units(side)) do
        if kind(game, u) ~= "brigadier" then
          game:set_flag(u, "engaged", is_engaged(game, u))
          game:set_flag(u, "threatened", threatened(game, u))
        end
      end
    end
    -- Initiative moves: units near the enemy may move once without orders (disordered
    -- units too, to retire); shaken units of a shaken brigade must retire.
    for _, u in ipairs(game:units(side)) do
      if kind(game, u) ~= "brigadier" and not game:flag(u, "locked")
        and near_enemy(game, u, game:setting("initiative_range")) then
        grant(u, 1)
        if game:flag(u, "shaken") and game:flag(u, "brigade_shaken") then
          game:set_flag(u, "must_retire")
        end
      end
    end
  end
  if amended(game) then
    -- 003 Brigade Orders: the close-range permissions follow each brigade's order.
    for _, c in ipairs(game:units()) do
      if kind(game, c) == "brigadier" then set_close_permissions(game, c) end
    end
  end
  if phase == "command" and amended(game) then
    -- Maneuver: a brigade that came into engagement range halts; if the order is not
    -- changed by the next command phase it becomes Hold.
    for _, c in ipairs(game:units(side)) do
      if kind(game, c) == "brigadier" and game:flag(c, "order_maneuver") then
        if game:flag(c, "maneuver_halted") then
          game:set_flag(c, "order_maneuver", false)
          game:set_flag(c, "order_withdrawal", false)
          game:set_flag(c, "order_hold")
          game:set_flag(c, "maneuver_halted", false)
          set_close_permissions(game, c, "hold")
          game:note(game:name(c) .. "'s Maneuver order becomes Hold")
        elseif not all_unengaged(game, brigade_units(game, c)) then
          game:set_flag(c, "maneuver_halted")
          game:note(game:name(c) .. "'s brigade is in engagement range and halts")
        end
      end
    end
  end
  if phase == "command" then
    for _, u in ipairs(game:units(side)) do
      if kind(game, u) == "brigadier" then
        grant(u, 1)
      elseif amended(game) and game:flag(u, "brigade_shaken")
        and (game:flag(u, "shaken") or game:flag(u, "disordered")) then
        -- A shaken brigade's shaken or disordered units may retire without an order.
        grant(u, 1)
      end
    end
  end
  for _, u in ipairs(game:units()) do
    local want = moves[game:name(u)] or 0
    if game:counter(u, "moves") ~= want then set_counter(game, u, "moves", want) end
  end
end

-- After every `mode` order (the `mode_changed` hook); an error refuses the change.
-- 003 Moving Artillery: unlimbering is free at the end of a move, but the order must say so
-- (horse batteries are Unreliable on it): in the command phase a battery unlimbers only on
-- an order given for `unlimber` (flag `ordered_unlimber`; a failed order still gives limbered
-- guns their free move, and the unlimber with it). Reading: an initiative move is not an
-- order, so a battery within the initiative range may unlimber in the initiative phase.
function bp.mode_changed(game, u, before)
  if not amended(game) then return end
  if is_artillery(game, u) and before == "limbered" and game:mode(u) == "unlimbered" then
    if game:phase() == "initiative" then
      if not near_enemy(game, u, game:setting("initiative_range")) then
        error(game:name(u) .. " has no initiative move to unlimber with (no enemy within the initiative range)", 0)
      end
    elseif not game:flag(u, "ordered_unlimber") then
      error(game:name(u) .. " was not ordered to unlimber (intent unlimber)", 0)
    end
  end
end

return bp
