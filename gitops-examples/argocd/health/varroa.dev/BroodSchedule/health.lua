-- Argo CD health check for varroa.dev/BroodSchedule.
-- Suspended first (spec.suspend: no run starts); then a status for an older generation
-- is Progressing; Stalled=True (a schedule or time zone that cannot be read) is
-- Degraded; anything else is Healthy: the runs themselves are BroodOperations with a
-- health of their own. Written for Lua 5.1 (Argo CD's gopher-lua), without the string library.
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

if obj.spec ~= nil and obj.spec.suspend == true then
  hs.status = "Suspended"
  hs.message = "Suspended: spec.suspend is true, no run starts"
  return hs
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

hs.status = "Healthy"
local upcoming = "The schedule fires no more"
if status.nextRunTime ~= nil and status.nextRunTime ~= "" then
  upcoming = "Next run " .. status.nextRunTime
end
if status.lastResult == "Skipped" and status.message ~= nil then
  hs.message = upcoming .. "; last run Skipped: " .. status.message
elseif status.lastResult ~= nil and status.lastOperation ~= nil then
  hs.message = upcoming .. "; last run " .. status.lastResult .. " (" .. status.lastOperation .. ")"
else
  hs.message = upcoming .. "; no run yet"
end
return hs
