-- Argo CD health check for varroa.dev/BroodOperation.
-- A status for an older generation says nothing; Stalled=True is Degraded whatever
-- the phase; then the phase decides: Pending and Running are Progressing, Paused is
-- Suspended, Succeeded is Healthy, Failed and Cancelled are Degraded (a cancelled
-- operation did not do on every target what it was committed for).
-- Written for Lua 5.1 (Argo CD's gopher-lua), without the string library.
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

local function count(counts, field)
  if counts == nil or counts[field] == nil then
    return 0
  end
  return counts[field]
end

local function progress(status)
  local counts = status.counts
  local text = tostring(count(counts, "succeeded")) .. " of " .. tostring(count(counts, "total"))
    .. " targets succeeded"
  if count(counts, "failed") > 0 then
    text = text .. ", " .. tostring(count(counts, "failed")) .. " failed"
  end
  if count(counts, "unknown") > 0 then
    text = text .. ", " .. tostring(count(counts, "unknown")) .. " unknown (cluster not answering)"
  end
  return text
end

local function withMessage(label, status)
  if status.message == nil or status.message == "" then
    return label .. ": " .. progress(status)
  end
  return label .. ": " .. status.message .. " (" .. progress(status) .. ")"
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
  if stalled.message ~= nil and stalled.message ~= "" then
    hs.message = tostring(stalled.reason) .. ": " .. stalled.message
  else
    hs.message = "Stalled: " .. tostring(stalled.reason)
  end
  return hs
end

local phase = status.phase
if phase == "Succeeded" then
  hs.status = "Healthy"
  if status.dryRun == true then
    hs.message = "Dry run: " .. tostring(count(status.counts, "total")) .. " targets listed, nothing touched"
  else
    hs.message = "Succeeded: " .. progress(status)
  end
elseif phase == "Failed" then
  hs.status = "Degraded"
  hs.message = withMessage("Failed", status)
elseif phase == "Cancelled" then
  hs.status = "Degraded"
  hs.message = withMessage("Cancelled", status)
elseif phase == "Paused" then
  hs.status = "Suspended"
  hs.message = withMessage("Paused", status)
elseif phase == "Running" then
  hs.status = "Progressing"
  hs.message = "Running: " .. progress(status)
elseif phase == "Pending" or phase == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to resolve the targets"
else
  hs.status = "Unknown"
  hs.message = "Unrecognised phase " .. tostring(phase)
end
return hs
