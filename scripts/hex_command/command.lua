-- Hex Command commanders: the Commander Valuation System (CVS) rolls, joining units,
-- changing orders, and the loss of a supreme commander.

local commander_of = scripts.hc_core.commander_of
local fall_back = scripts.hc_core.fall_back
local hit = scripts.hc_core.hit
local is_unit = scripts.hc_core.is_unit
local ledger = scripts.hc_core.ledger
local named = scripts.hc_core.named
local refuse = scripts.hc_core.refuse
local stands_as_unit = scripts.hc_core.stands_as_unit
local te_hit = scripts.hc_core.te_hit
local sweep_skirmishers = scripts.hc_core.sweep_skirmishers
local works_cover = scripts.hc_moves.works_cover

local M = {}

-- Commanders -----------------------------------------------------------------------------

local CVS_KEYS = { C = "cvs_c", M = "cvs_m", T = "cvs_t", A = "cvs_a", I = "cvs_i" }
local GRADES = { untrained = 0, trained = 1, veteran = 2 }
local GRADE_NAMES = { [0] = "untrained", [1] = "trained", [2] = "veteran" }

local function roll_cvs(game, c)
  local grade = game:resolve("cvs_grade", {}, "grade of " .. game:name(c))
  local traits = game:resolve("cvs_values", { grade = GRADES[grade] }, "CVS of " .. game:name(c))
  for letter, value in string.gmatch(traits, "(%a)(%d)") do
    local key = CVS_KEYS[letter]
    game:add_counter(c, key, tonumber(value) - game:counter(c, key))
  end
  -- The grade is kept on the commander (a private counter): the note that tells it is made
  -- in his side's own first phase (`note_cvs`), since the game's opening phase belongs to
  -- no side and its notes reach every side (l.313: capabilities are private).
  game:add_counter(c, "grade", GRADES[grade] - game:counter(c, "grade"))
end

