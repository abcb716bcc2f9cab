-- An example Lua policy: `grognard sim examples/drill-square.yaml
-- --policy blue=lua:examples/policies/skirmisher.lua --policy red=random --runs 100`.
--
-- It acts on an enemy whenever it can, otherwise moves a piece (preferring moves that end
-- nearer the enemy pieces it knows of), and ends the phase once it has given a few orders.
-- It sees only its side's view and its legal orders (see docs/designer-tools.md).
local M = {}

-- Where an order's piece would end, as x, y (grid column and row, or inches), or nil.
local function destination(order)
  local move = order.move
  if move and move.path then
    local last = move.path[#move.path]
    return last[1], last[2]
  end
  local to = order.move_to
  if to and to.to then
    return to.to[1], to.to[2]
  end
  return nil
end

-- Where a view places a piece, in the same units (the view gives table points in
-- thousandths of an inch), or nil.
local function where(place)
  if type(place) ~= "table" then return nil end
  if place.cell then return place.cell.col, place.cell.row end
  if place.point and place.point.at then
    return place.point.at.x / 1000, place.point.at.y / 1000
  end
  return nil
end

-- The distance from (x, y) to the nearest enemy the view places, or nil.
local function nearest_enemy(view, x, y)
  local best
  for _, e in ipairs(view.enemy) do
    local ex, ey = where(e.place)
    if ex then
      local d = math.max(math.abs(ex - x), math.abs(ey - y))
      if best == nil or d < best then best = d end
    end
  end
  return best
end

local given = 0

function M.choose(view, orders, random)
  given = given + 1
  if given % 6 == 0 then
    return #orders -- the last order ends the phase
  end
  local actions, moves = {}, {}
  for i, order in ipairs(orders) do
    if order.act and order.act.target then
      actions[#actions + 1] = i
    elseif destination(order) then
      moves[#moves + 1] = i
    end
  end
  if #actions > 0 then
    return actions[random(#actions)]
  end
  if #moves == 0 then
    return #orders
  end
  local best, best_d = moves[random(#moves)], nil
  for _, i in ipairs(moves) do
    local x, y = destination(orders[i])
    local d = nearest_enemy(view, x, y)
    if d and (best_d == nil or d < best_d) then
      best, best_d = i, d
    end
  end
  return best
end

return M
