-- Hex leaders: terrain that ends a move.
--
-- The source says only that some terrain may stop a unit before its full distance; which
-- terrain does so belongs to terrain rules it does not contain. This ruleset's default
-- (see its notes): entering woods or a town ends the move of any unit or leader. Data
-- cannot say this, because a movement class stops only on terrain that costs extra, and
-- these cost nothing extra to enter.
--
-- stops is a pure hook: it sees only the piece type, its mode and the terrain entered. It
-- answers with the rule's words (a string stops the move, and a refused path shows it).

local hex_leaders = {}

local halts = { woods = "woods end a move", town = "a town ends a move" }

function hex_leaders.stops(kind, mode, terrain)
  return halts[terrain]
end

return hex_leaders
