-- Hex Command melee, and the mode changes of artillery and horse (limber, unlimber,
-- dismount, mount).

local commander_of = scripts.hc_core.commander_of
local hit = scripts.hc_core.hit
local is_unit = scripts.hc_core.is_unit
local ledger = scripts.hc_core.ledger
local rout = scripts.hc_core.rout
local te_hit = scripts.hc_core.te_hit
local works_cover = scripts.hc_moves.works_cover
local abandon_guns = scripts.hc_crews.abandon_guns
local capture_guns = scripts.hc_crews.capture_guns
local crew_of = scripts.hc_crews.crew_of
local defender_wins = scripts.hc_crews.defender_wins
local overlap_refused = scripts.hc_crews.overlap_refused
local step_back = scripts.hc_crews.step_back
local win_melee = scripts.hc_crews.win_melee

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

local function melee_value(game, u, cover)
  local v = game:attribute(u, "melee") - game:counter(u, "hits") + cover
  local cmd = commander_of(game, u)
  if cmd ~= nil then
    v = v + game:counter(cmd, "cvs_c")
  end
  if game:flag(u, "fatigued") then
    v = v - 1
  end
  return v
end

local function friends_touching(game, target, side, except)
  local col, row = game:cell(target)
  local n = 0
  for _, d in ipairs({ "E", "SE", "SW", "W", "NW", "NE" }) do
    local nc, nr = game:neighbour(col, row, d)
    if nc ~= nil then
      local u = game:unit_at(nc, nr)
      -- Crews do not melee, so they do not support one (issue 7).
      if u ~= nil and u ~= except and game:side(u) == side and is_unit(game, u)
          and game:kind(u) ~= "crew" and not game:flag(u, "routed") then
        n = n + 1
      end
    end
  end
  return n
end

