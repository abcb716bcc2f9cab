-- Black Powder hand-to-hand: supports, hits struck, the melee and its result, moves
-- checked against the orders in force, and victory moves.

local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local b2i = scripts.bp_core.b2i
local brigadier_of = scripts.bp_core.brigadier_of
local enemies = scripts.bp_core.enemies
local face_attacked = scripts.bp_core.face_attacked
local in_woods = scripts.bp_core.in_woods
local initiative_range = scripts.bp_core.initiative_range
local is_artillery = scripts.bp_core.is_artillery
local is_cavalry = scripts.bp_core.is_cavalry
local is_formed_infantry = scripts.bp_core.is_formed_infantry
local is_infantry = scripts.bp_core.is_infantry
local is_skirmisher = scripts.bp_core.is_skirmisher
local kind = scripts.bp_core.kind
local objective_of = scripts.bp_core.objective_of
local one_move = scripts.bp_core.one_move
local rule_distance = scripts.bp_core.rule_distance
local scale = scripts.bp_core.scale
local threatens = scripts.bp_core.threatens
local break_test = scripts.bp_hits.break_test
local call = scripts.bp_hits.call
local firer_inputs = scripts.bp_hits.firer_inputs
local hits_of = scripts.bp_hits.hits_of
local roll_to_hit = scripts.bp_hits.roll_to_hit
local take_hits = scripts.bp_hits.take_hits
local massed_with = scripts.bp_charges.massed_with

local bp = {}

-- Hand-to-hand ---------------------------------------------------------------------------

-- Close-combat support: +1 for a flank supporter and +1 for a rear supporter. With the
-- amendments the rear (second line) must be infantry or cavalry within 3 inches behind, and
-- skirmishers support only artillery and other skirmishers.
-- 003 l.1067-1069: a second line has its centre point directly to the rear of the unit it
-- supports — behind it, and within its width (between the lines of its flank edges).
local function centred_behind(game, u, f)
  local ux, uy, facing = game:position(u)
  local fx, fy = game:position(f)
  local fp = game:footprint(u)
  if not (ux and fx and fp) then return false end
  local a = math.rad(facing)
  local dx, dy = fx - ux, fy - uy
  local ahead = dx * math.cos(a) + dy * math.sin(a)
  local across = math.abs(-dx * math.sin(a) + dy * math.cos(a))
  return ahead < 0 and across <= fp.width / 2 + 0.001
end

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
          and rule_distance(game, u, f) <= game:setting("second_line_distance")
          and centred_behind(game, u, f))
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
    -- The rules that take away the +1 for charging (a massed column, l.343; cavalry in
    -- echelon, l.628; broken momentum against a square, l.387; cavalry in a combat in
    -- woods, l.68) each take the same +1: it is lost once, under the first that applies,
    -- however many do. Reading (l.64-68): a combat is in woods when the cavalry or the
    -- unit it fights stands in woods (its centre), so cavalry charging from the open into
    -- woods lose their charge benefits too.
    local cavalry = is_cavalry(game, striker)
    for _, why in ipairs({
      { "broken_momentum", cavalry and square },
      { "woods_cavalry", cavalry and (in_woods(game, striker) or in_woods(game, struck)) },
      { "echelon_charging", game:mode(striker) == "echelon" },
      { "massed_column", #massed_with(game, striker, struck) > 0 },
    }) do
      if why[2] then
        inputs[why[1]] = 1
        break
      end
    end
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
  call.pending = {}
  if not (game:flag(actor, "locked") and game:flag(target, "locked")) then
    game:refuse(game:name(actor) .. " and " .. game:name(target) .. " are not locked in combat")
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
    -- 003 Flank Attacks: -1 for the unit attacked in its flank or rear — the face the
    -- winner's front is against (a charger that hit a flank and lost is not attacked in its
    -- own flank). Skirmish companies have no flank or rear zones; a grande bande has no
    -- flank zones, but a rear (003 l.18: -1 when attacked there).
    local attacked_from = face_attacked(game, loser, winner)
    local gb = game:mode(loser) == "grande_bande"
    local formed = is_formed_infantry(game, loser) or is_cavalry(game, loser) or gb
    local flank_zone = attacked_from == "flank" and not gb
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
      -- 003 l.396-400, Ride around: cavalry that beat a square may choose to ride past it,
      -- a victory move ahead ignoring the square (`victory_advance`); it is disordered
      -- after that move, not before, and not if it holds or falls back.
      game:set_flag(winner, "ride_around")
    end
  end
end

