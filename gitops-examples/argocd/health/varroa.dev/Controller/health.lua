-- Argo CD health check for varroa.dev/Controller.
-- Attention signals are read in the precedence of the Lifecycle contract:
-- Failed, ReconcileBlocked, JenkinsBootFailed, PluginRollFailed,
-- lastApplyResult.succeeded false, MiteConnected=False/StreamLost.
-- Only then does the phase decide. Written for Lua 5.1 (Argo CD's gopher-lua).
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

local function isTrue(c)
  return c ~= nil and c.status == "True"
end

local function detail(label, text)
  if text == nil or text == "" then
    return label
  end
  return label .. ": " .. text
end

local function degraded(message)
  hs.status = "Degraded"
  hs.message = message
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

local phase = status.phase

if phase == "Failed" then
  local failed = conditionOf(status, "Failed")
  if failed == nil or failed.message == nil or failed.message == "" then
    failed = conditionOf(status, "Stalled")
  end
  if failed ~= nil and failed.message ~= nil and failed.message ~= "" then
    return degraded(failed.message)
  end
  return degraded("Failed")
end

local blocked = conditionOf(status, "ReconcileBlocked")
if isTrue(blocked) then
  if blocked.message ~= nil and blocked.message ~= "" then
    return degraded(blocked.message)
  end
  return degraded(detail("Blocked", blocked.reason))
end

local bootFailed = conditionOf(status, "JenkinsBootFailed")
if isTrue(bootFailed) then
  return degraded(detail("Boot failed", bootFailed.message))
end

local rollFailed = conditionOf(status, "PluginRollFailed")
if isTrue(rollFailed) then
  return degraded(detail("Plugin roll failed", rollFailed.message))
end

local apply = status.lastApplyResult
if apply ~= nil and apply.succeeded == false then
  return degraded(detail("Apply failed", apply.message))
end

local mite = conditionOf(status, "MiteConnected")
if mite ~= nil and mite.status == "False" and mite.reason == "StreamLost" then
  return degraded(detail("Mite unreachable", mite.message))
end

if phase == "Connected" then
  hs.status = "Healthy"
  hs.message = "Jenkins is running and the mite stream is connected"
elseif phase == "Running" then
  hs.status = "Progressing"
  hs.message = "Jenkins is running; waiting for the mite stream"
elseif phase == "Provisioning" then
  hs.status = "Progressing"
  hs.message = "Provisioning: resolving configuration or creating Kubernetes resources"
elseif phase == "Pending" or phase == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for reconciliation"
elseif phase == "Stopped" then
  hs.status = "Suspended"
  hs.message = "Stopped: spec.powerState is Stopped and the StatefulSet is scaled to zero"
elseif phase == "Hibernated" then
  hs.status = "Suspended"
  hs.message = "Hibernated by the inactivity policy"
else
  hs.status = "Unknown"
  hs.message = "Unrecognised phase " .. tostring(phase)
end
return hs
