-- square-blocks: the procedures the ruleset's data cannot say.
--
-- * Scouts (seed 000, "Tabletop Strategic Scouting"): a corps or wing headquarters has 2
--   scouts, an army headquarters 3, a nation 5, and each headquarters one more for every
--   dummy of its side in the battle zone (001, notes on dummy markers). Each scout names its
--   headquarters with the piece attribute `hq` (the headquarters' number among its side's
--   pieces, 0-based, in scenario order: `game:number`). At the start of its side's command phase every deployed scout rolls on
--   the Scout Fate table before it reports; a removed scout goes back to its headquarters
--   and sits out the rest of the turn (flag `lost`, cleared at turn end).
-- * Small tables (000 #20, optional): every block starts with a free ½ mp credit.
-- * Forward deployment (000 #18): an action for a block in battle mode whose square holds
--   a terrain feature; it spends ½ mp of saved points and is announced to the opponent.

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

local function headquarters_of(game, scout)
  local want = game:attribute(scout, "hq")
  for _, u in ipairs(game:units(game:side(scout))) do
    if game:number(u) == want and SCOUTS[game:kind(u)] ~= nil then
      return u
    end
  end
  return nil
end

local function check_scouts(game)
  for _, u in ipairs(game:units(game:phasing())) do
    if SMALL[game:kind(u)] and game:counter(u, "figures") > 10 then
      error(game:name(u) .. " is a small command (" .. game:kind(u) .. ") but has "
        .. game:counter(u, "figures") .. " figures; small commands hold 10 or less")
    end
  end
  for _, side in ipairs({ game:phasing() }) do
    local dummies = 0
    for _, u in ipairs(game:units(side)) do
      if game:kind(u) == "dummy" then dummies = dummies + 1 end
    end
    for _, hq in ipairs(game:units(side)) do
      local base = SCOUTS[game:kind(hq)]
      if base ~= nil then
        local count = 0
        for _, s in ipairs(game:units(side)) do
          if SCOUT_KINDS[game:kind(s)] and game:attribute(s, "hq") == game:number(hq) then
            count = count + 1
          end
        end
        if count > base + dummies then
          error(game:name(hq) .. " (" .. game:kind(hq) .. ") may send out " .. base
            .. " scouts plus one per dummy of its side (" .. dummies .. "), but "
            .. count .. " name it as their headquarters")
        end
      end
    end
  end
end

-- True when a piece in road mode holds (col, row), spread commands included: pieces in
-- road mode share no square.
local function road_column_at(game, col, row)
  for _, u in ipairs(game:units_at(col, row)) do
    if game:mode(u) == "road" then
      return true
    end
  end
  return false
end

local function scout_fate(game)
  local side = game:phasing()
  local night = 0
  if game:setting("night") > 0 then night = 1 end
  -- Squares a scout in road mode joins during this call: the game read here is the game
  -- as the phase began, and the changes asked for are made after the hook returns.
  local joined_in_road = {}
  for _, s in ipairs(game:units(side)) do
    if SCOUT_KINDS[game:kind(s)] and not game:flag(s, "lost") then
      local nearest = nil
      for _, e in ipairs(game:units()) do
        if game:side(e) ~= side and not NOT_BLOCKS[game:kind(e)] then
          local d = game:distance(s, e)
          if d ~= nil and (nearest == nil or d < nearest) then nearest = d end
        end
      end
      local hq = headquarters_of(game, s)
      local transit = 0
      -- A headquarters that is not set up (battle mode) is in transit.
      if hq ~= nil and game:mode(hq) ~= "battle" then transit = 1 end
      local range = 0
      if nearest ~= nil then range = range_row(nearest) end
      local outcome = game:resolve("scout_fate",
        { range = range, transit = transit, night = night },
        "scout fate of " .. game:name(s))
      if outcome == "removed" then
        if hq ~= nil and game:on_board(hq) then
          local col, row = game:cell(hq)
          local square = col .. "," .. row
          if game:mode(hq) == "road" or game:mode(s) == "road"
              or road_column_at(game, col, row) or joined_in_road[square] then
            -- Pieces in road mode share no square, so the scout rejoins its headquarters
            -- as an attached piece (found by policy play and `grognard fuzz`: placing it
            -- there was refused — beside the headquarters, beside a command in road mode
            -- spread onto its square, or beside a scout in road mode that joined it in the
            -- same phase — and the side could not end its phase).
            game:attach(s, hq)
            if game:mode(s) == "road" then
              joined_in_road[square] = true
            end
          else
            game:place(s, col, row, "back to its headquarters")
          end
        end
        game:set_flag(s, "lost", true)
      end
    end
  end
end

function M.phase_begin(game, phase)
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

-- Terrain in which a block can take the forward half of its square.
local FEATURES = { town = true, medium_woods = true }

function M.forward_deploy(game, actor)
  if game:mode(actor) ~= "battle" then
    error(game:name(actor) .. " must be in battle mode to deploy forward")
  end
  local col, row = game:cell(actor)
  if not FEATURES[game:terrain(col, row)] then
    error(game:name(actor) .. " has no terrain feature to hold in the forward half of its square")
  end
  if game:counter(actor, "saved_mp") < 1 then
    error(game:name(actor) .. " needs ½ mp saved to deploy forward")
  end
  game:add_counter(actor, "saved_mp", -1)
  game:set_flag(actor, "forward_deployed", true)
  game:announce(game:name(actor) .. " is deployed forward")
end

return M