-- Whether the segment from `a` to `b` (points with x, y) crosses the footprint `fp`'s edges.
local function side(p, q, r) return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) end
local function segment_crosses(fp, a, b)
  if not fp then return false end
  local k = fp.corners
  for i = 1, 4 do
    local c, d = k[i], k[i % 4 + 1]
    local d1, d2 = side(a, b, c), side(a, b, d)
    local d3, d4 = side(c, d, a), side(c, d, b)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)) then
      return true
    end
  end
  return false
end

-- The unit's own flag `name`, its kind, mode and facing, and the rules' amendments
-- switch, read once (see `standing`).
local function memo_flag(game, u, s, name)
  local v = s.flags[name]
  if v == nil then
    v = game:flag(u, name)
    s.flags[name] = v
  end
  return v
end

local function memo_facts(game, u, s)
  if s.kind == nil then
    s.amended = amended(game)
    s.kind = kind(game, u)
    s.mode = game:mode(u)
    local _, _, facing = game:position(u)
    s.facing = facing
  end
  return s
end

-- Whether the unit is a skirmisher or artillery, and the measuring scale, read once.
local function memo_class(game, u, s)
  if s.skirmisher == nil then
    s.skirmisher = is_skirmisher(game, u)
    s.artillery = is_artillery(game, u)
    s.scale = scale(game)
  end
  return s
end

-- A flag of the unit's brigadier `c`, read once (the orders in force are the brigadier's).
local function memo_order_flag(game, c, s, name)
  local flags = s.order_flags
  if not flags then
    flags = {}
    s.order_flags = flags
  end
  local v = flags[name]
  if v == nil then
    v = game:flag(c, name)
    flags[name] = v
  end
  return v
end

-- Where the end point `to` lies from the start `from`, with the facing kept: read once a
-- move (kept with the move's end point, so no table or function is made per move).
local function end_arc(game, s, from, to)
  if s.end_arc_of ~= to then
    s.end_arc_of = to
    s.end_arc = game:arc_at(from.x, from.y, s.facing, to.x, to.y)
  end
  return s.end_arc
end

-- Moves held to one direction: a blunder's (retire, left, right, forward) and the retire
-- move a shaken brigade's shaken or disordered units may make without an order (flag
-- `retire_only`). Each is judged from where the move starts: the end point in the rear arc
-- with the facing kept (a retire), in the front arc, or in the flank arc on that side.
local ONLY = {
  { "retire_only", "rear", "may only retire (back into its rear arc, keeping its facing)" },
  { "move_forward_only", "front", "blundered forward: it may only move into its front arc" },
  { "move_left_only", "flank", "blundered left: it may only move into its left flank arc" },
  { "move_right_only", "flank", "blundered right: it may only move into its right flank arc" },
}
local function direction_only(game, u, st, from, to, now_facing)
  local facing = st.facing
  local a = math.rad(facing)
  -- y grows down the table, so a point on the left has a negative cross product.
  local cross = math.cos(a) * (to.y - from.y) - math.sin(a) * (to.x - from.x)
  for _, o in ipairs(ONLY) do
    if memo_flag(game, u, st, o[1]) then
      local ok = end_arc(game, st, from, to) == o[2]
      if o[1] == "retire_only" then
        local turn = math.abs(now_facing - facing) % 360
        ok = ok and math.min(turn, 360 - turn) < 0.05
      elseif o[1] == "move_left_only" then ok = ok and cross < 0
      elseif o[1] == "move_right_only" then ok = ok and cross > 0 end
      if not ok then return game:name(u) .. " " .. o[3] end
    end
  end
end

-- Whether enemy `e` would threaten `u` standing at `to` facing `facing` (core's
-- `threatens`, judged at the end of a move before it is made).
local function would_threaten(game, e, u, to, facing)
  if game:flag(e, "shaken") then return false end
  local reach = 6
  if (is_artillery(game, e) and not is_skirmisher(game, u))
    or (is_cavalry(game, e) and is_infantry(game, u)) then
    reach = 12
  end
  local ex, ey, ef = game:position(e)
  local seen_arc = game:arc_from(e, ex, ey, ef, u, to.x, to.y, facing) or "front"
  return seen_arc == "front" and game:sight_from(e, ex, ey, ef, u, to.x, to.y, facing)
    and game:distance_from(u, to.x, to.y, facing, e) / scale(game) <= reach
end

