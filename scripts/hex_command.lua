-- Hex Command (gunpowder): what the ruleset's data cannot say. The variant's mechanics are
-- modules under scripts/hex_command/, listed in the ruleset's `scripts:` before this one;
-- they share helpers through the `scripts` global (see docs/lua-api.md). This module
-- gathers their hook and action functions, so the ruleset binds `hc.NAME` as before.

local M = {}
for _, name in ipairs({ "hc_core", "hc_moves", "hc_command", "hc_crews", "hc_fire", "hc_melee", "hc_sequence" }) do
  for hook, f in pairs(scripts[name].hooks) do
    M[hook] = f
  end
end

return M
