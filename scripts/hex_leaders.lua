-- Hex leaders: terrain that ends a move.
--
-- The source says only that some terrain may stop a unit before its full distance; which
-- terrain does so belongs to terrain rules it does not contain. This ruleset's default
-- (see its notes): entering woods or a town ends the move of any unit or leader. Data
-- cannot say this, because a movement class stops only on terrain that costs extra, and
-- these cost nothing extra to enter.
--
-- stops is a pure hook: it sees only the piece type, its mode and the terrain entered.

local hex_leaders = {}

local halts = { woods = true, town = true }

function hex_leaders.stops(kind, mode, terrain)
  return halts[terrain] == true
end

return hex_leaders
