-- Black Powder at the start of each phase: brigade and army morale, units near or
-- threatened by the enemy, and mode changes (unlimbering on an order).

local amended = scripts.bp_core.amended
local brigade_units = scripts.bp_core.brigade_units
local enemies = scripts.bp_core.enemies
local is_artillery = scripts.bp_core.is_artillery
local initiative_range = scripts.bp_core.initiative_range
local is_engaged = scripts.bp_core.is_engaged
local kind = scripts.bp_core.kind
local LIGHT_GUNS = scripts.bp_core.LIGHT_GUNS
local rule_distance = scripts.bp_core.rule_distance
local set_close_permissions = scripts.bp_core.set_close_permissions
local nearest_enemy = scripts.bp_core.nearest_enemy
local retire = scripts.bp_core.retire
local set_counter = scripts.bp_core.set_counter
local threatens = scripts.bp_core.threatens
local call = scripts.bp_hits.call
local all_unengaged = scripts.bp_orders.all_unengaged
local opponent_phase_problem = scripts.bp_orders.opponent_phase_problem

local bp = {}

-- The start of each phase -----------------------------------------------------------------

-- Who counts for a brigade's morale, on plain records so that the search's judge
-- (judge.lua, which sees a view, not the game) counts as the game does: of a brigade whose
-- brigadier gives `size` and whose units on the table are `units` (each with `special`
-- true for a battery or skirmish company), the units routed (`size` less those on the
-- table; none when no size is given) and the units that count — batteries and skirmish
-- companies only when they are half the units or more.
local function morale_count(size, units)
  local special = 0
  for _, u in ipairs(units) do
    if u.special then special = special + 1 end
  end
  local counting = {}
  for _, u in ipairs(units) do
    if not u.special or special * 2 >= #units then counting[#counting + 1] = u end
  end
  return math.max(size, #units) - #units, counting
end

-- Returns "good", "shaken" or "broken".
local function brigade_state(game, commander)
  local units = {}
  for _, u in ipairs(brigade_units(game, commander)) do
    units[#units + 1] = {
      special = is_artillery(game, u) or kind(game, u) == "skirmish_company",
      shaken = game:flag(u, "shaken"),
    }
  end
  local routed, counting = morale_count(game:attribute(commander, "brigade_size"), units)
  local counted, shaken = routed + #counting, 0
  for _, u in ipairs(counting) do
    if u.shaken then shaken = shaken + 1 end
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

-- 003 Battery Type (l.516): light batteries are those with 3 lb or 4 lb guns, and they
-- prolong and hand-haul 12 inches. The 12 inches come from the piece type light_battery,
-- the light guns' save from the gun code: a battery whose two disagree is refused as the
-- game starts, so the two are one source. 003 lists the guns by nation (l.484-510) and
-- exempts British batteries from the prolong -1 by nation (l.552-553): a gun code of
-- another nation than the battery's is refused too. Each refusal begins `piece NAME:`, so
-- `validate` places it at the piece's line.
local GUN_NATION = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5 }
local NATION_NAMES = { "Austria", "Britain", "France", "Prussia", "Russia" }
local function battery_problem(game, u)
  local gun = game:attribute(u, "gun")
  if gun == 0 then return nil end
  local name = "piece " .. game:name(u) .. ": "
  if (LIGHT_GUNS[gun] == true) ~= (kind(game, u) == "light_battery") then
    if LIGHT_GUNS[gun] then
      return name .. "a " .. kind(game, u) .. " with gun " .. gun .. ", a light gun (3 lb or 4 lb):"
        .. " light guns prolong and hand-haul 12 inches (003 l.516), so it must be a light_battery"
        .. " (or given a gun that is not light)"
    end
    return name .. "a light_battery with gun " .. gun .. ", which is not a light gun"
      .. " (light: 1, 4, 7, 11 — 3 lb or 4 lb): give it a light gun, or another battery type"
  end
  local nation, own = game:attribute(u, "nation"), GUN_NATION[gun]
  if own and nation ~= own then
    return name .. "gun " .. gun .. " is a gun of " .. NATION_NAMES[own] .. " (nation " .. own .. "), but the battery's"
      .. " nation is " .. (NATION_NAMES[nation] or "not given") .. " (" .. nation .. "): give it a gun of its nation,"
      .. " or nation " .. own .. " (the British exemption from the prolong -1 follows the nation, 003 l.552-553)"
  end
end
local function check_batteries(game)
  for _, u in ipairs(game:units()) do
    if is_artillery(game, u) then
      local problem = battery_problem(game, u)
      if problem then game:refuse(problem) end
    end
  end
end

function bp.phase_begin(game, phase)
  call.pending = {}
  if amended(game) and game:turn() == 1 then check_batteries(game) end
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
    -- units too, to retire). (A shaken brigade's shaken units retire in the command phase.)
    for _, u in ipairs(game:units(side)) do
      if kind(game, u) ~= "brigadier" and not game:flag(u, "locked")
        and near_enemy(game, u, initiative_range(game)) then
        grant(u, 1)
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
      elseif amended(game) and game:flag(u, "brigade_shaken") and not game:flag(u, "locked")
        and (game:flag(u, "shaken") or game:flag(u, "disordered")) then
        -- 003 l.755-758: a shaken brigade's shaken units within the initiative range of an
        -- enemy must retire one move, without an order: the script retires them at once,
        -- away from the nearest enemy (8.1 table inches), and that is their command move
        -- (flag `shaken_retired`: no order this phase). Its other shaken or disordered units
        -- may make one retire move without an order (flag `retire_only`: the `moved` hook
        -- holds it to a move back into the rear arc, keeping the facing).
        local e = nearest_enemy(game, u)
        if game:flag(u, "shaken") and e and rule_distance(game, u, e) <= initiative_range(game) + 0.0001 then
          game:note(game:name(u) .. " is shaken in a shaken brigade within the initiative range of "
            .. game:name(e) .. ": it must retire")
          retire(game, u, e)
          game:set_flag(u, "shaken_retired")
        else
          grant(u, 1)
          game:set_flag(u, "retire_only")
        end
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
-- No unit changes formation in the opponent's command phase (003 l.686-690).
function bp.mode_changed(game, u, before)
  if not amended(game) then return end
  local problem = opponent_phase_problem(game, u, "change formation")
  if problem then game:refuse(problem) end
  if is_artillery(game, u) and before == "limbered" and game:mode(u) == "unlimbered" then
    if game:phase() == "initiative" then
      if not near_enemy(game, u, initiative_range(game)) then
        game:refuse(game:name(u) .. " has no initiative move to unlimber with (no enemy within the initiative range)")
      end
    elseif not game:flag(u, "ordered_unlimber") then
      game:refuse(game:name(u) .. " was not ordered to unlimber (intent unlimber)")
    end
  end
end

return {
  hooks = bp,
  brigade_state = brigade_state,
  morale_count = morale_count,
  morale = morale,
  near_enemy = near_enemy,
  threatened = threatened,
}
