-- square-blocks: the procedures the ruleset's data cannot say.
--
-- * Scouts (seed 000, "Tabletop Strategic Scouting"): a corps or wing headquarters has 2
--   scouts, an army headquarters 3, a nation 5, and each headquarters one more for every
--   dummy of its side in the battle zone (001, notes on dummy markers). Each scout names its
--   headquarters with the piece attribute `hq` (the headquarters' number among its side's
--   pieces, 0-based, in scenario order: `game:number`). At the start of every command
--   phase (two a game turn) every deployed scout of every side rolls on the Scout Fate
--   table (the referee's secret roll) before it reports; a removed scout goes back to its headquarters and sits out the rest
--   of the turn (flag `lost`, cleared at turn end).
-- * Small tables (000 #20, optional): every block starts with a free ½ mp credit.
-- * Forward deployment (000 #18): an action for a block in battle mode whose square holds
--   a terrain feature; it spends ½ mp of saved points and is announced to the opponent
--   (by the square, never the block's id); it ends when the block leaves the square or
--   battle mode.

local M = {}

local SCOUTS = { corps_hq = 2, army_hq = 3, nation_hq = 5 }
-- Scouts and ADCs are the same officers (000: "the number of scouts is equal to the number
-- of ADC's"); unattached officers are single figures too, not blocks.
local SCOUT_KINDS = { scout = true, adc = true }
local NOT_BLOCKS = { scout = true, adc = true, officer = true }
-- 001 [6.83]: small commands hold 10 figures or less.
local SMALL = { small_infantry = true, small_cavalry = true, small_artillery = true,
                park = true, siege = true, supply = true }

-- The scout fate table's distance rows (000): more than 5 squares, 4-5, 2-3, 1 or less.
local function range_row(d)
  if d > 5 then return 0 end
  if d >= 4 then return 1 end
  if d >= 2 then return 2 end
  return 3
end

-- Every piece of `side`, on the board or not (a headquarters left off the table in a
-- secret set-up is still the one its scouts name).
local function all_of_side(game, side)
  local all = {}
  for _, u in ipairs(game:units(side)) do all[#all + 1] = u end
  for _, u in ipairs(game:off_board_units(side)) do all[#all + 1] = u end
  return all
end

local function headquarters_of(game, scout)
  local want = game:attribute(scout, "hq")
  for _, u in ipairs(all_of_side(game, game:side(scout))) do
    if game:number(u) == want and SCOUTS[game:kind(u)] ~= nil then
      return u
    end
  end
  return nil
end

-- A problem with the scenario's own pieces, said as the rule says it (`game:refuse`: no
-- script location). Naming the piece at fault (`piece NAME: ...`) puts the error at that
-- piece's line of the scenario.
local function refuse(game, u, text)
  game:refuse("piece " .. game:name(u) .. ": " .. text)
end

local LEVELS = "a corps, army or nation headquarters"

-- What a scout's `hq` names, in words, when it is not a headquarters of its side.
local function not_a_headquarters(game, s)
  local want = game:attribute(s, "hq")
  for _, u in ipairs(all_of_side(game, game:side(s))) do
    if game:number(u) == want then
      if u == s then return "itself" end
      return game:name(u) .. " (" .. game:kind(u) .. ")"
    end
  end
  return "no piece of its side"
end

-- 000 scouting and 001 notes on dummy markers: each headquarters sends out 2 (corps or
-- wing), 3 (army) or 5 (nation) scouts or ADCs, and each dummy of the side on the table
-- gives one more to one headquarters (pooled: the side's scouts beyond the headquarters'
-- own numbers may not outnumber its dummies). Small commands hold 10 figures or less.
-- Checked for every side as the game starts, so a scenario that breaks it fails
-- `grognard validate` and never stops a game later.
local function check_side(game, side)
  for _, u in ipairs(game:units(side)) do
    if SMALL[game:kind(u)] and game:counter(u, "figures") > 10 then
      refuse(game, u, game:name(u) .. " is a small command (" .. game:kind(u) .. ") but has "
        .. game:counter(u, "figures") .. " figures; small commands hold 10 or less")
    end
    -- 001 l.62, l.158: a dummy has an officer but no combat units (a B sighting would
    -- otherwise report units it does not have).
    if game:kind(u) == "dummy" and game:counter(u, "units") > 0 then
      refuse(game, u, game:name(u) .. " is a dummy, which has an officer but no combat units, but has "
        .. game:counter(u, "units") .. " units")
    end
    -- The same lines: its one figure is that officer, so it counts no more toward the
    -- 150 figures a square holds (fourteenth outside audit #5).
    if game:kind(u) == "dummy" and game:counter(u, "figures") > 1 then
      refuse(game, u, game:name(u) .. " is a dummy, whose one figure is its officer, but has "
        .. game:counter(u, "figures") .. " figures")
    end
  end
  -- 000 l.183-185: scouts are sent out by a headquarters; `hq` must name one of its side.
  for _, s in ipairs(game:units(side)) do
    if SCOUT_KINDS[game:kind(s)] and headquarters_of(game, s) == nil then
      refuse(game, s, "a " .. game:kind(s) .. " is sent out by " .. LEVELS
        .. " of its side, named by `hq`, but its hq " .. game:attribute(s, "hq")
        .. " is " .. not_a_headquarters(game, s))
    end
  end
  local dummies = 0
  for _, u in ipairs(game:units(side)) do
    if game:kind(u) == "dummy" then dummies = dummies + 1 end
  end
  local base_total, extra, counted = 0, 0, 0
  -- The scouts beyond their headquarters' own numbers, in scenario order.
  local over = {}
  for _, hq in ipairs(game:units(side)) do
    local base = SCOUTS[game:kind(hq)]
    if base ~= nil then
      local count = 0
      for _, s in ipairs(game:units(side)) do
        if SCOUT_KINDS[game:kind(s)] and game:attribute(s, "hq") == game:number(hq) then
          count = count + 1
          if count > base then over[#over + 1] = s end
        end
      end
      base_total = base_total + base
      counted = counted + count
      if count > base then extra = extra + (count - base) end
    end
  end
  if extra > dummies then
    -- Located at the first scout the dummies cannot pay for.
    refuse(game, over[dummies + 1], side .. "'s headquarters may send out " .. base_total
      .. " scouts (2 a corps, 3 an army, 5 a nation) plus one per dummy on the table ("
      .. dummies .. "), but " .. counted .. " scouts name them, " .. extra
      .. " over their own numbers")
  end
end

local function check_scouts(game)
  local sides = {}
  for _, u in ipairs(game:units()) do
    local side = game:side(u)
    if not sides[side] then
      sides[side] = true
      check_side(game, side)
    end
  end
  for _, u in ipairs(game:off_board_units()) do
    local side = game:side(u)
    if not sides[side] then
      sides[side] = true
      check_side(game, side)
    end
  end
end

-- How many squares the nearest enemy command or dummy block is from the scout (000 l.201-
-- 208), counted as a king moves to the nearest square it holds: a command with extension
-- arrows occupies each of its squares (000 #16), so a scout next to an arrow square is 1
-- away (twelfth outside audit #22). Only the rows up to 5 squares differ, so only the
-- squares within 5 are searched; nil beyond.
local function nearest_enemy_block(game, s, side)
  local col, row = game:cell(s)
  if col == nil then return nil end
  for d = 0, 5 do
    for dr = -d, d do
      for dc = -d, d do
        if math.max(math.abs(dc), math.abs(dr)) == d then
          for _, e in ipairs(game:units_at(col + dc, row + dr)) do
            if game:side(e) ~= side and not NOT_BLOCKS[game:kind(e)] then return d end
          end
        end
      end
    end
  end
  return nil
end

-- The Scout Fate roll (000 l.189: 'at the start of every Command Phase'), for every
-- side's deployed scouts as each command phase begins (a game turn has two, l.167, and
-- scouts act in both), before they report. It is the referee's secret roll: its inputs
-- depend on where enemy blocks are, which the side may not know. The side learns only
-- what comes of it: a removed scout is back at its headquarters, lost for the turn.
local function scout_fate(game)
  local night = 0
  if game:setting("night") > 0 then night = 1 end
  for _, s in ipairs(game:units()) do
    local side = game:side(s)
    -- A scout back at its base (attached to its headquarters) is not deployed: no roll.
    -- Sent out later (after this phase's rolls), it collects nothing until its next roll
    -- (000 l.189-190: the roll comes before any information is collected), so it waits.
    local hq = headquarters_of(game, s)
    local deployed = hq == nil or game:host(s) ~= hq
    if SCOUT_KINDS[game:kind(s)] and not deployed and not game:flag(s, "awaiting_fate") then
      game:set_flag(s, "awaiting_fate", true)
    end
    if SCOUT_KINDS[game:kind(s)] and not game:flag(s, "lost") and deployed then
      local nearest = nearest_enemy_block(game, s, side)
      local transit = 0
      -- A headquarters that is not set up (battle mode) is in transit.
      if hq ~= nil and game:mode(hq) ~= "battle" then transit = 1 end
      local range = 0
      if nearest ~= nil then range = range_row(nearest) end
      -- Beyond 5 squares (range 0) the table's row has no asterisk: the chart's gates
      -- (`with: [range]`) hold transit and night at 0 there, so the roll is made without
      -- the +2s and the referee's log reads the plain d10 against 10+.
      if not game:flag(s, "fate_rolled") then game:set_flag(s, "fate_rolled", true) end
      local outcome = game:resolve("scout_fate",
        { range = range, transit = transit, night = night },
        "scout fate of " .. game:name(s))
      if outcome == "removed" then
        -- Back to its headquarters base, whatever stands there: it joins the base as an
        -- attached figure (it adds nothing to the square's stacking, and pieces in road
        -- mode take it along), so the return is never refused. A scout whose
        -- headquarters is gone, or cannot take it, stays where it is, lost all the same.
        if hq ~= nil and game:on_board(hq) and game:host(hq) == nil
            and #game:attached(s) == 0 then
          game:attach(s, hq)
        end
        game:note(game:name(s) .. " is caught, lost or late: no report this turn")
        game:set_flag(s, "lost", true)
        -- Sent out again, it waits for its next roll like any scout leaving its base.
        if not game:flag(s, "awaiting_fate") then
          game:set_flag(s, "awaiting_fate", true)
        end
      elseif game:flag(s, "awaiting_fate") then
        -- It reports from now on, on the strength of this roll.
        game:set_flag(s, "awaiting_fate", false)
      end
    end
  end
end

function M.phase_begin(game, phase)
  M.forward_still_held(game)
  if phase ~= "command" then
    return
  end
  if game:turn() == 1 then
    check_scouts(game)
    if game:option("small_tables") then
      for _, u in ipairs(game:units(game:phasing())) do
        if not NOT_BLOCKS[game:kind(u)] and game:counter(u, "saved_mp") == 0 then
          game:add_counter(u, "saved_mp", 1)
        end
      end
    end
  end
  scout_fate(game)
end

-- 000 #18, 001 [6.96]: the terrain feature a block may hold in the forward half of its
-- square: buildings (a town, a fortress), walls or hedges drawn on the square's edges, or a
-- wood (our reading of "walls, hedges, buildings etc.": cover the units occupy).
local FEATURES = { town = true, fortress = true, medium_woods = true }
local EDGE_FEATURES = { wall = true, hedge = true, fortress_wall = true }
local SIDES = { "N", "E", "S", "W" }

-- The feature's kind as the announcement names it (000 #18c: the opponents are told the
-- block is forward deployed into the terrain feature).
local FEATURE_WORDS = { town = "a town", fortress = "a fortress", medium_woods = "a wood",
                        wall = "a wall", hedge = "a hedge", fortress_wall = "a fortress wall" }

-- Every square the command holds: its main square and its extension arrows (000 #16: a
-- command with arrows occupies each of its squares), found outward from the main square
-- (each arrow is next to a square the command holds).
local function squares_of(game, u)
  local col, row = game:cell(u)
  if col == nil then return {} end
  local out, seen, i = { { col, row } }, { [col .. "," .. row] = true }, 1
  while i <= #out do
    local c, r = out[i][1], out[i][2]
    for dr = -1, 1 do
      for dc = -1, 1 do
        local key = (c + dc) .. "," .. (r + dr)
        if not seen[key] then
          seen[key] = true
          for _, p in ipairs(game:units_at(c + dc, r + dr)) do
            if p == u then
              out[#out + 1] = { c + dc, r + dr }
              break
            end
          end
        end
      end
    end
    i = i + 1
  end
  return out
end

-- The terrain or edge feature the block holds in the forward half of one of its squares
-- (000 #17: each square it occupies is a deployment square; thirteenth outside audit #42),
-- and that square; nil when none. The main square is looked at first.
-- An edge feature must be in the forward half (000 #18a): the front edge, or a flank edge
-- (half of it forward); never the edge behind the block (for a diagonal facing, the two).
local function feature_held(game, u)
  local f = game:facing(u)
  if f == nil then return nil end
  local behind = { [game:turned(f, 3)] = true, [game:turned(f, 4)] = true, [game:turned(f, 5)] = true }
  for _, sq in ipairs(squares_of(game, u)) do
    local col, row = sq[1], sq[2]
    local t = game:terrain(col, row)
    if FEATURES[t] then return t, col, row end
    for _, dir in ipairs(SIDES) do
      local c, r = game:neighbour(col, row, dir)
      if c ~= nil and not behind[dir] then
        for _, e in ipairs(game:features(col, row, c, r)) do
          if EDGE_FEATURES[e] then return e, col, row end
        end
      end
    end
  end
  return nil
end

local function holds_feature(game, u)
  return feature_held(game, u) ~= nil
end

-- Why the block may not deploy forward now, or nil (the action's check: the refusal a
-- player reads, and what the legal orders list).
function M.forward_deploy_check(game, actor)
  if game:mode(actor) ~= "battle" then
    return game:name(actor) .. " must be in battle mode to deploy forward"
  end
  if not holds_feature(game, actor) then
    return game:name(actor) .. " has no terrain feature (buildings, walls, hedges or a wood) to hold in the forward half of its square"
  end
  if game:counter(actor, "saved_mp") < 1 then
    return game:name(actor) .. " needs ½ mp saved to deploy forward"
  end
  if game:flag(actor, "forward_deployed") then
    return game:name(actor) .. " is already deployed forward"
  end
  return nil
end

-- True when every other side knows where `u` stands (sighted it, or sees its marker).
local function enemies_see(game, u)
  local mine, asked, any = game:side(u), {}, false
  for _, list in ipairs({ game:units(), game:off_board_units() }) do
    for _, p in ipairs(list) do
      local side = game:side(p)
      if side ~= mine and not asked[side] then
        asked[side] = true
        any = true
        if not game:known(u, side) then return false end
      end
    end
  end
  return any
end

-- The announcement names the square, which every player sees a block on; a command
-- concealed there (hidden, or in a town) that the other sides have not sighted is
-- announced without it, since naming the square would undo the concealment. One they do
-- sight is announced as the command they see, by its square (thirteenth outside audit
-- #41). Never the block's id. `col, row` (default: its main square) is the square named;
-- `left` for the end told after a move out of it: a concealed square is named then only if
-- the other sides saw the command as it deployed (`forward_seen`) and see it now.
local function announce_forward(game, actor, what, col, row, left)
  if col == nil then col, row = game:cell(actor) end
  local mc, mr = game:cell(actor)
  local concealed = game:flag(actor, "hidden") or game:terrain(col, row) == "town"
    or (mc ~= nil and game:terrain(mc, mr) == "town")
  local seen = enemies_see(game, actor) and not (left and not game:flag(actor, "forward_seen"))
  if concealed and not seen then
    game:announce("a command out of sight " .. what)
  else
    game:announce("the command at (" .. col .. "," .. row .. ") " .. what)
  end
end

-- 000 #18c: the opponents are told the block is forward deployed into the terrain feature,
-- by the feature's kind (twelfth outside audit #33), the square as above.
function M.forward_deploy(game, actor)
  game:add_counter(actor, "saved_mp", -1)
  game:set_flag(actor, "forward_deployed", true)
  local held, col, row = feature_held(game, actor)
  local feature = FEATURE_WORDS[held] or "its terrain feature"
  local mc, mr = game:cell(actor)
  if col ~= nil and (col ~= mc or row ~= mr) then
    -- Held from an arrow square: the feature's square is named with it.
    local where = " at (" .. col .. "," .. row .. ")"
    if game:flag(actor, "hidden") or game:terrain(mc, mr) == "town"
        or game:terrain(col, row) == "town" then
      if not enemies_see(game, actor) then where = "" end
    end
    feature = feature .. where
  end
  local seen = enemies_see(game, actor)
  if seen ~= game:flag(actor, "forward_seen") then game:set_flag(actor, "forward_seen", seen) end
  announce_forward(game, actor, "is deployed forward into " .. feature)
end

-- 000 #18a: the feature must be in the forward half of the square. A turn that puts it
-- behind the block (a hedge on what is now the rear edge) ends the forward deployment,
-- told to every player as the deployment was (facing is public; audit 6 #4).
function M.faced(game, unit, before)
  if game:flag(unit, "forward_deployed") and not holds_feature(game, unit) then
    game:set_flag(unit, "forward_deployed", false)
    announce_forward(game, unit, "is no longer deployed forward: its feature is now behind it")
  end
end

-- Forward deployment holds the feature of the square where it was made, in battle mode:
-- it ends when the block leaves the square or battle mode, told to every player as the
-- deployment was (the move and the mode change are public; seventh audit #7), by the
-- square it was made in.
function M.moved(game, unit, path)
  if game:flag(unit, "forward_deployed") then
    game:set_flag(unit, "forward_deployed", false)
    local from = path and path[1]
    announce_forward(game, unit, "is no longer deployed forward: it has left its square",
      from and from.col, from and from.row, true)
  end
end

function M.mode_changed(game, unit)
  if game:flag(unit, "forward_deployed") and game:mode(unit) ~= "battle" then
    game:set_flag(unit, "forward_deployed", false)
    announce_forward(game, unit, "is no longer deployed forward: it has left battle mode")
  end
end

-- A command deployed forward from an arrow square that took its arrows up holds the
-- feature no more (000 #18a; thirteenth outside audit #42): no hook follows a gather, so
-- the status ends as the next phase begins, before the other side acts, and is told to
-- every player as the deployment was.
function M.forward_still_held(game)
  for _, u in ipairs(game:units()) do
    if game:flag(u, "forward_deployed") and not holds_feature(game, u) then
      game:set_flag(u, "forward_deployed", false)
      announce_forward(game, u, "is no longer deployed forward: it no longer holds its feature")
    end
  end
end

return M
