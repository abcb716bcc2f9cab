-- Black Powder, shared helpers: unit kinds and formations, scale and rule distances,
-- brigades and their commanders, enemies, engagement and threats, the brigade orders'
-- permissions to close, and moves and placements on the table (retiring, nearest enemy).

local bp = {}

local ARTILLERY = { foot_battery = true, light_battery = true, heavy_battery = true, horse_battery = true }
local CAVALRY = { cavalry = true, small_cavalry = true }
local INFANTRY = { line_infantry = true, light_infantry = true, skirmish_company = true }
local SKIRMISH_MODES = { skirmish = true, mixed_formation = true, mixed_column = true, grande_bande = true }
-- 003 Mixed Formation: in line or in attack column, one formation type for every rule.
local MIXED_MODES = { mixed_formation = true, mixed_column = true }
local FORMED_MODES = { line = true, attack_column = true, march_column = true }
local HEAVY_GUNS = { [3] = true, [6] = true, [10] = true, [13] = true, [15] = true }
local LIGHT_GUNS = { [1] = true, [4] = true, [7] = true, [11] = true }
local BRITAIN = 2

local function amended(game) return game:setting("club_amendments") == 1 end
local function scale(game) return game:setting("measure_percent") / 100 end
-- Distance in rule inches (the table distance divided by the measuring scale).
local function rule_distance(game, a, b) return game:distance(a, b) / scale(game) end
-- The initiative range in rule inches. The club gives it in table inches (003 l.755: 8",
-- the base game's 12" at its 66% scale; setting `initiative_range_table`), the base game
-- in rule inches (`initiative_range`).
local function initiative_range(game)
  local table_inches = game:setting("initiative_range_table")
  if table_inches > 0 then return table_inches / scale(game) end
  return game:setting("initiative_range")
end
local function kind(game, u) return game:kind(u) end
local function is_artillery_kind(k) return ARTILLERY[k] == true end
local function is_artillery(game, u) return is_artillery_kind(kind(game, u)) end
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

-- 003 Prolong (l.550-554): any fire of a battery that moved on prolong this turn is at -1
-- (the chart input `prolonged`), British batteries excepted; a battery that moved on
-- prolong more than once this turn (flag `prolonged_twice`) does not fire at all.
local function prolong_penalty(game, battery)
  return b2i(game:flag(battery, "prolonged") and game:attribute(battery, "nation") ~= BRITAIN)
end
local function arc(game, a, b) return game:arc(a, b) or "front" end

-- Which face of `target` the unit `u` attacks. Bases in contact (a charge puts the charger
-- square against the edge it came at): the facings say which — facing the target's own
-- facing reversed, its front; the same way, its rear; across it, a flank. Judged from the
-- edges, a charger's bases overhanging a flank would reach the front region too. Units not
-- touching: the arcs.
local function contact_arc(game, target, u)
  if game:distance(u, target) == 0 then
    local _, _, tf = game:position(target)
    local _, _, uf = game:position(u)
    if tf and uf then
      local d = (uf - tf) % 360
      if d > 135 and d < 225 then return "front" end
      if d < 45 or d > 315 then return "rear" end
      return "flank"
    end
  end
  return arc(game, target, u)
end

-- Distance from (px, py) to the segment a-b (points with x, y), in table inches.
local function to_segment(px, py, a, b)
  local dx, dy = b.x - a.x, b.y - a.y
  local len2 = dx * dx + dy * dy
  local t = 0
  if len2 > 0 then t = math.max(0, math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / len2)) end
  local x, y = a.x + t * dx - px, a.y + t * dy - py
  return math.sqrt(x * x + y * y)
end

-- The edge of `u` ("front", "flank" or "rear") that the centre of `by`'s front edge
-- touches — the face `by` attacks with its front — or nil when its front touches none.
local function face_attacked(game, u, by)
  local fu, fb = game:footprint(u), game:footprint(by)
  if not fu or not fb then return nil end
  local c, k = fb.corners, fu.corners
  local px, py = (c[1].x + c[2].x) / 2, (c[1].y + c[2].y) / 2
  local best, face = 0.01, nil
  for _, e in ipairs({ { k[1], k[2], "front" }, { k[2], k[3], "flank" }, { k[3], k[4], "rear" }, { k[4], k[1], "flank" } }) do
    local d = to_segment(px, py, e[1], e[2])
    if d < best then best, face = d, e[3] end
  end
  return face
end

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
    local gap = game:distance(u, cause)
    if gap >= to then
      game:note(game:name(u) .. " is already " .. to .. " inches (table) or more from "
        .. game:name(cause) .. ": its retire move ends where it stands")
      return
    end
    -- Straight away from the cause (along the line between their centres), keeping its
    -- facing, until its bases are that far from the cause's, edge to edge. The gap grows
    -- by at most the distance stepped, so each step closes on it from below.
    local _, _, facing = game:position(u)
    local s = to - gap
    for _ = 1, 40 do
      x, y = ux + dx * s, uy + dy * s
      local now = game:distance_from(u, x, y, facing, cause)
      if now >= to then break end
      s = s + math.max(to - now, 0.001)
    end
  else
    local step = one_move(game, u)
    x, y = ux + dx * step, uy + dy * step
  end
  if not place_if_able(game, u, x, y, nil, "retire") then game:set_flag(u, "must_retire") end
end

return {
  hooks = bp,
  ARTILLERY = ARTILLERY,
  BRITAIN = BRITAIN,
  CAVALRY = CAVALRY,
  FORMED_MODES = FORMED_MODES,
  HEAVY_GUNS = HEAVY_GUNS,
  INFANTRY = INFANTRY,
  LIGHT_GUNS = LIGHT_GUNS,
  MIXED_MODES = MIXED_MODES,
  SKIRMISH_MODES = SKIRMISH_MODES,
  amended = amended,
  arc = arc,
  contact_arc = contact_arc,
  away_from = away_from,
  b2i = b2i,
  brigade_units = brigade_units,
  brigadier_of = brigadier_of,
  enemies = enemies,
  face_attacked = face_attacked,
  to_segment = to_segment,
  in_woods = in_woods,
  initiative_range = initiative_range,
  is_artillery = is_artillery,
  is_artillery_kind = is_artillery_kind,
  is_cavalry = is_cavalry,
  is_engaged = is_engaged,
  is_formed_infantry = is_formed_infantry,
  is_infantry = is_infantry,
  is_skirmisher = is_skirmisher,
  kind = kind,
  may_close = may_close,
  nearest_enemy = nearest_enemy,
  objective_of = objective_of,
  one_move = one_move,
  place_if_able = place_if_able,
  prolong_penalty = prolong_penalty,
  retire = retire,
  rule_distance = rule_distance,
  scale = scale,
  set_close_permissions = set_close_permissions,
  set_counter = set_counter,
  threatens = threatens,
}
