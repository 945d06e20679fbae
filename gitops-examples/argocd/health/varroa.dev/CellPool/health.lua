-- Argo CD health check for varroa.dev/CellPool.
-- A status for an older generation is Progressing; Stalled=True (a team without room) is
-- Degraded; Reconciling=True (a cell scaled away still draining) is Progressing; a cell that
-- is neither Connected nor parked nor stopped is Progressing; anything else is Healthy. The
-- cells themselves are Controllers with a health of their own. Lua 5.1, no string library.
local hs = {}

local function conditionOf(status, kind)
  if status.conditions == nil then
    return nil
  end
  for _, c in ipairs(status.conditions) do
    if c.type == kind then
      return c
    end
  end
  return nil
end

local status = obj.status
if status == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to report status"
  return hs
end

local generation = obj.metadata and obj.metadata.generation
if generation ~= nil and (status.observedGeneration == nil or status.observedGeneration < generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe generation " .. tostring(generation)
  return hs
end

local stalled = conditionOf(status, "Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = tostring(stalled.reason) .. ": " .. tostring(stalled.message)
  return hs
end

local reconciling = conditionOf(status, "Reconciling")
if reconciling ~= nil and reconciling.status == "True" then
  hs.status = "Progressing"
  hs.message = tostring(reconciling.reason) .. ": " .. tostring(reconciling.message)
  return hs
end

local unready = ""
local cells = 0
if status.cells ~= nil then
  for _, cell in ipairs(status.cells) do
    cells = cells + 1
    if cell.phase ~= "Connected" and cell.phase ~= "Hibernated" and cell.phase ~= "Stopped" then
      if unready ~= "" then
        unready = unready .. ", "
      end
      unready = unready .. tostring(cell.name) .. " (" .. tostring(cell.phase) .. ")"
    end
  end
end
if unready ~= "" then
  hs.status = "Progressing"
  hs.message = "Cells not ready yet: " .. unready
  return hs
end

hs.status = "Healthy"
hs.message = tostring(cells) .. " cell(s), " .. tostring(status.placedTeams or 0) .. " team(s) placed"
return hs
