-- Argo CD health check for varroa.dev/ComposedBundle.
-- Order: suspend, generation observed, Stalled, Ready=True, Reconciling=True,
-- Ready=False; anything else is still on its way to a first render.
-- Written for Lua 5.1 (Argo CD's gopher-lua).
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

local function present(text)
  return text ~= nil and text ~= ""
end

local function describe(c, fallback)
  if present(c.reason) and present(c.message) then
    return c.reason .. ": " .. c.message
  elseif present(c.message) then
    return c.message
  elseif present(c.reason) then
    return c.reason
  end
  return fallback
end

local status = obj.status
local revision = nil
if status ~= nil and status.artifact ~= nil and present(status.artifact.revision) then
  revision = status.artifact.revision
end

if obj.spec ~= nil and obj.spec.suspend == true then
  hs.status = "Suspended"
  if revision ~= nil then
    hs.message = "Suspended; revision " .. revision .. " stays in force"
  else
    hs.message = "Suspended before a first render"
  end
  return hs
end

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
if isTrue(stalled) then
  hs.status = "Degraded"
  hs.message = describe(stalled, "Stalled")
  return hs
end

local ready = conditionOf(status, "Ready")
if isTrue(ready) then
  hs.status = "Healthy"
  if revision ~= nil then
    hs.message = "Rendered revision " .. revision
  else
    hs.message = describe(ready, "Ready")
  end
  return hs
end

local reconciling = conditionOf(status, "Reconciling")
if isTrue(reconciling) then
  hs.status = "Progressing"
  hs.message = describe(reconciling, "Rendering")
  return hs
end

if ready ~= nil and ready.status == "False" then
  hs.status = "Degraded"
  hs.message = describe(ready, "Not ready")
  if revision ~= nil then
    hs.message = hs.message .. " (last good render " .. revision .. " stays in force)"
  end
  return hs
end

hs.status = "Progressing"
hs.message = "Waiting for the first render"
return hs
