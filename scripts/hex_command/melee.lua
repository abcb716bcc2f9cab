-- Hex Command melee, and the mode changes of artillery and horse (limber, unlimber,
-- dismount, mount).

local commander_of = scripts.hc_core.commander_of
local DIRS = scripts.hc_core.DIRS
local release = scripts.hc_core.release
local hit = scripts.hc_core.hit
local is_unit = scripts.hc_core.is_unit
local is_marker = scripts.hc_core.is_marker
local ledger = scripts.hc_core.ledger
local named = scripts.hc_core.named
local refuse = scripts.hc_core.refuse
local rout = scripts.hc_core.rout
local te_hit = scripts.hc_core.te_hit
local works_cover = scripts.hc_moves.works_cover
local has = scripts.hc_moves.has
local abandon_guns = scripts.hc_crews.abandon_guns
local capture_guns = scripts.hc_crews.capture_guns
local crew_of = scripts.hc_crews.crew_of
local defender_wins = scripts.hc_crews.defender_wins
local overlap_refused = scripts.hc_crews.overlap_refused
local step_back = scripts.hc_crews.step_back
local win_melee = scripts.hc_crews.win_melee
local kill_commander = scripts.hc_fire.kill_commander
local red_star = scripts.hc_fire.red_star

local M = {}

-- Melee ----------------------------------------------------------------------------------

local RESULTS = {
  ["both hit and defender TE"] = { a_hit = 1, d_hit = 1, d_te = 1 },
  ["attacker hit"] = { a_hit = 1 },
  ["defender hit"] = { d_hit = 1 },
  ["defender TE"] = { d_te = 1 },
  ["both hit"] = { a_hit = 1, d_hit = 1 },
  ["attacker hit and defender TE"] = { a_hit = 1, d_te = 1 },
  ["defender hit and attacker TE"] = { d_hit = 1, a_te = 1 },
  ["both TE"] = { a_te = 1, d_te = 1 },
  ["both hit and attacker TE"] = { a_hit = 1, d_hit = 1, a_te = 1 },
  ["attacker TE"] = { a_te = 1 },
}

-- 004 l.473 (and l.120, casualties are simultaneous): hits are applied at the end of a melee
-- round of all combatants, so within a round a unit fights with the hits it had as the round
-- began (counter `round_hits`: the hits it took in this round's pairings). Our reading: a
-- unit that a pairing breaks still routs at once (7.5: "immediately").
local function standing_hits(L, u)
  return math.max(0, L:counter(u, "hits") - L:counter(u, "round_hits"))
end

-- A unit's melee value without its commander, and the attached commander's Combat value
-- (0 without one), kept apart so the roll counts only the points that mattered.
local function melee_value(L, u, cover)
  local game = L.game
  local v = game:attribute(u, "melee") - standing_hits(L, u) + cover
  local c = 0
  local cmd = commander_of(game, u)
  if cmd ~= nil and not L.gone[cmd:id()] then
    c = game:counter(cmd, "cvs_c")
  end
  if L:flag(u, "fatigued") then
    v = v - 1
  end
  return v, c
end

-- 004 l.410 (7.3a: only Stronger, Weaker or equal decides; extra points keep a unit
-- superior and do nothing else) and l.313 (a commander's capabilities are kept back until
-- needed); twentieth round, the fifteenth outside audit's #29. The commanders' points
-- counted are the fewest that give the same comparison: none for the Weaker side's (it is
-- Weaker without them too), only those the Stronger side needed to pass the other, and at
-- equal values only the difference between the two. So the roll line's values tell no
-- more of a commander's Combat than the outcome does. Returns the two values counted.
local function counted_values(a, ca, d, cd)
  local full = (a + ca) - (d + cd)
  if full > 0 then
    return a + math.max(0, math.min(ca, d - a + 1)), d
  elseif full < 0 then
    return a, d + math.max(0, math.min(cd, a - d + 1))
  end
  return a + math.max(0, ca - cd), d + math.max(0, cd - ca)
end

