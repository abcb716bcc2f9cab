-- Hex Command commanders: the Commander Valuation System (CVS) rolls, joining units,
-- changing orders, and the loss of a supreme commander.

local commander_of = scripts.hc_core.commander_of
local fall_back = scripts.hc_core.fall_back
local hit = scripts.hc_core.hit
local is_unit = scripts.hc_core.is_unit
local ledger = scripts.hc_core.ledger
local refuse = scripts.hc_core.refuse
local te_hit = scripts.hc_core.te_hit

local M = {}

-- Commanders -----------------------------------------------------------------------------

local CVS_KEYS = { C = "cvs_c", M = "cvs_m", T = "cvs_t", A = "cvs_a", I = "cvs_i" }
local GRADES = { untrained = 0, trained = 1, veteran = 2 }

local function roll_cvs(game, c)
  local grade = game:resolve("cvs_grade", {}, "grade of " .. game:name(c))
  local traits = game:resolve("cvs_values", { grade = GRADES[grade] }, "CVS of " .. game:name(c))
  for letter, value in string.gmatch(traits, "(%a)(%d)") do
    local key = CVS_KEYS[letter]
    game:add_counter(c, key, tonumber(value) - game:counter(c, key))
  end
  game:note(game:name(c) .. " is " .. grade .. ": " .. traits)
end

-- Why `actor` may not be attached to `target` now (nil: he may). 6 and the sequence of
-- play (issue 33): commanders are attached in the command phase, but not to routed units;
-- a routed unit gets one only at the end of a turn — in its side's rally phase, and not in
-- the turn it routed — and is rallied by it at once.
local function attach_problem(game, actor, target)
  if not is_unit(game, target) then
    return "a commander attaches to a unit, not to " .. game:name(target)
  end
  local name = game:name(target)
  if game:phase() == "rally" then
    if not game:flag(target, "routed") then
      return "in the rally phase a commander joins only a routed unit, to rally it; " .. name .. " is not routed"
    end
    if game:flag(target, "routed_now") then
      return name .. " routed this turn: a commander may join it in a later turn's rally phase"
    end
  elseif game:flag(target, "routed") then
    return "a commander joins a routed unit only in the rally phase, at the end of a turn"
  end
  local other = commander_of(game, target)
  if other ~= nil and other ~= actor then
    return name .. " already has a commander (" .. game:name(other) .. ")"
  end
  return nil
end

function M.attach_check(game, actor, target)
  return attach_problem(game, actor, target)
end

function M.attach(game, actor, target)
  local problem = attach_problem(game, actor, target)
  if problem ~= nil then
    refuse(game, problem)
  end
  game:attach(actor, target)
  if game:phase() == "rally" then
    scripts.hc_sequence.rally_unit(ledger(game), target)
  end
end

local FAILURE = {
  ["halt"] = { halt = true },
  ["halt and TE"] = { halt = true, te = true },
  ["fall back to cover"] = { about = true },
  ["fall back to cover and TE"] = { about = true, te = true },
  ["keep the original order and a hit"] = { hit = true },
  ["a hit to every unit"] = { hit = true },
}

-- Change orders: at most as many changes as the commander's Initiative; pass by rolling
-- higher than Tactical on a d10, or suffer the decision-failure table for his units.
function M.change_orders_check(game, actor)
  if game:counter(actor, "order_changes") >= game:counter(actor, "cvs_i") then
    return game:name(actor) .. " has used all " .. game:counter(actor, "cvs_i") .. " order changes"
  end
end

function M.change_orders(game, actor)
  local L = ledger(game)
  L:add(actor, "order_changes", 1)
  local result = game:resolve("cvs_test", { trait = game:counter(actor, "cvs_t") },
    "order change by " .. game:name(actor))
  if result == "pass" then
    game:note(game:name(actor) .. "'s new orders are accepted")
    return
  end
  local failure = game:resolve("decision_failure", {}, "decision failure of " .. game:name(actor))
  game:note(game:name(actor) .. "'s order change fails: " .. failure)
  local what = FAILURE[failure] or {}
  for _, u in ipairs(game:units(game:side(actor))) do
    if is_unit(game, u) then
      if what.halt then
        L:set(u, "halted", true)
      end
      if what.te then
        te_hit(L, u, 1, false)
      end
      if what.hit then
        hit(L, u, 1)
      end
      if what.about and not L:flag(u, "routed") then
        game:face(u, game:turned(game:facing(u), 3))
      end
    end
  end
end

-- Break point note: when the supreme commander (attribute `supreme`) is killed, every unit
-- of his force rolls the cube at once; on red it withdraws two turns' distance (twice its
-- allowance) straight to its rear.
local function supreme_commander_lost(L, side)
  local game = L.game
  game:note(side .. "'s supreme commander is dead: every unit rolls for integrity")
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and not L.gone[u:id()] and not L:flag(u, "routed") then
      if game:resolve("integrity", {}, "integrity of " .. game:name(u) .. " (supreme commander killed)") == "withdraw" then
        local back = game:turned(game:facing(u), 3)
        fall_back(L, u, back, 2 * math.floor(game:allowance(u) or 0), "withdrew two turns' distance (supreme commander killed)")
      end
    end
  end
end

return {
  hooks = M,
  CVS_KEYS = CVS_KEYS,
  FAILURE = FAILURE,
  GRADES = GRADES,
  roll_cvs = roll_cvs,
  supreme_commander_lost = supreme_commander_lost,
}