-- What the move checks of `u` read of the game as it stands, whatever the move: its
-- brigadier and the brigade's objective, its enemies, the friends a move could not pass
-- through without a passage of lines, and, per enemy, the distance and arcs from where it
-- stands. Each is read when first needed and kept in `game:memo()`, which during a legal
-- listing is one table for every check asked on the listed game (the game does not change
-- until the listing ends) and a fresh table for any other call; so a listing of one unit's
-- candidate moves reads them once, and `apply` reads them as before. Keyed by the unit's
-- handle (the host gives one handle per piece), which costs no call back as `u:id()` does.
local function standing(game, u)
  local memo = game:memo()
  local all = memo.may_move
  if not all then
    all = {}
    memo.may_move = all
  end
  local s = all[u]
  if not s then
    s = { before = {}, arcs = {}, flags = {} }
    all[u] = s
  end
  return s
end

local function memo_brigadier(game, u, s)
  if s.brigadier == nil then s.brigadier = brigadier_of(game, u) or false end
  return s.brigadier or nil
end

local function memo_objective(game, s, c)
  if s.objective == nil then s.objective = objective_of(game, c) or false end
  return s.objective or nil
end

local function memo_enemies(game, u, s)
  if not s.enemies then s.enemies = enemies(game, u) end
  return s.enemies
end