-- l.313 (ninth outside audit): a side is told its own commanders' rolled CVS in its own
-- first command phase, where a note reaches its log only — never the enemy's.
local function note_cvs(game, side)
  for _, c in ipairs(game:units(side)) do
    if game:kind(c) == "commander" then
      local traits = {}
      for _, letter in ipairs({ "C", "M", "T", "A", "I" }) do
        traits[#traits + 1] = letter .. game:counter(c, CVS_KEYS[letter])
      end
      game:note(game:name(c) .. " is " .. GRADE_NAMES[game:counter(c, "grade")] .. ": " .. table.concat(traits, " "))
    end
  end
end

-- Why `actor` may not be attached to `target` now (nil: he may). 6 and the sequence of
-- play (issue 33): commanders are attached in the command phase, but not to routed units;
-- a routed unit gets one only at the end of a turn — in its side's rally phase, and not in
-- the turn it routed — and is rallied by it at once.
local function attach_problem(game, actor, target)
  -- The target as the commander's side knows it (tenth round).
  local name = game:label(target, game:side(actor))
  if not is_unit(game, target) then
    return "a commander attaches to a unit, not to " .. name
  end
  if game:phase() == "rally" then
    if not game:flag(target, "routed") then
      return "in the rally phase a commander joins only a routed unit, to rally it; " .. name .. " is not routed"
    end
    if game:flag(target, "routed_now") then
      return name .. " routed this turn: a commander may join it in a later turn's rally phase"
    end
    if game:flag(actor, "rallying") then
      return game:name(actor) .. " has rallied a unit in this rally phase: a commander rallies one unit a turn"
    end
  elseif game:flag(target, "routed") then
    return "a commander joins a routed unit only in the rally phase, at the end of a turn"
  end
  local other = commander_of(game, target)
  if other ~= nil and other ~= actor then
    return name .. " already has a commander (" .. game:name(other) .. ")"
  end
  return nil
end

function M.attach_check(game, actor, target)
  return attach_problem(game, actor, target)
end

-- The scenario's own attachments, as the game starts (twenty-second round, the seventeenth
-- outside audit's remark 2): a commander set up `attached_to` a piece is held to `attach`'s
-- first rule, a unit and no fake counter (a plate has no troops to lead), and the scenario
-- is refused at the commander's line in that rule's words.
local function check_set_up_attachments(game)
  local pieces = game:units()
  for _, u in ipairs(game:off_board_units()) do
    table.insert(pieces, u)
  end
  for _, c in ipairs(pieces) do
    local host = game:host(c)
    if game:kind(c) == "commander" and host ~= nil and not is_unit(game, host) then
      game:refuse("piece " .. game:name(c) .. ": a commander attaches to a unit, not to " .. game:name(host))
    end
  end
end

local update_caution

function M.attach(game, actor, target)
  local problem = attach_problem(game, actor, target)
  if problem ~= nil then
    refuse(game, problem)
  end
  game:attach(actor, target)
  local L = ledger(game, game:side(actor))
  if game:phase() == "rally" then
    scripts.hc_sequence.rally_unit(L, target)
    L:set(actor, "rallying", true)
    return
  end
  -- 6 (l.567-569, eleventh round): a commander attached before movement negates the decision
  -- roll for his unit, whether he joins it before or after the roll in the command phase: the
  -- failure's standing orders (halt, hold, no advance) are lifted from it. What the failure
  -- already did (a TE hit or a hit, the fall back to cover) stands.
  local freed = false
  for _, flag in ipairs({ "halted", "holding", "cautious" }) do
    if game:flag(target, flag) then
      L:set(target, flag, false)
      freed = true
    end
  end
  if freed then
    game:note(game:name(target) .. " has " .. game:name(actor) .. " attached before movement: the decision roll does not bind it")
    update_caution(L)
  end
end

local FAILURE = {
  ["halt"] = { halt = true },
  ["halt and TE"] = { halt = true, te = true },
  ["no advance until aggressive"] = { cautious = true },
  ["hold for new orders"] = { hold = true },
  ["fall back to cover"] = { about = true },
  ["fall back to cover and TE"] = { about = true, te = true },
  ["keep the original order and a hit"] = { hit = true },
  ["a hit to every unit"] = { hit = true },
}

-- 2.2.2 results 6 and 7 (004 l.342-343): "about-faces and moves towards the rear until
-- cover ... is reached, whereupon they defend until new orders are received". Our reading:
-- the unit turns about and is moved at once straight on (its new front, away from where it
-- faced), hex by hex, at most its allowance, until it stands in cover (a hex whose terrain
-- gives cover: forest, buildings, a fort; or works it dug where it stands, which it then
-- does not leave). It stops short of the board edge, a lake, an occupied hex, an enemy zone
-- of control (as its side knows the enemy: a marker it has not identified has a unit's
-- zone, nineteenth round) and ground its arm may not enter (mounted horse and guns:
-- forest; guns: a fort, a stream); an obstacle crossed costs a TE hit as in any move. Then
-- it defends: it is halted for the rest of the turn (no move, no facing change), so it
-- neither advances nor turns to face the enemy again that turn, and then holds until new
-- orders (result 4's `holding`; nineteenth round); it may still fire and fight a melee it is in. Units in
-- melee cannot leave it (7.2.3) and stay as they are; unlimbered or planted guns only turn.
local function in_cover(game, col, row)
  return game:terrain_attribute(col, row, "cover") > 0
end

local function closed_to(game, u, col, row, from_col, from_row)
  local kind, mode = game:kind(u), game:mode(u)
  local terrain = game:terrain(col, row)
  if terrain == "lake" then
    return true
  end
  local horse = (kind == "cavalry" or kind == "mounted_infantry") and mode == "formed"
  if terrain == "forest" and (horse or kind == "artillery") then
    return true
  end
  if kind == "artillery" then
    if terrain == "fort" then
      return true
    end
    for _, f in ipairs(game:features(from_col, from_row, col, row)) do
      if f == "stream" then
        return true
      end
    end
  end
  return false
end

local function obstacle_crossed(game, from_col, from_row, col, row)
  local stream, wall, bridge = false, false, false
  for _, f in ipairs(game:features(from_col, from_row, col, row)) do
    stream = stream or f == "stream"
    wall = wall or f == "wall"
    bridge = bridge or f == "bridge" or f == "road"
  end
  return (stream or wall) and not bridge
end

-- The falling back of `units` (each `{ u, dir }`): every unit steps in turn, a pass at a
-- time, so one is held up by a friend only while that friend still stands in its way.
local function fall_back_to_cover(L, units)
  local game = L.game
  local moves, by_id = {}, {}
  for _, x in ipairs(units) do
    local u = x[1]
    local col, row = L:cell(u)
    local m = { u = u, dir = x[2], col = col, row = row, steps = 0, te = 0, entered = {}, done = true }
    if not (in_cover(game, col, row) or works_cover(game, u) > 0) then
      m.steps = math.floor(game:allowance(u) or 0)
      m.done = game:mode(u) == "unlimbered" or game:flag(u, "dug") or game:flag(u, "emplaced")
        or game:flag(u, "planted") or game:flag(u, "abandoned") or game:flag(u, "withdrawn")
    end
    moves[#moves + 1] = m
    by_id[u:id()] = m
  end
  -- Who stands in a hex now: a unit falling back where it has got to, anyone else where
  -- the call began (a rider stands with its host).
  local function taken(col, row)
    for _, m in ipairs(moves) do
      if m.col == col and m.row == row then
        return true, m
      end
    end
    local p = game:unit_at(col, row)
    if p == nil or by_id[p:id()] ~= nil or (game:host(p) ~= nil and by_id[game:host(p):id()] ~= nil) then
      return false
    end
    return true
  end
  local progress = true
  while progress do
    progress = false
    for _, m in ipairs(moves) do
      local u = m.u
      while not m.done and m.steps > 0 do
        local nc, nr = game:neighbour(m.col, m.row, m.dir)
        local held, friend = false, nil
        if nc ~= nil then
          held, friend = taken(nc, nr)
        end
        if nc == nil or held or closed_to(game, u, nc, nr, m.col, m.row)
            or scripts.hc_core.enemy_zone(L, nc, nr, game:side(u)) then
          -- Held up by a friend still falling back: it may make room in a later pass.
          m.done = friend == nil or friend.done
          break
        end
        if obstacle_crossed(game, m.col, m.row, nc, nr) then
          m.te = m.te + 1
        end
        m.col, m.row, m.steps = nc, nr, m.steps - 1
        m.entered[#m.entered + 1] = { col = nc, row = nr }
        progress = true
        if in_cover(game, nc, nr) then
          m.done = true
        end
      end
      if m.steps <= 0 then
        m.done = true
      end
    end
  end
  -- The board takes the placements one at a time, so a unit whose new hex another falling
  -- back has just left is placed after that one (eighth round: fuzzed under the activation
  -- sequence, a crew's hex).
  local order, placed = {}, {}
  local left = true
  while left do
    left = false
    for i, m in ipairs(moves) do
      if not placed[i] then
        local waits = false
        for j, o in ipairs(moves) do
          local c0, r0 = L:cell(o.u)
          if j ~= i and not placed[j] and #o.entered > 0 and c0 == m.col and r0 == m.row then
            waits = true
          end
        end
        if not waits then
          placed[i] = true
          order[#order + 1] = m
          left = true
        end
      end
    end
  end
  for i, m in ipairs(moves) do
    if not placed[i] then
      order[#order + 1] = m
    end
  end
  for _, m in ipairs(order) do
    local u = m.u
    if #m.entered > 0 then
      L:place(u, m.col, m.row, "fell back toward cover (decision failure)")
      if is_unit(game, u) then
        te_hit(L, u, m.te, false)
        sweep_skirmishers(L, u, m.entered)
      end
    end
    -- Nineteenth round (the fourteenth outside audit's #23): "defend until new orders are
    -- received" is result 4's words (l.340), so past the turn the unit holds as result 4's
    -- do (`holding`: no move; it may turn, fire and fight) until an order change of its side
    -- is accepted or a commander joins it.
    if not L.gone[u:id()] then
      L:set(u, "halted", true)
      L:set(u, "holding", true)
      game:note(game:name(u) .. (in_cover(game, m.col, m.row) and " defends in cover at (" or " defends at (")
        .. m.col .. "," .. m.row .. "), halted until the turn ends, then holding until new orders are received")
    end
  end
end

-- 2.2.2 result 3 (004 l.339): "cannot move in the enemy's direction until passing
-- Aggressiveness; can move in other directions". Our reading (seventeenth round, the twelfth
-- outside audit's #21): a cautious unit (flag `cautious`) may move any way and turn freely,
-- so long as no hex of its move is nearer the enemy than its start: its distance to the
-- nearest enemy unit its side knows of (not a fake it has unmasked) may not shrink
-- (eighteenth round): `cautious_advance_problem`, the types' `may_move`, which
-- `legal` asks too. It may still fire and melee (a melee is fought from where it stands).
-- The side's commander whose order change failed (flag `awaiting_aggression`) tests his
-- Aggressiveness (d10 higher than A, the CVS test) as each later command phase of his side
-- begins; passing frees the side's cautious units. A commander lost before he passes frees
-- them as the next command phase begins (the order dies with him).
local fresh

-- Tribes (optional, l.260; tenth round): a unit that failed its morale check as the game
-- began (flag `wavering`) advances toward the enemy only against a disordered or worse
-- enemy; it is held as a cautious unit is, counting only enemies that are fresh (no hits,
-- not fatigued, not routed).
-- Judged as the side `side` knows it (thirteenth round, the tenth outside audit #19, #20): a
-- marker or unit it has not identified shows no hits, fatigue or rout, so it is fresh.
fresh = function(game, e, side)
  if side ~= nil and game:label(e, side) ~= game:name(e) then
    return true
  end
  return game:counter(e, "hits") == 0 and not game:flag(e, "fatigued") and not game:flag(e, "routed")
end

-- Tribes (l.260, eleventh round: the ninth outside audit): a failed tribal unit's move is
-- judged by where it ends, not held still. Its side's known enemy units, fresh or
-- disordered or worse (any hit, fatigued or routed), are measured from the move's first
-- and last hexes: a move that ends closer to a fresh enemy that is the nearest known enemy
-- where it ends (nineteenth round) is an advance on it, refused, unless it ends next to or
-- closer to a disordered-or-worse enemy — its target. Any other move (sideways, away, or
-- closing only on damaged or farther units) is allowed, and so is turning.
local function steps_between(game, c1, r1, c2, r2)
  return #game:line(c1, r1, c2, r2) - 1
end

local function tribal_advance_problem(game, u, path)
  if not game:flag(u, "wavering") or #path < 2 then
    return nil
  end
  local side = game:side(u)
  local first, last = path[1], path[#path]
  local closer_fresh, next_to_fresh, on_target = nil, nil, false
  -- Nineteenth round (the fourteenth outside audit's #26, with the eighteenth round's result
  -- 3): the enemy a move advances toward is the nearest known enemy where it ends, so a step
  -- away from the line that happens to near a far-off marker is no advance.
  local known = {}
  local gap = nil
  for _, e in ipairs(game:units()) do
    if game:side(e) ~= side and stands_as_unit(game, e) and game:known(e, side)
        and not game:known_dummy(e, side) then
      local ec, er = game:cell(e)
      if ec ~= nil then
        local after = steps_between(game, last.col, last.row, ec, er)
        known[#known + 1] = { e, ec, er, after }
        if gap == nil or after < gap then
          gap = after
        end
      end
    end
  end
  for _, k in ipairs(known) do
    local e, ec, er, after = k[1], k[2], k[3], k[4]
    local before = steps_between(game, first.col, first.row, ec, er)
    if fresh(game, e, side) then
      if after < before and after == gap and closer_fresh == nil then
        closer_fresh = e
      end
      if after < before and after <= 1 and next_to_fresh == nil then
        next_to_fresh = e
      end
    elseif after < before or after <= 1 then
      on_target = true
    end
  end
  if closer_fresh ~= nil and not on_target then
    return game:name(u) .. " failed its morale check (tribes): it advances only on a disordered or worse enemy, and this move closes on "
      .. game:label(closer_fresh, side) .. ", a fresh, undamaged unit"
      .. (game:label(closer_fresh, side) ~= game:name(closer_fresh)
        and " (an unidentified piece's hits are not known: it is taken as fresh)" or "")
  end
  -- Fifteenth round (the tenth outside audit's #18): "if a fresh, undamaged unit, they will
  -- not move to melee": a move that closes up next to a fresh enemy is refused even when it
  -- also nears a damaged one elsewhere (its target).
  if next_to_fresh ~= nil then
    return game:name(u) .. " failed its morale check (tribes): it will not move to melee "
      .. game:label(next_to_fresh, side) .. ", a fresh, undamaged unit, and this move ends next to it"
      .. (game:label(next_to_fresh, side) ~= game:name(next_to_fresh)
        and " (an unidentified piece's hits are not known: it is taken as fresh)" or "")
  end
  return nil
end

-- Decision failure 3 (l.339, fifteenth round: the tenth outside audit's #14; eighteenth
-- round: the thirteenth's item 5). "The enemy's direction" is read as closing on the enemy:
-- a cautious unit's gap to the enemy is its distance to the nearest enemy unit its side
-- knows of (not a fake it has unmasked), and no hex of its move may have a smaller gap than
-- its first. A sidestep along an enemy line keeps the gap (it nears a unit further down the
-- line only as it leaves the one before it) and is allowed; a step toward the line, or a
-- long move curling round, shrinks it and is refused.
local function enemy_gap(game, side, col, row)
  local gap, nearest = nil, nil
  for _, e in ipairs(game:units()) do
    if game:side(e) ~= side and stands_as_unit(game, e) and game:known(e, side)
        and not game:known_dummy(e, side) then
      local ec, er = game:cell(e)
      if ec ~= nil then
        local d = steps_between(game, col, row, ec, er)
        if gap == nil or d < gap then
          gap, nearest = d, e
        end
      end
    end
  end
  return gap, nearest
end

local function cautious_advance_problem(game, u, path)
  if not game:flag(u, "cautious") or #path < 2 then
    return nil
  end
  local side = game:side(u)
  local start = enemy_gap(game, side, path[1].col, path[1].row)
  if start == nil then
    return nil
  end
  -- The last hex first, so a move that ends nearer says so.
  for i = #path, 2, -1 do
    local gap, e = enemy_gap(game, side, path[i].col, path[i].row)
    if gap < start then
      return game:name(u) .. " may not move in the enemy's direction until its commander passes"
        .. " his Aggressiveness test (decision failure 3): this move "
        .. (i == #path and "ends" or "passes") .. " nearer " .. game:label(e, side)
        .. " (" .. gap .. (gap == 1 and " hex" or " hexes") .. ") than the nearest enemy it knows of stood at its start ("
        .. start .. (start == 1 and " hex" or " hexes") .. ")"
    end
  end
  return nil
end

-- Seventeenth round (the twelfth outside audit's #21): a cautious unit is no longer pinned
-- (`toward_enemy`) or kept from turning (`facing_fixed`); `cautious_advance_problem` judges
-- each move's hexes. The flags stay in the ruleset (a scenario may set them) and this hook
-- point, called after moves and facing changes, keeps nothing now.
update_caution = function(_L) end

-- As `side`'s command phase begins: its commanders awaiting an Aggressiveness test take it.
local function test_aggression(L, side)
  local game = L.game
  local cautious, waiting = false, false
  for _, u in ipairs(game:units(side)) do
    cautious = cautious or L:flag(u, "cautious")
  end
  if not cautious then
    return
  end
  for _, c in ipairs(game:units(side)) do
    if game:kind(c) == "commander" and L:flag(c, "awaiting_aggression") then
      local who = L:name(c)
      if game:resolve("cvs_test", { trait = game:counter(c, "cvs_a") }, "aggressiveness of " .. who) == "pass" then
        L:set(c, "awaiting_aggression", false)
        game:note(who .. " passes his Aggressiveness test: his force may advance again")
      else
        waiting = true
      end
    end
  end
  if not waiting then
    for _, u in ipairs(game:units(side)) do
      if L:flag(u, "cautious") then
        L:set(u, "cautious", false)
      end
    end
  end
  update_caution(L)
end

-- Tribes (optional, l.260; tenth round): as the game begins (in its side's first phase of
-- its own, whose rolls only that side reads, as the CVS notes) each tribal unit (attribute
-- class 3: the designated units) checks its morale once: a d10 rolled higher than its
-- commander's Tactical value fails (the text's own words; the reverse of the other CVS
-- tests). Its commander is the one attached to it, else its side's best (lowest Tactical),
-- else none: Tactical 7, the worst. A failed unit is `wavering` for the game.
local function tribal_morale(L, side)
  local game = L.game
  for _, u in ipairs(game:units(side)) do
    if is_unit(game, u) and game:attribute(u, "class") >= 3 then
      local cmd = commander_of(game, u)
      if cmd == nil then
        for _, c in ipairs(game:units(game:side(u))) do
          if game:kind(c) == "commander" and (cmd == nil or game:counter(c, "cvs_t") < game:counter(cmd, "cvs_t")) then
            cmd = c
          end
        end
      end
      local t = cmd and game:counter(cmd, "cvs_t") or 7
      local roll = game:roll("1d10", "tribal morale of " .. L:name(u) .. " (fails above " .. t .. ")")
      if roll > t then
        L:set(u, "wavering", true)
      end
    end
  end
  update_caution(L)
end

-- Change orders: at most as many changes as the commander's Initiative; pass by rolling
-- higher than Tactical on a d10, or suffer the decision-failure table for his units.
function M.change_orders_check(game, actor)
  if game:counter(actor, "order_changes") >= game:counter(actor, "cvs_i") then
    return game:name(actor) .. " has used all " .. game:counter(actor, "cvs_i") .. " order changes"
  end
end

function M.change_orders(game, actor)
  local L = ledger(game, game:side(actor))
  L:add(actor, "order_changes", 1)
  local result = game:resolve("cvs_test", { trait = game:counter(actor, "cvs_t") },
    "order change by " .. game:name(actor))
  if result == "pass" then
    game:note(game:name(actor) .. "'s new orders are accepted")
    -- 2.2.2 result 4 (l.340): units holding after a failed change hold until new orders are
    -- received: this accepted change is those orders (tenth round).
    for _, u in ipairs(game:units(game:side(actor))) do
      if game:flag(u, "holding") then
        L:set(u, "holding", false)
      end
    end
    return
  end
  local failure = game:resolve("decision_failure", {}, "decision failure of " .. game:name(actor))
  game:note(game:name(actor) .. "'s order change fails: " .. failure)
  -- 2.2.2 result 9 (l.345, "opponents choice of any of the above"; seventeenth round, the
  -- twelfth outside audit's #22): the opponent is told, and the engine chooses for it among
  -- results 1-8 with a d8 (it asks no player in the other's phase); every side reads the
  -- choice, which then binds the force as if rolled. The commander is not named (he may be
  -- hidden with his unit).
  if failure == "opponent's choice" then
    failure = game:resolve("decision_choice", {}, "the opponent's choice for " .. game:name(actor))
    game:announce(game:side(actor) .. "'s order change failed with result 9, the opponent's choice: "
      .. "the engine chose for the opponent (d8 on results 1-8): " .. failure)
  end
  local what = FAILURE[failure] or {}
  local falling = {}
  for _, u in ipairs(game:units(game:side(actor))) do
    -- 6 (l.567-569): a commander attached to a unit negates the decision roll for it, so the
    -- failure's consequences pass over it (eighth round).
    local led = is_unit(game, u) and commander_of(game, u) or nil
    -- Sixteenth round (the eleventh outside audit's #1): a fake takes its force's standing
    -- orders as a unit does (halt, hold, no advance, fall back), else a marker that moved,
    -- turned or stayed put against them would show itself a fake; it takes no hits.
    local fake = not is_unit(game, u) and stands_as_unit(game, u)
    if led ~= nil and next(what) ~= nil then
      game:note(game:name(u) .. " has " .. game:name(led) .. " attached: the decision roll does not bind it")
    elseif fake and game:flag(u, "bluffing") and next(what) ~= nil then
      -- Twenty-seventh round (F1): a fake its owner stands as a commanded unit (`bluff`).
      game:note(game:name(u) .. " stands as a unit with a commander would (its owner's bluff): the decision roll does not bind it")
    elseif stands_as_unit(game, u) then
      if what.halt then
        L:set(u, "halted", true)
      end
      -- 2.2.2 result 4 (l.340): the unit holds where it stands (flag `holding`, in
      -- `pinned_by`: no move; it may turn, fire and fight) until a later order change of its
      -- side is accepted (tenth round).
      if what.hold then
        L:set(u, "holding", true)
      end
      if what.cautious then
        L:set(u, "cautious", true)
      end
      if what.te and not fake then
        te_hit(L, u, 1, false)
      end
      if what.hit and not fake then
        hit(L, u, 1)
      end
      if what.about and not L:flag(u, "routed") and not L:flag(u, "in_melee") then
        local back = game:turned(game:facing(u), 3)
        game:face(u, back)
        falling[#falling + 1] = { u, back }
      end
    end
  end
  fall_back_to_cover(L, falling)
  if what.cautious then
    L:set(actor, "awaiting_aggression", true)
    update_caution(L)
  end
end

-- Twenty-seventh round (the twenty-first outside audit's F1; 2.2.2 l.333-343, 6 l.569,
-- l.264): on a table the owner moves his own plates, so under a failed order change he may
-- leave a fake standing as a unit with a commander attached would stand, and the enemy
-- cannot tell which standing marker has the commander. `bluff`, in the command phase, has
-- a fake stand so (flag `bluffing`, private) until it is ordered again; made after the roll
-- it frees the fake of the failure's standing orders as a commander joining a unit then
-- frees that unit (`attach`); what the failure already did (a fall back) stands.
function M.bluff(game, actor)
  local L = ledger(game, game:side(actor))
  if game:flag(actor, "bluffing") then
    L:set(actor, "bluffing", false)
    game:note(game:name(actor) .. " stands again as a unit without a commander would: a failed order change binds it")
    return
  end
  L:set(actor, "bluffing", true)
  game:note(game:name(actor) .. " stands as a unit with a commander would (its owner's bluff): a failed order change does not bind it")
  local freed = false
  for _, flag in ipairs({ "halted", "holding", "cautious" }) do
    if game:flag(actor, flag) then
      L:set(actor, flag, false)
      freed = true
    end
  end
  if freed then
    game:note(game:name(actor) .. " is bluffed as commanded before movement: the decision roll does not bind it")
    update_caution(L)
  end
end

-- Break point note: when the supreme commander (attribute `supreme`) is killed, every unit
-- of his force rolls the cube at once; on red it withdraws two turns' distance (twice its
-- allowance) straight to its rear.
local function supreme_commander_lost(L, side)
  local game = L.game
  game:note(side .. "'s supreme commander is dead: every unit rolls for integrity")
  for _, u in ipairs(game:units(side)) do
    if stands_as_unit(game, u) and not L.gone[u:id()] and not L:flag(u, "routed") then
      if game:resolve("integrity", {}, "integrity of " .. named(game, u) .. " (supreme commander killed)") == "withdraw" then
        local back = game:turned(game:facing(u), 3)
        fall_back(L, u, back, 2 * math.floor(game:allowance(u) or 0), "withdrew two turns' distance (supreme commander killed)")
      end
    end
  end
end

return {
  hooks = M,
  CVS_KEYS = CVS_KEYS,
  FAILURE = FAILURE,
  GRADES = GRADES,
  roll_cvs = roll_cvs,
  check_set_up_attachments = check_set_up_attachments,
  note_cvs = note_cvs,
  supreme_commander_lost = supreme_commander_lost,
  test_aggression = test_aggression,
  tribal_advance_problem = tribal_advance_problem,
  cautious_advance_problem = cautious_advance_problem,
  tribal_morale = tribal_morale,
  update_caution = update_caution,
}