-- Whether the piece `u` (or nil) is a friend of `side` that supports a melee: a unit of
-- that side, not routed. Crews do not melee, so they do not support one (issue 7).
local function supports(L, u, side)
  local game = L.game
  return u ~= nil and game:side(u) == side and is_unit(game, u)
    and game:kind(u) ~= "crew" and not L:flag(u, "routed")
end

local function friends_touching(L, target, side, except)
  local game = L.game
  local col, row = L:cell(target)
  local n = 0
  for _, d in ipairs(DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    if nc ~= nil then
      local u = L:occupant(nc, nr)
      if u ~= except and supports(L, u, side) then
        n = n + 1
      end
    end
  end
  return n
end

-- Charts page, melee modifiers ("at least 1 friend past melee plane", 1 CB; fifth outside
-- audit): friends of `actor` touching `target` beyond the line where the two meet — not the
-- two hexes next to both, which stand level with it.
local function friends_past_plane(L, target, actor)
  local game = L.game
  local col, row = L:cell(target)
  local ac, ar = L:cell(actor)
  local side = game:side(actor)
  local n = 0
  for _, d in ipairs(DIRS) do
    local nc, nr = game:neighbour(col, row, d)
    if nc ~= nil and not (nc == ac and nr == ar) then
      local level = false
      for _, e in ipairs(DIRS) do
        local xc, xr = game:neighbour(ac, ar, e)
        if xc == nc and xr == nr then
          level = true
        end
      end
      if not level and supports(L, L:occupant(nc, nr), side) then
        n = n + 1
      end
    end
  end
  return n
end

-- The flag `fought_D` marks that a unit has fought a melee round this phase with its
-- neighbour in direction D; the marks are cleared as the phase's owed melees are fought.
local function dir_to(game, ac, ar, bc, br)
  for _, d in ipairs(DIRS) do
    local nc, nr = game:neighbour(ac, ar, d)
    if nc == bc and nr == br then
      return d
    end
  end
  return nil
end

local function fought_with(L, a, b)
  local ac, ar = L:cell(a)
  local bc, br = L:cell(b)
  local d = dir_to(L.game, ac, ar, bc, br)
  return d ~= nil and L:flag(a, "fought_" .. d), d
end

local function mark_fought(L, a, b)
  local done, d = fought_with(L, a, b)
  if not done and d ~= nil then
    L:set(a, "fought_" .. d, true)
  end
end

local function has_fought(L, u)
  for _, d in ipairs(DIRS) do
    if L:flag(u, "fought_" .. d) then
      return true
    end
  end
  return false
end

-- Why `actor` may not melee `target` (nil: it may). The action's check asks it, so the legal
-- orders list only melees that are fought; the script relies on it.
local function melee_problem(game, actor, target)
  -- The target as the acting side knows it: a marker by its handle (ninth outside audit).
  local name, tname = game:name(actor), game:label(target, game:side(actor))
  -- A fake counter its side cannot tell from a unit is meleed as one (tenth round: refusing
  -- it would tell the side what it is); contact unmasks it (`fight`).
  local fake = game:kind(target) == "fake_counter"
  if fake and game:known_dummy(target, game:side(actor)) then
    return tname .. " is known to be a fake counter: there is no unit there to melee"
  end
  if not fake and not is_unit(game, target) then
    return "commanders are not meleed"
  end
  if game:kind(actor) == "cavalry" and game:mode(actor) == "formed" then
    local tc, tr = game:cell(target)
    if game:terrain(tc, tr) == "forest" then
      return "mounted cavalry cannot melee a unit in forest"
    end
  end
  if game:kind(actor) == "mounted_infantry" and game:mode(actor) == "formed" then
    return name .. " cannot melee on horseback"
  end
  local overlap = overlap_refused(game, actor, target)
  if overlap ~= nil then
    return overlap
  end
  -- 5c: a unit that reached the foot of a hill with no movement left cannot melee an
  -- enemy on the hill above it.
  local ac, ar = game:cell(actor)
  local tc, tr = game:cell(target)
  if game:kind(target) ~= "crew" and not game:flag(target, "abandoned")
      and game:terrain_attribute(tc, tr, "elevation") > game:terrain_attribute(ac, ar, "elevation")
      and game:moved(actor)
      and game:counter(actor, "steps_moved") + game:counter(actor, "face_changes") >= (game:allowance(actor) or 0) then
    return name .. " has no movement left at the foot of the hill and cannot melee " .. tname .. " above it"
  end
  -- Tribes (optional, l.260; tenth round): a unit that failed its morale check as the game
  -- began will not move to melee a fresh, undamaged unit (no hits, not fatigued).
  -- A target the actor's side has not identified (a marker, real or fake) is judged fresh:
  -- its hits are not known (thirteenth round, the tenth outside audit #19).
  if game:flag(actor, "wavering") and (game:label(target, game:side(actor)) ~= game:name(target)
      or (game:counter(target, "hits") == 0 and not game:flag(target, "fatigued")
        and not game:flag(target, "routed"))) then
    return name .. " failed its morale check (tribes): it will not melee " .. tname .. ", a fresh, undamaged unit"
      .. (tname ~= game:name(target) and " (an unidentified piece's hits are not known: it is taken as fresh)" or "")
  end
  local d = dir_to(game, ac, ar, tc, tr)
  if d ~= nil and game:flag(actor, "fought_" .. d) then
    return name .. " has already fought " .. tname .. " in this melee phase"
  end
  return nil
end

function M.melee_check(game, actor, target)
  return melee_problem(game, actor, target)
end

-- The cover `u` has in melee against `other` (004 l.37: 1 CB a level; l.418, l.424: it
-- degrades one a round, forts +2, +1, 0): its hex's cover and works, and a wall on the hex
-- side between them (l.216 "behind a fence wall": one level; fifth outside audit).
local function melee_cover(L, u, other)
  local game = L.game
  local uc, ur = L:cell(u)
  local oc, or_ = L:cell(other)
  local cover = game:terrain_attribute(uc, ur, "cover") + works_cover(game, u)
  if has(game:features(uc, ur, oc, or_), "wall") then
    cover = cover + 1
  end
  return math.max(0, cover - L:counter(u, "melee_rounds"))
end

-- One round of melee between `actor` and `target` (its check has passed), on the ledger `L`.
local function fight(L, actor, target)
  local game = L.game
  -- Named for whoever reads the call's notes and rolls (tenth round: the ordering side, or
  -- the phase's reader for the melees owed as the phase ends).
  local name, tname = L:name(actor), L:name(target)
  local rname, rtname = L:roll_name(actor), L:roll_name(target)
  local tkind = game:kind(target)
  -- A fake counter met in melee is unmasked: there is no unit there (tenth round).
  if tkind == "fake_counter" then
    L:remove(target, "a fake counter, met in melee: there was no unit there")
    return
  end
  -- Abandoned guns are captured; a crew does not melee but steps back (issue 7: crews).
  if L:flag(target, "abandoned") then
    capture_guns(L, actor, target)
    return
  end
  if tkind == "crew" then
    L:set(target, "disturbed", true)
    step_back(L, target, actor, nil)
    return
  end
  -- 7.2.1: a unit fighting a second opponent this phase hurts it only with TE hits, and so
  -- does a defender fighting a second attacker (the primary target rule).
  local actor_secondary = has_fought(L, actor)
  -- 004 l.424 (forts "benefit the owner" +2, then +1): a melee that goes on keeps the cover
  -- of the unit holding it when that unit declares the next round (`in_melee` before it).
  local continuing = L:flag(actor, "in_melee")
  local target_secondary = has_fought(L, target)
  mark_fought(L, actor, target)
  mark_fought(L, target, actor)
  L:set(actor, "in_melee", true)
  L:set(actor, "disturbed", true)
  L:set(target, "disturbed", true)
  L:set(target, "in_melee", true)
  -- Skirmishers do not melee: they are swept away.
  if tkind == "skirmishers" then
    -- 7.2 (l.475): contacted by cavalry they are destroyed; by anything else their owner
    -- chooses to rout them (optional rule `skirmishers_rout`, chosen for the game) or to
    -- remove them (the default).
    local mounted = game:kind(actor) == "cavalry" and game:mode(actor) == "formed"
    if game:option("skirmishers_rout") and not mounted then
      rout(L, target)
      return
    end
    L:remove(target, "skirmishers contacted in melee")
    return
  end
  if tkind == "mounted_infantry" and game:kind(actor) == "cavalry" and game:option("mounted_infantry_rules") then
    rout(L, target)
    return
  end
  -- Crews do not melee: a gun meleed in its front arc fires grapeshot once, then its crew
  -- abandons it.
  if tkind == "artillery" then
    if game:arc(target, actor) == "front" and L:counter(target, "melee_rounds") == 0 then
      local shot = game:resolve("grapeshot", { rifled = game:attribute(target, "class") == 1 and 1 or 0 },
        "grapeshot by " .. rtname, { by = target, against = actor })
      if shot == "hit" then
        hit(L, actor, 1)
      end
    end
    local crew = crew_of(game, target)
    if crew ~= nil then
      abandon_guns(L, target, crew, actor)
    else
      -- A battery without a crew piece: the guns are taken and the crew is gone.
      L:remove(target, "crew abandoned the guns to " .. named(game, actor))
    end
    L:set(actor, "in_melee", false)
    return
  end
  local tc, tr = L:cell(target)
  local ac, ar = L:cell(actor)
  local cover = melee_cover(L, target, actor)
  -- 5.5.1: a unit in column on a road counts as meleed in the flank.
  local flanked = game:arc(target, actor) ~= "front" or L:flag(target, "on_road")
  local a, ca = melee_value(L, actor, continuing and melee_cover(L, actor, target) or 0)
  a = a + (flanked and 1 or 0)
  if friends_past_plane(L, target, actor) > 0 then
    a = a + 1
  end
  local d, cd = melee_value(L, target, cover)
  a, d = counted_values(a, ca, d, cd)
  -- The roll is the two units' (l.214: the opponent watches it; 7.3b l.411: each player
  -- rolls), named as theirs even when a phase hook fights it (a melee locked as the phase
  -- ends): both sides read it (sixteenth round, the tenth outside audit's #10).
  local result, faces = game:resolve("melee", { attacker = a, defender = d },
    "melee of " .. rname .. " (" .. a .. ") against " .. rtname .. " (" .. d .. ")",
    { by = actor, against = target })
  local r = RESULTS[result] or {}
  local times = flanked and 2 or 1
  local a_hit, a_te = r.a_hit or 0, r.a_te or 0
  if target_secondary then
    a_te, a_hit = a_te + a_hit, 0
  end
  local d_hit, d_te = r.d_hit or 0, r.d_te or 0
  if actor_secondary then
    d_te, d_hit = d_te + d_hit, 0
  end
  -- 004 l.242, l.309, chart l.20: a red face on one side's cube is the other's casualty hit;
  -- on the red star that hit kills the commander attached to the unit instead (no hit).
  if d_hit > 0 and red_star(faces[1]) and kill_commander(L, target) then
    d_hit = 0
  end
  if a_hit > 0 and red_star(faces[2]) and kill_commander(L, actor) then
    a_hit = 0
  end
  if game:option("melee_points") and a > d then
    d_te = d_te + 1
  end
  te_hit(L, target, d_te * times, true)
  hit(L, target, d_hit * times)
  te_hit(L, actor, a_te, true)
  hit(L, actor, a_hit)
  L:add(target, "melee_rounds", 1)
  L:add(actor, "melee_rounds", 1)
  local horse = { cavalry = true, mounted_infantry = true }
  -- The winner advances into the hex its routed opponent left (7.4), unless a unit that
  -- joined the melee holds it (7.2.2).
  if L:flag(target, "routed") or L.gone[target:id()] then
    -- Cavalry are not pursued after melee by infantry (charts page).
    local pursues = horse[game:kind(actor)] or not horse[tkind]
    if pursues and not L:flag(actor, "routed") and not L.gone[actor:id()] and L:occupant(tc, tr) == nil then
      -- 7.4: a unit that advances may change facing; with `pursuit_facing` (charts page,
      -- Pursuit) the winner chooses: `advance`, or a facing change instead.
      win_melee(L, actor, tc, tr)
    end
  end
  if L:flag(actor, "routed") or L.gone[actor:id()] then
    -- 7.4: the defender that wins advances too (issue 7), infantry not after cavalry, and
    -- only into its front arc (5.1b).
    local pursues = horse[tkind] or not horse[game:kind(actor)]
    if pursues and not L:flag(target, "routed") and not L.gone[target:id()] then
      defender_wins(L, target, ac, ar)
    end
  end
end

-- One round of a pairing, the hits it gave each side counted in their `round_hits`.
local function fight_round(L, actor, target)
  local before = { L:counter(actor, "hits"), L:counter(target, "hits") }
  fight(L, actor, target)
  for i, u in ipairs({ actor, target }) do
    L:add(u, "round_hits", L:counter(u, "hits") - before[i])
  end
end

function M.melee(game, actor, target)
  local L = ledger(game, game:side(actor))
  local problem = melee_problem(game, actor, target)
  if problem ~= nil then
    refuse(game, problem)
  end
  fight_round(L, actor, target)
  release(L)
end

-- 7.2.1 and 7.3d (issue 33), as a side's melee phase ends: each of its units fights every
-- enemy it still owes a round this phase — every enemy whose front hexes it moved into this
-- turn (unless that enemy had lost its zone: a hit, fatigue, in melee) and every enemy it is
-- locked in melee with. The player's own melee orders come first (the primary target);
-- what is left is fought here. A locked pair whose enemy cannot face the side's unit is
-- fought the other way round (the round goes on whoever's phase it is). Then the `fought`
-- marks are cleared.
local MELEE_KINDS = { infantry = true, light_infantry = true, cavalry = true, mounted_infantry = true }

local function zone_on(game, e, u)
  -- A marker u's side has not identified has the zone of a unit facing its way, whatever it
  -- is (sixth outside audit; tenth round: its hits, fatigue or fakeness are not read here).
  local side = game:side(u)
  if game:arc(e, u) == "front" and is_marker(game, e) and game:label(e, side) ~= game:name(e) then
    return not game:known_dummy(e, side)
  end
  -- A hit taken in this round counts only when the round ends (l.473): the zone stays.
  return game:arc(e, u) == "front" and game:counter(e, "hits") <= game:counter(e, "round_hits") and not game:flag(e, "fatigued")
    and not game:flag(e, "in_melee") and not game:flag(e, "routed") and not game:flag(e, "abandoned")
    and (MELEE_KINDS[game:kind(e)] or game:kind(e) == "artillery")
end

local function forced_melees(game, sides)
  local L = ledger(game)
  local owed = {}
  for _, side in ipairs(sides) do
    for _, u in ipairs(game:units(side)) do
      -- A fake counter that moved into a front owes the melee a unit would (7.2.1, l.480;
      -- seventeenth round, the twelfth outside audit's #30): it is met as the phase ends, and
      -- unmasked then, as when the enemy melees one; until then it locks as a marker does.
      local ufake = game:kind(u) == "fake_counter"
      if (MELEE_KINDS[game:kind(u)] or ufake) and not game:flag(u, "routed") then
        local col, row = game:cell(u)
        for _, d in ipairs(DIRS) do
          local nc, nr = game:neighbour(col, row, d)
          local e = nc and game:unit_at(nc, nr)
          -- Only an enemy the side has sighted is owed a melee (hidden movement, l.264: an
          -- unseen unit is off the table; one next to a unit is always sighted, so this
          -- only keeps the rule to what the side knows).
          local fake = e ~= nil and game:kind(e) == "fake_counter" and not game:known_dummy(e, side)
          if e ~= nil and game:side(e) ~= side and game:known(e, side) and (is_unit(game, e) or (fake and not ufake)) and game:kind(e) ~= "crew"
              and not game:flag(e, "routed") and not game:flag(e, "abandoned")
              and not game:flag(u, "fought_" .. d) then
            local locked = not ufake and game:flag(u, "in_melee") and game:flag(e, "in_melee")
            local entered = game:moved(u) and zone_on(game, e, u)
            if (locked or entered) and game:arc(u, e) == "front" and melee_problem(game, u, e) == nil then
              table.insert(owed, { u, e, locked })
            elseif locked and not fake and MELEE_KINDS[game:kind(e)] and game:arc(e, u) == "front"
                and melee_problem(game, e, u) == nil then
              table.insert(owed, { e, u, locked })
            end
          end
        end
      end
    end
  end
  for _, pair in ipairs(owed) do
    local a, t = pair[1], pair[2]
    local still = not L.gone[a:id()] and not L.gone[t:id()] and not L:flag(a, "routed")
      and not L:flag(t, "routed") and L.at[a:id()] == nil and L.at[t:id()] == nil
    if still and not fought_with(L, a, t) then
      -- Named by the engine for each reader (the referee reads ids, each side its own names
      -- for the other's pieces), and told to both sides: the meleed side reads the roll that
      -- follows, which names both pieces, so it may read why (twentieth outside audit's
      -- leftovers). The note comes before the roll.
      game:announce(pair[3] and "the melee of {1} and {2} goes on"
        or "{1} entered the front of {2} and must melee it too", a, t)
      local fake_of = (game:kind(a) == "fake_counter" and a) or (game:kind(t) == "fake_counter" and t) or nil
      if fake_of ~= nil then
        L:remove(fake_of, "a fake counter, met in melee: there was no unit there")
      else
        fight_round(L, a, t)
      end
      -- 7.4: a winner that advanced here may still change facing; its player gives no
      -- order in the melee phase any more, so it does in the rally phase that follows.
      if L:flag(a, "victor") and not L:flag(a, "won_at_phase_end") then
        L:set(a, "won_at_phase_end", true)
      end
    end
  end
  release(L)
  -- The round is over: its hits count from now on.
  for _, u in ipairs(game:units()) do
    if not L.gone[u:id()] then
      for _, d in ipairs(DIRS) do
        if L:flag(u, "fought_" .. d) then
          L:set(u, "fought_" .. d, false)
        end
      end
      L:add(u, "round_hits", -L:counter(u, "round_hits"))
    end
  end
  return L
end

-- Artillery and horse modes ------------------------------------------------------------

-- The checks (`check:`) of the mode actions: the engine asks them before the action, and
-- the legal orders on them.
-- Why `actor` cannot change to `mode` (`word` in the refusal): it is in it already.
local function already_in(game, actor, mode, word)
  if game:mode(actor) == mode then
    return game:name(actor) .. " is already " .. word
  end
end

function M.limber_check(game, actor)
  -- Pike and shot (l.272; issue 33): guns once unlimbered cannot move again.
  if game:flag(actor, "planted") then
    return game:name(actor) .. " is planted: pike-and-shot guns cannot move once unlimbered (they may turn, at 1 CP)"
  end
  return already_in(game, actor, "limbered", "limbered")
end

function M.unlimber_check(game, actor) return already_in(game, actor, "unlimbered", "unlimbered") end

function M.dismount_check(game, actor) return already_in(game, actor, "dismounted", "dismounted") end

function M.mount_check(game, actor)
  local problem = already_in(game, actor, "formed", "mounted")
  if problem then return problem end
  local col, row = game:cell(actor)
  if game:terrain(col, row) == "forest" then
    return game:name(actor) .. " cannot mount in a forest"
  end
end

function M.limber(game, actor)
  game:set_mode(actor, "limbered")
  te_hit(ledger(game, game:side(actor)), actor, 1, false)
end

function M.unlimber(game, actor)
  game:set_mode(actor, "unlimbered")
  te_hit(ledger(game, game:side(actor)), actor, 1, false)
  if game:moved(actor) then
    game:set_flag(actor, "unlimbered_after_move", true)
  end
  if game:option("pike_and_shot") then
    game:set_flag(actor, "planted", true)
  end
end

function M.dismount(game, actor)
  game:set_mode(actor, "dismounted")
end

function M.mount(game, actor)
  game:set_mode(actor, "formed")
end

return {
  hooks = M,
  RESULTS = RESULTS,
  forced_melees = forced_melees,
  friends_touching = friends_touching,
  melee_problem = melee_problem,
  melee_value = melee_value,
}
