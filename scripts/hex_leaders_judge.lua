-- Hex leaders, judged for the `search` policy: the `evaluate` hook (not a rule; the game
-- itself never calls it). A piece is removed by its fourth loss and each removal is a
-- banner for the enemy (the default victory); in a scenario won at the first removal it is
-- the game. The search's own material counts a loss as an eighth of a unit's worth and
-- its lines stop at the end of the enemy's reply, so a position where three units can
-- battle the enemy's most worn piece and one where a single unit can score within the
-- dice's noise of each other. This hook scores the race to the next removal instead: for each
-- side, the fewest turns its units would need to remove an enemy piece at the rate their
-- battles hit, and the position by which side is ahead.
--
-- It reads what the view shows (hex-leaders hides nothing): own pieces from `own_names`,
-- enemy pieces from their `names`; a piece off the board neither battles nor is a target.

local judge = {}

-- A battle hits on 5 or 6 of a d6 (the ruleset's `battle` chart).
local HIT = 2 / 6
-- A piece is removed at this many losses (the `losses` counter's trigger).
local REMOVED_AT = 4
-- Hexes a unit may move in its turn and still battle: a triangle that moves two may not
-- battle (flag `no_battle`), a square infantry unit moves one. Leaders do not battle.
local REACH = {
  infantry_circle = 2,
  infantry_triangle = 1,
  infantry_square = 1,
  cavalry_square = 2,
}
-- How much a unit that must first move next to its target counts against one already
-- there (it may be blocked, or the target may step away).
local CLOSING = 0.5
-- Turns counted at most (a side that cannot reach any enemy).
local FAR = 24
-- How much of the returned value is the race (the rest is the search's own score).
local RACE_WEIGHT = 0.5

-- Cube coordinates of an offset hex whose odd rows are shifted right (the kernel's).
local function cube(cell)
  local x = cell.col - (cell.row - cell.row % 2) // 2
  return x, cell.row
end

local function distance(a, b)
  local ax, az = cube(a)
  local bx, bz = cube(b)
  local dx, dz = ax - bx, az - bz
  return math.max(math.abs(dx), math.abs(dz), math.abs(dx + dz))
end

-- A piece as the race needs it: its hex, its kind and its losses; nil off the board.
local function piece(place, names)
  local cell = type(place) == "table" and place.cell
  if not cell or not names then return nil end
  return { cell = cell, kind = names.kind, losses = names.counters.losses or 0 }
end

local function own_pieces(view)
  local out = {}
  for i, p in ipairs(view.own) do
    out[#out + 1] = piece(p.place, view.own_names[i])
  end
  return out
end

local function enemy_pieces(view)
  local out = {}
  for _, e in ipairs(view.enemy) do
    if e.real ~= false then out[#out + 1] = piece(e.place, e.names) end
  end
  return out
end

-- The fewest turns `shooters` need to remove one of `targets` (at most FAR).
local function turns_to_remove(shooters, targets)
  local best = FAR
  for _, t in ipairs(targets) do
    local rate = 0
    for _, s in ipairs(shooters) do
      local reach = REACH[s.kind]
      if reach then
        local d = distance(s.cell, t.cell)
        if d == 1 then
          rate = rate + HIT
        elseif d <= reach + 1 then
          rate = rate + CLOSING * HIT
        end
      end
    end
    if rate > 0 then
      best = math.min(best, math.max(0, REMOVED_AT - t.losses) / rate)
    end
  end
  return best
end

-- The race to the next removal, −1 (the enemy far ahead) to 1 (the side far ahead).
function judge.race(view)
  local own, enemy = own_pieces(view), enemy_pieces(view)
  local mine = turns_to_remove(own, enemy)
  local theirs = turns_to_remove(enemy, own)
  if mine + theirs == 0 then return 0 end
  return (theirs - mine) / (theirs + mine)
end

-- The hook: the side's view and the search's own score; the mixed score, −1..1.
function judge.evaluate(view, score)
  local mixed = (1 - RACE_WEIGHT) * score + RACE_WEIGHT * judge.race(view)
  return math.max(-1, math.min(1, mixed))
end

return judge