function M.melee(game, actor, target)
  local L = ledger(game)
  local name, tname = game:name(actor), game:name(target)
  local tkind = game:kind(target)
  if not is_unit(game, target) then
    error("commanders are not meleed")
  end
  if game:kind(actor) == "cavalry" and game:mode(actor) == "formed" then
    local tc, tr = game:cell(target)
    if game:terrain(tc, tr) == "forest" then
      error("mounted cavalry cannot melee a unit in forest")
    end
  end
  if game:kind(actor) == "mounted_infantry" and game:mode(actor) == "formed" then
    error(name .. " cannot melee on horseback")
  end
  local overlap = overlap_refused(game, actor, target)
  if overlap ~= nil then
    error(overlap)
  end
  -- Abandoned guns are captured; a crew does not melee but steps back (issue 7: crews).
  if game:flag(target, "abandoned") then
    capture_guns(L, actor, target)
    return
  end
  if tkind == "crew" then
    L:set(target, "disturbed", true)
    step_back(L, target, actor, nil)
    return
  end
  if game:option("tribes") and game:attribute(actor, "class") >= 3 and game:counter(target, "hits") == 0
      and not game:flag(target, "fatigued") then
    local cmd = commander_of(game, actor)
    local t = cmd and game:counter(cmd, "cvs_t") or 10
    if game:resolve("cvs_test", { trait = t }, "tribal resolve of " .. name) ~= "pass" then
      game:note(name .. " will not close with a fresh enemy")
      return
    end
  end
  L:set(actor, "in_melee", true)
  L:set(actor, "disturbed", true)
  L:set(target, "disturbed", true)
  L:set(target, "in_melee", true)
  -- Skirmishers do not melee: they are swept away.
  if tkind == "skirmishers" then
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
    if game:arc(target, actor) == "front" and game:counter(target, "melee_rounds") == 0 then
      local shot = game:resolve("grapeshot", { rifled = game:attribute(target, "class") == 1 and 1 or 0 },
        "grapeshot by " .. tname)
      if shot == "hit" then
        hit(L, actor, 1)
      end
    end
    local crew = crew_of(game, target)
    if crew ~= nil then
      abandon_guns(L, target, crew, actor)
    else
      -- A battery without a crew piece: the guns are taken and the crew is gone.
      L:remove(target, "crew abandoned the guns to " .. name)
    end
    L:set(actor, "in_melee", false)
    return
  end
  local tc, tr = game:cell(target)
  -- 5c: a unit that reached the foot of a hill with no movement left cannot melee an
  -- enemy on the hill above it.
  local ac, ar = game:cell(actor)
  if game:terrain_attribute(tc, tr, "elevation") > game:terrain_attribute(ac, ar, "elevation")
      and game:moved(actor)
      and game:counter(actor, "steps_moved") + game:counter(actor, "face_changes") >= (game:allowance(actor) or 0) then
    error(name .. " has no movement left at the foot of the hill and cannot melee " .. tname .. " above it")
  end
  local cover = game:terrain_attribute(tc, tr, "cover") + works_cover(game, target)
  cover = math.max(0, cover - game:counter(target, "melee_rounds"))
  -- 5.5.1: a unit in column on a road counts as meleed in the flank.
  local flanked = game:arc(target, actor) ~= "front" or game:flag(target, "on_road")
  local a = melee_value(game, actor, 0) + (flanked and 1 or 0)
  if friends_touching(game, target, game:side(actor), actor) > 0 then
    a = a + 1
  end
  local d = melee_value(game, target, cover)
  local result = game:resolve("melee", { attacker = a, defender = d },
    "melee of " .. name .. " (" .. a .. ") against " .. tname .. " (" .. d .. ")")
  local r = RESULTS[result] or {}
  local times = flanked and 2 or 1
  -- A defender already meleed this phase by another unit hurts this one only with TE hits.
  local secondary = game:flag(target, "meleed")
  L:set(target, "meleed", true)
  local a_hit, a_te = r.a_hit or 0, r.a_te or 0
  if secondary then
    a_te, a_hit = a_te + a_hit, 0
  end
  if game:option("melee_points") and a > d then
    r.d_te = (r.d_te or 0) + 1
  end
  te_hit(L, target, (r.d_te or 0) * times, true)
  hit(L, target, (r.d_hit or 0) * times)
  te_hit(L, actor, a_te, true)
  hit(L, actor, a_hit)
  L:add(target, "melee_rounds", 1)
  L:add(actor, "melee_rounds", 1)
  -- The winner advances into the hex its routed opponent left.
  if L:flag(target, "routed") or L.gone[target:id()] then
    L:set(actor, "in_melee", false)
    L:add(actor, "melee_rounds", -L:counter(actor, "melee_rounds"))
    -- Cavalry are not pursued after melee by infantry (charts page).
    local horse = { cavalry = true, mounted_infantry = true }
    local pursues = horse[game:kind(actor)] or not horse[tkind]
    if pursues and not L:flag(actor, "routed") and not L.gone[actor:id()] and L:occupant(tc, tr) == nil then
      -- 7.4: a unit that advances may change facing; with `pursuit_facing` (charts page,
      -- Pursuit) the winner chooses: `advance`, or a facing change instead.
      win_melee(L, actor, tc, tr)
    end
  end
  if L:flag(actor, "routed") or L.gone[actor:id()] then
    L:set(target, "in_melee", false)
    L:add(target, "melee_rounds", -L:counter(target, "melee_rounds"))
    -- 7.4: the defender that wins advances too (issue 7), infantry not after cavalry.
    local horse = { cavalry = true, mounted_infantry = true }
    local pursues = horse[tkind] or not horse[game:kind(actor)]
    if pursues and not L:flag(target, "routed") and not L.gone[target:id()] then
      defender_wins(L, target, ac, ar)
    end
  end
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

function M.limber_check(game, actor) return already_in(game, actor, "limbered", "limbered") end

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
  te_hit(ledger(game), actor, 1, false)
end

function M.unlimber(game, actor)
  game:set_mode(actor, "unlimbered")
  te_hit(ledger(game), actor, 1, false)
  if game:moved(actor) then
    game:set_flag(actor, "unlimbered_after_move", true)
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
  friends_touching = friends_touching,
  melee_value = melee_value,
}