-- The distance to `e` from where `u` stands (the move's start, with its facing).
local function memo_before(game, u, s, from, facing, e)
  local d = s.before[e]
  if not d then
    d = game:distance_from(u, from.x, from.y, facing, e)
    s.before[e] = d
  end
  return d
end

-- The arc of `e` seen from where `u` stands, turned to `f`.
local function memo_arc(game, u, s, from, f, e)
  local by = s.arcs[e]
  if not by then
    by = {}
    s.arcs[e] = by
  end
  local a = by[f]
  if a == nil then
    a = game:arc_from(u, from.x, from.y, f, e) or false
    by[f] = a
  end
  return a or nil
end

-- The friends `u` would make a passage of lines through (each with its bases, and
-- whether it is in square), in the order `game:units` gives them.
local function memo_blockers(game, u, s)
  if s.blockers then return s.blockers end
  local out = {}
  for _, f in ipairs(game:units(game:side(u))) do
    local free = is_skirmisher(game, f) or (is_artillery(game, f) and game:mode(f) == "unlimbered")
      or (game:mode(f) == "square" and kind(game, u) == "skirmish_company")
    if f ~= u and kind(game, f) ~= "brigadier" and not free then
      out[#out + 1] = { unit = f, footprint = game:footprint(f), square = game:mode(f) == "square" }
    end
  end
  s.blockers = out
  return out
end

-- Why a move is refused (nil when it is not): the checks of the orders in force, asked
-- before the move (the `may_move` check). The unit still stands at `from`; `to` is the
-- end point (nil for a path with no step), `now_facing` the facing it would end with, so
-- every distance and arc after the move is measured at `to` with `game:distance_from`,
-- `game:arc_from` and `game:sight_from`. It makes no table or function per move: a
-- listing asks it for every candidate move of every piece.
local function move_refusal(game, u, from, to, now_facing)
  local st = memo_facts(game, u, standing(game, u))
  if st.amended and st.kind == "brigadier" and memo_flag(game, u, st, "order_hold") then
    -- Hold: the staff stand may not move until its order is changed.
    return game:name(u) .. "'s brigade is under a Hold order: the staff stand may not move until the order changes"
  end
  local facing = st.facing
  if to then
    local why = direction_only(game, u, st, from, to, now_facing)
    if why then return why end
  end
  if not st.amended or not to or st.kind == "brigadier" then return end
  local c = memo_brigadier(game, u, st)
  local assault = c ~= nil and memo_order_flag(game, c, st, "order_assault")
  if assault and end_arc(game, st, from, to) == "rear" then
    -- Assault: no unit may voluntarily move in its rear zone.
    return game:name(u) .. "'s brigade is under an Assault order: no move into its rear zone"
  end
  local objective = memo_objective(game, st, c)
  if objective then
    local before = memo_before(game, u, st, from, facing, objective)
    local closer = game:distance_from(u, to.x, to.y, now_facing, objective) < before - 0.001
    if memo_order_flag(game, c, st, "assault_new") and not memo_class(game, u, st).skirmisher
      and game:arc_from(u, to.x, to.y, now_facing, objective) ~= "front" then
      -- Assault, on the turn of the order: the objective stays in every unit's front arc
      -- (skirmishers, having no flank or rear zones, have it there wherever they face).
      return game:name(u) .. "'s brigade received its Assault order this turn: it must keep its objective "
        .. game:name(objective) .. " in its front arc"
    end
    if memo_order_flag(game, c, st, "assault_command") and memo_flag(game, u, st, "in_brigade_command")
      and not memo_order_flag(game, c, st, "assault_advanced") and not closer then
      -- The brigade command must include a move toward the objective: Reading, its first
      -- move (or a charge on the objective) is that move (the `moved` hook marks it made).
      return game:name(c) .. "'s brigade command under Assault must include a move toward its objective "
        .. game:name(objective) .. ": its first move must end closer to it"
    end
  end
  if c and memo_order_flag(game, c, st, "order_hold") and memo_flag(game, u, st, "may_close") then
    local cx, cy, cf = game:position(c)
    if game:distance_from(c, cx, cy, cf, u, to.x, to.y, now_facing) > game:setting("command_range") + 0.001 then
      -- Hold: infantry close with the enemy only within command range of their brigadier.
      for _, e in ipairs(memo_enemies(game, u, st)) do
        local before = memo_before(game, u, st, from, facing, e)
        if game:distance_from(u, to.x, to.y, now_facing, e) < before - 0.001 and would_threaten(game, e, u, to, now_facing) then
          return game:name(u) .. "'s brigade is under a Hold order: beyond command range ("
            .. game:setting("command_range") .. " inches) of " .. game:name(c)
            .. " it may not move into threatened range of " .. game:name(e)
        end
      end
    end
  end
  -- 003 Passage of lines (l.723-737): a move whose centre passes through a friend is a
  -- passage of lines, declared with the action `passage_of_lines` (both units roll, 4+ or
  -- 3+ on a brigade order, or are disordered); through skirmishers and deployed guns it is
  -- free, and only skirmish companies pass through a square.
  if not memo_flag(game, u, st, "passed_lines") or st.mode == "square" then
    for _, b in ipairs(memo_blockers(game, u, st)) do
      if segment_crosses(b.footprint, from, to) then
        local f = b.unit
        if b.square then
          return "only skirmish companies may pass through a square (" .. game:name(f) .. ")"
        end
        return game:name(u) .. " would pass through " .. game:name(f)
          .. ": that is a passage of lines, declared first (action passage_of_lines: both roll 4+, 3+ on a brigade order, or are disordered)"
      end
    end
  end
  if memo_flag(game, u, st, "follow_through") and end_arc(game, st, from, to) ~= "front" then
    return game:name(u) .. " follows through into its front arc only"
  end
  if memo_flag(game, u, st, "ordered") and not memo_flag(game, u, st, "blundered") then
    -- An order is held to what it said it was for (its intent) — not a blunder, whose
    -- moves the blunder table gives (003 l.710; unlimbered guns make them on prolong,
    -- l.550, and are marked `prolonged` by them): a unit ordered first to
    -- change formation does so before it moves; a grande bande moves into a flank zone
    -- only on an order that said so (-1 staff); unlimbered guns move on prolong only on an
    -- order that said so (heavy guns Unreliable, light guns Reliable).
    for _, m in ipairs({ "line", "attack_column" }) do
      if memo_flag(game, u, st, "ordered_form_" .. m) and st.mode ~= m then
        return game:name(u) .. " was ordered first to form " .. m .. ": it changes formation before it moves"
      end
    end
    if st.mode == "grande_bande" and not memo_flag(game, u, st, "ordered_into_flank") and end_arc(game, st, from, to) == "flank" then
      return game:name(u) .. " was not ordered into a flank zone (intent into_flank)"
    end
    if memo_class(game, u, st).artillery and st.mode == "unlimbered" and not memo_flag(game, u, st, "hand_haul")
      and not memo_flag(game, u, st, "ordered_prolong") then
      return game:name(u) .. " was not ordered to move on prolong (intent prolong)"
    end
  end
  if memo_flag(game, u, st, "hand_haul") and st.mode == "unlimbered" then
    -- Hand haul: not into a flank zone, and the facing turns at most 45 degrees.
    if end_arc(game, st, from, to) == "flank" then
      return game:name(u) .. " may not hand-haul into a flank zone"
    end
    local turn = math.abs(now_facing - facing) % 360
    if turn > 180 then turn = 360 - turn end
    if turn > game:setting("hand_haul_turn") + 0.05 then
      return game:name(u) .. " may turn at most " .. game:setting("hand_haul_turn")
        .. " degrees when hand-hauled (" .. turn .. " asked)"
    end
  end
  local s = memo_class(game, u, st).scale
  local skirmish = st.skirmisher
  local shaken_broken = memo_flag(game, u, st, "shaken") and memo_flag(game, u, st, "brigade_broken")
  if skirmish and not shaken_broken then return end
  local heading = math.deg(math.atan(to.y - from.y, to.x - from.x))
  for _, e in ipairs(memo_enemies(game, u, st)) do
    -- Units must face an enemy to move toward it (Reading: a move heading toward the
    -- enemy — it lies in the front arc of the line of travel — needs that enemy in the
    -- front arc of the facing the move gives, seen from where it started; sideways moves
    -- are free; skirmishers have no flank or rear zones). The arcs are read first: most
    -- enemies of a move need no measuring.
    local unfaced = not skirmish and memo_arc(game, u, st, from, heading, e) == "front"
      and memo_arc(game, u, st, from, now_facing, e) ~= "front"
    if unfaced or shaken_broken then
      local dist = game:distance_from(u, to.x, to.y, now_facing, e)
      if dist < memo_before(game, u, st, from, facing, e) - 0.001 then
        if unfaced then
          return game:name(u) .. " must face " .. game:name(e) .. " before moving closer to it"
        end
        -- A shaken unit of a broken brigade may not voluntarily move within 8 inches.
        if dist / s <= initiative_range(game) + 0.0001 then
          return game:name(u) .. " is shaken in a broken brigade and may not move within "
            .. string.format("%.4g", initiative_range(game) * s) .. " inches of " .. game:name(e)
        end
      end
    end
  end
end

-- The open-table move check (the `may_move` hook): asked before every move, and by the
-- legal listing for every candidate move; `path` holds the start and end points, `facing`
-- the facing the move ends with (degrees). A string refuses the move.
function bp.may_move(game, u, path, facing)
  return move_refusal(game, u, path[1], path[2], facing)
end

-- Its batch form (the `may_move_all` hook, which the ruleset binds instead): one call for
-- all of a unit's candidate moves in a legal listing, and for the one move `apply` makes.
-- `from` is where the unit stands, each of `moves` an end point with the facing the move
-- ends with (degrees); the answer holds the refusals by move number (nil: all allowed).
function bp.may_move_all(game, u, from, moves)
  local out
  for i, m in ipairs(moves) do
    local why = move_refusal(game, u, from, m, m.facing)
    if why then
      out = out or {}
      out[i] = why
    end
  end
  return out
end

-- After every open-table move (the `moved` hook), once `may_move` has allowed it: what the
-- move changes. `path` holds the start and end points, `facing` the facing before the move.
function bp.moved(game, u, path, facing)
  if not amended(game) or #path < 2 or kind(game, u) == "brigadier" then return end
  local c = brigadier_of(game, u)
  if objective_of(game, c) and game:flag(c, "assault_command")
    and game:flag(u, "in_brigade_command") and not game:flag(c, "assault_advanced") then
    -- The brigade command's move toward its objective is made (`may_move` held it to one).
    game:set_flag(c, "assault_advanced")
  end
  if game:flag(u, "follow_through") then
    game:set_flag(u, "follow_through", false)
  end
  if is_artillery(game, u) and game:mode(u) == "unlimbered" and not game:flag(u, "hand_haul") then
    -- 003 Prolong (l.550-554): unlimbered guns that moved other than by hand haul moved on
    -- prolong, and fire at -1 after it (not British: `prolong_penalty` reads the nation);
    -- a second such move this turn and they may not fire at all.
    game:set_flag(u, game:flag(u, "prolonged") and "prolonged_twice" or "prolonged")
  end
end

-- Victory moves (base assumption, page 68): one move straight ahead or straight back.
local function victory_move(game, actor, sign, what)
  call.pending = {}
  if not game:flag(actor, "victory_move") then
    game:refuse(game:name(actor) .. " has not won a combat this turn (no victory move)")
  end
  local x, y, facing = game:position(actor)
  local a, step = math.rad(facing), one_move(game, actor)
  local tx, ty = x + sign * math.cos(a) * step, y + sign * math.sin(a) * step
  local problem = game:can_stand(actor, tx, ty)
  if problem then game:refuse(game:name(actor) .. " cannot " .. what .. ": " .. problem) end
  game:place_at(actor, tx, ty, nil, what)
  game:set_flag(actor, "victory_move", false)
  if amended(game) and sign > 0 and game:flag(actor, "ride_around") then
    game:note(game:name(actor) .. " rode past the square: it is disordered after the move")
    game:set_flag(actor, "disordered")
    game:set_flag(actor, "ride_around", false)
  end
end

function bp.victory_advance(game, actor) victory_move(game, actor, 1, "advance (victory move)") end
function bp.victory_fall_back(game, actor) victory_move(game, actor, -1, "fall back (victory move)") end

return {
  hooks = bp,
  melee_hits = melee_hits,
  support_count = support_count,
  victory_move = victory_move,
}
