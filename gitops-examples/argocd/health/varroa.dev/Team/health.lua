-- Argo CD health check for varroa.dev/Team.
-- A status for an older generation is Progressing; Stalled=True (no such pool, or a spec the
-- CRD cannot check) is Degraded; Pending (waiting for room in its pool) is Progressing; Placed
-- is Healthy with its cell. Lua 5.1 (Argo CD's gopher-lua), without the string library.
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

if status.phase == "Placed" then
  hs.status = "Healthy"
  hs.message = "Placed on cell " .. tostring(status.cell) .. " since " .. tostring(status.placedSince)
  return hs
end

hs.status = "Progressing"
hs.message = "Pending: " .. tostring(status.message)
return hs
