-- Black Powder shooting: musketry and skirmish dice, and artillery fire by range band.

local HEAVY_GUNS = scripts.bp_core.HEAVY_GUNS
local LIGHT_GUNS = scripts.bp_core.LIGHT_GUNS
local amended = scripts.bp_core.amended
local arc = scripts.bp_core.arc
local b2i = scripts.bp_core.b2i
local prolong_penalty = scripts.bp_core.prolong_penalty
local call = scripts.bp_hits.call
local cover_of = scripts.bp_hits.cover_of
local firer_inputs = scripts.bp_hits.firer_inputs
local roll_to_hit = scripts.bp_hits.roll_to_hit
local take_hits = scripts.bp_hits.take_hits

local bp = {}

-- Shooting -----------------------------------------------------------------------------

local function shooting_dice(game, firer, target)
  local dice = game:attribute(firer, "shooting")
  if amended(game) and game:mode(firer) == "grande_bande" then
    local a = arc(game, firer, target)
    if a == "flank" then return math.min(1, dice) end
    if a == "rear" then game:refuse(game:name(firer) .. " cannot shoot into its rear") end
  elseif arc(game, firer, target) ~= "front" then
    game:refuse(game:name(target) .. " is not in " .. game:name(firer) .. "'s front arc")
  end
  return dice
end

function bp.shoot(game, actor, target)
  call.pending = {}
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
    hit.prolonged = prolong_penalty(game, battery)
    save.light_guns = b2i(band == "effective" and LIGHT_GUNS[gun] == true)
  end
  return hit, save
end

function bp.artillery_fire(game, actor, target, band)
  call.pending = {}
  if band == "out_of_range" then
    game:refuse(game:name(target) .. " is out of range of " .. game:name(actor))
  end
  if game:mode(actor) ~= "unlimbered" then
    game:refuse(game:name(actor) .. " must be unlimbered to fire")
  end
  if amended(game) and game:flag(actor, "prolonged_twice") then
    game:refuse(game:name(actor) .. " has moved on prolong more than once this turn: it may not fire")
  end
  local dice = game:setting("artillery_dice_" .. band)
  local hit, save = artillery_inputs(game, actor, band)
  for k, v in pairs(firer_inputs(game, actor, target)) do hit[k] = v end
  save.cover = cover_of(game, target)
  local hits = roll_to_hit(game, dice, hit, band .. " by " .. game:name(actor))
  game:note(game:name(actor) .. " fires " .. band .. " (" .. dice .. " dice): " .. hits .. " hits")
  take_hits(game, target, hits, save, false, actor)
end

return {
  hooks = bp,
  artillery_inputs = artillery_inputs,
  shooting_dice = shooting_dice,
}
