-- Black Powder procedures that data alone cannot say: multi-dice fire and saves, charge
-- responses, hand-to-hand, brigade commands, the status of units at the start of a turn,
-- brigade and army morale. Bound by black-powder-core.yaml; the club's amendments
-- (black-powder.yaml) set the setting `club_amendments` to 1, which switches on their
-- procedures here. Every number comes from the ruleset (charts, settings, attributes).
--
-- The mechanics are modules under scripts/black_powder/, listed in the ruleset's
-- `scripts:` before this one; they share helpers through the `scripts` global (see
-- docs/lua-api.md). This module gathers their hook and action functions, so the ruleset
-- binds `bp.NAME` as before.

-- A name two modules both give would bind whichever `pairs` met last: an error instead,
-- naming both modules, so a ruleset never binds the wrong function unseen.
local bp = {}
local from = {}
for _, name in ipairs({ "bp_core", "bp_hits", "bp_shooting", "bp_charges", "bp_melee", "bp_orders", "bp_phases", "bp_judge" }) do
  for hook, f in pairs(scripts[name].hooks) do
    if from[hook] then
      error("bp." .. hook .. " is given by both " .. from[hook] .. " and " .. name, 0)
    end
    bp[hook] = f
    from[hook] = name
  end
end

return bp
