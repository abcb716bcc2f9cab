-- Black Powder, judged for the `search` policy: the `evaluate` hook. A game of Black Powder
-- is lost when half an army's brigades are broken (brigade and army morale, phases.lua),
-- and a brigade breaks when enough of its units are shaken or gone; the search's own score
-- (victory points and hits) sees a broken army only once the next phase begins and the
-- game ends. This hook reads from the side's view how near each army is to breaking and
-- scores the position by the difference, mixed with the search's own score.
--
-- It sees what the view shows: its own units in full; enemy units as last identified
-- (an enemy unit not in sight counts as it was last seen; one removed counts as gone).

local is_artillery_kind = scripts.bp_core.is_artillery_kind
local morale_count = scripts.bp_phases.morale_count

local judge = {}

-- How much the morale reading weighs against the search's own score.
local MORALE_WEIGHT = 0.6
-- How far toward shaken a unit with hits short of its stamina counts (1: as shaken).
local WORN_WEIGHT = 0.5

local function is_off(place)
  return type(place) ~= "table"
end

local function has(list, name)
  for _, f in ipairs(list or {}) do
    if f == name then return true end
  end
  return false
end

-- One unit as the judge needs it, from a piece's names and whether it has left the table.
local function unit(names, gone)
  return {
    kind = names.kind,
    special = is_artillery_kind(names.kind) or names.kind == "skirmish_company",
    brigade = names.attributes.brigade or 0,
    size = names.attributes.brigade_size or 0,
    shaken = has(names.flags, "shaken"),
    broken = has(names.flags, "army_broken"),
    hits = names.counters.hits or 0,
    stamina = names.attributes.stamina or 0,
    gone = gone,
  }
end

-- The side's own units, each marked gone when it has left the table.
local function own_units(view)
  local out = {}
  for i, piece in ipairs(view.own) do
    local names = view.own_names[i]
    if names then out[#out + 1] = unit(names, is_off(piece.place)) end
  end
  return out
end

-- The enemy units the side has identified (never a known dummy), each as last identified
-- and marked gone when its identity was last seen off the table and it is not in sight.
local function enemy_units(view)
  local out = {}
  for _, e in ipairs(view.enemy) do
    if e.names and e.real ~= false then
      local where = e.place or (e.identity and e.identity.place)
      out[#out + 1] = unit(e.names, e.place == nil and is_off(where))
    end
  end
  return out
end

-- How near a brigade is to breaking, 0 (fresh) to 1 (broken): the first version of brigade
-- morale counts routed and shaken units against the units that count for morale
-- (`morale_count`, phases.lua, as the game counts them); here a unit with hits short of
-- its stamina counts part of the way.
local function brigade_danger(size, members)
  local present = {}
  for _, u in ipairs(members) do
    if not u.gone then present[#present + 1] = u end
  end
  local routed, counting = morale_count(size, present)
  local counted, pressure = routed + #counting, routed
  for _, u in ipairs(counting) do
    if u.shaken then
      pressure = pressure + 1
    elseif u.stamina > 0 then
      pressure = pressure + WORN_WEIGHT * math.min(1, u.hits / u.stamina)
    end
  end
  if counted == 0 then return 0 end
  return math.min(1, pressure / counted)
end

-- How near an army is to breaking, 0..1: the danger of the brigade whose breaking would
-- break it (half the brigades broken breaks an army), plus a little of the others'.
local function army_danger(units)
  local sizes, members = {}, {}
  for _, u in ipairs(units) do
    if u.broken and not u.gone then return 1 end
    if u.kind == "brigadier" then
      sizes[u.brigade] = u.size
    else
      members[u.brigade] = members[u.brigade] or {}
      table.insert(members[u.brigade], u)
    end
  end
  local dangers = {}
  for brigade, size in pairs(sizes) do
    dangers[#dangers + 1] = brigade_danger(size, members[brigade] or {})
  end
  if #dangers == 0 then return 0 end
  table.sort(dangers, function(a, b) return a > b end)
  local needed = math.ceil(#dangers / 2)
  local sum = 0
  for _, d in ipairs(dangers) do sum = sum + d end
  return 0.8 * dangers[needed] + 0.2 * sum / #dangers
end

-- The hook: the side's view and the search's own score; the mixed score, -1..1.
function judge.evaluate(view, score)
  local morale = army_danger(enemy_units(view)) - army_danger(own_units(view))
  local mixed = (1 - MORALE_WEIGHT) * score + MORALE_WEIGHT * morale
  return math.max(-1, math.min(1, mixed))
end

return { hooks = judge }
