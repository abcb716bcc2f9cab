-- Weather house rule: rain turns the ground to mud.
--
-- Every step costs an extra ½ point per level of rain (0 dry, 1 rain, 2 downpour), except
-- a road column on a road while the optional rule `roads_stay_firm` is on. What the
-- ruleset's data forbids (heavy woods, rivers) stays forbidden.
--
-- move_cost is a pure hook: it sees only its arguments and the game's fixed settings and
-- options (through `rules`), so the engine can cache its answers.

local weather = {}

function weather.move_cost(kind, mode, terrain, cost, diagonal)
  if cost == nil then
    return nil
  end
  local rain = rules.setting("rain")
  if rain <= 0 then
    return cost
  end
  if mode == "road" and rules.option("roads_stay_firm") then
    return cost
  end
  return cost + 0.5 * rain
end

return weather
